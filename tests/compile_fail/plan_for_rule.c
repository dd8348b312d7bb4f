/* compile-fail: forward and backward of one layer disagreeing on p, bits or coordinates.
   Both take the one plan; a rule (p and width only) is not a plan.
   expect-c: incompatible pointer type
   expect-c++: cannot convert|no matching function|cannot initialize
   expect: dropout_plan */
#include "dropout.h"

int backward(const dropout_plan *plan, size_t n, float *dx, const float *dy);
int backward(const dropout_plan *plan, size_t n, float *dx, const float *dy)
{
#ifdef RIGHT
   return dropout_backward_f32(plan, n, dx, dy);
#else
   return dropout_backward_f32(&plan->rule, n, dx, dy);
#endif
}
