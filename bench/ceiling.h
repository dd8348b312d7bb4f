/* ceiling.h - what bench/overlap_ceiling.c and bench/ops_ceiling.c share: the clock, the
   forward's step size and a max. Included after dropout.h's implementation, where the
   header's overlap exists (DROPOUT__OVERLAP). */
#ifndef CEILING_H
#define CEILING_H
#include <time.h>

static double ceiling_now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double ceiling_max(double a, double b) { return a > b ? a : b; }

/* the windows of the forward's steps for a dtype and width, as dropout__run_simd takes them
   in cache: DROPOUT__GROUP, or DROPOUT__GROUP_WIDE where the wide steps apply */
static unsigned ceiling_group(int dtype, int bits)
{
   const dropout__stores in_cache = {0, 0};
   (void)in_cache; (void)dtype; (void)bits;   /* (without the wide steps, none is read) */
   return DROPOUT__WIDE_STEP_TAKES(dtype, bits, in_cache) ? DROPOUT__GROUP_WIDE : DROPOUT__GROUP;
}
#endif
