/* control: every short call spelled right, in C99 and C++11. It must compile with the same
   flags as the snippets beside it, so that their failures prove the mistake and not a
   broken compiler or header.
   expect: compiles */
#include "dropout.h"

int layer(float *y, uint8_t *mask, const float *x, float *dx, const float *dy,
          dropout_f16 *yh, const dropout_f16 *xh, dropout_bf16 *yb, const dropout_bf16 *xb,
          const float *bias, const float *residual, size_t n);
int layer(float *y, uint8_t *mask, const float *x, float *dx, const float *dy,
          dropout_f16 *yh, const dropout_f16 *xh, dropout_bf16 *yb, const dropout_bf16 *xb,
          const float *bias, const float *residual, size_t n)
{
   dropout_rule rule;
   dropout_gen g;
   dropout_plan plan, at, half;
   uint32_t words[4];
   int err = dropout_rule_init(&rule, 0.1, DROPOUT_BITS_8);
   dropout_gen_init(&g, dropout_key_make(1234, 0));
   err = err ? err : dropout_gen_plan(&g, &rule, n, &plan);
   err = err ? err : dropout_replay_f32(&plan, (size_t)plan.count, y, mask, x);
   err = err ? err : dropout_backward_f32(&plan, (size_t)plan.count, dx, dy);
   err = err ? err : dropout_replay_f16(&plan, (size_t)plan.count, yh, NULL, xh);
   err = err ? err : dropout_replay_bf16(&plan, (size_t)plan.count, yb, NULL, xb);
   err = err ? err : dropout_mask(&plan, (size_t)plan.count, mask);
   err = err ? err : dropout_apply_mask_f32(&rule, n, y, mask, x);
   err = err ? err : dropout_bias_dropout_add_replay_f32(&plan, (size_t)plan.count, 16, y, mask, x, bias, residual);
   err = err ? err : dropout_plan_at(&at, &rule, dropout_key_make(1234, 0), dropout_pos_make(0), n);
   err = err ? err : dropout_plan_slice(&plan, 0, n / 2, &half);
   err = err ? err : dropout_fill_u32(dropout_key_make(7, 1), dropout_pos_make(0), words, 4);
   (void)dropout_stream_u32(dropout_key_make(7, 1), dropout_pos_make(3));
   (void)dropout_rule_p(&rule);
   (void)dropout_strerror(err);
   return err;
}
