/* compile-fail: dropout_rule_make's p and bits swapped, dropout_rule_make(16, p). It had
   compiled silently (all four compilers, -Wall -Wextra) as threshold 16 of bits 0: each
   element kept was scaled by -1/15. The building block takes an integer bits only.
   expect: invalid operands|invalid operand|must have integral|integral or unscoped enum */
#include "dropout.h"

float drop_one(float x, double p, uint32_t draw);
float drop_one(float x, double p, uint32_t draw)
{
#ifdef RIGHT
   dropout_rule r = dropout_rule_make(p, 16);
#else
   dropout_rule r = dropout_rule_make(16, p);
#endif
   return dropout_apply_f32(x, dropout_keep(draw, r), r);
}
