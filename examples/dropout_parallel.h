/* dropout_parallel.h - the threading recipe for dropout.h, as a tiny header.

   dropout.h itself has no threads. A plan splits into slices (dropout_plan_slice: the
   positions start + 0 .. start + count - 1 of the whole plan), each with its own output
   slice; any split gives the same bits as one call. Slices here start at multiples of 64
   elements: whole mask bytes and whole keep words, so no two threads ever write the same
   mask byte.

   For each dtype T in f32, f64, f16 and bf16 (dropout_f16 / dropout_bf16 as in dropout.h):
      dropout_forward_T_mt     (plan, y, mask, x, nthreads)
      dropout_backward_T_mt    (plan, dx, dy, nthreads)          overwrites dx
      dropout_apply_mask_T_mt  (rule, n, y, mask, x, nthreads)
   the library's call of the same name without _mt, on nthreads threads. The plan and the
   pointers are checked once, before any thread writes, and the return codes are the
   library's.

   With OpenMP (-fopenmp) the slices run on `nthreads` threads; without it they run one
   after the other, with identical results. Include dropout.h first. */
#ifndef DROPOUT_PARALLEL_H
#define DROPOUT_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

/* Elements per slice for nthreads: about n / nthreads, rounded up to 64. */
static inline size_t dropout_parallel_chunk(size_t n, int nthreads)
{
   size_t t = nthreads > 1 ? (size_t)nthreads : 1u;
   size_t per = (n + t - 1) / t;
   return per == 0 ? 64u : (per + 63u) / 64u * 64u;
}

/* The plan checked as the library checks it (a whole-plan slice is the plan itself). */
static inline int dropout_parallel_plan_ok(const dropout_plan *plan)
{
   dropout_plan whole;
   if (!plan) return DROPOUT_ERR_NULL;
   return dropout_plan_slice(plan, 0, plan->count, &whole);
}

#ifdef _OPENMP
#define DROPOUT_PARALLEL__PRAGMA _Pragma("omp parallel for num_threads(dropout_parallel__nt) schedule(static)")
#else
#define DROPOUT_PARALLEL__PRAGMA
#endif

/* The loop every function shares: slice c covers [at, at + m); BODY is one library call on
   that slice, returning a code. After the checks above only the FPU-mode check can refuse
   a slice, and it refuses every slice alike before writing: the first code is returned. */
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
         int e = (BODY);                                                                \
         if (e && c == 0) err = e;                                                      \
      }                                                                                 \
   } while (0)

#define DROPOUT_PARALLEL__DEFINE(T, E)                                                    \
static inline int dropout_forward_##T##_mt(const dropout_plan *plan, E *y, uint8_t *mask,  \
                                           const E *x, int nthreads)                      \
{                                                                                         \
   int err = dropout_parallel_plan_ok(plan);                                              \
   size_t n;                                                                              \
   if (err) return err;                                                                   \
   n = (size_t)plan->count;                                                               \
   if (n > 0 && (!y || !x)) return DROPOUT_ERR_NULL;                                      \
   DROPOUT_PARALLEL__LOOP(n, nthreads, dropout_parallel__forward_##T(plan, at, m, y, mask, x)); \
   return err;                                                                            \
}                                                                                         \
static inline int dropout_backward_##T##_mt(const dropout_plan *plan, E *dx, const E *dy, \
                                            int nthreads)                                 \
{                                                                                         \
   int err = dropout_parallel_plan_ok(plan);                                              \
   size_t n;                                                                              \
   if (err) return err;                                                                   \
   n = (size_t)plan->count;                                                               \
   if (n > 0 && (!dx || !dy)) return DROPOUT_ERR_NULL;                                    \
   DROPOUT_PARALLEL__LOOP(n, nthreads, dropout_parallel__backward_##T(plan, at, m, dx, dy)); \
   return err;                                                                            \
}                                                                                         \
static inline int dropout_apply_mask_##T##_mt(const dropout_rule *rule, size_t n, E *y,   \
                                              const uint8_t *mask, const E *x, int nthreads) \
{                                                                                         \
   int err = 0;                                                                           \
   if (!rule) return DROPOUT_ERR_NULL;                                                    \
   if (n > 0 && (!y || !x || !mask)) return DROPOUT_ERR_NULL;                             \
   if (n == 0) return dropout_apply_mask_##T(rule, 0, y, mask, x);  /* the rule's check */ \
   DROPOUT_PARALLEL__LOOP(n, nthreads,                                                    \
      dropout_apply_mask_##T(rule, m, y + at, mask + at / 8u, x + at));                   \
   return err;                                                                            \
}

/* one slice of a plan: the plan's positions at .. at + m - 1 and the data's elements */
#define DROPOUT_PARALLEL__SLICES(T, E)                                                    \
static inline int dropout_parallel__forward_##T(const dropout_plan *plan, size_t at, size_t m, \
                                               E *y, uint8_t *mask, const E *x)           \
{                                                                                         \
   dropout_plan s;                                                                        \
   int err = dropout_plan_slice(plan, at, m, &s);                                         \
   return err ? err : dropout_forward_##T(&s, y + at, mask ? mask + at / 8u : NULL, x + at); \
}                                                                                         \
static inline int dropout_parallel__backward_##T(const dropout_plan *plan, size_t at, size_t m, \
                                                E *dx, const E *dy)                       \
{                                                                                         \
   dropout_plan s;                                                                        \
   int err = dropout_plan_slice(plan, at, m, &s);                                         \
   return err ? err : dropout_backward_##T(&s, dx + at, dy + at);                         \
}

DROPOUT_PARALLEL__SLICES(f32, float)
DROPOUT_PARALLEL__SLICES(f64, double)
DROPOUT_PARALLEL__SLICES(f16, dropout_f16)
DROPOUT_PARALLEL__SLICES(bf16, dropout_bf16)
DROPOUT_PARALLEL__DEFINE(f32, float)
DROPOUT_PARALLEL__DEFINE(f64, double)
DROPOUT_PARALLEL__DEFINE(f16, dropout_f16)
DROPOUT_PARALLEL__DEFINE(bf16, dropout_bf16)

#endif
