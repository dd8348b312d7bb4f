/* dropouth_lib.c - the C side of the Python package dropouth (python/dropouth/, loaded with ctypes).

   Flat functions with plain integer, double and pointer arguments, so that ctypes needs no
   struct layouts and the Python code does not change when the library's structs do. Each one
   builds the library's own objects (rule, plan, descriptor) and calls the library: the bits are
   dropout.h's, nothing is computed here.

   dropouth_run takes a tensor as (rank, dims, element strides): a transposed or sliced view gets
   exactly the bits its contiguous copy gets (draw position = first position + the element's
   row-major index in the logical shape), read and written in place, without a copy.

   Built by `pip install ./python` (python/setup.py) and by `make python`. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define DROPOUT_IMPLEMENTATION
#include "../dropout.h"

#if defined(_WIN32)
#define DROPOUTH_API __declspec(dllexport)
#else
#define DROPOUTH_API __attribute__((visibility("default")))
#endif

/* what dropouth_run does (the Python module names them; values are this file's own) */
enum { DROPOUTH_OP_FORWARD = 1, DROPOUTH_OP_BACKWARD = 2, DROPOUTH_OP_MASK = 3 };
/* element types, as dropout_dtype numbers them */
enum { DROPOUTH_F32 = 1, DROPOUTH_F64 = 2, DROPOUTH_F16 = 3, DROPOUTH_BF16 = 4 };
#define DROPOUTH_MAX_RANK 8

DROPOUTH_API const char *dropouth_version(void) { return DROPOUT_VERSION_STRING; }
DROPOUTH_API int dropouth_max_rank(void) { return DROPOUTH_MAX_RANK; }

#if DROPOUT_VERSION_MAJOR > 0 || DROPOUT_VERSION_MINOR >= 9
/* ---- the 1.0 interface: rule, plan, descriptor, dropout_run ---------------------------- */

DROPOUTH_API const char *dropouth_strerror(int code) { return dropout_strerror(code); }

/* The rule of (p, bits): its threshold t (keep iff draw >= t); an error when this width
   cannot honour p (p in (0, 1) realised as 0 or 1). */
DROPOUTH_API int dropouth_rule(double p, int bits, uint64_t *threshold)
{
   dropout_rule r;
   int rc = dropout_rule_init(&r, p, (dropout_bits)bits);
   if (rc == DROPOUT_OK && threshold) *threshold = r.threshold;
   return rc;
}

/* op on a strided tensor of `rank` dims: out (y, or dx for BACKWARD), in (x, or dy); mask,
   when not NULL, is packed in the logical row-major order. Strides count elements. */
DROPOUTH_API int dropouth_run(int op, int dtype, double p, int bits, uint64_t seed, uint64_t stream,
                              uint64_t pos, int rank, const size_t *dims, const ptrdiff_t *out_strides,
                              const ptrdiff_t *in_strides, void *out, uint8_t *mask, const void *in)
{
   dropout_rule rule;
   dropout_plan plan;
   dropout_desc d;
   dropout_tensors t;
   uint64_t count = 1;
   int i, rc, dop;
   if (rank < 0 || rank > DROPOUTH_MAX_RANK) return DROPOUT_ERR_RANK;
   for (i = 0; i < rank; i++) {
      if (dims[i] != 0 && count > UINT64_MAX / dims[i]) return DROPOUT_ERR_SHAPE_OVERFLOW;
      count *= dims[i];
   }
   dop = op == DROPOUTH_OP_FORWARD ? DROPOUT_OP_FORWARD
       : op == DROPOUTH_OP_BACKWARD ? DROPOUT_OP_BACKWARD
       : op == DROPOUTH_OP_MASK ? DROPOUT_OP_MASK : 0;
   if (!dop) return DROPOUT_ERR_OP;
   if ((rc = dropout_rule_init(&rule, p, (dropout_bits)bits)) != DROPOUT_OK) return rc;
   if ((rc = dropout_plan_at(&plan, &rule, dropout_key_make(seed, stream), dropout_pos_make(pos), count)) != DROPOUT_OK)
      return rc;
   if (op == DROPOUTH_OP_MASK) return dropout_mask(&plan, mask);
   if ((rc = dropout_desc_init(&d, (dropout_op)dop, (dropout_dtype)dtype, &plan)) != DROPOUT_OK) return rc;
   if (rank > 0) {
      if ((rc = dropout_desc_set_shape(&d, rank, dims)) != DROPOUT_OK) return rc;
      if ((rc = dropout_desc_set_strides(&d, DROPOUT_OPERAND_OUT, out_strides)) != DROPOUT_OK) return rc;
      if ((rc = dropout_desc_set_strides(&d, DROPOUT_OPERAND_IN, in_strides)) != DROPOUT_OK) return rc;
   }
   memset(&t, 0, sizeof t);
   t.out = out;
   t.in = in;
   t.mask = op == DROPOUTH_OP_FORWARD ? mask : NULL;
   return dropout_run(&d, &t);
}

DROPOUTH_API int dropouth_fill_u32(uint32_t *out, size_t n, uint64_t seed, uint64_t stream, uint64_t first)
{
   return dropout_fill_u32(dropout_key_make(seed, stream), dropout_pos_make(first), out, n);
}
DROPOUTH_API int dropouth_fill_uniform_f32(float *out, size_t n, uint64_t seed, uint64_t stream, uint64_t first)
{
   return dropout_fill_uniform_f32(dropout_key_make(seed, stream), dropout_pos_make(first), out, n);
}
DROPOUTH_API int dropouth_fill_uniform_f64(double *out, size_t n, uint64_t seed, uint64_t stream, uint64_t first)
{
   return dropout_fill_uniform_f64(dropout_key_make(seed, stream), dropout_pos_make(first), out, n);
}

#else
/* ---- the 0.1 interface, until the 1.0 descriptor is in this tree ------------------------
   The same flat functions over the 0.1 calls: strided tensors go row by row (a row of unit
   stride in place, others through a small stack buffer), each row at its own first position,
   which is what the 1.0 descriptor specifies. Everything is checked before anything is written. */

enum {   /* this file's own codes for what 0.1 does not check (1.0 has them in dropout.h) */
   DROPOUTH_ERR_P_NEEDS_16 = -101, DROPOUTH_ERR_P_NEEDS_32 = -102, DROPOUTH_ERR_P_UNREALISABLE = -103,
   DROPOUTH_ERR_RANK = -104, DROPOUTH_ERR_SHAPE_OVERFLOW = -105, DROPOUTH_ERR_STRIDE = -106,
   DROPOUTH_ERR_OVERLAP = -107, DROPOUTH_ERR_OP = -108, DROPOUTH_ERR_DTYPE = -109
};

DROPOUTH_API const char *dropouth_strerror(int code)
{
   switch (code) {
   case DROPOUTH_ERR_P_NEEDS_16: return "p: 8-bit draws realise this p as 0 or 1; use 16-bit draws";
   case DROPOUTH_ERR_P_NEEDS_32: return "p: 16-bit draws realise this p as 0 or 1; use 32-bit draws";
   case DROPOUTH_ERR_P_UNREALISABLE: return "p: even 32-bit draws realise this p as 0 or 1";
   case DROPOUTH_ERR_RANK: return "rank must be 0 .. 8";
   case DROPOUTH_ERR_SHAPE_OVERFLOW: return "shape: the element count overflows";
   case DROPOUTH_ERR_STRIDE: return "strides: the output may not have a zero stride";
   case DROPOUTH_ERR_OVERLAP: return "strides: two elements of the output share memory";
   case DROPOUTH_ERR_OP: return "op must be forward, backward or mask";
   case DROPOUTH_ERR_DTYPE: return "dtype must be f32, f64, f16 or bf16";
   default: return dropout_strerror(code);
   }
}

static uint64_t dropouth__threshold(double p, int bits)
{
   return (uint64_t)(p * (double)((uint64_t)1 << bits) + 0.5);
}

DROPOUTH_API int dropouth_rule(double p, int bits, uint64_t *threshold)
{
   uint64_t t;
   int rc = dropout_check_args(p, bits, 0, 0);
   if (rc != DROPOUT_OK) return rc;
   t = dropouth__threshold(p, bits);
   if ((p > 0.0 && t == 0) || (p < 1.0 && t == (uint64_t)1 << bits)) {
      if (bits == 8 && dropouth__threshold(p, 16) != 0 && dropouth__threshold(p, 16) != 65536u)
         return DROPOUTH_ERR_P_NEEDS_16;
      if (bits <= 16 && dropouth__threshold(p, 32) != 0 && dropouth__threshold(p, 32) != (uint64_t)1 << 32)
         return DROPOUTH_ERR_P_NEEDS_32;
      return DROPOUTH_ERR_P_UNREALISABLE;
   }
   if (threshold) *threshold = t;
   return DROPOUT_OK;
}

static size_t dropouth__size(int dtype)
{
   return dtype == DROPOUTH_F32 ? 4 : dtype == DROPOUTH_F64 ? 8 : (dtype == DROPOUTH_F16 || dtype == DROPOUTH_BF16) ? 2 : 0;
}

/* one contiguous run of n elements at stream position pos */
static int dropouth__call(int op, int dtype, void *y, const void *x, size_t n, double p, int bits,
                          uint64_t seed, uint64_t stream, uint64_t pos)
{
   if (op == DROPOUTH_OP_FORWARD) switch (dtype) {
      case DROPOUTH_F32: return dropout_forward_f32((float *)y, NULL, (const float *)x, n, p, bits, seed, stream, pos);
      case DROPOUTH_F64: return dropout_forward_f64((double *)y, NULL, (const double *)x, n, p, bits, seed, stream, pos);
      case DROPOUTH_F16: return dropout_forward_f16((uint16_t *)y, NULL, (const uint16_t *)x, n, p, bits, seed, stream, pos);
      default: return dropout_forward_bf16((uint16_t *)y, NULL, (const uint16_t *)x, n, p, bits, seed, stream, pos);
   }
   switch (dtype) {
   case DROPOUTH_F32: return dropout_backward_f32((float *)y, (const float *)x, n, p, bits, seed, stream, pos);
   case DROPOUTH_F64: return dropout_backward_f64((double *)y, (const double *)x, n, p, bits, seed, stream, pos);
   case DROPOUTH_F16: return dropout_backward_f16((uint16_t *)y, (const uint16_t *)x, n, p, bits, seed, stream, pos);
   default: return dropout_backward_bf16((uint16_t *)y, (const uint16_t *)x, n, p, bits, seed, stream, pos);
   }
}

/* no two output elements at one address: sorted by |stride|, each stride must reach past
   the extent of the smaller ones (dims of size 1 do not count) */
static int dropouth__no_overlap(int rank, const size_t *dims, const ptrdiff_t *st)
{
   int idx[DROPOUTH_MAX_RANK], n = 0, i, j;
   uint64_t extent = 1;
   for (i = 0; i < rank; i++) if (dims[i] > 1) idx[n++] = i;
   for (i = 1; i < n; i++)
      for (j = i; j > 0; j--) {
         ptrdiff_t a = st[idx[j - 1]] < 0 ? -st[idx[j - 1]] : st[idx[j - 1]];
         ptrdiff_t b = st[idx[j]] < 0 ? -st[idx[j]] : st[idx[j]];
         if (a > b) { int tmp = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = tmp; } else break;
      }
   for (i = 0; i < n; i++) {
      uint64_t s = (uint64_t)(st[idx[i]] < 0 ? -st[idx[i]] : st[idx[i]]);
      if (s < extent) return 0;
      extent = s * dims[idx[i]];
   }
   return 1;
}

DROPOUTH_API int dropouth_run(int op, int dtype, double p, int bits, uint64_t seed, uint64_t stream,
                              uint64_t pos, int rank, const size_t *dims, const ptrdiff_t *out_strides,
                              const ptrdiff_t *in_strides, void *out, uint8_t *mask, const void *in)
{
   uint64_t count = 1, rows, row, inner;
   size_t esz = dropouth__size(dtype), idx[DROPOUTH_MAX_RANK];
   int i, rc;
   if (op != DROPOUTH_OP_FORWARD && op != DROPOUTH_OP_BACKWARD && op != DROPOUTH_OP_MASK) return DROPOUTH_ERR_OP;
   if (op != DROPOUTH_OP_MASK && esz == 0) return DROPOUTH_ERR_DTYPE;
   if (rank < 0 || rank > DROPOUTH_MAX_RANK) return DROPOUTH_ERR_RANK;
   for (i = 0; i < rank; i++) {
      if (dims[i] != 0 && count > UINT64_MAX / dims[i]) return DROPOUTH_ERR_SHAPE_OVERFLOW;
      count *= dims[i];
   }
   if (count > (uint64_t)SIZE_MAX) return DROPOUTH_ERR_SHAPE_OVERFLOW;
   if ((rc = dropouth_rule(p, bits, NULL)) != DROPOUT_OK) return rc;
   if ((rc = dropout_check_args(p, bits, (size_t)count, pos)) != DROPOUT_OK) return rc;
   if (count == 0) return DROPOUT_OK;
   if (op == DROPOUTH_OP_MASK) return dropout_mask(mask, (size_t)count, p, bits, seed, stream, pos);
   if (!out || !in) return DROPOUT_ERR_NULL;
   if (rank > 0) {
      for (i = 0; i < rank; i++) if (dims[i] > 1 && out_strides[i] == 0) return DROPOUTH_ERR_STRIDE;
      if (!dropouth__no_overlap(rank, dims, out_strides)) return DROPOUTH_ERR_OVERLAP;
   }
   if (mask && (rc = dropout_mask(mask, (size_t)count, p, bits, seed, stream, pos)) != DROPOUT_OK) return rc;
   if (rank == 0) return dropouth__call(op, dtype, out, in, 1, p, bits, seed, stream, pos);

   inner = dims[rank - 1];
   rows = count / inner;
   memset(idx, 0, sizeof idx);
   for (row = 0; row < rows; row++) {
      ptrdiff_t oo = 0, io = 0;
      uint64_t first = pos + row * inner, done;
      for (i = 0; i < rank - 1; i++) { oo += (ptrdiff_t)idx[i] * out_strides[i]; io += (ptrdiff_t)idx[i] * in_strides[i]; }
      if (out_strides[rank - 1] == 1 && in_strides[rank - 1] == 1) {
         rc = dropouth__call(op, dtype, (char *)out + oo * (ptrdiff_t)esz, (const char *)in + io * (ptrdiff_t)esz,
                             (size_t)inner, p, bits, seed, stream, first);
         if (rc != DROPOUT_OK) return rc;
      } else {
         for (done = 0; done < inner; ) {
            uint64_t buf_x[256], buf_y[256];   /* 256 elements of up to 8 bytes */
            size_t k, m = (size_t)(inner - done < 256 ? inner - done : 256);
            for (k = 0; k < m; k++)
               memcpy((char *)buf_x + k * esz, (const char *)in + (io + (ptrdiff_t)(done + k) * in_strides[rank - 1]) * (ptrdiff_t)esz, esz);
            rc = dropouth__call(op, dtype, buf_y, buf_x, m, p, bits, seed, stream, first + done);
            if (rc != DROPOUT_OK) return rc;
            for (k = 0; k < m; k++)
               memcpy((char *)out + (oo + (ptrdiff_t)(done + k) * out_strides[rank - 1]) * (ptrdiff_t)esz, (char *)buf_y + k * esz, esz);
            done += m;
         }
      }
      for (i = rank - 2; i >= 0; i--) {   /* the next row: odometer over dims 0 .. rank-2 */
         if (++idx[i] < dims[i]) break;
         idx[i] = 0;
      }
   }
   return DROPOUT_OK;
}

DROPOUTH_API int dropouth_fill_u32(uint32_t *out, size_t n, uint64_t seed, uint64_t stream, uint64_t first)
{
   return dropout_fill_u32(out, n, seed, stream, first);
}
DROPOUTH_API int dropouth_fill_uniform_f32(float *out, size_t n, uint64_t seed, uint64_t stream, uint64_t first)
{
   return dropout_fill_uniform_f32(out, n, seed, stream, first);
}
DROPOUTH_API int dropouth_fill_uniform_f64(double *out, size_t n, uint64_t seed, uint64_t stream, uint64_t first)
{
   return dropout_fill_uniform_f64(out, n, seed, stream, first);
}
#endif
