/* compile-fail: the descriptor's tensors named by field (designated initialisers, C99) with
   the input given as the output: out is `void *`, so a const input does not fit there.
   lang: c
   expect: discards.*const|const.*discards */
#include "dropout.h"

int run(dropout_desc *d, float *dx, const float *dy);
int run(dropout_desc *d, float *dx, const float *dy)
{
#ifdef RIGHT
   dropout_tensors t = { .out = dx, .in = dy };
#else
   dropout_tensors t = { .out = dy, .in = dx };
#endif
   return dropout_run(d, &t);
}
