/* philox_clock.c - the core clock and dropout_fill_u32's speed in one run, for the Philox
   throughput analysis (bench/results/philox-*.md). Not a test: nothing is asserted.

   The clock: a chain of 10^9 dependent 64-bit adds (one cycle each on every x86 core of
   the last 15 years), timed; cycles = adds, so GHz = 1e9 / seconds. Then dropout_fill_u32
   of 2^14 words (64 KiB, in L2) as best of 2000 calls, and the clock once more (a clock
   that moved between the two is visible). x86-64 with GCC or Clang only (inline asm).
   build: cc -std=c99 -O3 -march=native -I. bench/philox_clock.c -o build/philox_clock */
#define _POSIX_C_SOURCE 200809L
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* best of 5 runs of 10^9 dependent adds, in GHz */
static double clock_ghz(void)
{
   double best = 1e30;
   int r;
   for (r = 0; r < 5; ++r) {
      unsigned long long v = 0, i = 100000000ull;   /* 10 adds a trip */
      double t0 = now(), t;
      __asm__ volatile("1:\n\t"
                       "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                       "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                       "dec %1\n\tjnz 1b"
                       : "+r"(v), "+r"(i));
      if ((t = now() - t0) < best) best = t;
   }
   return 1.0 / best;   /* 1e9 cycles / best seconds, in GHz */
}

int main(void)
{
   const size_t n = (size_t)1 << 14;
   uint32_t *w = (uint32_t *)malloc(n * 4);
   dropout_key key = dropout_key_make(42, 7);
   double ghz0, ghz1, best = 1e30, ns;
   int r;
   if (!w) return 1;
   ghz0 = clock_ghz();
   dropout_fill_u32(key, dropout_pos_make(0), w, n);
   for (r = 0; r < 2000; ++r) {
      double t0 = now(), t;
      dropout_fill_u32(key, dropout_pos_make(0), w, n);
      if ((t = now() - t0) < best) best = t;
   }
   ghz1 = clock_ghz();
   ns = best * 1e9 / (double)n;
   printf("path %s\nclock before %.3f GHz, after %.3f GHz (10^9 dependent adds, best of 5)\n", DROPOUT__SIMD_NAME, ghz0, ghz1);
   printf("dropout_fill_u32, 2^14 words, best of 2000: %.4f ns/word = %.3f words/ns = %.3f cycles/word at %.3f GHz"
          " (%.1f cycles per 128 words)\n",
          ns, 1.0 / ns, ns * 0.5 * (ghz0 + ghz1), 0.5 * (ghz0 + ghz1), 128.0 * ns * 0.5 * (ghz0 + ghz1));
   free(w);
   return 0;
}
