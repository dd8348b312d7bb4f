/* fpu_check.c - what the FPU mode costs per call. Every CPU call that computes floats
   reads the FPU's mode (x86 stmxcsr; AArch64 mrs fpcr) and, where subnormals are flushed
   or rounding is not to nearest (a program linked with -ffast-math), sets the mode its
   bits need and gives the caller's back on return. This times the enter/leave pair alone
   in the default mode (one read) and under FTZ/DAZ (a read, two writes and a read), and
   replay f32 calls of a few sizes in both modes, in one run, and prints the pair's share
   of a call and the flushed call's time over the default one. Median of 7 repetitions.
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
   double t[REPS], check_ns, flushed_ns = 0.0;
   volatile int sink = 0;
   long i, iters = 20000000;
   size_t k;
   int rep;
   cpu_model(model, sizeof model);
   for (i = 0; i < 4096; ++i) x[i] = (float)i;
   dropout_rule_init_quantised(&r, 0.1, DROPOUT_BITS_8);   /* as earlier runs of this bench */
   for (rep = 0; rep < REPS; ++rep) {
      double t0 = now_ns();
      for (i = 0; i < iters; ++i) { dropout__fpu f; dropout__fpu_enter(&f); sink += f.set; dropout__fpu_leave(&f); }
      t[rep] = (now_ns() - t0) / (double)iters;
   }
   qsort(t, REPS, sizeof t[0], cmp_double);
   check_ns = t[REPS / 2];
#if defined(DROPOUT__FPU_X86)
   {
      unsigned saved = dropout__csr_get();
      dropout__csr_set(saved | 0x8040u);   /* FTZ and DAZ, as crtfastmath.o sets them */
      for (rep = 0; rep < REPS; ++rep) {
         double t0 = now_ns();
         for (i = 0; i < iters / 4; ++i) { dropout__fpu f; dropout__fpu_enter(&f); sink += f.set; dropout__fpu_leave(&f); }
         t[rep] = (now_ns() - t0) / (double)(iters / 4);
      }
      dropout__csr_set(saved);
      qsort(t, REPS, sizeof t[0], cmp_double);
      flushed_ns = t[REPS / 2];
   }
#endif
   printf("CPU: %s; SIMD path: %s\n", model, DROPOUT__SIMD_NAME);
   printf("FPU mode enter + leave alone: %.2f ns per call in the default mode, %.2f ns under FTZ/DAZ (set and given back)\n",
          check_ns, flushed_ns);
   printf("| replay f32, n | ns per call, default mode | the pair's share | ns per call, FTZ/DAZ | FTZ/DAZ / default |\n|---:|---:|---:|---:|---:|\n");
   for (k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
      dropout_plan p;
      long calls = (long)(40000000 / (sizes[k] + 16));
      double plain = 0.0, flushed = 0.0;
      int mode;
      dropout_plan_at(&p, &r, dropout_key_make(1, 2), dropout_pos_make(0), sizes[k]);
      for (mode = 0; mode < 2; ++mode) {
#if defined(DROPOUT__FPU_X86)
         unsigned saved = dropout__csr_get();
         if (mode) dropout__csr_set(saved | 0x8040u);
#else
         if (mode) break;
#endif
         for (rep = 0; rep < REPS; ++rep) {
            double t0 = now_ns();
            for (i = 0; i < calls; ++i) sink += dropout_replay_f32(&p, sizes[k], y, NULL, x);
            t[rep] = (now_ns() - t0) / (double)calls;
         }
#if defined(DROPOUT__FPU_X86)
         dropout__csr_set(saved);
#endif
         qsort(t, REPS, sizeof t[0], cmp_double);
         if (mode) flushed = t[REPS / 2]; else plain = t[REPS / 2];
      }
      printf("| %zu | %.1f | %.1f%% | %.1f | %.2f |\n", sizes[k], plain, 100.0 * check_ns / plain, flushed, flushed / plain);
   }
   return sink == -1;
}
