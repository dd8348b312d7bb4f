/* overlap_ceiling.c - how close the in-cache forward can get to Philox alone with its own
   instructions, if memory cost nothing. Not a test: nothing is asserted.

   The in-cache forward (dropout__run_overlap_body) runs steps of windows (DROPOUT__GROUP,
   or DROPOUT__GROUP_WIDE at the widths that take the wide steps): the step's Philox calls
   with the step before's data chunks between their rounds, then the keep words of the
   step's windows. This program runs exactly those steps, from the header's
   own functions, on data that stays in L1 (the same chunks every step), so the time is
   what the core's execution units need for the instruction mix, with no wait on L2.
   Beside it, in the same run: the Philox calls alone, Philox + keep words, the data alone
   (in L1), the fused steps with the mask stores the forward + mask makes (8 bytes a
   window, in L1), the data alone on 2^16 elements (the second argument sets the power)
   from malloc (in L2: the same apply loop over the whole buffers, no Philox), and the
   library's real forward, without and with the mask, on those elements.

   The ceiling of an in-L2 call with these instructions is the larger of the fused steps
   in L1 (the core's execution units; with the mask stores for forward + mask) and the
   data in L2 (the L2 traffic alone): the last two columns give each call over its own.

   The goal is forward <= 1.15 x max(wall, Philox alone). Where "fused in L1" over
   Philox is already above 1.15, the memory side cannot bring the forward to the goal on
   this core: the execution units running these instructions are the limit. Where it is
   below and the L2 forward is above, the memory side is what is missing.

   Uses the header's private functions (dropout__*), so it follows the header's revision.
   build: cc -std=c99 -O3 -march=native -I. bench/overlap_ceiling.c -o build/overlap_ceiling
   run:   taskset -c 1 ./build/overlap_ceiling [rounds = 2000] [log2 of the elements = 16]
          (15 on a core whose L2 is 512 KiB: 2^16 f32 elements are 256 KiB of x and as much of y) */
#define _POSIX_C_SOURCE 200809L
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if !defined(DROPOUT__OVERLAP)
int main(void)
{
   printf("path %s: the forward has no overlap on this path; nothing to measure\n", DROPOUT__SIMD_NAME);
   return 0;
}
#else

#include "ceiling.h"

enum { M_PHILOX, M_KEEP, M_DATA, M_FUSED, M_FUSED_MASK, M_COUNT };
static uint8_t oc_mask[DROPOUT__GROUP_MAX * 8];   /* M_FUSED_MASK's mask bytes (in L1) */
enum { STEPS = 64 };   /* steps a timed call: 64 steps of DROPOUT__GROUP windows (or the wide ones') */

/* STEPS steps of the overlap body's loop for one dtype and mode (a constant each, as in
   the library's own functions), on the step's chunks at y and x */
#define OC_STEPS(name, dtype, T, mode)                                                                   \
   static __attribute__((noinline)) void name(const uint32_t *ks, unsigned bits, uint32_t *words,    \
                                               uint64_t *kb, T *y, const T *x, float scale)           \
   {                                                                                                  \
      const unsigned group = ceiling_group(dtype, (int)bits), vb = group == DROPOUT__GROUP ? DROPOUT__VB : DROPOUT__VBS; \
      const unsigned per = bits / 2u, calls = group * per / vb;                                       \
      const uint32_t tm1 = 0x19999999u >> (32u - bits);   /* p = 0.1 */                              \
      uint64_t block = 0;                                                                             \
      unsigned g, b, c;                                                                               \
      for (g = 0; g < STEPS; ++g, block += group * per) {                                             \
         for (b = 0; b < calls; ++b) {                                                                \
            const unsigned lo = b * group / calls, hi = (b + 1) * group / calls;                      \
            if ((mode == M_FUSED || mode == M_FUSED_MASK) && vb != DROPOUT__VB)                       \
               DROPOUT__BLOCKS_WIDE_STEP(ks, 7, block + b * vb, words + 4u * vb * b,                   \
                                         dtype, y + 64u * lo, x + 64u * lo, kb + lo, hi - lo, scale, 0); \
            else if (mode == M_FUSED || mode == M_FUSED_MASK)                                         \
               dropout__blocks_apply(ks, 7, block + b * DROPOUT__VB, words + 4u * DROPOUT__VB * b,   \
                                     dtype, y + 64u * lo, x + 64u * lo, kb + lo, hi - lo, scale, 0);    \
            else if (mode == M_DATA)                                                                  \
               for (c = lo; c < hi; ++c) dropout__apply64(dtype, y, x, 64u * c, kb[c], scale, 0);    \
            else if (vb != DROPOUT__VB)                                                               \
               DROPOUT__BLOCKS_WIDE_STEP(ks, 7, block + b * vb, words + 4u * vb * b, dtype, y, x, kb, 0u, scale, 0); \
            else                                                                                      \
               dropout__blocks_simd(ks, 7, block + b * DROPOUT__VB, words + 4u * DROPOUT__VB * b);   \
         }                                                                                            \
         if (mode == M_KEEP || mode == M_FUSED || mode == M_FUSED_MASK)                               \
            for (c = 0; c < group; ++c) {                                                             \
               kb[c] = dropout__window_keep(words + c * 2u * bits, (int)bits, tm1);                  \
               if (mode == M_FUSED_MASK) dropout__store_mask64(oc_mask + 8u * c, kb[c]);             \
            }                                                                                         \
      }                                                                                               \
   }
/* the data alone over n elements (64 at a time, the keep words of one step reused) */
#define OC_DATA_ALL(name, dtype, T)                                                                      \
   static __attribute__((noinline)) void name(const uint64_t *kb, T *y, const T *x, size_t n, float scale) \
   {                                                                                                  \
      size_t c;                                                                                       \
      for (c = 0; c < n / 64u; ++c) dropout__apply64(dtype, y, x, 64u * c, kb[c % DROPOUT__GROUP], scale, 0); \
   }
#define OC_DTYPE(sfx, dtype, T)                                                                       \
   OC_DATA_ALL(oc_data_all_##sfx, dtype, T)                                                          \
   OC_STEPS(oc_philox_##sfx, dtype, T, M_PHILOX)                                                     \
   OC_STEPS(oc_keep_##sfx, dtype, T, M_KEEP)                                                         \
   OC_STEPS(oc_data_##sfx, dtype, T, M_DATA)                                                         \
   OC_STEPS(oc_fused_##sfx, dtype, T, M_FUSED)                                                       \
   OC_STEPS(oc_fused_mask_##sfx, dtype, T, M_FUSED_MASK)
OC_DTYPE(f32, DROPOUT__F32, float)
OC_DTYPE(bf16, DROPOUT__BF16, uint16_t)
OC_DTYPE(f16, DROPOUT__F16, uint16_t)


/* The L1 cases' x and y, each array 2 KiB past the other modulo 4 KiB: a load of x then
   never shares its low 12 address bits with a store to y just before it (4K aliasing,
   which made the L1 steps up to 6% slower when the arrays' sizes moved the compiler's
   placement of them). */
#define OC_L1_BYTES (DROPOUT__GROUP_MAX * 64u * 4u)
#define OC_L1_SPAN ((OC_L1_BYTES + 4095u) / 4096u * 4096u + 2048u)
static unsigned char oc_l1[4 * OC_L1_SPAN] __attribute__((aligned(4096)));

typedef void (*oc_f32_fn)(const uint32_t *, unsigned, uint32_t *, uint64_t *, float *, const float *, float);
typedef void (*oc_u16_fn)(const uint32_t *, unsigned, uint32_t *, uint64_t *, uint16_t *, const uint16_t *, float);

/* the public calls of the same row, timed per 64 of their n elements */
enum { C_FILL = M_COUNT, C_DATA_L2, C_FWD_NOMASK, C_FWD, C_COUNT };

static int oc_main(int rounds, int lg);
int main(int argc, char **argv)
{
   int rounds = 2000, lg;
   return ceiling_args(argc, argv, "overlap_ceiling", &rounds, &lg) ? 2 : oc_main(rounds, lg);
}

static int oc_main(int rounds, int lg)
{
   const size_t n = (size_t)1 << lg;   /* the public calls' elements: in L2 */
   static const unsigned widths[3] = {8, 16, 32};
   static const char *dname[3] = {"f32", "bf16", "f16"};
   static const oc_f32_fn f32_fns[M_COUNT] = {oc_philox_f32, oc_keep_f32, oc_data_f32, oc_fused_f32, oc_fused_mask_f32};
   static const oc_u16_fn bf16_fns[M_COUNT] = {oc_philox_bf16, oc_keep_bf16, oc_data_bf16, oc_fused_bf16, oc_fused_mask_bf16};
   static const oc_u16_fn f16_fns[M_COUNT] = {oc_philox_f16, oc_keep_f16, oc_data_f16, oc_fused_f16, oc_fused_mask_f16};
   static uint32_t words[DROPOUT__GROUP_MAX * 64];
   static uint64_t kb[DROPOUT__GROUP_MAX];
   float *const ys = (float *)(void *)oc_l1, *const xs = (float *)(void *)(oc_l1 + OC_L1_SPAN);
   uint16_t *const yh = (uint16_t *)(void *)(oc_l1 + 2 * OC_L1_SPAN), *const xh = (uint16_t *)(void *)(oc_l1 + 3 * OC_L1_SPAN);
   const dropout_key key = dropout_key_make(42, 7);
   float *x = (float *)malloc(n * 4), *y = (float *)malloc(n * 4);
   uint16_t *x16 = (uint16_t *)malloc(n * 2), *y16 = (uint16_t *)malloc(n * 2);
   uint32_t *w = (uint32_t *)malloc(n * 4);
   uint8_t *mask = (uint8_t *)malloc(n / 8);
   uint32_t ks[20];
   size_t i;
   int d, b, c, r;
   if (!x || !y || !x16 || !y16 || !w || !mask) return 1;
   for (i = 0; i < n; ++i) {
      x[i] = (float)(i % 1000) * 0.001f - 0.5f;
      x16[i] = (uint16_t)(0x3800u + i % 500u);   /* normal numbers in both bf16 and f16 */
   }
   for (i = 0; i < DROPOUT__GROUP_MAX * 64; ++i) {
      xs[i] = x[i];
      xh[i] = x16[i];
   }
   for (i = 0; i < DROPOUT__GROUP_MAX; ++i) kb[i] = 0x5555aaaa3333ccccull * (i + 1);
   dropout__key_schedule(42, ks);
   printf("path %s, best of %d rounds, ns per 64 elements; in brackets, over Philox alone (fill_u32)\n\n",
          DROPOUT__SIMD_NAME, rounds);
   printf("| dtype | bits | Philox alone (fill_u32) | the step's Philox calls | + keep words | data in L1 |"
          " fused in L1 | fused + mask stores in L1 | data in L2 | forward, 2^%d (L2) | forward + mask, 2^%d (L2) |"
          " forward / max(fused, data in L2) | forward + mask / max(fused + mask stores, data in L2) |\n"
          "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", lg, lg);
   for (d = 0; d < 3; ++d)
      for (b = 0; b < 3; ++b) {
         const unsigned bits = widths[b];
         static const int dtypes[3] = {DROPOUT__F32, DROPOUT__BF16, DROPOUT__F16};
         const double step_per = 1e9 / (STEPS * ceiling_group(dtypes[d], (int)bits)), call_per = 64e9 / (double)n;
         double best[C_COUNT];
         dropout_rule rule;
         dropout_plan plan;
         /* p = 0.1 as the steps above draw it (quantised at 8 bits: dropout_rule_init refuses
            0.1 there, and a refused plan would time calls that do nothing) */
         if (dropout_rule_init_quantised(&rule, 0.1, (dropout_bits)bits) != DROPOUT_OK ||
             dropout_plan_at(&plan, &rule, key, dropout_pos_make(0), n) != DROPOUT_OK) {
            fprintf(stderr, "overlap_ceiling: no plan for p = 0.1 at %u bits\n", bits);
            return 1;
         }
         for (c = 0; c < C_COUNT; ++c) best[c] = 1e30;
         for (r = 0; r < rounds; ++r)
            for (c = 0; c < C_COUNT; ++c) {   /* the cases in alternation: the same moments */
               double t0 = ceiling_now(), t;
               if (c == C_FILL) dropout_fill_u32(key, dropout_pos_make(0), w, n / 32u * bits);
               else if (c == C_DATA_L2 && d == 0) oc_data_all_f32(kb, y, x, n, 1.1111112f);
               else if (c == C_DATA_L2 && d == 1) oc_data_all_bf16(kb, y16, x16, n, 1.1111112f);
               else if (c == C_DATA_L2) oc_data_all_f16(kb, y16, x16, n, 1.1111112f);
               else if (c == C_FWD || c == C_FWD_NOMASK) {   /* forward + mask, forward alone */
                  uint8_t *m = c == C_FWD ? mask : NULL;
                  if (d == 0) dropout_replay_f32(&plan, (size_t)plan.count, y, m, x);
                  else if (d == 1)
                     dropout_replay_bf16(&plan, (size_t)plan.count, (dropout_bf16 *)(void *)y16, m, (const dropout_bf16 *)(const void *)x16);
                  else
                     dropout_replay_f16(&plan, (size_t)plan.count, (dropout_f16 *)(void *)y16, m, (const dropout_f16 *)(const void *)x16);
               }
               else if (d == 0) f32_fns[c](ks, bits, words, kb, ys, xs, 1.1111112f);
               else if (d == 1) bf16_fns[c](ks, bits, words, kb, yh, xh, 1.1111112f);
               else f16_fns[c](ks, bits, words, kb, yh, xh, 1.1111112f);
               t = (ceiling_now() - t0) * (c >= C_FILL ? call_per : step_per);
               if (t < best[c]) best[c] = t;
            }
         printf("| %s | %u | %.2f | %.2f | %.2f | %.2f | %.2f (%.2f) | %.2f | %.2f | %.2f | %.2f | **%.3f** | **%.3f** |\n",
                dname[d], bits, best[C_FILL], best[M_PHILOX], best[M_KEEP], best[M_DATA], best[M_FUSED],
                best[M_FUSED] / best[C_FILL], best[M_FUSED_MASK], best[C_DATA_L2], best[C_FWD_NOMASK], best[C_FWD],
                best[C_FWD_NOMASK] / ceiling_max(best[M_FUSED], best[C_DATA_L2]),
                best[C_FWD] / ceiling_max(best[M_FUSED_MASK], best[C_DATA_L2]));
      }
   free(x); free(y); free(x16); free(y16); free(w); free(mask);
   return 0;
}
#endif
