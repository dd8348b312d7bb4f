/* Variants against libm and long double (built by tests/variants/suite.sh with -lm; the
   library itself never uses libm):
   - dropout__sqrt_f64 within 1 ulp of sqrtl over 2^18 inputs spanning all binades;
   - the alpha constants a, c within 2 ulp of the long double formula;
   - the normals within a stated absolute error of long double Box-Muller of the same
     words, over 2^22 pairs;
   - the distribution of 2^22 normals: mean, variance, skew, excess kurtosis within 5 sd
     of N(0,1), and the Kolmogorov-Smirnov statistic sqrt(n) D < 1.95 (a true N(0,1)
     exceeds it with probability 0.001). */
#define DROPOUT_V0_API   /* written against the 0.1.0 calls: they must keep giving the same bits */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double ulp_of(double x)
{
   return nextafter(fabs(x), INFINITY) - fabs(x);
}

static void test_sqrt(void)
{
   uint64_t s = 88172645463325252ull;
   int i;
   double worst = 0;
   for (i = 0; i < (1 << 18); ++i) {
      double x, y;
      long double ref;
      uint64_t u;
      s ^= s << 13; s ^= s >> 7; s ^= s << 17;                 /* xorshift64 */
      u = s & 0x7FFFFFFFFFFFFFFFull;
      if ((u >> 52) == 0x7FF) u &= 0x3FFFFFFFFFFFFFFFull;       /* finite only */
      memcpy(&x, &u, 8);
      y = dropout__sqrt_f64(x);
      ref = sqrtl((long double)x);
      if (x == 0.0) { CHECK(y == 0.0, "sqrt(0) = %g", y); continue; }
      {
         double e = (double)fabsl((long double)y - ref) / ulp_of((double)ref);
         if (e > worst) worst = e;
         CHECK(e <= 1.0, "sqrt(%.17g) = %.17g, %.3f ulp off", x, y, e);
      }
   }
   printf("    sqrt: worst %.3f ulp over 2^18 inputs\n", worst);
   CHECK(dropout__sqrt_f64(-1.0) == 0.0 && dropout__sqrt_f64(INFINITY) == INFINITY, "sqrt specials");
   case_end("dropout__sqrt_f64 within 1 ulp of sqrtl");
}

static void test_alpha_constants(void)
{
   static const double ps[] = {0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 0.99, 0.999};
   static const int bitss[] = {8, 16, 32};
   size_t i, b;
   double worst_a = 0, worst_c = 0;
   for (b = 0; b < 3; ++b)
      for (i = 0; i < sizeof ps / sizeof ps[0]; ++i) {
         dropout_alpha_rule r = dropout_alpha_rule_make(ps[i], bitss[b]);
         if (r.base.scale_f64 == 0.0) continue;       /* all dropped: no a */
         long double P = (long double)r.base.threshold / ldexpl(1.0L, bitss[b]);
         long double al = -1.7580993408473766L;
         long double a = 1.0L / sqrtl((1 - P) * (1 + P * al * al)), c = -al * P;
         double ea = (double)fabsl((long double)r.a - a) / ulp_of((double)a);
         double ec = (double)fabsl((long double)r.c - c) / ulp_of((double)c);
         if (ea > worst_a) worst_a = ea;
         if (ec > worst_c) worst_c = ec;
         CHECK(ea <= 2.0 && ec <= 2.0, "p %g bits %d: a off %.2f ulp, c off %.2f ulp", ps[i], bitss[b], ea, ec);
      }
   printf("    alpha constants: a worst %.3f ulp, c worst %.3f ulp\n", worst_a, worst_c);
   case_end("alpha constants a, c within 2 ulp of long double");
}

static int cmp_float(const void *a, const void *b)
{
   float x = *(const float *)a, y = *(const float *)b;
   return (x > y) - (x < y);
}

enum { NPAIRS = 1 << 21, NZ = 2 * NPAIRS };
static float z[NZ];

static void test_normals(void)
{
   uint32_t w[4];
   size_t i, j;
   double worst = 0, worst_rel = 0;
   long double two_pi = 6.283185307179586476925286766559L;
   const double bound = 1.5e-6;                 /* absolute, |z| <= 6.67 */
   dropout_v0_fill_normal_f32(z, NZ, 2024, 3, 0);
   for (i = 0; i < NZ / 4; ++i) {
      dropout_block(2024, 3, i, w);
      for (j = 0; j < 4; ++j) {
         uint32_t w0 = w[j & 2u], w1 = w[(j & 2u) + 1];
         long double u = ((long double)w0 + 1) / 4294967296.0L, v = (long double)w1 / 4294967296.0L;
         long double r = sqrtl(-2 * logl(u));
         long double ref = (j & 1) ? r * sinl(two_pi * v) : r * cosl(two_pi * v);
         double e = (double)fabsl((long double)z[4 * i + j] - ref);
         double rel = e / (fabs((double)ref) > 1e-3 ? fabs((double)ref) : 1e-3);
         if (e > worst) worst = e;
         if (rel > worst_rel) worst_rel = rel;
         CHECK(e <= bound, "normal %zu: %.9g, reference %.12Lg", 4 * i + j, (double)z[4 * i + j], ref);
      }
   }
   printf("    normals: worst absolute error %.3g, worst relative %.3g (|z| > 1e-3) over 2^22\n", worst, worst_rel);
   case_end("normals within 1.5e-6 of long double Box-Muller");
}

/* Sample moments of z (2^22 normals) against N(0,1); standard deviations of the estimators
   for n = 2^22: mean 1/sqrt(n) = 4.9e-4, variance sqrt(2/n) = 6.9e-4, skew sqrt(6/n) =
   1.2e-3, excess kurtosis sqrt(24/n) = 2.4e-3; bounds at 5 sd. */
static void test_distribution(void)
{
   double s1 = 0, s2 = 0, s3 = 0, s4 = 0, n = NZ, m, v, sk, ku, d = 0;
   size_t i;
   for (i = 0; i < NZ; ++i) s1 += z[i];
   m = s1 / n;
   for (i = 0; i < NZ; ++i) {
      double t = z[i] - m, t2 = t * t;
      s2 += t2; s3 += t2 * t; s4 += t2 * t2;
   }
   v = s2 / n; sk = s3 / n / pow(v, 1.5); ku = s4 / n / (v * v) - 3;
   printf("    2^22 normals: mean %.2e, variance %.6f, skew %.2e, excess kurtosis %.2e\n", m, v, sk, ku);
   CHECK(fabs(m) < 5 * 4.9e-4, "mean %g", m);
   CHECK(fabs(v - 1) < 5 * 6.9e-4, "variance %g", v);
   CHECK(fabs(sk) < 5 * 1.2e-3, "skew %g", sk);
   CHECK(fabs(ku) < 5 * 2.4e-3, "excess kurtosis %g", ku);
   qsort(z, NZ, sizeof z[0], cmp_float);
   for (i = 0; i < NZ; ++i) {
      double F = 0.5 * erfc(-(double)z[i] / sqrt(2.0));
      double lo = F - (double)i / n, hi = (double)(i + 1) / n - F;
      if (lo > d) d = lo;
      if (hi > d) d = hi;
   }
   printf("    Kolmogorov-Smirnov: D = %.3g, sqrt(n) D = %.3f (bound 1.95)\n", d, sqrt(n) * d);
   CHECK(sqrt(n) * d < 1.95, "sqrt(n) D = %g", sqrt(n) * d);
   case_end("2^22 normals: moments within 5 sd, KS sqrt(n) D < 1.95");
}

/* Gaussian dropout: the multiplier has mean 1 and variance p / (1 - p). n = 2^20 draws
   (sd of the mean sqrt(var/n), of the variance var sqrt(2/n)), 5 sd bounds. */
static void test_gaussian_moments(void)
{
   enum { N = 1 << 20 };
   static float x[N], y[N];
   double p = 0.4, var = p / (1 - p), s1 = 0, s2 = 0, m, v;
   size_t i;
   for (i = 0; i < N; ++i) x[i] = 1.0f;
   dropout_gaussian_forward_f32(y, x, N, p, 5, 6, 0);
   for (i = 0; i < N; ++i) { s1 += y[i]; s2 += (double)y[i] * y[i]; }
   m = s1 / N; v = s2 / N - m * m;
   CHECK(fabs(m - 1) < 5 * sqrt(var / N), "multiplier mean %g", m);
   CHECK(fabs(v - var) < 5 * var * sqrt(2.0 / N), "multiplier variance %g, expected %g", v, var);
   CHECK(fabs((double)dropout_gaussian_sigma(p) - sqrt(var)) <= 6e-8 * sqrt(var), "sigma");
   case_end("gaussian dropout multiplier: mean 1, variance p/(1-p) (5 sd)");
}

int main(void)
{
   (void)case_skip;
   test_sqrt();
   test_alpha_constants();
   test_normals();
   test_distribution();
   test_gaussian_moments();
   return check_exit();
}
