/* v0_side.c - the 0.1.0 calls, compiled with DROPOUT_V0_API in a translation unit of their
   own (which also holds the implementation), behind small wrappers that test_equal.c
   calls next to the 1.0 calls: the two must give the same bits. dt is a dropout_dtype. */
#define DROPOUT_V0_API
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "v0_side.h"

int v0_forward(int dt, void *y, uint8_t *m, const void *x, size_t n, double p, int bits, uint64_t s, uint64_t st, uint64_t off)
{
   switch (dt) {
   case DROPOUT_DTYPE_F32: return dropout_v0_forward_f32((float *)y, m, (const float *)x, n, p, bits, s, st, off);
   case DROPOUT_DTYPE_F64: return dropout_v0_forward_f64((double *)y, m, (const double *)x, n, p, bits, s, st, off);
   case DROPOUT_DTYPE_F16: return dropout_v0_forward_f16((uint16_t *)y, m, (const uint16_t *)x, n, p, bits, s, st, off);
   default: return dropout_v0_forward_bf16((uint16_t *)y, m, (const uint16_t *)x, n, p, bits, s, st, off);
   }
}

int v0_backward(int dt, void *dx, const void *dy, size_t n, double p, int bits, uint64_t s, uint64_t st, uint64_t off)
{
   switch (dt) {
   case DROPOUT_DTYPE_F32: return dropout_v0_backward_f32((float *)dx, (const float *)dy, n, p, bits, s, st, off);
   case DROPOUT_DTYPE_F64: return dropout_v0_backward_f64((double *)dx, (const double *)dy, n, p, bits, s, st, off);
   case DROPOUT_DTYPE_F16: return dropout_v0_backward_f16((uint16_t *)dx, (const uint16_t *)dy, n, p, bits, s, st, off);
   default: return dropout_v0_backward_bf16((uint16_t *)dx, (const uint16_t *)dy, n, p, bits, s, st, off);
   }
}

int v0_mask(uint8_t *m, size_t n, double p, int bits, uint64_t s, uint64_t st, uint64_t off)
{
   return dropout_v0_mask(m, n, p, bits, s, st, off);
}

int v0_apply_mask(int dt, void *y, const void *x, const uint8_t *m, size_t n, double p, int bits)
{
   switch (dt) {
   case DROPOUT_DTYPE_F32: return dropout_v0_apply_mask_f32((float *)y, (const float *)x, m, n, p, bits);
   case DROPOUT_DTYPE_F64: return dropout_backward_mask_f64((double *)y, (const double *)x, m, n, p, bits);
   case DROPOUT_DTYPE_F16: return dropout_v0_apply_mask_f16((uint16_t *)y, (const uint16_t *)x, m, n, p, bits);
   default: return dropout_backward_mask_bf16((uint16_t *)y, (const uint16_t *)x, m, n, p, bits);
   }
}

int v0_bda(int dt, void *y, uint8_t *m, const void *x, const void *bias, const void *res, size_t rows, size_t cols,
           double p, int bits, uint64_t s, uint64_t st, uint64_t off)
{
   switch (dt) {
   case DROPOUT_DTYPE_F32: return dropout_v0_bias_dropout_add_f32((float *)y, m, (const float *)x, (const float *)bias, (const float *)res, rows, cols, p, bits, s, st, off);
   case DROPOUT_DTYPE_F64: return dropout_v0_bias_dropout_add_f64((double *)y, m, (const double *)x, (const double *)bias, (const double *)res, rows, cols, p, bits, s, st, off);
   case DROPOUT_DTYPE_F16: return dropout_v0_bias_dropout_add_f16((uint16_t *)y, m, (const uint16_t *)x, (const uint16_t *)bias, (const uint16_t *)res, rows, cols, p, bits, s, st, off);
   default: return dropout_v0_bias_dropout_add_bf16((uint16_t *)y, m, (const uint16_t *)x, (const uint16_t *)bias, (const uint16_t *)res, rows, cols, p, bits, s, st, off);
   }
}

int v0_bcast(int op, int dt, void *y, uint8_t *m, const void *x, int rank, const size_t *dims, unsigned bcast,
             double p, int bits, uint64_t s, uint64_t st, uint64_t off)
{
   dropout_shape sh;
   int d;
   sh.rank = rank;
   sh.broadcast = bcast;
   for (d = 0; d < DROPOUT_MAX_RANK; ++d) sh.dim[d] = d < rank ? dims[d] : 1;
#define V0_BCAST(sfx, T)                                                                                  \
   switch (op) {                                                                                          \
   case DROPOUT_OP_FORWARD: return dropout_bcast_forward_##sfx((T *)y, m, (const T *)x, &sh, p, bits, s, st, off); \
   case DROPOUT_OP_BACKWARD: return dropout_bcast_backward_##sfx((T *)y, (const T *)x, &sh, p, bits, s, st, off); \
   case DROPOUT_OP_ALPHA_FORWARD: return dropout_alpha_forward_##sfx((T *)y, m, (const T *)x, &sh, p, bits, s, st, off); \
   default: return dropout_alpha_backward_##sfx((T *)y, (const T *)x, &sh, p, bits, s, st, off);       \
   }
   switch (dt) {
   case DROPOUT_DTYPE_F32: V0_BCAST(f32, float)
   case DROPOUT_DTYPE_F64: V0_BCAST(f64, double)
   case DROPOUT_DTYPE_F16: V0_BCAST(f16, uint16_t)
   default: V0_BCAST(bf16, uint16_t)
   }
#undef V0_BCAST
}

int v0_normal(int op, int dt, void *y, const void *x, size_t n, double param, uint64_t s, uint64_t st, uint64_t off)
{
#define V0_NORMAL(sfx, T)                                                                                \
   if (op == DROPOUT_OP_NOISE) return dropout_noise_forward_##sfx((T *)y, (const T *)x, n, param, s, st, off); \
   return dropout_gaussian_backward_##sfx((T *)y, (const T *)x, n, param, s, st, off);
   switch (dt) {
   case DROPOUT_DTYPE_F32: V0_NORMAL(f32, float)
   case DROPOUT_DTYPE_F64: V0_NORMAL(f64, double)
   case DROPOUT_DTYPE_F16: V0_NORMAL(f16, uint16_t)
   default: V0_NORMAL(bf16, uint16_t)
   }
#undef V0_NORMAL
}

int v0_fill(int kind, void *out, size_t n, uint64_t s, uint64_t st, uint64_t pos)
{
   switch (kind) {
   case 0: return dropout_v0_fill_u32((uint32_t *)out, n, s, st, pos);
   case 1: return dropout_v0_fill_uniform_f32((float *)out, n, s, st, pos);
   case 2: return dropout_v0_fill_uniform_f64((double *)out, n, s, st, pos);
   default: return dropout_v0_fill_normal_f32((float *)out, n, s, st, pos);
   }
}

uint32_t v0_stream_u32(uint64_t s, uint64_t st, uint64_t w)
{
   return dropout_v0_stream_u32(s, st, w);
}

int v0_gen_next(uint64_t seed, uint64_t stream, const size_t *sizes, int count, uint64_t *offsets)
{
   dropout_v0_gen g = dropout_v0_gen_make(seed, stream);
   int i, err = 0;
   for (i = 0; i < count && !err; ++i) err = dropout_gen_next(&g, sizes[i], &offsets[i]);
   return err;
}
