/* main.c - two versions of dropout.h in one process (`make bench-ab`), A: a revision's
   (REV, default HEAD), B: the working tree's.

   For each draw width: the wall y = x*s, Philox alone (each version's fill_u32 of the words
   the call needs), then forward with the mask, mask-free backward, bf16 and f16 forward and
   the mask alone, A and B. Every case runs once a round, in the same order, for REPS rounds,
   and keeps its best time: a change is judged against the other version in the same moments
   of the same machine, not against a file from another day. Printed: ns per 64 elements,
   and in brackets the call over max(wall, its own version's Philox alone), the issue's
   ratio (a change that speeds Philox up moves the yardstick too). Not a test: nothing is
   asserted.
   usage: ab_main [log2 n = 16] [rounds = 300] */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define AB_DECL(S)                                                                     \
   void ab_fwd_f32##S(float *y, uint8_t *mask, const float *x, size_t n, int bits);    \
   void ab_bwd_f32##S(float *dx, const float *dy, size_t n, int bits);                 \
   void ab_fwd_bf16##S(uint16_t *y, uint8_t *mask, const uint16_t *x, size_t n, int bits); \
   void ab_fwd_f16##S(uint16_t *y, uint8_t *mask, const uint16_t *x, size_t n, int bits); \
   void ab_mask##S(uint8_t *mask, size_t n, int bits);                                 \
   void ab_fill##S(uint32_t *w, size_t n);
AB_DECL(A)
AB_DECL(B)

static double now(void)
{
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

enum { C_WALL, C_PHILOX_A, C_PHILOX_B, C_FWD_A, C_FWD_B, C_BWD_A, C_BWD_B, C_BF16_A, C_BF16_B, C_F16_A, C_F16_B,
       C_MASK_A, C_MASK_B, C_COUNT };
static const char *head[C_COUNT] = {"wall", "A Philox", "B Philox", "A fwd", "B fwd", "A bwd", "B bwd",
                                    "A bf16 fwd", "B bf16 fwd", "A f16 fwd", "B f16 fwd", "A mask", "B mask"};

int main(int argc, char **argv)
{
   const int lg = argc > 1 ? atoi(argv[1]) : 16, rounds = argc > 2 ? atoi(argv[2]) : 300;
   const size_t n = (size_t)1 << (lg < 10 ? 10 : lg > 26 ? 26 : lg);
   static const int modes[3] = {8, 16, 32};
   float *x = (float *)malloc(n * 4), *y = (float *)malloc(n * 4);
   uint16_t *xb = (uint16_t *)malloc(n * 2), *yb = (uint16_t *)malloc(n * 2), *xh = (uint16_t *)malloc(n * 2);
   uint8_t *mask = (uint8_t *)malloc(n / 8);
   uint32_t *w = (uint32_t *)malloc(n * 4);
   volatile float sink;
   size_t i;
   int b, c, r;
   if (!x || !y || !xb || !yb || !xh || !mask || !w) { fprintf(stderr, "out of memory\n"); return 1; }
   for (i = 0; i < n; ++i) {
      x[i] = (float)(i % 1000) * 0.001f - 0.5f;
      xb[i] = (uint16_t)(0x3f00u + i % 500u);   /* bf16 0.5 .. about 1.5 */
      xh[i] = (uint16_t)(0x3800u + i % 500u);   /* f16 0.5 .. about 0.74 */
   }
   printf("2^%d elements, best of %d rounds, ns per 64 elements (call / max(wall, its version's Philox alone))\n\n",
          lg, rounds);
   printf("| bits |");
   for (c = 0; c < C_COUNT; ++c) printf(" %s |", head[c]);
   printf("\n|---:|");
   for (c = 0; c < C_COUNT; ++c) printf("---:|");
   printf("\n");
   for (b = 0; b < 3; ++b) {
      const int bits = modes[b];
      double best[C_COUNT], per = 64.0 / (double)n * 1e9, mx[2];
      for (c = 0; c < C_COUNT; ++c) best[c] = 1e30;
      for (r = 0; r < rounds; ++r)
         for (c = 0; c < C_COUNT; ++c) {
            double t0 = now(), t;
            switch (c) {
            case C_WALL: for (i = 0; i < n; ++i) y[i] = x[i] * 1.1111112f; sink = y[r % 64]; break;
            case C_PHILOX_A: ab_fillA(w, n * (size_t)bits / 32u); break;
            case C_PHILOX_B: ab_fillB(w, n * (size_t)bits / 32u); break;
            case C_FWD_A: ab_fwd_f32A(y, mask, x, n, bits); break;
            case C_FWD_B: ab_fwd_f32B(y, mask, x, n, bits); break;
            case C_BWD_A: ab_bwd_f32A(y, x, n, bits); break;
            case C_BWD_B: ab_bwd_f32B(y, x, n, bits); break;
            case C_BF16_A: ab_fwd_bf16A(yb, mask, xb, n, bits); break;
            case C_BF16_B: ab_fwd_bf16B(yb, mask, xb, n, bits); break;
            case C_F16_A: ab_fwd_f16A(yb, mask, xh, n, bits); break;
            case C_F16_B: ab_fwd_f16B(yb, mask, xh, n, bits); break;
            case C_MASK_A: ab_maskA(mask, n, bits); break;
            default: ab_maskB(mask, n, bits); break;
            }
            if ((t = now() - t0) < best[c]) best[c] = t;
         }
      for (c = 0; c < 2; ++c)   /* A's yardstick, B's */
         mx[c] = best[C_WALL] > best[C_PHILOX_A + c] ? best[C_WALL] : best[C_PHILOX_A + c];
      printf("| %d | %.2f | %.2f | %.2f |", bits, best[C_WALL] * per, best[C_PHILOX_A] * per, best[C_PHILOX_B] * per);
      /* the A and B columns alternate from C_FWD_A on */
      for (c = C_FWD_A; c < C_COUNT; ++c) printf(" %.2f (%.2f) |", best[c] * per, best[c] / mx[(c - C_FWD_A) % 2]);
      printf("\n");
   }
   (void)sink;
   free(x); free(y); free(xb); free(yb); free(xh); free(mask); free(w);
   return 0;
}
