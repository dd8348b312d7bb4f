/* test_cuda_logic.c - the CUDA kernels' bodies, run on the CPU over emulated grids.

   dropout_cuda.cuh writes each kernel as dropout_cuda__body(args, dtype, op, tid,
   nthreads), a __host__ __device__ function; the kernel only supplies tid and nthreads.
   Here a loop plays every thread of a grid, for several grid sizes, and the results must
   equal the CPU library bit for bit: that checks the unit/tail/alignment/mid-block
   indexing without a GPU. A second check replays each thread alone on poisoned buffers
   and proves that no two threads write the same byte (the property that makes the mask
   bytes race-free on the GPU). Built by tests/suite_cuda.sh with the host compiler. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DROPOUT_IMPLEMENTATION
#include "dropout_cuda.cuh"
#include "tests/check.h"

enum { MAXN = 1100, PAD = 16 };

static const uint64_t grids[] = { 1, 2, 3, 7, 32, 100 };
#define NGRIDS (sizeof grids / sizeof grids[0])

static uint64_t rng = 12345;
static uint32_t rnd32(void)
{
   rng = rng * 6364136223846793005u + 1442695040888963407u;
   return (uint32_t)(rng >> 32);
}

static void run_grid(dropout_cuda__args a, int dtype, int op, uint64_t nthreads, int reverse)
{
   uint64_t t;
   for (t = 0; t < nthreads; ++t)
      dropout_cuda__body(a, dtype, op, reverse ? nthreads - 1 - t : t, nthreads);
}

static unsigned esize(int dt) { return dropout_cuda__esize(dt); }

/* random data with a few special values; 16-byte aligned storage + `shift` elements */
static unsigned char xbuf[MAXN * 8 + 64], ybuf[MAXN * 8 + 64], rbuf[MAXN * 8 + 64], wbuf[MAXN * 8 + 64];
static unsigned char bbuf[MAXN * 8 + 64];
static uint8_t mask_ref[MAXN / 8 + 8], mask_got[MAXN / 8 + 8], mask_in[MAXN / 8 + 8];

static void fill_random(unsigned char *p, size_t bytes)
{
   size_t i;
   for (i = 0; i < bytes; ++i) p[i] = (unsigned char)rnd32();
}

static void *aligned_at(unsigned char *buf, int dt, unsigned shift)
{
   uintptr_t b = ((uintptr_t)buf + 15u) & ~(uintptr_t)15u;
   return (void *)(b + shift * esize(dt));
}

static int cpu_forward(int dt, void *y, uint8_t *m, const void *x, size_t n, double p, int bits, uint64_t off)
{
   switch (dt) {
   case DROPOUT_CUDA__F32: return dropout_forward_f32((float *)y, m, (const float *)x, n, p, bits, 77, 5, off);
   case DROPOUT_CUDA__F64: return dropout_forward_f64((double *)y, m, (const double *)x, n, p, bits, 77, 5, off);
   case DROPOUT_CUDA__F16: return dropout_forward_f16((uint16_t *)y, m, (const uint16_t *)x, n, p, bits, 77, 5, off);
   default: return dropout_forward_bf16((uint16_t *)y, m, (const uint16_t *)x, n, p, bits, 77, 5, off);
   }
}

static int cpu_apply_mask(int dt, void *y, const void *x, const uint8_t *m, size_t n, double p, int bits)
{
   switch (dt) {
   case DROPOUT_CUDA__F32: return dropout_apply_mask_f32((float *)y, (const float *)x, m, n, p, bits);
   case DROPOUT_CUDA__F64: return dropout_apply_mask_f64((double *)y, (const double *)x, m, n, p, bits);
   case DROPOUT_CUDA__F16: return dropout_apply_mask_f16((uint16_t *)y, (const uint16_t *)x, m, n, p, bits);
   default: return dropout_apply_mask_bf16((uint16_t *)y, (const uint16_t *)x, m, n, p, bits);
   }
}

static int cpu_fused(int dt, void *y, uint8_t *m, const void *x, const void *b, const void *r, size_t rows, size_t cols, double p, int bits, uint64_t off)
{
   switch (dt) {
   case DROPOUT_CUDA__F32: return dropout_bias_dropout_add_f32((float *)y, m, (const float *)x, (const float *)b, (const float *)r, rows, cols, p, bits, 77, 5, off);
   case DROPOUT_CUDA__F16: return dropout_bias_dropout_add_f16((uint16_t *)y, m, (const uint16_t *)x, (const uint16_t *)b, (const uint16_t *)r, rows, cols, p, bits, 77, 5, off);
   default: return dropout_bias_dropout_add_bf16((uint16_t *)y, m, (const uint16_t *)x, (const uint16_t *)b, (const uint16_t *)r, rows, cols, p, bits, 77, 5, off);
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
   fill_random((unsigned char *)bias, cols * es);
   fill_random(mask_in, nb + 4);
   memset(mask_ref, 0xA5, sizeof mask_ref);
   memset(w, 0xA5, n * es + 16);
   switch (op) {
   case DROPOUT_CUDA__DROP: rc = cpu_forward(dt, w, with_mask ? mask_ref : NULL, x, n, p, bits, off); break;
   case DROPOUT_CUDA__APPLY_MASK: rc = cpu_apply_mask(dt, w, x, mask_in, n, p, bits); break;
   case DROPOUT_CUDA__MASK: rc = dropout_mask(mask_ref, n, p, bits, 77, 5, off); break;
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
         CHECK(memcmp(y, w, n * es + 16) == 0, "%s op %d n %zu p %g bits %d off %llu shifts %u/%u grid %llu: data differ",
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
   return ((uint64_t)1 << 63) + 11;
}
#define NOFFSETS 17

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
      if (dt == DROPOUT_CUDA__F64) continue;
      for (ib = 0; ib < 3; ++ib)
         for (is = 0; is < NSIZES; ++is)
            for (io = 0; io < NOFFSETS; io += 2)
               one(dt, DROPOUT_CUDA__FUSED, sizes[is], ps[((size_t)io + is) % 5], bitss[ib], offset_for(io, sizes[is]),
                   (unsigned)io % 3u, (unsigned)is % 2u, (io / 2) & 1);
   }
   case_end("emulated grids: fused bias-dropout-residual f32/f16/bf16");
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
         for (op = DROPOUT_CUDA__FILL_U32; op <= DROPOUT_CUDA__FILL_UF32; ++op) {
            memset(want, 0xA5, sizeof want);
            if (op == DROPOUT_CUDA__FILL_U32) dropout_fill_u32(want + 1, n, 9, 2, w0);
            else dropout_fill_uniform_f32((float *)(want + 1), n, 9, 2, w0);
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
         dropout_fill_uniform_f64(wd, n, 9, 2, w0);
         for (g = 0; g < NGRIDS; ++g) {
            dropout_cuda__args a = base_args(n, 0.0, 32, w0);
            a.seed = 9; a.stream = 2; a.y = gd;
            memset(gd, 0, sizeof gd);
            run_grid(a, DROPOUT_CUDA__F64, DROPOUT_CUDA__FILL_UF64, grids[g], 0);
            CHECK(memcmp(gd, wd, sizeof gd) == 0, "fill f64 n %zu index %llu grid %llu", n, (unsigned long long)w0, (unsigned long long)grids[g]);
         }
      }
   case_end("emulated grids: fill u32 / uniform f32 / uniform f64");
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
   that runs past 2^64 writes nothing and reports DROPOUT_ERR_RANGE. */
static void test_runtime_state(void)
{
   static float x[300], y[300], w[300];
   uint64_t seed = 77, off = 12345;
   int status = 0, i;
   dropout_cuda__args a = base_args(300, 0.25, 8, 0);
   for (i = 0; i < 300; ++i) x[i] = (float)i;
   dropout_forward_f32(w, NULL, x, 300, 0.25, 8, 77, 5, 12345);
   a.seed = 1; a.x = x; a.y = y; a.seed_ptr = &seed; a.offset_ptr = &off; a.status_ptr = &status;
   run_grid(a, DROPOUT_CUDA__F32, DROPOUT_CUDA__DROP, 4, 0);
   CHECK(memcmp(y, w, sizeof y) == 0 && status == 0, "values behind the pointers not used");
   off = UINT64_MAX - 298;   /* positions up to 2^64 - 1 + 1: one too many */
   memset(y, 0, sizeof y);
   run_grid(a, DROPOUT_CUDA__F32, DROPOUT_CUDA__DROP, 4, 0);
   CHECK(status == DROPOUT_ERR_RANGE, "status %d", status);
   for (i = 0; i < 300; ++i) CHECK(y[i] == 0.0f, "y[%d] written after a range error", i);
   case_end("emulated run-time seed/offset pointers and range status");
}

int main(void)
{
   (void)case_skip;
   test_ops();
   test_fills();
   test_ownership();
   test_runtime_state();
   return check_exit();
}
