/* compile-fail: built with -freciprocal-math (part of -ffast-math): x / y may become
   x * (1 / y), another rounding. GCC says so (__RECIPROCAL_MATH__); clang defines nothing
   for it, so it is checked with GCC only (under clang the header's code is in its precise
   mode, which undoes it: tests/api checks the bits).
   flags: -freciprocal-math
   compilers: gcc g++
   expect: reciprocal-math */
#define DROPOUT_IMPLEMENTATION   /* the flag matters where the implementation is compiled */
#include "dropout.h"

double realised(const dropout_rule *rule);
double realised(const dropout_rule *rule) { return dropout_rule_p(rule); }
