/* mcu_fb.c - what forward + backward f32 cost in flash on a microcontroller.
   tests/xarch/suite.sh links this alone for a Cortex-M4 (-Os, no libc, unused code
   collected away) and reports the library's bytes and libgcc's (soft-float helpers).
   The rule is a constant of a const table (DROPOUT_RULE_THRESHOLD: 26 / 256, p ~ 0.1),
   checked when it compiles, so no double arithmetic is linked: the suite holds the total
   to 2.5 KB with the FPU, 3.5 KB without. Each call still checks the rule's fields.
   README's other two rows make the rule at run time instead, from an argument (so that
   the compiler cannot fold it): MCU_FB_RULE=1 from a threshold (integers only), 2 from a
   double p (which links soft double without an FPU for doubles). */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#if !defined(MCU_FB_RULE)
static const dropout_rule rule = DROPOUT_RULE_THRESHOLD(26, 8);

int mcu_fb(float *y, float *dx, const float *x, const float *dy, size_t n, dropout_gen *g);
int mcu_fb(float *y, float *dx, const float *x, const float *dy, size_t n, dropout_gen *g)
{
   dropout_plan plan;
   int err = dropout_forward_f32(g, &rule, &plan, n, y, NULL, x);   /* the step's fresh positions */
   return err ? err : dropout_backward_f32(&plan, n, dx, dy);
}
#else
#if MCU_FB_RULE == 1
#define MCU_FB_ARG uint64_t threshold
#define MCU_FB_RULE_INIT(r) dropout_rule_init_threshold(r, threshold, DROPOUT_BITS_8)
#else
#define MCU_FB_ARG double p
#define MCU_FB_RULE_INIT(r) dropout_rule_init(r, p, DROPOUT_BITS_8)
#endif
int mcu_fb(float *y, float *dx, const float *x, const float *dy, size_t n, dropout_gen *g, MCU_FB_ARG);
int mcu_fb(float *y, float *dx, const float *x, const float *dy, size_t n, dropout_gen *g, MCU_FB_ARG)
{
   dropout_rule rule;
   dropout_plan plan;
   int err = MCU_FB_RULE_INIT(&rule);
   if (!err) err = dropout_forward_f32(g, &rule, &plan, n, y, NULL, x);
   return err ? err : dropout_backward_f32(&plan, n, dx, dy);
}
#endif
