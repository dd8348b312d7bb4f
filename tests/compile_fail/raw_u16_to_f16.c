/* compile-fail: raw uint16_t data to the f16 call: the call wants dropout_f16, so the buffer
   says which 16-bit format it holds (a cast is the caller's explicit statement).
   expect-c: incompatible pointer type
   expect-c++: cannot convert|no matching function|cannot initialize
   expect: dropout_f16 */
#include "dropout.h"

int forward(const dropout_plan *plan, uint16_t *y, const uint16_t *x);
int forward(const dropout_plan *plan, uint16_t *y, const uint16_t *x)
{
#ifdef RIGHT
   return dropout_replay_f16(plan, (size_t)plan->count, (dropout_f16 *)(void *)y, NULL, (const dropout_f16 *)(const void *)x);
#else
   return dropout_replay_f16(plan, (size_t)plan->count, y, NULL, x);
#endif
}
