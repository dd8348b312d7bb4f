/* fpu_check.c - what the FPU mode check costs per call. Every CPU call that computes
   floats first reads the FPU's mode (x86 stmxcsr; AArch64 mrs fpcr) and refuses to run
   while subnormals are flushed or rounding is not to nearest. This times the check alone
   and forward f32 calls of a few sizes (each call includes one check), in one run, and
   prints the check's share of a call. Median of 7 repetitions of each.
      cc -std=c99 -O2 -I. bench/fpu_check.c -o build/fpu_check && ./build/fpu_check
   (make bench-fpu-check writes the table to build/fpu_check.txt) */
#define _POSIX_C_SOURCE 200809L
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void)
{
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return x < y ? -1 : x > y;
}

static void cpu_model(char *out, size_t len)
{
   FILE *f = fopen("/proc/cpuinfo", "r");
   char line[256];
   snprintf(out, len, "unknown CPU");
   if (!f) return;
   while (fgets(line, sizeof line, f))
      if (!strncmp(line, "model name", 10) || !strncmp(line, "CPU part", 8)) {
         char *c = strchr(line, ':');
         if (c) { snprintf(out, len, "%s", c + 2); out[strcspn(out, "\n")] = 0; }
         break;
      }
   fclose(f);
}

int main(void)
{
   enum { REPS = 7 };
   static float x[4096], y[4096];
   static const size_t sizes[] = {1, 64, 1024, 4096};
   dropout_rule r;
   char model[200];
   double t[REPS], check_ns;
   volatile int sink = 0;
   long i, iters = 20000000;
   size_t k;
   int rep;
   cpu_model(model, sizeof model);
   for (i = 0; i < 4096; ++i) x[i] = (float)i;
   dropout_rule_init(&r, 0.1, DROPOUT_BITS_8);
   for (rep = 0; rep < REPS; ++rep) {
      double t0 = now_ns();
      for (i = 0; i < iters; ++i) sink += dropout__fpu_check();
      t[rep] = (now_ns() - t0) / (double)iters;
   }
   qsort(t, REPS, sizeof t[0], cmp_double);
   check_ns = t[REPS / 2];
   printf("CPU: %s; SIMD path: %s\n", model, DROPOUT__SIMD_NAME);
   printf("FPU mode check alone: %.2f ns per call\n", check_ns);
   printf("| forward f32, n | ns per call (check included) | check's share |\n|---:|---:|---:|\n");
   for (k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
      dropout_plan p;
      long calls = (long)(40000000 / (sizes[k] + 16));
      dropout_plan_at(&p, &r, dropout_key_make(1, 2), dropout_pos_make(0), sizes[k]);
      for (rep = 0; rep < REPS; ++rep) {
         double t0 = now_ns();
         for (i = 0; i < calls; ++i) sink += dropout_replay_f32(&p, (size_t)p.count, y, NULL, x);
         t[rep] = (now_ns() - t0) / (double)calls;
      }
      qsort(t, REPS, sizeof t[0], cmp_double);
      printf("| %zu | %.1f | %.1f%% |\n", sizes[k], t[REPS / 2], 100.0 * check_ns / t[REPS / 2]);
   }
   return sink == -1;
}
