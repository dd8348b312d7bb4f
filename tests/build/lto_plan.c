/* lto_plan.c: issue 31's -Werror trap. A dropout_plan_at whose code is not checked, then
   the plan used: with DROPOUT_STATIC or -flto the compiler sees through the call, and if
   dropout_plan_at left *out unwritten on an error path, gcc's -Wmaybe-uninitialized
   (an error under -Werror) would stop the build. tests/build/suite.sh builds this with
   DROPOUT_STATIC and with -flto, -O2 -Werror, and runs it: the refused plan is empty. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include <stdio.h>

int main(int argc, char **argv)
{
   static float x[64], y[64];
   dropout_rule rule;
   dropout_plan plan;
   (void)argv;
   dropout_rule_init(&rule, argc > 5 ? 2.0 : 0.5, DROPOUT_BITS_8);   /* not checked */
   dropout_plan_at(&plan, argc > 3 ? NULL : &rule, dropout_key_make(1, 2), dropout_pos_make(0), 64);   /* not checked */
   printf("%d %llu\n", dropout_replay_f32(&plan, 64, y, NULL, x), (unsigned long long)plan.count);
   return 0;
}
