/* compile-fail: output and input of one type swapped. No type tells dx from dy, but every
   input is a pointer to const: an input declared const (as gradients passed in usually are)
   cannot be given as the output. (A non-const input swapped with the output compiles: see
   docs/API.md, "the mistake no type catches".)
   expect-c: discards.*const|const.*discards
   expect-c++: const float|invalid conversion|cannot initialize|no matching function
   expect: const */
#include "dropout.h"

int backward(const dropout_plan *plan, float *dx, const float *dy);
int backward(const dropout_plan *plan, float *dx, const float *dy)
{
#ifdef RIGHT
   return dropout_backward_f32(plan, (size_t)plan->count, dx, dy);
#else
   return dropout_backward_f32(plan, (size_t)plan->count, dy, dx);
#endif
}
