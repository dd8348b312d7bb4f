/* compile-fail: p where DROPOUT_RULE_THRESHOLD takes the threshold, t = p * 2^bits.
   DROPOUT_RULE_THRESHOLD(0.1, 16) had compiled as threshold 0 (p = 0: nothing dropped,
   silently); a threshold must be an integer.
   expect: invalid operands|invalid operand|must have integral|integral or unscoped enum */
#include "dropout.h"

#ifdef RIGHT
static const dropout_rule drop10 = DROPOUT_RULE_THRESHOLD(6554, 16);
#else
static const dropout_rule drop10 = DROPOUT_RULE_THRESHOLD(0.1, 16);
#endif

double the_scale(void);
double the_scale(void) { return drop10.scale_f64; }
