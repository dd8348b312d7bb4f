/* Prints one 64-bit digest of every variant's and the fused op's output on fixed inputs. tests/variants/suite.sh
   builds it with several compilers and flag sets (-O3 -march=native -ffp-contract=fast, C++)
   and requires the same digest from all: FMA contraction must not change a bit. */
#define DROPOUT_V0_API   /* written against the 0.1.0 calls: they must keep giving the same bits */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#include <stdio.h>
#include <string.h>

static uint64_t h = 14695981039346656037ull;
static void eat(const void *p, size_t n)
{
   const unsigned char *c = (const unsigned char *)p;
   size_t i;
   for (i = 0; i < n; ++i) { h ^= c[i]; h *= 1099511628211ull; }
}

enum { N = 4 * 6 * 7 * 9 };
static float x[N], y[N];
static double xd[N], yd[N];
static uint16_t xh[N], yh[N];
static uint8_t m[N / 8 + 1];

int main(void)
{
   static const double ps[] = {0.0, 0.1, 0.37, 0.5, 0.9, 1.0};
   static const int bitss[] = {8, 16, 32};
   dropout_shape s = {4, {4, 6, 7, 9}, 0xC};
   size_t i, k, b;
   dropout_v0_fill_normal_f32(x, N, 1, 2, 3);
   eat(x, sizeof x);
   for (i = 0; i < N; ++i) { xd[i] = (double)x[i] * 1.1; xh[i] = dropout_f32_to_f16(x[i]); }
   for (k = 0; k < sizeof ps / sizeof ps[0]; ++k)
      for (b = 0; b < 3; ++b) {
         double p = ps[k];
         int bits = bitss[b];
         dropout_alpha_rule ar = dropout_alpha_rule_make(p, bits);
         eat(&ar.a, 8); eat(&ar.c, 8); eat(&ar.drop, 8); eat(&ar.a_f32, 4); eat(&ar.c_f32, 4); eat(&ar.drop_f32, 4);
         dropout_bcast_forward_f32(y, m, x, &s, p, bits, 5, 6, 7); eat(y, sizeof y); eat(m, sizeof m);
         dropout_alpha_forward_f32(y, NULL, x, &s, p, bits, 5, 6, 7); eat(y, sizeof y);
         dropout_alpha_forward_f64(yd, NULL, xd, &s, p, bits, 5, 6, 7); eat(yd, sizeof yd);
         dropout_alpha_forward_f16(yh, NULL, xh, &s, p, bits, 5, 6, 7); eat(yh, sizeof yh);
         dropout_alpha_forward_bf16(yh, NULL, xh, &s, p, bits, 5, 6, 7); eat(yh, sizeof yh);
         dropout_alpha_backward_f64(yd, xd, &s, p, bits, 5, 6, 7); eat(yd, sizeof yd);
         if (p < 1.0) {
            dropout_gaussian_forward_f32(y, x, N, p, 5, 6, 7); eat(y, sizeof y);
            dropout_gaussian_forward_f64(yd, xd, N, p, 5, 6, 7); eat(yd, sizeof yd);
            dropout_gaussian_forward_f16(yh, xh, N, p, 5, 6, 7); eat(yh, sizeof yh);
            dropout_gaussian_forward_bf16(yh, xh, N, p, 5, 6, 7); eat(yh, sizeof yh);
         }
         dropout_noise_forward_f32(y, x, N, p * 3, 5, 6, 7); eat(y, sizeof y);
         dropout_noise_forward_f64(yd, xd, N, p * 3, 5, 6, 7); eat(yd, sizeof yd);
         dropout_noise_forward_f16(yh, xh, N, p * 3, 5, 6, 7); eat(yh, sizeof yh);
         /* the fused op, [N/9, 9], residual = x, bias = 9 elements inside x */
         dropout_v0_bias_dropout_add_f32(y, m, x, x + 100, x, N / 9, 9, p, bits, 5, 6, 7); eat(y, sizeof y); eat(m, sizeof m);
         dropout_v0_bias_dropout_add_f64(yd, NULL, xd, xd + 100, xd, N / 9, 9, p, bits, 5, 6, 7); eat(yd, sizeof yd);
         dropout_v0_bias_dropout_add_f16(yh, NULL, xh, xh + 100, xh, N / 9, 9, p, bits, 5, 6, 7); eat(yh, sizeof yh);
         dropout_v0_bias_dropout_add_bf16(yh, NULL, xh, xh + 100, xh, N / 9, 9, p, bits, 5, 6, 7); eat(yh, sizeof yh);
      }
   for (i = 0; i < 100000; ++i) {   /* many normals, and the sqrt over a range */
      float z = dropout_normal_at(9, 9, i);
      double r = dropout__sqrt_f64((double)i * 1.37e-3 + 1e-300);
      eat(&z, 4); eat(&r, 8);
   }
   printf("%016llx\n", (unsigned long long)h);
   return 0;
}
