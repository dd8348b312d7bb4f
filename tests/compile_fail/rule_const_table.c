/* compile-fail: a rule in a const table whose fields disagree (issue 31: {128, 3.0, 3.0f, 8}
   scaled kept elements by 3). DROPOUT_RULE_THRESHOLD computes the scales from the
   threshold and the width, and a threshold past 2^bits or a width other than 8, 16, 32
   does not compile (the run-time check refuses hand-written rules: tests/api).
   expect: negative */
#include "dropout.h"

#ifdef RIGHT
static const dropout_rule table[2] = { DROPOUT_RULE_THRESHOLD(256, 8), DROPOUT_RULE_THRESHOLD(26, 8) };
#else
static const dropout_rule table[2] = { DROPOUT_RULE_THRESHOLD(257, 8), DROPOUT_RULE_THRESHOLD(26, 12) };
#endif

double first_scale(void);
double first_scale(void) { return table[0].scale_f64 + table[1].scale_f64; }
