/* basic.c - dropout.h in one page: a forward, a backward, and the reproducibility.

   Build and run:  make example   (or: cc -std=c99 -I. examples/basic.c && ./a.out)

   The three objects, in the order a program makes them:
     dropout_rule  p realised with a draw width, made once per layer;
     dropout_gen   the run's key {seed, stream} and its next unused position;
     dropout_plan  one layer application: the rule, the key, the first position and the
                   count. The forward reserves fresh positions from the generator and hands
                   the plan back; the backward takes it, so they cannot disagree. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#include <stdio.h>
#include <string.h>

#define N 24   /* small enough to print; not a multiple of 16 on purpose */

/* Every call that can be refused returns a code, and a refused call writes nothing: a
   program that went on would print last step's or zeroed buffers as if they were results
   (a copied generator, a wrong count). So each code is looked at. */
static int failed(int err)
{
   if (err) printf("error: %s\n", dropout_strerror(err));
   return err != 0;
}

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
   dropout_rule rule;        /* one per layer, made once */
   dropout_gen gen;          /* the run's one generator: every call takes &gen, never a copy */
   dropout_plan plan, chunk0, chunk1;
   size_t j;
   int err, same;

   for (j = 0; j < N; ++j) { x[j] = (float)(j + 1); dy[j] = 1.0f; }
   if (failed(dropout_gen_init(&gen, dropout_key_make(42, 0)))) return 1;   /* seed 42, stream 0, position 0 */

   /* the rule: p with 8-bit draws (one byte of the stream per element) */
   if (failed(dropout_rule_init(&rule, p, DROPOUT_BITS_8))) return 1;

   /* forward: reserves N fresh positions of the stream, drops, hands back the plan */
   if (failed(dropout_forward_f32(&gen, &rule, &plan, N, y, mask_a, x))) return 1;   /* g, rule, plan out; n, outputs, inputs */

   /* The scale is 1/q for q, the keep probability the draws realise: p is rounded to a
      multiple of 2^-bits first, so 1/(1-p) is exact only when p already is one. */
   {
      const unsigned two_b = 1u << rule.bits, t = (unsigned)rule.threshold;
      double q = 1.0 - dropout_rule_p(&rule);
      printf("p = %.2f, %d-bit draws: an element is kept iff its draw >= %u, so q = %u/%u = %.6f;\n"
             "kept elements are scaled by 1/q = %.6f (1/(1-p) = %.6f would bias E[y])\n", p,
             rule.bits, t, two_b - t, two_b, q, rule.scale_f64, 1.0 / (1.0 - p));
   }
   /* a p that the draw width cannot honour is refused, with the width that would serve */
   {
      dropout_rule tiny;
      err = dropout_rule_init(&tiny, 0.001, DROPOUT_BITS_8);
      printf("and p = 0.001 with 8-bit draws (0.001 * 256 rounds to 0) is refused:\n  %s\n\n",
             err ? dropout_strerror(err) : "(accepted: this should not happen)");
   }
   printf("%-26s", "x");
   for (j = 0; j < 8; ++j) printf("%6.2f", (double)x[j]);
   printf(" ...\n%-26s", "y = dropout(x)");
   for (j = 0; j < 8; ++j) printf("%6.2f", (double)y[j]);
   printf(" ...\n\n");

   /* backward: no stored mask, the same plan rebuilds it (dx is overwritten) */
   if (failed(dropout_backward_f32(&plan, N, dx, dy))) return 1;
   printf("%-26s", "dx = backward(dy = 1)");
   for (j = 0; j < 8; ++j) printf("%6.2f", (double)dx[j]);
   printf(" ...\n\n");

   /* reproducibility: the same plan gives the same mask ... */
   if (failed(dropout_mask(&plan, N, mask_b))) return 1;
   /* ... and so do two slices of it, each a chunk a thread could take (slices that write
      masks start at multiples of 8, so that their mask bytes do not overlap) */
   if (failed(dropout_plan_slice(&plan, 0, 16, &chunk0)) || failed(dropout_plan_slice(&plan, 16, N - 16, &chunk1)) ||
       failed(dropout_mask(&chunk0, 16, mask_chunks)) || failed(dropout_mask(&chunk1, N - 16, mask_chunks + 2)))
      return 1;

   print_mask("mask, forward", mask_a, N);
   print_mask("mask, second call", mask_b, N);
   print_mask("mask, two chunks", mask_chunks, N);
   same = memcmp(mask_a, mask_b, sizeof mask_a) == 0 && memcmp(mask_a, mask_chunks, sizeof mask_a) == 0;
   printf("\nsame bits: %s\n", same ? "yes" : "NO");

   /* the next step's forward takes fresh positions from the generator, so a fresh mask */
   if (failed(dropout_forward_f32(&gen, &rule, NULL, N, y, mask_b, x))) return 1;
   print_mask("mask, next step", mask_b, N);
   return same ? 0 : 1;
}
