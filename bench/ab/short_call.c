/* short_call.c - `make bench-ab-short`: the f32 short call of a revision's dropout.h (A)
   against the working tree's (B) at 1, 64, 512, 1024, 1536, 4096 and 65536 elements (in
   L1/L2; 512 to 1536 are one and two steps of 8 and of 12 windows), one thread, the same
   plan every call; A and B alternate for 15 rounds, best of each. Prints ns per call, B/A,
   and whether the outputs are equal; then the same for a step's forward from a generator
   (fresh positions each call), where both headers have one. Not a test: nothing is
   asserted. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void sc_A_init(size_t n);
int sc_A_run(float *y, const float *x, size_t n);
void sc_B_init(size_t n);
int sc_B_run(float *y, const float *x, size_t n);
int sc_A_step(float *y, const float *x, size_t n);
int sc_B_step(float *y, const float *x, size_t n);

static double now(void)
{
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef int (*sc_fn)(float *y, const float *x, size_t n);

static void table(const char *what, sc_fn fa, sc_fn fb)
{
   static const size_t sizes[] = {1, 64, 512, 1024, 1536, 4096, 65536};
   size_t k, i;
   printf("%s\n\n| n | A ns/call | B ns/call | B/A | same bits |\n|---:|---:|---:|---:|:---:|\n", what);
   for (k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
      const size_t n = sizes[k];
      float *x = (float *)malloc(n * sizeof *x), *ya = (float *)malloc(n * sizeof *ya), *yb = (float *)malloc(n * sizeof *yb);
      const long reps = n < 100 ? 200000L : 40000000L / (long)n + 1;
      double best_a = 1e30, best_b = 1e30;
      long r;
      int round;
      if (!x || !ya || !yb) exit(1);
      for (i = 0; i < n; ++i) x[i] = (float)i * 0.5f;
      sc_A_init(n);
      sc_B_init(n);
      for (round = 0; round < 15; ++round) {
         double t0 = now(), t1, t2;
         for (r = 0; r < reps; ++r) fa(ya, x, n);
         t1 = now();
         for (r = 0; r < reps; ++r) fb(yb, x, n);
         t2 = now();
         if (t1 - t0 < best_a) best_a = t1 - t0;
         if (t2 - t1 < best_b) best_b = t2 - t1;
      }
      printf("| %zu | %.1f | %.1f | **%.3f** | %s |\n", n, best_a / (double)reps * 1e9, best_b / (double)reps * 1e9,
             best_b / best_a, memcmp(ya, yb, n * sizeof *ya) == 0 ? "yes" : "NO");
      free(x); free(ya); free(yb);
   }
   printf("\n");
}

int main(void)
{
   float y[1], x[1] = {1.0f};
   sc_A_init(1);
   sc_B_init(1);
   table("Replay at a plan's positions (0.9: dropout_forward_f32(&plan, ...))", sc_A_run, sc_B_run);
   if (sc_A_step(y, x, 1) == -1 || sc_B_step(y, x, 1) == -1)
      printf("A step's forward from a generator: not in both headers\n");
   else
      table("A step's forward from a generator (fresh positions every call)", sc_A_step, sc_B_step);
   return 0;
}
