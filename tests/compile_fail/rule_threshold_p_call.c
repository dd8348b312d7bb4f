/* compile-fail: p where dropout_rule_init_threshold takes the threshold, t = p * 2^bits.
   dropout_rule_init_threshold(&r, 0.1, DROPOUT_BITS_16) had compiled (gcc and g++ silent,
   clang warning for a literal p only) as threshold 0: p = 0, nothing dropped, every call
   returning 0. The call takes an integer threshold only, as DROPOUT_RULE_THRESHOLD does.
   expect: invalid operands|invalid operand|must have integral|integral or unscoped enum */
#include "dropout.h"

int make_rule(dropout_rule *r, double p);
int make_rule(dropout_rule *r, double p)
{
#ifdef RIGHT
   return dropout_rule_init_threshold(r, (uint64_t)(p * 65536.0 + 0.5), DROPOUT_BITS_16);
#else
   return dropout_rule_init_threshold(r, p, DROPOUT_BITS_16);
#endif
}
