/* dropout_parallel.h - the threading recipe for dropout.h, as a tiny header.

   dropout.h itself has no threads. A call splits into chunks that each get their own
   stream offset (offset + chunk start) and output slice; any split gives the same bits
   as one call. Chunks here start at multiples of 64 elements: whole mask bytes and
   whole keep words, so no two threads ever write the same mask byte.

   With OpenMP (-fopenmp) the chunks run on `nthreads` threads; without it they run one
   after the other, with identical results. Include dropout.h first. */
#ifndef DROPOUT_PARALLEL_H
#define DROPOUT_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

/* Elements per chunk for nthreads: about n / nthreads, rounded up to 64. */
static inline size_t dropout_parallel_chunk(size_t n, int nthreads)
{
   size_t t = nthreads > 1 ? (size_t)nthreads : 1u;
   size_t per = (n + t - 1) / t;
   return per == 0 ? 64u : (per + 63u) / 64u * 64u;
}

/* dropout_forward_f32 on nthreads threads; mask (optional) as in dropout_forward_f32.
   Arguments are checked once, before any thread writes. */
static inline int dropout_forward_f32_mt(float *y, uint8_t *mask, const float *x, size_t n, double p,
                                  int bits, uint64_t seed, uint64_t stream, uint64_t offset,
                                  int nthreads)
{
   size_t per = dropout_parallel_chunk(n, nthreads);
   long c, chunks = (long)((n + per - 1) / per);
   int err = dropout_check_args(p, bits, n, offset);
   if (err) return err;
   if (n > 0 && (!y || !x)) return DROPOUT_ERR_NULL;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads > 0 ? nthreads : 1) schedule(static)
#endif
   for (c = 0; c < chunks; ++c) {
      size_t at = (size_t)c * per, m = n - at < per ? n - at : per;
      /* cannot fail: the whole range was checked above */
      (void)dropout_forward_f32(y + at, mask ? mask + at / 8u : NULL, x + at, m, p, bits,
                                seed, stream, offset + (uint64_t)at);
   }
   return DROPOUT_OK;
}

/* The mask-free backward is forward on dy with the same coordinates. */
static inline int dropout_backward_f32_mt(float *dx, const float *dy, size_t n, double p, int bits,
                                   uint64_t seed, uint64_t stream, uint64_t offset, int nthreads)
{
   return dropout_forward_f32_mt(dx, NULL, dy, n, p, bits, seed, stream, offset, nthreads);
}

#endif
