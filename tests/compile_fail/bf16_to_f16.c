/* compile-fail: bf16 data given to the f16 call (0.1: both uint16_t *, wrong numbers and no
   error). dropout_f16 and dropout_bf16 are distinct structs.
   expect-c: incompatible pointer type
   expect-c++: cannot convert|no matching function|cannot initialize
   expect: dropout_bf16 */
#include "dropout.h"

int forward(const dropout_plan *plan, dropout_bf16 *y, const dropout_bf16 *x);
int forward(const dropout_plan *plan, dropout_bf16 *y, const dropout_bf16 *x)
{
#ifdef RIGHT
   return dropout_replay_bf16(plan, (size_t)plan->count, y, NULL, x);
#else
   return dropout_replay_f16(plan, (size_t)plan->count, y, NULL, x);
#endif
}
