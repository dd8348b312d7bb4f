/* compile-fail: rows and cols of the fused bias-dropout-residual (0.1 took both, adjacent,
   and a swap broadcast the bias along the wrong axis). 1.0 takes one size, bias_len (rows
   follow from the count n), so there is no pair to swap.
   expect-c: too many arguments
   expect-clang++: requires 8 arguments, but 9 were provided
   expect-g++: invalid conversion from .size_t. .* to .float\*. */
#include "dropout.h"

int fused(const dropout_plan *plan, float *y, const float *x, const float *bias,
          const float *residual, size_t rows, size_t cols);
int fused(const dropout_plan *plan, float *y, const float *x, const float *bias,
          const float *residual, size_t rows, size_t cols)
{
#ifdef RIGHT
   return dropout_bias_dropout_add_replay_f32(plan, rows * cols, cols, y, NULL, x, bias, residual);
#else
   return dropout_bias_dropout_add_replay_f32(plan, rows * cols, cols, rows, y, NULL, x, bias, residual);
#endif
}
