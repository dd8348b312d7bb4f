/* dropout_opencl.h - v0.9.0 - dropout.h on OpenCL devices - public domain or MIT

   The OpenCL side of dropout.h: the same masks and outputs, bit for bit, as the CPU's
   dropout_run, on any OpenCL 1.2 device (AMD, Intel, NVIDIA, Arm Mali, Qualcomm Adreno,
   Apple GPUs; CPUs through PoCL). The kernels are dropout.h's own inline building blocks
   (Philox, draws, the rule, the element functions, the f16/bf16 converters, the fused op,
   the variants) compiled as OpenCL C: the program below is opencl/kernels.cl with
   dropout.h's declarations part pasted in by opencl/embed.sh, and the tests check that
   the pasted text is the current dropout.h. This file adds the indexing and a host layer.

   USAGE
      In *one* C or C++ file:
         #define DROPOUT_IMPLEMENTATION          // dropout.h's CPU functions (validation)
         #define DROPOUT_OPENCL_IMPLEMENTATION   // the program text and the host layer
         #include "dropout_opencl.h"
      Link with -lOpenCL. Every other file just does #include "dropout_opencl.h".

         dropout_opencl ocl;
         int rc = dropout_opencl_init(&ocl, context, device, 0);   // builds the program once
         if (rc) fprintf(stderr, "%s\n", ocl.message);
         dropout_desc d;                                            // dropout.h's descriptor
         dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
         dropout_opencl_tensors t = { 0 };
         t.out = y_buf; t.in = x_buf; t.mask = mask_buf;            // cl_mem, + byte offsets
         rc = dropout_opencl_run(&ocl, &d, &t, queue);              // enqueued, not waited for
         ...
         dropout_opencl_release(&ocl);

      A dropout_opencl holds the program and its kernels for one (context, device): make
      one per device and per host thread (kernel arguments are per kernel object).
      dropout_opencl_init does not release what ctx held: release it first (a second init
      of a live ctx leaks its program and kernels). Calls
      validate everything before they enqueue (the queue too: ctx's context and device),
      return DROPOUT_OK or a negative code, and on
      error write a sentence into ctx->message (dropout_opencl_strerror(code) gives the
      fixed text). A failed OpenCL call returns DROPOUT_ERR_OPENCL_BASE + its cl_int.
      Buffers: cl_mem plus a byte offset each; a data offset must be a multiple of the
      element size (mask offsets may be any byte); the buffer must hold what the call
      touches (checked against CL_MEM_SIZE).

   WHAT A DEVICE MUST OFFER (docs/SPEC.md, "OpenCL devices")
      Ops that multiply or add floats (every dtype: f16 and bf16 are computed in float)
      need single precision with round to nearest (CL_FP_ROUND_TO_NEAREST) and denormals
      (CL_FP_DENORM) in CL_DEVICE_SINGLE_FP_CONFIG; f64, the normals (Gaussian, noise,
      fill_normal) and the uniform doubles need cl_khr_fp64 with the same two flags in
      CL_DEVICE_DOUBLE_FP_CONFIG. Where they are missing those ops are refused
      (DROPOUT_ERR_OPENCL_FP / _FP64, the message names the flag), never run with other
      bits; and so they are where the program as built flushes a subnormal anyway (a
      driver's own build options: dropout_opencl_init runs a subnormal product once to
      see). The mask and the raw stream words need no float at all; the uniform floats
      are exact in any rounding mode. Contraction is off in the program
      (#pragma OPENCL FP_CONTRACT OFF), no kernel divides a float, and the fused op's fma
      is OpenCL's fma(), which every conformant device rounds correctly.

   SPEED
      Contiguous forward, backward, apply_mask, mask and the fused op: units of 32
      elements (one word of keep bits, 4 mask bytes each). On a GPU a work-group's bits
      are staged in local memory so that consecutive work-items move consecutive elements;
      on a CPU device each work-item moves its own 32 (dropout_opencl_set_direct chooses;
      the bits are the same). Strided views, broadcast masks and the variants: one element
      per work-item step, one Philox block per element. `make bench-opencl` measures each
      op against clEnqueueCopyBuffer of the same bytes. Measured so far on PoCL only (the
      CPU): there the kernels run far below the copy and far below dropout.h's own SIMD
      code, so on a CPU call dropout.h; no GPU figure yet.

   OPTIONS
      DROPOUT_OPENCL_IMPLEMENTATION  emit the program text and the host functions
      DROPOUT_OPENCL_STATIC          make the host functions static
      CL_TARGET_OPENCL_VERSION       this header includes CL/cl.h, so it sets the version for
                                     the whole file: 120 unless defined before the include
                                     (define 300 first to call OpenCL 2.0+ functions too)

   LICENSE: the same as dropout.h (MIT or public domain, your choice); see its end.
*/
#ifndef DROPOUT_OPENCL_H_INCLUDED
#define DROPOUT_OPENCL_H_INCLUDED

#include "dropout.h"

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#if defined(__APPLE__)
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif

#ifndef DROPOUT_OPENCLDEF
#ifdef DROPOUT_OPENCL_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define DROPOUT_OPENCLDEF static __attribute__((unused))
#else
#define DROPOUT_OPENCLDEF static
#endif
#else
#define DROPOUT_OPENCLDEF extern
#endif
#endif

/* C++ users' strict warnings (-Wold-style-cast and the others dropout.h names) are off
   in this header's own code, as in dropout.h's, and on again after it (push / pop) */
#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__))
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wzero-as-null-pointer-constant"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuseless-cast"
#elif defined(__has_warning)
#if __has_warning("-Wreserved-identifier") && __has_warning("-Wreserved-macro-identifier")
#pragma GCC diagnostic ignored "-Wreserved-identifier"
#pragma GCC diagnostic ignored "-Wreserved-macro-identifier"
#endif
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Codes of this file (dropout.h's codes keep their meaning), one row each as dropout.h's
   DROPOUT__ERRORS: X(name, pinned value, dropout_opencl_strerror's message); the enum and
   dropout_opencl_strerror are generated from the rows. Between dropout.h's codes and
   dropout_cuda.cuh's (DROPOUT_ERR_CUDA_BASE - cudaError_t, -1000 .. -1999), so that no
   code of one GPU header is also one of the other's (0.9's -1901 .. -1906 were CUDA's
   stream-capture errors 901 .. 906 too). */
#define DROPOUT_OPENCL__ERRORS(X) \
   X(DROPOUT_ERR_OPENCL_BUILD, -901,     /* the program did not build: ctx->message has the log's start */ \
     "dropout_opencl: the OpenCL program did not build (ctx->message has the log)") \
   X(DROPOUT_ERR_OPENCL_FP, -902,        /* single precision lacks round to nearest or denormals */ \
     "dropout_opencl: the device's single precision lacks round to nearest or denormals (CL_DEVICE_SINGLE_FP_CONFIG), which this op needs for the same bits") \
   X(DROPOUT_ERR_OPENCL_FP64, -903,      /* no cl_khr_fp64, or its config lacks round to nearest or denormals */ \
     "dropout_opencl: this op needs cl_khr_fp64 with round to nearest and denormals (CL_DEVICE_DOUBLE_FP_CONFIG)") \
   X(DROPOUT_ERR_OPENCL_OFFSET, -904,    /* a data buffer's byte offset is not a multiple of its element size */ \
     "dropout_opencl: a data buffer's byte offset is not a multiple of its element size") \
   X(DROPOUT_ERR_OPENCL_BOUNDS, -905,    /* a buffer is smaller than its offset plus what the call touches */ \
     "dropout_opencl: a buffer is smaller than its offset plus the bytes the call touches") \
   X(DROPOUT_ERR_OPENCL_CTX, -906,       /* ctx is NULL, was not made by dropout_opencl_init, or is a copy of one */ \
     "dropout_opencl: ctx is NULL, not initialised by dropout_opencl_init, or a copy of one (made at another address; its kernels are the original's)")

#define DROPOUT_OPENCL__ERROR_ENUM(name, value, message) name = value,
enum {
   DROPOUT_OPENCL__ERRORS(DROPOUT_OPENCL__ERROR_ENUM)
   /* a failed OpenCL call: DROPOUT_ERR_OPENCL_BASE + its cl_int (CL_* errors are negative) */
   DROPOUT_ERR_OPENCL_BASE = -2000
};
#undef DROPOUT_OPENCL__ERROR_ENUM

/* init flags: build as if the device lacked something (to test the refusals) */
enum {
   DROPOUT_OPENCL_WITHOUT_FP64 = 1,    /* no double in the program; f64 and the normals refused */
   DROPOUT_OPENCL_WITHOUT_DENORM = 2   /* treat single precision as flushing denormals */
};

/* Kernels: a unit, an element and a direct kernel per dtype (dropout.h's DROPOUT__DTYPES
   rows), and the fill. */
#define DROPOUT_OPENCL__PLUS_ONE(NAME, value, sfx, T, size, CUDA_T, K) + 1
enum { DROPOUT_OPENCL__DTYPES = 0 DROPOUT__DTYPES(DROPOUT_OPENCL__PLUS_ONE) };
#undef DROPOUT_OPENCL__PLUS_ONE
#define DROPOUT_OPENCL__KERNELS (3 * DROPOUT_OPENCL__DTYPES + 1)

/* One program per (context, device); fields are read-only for the caller. */
typedef struct dropout_opencl {
   unsigned magic;
   const struct dropout_opencl *self;   /* where init made it: a copy (its kernels are the
                                           original's, which release frees) is refused */
   cl_context context;
   cl_device_id device;
   cl_program program;
   cl_kernel kernel[DROPOUT_OPENCL__KERNELS];
   int fp32_exact;        /* round to nearest and denormals in single precision */
   int fp64;              /* cl_khr_fp64 with round to nearest and denormals: f64 ops built */
   int flushed;           /* the built program flushed subnormals (1: float, 2: double) though the device keeps them */
   size_t local_size;     /* work-items per group of each launch (default 64) */
   int direct;            /* contiguous ops: 1 = each work-item moves its own 32 elements
                             (default on CPU devices), 0 = a group's span staged in local
                             memory, consecutive work-items on consecutive elements (GPUs) */
   size_t max_groups;     /* groups per launch at most; more work loops (default 64 per CU,
                             16 on CPU devices) */
   char device_name[128];
   char message[512];     /* the last error, as a sentence */
} dropout_opencl;

/* The buffers of a run: cl_mem and a byte offset each; NULL where the op takes none
   (dropout.h's dropout_tensors, field for field). */
typedef struct dropout_opencl_tensors {
   cl_mem out;       size_t out_offset;
   cl_mem mask;      size_t mask_offset;
   cl_mem in;        size_t in_offset;
   cl_mem bias;      size_t bias_offset;
   cl_mem residual;  size_t residual_offset;
} dropout_opencl_tensors;

/* Build the program for device (flags: 0, or DROPOUT_OPENCL_WITHOUT_* to test refusals). */
DROPOUT_OPENCLDEF int dropout_opencl_init(dropout_opencl *ctx, cl_context context, cl_device_id device, unsigned flags);
DROPOUT_OPENCLDEF void dropout_opencl_release(dropout_opencl *ctx);
/* Work-items per group (1 .. the kernels' limit) and groups per launch (>= 1); any
   choice gives the same bits. 0 keeps the current value. */
DROPOUT_OPENCLDEF int dropout_opencl_set_launch(dropout_opencl *ctx, size_t local_size, size_t max_groups);
/* The contiguous ops' layout (ctx->direct): 1 direct, 0 staged, -1 the device's default. */
DROPOUT_OPENCLDEF int dropout_opencl_set_direct(dropout_opencl *ctx, int direct);

/* dropout_run on the device: every op of the descriptor (dropout.h's argument checks, this
   file's: the device's float configuration, offsets, buffer sizes; last whether the plan
   may draw). Enqueued on q. An op
   that draws a step's mask spends d's plan, as dropout_run does. */
DROPOUT_OPENCLDEF int dropout_opencl_run(dropout_opencl *ctx, dropout_desc *d, const dropout_opencl_tensors *t, cl_command_queue q);

/* The raw stream (dropout.h's dropout_fill_*): n elements from position `first` into out
   at byte offset out_offset. */
DROPOUT_OPENCLDEF int dropout_opencl_fill_u32(dropout_opencl *ctx, dropout_key key, dropout_pos first, cl_mem out, size_t out_offset, size_t n, cl_command_queue q);
DROPOUT_OPENCLDEF int dropout_opencl_fill_uniform_f32(dropout_opencl *ctx, dropout_key key, dropout_pos first, cl_mem out, size_t out_offset, size_t n, cl_command_queue q);
DROPOUT_OPENCLDEF int dropout_opencl_fill_uniform_f64(dropout_opencl *ctx, dropout_key key, dropout_pos first, cl_mem out, size_t out_offset, size_t n, cl_command_queue q);
DROPOUT_OPENCLDEF int dropout_opencl_fill_normal_f32(dropout_opencl *ctx, dropout_key key, dropout_pos first, cl_mem out, size_t out_offset, size_t n, cl_command_queue q);

/* dropout_strerror, plus this file's codes (a failed OpenCL call: ctx->message names the call and its cl_int). */
DROPOUT_OPENCLDEF const char *dropout_opencl_strerror(int code);

/* The program's source, one line per string (for clCreateProgramWithSource): append your
   own kernels to use dropout.h's building blocks in them. Build options: add
   -DDROPOUT_OPENCL_FP64 where the device has cl_khr_fp64. */
DROPOUT_OPENCLDEF const char *const *dropout_opencl_source(size_t *lines);

#ifdef __cplusplus
}
#endif
#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__))
#pragma GCC diagnostic pop
#endif

#endif /* DROPOUT_OPENCL_H_INCLUDED */

/* ==================================================================================== */
/*                                  IMPLEMENTATION                                      */
/* ==================================================================================== */

#ifdef DROPOUT_OPENCL_IMPLEMENTATION
#ifndef DROPOUT_OPENCL_IMPLEMENTATION_DONE
#define DROPOUT_OPENCL_IMPLEMENTATION_DONE

#include <stdio.h>    /* snprintf: the messages */
#include <stdlib.h>   /* malloc, free: the build log */
#include <string.h>

/* (the strict C++ warnings off here too, as in the declarations above) */
#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__))
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wzero-as-null-pointer-constant"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuseless-cast"
#elif defined(__has_warning)
#if __has_warning("-Wreserved-identifier") && __has_warning("-Wreserved-macro-identifier")
#pragma GCC diagnostic ignored "-Wreserved-identifier"
#pragma GCC diagnostic ignored "-Wreserved-macro-identifier"
#endif
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The program (generated: opencl/embed.sh; edit opencl/kernels.cl or dropout.h, then run
   `make opencl-embed`). */
static const char *const dropout_opencl__program[] = {
/* BEGIN program (opencl/embed.sh) */
   "/* The OpenCL C program of dropout_opencl.h (OpenCL C 1.2 and later).\n",
   "\n",
   "   Every random draw and every per-element operation is one of dropout.h's inline\n",
   "   building blocks, compiled here as OpenCL C: the line `#include \"dropout.h\"` below is\n",
   "   replaced by that header's declarations part when opencl/embed.sh writes this file into\n",
   "   dropout_opencl.h. This file adds only the indexing (which work-item computes which\n",
   "   elements) and the two formulas dropout.h keeps in its implementation: the uniforms.\n",
   "\n",
   "   Float traps (docs/SPEC.md, \"OpenCL devices\"): contraction is off for the whole\n",
   "   program; no kernel divides a float (scales come from the host's rule; the only division\n",
   "   is the double one inside the normal generator, which OpenCL C rounds correctly); f16\n",
   "   and bf16 are 16-bit patterns converted by the header's integer code; the host refuses\n",
   "   an op whose arithmetic the device's float configuration cannot do exactly. */\n",
   "#pragma OPENCL FP_CONTRACT OFF\n",
   "#ifdef DROPOUT_OPENCL_FP64\n",
   "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n",
   "#else\n",
   "/* No double on this device: the header's double building blocks still have to parse, and\n",
   "   do as float. No kernel built without DROPOUT_OPENCL_FP64 calls one of them (the f64 and\n",
   "   normal kernels below are compiled only with it, and the host refuses those ops). */\n",
   "#define double float\n",
   "#endif\n",
   "#define DROPOUTDEF\n",
   "/* dropout.h - v0.9.0 - reproducible dropout for C/C++/CUDA - public domain or MIT\n",
   "\n",
   "   One header, no dependencies, no malloc, no global state, no libm. A counter-based\n",
   "   Philox4x32-10 generator makes every dropout mask a pure function of\n",
   "   (seed, stream, position): the same mask, bit for bit, on any CPU, any thread count,\n",
   "   any chunking, and on the GPU through the companion header dropout_cuda.cuh.\n",
   "\n",
   "   USAGE\n",
   "      Do this:\n",
   "         #define DROPOUT_IMPLEMENTATION\n",
   "      before you include this file in *one* C or C++ file to create the implementation.\n",
   "\n",
   "         #include ...\n",
   "         #include ...\n",
   "         #define DROPOUT_IMPLEMENTATION\n",
   "         #include \"dropout.h\"\n",
   "\n",
   "      Every other file just does #include \"dropout.h\".\n",
   "\n",
   "   QUICK START\n",
   "         dropout_rule rule;\n",
   "         dropout_gen g;                                   // the run's one generator\n",
   "         dropout_plan plan;\n",
   "         dropout_gen_init(&g, dropout_key_make(1234, 0)); // seed, stream; pass &g, never a copy\n",
   "         dropout_rule_init(&rule, 0.1, DROPOUT_BITS_16);  // p = 0.1 with 16-bit draws\n",
   "         // a step's forward: n fresh positions of g, and the plan its backward needs\n",
   "         dropout_forward_f32(&g, &rule, &plan, n, y, NULL, x);   // g, rule, plan; n, outputs, inputs\n",
   "         ...\n",
   "         // backward: the same plan rebuilds the same mask, no mask memory needed\n",
   "         dropout_backward_f32(&plan, n, dx, dy);          // overwrites dx\n",
   "\n",
   "      Every function returns DROPOUT_OK (0) or a negative code; dropout_strerror(code)\n",
   "      says which argument was wrong. On error nothing is written (dropout_plan_at leaves\n",
   "      an empty plan, on purpose). Every call takes the element count n and refuses one\n",
   "      that is not the plan's. Running a plan's mask again\n",
   "      (checkpoint recomputation, a step's chunks over threads) is dropout_replay_*.\n",
   "      Strided tensors, broadcast masks, gradient accumulation and the variants (alpha,\n",
   "      Gaussian, noise): fill a dropout_desc (dropout_desc_init and the setters) and call\n",
   "      dropout_run; dropout_desc_new_step gives it each step's positions (it draws each plan\n",
   "      once; dropout_desc_replay draws it again). 0.1.0 code: #define DROPOUT_V0_API\n",
   "      before the include (dropout_v0.h).\n",
   "\n",
   "   OPTIONS (#define before including, in the implementation file at least)\n",
   "      DROPOUT_IMPLEMENTATION  emit the function bodies (one translation unit only; a program\n",
   "                              without it, or with it twice, fails to link naming\n",
   "                              dropout_h_needs_DROPOUT_IMPLEMENTATION_in_exactly_one_file)\n",
   "      DROPOUT_STATIC          make every function static (private to one file)\n",
   "      DROPOUT_ASSERT(x)       your own assert for internal invariants (default: assert.h,\n",
   "                              or nothing where there is no assert.h: -ffreestanding,\n",
   "                              wasm32 -nostdlib); argument validation does not depend on it\n",
   "      DROPOUT_NO_SIMD         use only the scalar reference paths (bit-identical anyway)\n",
   "      DROPOUT_NO_AVX512       x86: leave out the AVX-512 path (the AVX2 one runs: for a binary\n",
   "                              built with -march=native that runs where 512-bit code lowers\n",
   "                              the clock); DROPOUT_NO_AVX2 leaves out both (SSE). Same bits.\n",
   "      DROPOUT_V0_API          the 0.1.0 interface, unchanged names and signatures, same bits\n",
   "                              (define it in the implementation file too); for moving over.\n",
   "                              It is in dropout_v0.h, which must sit beside this file;\n",
   "                              deprecated (DROPOUT_DISABLE_DEPRECATE_WARNINGS: no warnings)\n",
   "      DROPOUT_STREAM_STORE_BYTES  x86: outputs of at least this many bytes (default 16 MiB,\n",
   "                              about where a last-level cache stops keeping y for the\n",
   "                              next layer) are written with streaming stores, which skip\n",
   "                              the cache; 0 = always, SIZE_MAX = never. Left unset, on\n",
   "                              AMD family 26 (Zen 5) the AVX2 build (GCC, Clang) and\n",
   "                              gcc's SSE builds stream only the backward from a stored\n",
   "                              mask, and the AVX-512 build (GCC, Clang) that and the calls\n",
   "                              whose element has more bytes than its draw (f32 at 8 and 16\n",
   "                              bits, bf16 and f16 at 8, f64): measured, plain stores\n",
   "                              were faster there for the rest. Same bits.\n",
   "      DROPOUT_STREAM_PREFETCH  x86 AVX-512 and AVX2: 1 = a call that streams its stores asks\n",
   "                              for the next step's x before that step's Philox, 0 = not.\n",
   "                              Default 1 with AVX-512, 0 with AVX2: which pays depends on\n",
   "                              the core (measured: bench/results/simd-design-notes.md).\n",
   "                              Same bits.\n",
   "      DROPOUT_STREAM_OVERLAP  x86 AVX2: 1 = an f32 call that streams its stores makes each\n",
   "                              Philox call and then its data chunks (the overlap it takes in\n",
   "                              cache), 0 = a step's Philox and then its data. Default 1 in\n",
   "                              a build for Zen 3 (-march=znver3, or native on one), 0\n",
   "                              elsewhere (measured: bench/results/simd-design-notes.md).\n",
   "                              Same bits.\n",
   "      DROPOUT_ROW_CHUNK       elements per chunk of a row the descriptor's walker gathers\n",
   "                              (strided views, a mask row not starting on a byte, alpha,\n",
   "                              normal and fused ops): its two buffers of that many doubles\n",
   "                              are most of dropout_run's stack, about 4 of its 5.8 KB on a\n",
   "                              Cortex-M4 at the default 256. A multiple of 64, at least 64\n",
   "                              (64: dropout_run takes 2.7 KB there, for small stacks).\n",
   "                              Same bits.\n",
   "\n",
   "   SIMD\n",
   "      The vector path is chosen when the implementation is compiled, from the compiler's\n",
   "      own target macros: __AVX512F__ with __AVX512BW__, else __AVX2__, else SSE2\n",
   "      (__SSE2__ / x86-64; SSE4.1 blends with __SSE4_1__), else AArch64 __ARM_NEON, else\n",
   "      WebAssembly SIMD128 (__wasm_simd128__: clang -msimd128). So -march=native or -mavx2\n",
   "      picks AVX2. No cpuid, no function pointers, no global state:\n",
   "      one binary runs one path, and every path gives the same bits as the reference.\n",
   "      Calls shorter than 64 elements (32 words for the fills) take the reference path.\n",
   "\n",
   "   THE CONTRACT (docs/SPEC.md has it to the bit)\n",
   "      word w of stream s under seed k = philox4x32_10(ctr = {w/4 lo, w/4 hi, s lo, s hi},\n",
   "      key = {k lo, k hi})[w % 4], which is cuRAND's curand_init(k, s, w) + curand().\n",
   "      Element j of a plan (key {seed k, stream s}, first position o) draws position o + j:\n",
   "      a 32-, 16- or 8-bit slice of that stream (a strided or broadcast tensor: j is the\n",
   "      element's row-major index in the mask's shape). Keep iff draw >= t = round(p *\n",
   "      2^bits); kept y = x * (1/q), q the realised keep probability; dropped y = +0. Masks\n",
   "      are bit-packed, LSB first, 1 = kept.\n",
   "\n",
   "   DETERMINISM\n",
   "      Results are defined as specific IEEE-754 operations in round-to-nearest-even: one\n",
   "      multiply per kept element (float for f32/f16/bf16, double for f64), with the f16\n",
   "      and bf16 conversions done by this header's own integer code. Plain dropout has no\n",
   "      multiply-add to contract; the fused op uses an explicit, exactly emulated fma; the\n",
   "      variants are written so that every product that meets an add is exact, and use the\n",
   "      header's own log and sin/cos. No libm call anywhere, so -O3, -march=native and FMA\n",
   "      hardware change nothing. What would change them is refused where the\n",
   "      implementation is compiled: -ffast-math and its parts (-ffinite-math-only,\n",
   "      -fno-signed-zeros, -freciprocal-math, -fassociative-math) and MSVC's /fp:fast\n",
   "      stop at an #error that names the fix in the file that defines\n",
   "      DROPOUT_IMPLEMENTATION (other files may use them; clang gives no macro for its\n",
   "      -fassociative-math, -fno-signed-zeros, -freciprocal-math: keep them off that\n",
   "      file), as excess precision\n",
   "      (FLT_EVAL_METHOD != 0) does everywhere. At run time a call that computes floats\n",
   "      while the FPU flushes subnormals (x86 MXCSR FTZ/DAZ, which a program linked with\n",
   "      -ffast-math gets from crtfastmath.o; Arm FZ) or rounds other than to nearest sets\n",
   "      the mode its bits need and gives the caller's back: the same bits. In the usual mode\n",
   "      that is one register read per call (make bench-fpu-check).\n",
   "\n",
   "   PORTABILITY AND FREESTANDING USE\n",
   "      C99 or later, or C++11 (C89 stops at an #error). Needs an int of 32 bits or more\n",
   "      and IEEE binary32/binary64 float and double (AVR and MSP430 stop at an #error that\n",
   "      says so). Needs FLT_EVAL_METHOD == 0, i.e.\n",
   "      float and double operations rounded to their own precision: 32-bit x86 needs\n",
   "      -msse2 -mfpmath=sse (the x87 FPU rounds a double product twice), s390x GNU mode\n",
   "      or -fexcess-precision=fast; other settings stop at an #error that says so.\n",
   "      Tested to give the same bits (tests/xarch/suite.sh) on x86-64 (SSE2, SSE4.1, AVX2,\n",
   "      AVX-512, none), i386 SSE2, aarch64 (NEON), armhf, s390x (big-endian), riscv64,\n",
   "      wasm32 (scalar and SIMD128) and a Cortex-M4 (soft float and FPv4-SP), NaN payloads of the variants and\n",
   "      the fused op aside (docs/SPEC.md).\n",
   "      Freestanding (no libc: microcontrollers, wasm32 -nostdlib, kernels): the header\n",
   "      includes only stddef.h, stdint.h and float.h (and assert.h where it exists, see\n",
   "      DROPOUT_ASSERT), calls no libc or libm function and allocates nothing. Provide\n",
   "      nothing beyond what GCC and Clang expect of any freestanding target: their runtime\n",
   "      library (libgcc / compiler-rt: soft-float and 64-bit helpers where the CPU lacks\n",
   "      them) and memset/memcpy, which a compiler may call for plain C loops and struct\n",
   "      copies (seen: clang -Os on wasm32, arm-none-eabi-gcc on a Cortex-M0/M0+; -O2 on\n",
   "      wasm32 and arm-none-eabi-gcc -Os from the M3 up need none) and which the x86,\n",
   "      NEON and WebAssembly SIMD paths call (on wasm32, clang -mbulk-memory makes them the\n",
   "      memory.copy instruction). On a Cortex-M4 (-Os), a step's forward + backward f32 with a\n",
   "      constant rule (DROPOUT_RULE_THRESHOLD: no soft double is linked) take 2.0 KB of flash\n",
   "      with the FPU and 2.5 KB with soft float, libgcc included (tests/xarch/suite.sh holds\n",
   "      them to 2.5 and 3.5 KB); dropout_rule_init (p as a double) adds about 3.2 KB (2.8 KB\n",
   "      more than dropout_rule_init_threshold, which works in integers).\n",
   "\n",
   "   THREADS AND CHUNKS\n",
   "      Functions are reentrant (no global state; the FPU mode a call sets is its thread's\n",
   "      and is given back). To split a step over threads or machines, reserve it with\n",
   "      dropout_gen_plan and give each chunk dropout_plan_slice(&plan, start, count, &chunk)\n",
   "      and its output slice (dropout_replay_*): the result equals one call. Mask bytes hold 8 elements, so chunks that write masks,\n",
   "      and chunks of dropout_apply_mask_* (which reads a mask from bit 0 of its first byte),\n",
   "      start at multiples of 8 elements. Every thread or rank reserves the whole step (one\n",
   "      dropout_gen_plan of the unsplit count, or generators in lockstep doing so): a short\n",
   "      call's forward on a rank's own shard reserves only the shard, so ranks repeat each\n",
   "      other's masks and their generators drift apart.\n",
   "\n",
   "   CONTENTS (in file order; each part uses only the parts above it, so a reader following\n",
   "   a call reads up the file: dropout_run -> dropout_lower -> the walker -> the engine ->\n",
   "   a SIMD path or the scalar reference -> the building blocks. One exception: the ISA\n",
   "   blocks' apply kernels call the driver's shared lane loops, declared before the blocks.)\n",
   "      Declarations\n",
   "         guards (C99, FLT_EVAL_METHOD, fast-math), version, the return codes (one list,\n",
   "            DROPOUT__ERRORS, makes the enum and dropout_strerror)\n",
   "         inline building blocks, host and device: Philox, draws, rules, keep decisions,\n",
   "            f16/bf16 conversions, per-element apply, accumulate\n",
   "         the library API: keys, positions, rules, generators, plans; the short calls;\n",
   "            the raw stream; the fused op; the variants' building blocks; the descriptor\n",
   "            (the op list DROPOUT__OPS and the dtype list DROPOUT__DTYPES make the enums,\n",
   "            names, sizes and per-op facts); the lowered job every backend runs\n",
   "            (dropout_job, dropout_lower)\n",
   "      Implementation (DROPOUT_IMPLEMENTATION)\n",
   "         argument and FPU-mode checks, error messages\n",
   "         the scalar reference (one loop behind forward, backward, mask, apply_mask)\n",
   "         the SIMD paths: the choice and its opt-outs; one block per instruction set\n",
   "            (AVX-512, AVX2, SSE2/SSE4.1, NEON, WebAssembly SIMD128: primitives, keep\n",
   "            bits, apply, stores); Philox in 32-bit lanes (NEON, WebAssembly) and in\n",
   "            64-bit lanes (x86); the driver (data grid, overlap, the SIMD run)\n",
   "         the engine every call ends in (SIMD path or reference, the same bits)\n",
   "         the public calls: rules, generators, plans -> short calls -> raw stream -> normals\n",
   "         the descriptor: its checks, the geometry and the walker -> the setters ->\n",
   "            dropout_lower -> dropout_run -> the fused op's short calls\n",
   "      DROPOUT_V0_API: #include \"dropout_v0.h\" (the 0.1.0 calls, on the public ones)\n",
   "\n",
   "   LICENSE: see the end of the file.\n",
   "*/\n",
   "\n",
   "#ifndef DROPOUT_H_INCLUDED\n",
   "#define DROPOUT_H_INCLUDED\n",
   "\n",
   "/* Said here rather than in 98 errors from `inline` on: the header is C99 (or C++11). */\n",
   "#if !defined(__cplusplus) && !defined(_MSC_VER) && !defined(__OPENCL_C_VERSION__) && (!defined(__STDC_VERSION__) || __STDC_VERSION__ < 199901L)\n",
   "#error \"dropout.h needs C99 or later (or C++11): compile with -std=c99 (or -std=c11, gnu99, ...)\"\n",
   "#endif\n",
   "/* Every result is specified as float and double operations, each rounded once. Where the\n",
   "   compiler evaluates them wider (FLT_EVAL_METHOD 2: x87, plain gcc -m32, where a double\n",
   "   product is rounded twice; FLT_EVAL_METHOD 1: s390x in strict ISO mode, float in double)\n",
   "   the bits drift from every other CPU's (tests/xarch/suite.sh saw both), so refuse. */\n",
   "#if defined(__FLT_EVAL_METHOD__) && !defined(__CUDA_ARCH__) && \\\n",
   "    !(__FLT_EVAL_METHOD__ == 0 || __FLT_EVAL_METHOD__ == 16 || __FLT_EVAL_METHOD__ == 32)\n",
   "#error \"dropout.h needs FLT_EVAL_METHOD == 0: on 32-bit x86 compile with -msse2 -mfpmath=sse (x87 rounds twice); on s390x with -std=gnu99/gnu11 or -fexcess-precision=fast\"\n",
   "#endif\n",
   "/* The stream and the rules are written for an int of 32 bits or more (a 16-bit int\n",
   "   makes the shifts of 16 and more undefined and narrows the products) and for IEEE\n",
   "   binary32 float and binary64 double (the thresholds, the f64 scales, the normals). A\n",
   "   16-bit-int target (AVR, MSP430) or a 32-bit double (avr-gcc's default) had stopped at\n",
   "   unrelated typedefs of negative size in the implementation, and a file with the\n",
   "   declarations alone compiled, its building blocks computing other rules: refuse both,\n",
   "   with the reason. (The predefined macros of gcc and clang; a compiler without them is\n",
   "   taken at its word. OpenCL C and CUDA's device side are the kernels' own business.) */\n",
   "#if !defined(__OPENCL_C_VERSION__) && !defined(__CUDA_ARCH__)\n",
   "#if defined(__SIZEOF_INT__) && __SIZEOF_INT__ < 4\n",
   "#error \"dropout.h needs an int of 32 bits or more: this target's int has 16 (AVR, MSP430); the Philox and the rules are written for 32-bit int arithmetic\"\n",
   "#endif\n",
   "#if (defined(__DBL_MANT_DIG__) && __DBL_MANT_DIG__ != 53) || (defined(__FLT_MANT_DIG__) && __FLT_MANT_DIG__ != 24)\n",
   "#error \"dropout.h needs IEEE binary32 float and binary64 double (DBL_MANT_DIG 53): this target's double is another format (avr-gcc's double is 32 bits; avr-gcc 10 on takes -mdouble=64)\"\n",
   "#endif\n",
   "#endif\n",
   "\n",
   "/* The fast-math guards are in the implementation section (a file with the declarations\n",
   "   alone may use fast-math); dropout_cuda.cuh's kernels are compiled where\n",
   "   DROPOUT_CUDA_IMPLEMENTATION is defined, so that file is held to them too. */\n",
   "#if !defined(DROPOUT_IMPLEMENTATION) && defined(DROPOUT_CUDA_IMPLEMENTATION) && \\\n",
   "    (defined(__FAST_MATH__) || (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__ > 0) || \\\n",
   "     defined(__NO_SIGNED_ZEROS__) || defined(__RECIPROCAL_MATH__) || defined(__ASSOCIATIVE_MATH__))\n",
   "#error \"the implementation of dropout_cuda.cuh must not be built with -ffast-math or its parts (-ffinite-math-only, -fno-signed-zeros, -freciprocal-math, -fassociative-math): they change the bits; build the file that defines DROPOUT_CUDA_IMPLEMENTATION without them\"\n",
   "#endif\n",
   "\n",
   "#if defined(__OPENCL_C_VERSION__)\n",
   "/* OpenCL C (dropout_opencl.h compiles this header's building blocks as kernel code): the\n",
   "   exact-width types are OpenCL's own; size_t and ptrdiff_t are built in. double exists\n",
   "   only with cl_khr_fp64, which dropout_opencl.h enables where the device has it. Build\n",
   "   options that change float results are refused where the compiler says so\n",
   "   (-cl-fast-relaxed-math, -cl-finite-math-only); -cl-denorms-are-zero, -cl-mad-enable and\n",
   "   -cl-unsafe-math-optimizations define nothing to test: do not pass them. */\n",
   "#if defined(__FAST_RELAXED_MATH__) || defined(__FAST_MATH__) || (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__ > 0)\n",
   "#error \"dropout.h's OpenCL building blocks must not be built with -cl-fast-relaxed-math or -cl-finite-math-only: they change the bits\"\n",
   "#endif\n",
   "typedef uchar uint8_t;\n",
   "typedef ushort uint16_t;\n",
   "typedef uint uint32_t;\n",
   "typedef ulong uint64_t;\n",
   "#else\n",
   "#include <stddef.h>   /* freestanding headers: no libc needed */\n",
   "#include <stdint.h>\n",
   "#if !defined(__OPENCL_C_VERSION__)   /* (OpenCL C has DBL_MAX and DBL_MIN built in) */\n",
   "#include <float.h>    /* DBL_MAX, DBL_MIN: gcc's carry an L, which -fsingle-precision-constant leaves as they are */\n",
   "#endif\n",
   "#endif\n",
   "\n",
   "/* C++ users who build with -Wold-style-cast, -Wzero-as-null-pointer-constant or\n",
   "   -Wuseless-cast (-Werror): the header is C99 first, and its casts are C casts (a cast\n",
   "   that is needed on one target is useless on another: size_t is uint64_t on LP64 only),\n",
   "   so inside the header, and there only, these three are off; and clang's\n",
   "   -Wreserved-identifier and -Wreserved-macro-identifier (in -Weverything), since C++\n",
   "   reserves every name with \"__\" in it, where C leaves dropout__ names to the header. The\n",
   "   user's own code after the include is checked as before (push / pop; tests/api/suite.sh\n",
   "   builds it so). */\n",
   "#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)\n",
   "#pragma GCC diagnostic push\n",
   "#pragma GCC diagnostic ignored \"-Wold-style-cast\"\n",
   "#pragma GCC diagnostic ignored \"-Wzero-as-null-pointer-constant\"\n",
   "#if !defined(__clang__)\n",
   "#pragma GCC diagnostic ignored \"-Wuseless-cast\"\n",
   "#elif defined(__has_warning)\n",
   "#if __has_warning(\"-Wreserved-identifier\") && __has_warning(\"-Wreserved-macro-identifier\")\n",
   "#pragma GCC diagnostic ignored \"-Wreserved-identifier\"\n",
   "#pragma GCC diagnostic ignored \"-Wreserved-macro-identifier\"\n",
   "#endif\n",
   "#endif\n",
   "#endif\n",
   "\n",
   "/* clang defines no macro for -fassociative-math, -freciprocal-math, -fno-signed-zeros,\n",
   "   -funsafe-math-optimizations or -fapprox-func, nor for -ffast-math -fno-finite-math-only,\n",
   "   which has them all: alpha dropout's f64 output drifted 1 ulp there, every call returning\n",
   "   0. So the header's own code is compiled in clang's precise mode (float_control, clang 11\n",
   "   on; Apple's clang 13 on), whatever the command line says: the same object code as\n",
   "   without such flags, and their semantics undone where they are given. The rest of the\n",
   "   file that includes it keeps its flags. (gcc says which flags are on: the implementation\n",
   "   refuses them below.) clang 14 takes the pragma on x86, s390x and POWER only (elsewhere\n",
   "   it warns that it ignores it: armhf, aarch64, riscv64, wasm32), so there only. */\n",
   "#if defined(__clang__) && !defined(__CUDACC__) && !defined(__OPENCL_C_VERSION__) && \\\n",
   "    ((defined(__apple_build_version__) && __clang_major__ >= 13) || (!defined(__apple_build_version__) && __clang_major__ >= 11)) && \\\n",
   "    (defined(__x86_64__) || defined(__i386__) || defined(__s390x__) || defined(__powerpc__) || defined(__powerpc64__))\n",
   "#define DROPOUT__FLOAT_CONTROL 1\n",
   "#endif\n",
   "#if defined(DROPOUT__FLOAT_CONTROL)\n",
   "#pragma float_control(precise, on, push)\n",
   "#endif\n",
   "\n",
   "#define DROPOUT_VERSION_MAJOR 0\n",
   "#define DROPOUT_VERSION_MINOR 9\n",
   "#define DROPOUT_VERSION_PATCH 0\n",
   "#define DROPOUT_VERSION_STRING \"0.9.0\"\n",
   "\n",
   "#ifndef DROPOUTDEF\n",
   "#ifdef DROPOUT_STATIC\n",
   "/* a file that uses only part of the API must not warn about the rest */\n",
   "#if defined(__GNUC__) || defined(__clang__)\n",
   "#define DROPOUTDEF static __attribute__((unused))\n",
   "#else\n",
   "#define DROPOUTDEF static\n",
   "#endif\n",
   "#else\n",
   "#define DROPOUTDEF extern\n",
   "#endif\n",
   "#endif\n",
   "\n",
   "/* Building blocks shared by the CPU and the GPU: the same source compiles as plain\n",
   "   static inline C, as C++, and as __host__ __device__ under nvcc. */\n",
   "#if defined(__CUDACC__)\n",
   "#define DROPOUT_HD static __host__ __device__ __forceinline__\n",
   "#elif defined(__i386__) && (defined(__GNUC__) || defined(__clang__))\n",
   "/* i386 returns a float or double in the x87 register st(0) even with SSE math, and loading\n",
   "   a signalling NaN there quiets it: a block not inlined (-O0) would break the copies that\n",
   "   are bit for bit (p = 0, a dropped element of the fused op is the residual). Always\n",
   "   inlined, the value stays in an SSE register. */\n",
   "#define DROPOUT_HD static inline __attribute__((always_inline))\n",
   "#else\n",
   "#define DROPOUT_HD static inline\n",
   "#endif\n",
   "\n",
   "/* The float operations of the building blocks below, held to IEEE's results on the CUDA\n",
   "   device whatever the build's flags. nvcc's -ftz=true, which --use_fast_math implies,\n",
   "   turns every f32 instruction the compiler writes into one that flushes subnormal inputs\n",
   "   and results to zero (mul.ftz.f32, cvt.ftz.f64.f32, ...), and defines no macro that a\n",
   "   header could test; __fmul_rn and its kin flush too. An instruction written in inline\n",
   "   PTX keeps the form written (the compiler passes it through as text), and each of these\n",
   "   has its rounding, so no pass fuses it into an fma either; the negation flips the sign\n",
   "   bit. tests/cuda checks that the kernels' PTX built with --use_fast_math holds no\n",
   "   flushing or approximate instruction (it is the default build's, byte for byte).\n",
   "   Elsewhere (the CPU, OpenCL C) they are the plain operations, as macros: that code is\n",
   "   the same after preprocessing as when it was written with the operators. */\n",
   "#if defined(__CUDA_ARCH__)\n",
   "DROPOUT_HD float dropout__fmul(float a, float b)\n",
   "{\n",
   "   float r;\n",
   "   asm(\"mul.rn.f32 %0, %1, %2;\" : \"=f\"(r) : \"f\"(a), \"f\"(b));\n",
   "   return r;\n",
   "}\n",
   "DROPOUT_HD float dropout__fadd(float a, float b)\n",
   "{\n",
   "   float r;\n",
   "   asm(\"add.rn.f32 %0, %1, %2;\" : \"=f\"(r) : \"f\"(a), \"f\"(b));\n",
   "   return r;\n",
   "}\n",
   "DROPOUT_HD float dropout__ffma(float a, float b, float c)\n",
   "{\n",
   "   float r;\n",
   "   asm(\"fma.rn.f32 %0, %1, %2, %3;\" : \"=f\"(r) : \"f\"(a), \"f\"(b), \"f\"(c));\n",
   "   return r;\n",
   "}\n",
   "DROPOUT_HD float dropout__f32_of(double a)\n",
   "{\n",
   "   float r;\n",
   "   asm(\"cvt.rn.f32.f64 %0, %1;\" : \"=f\"(r) : \"d\"(a));\n",
   "   return r;\n",
   "}\n",
   "DROPOUT_HD double dropout__f64_of(float a)\n",
   "{\n",
   "   double r;\n",
   "   asm(\"cvt.f64.f32 %0, %1;\" : \"=d\"(r) : \"f\"(a));\n",
   "   return r;\n",
   "}\n",
   "DROPOUT_HD float dropout__fneg(float a)        /* the sign bit flipped */\n",
   "{\n",
   "   return __uint_as_float(__float_as_uint(a) ^ 0x80000000u);\n",
   "}\n",
   "#else\n",
   "#define dropout__fmul(a, b) ((a) * (b))\n",
   "#define dropout__fadd(a, b) ((a) + (b))\n",
   "#define dropout__fneg(a) (-(a))\n",
   "#define dropout__f64_of(a) ((double)(a))\n",
   "#define dropout__f32_of(a) ((float)(a))\n",
   "#endif\n",
   "\n",
   "#ifdef __cplusplus\n",
   "extern \"C\" {\n",
   "#endif\n",
   "\n",
   "/* Return codes, one row each: X(name, pinned value, dropout_strerror's message), the\n",
   "   enum and dropout_strerror generated from the rows (an error is added by adding its\n",
   "   row; its comment, when the name needs one, goes beside it). Values are pinned: 0.1.0's\n",
   "   -1 .. -5 keep their meaning; new ones are added below the last, never renumbered. */\n",
   "#define DROPOUT__ERRORS(X) \\\n",
   "   X(DROPOUT_OK, 0, \"ok\") \\\n",
   "   X(DROPOUT_ERR_P, -1,                /* p is NaN or outside [0, 1] */ \\\n",
   "     \"p: must be a number in [0, 1] (Gaussian dropout: in [0, 1))\") \\\n",
   "   X(DROPOUT_ERR_NULL, -2,             /* a required pointer is NULL (0.1.0 calls, set_device_coords' pair, cuda_advance's dev_pos; other 1.0 calls name it: _NULL_PLAN ..) */ \\\n",
   "     \"a required pointer is NULL (a 0.1.0 call: its output, input or generator; dropout_desc_set_device_coords: one of its two; dropout_cuda_advance: dev_pos)\") \\\n",
   "   X(DROPOUT_ERR_BITS, -3,             /* the draw width is not 8, 16 or 32 */ \\\n",
   "     \"bits: the draw width must be DROPOUT_BITS_8, _16 or _32\") \\\n",
   "   X(DROPOUT_ERR_RANGE, -4,            /* positions run past the stream's 2^64 */ \\\n",
   "     \"positions: first + count runs past the end of the stream (2^64 positions; 2^63 uniform doubles; a generator never hands out position 2^64 - 1), or count does not fit size_t\") \\\n",
   "   X(DROPOUT_ERR_ARG, -5,              /* 0.1.0 calls (DROPOUT_V0_API): another argument is out of its domain */ \\\n",
   "     \"an argument is out of its domain (a 0.1.0 call's; dropout_opencl_set_launch: local_size; dropout_opencl_init: flags)\") \\\n",
   "   X(DROPOUT_ERR_P_NEEDS_16, -6,       /* p in (0, 1) that 8-bit draws realise as 0 or 1; 16 bits serve */ \\\n",
   "     \"p: 8-bit draws realise this p or 1 - p more than 1% off (or as 0 or 1); use DROPOUT_BITS_16 (or 32), or dropout_rule_init_quantised to accept the 8-bit p\") \\\n",
   "   X(DROPOUT_ERR_P_NEEDS_32, -7,       /* ... that 8- and 16-bit draws realise as 0 or 1; 32 bits serve */ \\\n",
   "     \"p: 8- and 16-bit draws realise this p or 1 - p more than 1% off (or as 0 or 1); use DROPOUT_BITS_32, or dropout_rule_init_quantised to accept the quantised p\") \\\n",
   "   X(DROPOUT_ERR_P_UNREALISABLE, -8,   /* ... that even 32-bit draws realise as 0 or 1 */ \\\n",
   "     \"p: even 32-bit draws realise this p or 1 - p more than 1% off (only some below 50 * 2^-32, about 1.2e-8, are); dropout_rule_init_quantised accepts the 32-bit p unless it is 0 or 1\") \\\n",
   "   X(DROPOUT_ERR_THRESHOLD, -9,        /* threshold past 2^bits */ \\\n",
   "     \"threshold: must be at most 2^bits\") \\\n",
   "   X(DROPOUT_ERR_RULE, -10,            /* a dropout_rule that dropout_rule_init did not make (bits, threshold) */ \\\n",
   "     \"rule: its fields disagree (bits not 8/16/32, threshold past 2^bits, or scale_f64 / scale_f32 not those of threshold and bits): make rules with dropout_rule_init or DROPOUT_RULE_THRESHOLD, never by hand\") \\\n",
   "   X(DROPOUT_ERR_SLICE, -11,           /* plan slice start + count runs past the plan's count */ \\\n",
   "     \"slice: start + count runs past the plan's count\") \\\n",
   "   X(DROPOUT_ERR_RANK, -12,            /* rank outside 1 .. DROPOUT_MAX_RANK */ \\\n",
   "     \"rank: must be 1 .. DROPOUT_MAX_RANK (8)\") \\\n",
   "   X(DROPOUT_ERR_BROADCAST, -13,       /* a broadcast bit at or past the rank */ \\\n",
   "     \"broadcast: a bit at or past the rank is set, or broadcast dims and position strides both (a zero position stride is the broadcast)\") \\\n",
   "   X(DROPOUT_ERR_SIGMA, -14,           /* sigma NaN, negative or infinite as a float; or NOISE without sigma */ \\\n",
   "     \"sigma: must be >= 0 and below 2^128 - 2^103 (from there it is infinite as a float), and set with dropout_desc_set_sigma for DROPOUT_OP_NOISE\") \\\n",
   "   X(DROPOUT_ERR_SHAPE_OVERFLOW, -15,  /* the shape's element count overflows size_t */ \\\n",
   "     \"shape: the element count overflows size_t, or its bytes pass PTRDIFF_MAX\") \\\n",
   "   X(DROPOUT_ERR_SHAPE_COUNT, -16,     /* the shape draws a number of positions other than plan->count */ \\\n",
   "     \"shape: it draws a number of positions other than plan->count\") \\\n",
   "   X(DROPOUT_ERR_STRIDE, -17,          /* an output stride is zero, or the strides' extent overflows */ \\\n",
   "     \"strides: an output stride is zero, or the strides (or n elements of a fused short call's buffers) reach past the address space\") \\\n",
   "   X(DROPOUT_ERR_OVERLAP, -18,         /* two output elements share memory, or an output partly overlaps an input */ \\\n",
   "     \"an output overlaps what the call reads or writes elsewhere: y/dx/out partly overlaps x/dy/in, the residual, the bias or the mask, a mask written overlaps an input, or device coordinates lie in what the call writes (in place is the same pointer with the same strides); or, with strides set, two output elements share memory\") \\\n",
   "   X(DROPOUT_ERR_OP, -19,              /* not a dropout_op, or the op does not take this setting / tensor */ \\\n",
   "     \"op: not a dropout_op, or the op does not take this setting or tensor\") \\\n",
   "   X(DROPOUT_ERR_DTYPE, -20,           /* not a dropout_dtype */ \\\n",
   "     \"dtype: not a dropout_dtype\") \\\n",
   "   X(DROPOUT_ERR_DESC, -21,            /* a dropout_desc that dropout_desc_init did not initialise */ \\\n",
   "     \"descriptor: not initialised by dropout_desc_init\") \\\n",
   "   X(DROPOUT_ERR_FLUSH, -22,           /* the FPU flushes subnormals (x86 MXCSR FTZ/DAZ, Arm FZ) */ \\\n",
   "     \"FPU: subnormals are flushed to zero (no longer returned: each call sets the FPU mode it needs and restores the caller's)\") \\\n",
   "   X(DROPOUT_ERR_ROUNDING, -23,        /* the FPU does not round to nearest even */ \\\n",
   "     \"FPU: the rounding mode is not round-to-nearest-even (no longer returned: each call sets the mode it needs and restores the caller's)\") \\\n",
   "   X(DROPOUT_ERR_DEVICE_COORDS, -24,   /* device-memory coordinates given to a CPU run, or not 8-byte aligned */ \\\n",
   "     \"descriptor: device-memory coordinates (dropout_desc_set_device_coords) given to a CPU run, or a coordinate pointer (dev_seed, dev_pos; dropout_cuda_advance: dev_pos, dev_saved) not aligned to 8 bytes\") \\\n",
   "   X(DROPOUT_ERR_BIAS_LEN, -25,        /* bias_len is 0, does not divide the count, or is not the last dim */ \\\n",
   "     \"bias_len: must be non-zero, divide the count and equal the last dim\") \\\n",
   "   X(DROPOUT_ERR_GRAD, -26,            /* not a dropout_grad */ \\\n",
   "     \"grad: must be DROPOUT_GRAD_OVERWRITE or DROPOUT_GRAD_ACCUMULATE\") \\\n",
   "   X(DROPOUT_ERR_COUNT, -27,           /* n differs from plan->count (a plan of another layer, or a wrong count) */ \\\n",
   "     \"n: differs from plan->count (a plan made for another layer or shape, or a wrong element count)\") \\\n",
   "   X(DROPOUT_ERR_SIZE, -28,            /* n more elements than any buffer holds (past PTRDIFF_MAX bytes: a negative int\?) */ \\\n",
   "     \"n (or count, a plan's count, the shape's positions): more elements than any buffer can hold (past PTRDIFF_MAX bytes): a negative int converted to size_t\?\") \\\n",
   "   X(DROPOUT_ERR_NULL_PLAN, -29,       /* NULL, by argument: plan */ \\\n",
   "     \"plan is NULL\") \\\n",
   "   X(DROPOUT_ERR_NULL_RULE, -30,       /* rule */ \\\n",
   "     \"rule is NULL\") \\\n",
   "   X(DROPOUT_ERR_NULL_GEN, -31,        /* the generator g */ \\\n",
   "     \"g (the generator) is NULL\") \\\n",
   "   X(DROPOUT_ERR_NULL_OUTPUT, -32,     /* y / dx / out: the output buffer */ \\\n",
   "     \"the output buffer (y, dx, out) is NULL\") \\\n",
   "   X(DROPOUT_ERR_NULL_INPUT, -33,      /* x / dy / in: the input buffer */ \\\n",
   "     \"the input buffer (x, dy, in) is NULL\") \\\n",
   "   X(DROPOUT_ERR_NULL_MASK, -34,       /* mask (where the call needs one) */ \\\n",
   "     \"mask is NULL (this call reads or writes it)\") \\\n",
   "   X(DROPOUT_ERR_NULL_BIAS, -35,       /* bias */ \\\n",
   "     \"bias is NULL\") \\\n",
   "   X(DROPOUT_ERR_NULL_RESIDUAL, -36,   /* residual */ \\\n",
   "     \"residual is NULL\") \\\n",
   "   X(DROPOUT_ERR_NULL_DESC, -37,       /* the descriptor d */ \\\n",
   "     \"d (the descriptor) is NULL\") \\\n",
   "   X(DROPOUT_ERR_NULL_TENSORS, -38,    /* the dropout_tensors t */ \\\n",
   "     \"t (the dropout_tensors) is NULL\") \\\n",
   "   X(DROPOUT_ERR_NULL_RESULT, -39,     /* where the call writes its result (the rule, plan or count it makes) */ \\\n",
   "     \"the pointer the result is written to (rule, plan, positions, ...) is NULL\") \\\n",
   "   X(DROPOUT_ERR_NULL_DIMS, -40,       /* dims */ \\\n",
   "     \"dims is NULL\") \\\n",
   "   X(DROPOUT_ERR_GEN_MOVED, -41,       /* g is not where dropout_gen_init put it: a copy, a move, a load */ \\\n",
   "     \"g: not where dropout_gen_init made it: a copy (passed by value, a struct copied) would hand out the same positions again, so pass the one generator by pointer; to move one, dropout_gen_move(to, from); a checkpoint loaded from a file, dropout_gen_resume(g, key, next, units)\") \\\n",
   "   X(DROPOUT_ERR_CAPTURE, -42,         /* dropout_cuda.cuh: a step's forward on a stream being captured into a graph */ \\\n",
   "     \"cs: a step's forward on a stream being captured into a CUDA graph (every replay would repeat the positions taken at capture): capture dropout_cuda_run with dropout_desc_set_device_coords and dropout_cuda_advance\") \\\n",
   "   X(DROPOUT_ERR_PLAN_RAN, -43,        /* d: its plan drew a forward's mask already */ \\\n",
   "     \"d: its plan drew a forward's mask already (a run of d, or of the descriptor d was copied from): dropout_desc_new_step(d, g) at the top of each step gives it fresh positions (or dropout_desc_set_plan a fresh plan); dropout_desc_replay(d) only where the same mask is meant (checkpoint recomputation, GAUSSIAN's backward)\") \\\n",
   "   X(DROPOUT_ERR_DESC_MOVED, -44,      /* d is not where its plan was given to it: a copy, a move */ \\\n",
   "     \"d: not where its plan was given to it (a copy, or a descriptor moved or returned by value), so the original could draw the same mask: dropout_desc_new_step(d, g) gives d its own positions (or dropout_desc_set_plan a plan sharing no position with the one d was copied with; a thread's chunk of a split step: dropout_desc_init from the chunk); dropout_desc_move(to, from) moves one on purpose\") \\\n",
   "   X(DROPOUT_ERR_OPERAND, -45,         /* dropout_desc_set_strides: which is not a dropout_operand */ \\\n",
   "     \"which: not a dropout_operand (DROPOUT_OPERAND_OUT, DROPOUT_OPERAND_IN, DROPOUT_OPERAND_RESIDUAL)\") \\\n",
   "   X(DROPOUT_ERR_UNITS, -46,           /* g's units (dropout_gen_resume's): not what a next can count */ \\\n",
   "     \"units (g.units): must say what g.next counts, as saved with it: DROPOUT_UNITS_8, _16, _32 or _NORMALS; DROPOUT_UNITS_NONE only with next 0 (a next of unknown units could be read as another kind's position, drawing words handed out already)\") \\\n",
   "   X(DROPOUT_ERR_PLAN_UNITS, -47,      /* plan (or d's plan): its units are not the draws the call makes */ \\\n",
   "     \"plan (or d's plan): plan->units says what its positions count, and the call draws another kind (read as that kind, the positions are other stream words than those reserved): dropout draws of the rule's width take a plan of dropout_gen_plan, dropout_plan_at or a forward; GAUSSIAN and NOISE, of dropout_gen_plan_normals or dropout_plan_at_normals (or dropout_desc_new_step after dropout_desc_set_op); a plan written by hand (units not set) or given another rule width is refused\") \\\n",
   "   X(DROPOUT_ERR_POSITION_STRIDES, -48, /* dropout_desc_set_position_strides: two elements would draw one position */ \\\n",
   "     \"position strides: two elements would draw one position (taken in increasing order over the dims of more than one element, each non-zero stride must pass the span of the smaller ones: 1 + the sum of (dim - 1) * stride), the span passes PTRDIFF_MAX, a rank-8 shape of dims all above 1 has a last dim stepping more than 1, or the fused op's last dim steps more than 1; and dropout_desc_new_step refuses a descriptor with position strides: it is a slice, whose step is the whole tensor's (dropout_gen_plan of the whole count, then dropout_plan_slice and dropout_desc_set_plan)\") \\\n",
   "   X(DROPOUT_ERR_SHAPE_RESETS, -49,    /* dropout_desc_set_shape: strides set before the first shape, never run */ \\\n",
   "     \"dropout_desc_set_shape: d has strides or position strides set before its first shape and never run, and a shape resets them to the default (a view whose strides came first would run contiguous, writing elements outside it): set the shape first, then the strides; to reset on purpose, dropout_desc_set_strides(d, which, NULL) / dropout_desc_set_position_strides(d, NULL) first\") \\\n",
   "   X(DROPOUT_ERR_STRIDES_STALE, -50,   /* d's strides were set for an earlier shape, which a later set_shape reset */ \\\n",
   "     \"strides / position strides: set for an earlier shape of d, and dropout_desc_set_shape reset them to the default (a view reshaped for a smaller batch would run contiguous, writing elements outside it); d runs once each the op uses is set again for this shape: dropout_desc_set_strides(d, which, strides) / dropout_desc_set_position_strides(d, strides), or NULL for the default on purpose\") \\\n",
   "   X(DROPOUT_ERR_MASK_BYTES, -51,      /* a mask with position strides spanning more positions than elements, its size not stated; or a size below what the op reads or writes */ \\\n",
   "     \"mask: with position strides a mask holds one bit a position of the whole span (dropout_desc_positions), more than one an element, so d needs its size first: dropout_desc_set_mask_bytes(d, bytes); or the size stated is below the span's (positions + 7) / 8 bytes\") \\\n",
   "   X(DROPOUT_ERR_ALIGN, -52,           /* dropout_cuda.cuh: a tensor's pointer not aligned to its element type */ \\\n",
   "     \"out / in / bias / residual (a GPU call's): a pointer not aligned to its element type (a float * 2 bytes into a buffer); a GPU's load of it faults and ends the CUDA context (cudaErrorMisalignedAddress), so nothing is launched: cudaMalloc's buffers and whole-element offsets into them are aligned\")\n",
   "\n",
   "#define DROPOUT__ERROR_ENUM(name, value, message) name = value,\n",
   "enum {\n",
   "   DROPOUT__ERRORS(DROPOUT__ERROR_ENUM)\n",
   "   /* dropout_cuda.cuh: a failed CUDA call returns DROPOUT_ERR_CUDA_BASE - cudaError_t,\n",
   "      so the CUDA error travels in the code itself (no global state). */\n",
   "   DROPOUT_ERR_CUDA_BASE = -1000\n",
   "};\n",
   "#undef DROPOUT__ERROR_ENUM\n",
   "\n",
   "/* Every public enum has a private member of this value, so that it is an int under any\n",
   "   flag. A file built with -fshort-enums (arm-none-eabi's default, where enums take the\n",
   "   fewest bytes that hold their values) would otherwise lay out dropout_gen, dropout_desc\n",
   "   and dropout_job other than an implementation built without it, and no compiler says so:\n",
   "   the implementation then writes past a shorter job and reads the fields at the wrong\n",
   "   offsets. No call takes or returns these members. */\n",
   "#define DROPOUT__ENUM_AS_INT 0x7fffffff\n",
   "\n",
   "/* The same for packing: -fpack-struct (or #pragma pack(1) or (2) around the include) in\n",
   "   one file and not in the implementation's lays dropout_plan, dropout_desc and dropout_job\n",
   "   out with fewer bytes (dropout_desc 392 against 408 on a Cortex-M4), and\n",
   "   dropout_desc_init wrote past a descriptor that file declared, every call returning 0.\n",
   "   Such a file stops at this typedef. (-fpack-struct=4 leaves this probe as it is and is\n",
   "   not caught: build every file that includes the header with the same packing.) */\n",
   "#if !defined(__OPENCL_C_VERSION__)   /* (the kernels' structs are the host's business) */\n",
   "struct dropout__layout_probe { uint8_t c; uint32_t x; };\n",
   "typedef char dropout__every_file_needs_the_natural_struct_layout_not_fpack_struct\n",
   "   [offsetof(struct dropout__layout_probe, x) == 4 \? 1 : -1];\n",
   "#endif\n",
   "\n",
   "/* Stream coordinates, as types of their own, so that they cannot be passed in each\n",
   "   other's place: a key {seed, stream} names a stream; a position is the index of a draw\n",
   "   in it, counted in draws of the call's width. */\n",
   "typedef struct dropout_key { uint64_t seed; uint64_t stream; } dropout_key;\n",
   "typedef struct dropout_pos { uint64_t index; } dropout_pos;\n",
   "\n",
   "DROPOUT_HD dropout_key dropout_key_make(uint64_t seed, uint64_t stream)\n",
   "{\n",
   "   dropout_key k;\n",
   "   k.seed = seed;\n",
   "   k.stream = stream;\n",
   "   return k;\n",
   "}\n",
   "\n",
   "DROPOUT_HD dropout_pos dropout_pos_make(uint64_t index)\n",
   "{\n",
   "   dropout_pos p;\n",
   "   p.index = index;\n",
   "   return p;\n",
   "}\n",
   "\n",
   "/* The draw width: a dropout decision compares an 8-, 16- or 32-bit slice of the stream\n",
   "   with the threshold. Wider draws realise p more finely and use more of the stream. */\n",
   "typedef enum dropout_bits {\n",
   "   DROPOUT_BITS_8 = 8, DROPOUT_BITS_16 = 16, DROPOUT_BITS_32 = 32, DROPOUT__BITS_AS_INT = DROPOUT__ENUM_AS_INT\n",
   "} dropout_bits;\n",
   "\n",
   "/* f16 and bf16 buffers: distinct types, so one cannot be passed for the other. The bits\n",
   "   are IEEE binary16 / bfloat16 (the same memory as __half / __nv_bfloat16). */\n",
   "typedef struct dropout_f16 { uint16_t bits; } dropout_f16;\n",
   "typedef struct dropout_bf16 { uint16_t bits; } dropout_bf16;\n",
   "\n",
   "/* ------------------------------------------------------------------------------------\n",
   "   Inline building blocks (host and device). Usable in your own kernels; the library\n",
   "   itself is built from exactly these.\n",
   "   ------------------------------------------------------------------------------------ */\n",
   "\n",
   "/* The realised dropout rule for (p, bits); see docs/SPEC.md section 3. The four fields\n",
   "   are one value: every call checks that they agree (scale_f64 is 2^bits / (2^bits - t)\n",
   "   rounded once, scale_f32 that rounded to float) and refuses a rule that was edited or\n",
   "   written by hand otherwise (DROPOUT_ERR_RULE). Make one with dropout_rule_init (at run\n",
   "   time) or DROPOUT_RULE_THRESHOLD (a constant, for const tables). */\n",
   "typedef struct dropout_rule {\n",
   "   uint64_t threshold;  /* t = floor(p * 2^bits + 1/2), in [0, 2^bits]; keep iff draw >= t */\n",
   "   double scale_f64;    /* 1 / (1 - t / 2^bits); 0 when t = 2^bits (everything dropped) */\n",
   "   float scale_f32;     /* scale_f64 rounded once to float */\n",
   "   int bits;            /* 8, 16 or 32 */\n",
   "} dropout_rule;\n",
   "\n",
   "/* A rule as a constant initializer, checked when it compiles: p = threshold / 2^bits,\n",
   "      static const dropout_rule drop10 = DROPOUT_RULE_THRESHOLD(6554, 16);   p = 0.1000061\n",
   "   bits other than 8, 16, 32 or a threshold past 2^bits do not compile (an array of\n",
   "   negative size), nor does a threshold that is not an integer (a shift needs one: p\n",
   "   itself, DROPOUT_RULE_THRESHOLD(0.1, 16), would have been threshold 0, no dropout); the\n",
   "   scales are the compiler's correctly rounded division, the same bits as\n",
   "   dropout_rule_init_threshold's (and each call checks them). */\n",
   "#define DROPOUT__RULE_OK(t, bits) (0 * sizeof(char[(((bits) == 8 || (bits) == 16 || (bits) == 32) && \\\n",
   "   (unsigned long long)(t) <= (1ull << ((bits) & 63))) \? 1 : -1]) + 0 * sizeof((t) >> 0))\n",
   "#define DROPOUT__RULE_SCALE(t, bits) ((unsigned long long)(t) >= (1ull << ((bits) & 63)) \? 0.0 : \\\n",
   "   (double)(1ull << ((bits) & 63)) / (double)((1ull << ((bits) & 63)) - (unsigned long long)(t)))\n",
   "#define DROPOUT_RULE_THRESHOLD(threshold, bits) \\\n",
   "   { (uint64_t)(threshold) + DROPOUT__RULE_OK(threshold, bits), DROPOUT__RULE_SCALE(threshold, bits), \\\n",
   "     (float)DROPOUT__RULE_SCALE(threshold, bits), (int)(bits) }\n",
   "\n",
   "#define DROPOUT_PHILOX_M0 0xD2511F53u\n",
   "#define DROPOUT_PHILOX_M1 0xCD9E8D57u\n",
   "#define DROPOUT_PHILOX_W0 0x9E3779B9u\n",
   "#define DROPOUT_PHILOX_W1 0xBB67AE85u\n",
   "\n",
   "DROPOUT_HD uint32_t dropout__mulhilo(uint32_t a, uint32_t b, uint32_t *hi)\n",
   "{\n",
   "#if defined(__CUDA_ARCH__)\n",
   "   *hi = __umulhi(a, b);\n",
   "   return a * b;\n",
   "#else\n",
   "   uint64_t prod = (uint64_t)a * b;\n",
   "   *hi = (uint32_t)(prod >> 32);\n",
   "   return (uint32_t)prod;\n",
   "#endif\n",
   "}\n",
   "\n",
   "/* Philox4x32 with a chosen number of rounds, as Random123 defines it. */\n",
   "DROPOUT_HD void dropout_philox4x32_rounds(unsigned rounds, const uint32_t ctr[4],\n",
   "                                          const uint32_t key[2], uint32_t out[4])\n",
   "{\n",
   "   uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];\n",
   "   uint32_t k0 = key[0], k1 = key[1];\n",
   "   unsigned r;\n",
   "   for (r = 0; r < rounds; ++r) {\n",
   "      uint32_t hi0, hi1;\n",
   "      uint32_t lo0 = dropout__mulhilo(DROPOUT_PHILOX_M0, c0, &hi0);\n",
   "      uint32_t lo1 = dropout__mulhilo(DROPOUT_PHILOX_M1, c2, &hi1);\n",
   "      c0 = hi1 ^ c1 ^ k0;\n",
   "      c1 = lo1;\n",
   "      c2 = hi0 ^ c3 ^ k1;\n",
   "      c3 = lo0;\n",
   "      k0 += DROPOUT_PHILOX_W0;   /* the bump after the last round is never used */\n",
   "      k1 += DROPOUT_PHILOX_W1;\n",
   "   }\n",
   "   out[0] = c0; out[1] = c1; out[2] = c2; out[3] = c3;\n",
   "}\n",
   "\n",
   "/* Words 4*block .. 4*block+3 of stream `stream` under `seed`. */\n",
   "DROPOUT_HD void dropout_block(uint64_t seed, uint64_t stream, uint64_t block, uint32_t out[4])\n",
   "{\n",
   "   uint32_t ctr[4], key[2];\n",
   "   ctr[0] = (uint32_t)block;  ctr[1] = (uint32_t)(block >> 32);\n",
   "   ctr[2] = (uint32_t)stream; ctr[3] = (uint32_t)(stream >> 32);\n",
   "   key[0] = (uint32_t)seed;   key[1] = (uint32_t)(seed >> 32);\n",
   "   dropout_philox4x32_rounds(10, ctr, key, out);\n",
   "}\n",
   "\n",
   "/* Draw number `lane` (0 .. 128/bits - 1) of a block: 32-bit words in order, 16-bit\n",
   "   halves low first, bytes lowest first. */\n",
   "DROPOUT_HD uint32_t dropout_draw(const uint32_t words[4], int bits, unsigned lane)\n",
   "{\n",
   "   if (bits == 32) return words[lane];\n",
   "   if (bits == 16) return (words[lane >> 1] >> ((lane & 1u) * 16u)) & 0xFFFFu;\n",
   "   return (words[lane >> 2] >> ((lane & 3u) * 8u)) & 0xFFu;\n",
   "}\n",
   "\n",
   "/* Call only with a valid p (in [0, 1], not NaN) and bits in {8, 16, 32}. */\n",
   "DROPOUT_HD dropout_rule dropout_rule_make(double p, int bits)\n",
   "{\n",
   "   dropout_rule r;\n",
   "   double two_b = (double)((uint64_t)1 << bits);   /* exact */\n",
   "   /* p * 2^b is exact; adding 1/2 is exact below 2^52; truncation is floor. */\n",
   "   uint64_t t = (uint64_t)(p * two_b + 0.5);\n",
   "   double q = 1.0 - (double)t / two_b;              /* exact: t has at most 33 bits */\n",
   "   r.threshold = t;\n",
   "   r.bits = bits;\n",
   "   r.scale_f64 = (t == (uint64_t)1 << bits) \? 0.0 : 1.0 / q;\n",
   "   r.scale_f32 = (float)r.scale_f64;\n",
   "   return r;\n",
   "}\n",
   "/* p and bits swapped, dropout_rule_make(16, 0.1), compiled silently as threshold 16 of\n",
   "   bits 0 (each element kept scaled by -1/15). The call is a macro that takes an integer\n",
   "   bits only: `% 1` of a float is a compile error (\"invalid operands\"), in C, C++ and CUDA;\n",
   "   the operand of sizeof is not evaluated, and bits keeps its type (no conversion warning).\n",
   "   (The function itself: (dropout_rule_make).) dropout_alpha_rule_make the same. */\n",
   "#if !defined(__OPENCL_C_VERSION__)\n",
   "#define dropout_rule_make(p, bits) dropout_rule_make((p), ((void)sizeof((bits) % 1), (bits)))\n",
   "#endif\n",
   "\n",
   "DROPOUT_HD int dropout_keep(uint32_t draw, dropout_rule r)\n",
   "{\n",
   "   return (uint64_t)draw >= r.threshold;\n",
   "}\n",
   "\n",
   "/* Exact f16 -> f32 (every half is a float). NaN payloads are kept. */\n",
   "DROPOUT_HD float dropout_f16_to_f32(uint16_t h)\n",
   "{\n",
   "   uint32_t sign = (uint32_t)(h & 0x8000u) << 16;\n",
   "   uint32_t exp = (h >> 10) & 0x1Fu;\n",
   "   uint32_t man = h & 0x3FFu;\n",
   "   uint32_t bits;\n",
   "   union { uint32_t u; float f; } v;\n",
   "   if (exp == 0x1Fu) {\n",
   "      bits = sign | 0x7F800000u | (man << 13);\n",
   "   } else if (exp != 0) {\n",
   "      bits = sign | ((exp + 112u) << 23) | (man << 13);\n",
   "   } else if (man == 0) {\n",
   "      bits = sign;\n",
   "   } else {                       /* subnormal: man * 2^-24, renormalise */\n",
   "      uint32_t e = 0;\n",
   "      while (!(man & 0x400u)) { man <<= 1; ++e; }\n",
   "      bits = sign | ((113u - e) << 23) | ((man & 0x3FFu) << 13);\n",
   "   }\n",
   "   v.u = bits;\n",
   "   return v.f;\n",
   "}\n",
   "\n",
   "/* f32 -> f16, round to nearest, ties to even; overflow gives Inf; NaN stays a quiet NaN\n",
   "   with the top payload bits. */\n",
   "DROPOUT_HD uint16_t dropout_f32_to_f16(float f)\n",
   "{\n",
   "   union { float f; uint32_t u; } v;\n",
   "   uint32_t x, sign, ax, r, rem, halfway;\n",
   "   v.f = f;\n",
   "   x = v.u;\n",
   "   sign = (x >> 16) & 0x8000u;\n",
   "   ax = x & 0x7FFFFFFFu;\n",
   "   if (ax > 0x7F800000u) return (uint16_t)(sign | 0x7E00u | ((ax >> 13) & 0x3FFu));\n",
   "   if (ax >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u);   /* >= 65520: Inf */\n",
   "   if (ax < 0x38800000u) {                                       /* below 2^-14 */\n",
   "      uint32_t shift, m;\n",
   "      if (ax <= 0x33000000u) return (uint16_t)sign;               /* <= 2^-25: zero */\n",
   "      m = (ax & 0x7FFFFFu) | 0x800000u;\n",
   "      shift = 126u - (ax >> 23);                                  /* 14 .. 24 */\n",
   "      r = m >> shift;\n",
   "      rem = m & ((1u << shift) - 1u);\n",
   "      halfway = 1u << (shift - 1u);\n",
   "      if (rem > halfway || (rem == halfway && (r & 1u))) ++r;\n",
   "      return (uint16_t)(sign | r);\n",
   "   }\n",
   "   r = (ax >> 13) - (112u << 10);\n",
   "   rem = ax & 0x1FFFu;\n",
   "   if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;   /* a carry bumps the exponent */\n",
   "   return (uint16_t)(sign | r);\n",
   "}\n",
   "\n",
   "DROPOUT_HD float dropout_bf16_to_f32(uint16_t h)\n",
   "{\n",
   "   union { uint32_t u; float f; } v;\n",
   "   v.u = (uint32_t)h << 16;\n",
   "   return v.f;\n",
   "}\n",
   "\n",
   "/* f32 -> bf16, round to nearest, ties to even; NaN stays a quiet NaN. */\n",
   "DROPOUT_HD uint16_t dropout_f32_to_bf16(float f)\n",
   "{\n",
   "   union { float f; uint32_t u; } v;\n",
   "   v.f = f;\n",
   "   if ((v.u & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((v.u >> 16) | 0x40u);\n",
   "   return (uint16_t)((v.u + 0x7FFFu + ((v.u >> 16) & 1u)) >> 16);\n",
   "}\n",
   "\n",
   "/* A kept NaN comes out as the input NaN with its quiet bit set. x86 and Arm multiplies do\n",
   "   that by themselves; a GPU multiply returns its own default NaN instead, so the rule is\n",
   "   written out here, where both sides share it. */\n",
   "DROPOUT_HD float dropout__scale_f32(float x, float scale)\n",
   "{\n",
   "#if defined(__CUDA_ARCH__)   /* the same three instructions as the plain code, kept as IEEE's (see dropout__fmul) */\n",
   "   float y;   /* (early clobber, \"=&f\": y is written before x is read again, so never x's register) */\n",
   "   asm(\"{ .reg .pred num; mul.rn.f32 %0, %1, %2; setp.num.f32 num, %1, %1; @!num or.b32 %0, %1, 0x00400000; }\"\n",
   "       : \"=&f\"(y) : \"f\"(x), \"f\"(scale));\n",
   "   return y;\n",
   "#else\n",
   "   union { float f; uint32_t u; } v;\n",
   "   if (x >= x) return x * scale;   /* not NaN (>=, not ==: -Wfloat-equal stays quiet) */\n",
   "   v.f = x;\n",
   "   v.u |= 0x00400000u;\n",
   "   return v.f;\n",
   "#endif\n",
   "}\n",
   "\n",
   "DROPOUT_HD double dropout__scale_f64(double x, double scale)\n",
   "{\n",
   "   union { double f; uint64_t u; } v;\n",
   "   if (x >= x) return x * scale;\n",
   "   v.f = x;\n",
   "   v.u |= (uint64_t)1 << 51;\n",
   "   return v.f;\n",
   "}\n",
   "\n",
   "/* One element of forward (or backward: pass dy as x). t = 0 copies x bit for bit. */\n",
   "DROPOUT_HD float dropout_apply_f32(float x, int keep, dropout_rule r)\n",
   "{\n",
   "   if (r.threshold == 0) return x;\n",
   "#if defined(__CUDA_ARCH__)\n",
   "   {   /* made whatever keep says: the GPU selects, as around the plain product, rather\n",
   "          than branching around dropout__scale_f32's PTX */\n",
   "      float kept = dropout__scale_f32(x, r.scale_f32);\n",
   "      return keep \? kept : 0.0f;\n",
   "   }\n",
   "#else\n",
   "   return keep \? dropout__scale_f32(x, r.scale_f32) : 0.0f;\n",
   "#endif\n",
   "}\n",
   "\n",
   "DROPOUT_HD double dropout_apply_f64(double x, int keep, dropout_rule r)\n",
   "{\n",
   "   if (r.threshold == 0) return x;\n",
   "   return keep \? dropout__scale_f64(x, r.scale_f64) : 0.0;\n",
   "}\n",
   "\n",
   "DROPOUT_HD uint16_t dropout_apply_f16(uint16_t x, int keep, dropout_rule r)\n",
   "{\n",
   "   if (r.threshold == 0) return x;\n",
   "   return keep \? dropout_f32_to_f16(dropout__scale_f32(dropout_f16_to_f32(x), r.scale_f32))\n",
   "               : (uint16_t)0;\n",
   "}\n",
   "\n",
   "DROPOUT_HD uint16_t dropout_apply_bf16(uint16_t x, int keep, dropout_rule r)\n",
   "{\n",
   "   if (r.threshold == 0) return x;\n",
   "   return keep \? dropout_f32_to_bf16(dropout__scale_f32(dropout_bf16_to_f32(x), r.scale_f32))\n",
   "               : (uint16_t)0;\n",
   "}\n",
   "\n",
   "/* Gradient accumulation (DROPOUT_GRAD_ACCUMULATE): acc + g, one rounding in the dtype;\n",
   "   f16/bf16 widen both exactly, add in float and round once. g has been rounded on its\n",
   "   own before (the product that made it is never fused with this add: a volatile on the\n",
   "   CPU, add.rn on the GPU). */\n",
   "DROPOUT_HD float dropout_accumulate_f32(float acc, float g)\n",
   "{\n",
   "#if defined(__CUDA_ARCH__)\n",
   "   return dropout__fadd(acc, g);\n",
   "#else\n",
   "   volatile float v = g;\n",
   "   return acc + v;\n",
   "#endif\n",
   "}\n",
   "\n",
   "DROPOUT_HD double dropout_accumulate_f64(double acc, double g)\n",
   "{\n",
   "#if defined(__CUDA_ARCH__)\n",
   "   return __dadd_rn(acc, g);\n",
   "#else\n",
   "   volatile double v = g;\n",
   "   return acc + v;\n",
   "#endif\n",
   "}\n",
   "\n",
   "DROPOUT_HD uint16_t dropout_accumulate_f16(uint16_t acc, uint16_t g)\n",
   "{\n",
   "   return dropout_f32_to_f16(dropout_accumulate_f32(dropout_f16_to_f32(acc), dropout_f16_to_f32(g)));\n",
   "}\n",
   "\n",
   "DROPOUT_HD uint16_t dropout_accumulate_bf16(uint16_t acc, uint16_t g)\n",
   "{\n",
   "   return dropout_f32_to_bf16(dropout_accumulate_f32(dropout_bf16_to_f32(acc), dropout_bf16_to_f32(g)));\n",
   "}\n",
   "\n",
   "/* ------------------------------------------------------------------------------------\n",
   "   The library API. Argument order: plan (or rule), outputs, inputs. Every call checks\n",
   "   all its arguments before it writes anything. y may equal x (in place); otherwise the\n",
   "   buffers must not overlap.\n",
   "   ------------------------------------------------------------------------------------ */\n",
   "\n",
   "/* The rule of a layer: p realised with a draw width (the threshold t = round(p 2^bits)).\n",
   "   Refused when the width realises p or 1 - p more than 1% off, e.g. p = 0.1 at 8 bits\n",
   "   (26 / 256 = 0.1016, +1.6%): the code names the narrowest width that honours p\n",
   "   (DROPOUT_ERR_P_NEEDS_16 / _NEEDS_32), or DROPOUT_ERR_P_UNREALISABLE when even 32 bits\n",
   "   do not (some p or 1 - p below 50 * 2^-32, about 1.2e-8: 32 bits realise every p within\n",
   "   2^-33). p = 0 and p = 1 are exact at any width. */\n",
   "DROPOUTDEF int dropout_rule_init(dropout_rule *r, double p, dropout_bits bits);\n",
   "/* The same, accepting the width's quantised p however far from p it is (0.1.0 and 0.9\n",
   "   behaviour: p = 0.1 at 8 bits is 0.1016); a p in (0, 1) realised as 0 or 1 is still\n",
   "   refused with the code of the width that serves. */\n",
   "DROPOUTDEF int dropout_rule_init_quantised(dropout_rule *r, double p, dropout_bits bits);\n",
   "/* The same rule from the threshold t in [0, 2^bits] (p = t / 2^bits), with integer\n",
   "   arithmetic only: no double code is linked (microcontrollers without a double FPU).\n",
   "   Gives the same scale_f32 and scale_f64, bit for bit, as dropout_rule_init. */\n",
   "DROPOUTDEF int dropout_rule_init_threshold(dropout_rule *r, uint64_t threshold, dropout_bits bits);\n",
   "/* A p where the threshold goes, dropout_rule_init_threshold(&r, 0.1, DROPOUT_BITS_16), was\n",
   "   converted to threshold 0 (p = 0: nothing dropped, every call returning 0; gcc and g++ say\n",
   "   nothing). The call is a macro that takes an integer threshold only: `% 1` of a float is a\n",
   "   compile error (\"invalid operands\"), in C and C++; the operand of sizeof is not evaluated,\n",
   "   so the threshold is evaluated once. (The function itself: (dropout_rule_init_threshold).) */\n",
   "#if !defined(__OPENCL_C_VERSION__)\n",
   "#define dropout_rule_init_threshold(r, threshold, bits) \\\n",
   "   dropout_rule_init_threshold((r), (threshold) + 0 * sizeof((threshold) % 1), (bits))\n",
   "#endif\n",
   "/* The realised p = threshold / 2^bits (-1 for a rule whose fields disagree). */\n",
   "DROPOUTDEF double dropout_rule_p(const dropout_rule *r);\n",
   "\n",
   "/* What a generator's `next` counts (dropout_gen.units): draws of 8, 16 or 32 bits (a 32-bit\n",
   "   draw is a stream word, an 8-bit one a quarter of one), normals (a word each, read in\n",
   "   pairs: normals 2k and 2k + 1 read words 2k and 2k + 1), or nothing handed out yet\n",
   "   (next 0). Pinned values: a checkpoint stores them. */\n",
   "typedef enum dropout_units {\n",
   "   DROPOUT_UNITS_NONE = 0, DROPOUT_UNITS_8 = 8, DROPOUT_UNITS_16 = 16, DROPOUT_UNITS_32 = 32,\n",
   "   DROPOUT_UNITS_NORMALS = -1, DROPOUT__UNITS_AS_INT = DROPOUT__ENUM_AS_INT\n",
   "} dropout_units;\n",
   "\n",
   "/* A checkpointable generator: a key, the next unused position and what it counts (plain\n",
   "   integers), and the address dropout_gen_init gave it. A step's forward takes it by\n",
   "   pointer and moves `next` on. A copy would hand out the same positions again (the same\n",
   "   masks, silently), so every call refuses a generator that is not where it was\n",
   "   initialised (DROPOUT_ERR_GEN_MOVED): pass the one generator by pointer to every layer.\n",
   "   `next` is in the units of the kind g handed out last (`units`): a plan of another kind\n",
   "   starts at the first position past every word g handed out, not at next, which would\n",
   "   read the same words again. So a checkpoint saves key, next and units, and\n",
   "   dropout_gen_resume takes all three: a next without its units could be read as another\n",
   "   kind's position and draw words handed out already. */\n",
   "typedef struct dropout_gen {\n",
   "   dropout_key key; uint64_t next; dropout_units units;\n",
   "   const struct dropout_gen *dropout__home;\n",
   "} dropout_gen;\n",
   "/* A generator at position 0, made where it stays (g itself, not a copy of it). */\n",
   "DROPOUTDEF int dropout_gen_init(dropout_gen *g, dropout_key key);\n",
   "/* A generator at position `next` counted in `units`: a checkpoint's key, next and units,\n",
   "   read back from a file. DROPOUT_UNITS_NONE only with next 0; any other value than the\n",
   "   dropout_units is refused (DROPOUT_ERR_UNITS) and g is not written. */\n",
   "DROPOUTDEF int dropout_gen_resume(dropout_gen *g, dropout_key key, uint64_t next, dropout_units units);\n",
   "/* The generator `from` moved to `to` (a model reallocated by hand): to continues where from\n",
   "   was, and from is refused from now on. A struct holding a generator is made in place (an\n",
   "   init function taking its address), not returned by value: whether a returned struct\n",
   "   keeps its address is the compiler's choice. */\n",
   "DROPOUTDEF int dropout_gen_move(dropout_gen *to, dropout_gen *from);\n",
   "/* 0.9's dropout_gen_make returned the generator by value, so every copy of it was a\n",
   "   generator too. */\n",
   "#define dropout_gen_make(key) dropout_gen_make_is_gone__use_dropout_gen_init_and_pass_g_by_pointer\n",
   "\n",
   "/* What one layer application's forward and backward share: the rule, the key, the first\n",
   "   position and the number of positions. The forward hands it back; pass it to the\n",
   "   backward. `units` says what pos and count count: draws of the rule's width\n",
   "   (DROPOUT_UNITS_8, _16, _32, equal to rule.bits) or normals (DROPOUT_UNITS_NORMALS); the\n",
   "   calls below that make a plan set it, and a call that draws another kind refuses the\n",
   "   plan (DROPOUT_ERR_PLAN_UNITS), since it would read other stream words than were\n",
   "   reserved. */\n",
   "typedef struct dropout_plan { dropout_rule rule; dropout_key key; uint64_t pos; uint64_t count; dropout_units units; } dropout_plan;\n",
   "/* Reserve `count` positions of g and hand back the plan that uses them, without running\n",
   "   anything (a step split over threads: slice it, dropout_replay_* each chunk; the\n",
   "   descriptor). */\n",
   "DROPOUTDEF int dropout_gen_plan(dropout_gen *g, const dropout_rule *rule, uint64_t count, dropout_plan *out);\n",
   "/* The same for a GAUSSIAN or NOISE plan: count normals (which read words in pairs), not\n",
   "   count draws of rule's width, which would read other words than g reserved. */\n",
   "DROPOUTDEF int dropout_gen_plan_normals(dropout_gen *g, const dropout_rule *rule, uint64_t count, dropout_plan *out);\n",
   "/* A plan at explicit coordinates (another framework's offsets): count draws of rule's\n",
   "   width from first; run it with dropout_replay_*. */\n",
   "DROPOUTDEF int dropout_plan_at(dropout_plan *out, const dropout_rule *rule, dropout_key key, dropout_pos first, uint64_t count);\n",
   "/* The same for a GAUSSIAN or NOISE descriptor: count normals from normal `first`. */\n",
   "DROPOUTDEF int dropout_plan_at_normals(dropout_plan *out, const dropout_rule *rule, dropout_key key, dropout_pos first, uint64_t count);\n",
   "/* Elements start .. start + count - 1 of a plan (a chunk, a thread, a rank): calls on the\n",
   "   slices give what one call on the whole gives. Slices that write masks start at\n",
   "   multiples of 8 elements (a mask byte holds 8). */\n",
   "DROPOUTDEF int dropout_plan_slice(const dropout_plan *whole, uint64_t start, uint64_t count, dropout_plan *out);\n",
   "\n",
   "/* Counts: every call takes n, the element count of its buffers, and refuses an n that\n",
   "   differs from plan->count (DROPOUT_ERR_COUNT: another layer's plan, a wrong size) or\n",
   "   that no buffer can have, more than PTRDIFF_MAX bytes (DROPOUT_ERR_SIZE: a negative int\n",
   "   converted to size_t). */\n",
   "\n",
   "/* The forward of a step: reserves n fresh positions of g (g->next moves on by n), runs\n",
   "   dropout on them and hands back in *plan (NULL: not wanted) the plan its backward\n",
   "   needs. It cannot repeat an earlier step's mask. mask (optional, NULL for none):\n",
   "   ceil(n/8) bytes, bit j%8 of byte j/8 = element j kept; bits of the last byte past n\n",
   "   are written 0. On error g is not moved. */\n",
   "DROPOUTDEF int dropout_forward_f32(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, float *y, uint8_t *mask, const float *x);\n",
   "DROPOUTDEF int dropout_forward_f64(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, double *y, uint8_t *mask, const double *x);\n",
   "DROPOUTDEF int dropout_forward_f16(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, dropout_f16 *y, uint8_t *mask, const dropout_f16 *x);\n",
   "DROPOUTDEF int dropout_forward_bf16(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, dropout_bf16 *y, uint8_t *mask, const dropout_bf16 *x);\n",
   "\n",
   "/* Backward: rebuilds the forward's mask from its plan (no mask memory) and OVERWRITES dx\n",
   "   with dropout(dy). To add into dx instead: dropout_run with DROPOUT_GRAD_ACCUMULATE. */\n",
   "DROPOUTDEF int dropout_backward_f32(const dropout_plan *plan, size_t n, float *dx, const float *dy);\n",
   "DROPOUTDEF int dropout_backward_f64(const dropout_plan *plan, size_t n, double *dx, const double *dy);\n",
   "DROPOUTDEF int dropout_backward_f16(const dropout_plan *plan, size_t n, dropout_f16 *dx, const dropout_f16 *dy);\n",
   "DROPOUTDEF int dropout_backward_bf16(const dropout_plan *plan, size_t n, dropout_bf16 *dx, const dropout_bf16 *dy);\n",
   "\n",
   "/* The door to a mask that exists already: the forward at a plan's positions, as given.\n",
   "   The same plan gives the same mask, so use it only where that is the point: checkpoint\n",
   "   recomputation of a step's forward, the chunks of a step split over threads (one\n",
   "   dropout_gen_plan, then dropout_plan_slice), coordinates made elsewhere (dropout_plan_at).\n",
   "   A new step takes dropout_forward_* (a fresh plan). Mask as forward's. */\n",
   "DROPOUTDEF int dropout_replay_f32(const dropout_plan *plan, size_t n, float *y, uint8_t *mask, const float *x);\n",
   "DROPOUTDEF int dropout_replay_f64(const dropout_plan *plan, size_t n, double *y, uint8_t *mask, const double *x);\n",
   "DROPOUTDEF int dropout_replay_f16(const dropout_plan *plan, size_t n, dropout_f16 *y, uint8_t *mask, const dropout_f16 *x);\n",
   "DROPOUTDEF int dropout_replay_bf16(const dropout_plan *plan, size_t n, dropout_bf16 *y, uint8_t *mask, const dropout_bf16 *x);\n",
   "\n",
   "/* The mask alone of a plan's n = plan->count elements: ceil(n / 8) bytes. */\n",
   "DROPOUTDEF int dropout_mask(const dropout_plan *plan, size_t n, uint8_t *mask);\n",
   "\n",
   "/* With a stored mask, forward and backward alike (pass dy as x for backward; overwrites\n",
   "   y): y = x scaled as forward where the mask keeps, +0 elsewhere. The rule must be the\n",
   "   forward's (it gives the scale); n elements. */\n",
   "DROPOUTDEF int dropout_apply_mask_f32(const dropout_rule *rule, size_t n, float *y, const uint8_t *mask, const float *x);\n",
   "DROPOUTDEF int dropout_apply_mask_f64(const dropout_rule *rule, size_t n, double *y, const uint8_t *mask, const double *x);\n",
   "DROPOUTDEF int dropout_apply_mask_f16(const dropout_rule *rule, size_t n, dropout_f16 *y, const uint8_t *mask, const dropout_f16 *x);\n",
   "DROPOUTDEF int dropout_apply_mask_bf16(const dropout_rule *rule, size_t n, dropout_bf16 *y, const uint8_t *mask, const dropout_bf16 *x);\n",
   "\n",
   "DROPOUTDEF const char *dropout_strerror(int code);\n",
   "\n",
   "/* Philox4x32-10 of one counter, exactly as Random123's philox4x32(ctr, key). */\n",
   "DROPOUTDEF void dropout_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);\n",
   "\n",
   "/* The raw stream. Positions count 32-bit words here. */\n",
   "DROPOUTDEF uint32_t dropout_stream_u32(dropout_key key, dropout_pos pos);\n",
   "/* out[i] = word first + i, i < n. */\n",
   "DROPOUTDEF int dropout_fill_u32(dropout_key key, dropout_pos first, uint32_t *out, size_t n);\n",
   "/* out[i] = (word(first + i) >> 8) * 2^-24: exact, in [0, 1). */\n",
   "DROPOUTDEF int dropout_fill_uniform_f32(dropout_key key, dropout_pos first, float *out, size_t n);\n",
   "/* out[i] = ((w(2q+1) << 32 | w(2q)) >> 11) * 2^-53 with q = first + i: exact, in [0, 1).\n",
   "   Positions count doubles (two words each), so first + n must not pass 2^63. */\n",
   "DROPOUTDEF int dropout_fill_uniform_f64(dropout_key key, dropout_pos first, double *out, size_t n);\n",
   "\n",
   "/* ---- fused bias-dropout-residual: y = residual + dropout(x + bias) (SPEC section 12) ---\n",
   "   y = residual + dropout(x + bias), the transformer's \"bias dropout add\", with bias[cols]\n",
   "   broadcast over the rows of row-major [rows, cols] tensors. Element (r, c) is element\n",
   "   j = r * cols + c of the call: position offset + j, mask bit j. Per element, in float:\n",
   "      h = x + bias[c]                      one float add, round to nearest even\n",
   "      kept:    y = fma(h, scale_f32, residual)   one fused multiply-add, rounded once\n",
   "      dropped: y = residual, bit for bit (no add, so -0 and NaN payloads pass unchanged)\n",
   "   f16/bf16: x, bias, residual widen exactly to float, h and the fma are done in float as\n",
   "   above, and the kept result rounds once to f16/bf16; a dropped element copies residual.\n",
   "   f64: h = x + bias, kept: y = RN(RN(h * scale_f64) + residual): two roundings, no fma\n",
   "   (see dropout_bias_dropout_add_one_f64 for why).\n",
   "   p = 0 keeps everything (y = fma(h, 1, residual) = h + residual, rounded once).\n",
   "   Gradient: d residual = dy; d x = dropout backward of dy (same mask / seed, stream,\n",
   "   offset); d bias[c] = sum over rows of d x[r][c].\n",
   "   The CPU uses dropout_fmaf below (exact, no libm); the GPU its fma.rn.f32: equal. */\n",
   "\n",
   "/* fmaf(a, b, c) in software, correctly rounded (nearest even). a * b is exact in double\n",
   "   (24 + 24 <= 53 bits); the double sum p + c is rounded to odd with the TwoSum error term;\n",
   "   round-to-odd in 53 bits then to nearest in 24 bits is correct because 53 >= 24 + 2. */\n",
   "DROPOUT_HD float dropout_fmaf(float a, float b, float c)\n",
   "{\n",
   "#if defined(__CUDA_ARCH__)\n",
   "   return dropout__ffma(a, b, c);\n",
   "#elif defined(__OPENCL_C_VERSION__)\n",
   "   return fma(a, b, c);     /* OpenCL C: fma is correctly rounded, with or without fp64 */\n",
   "#else\n",
   "   union { double d; uint64_t u; } v;\n",
   "   double p = (double)a * (double)b;            /* exact */\n",
   "   double cd = (double)c;\n",
   "   double s = p + cd, bb, e;\n",
   "   if (!(s - s >= 0.0)) return (float)s;         /* Inf or NaN: no rounding to do */\n",
   "   bb = s - p;                                   /* TwoSum: s + e == p + c exactly */\n",
   "   e = (p - (s - bb)) + (cd - bb);\n",
   "   v.d = s;\n",
   "   /* s != 0 here whenever e != 0: a sum that rounds to zero is exact */\n",
   "   if ((e < 0.0 || e > 0.0) && !(v.u & 1u)) v.u += ((e > 0.0) == (s > 0.0)) \? 1u : (uint64_t)-1;\n",
   "   return (float)v.d;\n",
   "#endif\n",
   "}\n",
   "\n",
   "/* One element of the fused op (keep: the element's keep decision). */\n",
   "DROPOUT_HD float dropout_bias_dropout_add_one_f32(float x, float bias, float residual, int keep, dropout_rule r)\n",
   "{\n",
   "#if defined(__CUDA_ARCH__)\n",
   "   float h = dropout__fadd(x, bias);             /* add.rn: never contracted into an fma */\n",
   "#else\n",
   "   float h = x + bias;\n",
   "#endif\n",
   "   return keep \? dropout_fmaf(h, r.scale_f32, residual) : residual;\n",
   "}\n",
   "\n",
   "DROPOUT_HD uint16_t dropout_bias_dropout_add_one_f16(uint16_t x, uint16_t bias, uint16_t residual, int keep, dropout_rule r)\n",
   "{\n",
   "   if (!keep) return residual;\n",
   "   return dropout_f32_to_f16(dropout_bias_dropout_add_one_f32(dropout_f16_to_f32(x), dropout_f16_to_f32(bias), dropout_f16_to_f32(residual), 1, r));\n",
   "}\n",
   "\n",
   "DROPOUT_HD uint16_t dropout_bias_dropout_add_one_bf16(uint16_t x, uint16_t bias, uint16_t residual, int keep, dropout_rule r)\n",
   "{\n",
   "   if (!keep) return residual;\n",
   "   return dropout_f32_to_bf16(dropout_bias_dropout_add_one_f32(dropout_bf16_to_f32(x), dropout_bf16_to_f32(bias), dropout_bf16_to_f32(residual), 1, r));\n",
   "}\n",
   "\n",
   "/* f64 has no fma step: a correctly rounded double fma cannot be emulated as simply as\n",
   "   dropout_fmaf does for float (that needs a format wider than the result). So in f64\n",
   "      h = x + bias;  kept: y = (h * scale_f64) + residual, the product rounded on its own\n",
   "   (two roundings). The product is kept out of reach of FMA contraction: __dmul_rn on\n",
   "   the GPU, a volatile on the CPU (gcc -ffp-contract=fast cannot fuse through a store). */\n",
   "DROPOUT_HD double dropout__mul_alone_f64(double a, double b)\n",
   "{\n",
   "#if defined(__CUDA_ARCH__)\n",
   "   return __dmul_rn(a, b);\n",
   "#else\n",
   "   volatile double prod = a * b;\n",
   "   return prod;\n",
   "#endif\n",
   "}\n",
   "\n",
   "DROPOUT_HD double dropout_bias_dropout_add_one_f64(double x, double bias, double residual, int keep, dropout_rule r)\n",
   "{\n",
   "   if (!keep) return residual;\n",
   "#if defined(__CUDA_ARCH__)\n",
   "   return __dadd_rn(dropout__mul_alone_f64(__dadd_rn(x, bias), r.scale_f64), residual);\n",
   "#else\n",
   "   return dropout__mul_alone_f64(x + bias, r.scale_f64) + residual;\n",
   "#endif\n",
   "}\n",
   "\n",
   "/* The fused op, a step's forward as dropout_forward_* (n fresh positions of g, *plan for\n",
   "   the backward, which is dropout_backward_* of dy): x, y, residual are row-major\n",
   "   [n / bias_len, bias_len] (one size, so rows and columns cannot be swapped;\n",
   "   n % bias_len != 0 is DROPOUT_ERR_BIAS_LEN); bias has bias_len elements; mask optional\n",
   "   as forward's. y may equal x or residual. */\n",
   "DROPOUTDEF int dropout_bias_dropout_add_f32(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, size_t bias_len, float *y, uint8_t *mask, const float *x, const float *bias, const float *residual);\n",
   "DROPOUTDEF int dropout_bias_dropout_add_f64(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, size_t bias_len, double *y, uint8_t *mask, const double *x, const double *bias, const double *residual);\n",
   "DROPOUTDEF int dropout_bias_dropout_add_f16(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, size_t bias_len, dropout_f16 *y, uint8_t *mask, const dropout_f16 *x, const dropout_f16 *bias, const dropout_f16 *residual);\n",
   "DROPOUTDEF int dropout_bias_dropout_add_bf16(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, size_t bias_len, dropout_bf16 *y, uint8_t *mask, const dropout_bf16 *x, const dropout_bf16 *bias, const dropout_bf16 *residual);\n",
   "/* ... and at a plan's positions, as dropout_replay_* (recomputation, chunks, explicit\n",
   "   coordinates). */\n",
   "DROPOUTDEF int dropout_bias_dropout_add_replay_f32(const dropout_plan *plan, size_t n, size_t bias_len, float *y, uint8_t *mask, const float *x, const float *bias, const float *residual);\n",
   "DROPOUTDEF int dropout_bias_dropout_add_replay_f64(const dropout_plan *plan, size_t n, size_t bias_len, double *y, uint8_t *mask, const double *x, const double *bias, const double *residual);\n",
   "DROPOUTDEF int dropout_bias_dropout_add_replay_f16(const dropout_plan *plan, size_t n, size_t bias_len, dropout_f16 *y, uint8_t *mask, const dropout_f16 *x, const dropout_f16 *bias, const dropout_f16 *residual);\n",
   "DROPOUTDEF int dropout_bias_dropout_add_replay_bf16(const dropout_plan *plan, size_t n, size_t bias_len, dropout_bf16 *y, uint8_t *mask, const dropout_bf16 *x, const dropout_bf16 *bias, const dropout_bf16 *residual);\n",
   "/* ---- END fused bias-dropout-residual (declarations) ----------------------------------- */\n",
   "\n",
   "/* ====================================================================================\n",
   "   VARIANTS (docs/SPEC.md section 11): broadcast masks (channel / spatial / locked\n",
   "   dropout, drop path), alpha dropout (SELU), Gaussian dropout and Gaussian noise.\n",
   "   Same conventions as the core: outputs first, validation before any write, y may be x.\n",
   "   ==================================================================================== */\n",
   "\n",
   "#define DROPOUT_MAX_RANK 8\n",
   "\n",
   "/* The shape reduced for indexing: adjacent dimensions with the same broadcast flag are\n",
   "   merged (this does not change any mask index); mstride is 0 on broadcast dims. */\n",
   "typedef struct dropout_bcast {\n",
   "   int rank;\n",
   "   uint64_t dim[DROPOUT_MAX_RANK];\n",
   "   uint64_t mstride[DROPOUT_MAX_RANK];\n",
   "   uint64_t numel;                 /* tensor elements */\n",
   "   uint64_t positions;             /* mask elements = stream positions a call uses */\n",
   "} dropout_bcast;\n",
   "\n",
   "/* Mask index of tensor element i (row-major), i < numel. */\n",
   "DROPOUT_HD uint64_t dropout_bcast_index(const dropout_bcast *b, uint64_t i)\n",
   "{\n",
   "   uint64_t m = 0;\n",
   "   int d;\n",
   "   for (d = b->rank - 1; d > 0; --d) {\n",
   "      m += (i % b->dim[d]) * b->mstride[d];\n",
   "      i /= b->dim[d];\n",
   "   }\n",
   "   return m + i * b->mstride[0];\n",
   "}\n",
   "\n",
   "/* The keep decision of one stream position (one Philox block per call). */\n",
   "DROPOUT_HD int dropout_keep_at(uint64_t seed, uint64_t stream, uint64_t pos, dropout_rule r)\n",
   "{\n",
   "   uint32_t w[4];\n",
   "   unsigned log2_draws = r.bits == 32 \? 2u : r.bits == 16 \? 3u : 4u;\n",
   "   dropout_block(seed, stream, pos >> log2_draws, w);\n",
   "   return dropout_keep(dropout_draw(w, r.bits, (unsigned)(pos & ((1u << log2_draws) - 1u))), r);\n",
   "}\n",
   "\n",
   "/* -- Exact-by-construction arithmetic -------------------------------------------------\n",
   "   Every product below that feeds an addition is exact (float x float in double, or a\n",
   "   product of a <= 32-bit value by a <= 21-bit constant piece), so FMA contraction by any\n",
   "   compiler (gcc -ffp-contract=fast, nvcc --fmad=true) cannot change a result. */\n",
   "\n",
   "/* (float)(a * b + c), a and b floats widened to double (so a*b is exact): two roundings\n",
   "   (double, then float). A value used in several steps is widened once, by the caller:\n",
   "   on the GPU each widening is an instruction of its own (see dropout__f64_of). */\n",
   "DROPOUT_HD float dropout__madd(double a, double b, double c)\n",
   "{\n",
   "   return dropout__f32_of(a * b + c);\n",
   "}\n",
   "\n",
   "DROPOUT_HD float dropout__madf(float a, float b, double c)\n",
   "{\n",
   "   return dropout__madd(dropout__f64_of(a), dropout__f64_of(b), c);\n",
   "}\n",
   "\n",
   "DROPOUT_HD uint64_t dropout__f64_bits(double x)\n",
   "{\n",
   "   union { double f; uint64_t u; } v;\n",
   "   v.f = x;\n",
   "   return v.u;\n",
   "}\n",
   "\n",
   "DROPOUT_HD double dropout__f64_from_bits(uint64_t u)\n",
   "{\n",
   "   union { uint64_t u; double f; } v;\n",
   "   v.u = u;\n",
   "   return v.f;\n",
   "}\n",
   "\n",
   "/* x with its low 32 significand bits cleared: at most 21 significant bits. */\n",
   "DROPOUT_HD double dropout__trunc21(double x)\n",
   "{\n",
   "   return dropout__f64_from_bits(dropout__f64_bits(x) & ~(uint64_t)0xFFFFFFFFu);\n",
   "}\n",
   "\n",
   "/* x * k for x with at most 32 significant bits, as (x*k1 + x*k2) + x*k3 with\n",
   "   k = k1 + k2 + k3 split into 21-, 21- and 11-bit pieces: every product exact. */\n",
   "DROPOUT_HD double dropout__mul_split(double x, double k)\n",
   "{\n",
   "   double k1 = dropout__trunc21(k);\n",
   "   double k2 = dropout__trunc21(k - k1);\n",
   "   double k3 = (k - k1) - k2;\n",
   "   return (x * k1 + x * k2) + x * k3;\n",
   "}\n",
   "\n",
   "/* The double constants of the inline code, as integers divided exactly: no floating\n",
   "   constant, so that gcc's -fsingle-precision-constant (common on microcontrollers with a\n",
   "   float FPU; it makes every unsuffixed floating constant a float) cannot narrow them in a\n",
   "   file that calls these building blocks (it had changed 187 of 1000 normals and the alpha\n",
   "   rule there, and the implementation refuses it). DROPOUT__EXACT(n, k) = n / 2^k, exact\n",
   "   for n < 2^53; DROPOUT__RATIO(a, b) = a / b rounded once, as the compiler folds 1.0 / b. */\n",
   "#if defined(__cplusplus)   /* (DROPOUT_SELU_ALPHA_PRIME is public: no C cast in a C++ file) */\n",
   "#define DROPOUT__RATIO(a, b) (static_cast<double>(a) / static_cast<double>(b))\n",
   "#define DROPOUT__POW2(k) (static_cast<uint64_t>(1) << (k))\n",
   "#else\n",
   "#define DROPOUT__RATIO(a, b) ((double)(a) / (double)(b))\n",
   "#define DROPOUT__POW2(k) ((uint64_t)1 << (k))\n",
   "#endif\n",
   "#define DROPOUT__EXACT(n, k) DROPOUT__RATIO(n, DROPOUT__POW2(k))\n",
   "\n",
   "/* sqrt(x) for x >= 0 in double, no libm: a bit-level first guess (relative error < 6.1%)\n",
   "   and six Newton steps y = 0.5 * (y + x / y) (a division, an addition and an exact\n",
   "   halving: nothing to contract). Within 1 ulp of the true root (tested); 0 for x <= 0\n",
   "   or NaN, x for +Inf. */\n",
   "DROPOUT_HD double dropout__sqrt_f64(double x)\n",
   "{\n",
   "   double y, scale = 1.0;\n",
   "   int i;\n",
   "   if (!(x > 0.0)) return 0.0;\n",
   "   if (x > DBL_MAX) return x;\n",
   "   /* (2^108 and 2^-54 are floats too: exact under -fsingle-precision-constant) */\n",
   "   if (x < DBL_MIN) { x *= 3.2451855365842673e32; scale = 5.5511151231257827e-17; } /* 2^108, 2^-54 */\n",
   "   y = dropout__f64_from_bits((dropout__f64_bits(x) >> 1) + ((uint64_t)0x3FF0000000000000u >> 1));\n",
   "   for (i = 0; i < 6; ++i) y = 0.5 * (y + x / y);\n",
   "   return y * scale;\n",
   "}\n",
   "\n",
   "/* -- Alpha dropout ------------------------------------------------------------------ */\n",
   "\n",
   "#define DROPOUT_SELU_ALPHA_PRIME (-DROPOUT__EXACT(7917775536320560u, 52))   /* -scale * alpha of SELU, -1.7580993408473766 */\n",
   "\n",
   "/* Dropped elements take alpha'; then y = (v + c) * a, v = kept \? x : alpha', with the\n",
   "   realised P = t / 2^bits: a = ((1-P)(1 + P alpha'^2))^-1/2, c = -alpha' P (so that\n",
   "   a*c is the affine shift b = -a alpha' P). Add-then-multiply cannot be contracted. */\n",
   "typedef struct dropout_alpha_rule {\n",
   "   dropout_rule base;      /* threshold and bits; base.scale_* unused */\n",
   "   double a, c, drop;      /* f64: y = (x + c) * a; drop = (alpha' + c) * a */\n",
   "   float a_f32, c_f32, drop_f32;\n",
   "} dropout_alpha_rule;\n",
   "\n",
   "/* The alpha rule of a realised dropout rule (bits valid, threshold <= 2^bits). */\n",
   "DROPOUT_HD dropout_alpha_rule dropout_alpha_rule_of(dropout_rule base)\n",
   "{\n",
   "   dropout_alpha_rule r;\n",
   "   double two_b, pr, q, a2, s, v;\n",
   "   r.base = base;\n",
   "   two_b = (double)((uint64_t)1 << base.bits);\n",
   "   pr = (double)r.base.threshold / two_b;                   /* exact, <= 32 bits */\n",
   "   q = 1.0 - pr;                                            /* exact */\n",
   "   a2 = DROPOUT_SELU_ALPHA_PRIME * DROPOUT_SELU_ALPHA_PRIME;\n",
   "   s = 1.0 + dropout__mul_split(pr, a2);\n",
   "   v = q * s;\n",
   "   r.a = v > 0.0 \? 1.0 / dropout__sqrt_f64(v) : 0.0;       /* v = 0: all dropped */\n",
   "   r.c = dropout__mul_split(pr, -DROPOUT_SELU_ALPHA_PRIME);\n",
   "   r.drop = (DROPOUT_SELU_ALPHA_PRIME + r.c) * r.a;\n",
   "   r.a_f32 = (float)r.a;\n",
   "   r.c_f32 = (float)r.c;\n",
   "   r.drop_f32 = ((float)DROPOUT_SELU_ALPHA_PRIME + r.c_f32) * r.a_f32;\n",
   "   return r;\n",
   "}\n",
   "\n",
   "/* Call only with a valid p and bits. */\n",
   "DROPOUT_HD dropout_alpha_rule dropout_alpha_rule_make(double p, int bits)\n",
   "{\n",
   "   return dropout_alpha_rule_of(dropout_rule_make(p, bits));\n",
   "}\n",
   "#if !defined(__OPENCL_C_VERSION__)\n",
   "#define dropout_alpha_rule_make(p, bits) dropout_alpha_rule_make((p), ((void)sizeof((bits) % 1), (bits)))\n",
   "#endif\n",
   "\n",
   "/* One element forward: t = 0 copies x; t = 2^bits gives +0; else (v + c) * a. */\n",
   "DROPOUT_HD float dropout_alpha_apply_f32(float x, int keep, dropout_alpha_rule r)\n",
   "{\n",
   "   if (r.base.threshold == 0) return x;\n",
   "   if (r.base.threshold == (uint64_t)1 << r.base.bits) return 0.0f;   /* all dropped */\n",
   "   return keep \? dropout__fmul(dropout__fadd(x, r.c_f32), r.a_f32) : r.drop_f32;\n",
   "}\n",
   "\n",
   "DROPOUT_HD double dropout_alpha_apply_f64(double x, int keep, dropout_alpha_rule r)\n",
   "{\n",
   "   if (r.base.threshold == 0) return x;\n",
   "   if (r.base.threshold == (uint64_t)1 << r.base.bits) return 0.0;\n",
   "   return keep \? (x + r.c) * r.a : r.drop;\n",
   "}\n",
   "\n",
   "DROPOUT_HD uint16_t dropout_alpha_apply_f16(uint16_t x, int keep, dropout_alpha_rule r)\n",
   "{\n",
   "   if (r.base.threshold == 0) return x;\n",
   "   return dropout_f32_to_f16(dropout_alpha_apply_f32(dropout_f16_to_f32(x), keep, r));\n",
   "}\n",
   "\n",
   "DROPOUT_HD uint16_t dropout_alpha_apply_bf16(uint16_t x, int keep, dropout_alpha_rule r)\n",
   "{\n",
   "   if (r.base.threshold == 0) return x;\n",
   "   return dropout_f32_to_bf16(dropout_alpha_apply_f32(dropout_bf16_to_f32(x), keep, r));\n",
   "}\n",
   "\n",
   "/* One element backward: dx = a * dy kept, +0 dropped; t = 0 copies dy. */\n",
   "DROPOUT_HD float dropout_alpha_grad_f32(float dy, int keep, dropout_alpha_rule r)\n",
   "{\n",
   "   if (r.base.threshold == 0) return dy;\n",
   "   return keep \? dropout__fmul(dy, r.a_f32) : 0.0f;\n",
   "}\n",
   "\n",
   "DROPOUT_HD double dropout_alpha_grad_f64(double dy, int keep, dropout_alpha_rule r)\n",
   "{\n",
   "   if (r.base.threshold == 0) return dy;\n",
   "   return keep \? dy * r.a : 0.0;\n",
   "}\n",
   "\n",
   "DROPOUT_HD uint16_t dropout_alpha_grad_f16(uint16_t dy, int keep, dropout_alpha_rule r)\n",
   "{\n",
   "   if (r.base.threshold == 0) return dy;\n",
   "   return dropout_f32_to_f16(dropout_alpha_grad_f32(dropout_f16_to_f32(dy), keep, r));\n",
   "}\n",
   "\n",
   "DROPOUT_HD uint16_t dropout_alpha_grad_bf16(uint16_t dy, int keep, dropout_alpha_rule r)\n",
   "{\n",
   "   if (r.base.threshold == 0) return dy;\n",
   "   return dropout_f32_to_bf16(dropout_alpha_grad_f32(dropout_bf16_to_f32(dy), keep, r));\n",
   "}\n",
   "\n",
   "/* -- Normals (Box-Muller, no libm) ---------------------------------------------------\n",
   "   Normal q of a stream uses words w0 = word 2(q & ~1) and w1 = w0's successor, i.e.\n",
   "   block q/4, lanes 2((q/2)%2) and +1: four normals per Philox block, like bits = 32.\n",
   "   u = (w0 + 1) 2^-32 in (0, 1], angle = 2 pi w1 2^-32; even q gives r cos, odd q r sin,\n",
   "   r = sqrt(-2 ln u) <= 6.6604. Float-accurate; docs/SPEC.md has the exact operations. */\n",
   "\n",
   "#define DROPOUT__LN2 DROPOUT__EXACT(6243314768165359u, 53)       /* 0.6931471805599453 */\n",
   "#define DROPOUT__SQRT2 DROPOUT__EXACT(6369051672525773u, 52)     /* 1.4142135623730951 */\n",
   "#define DROPOUT__PI_2_30 (DROPOUT__EXACT(7074237752028440u, 52) / (double)DROPOUT__POW2(30))   /* (pi / 2) * 2^-30 */\n",
   "\n",
   "/* ln((w0 + 1) 2^-32) in double, <= 0. */\n",
   "DROPOUT_HD double dropout__log_u(uint32_t w0)\n",
   "{\n",
   "   uint64_t m = (uint64_t)w0 + 1u;              /* 1 .. 2^32 */\n",
   "   int e = 0;\n",
   "   double f, s, sd, zd, lnf, ln2_hi, ln2_lo, ed;\n",
   "   float h;\n",
   "   while ((m >> (e + 1)) != 0) ++e;              /* e = floor(log2 m), 0 .. 32 */\n",
   "   f = (double)m * dropout__f64_from_bits((uint64_t)(1023 - e) << 52);   /* [1, 2), exact */\n",
   "   if (f > DROPOUT__SQRT2) { f *= 0.5; ++e; }   /* [sqrt(1/2), sqrt 2] */\n",
   "   s = (f - 1.0) / (f + 1.0);                    /* f - 1 and f + 1 exact */\n",
   "   sd = dropout__f64_of(dropout__f32_of(s));      /* s rounded to float */\n",
   "   zd = dropout__f64_of(dropout__madd(sd, sd, 0.0));\n",
   "   h = dropout__madd((double)(float)DROPOUT__RATIO(1, 11), zd, DROPOUT__RATIO(1, 9));\n",
   "   h = dropout__madd(dropout__f64_of(h), zd, DROPOUT__RATIO(1, 7));\n",
   "   h = dropout__madd(dropout__f64_of(h), zd, DROPOUT__RATIO(1, 5));\n",
   "   h = dropout__madd(dropout__f64_of(h), zd, DROPOUT__RATIO(1, 3));\n",
   "   h = dropout__madd(dropout__f64_of(h), zd, 1.0);\n",
   "   lnf = 2.0 * (sd * dropout__f64_of(h));         /* exact */\n",
   "   ed = (double)(e - 32);                         /* -32 .. 0 */\n",
   "   ln2_hi = dropout__trunc21(DROPOUT__LN2);       /* ed * piece: exact */\n",
   "   ln2_lo = DROPOUT__LN2 - ln2_hi;                /* 32 bits */\n",
   "   return (ed * ln2_hi + lnf) + ed * ln2_lo;\n",
   "}\n",
   "\n",
   "/* sin and cos of x in [0, pi/4] from its square z (both floats, widened), Taylor to x^9\n",
   "   and x^10. */\n",
   "DROPOUT_HD float dropout__sin_poly(double xd, double zd)\n",
   "{\n",
   "   float h = dropout__madd((double)(float)DROPOUT__RATIO(1, 362880), zd, -DROPOUT__RATIO(1, 5040));\n",
   "   h = dropout__madd(dropout__f64_of(h), zd, DROPOUT__RATIO(1, 120));\n",
   "   h = dropout__madd(dropout__f64_of(h), zd, -DROPOUT__RATIO(1, 6));\n",
   "   h = dropout__madd(dropout__f64_of(h), zd, 1.0);\n",
   "   return dropout__madd(xd, dropout__f64_of(h), 0.0);\n",
   "}\n",
   "\n",
   "DROPOUT_HD float dropout__cos_poly(double zd)\n",
   "{\n",
   "   float h = dropout__madd((double)(float)-DROPOUT__RATIO(1, 3628800), zd, DROPOUT__RATIO(1, 40320));\n",
   "   h = dropout__madd(dropout__f64_of(h), zd, -DROPOUT__RATIO(1, 720));\n",
   "   h = dropout__madd(dropout__f64_of(h), zd, DROPOUT__RATIO(1, 24));\n",
   "   h = dropout__madd(dropout__f64_of(h), zd, -0.5);\n",
   "   return dropout__madd(dropout__f64_of(h), zd, 1.0);\n",
   "}\n",
   "\n",
   "/* The normal of a word pair: odd = 0 gives r cos(angle), odd = 1 gives r sin(angle). */\n",
   "DROPOUT_HD float dropout_normal_from_words(uint32_t w0, uint32_t w1, int odd)\n",
   "{\n",
   "   unsigned quadrant = w1 >> 30;\n",
   "   uint32_t rem = w1 & 0x3FFFFFFFu, g;\n",
   "   int swap = rem > 0x20000000u;                  /* past pi/4: use the complement */\n",
   "   double xd, zd;\n",
   "   float sn, cs, s_t, c_t, trig, r;\n",
   "   g = swap \? 0x40000000u - rem : rem;            /* 0 .. 2^29 */\n",
   "   xd = dropout__f64_of(dropout__f32_of((double)g * DROPOUT__PI_2_30));   /* x, a float */\n",
   "   zd = dropout__f64_of(dropout__madd(xd, xd, 0.0));\n",
   "   sn = dropout__sin_poly(xd, zd);\n",
   "   cs = dropout__cos_poly(zd);\n",
   "   s_t = swap \? cs : sn;                          /* sin and cos of the angle in the quadrant */\n",
   "   c_t = swap \? sn : cs;\n",
   "   if (odd) trig = quadrant == 0 \? s_t : quadrant == 1 \? c_t : quadrant == 2 \? dropout__fneg(s_t) : dropout__fneg(c_t);\n",
   "   else     trig = quadrant == 0 \? c_t : quadrant == 1 \? dropout__fneg(s_t) : quadrant == 2 \? dropout__fneg(c_t) : s_t;\n",
   "   r = dropout__f32_of(dropout__sqrt_f64(-2.0 * dropout__log_u(w0)));\n",
   "   return dropout__madf(r, trig, 0.0);\n",
   "}\n",
   "\n",
   "DROPOUT_HD float dropout_normal_at(uint64_t seed, uint64_t stream, uint64_t q)\n",
   "{\n",
   "   uint32_t w[4];\n",
   "   unsigned lane = (unsigned)(q & 2u);\n",
   "   dropout_block(seed, stream, q >> 2, w);\n",
   "   return dropout_normal_from_words(w[lane], w[lane + 1u], (int)(q & 1u));\n",
   "}\n",
   "\n",
   "/* -- Gaussian dropout and Gaussian noise -------------------------------------------- */\n",
   "\n",
   "/* Gaussian dropout: y = x * m, m = (float)(1 + sigma_f z), sigma_f = (float)sqrt(p/(1-p)). */\n",
   "DROPOUT_HD float dropout_gaussian_mult(float z, float sigma_f32)\n",
   "{\n",
   "   return dropout__madf(sigma_f32, z, 1.0);\n",
   "}\n",
   "\n",
   "/* Gaussian noise: y = x + sigma_f z, the product exact, one rounding (two for f32). */\n",
   "DROPOUT_HD float dropout_noise_add_f32(float x, float z, float sigma_f32)\n",
   "{\n",
   "   return dropout__madf(sigma_f32, z, dropout__f64_of(x));\n",
   "}\n",
   "\n",
   "DROPOUT_HD double dropout_noise_add_f64(double x, float z, float sigma_f32)\n",
   "{\n",
   "   return x + dropout__f64_of(sigma_f32) * dropout__f64_of(z);\n",
   "}\n",
   "\n",
   "/* -- API ------------------------------------------------------------------------------ */\n",
   "\n",
   "/* out[i] = normal number first + i (float; positions count normals). */\n",
   "DROPOUTDEF int dropout_fill_normal_f32(dropout_key key, dropout_pos first, float *out, size_t n);\n",
   "\n",
   "/* sigma_f of Gaussian dropout: (float)sqrt(p / (1 - p)); p in [0, 1) only. */\n",
   "DROPOUTDEF float dropout_gaussian_sigma(double p);\n",
   "\n",
   "/* ============================ end of VARIANTS declarations ============================ */\n",
   "\n",
   "/* ====================================================================================\n",
   "   THE EXTENDED ENTRY: one descriptor, one run function per backend (dropout_run here,\n",
   "   dropout_cuda_run in dropout_cuda.cuh). A descriptor is plain caller-owned data, filled\n",
   "   by dropout_desc_init and the setters (each checks its argument); dropout_run checks it\n",
   "   all again with the tensors before it writes anything. Adding an option later adds a\n",
   "   setter, never changes a prototype. It draws each plan once, and only at the address the\n",
   "   plan was given to: a second forward run, or one of a copy, is refused until\n",
   "   dropout_desc_new_step (or dropout_desc_replay, to draw the same mask on purpose).\n",
   "\n",
   "   Shape and strides: element (i0 .. ik) of the tensor (row-major logical order, the last\n",
   "   dim fastest) sits at base[sum i_d * stride_d] of each operand (element strides, any\n",
   "   sign; the base pointer is element (0, .., 0)). The mask has the shape with broadcast\n",
   "   dims set to 1 and is packed in its own row-major order; element (i0 .. ik) draws\n",
   "   position plan->pos + (its row-major index in the mask shape), so a view gets exactly\n",
   "   the bits of the same call on the contiguous copy. Inputs may have zero strides (an\n",
   "   input broadcast in memory); an output may not, and an output whose strides make two\n",
   "   elements share memory is refused: its dims, taken by growing |stride|, must each step\n",
   "   past the extent of the ones before (every transpose, slice and flip of a real tensor\n",
   "   does). An output may be an input (in place) only with the same strides.\n",
   "   ==================================================================================== */\n",
   "\n",
   "/* THE OPS, one row each: the enum, the names, the predicates and the GPU kernels' ops are\n",
   "   all made from this list, so an op is added here (and in its element function). Columns:\n",
   "     NAME, VALUE  DROPOUT_OP_NAME = VALUE (values pinned forever); STR its name\n",
   "     IN     takes `in` and writes `out` (every op but MASK)\n",
   "     MOUT   writes the mask when one is given (the mask it draws)\n",
   "     MIN    reads a stored mask (`mask` is an input, and required)\n",
   "     GRAD   a gradient: may add into `out` (DROPOUT_GRAD_ACCUMULATE)\n",
   "     STEP   draws a step's mask: a run spends the descriptor's plan, and the next one\n",
   "            needs dropout_desc_new_step (or dropout_desc_replay, to draw it again)\n",
   "     CLASS  the element work, dropout_op_class's DROPOUT_CLASS_ suffix\n",
   "     CLF64  needs cl_khr_fp64 on OpenCL (the normals are computed in double there)\n",
   "     CUDA, CL  the op of dropout_cuda.cuh's and dropout_opencl.h's kernels (their\n",
   "            DROPOUT_CUDA__ / DROPOUT_OPENCL__ suffix)\n",
   "   FORWARD           out = dropout(in); mask: optional output\n",
   "   BACKWARD          out = dropout(in) from the plan (in = dy, out = dx)\n",
   "   MASK              mask only\n",
   "   APPLY_MASK        out = in where the stored mask (input) keeps, scaled\n",
   "   ALPHA_FORWARD     alpha dropout (SELU); mask: optional output\n",
   "   ALPHA_BACKWARD    its gradient\n",
   "   GAUSSIAN          forward and backward alike: y = x * (1 + sigma z), sigma from p\n",
   "   NOISE             y = x + sigma z (dropout_desc_set_sigma); its gradient is dy\n",
   "   BIAS_DROPOUT_ADD  out = residual + dropout(in + bias); mask: optional output */\n",
   "#define DROPOUT__OPS(X)                                                                    \\\n",
   "   /* NAME             VALUE STR                  IN MOUT MIN GRAD STEP CLASS CLF64 CUDA      CL         */ \\\n",
   "   X(FORWARD,          1, \"forward\",          1, 1, 0, 0, 1, PLAIN,  0, DROP,       DROP)       \\\n",
   "   X(BACKWARD,         2, \"backward\",         1, 0, 0, 1, 0, PLAIN,  0, DROP,       DROP)       \\\n",
   "   X(MASK,             3, \"mask\",             0, 1, 0, 0, 1, MASK,   0, MASK,       MASK)       \\\n",
   "   X(APPLY_MASK,       4, \"apply_mask\",       1, 0, 1, 1, 0, PLAIN,  0, APPLY_MASK, APPLY_MASK) \\\n",
   "   X(ALPHA_FORWARD,    5, \"alpha_forward\",    1, 1, 0, 0, 1, ALPHA,  0, ALPHA,      ALPHA)      \\\n",
   "   X(ALPHA_BACKWARD,   6, \"alpha_backward\",   1, 0, 0, 1, 0, ALPHA,  0, ALPHA_GRAD, ALPHA_GRAD) \\\n",
   "   X(GAUSSIAN,         7, \"gaussian\",         1, 0, 0, 1, 1, NORMAL, 1, GAUSS,      GAUSS)      \\\n",
   "   X(NOISE,            8, \"noise\",            1, 0, 0, 0, 1, NORMAL, 1, NOISE,      NOISE)      \\\n",
   "   X(BIAS_DROPOUT_ADD, 9, \"bias_dropout_add\", 1, 1, 0, 0, 1, FUSED,  0, FUSED,      FUSED)\n",
   "\n",
   "typedef enum dropout_op {\n",
   "#define DROPOUT__OP_ENUM(N, V, S, IN, MOUT, MIN, GRAD, STEP, C, F64, CU, CL) DROPOUT_OP_##N = V,\n",
   "   DROPOUT__OPS(DROPOUT__OP_ENUM)\n",
   "#undef DROPOUT__OP_ENUM\n",
   "   DROPOUT__OP_AS_INT = DROPOUT__ENUM_AS_INT\n",
   "} dropout_op;\n",
   "\n",
   "/* The dtypes, one row each, in value order (1, 2, ...): X(NAME, value, sfx, T, size, CUDA_T, K)\n",
   "      NAME    DROPOUT_DTYPE_<NAME> = value (pinned forever); DROPOUT__<NAME> = value - 1\n",
   "              inside, the index of the tables generated from the rows\n",
   "      sfx     the suffix of its calls and kernels (dropout_forward_<sfx>) and its name\n",
   "      T       the C element type of its calls; size = sizeof (T), bytes per element\n",
   "      CUDA_T  dropout_cuda.cuh's element type for it (cuda_fp16.h, cuda_bf16.h)\n",
   "      K       how the GPU kernels hold and compute it: F float, D double (OpenCL: only\n",
   "              with cl_khr_fp64), H a 16-bit pattern computed in float (dropout_<sfx>_to_f32\n",
   "              and dropout_f32_to_<sfx>)\n",
   "   Generated from the rows: the enum, the internal indices, the element sizes, the short\n",
   "   calls' definitions (their prototypes stay written out), dropout_cuda.cuh's calls,\n",
   "   element dispatch and kernel instances, dropout_opencl.h's kernels, the walker's\n",
   "   accumulate and copy. Still written per dtype besides its element functions and\n",
   "   prototypes: the walker's element function (dropout__elem), the reference's and the\n",
   "   SIMD paths' dispatch to their per-dtype loops in this file, dropout_cuda.cuh's paired\n",
   "   16-bit path, and the Python package's name maps. */\n",
   "#define DROPOUT__DTYPES(X) \\\n",
   "   X(F32,  1, f32,  float,        4, float,          F) \\\n",
   "   X(F64,  2, f64,  double,       8, double,         D) \\\n",
   "   X(F16,  3, f16,  dropout_f16,  2, __half,         H) \\\n",
   "   X(BF16, 4, bf16, dropout_bf16, 2, __nv_bfloat16,  H)\n",
   "\n",
   "#define DROPOUT__DTYPE_ENUM(NAME, value, sfx, T, size, CUDA_T, K) DROPOUT_DTYPE_##NAME = value,\n",
   "typedef enum dropout_dtype {   /* DROPOUT_DTYPE_F32 = 1 .. */\n",
   "   DROPOUT__DTYPES(DROPOUT__DTYPE_ENUM) DROPOUT__DTYPE_AS_INT = DROPOUT__ENUM_AS_INT\n",
   "} dropout_dtype;\n",
   "#undef DROPOUT__DTYPE_ENUM\n",
   "\n",
   "/* The op's name in the list (\"forward\", \"bias_dropout_add\", ...); NULL for a value that is\n",
   "   no dropout_op. */\n",
   "DROPOUTDEF const char *dropout_op_name(dropout_op op);\n",
   "\n",
   "/* What an op does to each element (the job's op_class): PLAIN keep or drop and scale\n",
   "   (FORWARD, BACKWARD, APPLY_MASK), MASK the mask alone, ALPHA alpha dropout, NORMAL a\n",
   "   normal draw per element (GAUSSIAN, NOISE), FUSED bias-dropout-add. */\n",
   "typedef enum dropout_op_class {\n",
   "   DROPOUT_CLASS_PLAIN = 1, DROPOUT_CLASS_MASK = 2, DROPOUT_CLASS_ALPHA = 3, DROPOUT_CLASS_NORMAL = 4,\n",
   "   DROPOUT_CLASS_FUSED = 5, DROPOUT__CLASS_AS_INT = DROPOUT__ENUM_AS_INT\n",
   "} dropout_op_class;\n",
   "\n",
   "/* OUT = y or dx, IN = x or dy, RESIDUAL (bias-dropout-add). bias is 1-D contiguous along\n",
   "   the last dim; the mask is always packed in logical (mask-shape) row-major order. */\n",
   "typedef enum dropout_operand {\n",
   "   DROPOUT_OPERAND_OUT = 0, DROPOUT_OPERAND_IN = 1, DROPOUT_OPERAND_RESIDUAL = 2, DROPOUT__OPERAND_AS_INT = DROPOUT__ENUM_AS_INT\n",
   "} dropout_operand;\n",
   "\n",
   "/* Gradients (BACKWARD, ALPHA_BACKWARD, APPLY_MASK, GAUSSIAN): overwrite dx (default), or\n",
   "   add into it: dx = dx + g, one rounding in the dtype (f16/bf16: the sum in float). */\n",
   "typedef enum dropout_grad {\n",
   "   DROPOUT_GRAD_OVERWRITE = 0, DROPOUT_GRAD_ACCUMULATE = 1, DROPOUT__GRAD_AS_INT = DROPOUT__ENUM_AS_INT\n",
   "} dropout_grad;\n",
   "\n",
   "/* Private fields: use the functions below. */\n",
   "/* dropout__unrun's bits for strides a later shape reset: operand w's, and the position strides' */\n",
   "#define DROPOUT__STALE_OF(w) (32u << (w))\n",
   "#define DROPOUT__STALE_PSTRIDES 256u\n",
   "#define DROPOUT__STALE_STRIDES (DROPOUT__STALE_OF(0) | DROPOUT__STALE_OF(1) | DROPOUT__STALE_OF(2) | DROPOUT__STALE_PSTRIDES)\n",
   "\n",
   "/* Positions pos .. pos + count - 1 of key's stream, of one draw kind (8, 16, 32-bit draws\n",
   "   or normals: the descriptor's records below) */\n",
   "typedef struct dropout__drawn_at { dropout_key key; uint64_t pos, count; int kind; } dropout__drawn_at;\n",
   "typedef struct dropout_desc {\n",
   "   uint32_t dropout__magic;                          /* set by dropout_desc_init */\n",
   "   int dropout__op, dropout__dtype, dropout__rank, dropout__grad;\n",
   "   unsigned dropout__broadcast;                      /* bit d: dim d shares one decision */\n",
   "   unsigned dropout__strided;                        /* bit w: operand w has its own strides */\n",
   "   unsigned dropout__pstrided;                       /* 1: dropout__pstride holds position strides */\n",
   "   unsigned dropout__unrun;                          /* bit w (8: position strides): set before any shape, not run; 16: a shape was set;\n",
   "                                                        bit 5 + w (256: position strides): set for an earlier shape, reset by one since, not set again */\n",
   "   uint64_t dropout__pstride[DROPOUT_MAX_RANK];      /* positions per index step of each dim */\n",
   "   dropout_plan dropout__plan;\n",
   "   size_t dropout__dim[DROPOUT_MAX_RANK];\n",
   "   ptrdiff_t dropout__stride[3][DROPOUT_MAX_RANK];   /* by dropout_operand; when its bit is set */\n",
   "   double dropout__sigma;                            /* NOISE; -1 until set */\n",
   "   size_t dropout__bias_len;                         /* BIAS_DROPOUT_ADD; 0 = the last dim */\n",
   "   size_t dropout__mask_bytes;                       /* the mask buffer's size; 0 = not stated */\n",
   "   const uint64_t *dropout__dev_seed, *dropout__dev_pos;   /* device coordinates (CUDA graphs) */\n",
   "   /* The plan draws one step's mask, from one place: dropout__home is the address that\n",
   "      dropout_desc_init, _new_step, _replay (and _set_plan, _move when the plan may draw)\n",
   "      gave it to, dropout__drawn is set (1) by the run of a STEP op or a plan refused. A\n",
   "      second forward (DROPOUT_ERR_PLAN_RAN) or one from\n",
   "      a copy (DROPOUT_ERR_DESC_MOVED) is refused instead of drawing the same mask again.\n",
   "      dropout__armed: the positions of the plan as it was armed, which a set_plan that\n",
   "      does not arm leaves as they are: what a spent descriptor drew, or a copy may not.\n",
   "      dropout__last: the positions its last forward drew, which arming does not clear\n",
   "      (a plan set, or a step begun, and no forward run: the drawn plan is still refused). */\n",
   "   const struct dropout_desc *dropout__home;\n",
   "   int dropout__drawn;\n",
   "   dropout__drawn_at dropout__armed, dropout__last;\n",
   "} dropout_desc;\n",
   "\n",
   "/* op, dtype and plan (copied); default shape: 1-D, plan->count elements, contiguous, no\n",
   "   broadcast, overwrite. The plan counts op's draws (plan->units: normals for GAUSSIAN and\n",
   "   NOISE, else the rule's width). GAUSSIAN needs p < 1 (its sigma is sqrt(p / (1 - p)) of\n",
   "   the realised p). */\n",
   "DROPOUTDEF int dropout_desc_init(dropout_desc *d, dropout_op op, dropout_dtype dtype, const dropout_plan *plan);\n",
   "/* rank 1 .. DROPOUT_MAX_RANK dims; resets strides and position strides to the default,\n",
   "   so it comes first: strides set before d's first shape and never run are refused rather\n",
   "   than reset (DROPOUT_ERR_SHAPE_RESETS; set them to NULL first to reset on purpose), and\n",
   "   strides set for an earlier shape must be set again (or to NULL) before d runs with this\n",
   "   one (DROPOUT_ERR_STRIDES_STALE). The\n",
   "   positions the shape draws (with the broadcast set after it) must equal plan->count:\n",
   "   dropout_run checks. */\n",
   "DROPOUTDEF int dropout_desc_set_shape(dropout_desc *d, int rank, const size_t *dims);\n",
   "/* `rank` element strides of one operand (set the shape first; NULL = contiguous again). */\n",
   "DROPOUTDEF int dropout_desc_set_strides(dropout_desc *d, dropout_operand which, const ptrdiff_t *strides);\n",
   "/* bit d set = dim d shares one keep decision (channel / spatial / locked dropout, drop path). */\n",
   "DROPOUTDEF int dropout_desc_set_broadcast(dropout_desc *d, unsigned dims);\n",
   "/* `rank` position strides (set the shape first; NULL = the default again): element\n",
   "   (i_0, .., i_r-1) draws plan->pos + sum i_d * strides[d] instead of its row-major index,\n",
   "   and the plan's count is their span, 1 + sum (dim_d - 1) * strides[d] (0 when a dim of 0\n",
   "   elements has a non-zero stride; a zero stride shares draws, as below).\n",
   "   For a slice of a larger tensor whose mask is the whole's: tensor parallel's columns\n",
   "   [c0, c1) of a (B, W) activation are shape {B, c1 - c0}, position strides {W, 1} and the plan\n",
   "   dropout_plan_slice(&whole, c0, (B - 1) * W + (c1 - c0)), set with dropout_desc_set_plan\n",
   "   each step (dropout_desc_new_step refuses it: DROPOUT_ERR_POSITION_STRIDES). A zero\n",
   "   stride shares draws, as a broadcast dim (not with dropout_desc_set_broadcast:\n",
   "   DROPOUT_ERR_BROADCAST). Two elements never draw one position: over the dims of more\n",
   "   than one element, each non-zero stride in increasing order passes the span of the\n",
   "   smaller ones; else DROPOUT_ERR_POSITION_STRIDES (also a span past PTRDIFF_MAX). A last\n",
   "   dim stepping more than 1 runs an element at a time. A mask written or read covers the\n",
   "   whole span, not the elements: where the span passes the elements a run with a mask\n",
   "   needs its size stated (dropout_desc_set_mask_bytes; else DROPOUT_ERR_MASK_BYTES;\n",
   "   dropout_opencl_run knows its buffer's size). */\n",
   "DROPOUTDEF int dropout_desc_set_position_strides(dropout_desc *d, const uint64_t *strides);\n",
   "/* The size in bytes of the mask buffers d's runs are given (0: not stated). A run whose\n",
   "   mask needs more, (positions + 7) / 8 bytes, is refused (DROPOUT_ERR_MASK_BYTES), as is\n",
   "   a run with a mask and position strides spanning more positions than elements whose\n",
   "   size was not stated: that mask holds the whole span, more than the elements. */\n",
   "DROPOUTDEF int dropout_desc_set_mask_bytes(dropout_desc *d, size_t bytes);\n",
   "DROPOUTDEF int dropout_desc_set_grad(dropout_desc *d, dropout_grad mode);\n",
   "DROPOUTDEF int dropout_desc_set_sigma(dropout_desc *d, double sigma);       /* NOISE: finite, >= 0 */\n",
   "/* BIAS_DROPOUT_ADD: the bias length, which is the last dim. On the default 1-D shape it\n",
   "   makes the shape [count / bias_len, bias_len]. */\n",
   "DROPOUTDEF int dropout_desc_set_bias_len(dropout_desc *d, size_t bias_len);\n",
   "/* CUDA graphs: the seed and the first position are read from device memory when the kernel\n",
   "   runs (dropout_cuda.cuh); a CPU run refuses a descriptor with these set. NULL, NULL clears. */\n",
   "DROPOUTDEF int dropout_desc_set_device_coords(dropout_desc *d, const uint64_t *dev_seed, const uint64_t *dev_pos);\n",
   "/* How many positions the shape draws (the mask's element count). */\n",
   "DROPOUTDEF int dropout_desc_positions(const dropout_desc *d, uint64_t *positions);\n",
   "/* The same for a shape before any plan exists (dims[rank], broadcast bits as\n",
   "   dropout_desc_set_broadcast): the count to give dropout_gen_plan. */\n",
   "DROPOUTDEF int dropout_shape_positions(int rank, const size_t *dims, unsigned broadcast, uint64_t *positions);\n",
   "/* Another op on the same descriptor: the backward of a step is its forward's descriptor\n",
   "   with DROPOUT_OP_BACKWARD (shape, strides, broadcast and plan kept). Between dropout\n",
   "   draws and normals (GAUSSIAN, NOISE) the plan counts the other kind: a run refuses it\n",
   "   until dropout_desc_new_step or _set_plan. */\n",
   "DROPOUTDEF int dropout_desc_set_op(dropout_desc *d, dropout_op op);\n",
   "/* Another plan (checked, its units against the op; its count against the shape when the\n",
   "   descriptor runs). It may\n",
   "   draw one forward, unless it shares positions with the plan d holds and may not draw\n",
   "   (last step's plan passed again; a copy given its original's): that stays refused. */\n",
   "DROPOUTDEF int dropout_desc_set_plan(dropout_desc *d, const dropout_plan *plan);\n",
   "/* A new step: reserves from g the positions the shape draws and makes them the plan (the\n",
   "   rule kept; the key g's). The descriptor's way to a fresh mask, as dropout_forward_* is\n",
   "   the short calls'. */\n",
   "DROPOUTDEF int dropout_desc_new_step(dropout_desc *d, dropout_gen *g);\n",
   "/* A descriptor draws its plan once: a run of an op that draws a step's mask (FORWARD,\n",
   "   MASK, ALPHA_FORWARD, GAUSSIAN, NOISE, BIAS_DROPOUT_ADD) spends it, and the next such run\n",
   "   of d is refused (DROPOUT_ERR_PLAN_RAN) until dropout_desc_new_step gives fresh positions\n",
   "   or this call says the same mask is wanted again: checkpoint recomputation, GAUSSIAN's\n",
   "   backward (the same op on dy), MASK then FORWARD of one plan. Backward ops (BACKWARD,\n",
   "   APPLY_MASK, ALPHA_BACKWARD) read the plan as often as they run and spend nothing. */\n",
   "DROPOUTDEF int dropout_desc_replay(dropout_desc *d);\n",
   "/* Moves a descriptor on purpose: *to becomes *from, its plan drawable from to (if from\n",
   "   could draw it), and from is refused for a forward until its own new_step, set_plan or\n",
   "   replay (DROPOUT_ERR_DESC_MOVED, or PLAN_RAN for a plan it drew). A copy\n",
   "   made any other way (assignment, by value, realloc) is refused for a forward until its\n",
   "   own dropout_desc_new_step, _set_plan or _replay. */\n",
   "DROPOUTDEF int dropout_desc_move(dropout_desc *to, dropout_desc *from);\n",
   "/* For a backend outside this library that ran (or enqueued) what dropout_lower made of d:\n",
   "   a STEP op's plan is drawn, and the strides were used (a shape set now resets them\n",
   "   rather than DROPOUT_ERR_SHAPE_RESETS, and they must be set again before the next run:\n",
   "   DROPOUT_ERR_STRIDES_STALE); dropout_run, dropout_cuda_run and dropout_opencl_run do it\n",
   "   themselves. */\n",
   "DROPOUTDEF int dropout_desc_ran(dropout_desc *d);\n",
   "\n",
   "/* Name what you pass; leave the rest NULL (a tensor the op does not use is refused). */\n",
   "typedef struct dropout_tensors {\n",
   "   void *out;  uint8_t *mask;  const void *in;  const void *bias;  const void *residual;\n",
   "} dropout_tensors;\n",
   "\n",
   "/* Runs d's op on t (a STEP op spends d's plan: dropout_desc_replay). A forward writes d:\n",
   "   one descriptor's forward never runs on two threads at once. */\n",
   "DROPOUTDEF int dropout_run(dropout_desc *d, const dropout_tensors *t);\n",
   "\n",
   "/* THE LOWERED FORM of a descriptor and its tensors: what every backend runs (dropout_run\n",
   "   on the CPU, dropout_cuda_run, dropout_opencl_run, the Python package's C side), filled\n",
   "   once by dropout_lower, which makes every check dropout_run makes. A plain struct: read\n",
   "   it, do not fill it by hand. The geometry is reduced: dims of size 1 are dropped and a\n",
   "   dim merges into its inner neighbour when the mask index and every operand (bias too)\n",
   "   step over both as over one, so element (i0 .. ik) of the reduced shape is the same\n",
   "   element, at the same address and the same draw position, as in the descriptor's shape\n",
   "   (a contiguous tensor becomes rank 1, a slice of rows rank 2). Strides of the operands a\n",
   "   run does not use are the contiguous ones (they never stop a merge). */\n",
   "#define DROPOUT_JOB_BIAS 3          /* stride[DROPOUT_JOB_BIAS]: the bias's strides */\n",
   "#define DROPOUT_JOB_OPERANDS 4      /* out, in, residual (by dropout_operand), bias */\n",
   "typedef struct dropout_job {\n",
   "   dropout_op op;\n",
   "   dropout_op_class op_class;      /* what each element gets (the op list's CLASS) */\n",
   "   dropout_dtype dtype;\n",
   "   size_t elem_size;               /* bytes per element of out, in, residual and bias */\n",
   "   int accumulate;                 /* 1: out += the result (DROPOUT_GRAD_ACCUMULATE) */\n",
   "   dropout_rule rule;              /* the plan's rule */\n",
   "   dropout_alpha_rule alpha;       /* ALPHA ops: the rule's alpha constants; else zeros\n",
   "                                      (alpha.base = rule) */\n",
   "   float sigma;                    /* NORMAL ops: the sigma the element functions take */\n",
   "   int copy;                       /* NORMAL ops with p = 0 or sigma = 0: out = in, bit for bit */\n",
   "   uint64_t seed, stream;          /* the plan's key */\n",
   "   uint64_t pos;                   /* the plan's first position (element 0 of the mask) */\n",
   "   uint64_t positions;             /* the plan's count: the mask's elements */\n",
   "   const uint64_t *dev_seed, *dev_pos;   /* device coordinates (CUDA graphs), or NULL */\n",
   "   size_t numel;                   /* elements of the tensors (0: nothing but a mask to write) */\n",
   "   int rank;                       /* 1 .. DROPOUT_MAX_RANK, reduced (1 when empty or one element) */\n",
   "   size_t dim[DROPOUT_MAX_RANK];   /* reduced dims; entries past rank are 1 */\n",
   "   uint64_t mask_stride[DROPOUT_MAX_RANK];   /* mask (draw) index step per dim, 0 on broadcast\n",
   "                                      dims: element i draws pos + sum i_d * mask_stride[d] */\n",
   "   ptrdiff_t stride[DROPOUT_JOB_OPERANDS][DROPOUT_MAX_RANK];   /* element strides by operand;\n",
   "                                      entries past rank are 0 */\n",
   "   size_t bias_len;                /* FUSED: the bias's elements (the descriptor's last dim);\n",
   "                                      bias element of i: sum i_d * stride[DROPOUT_JOB_BIAS][d] */\n",
   "   int contiguous;                 /* 1: the tensors are one run, unbroadcast (numel ==\n",
   "                                      positions): element k of every operand the op uses\n",
   "                                      (out, in, residual) is at base + k and draws pos + k */\n",
   "   void *out;                      /* NULL when the op takes none (MASK) */\n",
   "   const void *in, *residual, *bias;   /* NULL when the op takes none */\n",
   "   uint8_t *mask_out;              /* the mask to write (an op that draws one, if given) */\n",
   "   const uint8_t *mask_in;         /* the stored mask to read (APPLY_MASK) */\n",
   "} dropout_job;\n",
   "\n",
   "/* Check d and t as dropout_run does (every code but the CPU's own DEVICE_COORDS) and fill\n",
   "   *j. On error *j is not written. Device coordinates are copied, not refused: a backend\n",
   "   that cannot read them (the CPU, OpenCL) refuses a job whose dev_seed is set. */\n",
   "DROPOUTDEF int dropout_lower(const dropout_desc *d, const dropout_tensors *t, dropout_job *j);\n",
   "\n",
   "/* ============================ end of VARIANTS declarations ============================ */\n",
   "\n",
   "\n",
   "\n",
   "/* Link errors that say the fix: every file that includes the declarations refers to this\n",
   "   symbol and the implementation defines it, so a program without the implementation\n",
   "   fails with \"undefined reference to dropout_h_needs_DROPOUT_IMPLEMENTATION_in_exactly_one_file\"\n",
   "   and one with it in two files with \"multiple definition of\" the same name. */\n",
   "#if !defined(DROPOUT_STATIC) && !defined(__OPENCL_C_VERSION__) && !defined(__CUDACC__)\n",
   "extern int dropout_h_needs_DROPOUT_IMPLEMENTATION_in_exactly_one_file;   /* extern, not DROPOUTDEF: a user's DROPOUTDEF without it (empty, visibility) made this a definition in every file */\n",
   "#if (defined(__GNUC__) || defined(__clang__)) && !defined(DROPOUT_IMPLEMENTATION) && !defined(DROPOUT_NO_LINK_CHECK)\n",
   "static int *const dropout__link_check __attribute__((used, unused)) = &dropout_h_needs_DROPOUT_IMPLEMENTATION_in_exactly_one_file;\n",
   "#endif\n",
   "#endif\n",
   "\n",
   "#ifdef __cplusplus\n",
   "}\n",
   "#endif\n",
   "\n",
   "#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)\n",
   "#pragma GCC diagnostic pop\n",
   "#endif\n",
   "\n",
   "#if defined(DROPOUT__FLOAT_CONTROL)\n",
   "#pragma float_control(pop)\n",
   "#endif\n",
   "#endif /* DROPOUT_H_INCLUDED */\n",
   "#ifndef DROPOUT_OPENCL_FP64\n",
   "/* Those double building blocks computed in float, not as the header specifies: a kernel\n",
   "   appended to this program (dropout_opencl_source) that calls one fails to build instead\n",
   "   (an undeclared function), and double is an error again, as on any device without\n",
   "   cl_khr_fp64. The kernels below call none of them without DROPOUT_OPENCL_FP64. */\n",
   "#undef double\n",
   "#define dropout_rule_make dropout_rule_make_needs_DROPOUT_OPENCL_FP64\n",
   "#define dropout_apply_f64 dropout_apply_f64_needs_DROPOUT_OPENCL_FP64\n",
   "#define dropout_accumulate_f64 dropout_accumulate_f64_needs_DROPOUT_OPENCL_FP64\n",
   "#define dropout_bias_dropout_add_one_f64 dropout_bias_dropout_add_one_f64_needs_DROPOUT_OPENCL_FP64\n",
   "#define dropout_alpha_rule_of dropout_alpha_rule_of_needs_DROPOUT_OPENCL_FP64\n",
   "#define dropout_alpha_rule_make dropout_alpha_rule_make_needs_DROPOUT_OPENCL_FP64\n",
   "#define dropout_alpha_apply_f64 dropout_alpha_apply_f64_needs_DROPOUT_OPENCL_FP64\n",
   "#define dropout_alpha_grad_f64 dropout_alpha_grad_f64_needs_DROPOUT_OPENCL_FP64\n",
   "#define dropout_normal_from_words dropout_normal_from_words_needs_DROPOUT_OPENCL_FP64\n",
   "#define dropout_normal_at dropout_normal_at_needs_DROPOUT_OPENCL_FP64\n",
   "#define dropout_gaussian_mult dropout_gaussian_mult_needs_DROPOUT_OPENCL_FP64\n",
   "#define dropout_noise_add_f32 dropout_noise_add_f32_needs_DROPOUT_OPENCL_FP64\n",
   "#define dropout_noise_add_f64 dropout_noise_add_f64_needs_DROPOUT_OPENCL_FP64\n",
   "#endif\n",
   "\n",
   "/* Ops of the kernels (the host maps dropout_op onto these). */\n",
   "#define DROPOUT_OCL_DROP 0        /* forward / backward; optional mask out */\n",
   "#define DROPOUT_OCL_APPLY_MASK 1  /* keep bits from a stored mask */\n",
   "#define DROPOUT_OCL_MASK 2        /* the mask alone */\n",
   "#define DROPOUT_OCL_FUSED 3       /* y = residual + dropout(x + bias) */\n",
   "#define DROPOUT_OCL_ALPHA 4       /* element path only */\n",
   "#define DROPOUT_OCL_ALPHA_GRAD 5\n",
   "#define DROPOUT_OCL_GAUSS 6\n",
   "#define DROPOUT_OCL_NOISE 7\n",
   "\n",
   "typedef __global uchar *dropout_ocl_gp;\n",
   "typedef __global const uchar *dropout_ocl_gcp;\n",
   "\n",
   "static inline dropout_rule dropout_ocl_rule(ulong thr, uint bits, float s32, ulong s64)\n",
   "{\n",
   "   dropout_rule r;\n",
   "   r.threshold = thr;\n",
   "   r.bits = (int)bits;\n",
   "   r.scale_f32 = s32;\n",
   "#ifdef DROPOUT_OPENCL_FP64\n",
   "   r.scale_f64 = as_double(s64);\n",
   "#else\n",
   "   r.scale_f64 = 0.0f;\n",
   "   (void)s64;\n",
   "#endif\n",
   "   return r;\n",
   "}\n",
   "\n",
   "/* Keep bits of one Philox block: bit l = draw l kept (4, 8 or 16 bits), each one\n",
   "   dropout_keep(dropout_draw(...)); the loops have constant bounds per width, so they\n",
   "   unroll and the draws stay in registers. */\n",
   "static inline uint dropout_ocl_block_keep(const uint w[4], dropout_rule r)\n",
   "{\n",
   "   uint k = 0, l;\n",
   "   if (r.bits == 32) {\n",
   "      for (l = 0; l < 4u; ++l) k |= (uint)dropout_keep(dropout_draw(w, 32, l), r) << l;\n",
   "   } else if (r.bits == 16) {\n",
   "      for (l = 0; l < 8u; ++l) k |= (uint)dropout_keep(dropout_draw(w, 16, l), r) << l;\n",
   "   } else {\n",
   "      for (l = 0; l < 16u; ++l) k |= (uint)dropout_keep(dropout_draw(w, 8, l), r) << l;\n",
   "   }\n",
   "   return k;\n",
   "}\n",
   "\n",
   "/* Keep bits of positions pos .. pos + count - 1 (count <= 32), bit i = position pos + i:\n",
   "   the blocks that hold them, their bits side by side, shifted by the first one's lane.\n",
   "   Blocks are generated only for wanted positions: nothing past 2^64 - 1 is touched. */\n",
   "static inline uint dropout_ocl_keep_bits(ulong seed, ulong stream, dropout_rule r, ulong pos, uint count)\n",
   "{\n",
   "   uint log2d = r.bits == 32 \? 2u : r.bits == 16 \? 3u : 4u;\n",
   "   uint lanes = 1u << log2d, lane0 = (uint)(pos & (lanes - 1u));\n",
   "   uint nb = (lane0 + count + lanes - 1u) >> log2d, k;   /* <= 9 blocks, <= 48 bits */\n",
   "   ulong b0 = pos >> log2d, acc = 0;\n",
   "   for (k = 0; k < nb; ++k) {\n",
   "      uint w[4];\n",
   "      dropout_block(seed, stream, b0 + k, w);\n",
   "      acc |= (ulong)dropout_ocl_block_keep(w, r) << (k << log2d);\n",
   "   }\n",
   "   acc >>= lane0;\n",
   "   return count == 32u \? (uint)acc : (uint)acc & ((1u << count) - 1u);\n",
   "}\n",
   "\n",
   "/* The element loops of the contiguous ops, one loop per case (the op's branch hoisted out\n",
   "   of the loop: apply_mask ran 3x faster on PoCL than with one loop branching per element).\n",
   "   FOR(j, keep) is the kernel's loop header: it declares element j and its keep bit, and\n",
   "   STEP advances the fused op's column. */\n",
   "#define DROPOUT_OCL_ELEMS(T, APPLY, FUSED_ONE, ACC, FOR, COL0, STEP)                          \\\n",
   "   {                                                                                     \\\n",
   "      __global T *yp = (__global T *)(y + y_off);                                         \\\n",
   "      __global const T *xp = (__global const T *)(x + x_off);                             \\\n",
   "      if (op == DROPOUT_OCL_FUSED) {                                                     \\\n",
   "         __global const T *bp = (__global const T *)(bias + b_off);                       \\\n",
   "         __global const T *rp = (__global const T *)(res + r_off);                        \\\n",
   "         col = COL0;                                                                     \\\n",
   "         FOR { yp[j] = FUSED_ONE(xp[j], bp[col], rp[j], keep, r); STEP }                 \\\n",
   "      } else if (acc) {                                                                  \\\n",
   "         FOR { yp[j] = ACC(yp[j], APPLY(xp[j], keep, r)); }                              \\\n",
   "      } else {                                                                           \\\n",
   "         FOR { yp[j] = APPLY(xp[j], keep, r); }                                          \\\n",
   "      }                                                                                  \\\n",
   "   }\n",
   "\n",
   "/* The contiguous kernel: forward, backward, apply_mask, mask, fused. Units of 32\n",
   "   consecutive elements (one uint of keep bits, 4 mask bytes of their own); a work-group\n",
   "   takes a span of L units at a time (L = its size), keeps their bits in local memory and\n",
   "   then moves the span's elements with consecutive work-items on consecutive elements.\n",
   "   Spans go round the groups (group-stride), so the bits do not depend on the launch. */\n",
   "#define DROPOUT_OCL_STAGED_FOR                                                           \\\n",
   "   for (e = lid; e < elems; e += L)                                                      \\\n",
   "      for (j = e0 + e, keep = (int)((kl[e >> 5] >> (e & 31u)) & 1u), once = 1; once; once = 0)\n",
   "#define DROPOUT_OCL_STAGED_STEP col += l_step; if (col >= bias_len) col -= bias_len;\n",
   "\n",
   "#define DROPOUT_OCL_UNIT_KERNEL(NAME, T, APPLY, FUSED_ONE, ACC)                               \\\n",
   "__kernel void NAME(dropout_ocl_gp y, ulong y_off, dropout_ocl_gp mask_out, ulong mo_off,      \\\n",
   "                   dropout_ocl_gcp x, ulong x_off, dropout_ocl_gcp mask_in, ulong mi_off,     \\\n",
   "                   dropout_ocl_gcp bias, ulong b_off, dropout_ocl_gcp res, ulong r_off,      \\\n",
   "                   ulong n, ulong bias_len, ulong seed, ulong stream, ulong pos,             \\\n",
   "                   ulong thr, uint bits, float s32, ulong s64, int op, int acc,              \\\n",
   "                   __local uint *kl)                                                     \\\n",
   "{                                                                                        \\\n",
   "   dropout_rule r = dropout_ocl_rule(thr, bits, s32, s64);                               \\\n",
   "   ulong L = get_local_size(0), lid = get_local_id(0), col, l_step = L % bias_len;       \\\n",
   "   ulong units = n / 32u + (n % 32u != 0), spans = (units + L - 1u) / L, s;              \\\n",
   "   int none = op == DROPOUT_OCL_APPLY_MASK && (thr >> bits) != 0;  /* p = 1: keep none */ \\\n",
   "   for (s = get_group_id(0); s < spans; s += get_num_groups(0)) {                        \\\n",
   "      ulong u = s * L + lid, e0 = s * L * 32u, elems, e, j;                               \\\n",
   "      uint kb = 0;                                                                       \\\n",
   "      int keep, once;                                                                    \\\n",
   "      if (u < units) {                                                                   \\\n",
   "         uint count = n - u * 32u < 32u \? (uint)(n - u * 32u) : 32u, i;                  \\\n",
   "         if (op == DROPOUT_OCL_APPLY_MASK) {                                             \\\n",
   "            if (!none)                                                                   \\\n",
   "               for (i = 0; i < (count + 7u) / 8u; ++i) kb |= (uint)mask_in[mi_off + u * 4u + i] << (8u * i); \\\n",
   "            if (count < 32u) kb &= (1u << count) - 1u;                                   \\\n",
   "         } else {                                                                        \\\n",
   "            kb = dropout_ocl_keep_bits(seed, stream, r, pos + u * 32u, count);           \\\n",
   "         }                                                                               \\\n",
   "         if (mask_out)                                                                   \\\n",
   "            for (i = 0; i < (count + 7u) / 8u; ++i) mask_out[mo_off + u * 4u + i] = (uchar)(kb >> (8u * i)); \\\n",
   "      }                                                                                  \\\n",
   "      if (op == DROPOUT_OCL_MASK) continue;                                              \\\n",
   "      kl[lid] = kb;                                                                      \\\n",
   "      barrier(CLK_LOCAL_MEM_FENCE);                                                      \\\n",
   "      elems = n - e0 < L * 32u \? n - e0 : L * 32u;                                       \\\n",
   "      DROPOUT_OCL_ELEMS(T, APPLY, FUSED_ONE, ACC, DROPOUT_OCL_STAGED_FOR, (e0 + lid) % bias_len, DROPOUT_OCL_STAGED_STEP) \\\n",
   "      barrier(CLK_LOCAL_MEM_FENCE);                                                      \\\n",
   "   }                                                                                     \\\n",
   "}\n",
   "\n",
   "/* The same units, each work-item moving its own 32 elements straight from global memory\n",
   "   (no local memory, no barrier): the better layout where a work-item is a CPU thread's\n",
   "   loop (PoCL and other CPU devices), the worse one on a GPU (uncoalesced). Same bits. */\n",
   "#define DROPOUT_OCL_DIRECT_FOR                                                           \\\n",
   "   for (i = 0; i < count; ++i)                                                           \\\n",
   "      for (j = u * 32u + i, keep = (int)((kb >> i) & 1u), once = 1; once; once = 0)\n",
   "#define DROPOUT_OCL_DIRECT_STEP if (++col == bias_len) col = 0;\n",
   "\n",
   "#define DROPOUT_OCL_DIRECT_KERNEL(NAME, T, APPLY, FUSED_ONE, ACC)                             \\\n",
   "__kernel void NAME(dropout_ocl_gp y, ulong y_off, dropout_ocl_gp mask_out, ulong mo_off,      \\\n",
   "                   dropout_ocl_gcp x, ulong x_off, dropout_ocl_gcp mask_in, ulong mi_off,     \\\n",
   "                   dropout_ocl_gcp bias, ulong b_off, dropout_ocl_gcp res, ulong r_off,      \\\n",
   "                   ulong n, ulong bias_len, ulong seed, ulong stream, ulong pos,             \\\n",
   "                   ulong thr, uint bits, float s32, ulong s64, int op, int acc,              \\\n",
   "                   __local uint *kl)                                                     \\\n",
   "{                                                                                        \\\n",
   "   dropout_rule r = dropout_ocl_rule(thr, bits, s32, s64);                               \\\n",
   "   ulong units = n / 32u + (n % 32u != 0), u, col, j;                                    \\\n",
   "   int none = op == DROPOUT_OCL_APPLY_MASK && (thr >> bits) != 0;  /* p = 1: keep none */ \\\n",
   "   (void)kl;                                                                             \\\n",
   "   for (u = get_global_id(0); u < units; u += get_global_size(0)) {                      \\\n",
   "      uint count = n - u * 32u < 32u \? (uint)(n - u * 32u) : 32u, i, kb = 0;             \\\n",
   "      int keep, once;                                                                    \\\n",
   "      if (op == DROPOUT_OCL_APPLY_MASK) {                                                \\\n",
   "         if (!none)                                                                      \\\n",
   "            for (i = 0; i < (count + 7u) / 8u; ++i) kb |= (uint)mask_in[mi_off + u * 4u + i] << (8u * i); \\\n",
   "         if (count < 32u) kb &= (1u << count) - 1u;                                      \\\n",
   "      } else {                                                                           \\\n",
   "         kb = dropout_ocl_keep_bits(seed, stream, r, pos + u * 32u, count);              \\\n",
   "      }                                                                                  \\\n",
   "      if (mask_out)                                                                      \\\n",
   "         for (i = 0; i < (count + 7u) / 8u; ++i) mask_out[mo_off + u * 4u + i] = (uchar)(kb >> (8u * i)); \\\n",
   "      if (op == DROPOUT_OCL_MASK) continue;                                              \\\n",
   "      DROPOUT_OCL_ELEMS(T, APPLY, FUSED_ONE, ACC, DROPOUT_OCL_DIRECT_FOR, (u * 32u) % bias_len, DROPOUT_OCL_DIRECT_STEP) \\\n",
   "   }                                                                                     \\\n",
   "}\n",
   "\n",
   "/* ---- The element path: strided views, broadcast masks and the variants ---------------\n",
   "   One element per work-item step (grid-stride). Element i (row-major logical index) has\n",
   "   the multi-index (i0 .. ik); operand w sits at base_w[sum i_d * stride_w[d]] and the\n",
   "   element draws position pos + sum i_d * mstride[d] (0 on broadcast dims), the row-major\n",
   "   index of its mask element. */\n",
   "typedef struct dropout_ocl_where { long oy, ox, orr; ulong m, last; } dropout_ocl_where;\n",
   "\n",
   "static inline dropout_ocl_where dropout_ocl_locate(ulong i, int rank, ulong8 dims, long8 sy, long8 sx,\n",
   "                                                   long8 sr, ulong8 ms)\n",
   "{\n",
   "   ulong dd[8], md[8];\n",
   "   long ys[8], xs[8], rs[8];\n",
   "   dropout_ocl_where w;\n",
   "   int d;\n",
   "   vstore8(dims, 0, dd); vstore8(ms, 0, md);\n",
   "   vstore8(sy, 0, ys); vstore8(sx, 0, xs); vstore8(sr, 0, rs);\n",
   "   w.oy = w.ox = w.orr = 0; w.m = 0; w.last = 0;\n",
   "   for (d = rank - 1; d >= 0; --d) {\n",
   "      ulong id = i % dd[d];\n",
   "      i /= dd[d];\n",
   "      if (d == rank - 1) w.last = id;\n",
   "      w.oy += (long)id * ys[d]; w.ox += (long)id * xs[d]; w.orr += (long)id * rs[d];\n",
   "      w.m += id * md[d];\n",
   "   }\n",
   "   return w;\n",
   "}\n",
   "\n",
   "#define DROPOUT_OCL_ELEM_KERNEL_HEAD(NAME)                                                   \\\n",
   "__kernel void NAME(dropout_ocl_gp y, ulong y_off, dropout_ocl_gcp x, ulong x_off,            \\\n",
   "                   dropout_ocl_gcp mask_in, ulong mi_off, dropout_ocl_gcp bias, ulong b_off, \\\n",
   "                   dropout_ocl_gcp res, ulong r_off, ulong numel, int rank, ulong8 dims,     \\\n",
   "                   long8 sy, long8 sx, long8 sr, ulong8 ms, ulong seed, ulong stream,         \\\n",
   "                   ulong pos, ulong thr, uint bits, float s32, ulong s64, int op, int acc,   \\\n",
   "                   float a32, float c32, float drop32, ulong a64, ulong c64, ulong drop64,   \\\n",
   "                   float sigma, int copy)                                                \\\n",
   "{                                                                                        \\\n",
   "   dropout_rule r = dropout_ocl_rule(thr, bits, s32, s64);                               \\\n",
   "   ulong i;                                                                              \\\n",
   "   for (i = get_global_id(0); i < numel; i += get_global_size(0)) {                      \\\n",
   "      dropout_ocl_where w = dropout_ocl_locate(i, rank, dims, sy, sx, sr, ms);           \\\n",
   "      int keep = 0;                                                                      \\\n",
   "      if (op == DROPOUT_OCL_APPLY_MASK)                                                  \\\n",
   "         keep = (thr >> bits) == 0 && ((mask_in[mi_off + (w.m >> 3)] >> (w.m & 7u)) & 1u); \\\n",
   "      else if (op < DROPOUT_OCL_GAUSS)                                                   \\\n",
   "         keep = dropout_keep_at(seed, stream, pos + w.m, r);\n",
   "\n",
   "/* alpha rule of the kernel arguments (the host made it with dropout_alpha_rule_make) */\n",
   "static inline dropout_alpha_rule dropout_ocl_alpha(dropout_rule r, float a32, float c32, float drop32,\n",
   "                                                    ulong a64, ulong c64, ulong drop64)\n",
   "{\n",
   "   dropout_alpha_rule a;\n",
   "   a.base = r;\n",
   "   a.a_f32 = a32; a.c_f32 = c32; a.drop_f32 = drop32;\n",
   "#ifdef DROPOUT_OPENCL_FP64\n",
   "   a.a = as_double(a64); a.c = as_double(c64); a.drop = as_double(drop64);\n",
   "#else\n",
   "   a.a = a.c = a.drop = 0.0f;\n",
   "   (void)a64; (void)c64; (void)drop64;\n",
   "#endif\n",
   "   return a;\n",
   "}\n",
   "\n",
   "/* f32, f16 and bf16: the element in float (f16 / bf16 widened and narrowed by the\n",
   "   header's converters), the same operations as dropout.h's element functions. */\n",
   "#define DROPOUT_OCL_ELEM_16_32(NAME, T, TO32, FROM32, APPLY, ALPHA_APPLY, ALPHA_GRAD, FUSED_ONE, ACC) \\\n",
   "DROPOUT_OCL_ELEM_KERNEL_HEAD(NAME)                                                           \\\n",
   "      {                                                                                  \\\n",
   "         __global T *yp = (__global T *)(y + y_off) + w.oy;                              \\\n",
   "         T xv = ((__global const T *)(x + x_off))[w.ox], v;                              \\\n",
   "         dropout_alpha_rule ar = dropout_ocl_alpha(r, a32, c32, drop32, a64, c64, drop64); \\\n",
   "         if (op == DROPOUT_OCL_DROP || op == DROPOUT_OCL_APPLY_MASK) v = APPLY(xv, keep, r); \\\n",
   "         else if (op == DROPOUT_OCL_ALPHA) v = ALPHA_APPLY(xv, keep, ar);                \\\n",
   "         else if (op == DROPOUT_OCL_ALPHA_GRAD) v = ALPHA_GRAD(xv, keep, ar);            \\\n",
   "         else if (op == DROPOUT_OCL_FUSED)                                               \\\n",
   "            v = FUSED_ONE(xv, ((__global const T *)(bias + b_off))[w.last],              \\\n",
   "                          ((__global const T *)(res + r_off))[w.orr], keep, r);          \\\n",
   "         else DROPOUT_OCL_NORMAL_OP(T, TO32, FROM32)                                     \\\n",
   "         if (acc) v = ACC(*yp, v);                                                       \\\n",
   "         *yp = v;                                                                        \\\n",
   "      }                                                                                  \\\n",
   "   }                                                                                     \\\n",
   "}\n",
   "\n",
   "#define DROPOUT_OCL_ID(v) (v)\n",
   "#ifdef DROPOUT_OPENCL_FP64\n",
   "/* Gaussian dropout y = x * (float)(1 + sigma z), noise y = x + sigma z (dropout.h's\n",
   "   dropout_gaussian_mult, dropout_noise_add_f32); the normal needs double. */\n",
   "#define DROPOUT_OCL_NORMAL_OP(T, TO32, FROM32)                                           \\\n",
   "         {                                                                               \\\n",
   "            if (copy) v = xv;                                                            \\\n",
   "            else {                                                                       \\\n",
   "               float z = dropout_normal_at(seed, stream, pos + w.m), xf = TO32(xv);      \\\n",
   "               v = FROM32(op == DROPOUT_OCL_GAUSS \? xf * dropout_gaussian_mult(z, sigma)  \\\n",
   "                                                  : dropout_noise_add_f32(xf, z, sigma)); \\\n",
   "            }                                                                            \\\n",
   "         }\n",
   "#else\n",
   "#define DROPOUT_OCL_NORMAL_OP(T, TO32, FROM32) v = xv;   /* refused by the host */\n",
   "#endif\n",
   "\n",
   "/* f64: the element in double (built only with DROPOUT_OPENCL_FP64). */\n",
   "#define DROPOUT_OCL_ELEM_64(NAME, T, sfx)                                                    \\\n",
   "DROPOUT_OCL_ELEM_KERNEL_HEAD(NAME)                                                           \\\n",
   "      {                                                                                  \\\n",
   "         __global T *yp = (__global T *)(y + y_off) + w.oy;                              \\\n",
   "         T xv = ((__global const T *)(x + x_off))[w.ox], v;                              \\\n",
   "         dropout_alpha_rule ar = dropout_ocl_alpha(r, a32, c32, drop32, a64, c64, drop64); \\\n",
   "         if (op == DROPOUT_OCL_DROP || op == DROPOUT_OCL_APPLY_MASK) v = dropout_apply_##sfx(xv, keep, r); \\\n",
   "         else if (op == DROPOUT_OCL_ALPHA) v = dropout_alpha_apply_##sfx(xv, keep, ar);  \\\n",
   "         else if (op == DROPOUT_OCL_ALPHA_GRAD) v = dropout_alpha_grad_##sfx(xv, keep, ar); \\\n",
   "         else if (op == DROPOUT_OCL_FUSED)                                               \\\n",
   "            v = dropout_bias_dropout_add_one_##sfx(xv, ((__global const T *)(bias + b_off))[w.last], \\\n",
   "                                                   ((__global const T *)(res + r_off))[w.orr], keep, r); \\\n",
   "         else if (copy) v = xv;                                                          \\\n",
   "         else {                                                                          \\\n",
   "            float z = dropout_normal_at(seed, stream, pos + w.m);                        \\\n",
   "            v = op == DROPOUT_OCL_GAUSS \? xv * (T)dropout_gaussian_mult(z, sigma)        \\\n",
   "                                        : dropout_noise_add_##sfx(xv, z, sigma);         \\\n",
   "         }                                                                               \\\n",
   "         if (acc) v = dropout_accumulate_##sfx(*yp, v);                                  \\\n",
   "         *yp = v;                                                                        \\\n",
   "      }                                                                                  \\\n",
   "   }                                                                                     \\\n",
   "}\n",
   "\n",
   "/* ---- The kernels of every dtype -------------------------------------------------------\n",
   "   From its row of dropout.h's DROPOUT__DTYPES, by the row's K column: F computed in\n",
   "   float, H a 16-bit pattern (ushort) computed in float through dropout_<sfx>_to_f32 and\n",
   "   dropout_f32_to_<sfx>, D double (only with DROPOUT_OPENCL_FP64; the host creates those\n",
   "   kernels only then). Each dtype gets dropout_ocl_direct_<sfx>, dropout_ocl_unit_<sfx>\n",
   "   and dropout_ocl_elem_<sfx>, the names dropout_opencl.h creates from the same rows. */\n",
   "#define DROPOUT_OCL_CONTIGUOUS(T, sfx)                                                        \\\n",
   "   DROPOUT_OCL_DIRECT_KERNEL(dropout_ocl_direct_##sfx, T, dropout_apply_##sfx,                \\\n",
   "                             dropout_bias_dropout_add_one_##sfx, dropout_accumulate_##sfx)    \\\n",
   "   DROPOUT_OCL_UNIT_KERNEL(dropout_ocl_unit_##sfx, T, dropout_apply_##sfx,                    \\\n",
   "                           dropout_bias_dropout_add_one_##sfx, dropout_accumulate_##sfx)\n",
   "#define DROPOUT_OCL_KERNELS_F(sfx)                                                            \\\n",
   "   DROPOUT_OCL_CONTIGUOUS(float, sfx)                                                         \\\n",
   "   DROPOUT_OCL_ELEM_16_32(dropout_ocl_elem_##sfx, float, DROPOUT_OCL_ID, DROPOUT_OCL_ID, dropout_apply_##sfx, \\\n",
   "                          dropout_alpha_apply_##sfx, dropout_alpha_grad_##sfx,                \\\n",
   "                          dropout_bias_dropout_add_one_##sfx, dropout_accumulate_##sfx)\n",
   "#define DROPOUT_OCL_KERNELS_H(sfx)                                                            \\\n",
   "   DROPOUT_OCL_CONTIGUOUS(ushort, sfx)                                                        \\\n",
   "   DROPOUT_OCL_ELEM_16_32(dropout_ocl_elem_##sfx, ushort, dropout_##sfx##_to_f32, dropout_f32_to_##sfx, \\\n",
   "                          dropout_apply_##sfx, dropout_alpha_apply_##sfx, dropout_alpha_grad_##sfx, \\\n",
   "                          dropout_bias_dropout_add_one_##sfx, dropout_accumulate_##sfx)\n",
   "#ifdef DROPOUT_OPENCL_FP64\n",
   "#define DROPOUT_OCL_KERNELS_D(sfx)                                                            \\\n",
   "   DROPOUT_OCL_CONTIGUOUS(double, sfx)                                                        \\\n",
   "   DROPOUT_OCL_ELEM_64(dropout_ocl_elem_##sfx, double, sfx)\n",
   "#else\n",
   "#define DROPOUT_OCL_KERNELS_D(sfx)\n",
   "#endif\n",
   "#define DROPOUT_OCL_KERNELS(NAME, value, sfx, T, size, CUDA_T, K) DROPOUT_OCL_KERNELS_##K(sfx)\n",
   "DROPOUT__DTYPES(DROPOUT_OCL_KERNELS)\n",
   "\n",
   "/* ---- The raw stream -------------------------------------------------------------------\n",
   "   One Philox block per work-item step: words 4b .. 4b + 3 of the stream. kind 0: the\n",
   "   words (u32); 1: uniform floats (w >> 8) 2^-24; 2: uniform doubles, double q = words\n",
   "   2q, 2q + 1 as ((w(2q+1) << 32 | w(2q)) >> 11) 2^-53; 3: normals (float), normal q\n",
   "   from block q / 4. Output element e is stream element first + e. */\n",
   "__kernel void dropout_ocl_fill(dropout_ocl_gp out, ulong o_off, ulong n, ulong seed, ulong stream,\n",
   "                               ulong first, int kind)\n",
   "{\n",
   "   uint per = kind == 2 \? 2u : 4u;          /* stream elements per block */\n",
   "   ulong b0 = first / per, nb = (first + (n - 1u)) / per - b0 + 1u, k;\n",
   "   for (k = get_global_id(0); k < nb; k += get_global_size(0)) {\n",
   "      uint w[4], l;\n",
   "      ulong b = b0 + k;\n",
   "      dropout_block(seed, stream, b, w);\n",
   "      for (l = 0; l < per; ++l) {\n",
   "         ulong q = b * per + l, e;\n",
   "         if (q < first || q - first >= n) continue;\n",
   "         e = q - first;\n",
   "         if (kind == 0) ((__global uint *)(out + o_off))[e] = w[l];\n",
   "         else if (kind == 1) ((__global float *)(out + o_off))[e] = (float)(w[l] >> 8) * 5.9604644775390625e-8f;\n",
   "#ifdef DROPOUT_OPENCL_FP64\n",
   "         else if (kind == 2) {\n",
   "            ulong u = (ulong)w[2u * l + 1u] << 32 | w[2u * l];\n",
   "            ((__global double *)(out + o_off))[e] = (double)(u >> 11) * 1.1102230246251565404236316680908203125e-16;\n",
   "         } else ((__global float *)(out + o_off))[e] = dropout_normal_from_words(w[l & 2u], w[(l & 2u) + 1u], (int)(l & 1u));\n",
   "#endif\n",
   "      }\n",
   "   }\n",
   "}\n",
   "\n",
   "/* ---- The build's float check ------------------------------------------------------------\n",
   "   dropout_opencl_init runs this once: a device that says it keeps subnormals may still\n",
   "   build this program to flush them (a driver's own build flags: PoCL's\n",
   "   POCL_EXTRA_BUILD_FLAGS=-cl-denorms-are-zero flushed 947 of 4096 f32 forward outputs, and\n",
   "   no macro says so). io[0] * io[1] as floats into io[2], as doubles (io[3..4] * io[5..6],\n",
   "   low word first) into io[7..8]: the host gives a subnormal times 2 and checks the exact\n",
   "   subnormal product. */\n",
   "__kernel void dropout_ocl_probe(__global uint *io)\n",
   "{\n",
   "   if (get_global_id(0) != 0) return;\n",
   "   io[2] = as_uint(as_float(io[0]) * as_float(io[1]));\n",
   "#ifdef DROPOUT_OPENCL_FP64\n",
   "   {\n",
   "      ulong r = as_ulong(as_double((ulong)io[4] << 32 | io[3]) * as_double((ulong)io[6] << 32 | io[5]));\n",
   "      io[7] = (uint)r;\n",
   "      io[8] = (uint)(r >> 32);\n",
   "   }\n",
   "#endif\n",
   "}\n",
/* END program */
   ""
};

DROPOUT_OPENCLDEF const char *const *dropout_opencl_source(size_t *lines)
{
   if (lines) *lines = sizeof dropout_opencl__program / sizeof dropout_opencl__program[0];
   return dropout_opencl__program;
}

#define DROPOUT_OPENCL__MAGIC 0x4F434C31u   /* "OCL1" */

/* kernel slots: DROPOUT_OPENCL__UNIT + dtype - 1 is dropout_ocl_unit_<sfx> (opencl/kernels.cl
   makes them from the same rows), and so on; needs_fp64: the K column is D (double) */
enum {
   DROPOUT_OPENCL__UNIT = 0,
   DROPOUT_OPENCL__ELEM = DROPOUT_OPENCL__DTYPES,
   DROPOUT_OPENCL__DIRECT = 2 * DROPOUT_OPENCL__DTYPES,
   DROPOUT_OPENCL__FILL = 3 * DROPOUT_OPENCL__DTYPES
};
#define DROPOUT_OPENCL__UNIT_NAME(NAME, value, sfx, T, size, CUDA_T, K) "dropout_ocl_unit_" #sfx,
#define DROPOUT_OPENCL__ELEM_NAME(NAME, value, sfx, T, size, CUDA_T, K) "dropout_ocl_elem_" #sfx,
#define DROPOUT_OPENCL__DIRECT_NAME(NAME, value, sfx, T, size, CUDA_T, K) "dropout_ocl_direct_" #sfx,
static const char *const dropout_opencl__kernel_names[DROPOUT_OPENCL__KERNELS] = {
   DROPOUT__DTYPES(DROPOUT_OPENCL__UNIT_NAME)
   DROPOUT__DTYPES(DROPOUT_OPENCL__ELEM_NAME)
   DROPOUT__DTYPES(DROPOUT_OPENCL__DIRECT_NAME)
   "dropout_ocl_fill"
};
#undef DROPOUT_OPENCL__DIRECT_NAME
#undef DROPOUT_OPENCL__ELEM_NAME
#undef DROPOUT_OPENCL__UNIT_NAME
#define DROPOUT_OPENCL__FP64_F 0
#define DROPOUT_OPENCL__FP64_H 0
#define DROPOUT_OPENCL__FP64_D 1
#define DROPOUT_OPENCL__NEEDS_FP64(NAME, value, sfx, T, size, CUDA_T, K) DROPOUT_OPENCL__FP64_##K,
static const unsigned char dropout_opencl__needs_fp64[DROPOUT_OPENCL__DTYPES] = { DROPOUT__DTYPES(DROPOUT_OPENCL__NEEDS_FP64) };
#undef DROPOUT_OPENCL__NEEDS_FP64

/* kernel ops (opencl/kernels.cl) */
enum { DROPOUT_OPENCL__DROP = 0, DROPOUT_OPENCL__APPLY_MASK = 1, DROPOUT_OPENCL__MASK = 2, DROPOUT_OPENCL__FUSED = 3,
       DROPOUT_OPENCL__ALPHA = 4, DROPOUT_OPENCL__ALPHA_GRAD = 5, DROPOUT_OPENCL__GAUSS = 6, DROPOUT_OPENCL__NOISE = 7 };

static int dropout_opencl__cl(dropout_opencl *ctx, cl_int err, const char *what)
{
   if (err == CL_SUCCESS) return DROPOUT_OK;
   snprintf(ctx->message, sizeof ctx->message, "%s failed: OpenCL error %d", what, (int)err);
   return DROPOUT_ERR_OPENCL_BASE + (int)err;
}

static int dropout_opencl__ctx_ok(dropout_opencl *ctx);   /* (the checks, below) */

static int dropout_opencl__fail(dropout_opencl *ctx, int code, const char *text)
{
   snprintf(ctx->message, sizeof ctx->message, "%s", text);
   return code;
}

DROPOUT_OPENCLDEF const char *dropout_opencl_strerror(int code)
{
#define DROPOUT_OPENCL__ERROR_CASE(name, value, message) case name: return message;
   switch (code) {
   DROPOUT_OPENCL__ERRORS(DROPOUT_OPENCL__ERROR_CASE)
   default: break;
   }
   if (code < DROPOUT_ERR_OPENCL_BASE)   /* (CL_* errors are negative; BASE + CL_SUCCESS is never returned) */
      return "dropout_opencl: an OpenCL call failed, or the call refused a buffer, queue or device with OpenCL's code for "
             "it (the code is DROPOUT_ERR_OPENCL_BASE + that cl_int; ctx->message says which)";
   return dropout_strerror(code);
#undef DROPOUT_OPENCL__ERROR_CASE
}

DROPOUT_OPENCLDEF void dropout_opencl_release(dropout_opencl *ctx)
{
   int k;
   if (!ctx || ctx->magic != DROPOUT_OPENCL__MAGIC || ctx->self != ctx) return;   /* (a copy owns nothing) */
   for (k = 0; k < DROPOUT_OPENCL__KERNELS; ++k)
      if (ctx->kernel[k]) clReleaseKernel(ctx->kernel[k]);
   if (ctx->program) clReleaseProgram(ctx->program);
   ctx->magic = 0;
}

/* The device's config is what it says; this is what the built program does. A driver may
   add build options of its own (PoCL's POCL_EXTRA_BUILD_FLAGS=-cl-denorms-are-zero
   flushed subnormals in f32 and f64 while the device reported CL_FP_DENORM, and no macro
   tells the program), so the program multiplies a subnormal by 2 once, in float and in
   double, on a queue of its own; a flushed product takes fp32_exact or fp64 away, and
   the calls that need them are refused, saying why. */
static int dropout_opencl__probe(dropout_opencl *ctx)
{
   cl_uint io[9] = { 3u, 0x40000000u, 0u, 3u, 0u, 0u, 0x40000000u, 0u, 0u };   /* 3 * 2^-149 * 2; 3 * 2^-1074 * 2 */
   size_t one = 1;
   cl_int err;
   cl_command_queue q;
   cl_mem b = NULL;
   cl_kernel k = clCreateKernel(ctx->program, "dropout_ocl_probe", &err);
   if (err != CL_SUCCESS) return dropout_opencl__cl(ctx, err, "clCreateKernel(dropout_ocl_probe)");
   /* OpenCL 2.0 deprecated this call (a caller's CL_TARGET_OPENCL_VERSION above 120 warns
      of it); every 1.2 to 3.0 driver has it, and its 2.0 successor is missing on 1.2 ones */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#elif defined(_MSC_VER)
#pragma warning(push)
#pragma warning(disable: 4996)
#endif
   q = clCreateCommandQueue(ctx->context, ctx->device, 0, &err);
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#elif defined(_MSC_VER)
#pragma warning(pop)
#endif
   if (err == CL_SUCCESS) b = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof io, io, &err);
   if (err == CL_SUCCESS) err = clSetKernelArg(k, 0, sizeof b, &b);
   if (err == CL_SUCCESS) err = clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL);
   if (err == CL_SUCCESS) err = clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof io, io, 0, NULL, NULL);
   if (b) clReleaseMemObject(b);
   if (q) clReleaseCommandQueue(q);
   clReleaseKernel(k);
   if (err != CL_SUCCESS) return dropout_opencl__cl(ctx, err, "dropout_opencl_init's float check");
   if (ctx->fp32_exact && io[2] != 6u) { ctx->fp32_exact = 0; ctx->flushed |= 1; }
   if (ctx->fp64 && (io[7] != 6u || io[8] != 0u)) { ctx->fp64 = 0; ctx->flushed |= 2; }
   return DROPOUT_OK;
}

DROPOUT_OPENCLDEF int dropout_opencl_init(dropout_opencl *ctx, cl_context context, cl_device_id device, unsigned flags)
{
   cl_device_fp_config single = 0, dbl = 0, need = CL_FP_ROUND_TO_NEAREST | CL_FP_DENORM;
   cl_uint cus = 1;
   cl_int err;
   char ext[4096];
   const char *options;
   size_t lines, k;
   int rc;
   if (!ctx) return DROPOUT_ERR_OPENCL_CTX;
   memset(ctx, 0, sizeof *ctx);
   if (!context || !device) return dropout_opencl__fail(ctx, DROPOUT_ERR_NULL, "dropout_opencl_init: context or device is NULL");
   if (flags & ~(unsigned)(DROPOUT_OPENCL_WITHOUT_FP64 | DROPOUT_OPENCL_WITHOUT_DENORM)) {
      snprintf(ctx->message, sizeof ctx->message, "dropout_opencl_init: flags 0x%x has bits that are no "
               "DROPOUT_OPENCL_WITHOUT_* (pass 0)", flags);
      return DROPOUT_ERR_ARG;
   }
   {   /* the program is built for the context's devices: one outside it fails the build, "no log" */
      cl_device_id devs[64];
      size_t bytes = 0, i, found = 0;
      cl_int e = clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof devs, devs, &bytes);
      if (e == CL_SUCCESS) {
         for (i = 0; i < bytes / sizeof devs[0]; ++i) found |= devs[i] == device;
         if (!found) {
            char name[128] = "(unnamed)";
            clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
            snprintf(ctx->message, sizeof ctx->message, "dropout_opencl_init: device (%s) is not one of the context's devices", name);
            return DROPOUT_ERR_OPENCL_BASE + CL_INVALID_DEVICE;
         }
      }   /* (a context of more than 64 devices: left to the build) */
   }
   ctx->context = context;
   ctx->device = device;
   err = clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof ctx->device_name - 1, ctx->device_name, NULL);
   if (err != CL_SUCCESS) strcpy(ctx->device_name, "(unnamed)");
   {   /* OpenCL C 1.2 at least: 1.0 and 1.1 have no `static` functions (the header's building blocks) */
      char ver[64] = "";
      clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_VERSION, sizeof ver - 1, ver, NULL);
      if (!strncmp(ver, "OpenCL C 1.0", 12) || !strncmp(ver, "OpenCL C 1.1", 12)) {
         snprintf(ctx->message, sizeof ctx->message, "dropout_opencl_init: %s offers %s; the program needs OpenCL C 1.2", ctx->device_name, ver);
         return DROPOUT_ERR_OPENCL_BUILD;
      }
   }
   err = clGetDeviceInfo(device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof single, &single, NULL);
   if (err != CL_SUCCESS) return dropout_opencl__cl(ctx, err, "clGetDeviceInfo(CL_DEVICE_SINGLE_FP_CONFIG)");
   ext[0] = 0;
   err = clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL);
   ext[sizeof ext - 1] = 0;   /* a longer list fails the call: then fp64 is looked up by its config alone */
   if (clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof dbl, &dbl, NULL) != CL_SUCCESS) dbl = 0;
   if (err == CL_SUCCESS && !strstr(ext, "cl_khr_fp64")) dbl = 0;
   clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
   {
      cl_device_type type = 0;
      clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
      ctx->direct = (type & CL_DEVICE_TYPE_CPU) != 0;
   }
   ctx->fp32_exact = (single & need) == need && !(flags & DROPOUT_OPENCL_WITHOUT_DENORM);
   ctx->fp64 = (dbl & need) == need && !(flags & DROPOUT_OPENCL_WITHOUT_FP64);
   ctx->local_size = 64;
   /* 16 groups of 64 a compute unit leave a GPU's multiprocessor half occupied: on an H200
      64 a unit moved the contiguous forwards from 0.41-0.43 to 0.62-0.66 of the copy
      (bench/results/opencl-nvidia-h200.md); CPU devices keep the 16 they were measured with */
   ctx->max_groups = (ctx->direct ? 16u : 64u) * (cus ? cus : 1u);

   ctx->program = clCreateProgramWithSource(context, (cl_uint)(sizeof dropout_opencl__program / sizeof dropout_opencl__program[0]),
                                            (const char **)dropout_opencl_source(&lines), NULL, &err);
   if (err != CL_SUCCESS) return dropout_opencl__cl(ctx, err, "clCreateProgramWithSource");
   ctx->magic = DROPOUT_OPENCL__MAGIC;   /* from here on release() cleans up */
   ctx->self = ctx;
   options = ctx->fp64 ? "-DDROPOUT_OPENCL_FP64" : "";
   err = clBuildProgram(ctx->program, 1, &device, options, NULL, NULL);
   if (err != CL_SUCCESS) {
      size_t size = 0;
      char *log;
      clGetProgramBuildInfo(ctx->program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
      log = (char *)malloc(size + 1);
      if (log && clGetProgramBuildInfo(ctx->program, device, CL_PROGRAM_BUILD_LOG, size, log, NULL) == CL_SUCCESS) {
         log[size] = 0;
         snprintf(ctx->message, sizeof ctx->message, "clBuildProgram on %s: error %d; log: %s", ctx->device_name, (int)err, log);
      } else {
         snprintf(ctx->message, sizeof ctx->message, "clBuildProgram on %s: error %d (no log)", ctx->device_name, (int)err);
      }
      free(log);
      dropout_opencl_release(ctx);
      return DROPOUT_ERR_OPENCL_BUILD;
   }
   for (k = 0; k < DROPOUT_OPENCL__KERNELS; ++k) {
      if (!ctx->fp64 && k < (size_t)DROPOUT_OPENCL__FILL && dropout_opencl__needs_fp64[k % (size_t)DROPOUT_OPENCL__DTYPES]) continue;
      ctx->kernel[k] = clCreateKernel(ctx->program, dropout_opencl__kernel_names[k], &err);
      if (err != CL_SUCCESS) {
         rc = dropout_opencl__cl(ctx, err, dropout_opencl__kernel_names[k]);
         dropout_opencl_release(ctx);
         return rc;
      }
   }
   rc = dropout_opencl__probe(ctx);
   if (rc) {
      dropout_opencl_release(ctx);
      return rc;
   }
   return dropout_opencl_set_launch(ctx, 64, 0);
}

DROPOUT_OPENCLDEF int dropout_opencl_set_launch(dropout_opencl *ctx, size_t local_size, size_t max_groups)
{
   size_t limit = 0, k_limit;
   int k;
   if (!dropout_opencl__ctx_ok(ctx)) return DROPOUT_ERR_OPENCL_CTX;
   if (local_size) {
      limit = local_size;
      for (k = 0; k < DROPOUT_OPENCL__KERNELS; ++k) {
         if (!ctx->kernel[k]) continue;
         if (clGetKernelWorkGroupInfo(ctx->kernel[k], ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof k_limit, &k_limit, NULL) == CL_SUCCESS &&
             k_limit < limit) limit = k_limit;
      }
      if (limit < local_size && local_size != 64)
         return dropout_opencl__fail(ctx, DROPOUT_ERR_ARG, "dropout_opencl_set_launch: local_size is past the kernels' CL_KERNEL_WORK_GROUP_SIZE");
      ctx->local_size = limit ? limit : 1;
   }
   if (max_groups) ctx->max_groups = max_groups;
   return DROPOUT_OK;
}

DROPOUT_OPENCLDEF int dropout_opencl_set_direct(dropout_opencl *ctx, int direct)
{
   cl_device_type type = 0;
   if (!dropout_opencl__ctx_ok(ctx)) return DROPOUT_ERR_OPENCL_CTX;
   if (direct < 0) {
      clGetDeviceInfo(ctx->device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
      direct = (type & CL_DEVICE_TYPE_CPU) != 0;
   }
   ctx->direct = direct != 0;
   return DROPOUT_OK;
}

/* ---- one launch ----------------------------------------------------------------------- */

typedef struct dropout_opencl__call {
   int kop, dtype, acc;
   dropout_rule rule;
   uint64_t seed, stream, pos;
   uint64_t n;                       /* unit path: elements (MASK: positions) */
   uint64_t bias_len;
   int rank;                         /* element path */
   cl_ulong dims[8], ms[8];
   cl_long sy[8], sx[8], sr[8];
   dropout_alpha_rule alpha;
   float sigma;
   int copy;
   cl_mem y, mo, x, mi, bias, res;
   cl_ulong y_off, mo_off, x_off, mi_off, b_off, r_off;
} dropout_opencl__call;

static cl_ulong dropout_opencl__f64_bits(double v)
{
   cl_ulong u;
   memcpy(&u, &v, sizeof u);
   return u;
}

#define DROPOUT_OPENCL__ARG(i, v) do { err = clSetKernelArg(k, (cl_uint)(i), sizeof(v), &(v)); \
   if (err != CL_SUCCESS) return dropout_opencl__cl(ctx, err, "clSetKernelArg"); } while (0)

static size_t dropout_opencl__groups(const dropout_opencl *ctx, uint64_t items)
{
   uint64_t g = (items + ctx->local_size - 1u) / ctx->local_size;
   if (g > ctx->max_groups) g = ctx->max_groups;
   return (size_t)(g ? g : 1u);
}

/* A launch in two halves: its kernel's arguments set (every launch of a call before any is
   enqueued, so that an argument a driver refuses fails the call with nothing written: a
   mask launch enqueued, then the element launch's argument refused, wrote the mask), then
   the enqueue. */
typedef struct dropout_opencl__launch { cl_kernel k; size_t global, local; const char *what; } dropout_opencl__launch;

static int dropout_opencl__enqueue(dropout_opencl *ctx, const dropout_opencl__launch *l, cl_command_queue q)
{
   cl_int err = clEnqueueNDRangeKernel(q, l->k, 1, NULL, &l->global, &l->local, 0, NULL, NULL);
   return dropout_opencl__cl(ctx, err, l->what);
}

static int dropout_opencl__args_unit(dropout_opencl *ctx, const dropout_opencl__call *c, dropout_opencl__launch *l)
{
   cl_kernel k = ctx->kernel[(ctx->direct ? DROPOUT_OPENCL__DIRECT : DROPOUT_OPENCL__UNIT) + c->dtype - 1];
   cl_ulong n = c->n, bl = c->bias_len ? c->bias_len : 1u, seed = c->seed, stream = c->stream, pos = c->pos;
   cl_ulong thr = c->rule.threshold, s64 = dropout_opencl__f64_bits(c->rule.scale_f64);
   cl_uint bits = (cl_uint)c->rule.bits;
   cl_float s32 = c->rule.scale_f32;
   cl_int op = c->kop, acc = c->acc, err;
   size_t local = ctx->local_size, global = local * dropout_opencl__groups(ctx, (n + 31u) / 32u);
   DROPOUT_OPENCL__ARG(0, c->y);   DROPOUT_OPENCL__ARG(1, c->y_off);
   DROPOUT_OPENCL__ARG(2, c->mo);  DROPOUT_OPENCL__ARG(3, c->mo_off);
   DROPOUT_OPENCL__ARG(4, c->x);   DROPOUT_OPENCL__ARG(5, c->x_off);
   DROPOUT_OPENCL__ARG(6, c->mi);  DROPOUT_OPENCL__ARG(7, c->mi_off);
   DROPOUT_OPENCL__ARG(8, c->bias); DROPOUT_OPENCL__ARG(9, c->b_off);
   DROPOUT_OPENCL__ARG(10, c->res); DROPOUT_OPENCL__ARG(11, c->r_off);
   DROPOUT_OPENCL__ARG(12, n); DROPOUT_OPENCL__ARG(13, bl);
   DROPOUT_OPENCL__ARG(14, seed); DROPOUT_OPENCL__ARG(15, stream); DROPOUT_OPENCL__ARG(16, pos);
   DROPOUT_OPENCL__ARG(17, thr); DROPOUT_OPENCL__ARG(18, bits); DROPOUT_OPENCL__ARG(19, s32);
   DROPOUT_OPENCL__ARG(20, s64); DROPOUT_OPENCL__ARG(21, op); DROPOUT_OPENCL__ARG(22, acc);
   err = clSetKernelArg(k, 23, local * sizeof(cl_uint), NULL);
   if (err != CL_SUCCESS) return dropout_opencl__cl(ctx, err, "clSetKernelArg(local keep bits)");
   l->k = k; l->global = global; l->local = local; l->what = "clEnqueueNDRangeKernel(unit)";
   return DROPOUT_OK;
}

static int dropout_opencl__args_elem(dropout_opencl *ctx, const dropout_opencl__call *c, dropout_opencl__launch *l)
{
   cl_kernel k = ctx->kernel[DROPOUT_OPENCL__ELEM + c->dtype - 1];
   cl_ulong n = c->n, seed = c->seed, stream = c->stream, pos = c->pos;
   cl_ulong thr = c->rule.threshold, s64 = dropout_opencl__f64_bits(c->rule.scale_f64);
   cl_ulong a64 = dropout_opencl__f64_bits(c->alpha.a), c64 = dropout_opencl__f64_bits(c->alpha.c);
   cl_ulong d64 = dropout_opencl__f64_bits(c->alpha.drop);
   cl_uint bits = (cl_uint)c->rule.bits;
   cl_float s32 = c->rule.scale_f32, a32 = c->alpha.a_f32, c32 = c->alpha.c_f32, d32 = c->alpha.drop_f32, sigma = c->sigma;
   cl_int op = c->kop, acc = c->acc, rank = c->rank, copy = c->copy, err;
   cl_ulong8 dims, ms;
   cl_long8 sy, sx, sr;
   size_t local = ctx->local_size, global = local * dropout_opencl__groups(ctx, n);
   memcpy(dims.s, c->dims, sizeof dims.s); memcpy(ms.s, c->ms, sizeof ms.s);
   memcpy(sy.s, c->sy, sizeof sy.s); memcpy(sx.s, c->sx, sizeof sx.s); memcpy(sr.s, c->sr, sizeof sr.s);
   DROPOUT_OPENCL__ARG(0, c->y);   DROPOUT_OPENCL__ARG(1, c->y_off);
   DROPOUT_OPENCL__ARG(2, c->x);   DROPOUT_OPENCL__ARG(3, c->x_off);
   DROPOUT_OPENCL__ARG(4, c->mi);  DROPOUT_OPENCL__ARG(5, c->mi_off);
   DROPOUT_OPENCL__ARG(6, c->bias); DROPOUT_OPENCL__ARG(7, c->b_off);
   DROPOUT_OPENCL__ARG(8, c->res); DROPOUT_OPENCL__ARG(9, c->r_off);
   DROPOUT_OPENCL__ARG(10, n); DROPOUT_OPENCL__ARG(11, rank); DROPOUT_OPENCL__ARG(12, dims);
   DROPOUT_OPENCL__ARG(13, sy); DROPOUT_OPENCL__ARG(14, sx); DROPOUT_OPENCL__ARG(15, sr); DROPOUT_OPENCL__ARG(16, ms);
   DROPOUT_OPENCL__ARG(17, seed); DROPOUT_OPENCL__ARG(18, stream); DROPOUT_OPENCL__ARG(19, pos);
   DROPOUT_OPENCL__ARG(20, thr); DROPOUT_OPENCL__ARG(21, bits); DROPOUT_OPENCL__ARG(22, s32); DROPOUT_OPENCL__ARG(23, s64);
   DROPOUT_OPENCL__ARG(24, op); DROPOUT_OPENCL__ARG(25, acc);
   DROPOUT_OPENCL__ARG(26, a32); DROPOUT_OPENCL__ARG(27, c32); DROPOUT_OPENCL__ARG(28, d32);
   DROPOUT_OPENCL__ARG(29, a64); DROPOUT_OPENCL__ARG(30, c64); DROPOUT_OPENCL__ARG(31, d64);
   DROPOUT_OPENCL__ARG(32, sigma); DROPOUT_OPENCL__ARG(33, copy);
   l->k = k; l->global = global; l->local = local; l->what = "clEnqueueNDRangeKernel(elem)";
   return DROPOUT_OK;
}

/* ---- checks ------------------------------------------------------------------------- */

/* a live ctx at the address init made it at: a copy shares the original's program and
   kernels, which the original's release frees (a run on the copy then set arguments on
   released kernels: a crash), so a copy is refused and its message says so */
static int dropout_opencl__ctx_ok(dropout_opencl *ctx)
{
   if (!ctx || ctx->magic != DROPOUT_OPENCL__MAGIC) return 0;
   if (ctx->self == ctx) return 1;
   snprintf(ctx->message, sizeof ctx->message, "dropout_opencl: ctx is a copy of a dropout_opencl (made at another address); "
            "its kernels are the original's, which dropout_opencl_release frees: use the original, or init one where it stays");
   return 0;
}

/* buffer b must hold bytes [off + lo, off + hi) (hi > lo; lo may be negative for negative
   strides), belong to ctx's context and, where the call writes it (DROPOUT_OPENCL__WRITES: the
   output, a mask written), not be read-only, and where it reads it (_READS: the inputs, a
   stored mask, an accumulated output), not be write-only (a kernel reading a
   CL_MEM_WRITE_ONLY buffer is undefined): checked before anything is enqueued, so that no
   launch of the call fails after another has written */
enum { DROPOUT_OPENCL__WRITES = 1, DROPOUT_OPENCL__READS = 2 };   /* what a call does with a buffer */
static int dropout_opencl__fits(dropout_opencl *ctx, cl_mem b, size_t off, int64_t lo, uint64_t hi, const char *name,
                                int access)
{
   size_t size = 0;
   cl_context where = NULL;
   cl_mem_flags flags = 0;
   cl_mem_object_type type = CL_MEM_OBJECT_BUFFER;
   cl_int err = clGetMemObjectInfo(b, CL_MEM_TYPE, sizeof type, &type, NULL);
   if (err == CL_SUCCESS && type != CL_MEM_OBJECT_BUFFER) {   /* an image: the kernels take buffers */
      snprintf(ctx->message, sizeof ctx->message, "dropout_opencl: `%s` is an image, not a buffer", name);
      return DROPOUT_ERR_OPENCL_BASE + CL_INVALID_MEM_OBJECT;
   }
   err = clGetMemObjectInfo(b, CL_MEM_CONTEXT, sizeof where, &where, NULL);
   if (err == CL_SUCCESS && where != ctx->context) {
      snprintf(ctx->message, sizeof ctx->message, "dropout_opencl: buffer `%s` belongs to another OpenCL context than ctx's", name);
      return DROPOUT_ERR_OPENCL_BASE + CL_INVALID_CONTEXT;
   }
   err = clGetMemObjectInfo(b, CL_MEM_FLAGS, sizeof flags, &flags, NULL);
   if (err == CL_SUCCESS && (access & DROPOUT_OPENCL__READS) && (flags & CL_MEM_WRITE_ONLY)) {
      snprintf(ctx->message, sizeof ctx->message, "dropout_opencl: buffer `%s` is read by the call but was made CL_MEM_WRITE_ONLY", name);
      return DROPOUT_ERR_OPENCL_BASE + CL_INVALID_MEM_OBJECT;
   }
   if (err == CL_SUCCESS && (access & DROPOUT_OPENCL__WRITES) && (flags & CL_MEM_READ_ONLY)) {
      snprintf(ctx->message, sizeof ctx->message, "dropout_opencl: buffer `%s` is written by the call but was made CL_MEM_READ_ONLY", name);
      return DROPOUT_ERR_OPENCL_BASE + CL_INVALID_MEM_OBJECT;
   }
   err = clGetMemObjectInfo(b, CL_MEM_SIZE, sizeof size, &size, NULL);
   if (err != CL_SUCCESS) {
      dropout_opencl__cl(ctx, err, "clGetMemObjectInfo(CL_MEM_SIZE)");
      snprintf(ctx->message + strlen(ctx->message), sizeof ctx->message - strlen(ctx->message), " (buffer `%s`)", name);
      return DROPOUT_ERR_OPENCL_BASE + (int)err;
   }
   if ((lo < 0 && (uint64_t)-lo > off) || off > size || hi > size - off) {
      snprintf(ctx->message, sizeof ctx->message,
               "dropout_opencl: buffer `%s` has %lu bytes; the call touches bytes %lld .. %llu past its offset %lu",
               name, (unsigned long)size, (long long)lo, (unsigned long long)hi, (unsigned long)off);
      return DROPOUT_ERR_OPENCL_BOUNDS;
   }
   return DROPOUT_OK;
}

/* the buffer m is carved from and m's offset in it: a sub-buffer (clCreateSubBuffer, one
   level deep) aliases its parent's bytes */
static cl_mem dropout_opencl__root(cl_mem m, size_t *off)
{
   cl_mem parent = NULL;
   size_t at = 0;
   if (m && clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL) == CL_SUCCESS && parent &&
       clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof at, &at, NULL) == CL_SUCCESS) {
      *off += at;
      return parent;
   }
   return m;
}

/* a fake host address for each distinct buffer (sub-buffers at their offset in their
   parent), so that dropout.h's own checks (NULL, overlap, in-place) see the same relations
   as the buffers' bytes have: one cl_mem in place, or parts of one buffer apart. (Two
   cl_mem objects over shared memory, one written, never get here: dropout_opencl__aliases
   refuses them.) On a 64-bit host buffer k's addresses start at k * 2^57; a 32-bit host
   has no such room: there the distinct buffers lie end to end from 4 KiB up, each over its
   whole CL_MEM_SIZE, so that no two share an address whatever their sizes (fixed slots 2^28
   bytes apart had made a buffer past 256 MiB run into the next one's: two buffers refused
   as overlapping). */
/* the host memory under a root buffer made with CL_MEM_USE_HOST_PTR, else NULL */
static char *dropout_opencl__host_ptr(cl_mem root)
{
   cl_mem_flags flags = 0;
   void *host = NULL;
   if (clGetMemObjectInfo(root, CL_MEM_FLAGS, sizeof flags, &flags, NULL) != CL_SUCCESS || !(flags & CL_MEM_USE_HOST_PTR) ||
       clGetMemObjectInfo(root, CL_MEM_HOST_PTR, sizeof host, &host, NULL) != CL_SUCCESS)
      return NULL;
   return (char *)host;
}

static size_t dropout_opencl__root_size(cl_mem root)
{
   size_t size = 0;
   return clGetMemObjectInfo(root, CL_MEM_SIZE, sizeof size, &size, NULL) == CL_SUCCESS ? size : 0;
}

/* The 32-bit host's layout (above), made once a run: the distinct buffers of t (each at
   most once, at its first) and where each starts */
typedef struct dropout_opencl__fake32 { cl_mem root[5]; uintptr_t base[5]; } dropout_opencl__fake32;

/* 0 when t's buffers do not fit below 4 GiB */
static int dropout_opencl__layout32(const dropout_opencl_tensors *t, dropout_opencl__fake32 *f)
{
   const cl_mem all[5] = { t->out, t->mask, t->in, t->bias, t->residual };
   uint64_t at = 4096u;
   size_t unused = 0;
   int i, k;
   for (i = 0; i < 5; ++i) {
      f->root[i] = all[i] ? dropout_opencl__root(all[i], &unused) : NULL;
      f->base[i] = (uintptr_t)at;
      for (k = 0; k < i; ++k) if (f->root[k] == f->root[i]) f->root[i] = NULL;
      if (f->root[i]) at += dropout_opencl__root_size(f->root[i]) + 64u;
   }
   return at <= (uint64_t)(uintptr_t)-1;
}

/* m's made-up address at off; f: the 32-bit host's layout (not read on a 64-bit one) */
static void *dropout_opencl__addr(const dropout_opencl_tensors *t, cl_mem m, size_t off, const dropout_opencl__fake32 *f)
{
   const cl_mem all[5] = { t->out, t->mask, t->in, t->bias, t->residual };
   uintptr_t slot = 0;
   size_t unused = 0;
   cl_mem root;
   int i;
   if (!m) return NULL;
   root = dropout_opencl__root(m, &off);
   if (sizeof(void *) < 8) {
      for (i = 0; i < 5; ++i) if (f->root[i] == root) return (void *)(f->base[i] + off);
      return NULL;
   }
   for (i = 0; i < 5; ++i) if (dropout_opencl__root(all[i], &unused) == root) { slot = (uintptr_t)i + 1u; break; }
   return (void *)(slot * ((uintptr_t)1 << (sizeof(void *) >= 8 ? 57 : 0)) + off);   /* (a 32-bit build compiles it too) */
}

/* Two cl_mem objects over shared memory, one of them written by the call. OpenCL leaves
   reading or writing a buffer and one of its sub-buffers in one command undefined, and the
   same for two sub-buffers of one buffer that overlap (clCreateSubBuffer: only reading both
   is defined); and commands on two buffers made over overlapping host memory
   (CL_MEM_USE_HOST_PTR, clCreateBuffer). A driver that keeps a device copy per cl_mem runs
   such a call on two copies: the output right in one and stale in the other, which a
   shared-memory driver (PoCL) never shows. So the call is refused whatever bytes it
   touches, in place included: in place is one cl_mem as `in` and `out`. Reads alone (an
   input and a residual over one buffer) and sub-buffers apart from each other pass. */
static int dropout_opencl__shared(cl_mem a, cl_mem b, const char **why)
{
   size_t oa = 0, ob = 0, sa, sb;
   cl_mem ra = dropout_opencl__root(a, &oa), rb = dropout_opencl__root(b, &ob);
   char *ha, *hb;
   sa = dropout_opencl__root_size(a);
   sb = dropout_opencl__root_size(b);
   if (ra == rb) {
      if (a == ra || b == rb) { *why = "a buffer and its sub-buffer"; return 1; }
      if (oa < ob + sb && ob < oa + sa) { *why = "two overlapping sub-buffers of one buffer"; return 1; }
      return 0;
   }
   ha = dropout_opencl__host_ptr(ra);
   hb = dropout_opencl__host_ptr(rb);
   if (ha && hb && ha + oa < hb + ob + sb && hb + ob < ha + oa + sa) {
      *why = "two buffers over overlapping host memory (CL_MEM_USE_HOST_PTR)";
      return 1;
   }
   return 0;
}

/* dropout_opencl_tensors' buffers by name, in the order of the checks' arrays below */
static const char *const dropout_opencl__names[5] = { "out", "mask", "in", "bias", "residual" };

/* mask_written: the op writes the mask (the op list's MOUT); a stored mask (APPLY_MASK's) is
   read alone, and may share memory with the other inputs as they may with each other */
static int dropout_opencl__aliases(dropout_opencl *ctx, const dropout_opencl_tensors *t, int mask_written)
{
   const cl_mem all[5] = { t->out, t->mask, t->in, t->bias, t->residual };
   const char *const *names = dropout_opencl__names;
   const char *why = "";
   int i, k;
   for (i = 0; i < 2; ++i)   /* the buffers a call may write, against every other operand */
      for (k = i + 1; k < 5; ++k)
         if ((i == 0 || mask_written) && all[i] && all[k] && all[i] != all[k] && dropout_opencl__shared(all[i], all[k], &why)) {
            snprintf(ctx->message, sizeof ctx->message, "dropout_opencl_run: `%s` and `%s` are %s: OpenCL leaves a "
                     "command that writes one and reads or writes the other undefined (in place: pass one cl_mem "
                     "as both)", names[i], names[k], why);
            return DROPOUT_ERR_OVERLAP;
         }
   return DROPOUT_OK;
}

/* an offset past its buffer's end (a negative one stored in a size_t, say) is out of bounds
   whatever the call touches: refused before the made-up addresses (dropout_opencl__addr),
   where it would wrap into another buffer's or to NULL and draw other codes */
static int dropout_opencl__offsets(dropout_opencl *ctx, const dropout_opencl_tensors *t)
{
   const cl_mem all[5] = { t->out, t->mask, t->in, t->bias, t->residual };
   const size_t offs[5] = { t->out_offset, t->mask_offset, t->in_offset, t->bias_offset, t->residual_offset };
   size_t size;
   int i;
   for (i = 0; i < 5; ++i)
      if (all[i] && clGetMemObjectInfo(all[i], CL_MEM_SIZE, sizeof size, &size, NULL) == CL_SUCCESS && offs[i] > size) {
         snprintf(ctx->message, sizeof ctx->message, "dropout_opencl: buffer `%s` has %lu bytes; its offset %lu is past its end",
                  dropout_opencl__names[i], (unsigned long)size, (unsigned long)offs[i]);
         return DROPOUT_ERR_OPENCL_BOUNDS;
      }
   return DROPOUT_OK;
}

/* The kernels' op of each dropout_op, and whether it needs fp64 here: the op list's CL
   and CLF64 columns. */
static int dropout_opencl__kop(dropout_op op)
{
   unsigned v = op;   /* any value: the enum's private member is no op (-Wswitch-enum) */
   switch (v) {
#define DROPOUT_OPENCL__OP(N, V, S, IN, MOUT, MIN, GRAD, STEP, C, F64, CU, CL) case DROPOUT_OP_##N: return DROPOUT_OPENCL__##CL;
   DROPOUT__OPS(DROPOUT_OPENCL__OP)
#undef DROPOUT_OPENCL__OP
   default: return -1;
   }
}

static int dropout_opencl__op_fp64(dropout_op op)
{
   unsigned v = op;
   switch (v) {
#define DROPOUT_OPENCL__OP(N, V, S, IN, MOUT, MIN, GRAD, STEP, C, F64, CU, CL) case DROPOUT_OP_##N: return F64;
   DROPOUT__OPS(DROPOUT_OPENCL__OP)
#undef DROPOUT_OPENCL__OP
   default: return 0;
   }
}

/* dropout.h lowers the descriptor (every check, the reduced geometry); this maps the job
   to the launches: the unit kernel for one contiguous run of a plain or fused op, else
   the mask kernel (when a mask is written) and the element kernel. */
/* q must be a queue of ctx's context and of ctx's device: the program is built for that
   device alone (a queue of another device of the context passed every check, and PoCL
   aborted the process at the enqueue) */
static int dropout_opencl__queue_ok(dropout_opencl *ctx, cl_command_queue q, const char *who)
{
   cl_context c = NULL;
   cl_device_id dev = NULL;
   if (clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof c, &c, NULL) == CL_SUCCESS && c != ctx->context) {
      snprintf(ctx->message, sizeof ctx->message, "%s: the queue belongs to another OpenCL context than ctx's", who);
      return DROPOUT_ERR_OPENCL_BASE + CL_INVALID_CONTEXT;
   }
   if (clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL) == CL_SUCCESS && dev != ctx->device) {
      cl_device_id up = dev;
      int k, sub = 0;   /* a sub-device of ctx's device (clCreateSubDevices) runs its program too */
      for (k = 0; k < 8 && up && !sub; ++k) {
         cl_device_id parent = NULL;
         if (clGetDeviceInfo(up, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL) != CL_SUCCESS) parent = NULL;
         up = parent;
         sub = up == ctx->device;
      }
      if (sub) return DROPOUT_OK;
      snprintf(ctx->message, sizeof ctx->message, "%s: the queue is another device's than ctx's (%s): the program is built for that one",
               who, ctx->device_name);
      return DROPOUT_ERR_OPENCL_BASE + CL_INVALID_DEVICE;
   }
   return DROPOUT_OK;
}

static int dropout_opencl__run(dropout_opencl *ctx, const dropout_desc *d, const dropout_opencl_tensors *t, cl_command_queue q)
{
   dropout_tensors ht;
   dropout_opencl__fake32 fake32;
   dropout_opencl__call c;
   dropout_opencl__launch mask_launch, op_launch;
   dropout_job j;
   uint64_t es;
   int rc, dd, unit, has_mask = 0, has_op = 0;
   if (!dropout_opencl__ctx_ok(ctx)) return DROPOUT_ERR_OPENCL_CTX;
   ctx->message[0] = 0;
   /* the CPU's codes for d and t; the queue, which has none of its own, the generic one */
   if (!d) return dropout_opencl__fail(ctx, DROPOUT_ERR_NULL_DESC, "dropout_opencl_run: d (the descriptor) is NULL");
   if (!t) return dropout_opencl__fail(ctx, DROPOUT_ERR_NULL_TENSORS, "dropout_opencl_run: t (the tensors) is NULL");
   if (!q) return dropout_opencl__fail(ctx, DROPOUT_ERR_NULL, "dropout_opencl_run: the queue is NULL");
   rc = dropout_opencl__queue_ok(ctx, q, "dropout_opencl_run");
   if (rc) return rc;
   memset(&fake32, 0, sizeof fake32);
   rc = dropout_opencl__aliases(ctx, t, dropout__op_of(d->dropout__op).mask_out);
   if (rc) return rc;
   rc = dropout_opencl__offsets(ctx, t);
   if (rc) return rc;
   if (sizeof(void *) < 8) {
      if (!dropout_opencl__layout32(t, &fake32))
         return dropout_opencl__fail(ctx, DROPOUT_ERR_OPENCL_BOUNDS, "dropout_opencl_run: on a 32-bit host the call's distinct "
                                     "buffers may hold 4 GiB less 4 KiB in all (their CL_MEM_SIZE); these hold more");
   }
   ht.out = dropout_opencl__addr(t, t->out, t->out_offset, &fake32);
   ht.mask = (uint8_t *)dropout_opencl__addr(t, t->mask, t->mask_offset, &fake32);
   ht.in = dropout_opencl__addr(t, t->in, t->in_offset, &fake32);
   ht.bias = dropout_opencl__addr(t, t->bias, t->bias_offset, &fake32);
   ht.residual = dropout_opencl__addr(t, t->residual, t->residual_offset, &fake32);
   rc = dropout__lower(d, &ht, &j, 0, 1);   /* whether the plan may draw: after this file's checks; the mask's size: below */
   if (rc) {
      snprintf(ctx->message, sizeof ctx->message, "%s", dropout_strerror(rc));
      return rc;
   }
   if (j.dev_seed || j.dev_pos)
      return dropout_opencl__fail(ctx, DROPOUT_ERR_DEVICE_COORDS, "dropout_opencl_run: the descriptor has device coordinates "
                                  "(dropout_desc_set_device_coords is for CUDA graphs); pass the seed and position in the plan");
   es = j.elem_size;

   memset(&c, 0, sizeof c);
   c.dtype = (int)j.dtype;
   c.rule = j.rule;
   c.seed = j.seed; c.stream = j.stream; c.pos = j.pos;
   c.acc = j.accumulate;

   /* the float configuration this op needs */
   if (j.op_class != DROPOUT_CLASS_MASK) {
      int dtype_fp64 = dropout_opencl__needs_fp64[j.dtype - 1];   /* the dtype list's K column */
      if (dtype_fp64 || dropout_opencl__op_fp64(j.op)) {
         if (!ctx->fp64) {
            snprintf(ctx->message, sizeof ctx->message, "dropout_opencl_run: %s (%s) on %s needs cl_khr_fp64 with CL_FP_ROUND_TO_NEAREST and CL_FP_DENORM%s",
                     dropout_op_name(j.op), dtype_fp64 ? "its dtype is computed in double" : "its normals are computed in double", ctx->device_name,
                     (ctx->flushed & 2) ? " (the device has them, but the program as built flushed a subnormal double: a build option of the driver's own?)" : "");
            return DROPOUT_ERR_OPENCL_FP64;
         }
      }
      if (!ctx->fp32_exact && !dtype_fp64) {
         snprintf(ctx->message, sizeof ctx->message, "dropout_opencl_run: %s%s; "
                  "its float results could differ from the CPU's, so the op is refused", ctx->device_name,
                  (ctx->flushed & 1) ? ": the program as built flushed a subnormal float, though the device reports CL_FP_DENORM "
                                       "(a build option of the driver's own, such as POCL_EXTRA_BUILD_FLAGS=-cl-denorms-are-zero?)"
                                     : "'s CL_DEVICE_SINGLE_FP_CONFIG lacks CL_FP_ROUND_TO_NEAREST or CL_FP_DENORM");
         return DROPOUT_ERR_OPENCL_FP;
      }
   }

   /* the job's reduced geometry; the element kernel takes the bias element from the
      innermost index, which is the bias's own dim unless that dim has one element
      (dropped by the lowering): then an innermost dim of 1 keeps the index 0 */
   c.rank = j.rank;
   for (dd = 0; dd < DROPOUT_MAX_RANK; ++dd) {
      c.dims[dd] = j.dim[dd]; c.ms[dd] = j.mask_stride[dd];
      c.sy[dd] = j.stride[DROPOUT_OPERAND_OUT][dd]; c.sx[dd] = j.stride[DROPOUT_OPERAND_IN][dd];
      c.sr[dd] = j.stride[DROPOUT_OPERAND_RESIDUAL][dd];
   }
   if (j.op_class == DROPOUT_CLASS_FUSED && j.bias_len == 1 && j.dim[j.rank - 1] != 1) {
      c.dims[c.rank] = 1; c.ms[c.rank] = 0; c.sy[c.rank] = c.sx[c.rank] = c.sr[c.rank] = 0;
      ++c.rank;   /* < DROPOUT_MAX_RANK: the dropped dim left room */
   }

   /* buffer checks: offsets and sizes (the reduced strides reach exactly as far as the
      descriptor's) */
   if (j.numel > 0) {
      const cl_mem bufs[3] = { t->out, t->in, t->residual };
      const size_t offs[3] = { t->out_offset, t->in_offset, t->residual_offset };
      static const char *const names[3] = { "out", "in", "residual" };
      int w;
      for (w = 0; w < 3; ++w) {
         int64_t lo = 0;
         uint64_t hi = 0;
         if (!bufs[w]) continue;
         if (offs[w] % es) {
            snprintf(ctx->message, sizeof ctx->message, "dropout_opencl_run: the offset of `%s` (%lu bytes) is not a multiple of the element size (%u)",
                     names[w], (unsigned long)offs[w], (unsigned)es);
            return DROPOUT_ERR_OPENCL_OFFSET;
         }
         for (dd = 0; dd < j.rank; ++dd) {
            int64_t st = (int64_t)j.stride[w][dd];
            if (st < 0) lo += st * (int64_t)(j.dim[dd] - 1u); else hi += (uint64_t)st * (j.dim[dd] - 1u);
         }
         rc = dropout_opencl__fits(ctx, bufs[w], offs[w], lo * (int64_t)es, (hi + 1u) * es, names[w], 
                                   w == 0 ? DROPOUT_OPENCL__WRITES | (j.accumulate ? DROPOUT_OPENCL__READS : 0) : DROPOUT_OPENCL__READS);
         if (rc) return rc;
      }
      if (t->bias) {
         if (t->bias_offset % es) return dropout_opencl__fail(ctx, DROPOUT_ERR_OPENCL_OFFSET, "dropout_opencl_run: the offset of `bias` is not a multiple of the element size");
         rc = dropout_opencl__fits(ctx, t->bias, t->bias_offset, 0, (uint64_t)j.bias_len * es, "bias", DROPOUT_OPENCL__READS);
         if (rc) return rc;
      }
   }
   if (t->mask && j.positions > 0) {
      rc = dropout_opencl__fits(ctx, t->mask, t->mask_offset, 0, j.positions / 8u + (j.positions % 8u != 0), "mask",
                                j.mask_out ? DROPOUT_OPENCL__WRITES : DROPOUT_OPENCL__READS);   /* (+ 7 wraps near 2^64); a stored mask (apply_mask) is only read */
      if (rc) return rc;
   }

   rc = dropout__desc_may_draw(d);   /* the last check, as dropout_run makes it */
   if (rc) {
      snprintf(ctx->message, sizeof ctx->message, "dropout_opencl_run: %s", dropout_strerror(rc));
      return rc;
   }

   c.y = t->out; c.y_off = t->out_offset;
   c.x = t->in; c.x_off = t->in_offset;
   c.bias = t->bias; c.b_off = t->bias_offset;
   c.res = t->residual; c.r_off = t->residual_offset;
   c.bias_len = j.bias_len;
   if (j.mask_in) { c.mi = t->mask; c.mi_off = t->mask_offset; }
   unit = j.contiguous && (j.op_class == DROPOUT_CLASS_PLAIN || j.op_class == DROPOUT_CLASS_FUSED);

   /* mask: the mask alone (over the positions), the op itself or the mask of a run that
      takes the element path; then the op's own launch. Both set up, then both enqueued. */
   if ((j.op_class == DROPOUT_CLASS_MASK || (j.mask_out && !unit)) && j.positions > 0) {
      dropout_opencl__call m = c;
      m.kop = DROPOUT_OPENCL__MASK;
      m.dtype = DROPOUT_DTYPE_F16;   /* no float in the mask: any kernel, always built */
      m.n = j.positions;
      m.mo = t->mask; m.mo_off = t->mask_offset;
      m.y = m.x = m.mi = m.bias = m.res = NULL;
      rc = dropout_opencl__args_unit(ctx, &m, &mask_launch);
      if (rc) return rc;
      has_mask = 1;
   }
   if (j.op_class != DROPOUT_CLASS_MASK && j.numel > 0) {
      c.kop = dropout_opencl__kop(j.op);
      c.n = j.numel;
      if (unit) {
         if (j.mask_out) { c.mo = t->mask; c.mo_off = t->mask_offset; }
         rc = dropout_opencl__args_unit(ctx, &c, &op_launch);
      } else {
         c.alpha = j.alpha;
         c.sigma = j.sigma; c.copy = j.copy;
         rc = dropout_opencl__args_elem(ctx, &c, &op_launch);
      }
      if (rc) return rc;
      has_op = 1;
   }
   rc = has_mask ? dropout_opencl__enqueue(ctx, &mask_launch, q) : DROPOUT_OK;
   if (!rc && has_op) rc = dropout_opencl__enqueue(ctx, &op_launch, q);
   return rc;
}

DROPOUT_OPENCLDEF int dropout_opencl_run(dropout_opencl *ctx, dropout_desc *d, const dropout_opencl_tensors *t, cl_command_queue q)
{
   int rc = dropout_opencl__run(ctx, d, t, q);
   if (rc == DROPOUT_OK) (void)dropout_desc_ran(d);   /* enqueued: a step's mask is drawn (as dropout_run) */
   return rc;
}

/* ---- the raw stream --------------------------------------------------------------------- */

static int dropout_opencl__fill(dropout_opencl *ctx, int kind, dropout_key key, dropout_pos first, cl_mem out,
                                size_t out_offset, size_t n, cl_command_queue q)
{
   cl_kernel k;
   cl_ulong off = out_offset, nn = n, seed = key.seed, stream = key.stream, f = first.index, blocks;
   cl_int kd = kind, err;
   size_t es = kind == 2 ? 8u : 4u, local, global;
   int rc;
   if (!dropout_opencl__ctx_ok(ctx)) return DROPOUT_ERR_OPENCL_CTX;
   ctx->message[0] = 0;
   if (n == 0) return DROPOUT_OK;
   /* dropout.h's fills check the count first, then the output, then the range: the same
      order, so that one bad call gets one code on every backend */
   if (n > (size_t)PTRDIFF_MAX / es)   /* (n bytes would wrap the bounds check below) */
      return dropout_opencl__fail(ctx, DROPOUT_ERR_SIZE, "dropout_opencl_fill: n: more elements than any buffer holds (a negative int?)");
   if (!out) return dropout_opencl__fail(ctx, DROPOUT_ERR_NULL_OUTPUT, "dropout_opencl_fill: out is NULL");
   if (!q) return dropout_opencl__fail(ctx, DROPOUT_ERR_NULL, "dropout_opencl_fill: the queue is NULL");
   rc = dropout_opencl__queue_ok(ctx, q, "dropout_opencl_fill");
   if (rc) return rc;
   if ((uint64_t)(n - 1u) > UINT64_MAX - first.index)
      return dropout_opencl__fail(ctx, DROPOUT_ERR_RANGE, "dropout_opencl_fill: first + n runs past the stream's 2^64 positions");
   if (kind == 2 && (uint64_t)(n - 1u) + first.index >= ((uint64_t)1 << 63))
      return dropout_opencl__fail(ctx, DROPOUT_ERR_RANGE, "dropout_opencl_fill_uniform_f64: first + n runs past 2^63 doubles");
   if ((kind >= 2) && !ctx->fp64) {
      snprintf(ctx->message, sizeof ctx->message, "dropout_opencl_fill_%s on %s needs cl_khr_fp64 with CL_FP_ROUND_TO_NEAREST and CL_FP_DENORM%s",
               kind == 2 ? "uniform_f64" : "normal_f32", ctx->device_name,
               (ctx->flushed & 2) ? " (the device has them, but the program as built flushed a subnormal double)" : "");
      return DROPOUT_ERR_OPENCL_FP64;
   }
   if (out_offset % es) return dropout_opencl__fail(ctx, DROPOUT_ERR_OPENCL_OFFSET, "dropout_opencl_fill: out_offset is not a multiple of the element size");
   rc = dropout_opencl__fits(ctx, out, out_offset, 0, (uint64_t)n * es, "out", 1);
   if (rc) return rc;
   k = ctx->kernel[DROPOUT_OPENCL__FILL];
   blocks = (f + (nn - 1u)) / (kind == 2 ? 2u : 4u) - f / (kind == 2 ? 2u : 4u) + 1u;
   local = ctx->local_size;
   global = local * dropout_opencl__groups(ctx, blocks);
   DROPOUT_OPENCL__ARG(0, out); DROPOUT_OPENCL__ARG(1, off); DROPOUT_OPENCL__ARG(2, nn);
   DROPOUT_OPENCL__ARG(3, seed); DROPOUT_OPENCL__ARG(4, stream); DROPOUT_OPENCL__ARG(5, f); DROPOUT_OPENCL__ARG(6, kd);
   err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
   return dropout_opencl__cl(ctx, err, "clEnqueueNDRangeKernel(fill)");
}

DROPOUT_OPENCLDEF int dropout_opencl_fill_u32(dropout_opencl *ctx, dropout_key key, dropout_pos first, cl_mem out, size_t out_offset, size_t n, cl_command_queue q)
{
   return dropout_opencl__fill(ctx, 0, key, first, out, out_offset, n, q);
}

DROPOUT_OPENCLDEF int dropout_opencl_fill_uniform_f32(dropout_opencl *ctx, dropout_key key, dropout_pos first, cl_mem out, size_t out_offset, size_t n, cl_command_queue q)
{
   return dropout_opencl__fill(ctx, 1, key, first, out, out_offset, n, q);
}

DROPOUT_OPENCLDEF int dropout_opencl_fill_uniform_f64(dropout_opencl *ctx, dropout_key key, dropout_pos first, cl_mem out, size_t out_offset, size_t n, cl_command_queue q)
{
   return dropout_opencl__fill(ctx, 2, key, first, out, out_offset, n, q);
}

DROPOUT_OPENCLDEF int dropout_opencl_fill_normal_f32(dropout_opencl *ctx, dropout_key key, dropout_pos first, cl_mem out, size_t out_offset, size_t n, cl_command_queue q)
{
   return dropout_opencl__fill(ctx, 3, key, first, out, out_offset, n, q);
}

#ifdef __cplusplus
}
#endif
#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__))
#pragma GCC diagnostic pop
#endif

#endif /* DROPOUT_OPENCL_IMPLEMENTATION_DONE */
#endif /* DROPOUT_OPENCL_IMPLEMENTATION */
