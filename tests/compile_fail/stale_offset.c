/* compile-fail: the stale offset. In 0.1, dropout_gen_next advanced g.offset and handed the
   reserved offset back separately; passing g.offset compiled and overlapped the next layer.
   In 1.0 the reservation hands back the plan itself, and the generator's next position is a
   plain count, not a dropout_pos: building a plan from it does not compile.
   expect-c: incompatible type
   expect-c++: cannot convert|no matching function|no viable conversion|could not convert
   expect: dropout_pos */
#include "dropout.h"

int layer(dropout_gen *g, const dropout_rule *rule, float *y, const float *x, size_t n);
int layer(dropout_gen *g, const dropout_rule *rule, float *y, const float *x, size_t n)
{
   dropout_plan plan;
   int err = dropout_gen_plan(g, rule, n, &plan);
   if (err) return err;
#ifdef RIGHT
   return dropout_replay_f32(&plan, (size_t)plan.count, y, NULL, x);
#else
   err = dropout_plan_at(&plan, rule, g->key, g->next, n);   /* g->next is past this layer */
   return err ? err : dropout_replay_f32(&plan, (size_t)plan.count, y, NULL, x);
#endif
}
