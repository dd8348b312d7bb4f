/* mcu_fb.c - what forward + backward f32 cost in flash on a microcontroller.
   tests/xarch/suite.sh links this alone for a Cortex-M4 (-Os, no libc, unused code
   collected away) and reports the library's bytes and libgcc's (soft-float helpers). */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

int mcu_fb(float *y, float *dx, const float *x, const float *dy, size_t n, uint64_t offset);
int mcu_fb(float *y, float *dx, const float *x, const float *dy, size_t n, uint64_t offset)
{
   int err = dropout_forward_f32(y, NULL, x, n, 0.1, 8, 1234, 0, offset);
   return err ? err : dropout_backward_f32(dx, dy, n, 0.1, 8, 1234, 0, offset);
}
