/* dropouth_lib.c - the C side of the Python package dropouth (python/dropouth/, loaded with ctypes).

   Flat functions with plain integer, double and pointer arguments, so that ctypes needs no
   struct layouts and the Python code does not change when the library's structs do. Each one
   builds the library's own objects (rule, plan, descriptor) and calls the library: the bits are
   dropout.h's, nothing is computed here.

   dropouth_run takes a tensor as (rank, dims, element strides), as PyTorch or NumPy has it: a
   transposed or sliced view gets exactly the bits its contiguous copy gets (draw position = first
   position + the element's row-major index in the logical shape), read and written in place,
   without a copy. The library reduces the view (dropout_lower: dims of 1 dropped, neighbours
   merged); a view of more dims than a descriptor takes is folded by that lowering first
   (dropouth_view.h).

   Built by `pip install ./python` (python/setup.py) and by `make python`. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#endif

#define DROPOUT_IMPLEMENTATION
#include "../dropout.h"
#include "dropouth_view.h"

#if defined(_WIN32)
#define DROPOUTH_API __declspec(dllexport)
#else
#define DROPOUTH_API __attribute__((visibility("default")))
#endif

/* what dropouth_run does (the Python module names them; values are this file's own) */
enum { DROPOUTH_OP_FORWARD = 1, DROPOUTH_OP_BACKWARD = 2, DROPOUTH_OP_MASK = 3 };
/* dtype: the dropout_dtype numbers (1 f32, 2 f64, 3 f16, 4 bf16), passed through */
#define DROPOUTH_MAX_RANK DROPOUT_MAX_RANK

DROPOUTH_API const char *dropouth_version(void) { return DROPOUT_VERSION_STRING; }
DROPOUTH_API int dropouth_max_rank(void) { return DROPOUTH_MAX_RANK; }

#if DROPOUT_VERSION_MAJOR == 0 && DROPOUT_VERSION_MINOR < 9
#error "python/dropouth_lib.c needs dropout.h 0.9 or later (the 1.0 interface: plan, descriptor, dropout_run)"
#endif

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
   if (rank < 0 || rank > DROPOUTH_MAX_VIEW) return DROPOUT_ERR_RANK;
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
   if (op == DROPOUTH_OP_MASK) {
      if (count > (uint64_t)SIZE_MAX) return DROPOUT_ERR_SHAPE_OVERFLOW;
      return dropout_mask(&plan, (size_t)count, mask);
   }
   rc = dropouth__describe(&d, &t, (dropout_op)dop, dtype, &plan, rank, dims, out_strides, in_strides, out, mask, in);
   if (rc != DROPOUT_OK) return rc;
   return dropout_run(&d, &t);
}

/* op on `count` contiguous elements, out and in 1-D (the descriptor's default shape): the common
   case, called without building shape and stride arrays (most of a small call's cost in Python). */
DROPOUTH_API int dropouth_run_flat(int op, int dtype, double p, int bits, uint64_t seed, uint64_t stream,
                                   uint64_t pos, uint64_t count, void *out, uint8_t *mask, const void *in)
{
   size_t n = (size_t)count;
   if ((uint64_t)n != count) return DROPOUT_ERR_SHAPE_OVERFLOW;
   return dropouth_run(op, dtype, p, bits, seed, stream, pos, 1, &n, NULL, NULL, out, mask, in);
}

/* Which of this file's builds the CPU runs (python/setup.py builds it for x86-64, AVX2 and
   AVX-512): 1 = AVX2, FMA, F16C, BMI and BMI2; 2 = those and AVX-512 F, BW, VL and DQ; 0 = not
   both (or not x86). The package loads the best build the CPU runs, as NumPy picks its kernels
   at import. */
DROPOUTH_API int dropouth_cpu_level(void)
{
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
   unsigned a, b, c, d;
   int f16c, avx2;
   __builtin_cpu_init();
   /* F16C: CPUID leaf 1, ECX bit 29 (clang's __builtin_cpu_supports does not know the name) */
   f16c = __get_cpuid(1, &a, &b, &c, &d) && (c >> 29 & 1u);
   avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c &&
          __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
   if (avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
       __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq"))
      return 2;
   if (avx2) return 1;
#endif
   return 0;
}

/* The ISA this build was compiled for (its own level), so the package can say what it loaded. */
DROPOUTH_API int dropouth_build_level(void)
{
#if defined(__AVX512F__) && defined(__AVX512BW__)
   return 2;
#elif defined(__AVX2__)
   return 1;
#else
   return 0;
#endif
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
