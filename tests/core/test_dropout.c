/* test_dropout.c - dropout masks and outputs against the contract.

   The reference below (ref_*) is written from the contract text in docs/SPEC.md and
   the header comment, element by element, without the library's internals: its own
   Philox, its own threshold rounding, its own scale. The only header functions it uses
   are the public f16/bf16 conversions, which tests/core/test_f16.c checks against
   independent oracles. Literal bytes frozen from it (and, for one case, derived by hand
   from Random123's published vector) keep the contract checked on any machine.

   Statistical checks state their bounds; all are 6 sigma (false alarm rate about 2e-9
   per check), and the streams are fixed, so a pass is reproducible, not lucky.

   ./test_dropout --quick runs smaller statistics (for sanitizer builds);
   ./test_dropout --print-frozen prints the frozen values from the reference. */
#define DROPOUT_V0_API   /* written against the 0.1.0 calls: they must keep giving the same bits */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

static int quick;

/* ---------------------------------------------------------------- test inputs */

static uint64_t rng_next(uint64_t *s)   /* splitmix64 */
{
   uint64_t z = (*s += 0x9E3779B97F4A7C15u);
   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
   z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
   return z ^ (z >> 31);
}

static float f32_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t bits_f32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double f64_of(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t bits_f64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* Half arbitrary bit patterns (NaNs with payloads, Infs, denormals, huge, tiny),
   half ordinary values in [-4, 4). */
static void make_x(uint64_t seed, size_t n, float *x32, double *x64, uint16_t *x16)
{
   uint64_t s = seed;
   size_t i;
   for (i = 0; i < n; ++i) {
      uint64_t r = rng_next(&s);
      if (r & 1) {
         x32[i] = f32_of((uint32_t)(r >> 32));
         x64[i] = f64_of(r);
         x16[i] = (uint16_t)(r >> 40);
      } else {
         double v = (double)(int64_t)(r >> 11 & 0xFFFFFFFFFFFu) / 4398046511104.0 * 8.0 - 4.0;
         x32[i] = (float)v;
         x64[i] = v;
         x16[i] = (uint16_t)(bits_f32((float)v) >> 16);
      }
   }
}

/* ---------------------------------------------------------------- the reference */

/* Philox4x32-10 from its definition (Salmon et al. 2011, Random123): ten rounds of
   two 32x32->64 multiplies, the key bumped by the Weyl constants before each round
   after the first. */
static void ref_philox10(const uint32_t ctr[4], uint64_t key, uint32_t out[4])
{
   uint32_t x0 = ctr[0], x1 = ctr[1], x2 = ctr[2], x3 = ctr[3];
   uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
   int round;
   for (round = 0; round < 10; ++round) {
      uint64_t p0, p1;
      uint32_t n0, n2;
      if (round > 0) { k0 += 0x9E3779B9u; k1 += 0xBB67AE85u; }
      p0 = (uint64_t)0xD2511F53u * x0;
      p1 = (uint64_t)0xCD9E8D57u * x2;
      n0 = (uint32_t)(p1 >> 32) ^ x1 ^ k0;
      n2 = (uint32_t)(p0 >> 32) ^ x3 ^ k1;
      x1 = (uint32_t)p1;
      x3 = (uint32_t)p0;
      x0 = n0;
      x2 = n2;
   }
   out[0] = x0; out[1] = x1; out[2] = x2; out[3] = x3;
}

/* word w of stream s under seed k = philox(ctr = {w/4 lo, w/4 hi, s lo, s hi}, key = k)[w%4] */
static uint32_t ref_word(uint64_t seed, uint64_t stream, uint64_t w)
{
   uint32_t ctr[4], out[4];
   ctr[0] = (uint32_t)(w / 4);
   ctr[1] = (uint32_t)((w / 4) >> 32);
   ctr[2] = (uint32_t)stream;
   ctr[3] = (uint32_t)(stream >> 32);
   ref_philox10(ctr, seed, out);
   return out[w % 4];
}

/* position q: bits 32 -> word q; 16 -> half q%2 of word q/2, low first; 8 -> byte q%4 of word q/4 */
static uint32_t ref_draw(uint64_t seed, uint64_t stream, uint64_t q, int bits)
{
   if (bits == 32) return ref_word(seed, stream, q);
   if (bits == 16) return (ref_word(seed, stream, q / 2) >> (16 * (q % 2))) & 0xFFFFu;
   return (ref_word(seed, stream, q / 4) >> (8 * (q % 4))) & 0xFFu;
}

typedef struct ref_rule {
   uint64_t t;      /* floor(p * 2^bits + 1/2) */
   double s64;      /* 2^bits / (2^bits - t) = 1 / q, rounded once; 0 when t = 2^bits */
   float s32;
} ref_rule;

static ref_rule ref_rule_of(double p, int bits)
{
   ref_rule r;
   double two_b = (double)((uint64_t)1 << bits);
   double scaled = p * two_b;                 /* exact: scaling by a power of two */
   uint64_t whole = (uint64_t)scaled;         /* floor, scaled >= 0 */
   double frac = scaled - (double)whole;      /* exact */
   r.t = whole + (frac >= 0.5 ? 1u : 0u);
   r.s64 = r.t == ((uint64_t)1 << bits) ? 0.0 : two_b / (double)(((uint64_t)1 << bits) - r.t);
   r.s32 = (float)r.s64;
   return r;
}

static int ref_keep(uint64_t seed, uint64_t stream, uint64_t q, double p, int bits)
{
   return ref_draw(seed, stream, q, bits) >= ref_rule_of(p, bits).t;
}

static float ref_f32(float x, int keep, ref_rule r)
{
   if (r.t == 0) return x;
   return keep ? x * r.s32 : 0.0f;
}
static double ref_f64(double x, int keep, ref_rule r)
{
   if (r.t == 0) return x;
   return keep ? x * r.s64 : 0.0;
}
static uint16_t ref_f16(uint16_t x, int keep, ref_rule r)
{
   if (r.t == 0) return x;
   return keep ? dropout_f32_to_f16(dropout_f16_to_f32(x) * r.s32) : 0;
}
static uint16_t ref_bf16(uint16_t x, int keep, ref_rule r)
{
   if (r.t == 0) return x;
   return keep ? dropout_f32_to_bf16(dropout_bf16_to_f32(x) * r.s32) : 0;
}

static int mask_bit(const uint8_t *m, size_t j) { return (m[j / 8] >> (j % 8)) & 1; }

/* ---------------------------------------------------------------- one full comparison */

typedef struct bufs {
   float *x32, *y32;
   double *x64, *y64;
   uint16_t *x16, *y16, *yb16;
   uint8_t *m32, *m64, *m16, *mb16, *mm;
   size_t cap;
} bufs;

static bufs B;

static void bufs_init(size_t cap)
{
   size_t mb = cap / 8 + 16;
   B.cap = cap;
   B.x32 = (float *)malloc(cap * 4);   B.y32 = (float *)malloc(cap * 4);
   B.x64 = (double *)malloc(cap * 8);  B.y64 = (double *)malloc(cap * 8);
   B.x16 = (uint16_t *)malloc(cap * 2); B.y16 = (uint16_t *)malloc(cap * 2);
   B.yb16 = (uint16_t *)malloc(cap * 2);
   B.m32 = (uint8_t *)malloc(mb); B.m64 = (uint8_t *)malloc(mb); B.m16 = (uint8_t *)malloc(mb);
   B.mb16 = (uint8_t *)malloc(mb); B.mm = (uint8_t *)malloc(mb);
   if (!B.x32 || !B.y32 || !B.x64 || !B.y64 || !B.x16 || !B.y16 || !B.yb16 || !B.m32 || !B.m64 ||
       !B.m16 || !B.mb16 || !B.mm) {
      printf("FAIL out of memory\n");
      exit(1);
   }
}

/* Runs every forward type and dropout_mask on B.x* (elements [at, at+n) of the buffers,
   masks written from byte `mat` of the mask buffers) and compares each output element
   and mask bit with the reference. Returns the number of mismatches. */
static size_t compare_with_ref(size_t at, size_t mat, size_t n, double p, int bits,
                               uint64_t seed, uint64_t stream, uint64_t offset)
{
   ref_rule r = ref_rule_of(p, bits);
   size_t j, bad = 0, mbytes = (n + 7) / 8;
   int rc = 0;
   memset(B.m32 + mat, 0xFF, mbytes); memset(B.m64 + mat, 0xFF, mbytes);
   memset(B.m16 + mat, 0xFF, mbytes); memset(B.mb16 + mat, 0xFF, mbytes);
   memset(B.mm + mat, 0xFF, mbytes);
   rc |= dropout_v0_forward_f32(B.y32 + at, B.m32 + mat, B.x32 + at, n, p, bits, seed, stream, offset);
   rc |= dropout_v0_forward_f64(B.y64 + at, B.m64 + mat, B.x64 + at, n, p, bits, seed, stream, offset);
   rc |= dropout_v0_forward_f16(B.y16 + at, B.m16 + mat, B.x16 + at, n, p, bits, seed, stream, offset);
   rc |= dropout_v0_forward_bf16(B.yb16 + at, B.mb16 + mat, B.x16 + at, n, p, bits, seed, stream, offset);
   rc |= dropout_v0_mask(B.mm + mat, n, p, bits, seed, stream, offset);
   CHECK(rc == 0, "a call failed (rc bits %d) n=%u p=%g bits=%d", rc, (unsigned)n, p, bits);
   for (j = 0; j < n; ++j) {
      int k = ref_keep(seed, stream, offset + j, p, bits);
      float w32 = ref_f32(B.x32[at + j], k, r);
      double w64 = ref_f64(B.x64[at + j], k, r);
      uint16_t w16 = ref_f16(B.x16[at + j], k, r), wb16 = ref_bf16(B.x16[at + j], k, r);
      int e = (bits_f32(B.y32[at + j]) != bits_f32(w32)) + (bits_f64(B.y64[at + j]) != bits_f64(w64)) +
              (B.y16[at + j] != w16) + (B.yb16[at + j] != wb16) +
              (mask_bit(B.m32 + mat, j) != k) + (mask_bit(B.m64 + mat, j) != k) +
              (mask_bit(B.m16 + mat, j) != k) + (mask_bit(B.mb16 + mat, j) != k) +
              (mask_bit(B.mm + mat, j) != k);
      if (e) {
         if (!bad)
            CHECK(0, "element %u (p=%g bits=%d offset=%llu): keep %d, f32 %08x want %08x, "
                     "f16 %04x want %04x, mask bit %d",
                  (unsigned)j, p, bits, (unsigned long long)offset, k, bits_f32(B.y32[at + j]),
                  bits_f32(w32), B.y16[at + j], w16, mask_bit(B.mm + mat, j));
         ++bad;
      }
   }
   /* bits of the last mask byte past n are written 0 */
   if (n % 8) {
      unsigned high = (unsigned)(0xFFu << (n % 8)) & 0xFFu;
      uint8_t *ms[5];
      int i;
      ms[0] = B.m32; ms[1] = B.m64; ms[2] = B.m16; ms[3] = B.mb16; ms[4] = B.mm;
      for (i = 0; i < 5; ++i)
         if (ms[i][mat + mbytes - 1] & high) {
            if (!bad) CHECK(0, "mask tail bits past n=%u not 0: %02x", (unsigned)n, ms[i][mat + mbytes - 1]);
            ++bad;
         }
   }
   return bad;
}

/* ---------------------------------------------------------------- known answers */

static void test_reference_philox(void)
{
   static const uint32_t zero[4] = {0, 0, 0, 0}, want0[4] = {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u};
   static const uint32_t pi[4] = {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u};
   static const uint32_t wantpi[4] = {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u};
   uint32_t out[4];
   ref_philox10(zero, 0, out);
   CHECK(memcmp(out, want0, sizeof out) == 0, "the test's own Philox fails the zero vector");
   ref_philox10(pi, (uint64_t)0x299f31d0u << 32 | 0xa4093822u, out);
   CHECK(memcmp(out, wantpi, sizeof out) == 0, "the test's own Philox fails the pi vector");
   case_end("reference_philox_kat");
}

/* Seed 0, stream 0, block 0 is Random123's zero vector 6627e8d5 e169c58d bc57ac4c 9b00dbd8.
   8-bit draws (bytes, lowest first): d5 e8 27 66 | 8d c5 69 e1 | 4c ac 57 bc | d8 db 00 9b.
   p = 0.5 -> t = 128, keep iff byte >= 0x80: 1 1 0 0 1 1 0 1 | 0 1 0 1 1 1 0 1 (LSB first)
   -> mask bytes B3 BA. 16-bit (halves, low first): e8d5 6627 c58d e169 ac4c bc57 dbd8 9b00,
   t = 0x8000 -> 1 0 1 1 1 1 1 1 -> FD. 32-bit, t = 2^31: 0 1 1 1 -> 0E (n = 4). */
static void test_hand_derived_masks(void)
{
   uint8_t m[2];
   float x[16], y[16];
   int j;
   CHECK(dropout_v0_mask(m, 16, 0.5, 8, 0, 0, 0) == 0 && m[0] == 0xB3 && m[1] == 0xBA,
         "8-bit mask %02x %02x, want B3 BA", m[0], m[1]);
   CHECK(dropout_v0_mask(m, 8, 0.5, 16, 0, 0, 0) == 0 && m[0] == 0xFD, "16-bit mask %02x, want FD", m[0]);
   CHECK(dropout_v0_mask(m, 4, 0.5, 32, 0, 0, 0) == 0 && m[0] == 0x0E, "32-bit mask %02x, want 0E", m[0]);
   /* offset 4 in 8-bit starts at byte 8d: 1 1 0 1 0 1 0 1 -> AB */
   CHECK(dropout_v0_mask(m, 8, 0.5, 8, 0, 0, 4) == 0 && m[0] == 0xAB, "8-bit offset 4: %02x, want AB", m[0]);
   for (j = 0; j < 16; ++j) x[j] = 1.0f;
   dropout_v0_forward_f32(y, NULL, x, 16, 0.5, 8, 0, 0, 0);
   for (j = 0; j < 16; ++j)
      CHECK(y[j] == (((0xBAB3u >> j) & 1u) ? 2.0f : 0.0f), "y[%d] = %g", j, (double)y[j]);
   case_end("masks_hand_derived_from_random123_vector");
}

/* Literal answers frozen from the reference (./test_dropout --print-frozen). */
typedef struct frozen {
   uint64_t seed, stream, offset;
   double p;
   int bits;
   unsigned n;
   uint8_t mask[8];
   uint32_t y_f32[3];    /* forward_f32 of x = {1, -3.1415927, 1e-40 (denormal)}: bits */
   uint16_t y_f16[3];    /* forward_f16 of x = {1, -3.140625, 6.1e-5}: bits */
   uint16_t y_bf16[3];   /* forward_bf16 of x = {1, -3.140625, 1e-38}: bits */
} frozen;

static const float frozen_x32[3] = {1.0f, -3.14159274f, 1e-40f};
static const uint16_t frozen_x16[3] = {0x3C00u, 0xC248u, 0x0400u};
static const uint16_t frozen_xb16[3] = {0x3F80u, 0xC049u, 0x00D9u};

static const frozen frozen_cases[] = {
   /* seed, stream, offset, p, bits, n; mask bytes; f32, f16, bf16 outputs of the first 3 */
   {1234u, 5u, 1000003u, 0.3, 8, 40,
    {0xFF, 0x7D, 0xFA, 0xF3, 0xCB, 0x00, 0x00, 0x00},
    {0x3FB70FBBu, 0xC08FC6B0u, 0x00018EACu}, {0x3DB8, 0xC47E, 0x05B8}, {0x3FB7, 0xC090, 0x011B}},
   {UINT64_MAX, 0x8000000000000001u, UINT64_MAX - 23u, 0.1, 16, 24,   /* the last 24 positions */
    {0xFB, 0xFF, 0xBF, 0x00, 0x00, 0x00, 0x00, 0x00},
    {0x3F8E3923u, 0xC05F6757u, 0x00000000u}, {0x3C72, 0xC2FB, 0x0000}, {0x3F8E, 0xC05F, 0x0000}},
   {42u, 0u, 7u, 0.7, 32, 16,
    {0x32, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00},
    {0x00000000u, 0xC1278D36u, 0x00000000u}, {0x0000, 0xC93C, 0x0000}, {0x0000, 0xC128, 0x0000}},
   {0xDEADBEEFu, 0x123456789u, ((uint64_t)1 << 40) + 3u, 0.5, 8, 64,
    {0x1F, 0x1B, 0x24, 0x76, 0xE5, 0x6B, 0x12, 0x32},
    {0x40000000u, 0xC0C90FDBu, 0x00022D84u}, {0x4000, 0xC648, 0x0800}, {0x4000, 0xC0C9, 0x0159}},
   {7u, 7u, 0u, 1.0 / 3.0, 16, 33,   /* t = 21845, scale 65536/43691 */
    {0xDF, 0xF7, 0x7F, 0x7F, 0x01, 0x00, 0x00, 0x00},
    {0x3FBFFFA0u, 0xC096CB99u, 0x0001A222u}, {0x3E00, 0xC4B6, 0x0600}, {0x3FC0, 0xC097, 0x0123}},
};

static void frozen_compute(frozen *f)
{
   ref_rule r = ref_rule_of(f->p, f->bits);
   unsigned j;
   memset(f->mask, 0, sizeof f->mask);
   for (j = 0; j < f->n; ++j)
      if (ref_keep(f->seed, f->stream, f->offset + j, f->p, f->bits)) f->mask[j / 8] |= (uint8_t)(1u << (j % 8));
   for (j = 0; j < 3; ++j) {
      int k = ref_keep(f->seed, f->stream, f->offset + j, f->p, f->bits);
      f->y_f32[j] = bits_f32(ref_f32(frozen_x32[j], k, r));
      f->y_f16[j] = ref_f16(frozen_x16[j], k, r);
      f->y_bf16[j] = ref_bf16(frozen_xb16[j], k, r);
   }
}

static void test_frozen(void)
{
   size_t i;
   for (i = 0; i < sizeof frozen_cases / sizeof frozen_cases[0]; ++i) {
      const frozen *f = &frozen_cases[i];
      frozen ref = *f;
      uint8_t m[8];
      float y32[3];
      uint16_t y16[3], yb16[3];
      unsigned j;
      frozen_compute(&ref);
      CHECK(memcmp(ref.mask, f->mask, sizeof m) == 0 && memcmp(ref.y_f32, f->y_f32, sizeof y32) == 0 &&
            memcmp(ref.y_f16, f->y_f16, sizeof y16) == 0 && memcmp(ref.y_bf16, f->y_bf16, sizeof yb16) == 0,
            "case %u: the test's reference no longer gives the frozen answer", (unsigned)i);
      memset(m, 0, sizeof m);
      CHECK(dropout_v0_mask(m, f->n, f->p, f->bits, f->seed, f->stream, f->offset) == 0, "mask call");
      CHECK(memcmp(m, f->mask, sizeof m) == 0, "case %u: mask %02x %02x .., frozen %02x %02x ..",
            (unsigned)i, m[0], m[1], f->mask[0], f->mask[1]);
      dropout_v0_forward_f32(y32, NULL, frozen_x32, 3, f->p, f->bits, f->seed, f->stream, f->offset);
      dropout_v0_forward_f16(y16, NULL, frozen_x16, 3, f->p, f->bits, f->seed, f->stream, f->offset);
      dropout_v0_forward_bf16(yb16, NULL, frozen_xb16, 3, f->p, f->bits, f->seed, f->stream, f->offset);
      for (j = 0; j < 3; ++j) {
         CHECK(bits_f32(y32[j]) == f->y_f32[j], "case %u f32[%u] %08x, frozen %08x", (unsigned)i, j,
               bits_f32(y32[j]), f->y_f32[j]);
         CHECK(y16[j] == f->y_f16[j], "case %u f16[%u] %04x, frozen %04x", (unsigned)i, j, y16[j], f->y_f16[j]);
         CHECK(yb16[j] == f->y_bf16[j], "case %u bf16[%u] %04x, frozen %04x", (unsigned)i, j, yb16[j], f->y_bf16[j]);
      }
   }
   printf("  %u frozen cases\n", (unsigned)(sizeof frozen_cases / sizeof frozen_cases[0]));
   case_end("masks_and_outputs_frozen");
}

static void print_frozen(void)
{
   size_t i;
   for (i = 0; i < sizeof frozen_cases / sizeof frozen_cases[0]; ++i) {
      frozen f = frozen_cases[i];
      int j;
      frozen_compute(&f);
      printf("   {0x%016llXu, 0x%016llXu, 0x%016llXu, %.17g, %d, %u,\n    {", (unsigned long long)f.seed,
             (unsigned long long)f.stream, (unsigned long long)f.offset, f.p, f.bits, f.n);
      for (j = 0; j < 8; ++j) printf("0x%02X%s", f.mask[j], j < 7 ? ", " : "},\n");
      printf("    {0x%08Xu, 0x%08Xu, 0x%08Xu}, {0x%04X, 0x%04X, 0x%04X}, {0x%04X, 0x%04X, 0x%04X}},\n",
             f.y_f32[0], f.y_f32[1], f.y_f32[2], f.y_f16[0], f.y_f16[1], f.y_f16[2], f.y_bf16[0],
             f.y_bf16[1], f.y_bf16[2]);
   }
}

/* ---------------------------------------------------------------- against the reference */

static void test_against_reference(void)
{
   static const size_t ns[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 1000, 4099};
   static const double ps[] = {0.1, 0.3, 0.5, 0.9, 1.0 / 3.0};
   static const int bitss[] = {8, 16, 32};
   uint64_t s = 1;
   size_t total = 0, bad = 0, a, b, c;
   make_x(11, B.cap, B.x32, B.x64, B.x16);
   for (a = 0; a < sizeof ns / sizeof ns[0]; ++a)
      for (b = 0; b < sizeof ps / sizeof ps[0]; ++b)
         for (c = 0; c < 3; ++c) {
            uint64_t seed = rng_next(&s), stream = rng_next(&s) >> (a % 4 * 16);
            uint64_t offset = rng_next(&s) >> (b * 13);   /* most not multiples of a block */
            bad += compare_with_ref(a, a % 3, ns[a], ps[b], bitss[c], seed, stream, offset);
            total += ns[a];
         }
   printf("  %u elements x 4 types + 5 masks compared, %u mismatches\n", (unsigned)total, (unsigned)bad);
   case_end("forward_and_masks_equal_reference (n not multiples of 4..64, odd offsets)");
}

/* ---------------------------------------------------------------- statistics */

static double sqrt_d(double v)   /* Newton, for bounds only: no libm in the tests */
{
   double r = v > 1.0 ? v : 1.0;
   int i;
   if (v <= 0.0) return 0.0;
   for (i = 0; i < 200; ++i) r = 0.5 * (r + v / r);
   return r;
}

static double abs_d(double v) { return v < 0 ? -v : v; }

static uint64_t popcount_bytes(const uint8_t *m, size_t nbytes)
{
   uint64_t c = 0;
   size_t i;
   for (i = 0; i < nbytes; ++i) {
      unsigned v = m[i];
      while (v) { c += v & 1u; v >>= 1; }
   }
   return c;
}

/* Keep count K ~ Binomial(n, q) with q the REALISED keep probability 1 - t/2^bits:
   |K - nq| <= 6 sqrt(n q (1-q)). Where p*2^bits is not an integer, the nominal 1 - p is
   shown to be rejected by the same bound (the data know the difference). */
static void test_keep_rate(void)
{
   static const struct { double p; int bits; int log2n; int nominal_differs; } cs[] = {
      {0.3, 8, 26, 1},        /* t = 77: q = 179/256 = 0.69921875, not 0.7 */
      {0.006, 8, 22, 1},      /* t = 2: q = 254/256, not 0.994 */
      {0.1, 8, 22, 0}, {0.5, 16, 22, 0}, {0.3, 32, 22, 0}, {0.9, 16, 22, 0},
      {1.0 - 1.0 / 256, 8, 22, 0},   /* t = 255: only byte 255 kept */
      {0.001, 16, 22, 0},
   };
   size_t i;
   for (i = 0; i < sizeof cs / sizeof cs[0]; ++i) {
      size_t n = (size_t)1 << (quick ? cs[i].log2n - 4 : cs[i].log2n);
      uint8_t *m = (uint8_t *)malloc(n / 8);
      ref_rule r = ref_rule_of(cs[i].p, cs[i].bits);
      double q = 1.0 - (double)r.t / (double)((uint64_t)1 << cs[i].bits);
      double sd = sqrt_d((double)n * q * (1.0 - q)), k, z, znom;
      if (!m) { CHECK(0, "out of memory"); break; }
      CHECK(dropout_v0_mask(m, n, cs[i].p, cs[i].bits, 777 + i, 3, 12345) == 0, "mask");
      k = (double)popcount_bytes(m, n / 8);
      z = (k - (double)n * q) / sd;
      znom = (k - (double)n * (1.0 - cs[i].p)) / sd;
      printf("  p=%g bits=%d n=2^%d: kept %.0f, realised q=%.8f -> z=%+.2f; nominal 1-p -> z=%+.2f\n",
             cs[i].p, cs[i].bits, quick ? cs[i].log2n - 4 : cs[i].log2n, k, q, z, znom);
      CHECK(abs_d(z) <= 6.0, "p=%g bits=%d: keep count %.0f is %.2f sigma from n*q", cs[i].p, cs[i].bits, k, z);
      if (cs[i].nominal_differs && !quick)
         CHECK(abs_d(znom) > 6.0, "p=%g bits=%d: the nominal rate fits too (z=%.2f)", cs[i].p, cs[i].bits, znom);
      free(m);
   }
   case_end("keep_rate_is_realised_q (6 sigma binomial)");
}

/* Pearson correlation of two 0/1 sequences given as masks. Independent: r ~ N(0, 1/n),
   bound |r| <= 6/sqrt(n). */
static double corr_bits(const uint8_t *a, size_t ashift, const uint8_t *b, size_t n)
{
   double sa = 0, sb = 0, sab = 0, ma, mb, va, vb;
   size_t j;
   for (j = 0; j < n; ++j) {
      int x = mask_bit(a, j + ashift), y = mask_bit(b, j);
      sa += x; sb += y; sab += x & y;
   }
   ma = sa / (double)n; mb = sb / (double)n;
   va = ma * (1 - ma); vb = mb * (1 - mb);
   return (sab / (double)n - ma * mb) / sqrt_d(va * vb);
}

static void test_correlations(void)
{
   static const size_t lags[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65};
   size_t n = quick ? (size_t)1 << 16 : (size_t)1 << 20, i;
   size_t bytes = n / 8 + 16;
   uint8_t *a = (uint8_t *)malloc(bytes), *b = (uint8_t *)malloc(bytes);
   double bound = 6.0 / sqrt_d((double)n), worst = 0;
   int bits;
   if (!a || !b) { CHECK(0, "out of memory"); case_end("correlations"); return; }
   for (bits = 8; bits <= 32; bits *= 2) {
      /* neighbours in one call: element j against j + lag (within and across blocks) */
      dropout_v0_mask(a, n + 128, 0.5, bits, 99, 1, 5);
      for (i = 0; i < sizeof lags / sizeof lags[0]; ++i) {
         double r = corr_bits(a, lags[i], a, n);
         if (abs_d(r) > worst) worst = abs_d(r);
         CHECK(abs_d(r) <= bound, "bits=%d lag %u: r=%.5f > %.5f", bits, (unsigned)lags[i], r, bound);
      }
      /* the same positions in other streams and under other seeds */
      {
         static const uint64_t other[][2] = {{99, 2}, {100, 1}, {99, (uint64_t)1 << 32 | 1}, {(uint64_t)1 << 32 | 99, 1}};
         for (i = 0; i < 4; ++i) {
            double r;
            dropout_v0_mask(b, n, 0.5, bits, other[i][0], other[i][1], 5);
            r = corr_bits(a, 0, b, n);
            if (abs_d(r) > worst) worst = abs_d(r);
            CHECK(abs_d(r) <= bound, "bits=%d seed/stream pair %u: r=%.5f > %.5f", bits, (unsigned)i, r, bound);
         }
      }
   }
   printf("  n=%u: max |r| = %.5f, bound 6/sqrt(n) = %.5f\n", (unsigned)n, worst, bound);
   free(a); free(b);
   case_end("no_correlation_neighbours_streams_seeds (|r| <= 6/sqrt(n))");
}

/* E[y] = x: kept y = x/q with probability q. y/x has sd sqrt((1-q)/q); the mean of n
   draws is within 6 sd/sqrt(n), plus the rounding of the scale (2^-52 in f64, 2^-24 f32). */
static void test_mean_preserved(void)
{
   static const struct { double p; int bits; } cs[] = {{0.3, 8}, {0.5, 16}, {0.9, 32}, {0.1, 8}};
   size_t n = quick ? (size_t)1 << 16 : (size_t)1 << 21, i, j;
   double *x = (double *)malloc(n * 8), *y = (double *)malloc(n * 8);
   float *x32 = (float *)malloc(n * 4), *y32 = (float *)malloc(n * 4);
   if (!x || !y || !x32 || !y32) { CHECK(0, "out of memory"); case_end("mean"); return; }
   for (j = 0; j < n; ++j) { x[j] = 1.5; x32[j] = 1.5f; }
   for (i = 0; i < sizeof cs / sizeof cs[0]; ++i) {
      ref_rule r = ref_rule_of(cs[i].p, cs[i].bits);
      double q = 1.0 - (double)r.t / (double)((uint64_t)1 << cs[i].bits);
      double sd = 1.5 * sqrt_d((1 - q) / q), sum = 0, sum32 = 0, m, m32, bound;
      dropout_v0_forward_f64(y, NULL, x, n, cs[i].p, cs[i].bits, 5, 6, 7);
      dropout_v0_forward_f32(y32, NULL, x32, n, cs[i].p, cs[i].bits, 5, 6, 7);
      for (j = 0; j < n; ++j) { sum += y[j]; sum32 += (double)y32[j]; }
      m = sum / (double)n; m32 = sum32 / (double)n;
      bound = 6 * sd / sqrt_d((double)n);
      printf("  p=%g bits=%d: mean y = %.6f (f64), %.6f (f32), x = 1.5, bound %.6f\n", cs[i].p, cs[i].bits, m, m32, bound);
      CHECK(abs_d(m - 1.5) <= bound + 1e-12, "f64 mean %.8f, x 1.5, bound %.8f", m, bound);
      CHECK(abs_d(m32 - 1.5) <= bound + 1.5 * 1.2e-7, "f32 mean %.8f, x 1.5, bound %.8f", m32, bound);
   }
   free(x); free(y); free(x32); free(y32);
   case_end("mean_of_y_equals_x (6 sigma)");
}

/* ---------------------------------------------------------------- invariances */

/* Any split into chunks at any offsets equals one call: outputs bitwise, masks bitwise
   (chunk masks go to their own buffers when a chunk does not start at a multiple of 8). */
static void test_chunking(void)
{
   enum { N = 100003 };
   float *y1 = (float *)malloc(N * 4), *y2 = (float *)malloc(N * 4);
   uint8_t *m1 = (uint8_t *)malloc(N / 8 + 1), *m2 = (uint8_t *)malloc(N / 8 + 1), *mc = (uint8_t *)malloc(N / 8 + 2);
   uint64_t s = 5;
   int bits, trial;
   size_t chunks = 0, bad = 0;
   if (!y1 || !y2 || !m1 || !m2 || !mc) { CHECK(0, "out of memory"); case_end("chunking"); return; }
   make_x(3, N, B.x32, B.x64, B.x16);
   for (bits = 8; bits <= 32; bits *= 2)
      for (trial = 0; trial < 3; ++trial) {
         uint64_t seed = rng_next(&s), stream = rng_next(&s), off = rng_next(&s) >> 1;
         size_t at, j;
         dropout_v0_forward_f32(y1, m1, B.x32, N, 0.3, bits, seed, stream, off);
         /* arbitrary chunk sizes */
         for (at = 0; at < N;) {
            size_t len = 1 + (size_t)(rng_next(&s) % (trial == 0 ? 7 : 3000));
            if (len > N - at) len = N - at;
            dropout_v0_forward_f32(y2 + at, mc, B.x32 + at, len, 0.3, bits, seed, stream, off + at);
            for (j = 0; j < len; ++j) bad += mask_bit(mc, j) != mask_bit(m1, at + j);
            at += len; ++chunks;
         }
         bad += memcmp(y1, y2, N * 4) != 0;
         /* chunks at multiples of 8 write straight into one mask */
         memset(m2, 0xEE, N / 8 + 1);
         for (at = 0; at < N;) {
            size_t len = 8 * (1 + (size_t)(rng_next(&s) % 500));
            if (len > N - at) len = N - at;
            dropout_v0_mask(m2 + at / 8, len, 0.3, bits, seed, stream, off + at);
            at += len; ++chunks;
         }
         bad += memcmp(m1, m2, N / 8 + 1) != 0;
      }
   printf("  %u chunks, %u differences\n", (unsigned)chunks, (unsigned)bad);
   CHECK(bad == 0, "%u chunked results differ from one call", (unsigned)bad);
   free(y1); free(y2); free(m1); free(m2); free(mc);
   case_end("chunked_calls_equal_one_call");
}

/* In place == out of place; every way to get the backward agrees; masks of all types agree. */
static void test_equivalences(void)
{
   enum { N = 5003 };
   static float a32[N], b32[N], c32[N];
   static double a64[N], b64[N], c64[N];
   static uint16_t a16[N], b16[N], c16[N];
   static uint8_t m[N / 8 + 1], m2[N / 8 + 1];
   int bits;
   size_t bad = 0;
   make_x(4, N, B.x32, B.x64, B.x16);
   for (bits = 8; bits <= 32; bits *= 2) {
      const double p = 0.37;
      const uint64_t sd = 31, st = 41, of = 59;
      /* f32: in place, stored-mask backward, rebuilt-mask backward, apply_mask */
      dropout_v0_forward_f32(a32, m, B.x32, N, p, bits, sd, st, of);
      memcpy(b32, B.x32, sizeof b32);
      dropout_v0_forward_f32(b32, m2, b32, N, p, bits, sd, st, of);
      bad += memcmp(a32, b32, sizeof a32) != 0 || memcmp(m, m2, sizeof m) != 0;
      dropout_v0_backward_f32(b32, B.x32, N, p, bits, sd, st, of);
      dropout_backward_mask_f32(c32, B.x32, m, N, p, bits);
      bad += memcmp(a32, b32, sizeof a32) != 0 || memcmp(a32, c32, sizeof a32) != 0;
      dropout_v0_apply_mask_f32(c32, B.x32, m, N, p, bits);
      bad += memcmp(a32, c32, sizeof a32) != 0;
      memcpy(c32, B.x32, sizeof c32);
      dropout_backward_mask_f32(c32, c32, m, N, p, bits);   /* in place from a stored mask */
      bad += memcmp(a32, c32, sizeof a32) != 0;
      /* f64 */
      dropout_v0_forward_f64(a64, m2, B.x64, N, p, bits, sd, st, of);
      bad += memcmp(m, m2, sizeof m) != 0;
      memcpy(b64, B.x64, sizeof b64);
      dropout_v0_forward_f64(b64, NULL, b64, N, p, bits, sd, st, of);
      dropout_backward_mask_f64(c64, B.x64, m, N, p, bits);
      bad += memcmp(a64, b64, sizeof a64) != 0 || memcmp(a64, c64, sizeof a64) != 0;
      dropout_v0_backward_f64(c64, B.x64, N, p, bits, sd, st, of);
      bad += memcmp(a64, c64, sizeof a64) != 0;
      dropout_v0_apply_mask_f64(c64, B.x64, m, N, p, bits);
      bad += memcmp(a64, c64, sizeof a64) != 0;
      /* f16 */
      dropout_v0_forward_f16(a16, m2, B.x16, N, p, bits, sd, st, of);
      bad += memcmp(m, m2, sizeof m) != 0;
      memcpy(b16, B.x16, sizeof b16);
      dropout_v0_forward_f16(b16, NULL, b16, N, p, bits, sd, st, of);
      dropout_backward_mask_f16(c16, B.x16, m, N, p, bits);
      bad += memcmp(a16, b16, sizeof a16) != 0 || memcmp(a16, c16, sizeof a16) != 0;
      dropout_v0_backward_f16(c16, B.x16, N, p, bits, sd, st, of);
      bad += memcmp(a16, c16, sizeof a16) != 0;
      dropout_v0_apply_mask_f16(c16, B.x16, m, N, p, bits);
      bad += memcmp(a16, c16, sizeof a16) != 0;
      /* bf16 */
      dropout_v0_forward_bf16(a16, m2, B.x16, N, p, bits, sd, st, of);
      bad += memcmp(m, m2, sizeof m) != 0;
      memcpy(b16, B.x16, sizeof b16);
      dropout_v0_forward_bf16(b16, NULL, b16, N, p, bits, sd, st, of);
      dropout_backward_mask_bf16(c16, B.x16, m, N, p, bits);
      bad += memcmp(a16, b16, sizeof a16) != 0 || memcmp(a16, c16, sizeof a16) != 0;
      dropout_v0_backward_bf16(c16, B.x16, N, p, bits, sd, st, of);
      bad += memcmp(a16, c16, sizeof a16) != 0;
      dropout_v0_apply_mask_bf16(c16, B.x16, m, N, p, bits);
      bad += memcmp(a16, c16, sizeof a16) != 0;
      /* mask alone */
      dropout_v0_mask(m2, N, p, bits, sd, st, of);
      bad += memcmp(m, m2, sizeof m) != 0;
      CHECK(bad == 0, "bits=%d: %u comparisons differ", bits, (unsigned)bad);
   }
   case_end("in_place_backward_stored_rebuilt_and_type_masks_identical");
}

/* ---------------------------------------------------------------- edge cases */

static const float specials32[] = {0.0f, -0.0f, 1.0f, -1.0f, 1e-45f, -1e-45f, 1.1754942e-38f,
                                   3.4028235e38f, -3.4028235e38f};
static const uint32_t special_bits32[] = {0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC12345u,
                                          0x7F800001u /* signalling */, 0x7FBFFFFFu, 0x00000001u, 0x807FFFFFu};
static const uint64_t special_bits64[] = {0x7FF0000000000000u, 0xFFF0000000000000u, 0x7FF8000000000000u,
                                          0xFFF8000012345678u, 0x7FF0000000000001u, 0x8000000000000000u,
                                          0x0000000000000001u, 0x800FFFFFFFFFFFFFu};
static const uint16_t special_bits16[] = {0x0000u, 0x8000u, 0x7C00u, 0xFC00u, 0x7E00u, 0xFE37u, 0x7C01u,
                                          0x0001u, 0x83FFu, 0x7BFFu, 0x7F80u, 0xFF80u, 0x7FC1u, 0x7F81u, 0x0001u};

/* fill B.x* with specials, repeated */
static void make_specials(size_t n)
{
   size_t j;
   size_t n32 = sizeof specials32 / sizeof specials32[0], nb32 = sizeof special_bits32 / sizeof special_bits32[0];
   for (j = 0; j < n; ++j) {
      size_t k = j % (n32 + nb32);
      B.x32[j] = k < n32 ? specials32[k] : f32_of(special_bits32[k - n32]);
      B.x64[j] = k < n32 ? (double)specials32[k] : f64_of(special_bits64[(k - n32) % 8]);
      B.x16[j] = special_bits16[j % (sizeof special_bits16 / sizeof special_bits16[0])];
   }
}

static void test_p_zero_is_identity(void)
{
   enum { N = 1001 };
   size_t j;
   int bits;
   make_specials(N);
   for (bits = 8; bits <= 32; bits *= 2) {
      int rc = 0;
      rc |= dropout_v0_forward_f32(B.y32, B.m32, B.x32, N, -0.0, bits, 1, 2, 3);   /* -0.0 is a valid p = 0 */
      rc |= dropout_v0_forward_f64(B.y64, B.m64, B.x64, N, 0.0, bits, 1, 2, 3);
      rc |= dropout_v0_forward_f16(B.y16, B.m16, B.x16, N, 0.0, bits, 1, 2, 3);
      rc |= dropout_v0_forward_bf16(B.yb16, B.mb16, B.x16, N, 0.0, bits, 1, 2, 3);
      CHECK(rc == 0, "p = 0 rejected");
      CHECK(memcmp(B.y32, B.x32, N * 4) == 0, "bits=%d f32 not a bit copy", bits);
      CHECK(memcmp(B.y64, B.x64, N * 8) == 0, "bits=%d f64 not a bit copy", bits);
      CHECK(memcmp(B.y16, B.x16, N * 2) == 0, "bits=%d f16 not a bit copy", bits);
      CHECK(memcmp(B.yb16, B.x16, N * 2) == 0, "bits=%d bf16 not a bit copy", bits);
      for (j = 0; j < N / 8; ++j) CHECK(B.m32[j] == 0xFF && B.m16[j] == 0xFF, "mask byte %u not all kept", (unsigned)j);
      CHECK(B.m32[N / 8] == 0x01, "mask tail %02x, want 01", B.m32[N / 8]);
      /* tiny p that rounds to t = 0 is p = 0 */
      dropout_v0_forward_f32(B.y32, NULL, B.x32, N, bits == 32 ? 1e-10 : bits == 16 ? 7e-6 : 1.9e-3, bits, 1, 2, 3);
      CHECK(memcmp(B.y32, B.x32, N * 4) == 0, "bits=%d: p rounding to t=0 not a bit copy", bits);
   }
   case_end("p_zero_copies_bits (NaN payloads, -0, Inf, denormals)");
}

static void test_all_dropped(void)
{
   enum { N = 777 };
   static const struct { double p; int bits; } cs[] = {
      {1.0, 8}, {1.0, 16}, {1.0, 32},
      {1.0 - 1.0 / 1099511627776.0, 32},   /* 1 - 2^-40: t rounds to 2^32 */
      {1.0 - 1.0 / 512, 8},                /* 1 - 2^-9: 255.5 + 0.5 -> t = 256 */
      {1.0 - 1.0 / 131072, 16},            /* 1 - 2^-17 */
   };
   size_t i, j;
   make_specials(N);
   for (i = 0; i < sizeof cs / sizeof cs[0]; ++i) {
      int rc = 0;
      memset(B.m32, 0xFF, N / 8 + 1); memset(B.mm, 0xFF, N / 8 + 1);
      rc |= dropout_v0_forward_f32(B.y32, B.m32, B.x32, N, cs[i].p, cs[i].bits, 8, 9, 10);
      rc |= dropout_v0_forward_f64(B.y64, NULL, B.x64, N, cs[i].p, cs[i].bits, 8, 9, 10);
      rc |= dropout_v0_forward_f16(B.y16, NULL, B.x16, N, cs[i].p, cs[i].bits, 8, 9, 10);
      rc |= dropout_v0_forward_bf16(B.yb16, NULL, B.x16, N, cs[i].p, cs[i].bits, 8, 9, 10);
      rc |= dropout_v0_mask(B.mm, N, cs[i].p, cs[i].bits, 8, 9, 10);
      CHECK(rc == 0, "p=%.17g bits=%d rejected", cs[i].p, cs[i].bits);
      for (j = 0; j < N; ++j) {
         CHECK(bits_f32(B.y32[j]) == 0 && bits_f64(B.y64[j]) == 0 && B.y16[j] == 0 && B.yb16[j] == 0,
               "p=%.17g bits=%d element %u (x bits %08x) not +0", cs[i].p, cs[i].bits, (unsigned)j, bits_f32(B.x32[j]));
      }
      for (j = 0; j <= N / 8; ++j) CHECK(B.m32[j] == 0 && B.mm[j] == 0, "mask byte %u = %02x", (unsigned)j, B.mm[j]);
      /* a stored mask that claims kept elements changes nothing (SPEC section 7): no
         Inf * 0, no -0 from a negative times 0 */
      memset(B.mm, 0xFF, N / 8 + 1);
      rc |= dropout_v0_apply_mask_f32(B.y32, B.x32, B.mm, N, cs[i].p, cs[i].bits);
      rc |= dropout_v0_apply_mask_f64(B.y64, B.x64, B.mm, N, cs[i].p, cs[i].bits);
      rc |= dropout_backward_mask_f16(B.y16, B.x16, B.mm, N, cs[i].p, cs[i].bits);
      rc |= dropout_backward_mask_bf16(B.yb16, B.x16, B.mm, N, cs[i].p, cs[i].bits);
      CHECK(rc == 0, "apply_mask p=%.17g bits=%d rejected", cs[i].p, cs[i].bits);
      for (j = 0; j < N; ++j)
         CHECK(bits_f32(B.y32[j]) == 0 && bits_f64(B.y64[j]) == 0 && B.y16[j] == 0 && B.yb16[j] == 0,
               "apply_mask p=%.17g bits=%d element %u (x bits %08x) not +0", cs[i].p, cs[i].bits, (unsigned)j, bits_f32(B.x32[j]));
   }
   case_end("p_one_and_just_below_drop_all_to_plus_zero (also under an all-ones stored mask)");
}

/* Rules at the extremes, element by element against the reference. */
static void test_extreme_rules(void)
{
   static const struct { double p; int bits; } cs[] = {
      {1.0 - 1.0 / 256, 8},          /* t = 255: keep only draw 255, scale 256 */
      {1.0 - 1.0 / 65536, 16},
      {1.0 / 8589934592.0, 32},      /* 2^-33: 0.5 + 0.5 -> t = 1, scale_f32 = 1 */
      {1.0 / 512, 8},                /* 2^-9 -> t = 1 */
      {0.5 / 256 - 1e-17, 8},        /* just under the rounding point: t = 0 */
      {1e-300, 32}, {4.9e-324, 16},  /* denormal p */
   };
   size_t i, bad = 0;
   make_x(5, 4096, B.x32, B.x64, B.x16);
   for (i = 0; i < sizeof cs / sizeof cs[0]; ++i)
      bad += compare_with_ref(0, 0, 4096, cs[i].p, cs[i].bits, 1000 + i, 0, 64 * i);
   printf("  %u rules x 4096 elements, %u mismatches\n", (unsigned)(sizeof cs / sizeof cs[0]), (unsigned)bad);
   case_end("extreme_rules_equal_reference");
}

/* NaN / Inf / denormal inputs at p = 0.5: kept are multiplied, dropped are +0. */
static void test_special_inputs(void)
{
   enum { N = 2000 };
   size_t bad = 0, j, nan_dropped = 0;
   int bits;
   make_specials(N);
   for (bits = 8; bits <= 32; bits *= 2) {
      bad += compare_with_ref(0, 0, N, 0.5, bits, 2024, 1, 0);
      bad += compare_with_ref(0, 0, N, 0.25, bits, 2024, 1, 0);   /* scale 4/3: rounding of denormals */
      for (j = 0; j < N; ++j)
         if (B.x32[j] != B.x32[j] && !mask_bit(B.mm, j)) {
            ++nan_dropped;
            CHECK(bits_f32(B.y32[j]) == 0, "dropped NaN gives %08x", bits_f32(B.y32[j]));
         }
   }
   printf("  %u NaN inputs dropped to +0, %u mismatches with the reference\n", (unsigned)nan_dropped, (unsigned)bad);
   CHECK(nan_dropped > 0, "no dropped NaN seen");
   case_end("nan_inf_denormal_inputs");
}

static void test_n_zero_and_null(void)
{
   uint8_t m[4] = {0xA5, 0xA5, 0xA5, 0xA5};
   float f = 1.0f;
   uint64_t big = UINT64_MAX;
   int rc = 0;
   /* n = 0: any pointer may be NULL, any offset is fine, nothing is written */
   rc |= dropout_v0_forward_f32(NULL, NULL, NULL, 0, 0.5, 8, 0, 0, big);
   rc |= dropout_v0_forward_f64(NULL, NULL, NULL, 0, 0.5, 8, 0, 0, big);
   rc |= dropout_v0_forward_f16(NULL, NULL, NULL, 0, 0.5, 8, 0, 0, big);
   rc |= dropout_v0_forward_bf16(NULL, NULL, NULL, 0, 0.5, 8, 0, 0, big);
   rc |= dropout_v0_backward_f32(NULL, NULL, 0, 0.5, 16, 0, 0, big);
   rc |= dropout_v0_backward_f64(NULL, NULL, 0, 0.5, 16, 0, 0, big);
   rc |= dropout_v0_backward_f16(NULL, NULL, 0, 0.5, 16, 0, 0, big);
   rc |= dropout_v0_backward_bf16(NULL, NULL, 0, 0.5, 16, 0, 0, big);
   rc |= dropout_v0_mask(NULL, 0, 0.5, 32, 0, 0, big);
   rc |= dropout_v0_apply_mask_f32(NULL, NULL, NULL, 0, 0.5, 8);
   rc |= dropout_v0_apply_mask_f64(NULL, NULL, NULL, 0, 0.5, 8);
   rc |= dropout_v0_apply_mask_f16(NULL, NULL, NULL, 0, 0.5, 8);
   rc |= dropout_v0_apply_mask_bf16(NULL, NULL, NULL, 0, 0.5, 8);
   rc |= dropout_backward_mask_f32(NULL, NULL, NULL, 0, 0.5, 8);
   rc |= dropout_backward_mask_f64(NULL, NULL, NULL, 0, 0.5, 8);
   rc |= dropout_backward_mask_f16(NULL, NULL, NULL, 0, 0.5, 8);
   rc |= dropout_backward_mask_bf16(NULL, NULL, NULL, 0, 0.5, 8);
   CHECK(rc == 0, "an n = 0 call with NULL pointers failed");
   rc = dropout_v0_forward_f32(&f, m, &f, 0, 0.5, 8, 0, 0, 0) | dropout_v0_mask(m, 0, 0.5, 8, 0, 0, 0);
   CHECK(rc == 0 && m[0] == 0xA5 && f == 1.0f, "an n = 0 call wrote something");
   /* the mask is optional in forward */
   CHECK(dropout_v0_forward_f32(&f, NULL, &f, 1, 0.0, 8, 0, 0, 0) == 0 && f == 1.0f, "NULL mask refused");
   case_end("n_zero_with_null_pointers");
}

/* Different element offsets within buffers and masks at odd byte addresses. */
static void test_buffer_offsets(void)
{
   size_t k, bad = 0;
   make_x(6, B.cap, B.x32, B.x64, B.x16);
   for (k = 0; k < 8; ++k) {
      bad += compare_with_ref(k, 1 + 2 * k, 203 + k, 0.4, 8, 17, 18, 19 + k);
      bad += compare_with_ref(k + 1, 3, 67, 0.6, 16, 17, 18, 3 * k);
   }
   printf("  16 calls at element offsets 0..8 and mask bytes 1..15, %u mismatches\n", (unsigned)bad);
   case_end("buffer_element_offsets_and_odd_mask_addresses");
}

static void test_offsets_near_end(void)
{
   static const size_t ns[] = {1, 5, 64, 200};
   size_t i, bad = 0;
   make_x(7, B.cap, B.x32, B.x64, B.x16);
   for (i = 0; i < sizeof ns / sizeof ns[0]; ++i) {
      size_t n = ns[i];
      int bits = (int)(8u << (i % 3));
      uint64_t last = UINT64_MAX - n + 1;   /* positions last .. 2^64 - 1: allowed */
      bad += compare_with_ref(0, 0, n, 0.5, bits, 3, 4, last);
      memset(B.y32, 0x5A, n * 4); memset(B.m32, 0x5A, n / 8 + 1);
      if (n > 1)   /* for n = 1, "one more" would be offset 2^64 */
         CHECK(dropout_v0_forward_f32(B.y32, B.m32, B.x32, n, 0.5, bits, 3, 4, last + 1) == DROPOUT_ERR_RANGE,
               "n=%u offset 2^64-n+1 not a range error", (unsigned)n);
      CHECK(dropout_v0_mask(B.m32, n, 0.5, bits, 3, 4, UINT64_MAX) == (n == 1 ? 0 : DROPOUT_ERR_RANGE), "mask at 2^64-1");
      if (n > 1) {
         size_t j;
         for (j = 0; j < n * 4; ++j) CHECK(((uint8_t *)B.y32)[j] == 0x5A, "written on a range error");
      }
   }
   bad += compare_with_ref(0, 0, 16, 0.5, 8, 3, 4, ((uint64_t)1 << 63) - 8);   /* across 2^63 */
   bad += compare_with_ref(0, 0, 256, 0.5, 32, 3, 4, ((uint64_t)1 << 34) - 100);  /* block 2^32: counter carry */
   printf("  %u mismatches with the reference near 2^64\n", (unsigned)bad);
   case_end("offsets_near_2^64");
}

static void test_gen(void)
{
   dropout_v0_gen g = dropout_v0_gen_make(77, 88), h;
   uint64_t off = 12345;
   CHECK(g.seed == 77 && g.stream == 88 && g.offset == 0, "gen_make");
   CHECK(dropout_gen_next(&g, 10, &off) == 0 && off == 0 && g.offset == 10, "first reservation");
   CHECK(dropout_gen_next(&g, 0, &off) == 0 && off == 10 && g.offset == 10, "empty reservation");
   CHECK(dropout_gen_next(&g, 5, &off) == 0 && off == 10 && g.offset == 15, "second reservation");
   g.offset = UINT64_MAX - 5;
   CHECK(dropout_gen_next(&g, 5, &off) == 0 && off == UINT64_MAX - 5 && g.offset == UINT64_MAX, "up to 2^64-1");
   h = g; off = 4242;
   CHECK(dropout_gen_next(&g, 1, &off) == DROPOUT_ERR_RANGE, "overflow not reported");
   CHECK(off == 4242 && memcmp(&g, &h, sizeof g) == 0, "state changed by a failed reservation");
   g.offset = 1;
   CHECK(dropout_gen_next(&g, (size_t)-1, &off) == DROPOUT_ERR_RANGE, "SIZE_MAX from 1 not reported");
   CHECK(dropout_gen_next(NULL, 1, &off) == DROPOUT_ERR_NULL, "NULL gen");
   CHECK(dropout_gen_next(&g, 1, NULL) == DROPOUT_ERR_NULL && g.offset == 1, "NULL offset");
   case_end("gen_next_reserves_and_reports_overflow");
}

static void test_strerror(void)
{
   static const int codes[] = {DROPOUT_OK, DROPOUT_ERR_P, DROPOUT_ERR_NULL, DROPOUT_ERR_BITS,
                               DROPOUT_ERR_RANGE, DROPOUT_ERR_ARG};
   size_t i, j;
   for (i = 0; i < sizeof codes / sizeof codes[0]; ++i) {
      const char *s = dropout_strerror(codes[i]);
      CHECK(s && s[0], "code %d has no message", codes[i]);
      for (j = 0; j < i; ++j) CHECK(strcmp(s, dropout_strerror(codes[j])) != 0, "codes %d and %d share a message", codes[i], codes[j]);
   }
   CHECK(dropout_strerror(DROPOUT_ERR_CUDA_BASE - 2) != NULL, "CUDA code");
   CHECK(strcmp(dropout_strerror(DROPOUT_ERR_CUDA_BASE - 2), dropout_strerror(-77)) != 0, "CUDA vs unknown");
   CHECK(dropout_strerror(12345) != NULL && dropout_strerror(-6) != NULL, "unknown codes");
   case_end("strerror_every_code");
}

/* ---------------------------------------------------------------- errors write nothing */

enum { EN = 50, CANARY = 0xC3 };
static float e_y32[EN], e_x32[EN];
static double e_y64[EN], e_x64[EN];
static uint16_t e_y16[EN], e_x16[EN];
static uint8_t e_m[16], e_min[16];

static void canary_set(void)
{
   memset(e_y32, CANARY, sizeof e_y32); memset(e_y64, CANARY, sizeof e_y64);
   memset(e_y16, CANARY, sizeof e_y16); memset(e_m, CANARY, sizeof e_m);
}

static int canary_ok(void)
{
   size_t i;
   const uint8_t *ps[4];
   size_t ns[4];
   ps[0] = (const uint8_t *)e_y32; ns[0] = sizeof e_y32;
   ps[1] = (const uint8_t *)e_y64; ns[1] = sizeof e_y64;
   ps[2] = (const uint8_t *)e_y16; ns[2] = sizeof e_y16;
   ps[3] = e_m; ns[3] = sizeof e_m;
   for (i = 0; i < 4; ++i) {
      size_t j;
      for (j = 0; j < ns[i]; ++j)
         if (ps[i][j] != CANARY) return 0;
   }
   return 1;
}

/* Every function that draws from the stream, with one set of arguments; returns the
   number of calls that did not return `want` or wrote into an output. */
static int stream_calls_fail(const char *what, size_t n, double p, int bits, uint64_t off, int want)
{
   int rc[9], i, bad = 0;
   canary_set();
   rc[0] = dropout_v0_forward_f32(e_y32, e_m, e_x32, n, p, bits, 1, 2, off);
   rc[1] = dropout_v0_forward_f64(e_y64, e_m, e_x64, n, p, bits, 1, 2, off);
   rc[2] = dropout_v0_forward_f16(e_y16, e_m, e_x16, n, p, bits, 1, 2, off);
   rc[3] = dropout_v0_forward_bf16(e_y16, e_m, e_x16, n, p, bits, 1, 2, off);
   rc[4] = dropout_v0_backward_f32(e_y32, e_x32, n, p, bits, 1, 2, off);
   rc[5] = dropout_v0_backward_f64(e_y64, e_x64, n, p, bits, 1, 2, off);
   rc[6] = dropout_v0_backward_f16(e_y16, e_x16, n, p, bits, 1, 2, off);
   rc[7] = dropout_v0_backward_bf16(e_y16, e_x16, n, p, bits, 1, 2, off);
   rc[8] = dropout_v0_mask(e_m, n, p, bits, 1, 2, off);
   for (i = 0; i < 9; ++i)
      if (rc[i] != want) { CHECK(0, "%s: call %d returned %d, want %d", what, i, rc[i], want); ++bad; }
   if (!canary_ok()) { CHECK(0, "%s: an output was written on error", what); ++bad; }
   return bad;
}

static int mask_calls_fail(const char *what, size_t n, double p, int bits, int want)
{
   int rc[8], i, bad = 0;
   canary_set();
   rc[0] = dropout_v0_apply_mask_f32(e_y32, e_x32, e_min, n, p, bits);
   rc[1] = dropout_v0_apply_mask_f64(e_y64, e_x64, e_min, n, p, bits);
   rc[2] = dropout_v0_apply_mask_f16(e_y16, e_x16, e_min, n, p, bits);
   rc[3] = dropout_v0_apply_mask_bf16(e_y16, e_x16, e_min, n, p, bits);
   rc[4] = dropout_backward_mask_f32(e_y32, e_x32, e_min, n, p, bits);
   rc[5] = dropout_backward_mask_f64(e_y64, e_x64, e_min, n, p, bits);
   rc[6] = dropout_backward_mask_f16(e_y16, e_x16, e_min, n, p, bits);
   rc[7] = dropout_backward_mask_bf16(e_y16, e_x16, e_min, n, p, bits);
   for (i = 0; i < 8; ++i)
      if (rc[i] != want) { CHECK(0, "%s: mask call %d returned %d, want %d", what, i, rc[i], want); ++bad; }
   if (!canary_ok()) { CHECK(0, "%s: an output was written on error", what); ++bad; }
   return bad;
}

static void test_errors_write_nothing(void)
{
   static const double bad_p[] = {-0.1, 1.5, -1e-300, 1.0000000000000002, 1e300};
   static const int bad_bits[] = {0, 7, 64, -8, 1, 4, 12, 24, 33};
   double nan = f64_of(0x7FF8000000000000u), inf = f64_of(0x7FF0000000000000u);
   size_t i;
   int calls = 0;
   memset(e_x32, 0, sizeof e_x32); memset(e_x64, 0, sizeof e_x64);
   memset(e_x16, 0, sizeof e_x16); memset(e_min, 0x55, sizeof e_min);
   for (i = 0; i < sizeof bad_p / sizeof bad_p[0]; ++i) {
      stream_calls_fail("bad p", EN, bad_p[i], 8, 0, DROPOUT_ERR_P);
      mask_calls_fail("bad p", EN, bad_p[i], 8, DROPOUT_ERR_P);
      calls += 17;
   }
   stream_calls_fail("p NaN", EN, nan, 16, 0, DROPOUT_ERR_P);
   mask_calls_fail("p NaN", EN, nan, 16, DROPOUT_ERR_P);
   stream_calls_fail("p -NaN", EN, -nan, 16, 0, DROPOUT_ERR_P);
   stream_calls_fail("p Inf", EN, inf, 16, 0, DROPOUT_ERR_P);
   stream_calls_fail("p -Inf", EN, -inf, 16, 0, DROPOUT_ERR_P);
   calls += 9 * 4 + 8;
   for (i = 0; i < sizeof bad_bits / sizeof bad_bits[0]; ++i) {
      stream_calls_fail("bad bits", EN, 0.5, bad_bits[i], 0, DROPOUT_ERR_BITS);
      mask_calls_fail("bad bits", EN, 0.5, bad_bits[i], DROPOUT_ERR_BITS);
      calls += 17;
   }
   stream_calls_fail("range by one", EN, 0.5, 8, UINT64_MAX - EN + 2, DROPOUT_ERR_RANGE);
   stream_calls_fail("range at the end", EN, 0.5, 32, UINT64_MAX, DROPOUT_ERR_RANGE);
   stream_calls_fail("range at 2^63 with n=SIZE_MAX", (size_t)-1, 0.5, 32, (uint64_t)1 << 63, DROPOUT_ERR_RANGE);
   calls += 27;
   /* each pointer argument NULL with n > 0 */
   canary_set();
   CHECK(dropout_v0_forward_f32(NULL, e_m, e_x32, EN, 0.5, 8, 1, 2, 3) == DROPOUT_ERR_NULL, "f32 y");
   CHECK(dropout_v0_forward_f32(e_y32, e_m, NULL, EN, 0.5, 8, 1, 2, 3) == DROPOUT_ERR_NULL, "f32 x");
   CHECK(dropout_v0_forward_f64(NULL, e_m, e_x64, EN, 0.5, 8, 1, 2, 3) == DROPOUT_ERR_NULL, "f64 y");
   CHECK(dropout_v0_forward_f64(e_y64, e_m, NULL, EN, 0.5, 8, 1, 2, 3) == DROPOUT_ERR_NULL, "f64 x");
   CHECK(dropout_v0_forward_f16(NULL, e_m, e_x16, EN, 0.5, 8, 1, 2, 3) == DROPOUT_ERR_NULL, "f16 y");
   CHECK(dropout_v0_forward_f16(e_y16, e_m, NULL, EN, 0.5, 8, 1, 2, 3) == DROPOUT_ERR_NULL, "f16 x");
   CHECK(dropout_v0_forward_bf16(NULL, e_m, e_x16, EN, 0.5, 8, 1, 2, 3) == DROPOUT_ERR_NULL, "bf16 y");
   CHECK(dropout_v0_forward_bf16(e_y16, e_m, NULL, EN, 0.5, 8, 1, 2, 3) == DROPOUT_ERR_NULL, "bf16 x");
   CHECK(dropout_v0_backward_f32(NULL, e_x32, EN, 0.5, 8, 1, 2, 3) == DROPOUT_ERR_NULL, "bw f32 dx");
   CHECK(dropout_v0_backward_f32(e_y32, NULL, EN, 0.5, 8, 1, 2, 3) == DROPOUT_ERR_NULL, "bw f32 dy");
   CHECK(dropout_v0_backward_f64(NULL, e_x64, EN, 0.5, 8, 1, 2, 3) == DROPOUT_ERR_NULL, "bw f64 dx");
   CHECK(dropout_v0_backward_f64(e_y64, NULL, EN, 0.5, 8, 1, 2, 3) == DROPOUT_ERR_NULL, "bw f64 dy");
   CHECK(dropout_v0_backward_f16(NULL, e_x16, EN, 0.5, 8, 1, 2, 3) == DROPOUT_ERR_NULL, "bw f16 dx");
   CHECK(dropout_v0_backward_f16(e_y16, NULL, EN, 0.5, 8, 1, 2, 3) == DROPOUT_ERR_NULL, "bw f16 dy");
   CHECK(dropout_v0_backward_bf16(NULL, e_x16, EN, 0.5, 8, 1, 2, 3) == DROPOUT_ERR_NULL, "bw bf16 dx");
   CHECK(dropout_v0_backward_bf16(e_y16, NULL, EN, 0.5, 8, 1, 2, 3) == DROPOUT_ERR_NULL, "bw bf16 dy");
   CHECK(dropout_v0_mask(NULL, EN, 0.5, 8, 1, 2, 3) == DROPOUT_ERR_NULL, "mask");
   CHECK(dropout_v0_apply_mask_f32(NULL, e_x32, e_min, EN, 0.5, 8) == DROPOUT_ERR_NULL, "am f32 y");
   CHECK(dropout_v0_apply_mask_f32(e_y32, NULL, e_min, EN, 0.5, 8) == DROPOUT_ERR_NULL, "am f32 x");
   CHECK(dropout_v0_apply_mask_f32(e_y32, e_x32, NULL, EN, 0.5, 8) == DROPOUT_ERR_NULL, "am f32 mask");
   CHECK(dropout_v0_apply_mask_f64(NULL, e_x64, e_min, EN, 0.5, 8) == DROPOUT_ERR_NULL, "am f64 y");
   CHECK(dropout_v0_apply_mask_f64(e_y64, NULL, e_min, EN, 0.5, 8) == DROPOUT_ERR_NULL, "am f64 x");
   CHECK(dropout_v0_apply_mask_f64(e_y64, e_x64, NULL, EN, 0.5, 8) == DROPOUT_ERR_NULL, "am f64 mask");
   CHECK(dropout_v0_apply_mask_f16(NULL, e_x16, e_min, EN, 0.5, 8) == DROPOUT_ERR_NULL, "am f16 y");
   CHECK(dropout_v0_apply_mask_f16(e_y16, NULL, e_min, EN, 0.5, 8) == DROPOUT_ERR_NULL, "am f16 x");
   CHECK(dropout_v0_apply_mask_f16(e_y16, e_x16, NULL, EN, 0.5, 8) == DROPOUT_ERR_NULL, "am f16 mask");
   CHECK(dropout_v0_apply_mask_bf16(NULL, e_x16, e_min, EN, 0.5, 8) == DROPOUT_ERR_NULL, "am bf16 y");
   CHECK(dropout_v0_apply_mask_bf16(e_y16, NULL, e_min, EN, 0.5, 8) == DROPOUT_ERR_NULL, "am bf16 x");
   CHECK(dropout_v0_apply_mask_bf16(e_y16, e_x16, NULL, EN, 0.5, 8) == DROPOUT_ERR_NULL, "am bf16 mask");
   CHECK(dropout_backward_mask_f32(NULL, e_x32, e_min, EN, 0.5, 8) == DROPOUT_ERR_NULL, "bm f32 dx");
   CHECK(dropout_backward_mask_f32(e_y32, NULL, e_min, EN, 0.5, 8) == DROPOUT_ERR_NULL, "bm f32 dy");
   CHECK(dropout_backward_mask_f32(e_y32, e_x32, NULL, EN, 0.5, 8) == DROPOUT_ERR_NULL, "bm f32 mask");
   CHECK(dropout_backward_mask_f64(NULL, e_x64, e_min, EN, 0.5, 8) == DROPOUT_ERR_NULL, "bm f64 dx");
   CHECK(dropout_backward_mask_f64(e_y64, NULL, e_min, EN, 0.5, 8) == DROPOUT_ERR_NULL, "bm f64 dy");
   CHECK(dropout_backward_mask_f64(e_y64, e_x64, NULL, EN, 0.5, 8) == DROPOUT_ERR_NULL, "bm f64 mask");
   CHECK(dropout_backward_mask_f16(NULL, e_x16, e_min, EN, 0.5, 8) == DROPOUT_ERR_NULL, "bm f16 dx");
   CHECK(dropout_backward_mask_f16(e_y16, NULL, e_min, EN, 0.5, 8) == DROPOUT_ERR_NULL, "bm f16 dy");
   CHECK(dropout_backward_mask_f16(e_y16, e_x16, NULL, EN, 0.5, 8) == DROPOUT_ERR_NULL, "bm f16 mask");
   CHECK(dropout_backward_mask_bf16(NULL, e_x16, e_min, EN, 0.5, 8) == DROPOUT_ERR_NULL, "bm bf16 dx");
   CHECK(dropout_backward_mask_bf16(e_y16, NULL, e_min, EN, 0.5, 8) == DROPOUT_ERR_NULL, "bm bf16 dy");
   CHECK(dropout_backward_mask_bf16(e_y16, e_x16, NULL, EN, 0.5, 8) == DROPOUT_ERR_NULL, "bm bf16 mask");
   CHECK(canary_ok(), "an output was written on a NULL error");
   calls += 41;
   /* the shared validator agrees */
   CHECK(dropout_check_args(0.5, 8, 10, 0) == DROPOUT_OK, "valid args");
   CHECK(dropout_check_args(nan, 8, 10, 0) == DROPOUT_ERR_P, "check_args p");
   CHECK(dropout_check_args(0.5, 9, 10, 0) == DROPOUT_ERR_BITS, "check_args bits");
   CHECK(dropout_check_args(0.5, 8, 10, UINT64_MAX - 8) == DROPOUT_ERR_RANGE, "check_args range");
   CHECK(dropout_check_args(0.5, 8, 9, UINT64_MAX - 8) == DROPOUT_OK, "check_args end");
   CHECK(dropout_check_args(0.5, 8, 0, UINT64_MAX) == DROPOUT_OK, "check_args n = 0");
   printf("  %d failing calls, outputs checked against a canary after each group\n", calls);
   case_end("every_error_path_returns_its_code_and_writes_nothing");
}

int main(int argc, char **argv)
{
   int i;
   for (i = 1; i < argc; ++i) {
      if (strcmp(argv[i], "--quick") == 0) quick = 1;
      if (strcmp(argv[i], "--print-frozen") == 0) { print_frozen(); return 0; }
   }
   (void)case_skip;   /* nothing here depends on a peer */
   bufs_init((size_t)1 << 17);
   test_reference_philox();
   test_hand_derived_masks();
   test_frozen();
   test_against_reference();
   test_extreme_rules();
   test_special_inputs();
   test_p_zero_is_identity();
   test_all_dropped();
   test_n_zero_and_null();
   test_buffer_offsets();
   test_offsets_near_end();
   test_gen();
   test_strerror();
   test_errors_write_nothing();
   test_equivalences();
   test_chunking();
   test_keep_rate();
   test_correlations();
   test_mean_preserved();
   return check_exit();
}
