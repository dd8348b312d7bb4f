/* compile-fail: built with -ffast-math (0.1: NaN p passed validation, and 9 of the 13 digest
   groups changed). The header stops with an #error that names the fix.
   flags: -ffast-math
   expect: fast-math */
#include "dropout.h"

double realised(const dropout_rule *rule);
double realised(const dropout_rule *rule) { return dropout_rule_p(rule); }
