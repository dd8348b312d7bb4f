/* test_parallel.c - examples/dropout_parallel.h: every dtype's forward (with and without
   a mask), backward and stored-mask apply on 1, 2 and 3 threads gives the same bits as
   the library's one call, for sizes around the 64-element chunk edges, odd positions and
   every draw width; bad arguments return the library's code and write nothing. run.sh
   builds it without OpenMP (the slicing alone); tests/examples/suite.sh builds it again
   with -fopenmp, where the slices really run on threads. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "examples/dropout_parallel.h"
#include "check.h"

#include <string.h>

enum { NMAX = 4099 };

static float xf[NMAX], yf[2][NMAX];
static double xd[NMAX], yd[2][NMAX];
static dropout_f16 xh[NMAX], yh[2][NMAX];
static dropout_bf16 xb[NMAX], yb[2][NMAX];
static uint8_t mk[2][NMAX / 8 + 2];   /* one byte past the mask: must stay untouched */

/* two plans field by field (a plan has padding after units, which memcmp would read) */
static int same_plan(const dropout_plan *a, const dropout_plan *b)
{
   return a->rule.threshold == b->rule.threshold && a->rule.bits == b->rule.bits && a->key.seed == b->key.seed &&
          a->key.stream == b->key.stream && a->pos == b->pos && a->count == b->count && a->units == b->units;
}

static const size_t sizes[] = {0, 1, 63, 64, 65, 127, 129, 1000, NMAX};
static const double ps[] = {0.0, 0.1, 0.5, 1.0};
static const dropout_bits widths[] = {DROPOUT_BITS_8, DROPOUT_BITS_16, DROPOUT_BITS_32};
static const uint64_t positions[] = {0, 7, 1000003};

static void fill_inputs(void)
{
   size_t i;
   for (i = 0; i < NMAX; ++i) {
      xf[i] = (float)i * 0.25f - 100.0f;
      xd[i] = (double)i * 0.125 - 50.0;
      xh[i].bits = (uint16_t)(0x3c00u + (i * 37u) % 0x3000u);   /* f16 1.0 and up */
      xb[i].bits = xh[i].bits;                                    /* fine bf16 bits too */
   }
}

/* one case per dtype: CHECKs over every size, p, width, position and thread count */
#define CASE_DTYPE(T, X, Y, NAME)                                                          \
   do {                                                                                  \
      size_t si; int pi, wi, oi, th;                                                      \
      for (si = 0; si < sizeof sizes / sizeof *sizes; ++si)                               \
      for (pi = 0; pi < 4; ++pi) for (wi = 0; wi < 3; ++wi) for (oi = 0; oi < 3; ++oi)    \
      for (th = 1; th <= 3; ++th) {                                                        \
         const size_t n = sizes[si], mb = (n + 7) / 8;                                     \
         dropout_rule rule; dropout_plan plan;                                             \
         int e0, e1;                                                                        \
         CHECK(dropout_rule_init_quantised(&rule, ps[pi], widths[wi]) == DROPOUT_OK, "rule"); \
         CHECK(dropout_plan_at(&plan, &rule, dropout_key_make(11, 3),                       \
                               dropout_pos_make(positions[oi]), n) == DROPOUT_OK, "plan"); \
         memset(Y[0], 0xa5, sizeof Y[0]); memset(Y[1], 0xa5, sizeof Y[1]);                  \
         memset(mk[0], 0x5a, sizeof mk[0]); memset(mk[1], 0x5a, sizeof mk[1]);              \
         e0 = dropout_replay_##T(&plan, n, Y[0], mk[0], X);                                 \
         e1 = dropout_replay_##T##_mt(&plan, n, Y[1], mk[1], X, th);                        \
         CHECK(e0 == 0 && e1 == 0, "forward n=%zu: codes %d %d", n, e0, e1);                \
         CHECK(!memcmp(Y[0], Y[1], sizeof Y[0]) && !memcmp(mk[0], mk[1], mb + 1),           \
               "forward n=%zu p=%g bits=%d pos=%llu threads=%d: output or mask differs",   \
               n, ps[pi], (int)widths[wi], (unsigned long long)positions[oi], th);          \
         {  /* a step's forward from a generator at the plan's position: the same bits */     \
            dropout_gen g0, g1;                                                             \
            dropout_plan p0, p1;                                                            \
            dropout_gen_resume(&g0, plan.key, plan.pos, (dropout_units)rule.bits);           \
            dropout_gen_resume(&g1, plan.key, plan.pos, (dropout_units)rule.bits);           \
            e0 = dropout_forward_##T(&g0, &rule, &p0, n, Y[0], NULL, X);                    \
            e1 = dropout_forward_##T##_mt(&g1, &rule, &p1, n, Y[1], NULL, X, th);           \
            CHECK(e0 == 0 && e1 == 0 && !memcmp(Y[0], Y[1], sizeof Y[0]) &&                \
                  g0.next == g1.next && g1.next == plan.pos + n && same_plan(&p0, &p1),          \
                  "forward without mask n=%zu threads=%d differs", n, th);                 \
         }                                                                                 \
         e0 = dropout_backward_##T(&plan, n, Y[0], X);                                      \
         e1 = dropout_backward_##T##_mt(&plan, n, Y[1], X, th);                             \
         CHECK(e0 == 0 && e1 == 0 && !memcmp(Y[0], Y[1], sizeof Y[0]),                       \
               "backward n=%zu threads=%d differs", n, th);                                \
         e0 = dropout_apply_mask_##T(&rule, n, Y[0], mk[0], X);                             \
         e1 = dropout_apply_mask_##T##_mt(&rule, n, Y[1], mk[0], X, th);                    \
         CHECK(e0 == 0 && e1 == 0 && !memcmp(Y[0], Y[1], sizeof Y[0]),                       \
               "apply_mask n=%zu threads=%d differs", n, th);                              \
      }                                                                                   \
      case_end("parallel " NAME ": forward (from a generator), replay+mask, backward, apply_mask on 1-3 threads = one call"); \
   } while (0)

/* bad arguments: the library's code, and not one element written */
#define CASE_ERRORS(T, X, Y, NAME)                                                         \
   do {                                                                                  \
      static const uint8_t untouched[sizeof Y[1]] = {0};                                  \
      dropout_rule rule; dropout_plan plan, bad;                                          \
      dropout_rule_init(&rule, 0.5, DROPOUT_BITS_8);                                      \
      dropout_plan_at(&plan, &rule, dropout_key_make(1, 0), dropout_pos_make(0), 100);    \
      bad = plan; bad.pos = UINT64_MAX - 10;                                              \
      memset(Y[1], 0, sizeof Y[1]);                                                       \
      CHECK(dropout_replay_##T##_mt(NULL, 100, Y[1], NULL, X, 2) == DROPOUT_ERR_NULL_PLAN, "NULL plan"); \
      CHECK(dropout_replay_##T##_mt(&bad, 100, Y[1], NULL, X, 2) == DROPOUT_ERR_RANGE, "range"); \
      CHECK(dropout_replay_##T##_mt(&plan, 100, Y[1], NULL, NULL, 2) == DROPOUT_ERR_NULL_INPUT, "NULL x"); \
      CHECK(dropout_replay_##T##_mt(&plan, 64, Y[1], NULL, X, 2) == DROPOUT_ERR_COUNT, "count"); \
      CHECK(dropout_backward_##T##_mt(&bad, 100, Y[1], X, 3) == DROPOUT_ERR_RANGE, "backward range"); \
      CHECK(dropout_apply_mask_##T##_mt(&rule, 100, Y[1], NULL, X, 3) == DROPOUT_ERR_NULL_MASK, "NULL mask"); \
      CHECK(dropout_forward_##T##_mt(NULL, &rule, NULL, 100, Y[1], NULL, X, 2) == DROPOUT_ERR_NULL_GEN, "NULL g"); \
      CHECK(!memcmp(Y[1], untouched, sizeof untouched), "an erroring call wrote output");  \
      {  /* a GAUSSIAN layer's plan (normals): the library refuses it before the count and  \
            the pointers, and so must the helpers, whatever else is wrong with the call */    \
         dropout_plan nm;                                                                 \
         dropout_plan_at_normals(&nm, &rule, dropout_key_make(1, 0), dropout_pos_make(0), 0); \
         CHECK(dropout_replay_##T##_mt(&nm, 0, Y[1], NULL, X, 2) == DROPOUT_ERR_PLAN_UNITS &&  \
               dropout_backward_##T##_mt(&nm, 0, Y[1], X, 2) == DROPOUT_ERR_PLAN_UNITS,       \
               "an empty normals plan: not the library's PLAN_UNITS");                     \
         dropout_plan_at_normals(&nm, &rule, dropout_key_make(1, 0), dropout_pos_make(0), 100); \
         CHECK(dropout_replay_##T##_mt(&nm, 64, Y[1], NULL, X, 2) == DROPOUT_ERR_PLAN_UNITS && \
               dropout_replay_##T##_mt(&nm, 100, NULL, NULL, X, 2) == DROPOUT_ERR_PLAN_UNITS && \
               dropout_backward_##T##_mt(&nm, 100, Y[1] + 30, Y[1], 3) == DROPOUT_ERR_PLAN_UNITS, \
               "a normals plan with a wrong count, a NULL y or an overlap: not PLAN_UNITS first"); \
         CHECK(dropout_replay_##T(&nm, 64, Y[1], NULL, X) == DROPOUT_ERR_PLAN_UNITS,          \
               "the library's own code for a normals plan is not PLAN_UNITS");             \
      }                                                                                   \
      CHECK(!memcmp(Y[1], untouched, sizeof untouched), "a normals plan wrote output");    \
      /* an output partly over its input: refused before any slice writes (a short last  \
         slice alone would pass, and had written) */                                      \
      dropout_plan_at(&plan, &rule, dropout_key_make(1, 0), dropout_pos_make(0), 200);    \
      CHECK(dropout_backward_##T##_mt(&plan, 200, Y[1] + 30, Y[1], 4) == DROPOUT_ERR_OVERLAP && \
            dropout_replay_##T##_mt(&plan, 200, Y[1] + 64, mk[1], Y[1], 4) == DROPOUT_ERR_OVERLAP && \
            dropout_replay_##T##_mt(&plan, 200, Y[1], (uint8_t *)(void *)(Y[1] + 100), X, 3) == DROPOUT_ERR_OVERLAP && \
            dropout_apply_mask_##T##_mt(&rule, 200, Y[1] + 1, mk[1], Y[1], 4) == DROPOUT_ERR_OVERLAP, \
            "an output partly over its input, or the mask inside the output: not refused"); \
      CHECK(!memcmp(Y[1], untouched, sizeof untouched), "an overlapping call wrote output"); \
      case_end("parallel " NAME ": bad arguments (overlaps, a normals plan too) return the library's codes, nothing written"); \
   } while (0)

int main(void)
{
   fill_inputs();
   CASE_DTYPE(f32, xf, yf, "f32");
   CASE_DTYPE(f64, xd, yd, "f64");
   CASE_DTYPE(f16, xh, yh, "f16");
   CASE_DTYPE(bf16, xb, yb, "bf16");
   CASE_ERRORS(f32, xf, yf, "f32");
   CASE_ERRORS(f64, xd, yd, "f64");
   CASE_ERRORS(f16, xh, yh, "f16");
   CASE_ERRORS(bf16, xb, yb, "bf16");
   {  /* a thread count far past the slices (a typo, a core count from a config, INT_MAX):
         libgomp exited the process at 40000; the same bits on what is started */
      static const int many[] = {2000, 100000, 2147483647};
      dropout_rule r;
      dropout_plan p;
      int k, ok = 1;
      dropout_rule_init(&r, 0.5, DROPOUT_BITS_16);
      dropout_plan_at(&p, &r, dropout_key_make(1, 2), dropout_pos_make(5), NMAX);
      dropout_replay_f32(&p, NMAX, yf[0], NULL, xf);
      for (k = 0; k < 3; ++k) {
         memset(yf[1], 0, sizeof yf[1]);
         ok &= dropout_replay_f32_mt(&p, NMAX, yf[1], NULL, xf, many[k]) == DROPOUT_OK && !memcmp(yf[0], yf[1], sizeof yf[1]);
         ok &= dropout_replay_f32_mt(&p, 64, yf[1], NULL, xf, many[k]) == DROPOUT_ERR_COUNT;
      }
      if (ok) printf("PASS parallel: 2000, 100000 and INT_MAX threads asked for: the one call's bits (threads capped at the slices and %d)\n",
                     DROPOUT_PARALLEL_MAX_THREADS);
      else printf("FAIL parallel: a huge thread count changed the result or the code\n");
      if (!ok) ++check__total_fails;
   }
#ifdef _OPENMP
   printf("    (built with OpenMP %d)\n", _OPENMP);
#endif
   return check_exit();
}
