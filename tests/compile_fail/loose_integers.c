/* compile-fail: the 0.1 call with loose p, bits, offset, seed, stream (here rotated, as in
   the issue). The 1.0 call takes the generator and the rule that carry them all: the loose
   spelling has too many arguments.
   expect-c: too many arguments
   expect-clang++: requires 7 arguments, but 9 were provided
   expect-g++: cannot convert .float\*. to .dropout_gen\*. */
#include "dropout.h"

int forward(const dropout_rule *rule, float *y, const float *x, size_t n, uint64_t off);
int forward(const dropout_rule *rule, float *y, const float *x, size_t n, uint64_t off)
{
   dropout_gen g;
   dropout_gen_init(&g, dropout_key_make(1234, 0));
#ifdef RIGHT
   g.next = off;
   return dropout_forward_f32(&g, rule, NULL, n, y, NULL, x);
#else
   (void)rule;
   return dropout_forward_f32(y, NULL, x, n, 0.1, 8, off, g.key.seed, g.key.stream);
#endif
}
