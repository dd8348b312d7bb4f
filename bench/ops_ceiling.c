/* ops_ceiling.c - the grid's other in-cache ops (mask alone, both backwards, the fused op)
   against ceilings made of their own instructions, as overlap_ceiling.c does for the
   forward. Not a test: nothing is asserted.

   Each op on 2^16 elements (in L2; the second argument sets the power), p = 0.1, against
   the larger of what its instructions need with the data in L1 (the core's execution
   units) and what its data alone needs in L2 (the L2 traffic), both from the header's own
   functions:
   - mask alone: the steps' Philox calls, keep words and mask stores (in L1);
   - backward without a mask (it draws the mask again): the forward's steps, the data
     between the Philox rounds in L1 (it runs the same code), and its data alone in L2;
   - backward from the stored mask (no Philox): its data alone in L2;
   - the fused op (bias-dropout-add, rows of 1024, the mask written): its overlap's steps
     with its chunks and the mask stores in L1, and its chunks alone over the whole
     arrays in L2. Where the fused op does not take its overlap (DROPOUT__FUSED_OVERLAP_TAKES:
     f16 with AVX2) the call runs the mask and the data one after the other, and its
     ratio shows what the overlap would be worth there.
   Each library call and each data-alone case runs twice and the second is timed: the
   case before it in the round (the fused op's four f32 arrays are 1 MiB) has pushed its
   data out of L2, and the first run puts it back.
   Uses the header's private functions (dropout__*), so it follows the header's revision.
   build: cc -std=c99 -O3 -march=native -I. bench/ops_ceiling.c -o build/ops_ceiling
   run:   ./build/ops_ceiling [rounds = 1000] [log2 of the elements = 16] */
#define _POSIX_C_SOURCE 200809L
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if !defined(DROPOUT__OVERLAP) || !DROPOUT__FUSED_OVERLAP
int main(void)
{
   printf("path %s: no overlap of the fused op on this path; nothing to measure\n", DROPOUT__SIMD_NAME);
   return 0;
}
#else

#include "ceiling.h"

enum { STEPS = 64 };   /* steps a timed L1 case: 64 steps of DROPOUT__GROUP windows (or the wide ones') */
enum { COLS = 1024 };  /* the fused op's rows */
static uint8_t oc_mask[DROPOUT__GROUP_MAX * 8];   /* the L1 cases' mask bytes */

/* The L1 cases' y, x, bias and residual, each array 1 KiB past the one before modulo 4 KiB:
   a load never shares its low 12 address bits with a store to y just before it (4K
   aliasing, which moved the L1 cases when the arrays' sizes moved the compiler's
   placement of them) */
#define OPS_L1_SPAN ((DROPOUT__GROUP_MAX * 64u * 4u + 4095u) / 4096u * 4096u + 1024u)
static unsigned char ops_l1[8 * OPS_L1_SPAN] __attribute__((aligned(4096)));

/* The L1 cases, STEPS steps on the same chunks (dtype a constant each): mode 0, Philox +
   keep words + mask stores (the mask alone's steps, DROPOUT__GROUP windows); 1, the
   forward's steps (data between the rounds, no mask; the wide steps where the forward
   takes them); 2, the fused op's steps (its chunks between the rounds, the mask). */
#define OPS_STEPS(name, dtype, mode)                                                                   \
   static __attribute__((noinline)) void name(const uint32_t *ks, const dropout_rule *r, uint32_t *words, \
                                               uint64_t *kb, char *y, const char *x, const char *b,      \
                                               const char *res)                                          \
   {                                                                                                    \
      const unsigned group = mode == 1 ? ceiling_group(dtype, r->bits) : DROPOUT__GROUP;                  \
      const unsigned vb = group == DROPOUT__GROUP ? DROPOUT__VB : DROPOUT__VBS;                         \
      const unsigned per = (unsigned)r->bits / 2u, calls = group * per / vb;                            \
      const uint32_t tm1 = (uint32_t)(r->threshold - 1u);                                              \
      const size_t es = dtype == DROPOUT__F32 ? 4u : 2u;                                               \
      const char *bp[DROPOUT__GROUP];                                                                   \
      uint64_t block = 0;                                                                               \
      unsigned g, k, c;                                                                                 \
      for (c = 0; c < DROPOUT__GROUP; ++c) bp[c] = b + 64u * c * es;                                    \
      for (g = 0; g < STEPS; ++g, block += group * per) {                                               \
         for (k = 0; k < calls; ++k) {                                                                  \
            const unsigned lo = k * group / calls, hi = (k + 1) * group / calls;                        \
            if (mode == 1 && vb != DROPOUT__VB)                                                         \
               DROPOUT__BLOCKS_WIDE_STEP(ks, 7, block + k * vb, words + 4u * vb * k, dtype,              \
                                         y + 64u * lo * es, x + 64u * lo * es, kb + lo, hi - lo, r->scale_f32, 0); \
            else if (mode == 1)                                                                         \
               dropout__blocks_apply(ks, 7, block + k * DROPOUT__VB, words + 4u * DROPOUT__VB * k, dtype, \
                                     y + 64u * lo * es, x + 64u * lo * es, kb + lo, hi - lo, r->scale_f32, 0); \
            else if (mode == 2)                                                                         \
               dropout__blocks_fused(ks, 7, block + k * DROPOUT__VB, words + 4u * DROPOUT__VB * k, dtype, \
                                     y + 64u * lo * es, x + 64u * lo * es, bp + lo, res + 64u * lo * es,   \
                                     kb + lo, hi - lo, r, 0);                                           \
            else                                                                                        \
               dropout__blocks_simd(ks, 7, block + k * DROPOUT__VB, words + 4u * DROPOUT__VB * k);     \
         }                                                                                              \
         for (c = 0; c < group; ++c) {                                                                  \
            kb[c] = dropout__window_keep(words + c * 2u * (unsigned)r->bits, r->bits, tm1);            \
            if (mode != 1) dropout__store_mask64(oc_mask + 8u * c, kb[c]);                             \
         }                                                                                              \
      }                                                                                                 \
   }
/* The data alone over the n elements in L2 (the keep words of one step reused): the plain
   apply (the backwards'), or the fused op's chunks (bias rows of COLS) */
#define OPS_DATA(name, dtype, fused)                                                                   \
   static __attribute__((noinline)) void name(const dropout_rule *r, const uint64_t *kb, char *y,      \
                                               const char *x, const char *b, const char *res, size_t n)  \
   {                                                                                                    \
      const size_t es = dtype == DROPOUT__F32 ? 4u : 2u;                                               \
      size_t c;                                                                                         \
      for (c = 0; c < n / 64u; ++c) {                                                                   \
         if (fused)                                                                                     \
            dropout__fused64(dtype, y + 64u * c * es, x + 64u * c * es, b + (64u * c % COLS) * es,      \
                             res + 64u * c * es, kb[c % DROPOUT__GROUP], r, 0);                         \
         else dropout__apply64(dtype, y, x, 64u * c, kb[c % DROPOUT__GROUP], r->scale_f32, 0);         \
      }                                                                                                 \
   }
#define OPS_DTYPE(sfx, dtype)                                                                          \
   OPS_STEPS(ops_mask_##sfx, dtype, 0)                                                                 \
   OPS_STEPS(ops_fwd_##sfx, dtype, 1)                                                                  \
   OPS_STEPS(ops_fused_##sfx, dtype, 2)                                                                \
   OPS_DATA(ops_data_##sfx, dtype, 0)                                                                  \
   OPS_DATA(ops_fdata_##sfx, dtype, 1)
OPS_DTYPE(f32, DROPOUT__F32)
OPS_DTYPE(bf16, DROPOUT__BF16)
OPS_DTYPE(f16, DROPOUT__F16)

typedef void (*ops_steps_fn)(const uint32_t *, const dropout_rule *, uint32_t *, uint64_t *, char *, const char *,
                             const char *, const char *);
typedef void (*ops_data_fn)(const dropout_rule *, const uint64_t *, char *, const char *, const char *, const char *,
                            size_t);

/* the cases, timed in alternation: L1 steps, L2 data alone, the library's calls */
enum { S_MASK, S_FWD, S_FUSED, D_DATA, D_FDATA, L_MASK, L_BWD, L_BWD_MASK, L_FUSED, K_COUNT };


/* one library call of case k, dtype d (0 f32, 1 bf16, 2 f16) */
static void ops_call(int k, int d, const dropout_plan *plan, size_t n, void *y, uint8_t *mask, const void *x,
                     const void *b, const void *res)
{
   if (k == L_MASK) dropout_mask(plan, n, mask);
   else if (d == 0) {
      if (k == L_BWD) dropout_backward_f32(plan, n, (float *)y, (const float *)x);
      else if (k == L_BWD_MASK) dropout_apply_mask_f32(&plan->rule, n, (float *)y, mask, (const float *)x);
      else dropout_bias_dropout_add_replay_f32(plan, n, COLS, (float *)y, mask, (const float *)x, (const float *)b,
                                               (const float *)res);
   } else if (d == 1) {
      if (k == L_BWD) dropout_backward_bf16(plan, n, (dropout_bf16 *)y, (const dropout_bf16 *)x);
      else if (k == L_BWD_MASK) dropout_apply_mask_bf16(&plan->rule, n, (dropout_bf16 *)y, mask, (const dropout_bf16 *)x);
      else dropout_bias_dropout_add_replay_bf16(plan, n, COLS, (dropout_bf16 *)y, mask, (const dropout_bf16 *)x,
                                                (const dropout_bf16 *)b, (const dropout_bf16 *)res);
   } else {
      if (k == L_BWD) dropout_backward_f16(plan, n, (dropout_f16 *)y, (const dropout_f16 *)x);
      else if (k == L_BWD_MASK) dropout_apply_mask_f16(&plan->rule, n, (dropout_f16 *)y, mask, (const dropout_f16 *)x);
      else dropout_bias_dropout_add_replay_f16(plan, n, COLS, (dropout_f16 *)y, mask, (const dropout_f16 *)x,
                                               (const dropout_f16 *)b, (const dropout_f16 *)res);
   }
}

static int ops_main(int rounds, int lg);
int main(int argc, char **argv)
{
   int rounds = 1000, lg;
   return ceiling_args(argc, argv, "ops_ceiling", &rounds, &lg) ? 2 : ops_main(rounds, lg);
}

static int ops_main(int rounds, int lg)
{
   const size_t n = (size_t)1 << lg;
   static const unsigned widths[3] = {8, 16, 32};
   static const char *dname[3] = {"f32", "bf16", "f16"};
   static const ops_steps_fn steps[3][3] = {{ops_mask_f32, ops_fwd_f32, ops_fused_f32},
                                            {ops_mask_bf16, ops_fwd_bf16, ops_fused_bf16},
                                            {ops_mask_f16, ops_fwd_f16, ops_fused_f16}};
   static const ops_data_fn data[3][2] = {{ops_data_f32, ops_fdata_f32}, {ops_data_bf16, ops_fdata_bf16},
                                          {ops_data_f16, ops_fdata_f16}};
   static uint32_t words[DROPOUT__GROUP_MAX * 64];
   static uint64_t kb[DROPOUT__GROUP_MAX];
   float *l1[4];      /* the L1 cases' y, x, bias, residual (f32), in ops_l1 */
   uint16_t *l1h[4];  /* (bf16, f16) */
   float *big[4];                              /* the 2^lg-element y, x, bias (COLS), residual */
   uint16_t *bigh[4];
   char *p1[2][4], *p2[2][4];                  /* the same as bytes: [0] f32, [1] bf16 and f16 */
   uint8_t *mask = (uint8_t *)malloc(n / 8);
   const dropout_key key = dropout_key_make(42, 7);
   uint32_t ks[20];
   size_t i;
   int a, d, bi, k, r;
   for (a = 0; a < 4; ++a) {   /* normal numbers in every dtype (a NaN would take the scalar loop) */
      l1[a] = (float *)(void *)(ops_l1 + (size_t)a * OPS_L1_SPAN);
      l1h[a] = (uint16_t *)(void *)(ops_l1 + (size_t)(4 + a) * OPS_L1_SPAN);
      if (!(big[a] = (float *)malloc(n * 4)) || !(bigh[a] = (uint16_t *)malloc(n * 2))) return 1;
      for (i = 0; i < n; ++i) {
         big[a][i] = (float)((i * (unsigned)(a + 3)) % 1000) * 0.001f + 0.25f;
         bigh[a][i] = (uint16_t)(0x3800u + (i * (unsigned)(a + 3)) % 500u);
      }
      for (i = 0; i < DROPOUT__GROUP_MAX * 64; ++i) {
         l1[a][i] = big[a][i];
         l1h[a][i] = bigh[a][i];
      }
   }
   if (!mask) return 1;
   for (a = 0; a < 4; ++a) {
      p1[0][a] = (char *)l1[a];
      p1[1][a] = (char *)l1h[a];
      p2[0][a] = (char *)big[a];
      p2[1][a] = (char *)bigh[a];
   }
   for (i = 0; i < DROPOUT__GROUP_MAX; ++i) kb[i] = 0x5555aaaa3333ccccull * (i + 1);
   dropout__key_schedule(42, ks);
   printf("path %s, best of %d rounds, ns per 64 elements; 2^%d elements (L2), p = 0.1; the ceiling of a call:"
          " the larger of its steps in L1 and its data alone in L2\n\n", DROPOUT__SIMD_NAME, rounds, lg);
   printf("| dtype | bits | mask alone / its steps in L1 | backward / max(forward's steps in L1, data in L2) |"
          " backward from the mask / data in L2 | fused op / max(its steps + mask in L1, its data in L2) | fused op"
          " takes its overlap |\n|---|---:|---|---|---|---|:---:|\n");
   for (d = 0; d < 3; ++d)
      for (bi = 0; bi < 3; ++bi) {
         const unsigned bits = widths[bi];
         static const int dtypes[3] = {DROPOUT__F32, DROPOUT__BF16, DROPOUT__F16};
         const double step_per = 1e9 / (STEPS * DROPOUT__GROUP), call_per = 64e9 / (double)n;
         const double fwd_step_per = 1e9 / (STEPS * ceiling_group(dtypes[d], (int)bits));
         const int overlap = DROPOUT__FUSED_OVERLAP_TAKES(d == 0 ? DROPOUT__F32 : d == 1 ? DROPOUT__BF16 : DROPOUT__F16, bits);
         double best[K_COUNT];
         dropout_rule rule;
         dropout_plan plan;
         if (dropout_rule_init_quantised(&rule, 0.1, (dropout_bits)bits) != DROPOUT_OK ||
             dropout_plan_at(&plan, &rule, key, dropout_pos_make(0), n) != DROPOUT_OK) {
            fprintf(stderr, "ops_ceiling: no plan for p = 0.1 at %u bits\n", bits);
            return 1;
         }
         for (k = 0; k < K_COUNT; ++k) best[k] = 1e30;
         for (r = 0; r < rounds; ++r)
            for (k = 0; k < K_COUNT; ++k) {
               char *const *s1 = p1[d != 0], *const *s2 = p2[d != 0];
               double t0 = 0.0, t;
               int twice;
               /* the L2 cases twice, the first untimed: the case before (the fused op's 1 MiB
                  of f32 arrays) has pushed this one's data out of L2 */
               for (twice = k <= S_FUSED; twice < 2; ++twice) {
                  t0 = ceiling_now();
                  if (k <= S_FUSED) steps[d][k](ks, &plan.rule, words, kb, s1[0], s1[1], s1[2], s1[3]);
                  else if (k <= D_FDATA) data[d][k - D_DATA](&plan.rule, kb, (char *)s2[0], (const char *)s2[1],
                                                             (const char *)s2[2], (const char *)s2[3], n);
                  else ops_call(k, d, &plan, n, s2[0], mask, s2[1], s2[2], s2[3]);
               }
               t = (ceiling_now() - t0) * (k == S_FWD ? fwd_step_per : k <= S_FUSED ? step_per : call_per);
               if (t < best[k]) best[k] = t;
            }
         printf("| %s | %u | %.2f / %.2f = **%.3f** | %.2f / max(%.2f, %.2f) = **%.3f** | %.2f / %.2f = **%.3f** |"
                " %.2f / max(%.2f, %.2f) = **%.3f** | %s |\n",
                dname[d], bits, best[L_MASK], best[S_MASK], best[L_MASK] / best[S_MASK],
                best[L_BWD], best[S_FWD], best[D_DATA], best[L_BWD] / ceiling_max(best[S_FWD], best[D_DATA]),
                best[L_BWD_MASK], best[D_DATA], best[L_BWD_MASK] / best[D_DATA],
                best[L_FUSED], best[S_FUSED], best[D_FDATA], best[L_FUSED] / ceiling_max(best[S_FUSED], best[D_FDATA]),
                overlap ? "yes" : "no");
      }
   for (a = 0; a < 4; ++a) {
      free(big[a]);
      free(bigh[a]);
   }
   free(mask);
   return 0;
}
#endif
