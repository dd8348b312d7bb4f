/* compile-fail: dropout_alpha_rule_make's p and bits swapped, dropout_alpha_rule_make(16,
   p). It had compiled silently as an alpha rule of bits 0 (a = 0: every output 0).
   The building block takes an integer bits only, as dropout_rule_make does.
   expect: invalid operands|invalid operand|must have integral|integral or unscoped enum */
#include "dropout.h"

float alpha_one(float x, double p, uint32_t draw);
float alpha_one(float x, double p, uint32_t draw)
{
#ifdef RIGHT
   dropout_alpha_rule r = dropout_alpha_rule_make(p, DROPOUT_BITS_16);
#else
   dropout_alpha_rule r = dropout_alpha_rule_make(16, p);
#endif
   return dropout_alpha_apply_f32(x, dropout_keep(draw, r.base), r);
}
