/* test_fused.c - the fused bias-dropout-residual op on the CPU, and the software fmaf
   behind it.

   dropout_fmaf must be the correctly rounded fmaf, bit for bit, because the GPU computes
   the same op with its fma instruction. The oracle is the host's own hardware fma
   (x86 FMA3 or an FMA-capable target, reached through __builtin_fmaf so that the test
   needs no -lm); without one the fmaf cases print SKIP. NaN results are compared as
   "both NaN": payload propagation is a property of each FPU, not of the rounding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DROPOUT_V0_API   /* written against the 0.1.0 calls: they must keep giving the same bits */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

/* ---- the oracle ----------------------------------------------------------------- */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
__attribute__((target("fma"))) static float hw_fmaf(float a, float b, float c)
{
   return __builtin_fmaf(a, b, c);
}
static int have_hw_fma(void)
{
   __builtin_cpu_init();
   return __builtin_cpu_supports("fma");
}
#elif defined(__GNUC__) && defined(__FP_FAST_FMAF)
static float hw_fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
static int have_hw_fma(void) { return 1; }
#else
static float hw_fmaf(float a, float b, float c) { (void)b; (void)c; return a; }
static int have_hw_fma(void) { return 0; }
#endif

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static int is_nan(float f) { return (f2u(f) & 0x7FFFFFFFu) > 0x7F800000u; }

/* equal bit for bit, or both NaN */
static int same(float a, float b) { return f2u(a) == f2u(b) || (is_nan(a) && is_nan(b)); }

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rnd(void)   /* splitmix64 */
{
   uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
   z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
   return z ^ (z >> 31);
}
static uint32_t rnd32(void) { return (uint32_t)(rnd() >> 32); }

/* a float m * 2^e with a random integer m, |m| < 2^bits, built exactly */
static float scaled(unsigned bits, int e)
{
   float f = (float)(rnd32() >> (32u - bits));
   for (; e > 0; --e) f *= 2.0f;
   for (; e < 0; ++e) f *= 0.5f;
   return (rnd() & 1u) ? -f : f;
}

static long fmaf_failures;
static char first_bad[200];
static void check_one(float a, float b, float c)
{
   float got = dropout_fmaf(a, b, c), want = hw_fmaf(a, b, c);
   if (!same(got, want) && fmaf_failures++ == 0)
      snprintf(first_bad, sizeof first_bad, "fmaf(%a, %a, %a) = %a, hardware %a",
               (double)a, (double)b, (double)c, (double)got, (double)want);
}
static void end_fmaf_case(const char *name)
{
   CHECK(fmaf_failures == 0, "%ld mismatches, first: %s", fmaf_failures, first_bad);
   fmaf_failures = 0;
   case_end(name);
}

/* Is a*b + c (exact in double here) a tie between two floats? */
static int is_tie(float a, float b, float c)
{
   double p = (double)a * b, s = p + c;
   float f;
   uint32_t u;
   double other;
   if (s - p != (double)c || s - (double)c != p) return 0;   /* the double sum was inexact */
   f = (float)s;
   if ((double)f == s || !(s - s == 0.0)) return 0;
   u = f2u(f);
   other = (double)u2f(((double)f < s) == (f > 0.0f) ? u + 1u : u - 1u);
   return (double)f + (other - (double)f) / 2 == s;
}

static void test_fmaf(void)
{
   static const float special[] = { 0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 3.0f, 1e-45f, -1e-45f,
      1.17549435e-38f, 3.40282347e38f, -3.40282347e38f, 1.0f / 0.0f, -1.0f / 0.0f,
      0.0f / 0.0f, 2.0f, 1.00000012f, 0.99999994f };
   const int ns = (int)(sizeof special / sizeof special[0]);
   long i, ties = 0;
   int ia, ib, ic;
   if (!have_hw_fma()) {
      case_skip("fmaf random bits", "no hardware fma on this host to compare with");
      case_skip("fmaf ties", "no hardware fma");
      case_skip("fmaf double-rounding traps", "no hardware fma");
      case_skip("fmaf cancellation", "no hardware fma");
      case_skip("fmaf subnormal", "no hardware fma");
      case_skip("fmaf overflow", "no hardware fma");
      case_skip("fmaf special values", "no hardware fma");
      return;
   }
   /* every bit pattern is equally likely: NaN, Inf, subnormals, huge exponent gaps */
   for (i = 0; i < 2000000; ++i) check_one(u2f(rnd32()), u2f(rnd32()), u2f(rnd32()));
   end_fmaf_case("fmaf random bits");

   /* short mantissas, nearby exponents: the exact sum has 25..27 bits, so many land on
      exact midpoints between floats (counted below: the case proves it met ties) */
   for (i = 0; i < 1000000; ++i) {
      int e = (int)(rnd() % 8u);
      float a = scaled(12, -6), b = scaled(13, -6 + e), c = scaled(24, (int)(rnd() % 6u) - 3);
      ties += is_tie(a, b, c);
      check_one(a, b, c);
   }
   CHECK(ties > 10000, "only %ld exact ties met", ties);
   end_fmaf_case("fmaf ties");

   /* double-rounding traps: a*b is an exact midpoint between two floats (an odd integer
      in [2^24, 2^25), scaled) and c is far below half an ulp of the double sum, so a
      plain double sum would round back onto the midpoint and then to even: wrong */
   for (i = 0; i < 1000000; ++i) {
      uint32_t ma = (uint32_t)(4096u + rnd() % 4096u) | 1u;
      uint32_t lo = (16777216u + ma - 1u) / ma, hi = 33554431u / ma;
      uint32_t mb = (lo + (uint32_t)(rnd() % (hi - lo + 1u))) | 1u;
      int e = (int)(rnd() % 200u) - 100;
      float a, b, c;
      if ((uint64_t)ma * mb >= 33554432u) mb -= 2u;
      a = scaled(1, 0) < 0 ? -(float)ma : (float)ma;
      b = (float)mb;
      c = u2f((rnd32() & 0x80000000u) | (uint32_t)(rnd() % 80u) << 23 | (rnd32() & 0x7FFFFFu));
      c = c * 2.0f == c ? 0.0f : c;   /* exponent 0..79: subnormal or tiny (< 2^-48) */
      for (; e > 0; --e) { a *= 2.0f; c *= 2.0f; }
      for (; e < 0; ++e) { a *= 0.5f; c *= 0.5f; }
      check_one(a, b, c);
   }
   end_fmaf_case("fmaf double-rounding traps");

   /* c = -round(a*b) (+- a few ulp): the result is the tiny rounding error of a*b */
   for (i = 0; i < 1000000; ++i) {
      float a = u2f((rnd32() & 0x807FFFFFu) | (uint32_t)(100u + rnd() % 60u) << 23);
      float b = u2f((rnd32() & 0x807FFFFFu) | (uint32_t)(100u + rnd() % 60u) << 23);
      float r = a * b;
      check_one(a, b, u2f(f2u(-r) + (uint32_t)(rnd() % 5u) - 2u));
   }
   end_fmaf_case("fmaf cancellation");

   /* products and sums in the subnormal range, where float has fewer than 24 bits */
   for (i = 0; i < 500000; ++i) {
      float a = scaled(24, -70 - (int)(rnd() % 10u)), b = scaled(24, -70 - (int)(rnd() % 10u));
      float c = (rnd() & 1u) ? u2f(rnd32() & 0x807FFFFFu) : scaled(24, -150 + (int)(rnd() % 30u));
      check_one(a, b, c);
   }
   end_fmaf_case("fmaf subnormal");

   /* results near FLT_MAX: round to the largest float or overflow to Inf */
   for (i = 0; i < 500000; ++i) {
      float a = u2f((rnd32() & 0x807FFFFFu) | (uint32_t)(190u + rnd() % 5u) << 23);
      float b = u2f((rnd32() & 0x807FFFFFu) | (uint32_t)(254u + 127u - (190u + rnd() % 5u)) << 23);
      float c = u2f((rnd32() & 0x807FFFFFu) | (uint32_t)(250u + rnd() % 5u) << 23);
      check_one(a, b, c);
   }
   end_fmaf_case("fmaf overflow");

   for (ia = 0; ia < ns; ++ia)
      for (ib = 0; ib < ns; ++ib)
         for (ic = 0; ic < ns; ++ic) check_one(special[ia], special[ib], special[ic]);
   end_fmaf_case("fmaf special values");
}

/* ---- the fused op ------------------------------------------------------------------ */

static int keep_at(uint64_t seed, uint64_t stream, uint64_t q, dropout_rule r)
{
   unsigned per = 128u / (unsigned)r.bits;
   uint32_t w[4];
   dropout_block(seed, stream, q / per, w);
   return dropout_keep(dropout_draw(w, r.bits, (unsigned)(q % per)), r);
}

/* the fma used to state what the fused op must give: hardware where there is one */
static float ref_fmaf(float a, float b, float c)
{
   return have_hw_fma() ? hw_fmaf(a, b, c) : dropout_fmaf(a, b, c);
}

enum { ROWS = 7, COLS = 37, N = ROWS * COLS };

static void test_fused_f32(void)
{
   static float x[N], res[N], y[N], y2[N], bias[COLS];
   static uint8_t mask[(N + 7) / 8 + 1];
   static const double ps[] = { 0.0, 0.1, 0.5, 0.9, 1.0 };
   static const int bitss[] = { 8, 16, 32 };
   const uint64_t offsets[] = { 0, 5, 0xFFFFFFFFFFFFFFFFu - N + 1 };
   int ip, ib, io, i, row, kept = 0;
   for (i = 0; i < N; ++i) { x[i] = scaled(24, -24); res[i] = scaled(24, -22); }
   for (i = 0; i < COLS; ++i) bias[i] = scaled(20, -20);
   res[3] = u2f(0x7FC01234u);      /* a NaN residual must pass a dropped slot unchanged */
   res[4] = -0.0f;
   for (ip = 0; ip < 5; ++ip)
      for (ib = 0; ib < 3; ++ib)
         for (io = 0; io < 3; ++io) {
            dropout_rule r = dropout_rule_make(ps[ip], bitss[ib]);
            uint64_t off = offsets[io];
            int rc;
            mask[N / 8] = 0xFF;
            rc = dropout_v0_bias_dropout_add_f32(y, mask, x, bias, res, ROWS, COLS, ps[ip], bitss[ib], 42, 3, off);
            CHECK(rc == 0, "rc %d", rc);
            CHECK(mask[N / 8] >> (N % 8) == 0, "mask bits past n must be 0");
            for (i = 0; i < N; ++i) {
               int k = keep_at(42, 3, off + (uint64_t)i, r);
               float want = k ? ref_fmaf(x[i] + bias[i % COLS], r.scale_f32, res[i]) : res[i];
               kept += k;
               CHECK(f2u(y[i]) == f2u(want) || (k && is_nan(want) && is_nan(y[i])),
                     "p %g bits %d off %llu: y[%d] = %a, want %a", ps[ip], bitss[ib],
                     (unsigned long long)off, i, (double)y[i], (double)want);
               CHECK(((mask[i / 8] >> (i % 8)) & 1) == k, "mask bit %d", i);
            }
            /* row by row with offset + row * cols: the same result (chunking) */
            for (row = 0; row < ROWS; ++row)
               dropout_v0_bias_dropout_add_f32(y2 + row * COLS, NULL, x + row * COLS, bias,
                                            res + row * COLS, 1, COLS, ps[ip], bitss[ib], 42, 3,
                                            off + (uint64_t)(row * COLS));
            CHECK(memcmp(y, y2, sizeof y) == 0, "row-by-row calls differ from one call");
            /* in place over the residual */
            memcpy(y2, res, sizeof y2);
            dropout_v0_bias_dropout_add_f32(y2, NULL, x, bias, y2, ROWS, COLS, ps[ip], bitss[ib], 42, 3, off);
            CHECK(memcmp(y, y2, sizeof y) == 0, "in place (y == residual) differs");
         }
   CHECK(kept > 0, "nothing kept at all");
   case_end("fused f32: formula, mask, chunking, in place");
}

static void test_fused_half(void)
{
   static uint16_t x[N], res[N], y[N], bias[COLS];
   int fmt, ip, i;
   for (fmt = 0; fmt < 2; ++fmt)
      for (ip = 0; ip < 3; ++ip) {
         double p = ip == 0 ? 0.0 : ip == 1 ? 0.3 : 1.0;
         dropout_rule r = dropout_rule_make(p, 16);
         for (i = 0; i < N; ++i) { x[i] = (uint16_t)rnd32(); res[i] = (uint16_t)rnd32(); }
         for (i = 0; i < COLS; ++i) bias[i] = (uint16_t)rnd32();
         if (fmt == 0) dropout_v0_bias_dropout_add_f16(y, NULL, x, bias, res, ROWS, COLS, p, 16, 7, 0, 11);
         else dropout_v0_bias_dropout_add_bf16(y, NULL, x, bias, res, ROWS, COLS, p, 16, 7, 0, 11);
         for (i = 0; i < N; ++i) {
            int k = keep_at(7, 0, 11 + (uint64_t)i, r);
            uint16_t want;
            if (!k) want = res[i];
            else if (fmt == 0)
               want = dropout_f32_to_f16(ref_fmaf(dropout_f16_to_f32(x[i]) + dropout_f16_to_f32(bias[i % COLS]), r.scale_f32, dropout_f16_to_f32(res[i])));
            else
               want = dropout_f32_to_bf16(ref_fmaf(dropout_bf16_to_f32(x[i]) + dropout_bf16_to_f32(bias[i % COLS]), r.scale_f32, dropout_bf16_to_f32(res[i])));
            /* random bit patterns include NaNs: compare those as NaN */
            CHECK(y[i] == want || (k && (fmt == 0 ? is_nan(dropout_f16_to_f32(want)) && is_nan(dropout_f16_to_f32(y[i]))
                                                   : is_nan(dropout_bf16_to_f32(want)) && is_nan(dropout_bf16_to_f32(y[i])))),
                  "%s p %g: y[%d] = %04x, want %04x", fmt ? "bf16" : "f16", p, i, y[i], want);
         }
      }
   case_end("fused f16 and bf16: widen, fma rounded to float, then to the dtype");
}

/* Known answers where the spec's two roundings (the fma to float, then to f16/bf16) and
   one rounding of the exact value differ: the float result is a tie between two 16-bit
   values. Found by an oracle written from docs/SPEC.md alone, whose other reading gave the
   second value; so is the accumulating backward's, where g is rounded to f16 before the
   sum (SPEC sections 7 and 12). */
static void test_half_known_answers(void)
{
   static const struct { int bf16; uint64_t seed, stream, pos; double p; int bits; size_t j;
                         uint16_t x, bias, res, want, once; } k[2] = {
      /* f16: fma in float 0x40609000 (3.509033203125), a tie of f16 0x4304 and 0x4305 */
      { 0, 13303870761734182695u, 0, 8589934585u, 0.25, 8, 21, 0x3832, 0x3997, 0x3f83, 0x4304, 0x4305 },
      { 1, 4594917411287914647u, 3, 18446744073709551592u, 0.2, 32, 0, 0xd12e, 0x0000, 0x151d, 0xd15a, 0xd159 } };
   int c;
   for (c = 0; c < 2; ++c) {
      uint16_t x[32], bias[1], res[32], y[32];
      dropout_rule r;
      dropout_plan plan;
      size_t n = k[c].j + 1, i;
      int rc = dropout_rule_init_quantised(&r, k[c].p, (dropout_bits)k[c].bits);
      if (!rc) rc = dropout_plan_at(&plan, &r, dropout_key_make(k[c].seed, k[c].stream), dropout_pos_make(k[c].pos), n);
      for (i = 0; i < n; ++i) { x[i] = k[c].x; res[i] = k[c].res; }
      bias[0] = k[c].bias;
      if (!rc) rc = k[c].bf16 ? dropout_bias_dropout_add_replay_bf16(&plan, n, 1, (dropout_bf16 *)y, NULL, (const dropout_bf16 *)x, (const dropout_bf16 *)bias, (const dropout_bf16 *)res)
                              : dropout_bias_dropout_add_replay_f16(&plan, n, 1, (dropout_f16 *)y, NULL, (const dropout_f16 *)x, (const dropout_f16 *)bias, (const dropout_f16 *)res);
      CHECK(rc == 0 && y[k[c].j] == k[c].want, "%s: rc %d, y = %04x, want %04x (rounded once: %04x)",
            k[c].bf16 ? "bf16" : "f16", rc, y[k[c].j], k[c].want, k[c].once);
   }
   {  /* the accumulating backward: dx = f16(f32(dx) + f32(g)), g = the backward's f16 result
         (0x5413), not the float product (the sum would then be 0x4f54) */
      dropout_rule r;
      dropout_plan plan;
      dropout_desc d;
      dropout_tensors t = { NULL, NULL, NULL, NULL, NULL };
      uint16_t dy = 0x5353, dx = 0xd07d;
      int rc = dropout_rule_init_quantised(&r, 0.1, DROPOUT_BITS_8);
      if (!rc) rc = dropout_plan_at(&plan, &r, dropout_key_make(6796992455879425333u, 4308117982888279387u), dropout_pos_make(8589934579u), 1);
      if (!rc) rc = dropout_desc_init(&d, DROPOUT_OP_BACKWARD, DROPOUT_DTYPE_F16, &plan);
      if (!rc) rc = dropout_desc_set_grad(&d, DROPOUT_GRAD_ACCUMULATE);
      t.out = &dx; t.in = &dy;
      if (!rc) rc = dropout_run(&d, &t);
      CHECK(rc == 0 && dx == 0x4f52, "accumulating f16 backward: rc %d, dx = %04x, want 4f52 (g unrounded: 4f54)", rc, dx);
   }
   case_end("f16 and bf16 known answers at ties: the fused op rounds to float then the dtype; an accumulated g is the dtype's");
}

static void test_fused_errors(void)
{
   float v[4] = { 0 };
   uint8_t m[1] = { 0xAB };
   CHECK(dropout_v0_bias_dropout_add_f32(v, m, v, v, v, (size_t)-1 / 2, 3, 0.5, 8, 1, 0, 0) == DROPOUT_ERR_ARG, "rows * cols overflow");
   CHECK(dropout_v0_bias_dropout_add_f32(v, m, v, NULL, v, 2, 2, 0.5, 8, 1, 0, 0) == DROPOUT_ERR_NULL, "NULL bias");
   CHECK(dropout_v0_bias_dropout_add_f32(v, m, v, v, NULL, 2, 2, 0.5, 8, 1, 0, 0) == DROPOUT_ERR_NULL, "NULL residual");
   CHECK(dropout_v0_bias_dropout_add_f32(v, m, v, v, v, 2, 2, 1.5, 8, 1, 0, 0) == DROPOUT_ERR_P, "p > 1");
   CHECK(dropout_v0_bias_dropout_add_f32(v, m, v, v, v, 2, 2, 0.5, 7, 1, 0, 0) == DROPOUT_ERR_BITS, "bits 7");
   CHECK(dropout_v0_bias_dropout_add_f32(v, m, v, v, v, 2, 2, 0.5, 8, 1, 0, 0xFFFFFFFFFFFFFFFDu) == DROPOUT_ERR_RANGE, "range");
   CHECK(dropout_v0_bias_dropout_add_f32(NULL, NULL, NULL, NULL, NULL, 0, 5, 0.5, 8, 1, 0, 0) == 0, "n = 0 needs no pointers");
   CHECK(m[0] == 0xAB && v[0] == 0.0f, "an error wrote something");
   case_end("fused errors: validated before writing");
}

int main(void)
{
   test_fmaf();
   test_fused_f32();
   test_fused_half();
   test_half_known_answers();
   test_fused_errors();
   return check_exit();
}
