/* compile-fail: built with -ffast-math (0.1: NaN p passed validation, and 9 of the 13 digest
   groups changed). The implementation file stops with an #error that names the fix
   (a file with the declarations alone may use -ffast-math: suite.sh builds one).
   flags: -ffast-math
   expect: fast-math */
#define DROPOUT_IMPLEMENTATION   /* the flag matters where the implementation is compiled */
#include "dropout.h"

double realised(const dropout_rule *rule);
double realised(const dropout_rule *rule) { return dropout_rule_p(rule); }
