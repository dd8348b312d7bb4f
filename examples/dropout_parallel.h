/* dropout_parallel.h - the threading recipe for dropout.h, as a tiny header.

   dropout.h itself has no threads. A call splits into chunks that each get their own
   stream offset (offset + chunk start) and output slice; any split gives the same bits
   as one call. Chunks here start at multiples of 64 elements: whole mask bytes and
   whole keep words, so no two threads ever write the same mask byte.

   For each dtype T in f32, f64, f16 and bf16 (f16/bf16 as uint16_t bits, as in dropout.h):
      dropout_forward_T_mt        (y, mask, x, n, p, bits, seed, stream, offset, nthreads)
      dropout_backward_T_mt       (dx, dy, n, p, bits, seed, stream, offset, nthreads)
      dropout_backward_mask_T_mt  (dx, dy, mask, n, p, bits, nthreads)
   the library's call of the same name without _mt, on nthreads threads. Arguments are
   checked once, before any thread writes, and the return codes are the library's.

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

#ifdef _OPENMP
#define DROPOUT_PARALLEL__PRAGMA _Pragma("omp parallel for num_threads(dropout_parallel__nt) schedule(static)")
#else
#define DROPOUT_PARALLEL__PRAGMA
#endif

/* The loop every function shares: chunk c covers [at, at + m); BODY is one library call
   on that slice. The calls cannot fail: the whole range was checked before. */
#define DROPOUT_PARALLEL__LOOP(n, nthreads, BODY)                                        \
   do {                                                                                 \
      const size_t dropout_parallel__per = dropout_parallel_chunk(n, nthreads);          \
      const long dropout_parallel__chunks =                                              \
         (long)((n + dropout_parallel__per - 1) / dropout_parallel__per);                \
      const int dropout_parallel__nt = nthreads > 0 ? nthreads : 1;                      \
      long c;                                                                           \
      (void)dropout_parallel__nt;                                                       \
      DROPOUT_PARALLEL__PRAGMA                                                          \
      for (c = 0; c < dropout_parallel__chunks; ++c) {                                  \
         const size_t at = (size_t)c * dropout_parallel__per;                           \
         const size_t m = n - at < dropout_parallel__per ? n - at : dropout_parallel__per; \
         (void)(BODY);                                                                  \
      }                                                                                 \
   } while (0)

#define DROPOUT_PARALLEL__DEFINE(T, E)                                                   \
static inline int dropout_forward_##T##_mt(E *y, uint8_t *mask, const E *x, size_t n,   \
                                           double p, int bits, uint64_t seed,            \
                                           uint64_t stream, uint64_t offset, int nthreads) \
{                                                                                        \
   int err = dropout_check_args(p, bits, n, offset);                                     \
   if (err) return err;                                                                  \
   if (n > 0 && (!y || !x)) return DROPOUT_ERR_NULL;                                     \
   DROPOUT_PARALLEL__LOOP(n, nthreads,                                                   \
      dropout_forward_##T(y + at, mask ? mask + at / 8u : NULL, x + at, m, p, bits,      \
                          seed, stream, offset + (uint64_t)at));                         \
   return DROPOUT_OK;                                                                    \
}                                                                                        \
static inline int dropout_backward_##T##_mt(E *dx, const E *dy, size_t n, double p,     \
                                            int bits, uint64_t seed, uint64_t stream,    \
                                            uint64_t offset, int nthreads)               \
{                                                                                        \
   int err = dropout_check_args(p, bits, n, offset);                                     \
   if (err) return err;                                                                  \
   if (n > 0 && (!dx || !dy)) return DROPOUT_ERR_NULL;                                   \
   DROPOUT_PARALLEL__LOOP(n, nthreads,                                                   \
      dropout_backward_##T(dx + at, dy + at, m, p, bits, seed, stream, offset + (uint64_t)at)); \
   return DROPOUT_OK;                                                                    \
}                                                                                        \
static inline int dropout_backward_mask_##T##_mt(E *dx, const E *dy, const uint8_t *mask, \
                                                 size_t n, double p, int bits, int nthreads) \
{                                                                                        \
   int err = dropout_check_args(p, bits, n, 0);                                          \
   if (err) return err;                                                                  \
   if (n > 0 && (!dx || !dy || !mask)) return DROPOUT_ERR_NULL;                          \
   DROPOUT_PARALLEL__LOOP(n, nthreads,                                                   \
      dropout_backward_mask_##T(dx + at, dy + at, mask + at / 8u, m, p, bits));          \
   return DROPOUT_OK;                                                                    \
}

DROPOUT_PARALLEL__DEFINE(f32, float)
DROPOUT_PARALLEL__DEFINE(f64, double)
DROPOUT_PARALLEL__DEFINE(f16, uint16_t)
DROPOUT_PARALLEL__DEFINE(bf16, uint16_t)

#endif
