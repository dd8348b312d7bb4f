/* grid_variant.c - one copy of dropout.h behind a suffix, for bench/ab/grid.c (`make bench-ab`).

   Built against a revision's dropout.h (A), against the working tree's (B), and both again
   with AB_MOVE (C: A's code at other addresses, D: B's), with VNAME=A, B, C, D; objcopy
   then hides every symbol but ab_grid_* so that all four link into one program. A header with the 1.0 calls (the Makefile says so with AB_API_1) is timed
   through them: a plan per call and its replay, as a step's chunks run. An older one
   (0.1.0, 0.9.0) through the 0.1.0 calls, which each of those has (0.9.0: DROPOUT_V0_API).
   The same elements, positions and bits either way. Compiled as a user's program
   compiles the header (extern functions, not DROPOUT_STATIC). */
#ifndef AB_API_1
#define DROPOUT_V0_API
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 spelling, which every older revision builds */
#endif
#define DROPOUT_IMPLEMENTATION

#define AB_CAT2(a, b) a##b
#define AB_CAT(a, b) AB_CAT2(a, b)
#define V(name) AB_CAT(name, VNAME)

#ifdef AB_MOVE
/* A' (VNAME=C) and B' (VNAME=D): the same header with every function at another address;
   AB_MOVE_BYTES of code first, 200 unless bench/ab/places.sh says otherwise (not a
   multiple of 64: the loops fall elsewhere in their cache lines) */
#ifndef AB_MOVE_BYTES
#define AB_MOVE_BYTES 200
#endif
#define AB_STR2(x) #x
#define AB_STR(x) AB_STR2(x)
void V(ab_grid_move)(void);
void V(ab_grid_move)(void) { __asm__ volatile(".skip " AB_STR(AB_MOVE_BYTES) ", 0x90"); }
#endif
#include "dropout.h"

/* the grid's operations and dtypes (bench/ab/grid.c has the same numbers) */
enum { OP_FWD_MASK, OP_FWD, OP_MASK, OP_BWD, OP_BWD_MASK, OP_FUSED };
enum { DT_F32, DT_BF16, DT_F16 };

int V(ab_grid_call)(int op, int dt, int bits, void *y, uint8_t *mask, const void *x, const void *bias,
                    const void *res, size_t n, size_t cols, uint64_t offset);
int V(ab_grid_fill)(uint32_t *w, size_t n);
const char *V(ab_grid_path)(void);

#ifdef AB_API_1
/* the 1.0 calls: the rule as the 0.1.0 calls realise p = 0.1 (quantised at 8 bits) */
static int ab_plan(dropout_plan *plan, int bits, size_t n, uint64_t offset)
{
   dropout_rule rule;
   int rc = dropout_rule_init_quantised(&rule, 0.1, (dropout_bits)bits);
   if (!rc) rc = dropout_plan_at(plan, &rule, dropout_key_make(42, 7), dropout_pos_make(offset), n);
   return rc;
}

/* p = 0.1, seed 42, stream 7; elements n from position `offset` (fused: n / cols rows) */
int V(ab_grid_call)(int op, int dt, int bits, void *y, uint8_t *mask, const void *x, const void *bias,
                    const void *res, size_t n, size_t cols, uint64_t offset)
{
   dropout_plan plan;
   int rc = ab_plan(&plan, bits, n, offset);
   if (rc) return rc;
   if (op == OP_MASK) return dropout_mask(&plan, n, mask);
   if (dt == DT_F32) {
      float *yf = (float *)y;
      const float *xf = (const float *)x;
      switch (op) {
      case OP_FWD_MASK: return dropout_replay_f32(&plan, n, yf, mask, xf);
      case OP_FWD: return dropout_replay_f32(&plan, n, yf, NULL, xf);
      case OP_BWD: return dropout_backward_f32(&plan, n, yf, xf);
      case OP_BWD_MASK: return dropout_apply_mask_f32(&plan.rule, n, yf, mask, xf);
      default: return dropout_bias_dropout_add_replay_f32(&plan, n, cols, yf, mask, xf, (const float *)bias, (const float *)res);
      }
   } else if (dt == DT_BF16) {
      dropout_bf16 *yh = (dropout_bf16 *)y;
      const dropout_bf16 *xh = (const dropout_bf16 *)x;
      switch (op) {
      case OP_FWD_MASK: return dropout_replay_bf16(&plan, n, yh, mask, xh);
      case OP_FWD: return dropout_replay_bf16(&plan, n, yh, NULL, xh);
      case OP_BWD: return dropout_backward_bf16(&plan, n, yh, xh);
      case OP_BWD_MASK: return dropout_apply_mask_bf16(&plan.rule, n, yh, mask, xh);
      default:
         return dropout_bias_dropout_add_replay_bf16(&plan, n, cols, yh, mask, xh, (const dropout_bf16 *)bias, (const dropout_bf16 *)res);
      }
   } else {
      dropout_f16 *yh = (dropout_f16 *)y;
      const dropout_f16 *xh = (const dropout_f16 *)x;
      switch (op) {
      case OP_FWD_MASK: return dropout_replay_f16(&plan, n, yh, mask, xh);
      case OP_FWD: return dropout_replay_f16(&plan, n, yh, NULL, xh);
      case OP_BWD: return dropout_backward_f16(&plan, n, yh, xh);
      case OP_BWD_MASK: return dropout_apply_mask_f16(&plan.rule, n, yh, mask, xh);
      default:
         return dropout_bias_dropout_add_replay_f16(&plan, n, cols, yh, mask, xh, (const dropout_f16 *)bias, (const dropout_f16 *)res);
      }
   }
}

/* Philox alone: words 0 .. n - 1 of the same stream */
int V(ab_grid_fill)(uint32_t *w, size_t n)
{
   return dropout_fill_u32(dropout_key_make(42, 7), dropout_pos_make(0), w, n);
}
#else
/* p = 0.1, seed 42, stream 7; elements n from position `offset` (fused: n / cols rows) */
int V(ab_grid_call)(int op, int dt, int bits, void *y, uint8_t *mask, const void *x, const void *bias,
                    const void *res, size_t n, size_t cols, uint64_t offset)
{
   const double p = 0.1;
   const uint64_t seed = 42, stream = 7;
   if (op == OP_MASK) return dropout_mask(mask, n, p, bits, seed, stream, offset);
   if (dt == DT_F32) {
      float *yf = (float *)y;
      const float *xf = (const float *)x;
      switch (op) {
      case OP_FWD_MASK: return dropout_forward_f32(yf, mask, xf, n, p, bits, seed, stream, offset);
      case OP_FWD: return dropout_forward_f32(yf, NULL, xf, n, p, bits, seed, stream, offset);
      case OP_BWD: return dropout_backward_f32(yf, xf, n, p, bits, seed, stream, offset);
      case OP_BWD_MASK: return dropout_backward_mask_f32(yf, xf, mask, n, p, bits);
      default:
         return dropout_bias_dropout_add_f32(yf, mask, xf, (const float *)bias, (const float *)res, n / cols, cols,
                                             p, bits, seed, stream, offset);
      }
   } else {
      uint16_t *yh = (uint16_t *)y;
      const uint16_t *xh = (const uint16_t *)x;
      const int bf = dt == DT_BF16;
      switch (op) {
      case OP_FWD_MASK:
         return bf ? dropout_forward_bf16(yh, mask, xh, n, p, bits, seed, stream, offset)
                   : dropout_forward_f16(yh, mask, xh, n, p, bits, seed, stream, offset);
      case OP_FWD:
         return bf ? dropout_forward_bf16(yh, NULL, xh, n, p, bits, seed, stream, offset)
                   : dropout_forward_f16(yh, NULL, xh, n, p, bits, seed, stream, offset);
      case OP_BWD:
         return bf ? dropout_backward_bf16(yh, xh, n, p, bits, seed, stream, offset)
                   : dropout_backward_f16(yh, xh, n, p, bits, seed, stream, offset);
      case OP_BWD_MASK:
         return bf ? dropout_backward_mask_bf16(yh, xh, mask, n, p, bits)
                   : dropout_backward_mask_f16(yh, xh, mask, n, p, bits);
      default:
         return bf ? dropout_bias_dropout_add_bf16(yh, mask, xh, (const uint16_t *)bias, (const uint16_t *)res, n / cols,
                                                   cols, p, bits, seed, stream, offset)
                   : dropout_bias_dropout_add_f16(yh, mask, xh, (const uint16_t *)bias, (const uint16_t *)res, n / cols,
                                                  cols, p, bits, seed, stream, offset);
      }
   }
}

/* Philox alone: words 0 .. n - 1 of the same stream */
int V(ab_grid_fill)(uint32_t *w, size_t n)
{
   return dropout_fill_u32(w, n, 42, 7, 0);
}

#endif

/* the SIMD path this build of the header takes */
const char *V(ab_grid_path)(void)
{
#ifdef DROPOUT__SIMD_NAME
   return DROPOUT__SIMD_NAME;
#else
   return "?";
#endif
}
