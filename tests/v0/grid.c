/* grid.c - every 0.1 call over a grid of arguments: sizes around the 64-element chunks,
   positions up to the stream's end, p and bits in and out of their domains (NaN, the edge
   of the threshold's rounding), Gaussian p whose sigma no 32-bit threshold realises, empty
   and overflowing shapes, NULL buffers. Each call's return code and every byte of its
   outputs (canaries around them) go into one FNV-1a hash per kind, frozen in
   tests/v0/grid.expected from the header that held the 0.1 calls inside it (0.9.0):
   dropout_v0.h, built on the 1.0 calls, must give the same bytes and codes. One change on
   purpose since: noise with a sigma from 2^128 - 2^103 up (1e300 here), which 0.9.0 applied
   as +inf and so wrote infinities, is DROPOUT_ERR_ARG (the gaussian/noise line; CHANGELOG).
   `grid -v` prints every case instead (to find the one that moved). */
#ifndef DROPOUT_V0_API
#define DROPOUT_V0_API
#endif
#ifndef DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls are meant here */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS
#endif
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXN 1000
static unsigned char xb[MAXN * 8 + 64], yb[MAXN * 8 + 64], rb[MAXN * 8 + 64], bb[MAXN * 8 + 64];
static uint8_t mb[MAXN / 8 + 16], min_[MAXN / 8 + 16];
static uint64_t h;
static int verbose;
static unsigned long cases;

static void mix(const void *p, size_t n)
{
   const unsigned char *b = (const unsigned char *)p;
   while (n--) { h ^= *b++; h *= 0x100000001b3u; }
}

static void canary(void)
{
   memset(yb, 0xA5, sizeof yb);
   memset(mb, 0x5A, sizeof mb);
}

/* one case: its code and the outputs' bytes (the whole buffers: canaries included) */
static void record(const char *what, int rc)
{
   uint64_t before = h;
   mix(&rc, sizeof rc);
   mix(yb, sizeof yb);
   mix(mb, sizeof mb);
   ++cases;
   if (verbose) {
      uint64_t c = 0xcbf29ce484222325u;
      const unsigned char *b;
      size_t i;
      for (b = yb, i = 0; i < sizeof yb; ++i) { c ^= b[i]; c *= 0x100000001b3u; }
      for (b = mb, i = 0; i < sizeof mb; ++i) { c ^= b[i]; c *= 0x100000001b3u; }
      printf("%s rc=%d %016llx\n", what, rc, (unsigned long long)c);
   }
   (void)before;
}

static void family(const char *name)
{
   printf("%-22s %016llx\n", name, (unsigned long long)h);
   h = 0xcbf29ce484222325u;
}

static size_t esize(int dt) { return dt == 2 ? 8 : dt == 1 ? 4 : 2; }

static void fill_inputs(void)
{
   size_t i;
   uint64_t s = 0x9E3779B97F4A7C15u;
   for (i = 0; i < MAXN; ++i) {
      float f;
      s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
      f = (float)((int64_t)(s * 0x2545F4914F6CDD1Du >> 40) - (1 << 23)) / 1048576.0f;
      if (i % 17 == 3) f = -0.0f;
      if (i % 29 == 5) f = 1e-40f;                /* subnormal */
      ((float *)(void *)xb)[i] = f;
      ((float *)(void *)rb)[i] = f * 0.5f + 1.0f;
      ((float *)(void *)bb)[i] = (float)i * 0.125f;
   }
   /* f64 and the halves reuse the bytes: any bit pattern is an input */
   for (i = 0; i < MAXN / 8 + 16; ++i) min_[i] = (uint8_t)(i * 37u + 11u);
}

static const size_t sizes[] = {0, 1, 7, 8, 63, 64, 65, 200, 1000};
static const uint64_t offsets[] = {0, 3, 1000003, UINT64_MAX - 500, UINT64_MAX};
static const int widths[] = {8, 16, 32, 7};
#define NS (sizeof sizes / sizeof sizes[0])
#define NO (sizeof offsets / sizeof offsets[0])
#define NW (sizeof widths / sizeof widths[0])

static int fwd(int dt, int back, void *y, uint8_t *m, const void *x, size_t n, double p, int bits, uint64_t off)
{
   switch (dt * 2 + back) {
   case 2: return dropout_v0_forward_f32((float *)y, m, (const float *)x, n, p, bits, 9, 4, off);
   case 3: return dropout_v0_backward_f32((float *)y, (const float *)x, n, p, bits, 9, 4, off);
   case 4: return dropout_v0_forward_f64((double *)y, m, (const double *)x, n, p, bits, 9, 4, off);
   case 5: return dropout_v0_backward_f64((double *)y, (const double *)x, n, p, bits, 9, 4, off);
   case 6: return dropout_v0_forward_f16((uint16_t *)y, m, (const uint16_t *)x, n, p, bits, 9, 4, off);
   case 7: return dropout_v0_backward_f16((uint16_t *)y, (const uint16_t *)x, n, p, bits, 9, 4, off);
   case 8: return dropout_v0_forward_bf16((uint16_t *)y, m, (const uint16_t *)x, n, p, bits, 9, 4, off);
   default: return dropout_v0_backward_bf16((uint16_t *)y, (const uint16_t *)x, n, p, bits, 9, 4, off);
   }
}

static int apply(int dt, int back, void *y, const void *x, const uint8_t *m, size_t n, double p, int bits)
{
   switch (dt * 2 + back) {
   case 2: return dropout_v0_apply_mask_f32((float *)y, (const float *)x, m, n, p, bits);
   case 3: return dropout_backward_mask_f32((float *)y, (const float *)x, m, n, p, bits);
   case 4: return dropout_v0_apply_mask_f64((double *)y, (const double *)x, m, n, p, bits);
   case 5: return dropout_backward_mask_f64((double *)y, (const double *)x, m, n, p, bits);
   case 6: return dropout_v0_apply_mask_f16((uint16_t *)y, (const uint16_t *)x, m, n, p, bits);
   case 7: return dropout_backward_mask_f16((uint16_t *)y, (const uint16_t *)x, m, n, p, bits);
   case 8: return dropout_v0_apply_mask_bf16((uint16_t *)y, (const uint16_t *)x, m, n, p, bits);
   default: return dropout_backward_mask_bf16((uint16_t *)y, (const uint16_t *)x, m, n, p, bits);
   }
}

static void core(void)
{
   /* 0.49999999999999994 / 256: p 2^8 is the double below 1/2, which 0.1.0 rounded up */
   const double ps[] = {0.0, 0.1, 1.0 / 3.0, 0.5, 0.9, 1.0, 1e-12, 0.49999999999999994 / 256.0, -0.1, 1.5, NAN};
   size_t si, oi, wi, pi;
   int dt, back;
   char what[160];
   for (dt = 1; dt <= 4; ++dt)
      for (back = 0; back < 2; ++back)
         for (pi = 0; pi < sizeof ps / sizeof ps[0]; ++pi)
            for (wi = 0; wi < NW; ++wi)
               for (si = 0; si < NS; ++si)
                  for (oi = 0; oi < NO; ++oi) {
                     size_t n = sizes[si];
                     snprintf(what, sizeof what, "fwd dt=%d back=%d p=%.17g bits=%d n=%zu off=%llu", dt, back, ps[pi],
                              widths[wi], n, (unsigned long long)offsets[oi]);
                     canary();
                     record(what, fwd(dt, back, yb, back ? NULL : mb, xb, n, ps[pi], widths[wi], offsets[oi]));
                     if (oi == 0 && wi == 0) {   /* in place; without a mask; NULLs */
                        memcpy(yb, xb, n * esize(dt));
                        record(what, fwd(dt, back, yb, NULL, yb, n, ps[pi], 16, 5));
                        canary();
                        record(what, fwd(dt, back, NULL, mb, xb, n, ps[pi], 16, 5));
                        record(what, fwd(dt, back, yb, mb, NULL, n, ps[pi], 16, 5));
                        canary();
                        record(what, apply(dt, back, yb, xb, min_, n, ps[pi], 16));
                        record(what, apply(dt, back, yb, xb, min_, n, ps[pi], 8));
                        record(what, apply(dt, back, yb, xb, NULL, n, ps[pi], 8));
                        record(what, apply(dt, back, yb, xb, min_, n, ps[pi], 12));
                        memcpy(yb, xb, n * esize(dt));
                        record(what, apply(dt, back, yb, yb, min_, n, ps[pi], 32));
                     }
                     if (dt == 1 && back == 0) {
                        canary();
                        record(what, dropout_v0_mask(mb, n, ps[pi], widths[wi], 9, 4, offsets[oi]));
                        record(what, dropout_check_args(ps[pi], widths[wi], n, offsets[oi]));
                     }
                  }
   canary();
   record("mask NULL", dropout_v0_mask(NULL, 5, 0.5, 8, 1, 2, 3));
   record("mask NULL n=0", dropout_v0_mask(NULL, 0, 0.5, 8, 1, 2, 3));
}

static int bda(int dt, size_t rows, size_t cols, double p, int bits, uint64_t off, int nulls)
{
   void *y = nulls == 1 ? NULL : (void *)yb, *res = nulls == 2 ? NULL : (void *)rb, *bias = nulls == 3 ? NULL : (void *)bb;
   uint8_t *m = nulls == 4 ? NULL : mb;
   switch (dt) {
   case 1: return dropout_v0_bias_dropout_add_f32((float *)y, m, (const float *)(void *)xb, (const float *)bias, (const float *)res, rows, cols, p, bits, 3, 1, off);
   case 2: return dropout_v0_bias_dropout_add_f64((double *)y, m, (const double *)(void *)xb, (const double *)bias, (const double *)res, rows, cols, p, bits, 3, 1, off);
   case 3: return dropout_v0_bias_dropout_add_f16((uint16_t *)y, m, (const uint16_t *)(void *)xb, (const uint16_t *)bias, (const uint16_t *)res, rows, cols, p, bits, 3, 1, off);
   default: return dropout_v0_bias_dropout_add_bf16((uint16_t *)y, m, (const uint16_t *)(void *)xb, (const uint16_t *)bias, (const uint16_t *)res, rows, cols, p, bits, 3, 1, off);
   }
}

static void fused(void)
{
   const size_t shapes[][2] = {{0, 0}, {0, 5}, {5, 0}, {1, 1}, {3, 7}, {10, 20}, {1, 1000}, {1000, 1}, {(size_t)-1, 2}};
   const double ps[] = {0.0, 0.2, 0.5, 1.0, NAN};
   size_t si, pi;
   int dt, nulls;
   char what[160];
   for (dt = 1; dt <= 4; ++dt)
      for (si = 0; si < sizeof shapes / sizeof shapes[0]; ++si)
         for (pi = 0; pi < sizeof ps / sizeof ps[0]; ++pi)
            for (nulls = 0; nulls < 5; ++nulls) {
               snprintf(what, sizeof what, "bda dt=%d %zux%zu p=%g nulls=%d", dt, shapes[si][0], shapes[si][1], ps[pi], nulls);
               canary();
               record(what, bda(dt, shapes[si][0], shapes[si][1], ps[pi], 16, 77, nulls));
               if (nulls == 0) {
                  canary();
                  record(what, bda(dt, shapes[si][0], shapes[si][1], ps[pi], 8, UINT64_MAX - 50, 0));
                  canary();
                  record(what, bda(dt, shapes[si][0], shapes[si][1], ps[pi], 9, 0, 0));
               }
            }
}

static int shaped(int kind, int dt, void *y, uint8_t *m, const void *x, const dropout_shape *s, double p, int bits, uint64_t off)
{
   switch (kind * 4 + dt - 1) {
   case 0: return dropout_bcast_forward_f32((float *)y, m, (const float *)x, s, p, bits, 5, 6, off);
   case 1: return dropout_bcast_forward_f64((double *)y, m, (const double *)x, s, p, bits, 5, 6, off);
   case 2: return dropout_bcast_forward_f16((uint16_t *)y, m, (const uint16_t *)x, s, p, bits, 5, 6, off);
   case 3: return dropout_bcast_forward_bf16((uint16_t *)y, m, (const uint16_t *)x, s, p, bits, 5, 6, off);
   case 4: return dropout_bcast_backward_f32((float *)y, (const float *)x, s, p, bits, 5, 6, off);
   case 5: return dropout_bcast_backward_f64((double *)y, (const double *)x, s, p, bits, 5, 6, off);
   case 6: return dropout_bcast_backward_f16((uint16_t *)y, (const uint16_t *)x, s, p, bits, 5, 6, off);
   case 7: return dropout_bcast_backward_bf16((uint16_t *)y, (const uint16_t *)x, s, p, bits, 5, 6, off);
   case 8: return dropout_alpha_forward_f32((float *)y, m, (const float *)x, s, p, bits, 5, 6, off);
   case 9: return dropout_alpha_forward_f64((double *)y, m, (const double *)x, s, p, bits, 5, 6, off);
   case 10: return dropout_alpha_forward_f16((uint16_t *)y, m, (const uint16_t *)x, s, p, bits, 5, 6, off);
   case 11: return dropout_alpha_forward_bf16((uint16_t *)y, m, (const uint16_t *)x, s, p, bits, 5, 6, off);
   case 12: return dropout_alpha_backward_f32((float *)y, (const float *)x, s, p, bits, 5, 6, off);
   case 13: return dropout_alpha_backward_f64((double *)y, (const double *)x, s, p, bits, 5, 6, off);
   case 14: return dropout_alpha_backward_f16((uint16_t *)y, (const uint16_t *)x, s, p, bits, 5, 6, off);
   default: return dropout_alpha_backward_bf16((uint16_t *)y, (const uint16_t *)x, s, p, bits, 5, 6, off);
   }
}

static void shapes(void)
{
   static const struct { int rank; size_t dim[4]; unsigned bc; } sh[] = {
      {1, {300}, 0}, {1, {300}, 1}, {3, {3, 10, 10}, 4}, {3, {3, 10, 10}, 6}, {4, {2, 3, 4, 5}, 0xC},
      {4, {2, 3, 4, 5}, 0x5}, {2, {1, 77}, 1}, {3, {4, 1, 9}, 2}, {2, {0, 5}, 1}, {2, {0, 5}, 2},
      {2, {5, 0}, 2}, {2, {5, 0}, 0}, {2, {0, 0}, 3}, {0, {1}, 0}, {9, {1}, 0}, {2, {4, 4}, 4},
      {2, {(size_t)-1, 3}, 0}, {3, {0, (size_t)-1, (size_t)-1}, 1}, {3, {(size_t)1 << 40, (size_t)1 << 30, 0}, 4}};
   const double ps[] = {0.0, 0.1, 0.5, 1.0, -1.0};
   size_t si, pi, k;
   int kind, dt, d;
   char what[160];
   for (si = 0; si < sizeof sh / sizeof sh[0]; ++si) {
      dropout_shape s;
      dropout_bcast b;
      size_t ne = 0, np = 0;
      int rc;
      memset(&s, 0, sizeof s);
      s.rank = sh[si].rank;
      for (d = 0; d < 4; ++d) s.dim[d] = sh[si].dim[d];
      s.broadcast = sh[si].bc;
      snprintf(what, sizeof what, "shape %zu", si);
      canary();
      rc = dropout_shape_sizes(&s, &ne, &np);
      memcpy(yb, &ne, sizeof ne); memcpy(yb + 8, &np, sizeof np);
      record(what, rc);
      canary();
      memset(&b, 0x77, sizeof b);
      rc = dropout_bcast_make(&b, &s);
      memcpy(yb, &b, sizeof b);
      record(what, rc);
      for (kind = 0; kind < 4; ++kind)
         for (dt = 1; dt <= 4; ++dt)
            for (pi = 0; pi < sizeof ps / sizeof ps[0]; ++pi)
               for (k = 0; k < 4; ++k) {   /* plain; no mask; NULL y; end of the stream */
                  snprintf(what, sizeof what, "shaped %zu kind=%d dt=%d p=%g k=%zu", si, kind, dt, ps[pi], k);
                  canary();
                  record(what, shaped(kind, dt, k == 2 ? NULL : (void *)yb, k == 1 ? NULL : mb, xb, &s, ps[pi],
                                      k == 3 ? 8 : 16, k == 3 ? UINT64_MAX - 100 : 7));
               }
   }
   canary();
   record("shape NULL", dropout_shape_sizes(NULL, NULL, NULL));
   record("bcast_make NULL", dropout_bcast_make(NULL, NULL));
   record("bcast NULL shape", dropout_bcast_forward_f32((float *)(void *)yb, mb, (const float *)(void *)xb, NULL, 0.5, 8, 1, 2, 3));
}

static int normal(int kind, int dt, void *y, const void *x, size_t n, double param, uint64_t off)
{
   switch (kind * 4 + dt - 1) {
   case 0: return dropout_gaussian_forward_f32((float *)y, (const float *)x, n, param, 11, 12, off);
   case 1: return dropout_gaussian_forward_f64((double *)y, (const double *)x, n, param, 11, 12, off);
   case 2: return dropout_gaussian_forward_f16((uint16_t *)y, (const uint16_t *)x, n, param, 11, 12, off);
   case 3: return dropout_gaussian_forward_bf16((uint16_t *)y, (const uint16_t *)x, n, param, 11, 12, off);
   case 4: return dropout_gaussian_backward_f32((float *)y, (const float *)x, n, param, 11, 12, off);
   case 5: return dropout_gaussian_backward_f64((double *)y, (const double *)x, n, param, 11, 12, off);
   case 6: return dropout_gaussian_backward_f16((uint16_t *)y, (const uint16_t *)x, n, param, 11, 12, off);
   case 7: return dropout_gaussian_backward_bf16((uint16_t *)y, (const uint16_t *)x, n, param, 11, 12, off);
   case 8: return dropout_noise_forward_f32((float *)y, (const float *)x, n, param, 11, 12, off);
   case 9: return dropout_noise_forward_f64((double *)y, (const double *)x, n, param, 11, 12, off);
   case 10: return dropout_noise_forward_f16((uint16_t *)y, (const uint16_t *)x, n, param, 11, 12, off);
   default: return dropout_noise_forward_bf16((uint16_t *)y, (const uint16_t *)x, n, param, 11, 12, off);
   }
}

static void normals(void)
{
   /* Gaussian p: some whose float sigma a 32-bit threshold cannot realise (tiny, near 1) */
   const double ps[] = {0.0, 1e-300, 1e-12, 1e-5, 3e-4, 0.001, 0.1, 0.2, 1.0 / 3.0, 0.5, 0.9, 0.999999, 0.9999999999,
                        1.0, -0.1, NAN};
   const double sig[] = {0.0, 1e-30, 0.5, 3.0, 1e300, INFINITY, -1.0, NAN};
   const size_t ns[] = {0, 1, 65, 300};
   size_t pi, ni;
   int kind, dt;
   char what[160];
   for (kind = 0; kind < 3; ++kind)
      for (dt = 1; dt <= 4; ++dt)
         for (ni = 0; ni < 4; ++ni)
            for (pi = 0; pi < (kind < 2 ? sizeof ps / sizeof ps[0] : sizeof sig / sizeof sig[0]); ++pi) {
               double param = kind < 2 ? ps[pi] : sig[pi];
               snprintf(what, sizeof what, "normal kind=%d dt=%d n=%zu param=%.17g", kind, dt, ns[ni], param);
               canary();
               record(what, normal(kind, dt, yb, xb, ns[ni], param, 1000));
               canary();
               record(what, normal(kind, dt, yb, xb, ns[ni], param, UINT64_MAX - 100));
               record(what, normal(kind, dt, NULL, xb, ns[ni], param, 3));
               memcpy(yb, xb, ns[ni] * esize(dt));
               record(what, normal(kind, dt, yb, yb, ns[ni], param, 3));
            }
}

static void stream(void)
{
   const size_t ns[] = {0, 1, 5, 64, 65, 300, 1000};
   const uint64_t ws[] = {0, 7, UINT64_MAX - 600, UINT64_MAX, ((uint64_t)1 << 63) - 400, (uint64_t)1 << 63};
   size_t ni, wi;
   char what[160];
   dropout_v0_gen g = dropout_v0_gen_make(77, 88);
   uint64_t off = 0;
   for (ni = 0; ni < sizeof ns / sizeof ns[0]; ++ni)
      for (wi = 0; wi < sizeof ws / sizeof ws[0]; ++wi) {
         snprintf(what, sizeof what, "stream n=%zu w=%llu", ns[ni], (unsigned long long)ws[wi]);
         canary(); record(what, dropout_v0_fill_u32((uint32_t *)(void *)yb, ns[ni], 1, 2, ws[wi]));
         canary(); record(what, dropout_v0_fill_uniform_f32((float *)(void *)yb, ns[ni], 1, 2, ws[wi]));
         canary(); record(what, dropout_v0_fill_uniform_f64((double *)(void *)yb, ns[ni], 1, 2, ws[wi]));
         canary(); record(what, dropout_v0_fill_normal_f32((float *)(void *)yb, ns[ni], 1, 2, ws[wi]));
         canary(); record(what, dropout_v0_fill_u32(NULL, ns[ni], 1, 2, ws[wi]));
         record(what, dropout_v0_fill_uniform_f64(NULL, ns[ni], 1, 2, ws[wi]));
         canary();
         {
            uint32_t w = dropout_v0_stream_u32(3, 4, ws[wi] + ns[ni]);
            memcpy(yb, &w, sizeof w);
         }
         record(what, 0);
         canary();
         record(what, dropout_gen_next(&g, ns[ni] * (size_t)(wi + 1), &off));
         memcpy(yb, &g, sizeof g); memcpy(yb + 32, &off, sizeof off);
         record(what, 0);
      }
   g.offset = UINT64_MAX - 3;
   canary(); record("gen_next end", dropout_gen_next(&g, 5, &off));
   memcpy(yb, &g, sizeof g); record("gen_next end", 0);
   record("gen_next NULL", dropout_gen_next(NULL, 5, &off));
   record("gen_next NULL off", dropout_gen_next(&g, 5, NULL));
}

int main(int argc, char **argv)
{
   verbose = argc > 1 && !strcmp(argv[1], "-v");
   h = 0xcbf29ce484222325u;
   fill_inputs();
   core();    family("forward/backward/mask");
   fused();   family("bias_dropout_add");
   shapes();  family("bcast/alpha/shapes");
   normals(); family("gaussian/noise");
   stream();  family("stream/fills/gen");
   printf("%lu cases\n", cases);
   return 0;
}
