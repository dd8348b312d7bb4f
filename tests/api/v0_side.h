/* v0_side.h - the 0.1.0 calls behind wrappers (v0_side.c); dt is a dropout_dtype, op a dropout_op. */
#ifndef V0_SIDE_H
#define V0_SIDE_H
#include <stddef.h>
#include <stdint.h>
int v0_forward(int dt, void *y, uint8_t *m, const void *x, size_t n, double p, int bits, uint64_t s, uint64_t st, uint64_t off);
int v0_backward(int dt, void *dx, const void *dy, size_t n, double p, int bits, uint64_t s, uint64_t st, uint64_t off);
int v0_mask(uint8_t *m, size_t n, double p, int bits, uint64_t s, uint64_t st, uint64_t off);
int v0_apply_mask(int dt, void *y, const void *x, const uint8_t *m, size_t n, double p, int bits);
int v0_bda(int dt, void *y, uint8_t *m, const void *x, const void *bias, const void *res, size_t rows, size_t cols,
           double p, int bits, uint64_t s, uint64_t st, uint64_t off);
int v0_bcast(int op, int dt, void *y, uint8_t *m, const void *x, int rank, const size_t *dims, unsigned bcast,
             double p, int bits, uint64_t s, uint64_t st, uint64_t off);
int v0_normal(int op, int dt, void *y, const void *x, size_t n, double param, uint64_t s, uint64_t st, uint64_t off);
int v0_fill(int kind, void *out, size_t n, uint64_t s, uint64_t st, uint64_t pos);
uint32_t v0_stream_u32(uint64_t s, uint64_t st, uint64_t w);
int v0_gen_next(uint64_t seed, uint64_t stream, const size_t *sizes, int count, uint64_t *offsets);
#endif
