/* stream_variant.c - dropout.h built with one DROPOUT_STREAM_STORE_BYTES, behind names of
   its own, so that bench_cpu.c can time streaming and plain stores in one process, in
   alternation (compiled twice by the Makefile: VARIANT=nt with the threshold 0, VARIANT=
   cached with SIZE_MAX). */
#define DROPOUT_V0_API   /* written against the 0.1.0 calls */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 spelling, which every revision builds: not deprecated here */
#define DROPOUT_STATIC
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

int CAT(variant_forward_, VARIANT)(float *y, uint8_t *mask, const float *x, size_t n, int bits);
int CAT(variant_forward_, VARIANT)(float *y, uint8_t *mask, const float *x, size_t n, int bits)
{
   return dropout_forward_f32(y, mask, x, n, 0.1, bits, 42, 7, 0);
}
