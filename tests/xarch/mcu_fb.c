/* mcu_fb.c - what forward + backward f32 cost in flash on a microcontroller.
   tests/xarch/suite.sh links this alone for a Cortex-M4 (-Os, no libc, unused code
   collected away) and reports the library's bytes and libgcc's (soft-float helpers).
   The rule is built from an integer threshold (26 / 256, p ~ 0.1), so no double
   arithmetic is linked: the suite holds the total to 2.5 KB with the FPU, 3.5 KB without. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

int mcu_fb(float *y, float *dx, const float *x, const float *dy, size_t n, uint64_t pos);
int mcu_fb(float *y, float *dx, const float *x, const float *dy, size_t n, uint64_t pos)
{
   dropout_rule rule;
   dropout_plan plan;
   int err = dropout_rule_init_threshold(&rule, 26, DROPOUT_BITS_8);
   if (!err) err = dropout_plan_at(&plan, &rule, dropout_key_make(1234, 0), dropout_pos_make(pos), n);
   if (!err) err = dropout_replay_f32(&plan, (size_t)plan.count, y, NULL, x);
   return err ? err : dropout_backward_f32(&plan, (size_t)plan.count, dx, dy);
}
