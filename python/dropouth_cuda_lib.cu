/* dropouth_cuda_lib.cu - dropout_cuda.cuh as a shared library, for the Python package
   dropouth (ctypes). `make python-cuda` builds it with nvcc.

   Flat functions with plain integer, double and pointer arguments, the CUDA twins of
   python/dropouth_lib.c's: the same arguments, device pointers for the tensors, and the
   stream to launch on last (such as PyTorch's current stream). Each one builds the
   library's own objects (rule, plan, descriptor) on the host and calls dropout_cuda_run:
   the bits are the library's, nothing is computed here. The CUDA runtime is linked
   statically; nothing here synchronises. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define DROPOUT_IMPLEMENTATION
#define DROPOUT_CUDA_IMPLEMENTATION
#include "../dropout_cuda.cuh"
#include "dropouth_view.h"

#define DROPOUTH_API extern "C" __attribute__((visibility("default")))

/* what dropouth_cuda_run does (values as python/dropouth_lib.c's) */
enum { DROPOUTH_OP_FORWARD = 1, DROPOUTH_OP_BACKWARD = 2, DROPOUTH_OP_MASK = 3 };
#define DROPOUTH_MAX_RANK 8

DROPOUTH_API const char *dropouth_version(void) { return DROPOUT_VERSION_STRING; }
DROPOUTH_API int dropouth_max_rank(void) { return DROPOUTH_MAX_RANK; }

/* dropout_strerror's text, and cudaGetErrorString's for a failed launch */
DROPOUTH_API const char *dropouth_strerror(int code) { return dropout_cuda_strerror(code); }

/* op on a strided tensor of `rank` dims (0: the 1-D contiguous default): out (y, or dx
   for BACKWARD) and in (x, or dy) are device pointers; dims and the element strides are
   host arrays of `rank`. mask (device, or NULL; FORWARD and MASK) is packed in the logical
   row-major order. MASK writes the mask of the shape's positions, nothing else. */
DROPOUTH_API int dropouth_cuda_run(int op, int dtype, double p, int bits, uint64_t seed, uint64_t stream,
                                   uint64_t pos, int rank, const size_t *dims, const ptrdiff_t *out_strides,
                                   const ptrdiff_t *in_strides, void *out, uint8_t *mask, const void *in,
                                   cudaStream_t cs)
{
   dropout_rule rule;
   dropout_plan plan;
   dropout_desc d;
   dropout_tensors t;
   uint64_t count = 1;
   int i, rc;
   dropout_op dop;
   size_t vd[DROPOUTH_MAX_VIEW];
   ptrdiff_t vo[DROPOUTH_MAX_VIEW], vi[DROPOUTH_MAX_VIEW];
   if (rank < 0 || rank > DROPOUTH_MAX_VIEW) return DROPOUT_ERR_RANK;
   for (i = 0; i < rank; i++) {
      if (dims[i] != 0 && count > UINT64_MAX / dims[i]) return DROPOUT_ERR_SHAPE_OVERFLOW;
      count *= dims[i];
   }
   if (op == DROPOUTH_OP_FORWARD) dop = DROPOUT_OP_FORWARD;
   else if (op == DROPOUTH_OP_BACKWARD) dop = DROPOUT_OP_BACKWARD;
   else if (op == DROPOUTH_OP_MASK) dop = DROPOUT_OP_MASK;
   else return DROPOUT_ERR_OP;
   if ((rc = dropout_rule_init(&rule, p, (dropout_bits)bits)) != DROPOUT_OK) return rc;
   if ((rc = dropout_plan_at(&plan, &rule, dropout_key_make(seed, stream), dropout_pos_make(pos), count)) != DROPOUT_OK)
      return rc;
   if (op == DROPOUTH_OP_MASK) return dropout_cuda_mask(&plan, mask, cs);
   if (rank > DROPOUT_MAX_RANK) {   /* more dims than a descriptor takes: folded by the library (dropouth_view.h) */
      for (i = 0; i < rank; i++) { vd[i] = dims[i]; vo[i] = out_strides[i]; vi[i] = in_strides[i]; }
      if (count == 0) {   /* empty: nothing to fold, nothing to write */
         rank = 1; vd[0] = 0; vo[0] = vi[0] = 1;
      } else if ((rc = dropouth__fold(&rank, vd, vo, vi, dtype, out, in)) != DROPOUT_OK) {
         return rc;
      }
      dims = vd; out_strides = vo; in_strides = vi;
   }
   if ((rc = dropout_desc_init(&d, dop, (dropout_dtype)dtype, &plan)) != DROPOUT_OK) return rc;
   if (rank > 0) {
      if ((rc = dropout_desc_set_shape(&d, rank, dims)) != DROPOUT_OK) return rc;
      if ((rc = dropout_desc_set_strides(&d, DROPOUT_OPERAND_OUT, out_strides)) != DROPOUT_OK) return rc;
      if ((rc = dropout_desc_set_strides(&d, DROPOUT_OPERAND_IN, in_strides)) != DROPOUT_OK) return rc;
   }
   memset(&t, 0, sizeof t);
   t.out = out;
   t.in = in;
   t.mask = op == DROPOUTH_OP_FORWARD ? mask : NULL;
   return dropout_cuda_run(&d, &t, cs);
}
