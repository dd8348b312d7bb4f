/* dropout_parallel.h - the threading recipe for dropout.h, as a tiny header.

   dropout.h itself has no threads. A plan splits into slices (dropout_plan_slice: the
   positions start + 0 .. start + count - 1 of the whole plan), each with its own output
   slice; any split gives the same bits as one call. Slices here start at multiples of 64
   elements: whole mask bytes and whole keep words, so no two threads ever write the same
   mask byte.

   For each dtype T in f32, f64, f16 and bf16 (dropout_f16 / dropout_bf16 as in dropout.h):
      dropout_forward_T_mt     (g, rule, plan, n, y, mask, x, nthreads)   a step: fresh positions
      dropout_replay_T_mt      (plan, n, y, mask, x, nthreads)
      dropout_backward_T_mt    (plan, n, dx, dy, nthreads)          overwrites dx
      dropout_apply_mask_T_mt  (rule, n, y, mask, x, nthreads)
   the library's call of the same name without _mt, on nthreads threads. The plan, the
   count and the pointers are checked once, before any thread writes, and the return codes
   are the library's.

   With OpenMP (-fopenmp) the slices run on `nthreads` threads (at most one a slice, and
   at most DROPOUT_PARALLEL_MAX_THREADS, 256 unless defined); without it they run one
   after the other, with identical results. Include dropout.h first.

   These calls take contiguous tensors. A strided view splits the same way by rows: each
   thread takes the plan slice of its rows (dropout_plan_slice(&whole, r0 * cols, rows *
   cols, &part)), dropout_desc_init with it, the shape {rows, cols}, its strides, and its
   tensors' pointers at row r0, then dropout_run: the bits of the one call. */
#ifndef DROPOUT_PARALLEL_H
#define DROPOUT_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

/* Threads past this are not started (nor past the slices there are): 40000 asked for
   made libgomp exit the process ("Thread creation failed"), and the bits never depend on
   the count. */
#ifndef DROPOUT_PARALLEL_MAX_THREADS
#define DROPOUT_PARALLEL_MAX_THREADS 256
#endif

/* Elements per slice for nthreads (at most DROPOUT_PARALLEL_MAX_THREADS): about
   n / nthreads, rounded up to 64. */
static inline size_t dropout_parallel_chunk(size_t n, int nthreads)
{
   size_t t = nthreads > 1 ? (size_t)nthreads : 1u;
   if (t > DROPOUT_PARALLEL_MAX_THREADS) t = DROPOUT_PARALLEL_MAX_THREADS;
   size_t per = (n + t - 1) / t;
   return per == 0 ? 64u : (per + 63u) / 64u * 64u;
}

/* The plan and the count checked as the library checks them (a whole-plan slice is the
   plan itself). */
static inline int dropout_parallel_plan_ok(const dropout_plan *plan, size_t n, size_t es)
{
   dropout_plan whole;
   int err;
   if (!plan) return DROPOUT_ERR_NULL_PLAN;
   /* the library's own check of a plan of dropout draws, in its order: a plan of normals
      (GAUSSIAN, NOISE) is DROPOUT_ERR_PLAN_UNITS before any count or buffer is looked at */
   err = dropout_mask(plan, 0, NULL);
   if (err && err != DROPOUT_ERR_COUNT) return err;
   err = dropout_plan_slice(plan, 0, plan->count, &whole);
   if (err) return err;
   if ((uint64_t)n > (uint64_t)PTRDIFF_MAX / es) return DROPOUT_ERR_SIZE;
   return (uint64_t)n == plan->count ? DROPOUT_OK : DROPOUT_ERR_COUNT;
}

/* Do [a, a + an) and [b, b + bn) (bytes) share memory? */
static inline int dropout_parallel__meets(const void *a, size_t an, const void *b, size_t bn)
{
   uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
   if (!a || !b || an == 0 || bn == 0) return 0;
   return pa < pb + bn && pb < pa + an;
}

/* The whole buffers, as the one call checks them: an output partly over its input, or
   the mask over the output (or, where the mask is written, over the input), is the
   library's DROPOUT_ERR_OVERLAP. Each slice alone could pass (its parts may not meet)
   and write before another slice is refused. */
static inline int dropout_parallel_buffers_ok(size_t n, size_t es, const void *y, const uint8_t *mask,
                                              int mask_written, const void *x)
{
   size_t bytes = n * es, mb = (n + 7u) / 8u;
   if ((y != x && dropout_parallel__meets(y, bytes, x, bytes)) || dropout_parallel__meets(mask, mb, y, bytes) ||
       (mask_written && dropout_parallel__meets(mask, mb, x, bytes)))
      return DROPOUT_ERR_OVERLAP;
   return DROPOUT_OK;
}

#ifdef _OPENMP
#define DROPOUT_PARALLEL__PRAGMA _Pragma("omp parallel for num_threads(dropout_parallel__nt) schedule(static)")
#define DROPOUT_PARALLEL__ONE_AT_A_TIME _Pragma("omp critical(dropout_parallel__err)")
#else
#define DROPOUT_PARALLEL__PRAGMA
#define DROPOUT_PARALLEL__ONE_AT_A_TIME
#endif

/* The loop every function shares: slice c covers [at, at + m); BODY is one library call on
   that slice, returning a code. After the checks above no slice is refused; were one, its
   code would be returned (of several, one of them: the threads write err one at a time). */
#define DROPOUT_PARALLEL__LOOP(n, nthreads, BODY)                                        \
   do {                                                                                 \
      const size_t dropout_parallel__per = dropout_parallel_chunk(n, nthreads);          \
      const long dropout_parallel__chunks =                                              \
         (long)((n + dropout_parallel__per - 1) / dropout_parallel__per);                \
      const int dropout_parallel__nt = (int)(nthreads < 1 || dropout_parallel__chunks < 1 ? 1 : \
         nthreads > DROPOUT_PARALLEL_MAX_THREADS ? DROPOUT_PARALLEL_MAX_THREADS :        \
         (long)nthreads > dropout_parallel__chunks ? dropout_parallel__chunks : nthreads); \
      long c;                                                                           \
      (void)dropout_parallel__nt;                                                       \
      DROPOUT_PARALLEL__PRAGMA                                                          \
      for (c = 0; c < dropout_parallel__chunks; ++c) {                                  \
         const size_t at = (size_t)c * dropout_parallel__per;                           \
         const size_t m = n - at < dropout_parallel__per ? n - at : dropout_parallel__per; \
         int e = (BODY);                                                                \
         if (e) {                                                                       \
            DROPOUT_PARALLEL__ONE_AT_A_TIME                                             \
            err = e;                                                                    \
         }                                                                              \
      }                                                                                 \
   } while (0)

#define DROPOUT_PARALLEL__DEFINE(T, E)                                                    \
static inline int dropout_replay_##T##_mt(const dropout_plan *plan, size_t n, E *y, uint8_t *mask, \
                                          const E *x, int nthreads)                       \
{                                                                                         \
   int err = dropout_parallel_plan_ok(plan, n, sizeof(E));                                \
   if (err) return err;                                                                   \
   if (n > 0 && !y) return DROPOUT_ERR_NULL_OUTPUT;                                       \
   if (n > 0 && !x) return DROPOUT_ERR_NULL_INPUT;                                        \
   err = dropout_parallel_buffers_ok(n, sizeof(E), y, mask, 1, x);                        \
   if (err) return err;                                                                   \
   DROPOUT_PARALLEL__LOOP(n, nthreads, dropout_parallel__replay_##T(plan, at, m, y, mask, x)); \
   return err;                                                                            \
}                                                                                         \
static inline int dropout_forward_##T##_mt(dropout_gen *g, const dropout_rule *rule,       \
                                           dropout_plan *plan, size_t n, E *y,            \
                                           uint8_t *mask, const E *x, int nthreads)       \
{                                                                                         \
   dropout_plan p;                                                                        \
   const uint64_t next_was = g ? g->next : 0;                                             \
   const dropout_units units_was = g ? g->units : DROPOUT_UNITS_NONE;                     \
   int err = dropout_gen_plan(g, rule, (uint64_t)n, &p);                                  \
   if (err) return err;                                                                   \
   err = dropout_replay_##T##_mt(&p, n, y, mask, x, nthreads);                            \
   if (err) { g->next = next_was; g->units = units_was; return err; }  /* g moves only on success */ \
   if (plan) *plan = p;                                                                   \
   return DROPOUT_OK;                                                                     \
}                                                                                         \
static inline int dropout_backward_##T##_mt(const dropout_plan *plan, size_t n, E *dx,    \
                                            const E *dy, int nthreads)                    \
{                                                                                         \
   int err = dropout_parallel_plan_ok(plan, n, sizeof(E));                                \
   if (err) return err;                                                                   \
   if (n > 0 && !dx) return DROPOUT_ERR_NULL_OUTPUT;                                      \
   if (n > 0 && !dy) return DROPOUT_ERR_NULL_INPUT;                                       \
   err = dropout_parallel_buffers_ok(n, sizeof(E), dx, NULL, 0, dy);                      \
   if (err) return err;                                                                   \
   DROPOUT_PARALLEL__LOOP(n, nthreads, dropout_parallel__backward_##T(plan, at, m, dx, dy)); \
   return err;                                                                            \
}                                                                                         \
static inline int dropout_apply_mask_##T##_mt(const dropout_rule *rule, size_t n, E *y,   \
                                              const uint8_t *mask, const E *x, int nthreads) \
{                                                                                         \
   int err = 0;                                                                           \
   if (!rule) return DROPOUT_ERR_NULL_RULE;                                               \
   if (n == 0 || (uint64_t)n > (uint64_t)PTRDIFF_MAX / sizeof(E) || !y || !x || !mask)    \
      return dropout_apply_mask_##T(rule, n, y, mask, x);   /* the library's checks */    \
   err = dropout_apply_mask_##T(rule, 0, y, mask, x);       /* the rule's check */        \
   if (!err) err = dropout_parallel_buffers_ok(n, sizeof(E), y, mask, 0, x);              \
   if (err) return err;                                                                   \
   DROPOUT_PARALLEL__LOOP(n, nthreads,                                                    \
      dropout_apply_mask_##T(rule, m, y + at, mask + at / 8u, x + at));                   \
   return err;                                                                            \
}

/* one slice of a plan: the plan's positions at .. at + m - 1 and the data's elements */
#define DROPOUT_PARALLEL__SLICES(T, E)                                                    \
static inline int dropout_parallel__replay_##T(const dropout_plan *plan, size_t at, size_t m, \
                                              E *y, uint8_t *mask, const E *x)            \
{                                                                                         \
   dropout_plan s;                                                                        \
   int err = dropout_plan_slice(plan, at, m, &s);                                         \
   return err ? err : dropout_replay_##T(&s, m, y + at, mask ? mask + at / 8u : NULL, x + at); \
}                                                                                         \
static inline int dropout_parallel__backward_##T(const dropout_plan *plan, size_t at, size_t m, \
                                                E *dx, const E *dy)                       \
{                                                                                         \
   dropout_plan s;                                                                        \
   int err = dropout_plan_slice(plan, at, m, &s);                                         \
   return err ? err : dropout_backward_##T(&s, m, dx + at, dy + at);                      \
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
