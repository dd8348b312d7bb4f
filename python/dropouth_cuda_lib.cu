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
   if (op == DROPOUTH_OP_MASK) return dropout_cuda_mask(&plan, (size_t)count, mask, cs);
   rc = dropouth__describe(&d, &t, dop, dtype, &plan, rank, dims, out_strides, in_strides, out, mask, in);
   if (rc != DROPOUT_OK) return rc;
   return dropout_cuda_run(&d, &t, cs);
}
