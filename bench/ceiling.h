/* ceiling.h - what bench/overlap_ceiling.c and bench/ops_ceiling.c share: their arguments,
   the clock, the forward's step size and a max. Included after dropout.h's implementation, where the
   header's overlap exists (DROPOUT__OVERLAP). */
#ifndef CEILING_H
#define CEILING_H
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* [rounds] [log2 of the elements, 14 to 20]: 0 with *rounds and *lg set, else a usage
   message (the elements' default, 2^16, fills a 512 KiB L2 with f32 x and y: 15 there) */
static int ceiling_args(int argc, char **argv, const char *name, int *rounds, int *lg)
{
   *lg = argc > 2 ? atoi(argv[2]) : 16;
   if (argc > 1) *rounds = atoi(argv[1]);
   if (*rounds >= 1 && *lg >= 14 && *lg <= 20 && argc <= 3) return 0;
   fprintf(stderr, "usage: %s [rounds >= 1] [log2 of the elements, 14 to 20]\n", name);
   return 2;
}

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
   const dropout__stores in_cache = DROPOUT__STORES_PLAIN;
   (void)in_cache; (void)dtype; (void)bits;   /* (without the wide steps, none is read) */
   return DROPOUT__WIDE_STEP_TAKES(dtype, bits, in_cache) ? DROPOUT__GROUP_WIDE : DROPOUT__GROUP;
}
#endif
