/* calls.c - written against dropout.h 0.1.0 and kept unchanged: one call of every kind the
   0.1 API had (forward, backward, mask, apply/backward mask, fused, broadcast, alpha,
   Gaussian, noise, the raw stream), each output reduced to one FNV-1a hash. Built with
   DROPOUT_V0_API defined, it must print exactly tests/v0/calls.expected (frozen from
   0.1.0): the compatibility names give the same bits. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#include <stdio.h>

#define N 300   /* > 64: the SIMD paths run, and a tail that is not a multiple of 8 */

static uint64_t fnv1a(const void *p, size_t n)
{
   const unsigned char *b = (const unsigned char *)p;
   uint64_t h = 0xcbf29ce484222325u;
   while (n--) { h ^= *b++; h *= 0x100000001b3u; }
   return h;
}

static int errors = 0;
static void show(const char *what, int err, const void *p, size_t n)
{
   if (err) { printf("%-28s error %d: %s\n", what, err, dropout_strerror(err)); ++errors; return; }
   printf("%-28s %016llx\n", what, (unsigned long long)fnv1a(p, n));
}

int main(void)
{
   static float x[N], y[N], res[N], bias[20];
   static double xd[N], yd[N];
   static uint16_t xh[N], yh[N], xb[N], yb[N];
   static uint32_t u[N];
   static uint8_t mask[(N + 7) / 8];
   dropout_gen g = dropout_gen_make(2024, 3);
   dropout_shape shape;
   uint64_t off;
   size_t j;
   int e;

   for (j = 0; j < N; ++j) {
      x[j] = (float)j * 0.25f - 30.0f;
      xd[j] = (double)x[j];
      xh[j] = dropout_f32_to_f16(x[j]);
      xb[j] = dropout_f32_to_bf16(x[j]);
      res[j] = 1.0f / (float)(j + 1);
   }
   for (j = 0; j < 20; ++j) bias[j] = (float)j - 10.0f;

   e = dropout_gen_next(&g, N, &off);
   printf("offset after one reservation: %llu, generator next: %llu\n",
          (unsigned long long)off, (unsigned long long)g.offset);
   e |= dropout_forward_f32(y, mask, x, N, 0.3, 8, g.seed, g.stream, off);
   show("forward_f32 y", e, y, sizeof y);
   show("forward_f32 mask", e, mask, sizeof mask);
   show("forward_f64", dropout_forward_f64(yd, NULL, xd, N, 0.1, 16, g.seed, g.stream, off), yd, sizeof yd);
   show("forward_f16", dropout_forward_f16(yh, NULL, xh, N, 0.5, 32, g.seed, g.stream, off), yh, sizeof yh);
   show("forward_bf16", dropout_forward_bf16(yb, NULL, xb, N, 0.25, 8, g.seed, g.stream, off), yb, sizeof yb);
   show("backward_f32", dropout_backward_f32(y, x, N, 0.3, 8, g.seed, g.stream, off), y, sizeof y);
   show("mask", dropout_mask(mask, N, 0.7, 16, 5, 6, 1000), mask, sizeof mask);
   show("apply_mask_f32", dropout_apply_mask_f32(y, x, mask, N, 0.7, 16), y, sizeof y);
   show("backward_mask_f64", dropout_backward_mask_f64(yd, xd, mask, N, 0.7, 16), yd, sizeof yd);
   show("bias_dropout_add_f32",
        dropout_bias_dropout_add_f32(y, mask, x, bias, res, 15, 20, 0.2, 16, 11, 12, 13), y, sizeof y);
   show("bias_dropout_add mask", 0, mask, sizeof mask);

   shape.rank = 3; shape.dim[0] = 3; shape.dim[1] = 10; shape.dim[2] = 10; shape.broadcast = 4;
   show("bcast_forward_f32", dropout_bcast_forward_f32(y, mask, x, &shape, 0.4, 8, 1, 2, 3), y, sizeof y);
   show("bcast_backward_bf16", dropout_bcast_backward_bf16(yb, xb, &shape, 0.4, 8, 1, 2, 3), yb, sizeof yb);
   shape.broadcast = 0;
   show("alpha_forward_f32", dropout_alpha_forward_f32(y, NULL, x, &shape, 0.1, 16, 1, 2, 3), y, sizeof y);
   show("alpha_backward_f64", dropout_alpha_backward_f64(yd, xd, &shape, 0.1, 16, 1, 2, 3), yd, sizeof yd);
   show("gaussian_forward_f32", dropout_gaussian_forward_f32(y, x, N, 0.2, 4, 5, 6), y, sizeof y);
   show("gaussian_backward_f16", dropout_gaussian_backward_f16(yh, xh, N, 0.2, 4, 5, 6), yh, sizeof yh);
   show("noise_forward_f64", dropout_noise_forward_f64(yd, xd, N, 0.5, 4, 5, 6), yd, sizeof yd);
   show("fill_u32", dropout_fill_u32(u, N, 7, 8, 9), u, sizeof u);
   show("fill_uniform_f32", dropout_fill_uniform_f32(y, N, 7, 8, 9), y, sizeof y);
   show("fill_uniform_f64", dropout_fill_uniform_f64(yd, N, 7, 8, 9), yd, sizeof yd);
   show("fill_normal_f32", dropout_fill_normal_f32(y, N, 7, 8, 9), y, sizeof y);
   printf("stream_u32(1, 2, 3) = %08lx\n", (unsigned long)dropout_stream_u32(1, 2, 3));
   printf("forward_f32 with p = 1.5: %d\n", dropout_forward_f32(y, NULL, x, N, 1.5, 8, 1, 2, 3));
   return errors ? 1 : 0;
}
