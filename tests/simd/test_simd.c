/* test_simd.c - every vector path equals the scalar reference, bit for bit.

   The library picks its SIMD path when it is compiled (tests/simd/suite.sh builds this
   file once per instruction set: SSE2, SSE4.1, AVX2, AVX-512 compile-only, and
   DROPOUT_NO_SIMD). Inside one binary the reference is the header's own per-element
   building blocks (dropout_block, dropout_draw, dropout_keep, dropout_apply_*), walked
   one position at a time with no chunking, windows or vectors: the definition itself.
   So a SIMD build that passes equals the DROPOUT_NO_SIMD build that passes.

   Inputs are random sizes (0 .. ~1200 and one large), offsets (odd, near 2^64, at
   window and block boundaries), element offsets into buffers (alignment), p at the
   rule's edges (t = 0, t = 1, t = 2^bits - 1, t = 2^bits), modes 8/16/32, the 4 dtypes,
   in place and not, data with NaN payloads, signalling NaNs, Inf, subnormals, -0. */
/* Streaming stores start at 1 KiB of output here (default 16 MiB), so that small calls
   cross the threshold. The threshold is a variable, set by the program's argument
   (`test_simd 0`: every call streams; `test_simd max`: none does), so that one build runs
   its cases on each side: tests/simd/suite.sh runs its builds so. A build per threshold
   had cost a compile each (5 to 15 s of CPU) for a run of about a second; the suite still
   compiles the constants themselves (-DDROPOUT_STREAM_STORE_BYTES=0, =SIZE_MAX), for their
   warnings. */
#define DROPOUT_V0_API   /* written against the 0.1.0 calls: they must keep giving the same bits */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#include <stddef.h>
#ifndef DROPOUT_STREAM_STORE_BYTES
#define TEST_NT_ARG 1
static size_t test_nt_bytes = 1024;
#define DROPOUT_STREAM_STORE_BYTES test_nt_bytes
#endif
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rnd(void)   /* splitmix64 */
{
   uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
   z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
   return z ^ (z >> 31);
}
static size_t rnd_below(size_t n) { return (size_t)(rnd() % n); }

/* case names carry the compiled path, so the suite's builds stay apart in the log */
static char name_buf[160];
static const char *NAME(const char *what)
{
   snprintf(name_buf, sizeof name_buf, "simd[%s] %s", DROPOUT__SIMD_NAME, what);
   return name_buf;
}

enum { T_F32, T_F64, T_F16, T_BF16 };
static const char *type_name[4] = {"f32", "f64", "f16", "bf16"};
static const size_t type_size[4] = {4, 8, 2, 2};

/* Awkward data: mostly ordinary values, with every special class mixed in. */
static uint32_t data32(void)
{
   uint32_t r = (uint32_t)rnd(), sign = r & 0x80000000u;
   switch (rnd_below(12)) {
   case 0: return sign | 0x7F800000u | ((r & 0x7FFFFFu) | 1u);     /* NaN, any payload */
   case 1: return sign | 0x7F800000u;                               /* Inf */
   case 2: return sign | (r & 0x7FFFFFu);                           /* subnormal / 0 */
   case 3: return sign | (0x7F7FFFFFu - (r & 0xFFFFu));            /* near FLT_MAX */
   case 4: return sign | (0x33000000u + (r & 0x01FFFFFFu));        /* around f16 subnormals */
   case 5: return sign | (0x477F0000u + (r & 0x1FFFFu));           /* around f16 max */
   default: return sign | ((uint32_t)(100u + rnd_below(56)) << 23) | (r & 0x7FFFFFu);
   }
}
static uint16_t data16(void)
{
   uint16_t r = (uint16_t)rnd();
   switch (rnd_below(8)) {
   case 0: return (uint16_t)(r | 0x7C00u);                          /* Inf / NaN (f16) */
   case 1: return (uint16_t)(r & 0x83FFu);                          /* subnormal (f16) */
   case 2: return (uint16_t)(r | 0x7F80u);                          /* Inf / NaN (bf16) */
   case 3: return (uint16_t)(r & 0x807Fu);                          /* subnormal (bf16) */
   default: return r;
   }
}
static void fill_data(int t, void *buf, size_t n)
{
   size_t i;
   for (i = 0; i < n; ++i) {
      if (t == T_F32) ((uint32_t *)buf)[i] = data32();
      else if (t == T_F64) ((uint64_t *)buf)[i] = rnd_below(8) == 0 ? (uint64_t)data32() << 32 | (uint32_t)rnd() : rnd() >> rnd_below(3);
      else ((uint16_t *)buf)[i] = data16();
   }
}

/* The same data without NaN or Inf, so that the fused op's vector groups (a group with a
   NaN takes the scalar loop) are what runs */
static void fill_finite(int t, void *buf, size_t n)
{
   size_t i;
   for (i = 0; i < n; ++i) {
      uint64_t v;
      do {
         fill_data(t, &v, 1);
      } while (t == T_F32 ? ((uint32_t)v & 0x7F800000u) == 0x7F800000u
               : t == T_F64 ? (v & 0x7FF0000000000000u) == 0x7FF0000000000000u
               : t == T_F16 ? ((uint16_t)v & 0x7C00u) == 0x7C00u : ((uint16_t)v & 0x7F80u) == 0x7F80u);
      memcpy((char *)buf + i * type_size[t], &v, type_size[t]);
   }
}

/* Finite data with a NaN about every 300 elements: most of the fused op's groups are made
   by vectors and a few by the scalar loop, which the overlap leaves until after a Philox
   call's rounds (dropout__blocks_fused), in place too */
static void fill_sparse_nan(int t, void *buf, size_t n)
{
   size_t i;
   fill_finite(t, buf, n);
   for (i = rnd_below(300); i < n; i += 1 + rnd_below(600)) {
      if (t == T_F32) ((uint32_t *)buf)[i] = 0x7FC00001u;
      else if (t == T_F64) ((uint64_t *)buf)[i] = 0x7FF8000000000001u;
      else ((uint16_t *)buf)[i] = t == T_F16 ? 0x7E01u : 0x7FC1u;
   }
}

/* The definition, one element at a time. */
static int model_keep(uint64_t seed, uint64_t stream, uint64_t q, const dropout_rule *r)
{
   uint32_t w[4];
   unsigned per = 128u / (unsigned)r->bits;
   dropout_block(seed, stream, q / per, w);
   return dropout_keep(dropout_draw(w, r->bits, (unsigned)(q % per)), *r);
}
static void model_apply(int t, void *y, const void *x, size_t i, int keep, const dropout_rule *r)
{
   if (t == T_F32) ((float *)y)[i] = dropout_apply_f32(((const float *)x)[i], keep, *r);
   else if (t == T_F64) ((double *)y)[i] = dropout_apply_f64(((const double *)x)[i], keep, *r);
   else if (t == T_F16) ((uint16_t *)y)[i] = dropout_apply_f16(((const uint16_t *)x)[i], keep, *r);
   else ((uint16_t *)y)[i] = dropout_apply_bf16(((const uint16_t *)x)[i], keep, *r);
}
/* forward (x != NULL) or mask only; mask bits past n stay 0 */
static void model_forward(int t, void *y, uint8_t *mask, const void *x, size_t n, double p, int bits,
                          uint64_t seed, uint64_t stream, uint64_t offset)
{
   dropout_rule r = dropout_rule_make(p, bits);
   size_t i;
   if (mask) memset(mask, 0, (n + 7) / 8);
   for (i = 0; i < n; ++i) {
      int k = model_keep(seed, stream, offset + i, &r);
      if (mask && k) mask[i / 8] = (uint8_t)(mask[i / 8] | (1u << (i % 8)));
      if (x) model_apply(t, y, x, i, k, &r);
   }
}
static void model_apply_mask(int t, void *y, const void *x, const uint8_t *mask, size_t n, double p, int bits)
{
   dropout_rule r = dropout_rule_make(p, bits);
   size_t i;
   for (i = 0; i < n; ++i) model_apply(t, y, x, i, (mask[i / 8] >> (i % 8)) & 1, &r);
}

static int lib_forward(int t, void *y, uint8_t *mask, const void *x, size_t n, double p, int bits,
                       uint64_t seed, uint64_t stream, uint64_t offset)
{
   switch (t) {
   case T_F32: return dropout_v0_forward_f32((float *)y, mask, (const float *)x, n, p, bits, seed, stream, offset);
   case T_F64: return dropout_v0_forward_f64((double *)y, mask, (const double *)x, n, p, bits, seed, stream, offset);
   case T_F16: return dropout_v0_forward_f16((uint16_t *)y, mask, (const uint16_t *)x, n, p, bits, seed, stream, offset);
   default: return dropout_v0_forward_bf16((uint16_t *)y, mask, (const uint16_t *)x, n, p, bits, seed, stream, offset);
   }
}
static int lib_backward(int t, void *dx, const void *dy, size_t n, double p, int bits,
                        uint64_t seed, uint64_t stream, uint64_t offset)
{
   switch (t) {
   case T_F32: return dropout_v0_backward_f32((float *)dx, (const float *)dy, n, p, bits, seed, stream, offset);
   case T_F64: return dropout_v0_backward_f64((double *)dx, (const double *)dy, n, p, bits, seed, stream, offset);
   case T_F16: return dropout_v0_backward_f16((uint16_t *)dx, (const uint16_t *)dy, n, p, bits, seed, stream, offset);
   default: return dropout_v0_backward_bf16((uint16_t *)dx, (const uint16_t *)dy, n, p, bits, seed, stream, offset);
   }
}
static int lib_backward_mask(int t, void *dx, const void *dy, const uint8_t *mask, size_t n, double p, int bits)
{
   switch (t) {
   case T_F32: return dropout_backward_mask_f32((float *)dx, (const float *)dy, mask, n, p, bits);
   case T_F64: return dropout_backward_mask_f64((double *)dx, (const double *)dy, mask, n, p, bits);
   case T_F16: return dropout_backward_mask_f16((uint16_t *)dx, (const uint16_t *)dy, mask, n, p, bits);
   default: return dropout_backward_mask_bf16((uint16_t *)dx, (const uint16_t *)dy, mask, n, p, bits);
   }
}

/* p at the rule's edges and in between, for a mode */
static double pick_p(int bits)
{
   double two_b = (double)((uint64_t)1 << bits);
   switch (rnd_below(8)) {
   case 0: return 0.0;                        /* t = 0: copy */
   case 1: return 1.0;                        /* t = 2^bits: all dropped */
   case 2: return 1.0 / two_b;                /* t = 1 */
   case 3: return (two_b - 1.0) / two_b;      /* t = 2^bits - 1 */
   case 4: return 0.4 / two_b;                /* rounds to t = 0 */
   default: return (double)rnd_below(1000001) / 1e6;
   }
}
/* bits: the draw width (32 for words), which sets where the block counter's low word
   wraps: a block is 128 / bits positions, so at 2^32 * 128 / bits */
static uint64_t pick_offset(size_t n, int bits)
{
   switch (rnd_below(6)) {
   case 0: return rnd_below(200);                           /* small, odd */
   case 1: return (rnd() & ~(uint64_t)63) + rnd_below(3);   /* window edges */
   case 2: return UINT64_MAX - (uint64_t)n + 1u - rnd_below(70) * (n > 0);  /* ends at 2^64 */
   case 3: return ((uint64_t)1 << 32) * (128u / (unsigned)bits) - rnd_below(300); /* block counter wraps 2^32 */
   default: return rnd();
   }
}
static size_t pick_n(void)
{
   switch (rnd_below(5)) {
   case 0: return rnd_below(70);
   case 1: return 64 * (1 + rnd_below(8)) + rnd_below(2);
   default: return rnd_below(1300);
   }
}

#define MAXN 70000
static unsigned char xbuf[MAXN * 8 + 64], ybuf[MAXN * 8 + 64], zbuf[MAXN * 8 + 64];
static unsigned char sbuf[MAXN * 8 + 64];
static uint8_t m1[MAXN / 8 + 16], m2[MAXN / 8 + 16];

static void case_forward(int t, int rounds)
{
   char name[64];
   int it;
   for (it = 0; it < rounds; ++it) {
      int bits = 8 << rnd_below(3);
      size_t n = it == 0 ? 65536 + 37 : pick_n();
      double p = pick_p(bits);
      uint64_t seed = rnd(), stream = rnd_below(2) ? rnd() : 0, off = pick_offset(n, bits);
      size_t es = type_size[t], ax = rnd_below(16), ay = rnd_below(16), am = rnd_below(3);
      unsigned char *x = xbuf + ax * es, *y = ybuf + ay * es, *z = zbuf + ay * es;
      int with_mask = (int)rnd_below(2), inplace = rnd_below(4) == 0, err;
      uint8_t *mk = with_mask ? m1 + am : NULL;
      fill_data(t, x, n);
      model_forward(t, z, with_mask ? m2 : NULL, x, n, p, bits, seed, stream, off);
      memset(m1, 0xA5, sizeof m1);
      if (inplace) { memcpy(y, x, n * es); err = lib_forward(t, y, mk, y, n, p, bits, seed, stream, off); }
      else err = lib_forward(t, y, mk, x, n, p, bits, seed, stream, off);
      CHECK(err == 0, "forward returned %d", err);
      CHECK(memcmp(y, z, n * es) == 0, "forward %s bits=%d n=%zu p=%.17g off=%llu inplace=%d differs",
            type_name[t], bits, n, p, (unsigned long long)off, inplace);
      if (with_mask) {
         CHECK(memcmp(mk, m2, (n + 7) / 8) == 0, "mask bits=%d n=%zu off=%llu differs", bits, n, (unsigned long long)off);
         /* backward from the stored mask == apply_mask of the model */
         model_apply_mask(t, z, x, m2, n, p, bits);
         err = lib_backward_mask(t, y, x, mk, n, p, bits);
         CHECK(err == 0 && memcmp(y, z, n * es) == 0, "backward_mask %s bits=%d n=%zu differs", type_name[t], bits, n);
      } else {
         err = lib_backward(t, y, x, n, p, bits, seed, stream, off);
         CHECK(err == 0 && memcmp(y, z, n * es) == 0, "backward %s bits=%d n=%zu differs", type_name[t], bits, n);
      }
   }
   sprintf(name, "forward/backward %s == reference", type_name[t]);
   case_end(NAME(name));
}

static void case_mask_only(void)
{
   int it;
   for (it = 0; it < 300; ++it) {
      int bits = 8 << rnd_below(3);
      size_t n = pick_n();
      double p = pick_p(bits);
      uint64_t seed = rnd(), stream = rnd(), off = pick_offset(n, bits);
      size_t am = rnd_below(5);
      memset(m1, 0x5A, sizeof m1);
      model_forward(T_F32, NULL, m2, NULL, n, p, bits, seed, stream, off);
      CHECK(dropout_v0_mask(m1 + am, n, p, bits, seed, stream, off) == 0, "mask returned an error");
      CHECK(memcmp(m1 + am, m2, (n + 7) / 8) == 0, "mask bits=%d n=%zu p=%.17g off=%llu differs",
            bits, n, p, (unsigned long long)off);
      CHECK(m1[am + (n + 7) / 8] == 0x5A, "mask wrote past its ceil(n/8) bytes");
   }
   case_end(NAME("mask == reference"));
}

static void case_fills(void)
{
   static uint32_t out[MAXN + 8];
   static float of[MAXN + 8];
   static double od[MAXN + 8];
   int it;
   for (it = 0; it < 200; ++it) {
      size_t n = it == 0 ? MAXN : pick_n(), i, a = rnd_below(7);
      uint64_t seed = rnd(), stream = rnd(), w = pick_offset(n, 32), di;
      CHECK(dropout_v0_fill_u32(out + a, n, seed, stream, w) == 0, "fill_u32 error");
      for (i = 0; i < n; ++i)
         CHECK(out[a + i] == dropout_v0_stream_u32(seed, stream, w + i), "fill_u32 n=%zu word=%llu i=%zu differs",
               n, (unsigned long long)w, i);
      w >>= 1;   /* the f32 fill checks its own range; keep it valid */
      CHECK(dropout_v0_fill_uniform_f32(of + a, n, seed, stream, w) == 0, "fill_uniform_f32 error");
      for (i = 0; i < n; ++i)
         CHECK(of[a + i] == (float)(dropout_v0_stream_u32(seed, stream, w + i) >> 8) * 5.9604644775390625e-8f,
               "fill_uniform_f32 i=%zu differs", i);
      di = w >> 2;
      CHECK(dropout_v0_fill_uniform_f64(od + a, n, seed, stream, di) == 0, "fill_uniform_f64 error");
      for (i = 0; i < n; ++i) {
         uint64_t q = 2u * (di + i);
         uint64_t u = (uint64_t)dropout_v0_stream_u32(seed, stream, q + 1) << 32 | dropout_v0_stream_u32(seed, stream, q);
         CHECK(od[a + i] == (double)(u >> 11) * 1.1102230246251565404236316680908203125e-16,
               "fill_uniform_f64 i=%zu differs", i);
      }
   }
   case_end(NAME("fill_u32/uniform == reference"));
}

/* Splitting a call at multiples of 64 elements, as a threaded caller does for any
   thread count, changes nothing. */
static void case_chunks(void)
{
   static const int parts[4] = {1, 2, 3, 7};
   int it, k;
   for (it = 0; it < 40; ++it) {
      int bits = 8 << rnd_below(3);
      size_t n = 1 + rnd_below(MAXN - 1);
      double p = pick_p(bits);
      uint64_t seed = rnd(), stream = rnd(), off = pick_offset(n, bits);
      float *x = (float *)(void *)xbuf, *y = (float *)(void *)ybuf, *z = (float *)(void *)zbuf;
      fill_data(T_F32, x, n);
      CHECK(dropout_v0_forward_f32(z, m2, x, n, p, bits, seed, stream, off) == 0, "forward error");
      for (k = 0; k < 4; ++k) {
         size_t per = ((n + (size_t)parts[k] - 1) / (size_t)parts[k] + 63) / 64 * 64, at;
         memset(m1, 0, sizeof m1);
         for (at = 0; at < n; at += per) {
            size_t m = n - at < per ? n - at : per;
            CHECK(dropout_v0_forward_f32(y + at, m1 + at / 8, x + at, m, p, bits, seed, stream, off + at) == 0, "chunk error");
         }
         CHECK(memcmp(y, z, n * 4) == 0 && memcmp(m1, m2, (n + 7) / 8) == 0,
               "%d chunks of n=%zu differ from one call", parts[k], n);
      }
   }
   case_end(NAME("chunked calls (1, 2, 3, 7 parts) == one call"));
}

/* forward (or mask-free backward) f32 split the way a caller threads the library: about
   n / nt elements a thread, rounded up to 64 (whole mask bytes, so no two threads write one
   byte), each chunk a call at position off + its start; on nt OpenMP threads where built
   with -fopenmp, else the same chunks one after the other. */
static int f32_on_threads(int backward, float *y, uint8_t *mask, const float *x, size_t n, double p,
                          int bits, uint64_t seed, uint64_t stream, uint64_t off, int nt)
{
   size_t per = ((n + (size_t)nt - 1) / (size_t)nt + 63) / 64 * 64;
   long c, chunks = per ? (long)((n + per - 1) / per) : 0;
   int err = 0;
   (void)nt;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nt) schedule(static) reduction(|:err)
#endif
   for (c = 0; c < chunks; ++c) {
      size_t at = (size_t)c * per, m = n - at < per ? n - at : per;
      err |= backward ? dropout_v0_backward_f32(y + at, x + at, m, p, bits, seed, stream, off + at)
                      : dropout_v0_forward_f32(y + at, mask + at / 8, x + at, m, p, bits, seed, stream, off + at);
   }
   return err;
}

/* That split on 1, 2, 3 and 7 threads (OpenMP builds; otherwise the same chunks one
   after the other) equals one call. */
static void case_threads(void)
{
   static const int threads[4] = {1, 2, 3, 7};
   int it, k;
   for (it = 0; it < 6; ++it) {
      int bits = 8 << (it % 3);
      size_t n = it == 0 ? MAXN : 1 + rnd_below(MAXN - 1);
      double p = 0.1 + 0.1 * it;
      uint64_t seed = rnd(), stream = rnd(), off = pick_offset(n, bits);
      float *x = (float *)(void *)xbuf, *y = (float *)(void *)ybuf, *z = (float *)(void *)zbuf;
      fill_data(T_F32, x, n);
      CHECK(dropout_v0_forward_f32(z, m2, x, n, p, bits, seed, stream, off) == 0, "forward error");
      for (k = 0; k < 4; ++k) {
         memset(m1, 0, sizeof m1);
         CHECK(f32_on_threads(0, y, m1, x, n, p, bits, seed, stream, off, threads[k]) == 0, "threaded forward error");
         CHECK(memcmp(y, z, n * 4) == 0 && memcmp(m1, m2, (n + 7) / 8) == 0,
               "%d threads, n=%zu: differs from one call", threads[k], n);
         CHECK(f32_on_threads(1, y, NULL, x, n, p, bits, seed, stream, off, threads[k]) == 0 &&
               memcmp(y, z, n * 4) == 0, "backward on %d threads differs", threads[k]);
      }
   }
#ifdef _OPENMP
   case_end(NAME("one call split over 1, 2, 3, 7 OpenMP threads == one call"));
#else
   case_end(NAME("one call split in 1, 2, 3, 7 thread chunks (no OpenMP) == one call"));
#endif
}

#ifdef DROPOUT__SIMD
/* The vector conversions against the header's scalar ones: every f16/bf16 input, and f32
   inputs at a stride plus every boundary neighbourhood (DROPOUT_TEST_EXHAUSTIVE=1 in
   the environment walks all 2^32). */
static void case_conversions(void)
{
   uint32_t in[DROPOUT__W], out[DROPOUT__W];
   uint64_t b, step = getenv("DROPOUT_TEST_EXHAUSTIVE") ? 1 : 4093;
   static const uint32_t edges[] = {0x0u, 0x33000000u, 0x38800000u, 0x477FF000u, 0x7F800000u,
                                    0x387FE000u, 0x33800000u, 0x477FE000u, 0x7FC00000u, 0x3F800000u};
   unsigned i, e;
   for (b = 0; b < 65536; b += DROPOUT__W) {
      for (i = 0; i < DROPOUT__W; ++i) in[i] = (uint32_t)(b + i);
      dropout__v_storeu(out, dropout__v_f16_to_f32(dropout__v_loadu(in)));
      for (i = 0; i < DROPOUT__W; ++i) {
         float f = dropout_f16_to_f32((uint16_t)in[i]);
         uint32_t u;
         memcpy(&u, &f, 4);
         CHECK(out[i] == u, "f16 %04x -> f32: vector %08x, scalar %08x", in[i], out[i], u);
      }
   }
   for (e = 0; e < 2 * sizeof edges / sizeof edges[0]; ++e) {
      uint32_t base = (edges[e / 2] | (e & 1u ? 0x80000000u : 0u)) - 4096u;
      for (b = 0; b < 8192; b += DROPOUT__W) {
         for (i = 0; i < DROPOUT__W; ++i) in[i] = base + (uint32_t)b + i;
         dropout__v_storeu(out, dropout__v_f32_to_f16(dropout__v_loadu(in)));
         for (i = 0; i < DROPOUT__W; ++i) {
            float f;
            memcpy(&f, &in[i], 4);
            CHECK(out[i] == dropout_f32_to_f16(f), "f32 %08x -> f16 differs", in[i]);
         }
      }
   }
   for (b = 0; b < ((uint64_t)1 << 32); b += step * DROPOUT__W) {
      uint32_t o2[DROPOUT__W];
      for (i = 0; i < DROPOUT__W; ++i) in[i] = (uint32_t)(b + i * step);
      dropout__v_storeu(out, dropout__v_f32_to_f16(dropout__v_loadu(in)));
      dropout__v_storeu(o2, dropout__v_f32_to_bf16_num(dropout__v_loadu(in)));
      for (i = 0; i < DROPOUT__W; ++i) {
         float f;
         /* the bf16 rounding takes every number, and the NaNs a bf16 call's product can be:
            quiet, low 16 bits zero (dropout__v_f32_to_bf16_num) */
         int nan_ok = (in[i] & 0x7FFFFFFFu) <= 0x7F800000u || ((in[i] & 0xFFFFu) == 0 && (in[i] & 0x00400000u));
         memcpy(&f, &in[i], 4);
         CHECK(out[i] == dropout_f32_to_f16(f), "f32 %08x -> f16: vector %04x, scalar %04x", in[i], out[i], dropout_f32_to_f16(f));
         CHECK(!nan_ok || o2[i] == dropout_f32_to_bf16(f), "f32 %08x -> bf16 differs", in[i]);
      }
   }
   for (b = 0; b < 65536u; b += DROPOUT__W) {   /* every bf16 NaN, widened and quieted as a multiply returns it */
      uint32_t o2[DROPOUT__W];
      for (i = 0; i < DROPOUT__W; ++i) in[i] = (uint32_t)(b + i) << 16 | 0x00400000u;
      dropout__v_storeu(o2, dropout__v_f32_to_bf16_num(dropout__v_loadu(in)));
      for (i = 0; i < DROPOUT__W; ++i) {
         float f;
         memcpy(&f, &in[i], 4);
         CHECK(o2[i] == dropout_f32_to_bf16(f), "f32 %08x -> bf16 differs", in[i]);
      }
   }
   case_end(NAME(step == 1 ? "f16/bf16 conversions == scalar (all 2^32 f32)"
                           : "f16/bf16 conversions == scalar (all f16, f32 sampled)"));
}
#endif

/* The vector loop's batch, DROPOUT__GROUP chunks of 64 elements (8 with AVX-512 and NEON,
   12 with AVX2 and SSE; 8 for the reference build, where it is not defined) */
#if defined(DROPOUT__GROUP)
#define BATCH ((size_t)DROPOUT__GROUP * 64u)
#else
#define BATCH ((size_t)512)
#endif

/* The vector loop runs batches of chunks of 64 elements (BATCH): the window-aligned fast path
   (offset % 64 == 0) and the two-window shift (any other offset), at batch and chunk
   edges, every mode, with and without the mask, in place and not. From two whole batches
   on, an aligned f32, bf16 or f16 forward makes a batch's Philox between the rounds of the
   previous batch's data (dropout__run_overlap, AVX-512 and NEON builds): one batch short of
   that, exactly two, and two or more with a partial batch and a partial chunk after them;
   y on a 64-byte boundary and 3 elements past one, so that a build which streams its
   stores also runs the overlap on the shifted data grid. A call that starts inside a
   window (offset % 64 = 1, 32, 63) takes the overlap too when its windows hold two batches
   (n = 2 BATCH - 1 with offset % 64 = 1 just does): its mask words are the shifted keep words and
   its last chunk is left to the steps. So it does with streamed stores, where the data
   grid is shifted by both (offset % 64 and y's misalignment, past 64 or not) and the
   elements before its first data chunk and after its last are edges. */
static void case_batches(void)
{
   static const unsigned shifts[4] = {0, 1, 32, 63};
   static const size_t sizes[10] = {64, BATCH - 1, BATCH, BATCH + 1, 2 * BATCH + 64, 8 * BATCH + 63,
                                    2 * BATCH - 1, 2 * BATCH, 3 * BATCH - 1, 4 * BATCH + 64 * 3 + 5};
   static const int types[3] = {T_F32, T_BF16, T_F16};
   int b, si, ni, k, ti, head;
   for (ti = 0; ti < 3; ++ti)
   for (head = 0; head < 2; ++head)
   for (b = 0; b < 3; ++b)
      for (si = 0; si < 4; ++si)
         for (ni = 0; ni < 10; ++ni)
            for (k = 0; k < 2; ++k) {
               int t = types[ti], bits = 8 << b, err;
               size_t n = sizes[ni], es = type_size[t];
               uint64_t seed = rnd(), stream = rnd(), off = (rnd() & ~(uint64_t)63) + shifts[si];
               unsigned char *y = ybuf + (64u - (size_t)((uintptr_t)ybuf % 64u)) % 64u + (head ? 3 : 0) * es;
               unsigned char *x = k ? y : xbuf;
               fill_data(t, sbuf, n);
               model_forward(t, zbuf, m2, sbuf, n, 0.3, bits, seed, stream, off);
               memcpy(x, sbuf, n * es);
               memset(m1, 0xA5, sizeof m1);
               err = lib_forward(t, y, m1, x, n, 0.3, bits, seed, stream, off);
               CHECK(err == 0 && memcmp(y, zbuf, n * es) == 0 && memcmp(m1, m2, (n + 7) / 8) == 0,
                     "%s bits=%d n=%zu offset%%64=%u y+%d inplace=%d differs", type_name[t], bits, n, shifts[si],
                     head ? 3 : 0, k);
               CHECK(m1[(n + 7) / 8] == 0xA5, "mask wrote past its ceil(n/8) bytes");
               memcpy(x, sbuf, n * es);
               err = lib_backward(t, y, x, n, 0.3, bits, seed, stream, off);
               CHECK(err == 0 && memcmp(y, zbuf, n * es) == 0, "%s backward bits=%d n=%zu offset%%64=%u differs",
                     type_name[t], bits, n, shifts[si]);
            }
   case_end(NAME("batch/chunk edges, f32, bf16 and f16, aligned and shifted offsets and y == reference"));
}

/* The block counter's low word wraps (block 2^32 k: position 2^32 k * 128 / bits) inside
   a vector's lanes, in a call's first Philox batch and in a later one (where the overlap
   makes it between data chunks): the x86 paths take rounds 0 and 1 in scalar arithmetic
   when a batch's blocks share their high word, and all ten on the lanes when they do not.
   A call across the wrap takes the steps, one that ends before it or starts at it the
   overlap. Every dtype and mode, forward with mask, mask-free backward and mask alone,
   offsets on a window boundary and inside one, y on a 64-byte boundary and 3 elements
   past it. */
static void case_counter_wrap(void)
{
   /* the wrap this far into the call (rounded down to a window, plus s): at its start, in
      its first Philox batch, in later ones, and past its end */
   static const uint64_t before[6] = {0, 5, 700, 1500, 3500, 4096 + 64 + 64};
   int t, b, w, s, head;
   for (t = 0; t < 4; ++t)
      for (b = 0; b < 3; ++b)
         for (w = 0; w < 6; ++w)
            for (s = 0; s < 2; ++s)
               for (head = 0; head < 2; ++head) {
                  int bits = 8 << b;
                  size_t n = 4096 + 63, es = type_size[t];
                  uint64_t wrap = ((uint64_t)1 << 32) * (128u / (unsigned)bits) * (1u + (unsigned)w % 3u);
                  uint64_t off = ((wrap - before[w]) & ~(uint64_t)63) + (s ? 17u : 0u), seed = rnd(), stream = rnd();
                  unsigned char *y = ybuf + (64u - (size_t)((uintptr_t)ybuf % 64u)) % 64u + (head ? 3 : 0) * es;
                  fill_data(t, xbuf, n);
                  model_forward(t, zbuf, m2, xbuf, n, 0.4, bits, seed, stream, off);
                  memset(m1, 0xA5, sizeof m1);
                  CHECK(lib_forward(t, y, m1, xbuf, n, 0.4, bits, seed, stream, off) == 0 &&
                        memcmp(y, zbuf, n * es) == 0 && memcmp(m1, m2, (n + 7) / 8) == 0,
                        "forward %s bits=%d offset=%llu (wrap %llu on) differs", type_name[t], bits,
                        (unsigned long long)off, (unsigned long long)(wrap - off));
                  CHECK(lib_backward(t, y, xbuf, n, 0.4, bits, seed, stream, off) == 0 && memcmp(y, zbuf, n * es) == 0,
                        "backward %s bits=%d offset=%llu differs", type_name[t], bits, (unsigned long long)off);
                  memset(m1, 0xA5, sizeof m1);
                  CHECK(dropout_v0_mask(m1, n, 0.4, bits, seed, stream, off) == 0 && memcmp(m1, m2, (n + 7) / 8) == 0,
                        "mask bits=%d offset=%llu differs", bits, (unsigned long long)off);
               }
   case_end(NAME("the block counter wrapping 2^32 inside a call == reference"));
}

/* bf16 and f16 forward of every 16-bit input (n = 2^16 + 37, element i is i * 40503 mod
   2^16), on the overlap (aligned offset) and on the steps (shifted offset), each mode, p
   with a scale well above 1, so that products overflow to Inf and land on subnormals:
   the AVX-512 build's vcvtne2ps2bf16 reads a subnormal product as zero (those must take
   its integer rounding), and f16 goes through the F16C conversions; NaN, Inf and
   subnormal inputs must all come out as dropout_apply_bf16 / _f16 say. */
static void case_half_all(void)
{
   const size_t n = 65536 + 37;
   uint16_t *x = (uint16_t *)(void *)xbuf, *y = (uint16_t *)(void *)ybuf, *z = (uint16_t *)(void *)zbuf;
   int b, o, t;
   size_t i;
   for (i = 0; i < n; ++i) x[i] = (uint16_t)(i * 40503u);
   for (t = T_F16; t <= T_BF16; ++t)
      for (b = 0; b < 3; ++b)
         for (o = 0; o < 2; ++o) {
            int bits = 8 << b;
            uint64_t off = o ? 64 * 999 + 17 : 64 * 999;
            model_forward(t, z, m2, x, n, 0.7, bits, 5, 6, off);
            CHECK(lib_forward(t, y, m1, x, n, 0.7, bits, 5, 6, off) == 0 && memcmp(y, z, n * 2) == 0,
                  "%s bits=%d offset%%64=%u differs", type_name[t], bits, (unsigned)(off % 64));
            CHECK(lib_backward(t, y, x, n, 0.7, bits, 5, 6, off) == 0 && memcmp(y, z, n * 2) == 0,
                  "%s backward bits=%d offset%%64=%u differs", type_name[t], bits, (unsigned)(off % 64));
            model_apply_mask(t, z, x, m2, n, 0.7, bits);
            CHECK(lib_backward_mask(t, y, x, m1, n, 0.7, bits) == 0 && memcmp(y, z, n * 2) == 0,
                  "%s backward from the mask bits=%d offset%%64=%u differs", type_name[t], bits, (unsigned)(off % 64));
         }
   case_end(NAME("bf16 and f16 forward, backward and backward from the mask of every 16-bit value == reference"));
}

/* Streaming stores (x86, from DROPOUT_STREAM_STORE_BYTES of output on, y aligned to
   DROPOUT__NT_ALIGN): below, at and above the threshold, y aligned to 64 bytes and off by
   one element or 4/8 bytes (no streaming, or streaming on a coarser path), in place, with
   and without masks, every mode and dtype, window-aligned and shifted offsets. */
static void case_streaming(void)
{
   static const unsigned heads[6] = {0, 1, 2, 4, 7, 12};   /* elements past a 64-byte boundary */
   char name[100];
   int t, b, hi, k;
   for (t = 0; t < 4; ++t)
      for (b = 0; b < 3; ++b)
         for (hi = 0; hi < 6; ++hi)
            for (k = 0; k < 8; ++k) {
               int bits = 8 << b, err, inplace = k & 1, with_mask = (k >> 1) & 1;
               size_t es = type_size[t], lim = (size_t)DROPOUT_STREAM_STORE_BYTES / es;
               if (lim > 8192) lim = 8192;   /* never streams: keep the calls small */
               size_t sizes[4], n;
               unsigned char *y = ybuf + (64u - (size_t)((uintptr_t)ybuf % 64u)) % 64u + heads[hi] * es;
               unsigned char *x = inplace ? y : xbuf + 8 * es, *z = zbuf, *src = inplace ? sbuf : x;
               uint64_t seed = rnd(), stream = rnd(), off = (rnd() & ~(uint64_t)63) + ((k >> 2) ? 37u : 0u);
               double p = b == 0 ? 0.25 : 0.6;
               uint8_t *mk = with_mask ? m1 : NULL;
               sizes[0] = lim > 64 ? lim - 64 - 3 : 64;   /* below */
               sizes[1] = lim < 64 ? 64 : lim;            /* at */
               sizes[2] = sizes[1] + 64 * 9 + 11;         /* above, several steps */
               sizes[3] = 5000 + rnd_below(64);
               n = sizes[rnd_below(4)];
               fill_data(t, src, n);
               if (inplace) memcpy(y, src, n * es);
               model_forward(t, z, m2, src, n, p, bits, seed, stream, off);
               memset(m1, 0xA5, sizeof m1);
               err = lib_forward(t, y, mk, x, n, p, bits, seed, stream, off);
               CHECK(err == 0 && memcmp(y, z, n * es) == 0, "forward %s bits=%d n=%zu head=%u inplace=%d off%%64=%u differs",
                     type_name[t], bits, n, heads[hi], inplace, (unsigned)(off % 64));
               if (with_mask) {
                  CHECK(memcmp(m1, m2, (n + 7) / 8) == 0 && m1[(n + 7) / 8] == 0xA5, "mask %s bits=%d n=%zu differs",
                        type_name[t], bits, n);
                  fill_data(t, xbuf, n);
                  model_apply_mask(t, z, xbuf, m2, n, p, bits);
                  err = lib_backward_mask(t, y, xbuf, m1, n, p, bits);
                  CHECK(err == 0 && memcmp(y, z, n * es) == 0, "backward_mask %s bits=%d n=%zu head=%u differs",
                        type_name[t], bits, n, heads[hi]);
               }
            }
#if defined(DROPOUT__STREAMS) && DROPOUT__STREAMS
   snprintf(name, sizeof name, "streaming stores (from %zu bytes, y %d-byte aligned) == reference",
            (size_t)DROPOUT_STREAM_STORE_BYTES, DROPOUT__NT_ALIGN);
#else
   snprintf(name, sizeof name, "threshold edges, heads (no streaming stores on this path) == reference");
#endif
   case_end(NAME(name));
}

/* A call whose plain stores miss the caches: 16 MiB of f32 output and more, in a run
   that never streams (suite.sh builds this case with TEST_FAR and runs it with `max`).
   The AVX2 build's f32 overlap then takes its functions for a run-time store policy,
   which ask for each next step's y ahead (dropout__far_prefetch) or, at 8-bit draws, make
   the steps on four chains (dropout__blocks_apply4): every draw width, on a window
   boundary and inside a window, in place, with the mask and the backward from the seed. */
#if defined(TEST_FAR)
static void case_far(void)
{
   const size_t n = ((size_t)16 << 20) / 4 + 64 * 3 + 29;
   float *x = (float *)malloc(n * 4), *y = (float *)malloc(n * 4), *z = (float *)malloc(n * 4);
   uint8_t *mk = (uint8_t *)malloc(n / 8 + 1), *mz = (uint8_t *)malloc(n / 8 + 1);
   int it;
   if (!x || !y || !z || !mk || !mz) {
      CHECK(0, "far calls: no memory for %zu elements", n);
      free(x); free(y); free(z); free(mk); free(mz);
      return;
   }
   static const int bits_of[5] = {8, 16, 32, 16, 8}, within_of[5] = {1, 0, 1, 1, 0}, inplace_of[5] = {0, 1, 0, 0, 1};
   for (it = 0; it < 5; ++it) {
      const int bits = bits_of[it], inplace = inplace_of[it];
      const double p = it == 2 ? 0.5 : 0.1;
      const uint64_t seed = rnd(), stream = rnd(), off = (rnd() >> 8 & ~(uint64_t)63) + (within_of[it] ? 41u : 0u);
      int err;
      fill_data(T_F32, x, n);
      model_forward(T_F32, z, mz, x, n, p, bits, seed, stream, off);
      if (inplace) memcpy(y, x, n * 4);
      err = lib_forward(T_F32, y, mk, inplace ? y : x, n, p, bits, seed, stream, off);
      CHECK(err == 0 && memcmp(y, z, n * 4) == 0 && memcmp(mk, mz, (n + 7) / 8) == 0,
            "far forward bits=%d off%%64=%u inplace=%d differs", bits, (unsigned)(off % 64), inplace);
      err = lib_backward(T_F32, y, x, n, p, bits, seed, stream, off);
      CHECK(err == 0 && memcmp(y, z, n * 4) == 0, "far backward bits=%d off%%64=%u differs", bits, (unsigned)(off % 64));
   }
   free(x); free(y); free(z); free(mk); free(mz);
   case_end(NAME("far calls (16 MiB of f32, plain stores) == reference"));
}
#endif

/* The fused op (SPEC 12), rows x cols, against its per-element definition. Where the
   path has a vector fma (AVX-512, AVX2 with FMA, NEON) whole groups of 64 run in vectors:
   rows longer than a group and shorter, a row's mask bits off a byte boundary, spans past
   the keep bits' 2048, in place over x or the residual. A kept NaN compares as a NaN: its
   payload is the FPU's (SPEC 12); every other bit is exact. */
static int nan_of(int t, const unsigned char *p, size_t i)
{
   if (t == T_F32) { uint32_t u; memcpy(&u, p + 4 * i, 4); return (u & 0x7FFFFFFFu) > 0x7F800000u; }
   if (t == T_F64) { uint64_t u; memcpy(&u, p + 8 * i, 8); return (u & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull; }
   { uint16_t u; memcpy(&u, p + 2 * i, 2); return t == T_F16 ? (u & 0x7FFFu) > 0x7C00u : (u & 0x7FFFu) > 0x7F80u; }
}
static void model_fused(int t, void *y, const void *x, const void *b, const void *res, size_t i, size_t c, int keep,
                        const dropout_rule *r)
{
   if (t == T_F32)
      ((float *)y)[i] = dropout_bias_dropout_add_one_f32(((const float *)x)[i], ((const float *)b)[c], ((const float *)res)[i], keep, *r);
   else if (t == T_F64)
      ((double *)y)[i] = dropout_bias_dropout_add_one_f64(((const double *)x)[i], ((const double *)b)[c], ((const double *)res)[i], keep, *r);
   else if (t == T_F16)
      ((uint16_t *)y)[i] = dropout_bias_dropout_add_one_f16(((const uint16_t *)x)[i], ((const uint16_t *)b)[c], ((const uint16_t *)res)[i], keep, *r);
   else
      ((uint16_t *)y)[i] = dropout_bias_dropout_add_one_bf16(((const uint16_t *)x)[i], ((const uint16_t *)b)[c], ((const uint16_t *)res)[i], keep, *r);
}
static int lib_fused(int t, void *y, uint8_t *mask, const void *x, const void *b, const void *res, size_t rows, size_t cols,
                     double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   switch (t) {
   case T_F32: return dropout_v0_bias_dropout_add_f32((float *)y, mask, (const float *)x, (const float *)b, (const float *)res, rows, cols, p, bits, seed, stream, offset);
   case T_F64: return dropout_v0_bias_dropout_add_f64((double *)y, mask, (const double *)x, (const double *)b, (const double *)res, rows, cols, p, bits, seed, stream, offset);
   case T_F16: return dropout_v0_bias_dropout_add_f16((uint16_t *)y, mask, (const uint16_t *)x, (const uint16_t *)b, (const uint16_t *)res, rows, cols, p, bits, seed, stream, offset);
   default: return dropout_v0_bias_dropout_add_bf16((uint16_t *)y, mask, (const uint16_t *)x, (const uint16_t *)b, (const uint16_t *)res, rows, cols, p, bits, seed, stream, offset);
   }
}
/* the definition over n elements (rows of cols): z and the mask bits m2 */
static void model_fused_all(int t, void *z, const void *x, const void *b, const void *res, size_t n, size_t cols,
                            uint64_t seed, uint64_t stream, uint64_t off, const dropout_rule *r)
{
   size_t i;
   memset(m2, 0, (n + 7) / 8);
   for (i = 0; i < n; ++i) {
      int k = model_keep(seed, stream, off + i, r);
      if (k) m2[i / 8] = (uint8_t)(m2[i / 8] | (1u << (i % 8)));
      model_fused(t, z, x, b, res, i, i % cols, k, r);
   }
}
/* the first element of y that differs from z (a kept NaN against a NaN does not), or n */
static size_t fused_differs(int t, const unsigned char *y, const unsigned char *z, size_t n)
{
   const size_t es = type_size[t];
   size_t i;
   for (i = 0; i < n; ++i)
      if (memcmp(y + i * es, z + i * es, es) != 0 && !(((m2[i / 8] >> (i % 8)) & 1) && nan_of(t, y, i) && nan_of(t, z, i)))
         return i;
   return n;
}
/* The path's vector fma (hardware, or SSE2's in double) against dropout_fmaf, lane for
   lane: random operands, and products that land on a float's midpoint with a tiny addend
   (where rounding the sum to double first and then to float would round the wrong way). */
static void case_vector_fma(void)
{
#if DROPOUT__FUSED_SIMD
   float a[DROPOUT__W], b[DROPOUT__W], c[DROPOUT__W], r[DROPOUT__W];
   int it, i, bad = 0;
   for (it = 0; it < 40000 && !bad; ++it) {
      for (i = 0; i < DROPOUT__W; ++i) {
         uint32_t u[3];
         int k;
         for (k = 0; k < 3; ++k) u[k] = data32();
         memcpy(&a[i], &u[0], 4); memcpy(&b[i], &u[1], 4); memcpy(&c[i], &u[2], 4);
         if (it % 2) {   /* (1 + j 2^-12)(1 + k 2^-12) has a bit at 2^-24: a midpoint near 1 */
            a[i] = 1.0f + (float)(1 + rnd_below(4000)) * 0x1p-12f;
            b[i] = (1.0f + (float)(1 + rnd_below(4000)) * 0x1p-12f) * (rnd_below(2) ? 1.0f : -1.0f);
            u[2] = (uint32_t)(127 - 40 - rnd_below(80)) << 23 | (rnd_below(2) ? 0x80000000u : 0u);   /* +-2^-40 .. 2^-119 */
            memcpy(&c[i], &u[2], 4);
            if (rnd_below(4) == 0) c[i] = -a[i] * b[i];   /* cancellation */
         }
      }
      dropout__v_storeu(r, dropout__v_fma(dropout__v_loadu(a), dropout__v_loadu(b), dropout__v_loadu(c)));
      for (i = 0; i < DROPOUT__W && !bad; ++i) {
         float want = dropout_fmaf(a[i], b[i], c[i]);
         uint32_t ur, uw;
         memcpy(&ur, &r[i], 4); memcpy(&uw, &want, 4);
         if (ur != uw && !((ur & 0x7FFFFFFFu) > 0x7F800000u && (uw & 0x7FFFFFFFu) > 0x7F800000u)) {
            CHECK(0, "fma(%a, %a, %a) = %a, want %a", (double)a[i], (double)b[i], (double)c[i], (double)r[i], (double)want);
            bad = 1;
         }
      }
   }
   case_end(NAME("vector fma == dropout_fmaf (midpoints, cancellation, specials)"));
#else
   case_skip(NAME("vector fma == dropout_fmaf"), "no vector fma on this path (the fused op's scalar loop)");
#endif
}

static void case_fused(void)
{
   static unsigned char bbuf[MAXN * 8 + 64];
   int it, bad = 0;
   for (it = 0; it < 240 && !bad; ++it) {
      const int t = it % 4, bits = 8 << rnd_below(3);
      /* one in three: rows a multiple of 64 long and a first position on a window's edge,
         the shapes the fused op's overlap takes (at least two batches, and a rest) */
      const int overlap = it >= 8 && it % 3 == 0;
      const size_t rows = overlap ? 1 + rnd_below(24) : 1 + rnd_below(4);
      const size_t cols = overlap ? 64 * (1 + rnd_below(40)) : it < 8 ? 4096 + 64 + rnd_below(3) : 1 + rnd_below(1400);
      const size_t n = rows * cols, es = type_size[t];
      double p = pick_p(bits);
      dropout_rule r = dropout_rule_make(p, bits);
      uint64_t seed = rnd(), stream = rnd(), off = pick_offset(n, bits) & (overlap ? ~(uint64_t)63 : ~(uint64_t)0);
      unsigned char *x = xbuf + rnd_below(16) * es, *y = ybuf + rnd_below(16) * es, *res = sbuf + rnd_below(16) * es;
      unsigned char *b = bbuf + rnd_below(16) * es, *z = zbuf;
      const int with_mask = (int)rnd_below(2), inplace = (int)rnd_below(3);   /* 1: over x, 2: over the residual */
      uint8_t *mk = with_mask ? m1 + rnd_below(3) : NULL;
      size_t i;
      int err;
      /* a third of the cases with NaN and Inf among the data (nearly every group then takes
         the scalar loop), a third without (the vector groups), a third with a few NaNs */
      void (*fill)(int, void *, size_t) = (it / 4) % 3 == 1 ? fill_finite : (it / 4) % 3 == 2 ? fill_sparse_nan : fill_data;
      fill(t, x, n);
      fill(t, res, n);
      fill(t, b, cols);
      model_fused_all(t, z, x, b, res, n, cols, seed, stream, off, &r);
      if (inplace) {
         unsigned char *over = inplace == 1 ? x : res;
         memcpy(y, over, n * es);
         err = lib_fused(t, y, mk, inplace == 1 ? y : x, b, inplace == 2 ? y : res, rows, cols, p, bits, seed, stream, off);
      } else {
         err = lib_fused(t, y, mk, x, b, res, rows, cols, p, bits, seed, stream, off);
      }
      CHECK(err == 0, "fused returned %d", err);
      if ((i = fused_differs(t, y, z, n)) < n) {
         CHECK(0, "fused %s bits=%d %zux%zu p=%.17g off=%llu inplace=%d: element %zu differs",
               type_name[t], bits, rows, cols, p, (unsigned long long)off, inplace, i);
         bad = 1;
      }
      if (with_mask) CHECK(memcmp(mk, m2, (n + 7) / 8) == 0, "fused mask bits=%d n=%zu differs", bits, n);
   }
   case_end(NAME(DROPOUT__FUSED_SIMD ? "fused bias-dropout-add, vector fma == reference"
                                     : "fused bias-dropout-add (no vector fma on this path: the scalar loop) == reference"));
}

/* The fused op's overlap on arrays as malloc places them: f32 with y 1 to 15 elements past
   a 64-byte boundary, at least four rows of 64 to 4160 elements, from a window's first
   position; x, the residual, the bias and the mask at other offsets, in place over x or the
   residual; every element and mask bit against the per-element definition. (It caught a
   shifted data grid's bug at once: bench/results/zen5-amd-epyc-f26m2.md.) */
static unsigned char *aligned64(unsigned char *p) { return p + (64u - (uintptr_t)p % 64u) % 64u; }
static void case_fused_shifted(void)
{
   static unsigned char bbuf[4160 * 4 + 128];
   int it, bad = 0;
   for (it = 0; it < 48 && !bad; ++it) {
      const int bits = 8 << (it % 3);
      const size_t cols = it % 16 == 15 ? 4160 : 64 * (1 + rnd_below(64));
      const size_t rows = 4 + rnd_below((unsigned)(65536 / cols > 4 ? 65536 / cols - 3 : 1));
      const size_t n = rows * cols > 65536 ? 65536 / cols * cols : rows * cols;
      const double p = pick_p(bits);
      const dropout_rule r = dropout_rule_make(p, bits);
      const uint64_t seed = rnd(), stream = rnd(), off = pick_offset(n, bits) & ~(uint64_t)63;
      unsigned char *y = aligned64(ybuf) + 4 * (1 + rnd_below(15)), *x = aligned64(xbuf) + 4 * rnd_below(16);
      unsigned char *res = aligned64(sbuf) + 4 * rnd_below(16), *b = aligned64(bbuf) + 4 * rnd_below(16), *z = zbuf;
      const int with_mask = (int)rnd_below(2), inplace = (int)rnd_below(3);   /* 1: over x, 2: over the residual */
      uint8_t *mk = with_mask ? m1 + rnd_below(3) : NULL;
      size_t i;
      int err;
      ((it / 3) % 2 ? fill_finite : fill_data)(T_F32, x, n);
      fill_finite(T_F32, res, n);
      fill_finite(T_F32, b, cols);
      model_fused_all(T_F32, z, x, b, res, n, cols, seed, stream, off, &r);
      if (inplace) memcpy(y, inplace == 1 ? x : res, n * 4);
      err = lib_fused(T_F32, y, mk, inplace == 1 ? y : x, b, inplace == 2 ? y : res, n / cols, cols, p, bits, seed,
                      stream, off);
      CHECK(err == 0, "fused returned %d", err);
      if ((i = fused_differs(T_F32, y, z, n)) < n) {
         CHECK(0, "fused f32 y %u bytes past 64, bits=%d %zux%zu off=%llu inplace=%d: element %zu differs",
               (unsigned)((uintptr_t)y % 64u), bits, n / cols, cols, (unsigned long long)off, inplace, i);
         bad = 1;
      }
      if (with_mask && memcmp(mk, m2, (n + 7) / 8) != 0) {
         CHECK(0, "fused f32 mask bits=%d n=%zu differs", bits, n);
         bad = 1;
      }
   }
   case_end(NAME("fused bias-dropout-add f32, y 4 to 60 bytes past a 64-byte boundary, rows of 64 to 4160 == reference"));
}

int main(int argc, char **argv)
{
   int t;
#if defined(TEST_NT_ARG)
   if (argc > 1) test_nt_bytes = strcmp(argv[1], "max") == 0 ? SIZE_MAX : (size_t)strtoull(argv[1], NULL, 10);
#endif
   (void)argc; (void)argv;
   printf("    SIMD path compiled in: %s; DROPOUT_STREAM_STORE_BYTES %zu\n", DROPOUT__SIMD_NAME,
          (size_t)DROPOUT_STREAM_STORE_BYTES);
#ifdef DROPOUT__SIMD
   (void)case_skip;
   case_conversions();
#else
   case_skip(NAME("f16/bf16 conversions == scalar"), "no SIMD path in this build");
#endif
   for (t = 0; t < 4; ++t) case_forward(t, 400);
   case_mask_only();
   case_batches();
   case_counter_wrap();
   case_half_all();
   case_streaming();
#if defined(TEST_FAR)   /* in the run that never streams */
   if (DROPOUT_STREAM_STORE_BYTES == SIZE_MAX) case_far();
#endif
   case_fills();
   case_chunks();
   case_threads();
   case_vector_fma();
   case_fused();
   case_fused_shifted();
   return check_exit();
}
