/* basic.c - dropout.h in one page: a forward, a backward, and the reproducibility.

   Build and run:  make example   (or: cc -std=c99 -I. examples/basic.c && ./a.out) */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#include <stdio.h>
#include <string.h>

#define N 24   /* small enough to print; not a multiple of 16 on purpose */

static void print_mask(const char *label, const uint8_t *mask, size_t n)
{
   size_t j;
   printf("%-26s", label);
   for (j = 0; j < n; ++j) putchar((mask[j / 8] >> (j % 8)) & 1 ? '1' : '.');
   putchar('\n');
}

int main(void)
{
   float x[N], y[N], dy[N], dx[N];
   uint8_t mask_a[(N + 7) / 8], mask_b[(N + 7) / 8], mask_chunks[(N + 7) / 8];
   const double p = 0.3;     /* drop probability: 8-bit draws realise 77/256, not 0.3 */
   const int bits = 8;       /* one byte of the stream per element */
   dropout_gen gen = dropout_gen_make(42, 0);   /* seed 42, stream 0 */
   uint64_t offset;
   size_t j;
   int err;

   for (j = 0; j < N; ++j) { x[j] = (float)(j + 1); dy[j] = 1.0f; }

   /* forward: reserve N positions of the stream, then drop */
   dropout_gen_next(&gen, N, &offset);
   err = dropout_forward_f32(y, mask_a, x, N, p, bits, gen.seed, gen.stream, offset);
   if (err) { printf("error: %s\n", dropout_strerror(err)); return 1; }

   /* The scale is 1/q for q, the keep probability the draws realise: p is rounded to a
      multiple of 2^-bits first, so 1/(1-p) is exact only when p already is one. */
   {
      dropout_rule r = dropout_rule_make(p, bits);
      double q = 1.0 - (double)r.threshold / (double)(1u << bits);
      printf("p = %.2f, %d-bit draws: an element is kept iff its draw >= %u, so q = %u/%u = %.6f;\n"
             "kept elements are scaled by 1/q = %.6f (1/(1-p) = %.6f would bias E[y])\n\n", p, bits,
             (unsigned)r.threshold, (1u << bits) - (unsigned)r.threshold, 1u << bits, q, r.scale_f64,
             1.0 / (1.0 - p));
   }
   printf("%-26s", "x");
   for (j = 0; j < 8; ++j) printf("%6.2f", (double)x[j]);
   printf(" ...\n%-26s", "y = dropout(x)");
   for (j = 0; j < 8; ++j) printf("%6.2f", (double)y[j]);
   printf(" ...\n\n");

   /* backward: no stored mask, the same (seed, stream, offset) rebuilds it */
   dropout_backward_f32(dx, dy, N, p, bits, gen.seed, gen.stream, offset);
   printf("%-26s", "dx = backward(dy = 1)");
   for (j = 0; j < 8; ++j) printf("%6.2f", (double)dx[j]);
   printf(" ...\n\n");

   /* reproducibility: a second call with the same coordinates gives the same mask ... */
   dropout_mask(mask_b, N, p, bits, gen.seed, gen.stream, offset);
   /* ... and so do two chunks, each with its own offset (chunks start at multiples of 8
      so that their mask bytes do not overlap) */
   dropout_mask(mask_chunks, 16, p, bits, gen.seed, gen.stream, offset);
   dropout_mask(mask_chunks + 2, N - 16, p, bits, gen.seed, gen.stream, offset + 16);

   print_mask("mask, forward", mask_a, N);
   print_mask("mask, second call", mask_b, N);
   print_mask("mask, two chunks", mask_chunks, N);
   printf("\nsame bits: %s\n",
          memcmp(mask_a, mask_b, sizeof mask_a) == 0 &&
          memcmp(mask_a, mask_chunks, sizeof mask_a) == 0 ? "yes" : "NO");

   /* the next call gets fresh positions, so a fresh mask */
   dropout_gen_next(&gen, N, &offset);
   dropout_mask(mask_b, N, p, bits, gen.seed, gen.stream, offset);
   print_mask("mask, next step", mask_b, N);
   return 0;
}
