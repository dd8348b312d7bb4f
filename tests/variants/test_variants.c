/* Variants (docs/SPEC.md "Variants"): broadcast masks, alpha dropout, Gaussian dropout and
   Gaussian noise. Everything here is checked against the core (dropout_mask and the
   per-element apply functions) or against the formulas themselves, bit for bit; the
   statistics use bounds stated next to them. Accuracy against libm is in
   tests/variants/variants_ref.c (built by tests/variants/suite.sh with -lm). */
#define DROPOUT_V0_API   /* written against the 0.1.0 calls: they must keep giving the same bits */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

#define SEED 0x0123456789ABCDEFull
#define STREAM 7u

static int bit(const uint8_t *mask, size_t j) { return (mask[j / 8] >> (j % 8)) & 1; }

static uint32_t u32_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t u64_of(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

/* A reproducible test input: normals from the library itself, in [-6.7, 6.7]. */
static void fill_x(float *x, size_t n, uint64_t stream)
{
   dropout_v0_fill_normal_f32(x, n, 99, stream, 0);
}

static dropout_shape shape4(size_t a, size_t b, size_t c, size_t d, unsigned bc)
{
   dropout_shape s;
   memset(&s, 0, sizeof s);
   s.rank = 4; s.dim[0] = a; s.dim[1] = b; s.dim[2] = c; s.dim[3] = d; s.broadcast = bc;
   return s;
}

/* Mask index of element i by the definition: row-major index in the mask's shape. */
static size_t mask_index_def(const dropout_shape *s, size_t i)
{
   size_t idx[DROPOUT_MAX_RANK], m = 0;
   int d;
   for (d = s->rank - 1; d >= 0; --d) { idx[d] = i % s->dim[d]; i /= s->dim[d]; }
   for (d = 0; d < s->rank; ++d)
      m = m * (((s->broadcast >> d) & 1u) ? 1 : s->dim[d]) + (((s->broadcast >> d) & 1u) ? 0 : idx[d]);
   return m;
}

static void test_shape_errors(void)
{
   dropout_shape s = shape4(2, 3, 4, 5, 0);
   size_t ne = 0, np = 0;
   float x[1] = {1}, y[1] = {0};
   CHECK(dropout_shape_sizes(&s, &ne, &np) == DROPOUT_OK && ne == 120 && np == 120, "plain %zu %zu", ne, np);
   s.broadcast = 0xC;
   CHECK(dropout_shape_sizes(&s, &ne, &np) == DROPOUT_OK && ne == 120 && np == 6, "channel %zu %zu", ne, np);
   s.broadcast = 0x10;   /* bit 4 past rank 4 */
   CHECK(dropout_shape_sizes(&s, &ne, &np) == DROPOUT_ERR_ARG, "broadcast past rank");
   s.broadcast = 0; s.rank = 0;
   CHECK(dropout_shape_sizes(&s, &ne, &np) == DROPOUT_ERR_ARG, "rank 0");
   s.rank = 9;
   CHECK(dropout_shape_sizes(&s, &ne, &np) == DROPOUT_ERR_ARG, "rank 9");
   s.rank = -1;
   CHECK(dropout_shape_sizes(&s, &ne, &np) == DROPOUT_ERR_ARG, "rank -1");
   CHECK(dropout_shape_sizes(NULL, &ne, &np) == DROPOUT_ERR_NULL, "NULL shape");
   s = shape4((size_t)1 << 32, (size_t)1 << 31, 1, 2, 0);      /* 2^64 elements */
   CHECK(dropout_shape_sizes(&s, &ne, &np) == DROPOUT_ERR_ARG, "product overflow");
   s.broadcast = 0x1;   /* the mask fits, the tensor still overflows */
   CHECK(dropout_shape_sizes(&s, &ne, &np) == DROPOUT_ERR_ARG, "product overflow, broadcast");
   s = shape4((size_t)1 << 32, 0, (size_t)1 << 32, 1, 0);      /* empty, non-zero dims overflow */
   CHECK(dropout_shape_sizes(&s, &ne, &np) == DROPOUT_ERR_ARG, "overflow behind a zero dim");
   /* a zero dim: an empty tensor, nothing written; a broadcast zero dim leaves the mask */
   s = shape4(3, 0, 4, 5, 0);
   CHECK(dropout_shape_sizes(&s, &ne, &np) == DROPOUT_OK && ne == 0 && np == 0, "zero dim %zu %zu", ne, np);
   CHECK(dropout_bcast_forward_f32(NULL, NULL, NULL, &s, 0.5, 8, SEED, STREAM, 0) == DROPOUT_OK, "empty with NULL");
   s = shape4(3, 4, 0, 5, 0x4);
   CHECK(dropout_shape_sizes(&s, &ne, &np) == DROPOUT_OK && ne == 0 && np == 60, "broadcast zero dim %zu %zu", ne, np);
   /* bad parameters, and nothing written on error */
   s = shape4(1, 1, 1, 1, 0);
   CHECK(dropout_bcast_forward_f32(y, NULL, x, &s, -0.1, 8, SEED, STREAM, 0) == DROPOUT_ERR_P && y[0] == 0, "p < 0");
   CHECK(dropout_bcast_forward_f32(y, NULL, x, &s, 0.0 / 0.0, 8, SEED, STREAM, 0) == DROPOUT_ERR_P && y[0] == 0, "p NaN");
   CHECK(dropout_alpha_forward_f32(y, NULL, x, &s, 1.0 / 0.0, 8, SEED, STREAM, 0) == DROPOUT_ERR_P && y[0] == 0, "p Inf");
   CHECK(dropout_alpha_forward_f32(y, NULL, x, &s, 0.5, 12, SEED, STREAM, 0) == DROPOUT_ERR_BITS && y[0] == 0, "bits");
   CHECK(dropout_bcast_forward_f32(NULL, NULL, x, &s, 0.5, 8, SEED, STREAM, 0) == DROPOUT_ERR_NULL, "NULL y");
   CHECK(dropout_bcast_forward_f32(y, NULL, x, &s, 0.5, 8, SEED, STREAM, UINT64_MAX) == DROPOUT_OK, "last position");
   s.dim[0] = 2;
   CHECK(dropout_bcast_forward_f32(y, NULL, x, &s, 0.5, 8, SEED, STREAM, UINT64_MAX) == DROPOUT_ERR_RANGE, "past the stream");
   s.broadcast = 1;     /* broadcast: one position, fits */
   CHECK(dropout_bcast_backward_f32(y, x, &(dropout_shape){1, {1}, 0}, 0.5, 8, SEED, STREAM, UINT64_MAX) == DROPOUT_OK, "1 position at the end");
   CHECK(dropout_gaussian_forward_f32(y, x, 1, 1.0, SEED, STREAM, 0) == DROPOUT_ERR_P, "gaussian p = 1");
   CHECK(dropout_gaussian_forward_f32(y, x, 1, -0.5, SEED, STREAM, 0) == DROPOUT_ERR_P, "gaussian p < 0");
   CHECK(dropout_gaussian_forward_f32(y, x, 1, 0.0 / 0.0, SEED, STREAM, 0) == DROPOUT_ERR_P, "gaussian p NaN");
   CHECK(dropout_noise_forward_f32(y, x, 1, 0.0 / 0.0, SEED, STREAM, 0) == DROPOUT_ERR_ARG, "sigma NaN");
   CHECK(dropout_noise_forward_f32(y, x, 1, -1.0, SEED, STREAM, 0) == DROPOUT_ERR_ARG, "sigma < 0");
   CHECK(dropout_noise_forward_f32(y, x, 1, 1.0 / 0.0, SEED, STREAM, 0) == DROPOUT_ERR_ARG, "sigma Inf");
   CHECK(dropout_noise_forward_f32(y, x, 2, 1.0, SEED, STREAM, UINT64_MAX) == DROPOUT_ERR_RANGE, "noise range");
   CHECK(dropout_noise_forward_f32(NULL, x, 1, 1.0, SEED, STREAM, 0) == DROPOUT_ERR_NULL, "noise NULL");
   CHECK(y[0] == 0, "written on error: %g", (double)y[0]);
   case_end("variants shape and parameter errors");
}

/* Broadcast forward == the core mask of `positions` elements, expanded by the definition
   of the mask index, applied with the core's per-element functions. All dtypes. */
static void check_bcast_against_core(const dropout_shape *s, double p, int bits, uint64_t off, const char *what)
{
   size_t ne = 0, np = 0, i;
   float *x, *y;
   double *xd, *yd;
   uint16_t *xh, *yh, *xb, *yb;
   uint8_t *m_core, *m_out;
   dropout_rule r = dropout_rule_make(p, bits);
   CHECK(dropout_shape_sizes(s, &ne, &np) == DROPOUT_OK, "%s: shape", what);
   x = malloc(ne * 4); y = malloc(ne * 4); xd = malloc(ne * 8); yd = malloc(ne * 8);
   xh = malloc(ne * 2); yh = malloc(ne * 2); xb = malloc(ne * 2); yb = malloc(ne * 2);
   m_core = calloc(np / 8 + 1, 1); m_out = calloc(np / 8 + 1, 1);
   fill_x(x, ne, 1);
   for (i = 0; i < ne; ++i) {
      xd[i] = (double)x[i] * 1.000000119;  /* not a float */
      xh[i] = dropout_f32_to_f16(x[i]); xb[i] = dropout_f32_to_bf16(x[i]);
   }
   CHECK(dropout_v0_mask(m_core, np, p, bits, SEED, STREAM, off) == 0, "%s: core mask", what);
   CHECK(dropout_bcast_forward_f32(y, m_out, x, s, p, bits, SEED, STREAM, off) == 0, "%s: f32", what);
   CHECK(memcmp(m_core, m_out, (np + 7) / 8) == 0, "%s: mask output differs from dropout_mask", what);
   CHECK(dropout_bcast_forward_f64(yd, NULL, xd, s, p, bits, SEED, STREAM, off) == 0, "%s: f64", what);
   CHECK(dropout_bcast_forward_f16(yh, NULL, xh, s, p, bits, SEED, STREAM, off) == 0, "%s: f16", what);
   CHECK(dropout_bcast_forward_bf16(yb, NULL, xb, s, p, bits, SEED, STREAM, off) == 0, "%s: bf16", what);
   for (i = 0; i < ne; ++i) {
      int k = bit(m_core, mask_index_def(s, i));
      CHECK(u32_of(y[i]) == u32_of(dropout_apply_f32(x[i], k, r)), "%s: f32 element %zu", what, i);
      CHECK(u64_of(yd[i]) == u64_of(dropout_apply_f64(xd[i], k, r)), "%s: f64 element %zu", what, i);
      CHECK(yh[i] == dropout_apply_f16(xh[i], k, r), "%s: f16 element %zu", what, i);
      CHECK(yb[i] == dropout_apply_bf16(xb[i], k, r), "%s: bf16 element %zu", what, i);
   }
   free(x); free(y); free(xd); free(yd); free(xh); free(yh); free(xb); free(yb); free(m_core); free(m_out);
}

static void test_bcast_known(void)
{
   static const int bitss[3] = {8, 16, 32};
   int b;
   for (b = 0; b < 3; ++b) {
      dropout_shape s = shape4(3, 5, 6, 7, 0xC);                 /* Dropout2d: (N,C,H,W) */
      check_bcast_against_core(&s, 0.3, bitss[b], 13, "channel 2d");
      s = shape4(9, 4, 5, 3, 0x1);                               /* locked over time (T,B,F,.) */
      check_bcast_against_core(&s, 0.5, bitss[b], 0, "locked");
      s = shape4(6, 3, 5, 7, 0xE);                               /* drop path: one per sample */
      check_bcast_against_core(&s, 0.25, bitss[b], 1, "drop path");
      s = shape4(2, 3, 4, 5, 0x5);                               /* alternating flags */
      check_bcast_against_core(&s, 0.1, bitss[b], 77, "alternating");
      s = shape4(4, 1, 5, 1, 0xA);                               /* broadcast dims of 1 */
      check_bcast_against_core(&s, 0.6, bitss[b], 5, "unit dims");
   }
   /* rank 1 .. 8 and broadcast all */
   {
      dropout_shape s;
      memset(&s, 0, sizeof s);
      s.rank = 8;
      for (b = 0; b < 8; ++b) s.dim[b] = (size_t)(2 + (b % 3));
      s.broadcast = 0x96;
      check_bcast_against_core(&s, 0.4, 16, 3, "rank 8");
      s.broadcast = 0xFF;
      check_bcast_against_core(&s, 0.4, 16, 3, "all broadcast");
      s.rank = 1; s.dim[0] = 1000; s.broadcast = 0;
      check_bcast_against_core(&s, 0.4, 8, 3, "rank 1");
   }
   case_end("bcast == core mask expanded by the mask index (4 dtypes, 8/16/32 bits)");
}

static void test_bcast_equals_core_forward(void)
{
   enum { N = 1000 };
   float x[N], y1[N], y2[N];
   dropout_shape s = {3, {10, 10, 10}, 0};
   fill_x(x, N, 2);
   dropout_v0_forward_f32(y1, NULL, x, N, 0.3, 8, SEED, STREAM, 5);
   dropout_bcast_forward_f32(y2, NULL, x, &s, 0.3, 8, SEED, STREAM, 5);
   CHECK(memcmp(y1, y2, sizeof y1) == 0, "no broadcast != dropout_forward_f32");
   /* backward == forward on dy; in place */
   dropout_bcast_backward_f32(y1, x, &s, 0.3, 8, SEED, STREAM, 5);
   CHECK(memcmp(y1, y2, sizeof y1) == 0, "backward != forward");
   s.broadcast = 0x4;
   dropout_bcast_forward_f32(y1, NULL, x, &s, 0.3, 32, SEED, STREAM, 5);
   memcpy(y2, x, sizeof y2);
   dropout_bcast_forward_f32(y2, NULL, y2, &s, 0.3, 32, SEED, STREAM, 5);
   CHECK(memcmp(y1, y2, sizeof y1) == 0, "in place differs");
   case_end("bcast without broadcast == core forward; backward; in place");
}

/* Chunks along the outermost dim: offset + rows * positions per row, or the same offset
   when dim 0 is broadcast (the locked mask repeats over time). */
static void test_bcast_chunks(void)
{
   enum { T = 8, B = 6, F = 10, N = T * B * F };
   float x[N], whole[N], part[N];
   size_t t;
   dropout_shape s = {3, {T, B, F}, 0x4};            /* (T, B, F) with F broadcast */
   fill_x(x, N, 3);
   dropout_bcast_forward_f32(whole, NULL, x, &s, 0.5, 16, SEED, STREAM, 100);
   for (t = 0; t < T; t += 3) {
      dropout_shape c = s;
      c.dim[0] = T - t < 3 ? T - t : 3;
      dropout_bcast_forward_f32(part + t * B * F, NULL, x + t * B * F, &c, 0.5, 16, SEED, STREAM, 100 + t * B);
   }
   CHECK(memcmp(whole, part, sizeof whole) == 0, "rows chunked by offset differ");
   s.broadcast = 0x1;                                 /* locked: the same mask every step */
   dropout_bcast_forward_f32(whole, NULL, x, &s, 0.5, 16, SEED, STREAM, 100);
   for (t = 0; t < T; ++t) {
      dropout_shape c = s;
      c.dim[0] = 1;
      dropout_bcast_forward_f32(part + t * B * F, NULL, x + t * B * F, &c, 0.5, 16, SEED, STREAM, 100);
   }
   CHECK(memcmp(whole, part, sizeof whole) == 0, "time steps one by one differ from the locked call");
   for (t = 0; t < B * F; ++t) {
      int k0 = whole[t] != 0.0f, k;
      size_t u;
      for (u = 1; u < T; ++u) {
         k = whole[u * B * F + t] != 0.0f;
         CHECK(k == k0, "locked mask changes over time at %zu", t);
      }
   }
   case_end("bcast chunking by offset; locked mask constant over time");
}

/* Drop path in its residual form, and the keep rate of a channel mask: binomial bound. */
static void test_bcast_rates(void)
{
   enum { N = 4096, C = 64, HW = 9 };
   static float x[N * C * HW], y[N * C * HW];
   dropout_shape s = {3, {N, C, HW}, 0x4};
   size_t i, kept = 0, ch;
   dropout_rule r = dropout_rule_make(0.3, 8);
   double q = 1.0 - (double)r.threshold / 256.0, n = (double)N * C, mean, sd;
   for (i = 0; i < (size_t)N * C * HW; ++i) x[i] = 1.0f;
   dropout_bcast_forward_f32(y, NULL, x, &s, 0.3, 8, SEED, STREAM, 0);
   for (ch = 0; ch < (size_t)N * C; ++ch) {
      int k = y[ch * HW] != 0.0f;
      kept += (size_t)k;
      for (i = 1; i < HW; ++i) CHECK((y[ch * HW + i] != 0.0f) == k, "channel %zu not uniform", ch);
      CHECK(!k || y[ch * HW] == r.scale_f32, "kept value %g", (double)y[ch * HW]);
   }
   mean = n * q;
   sd = 0; { double v = n * q * (1 - q); double g = v; int it; for (it = 0; it < 60; ++it) g = 0.5 * (g + v / g); sd = g; }
   CHECK((double)kept > mean - 5 * sd && (double)kept < mean + 5 * sd, "kept %zu, expected %.1f +- 5 * %.1f", kept, mean, sd);
   case_end("bcast channel keep rate within 5 sd of the realised q");
}

static void check_alpha_elems(const dropout_shape *s, double p, int bits, uint64_t off)
{
   size_t ne, np, i;
   float *x, *y, *dx;
   double *xd, *yd, *dxd;
   uint16_t *xh, *yh, *xb, *yb;
   uint8_t *m;
   dropout_alpha_rule ar = dropout_alpha_rule_make(p, bits);
   dropout_shape_sizes(s, &ne, &np);
   x = malloc(ne * 4); y = malloc(ne * 4); dx = malloc(ne * 4);
   xd = malloc(ne * 8); yd = malloc(ne * 8); dxd = malloc(ne * 8);
   xh = malloc(ne * 2); yh = malloc(ne * 2); xb = malloc(ne * 2); yb = malloc(ne * 2);
   m = calloc(np / 8 + 1, 1);
   fill_x(x, ne, 4);
   for (i = 0; i < ne; ++i) { xd[i] = (double)x[i] / 3.0; xh[i] = dropout_f32_to_f16(x[i]); xb[i] = dropout_f32_to_bf16(x[i]); }
   CHECK(dropout_alpha_forward_f32(y, m, x, s, p, bits, SEED, STREAM, off) == 0, "alpha f32");
   CHECK(dropout_alpha_forward_f64(yd, NULL, xd, s, p, bits, SEED, STREAM, off) == 0, "alpha f64");
   CHECK(dropout_alpha_forward_f16(yh, NULL, xh, s, p, bits, SEED, STREAM, off) == 0, "alpha f16");
   CHECK(dropout_alpha_forward_bf16(yb, NULL, xb, s, p, bits, SEED, STREAM, off) == 0, "alpha bf16");
   CHECK(dropout_alpha_backward_f32(dx, x, s, p, bits, SEED, STREAM, off) == 0, "alpha backward f32");
   CHECK(dropout_alpha_backward_f64(dxd, xd, s, p, bits, SEED, STREAM, off) == 0, "alpha backward f64");
   for (i = 0; i < ne; ++i) {
      int k = bit(m, mask_index_def(s, i));
      float ey = k ? (x[i] + ar.c_f32) * ar.a_f32 : ((float)DROPOUT_SELU_ALPHA_PRIME + ar.c_f32) * ar.a_f32;
      double eyd = k ? (xd[i] + ar.c) * ar.a : (DROPOUT_SELU_ALPHA_PRIME + ar.c) * ar.a;
      float fh = dropout_f16_to_f32(xh[i]), fb = dropout_bf16_to_f32(xb[i]);
      float eh = k ? (fh + ar.c_f32) * ar.a_f32 : ar.drop_f32, eb = k ? (fb + ar.c_f32) * ar.a_f32 : ar.drop_f32;
      if (ar.base.threshold == 0) { ey = x[i]; eyd = xd[i]; eh = fh; eb = fb; }
      CHECK(u32_of(y[i]) == u32_of(ey), "alpha f32 element %zu: %.9g, expected %.9g", i, (double)y[i], (double)ey);
      CHECK(u64_of(yd[i]) == u64_of(eyd), "alpha f64 element %zu", i);
      CHECK(yh[i] == dropout_f32_to_f16(eh), "alpha f16 element %zu", i);
      CHECK(yb[i] == dropout_f32_to_bf16(eb), "alpha bf16 element %zu", i);
      CHECK(u32_of(dx[i]) == u32_of(ar.base.threshold == 0 ? x[i] : k ? x[i] * ar.a_f32 : 0.0f), "alpha grad f32 element %zu", i);
      CHECK(u64_of(dxd[i]) == u64_of(ar.base.threshold == 0 ? xd[i] : k ? xd[i] * ar.a : 0.0), "alpha grad f64 element %zu", i);
   }
   /* the mask is the core's */
   {
      uint8_t *mc = calloc(np / 8 + 1, 1);
      dropout_v0_mask(mc, np, p, bits, SEED, STREAM, off);
      CHECK(memcmp(mc, m, (np + 7) / 8) == 0, "alpha mask != core mask");
      free(mc);
   }
   free(x); free(y); free(dx); free(xd); free(yd); free(dxd); free(xh); free(yh); free(xb); free(yb); free(m);
}

static void test_alpha_known(void)
{
   dropout_shape flat = {1, {5000}, 0};
   dropout_shape feat = shape4(4, 8, 5, 5, 0xC);                  /* FeatureAlphaDropout */
   dropout_alpha_rule ar;
   float x[3] = {1.5f, -2.0f, 0.25f}, y[3];
   dropout_shape three = {1, {3}, 0};
   check_alpha_elems(&flat, 0.1, 8, 0);
   check_alpha_elems(&flat, 0.5, 16, 11);
   check_alpha_elems(&flat, 0.05, 32, 3);
   check_alpha_elems(&feat, 0.2, 8, 9);
   check_alpha_elems(&flat, 0.0, 8, 0);                            /* copy */
   /* the realised rule: p = 0.1 with 8 bits is t = 26, P = 26/256 */
   ar = dropout_alpha_rule_make(0.1, 8);
   CHECK(ar.base.threshold == 26, "t = %llu", (unsigned long long)ar.base.threshold);
   CHECK(ar.c == 26.0 / 256.0 * 1.7580993408473766 || (ar.c - 26.0 / 256.0 * 1.7580993408473766) < 1e-16,
         "c = %.17g", ar.c);
   /* p = 1: everything +0, forward and backward */
   CHECK(dropout_alpha_forward_f32(y, NULL, x, &three, 1.0, 8, SEED, STREAM, 0) == 0 &&
         u32_of(y[0]) == 0 && u32_of(y[1]) == 0 && u32_of(y[2]) == 0, "p = 1 forward");
   CHECK(dropout_alpha_backward_f32(y, x, &three, 1.0, 8, SEED, STREAM, 0) == 0 &&
         u32_of(y[0]) == 0 && u32_of(y[1]) == 0 && u32_of(y[2]) == 0, "p = 1 backward");
   case_end("alpha dropout: exact element formulas, 4 dtypes, core mask, p = 0 and 1");
}

/* Alpha dropout keeps mean 0 and variance 1 for N(0,1) input. With n = 2^20 the sample
   mean has sd 1/1024 and the variance sd about sqrt(2/n) = 0.0014: bounds at 5 sd. */
static void test_alpha_moments(void)
{
   enum { N = 1 << 20 };
   static float x[N], y[N];
   dropout_shape s = {1, {N}, 0};
   double sum = 0, sq = 0, mean, var;
   size_t i;
   fill_x(x, N, 5);
   dropout_alpha_forward_f32(y, NULL, x, &s, 0.2, 16, SEED, STREAM, 0);
   for (i = 0; i < N; ++i) { sum += y[i]; sq += (double)y[i] * y[i]; }
   mean = sum / N; var = sq / N - mean * mean;
   CHECK(mean > -0.005 && mean < 0.005, "mean %g", mean);
   CHECK(var > 1 - 0.007 && var < 1 + 0.007, "variance %g", var);
   case_end("alpha dropout keeps mean 0 and variance 1 (5 sd bounds)");
}

static void test_gaussian(void)
{
   enum { N = 999 };
   float x[N], y[N], z[N], y2[N], part[N];
   double xd[N], yd[N], dxd[N];
   uint16_t xh[N], yh[N], xb[N], yb[N];
   float sigma = dropout_gaussian_sigma(0.3);
   size_t i;
   fill_x(x, N, 6);
   for (i = 0; i < N; ++i) { xd[i] = (double)x[i] + 1e-9; xh[i] = dropout_f32_to_f16(x[i]); xb[i] = dropout_f32_to_bf16(x[i]); }
   dropout_v0_fill_normal_f32(z, N, SEED, STREAM, 3);
   CHECK(dropout_gaussian_forward_f32(y, x, N, 0.3, SEED, STREAM, 3) == 0, "gaussian f32");
   dropout_gaussian_forward_f64(yd, xd, N, 0.3, SEED, STREAM, 3);
   dropout_gaussian_forward_f16(yh, xh, N, 0.3, SEED, STREAM, 3);
   dropout_gaussian_forward_bf16(yb, xb, N, 0.3, SEED, STREAM, 3);
   for (i = 0; i < N; ++i) {
      float mlt = (float)(1.0 + (double)sigma * (double)z[i]);
      CHECK(u32_of(y[i]) == u32_of(x[i] * mlt), "gaussian f32 element %zu", i);
      CHECK(u64_of(yd[i]) == u64_of(xd[i] * (double)mlt), "gaussian f64 element %zu", i);
      CHECK(yh[i] == dropout_f32_to_f16(dropout_f16_to_f32(xh[i]) * mlt), "gaussian f16 element %zu", i);
      CHECK(yb[i] == dropout_f32_to_bf16(dropout_bf16_to_f32(xb[i]) * mlt), "gaussian bf16 element %zu", i);
      CHECK(z[i] == dropout_normal_at(SEED, STREAM, 3 + i), "normal_at %zu", i);
   }
   /* chunks at odd offsets (a Box-Muller pair split between calls) */
   dropout_gaussian_forward_f32(part, x, 5, 0.3, SEED, STREAM, 3);
   dropout_gaussian_forward_f32(part + 5, x + 5, 333, 0.3, SEED, STREAM, 8);
   dropout_gaussian_forward_f32(part + 338, x + 338, N - 338, 0.3, SEED, STREAM, 341);
   CHECK(memcmp(part, y, sizeof y) == 0, "chunked gaussian dropout differs");
   /* backward: dx = dy * m with the same m: forward on dy, in place */
   memcpy(y2, x, sizeof y2);
   dropout_gaussian_backward_f32(y2, y2, N, 0.3, SEED, STREAM, 3);
   CHECK(memcmp(y2, y, sizeof y) == 0, "gaussian backward in place differs");
   /* finite differences (f64): y is linear in x, so (y(x+h) - y(x-h)) / 2h = m exactly-ish */
   for (i = 0; i < N; ++i) dxd[i] = 1.0;
   dropout_gaussian_backward_f64(dxd, dxd, N, 0.3, SEED, STREAM, 3);
   {
      double xp[N], xm[N], yp[N], ym[N], h = 1e-3;
      for (i = 0; i < N; ++i) { xp[i] = xd[i] + h; xm[i] = xd[i] - h; }
      dropout_gaussian_forward_f64(yp, xp, N, 0.3, SEED, STREAM, 3);
      dropout_gaussian_forward_f64(ym, xm, N, 0.3, SEED, STREAM, 3);
      for (i = 0; i < N; ++i) {
         double fd = (yp[i] - ym[i]) / (2 * h), e = fd - dxd[i];
         CHECK(e < 1e-9 && e > -1e-9, "gaussian dropout FD %zu: %g vs %g", i, fd, dxd[i]);
      }
      /* Gaussian noise: the gradient is 1 */
      dropout_noise_forward_f64(yp, xp, N, 0.7, SEED, STREAM, 3);
      dropout_noise_forward_f64(ym, xm, N, 0.7, SEED, STREAM, 3);
      for (i = 0; i < N; ++i) {
         double fd = (yp[i] - ym[i]) / (2 * h);
         CHECK(fd > 1 - 1e-9 && fd < 1 + 1e-9, "noise FD %zu: %g", i, fd);
      }
   }
   /* Gaussian noise, element formulas */
   dropout_noise_forward_f32(y, x, N, 0.7, SEED, STREAM, 3);
   dropout_noise_forward_f64(yd, xd, N, 0.7, SEED, STREAM, 3);
   dropout_noise_forward_f16(yh, xh, N, 0.7, SEED, STREAM, 3);
   dropout_noise_forward_bf16(yb, xb, N, 0.7, SEED, STREAM, 3);
   for (i = 0; i < N; ++i) {
      CHECK(u32_of(y[i]) == u32_of((float)((double)x[i] + (double)0.7f * (double)z[i])), "noise f32 %zu", i);
      CHECK(u64_of(yd[i]) == u64_of(xd[i] + (double)0.7f * (double)z[i]), "noise f64 %zu", i);
      CHECK(yh[i] == dropout_f32_to_f16((float)((double)dropout_f16_to_f32(xh[i]) + (double)0.7f * (double)z[i])), "noise f16 %zu", i);
      CHECK(yb[i] == dropout_f32_to_bf16((float)((double)dropout_bf16_to_f32(xb[i]) + (double)0.7f * (double)z[i])), "noise bf16 %zu", i);
   }
   /* p = 0 and sigma = 0 copy bit for bit (a NaN payload too) */
   x[0] = -0.0f; memcpy(&x[1], &(uint32_t){0x7FA00001u}, 4);
   dropout_gaussian_forward_f32(y, x, N, 0.0, SEED, STREAM, 3);
   CHECK(memcmp(x, y, sizeof y) == 0, "p = 0 does not copy");
   dropout_noise_forward_f32(y, x, N, 0.0, SEED, STREAM, 3);
   CHECK(memcmp(x, y, sizeof y) == 0, "sigma = 0 does not copy");
   case_end("gaussian dropout and noise: formulas, 4 dtypes, chunks, backward, finite differences");
}

/* Known answers: first normals of (seed 0, stream 0), frozen from this implementation and
   checked against long double Box-Muller in tests/variants/variants_ref.c. */
static void test_normal_kat(void)
{
   static const uint32_t kat[8] = {0x3F7DBB33u, 0xBF6CB6B0u, 0xBF1E1B9Eu, 0xBEF6D1B1u,
                                    0xBE1D5357u, 0x3E392A6Du, 0x3F54EC97u, 0x3E4A2DA3u};
   float z[8];
   int i;
   dropout_v0_fill_normal_f32(z, 8, 0, 0, 0);
   for (i = 0; i < 8; ++i) CHECK(u32_of(z[i]) == kat[i], "normal %d: 0x%08X", i, u32_of(z[i]));
   case_end("normal known answers");
}

int main(void)
{
   (void)case_skip;   /* every case here runs: no peer needed */
   test_shape_errors();
   test_bcast_known();
   test_bcast_equals_core_forward();
   test_bcast_chunks();
   test_bcast_rates();
   test_alpha_known();
   test_alpha_moments();
   test_gaussian();
   test_normal_kat();
   return check_exit();
}
