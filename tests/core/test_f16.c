/* test_f16.c - the header's f16 and bf16 conversions against independent oracles.

   half -> float and bf16 -> float: every one of the 65536 patterns, against a decoder
   written here from the IEEE-754 definition (value = (-1)^s * 1.m * 2^(e - bias), or
   0.m * 2^(1 - bias) when e = 0), computed in double.
   float -> half: against the x86 F16C instruction (vcvtps2ph, round to nearest even) and
   gcc's _Float16 conversion, each when available (SKIP line when not), over every float
   high part (bits 31..13, all 2^19) with low parts at and around the rounding point,
   the subnormal-half rounding points, and 4 million random floats.
   float -> bf16: against a round-to-nearest-even written here another way, over every
   high half with low halves around the tie, and 4 million random floats. */
#define DROPOUT_V0_API   /* written against the 0.1.0 calls: they must keep giving the same bits */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#if defined(__GNUC__) || defined(__clang__)
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_F16C_BUILD 1
#endif
#endif

#if defined(__FLT16_MAX__) && !defined(__cplusplus)
#define HAVE_FLOAT16 1
__extension__ typedef _Float16 test_f16_t;
#endif

static uint64_t rng_next(uint64_t *s)   /* splitmix64 */
{
   uint64_t z = (*s += 0x9E3779B97F4A7C15u);
   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
   z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
   return z ^ (z >> 31);
}

static float f32_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t bits_f32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static double pow2(int e)   /* exact for the small range used here */
{
   double v = 1.0;
   for (; e > 0; --e) v *= 2.0;
   for (; e < 0; ++e) v *= 0.5;
   return v;
}

/* A binary format with `ebits` exponent bits and `mbits` fraction bits, decoded from its
   definition. Returns 0 for NaN (no value), 1 otherwise with *out set. */
static int decode(uint32_t h, int ebits, int mbits, double *out)
{
   uint32_t s = h >> (ebits + mbits), e = (h >> mbits) & ((1u << ebits) - 1u), m = h & ((1u << mbits) - 1u);
   int bias = (1 << (ebits - 1)) - 1;
   double v;
   if (e == (1u << ebits) - 1u) {
      if (m) return 0;
      v = 1e300 * 1e300;   /* Inf */
   } else if (e == 0) {
      v = (double)m * pow2(1 - bias - mbits);
   } else {
      v = (double)((1u << mbits) + m) * pow2((int)e - bias - mbits);
   }
   *out = s ? -v : v;
   return 1;
}

static void test_f16_to_f32_all(void)
{
   uint32_t h;
   unsigned nans = 0, bad = 0;
   for (h = 0; h < 65536; ++h) {
      float f = dropout_f16_to_f32((uint16_t)h);
      uint32_t u = bits_f32(f);
      double want;
      if (decode(h, 5, 10, &want)) {
         uint32_t w = bits_f32((float)want);   /* every half is a float: exact */
         if (u != w) { if (!bad++) CHECK(0, "half %04x -> %08x, want %08x", h, u, w); }
         if (dropout_f32_to_f16(f) != h) { if (!bad++) CHECK(0, "half %04x does not round-trip", h); }
      } else {
         /* NaN: stays NaN, same sign, payload kept in the top fraction bits */
         ++nans;
         if ((u & 0x7F800000u) != 0x7F800000u || (u & 0x7FFFFFu) != (h & 0x3FFu) << 13 ||
             (u >> 31) != (h >> 15)) {
            if (!bad++) CHECK(0, "NaN half %04x -> %08x", h, u);
         }
         {
            uint16_t back = dropout_f32_to_f16(f);
            if ((back & 0x7C00u) != 0x7C00u || !(back & 0x3FFu) || (back >> 15) != (h >> 15))
               if (!bad++) CHECK(0, "NaN half %04x comes back as %04x", h, back);
         }
      }
   }
   printf("  65536 halves (%u NaNs), %u mismatches\n", nans, bad);
   case_end("f16_to_f32_all_65536_exact_and_roundtrip");
}

static void test_bf16_to_f32_all(void)
{
   uint32_t h;
   unsigned bad = 0;
   for (h = 0; h < 65536; ++h) {
      uint32_t u = bits_f32(dropout_bf16_to_f32((uint16_t)h));
      double want;
      int ok = decode(h, 8, 7, &want) ? u == bits_f32((float)want) : u == h << 16;
      if (!ok) { if (!bad++) CHECK(0, "bf16 %04x -> %08x", h, u); }
      if (ok && dropout_f32_to_bf16(f32_of(u)) != (h | ((h & 0x7F80u) == 0x7F80u && (h & 0x7Fu) ? 0x40u : 0u)))
         if (!bad++) CHECK(0, "bf16 %04x does not round-trip", h);
   }
   printf("  65536 bf16 patterns, %u mismatches\n", bad);
   case_end("bf16_to_f32_all_65536_exact_and_roundtrip");
}

/* ------------------------------------------------------------------ float -> f16 oracles */

#ifdef HAVE_F16C_BUILD
static int cpu_has_f16c(void)
{
   unsigned a, b, c, d;
   if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
   return (c >> 29) & 1u;
}

__attribute__((target("f16c"))) static uint16_t oracle_f16c(float f)
{
   return (uint16_t)_cvtss_sh(f, 0 /* _MM_FROUND_TO_NEAREST_INT */);
}
#endif

#ifdef HAVE_FLOAT16
static uint16_t oracle_float16(float f)
{
   test_f16_t h = (test_f16_t)f;
   uint16_t u;
   memcpy(&u, &h, 2);
   return u;
}
#endif

typedef uint16_t (*f16_oracle)(float);

/* Compares on one input; NaNs: the oracle may pick another payload, so `exact_nan` says
   whether to ask for the same bits or only a NaN of the same sign. */
static unsigned cmp_f16(f16_oracle o, uint32_t u, int exact_nan, const char *name)
{
   float f = f32_of(u);
   uint16_t got = dropout_f32_to_f16(f), want = o(f);
   if (got == want) return 0;
   if (!exact_nan && (u & 0x7FFFFFFFu) > 0x7F800000u && (got & 0x7C00u) == 0x7C00u && (got & 0x3FFu) &&
       (got >> 15) == (want >> 15))
      return 0;
   CHECK(0, "%s: float %08x (%.9g) -> %04x, oracle %04x", name, u, (double)f, got, want);
   return 1;
}

static unsigned long long f16_sweep(f16_oracle o, int exact_nan, const char *name, unsigned long long *count)
{
   static const uint32_t lows[] = {0x0000u, 0x0001u, 0x0800u, 0x0FFFu, 0x1000u, 0x1001u, 0x17FFu, 0x1FFFu};
   unsigned long long bad = 0, n = 0;
   uint32_t hi, e;
   size_t k;
   uint64_t s = 3;
   /* every high part with lows around the normal rounding point (bit 12) */
   for (hi = 0; hi < (1u << 19); ++hi)
      for (k = 0; k < sizeof lows / sizeof lows[0]; ++k, ++n) bad += cmp_f16(o, hi << 13 | lows[k], exact_nan, name);
   /* halves' subnormals: a float of biased exponent e keeps its top (e - 102) bits of the
      24-bit significand; test the tie and its neighbours for every kept value */
   for (e = 96; e <= 113; ++e) {
      unsigned shift = e < 102 ? 24u : 126u - e;   /* bits below the rounding point */
      uint32_t r, rmax = shift >= 24 ? 1u : 1u << (24 - shift);
      if (shift > 24) shift = 24;
      for (r = 0; r < rmax; ++r) {
         uint32_t half = 1u << (shift - 1), full = 1u << shift;
         uint32_t rems[6];
         rems[0] = 0; rems[1] = 1; rems[2] = half - 1; rems[3] = half; rems[4] = half + 1; rems[5] = full - 1;
         for (k = 0; k < 6; ++k) {
            uint32_t sig = (r << shift) | rems[k];           /* 24-bit significand, may lack bit 23 */
            if (!(sig & 0x800000u)) continue;                 /* not a normal float of exponent e */
            bad += cmp_f16(o, e << 23 | (sig & 0x7FFFFFu), exact_nan, name);
            bad += cmp_f16(o, 0x80000000u | e << 23 | (sig & 0x7FFFFFu), exact_nan, name);
            n += 2;
         }
      }
   }
   /* random floats, all exponents */
   for (k = 0; k < 4000000; ++k, ++n) bad += cmp_f16(o, (uint32_t)rng_next(&s), exact_nan, name);
   *count = n;
   return bad;
}

static void test_f32_to_f16(void)
{
   unsigned long long n, bad;
#ifdef HAVE_F16C_BUILD
   if (cpu_has_f16c()) {
      bad = f16_sweep(oracle_f16c, 1, "F16C", &n);
      printf("  %llu floats against F16C vcvtps2ph, %llu mismatches\n", n, bad);
      case_end("f32_to_f16_vs_f16c");
   } else {
      case_skip("f32_to_f16_vs_f16c", "this CPU has no F16C");
   }
#else
   case_skip("f32_to_f16_vs_f16c", "not an x86 gcc/clang build");
#endif
#ifdef HAVE_FLOAT16
   bad = f16_sweep(oracle_float16, 0, "_Float16", &n);
   printf("  %llu floats against the compiler's _Float16 conversion, %llu mismatches\n", n, bad);
   case_end("f32_to_f16_vs_Float16");
#else
   case_skip("f32_to_f16_vs_Float16", "this compiler has no _Float16");
#endif
   (void)n; (void)bad;
}

/* ------------------------------------------------------------------ float -> bf16 */

/* Round to nearest even on the dropped 16 bits, written as a comparison with the tie. */
static uint16_t oracle_bf16(uint32_t u)
{
   uint32_t hi = u >> 16, lo = u & 0xFFFFu;
   if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x7FFFFFu)) return (uint16_t)(hi | 0x40u);   /* quiet NaN */
   if (lo > 0x8000u || (lo == 0x8000u && (hi & 1u))) ++hi;   /* a carry may reach Inf: correct */
   return (uint16_t)hi;
}

static void test_f32_to_bf16(void)
{
   static const uint32_t lows[] = {0x0000u, 0x0001u, 0x4000u, 0x7FFFu, 0x8000u, 0x8001u, 0xC000u, 0xFFFFu};
   unsigned long long n = 0, bad = 0;
   uint32_t hi;
   size_t k;
   uint64_t s = 4;
   for (hi = 0; hi < 65536; ++hi)
      for (k = 0; k < sizeof lows / sizeof lows[0]; ++k, ++n) {
         uint32_t u = hi << 16 | lows[k];
         uint16_t got = dropout_f32_to_bf16(f32_of(u)), want = oracle_bf16(u);
         if (got != want && !bad++) CHECK(0, "float %08x -> %04x, want %04x", u, got, want);
      }
   for (k = 0; k < 4000000; ++k, ++n) {
      uint32_t u = (uint32_t)rng_next(&s);
      uint16_t got = dropout_f32_to_bf16(f32_of(u)), want = oracle_bf16(u);
      if (got != want && !bad++) CHECK(0, "float %08x -> %04x, want %04x", u, got, want);
   }
   printf("  %llu floats, %llu mismatches\n", n, bad);
   case_end("f32_to_bf16_rne");
}

int main(void)
{
   test_f16_to_f32_all();
   test_bf16_to_f32_all();
   test_f32_to_f16();
   test_f32_to_bf16();
   return check_exit();
}
