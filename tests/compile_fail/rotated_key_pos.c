/* compile-fail: key and position rotated (0.1 took seed, stream and offset as three adjacent
   uint64_t, so any order compiled and gave a valid, different mask). A key and a position
   are now distinct types: the rotated call does not compile.
   expect-c: incompatible type
   expect-c++: dropout_pos.*dropout_key|dropout_key.*dropout_pos|no matching function|no viable conversion
   expect: dropout_key */
#include "dropout.h"

int make_plan(dropout_plan *plan, const dropout_rule *rule, size_t n);
int make_plan(dropout_plan *plan, const dropout_rule *rule, size_t n)
{
   dropout_key key = dropout_key_make(1234, 0);
   dropout_pos first = dropout_pos_make(4096);
#ifdef RIGHT
   return dropout_plan_at(plan, rule, key, first, n);
#else
   return dropout_plan_at(plan, rule, first, key, n);
#endif
}
