/* test_cuda_logic.c - the CUDA kernels' bodies, run on the CPU over emulated grids.

   dropout_cuda.cuh writes each kernel as dropout_cuda__body(args, dtype, op, tid,
   nthreads), a __host__ __device__ function; the kernel only supplies tid and nthreads.
   Here a loop plays every thread of a grid, for several grid sizes, and the results must
   equal the CPU library bit for bit: that checks the unit/tail/alignment/mid-block
   indexing without a GPU. A second check replays each thread alone on poisoned buffers
   and proves that no two threads write the same byte (the property that makes the mask
   bytes race-free on the GPU). Built by tests/cuda/suite.sh with the host compiler. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DROPOUT_IMPLEMENTATION
#include "dropout_cuda.cuh"
#include "check.h"
#include "views.h"

enum { MAXN = 4200, PAD = 16 };

static const uint64_t grids[] = { 1, 2, 3, 7, 32, 100 };
#define NGRIDS (sizeof grids / sizeof grids[0])

static uint64_t rng = 12345;
static uint32_t rnd32(void)
{
   rng = rng * 6364136223846793005u + 1442695040888963407u;
   return (uint32_t)(rng >> 32);
}

/* a launch (dropout_cuda__launch picks the op the kernel runs) played thread by thread */
static void run_grid(dropout_cuda__args a, int dtype, int op, uint64_t nthreads, int reverse)
{
   uint64_t t;
   op = dropout_cuda__launch_op(&a, op);
   for (t = 0; t < nthreads; ++t)
      dropout_cuda__body(a, dtype, op, reverse ? nthreads - 1 - t : t, nthreads);
}

static unsigned esize(int dt) { return dropout_cuda__esize(dt); }

/* random data with a few special values; 16-byte aligned storage + `shift` elements */
static unsigned char xbuf[MAXN * 8 + 64], ybuf[MAXN * 8 + 64], rbuf[MAXN * 8 + 64], wbuf[MAXN * 8 + 64];
static unsigned char bbuf[MAXN * 8 + 64], xsave[MAXN * 8];
static uint8_t mask_ref[MAXN / 8 + 8], mask_got[MAXN / 8 + 8], mask_in[MAXN / 8 + 8];

static void fill_random(unsigned char *p, size_t bytes)
{
   size_t i;
   for (i = 0; i < bytes; ++i) p[i] = (unsigned char)rnd32();
}

/* Special values written over random data at random places, so that some land on kept
   and some on dropped elements: NaNs with payloads (quiet and signalling, both signs),
   infinities, signed zeros, subnormals, the largest finite values. Core ops must give
   the CPU's bits for all of them (docs/SPEC.md section 5). */
static void sprinkle_specials(int dt, void *p, size_t n)
{
   static const uint32_t s32[] = { 0x7FC00001u, 0xFFC12345u, 0x7F800001u, 0xFFBFFFFFu, 0x7F800000u, 0xFF800000u,
                                   0x80000000u, 0x00000000u, 0x00000001u, 0x807FFFFFu, 0x7F7FFFFFu, 0x00400000u };
   static const uint64_t s64[] = { 0x7FF8000000000001u, 0xFFF8123456789ABCu, 0x7FF0000000000001u, 0xFFF7FFFFFFFFFFFFu,
                                   0x7FF0000000000000u, 0xFFF0000000000000u, 0x8000000000000000u, 0x0000000000000001u,
                                   0x800FFFFFFFFFFFFFu, 0x7FEFFFFFFFFFFFFFu, 0x0008000000000000u, 0u };
   static const uint16_t s16[] = { 0x7E01u, 0xFE55u, 0x7C01u, 0xFDFFu, 0x7C00u, 0xFC00u, 0x8000u, 0x0001u, 0x83FFu, 0x7BFFu, 0x0200u, 0u };
   static const uint16_t sb16[] = { 0x7FC1u, 0xFFC5u, 0x7F81u, 0xFFBFu, 0x7F80u, 0xFF80u, 0x8000u, 0x0001u, 0x807Fu, 0x7F7Fu, 0x0040u, 0u };
   size_t i;
   for (i = 0; i < n; ++i) {
      uint32_t r = rnd32();
      unsigned k = (r >> 8) % 12u;
      if ((r & 3u) != 0) continue;   /* a quarter of the elements */
      if (dt == DROPOUT_CUDA__F32) memcpy((char *)p + 4 * i, &s32[k], 4);
      else if (dt == DROPOUT_CUDA__F64) memcpy((char *)p + 8 * i, &s64[k], 8);
      else memcpy((char *)p + 2 * i, dt == DROPOUT_CUDA__F16 ? &s16[k] : &sb16[k], 2);
   }
}

static int is_nan(int dt, const unsigned char *p)
{
   uint64_t u = 0;
   memcpy(&u, p, esize(dt));   /* little-endian */
   if (dt == DROPOUT_CUDA__F32) return (u & 0x7FFFFFFFu) > 0x7F800000u;
   if (dt == DROPOUT_CUDA__F64) return (u & 0x7FFFFFFFFFFFFFFFu) > 0x7FF0000000000000u;
   if (dt == DROPOUT_CUDA__F16) return (u & 0x7FFFu) > 0x7C00u;
   return (u & 0x7FFFu) > 0x7F80u;
}

/* Equal bit for bit, except that a NaN matches any NaN: the fused op's (and the
   variants') NaN payloads are unspecified (docs/SPEC.md sections 10, 12). Also compares
   `extra` bytes past the n elements exactly (nothing may be written there). */
static int same_nan_aware(int dt, const void *a, const void *b, size_t n, size_t extra)
{
   const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
   size_t es = esize(dt), i;
   for (i = 0; i < n; ++i)
      if (memcmp(p + i * es, q + i * es, es) && !(is_nan(dt, p + i * es) && is_nan(dt, q + i * es))) return 0;
   return memcmp(p + n * es, q + n * es, extra) == 0;
}

static void *aligned_at(unsigned char *buf, int dt, unsigned shift)
{
   uintptr_t b = ((uintptr_t)buf + 15u) & ~(uintptr_t)15u;
   return (void *)(b + shift * esize(dt));
}

/* the CPU library's 1.0 calls at (p, bits), key (77, 5), first position off */
static dropout_rule cpu_rule(double p, int bits)
{
   dropout_rule r;
   int rc = dropout_rule_init_quantised(&r, p, (dropout_bits)bits);
   CHECK(rc == 0, "rule_init(%g, %d): %d", p, bits, rc);
   return r;
}

static dropout_plan cpu_plan(double p, int bits, uint64_t off, size_t n)
{
   dropout_rule r = cpu_rule(p, bits);
   dropout_plan plan;
   int rc = dropout_plan_at(&plan, &r, dropout_key_make(77, 5), dropout_pos_make(off), (uint64_t)n);
   CHECK(rc == 0, "plan_at: %d", rc);
   return plan;
}

static int cpu_forward(int dt, void *y, uint8_t *m, const void *x, size_t n, double p, int bits, uint64_t off)
{
   dropout_plan plan = cpu_plan(p, bits, off, n);
   switch (dt) {
   case DROPOUT_CUDA__F32: return dropout_replay_f32(&plan, (size_t)plan.count, (float *)y, m, (const float *)x);
   case DROPOUT_CUDA__F64: return dropout_replay_f64(&plan, (size_t)plan.count, (double *)y, m, (const double *)x);
   case DROPOUT_CUDA__F16: return dropout_replay_f16(&plan, (size_t)plan.count, (dropout_f16 *)y, m, (const dropout_f16 *)x);
   default: return dropout_replay_bf16(&plan, (size_t)plan.count, (dropout_bf16 *)y, m, (const dropout_bf16 *)x);
   }
}

static int cpu_apply_mask(int dt, void *y, const void *x, const uint8_t *m, size_t n, double p, int bits)
{
   dropout_rule r = cpu_rule(p, bits);
   switch (dt) {
   case DROPOUT_CUDA__F32: return dropout_apply_mask_f32(&r, n, (float *)y, m, (const float *)x);
   case DROPOUT_CUDA__F64: return dropout_apply_mask_f64(&r, n, (double *)y, m, (const double *)x);
   case DROPOUT_CUDA__F16: return dropout_apply_mask_f16(&r, n, (dropout_f16 *)y, m, (const dropout_f16 *)x);
   default: return dropout_apply_mask_bf16(&r, n, (dropout_bf16 *)y, m, (const dropout_bf16 *)x);
   }
}

static int cpu_fused(int dt, void *y, uint8_t *m, const void *x, const void *b, const void *r, size_t rows, size_t cols, double p, int bits, uint64_t off)
{
   dropout_plan plan = cpu_plan(p, bits, off, rows * cols);
   switch (dt) {
   case DROPOUT_CUDA__F32: return dropout_bias_dropout_add_replay_f32(&plan, (size_t)plan.count, cols, (float *)y, m, (const float *)x, (const float *)b, (const float *)r);
   case DROPOUT_CUDA__F64: return dropout_bias_dropout_add_replay_f64(&plan, (size_t)plan.count, cols, (double *)y, m, (const double *)x, (const double *)b, (const double *)r);
   case DROPOUT_CUDA__F16: return dropout_bias_dropout_add_replay_f16(&plan, (size_t)plan.count, cols, (dropout_f16 *)y, m, (const dropout_f16 *)x, (const dropout_f16 *)b, (const dropout_f16 *)r);
   default: return dropout_bias_dropout_add_replay_bf16(&plan, (size_t)plan.count, cols, (dropout_bf16 *)y, m, (const dropout_bf16 *)x, (const dropout_bf16 *)b, (const dropout_bf16 *)r);
   }
}

static dropout_cuda__args base_args(size_t n, double p, int bits, uint64_t off)
{
   dropout_cuda__args a;
   memset(&a, 0, sizeof a);
   a.n = n;
   a.rule = dropout_rule_make(p, bits);
   a.seed = 77; a.stream = 5; a.offset = off;
   return a;
}

static const char *dt_name(int dt)
{
   return dt == DROPOUT_CUDA__F32 ? "f32" : dt == DROPOUT_CUDA__F64 ? "f64" : dt == DROPOUT_CUDA__F16 ? "f16" : "bf16";
}

/* One comparison: op on (dt, n, p, bits, off) with x/y shifted by xs/ys elements. */
static void one(int dt, int op, size_t n, double p, int bits, uint64_t off, unsigned xs, unsigned ys, int with_mask)
{
   unsigned es = esize(dt);
   void *x = aligned_at(xbuf, dt, xs), *y = aligned_at(ybuf, dt, ys), *w = aligned_at(wbuf, dt, ys);
   void *res = aligned_at(rbuf, dt, xs), *bias = aligned_at(bbuf, dt, 0);
   size_t cols = n < 3 ? 1 : n / 3 + 1, rows = cols ? n / cols : 0, nb = (n + 7) / 8, g;
   int rc;
   if (op == DROPOUT_CUDA__FUSED) n = rows * cols;
   fill_random((unsigned char *)x, n * es);
   fill_random((unsigned char *)res, n * es);
   sprinkle_specials(dt, x, n);
   sprinkle_specials(dt, res, n);
   fill_random((unsigned char *)bias, cols * es);
   fill_random(mask_in, nb + 4);
   memset(mask_ref, 0xA5, sizeof mask_ref);
   memset(w, 0xA5, n * es + 16);
   switch (op) {
   case DROPOUT_CUDA__DROP: rc = cpu_forward(dt, w, with_mask ? mask_ref : NULL, x, n, p, bits, off); break;
   case DROPOUT_CUDA__APPLY_MASK: rc = cpu_apply_mask(dt, w, x, mask_in, n, p, bits); break;
   case DROPOUT_CUDA__MASK: { dropout_plan plan = cpu_plan(p, bits, off, n); rc = dropout_mask(&plan, (size_t)plan.count, mask_ref); } break;
   default: rc = cpu_fused(dt, w, with_mask ? mask_ref : NULL, x, bias, res, rows, cols, p, bits, off); break;
   }
   CHECK(rc == 0, "cpu rc %d", rc);
   for (g = 0; g < NGRIDS; ++g) {
      dropout_cuda__args a = base_args(n, p, bits, off);
      a.y = y; a.x = x; a.mask_in = mask_in; a.bias = bias; a.residual = res; a.cols = cols;
      a.mask_out = (with_mask || op == DROPOUT_CUDA__MASK) ? mask_got : NULL;
      memset(mask_got, 0xA5, sizeof mask_got);
      memset(y, 0xA5, n * es + 16);
      run_grid(a, dt, op, grids[g], (int)(g & 1u));
      if (op != DROPOUT_CUDA__MASK)
         CHECK(op == DROPOUT_CUDA__FUSED ? same_nan_aware(dt, y, w, n, 16) : memcmp(y, w, n * es + 16) == 0, "%s op %d n %zu p %g bits %d off %llu shifts %u/%u grid %llu: data differ",
               dt_name(dt), op, n, p, bits, (unsigned long long)off, xs, ys, (unsigned long long)grids[g]);
      if (a.mask_out)
         CHECK(memcmp(mask_got, mask_ref, nb + 4) == 0, "%s op %d n %zu p %g bits %d off %llu grid %llu: mask differs (or bytes past it written)",
               dt_name(dt), op, n, p, bits, (unsigned long long)off, (unsigned long long)grids[g]);
   }
}

static const size_t sizes[] = { 0, 1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65,
                                 96, 127, 128, 129, 255, 256, 257, 511, 1000, 1031 };
#define NSIZES (sizeof sizes / sizeof sizes[0])

static uint64_t offset_for(int i, size_t n)
{
   static const uint64_t small[] = { 0, 1, 3, 4, 5, 7, 8, 9, 13, 15, 16, 17, 31, 1000003 };
   if (i < 14) return small[i];
   if (i == 14) return UINT64_MAX - n + 1;          /* the very last positions */
   if (i == 15) return UINT64_MAX - n - 4;
   /* the block counter's low word carries into its high word inside the call: at 2^36
      with 8-bit draws (16 a block), 2^35 with 16-bit, 2^34 with 32-bit */
   if (i == 16) return ((uint64_t)1 << 36) - 5;
   if (i == 17) return ((uint64_t)1 << 35) - 3;
   if (i == 18) return ((uint64_t)1 << 34) - 1;
   return ((uint64_t)1 << 63) + 11;
}
#define NOFFSETS 20

static void test_ops(void)
{
   static const int dts[] = { DROPOUT_CUDA__F32, DROPOUT_CUDA__F64, DROPOUT_CUDA__F16, DROPOUT_CUDA__BF16 };
   static const int bitss[] = { 8, 16, 32 };
   static const double ps[] = { 0.0, 0.1, 0.5, 0.9, 1.0 };
   size_t is;
   int id, ib, io, ip;
   for (id = 0; id < 4; ++id) {
      int dt = dts[id];
      for (ib = 0; ib < 3; ++ib)
         for (is = 0; is < NSIZES; ++is)
            for (io = 0; io < NOFFSETS; ++io) {
               double p = ps[((size_t)io + is) % 5];
               uint64_t off = offset_for(io, sizes[is]);
               one(dt, DROPOUT_CUDA__DROP, sizes[is], p, bitss[ib], off, 0, 0, io & 1);
            }
      /* alignment: x and y shifted by different numbers of elements */
      for (ip = 0; ip < 5; ++ip)
         for (io = 0; io < 8; ++io) {
            one(dt, DROPOUT_CUDA__DROP, 257, ps[ip], 8 << (ip % 3), (uint64_t)io * 5u, (unsigned)io % 4u, (unsigned)(io / 2) % 4u, 1);
            one(dt, DROPOUT_CUDA__APPLY_MASK, 257, ps[ip], 8, 0, (unsigned)io % 4u, (unsigned)(io * 3) % 4u, 0);
         }
      for (is = 0; is < NSIZES; ++is) one(dt, DROPOUT_CUDA__APPLY_MASK, sizes[is], ps[is % 5], 16, 0, 0, 0, 0);
      {
         char name[64];
         snprintf(name, sizeof name, "emulated grids: forward/backward + apply_mask %s", dt_name(dt));
         case_end(name);
      }
   }
   for (ib = 0; ib < 3; ++ib)
      for (is = 0; is < NSIZES; ++is)
         for (io = 0; io < NOFFSETS; ++io)
            one(DROPOUT_CUDA__F32, DROPOUT_CUDA__MASK, sizes[is], ps[((size_t)io + is) % 5], bitss[ib], offset_for(io, sizes[is]), 0, 0, 1);
   case_end("emulated grids: mask alone");
   for (id = 0; id < 4; ++id) {
      int dt = dts[id];
      for (ib = 0; ib < 3; ++ib)
         for (is = 0; is < NSIZES; ++is)
            for (io = 0; io < NOFFSETS; io += 2)
               one(dt, DROPOUT_CUDA__FUSED, sizes[is], ps[((size_t)io + is) % 5], bitss[ib], offset_for(io, sizes[is]),
                   (unsigned)io % 3u, (unsigned)is % 2u, (io / 2) & 1);
   }
   case_end("emulated grids: fused bias-dropout-residual, all dtypes");
}

/* The warp path (dropout_cuda__kernel_loop) played warp by warp at the launcher's split
   (dropout_cuda__split_for of a.split). On the GPU a unit's lanes OR their shares of its
   keep bits by shuffles before any lane shuffles a word to its chunks; here every lane's
   share is drawn first, the shares of each unit ORed into keeps[] for each of its lanes,
   and each lane's chunks then read the words from there. Returns the spans that took the
   warp path; *split_used: the split. */
static unsigned run_grid_warp(dropout_cuda__args a, int dt, int op, uint64_t nthreads, unsigned *split_used)
{
   uint64_t seed, offset, units = dropout_cuda__prologue(&a, &seed, &offset), w, base;
   unsigned es = dropout_cuda__esize(dt), lane, spans = 0, split, l;
   uint32_t share[32], keeps[32];
   a.warp = 1;
   op = dropout_cuda__launch_op(&a, op);
   split = *split_used = dropout_cuda__split_for(&a, dt, op, units);
   for (w = 0; w < nthreads / 32u; ++w)
      for (base = 32u * w / split; base < units; base += nthreads / split) {
         if (dropout_cuda__span_whole(&a, op, base, units, split)) {
            unsigned per = dropout_cuda__aligned16(&a, op) ? 16u / es : 1u;
            ++spans;
            for (lane = 0; lane < 32u; ++lane) share[lane] = dropout_cuda__lane_keep(&a, op, seed, offset, base, lane, split);
            for (lane = 0; lane < 32u; ++lane)
               for (keeps[lane] = 0, l = lane / split * split; l < lane / split * split + split; ++l) keeps[lane] |= share[l];
            for (lane = 0; lane < 32u; ++lane)
               dropout_cuda__warp_span(&a, dt, op, seed, offset, base, lane, per, split, keeps);
         } else {
            for (lane = 0; lane < 32u / split; ++lane)
               if (base + lane < units) dropout_cuda__unit(&a, dt, op, seed, offset, base + lane);
         }
      }
   return spans;
}

/* The warp path against the CPU: whole spans in 16-byte chunks (aligned pointers) and in
   single elements (misaligned ones), the tail direct, in place (y == x) too, for every
   dtype and data-moving op. */
static void test_warp_path(void)
{
   static const size_t ns[] = { 1024, 1055, 2048 + 37, 3072, 4096 };
   static const uint64_t nts[] = { 32, 64, 96 };
   static const int ops[] = { DROPOUT_CUDA__DROP, DROPOUT_CUDA__APPLY_MASK, DROPOUT_CUDA__FUSED };
   static const unsigned splits[] = { 1, 2, 4, 8, 0 };   /* 0: the launcher's own choice */
   unsigned spans = 0, split_spans[9] = { 0 };
   int dt, io, in, ish, inplace, it;
   for (dt = 0; dt < 4; ++dt)
      for (io = 0; io < 3; ++io)
         for (in = 0; in < 5; ++in)
            for (ish = 0; ish < 3; ++ish)
               for (inplace = 0; inplace < 2; ++inplace) {
                  int op = ops[io], bits = 8 << ((in + ish) % 3), rc;
                  unsigned es = esize(dt), xs = ish == 1 ? 1u : 0u, ys = ish == 2 ? 3u : 0u;
                  size_t n = ns[in], cols = 97, nb;
                  double p = (in + inplace) % 4 == 0 ? 0.0 : 0.3;
                  uint64_t off = (uint64_t)(in * 7 + ish);
                  void *x = aligned_at(xbuf, dt, xs), *y = aligned_at(ybuf, dt, ys), *w = aligned_at(wbuf, dt, ys);
                  void *res = aligned_at(rbuf, dt, xs), *bias = aligned_at(bbuf, dt, 0);
                  if (op == DROPOUT_CUDA__FUSED) n = n / cols * cols + (ish ? 0 : cols);
                  if (inplace) y = x;
                  nb = (n + 7) / 8;
                  fill_random((unsigned char *)x, n * es); sprinkle_specials(dt, x, n);
                  fill_random((unsigned char *)res, n * es); sprinkle_specials(dt, res, n);
                  fill_random((unsigned char *)bias, cols * es);
                  fill_random(mask_in, nb + 4);
                  memset(w, 0xA5, n * es + 16);
                  memset(mask_ref, 0xA5, sizeof mask_ref);
                  rc = op == DROPOUT_CUDA__DROP ? cpu_forward(dt, w, mask_ref, x, n, p, bits, off)
                     : op == DROPOUT_CUDA__APPLY_MASK ? cpu_apply_mask(dt, w, x, mask_in, n, p, bits)
                     : cpu_fused(dt, w, mask_ref, x, bias, res, n / cols, cols, p, bits, off);
                  CHECK(rc == 0, "cpu rc %d", rc);
                  memcpy(xsave, x, n * es);   /* the input, for the in-place runs */
                  for (it = 0; it < 5; ++it) {
                     dropout_cuda__args a = base_args(n, p, bits, off);
                     unsigned split, got;
                     memcpy(x, xsave, n * es);
                     if (!inplace) memset(y, 0xA5, n * es + 16);
                     a.x = x; a.y = y; a.mask_in = mask_in; a.bias = bias; a.residual = res; a.cols = cols;
                     a.mask_out = op == DROPOUT_CUDA__APPLY_MASK ? NULL : mask_got;
                     memset(mask_got, 0xA5, sizeof mask_got);
                     a.split = splits[it];
                     spans += got = run_grid_warp(a, dt, op, nts[it % 3], &split);
                     split_spans[split] += got;
                     CHECK(op == DROPOUT_CUDA__FUSED ? same_nan_aware(dt, y, w, n, inplace ? 0 : 16) : memcmp(y, w, n * es + (inplace ? 0 : 16)) == 0, "warp path %s op %d n %zu shifts %u/%u in place %d threads %llu split %u: data differ",
                           dt_name(dt), op, n, xs, ys, inplace, (unsigned long long)nts[it % 3], split);
                     if (a.mask_out)
                        CHECK(memcmp(mask_got, mask_ref, nb + 4) == 0, "warp path %s op %d n %zu: mask differs", dt_name(dt), op, n);
                  }
               }
   CHECK(spans > 500, "only %u spans took the warp path", spans);
   CHECK(split_spans[2] > 100 && split_spans[4] > 100 && split_spans[8] > 100, "spans at split 2, 4, 8: %u, %u, %u",
         split_spans[2], split_spans[4], split_spans[8]);
   case_end("emulated warps: warp path (coalesced chunks, keep bits by shuffle, 1 to 8 lanes a unit) == CPU, 16-byte and single-element chunks, tails, in place");
}

/* The word-parallel keep comparison against dropout_keep, draw by draw, for threshold t:
   random words, and words made of lanes next to t. Returns the bits that differ. */
static long block_keep_errors(int bits, uint64_t t)
{
   dropout_rule r = dropout_rule_make(0.0, bits);
   unsigned j, i, per = 128u / (unsigned)bits;
   long bad = 0;
   r.threshold = t;
   for (j = 0; j < 16u; ++j) {
      uint32_t w[4], k;
      for (i = 0; i < 4; ++i) {
         uint32_t near = (uint32_t)t + (rnd32() % 5u) - 2u;   /* t-2 .. t+2 */
         w[i] = rnd32();
         if (j & 1) w[i] = bits == 8 ? (near & 0xFFu) * 0x01010101u : bits == 16 ? (near & 0xFFFFu) * 0x00010001u : near;
         if (j & 2) w[i] ^= rnd32() & (bits == 8 ? 0xFF00FF00u : 0xFFFF0000u);   /* mixed lanes */
      }
      k = dropout_cuda__block_keep(w, r);
      for (i = 0; i < per; ++i) bad += ((k >> i) & 1u) != (uint32_t)dropout_keep(dropout_draw(w, bits, i), r);
      bad += (k >> per) != 0;
   }
   return bad;
}

/* every 8- and 16-bit threshold (0 .. 2^b), and 32-bit ones at the edges and at random */
static void test_block_keep(void)
{
   static const uint64_t t32[] = { 0, 1, 2, 0x7FFFFFFFu, 0x80000000u, 0x80000001u, 0xFFFFFFFEu, 0xFFFFFFFFu, 0x100000000u };
   long bad = 0;
   uint64_t t;
   unsigned i;
   for (t = 0; t <= 256u; ++t) bad += block_keep_errors(8, t);
   for (t = 0; t <= 65536u; ++t) bad += block_keep_errors(16, t);
   for (i = 0; i < sizeof t32 / sizeof t32[0]; ++i) bad += block_keep_errors(32, t32[i]);
   for (i = 0; i < 1000u; ++i) bad += block_keep_errors(32, rnd32());
   CHECK(bad == 0, "%ld keep bits differ from dropout_keep", bad);
   case_end("word-parallel keep comparison == dropout_keep for every 8/16-bit threshold, 32-bit edges");
}

static void test_fills(void)
{
   static uint32_t got[MAXN + 8], want[MAXN + 8];
   static double gd[MAXN + 8], wd[MAXN + 8];
   size_t is, g;
   int io;
   for (is = 0; is < NSIZES; ++is)
      for (io = 0; io < NOFFSETS; ++io) {
         size_t n = sizes[is];
         uint64_t w0 = offset_for(io, n);
         int op;
         for (op = DROPOUT_CUDA__FILL_U32; op <= DROPOUT_CUDA__FILL_NORMAL; ++op) {
            if (op == DROPOUT_CUDA__FILL_UF64) continue;
            memset(want, 0xA5, sizeof want);
            if (op == DROPOUT_CUDA__FILL_U32) dropout_fill_u32(dropout_key_make(9, 2), dropout_pos_make(w0), want + 1, n);
            else if (op == DROPOUT_CUDA__FILL_UF32) dropout_fill_uniform_f32(dropout_key_make(9, 2), dropout_pos_make(w0), (float *)(want + 1), n);
            else dropout_fill_normal_f32(dropout_key_make(9, 2), dropout_pos_make(w0), (float *)(want + 1), n);
            for (g = 0; g < NGRIDS; ++g) {
               dropout_cuda__args a = base_args(n, 0.0, 32, w0);
               a.seed = 9; a.stream = 2; a.y = got + 1;
               memset(got, 0xA5, sizeof got);
               run_grid(a, DROPOUT_CUDA__F32, op, grids[g], 0);
               CHECK(memcmp(got, want, sizeof got) == 0, "fill op %d n %zu word %llu grid %llu", op, n, (unsigned long long)w0, (unsigned long long)grids[g]);
            }
         }
         if (w0 > (UINT64_MAX >> 1) - n) continue;
         memset(wd, 0, sizeof wd);
         dropout_fill_uniform_f64(dropout_key_make(9, 2), dropout_pos_make(w0), wd, n);
         for (g = 0; g < NGRIDS; ++g) {
            dropout_cuda__args a = base_args(n, 0.0, 32, w0);
            a.seed = 9; a.stream = 2; a.y = gd;
            memset(gd, 0, sizeof gd);
            run_grid(a, DROPOUT_CUDA__F64, DROPOUT_CUDA__FILL_UF64, grids[g], 0);
            CHECK(memcmp(gd, wd, sizeof gd) == 0, "fill f64 n %zu index %llu grid %llu", n, (unsigned long long)w0, (unsigned long long)grids[g]);
         }
      }
   case_end("emulated grids: fill u32 / uniform f32 / uniform f64 / normal f32");
}

/* ---- The descriptor path (dropout_cuda_run) on strided views -----------------------
   Random cases (tests/cuda/views.h: every op and dtype, permuted, padded, reversed and
   zero-stride layouts, broadcast, accumulation, positions near 2^64, device
   coordinates). The GPU side is what dropout_cuda_run does, played on the CPU:
   dropout_lower, dropout_cuda__prepare, then the kernels it would launch over emulated
   grids. Oracles, bit for bit (a NaN matches any
   NaN where docs/SPEC.md leaves payloads open: fused op, variants, accumulation):
   1. the CPU's dropout_run on the same view;
   2. the CPU's dropout_run on the contiguous copy (gather, run, scatter): element
      (i0..ik) of a view gets the copy's bits;
   and every byte of the output buffer outside the view, and of the mask past its end,
   stays as it was. */
enum { SBUF = 40000 };
static unsigned char s_x[SBUF * 8], s_y0[SBUF * 8], s_r[SBUF * 8], s_cpu[SBUF * 8], s_got[SBUF * 8], s_copy[SBUF * 8];
static unsigned char s_xc[SBUF * 8], s_yc[SBUF * 8], s_rc[SBUF * 8];
static uint8_t s_m0[SBUF / 8 + 8], s_mcpu[SBUF / 8 + 8], s_mgot[SBUF / 8 + 8], s_mcopy[SBUF / 8 + 8];

/* What dropout_cuda_run launches for job j, played over emulated grids. Returns 1 when
   the contiguous kernel ran it, 0 for the strided kernel. */
static int emulate_job(const dropout_job *j, uint64_t nthreads, int reverse)
{
   dropout_cuda__sargs s;
   dropout_cuda__args m;
   uint64_t t;
   int op = dropout_cuda__op_of(j->op), dt = dropout_cuda__dtype_of(j->dtype);
   if (dropout_cuda__prepare(j, &s, &m)) {
      run_grid(s.a, op == DROPOUT_CUDA__MASK ? DROPOUT_CUDA__F32 : dt, op, nthreads, reverse);
      return 1;
   }
   if (m.mask_out) run_grid(m, DROPOUT_CUDA__F32, DROPOUT_CUDA__MASK, nthreads, reverse);
   op = dropout_cuda__launch_op(&s.a, op);
   for (t = 0; t < nthreads; ++t) dropout_cuda__strided_body(&s, dt, op, reverse ? nthreads - 1 - t : t, nthreads);
   return 0;
}

/* the case's tensors in the test's buffers (out: out_buf, mask: mask_buf) */
static dropout_tensors case_tensors(const view_case *c, unsigned char *out_buf, uint8_t *mask_buf)
{
   dropout_tensors t;
   unsigned es = esize(c->dt);
   memset(&t, 0, sizeof t);
   if (c->has_out) t.out = out_buf + c->base[0] * es;
   if (c->has_in) t.in = s_x + c->base[1] * es;
   if (c->reads_mask || c->writes_mask) t.mask = mask_buf;
   if (c->fused) { t.bias = bbuf; t.residual = s_r + c->base[2] * es; }
   return t;
}

static void test_descriptor(void)
{
   static const uint64_t nts[] = { 1, 3, 32, 100 };
   int iter, ran = 0, refused = 0, fast = 0, strided = 0, dev = 0, dev_end = 0;
   char refusal[200] = "";
   for (iter = 0; iter < 5000; ++iter) {
      view_case c;
      dropout_plan plan, wrong;
      dropout_desc dv, dc, dd;
      dropout_tensors tv, tc;
      dropout_job job;
      uint64_t i, dseed = 77, dpos;
      unsigned es;
      size_t g, mbytes;
      int rc;
      views_make(&c, 6000, SBUF);
      es = esize(c.dt);
      fill_random(s_x, sizeof s_x); fill_random(s_r, sizeof s_r); fill_random(s_y0, sizeof s_y0);
      fill_random(bbuf, sizeof bbuf); fill_random(s_m0, sizeof s_m0);
      if (c.op != DROPOUT_OP_GAUSSIAN && c.op != DROPOUT_OP_NOISE) {
         sprinkle_specials(c.dt, s_x, SBUF); sprinkle_specials(c.dt, s_r, SBUF); sprinkle_specials(c.dt, s_y0, SBUF);
      }
      rc = views_plan(&c, 77, c.off, &plan);
      if (!rc) rc = views_desc(&dv, &c, &plan, 1);
      if (!rc) rc = views_desc(&dc, &c, &plan, 0);
      tv = case_tensors(&c, s_y0, s_m0);
      if (!rc) rc = dropout_lower(&dv, &tv, &job);
      if (rc) {   /* e.g. an empty view whose padding made two output strides meet */
         if (!refused++) snprintf(refusal, sizeof refusal, "op %d rank %d: %s", (int)c.op, c.rank, dropout_strerror(rc));
         continue;
      }
      ++ran;
      mbytes = (size_t)(c.positions + 7) / 8 + 4;
      /* oracle 1: the CPU on the view */
      memcpy(s_cpu, s_y0, sizeof s_cpu); memcpy(s_mcpu, s_m0, sizeof s_mcpu);
      tv = case_tensors(&c, s_cpu, c.reads_mask ? s_m0 : s_mcpu);
      rc = dropout_run(&dv, &tv);
      CHECK(rc == 0, "cpu dropout_run on the view: %s", dropout_strerror(rc));
      /* oracle 2: the CPU on the contiguous copy, scattered back */
      for (i = 0; i < c.numel; ++i) {
         memcpy(s_xc + i * es, s_x + (size_t)((ptrdiff_t)c.base[1] + views_offset(c.rank, c.dims, c.stp[1], i)) * es, es);
         memcpy(s_rc + i * es, s_r + (size_t)((ptrdiff_t)c.base[2] + views_offset(c.rank, c.dims, c.stp[2], i)) * es, es);
         memcpy(s_yc + i * es, s_y0 + (size_t)((ptrdiff_t)c.base[0] + views_offset(c.rank, c.dims, c.stp[0], i)) * es, es);
      }
      memcpy(s_mcopy, s_m0, sizeof s_mcopy);
      memset(&tc, 0, sizeof tc);
      tc.out = c.has_out ? (void *)s_yc : NULL; tc.in = c.has_in ? (const void *)s_xc : NULL;
      tc.mask = c.reads_mask ? s_m0 : c.writes_mask ? s_mcopy : NULL;
      tc.bias = c.fused ? (const void *)bbuf : NULL; tc.residual = c.fused ? (const void *)s_rc : NULL;
      rc = dropout_run(&dc, &tc);
      CHECK(rc == 0, "cpu dropout_run on the contiguous copy: %s", dropout_strerror(rc));
      memcpy(s_copy, s_y0, sizeof s_copy);
      for (i = 0; i < c.numel && c.has_out; ++i)
         memcpy(s_copy + (size_t)((ptrdiff_t)c.base[0] + views_offset(c.rank, c.dims, c.stp[0], i)) * es, s_yc + i * es, es);
      CHECK(views_same(&c, s_copy, s_cpu, sizeof s_cpu), "cpu: the view's output is not the contiguous copy's (op %d %s rank %d bcast %x)",
            (int)c.op, dt_name(c.dt), c.rank, c.bcast);
      if (c.writes_mask) CHECK(memcmp(s_mcopy, s_mcpu, mbytes) == 0, "cpu: the view's mask is not the contiguous copy's");
      /* the GPU's launches, emulated; a quarter of the time with the coordinates in "device"
         memory and the plan's own coordinates wrong */
      rc = views_desc(&dd, &c, &plan, 1);
      if (c.use_dev) {
         ++dev;
         dpos = c.off;
         rc = views_plan(&c, 1, 0, &wrong);
         if (!rc) rc = views_desc(&dd, &c, &wrong, 1);
         if (!rc) rc = dropout_desc_set_device_coords(&dd, &dseed, &dpos);
      }
      CHECK(rc == 0, "gpu descriptor: %s", dropout_strerror(rc));
      for (g = 0; g < sizeof nts / sizeof nts[0]; ++g) {
         memcpy(s_got, s_y0, sizeof s_got); memcpy(s_mgot, s_m0, sizeof s_mgot);
         tv = case_tensors(&c, s_got, c.reads_mask ? s_m0 : s_mgot);
         rc = dropout_lower(&dd, &tv, &job);
         CHECK(rc == 0, "dropout_lower: %s", dropout_strerror(rc));
         if (emulate_job(&job, nts[g], (int)(g & 1u))) ++fast; else ++strided;
         if (job.dev_pos && c.op != DROPOUT_OP_APPLY_MASK && c.positions > 0 && c.positions > UINT64_MAX - c.off) {
            /* a device position never hands out 2^64 - 1 (dropout_cuda_advance parks a
               wrapping one there): nothing written, but by the backward from a stored mask,
               which reads no position (written as on the CPU) */
            dev_end += g == 0;
            CHECK(memcmp(s_got, s_y0, sizeof s_got) == 0 && memcmp(s_mgot, s_m0, sizeof s_mgot) == 0,
                  "gpu path %s op %d: a device position ending at 2^64 - 1 wrote", dt_name(c.dt), (int)c.op);
            continue;
         }
         CHECK(views_same(&c, s_got, s_cpu, sizeof s_got),
               "gpu path %s op %d rank %d dims %zu,%zu,%zu,%zu bcast %x p %g bits %d off %llu acc %d dev %d threads %llu: output differs from the cpu's",
               dt_name(c.dt), (int)c.op, c.rank, c.dims[0], c.rank > 1 ? c.dims[1] : 0, c.rank > 2 ? c.dims[2] : 0,
               c.rank > 3 ? c.dims[3] : 0, c.bcast, c.p, c.bits, (unsigned long long)c.off, c.accumulate, c.use_dev,
               (unsigned long long)nts[g]);
         if (c.writes_mask) CHECK(memcmp(s_mgot, s_mcpu, sizeof s_mgot) == 0, "gpu path op %d: mask differs (or bytes past it written)", (int)c.op);
      }
   }
   CHECK(ran > 4500, "only %d of %d descriptors passed the checks (first refusal: %s)", ran, ran + refused, refusal);
   CHECK(fast > 2000 && strided > 10000 && dev > 800 && dev_end > 100, "paths: %d contiguous, %d strided, %d device coords (%d at 2^64 - 1)",
         fast, strided, dev, dev_end);
   printf("    %d descriptors run, %d refused by dropout.h's checks (first: %s); kernel runs: %d contiguous, %d strided; %d cases with device coordinates, %d of them ending at 2^64 - 1 (nothing written)\n",
          ran, refused, refusal, fast, strided, dev, dev_end);
   case_end("emulated dropout_cuda_run: random strided views (permuted, padded, reversed, zero-stride inputs, broadcast, accumulate, device coordinates), every op and dtype == CPU dropout_run on the view == on the contiguous copy; nothing written outside the view");
}

/* ---- The launch decisions (dropout_cuda__prepare) from lowered jobs -------------------
   Which kernels dropout_cuda_run launches for a job: the contiguous kernel for one
   contiguous unbroadcast run of a plain or fused op (mask and all) and for the mask op;
   otherwise the mask kernel over the positions (when a mask is written) and then the
   strided kernel over the job's own reduced geometry. And the 0.1.0 doors' requests,
   lowered through dropout.h's public setters: the same job a descriptor gives. */
static int decide(dropout_op op, int rank, const size_t *dims, const ptrdiff_t *out_st, unsigned bcast, int acc,
                  double p, float *y, uint8_t *m, const float *x, dropout_job *job,
                  dropout_cuda__sargs *s, dropout_cuda__args *ma)
{
   dropout_rule r = cpu_rule(p, 8);
   dropout_plan plan;
   dropout_desc d;
   dropout_tensors t;
   uint64_t positions = 0;
   int rc = dropout_shape_positions(rank, dims, bcast, &positions);
   if (!rc) rc = (op == DROPOUT_OP_GAUSSIAN || op == DROPOUT_OP_NOISE ? dropout_plan_at_normals : dropout_plan_at)(&plan, &r, dropout_key_make(77, 5), dropout_pos_make(9), positions);
   if (!rc) rc = dropout_desc_init(&d, op, DROPOUT_DTYPE_F32, &plan);
   if (!rc) rc = dropout_desc_set_shape(&d, rank, dims);
   if (!rc && bcast) rc = dropout_desc_set_broadcast(&d, bcast);
   if (!rc && out_st) rc = dropout_desc_set_strides(&d, DROPOUT_OPERAND_OUT, out_st);
   if (!rc && out_st) rc = dropout_desc_set_strides(&d, DROPOUT_OPERAND_IN, out_st);
   if (!rc && acc) rc = dropout_desc_set_grad(&d, DROPOUT_GRAD_ACCUMULATE);
   if (!rc && op == DROPOUT_OP_NOISE) rc = dropout_desc_set_sigma(&d, 0.5);
   memset(&t, 0, sizeof t);
   if (op != DROPOUT_OP_MASK) { t.out = y; t.in = x; }
   t.mask = m;
   if (op == DROPOUT_OP_BIAS_DROPOUT_ADD) { t.bias = (const float *)(const void *)bbuf; t.residual = (const float *)(const void *)rbuf; }
   if (!rc) rc = dropout_lower(&d, &t, job);
   CHECK(rc == 0, "decide: op %d: %s", (int)op, dropout_strerror(rc));
   if (rc) return -1;
   return dropout_cuda__prepare(job, s, ma);
}

static void test_launch_decisions(void)
{
   static float y[4096], x[4096];
   static uint8_t m[600];
   static const size_t d2[2] = { 4, 33 }, d3[3] = { 3, 1, 50 }, dt[2] = { 33, 4 };
   static const ptrdiff_t st_t[2] = { 1, 33 };   /* a transpose: dims [33, 4] of a [4, 33] buffer */
   dropout_job job;
   dropout_cuda__sargs s;
   dropout_cuda__args ma;
   int fast, k;
   for (k = 0; k < 4096; ++k) x[k] = (float)k + 0.5f;
   fast = decide(DROPOUT_OP_FORWARD, 2, d2, NULL, 0, 0, 0.5, y, m, x, &job, &s, &ma);
   CHECK(fast == 1 && job.rank == 1 && job.dim[0] == 132 && job.contiguous && s.a.mask_out == m && s.a.n == 132 &&
         ma.mask_out == NULL, "contiguous forward: the contiguous kernel, mask and all (fast %d rank %d)", fast, job.rank);
   fast = decide(DROPOUT_OP_FORWARD, 2, dt, st_t, 0, 0, 0.5, y, m, x, &job, &s, &ma);
   CHECK(fast == 0 && !job.contiguous && s.g.rank == 2 && s.g.dim[0] == 33 && s.g.dim[1] == 4 && s.g.stride[0][1] == 33 &&
         s.g.mstride[1] == 1 && s.g.mstride[0] == 4 && s.g.upr == 1 && s.g.items == 33 && ma.mask_out == m && ma.y == NULL &&
         s.a.mask_out == NULL, "transposed forward: mask kernel, then the strided kernel on the job's geometry");
   fast = decide(DROPOUT_OP_BACKWARD, 2, d2, NULL, 0, 1, 0.5, y, NULL, x, &job, &s, &ma);
   CHECK(fast == 0 && job.contiguous && job.accumulate && s.accumulate && ma.mask_out == NULL && s.g.rank == 1 && s.g.items == 5,
         "accumulating backward: the strided kernel (it reads out), no mask kernel");
   fast = decide(DROPOUT_OP_BIAS_DROPOUT_ADD, 2, d2, NULL, 0, 0, 0.5, y, m, x, &job, &s, &ma);
   CHECK(fast == 1 && job.contiguous && job.rank == 2 && s.a.cols == 33 && s.a.bias == (const void *)bbuf && s.a.mask_out == m,
         "contiguous bias-dropout-add: the contiguous kernel, bias_len 33 (the bias keeps the rows apart: rank %d)", job.rank);
   fast = decide(DROPOUT_OP_FORWARD, 3, d3, NULL, 1u, 0, 0.5, y, m, x, &job, &s, &ma);
   CHECK(fast == 0 && job.rank == 2 && job.positions == 50 && s.g.mstride[0] == 0 && s.g.mstride[1] == 1 && ma.mask_out == m &&
         ma.n == 50 && s.g.items == 3 * 2, "broadcast forward: mask kernel over 50 positions, strided kernel, mask stride 0");
   fast = decide(DROPOUT_OP_MASK, 2, d2, NULL, 0, 0, 0.5, y, m, x, &job, &s, &ma);
   CHECK(fast == 1 && s.a.mask_out == m && s.a.y == NULL && dropout_cuda__op_of(job.op) == DROPOUT_CUDA__MASK, "mask op: the contiguous mask kernel");
   fast = decide(DROPOUT_OP_GAUSSIAN, 2, d2, NULL, 0, 0, 0.25, y, NULL, x, &job, &s, &ma);
   CHECK(fast == 0 && job.op_class == DROPOUT_CLASS_NORMAL && s.sigma == job.sigma && s.sigma > 0.0f && !s.copy &&
         dropout_cuda__op_of(job.op) == DROPOUT_CUDA__GAUSS, "gaussian: the strided kernel (normals), sigma from the job");
   fast = decide(DROPOUT_OP_ALPHA_FORWARD, 2, d2, NULL, 0, 0, 0.25, y, m, x, &job, &s, &ma);
   CHECK(fast == 0 && ma.mask_out == m && s.alpha.a == job.alpha.a && s.alpha.a != 0.0 && dropout_cuda__op_of(job.op) == DROPOUT_CUDA__ALPHA,
         "alpha forward: mask kernel, strided kernel with the job's alpha constants");
   fast = decide(DROPOUT_OP_APPLY_MASK, 2, d2, NULL, 0, 0, 1.0, y, m, x, &job, &s, &ma);
   CHECK(fast == 1 && s.a.mask_in == m && dropout_cuda__launch_op(&s.a, dropout_cuda__op_of(job.op)) == DROPOUT_CUDA__DROP,
         "apply_mask at p = 1: contiguous, run as a forward that keeps nothing");
   case_end("launch decisions from lowered jobs (contiguous / mask + strided kernels, the job's geometry, sigma, alpha, bias_len)");

}

/* Empty views whose other dims are huge (their product would overflow): whatever
   dropout.h's checks say, the GPU side agrees, and an accepted one writes nothing. */
static void test_empty_views(void)
{
   static const size_t shapes[][3] = { { (size_t)-1 / 3, 2, 0 }, { 0, (size_t)-1, 5 }, { 7, 0, (size_t)1 << 40 } };
   static float y[64], x[64];
   int i, accepted = 0;
   for (i = 0; i < 3; ++i) {
      dropout_rule rule;
      dropout_plan plan;
      dropout_desc d;
      dropout_tensors t;
      dropout_job job;
      int rc = dropout_rule_init(&rule, 0.5, DROPOUT_BITS_8);
      if (!rc) rc = dropout_plan_at(&plan, &rule, dropout_key_make(1, 2), dropout_pos_make(3), 0);
      if (!rc) rc = dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
      if (!rc) rc = dropout_desc_set_shape(&d, 3, shapes[i]);
      memset(&t, 0, sizeof t);
      t.out = y; t.in = x;
      if (!rc) rc = dropout_lower(&d, &t, &job);
      if (rc) continue;
      ++accepted;
      memset(y, 0x5A, sizeof y);
      emulate_job(&job, 3, 0);
      for (rc = 0; rc < 64; ++rc) CHECK(((const unsigned char *)y)[rc * 4] == 0x5A, "empty view %d: y written", i);
   }
   printf("    %d of 3 empty views with huge dims accepted by the checks\n", accepted);
   case_end("empty views with huge dims: no overflow in the shape reduction, nothing written");
}

/* Each thread alone on poisoned outputs: the bytes it writes, under two poisons. No byte
   may be written by two threads, and together they must write every byte. */
static void test_ownership(void)
{
   static uint16_t owner_y[MAXN * 8], owner_m[MAXN];
   static unsigned char y0[MAXN * 8 + 64], m0[MAXN / 8 + 8];
   static const size_t ns[] = { 5, 33, 100, 257 };
   static const uint64_t offs[] = { 0, 3, 13 };
   static const uint64_t threads[] = { 3, 5 };
   int dt, op, it;
   size_t in, io;
   for (dt = 0; dt < 4; ++dt)
      for (op = DROPOUT_CUDA__DROP; op <= DROPOUT_CUDA__FUSED; ++op)
         for (in = 0; in < 4; ++in)
            for (io = 0; io < 3; ++io)
               for (it = 0; it < 2; ++it) {
                  size_t n = ns[in], es = esize(dt), i, cols = 7;
                  uint64_t t, nt = threads[it];
                  int poison;
                  if (op == DROPOUT_CUDA__FUSED && dt == DROPOUT_CUDA__F64) continue;
                  if (op == DROPOUT_CUDA__FUSED) n = n / cols * cols;
                  for (i = 0; i < n * es; ++i) owner_y[i] = 0xFFFF;
                  for (i = 0; i < (n + 7) / 8; ++i) owner_m[i] = 0xFFFF;
                  fill_random(xbuf, sizeof xbuf);
                  for (t = 0; t < nt; ++t)
                     for (poison = 0; poison < 2; ++poison) {
                        dropout_cuda__args a = base_args(n, 0.5, 8, offs[io]);
                        unsigned char *y = (unsigned char *)aligned_at(y0, dt, 0);
                        memset(y, poison ? 0xFF : 0x00, n * es);
                        memset(m0, poison ? 0xFF : 0x00, sizeof m0);
                        a.x = aligned_at(xbuf, dt, 1); a.y = y; a.mask_out = m0; a.mask_in = xbuf;
                        a.bias = rbuf; a.residual = wbuf; a.cols = cols;
                        dropout_cuda__body(a, dt, op, t, nt);
                        for (i = 0; i < n * es; ++i)
                           if (y[i] != (poison ? 0xFF : 0x00) && op != DROPOUT_CUDA__MASK) {
                              CHECK(owner_y[i] == 0xFFFF || owner_y[i] == t, "dt %d op %d n %zu: data byte %zu written by threads %u and %llu", dt, op, n, i, owner_y[i], (unsigned long long)t);
                              owner_y[i] = (uint16_t)t;
                           }
                        for (i = 0; i < (n + 7) / 8; ++i)
                           if (m0[i] != (poison ? 0xFF : 0x00) && op != DROPOUT_CUDA__APPLY_MASK) {
                              CHECK(owner_m[i] == 0xFFFF || owner_m[i] == t, "dt %d op %d n %zu: mask byte %zu written by threads %u and %llu", dt, op, n, i, owner_m[i], (unsigned long long)t);
                              owner_m[i] = (uint16_t)t;
                           }
                        CHECK(m0[(n + 7) / 8] == (poison ? 0xFF : 0x00), "a mask byte past the end was written");
                     }
                  for (i = 0; i < n * es && op != DROPOUT_CUDA__MASK; ++i) CHECK(owner_y[i] != 0xFFFF, "data byte %zu never written", i);
                  for (i = 0; i < (n + 7) / 8 && op != DROPOUT_CUDA__APPLY_MASK; ++i) CHECK(owner_m[i] != 0xFFFF, "mask byte %zu never written", i);
               }
   case_end("emulated threads own disjoint bytes (data and mask), all written");
}

/* Seed and offset read through pointers (the graph-capture path); a run-time offset
   that runs past 2^64 writes nothing. */
static void test_runtime_state(void)
{
   static float x[300], y[300], w[300];
   uint64_t seed = 77, off = 12345;
   int i;
   dropout_cuda__args a = base_args(300, 0.25, 8, 0);
   for (i = 0; i < 300; ++i) x[i] = (float)i;
   CHECK(cpu_forward(DROPOUT_CUDA__F32, w, NULL, x, 300, 0.25, 8, 12345) == 0, "cpu");
   a.seed = 1; a.x = x; a.y = y; a.seed_ptr = &seed; a.offset_ptr = &off;
   run_grid(a, DROPOUT_CUDA__F32, DROPOUT_CUDA__DROP, 4, 0);
   CHECK(memcmp(y, w, sizeof y) == 0, "values behind the pointers not used");
   off = UINT64_MAX - 298;   /* positions up to 2^64 - 1 + 1: one too many */
   memset(y, 0, sizeof y);
   run_grid(a, DROPOUT_CUDA__F32, DROPOUT_CUDA__DROP, 4, 0);
   for (i = 0; i < 300; ++i) CHECK(y[i] == 0.0f, "y[%d] written after a range error", i);
   off = UINT64_MAX - 299;   /* would hand out 2^64 - 1, which a device position never does */
   run_grid(a, DROPOUT_CUDA__F32, DROPOUT_CUDA__DROP, 4, 0);
   for (i = 0; i < 300; ++i) CHECK(y[i] == 0.0f, "y[%d] written at a device position's last position", i);
   off = UINT64_MAX - 300;   /* ends at 2^64 - 2: drawn */
   CHECK(cpu_forward(DROPOUT_CUDA__F32, w, NULL, x, 300, 0.25, 8, off) == 0, "cpu");
   run_grid(a, DROPOUT_CUDA__F32, DROPOUT_CUDA__DROP, 4, 0);
   CHECK(memcmp(y, w, sizeof y) == 0, "a device position ending at 2^64 - 2 is not the CPU's");
   /* the plan's own coordinates may end at 2^64 - 1 (the host checked them) */
   a.seed_ptr = NULL; a.offset_ptr = NULL; a.seed = 77; a.offset = UINT64_MAX - 299;
   CHECK(cpu_forward(DROPOUT_CUDA__F32, w, NULL, x, 300, 0.25, 8, a.offset) == 0, "cpu");
   memset(y, 0, sizeof y);
   run_grid(a, DROPOUT_CUDA__F32, DROPOUT_CUDA__DROP, 4, 0);
   CHECK(memcmp(y, w, sizeof y) == 0, "a plan ending at 2^64 - 1 is not the CPU's");
   {  /* the backward from a stored mask reads no position: a layer's device coordinates near
         2^64 (or parked at 2^64 - 1 by dropout_cuda_advance) must not stop it writing
         (0.9.0 wrote nothing and returned 0) */
      static uint8_t keep[300 / 8 + 1];
      static const uint64_t coords[2] = {7, UINT64_MAX - 10};
      dropout_rule r;
      dropout_plan p;
      dropout_desc d;
      dropout_tensors t;
      dropout_job j;
      int rc, k, bad = 0;
      memset(keep, 0x5A, sizeof keep);
      memset(&t, 0, sizeof t);
      t.out = y; t.mask = keep; t.in = x;
      rc = dropout_rule_init(&r, 0.25, DROPOUT_BITS_8);
      if (!rc) rc = dropout_plan_at(&p, &r, dropout_key_make(1, 2), dropout_pos_make(0), 300);
      if (!rc) rc = dropout_desc_init(&d, DROPOUT_OP_APPLY_MASK, DROPOUT_DTYPE_F32, &p);
      if (!rc) rc = dropout_apply_mask_f32(&r, 300, w, keep, x);   /* the CPU's */
      for (k = 0; k < 2 && !rc; ++k) {   /* contiguous, then a strided view (2 x 150, reversed rows) */
         static const size_t dims[2] = {2, 150};
         static const ptrdiff_t flip[2] = {-150, 1};
         if (k == 1) {
            rc = dropout_desc_set_shape(&d, 2, dims);
            if (!rc) rc = dropout_desc_set_strides(&d, DROPOUT_OPERAND_OUT, flip);
            t.out = y + 150;
         }
         if (!rc) rc = dropout_desc_set_device_coords(&d, &coords[0], &coords[1]);
         if (!rc) rc = dropout_lower(&d, &t, &j);
         memset(y, 0, sizeof y);
         if (!rc) emulate_job(&j, 4, 0);
         for (i = 0; i < 300 && !rc; ++i) {
            const int at = k == 1 ? (i < 150 ? 150 + i : i - 150) : i;   /* element i of the view */
            if (memcmp(&y[at], &w[i], sizeof w[i])) ++bad;
         }
      }
      CHECK(rc == 0 && bad == 0, "apply_mask with device coordinates near 2^64: rc %d, %d of 300 elements not the CPU's", rc, bad);
   }
   case_end("emulated run-time seed/offset pointers; past 2^64, or a device position's 2^64 - 1, nothing written (a backward from a stored mask, which reads none, written)");
}

/* Position strides (dropout_desc_set_position_strides): tensor parallel's column slices of a
   (7, 100) activation, one descriptor per rank with position strides {100, 1}, and a
   transposed slice (the mask's order as the shape, its own layout as operand strides):
   the emulated kernels equal dropout_run on the same descriptor, output and mask. */
static void test_position_strides(void)
{
   enum { PB = 7, PW = 100 };
   static float x[PB * PW], cpu[PB * PW], gpu[PB * PW];
   static uint8_t mcpu[PB * PW / 8 + 8], mgpu[PB * PW / 8 + 8];
   static const dropout_op ops[3] = { DROPOUT_OP_FORWARD, DROPOUT_OP_BACKWARD, DROPOUT_OP_APPLY_MASK };
   dropout_rule rule;
   dropout_plan whole, part;
   int R, r, k, tr, cases = 0, i;
   for (i = 0; i < PB * PW; ++i) x[i] = (float)(i % 29) - 3.0f;
   CHECK(dropout_rule_init(&rule, 0.35, DROPOUT_BITS_8) == 0, "rule");
   CHECK(dropout_plan_at(&whole, &rule, dropout_key_make(3, 4), dropout_pos_make(77), PB * PW) == 0, "plan");
   for (R = 1; R <= 70; R = R < 4 ? R + 1 : R + 66)   /* 1-4, then 70 ranks: blocks of one and two columns */
      for (r = 0; r < R; ++r)
         for (tr = 0; tr < 3; ++tr)
            for (k = 0; k < 3; ++k) {
               const int c0 = PW * r / R, cw = PW * (r + 1) / R - c0;
               /* tr 2: the mask's order transposed, (cw, B) with position strides {1, W}:
                  rows of one element */
               const size_t dims[2] = { tr == 2 ? (size_t)cw : (size_t)PB, tr == 2 ? (size_t)PB : (size_t)cw };
               const uint64_t ps[2] = { tr == 2 ? 1u : (uint64_t)PW, tr == 2 ? (uint64_t)PW : 1u };
               const ptrdiff_t colmajor[2] = { 1, PB };   /* tr 1: the slice stored (cw, B) */
               dropout_desc d;
               dropout_tensors t;
               dropout_job job;
               uint64_t g;
               int rc = dropout_plan_slice(&whole, (uint64_t)c0, (uint64_t)(PB - 1) * PW + (uint64_t)cw, &part);
               if (!rc) rc = dropout_desc_init(&d, ops[k], DROPOUT_DTYPE_F32, &part);
               if (!rc) rc = dropout_desc_set_shape(&d, 2, dims);
               if (!rc) rc = dropout_desc_set_position_strides(&d, ps);
               if (!rc) rc = dropout_desc_set_mask_bytes(&d, sizeof mcpu);   /* the mask holds the span */
               if (!rc && tr == 1) rc = dropout_desc_set_strides(&d, DROPOUT_OPERAND_OUT, colmajor);
               if (!rc && tr == 1) rc = dropout_desc_set_strides(&d, DROPOUT_OPERAND_IN, colmajor);
               CHECK(rc == 0, "setup: %s", dropout_strerror(rc));
               memset(&t, 0, sizeof t);
               memset(cpu, 0, sizeof cpu); memset(gpu, 0, sizeof gpu);
               if (k == 0) { memset(mcpu, 0, sizeof mcpu); memset(mgpu, 0, sizeof mgpu); }
               t.out = cpu; t.in = x; t.mask = k == 1 ? NULL : mcpu;
               rc = dropout_run(&d, &t);
               CHECK(rc == 0, "cpu op %d: %s", (int)ops[k], dropout_strerror(rc));
               t.out = gpu; t.mask = k == 0 ? mgpu : k == 2 ? mcpu : NULL;
               rc = dropout_desc_replay(&d);   /* the same mask again, on the "GPU" */
               if (!rc) rc = dropout_lower(&d, &t, &job);
               CHECK(rc == 0, "lower: %s", dropout_strerror(rc));
               if (rc) continue;
               for (g = 1; g <= 33; g += 32) (void)emulate_job(&job, g, (int)g & 1);
               CHECK(memcmp(cpu, gpu, sizeof cpu) == 0, "%d ranks, rank %d, op %d, transposed %d: output differs", R, r, (int)ops[k], tr);
               if (k == 0) CHECK(memcmp(mcpu, mgpu, sizeof mcpu) == 0, "%d ranks, rank %d: mask differs", R, r);
               ++cases;
            }
   CHECK(cases == 3 * 3 * 80, "%d cases", cases);
   case_end("emulated dropout_cuda_run with position strides: tensor parallel's column slices (1-4 and 70 ranks: blocks of one column; row- and column-major; the mask's order transposed), forward + mask, both backwards == dropout_run");
}

/* dropout_cuda_advance's arithmetic: a device position never wraps to step 0's positions;
   it parks at 2^64 - 1, from which no run draws (test_runtime_state) */
static void test_advance(void)
{
   static const struct { uint64_t pos, n, want; } t[] = {
      { 5, 10, 15 },
      { 0, 0, 0 },
      { UINT64_MAX - 10, 9, UINT64_MAX - 1 },
      { UINT64_MAX - 10, 10, UINT64_MAX },
      { UINT64_MAX - 10, 11, UINT64_MAX },   /* 2^64: was 0 */
      { UINT64_MAX - 10, 5000, UINT64_MAX },   /* was 4989 */
      { UINT64_MAX, 0, UINT64_MAX },
      { UINT64_MAX, 1, UINT64_MAX },
      { 1, UINT64_MAX, UINT64_MAX },
   };
   size_t i;
   for (i = 0; i < sizeof t / sizeof t[0]; ++i)
      CHECK(dropout_cuda__advanced(t[i].pos, t[i].n) == t[i].want, "advance %llu by %llu: %llu",
            (unsigned long long)t[i].pos, (unsigned long long)t[i].n,
            (unsigned long long)dropout_cuda__advanced(t[i].pos, t[i].n));
   case_end("advance: a device position that would reach 2^64 stays at 2^64 - 1");
}

int main(void)
{
   (void)case_skip;
   test_ops();
   test_block_keep();
   test_warp_path();
   test_fills();
   test_descriptor();
   test_launch_decisions();
   test_empty_views();
   test_ownership();
   test_runtime_state();
   test_advance();
   test_position_strides();
   return check_exit();
}
