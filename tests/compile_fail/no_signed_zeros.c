/* compile-fail: built with -fno-signed-zeros (part of -ffast-math): dropped elements are +0
   and -0 * scale must stay -0. GCC says so (__NO_SIGNED_ZEROS__); clang defines nothing for
   it, so it is checked with GCC only (under clang the header's code is in its precise mode,
   which undoes it: tests/api checks the bits).
   flags: -fno-signed-zeros
   compilers: gcc g++
   expect: signed-zeros */
#define DROPOUT_IMPLEMENTATION   /* the flag matters where the implementation is compiled */
#include "dropout.h"

double realised(const dropout_rule *rule);
double realised(const dropout_rule *rule) { return dropout_rule_p(rule); }
