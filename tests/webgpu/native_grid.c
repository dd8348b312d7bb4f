/* native_grid.c - the oracle of tests/webgpu/: writes the grid of cases that
   dropout_webgpu.js must reproduce, each with its inputs and the bytes a native build of
   dropout.h writes, for tests/webgpu/run_grid.js to compare with the WebGPU device's.

   usage: native_grid DIR
          native_grid --page SEED STREAM POS P BITS   (the teaching page's digest, below)
   DIR/grid.txt, one line a case:
      id op dtype bits p seed stream pos count in_place with_mask data_bytes mask_bytes
   and per case (files absent where the op has no such operand):
      DIR/ID.x   the input buffer (x, or dy for backward)
      DIR/ID.y0  the output buffer before the call (canary bytes; the input for in place)
      DIR/ID.y   the output buffer after dropout.h's call
      DIR/ID.m0  the mask buffer before (canary, or the stored mask for apply_mask)
      DIR/ID.m   the mask buffer after
   Buffers are 16 canary bytes longer than the call's bytes rounded up to 4 (WebGPU binds
   whole 4-byte words), so a device that writes one byte too many fails the comparison.
   Inputs mix raw random bit patterns (NaN payloads, Inf, -0, subnormals) with values
   chosen for the edges of the f32 multiply and the f16 / bf16 roundings. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OP_FORWARD, OP_BACKWARD, OP_MASK, OP_APPLY_MASK, N_OPS };
static const char *const op_name[N_OPS] = { "forward", "backward", "mask", "apply_mask" };
enum { DT_F32, DT_F16, DT_BF16, N_DT };
static const char *const dt_name[N_DT] = { "f32", "f16", "bf16" };
static const size_t dt_size[N_DT] = { 4, 2, 2 };
#define CANARY 0xA5u
#define MAX_N 8192u

static uint64_t rng_state;
static uint64_t rnd(void)   /* xorshift64*: the inputs only, not part of any contract */
{
   rng_state ^= rng_state >> 12;
   rng_state ^= rng_state << 25;
   rng_state ^= rng_state >> 27;
   return rng_state * 0x2545F4914F6CDD1Du;
}

static uint32_t f32_input(void)
{
   static const uint32_t special[] = {
      0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00001u,
      0x7F800001u, 0xFFBFFFFFu, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x00400000u,
      0x00800000u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x3F800000u, 0xBF800000u, 0x7F000000u,
      0x7E800000u, 0x00000003u, 0x00200001u, 0x3F7FFFFFu
   };
   uint64_t r = rnd();
   uint32_t u = (uint32_t)(r >> 32), sign = u & 0x80000000u, man = u & 0x7FFFFFu;
   switch (r % 8u) {
   case 0: return u;                                                   /* any pattern */
   case 1: return special[(r >> 8) % (sizeof special / sizeof special[0])];
   case 2: return sign | man;                                          /* subnormal */
   case 3: return sign | ((250u + (uint32_t)((r >> 8) % 5u)) << 23) | man;   /* near overflow */
   case 4: return sign | ((1u + (uint32_t)((r >> 8) % 3u)) << 23) | man;     /* smallest normals */
   default: return sign | ((118u + (uint32_t)((r >> 8) % 20u)) << 23) | man;
   }
}

static uint16_t f16_input(int dtype)
{
   static const uint16_t special[] = {
      0x0000u, 0x8000u, 0x7C00u, 0xFC00u, 0x7E00u, 0xFE01u, 0x7C01u, 0x0001u, 0x8001u,
      0x03FFu, 0x0400u, 0x7BFFu, 0xFBFFu, 0x3C00u, 0x7BF0u, 0x7B00u, 0x0200u
   };
   static const uint16_t bspecial[] = {
      0x0000u, 0x8000u, 0x7F80u, 0xFF80u, 0x7FC0u, 0xFF81u, 0x7F81u, 0x0001u, 0x807Fu,
      0x0080u, 0x7F7Fu, 0xFF7Fu, 0x3F80u, 0x7F00u
   };
   uint64_t r = rnd();
   uint16_t u = (uint16_t)(r >> 48);
   if (r % 4u == 0) {
      return dtype == DT_F16 ? special[(r >> 8) % (sizeof special / sizeof special[0])]
                             : bspecial[(r >> 8) % (sizeof bspecial / sizeof bspecial[0])];
   }
   return u;
}

static void put(const char *dir, unsigned id, const char *ext, const uint8_t *b, size_t n)
{
   char path[512];
   FILE *f;
   snprintf(path, sizeof path, "%s/%03u.%s", dir, id, ext);
   f = fopen(path, "wb");
   if (!f || fwrite(b, 1, n, f) != n || fclose(f) != 0) {
      fprintf(stderr, "cannot write %s\n", path);
      exit(1);
   }
}

typedef struct gcase {
   int op, dtype, bits, in_place, with_mask;
   double p;
   uint64_t seed, stream, pos;
   uint32_t count;
} gcase;

static FILE *index_file;
static const char *out_dir;
static unsigned n_cases;

static void emit(gcase c)
{
   static uint8_t x[MAX_N * 4 + 16], y0[MAX_N * 4 + 16], y[MAX_N * 4 + 16];
   static uint8_t m0[MAX_N / 8 + 16], m[MAX_N / 8 + 16];
   size_t n = c.count, es = dt_size[c.dtype], i;
   size_t data_bytes = (n * es + 3) / 4 * 4 + 16, mask_bytes = ((n + 7) / 8 + 3) / 4 * 4 + 16;
   int has_mask = c.op == OP_MASK || c.op == OP_APPLY_MASK || (c.op == OP_FORWARD && c.with_mask);
   dropout_rule rule;
   dropout_plan plan;
   int err;
   unsigned id = n_cases++;
   rng_state = 0x9E3779B97F4A7C15u * (id + 1u);
   memset(x, CANARY, data_bytes);
   for (i = 0; i < n; ++i) {
      if (c.dtype == DT_F32) {
         uint32_t v = f32_input();
         memcpy(x + 4 * i, &v, 4);
      } else {
         uint16_t v = f16_input(c.dtype);
         memcpy(x + 2 * i, &v, 2);
      }
   }
   memset(y0, CANARY, data_bytes);
   if (c.in_place) memcpy(y0, x, data_bytes);
   memcpy(y, y0, data_bytes);
   memset(m0, CANARY, mask_bytes);
   if (c.op == OP_APPLY_MASK)
      for (i = 0; i < (n + 7) / 8; ++i) m0[i] = (uint8_t)(rnd() >> 56);
   memcpy(m, m0, mask_bytes);

   err = dropout_rule_init(&rule, c.p, (dropout_bits)c.bits);
   if (!err) err = dropout_plan_at(&plan, &rule, dropout_key_make(c.seed, c.stream), dropout_pos_make(c.pos), n);
   if (!err) {
      void *yp = y;
      const void *xp = c.in_place ? (const void *)y : (const void *)x;
      uint8_t *mp = c.with_mask ? m : NULL;
      switch (c.op) {
      case OP_FORWARD:
         err = c.dtype == DT_F32 ? dropout_forward_f32(&plan, (float *)yp, mp, (const float *)xp)
             : c.dtype == DT_F16 ? dropout_forward_f16(&plan, (dropout_f16 *)yp, mp, (const dropout_f16 *)xp)
                                 : dropout_forward_bf16(&plan, (dropout_bf16 *)yp, mp, (const dropout_bf16 *)xp);
         break;
      case OP_BACKWARD:
         err = c.dtype == DT_F32 ? dropout_backward_f32(&plan, (float *)yp, (const float *)xp)
             : c.dtype == DT_F16 ? dropout_backward_f16(&plan, (dropout_f16 *)yp, (const dropout_f16 *)xp)
                                 : dropout_backward_bf16(&plan, (dropout_bf16 *)yp, (const dropout_bf16 *)xp);
         break;
      case OP_MASK:
         err = dropout_mask(&plan, m);
         break;
      default:
         err = c.dtype == DT_F32 ? dropout_apply_mask_f32(&rule, n, (float *)yp, m, (const float *)xp)
             : c.dtype == DT_F16 ? dropout_apply_mask_f16(&rule, n, (dropout_f16 *)yp, m, (const dropout_f16 *)xp)
                                 : dropout_apply_mask_bf16(&rule, n, (dropout_bf16 *)yp, m, (const dropout_bf16 *)xp);
         break;
      }
   }
   if (err) {
      fprintf(stderr, "case %u: dropout.h refused it: %s\n", id, dropout_strerror(err));
      exit(1);
   }
   fprintf(index_file, "%03u %s %s %d %.17g %llu %llu %llu %u %d %d %zu %zu\n", id, op_name[c.op],
           dt_name[c.dtype], c.bits, c.p, (unsigned long long)c.seed, (unsigned long long)c.stream,
           (unsigned long long)c.pos, c.count, c.in_place, has_mask && c.op == OP_FORWARD,
           c.op == OP_MASK ? (size_t)0 : data_bytes, has_mask ? mask_bytes : (size_t)0);
   if (c.op != OP_MASK) {
      if (!c.in_place) put(out_dir, id, "x", x, data_bytes);
      put(out_dir, id, "y0", y0, data_bytes);
      put(out_dir, id, "y", y, data_bytes);
   }
   if (has_mask) {
      put(out_dir, id, "m0", m0, mask_bytes);
      put(out_dir, id, "m", m, mask_bytes);
   }
}

/* A first position for a call of n elements: the kinds cycle with the case number. */
static uint64_t position(unsigned kind, uint32_t n)
{
   switch (kind % 7u) {
   case 0: return 0;
   case 1: return 1000003u;                                /* odd, mid-block */
   case 2: return 0xFFFFFFFFu - 20u;                       /* the low word carries inside */
   case 3: return 0u - (uint64_t)n;                        /* the last n positions of the stream */
   case 4: return 0u - (uint64_t)n - 13u;                  /* just before them, odd */
   case 5: return 0x00000001FFFFFFF9u;                     /* block index crosses 2^32 at 8-bit */
   default: return 0x8000000000000005u;
   }
}

static const uint32_t sizes[] = { 1, 7, 31, 32, 33, 63, 65, 2047, 2048, 2049, 4097, 6145 };
static const uint64_t seeds[] = { 1234u, 0u, 0xFFFFFFFFFFFFFFFFu, 0xDEADBEEFCAFEF00Du };
static const uint64_t streams[] = { 0u, 7u, 0xFFFFFFFFFFFFFFFFu, 0x0000000100000005u };

/* The teaching page's section 5 (web/webgpu.js): the same x, element i, as f32 bits. */
static uint32_t page_input(uint32_t i)
{
   static const uint32_t special[] = {
      0x7FC00000u, 0xFFA00001u, 0x7F800000u, 0xFF800000u, 0x80000000u, 0x00000000u,
      0x00000001u, 0x807FFFFFu, 0x00400000u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F400000u
   };
   uint32_t h = i;
   if (i < sizeof special / sizeof special[0]) return special[i];
   h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;   /* lowbias32 */
   if ((h & 7u) == 0) return h;
   return (h & 0x807FFFFFu) | ((126u + ((h >> 24) & 3u)) << 23);
}

/* native_grid --page SEED STREAM POS P BITS: the digest section 5 must print, FNV-1a 64
   over the mask bytes then the y bytes of the forward of 65536 elements. */
static int page_digest(char **argv)
{
   enum { PN = 1 << 16 };
   static float x[PN], y[PN];
   static uint8_t mask[PN / 8];
   uint64_t h = 0xcbf29ce484222325u;
   dropout_rule rule;
   dropout_plan plan;
   uint32_t i;
   int err;
   for (i = 0; i < PN; ++i) {
      uint32_t b = page_input(i);
      memcpy(&x[i], &b, 4);
   }
   err = dropout_rule_init(&rule, strtod(argv[4], NULL), (dropout_bits)atoi(argv[5]));
   if (!err) err = dropout_plan_at(&plan, &rule, dropout_key_make(strtoull(argv[1], NULL, 0), strtoull(argv[2], NULL, 0)),
                                   dropout_pos_make(strtoull(argv[3], NULL, 0)), PN);
   if (!err) err = dropout_forward_f32(&plan, y, mask, x);
   if (err) {
      fprintf(stderr, "%s\n", dropout_strerror(err));
      return 1;
   }
   for (i = 0; i < PN / 8; ++i) { h ^= mask[i]; h *= 0x100000001b3u; }
   for (i = 0; i < 4u * PN; ++i) { h ^= ((const uint8_t *)y)[i]; h *= 0x100000001b3u; }
   printf("%016llx\n", (unsigned long long)h);
   return 0;
}

int main(int argc, char **argv)
{
   static const double ps[] = { 0.0, 0.3, 0.9, 1.0 };
   static const double ps32[] = { 0.1, 0.37, 0.5, 0.999, 1e-9, 0.123456789, 0.75, 0.01 };
   char path[512];
   unsigned k = 0;
   int op, dt, b, pi;
   if (argc == 7 && strcmp(argv[1], "--page") == 0) return page_digest(argv + 1);
   if (argc != 2) {
      fprintf(stderr, "usage: %s DIR | --page SEED STREAM POS P BITS\n", argv[0]);
      return 2;
   }
   out_dir = argv[1];
   snprintf(path, sizeof path, "%s/grid.txt", out_dir);
   index_file = fopen(path, "w");
   if (!index_file) {
      fprintf(stderr, "cannot write %s\n", path);
      return 1;
   }
   /* every op (forward with and without the mask), dtype, width and p in {0, 0.3, 0.9, 1};
      sizes, positions, keys and in-place cycle with the case number */
   for (op = 0; op < N_OPS; ++op)
      for (dt = 0; dt < N_DT; ++dt)
         for (b = 8; b <= 32; b *= 2)
            for (pi = 0; pi < 4; ++pi) {
               int masks;
               for (masks = 0; masks <= (op == OP_FORWARD); ++masks) {
                  gcase c;
                  if (op == OP_MASK && dt != DT_F32) continue;   /* the mask has no dtype */
                  c.op = op; c.dtype = dt; c.bits = b; c.p = ps[pi];
                  c.count = sizes[k % 12u];
                  c.pos = position(k / 2u, c.count);
                  c.seed = seeds[k % 4u];
                  c.stream = streams[(k / 4u) % 4u];
                  c.in_place = op != OP_MASK && k % 5u == 2u;
                  c.with_mask = masks;
                  ++k;
                  emit(c);
               }
            }
   /* every position kind at every width, forward + mask (f32, then f16 with odd sizes) */
   for (dt = 0; dt < 2; ++dt)
      for (b = 8; b <= 32; b *= 2)
         for (pi = 0; pi < 7; ++pi) {
            gcase c;
            c.op = OP_FORWARD; c.dtype = dt ? DT_F16 : DT_F32; c.bits = b; c.p = 0.3;
            c.count = dt ? 2049u : 2048u;
            c.pos = position((unsigned)pi, c.count);
            c.seed = seeds[pi % 4]; c.stream = streams[(pi + 1) % 4];
            c.in_place = 0; c.with_mask = 1;
            emit(c);
         }
   /* the integer f32 multiply under many scales: 32-bit draws, 8192 inputs each */
   for (pi = 0; pi < 8; ++pi) {
      gcase c;
      c.op = OP_BACKWARD; c.dtype = pi % 2 ? DT_BF16 : DT_F32; c.bits = 32; c.p = ps32[pi];
      c.count = 8192u; c.pos = 77u * (uint64_t)pi; c.seed = 99u; c.stream = (uint64_t)pi;
      c.in_place = 0; c.with_mask = 0;
      emit(c);
      c.dtype = DT_F16; c.pos += 1u;
      emit(c);
   }
   if (fclose(index_file) != 0) return 1;
   printf("%u cases written to %s\n", n_cases, out_dir);
   return 0;
}
