/* digest.c - the whole API on fixed inputs, one hash per group plus a total.

   tests/xarch/suite.sh builds this one file for the host and for other instruction sets
   and byte orders (aarch64, armhf, i386, s390x, riscv64, wasm32, a Cortex-M4 with no
   libc) and requires every line to equal the host's: that is the header's promise of the
   same bits everywhere. Values are hashed as little-endian integers, so a big-endian
   machine that computes the same numbers prints the same hashes.

   It needs no libc: output goes through xd_write(), which is stdio on a hosted build, an
   import from JavaScript on wasm32 (tests/xarch/run_wasm.js) and semihosting on a
   Cortex-M (XD_SEMIHOSTING, with tests/xarch/cortex_m.ld). Exit status 0 = ran to the end. */
#define DROPOUT_V0_API   /* written against the 0.1.0 calls: they must keep giving the same bits */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#ifndef XD_IMPLEMENTATION_ELSEWHERE   /* tests/api builds it in a file of its own, under other flags */
#define DROPOUT_IMPLEMENTATION
#endif
#include "dropout.h"

/* ---- output ------------------------------------------------------------------------ */
#if defined(__wasm__)
__attribute__((import_module("env"), import_name("xd_write"))) void xd_write(const char *s, int n);
#elif defined(XD_SEMIHOSTING)
#include "xarch/cortex_m.h"   /* xd_semihost, and the start-up that runs main */
static void xd_write(const char *s, int n)
{
   char buf[128];
   int i;
   for (i = 0; i < n && i < 127; ++i) buf[i] = s[i];
   buf[i] = 0;
   xd_semihost(0x04, buf);   /* SYS_WRITE0 */
}
#else
#include <stdio.h>
static void xd_write(const char *s, int n) { fwrite(s, 1, (size_t)n, stdout); }
#endif

/* ---- hashing (FNV-1a 64 over little-endian bytes) ----------------------------------- */
static uint64_t h_group, h_total = 14695981039346656037ull;

static void eat8(uint8_t b)
{
   h_group = (h_group ^ b) * 1099511628211ull;
   h_total = (h_total ^ b) * 1099511628211ull;
}
static void eat64(uint64_t v) { int i; for (i = 0; i < 8; ++i) eat8((uint8_t)(v >> (8 * i))); }
static void eat32(uint32_t v) { int i; for (i = 0; i < 4; ++i) eat8((uint8_t)(v >> (8 * i))); }
static void eat16(uint16_t v) { eat8((uint8_t)v); eat8((uint8_t)(v >> 8)); }
static void eat_int(int v) { eat32((uint32_t)v); }
static uint32_t bits_f32(float f) { union { float f; uint32_t u; } v; v.f = f; return v.u; }
static uint64_t bits_f64(double d) { union { double d; uint64_t u; } v; v.d = d; return v.u; }
/* a float of given bits, stored byte by byte where it goes, never a float value in flight:
   on i386 a float returned by a function travels in x87's st(0), which quiets a signalling
   NaN, so at -O0 (nothing inlined) a helper returning one would have fed the library other
   inputs than -O2 does (C and C++: no compound literal) */
static void set_f32(float *f, uint32_t u)
{
   union { float f; uint32_t u; } v;
   const unsigned char *s = (const unsigned char *)&v;
   unsigned char *d = (unsigned char *)f;
   v.u = u;
   d[0] = s[0]; d[1] = s[1]; d[2] = s[2]; d[3] = s[3];
}
static void set_f64(double *f, uint64_t u)
{
   union { double f; uint64_t u; } v;
   const unsigned char *s = (const unsigned char *)&v;
   unsigned char *d = (unsigned char *)f;
   v.u = u;
   d[0] = s[0]; d[1] = s[1]; d[2] = s[2]; d[3] = s[3]; d[4] = s[4]; d[5] = s[5]; d[6] = s[6]; d[7] = s[7];
}

/* Plain dropout keeps NaN payloads exactly (SPEC 5-7); for the variants and the fused op
   a NaN result is a NaN, its payload the FPU's own (SPEC 11-12: RISC-V and GPUs return a
   canonical NaN, x86 and Arm pick between two NaN operands differently). any_nan = 1 hashes
   every NaN alike there. */
static int any_nan;
static void eat_f32(float f)
{
   uint32_t u = bits_f32(f);
   eat32(any_nan && (u & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FC00000u : u);
}
static void eat_f64(double d)
{
   uint64_t u = bits_f64(d);
   eat64(any_nan && (u & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull ? 0x7FF8000000000000ull : u);
}
static void eat_f32s(const float *a, size_t n) { size_t i; for (i = 0; i < n; ++i) eat_f32(a[i]); }
static void eat_f64s(const double *a, size_t n) { size_t i; for (i = 0; i < n; ++i) eat_f64(a[i]); }
static void eat_f16s(const uint16_t *a, size_t n)
{
   size_t i;
   for (i = 0; i < n; ++i) eat16(any_nan && (a[i] & 0x7FFFu) > 0x7C00u ? 0x7E00u : a[i]);
}
static void eat_bf16s(const uint16_t *a, size_t n)
{
   size_t i;
   for (i = 0; i < n; ++i) eat16(any_nan && (a[i] & 0x7FFFu) > 0x7F80u ? 0x7FC0u : a[i]);
}
static void eat_u8s(const uint8_t *a, size_t n) { size_t i; for (i = 0; i < n; ++i) eat8(a[i]); }

static void group_begin(void) { h_group = 14695981039346656037ull; }
static void print_hash(const char *name, uint64_t h)
{
   char line[64];
   int n = 0, i;
   while (*name) line[n++] = *name++;
   line[n++] = ' ';
   for (i = 60; i >= 0; i -= 4) line[n++] = "0123456789abcdef"[(h >> i) & 15u];
   line[n++] = '\n';
   xd_write(line, n);
}
static void group_end(const char *name) { print_hash(name, h_group); }

/* ---- inputs ------------------------------------------------------------------------- */
/* N: past the SIMD paths' 64-element minimum, not a multiple of any vector width */
enum { N = 1037, ROWS = 61, COLS = 17 };   /* ROWS * COLS = N */
static float xf[N], yf[N], rf[N];
static double xd[N], yd[N], rd[N];
static uint16_t xh[N], xb[N], yh[N], rh[N];
static uint8_t mask[N / 8 + 1], mask2[N / 8 + 1];
static uint32_t words[N];

/* NaN with a payload, -NaN, signalling NaN, infinities, signed zeros, subnormals, extremes */
static const uint32_t special_f32[] = {
   0x7FC12345u, 0xFFC00001u, 0x7F800123u, 0x7F800000u, 0xFF800000u, 0x00000000u, 0x80000000u,
   0x00000001u, 0x807FFFFFu, 0x00800000u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x3F800000u, 0x33800000u };
static const uint64_t special_f64[] = {
   0x7FF8000012345678ull, 0xFFF8000000000001ull, 0x7FF0000000000123ull, 0x7FF0000000000000ull,
   0xFFF0000000000000ull, 0ull, 0x8000000000000000ull, 1ull, 0x800FFFFFFFFFFFFFull,
   0x0010000000000000ull, 0x7FEFFFFFFFFFFFFFull, 0xFFEFFFFFFFFFFFFFull, 0x3FF0000000000000ull };
static const uint16_t special_u16[] = {
   0x7E01u, 0xFE00u, 0x7C01u, 0x7C00u, 0xFC00u, 0x0000u, 0x8000u, 0x0001u, 0x83FFu, 0x0400u,
   0x7BFFu, 0xFBFFu, 0x7F81u, 0x0080u };

static void make_inputs(void)
{
   size_t i;
   dropout_v0_fill_normal_f32(xf, N, 11, 12, 13);
   dropout_v0_fill_normal_f32(rf, N, 14, 15, 16);
   for (i = 0; i < N; ++i) {
      xd[i] = (double)xf[i] * 1.0000001;   /* a double that is no float */
      rd[i] = (double)rf[i];
      xh[i] = dropout_f32_to_f16(xf[i] * 3.0f);
      xb[i] = dropout_f32_to_bf16(xf[i] * 1e-3f);
      rh[i] = dropout_f32_to_f16(rf[i]);
   }
   /* specials spread over the array: in the reference head, in vector bodies, in the tail */
   for (i = 0; i < sizeof special_f32 / sizeof special_f32[0]; ++i) {
      size_t at = (i * 71u + 3u) % N;
      set_f32(&xf[at], special_f32[i]);
      xh[at] = special_u16[i];
      xb[at] = special_u16[(i + 5u) % (sizeof special_u16 / sizeof special_u16[0])];
   }
   for (i = 0; i < sizeof special_f64 / sizeof special_f64[0]; ++i) set_f64(&xd[(i * 73u + 5u) % N], special_f64[i]);
}

/* ---- groups ------------------------------------------------------------------------- */
static const double ps[] = {0.0, 1.0 / 512, 0.1, 0.37, 0.5, 0.9, 1.0 - 1.0 / 65536, 1.0};
static const int bitss[] = {8, 16, 32};
#define NP (sizeof ps / sizeof ps[0])
/* offsets: 0, odd, and the last positions before 2^64 */
static const uint64_t offs[] = {0u, 77u, 0xFFFFFFFFFFFFFFFFull - N + 1u};

static void g_rules(void)
{
   size_t i;
   int b;
   group_begin();
   for (b = 0; b < 3; ++b)
      for (i = 0; i <= 4096; ++i) {   /* p = i/4096 and just beside it */
         double p = (double)i / 4096.0;
         dropout_rule r = dropout_rule_make(p, bitss[b]);
         dropout_alpha_rule ar = dropout_alpha_rule_make(p, bitss[b]);
         eat64(r.threshold); eat64(bits_f64(r.scale_f64)); eat32(bits_f32(r.scale_f32));
         eat64(bits_f64(ar.a)); eat64(bits_f64(ar.c)); eat64(bits_f64(ar.drop));
         eat32(bits_f32(ar.a_f32)); eat32(bits_f32(ar.c_f32)); eat32(bits_f32(ar.drop_f32));
         if (i > 0 && i < 4096) {
            double q;
            set_f64(&q, bits_f64(p) + 1u);
            r = dropout_rule_make(q, bitss[b]); eat64(r.threshold); eat32(bits_f32(r.scale_f32));
            set_f64(&q, bits_f64(p) - 1u);
            r = dropout_rule_make(q, bitss[b]); eat64(r.threshold); eat32(bits_f32(r.scale_f32));
            eat32(bits_f32(dropout_gaussian_sigma(p)));
         }
      }
   group_end("rules");
}

static void g_stream(void)
{
   static const uint32_t ctr[4] = {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u};
   static const uint32_t key[2] = {0xa4093822u, 0x299f31d0u};
   uint32_t out[4];
   size_t i;
   group_begin();
   dropout_philox4x32_10(ctr, key, out);
   for (i = 0; i < 4; ++i) eat32(out[i]);
   for (i = 0; i < 3; ++i) {
      eat_int(dropout_v0_fill_u32(words, N, 0x0123456789ABCDEFull, 42, offs[i] + i)); /* i = 2: past 2^64 */
      eat32(dropout_v0_stream_u32(7, 8, offs[i]));
      if (i < 2) { size_t k; for (k = 0; k < N; ++k) eat32(words[k]); }
   }
   dropout_v0_fill_u32(words, N, 0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull, offs[2]);
   for (i = 0; i < N; ++i) eat32(words[i]);
   group_end("stream");

   group_begin();
   dropout_v0_fill_uniform_f32(yf, N, 3, 4, 5);      eat_f32s(yf, N);
   dropout_v0_fill_uniform_f32(yf, 37, 3, 4, offs[2]); eat_f32s(yf, 37);
   dropout_v0_fill_uniform_f64(yd, N, 3, 4, 5);      eat_f64s(yd, N);
   dropout_v0_fill_uniform_f64(yd, 37, 3, 4, 0x7FFFFFFFFFFFFFFFull - 37); eat_f64s(yd, 37);
   group_end("uniform");

   group_begin();
   dropout_v0_fill_normal_f32(yf, N, 3, 4, 5);       eat_f32s(yf, N);
   for (i = 0; i < 4000; ++i) eat32(bits_f32(dropout_normal_at(9, 9, i * 0x9E3779B97F4A7C15ull)));
   group_end("normal");
}

/* forward with and without the mask, both backwards, mask alone, apply_mask */
static void g_core(void)
{
   size_t k, o;
   int b;
   group_begin();
   for (k = 0; k < NP; ++k) for (b = 0; b < 3; ++b) for (o = 0; o < 3; ++o) {
      double p = ps[k];
      int bits = bitss[b];
      uint64_t off = offs[o];
      eat_int(dropout_v0_forward_f32(yf, mask, xf, N, p, bits, 5, 6, off)); eat_f32s(yf, N); eat_u8s(mask, sizeof mask);
      eat_int(dropout_v0_forward_f64(yd, NULL, xd, N, p, bits, 5, 6, off)); eat_f64s(yd, N);
      eat_int(dropout_v0_forward_f16(yh, mask2, xh, N, p, bits, 5, 6, off)); eat_f16s(yh, N); eat_u8s(mask2, sizeof mask2);
      eat_int(dropout_v0_forward_bf16(yh, NULL, xb, N, p, bits, 5, 6, off)); eat_bf16s(yh, N);
      eat_int(dropout_v0_forward_f32(yf, NULL, xf + 3, 50, p, bits, 5, 6, off + 1u)); eat_f32s(yf, 50);
   }
   group_end("forward");

   group_begin();
   for (k = 0; k < NP; ++k) for (b = 0; b < 3; ++b) {
      double p = ps[k];
      int bits = bitss[b];
      eat_int(dropout_v0_backward_f32(yf, xf, N, p, bits, 5, 6, 99)); eat_f32s(yf, N);
      eat_int(dropout_v0_backward_f64(yd, xd, N, p, bits, 5, 6, 99)); eat_f64s(yd, N);
      eat_int(dropout_v0_backward_f16(yh, xh, N, p, bits, 5, 6, 99)); eat_f16s(yh, N);
      eat_int(dropout_v0_backward_bf16(yh, xb, N, p, bits, 5, 6, 99)); eat_bf16s(yh, N);
   }
   group_end("backward");

   group_begin();
   for (k = 0; k < NP; ++k) for (b = 0; b < 3; ++b) {
      double p = ps[k];
      int bits = bitss[b];
      eat_int(dropout_v0_mask(mask, N, p, bits, 5, 6, 1234567)); eat_u8s(mask, sizeof mask);
      eat_int(dropout_v0_apply_mask_f32(yf, xf, mask, N, p, bits)); eat_f32s(yf, N);
      eat_int(dropout_v0_apply_mask_f64(yd, xd, mask, N, p, bits)); eat_f64s(yd, N);
      eat_int(dropout_v0_apply_mask_f16(yh, xh, mask, N, p, bits)); eat_f16s(yh, N);
      eat_int(dropout_v0_apply_mask_bf16(yh, xb, mask, N, p, bits)); eat_bf16s(yh, N);
      eat_int(dropout_backward_mask_f32(yf, xf, mask, N, p, bits)); eat_f32s(yf, N);
      eat_int(dropout_backward_mask_bf16(yh, xb, mask, N, p, bits)); eat_bf16s(yh, N);
   }
   /* in place (p = 0 is the copy; a plain loop here would become a memcpy call) */
   eat_int(dropout_v0_forward_f32(yf, NULL, xf, N, 0.0, 8, 1, 2, 3));
   eat_int(dropout_v0_forward_f32(yf, NULL, yf, N, 0.3, 16, 1, 2, 3)); eat_f32s(yf, N);
   group_end("mask");
}

static void g_variants(void)
{
   /* (61, 17) as (1, 61, 1, 17): channel-like masks, and every dim broadcast but one */
   static const unsigned bcasts[] = {0x0u, 0x8u, 0x2u, 0xAu};
   dropout_shape s;
   size_t k, i;
   int b;
   s.rank = 4; s.dim[0] = 1; s.dim[1] = ROWS; s.dim[2] = 1; s.dim[3] = COLS;
   for (i = 4; i < DROPOUT_MAX_RANK; ++i) s.dim[i] = 0;
   group_begin();
   for (k = 0; k < NP; ++k) for (b = 0; b < 3; ++b) for (i = 0; i < 4; ++i) {
      double p = ps[k];
      int bits = bitss[b];
      s.broadcast = bcasts[i];
      eat_int(dropout_bcast_forward_f32(yf, mask, xf, &s, p, bits, 5, 6, 7)); eat_f32s(yf, N); eat_u8s(mask, sizeof mask);
      eat_int(dropout_bcast_forward_f64(yd, NULL, xd, &s, p, bits, 5, 6, 7)); eat_f64s(yd, N);
      eat_int(dropout_bcast_forward_f16(yh, NULL, xh, &s, p, bits, 5, 6, 7)); eat_f16s(yh, N);
      eat_int(dropout_bcast_backward_bf16(yh, xb, &s, p, bits, 5, 6, 7)); eat_bf16s(yh, N);
      eat_int(dropout_bcast_backward_f64(yd, xd, &s, p, bits, 5, 6, 7)); eat_f64s(yd, N);
   }
   group_end("bcast");

   any_nan = 1;   /* alpha, Gaussian, noise and the fused op: NaN payloads are the FPU's */
   group_begin();
   s.broadcast = 0x2u;
   for (k = 0; k < NP; ++k) for (b = 0; b < 3; ++b) {
      double p = ps[k];
      int bits = bitss[b];
      eat_int(dropout_alpha_forward_f32(yf, mask, xf, &s, p, bits, 5, 6, 7)); eat_f32s(yf, N); eat_u8s(mask, sizeof mask);
      eat_int(dropout_alpha_forward_f64(yd, NULL, xd, &s, p, bits, 5, 6, 7)); eat_f64s(yd, N);
      eat_int(dropout_alpha_forward_f16(yh, NULL, xh, &s, p, bits, 5, 6, 7)); eat_f16s(yh, N);
      eat_int(dropout_alpha_forward_bf16(yh, NULL, xb, &s, p, bits, 5, 6, 7)); eat_bf16s(yh, N);
      eat_int(dropout_alpha_backward_f32(yf, xf, &s, p, bits, 5, 6, 7)); eat_f32s(yf, N);
      eat_int(dropout_alpha_backward_f64(yd, xd, &s, p, bits, 5, 6, 7)); eat_f64s(yd, N);
      eat_int(dropout_alpha_backward_f16(yh, xh, &s, p, bits, 5, 6, 7)); eat_f16s(yh, N);
      eat_int(dropout_alpha_backward_bf16(yh, xb, &s, p, bits, 5, 6, 7)); eat_bf16s(yh, N);
   }
   group_end("alpha");

   group_begin();
   for (k = 0; k < NP; ++k) {
      double p = ps[k];   /* p = 1 is an error for Gaussian dropout: the code is hashed */
      eat_int(dropout_gaussian_forward_f32(yf, xf, N, p, 5, 6, 7)); eat_f32s(yf, N);
      eat_int(dropout_gaussian_forward_f64(yd, xd, N, p, 5, 6, 7)); eat_f64s(yd, N);
      eat_int(dropout_gaussian_forward_f16(yh, xh, N, p, 5, 6, 7)); eat_f16s(yh, N);
      eat_int(dropout_gaussian_forward_bf16(yh, xb, N, p, 5, 6, 7)); eat_bf16s(yh, N);
      eat_int(dropout_gaussian_backward_f32(yf, xf, N, p, 5, 6, 7)); eat_f32s(yf, N);
      eat_int(dropout_gaussian_backward_f64(yd, xd, N, p, 5, 6, 7)); eat_f64s(yd, N);
      eat_int(dropout_gaussian_backward_f16(yh, xh, N, p, 5, 6, 7)); eat_f16s(yh, N);
      eat_int(dropout_gaussian_backward_bf16(yh, xb, N, p, 5, 6, 7)); eat_bf16s(yh, N);
      eat_int(dropout_noise_forward_f32(yf, xf, N, p * 3, 5, 6, 7)); eat_f32s(yf, N);
      eat_int(dropout_noise_forward_f64(yd, xd, N, p * 3, 5, 6, 7)); eat_f64s(yd, N);
      eat_int(dropout_noise_forward_f16(yh, xh, N, p * 3, 5, 6, 7)); eat_f16s(yh, N);
      eat_int(dropout_noise_forward_bf16(yh, xb, N, p * 3, 5, 6, 7)); eat_bf16s(yh, N);
   }
   group_end("gaussian");
}

static void g_fused(void)
{
   size_t k;
   int b;
   group_begin();
   for (k = 0; k < NP; ++k) for (b = 0; b < 3; ++b) {
      double p = ps[k];
      int bits = bitss[b];
      eat_int(dropout_v0_bias_dropout_add_f32(yf, mask, xf, xf + 100, rf, ROWS, COLS, p, bits, 5, 6, 7));
      eat_f32s(yf, N); eat_u8s(mask, sizeof mask);
      eat_int(dropout_v0_bias_dropout_add_f64(yd, NULL, xd, xd + 100, rd, ROWS, COLS, p, bits, 5, 6, 7)); eat_f64s(yd, N);
      eat_int(dropout_v0_bias_dropout_add_f16(yh, NULL, xh, xh + 100, rh, ROWS, COLS, p, bits, 5, 6, 7)); eat_f16s(yh, N);
      eat_int(dropout_v0_bias_dropout_add_bf16(yh, NULL, xb, xb + 100, rh, ROWS, COLS, p, bits, 5, 6, 7)); eat_bf16s(yh, N);
   }
   for (k = 0; k < 20000; ++k) {   /* the software fma on awkward operands */
      float a, c;
      set_f32(&a, (uint32_t)(k * 2654435761u));
      set_f32(&c, (uint32_t)(k * 40503u + 0x3F000000u));
      eat_f32(dropout_fmaf(a, 1.0f + (float)k * 9.5367431640625e-07f, c));
      eat_f32(dropout_fmaf(a, -a, a * a));
   }
   group_end("fused");
   any_nan = 0;
}

static void g_errors(void)
{
   dropout_v0_gen g = dropout_v0_gen_make(1, 2);
   uint64_t off = 0;
   double nan_p;
   group_begin();
   set_f64(&nan_p, 0x7FF8000000000000ull);
   eat_int(dropout_v0_forward_f32(yf, NULL, xf, N, nan_p, 8, 1, 2, 3));
   eat_int(dropout_v0_forward_f32(yf, NULL, xf, N, 1.0000000000000002, 8, 1, 2, 3));
   eat_int(dropout_v0_forward_f32(yf, NULL, xf, N, -0.0, 8, 1, 2, 3)); eat_f32s(yf, N);
   eat_int(dropout_v0_forward_f32(yf, NULL, xf, N, 0.5, 12, 1, 2, 3));
   eat_int(dropout_v0_forward_f32(NULL, NULL, xf, N, 0.5, 8, 1, 2, 3));
   eat_int(dropout_v0_forward_f32(yf, NULL, xf, N, 0.5, 8, 1, 2, 0xFFFFFFFFFFFFFFFFull));
   eat_int(dropout_gen_next(&g, 10, &off)); eat64(off); eat64(g.offset);
   g.offset = 0xFFFFFFFFFFFFFFF0ull;
   eat_int(dropout_gen_next(&g, 100, &off));
   eat_int(dropout_check_args(0.5, 8, N, 0));
   group_end("errors");
}

int main(void)
{
   make_inputs();
   g_rules();
   g_stream();
   g_core();
   g_variants();
   g_fused();
   g_errors();
   print_hash("total", h_total);
   return 0;
}
