/* compile-fail: built with -ffinite-math-only (part of -ffast-math): NaN checks on p and
   sigma would be compiled away. The header stops with an #error.
   flags: -ffinite-math-only
   expect: finite-math */
#define DROPOUT_IMPLEMENTATION   /* the flag matters where the implementation is compiled */
#include "dropout.h"

double realised(const dropout_rule *rule);
double realised(const dropout_rule *rule) { return dropout_rule_p(rule); }
