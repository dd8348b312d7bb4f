/* dropout.h - v0.9.0 - reproducible dropout for C/C++/CUDA - public domain or MIT

   One header, no dependencies, no malloc, no global state, no libm. A counter-based
   Philox4x32-10 generator makes every dropout mask a pure function of
   (seed, stream, position): the same mask, bit for bit, on any CPU, any thread count,
   any chunking, and on the GPU through the companion header dropout_cuda.cuh.

   USAGE
      Do this:
         #define DROPOUT_IMPLEMENTATION
      before you include this file in *one* C or C++ file to create the implementation.

         #include ...
         #include ...
         #define DROPOUT_IMPLEMENTATION
         #include "dropout.h"

      Every other file just does #include "dropout.h".

   QUICK START
         dropout_rule rule;
         dropout_gen g;                                   // the run's one generator
         dropout_plan plan;
         dropout_gen_init(&g, dropout_key_make(1234, 0)); // seed, stream; pass &g, never a copy
         dropout_rule_init(&rule, 0.1, DROPOUT_BITS_16);  // p = 0.1 with 16-bit draws
         // a step's forward: n fresh positions of g, and the plan its backward needs
         dropout_forward_f32(&g, &rule, &plan, n, y, NULL, x);   // g, rule, plan; n, outputs, inputs
         ...
         // backward: the same plan rebuilds the same mask, no mask memory needed
         dropout_backward_f32(&plan, n, dx, dy);          // overwrites dx

      Every function returns DROPOUT_OK (0) or a negative code; dropout_strerror(code)
      says which argument was wrong. On error nothing is written (dropout_plan_at leaves
      an empty plan, on purpose). Every call takes the element count n and refuses one
      that is not the plan's. Running a plan's mask again
      (checkpoint recomputation, a step's chunks over threads) is dropout_replay_*.
      Strided tensors, broadcast masks, gradient accumulation and the variants (alpha,
      Gaussian, noise): fill a dropout_desc (dropout_desc_init and the setters) and call
      dropout_run; dropout_desc_new_step gives it each step's positions (it draws each plan
      once; dropout_desc_replay draws it again). 0.1.0 code: #define DROPOUT_V0_API
      before the include (dropout_v0.h).

   OPTIONS (#define before including, in the implementation file at least)
      DROPOUT_IMPLEMENTATION  emit the function bodies (one translation unit only; a program
                              without it, or with it twice, fails to link naming
                              dropout_h_needs_DROPOUT_IMPLEMENTATION_in_exactly_one_file)
      DROPOUT_STATIC          make every function static (private to one file)
      DROPOUT_ASSERT(x)       your own assert for internal invariants (default: assert.h,
                              or nothing where there is no assert.h: -ffreestanding,
                              wasm32 -nostdlib); argument validation does not depend on it
      DROPOUT_NO_SIMD         use only the scalar reference paths (bit-identical anyway)
      DROPOUT_NO_AVX512       x86: leave out the AVX-512 path (the AVX2 one runs: for a binary
                              built with -march=native that runs where 512-bit code lowers
                              the clock); DROPOUT_NO_AVX2 leaves out both (SSE). Same bits.
      DROPOUT_V0_API          the 0.1.0 interface, unchanged names and signatures, same bits
                              (define it in the implementation file too); for moving over.
                              It is in dropout_v0.h, which must sit beside this file;
                              deprecated (DROPOUT_DISABLE_DEPRECATE_WARNINGS: no warnings)
      DROPOUT_STREAM_STORE_BYTES  x86: outputs of at least this many bytes (default 16 MiB,
                              about where a last-level cache stops keeping y for the
                              next layer) are written with streaming stores, which skip
                              the cache; 0 = always, SIZE_MAX = never. Left unset, on
                              AMD family 26 (Zen 5) the AVX2 build (GCC, Clang) and
                              gcc's SSE builds stream only the backward from a stored
                              mask, and the AVX-512 build (GCC, Clang) that and the calls
                              whose element has more bytes than its draw (f32 at 8 and 16
                              bits, bf16 and f16 at 8, f64): measured, plain stores
                              were faster there for the rest. Same bits.
      DROPOUT_STREAM_PREFETCH  x86 AVX-512 and AVX2: 1 = a call that streams its stores asks
                              for the next step's x before that step's Philox, 0 = not.
                              Default 1 with AVX-512, 0 with AVX2: which pays depends on
                              the core (measured: bench/results/simd-design-notes.md).
                              Same bits.
      DROPOUT_STREAM_OVERLAP  x86 AVX2: 1 = an f32 call that streams its stores makes each
                              Philox call and then its data chunks (the overlap it takes in
                              cache), 0 = a step's Philox and then its data. Default 1 in
                              a build for Zen 3 (-march=znver3, or native on one), 0
                              elsewhere (measured: bench/results/simd-design-notes.md).
                              Same bits.
      DROPOUT_ROW_CHUNK       elements per chunk of a row the descriptor's walker gathers
                              (strided views, a mask row not starting on a byte, alpha,
                              normal and fused ops): its two buffers of that many doubles
                              are most of dropout_run's stack, about 4 of its 5.8 KB on a
                              Cortex-M4 at the default 256. A multiple of 64, at least 64
                              (64: dropout_run takes 2.7 KB there, for small stacks).
                              Same bits.

   SIMD
      The vector path is chosen when the implementation is compiled, from the compiler's
      own target macros: __AVX512F__ with __AVX512BW__, else __AVX2__, else SSE2
      (__SSE2__ / x86-64; SSE4.1 blends with __SSE4_1__), else AArch64 __ARM_NEON, else
      WebAssembly SIMD128 (__wasm_simd128__: clang -msimd128). So -march=native or -mavx2
      picks AVX2. No cpuid, no function pointers, no global state:
      one binary runs one path, and every path gives the same bits as the reference.
      Calls shorter than 64 elements (32 words for the fills) take the reference path.

   THE CONTRACT (docs/SPEC.md has it to the bit)
      word w of stream s under seed k = philox4x32_10(ctr = {w/4 lo, w/4 hi, s lo, s hi},
      key = {k lo, k hi})[w % 4], which is cuRAND's curand_init(k, s, w) + curand().
      Element j of a plan (key {seed k, stream s}, first position o) draws position o + j:
      a 32-, 16- or 8-bit slice of that stream (a strided or broadcast tensor: j is the
      element's row-major index in the mask's shape). Keep iff draw >= t = round(p *
      2^bits); kept y = x * (1/q), q the realised keep probability; dropped y = +0. Masks
      are bit-packed, LSB first, 1 = kept.

   DETERMINISM
      Results are defined as specific IEEE-754 operations in round-to-nearest-even: one
      multiply per kept element (float for f32/f16/bf16, double for f64), with the f16
      and bf16 conversions done by this header's own integer code. Plain dropout has no
      multiply-add to contract; the fused op uses an explicit, exactly emulated fma; the
      variants are written so that every product that meets an add is exact, and use the
      header's own log and sin/cos. No libm call anywhere, so -O3, -march=native and FMA
      hardware change nothing. What would change them is refused where the
      implementation is compiled: -ffast-math and its parts (-ffinite-math-only,
      -fno-signed-zeros, -freciprocal-math, -fassociative-math) and MSVC's /fp:fast
      stop at an #error that names the fix in the file that defines
      DROPOUT_IMPLEMENTATION (other files may use them; clang gives no macro for its
      -fassociative-math, -fno-signed-zeros, -freciprocal-math: keep them off that
      file), as excess precision
      (FLT_EVAL_METHOD != 0) does everywhere. At run time a call that computes floats
      while the FPU flushes subnormals (x86 MXCSR FTZ/DAZ, which a program linked with
      -ffast-math gets from crtfastmath.o; Arm FZ) or rounds other than to nearest sets
      the mode its bits need and gives the caller's back: the same bits. In the usual mode
      that is one register read per call (make bench-fpu-check).

   PORTABILITY AND FREESTANDING USE
      C99 or later, or C++11 (C89 stops at an #error). Needs an int of 32 bits or more
      and IEEE binary32/binary64 float and double (AVR and MSP430 stop at an #error that
      says so). Needs FLT_EVAL_METHOD == 0, i.e.
      float and double operations rounded to their own precision: 32-bit x86 needs
      -msse2 -mfpmath=sse (the x87 FPU rounds a double product twice), s390x GNU mode
      or -fexcess-precision=fast; other settings stop at an #error that says so.
      Tested to give the same bits (tests/xarch/suite.sh) on x86-64 (SSE2, SSE4.1, AVX2,
      AVX-512, none), i386 SSE2, aarch64 (NEON), armhf, s390x (big-endian), riscv64,
      wasm32 (scalar and SIMD128) and a Cortex-M4 (soft float and FPv4-SP), NaN payloads of the variants and
      the fused op aside (docs/SPEC.md).
      Freestanding (no libc: microcontrollers, wasm32 -nostdlib, kernels): the header
      includes only stddef.h, stdint.h and float.h (and assert.h where it exists, see
      DROPOUT_ASSERT), calls no libc or libm function and allocates nothing. Provide
      nothing beyond what GCC and Clang expect of any freestanding target: their runtime
      library (libgcc / compiler-rt: soft-float and 64-bit helpers where the CPU lacks
      them) and memset/memcpy, which a compiler may call for plain C loops and struct
      copies (seen: clang -Os on wasm32, arm-none-eabi-gcc on a Cortex-M0/M0+; -O2 on
      wasm32 and arm-none-eabi-gcc -Os from the M3 up need none) and which the x86,
      NEON and WebAssembly SIMD paths call (on wasm32, clang -mbulk-memory makes them the
      memory.copy instruction). On a Cortex-M4 (-Os), a step's forward + backward f32 with a
      constant rule (DROPOUT_RULE_THRESHOLD: no soft double is linked) take 2.0 KB of flash
      with the FPU and 2.5 KB with soft float, libgcc included (tests/xarch/suite.sh holds
      them to 2.5 and 3.5 KB); dropout_rule_init (p as a double) adds about 3.2 KB (2.8 KB
      more than dropout_rule_init_threshold, which works in integers).

   THREADS AND CHUNKS
      Functions are reentrant (no global state; the FPU mode a call sets is its thread's
      and is given back). To split a step over threads or machines, reserve it with
      dropout_gen_plan and give each chunk dropout_plan_slice(&plan, start, count, &chunk)
      and its output slice (dropout_replay_*): the result equals one call. Mask bytes hold 8 elements, so chunks that write masks,
      and chunks of dropout_apply_mask_* (which reads a mask from bit 0 of its first byte),
      start at multiples of 8 elements. Every thread or rank reserves the whole step (one
      dropout_gen_plan of the unsplit count, or generators in lockstep doing so): a short
      call's forward on a rank's own shard reserves only the shard, so ranks repeat each
      other's masks and their generators drift apart.

   CONTENTS (in file order; each part uses only the parts above it, so a reader following
   a call reads up the file: dropout_run -> dropout_lower -> the walker -> the engine ->
   a SIMD path or the scalar reference -> the building blocks. One exception: the ISA
   blocks' apply kernels call the driver's shared lane loops, declared before the blocks.)
      Declarations
         guards (C99, FLT_EVAL_METHOD, fast-math), version, the return codes (one list,
            DROPOUT__ERRORS, makes the enum and dropout_strerror)
         inline building blocks, host and device: Philox, draws, rules, keep decisions,
            f16/bf16 conversions, per-element apply, accumulate
         the library API: keys, positions, rules, generators, plans; the short calls;
            the raw stream; the fused op; the variants' building blocks; the descriptor
            (the op list DROPOUT__OPS and the dtype list DROPOUT__DTYPES make the enums,
            names, sizes and per-op facts); the lowered job every backend runs
            (dropout_job, dropout_lower)
      Implementation (DROPOUT_IMPLEMENTATION)
         argument and FPU-mode checks, error messages
         the scalar reference (one loop behind forward, backward, mask, apply_mask)
         the SIMD paths: the choice and its opt-outs; one block per instruction set
            (AVX-512, AVX2, SSE2/SSE4.1, NEON, WebAssembly SIMD128: primitives, keep
            bits, apply, stores); Philox in 32-bit lanes (NEON, WebAssembly) and in
            64-bit lanes (x86); the driver (data grid, overlap, the SIMD run)
         the engine every call ends in (SIMD path or reference, the same bits)
         the public calls: rules, generators, plans -> short calls -> raw stream -> normals
         the descriptor: its checks, the geometry and the walker -> the setters ->
            dropout_lower -> dropout_run -> the fused op's short calls
      DROPOUT_V0_API: #include "dropout_v0.h" (the 0.1.0 calls, on the public ones)

   LICENSE: see the end of the file.
*/

#ifndef DROPOUT_H_INCLUDED
#define DROPOUT_H_INCLUDED

/* Said here rather than in 98 errors from `inline` on: the header is C99 (or C++11). */
#if !defined(__cplusplus) && !defined(_MSC_VER) && !defined(__OPENCL_C_VERSION__) && (!defined(__STDC_VERSION__) || __STDC_VERSION__ < 199901L)
#error "dropout.h needs C99 or later (or C++11): compile with -std=c99 (or -std=c11, gnu99, ...)"
#endif
/* Every result is specified as float and double operations, each rounded once. Where the
   compiler evaluates them wider (FLT_EVAL_METHOD 2: x87, plain gcc -m32, where a double
   product is rounded twice; FLT_EVAL_METHOD 1: s390x in strict ISO mode, float in double)
   the bits drift from every other CPU's (tests/xarch/suite.sh saw both), so refuse. */
#if defined(__FLT_EVAL_METHOD__) && !defined(__CUDA_ARCH__) && \
    !(__FLT_EVAL_METHOD__ == 0 || __FLT_EVAL_METHOD__ == 16 || __FLT_EVAL_METHOD__ == 32)
#error "dropout.h needs FLT_EVAL_METHOD == 0: on 32-bit x86 compile with -msse2 -mfpmath=sse (x87 rounds twice); on s390x with -std=gnu99/gnu11 or -fexcess-precision=fast"
#endif
/* The stream and the rules are written for an int of 32 bits or more (a 16-bit int
   makes the shifts of 16 and more undefined and narrows the products) and for IEEE
   binary32 float and binary64 double (the thresholds, the f64 scales, the normals). A
   16-bit-int target (AVR, MSP430) or a 32-bit double (avr-gcc's default) had stopped at
   unrelated typedefs of negative size in the implementation, and a file with the
   declarations alone compiled, its building blocks computing other rules: refuse both,
   with the reason. (The predefined macros of gcc and clang; a compiler without them is
   taken at its word. OpenCL C and CUDA's device side are the kernels' own business.) */
#if !defined(__OPENCL_C_VERSION__) && !defined(__CUDA_ARCH__)
#if defined(__SIZEOF_INT__) && __SIZEOF_INT__ < 4
#error "dropout.h needs an int of 32 bits or more: this target's int has 16 (AVR, MSP430); the Philox and the rules are written for 32-bit int arithmetic"
#endif
#if (defined(__DBL_MANT_DIG__) && __DBL_MANT_DIG__ != 53) || (defined(__FLT_MANT_DIG__) && __FLT_MANT_DIG__ != 24)
#error "dropout.h needs IEEE binary32 float and binary64 double (DBL_MANT_DIG 53): this target's double is another format (avr-gcc's double is 32 bits; avr-gcc 10 on takes -mdouble=64)"
#endif
#endif

/* The fast-math guards are in the implementation section (a file with the declarations
   alone may use fast-math); dropout_cuda.cuh's kernels are compiled where
   DROPOUT_CUDA_IMPLEMENTATION is defined, so that file is held to them too. */
#if !defined(DROPOUT_IMPLEMENTATION) && defined(DROPOUT_CUDA_IMPLEMENTATION) && \
    (defined(__FAST_MATH__) || (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__ > 0) || \
     defined(__NO_SIGNED_ZEROS__) || defined(__RECIPROCAL_MATH__) || defined(__ASSOCIATIVE_MATH__))
#error "the implementation of dropout_cuda.cuh must not be built with -ffast-math or its parts (-ffinite-math-only, -fno-signed-zeros, -freciprocal-math, -fassociative-math): they change the bits; build the file that defines DROPOUT_CUDA_IMPLEMENTATION without them"
#endif

#if defined(__OPENCL_C_VERSION__)
/* OpenCL C (dropout_opencl.h compiles this header's building blocks as kernel code): the
   exact-width types are OpenCL's own; size_t and ptrdiff_t are built in. double exists
   only with cl_khr_fp64, which dropout_opencl.h enables where the device has it. Build
   options that change float results are refused where the compiler says so
   (-cl-fast-relaxed-math, -cl-finite-math-only); -cl-denorms-are-zero, -cl-mad-enable and
   -cl-unsafe-math-optimizations define nothing to test: do not pass them. */
#if defined(__FAST_RELAXED_MATH__) || defined(__FAST_MATH__) || (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__ > 0)
#error "dropout.h's OpenCL building blocks must not be built with -cl-fast-relaxed-math or -cl-finite-math-only: they change the bits"
#endif
typedef uchar uint8_t;
typedef ushort uint16_t;
typedef uint uint32_t;
typedef ulong uint64_t;
#else
#include <stddef.h>   /* freestanding headers: no libc needed */
#include <stdint.h>
#if !defined(__OPENCL_C_VERSION__)   /* (OpenCL C has DBL_MAX and DBL_MIN built in) */
#include <float.h>    /* DBL_MAX, DBL_MIN: gcc's carry an L, which -fsingle-precision-constant leaves as they are */
#endif
#endif

/* C++ users who build with -Wold-style-cast, -Wzero-as-null-pointer-constant or
   -Wuseless-cast (-Werror): the header is C99 first, and its casts are C casts (a cast
   that is needed on one target is useless on another: size_t is uint64_t on LP64 only),
   so inside the header, and there only, these three are off; and clang's
   -Wreserved-identifier and -Wreserved-macro-identifier (in -Weverything), since C++
   reserves every name with "__" in it, where C leaves dropout__ names to the header. The
   user's own code after the include is checked as before (push / pop; tests/api/suite.sh
   builds it so). */
#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
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

/* clang defines no macro for -fassociative-math, -freciprocal-math, -fno-signed-zeros,
   -funsafe-math-optimizations or -fapprox-func, nor for -ffast-math -fno-finite-math-only,
   which has them all: alpha dropout's f64 output drifted 1 ulp there, every call returning
   0. So the header's own code is compiled in clang's precise mode (float_control, clang 11
   on; Apple's clang 13 on), whatever the command line says: the same object code as
   without such flags, and their semantics undone where they are given. The rest of the
   file that includes it keeps its flags. (gcc says which flags are on: the implementation
   refuses them below.) clang 14 takes the pragma on x86, s390x and POWER only (elsewhere
   it warns that it ignores it: armhf, aarch64, riscv64, wasm32), so there only. */
#if defined(__clang__) && !defined(__CUDACC__) && !defined(__OPENCL_C_VERSION__) && \
    ((defined(__apple_build_version__) && __clang_major__ >= 13) || (!defined(__apple_build_version__) && __clang_major__ >= 11)) && \
    (defined(__x86_64__) || defined(__i386__) || defined(__s390x__) || defined(__powerpc__) || defined(__powerpc64__))
#define DROPOUT__FLOAT_CONTROL 1
#endif
#if defined(DROPOUT__FLOAT_CONTROL)
#pragma float_control(precise, on, push)
#endif

#define DROPOUT_VERSION_MAJOR 0
#define DROPOUT_VERSION_MINOR 9
#define DROPOUT_VERSION_PATCH 0
#define DROPOUT_VERSION_STRING "0.9.0"

#ifndef DROPOUTDEF
#ifdef DROPOUT_STATIC
/* a file that uses only part of the API must not warn about the rest */
#if defined(__GNUC__) || defined(__clang__)
#define DROPOUTDEF static __attribute__((unused))
#else
#define DROPOUTDEF static
#endif
#else
#define DROPOUTDEF extern
#endif
#endif

/* Building blocks shared by the CPU and the GPU: the same source compiles as plain
   static inline C, as C++, and as __host__ __device__ under nvcc. */
#if defined(__CUDACC__)
#define DROPOUT_HD static __host__ __device__ __forceinline__
#elif defined(__i386__) && (defined(__GNUC__) || defined(__clang__))
/* i386 returns a float or double in the x87 register st(0) even with SSE math, and loading
   a signalling NaN there quiets it: a block not inlined (-O0) would break the copies that
   are bit for bit (p = 0, a dropped element of the fused op is the residual). Always
   inlined, the value stays in an SSE register. */
#define DROPOUT_HD static inline __attribute__((always_inline))
#else
#define DROPOUT_HD static inline
#endif

/* The float operations of the building blocks below, held to IEEE's results on the CUDA
   device whatever the build's flags. nvcc's -ftz=true, which --use_fast_math implies,
   turns every f32 instruction the compiler writes into one that flushes subnormal inputs
   and results to zero (mul.ftz.f32, cvt.ftz.f64.f32, ...), and defines no macro that a
   header could test; __fmul_rn and its kin flush too. An instruction written in inline
   PTX keeps the form written (the compiler passes it through as text), and each of these
   has its rounding, so no pass fuses it into an fma either; the negation flips the sign
   bit. tests/cuda checks that the kernels' PTX built with --use_fast_math holds no
   flushing or approximate instruction (it is the default build's, byte for byte).
   Elsewhere (the CPU, OpenCL C) they are the plain operations, as macros: that code is
   the same after preprocessing as when it was written with the operators. */
#if defined(__CUDA_ARCH__)
DROPOUT_HD float dropout__fmul(float a, float b)
{
   float r;
   asm("mul.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
   return r;
}
DROPOUT_HD float dropout__fadd(float a, float b)
{
   float r;
   asm("add.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
   return r;
}
DROPOUT_HD float dropout__ffma(float a, float b, float c)
{
   float r;
   asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(a), "f"(b), "f"(c));
   return r;
}
DROPOUT_HD float dropout__f32_of(double a)
{
   float r;
   asm("cvt.rn.f32.f64 %0, %1;" : "=f"(r) : "d"(a));
   return r;
}
DROPOUT_HD double dropout__f64_of(float a)
{
   double r;
   asm("cvt.f64.f32 %0, %1;" : "=d"(r) : "f"(a));
   return r;
}
DROPOUT_HD float dropout__fneg(float a)        /* the sign bit flipped */
{
   return __uint_as_float(__float_as_uint(a) ^ 0x80000000u);
}
#else
#define dropout__fmul(a, b) ((a) * (b))
#define dropout__fadd(a, b) ((a) + (b))
#define dropout__fneg(a) (-(a))
#define dropout__f64_of(a) ((double)(a))
#define dropout__f32_of(a) ((float)(a))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes, one row each: X(name, pinned value, dropout_strerror's message), the
   enum and dropout_strerror generated from the rows (an error is added by adding its
   row; its comment, when the name needs one, goes beside it). Values are pinned: 0.1.0's
   -1 .. -5 keep their meaning; new ones are added below the last, never renumbered. */
#define DROPOUT__ERRORS(X) \
   X(DROPOUT_OK, 0, "ok") \
   X(DROPOUT_ERR_P, -1,                /* p is NaN or outside [0, 1] */ \
     "p: must be a number in [0, 1] (Gaussian dropout: in [0, 1))") \
   X(DROPOUT_ERR_NULL, -2,             /* a required pointer is NULL (0.1.0 calls, set_device_coords' pair, cuda_advance's dev_pos; other 1.0 calls name it: _NULL_PLAN ..) */ \
     "a required pointer is NULL (a 0.1.0 call: its output, input or generator; dropout_desc_set_device_coords: one of its two; dropout_cuda_advance: dev_pos)") \
   X(DROPOUT_ERR_BITS, -3,             /* the draw width is not 8, 16 or 32 */ \
     "bits: the draw width must be DROPOUT_BITS_8, _16 or _32") \
   X(DROPOUT_ERR_RANGE, -4,            /* positions run past the stream's 2^64 */ \
     "positions: first + count runs past the end of the stream (2^64 positions; 2^63 uniform doubles; a generator never hands out position 2^64 - 1), or count does not fit size_t") \
   X(DROPOUT_ERR_ARG, -5,              /* 0.1.0 calls (DROPOUT_V0_API): another argument is out of its domain */ \
     "an argument is out of its domain (a 0.1.0 call's; dropout_opencl_set_launch: local_size; dropout_opencl_init: flags)") \
   X(DROPOUT_ERR_P_NEEDS_16, -6,       /* p in (0, 1) that 8-bit draws realise as 0 or 1; 16 bits serve */ \
     "p: 8-bit draws realise this p or 1 - p more than 1% off (or as 0 or 1); use DROPOUT_BITS_16 (or 32), or dropout_rule_init_quantised to accept the 8-bit p") \
   X(DROPOUT_ERR_P_NEEDS_32, -7,       /* ... that 8- and 16-bit draws realise as 0 or 1; 32 bits serve */ \
     "p: 8- and 16-bit draws realise this p or 1 - p more than 1% off (or as 0 or 1); use DROPOUT_BITS_32, or dropout_rule_init_quantised to accept the quantised p") \
   X(DROPOUT_ERR_P_UNREALISABLE, -8,   /* ... that even 32-bit draws realise as 0 or 1 */ \
     "p: even 32-bit draws realise this p or 1 - p more than 1% off (only some below 50 * 2^-32, about 1.2e-8, are); dropout_rule_init_quantised accepts the 32-bit p unless it is 0 or 1") \
   X(DROPOUT_ERR_THRESHOLD, -9,        /* threshold past 2^bits */ \
     "threshold: must be at most 2^bits") \
   X(DROPOUT_ERR_RULE, -10,            /* a dropout_rule that dropout_rule_init did not make (bits, threshold) */ \
     "rule: its fields disagree (bits not 8/16/32, threshold past 2^bits, or scale_f64 / scale_f32 not those of threshold and bits): make rules with dropout_rule_init or DROPOUT_RULE_THRESHOLD, never by hand") \
   X(DROPOUT_ERR_SLICE, -11,           /* plan slice start + count runs past the plan's count */ \
     "slice: start + count runs past the plan's count") \
   X(DROPOUT_ERR_RANK, -12,            /* rank outside 1 .. DROPOUT_MAX_RANK */ \
     "rank: must be 1 .. DROPOUT_MAX_RANK (8)") \
   X(DROPOUT_ERR_BROADCAST, -13,       /* a broadcast bit at or past the rank */ \
     "broadcast: a bit at or past the rank is set, or broadcast dims and position strides both (a zero position stride is the broadcast)") \
   X(DROPOUT_ERR_SIGMA, -14,           /* sigma NaN, negative or infinite as a float; or NOISE without sigma */ \
     "sigma: must be >= 0 and below 2^128 - 2^103 (from there it is infinite as a float), and set with dropout_desc_set_sigma for DROPOUT_OP_NOISE") \
   X(DROPOUT_ERR_SHAPE_OVERFLOW, -15,  /* the shape's element count overflows size_t */ \
     "shape: the element count overflows size_t, or its bytes pass PTRDIFF_MAX") \
   X(DROPOUT_ERR_SHAPE_COUNT, -16,     /* the shape draws a number of positions other than plan->count */ \
     "shape: it draws a number of positions other than plan->count") \
   X(DROPOUT_ERR_STRIDE, -17,          /* an output stride is zero, or the strides' extent overflows */ \
     "strides: an output stride is zero, or the strides (or n elements of a fused short call's buffers) reach past the address space") \
   X(DROPOUT_ERR_OVERLAP, -18,         /* two output elements share memory, or an output partly overlaps an input */ \
     "an output overlaps what the call reads or writes elsewhere: y/dx/out partly overlaps x/dy/in, the residual, the bias or the mask, a mask written overlaps an input, or device coordinates lie in what the call writes (in place is the same pointer with the same strides); or, with strides set, two output elements share memory") \
   X(DROPOUT_ERR_OP, -19,              /* not a dropout_op, or the op does not take this setting / tensor */ \
     "op: not a dropout_op, or the op does not take this setting or tensor") \
   X(DROPOUT_ERR_DTYPE, -20,           /* not a dropout_dtype */ \
     "dtype: not a dropout_dtype") \
   X(DROPOUT_ERR_DESC, -21,            /* a dropout_desc that dropout_desc_init did not initialise */ \
     "descriptor: not initialised by dropout_desc_init") \
   X(DROPOUT_ERR_FLUSH, -22,           /* the FPU flushes subnormals (x86 MXCSR FTZ/DAZ, Arm FZ) */ \
     "FPU: subnormals are flushed to zero (no longer returned: each call sets the FPU mode it needs and restores the caller's)") \
   X(DROPOUT_ERR_ROUNDING, -23,        /* the FPU does not round to nearest even */ \
     "FPU: the rounding mode is not round-to-nearest-even (no longer returned: each call sets the mode it needs and restores the caller's)") \
   X(DROPOUT_ERR_DEVICE_COORDS, -24,   /* device-memory coordinates given to a CPU run, or not 8-byte aligned */ \
     "descriptor: device-memory coordinates (dropout_desc_set_device_coords) given to a CPU run, or a coordinate pointer (dev_seed, dev_pos; dropout_cuda_advance: dev_pos, dev_saved) not aligned to 8 bytes") \
   X(DROPOUT_ERR_BIAS_LEN, -25,        /* bias_len is 0, does not divide the count, or is not the last dim */ \
     "bias_len: must be non-zero, divide the count and equal the last dim") \
   X(DROPOUT_ERR_GRAD, -26,            /* not a dropout_grad */ \
     "grad: must be DROPOUT_GRAD_OVERWRITE or DROPOUT_GRAD_ACCUMULATE") \
   X(DROPOUT_ERR_COUNT, -27,           /* n differs from plan->count (a plan of another layer, or a wrong count) */ \
     "n: differs from plan->count (a plan made for another layer or shape, or a wrong element count)") \
   X(DROPOUT_ERR_SIZE, -28,            /* n more elements than any buffer holds (past PTRDIFF_MAX bytes: a negative int?) */ \
     "n (or count, a plan's count, the shape's positions): more elements than any buffer can hold (past PTRDIFF_MAX bytes): a negative int converted to size_t?") \
   X(DROPOUT_ERR_NULL_PLAN, -29,       /* NULL, by argument: plan */ \
     "plan is NULL") \
   X(DROPOUT_ERR_NULL_RULE, -30,       /* rule */ \
     "rule is NULL") \
   X(DROPOUT_ERR_NULL_GEN, -31,        /* the generator g */ \
     "g (the generator) is NULL") \
   X(DROPOUT_ERR_NULL_OUTPUT, -32,     /* y / dx / out: the output buffer */ \
     "the output buffer (y, dx, out) is NULL") \
   X(DROPOUT_ERR_NULL_INPUT, -33,      /* x / dy / in: the input buffer */ \
     "the input buffer (x, dy, in) is NULL") \
   X(DROPOUT_ERR_NULL_MASK, -34,       /* mask (where the call needs one) */ \
     "mask is NULL (this call reads or writes it)") \
   X(DROPOUT_ERR_NULL_BIAS, -35,       /* bias */ \
     "bias is NULL") \
   X(DROPOUT_ERR_NULL_RESIDUAL, -36,   /* residual */ \
     "residual is NULL") \
   X(DROPOUT_ERR_NULL_DESC, -37,       /* the descriptor d */ \
     "d (the descriptor) is NULL") \
   X(DROPOUT_ERR_NULL_TENSORS, -38,    /* the dropout_tensors t */ \
     "t (the dropout_tensors) is NULL") \
   X(DROPOUT_ERR_NULL_RESULT, -39,     /* where the call writes its result (the rule, plan or count it makes) */ \
     "the pointer the result is written to (rule, plan, positions, ...) is NULL") \
   X(DROPOUT_ERR_NULL_DIMS, -40,       /* dims */ \
     "dims is NULL") \
   X(DROPOUT_ERR_GEN_MOVED, -41,       /* g is not where dropout_gen_init put it: a copy, a move, a load */ \
     "g: not where dropout_gen_init made it: a copy (passed by value, a struct copied) would hand out the same positions again, so pass the one generator by pointer; to move one, dropout_gen_move(to, from); a checkpoint loaded from a file, dropout_gen_resume(g, key, next, units)") \
   X(DROPOUT_ERR_CAPTURE, -42,         /* dropout_cuda.cuh: a step's forward on a stream being captured into a graph */ \
     "cs: a step's forward on a stream being captured into a CUDA graph (every replay would repeat the positions taken at capture): capture dropout_cuda_run with dropout_desc_set_device_coords and dropout_cuda_advance") \
   X(DROPOUT_ERR_PLAN_RAN, -43,        /* d: its plan drew a forward's mask already */ \
     "d: its plan drew a forward's mask already (a run of d, or of the descriptor d was copied from): dropout_desc_new_step(d, g) at the top of each step gives it fresh positions (or dropout_desc_set_plan a fresh plan); dropout_desc_replay(d) only where the same mask is meant (checkpoint recomputation, GAUSSIAN's backward)") \
   X(DROPOUT_ERR_DESC_MOVED, -44,      /* d is not where its plan was given to it: a copy, a move */ \
     "d: not where its plan was given to it (a copy, or a descriptor moved or returned by value), so the original could draw the same mask: dropout_desc_new_step(d, g) gives d its own positions (or dropout_desc_set_plan a plan sharing no position with the one d was copied with; a thread's chunk of a split step: dropout_desc_init from the chunk); dropout_desc_move(to, from) moves one on purpose") \
   X(DROPOUT_ERR_OPERAND, -45,         /* dropout_desc_set_strides: which is not a dropout_operand */ \
     "which: not a dropout_operand (DROPOUT_OPERAND_OUT, DROPOUT_OPERAND_IN, DROPOUT_OPERAND_RESIDUAL)") \
   X(DROPOUT_ERR_UNITS, -46,           /* g's units (dropout_gen_resume's): not what a next can count */ \
     "units (g.units): must say what g.next counts, as saved with it: DROPOUT_UNITS_8, _16, _32 or _NORMALS; DROPOUT_UNITS_NONE only with next 0 (a next of unknown units could be read as another kind's position, drawing words handed out already)") \
   X(DROPOUT_ERR_PLAN_UNITS, -47,      /* plan (or d's plan): its units are not the draws the call makes */ \
     "plan (or d's plan): plan->units says what its positions count, and the call draws another kind (read as that kind, the positions are other stream words than those reserved): dropout draws of the rule's width take a plan of dropout_gen_plan, dropout_plan_at or a forward; GAUSSIAN and NOISE, of dropout_gen_plan_normals or dropout_plan_at_normals (or dropout_desc_new_step after dropout_desc_set_op); a plan written by hand (units not set) or given another rule width is refused") \
   X(DROPOUT_ERR_POSITION_STRIDES, -48, /* dropout_desc_set_position_strides: two elements would draw one position */ \
     "position strides: two elements would draw one position (taken in increasing order over the dims of more than one element, each non-zero stride must pass the span of the smaller ones: 1 + the sum of (dim - 1) * stride), the span passes PTRDIFF_MAX, a rank-8 shape of dims all above 1 has a last dim stepping more than 1, or the fused op's last dim steps more than 1; and dropout_desc_new_step refuses a descriptor with position strides: it is a slice, whose step is the whole tensor's (dropout_gen_plan of the whole count, then dropout_plan_slice and dropout_desc_set_plan)") \
   X(DROPOUT_ERR_SHAPE_RESETS, -49,    /* dropout_desc_set_shape: strides set before the first shape, never run */ \
     "dropout_desc_set_shape: d has strides or position strides set before its first shape and never run, and a shape resets them to the default (a view whose strides came first would run contiguous, writing elements outside it): set the shape first, then the strides; to reset on purpose, dropout_desc_set_strides(d, which, NULL) / dropout_desc_set_position_strides(d, NULL) first") \
   X(DROPOUT_ERR_STRIDES_STALE, -50,   /* d's strides were set for an earlier shape, which a later set_shape reset */ \
     "strides / position strides: set for an earlier shape of d, and dropout_desc_set_shape reset them to the default (a view reshaped for a smaller batch would run contiguous, writing elements outside it); d runs once each the op uses is set again for this shape: dropout_desc_set_strides(d, which, strides) / dropout_desc_set_position_strides(d, strides), or NULL for the default on purpose") \
   X(DROPOUT_ERR_MASK_BYTES, -51,      /* a mask with position strides spanning more positions than elements, its size not stated; or a size below what the op reads or writes */ \
     "mask: with position strides a mask holds one bit a position of the whole span (dropout_desc_positions), more than one an element, so d needs its size first: dropout_desc_set_mask_bytes(d, bytes); or the size stated is below the span's (positions + 7) / 8 bytes") \
   X(DROPOUT_ERR_ALIGN, -52,           /* dropout_cuda.cuh: a tensor's pointer not aligned to its element type */ \
     "out / in / bias / residual (a GPU call's): a pointer not aligned to its element type (a float * 2 bytes into a buffer); a GPU's load of it faults and ends the CUDA context (cudaErrorMisalignedAddress), so nothing is launched: cudaMalloc's buffers and whole-element offsets into them are aligned")

#define DROPOUT__ERROR_ENUM(name, value, message) name = value,
enum {
   DROPOUT__ERRORS(DROPOUT__ERROR_ENUM)
   /* dropout_cuda.cuh: a failed CUDA call returns DROPOUT_ERR_CUDA_BASE - cudaError_t,
      so the CUDA error travels in the code itself (no global state). */
   DROPOUT_ERR_CUDA_BASE = -1000
};
#undef DROPOUT__ERROR_ENUM

/* Every public enum has a private member of this value, so that it is an int under any
   flag. A file built with -fshort-enums (arm-none-eabi's default, where enums take the
   fewest bytes that hold their values) would otherwise lay out dropout_gen, dropout_desc
   and dropout_job other than an implementation built without it, and no compiler says so:
   the implementation then writes past a shorter job and reads the fields at the wrong
   offsets. No call takes or returns these members. */
#define DROPOUT__ENUM_AS_INT 0x7fffffff

/* The same for packing: -fpack-struct (or #pragma pack(1) or (2) around the include) in
   one file and not in the implementation's lays dropout_plan, dropout_desc and dropout_job
   out with fewer bytes (dropout_desc 392 against 408 on a Cortex-M4), and
   dropout_desc_init wrote past a descriptor that file declared, every call returning 0.
   Such a file stops at this typedef. (-fpack-struct=4 leaves this probe as it is and is
   not caught: build every file that includes the header with the same packing.) */
#if !defined(__OPENCL_C_VERSION__)   /* (the kernels' structs are the host's business) */
struct dropout__layout_probe { uint8_t c; uint32_t x; };
typedef char dropout__every_file_needs_the_natural_struct_layout_not_fpack_struct
   [offsetof(struct dropout__layout_probe, x) == 4 ? 1 : -1];
#endif

/* Stream coordinates, as types of their own, so that they cannot be passed in each
   other's place: a key {seed, stream} names a stream; a position is the index of a draw
   in it, counted in draws of the call's width. */
typedef struct dropout_key { uint64_t seed; uint64_t stream; } dropout_key;
typedef struct dropout_pos { uint64_t index; } dropout_pos;

DROPOUT_HD dropout_key dropout_key_make(uint64_t seed, uint64_t stream)
{
   dropout_key k;
   k.seed = seed;
   k.stream = stream;
   return k;
}

DROPOUT_HD dropout_pos dropout_pos_make(uint64_t index)
{
   dropout_pos p;
   p.index = index;
   return p;
}

/* The draw width: a dropout decision compares an 8-, 16- or 32-bit slice of the stream
   with the threshold. Wider draws realise p more finely and use more of the stream. */
typedef enum dropout_bits {
   DROPOUT_BITS_8 = 8, DROPOUT_BITS_16 = 16, DROPOUT_BITS_32 = 32, DROPOUT__BITS_AS_INT = DROPOUT__ENUM_AS_INT
} dropout_bits;

/* f16 and bf16 buffers: distinct types, so one cannot be passed for the other. The bits
   are IEEE binary16 / bfloat16 (the same memory as __half / __nv_bfloat16). */
typedef struct dropout_f16 { uint16_t bits; } dropout_f16;
typedef struct dropout_bf16 { uint16_t bits; } dropout_bf16;

/* ------------------------------------------------------------------------------------
   Inline building blocks (host and device). Usable in your own kernels; the library
   itself is built from exactly these.
   ------------------------------------------------------------------------------------ */

/* The realised dropout rule for (p, bits); see docs/SPEC.md section 3. The four fields
   are one value: every call checks that they agree (scale_f64 is 2^bits / (2^bits - t)
   rounded once, scale_f32 that rounded to float) and refuses a rule that was edited or
   written by hand otherwise (DROPOUT_ERR_RULE). Make one with dropout_rule_init (at run
   time) or DROPOUT_RULE_THRESHOLD (a constant, for const tables). */
typedef struct dropout_rule {
   uint64_t threshold;  /* t = floor(p * 2^bits + 1/2), in [0, 2^bits]; keep iff draw >= t */
   double scale_f64;    /* 1 / (1 - t / 2^bits); 0 when t = 2^bits (everything dropped) */
   float scale_f32;     /* scale_f64 rounded once to float */
   int bits;            /* 8, 16 or 32 */
} dropout_rule;

/* A rule as a constant initializer, checked when it compiles: p = threshold / 2^bits,
      static const dropout_rule drop10 = DROPOUT_RULE_THRESHOLD(6554, 16);   p = 0.1000061
   bits other than 8, 16, 32 or a threshold past 2^bits do not compile (an array of
   negative size), nor does a threshold that is not an integer (a shift needs one: p
   itself, DROPOUT_RULE_THRESHOLD(0.1, 16), would have been threshold 0, no dropout); the
   scales are the compiler's correctly rounded division, the same bits as
   dropout_rule_init_threshold's (and each call checks them). */
#define DROPOUT__RULE_OK(t, bits) (0 * sizeof(char[(((bits) == 8 || (bits) == 16 || (bits) == 32) && \
   (unsigned long long)(t) <= (1ull << ((bits) & 63))) ? 1 : -1]) + 0 * sizeof((t) >> 0))
#define DROPOUT__RULE_SCALE(t, bits) ((unsigned long long)(t) >= (1ull << ((bits) & 63)) ? 0.0 : \
   (double)(1ull << ((bits) & 63)) / (double)((1ull << ((bits) & 63)) - (unsigned long long)(t)))
#define DROPOUT_RULE_THRESHOLD(threshold, bits) \
   { (uint64_t)(threshold) + DROPOUT__RULE_OK(threshold, bits), DROPOUT__RULE_SCALE(threshold, bits), \
     (float)DROPOUT__RULE_SCALE(threshold, bits), (int)(bits) }

#define DROPOUT_PHILOX_M0 0xD2511F53u
#define DROPOUT_PHILOX_M1 0xCD9E8D57u
#define DROPOUT_PHILOX_W0 0x9E3779B9u
#define DROPOUT_PHILOX_W1 0xBB67AE85u

DROPOUT_HD uint32_t dropout__mulhilo(uint32_t a, uint32_t b, uint32_t *hi)
{
#if defined(__CUDA_ARCH__)
   *hi = __umulhi(a, b);
   return a * b;
#else
   uint64_t prod = (uint64_t)a * b;
   *hi = (uint32_t)(prod >> 32);
   return (uint32_t)prod;
#endif
}

/* Philox4x32 with a chosen number of rounds, as Random123 defines it. */
DROPOUT_HD void dropout_philox4x32_rounds(unsigned rounds, const uint32_t ctr[4],
                                          const uint32_t key[2], uint32_t out[4])
{
   uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
   uint32_t k0 = key[0], k1 = key[1];
   unsigned r;
   for (r = 0; r < rounds; ++r) {
      uint32_t hi0, hi1;
      uint32_t lo0 = dropout__mulhilo(DROPOUT_PHILOX_M0, c0, &hi0);
      uint32_t lo1 = dropout__mulhilo(DROPOUT_PHILOX_M1, c2, &hi1);
      c0 = hi1 ^ c1 ^ k0;
      c1 = lo1;
      c2 = hi0 ^ c3 ^ k1;
      c3 = lo0;
      k0 += DROPOUT_PHILOX_W0;   /* the bump after the last round is never used */
      k1 += DROPOUT_PHILOX_W1;
   }
   out[0] = c0; out[1] = c1; out[2] = c2; out[3] = c3;
}

/* Words 4*block .. 4*block+3 of stream `stream` under `seed`. */
DROPOUT_HD void dropout_block(uint64_t seed, uint64_t stream, uint64_t block, uint32_t out[4])
{
   uint32_t ctr[4], key[2];
   ctr[0] = (uint32_t)block;  ctr[1] = (uint32_t)(block >> 32);
   ctr[2] = (uint32_t)stream; ctr[3] = (uint32_t)(stream >> 32);
   key[0] = (uint32_t)seed;   key[1] = (uint32_t)(seed >> 32);
   dropout_philox4x32_rounds(10, ctr, key, out);
}

/* Draw number `lane` (0 .. 128/bits - 1) of a block: 32-bit words in order, 16-bit
   halves low first, bytes lowest first. */
DROPOUT_HD uint32_t dropout_draw(const uint32_t words[4], int bits, unsigned lane)
{
   if (bits == 32) return words[lane];
   if (bits == 16) return (words[lane >> 1] >> ((lane & 1u) * 16u)) & 0xFFFFu;
   return (words[lane >> 2] >> ((lane & 3u) * 8u)) & 0xFFu;
}

/* Call only with a valid p (in [0, 1], not NaN) and bits in {8, 16, 32}. */
DROPOUT_HD dropout_rule dropout_rule_make(double p, int bits)
{
   dropout_rule r;
   double two_b = (double)((uint64_t)1 << bits);   /* exact */
   /* p * 2^b is exact; adding 1/2 is exact below 2^52; truncation is floor. */
   uint64_t t = (uint64_t)(p * two_b + 0.5);
   double q = 1.0 - (double)t / two_b;              /* exact: t has at most 33 bits */
   r.threshold = t;
   r.bits = bits;
   r.scale_f64 = (t == (uint64_t)1 << bits) ? 0.0 : 1.0 / q;
   r.scale_f32 = (float)r.scale_f64;
   return r;
}
/* p and bits swapped, dropout_rule_make(16, 0.1), compiled silently as threshold 16 of
   bits 0 (each element kept scaled by -1/15). The call is a macro that takes an integer
   bits only: `% 1` of a float is a compile error ("invalid operands"), in C, C++ and CUDA;
   the operand of sizeof is not evaluated, and bits keeps its type (no conversion warning).
   (The function itself: (dropout_rule_make).) dropout_alpha_rule_make the same. */
#if !defined(__OPENCL_C_VERSION__)
#define dropout_rule_make(p, bits) dropout_rule_make((p), ((void)sizeof((bits) % 1), (bits)))
#endif

DROPOUT_HD int dropout_keep(uint32_t draw, dropout_rule r)
{
   return (uint64_t)draw >= r.threshold;
}

/* Exact f16 -> f32 (every half is a float). NaN payloads are kept. */
DROPOUT_HD float dropout_f16_to_f32(uint16_t h)
{
   uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
   uint32_t exp = (h >> 10) & 0x1Fu;
   uint32_t man = h & 0x3FFu;
   uint32_t bits;
   union { uint32_t u; float f; } v;
   if (exp == 0x1Fu) {
      bits = sign | 0x7F800000u | (man << 13);
   } else if (exp != 0) {
      bits = sign | ((exp + 112u) << 23) | (man << 13);
   } else if (man == 0) {
      bits = sign;
   } else {                       /* subnormal: man * 2^-24, renormalise */
      uint32_t e = 0;
      while (!(man & 0x400u)) { man <<= 1; ++e; }
      bits = sign | ((113u - e) << 23) | ((man & 0x3FFu) << 13);
   }
   v.u = bits;
   return v.f;
}

/* f32 -> f16, round to nearest, ties to even; overflow gives Inf; NaN stays a quiet NaN
   with the top payload bits. */
DROPOUT_HD uint16_t dropout_f32_to_f16(float f)
{
   union { float f; uint32_t u; } v;
   uint32_t x, sign, ax, r, rem, halfway;
   v.f = f;
   x = v.u;
   sign = (x >> 16) & 0x8000u;
   ax = x & 0x7FFFFFFFu;
   if (ax > 0x7F800000u) return (uint16_t)(sign | 0x7E00u | ((ax >> 13) & 0x3FFu));
   if (ax >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u);   /* >= 65520: Inf */
   if (ax < 0x38800000u) {                                       /* below 2^-14 */
      uint32_t shift, m;
      if (ax <= 0x33000000u) return (uint16_t)sign;               /* <= 2^-25: zero */
      m = (ax & 0x7FFFFFu) | 0x800000u;
      shift = 126u - (ax >> 23);                                  /* 14 .. 24 */
      r = m >> shift;
      rem = m & ((1u << shift) - 1u);
      halfway = 1u << (shift - 1u);
      if (rem > halfway || (rem == halfway && (r & 1u))) ++r;
      return (uint16_t)(sign | r);
   }
   r = (ax >> 13) - (112u << 10);
   rem = ax & 0x1FFFu;
   if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;   /* a carry bumps the exponent */
   return (uint16_t)(sign | r);
}

DROPOUT_HD float dropout_bf16_to_f32(uint16_t h)
{
   union { uint32_t u; float f; } v;
   v.u = (uint32_t)h << 16;
   return v.f;
}

/* f32 -> bf16, round to nearest, ties to even; NaN stays a quiet NaN. */
DROPOUT_HD uint16_t dropout_f32_to_bf16(float f)
{
   union { float f; uint32_t u; } v;
   v.f = f;
   if ((v.u & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((v.u >> 16) | 0x40u);
   return (uint16_t)((v.u + 0x7FFFu + ((v.u >> 16) & 1u)) >> 16);
}

/* A kept NaN comes out as the input NaN with its quiet bit set. x86 and Arm multiplies do
   that by themselves; a GPU multiply returns its own default NaN instead, so the rule is
   written out here, where both sides share it. */
DROPOUT_HD float dropout__scale_f32(float x, float scale)
{
#if defined(__CUDA_ARCH__)   /* the same three instructions as the plain code, kept as IEEE's (see dropout__fmul) */
   float y;   /* (early clobber, "=&f": y is written before x is read again, so never x's register) */
   asm("{ .reg .pred num; mul.rn.f32 %0, %1, %2; setp.num.f32 num, %1, %1; @!num or.b32 %0, %1, 0x00400000; }"
       : "=&f"(y) : "f"(x), "f"(scale));
   return y;
#else
   union { float f; uint32_t u; } v;
   if (x >= x) return x * scale;   /* not NaN (>=, not ==: -Wfloat-equal stays quiet) */
   v.f = x;
   v.u |= 0x00400000u;
   return v.f;
#endif
}

DROPOUT_HD double dropout__scale_f64(double x, double scale)
{
   union { double f; uint64_t u; } v;
   if (x >= x) return x * scale;
   v.f = x;
   v.u |= (uint64_t)1 << 51;
   return v.f;
}

/* One element of forward (or backward: pass dy as x). t = 0 copies x bit for bit. */
DROPOUT_HD float dropout_apply_f32(float x, int keep, dropout_rule r)
{
   if (r.threshold == 0) return x;
#if defined(__CUDA_ARCH__)
   {   /* made whatever keep says: the GPU selects, as around the plain product, rather
          than branching around dropout__scale_f32's PTX */
      float kept = dropout__scale_f32(x, r.scale_f32);
      return keep ? kept : 0.0f;
   }
#else
   return keep ? dropout__scale_f32(x, r.scale_f32) : 0.0f;
#endif
}

DROPOUT_HD double dropout_apply_f64(double x, int keep, dropout_rule r)
{
   if (r.threshold == 0) return x;
   return keep ? dropout__scale_f64(x, r.scale_f64) : 0.0;
}

DROPOUT_HD uint16_t dropout_apply_f16(uint16_t x, int keep, dropout_rule r)
{
   if (r.threshold == 0) return x;
   return keep ? dropout_f32_to_f16(dropout__scale_f32(dropout_f16_to_f32(x), r.scale_f32))
               : (uint16_t)0;
}

DROPOUT_HD uint16_t dropout_apply_bf16(uint16_t x, int keep, dropout_rule r)
{
   if (r.threshold == 0) return x;
   return keep ? dropout_f32_to_bf16(dropout__scale_f32(dropout_bf16_to_f32(x), r.scale_f32))
               : (uint16_t)0;
}

/* Gradient accumulation (DROPOUT_GRAD_ACCUMULATE): acc + g, one rounding in the dtype;
   f16/bf16 widen both exactly, add in float and round once. g has been rounded on its
   own before (the product that made it is never fused with this add: a volatile on the
   CPU, add.rn on the GPU). */
DROPOUT_HD float dropout_accumulate_f32(float acc, float g)
{
#if defined(__CUDA_ARCH__)
   return dropout__fadd(acc, g);
#else
   volatile float v = g;
   return acc + v;
#endif
}

DROPOUT_HD double dropout_accumulate_f64(double acc, double g)
{
#if defined(__CUDA_ARCH__)
   return __dadd_rn(acc, g);
#else
   volatile double v = g;
   return acc + v;
#endif
}

DROPOUT_HD uint16_t dropout_accumulate_f16(uint16_t acc, uint16_t g)
{
   return dropout_f32_to_f16(dropout_accumulate_f32(dropout_f16_to_f32(acc), dropout_f16_to_f32(g)));
}

DROPOUT_HD uint16_t dropout_accumulate_bf16(uint16_t acc, uint16_t g)
{
   return dropout_f32_to_bf16(dropout_accumulate_f32(dropout_bf16_to_f32(acc), dropout_bf16_to_f32(g)));
}

/* ------------------------------------------------------------------------------------
   The library API. Argument order: plan (or rule), outputs, inputs. Every call checks
   all its arguments before it writes anything. y may equal x (in place); otherwise the
   buffers must not overlap.
   ------------------------------------------------------------------------------------ */

/* The rule of a layer: p realised with a draw width (the threshold t = round(p 2^bits)).
   Refused when the width realises p or 1 - p more than 1% off, e.g. p = 0.1 at 8 bits
   (26 / 256 = 0.1016, +1.6%): the code names the narrowest width that honours p
   (DROPOUT_ERR_P_NEEDS_16 / _NEEDS_32), or DROPOUT_ERR_P_UNREALISABLE when even 32 bits
   do not (some p or 1 - p below 50 * 2^-32, about 1.2e-8: 32 bits realise every p within
   2^-33). p = 0 and p = 1 are exact at any width. */
DROPOUTDEF int dropout_rule_init(dropout_rule *r, double p, dropout_bits bits);
/* The same, accepting the width's quantised p however far from p it is (0.1.0 and 0.9
   behaviour: p = 0.1 at 8 bits is 0.1016); a p in (0, 1) realised as 0 or 1 is still
   refused with the code of the width that serves. */
DROPOUTDEF int dropout_rule_init_quantised(dropout_rule *r, double p, dropout_bits bits);
/* The same rule from the threshold t in [0, 2^bits] (p = t / 2^bits), with integer
   arithmetic only: no double code is linked (microcontrollers without a double FPU).
   Gives the same scale_f32 and scale_f64, bit for bit, as dropout_rule_init. */
DROPOUTDEF int dropout_rule_init_threshold(dropout_rule *r, uint64_t threshold, dropout_bits bits);
/* A p where the threshold goes, dropout_rule_init_threshold(&r, 0.1, DROPOUT_BITS_16), was
   converted to threshold 0 (p = 0: nothing dropped, every call returning 0; gcc and g++ say
   nothing). The call is a macro that takes an integer threshold only: `% 1` of a float is a
   compile error ("invalid operands"), in C and C++; the operand of sizeof is not evaluated,
   so the threshold is evaluated once. (The function itself: (dropout_rule_init_threshold).) */
#if !defined(__OPENCL_C_VERSION__)
#define dropout_rule_init_threshold(r, threshold, bits) \
   dropout_rule_init_threshold((r), (threshold) + 0 * sizeof((threshold) % 1), (bits))
#endif
/* The realised p = threshold / 2^bits (-1 for a rule whose fields disagree). */
DROPOUTDEF double dropout_rule_p(const dropout_rule *r);

/* What a generator's `next` counts (dropout_gen.units): draws of 8, 16 or 32 bits (a 32-bit
   draw is a stream word, an 8-bit one a quarter of one), normals (a word each, read in
   pairs: normals 2k and 2k + 1 read words 2k and 2k + 1), or nothing handed out yet
   (next 0). Pinned values: a checkpoint stores them. */
typedef enum dropout_units {
   DROPOUT_UNITS_NONE = 0, DROPOUT_UNITS_8 = 8, DROPOUT_UNITS_16 = 16, DROPOUT_UNITS_32 = 32,
   DROPOUT_UNITS_NORMALS = -1, DROPOUT__UNITS_AS_INT = DROPOUT__ENUM_AS_INT
} dropout_units;

/* A checkpointable generator: a key, the next unused position and what it counts (plain
   integers), and the address dropout_gen_init gave it. A step's forward takes it by
   pointer and moves `next` on. A copy would hand out the same positions again (the same
   masks, silently), so every call refuses a generator that is not where it was
   initialised (DROPOUT_ERR_GEN_MOVED): pass the one generator by pointer to every layer.
   `next` is in the units of the kind g handed out last (`units`): a plan of another kind
   starts at the first position past every word g handed out, not at next, which would
   read the same words again. So a checkpoint saves key, next and units, and
   dropout_gen_resume takes all three: a next without its units could be read as another
   kind's position and draw words handed out already. */
typedef struct dropout_gen {
   dropout_key key; uint64_t next; dropout_units units;
   const struct dropout_gen *dropout__home;
} dropout_gen;
/* A generator at position 0, made where it stays (g itself, not a copy of it). */
DROPOUTDEF int dropout_gen_init(dropout_gen *g, dropout_key key);
/* A generator at position `next` counted in `units`: a checkpoint's key, next and units,
   read back from a file. DROPOUT_UNITS_NONE only with next 0; any other value than the
   dropout_units is refused (DROPOUT_ERR_UNITS) and g is not written. */
DROPOUTDEF int dropout_gen_resume(dropout_gen *g, dropout_key key, uint64_t next, dropout_units units);
/* The generator `from` moved to `to` (a model reallocated by hand): to continues where from
   was, and from is refused from now on. A struct holding a generator is made in place (an
   init function taking its address), not returned by value: whether a returned struct
   keeps its address is the compiler's choice. */
DROPOUTDEF int dropout_gen_move(dropout_gen *to, dropout_gen *from);
/* 0.9's dropout_gen_make returned the generator by value, so every copy of it was a
   generator too. */
#define dropout_gen_make(key) dropout_gen_make_is_gone__use_dropout_gen_init_and_pass_g_by_pointer

/* What one layer application's forward and backward share: the rule, the key, the first
   position and the number of positions. The forward hands it back; pass it to the
   backward. `units` says what pos and count count: draws of the rule's width
   (DROPOUT_UNITS_8, _16, _32, equal to rule.bits) or normals (DROPOUT_UNITS_NORMALS); the
   calls below that make a plan set it, and a call that draws another kind refuses the
   plan (DROPOUT_ERR_PLAN_UNITS), since it would read other stream words than were
   reserved. */
typedef struct dropout_plan { dropout_rule rule; dropout_key key; uint64_t pos; uint64_t count; dropout_units units; } dropout_plan;
/* Reserve `count` positions of g and hand back the plan that uses them, without running
   anything (a step split over threads: slice it, dropout_replay_* each chunk; the
   descriptor). */
DROPOUTDEF int dropout_gen_plan(dropout_gen *g, const dropout_rule *rule, uint64_t count, dropout_plan *out);
/* The same for a GAUSSIAN or NOISE plan: count normals (which read words in pairs), not
   count draws of rule's width, which would read other words than g reserved. */
DROPOUTDEF int dropout_gen_plan_normals(dropout_gen *g, const dropout_rule *rule, uint64_t count, dropout_plan *out);
/* A plan at explicit coordinates (another framework's offsets): count draws of rule's
   width from first; run it with dropout_replay_*. */
DROPOUTDEF int dropout_plan_at(dropout_plan *out, const dropout_rule *rule, dropout_key key, dropout_pos first, uint64_t count);
/* The same for a GAUSSIAN or NOISE descriptor: count normals from normal `first`. */
DROPOUTDEF int dropout_plan_at_normals(dropout_plan *out, const dropout_rule *rule, dropout_key key, dropout_pos first, uint64_t count);
/* Elements start .. start + count - 1 of a plan (a chunk, a thread, a rank): calls on the
   slices give what one call on the whole gives. Slices that write masks start at
   multiples of 8 elements (a mask byte holds 8). */
DROPOUTDEF int dropout_plan_slice(const dropout_plan *whole, uint64_t start, uint64_t count, dropout_plan *out);

/* Counts: every call takes n, the element count of its buffers, and refuses an n that
   differs from plan->count (DROPOUT_ERR_COUNT: another layer's plan, a wrong size) or
   that no buffer can have, more than PTRDIFF_MAX bytes (DROPOUT_ERR_SIZE: a negative int
   converted to size_t). */

/* The forward of a step: reserves n fresh positions of g (g->next moves on by n), runs
   dropout on them and hands back in *plan (NULL: not wanted) the plan its backward
   needs. It cannot repeat an earlier step's mask. mask (optional, NULL for none):
   ceil(n/8) bytes, bit j%8 of byte j/8 = element j kept; bits of the last byte past n
   are written 0. On error g is not moved. */
DROPOUTDEF int dropout_forward_f32(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, float *y, uint8_t *mask, const float *x);
DROPOUTDEF int dropout_forward_f64(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, double *y, uint8_t *mask, const double *x);
DROPOUTDEF int dropout_forward_f16(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, dropout_f16 *y, uint8_t *mask, const dropout_f16 *x);
DROPOUTDEF int dropout_forward_bf16(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, dropout_bf16 *y, uint8_t *mask, const dropout_bf16 *x);

/* Backward: rebuilds the forward's mask from its plan (no mask memory) and OVERWRITES dx
   with dropout(dy). To add into dx instead: dropout_run with DROPOUT_GRAD_ACCUMULATE. */
DROPOUTDEF int dropout_backward_f32(const dropout_plan *plan, size_t n, float *dx, const float *dy);
DROPOUTDEF int dropout_backward_f64(const dropout_plan *plan, size_t n, double *dx, const double *dy);
DROPOUTDEF int dropout_backward_f16(const dropout_plan *plan, size_t n, dropout_f16 *dx, const dropout_f16 *dy);
DROPOUTDEF int dropout_backward_bf16(const dropout_plan *plan, size_t n, dropout_bf16 *dx, const dropout_bf16 *dy);

/* The door to a mask that exists already: the forward at a plan's positions, as given.
   The same plan gives the same mask, so use it only where that is the point: checkpoint
   recomputation of a step's forward, the chunks of a step split over threads (one
   dropout_gen_plan, then dropout_plan_slice), coordinates made elsewhere (dropout_plan_at).
   A new step takes dropout_forward_* (a fresh plan). Mask as forward's. */
DROPOUTDEF int dropout_replay_f32(const dropout_plan *plan, size_t n, float *y, uint8_t *mask, const float *x);
DROPOUTDEF int dropout_replay_f64(const dropout_plan *plan, size_t n, double *y, uint8_t *mask, const double *x);
DROPOUTDEF int dropout_replay_f16(const dropout_plan *plan, size_t n, dropout_f16 *y, uint8_t *mask, const dropout_f16 *x);
DROPOUTDEF int dropout_replay_bf16(const dropout_plan *plan, size_t n, dropout_bf16 *y, uint8_t *mask, const dropout_bf16 *x);

/* The mask alone of a plan's n = plan->count elements: ceil(n / 8) bytes. */
DROPOUTDEF int dropout_mask(const dropout_plan *plan, size_t n, uint8_t *mask);

/* With a stored mask, forward and backward alike (pass dy as x for backward; overwrites
   y): y = x scaled as forward where the mask keeps, +0 elsewhere. The rule must be the
   forward's (it gives the scale); n elements. */
DROPOUTDEF int dropout_apply_mask_f32(const dropout_rule *rule, size_t n, float *y, const uint8_t *mask, const float *x);
DROPOUTDEF int dropout_apply_mask_f64(const dropout_rule *rule, size_t n, double *y, const uint8_t *mask, const double *x);
DROPOUTDEF int dropout_apply_mask_f16(const dropout_rule *rule, size_t n, dropout_f16 *y, const uint8_t *mask, const dropout_f16 *x);
DROPOUTDEF int dropout_apply_mask_bf16(const dropout_rule *rule, size_t n, dropout_bf16 *y, const uint8_t *mask, const dropout_bf16 *x);

DROPOUTDEF const char *dropout_strerror(int code);

/* Philox4x32-10 of one counter, exactly as Random123's philox4x32(ctr, key). */
DROPOUTDEF void dropout_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

/* The raw stream. Positions count 32-bit words here. */
DROPOUTDEF uint32_t dropout_stream_u32(dropout_key key, dropout_pos pos);
/* out[i] = word first + i, i < n. */
DROPOUTDEF int dropout_fill_u32(dropout_key key, dropout_pos first, uint32_t *out, size_t n);
/* out[i] = (word(first + i) >> 8) * 2^-24: exact, in [0, 1). */
DROPOUTDEF int dropout_fill_uniform_f32(dropout_key key, dropout_pos first, float *out, size_t n);
/* out[i] = ((w(2q+1) << 32 | w(2q)) >> 11) * 2^-53 with q = first + i: exact, in [0, 1).
   Positions count doubles (two words each), so first + n must not pass 2^63. */
DROPOUTDEF int dropout_fill_uniform_f64(dropout_key key, dropout_pos first, double *out, size_t n);

/* ---- fused bias-dropout-residual: y = residual + dropout(x + bias) (SPEC section 12) ---
   y = residual + dropout(x + bias), the transformer's "bias dropout add", with bias[cols]
   broadcast over the rows of row-major [rows, cols] tensors. Element (r, c) is element
   j = r * cols + c of the call: position offset + j, mask bit j. Per element, in float:
      h = x + bias[c]                      one float add, round to nearest even
      kept:    y = fma(h, scale_f32, residual)   one fused multiply-add, rounded once
      dropped: y = residual, bit for bit (no add, so -0 and NaN payloads pass unchanged)
   f16/bf16: x, bias, residual widen exactly to float, h and the fma are done in float as
   above, and the kept result rounds once to f16/bf16; a dropped element copies residual.
   f64: h = x + bias, kept: y = RN(RN(h * scale_f64) + residual): two roundings, no fma
   (see dropout_bias_dropout_add_one_f64 for why).
   p = 0 keeps everything (y = fma(h, 1, residual) = h + residual, rounded once).
   Gradient: d residual = dy; d x = dropout backward of dy (same mask / seed, stream,
   offset); d bias[c] = sum over rows of d x[r][c].
   The CPU uses dropout_fmaf below (exact, no libm); the GPU its fma.rn.f32: equal. */

/* fmaf(a, b, c) in software, correctly rounded (nearest even). a * b is exact in double
   (24 + 24 <= 53 bits); the double sum p + c is rounded to odd with the TwoSum error term;
   round-to-odd in 53 bits then to nearest in 24 bits is correct because 53 >= 24 + 2. */
DROPOUT_HD float dropout_fmaf(float a, float b, float c)
{
#if defined(__CUDA_ARCH__)
   return dropout__ffma(a, b, c);
#elif defined(__OPENCL_C_VERSION__)
   return fma(a, b, c);     /* OpenCL C: fma is correctly rounded, with or without fp64 */
#else
   union { double d; uint64_t u; } v;
   double p = (double)a * (double)b;            /* exact */
   double cd = (double)c;
   double s = p + cd, bb, e;
   if (!(s - s >= 0.0)) return (float)s;         /* Inf or NaN: no rounding to do */
   bb = s - p;                                   /* TwoSum: s + e == p + c exactly */
   e = (p - (s - bb)) + (cd - bb);
   v.d = s;
   /* s != 0 here whenever e != 0: a sum that rounds to zero is exact */
   if ((e < 0.0 || e > 0.0) && !(v.u & 1u)) v.u += ((e > 0.0) == (s > 0.0)) ? 1u : (uint64_t)-1;
   return (float)v.d;
#endif
}

/* One element of the fused op (keep: the element's keep decision). */
DROPOUT_HD float dropout_bias_dropout_add_one_f32(float x, float bias, float residual, int keep, dropout_rule r)
{
#if defined(__CUDA_ARCH__)
   float h = dropout__fadd(x, bias);             /* add.rn: never contracted into an fma */
#else
   float h = x + bias;
#endif
   return keep ? dropout_fmaf(h, r.scale_f32, residual) : residual;
}

DROPOUT_HD uint16_t dropout_bias_dropout_add_one_f16(uint16_t x, uint16_t bias, uint16_t residual, int keep, dropout_rule r)
{
   if (!keep) return residual;
   return dropout_f32_to_f16(dropout_bias_dropout_add_one_f32(dropout_f16_to_f32(x), dropout_f16_to_f32(bias), dropout_f16_to_f32(residual), 1, r));
}

DROPOUT_HD uint16_t dropout_bias_dropout_add_one_bf16(uint16_t x, uint16_t bias, uint16_t residual, int keep, dropout_rule r)
{
   if (!keep) return residual;
   return dropout_f32_to_bf16(dropout_bias_dropout_add_one_f32(dropout_bf16_to_f32(x), dropout_bf16_to_f32(bias), dropout_bf16_to_f32(residual), 1, r));
}

/* f64 has no fma step: a correctly rounded double fma cannot be emulated as simply as
   dropout_fmaf does for float (that needs a format wider than the result). So in f64
      h = x + bias;  kept: y = (h * scale_f64) + residual, the product rounded on its own
   (two roundings). The product is kept out of reach of FMA contraction: __dmul_rn on
   the GPU, a volatile on the CPU (gcc -ffp-contract=fast cannot fuse through a store). */
DROPOUT_HD double dropout__mul_alone_f64(double a, double b)
{
#if defined(__CUDA_ARCH__)
   return __dmul_rn(a, b);
#else
   volatile double prod = a * b;
   return prod;
#endif
}

DROPOUT_HD double dropout_bias_dropout_add_one_f64(double x, double bias, double residual, int keep, dropout_rule r)
{
   if (!keep) return residual;
#if defined(__CUDA_ARCH__)
   return __dadd_rn(dropout__mul_alone_f64(__dadd_rn(x, bias), r.scale_f64), residual);
#else
   return dropout__mul_alone_f64(x + bias, r.scale_f64) + residual;
#endif
}

/* The fused op, a step's forward as dropout_forward_* (n fresh positions of g, *plan for
   the backward, which is dropout_backward_* of dy): x, y, residual are row-major
   [n / bias_len, bias_len] (one size, so rows and columns cannot be swapped;
   n % bias_len != 0 is DROPOUT_ERR_BIAS_LEN); bias has bias_len elements; mask optional
   as forward's. y may equal x or residual. */
DROPOUTDEF int dropout_bias_dropout_add_f32(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, size_t bias_len, float *y, uint8_t *mask, const float *x, const float *bias, const float *residual);
DROPOUTDEF int dropout_bias_dropout_add_f64(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, size_t bias_len, double *y, uint8_t *mask, const double *x, const double *bias, const double *residual);
DROPOUTDEF int dropout_bias_dropout_add_f16(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, size_t bias_len, dropout_f16 *y, uint8_t *mask, const dropout_f16 *x, const dropout_f16 *bias, const dropout_f16 *residual);
DROPOUTDEF int dropout_bias_dropout_add_bf16(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, size_t bias_len, dropout_bf16 *y, uint8_t *mask, const dropout_bf16 *x, const dropout_bf16 *bias, const dropout_bf16 *residual);
/* ... and at a plan's positions, as dropout_replay_* (recomputation, chunks, explicit
   coordinates). */
DROPOUTDEF int dropout_bias_dropout_add_replay_f32(const dropout_plan *plan, size_t n, size_t bias_len, float *y, uint8_t *mask, const float *x, const float *bias, const float *residual);
DROPOUTDEF int dropout_bias_dropout_add_replay_f64(const dropout_plan *plan, size_t n, size_t bias_len, double *y, uint8_t *mask, const double *x, const double *bias, const double *residual);
DROPOUTDEF int dropout_bias_dropout_add_replay_f16(const dropout_plan *plan, size_t n, size_t bias_len, dropout_f16 *y, uint8_t *mask, const dropout_f16 *x, const dropout_f16 *bias, const dropout_f16 *residual);
DROPOUTDEF int dropout_bias_dropout_add_replay_bf16(const dropout_plan *plan, size_t n, size_t bias_len, dropout_bf16 *y, uint8_t *mask, const dropout_bf16 *x, const dropout_bf16 *bias, const dropout_bf16 *residual);
/* ---- END fused bias-dropout-residual (declarations) ----------------------------------- */

/* ====================================================================================
   VARIANTS (docs/SPEC.md section 11): broadcast masks (channel / spatial / locked
   dropout, drop path), alpha dropout (SELU), Gaussian dropout and Gaussian noise.
   Same conventions as the core: outputs first, validation before any write, y may be x.
   ==================================================================================== */

#define DROPOUT_MAX_RANK 8

/* The shape reduced for indexing: adjacent dimensions with the same broadcast flag are
   merged (this does not change any mask index); mstride is 0 on broadcast dims. */
typedef struct dropout_bcast {
   int rank;
   uint64_t dim[DROPOUT_MAX_RANK];
   uint64_t mstride[DROPOUT_MAX_RANK];
   uint64_t numel;                 /* tensor elements */
   uint64_t positions;             /* mask elements = stream positions a call uses */
} dropout_bcast;

/* Mask index of tensor element i (row-major), i < numel. */
DROPOUT_HD uint64_t dropout_bcast_index(const dropout_bcast *b, uint64_t i)
{
   uint64_t m = 0;
   int d;
   for (d = b->rank - 1; d > 0; --d) {
      m += (i % b->dim[d]) * b->mstride[d];
      i /= b->dim[d];
   }
   return m + i * b->mstride[0];
}

/* The keep decision of one stream position (one Philox block per call). */
DROPOUT_HD int dropout_keep_at(uint64_t seed, uint64_t stream, uint64_t pos, dropout_rule r)
{
   uint32_t w[4];
   unsigned log2_draws = r.bits == 32 ? 2u : r.bits == 16 ? 3u : 4u;
   dropout_block(seed, stream, pos >> log2_draws, w);
   return dropout_keep(dropout_draw(w, r.bits, (unsigned)(pos & ((1u << log2_draws) - 1u))), r);
}

/* -- Exact-by-construction arithmetic -------------------------------------------------
   Every product below that feeds an addition is exact (float x float in double, or a
   product of a <= 32-bit value by a <= 21-bit constant piece), so FMA contraction by any
   compiler (gcc -ffp-contract=fast, nvcc --fmad=true) cannot change a result. */

/* (float)(a * b + c), a and b floats widened to double (so a*b is exact): two roundings
   (double, then float). A value used in several steps is widened once, by the caller:
   on the GPU each widening is an instruction of its own (see dropout__f64_of). */
DROPOUT_HD float dropout__madd(double a, double b, double c)
{
   return dropout__f32_of(a * b + c);
}

DROPOUT_HD float dropout__madf(float a, float b, double c)
{
   return dropout__madd(dropout__f64_of(a), dropout__f64_of(b), c);
}

DROPOUT_HD uint64_t dropout__f64_bits(double x)
{
   union { double f; uint64_t u; } v;
   v.f = x;
   return v.u;
}

DROPOUT_HD double dropout__f64_from_bits(uint64_t u)
{
   union { uint64_t u; double f; } v;
   v.u = u;
   return v.f;
}

/* x with its low 32 significand bits cleared: at most 21 significant bits. */
DROPOUT_HD double dropout__trunc21(double x)
{
   return dropout__f64_from_bits(dropout__f64_bits(x) & ~(uint64_t)0xFFFFFFFFu);
}

/* x * k for x with at most 32 significant bits, as (x*k1 + x*k2) + x*k3 with
   k = k1 + k2 + k3 split into 21-, 21- and 11-bit pieces: every product exact. */
DROPOUT_HD double dropout__mul_split(double x, double k)
{
   double k1 = dropout__trunc21(k);
   double k2 = dropout__trunc21(k - k1);
   double k3 = (k - k1) - k2;
   return (x * k1 + x * k2) + x * k3;
}

/* The double constants of the inline code, as integers divided exactly: no floating
   constant, so that gcc's -fsingle-precision-constant (common on microcontrollers with a
   float FPU; it makes every unsuffixed floating constant a float) cannot narrow them in a
   file that calls these building blocks (it had changed 187 of 1000 normals and the alpha
   rule there, and the implementation refuses it). DROPOUT__EXACT(n, k) = n / 2^k, exact
   for n < 2^53; DROPOUT__RATIO(a, b) = a / b rounded once, as the compiler folds 1.0 / b. */
#if defined(__cplusplus)   /* (DROPOUT_SELU_ALPHA_PRIME is public: no C cast in a C++ file) */
#define DROPOUT__RATIO(a, b) (static_cast<double>(a) / static_cast<double>(b))
#define DROPOUT__POW2(k) (static_cast<uint64_t>(1) << (k))
#else
#define DROPOUT__RATIO(a, b) ((double)(a) / (double)(b))
#define DROPOUT__POW2(k) ((uint64_t)1 << (k))
#endif
#define DROPOUT__EXACT(n, k) DROPOUT__RATIO(n, DROPOUT__POW2(k))

/* sqrt(x) for x >= 0 in double, no libm: a bit-level first guess (relative error < 6.1%)
   and six Newton steps y = 0.5 * (y + x / y) (a division, an addition and an exact
   halving: nothing to contract). Within 1 ulp of the true root (tested); 0 for x <= 0
   or NaN, x for +Inf. */
DROPOUT_HD double dropout__sqrt_f64(double x)
{
   double y, scale = 1.0;
   int i;
   if (!(x > 0.0)) return 0.0;
   if (x > DBL_MAX) return x;
   /* (2^108 and 2^-54 are floats too: exact under -fsingle-precision-constant) */
   if (x < DBL_MIN) { x *= 3.2451855365842673e32; scale = 5.5511151231257827e-17; } /* 2^108, 2^-54 */
   y = dropout__f64_from_bits((dropout__f64_bits(x) >> 1) + ((uint64_t)0x3FF0000000000000u >> 1));
   for (i = 0; i < 6; ++i) y = 0.5 * (y + x / y);
   return y * scale;
}

/* -- Alpha dropout ------------------------------------------------------------------ */

#define DROPOUT_SELU_ALPHA_PRIME (-DROPOUT__EXACT(7917775536320560u, 52))   /* -scale * alpha of SELU, -1.7580993408473766 */

/* Dropped elements take alpha'; then y = (v + c) * a, v = kept ? x : alpha', with the
   realised P = t / 2^bits: a = ((1-P)(1 + P alpha'^2))^-1/2, c = -alpha' P (so that
   a*c is the affine shift b = -a alpha' P). Add-then-multiply cannot be contracted. */
typedef struct dropout_alpha_rule {
   dropout_rule base;      /* threshold and bits; base.scale_* unused */
   double a, c, drop;      /* f64: y = (x + c) * a; drop = (alpha' + c) * a */
   float a_f32, c_f32, drop_f32;
} dropout_alpha_rule;

/* The alpha rule of a realised dropout rule (bits valid, threshold <= 2^bits). */
DROPOUT_HD dropout_alpha_rule dropout_alpha_rule_of(dropout_rule base)
{
   dropout_alpha_rule r;
   double two_b, pr, q, a2, s, v;
   r.base = base;
   two_b = (double)((uint64_t)1 << base.bits);
   pr = (double)r.base.threshold / two_b;                   /* exact, <= 32 bits */
   q = 1.0 - pr;                                            /* exact */
   a2 = DROPOUT_SELU_ALPHA_PRIME * DROPOUT_SELU_ALPHA_PRIME;
   s = 1.0 + dropout__mul_split(pr, a2);
   v = q * s;
   r.a = v > 0.0 ? 1.0 / dropout__sqrt_f64(v) : 0.0;       /* v = 0: all dropped */
   r.c = dropout__mul_split(pr, -DROPOUT_SELU_ALPHA_PRIME);
   r.drop = (DROPOUT_SELU_ALPHA_PRIME + r.c) * r.a;
   r.a_f32 = (float)r.a;
   r.c_f32 = (float)r.c;
   r.drop_f32 = ((float)DROPOUT_SELU_ALPHA_PRIME + r.c_f32) * r.a_f32;
   return r;
}

/* Call only with a valid p and bits. */
DROPOUT_HD dropout_alpha_rule dropout_alpha_rule_make(double p, int bits)
{
   return dropout_alpha_rule_of(dropout_rule_make(p, bits));
}
#if !defined(__OPENCL_C_VERSION__)
#define dropout_alpha_rule_make(p, bits) dropout_alpha_rule_make((p), ((void)sizeof((bits) % 1), (bits)))
#endif

/* One element forward: t = 0 copies x; t = 2^bits gives +0; else (v + c) * a. */
DROPOUT_HD float dropout_alpha_apply_f32(float x, int keep, dropout_alpha_rule r)
{
   if (r.base.threshold == 0) return x;
   if (r.base.threshold == (uint64_t)1 << r.base.bits) return 0.0f;   /* all dropped */
   return keep ? dropout__fmul(dropout__fadd(x, r.c_f32), r.a_f32) : r.drop_f32;
}

DROPOUT_HD double dropout_alpha_apply_f64(double x, int keep, dropout_alpha_rule r)
{
   if (r.base.threshold == 0) return x;
   if (r.base.threshold == (uint64_t)1 << r.base.bits) return 0.0;
   return keep ? (x + r.c) * r.a : r.drop;
}

DROPOUT_HD uint16_t dropout_alpha_apply_f16(uint16_t x, int keep, dropout_alpha_rule r)
{
   if (r.base.threshold == 0) return x;
   return dropout_f32_to_f16(dropout_alpha_apply_f32(dropout_f16_to_f32(x), keep, r));
}

DROPOUT_HD uint16_t dropout_alpha_apply_bf16(uint16_t x, int keep, dropout_alpha_rule r)
{
   if (r.base.threshold == 0) return x;
   return dropout_f32_to_bf16(dropout_alpha_apply_f32(dropout_bf16_to_f32(x), keep, r));
}

/* One element backward: dx = a * dy kept, +0 dropped; t = 0 copies dy. */
DROPOUT_HD float dropout_alpha_grad_f32(float dy, int keep, dropout_alpha_rule r)
{
   if (r.base.threshold == 0) return dy;
   return keep ? dropout__fmul(dy, r.a_f32) : 0.0f;
}

DROPOUT_HD double dropout_alpha_grad_f64(double dy, int keep, dropout_alpha_rule r)
{
   if (r.base.threshold == 0) return dy;
   return keep ? dy * r.a : 0.0;
}

DROPOUT_HD uint16_t dropout_alpha_grad_f16(uint16_t dy, int keep, dropout_alpha_rule r)
{
   if (r.base.threshold == 0) return dy;
   return dropout_f32_to_f16(dropout_alpha_grad_f32(dropout_f16_to_f32(dy), keep, r));
}

DROPOUT_HD uint16_t dropout_alpha_grad_bf16(uint16_t dy, int keep, dropout_alpha_rule r)
{
   if (r.base.threshold == 0) return dy;
   return dropout_f32_to_bf16(dropout_alpha_grad_f32(dropout_bf16_to_f32(dy), keep, r));
}

/* -- Normals (Box-Muller, no libm) ---------------------------------------------------
   Normal q of a stream uses words w0 = word 2(q & ~1) and w1 = w0's successor, i.e.
   block q/4, lanes 2((q/2)%2) and +1: four normals per Philox block, like bits = 32.
   u = (w0 + 1) 2^-32 in (0, 1], angle = 2 pi w1 2^-32; even q gives r cos, odd q r sin,
   r = sqrt(-2 ln u) <= 6.6604. Float-accurate; docs/SPEC.md has the exact operations. */

#define DROPOUT__LN2 DROPOUT__EXACT(6243314768165359u, 53)       /* 0.6931471805599453 */
#define DROPOUT__SQRT2 DROPOUT__EXACT(6369051672525773u, 52)     /* 1.4142135623730951 */
#define DROPOUT__PI_2_30 (DROPOUT__EXACT(7074237752028440u, 52) / (double)DROPOUT__POW2(30))   /* (pi / 2) * 2^-30 */

/* ln((w0 + 1) 2^-32) in double, <= 0. */
DROPOUT_HD double dropout__log_u(uint32_t w0)
{
   uint64_t m = (uint64_t)w0 + 1u;              /* 1 .. 2^32 */
   int e = 0;
   double f, s, sd, zd, lnf, ln2_hi, ln2_lo, ed;
   float h;
   while ((m >> (e + 1)) != 0) ++e;              /* e = floor(log2 m), 0 .. 32 */
   f = (double)m * dropout__f64_from_bits((uint64_t)(1023 - e) << 52);   /* [1, 2), exact */
   if (f > DROPOUT__SQRT2) { f *= 0.5; ++e; }   /* [sqrt(1/2), sqrt 2] */
   s = (f - 1.0) / (f + 1.0);                    /* f - 1 and f + 1 exact */
   sd = dropout__f64_of(dropout__f32_of(s));      /* s rounded to float */
   zd = dropout__f64_of(dropout__madd(sd, sd, 0.0));
   h = dropout__madd((double)(float)DROPOUT__RATIO(1, 11), zd, DROPOUT__RATIO(1, 9));
   h = dropout__madd(dropout__f64_of(h), zd, DROPOUT__RATIO(1, 7));
   h = dropout__madd(dropout__f64_of(h), zd, DROPOUT__RATIO(1, 5));
   h = dropout__madd(dropout__f64_of(h), zd, DROPOUT__RATIO(1, 3));
   h = dropout__madd(dropout__f64_of(h), zd, 1.0);
   lnf = 2.0 * (sd * dropout__f64_of(h));         /* exact */
   ed = (double)(e - 32);                         /* -32 .. 0 */
   ln2_hi = dropout__trunc21(DROPOUT__LN2);       /* ed * piece: exact */
   ln2_lo = DROPOUT__LN2 - ln2_hi;                /* 32 bits */
   return (ed * ln2_hi + lnf) + ed * ln2_lo;
}

/* sin and cos of x in [0, pi/4] from its square z (both floats, widened), Taylor to x^9
   and x^10. */
DROPOUT_HD float dropout__sin_poly(double xd, double zd)
{
   float h = dropout__madd((double)(float)DROPOUT__RATIO(1, 362880), zd, -DROPOUT__RATIO(1, 5040));
   h = dropout__madd(dropout__f64_of(h), zd, DROPOUT__RATIO(1, 120));
   h = dropout__madd(dropout__f64_of(h), zd, -DROPOUT__RATIO(1, 6));
   h = dropout__madd(dropout__f64_of(h), zd, 1.0);
   return dropout__madd(xd, dropout__f64_of(h), 0.0);
}

DROPOUT_HD float dropout__cos_poly(double zd)
{
   float h = dropout__madd((double)(float)-DROPOUT__RATIO(1, 3628800), zd, DROPOUT__RATIO(1, 40320));
   h = dropout__madd(dropout__f64_of(h), zd, -DROPOUT__RATIO(1, 720));
   h = dropout__madd(dropout__f64_of(h), zd, DROPOUT__RATIO(1, 24));
   h = dropout__madd(dropout__f64_of(h), zd, -0.5);
   return dropout__madd(dropout__f64_of(h), zd, 1.0);
}

/* The normal of a word pair: odd = 0 gives r cos(angle), odd = 1 gives r sin(angle). */
DROPOUT_HD float dropout_normal_from_words(uint32_t w0, uint32_t w1, int odd)
{
   unsigned quadrant = w1 >> 30;
   uint32_t rem = w1 & 0x3FFFFFFFu, g;
   int swap = rem > 0x20000000u;                  /* past pi/4: use the complement */
   double xd, zd;
   float sn, cs, s_t, c_t, trig, r;
   g = swap ? 0x40000000u - rem : rem;            /* 0 .. 2^29 */
   xd = dropout__f64_of(dropout__f32_of((double)g * DROPOUT__PI_2_30));   /* x, a float */
   zd = dropout__f64_of(dropout__madd(xd, xd, 0.0));
   sn = dropout__sin_poly(xd, zd);
   cs = dropout__cos_poly(zd);
   s_t = swap ? cs : sn;                          /* sin and cos of the angle in the quadrant */
   c_t = swap ? sn : cs;
   if (odd) trig = quadrant == 0 ? s_t : quadrant == 1 ? c_t : quadrant == 2 ? dropout__fneg(s_t) : dropout__fneg(c_t);
   else     trig = quadrant == 0 ? c_t : quadrant == 1 ? dropout__fneg(s_t) : quadrant == 2 ? dropout__fneg(c_t) : s_t;
   r = dropout__f32_of(dropout__sqrt_f64(-2.0 * dropout__log_u(w0)));
   return dropout__madf(r, trig, 0.0);
}

DROPOUT_HD float dropout_normal_at(uint64_t seed, uint64_t stream, uint64_t q)
{
   uint32_t w[4];
   unsigned lane = (unsigned)(q & 2u);
   dropout_block(seed, stream, q >> 2, w);
   return dropout_normal_from_words(w[lane], w[lane + 1u], (int)(q & 1u));
}

/* -- Gaussian dropout and Gaussian noise -------------------------------------------- */

/* Gaussian dropout: y = x * m, m = (float)(1 + sigma_f z), sigma_f = (float)sqrt(p/(1-p)). */
DROPOUT_HD float dropout_gaussian_mult(float z, float sigma_f32)
{
   return dropout__madf(sigma_f32, z, 1.0);
}

/* Gaussian noise: y = x + sigma_f z, the product exact, one rounding (two for f32). */
DROPOUT_HD float dropout_noise_add_f32(float x, float z, float sigma_f32)
{
   return dropout__madf(sigma_f32, z, dropout__f64_of(x));
}

DROPOUT_HD double dropout_noise_add_f64(double x, float z, float sigma_f32)
{
   return x + dropout__f64_of(sigma_f32) * dropout__f64_of(z);
}

/* -- API ------------------------------------------------------------------------------ */

/* out[i] = normal number first + i (float; positions count normals). */
DROPOUTDEF int dropout_fill_normal_f32(dropout_key key, dropout_pos first, float *out, size_t n);

/* sigma_f of Gaussian dropout: (float)sqrt(p / (1 - p)); p in [0, 1) only. */
DROPOUTDEF float dropout_gaussian_sigma(double p);

/* ============================ end of VARIANTS declarations ============================ */

/* ====================================================================================
   THE EXTENDED ENTRY: one descriptor, one run function per backend (dropout_run here,
   dropout_cuda_run in dropout_cuda.cuh). A descriptor is plain caller-owned data, filled
   by dropout_desc_init and the setters (each checks its argument); dropout_run checks it
   all again with the tensors before it writes anything. Adding an option later adds a
   setter, never changes a prototype. It draws each plan once, and only at the address the
   plan was given to: a second forward run, or one of a copy, is refused until
   dropout_desc_new_step (or dropout_desc_replay, to draw the same mask on purpose).

   Shape and strides: element (i0 .. ik) of the tensor (row-major logical order, the last
   dim fastest) sits at base[sum i_d * stride_d] of each operand (element strides, any
   sign; the base pointer is element (0, .., 0)). The mask has the shape with broadcast
   dims set to 1 and is packed in its own row-major order; element (i0 .. ik) draws
   position plan->pos + (its row-major index in the mask shape), so a view gets exactly
   the bits of the same call on the contiguous copy. Inputs may have zero strides (an
   input broadcast in memory); an output may not, and an output whose strides make two
   elements share memory is refused: its dims, taken by growing |stride|, must each step
   past the extent of the ones before (every transpose, slice and flip of a real tensor
   does). An output may be an input (in place) only with the same strides.
   ==================================================================================== */

/* THE OPS, one row each: the enum, the names, the predicates and the GPU kernels' ops are
   all made from this list, so an op is added here (and in its element function). Columns:
     NAME, VALUE  DROPOUT_OP_NAME = VALUE (values pinned forever); STR its name
     IN     takes `in` and writes `out` (every op but MASK)
     MOUT   writes the mask when one is given (the mask it draws)
     MIN    reads a stored mask (`mask` is an input, and required)
     GRAD   a gradient: may add into `out` (DROPOUT_GRAD_ACCUMULATE)
     STEP   draws a step's mask: a run spends the descriptor's plan, and the next one
            needs dropout_desc_new_step (or dropout_desc_replay, to draw it again)
     CLASS  the element work, dropout_op_class's DROPOUT_CLASS_ suffix
     CLF64  needs cl_khr_fp64 on OpenCL (the normals are computed in double there)
     CUDA, CL  the op of dropout_cuda.cuh's and dropout_opencl.h's kernels (their
            DROPOUT_CUDA__ / DROPOUT_OPENCL__ suffix)
   FORWARD           out = dropout(in); mask: optional output
   BACKWARD          out = dropout(in) from the plan (in = dy, out = dx)
   MASK              mask only
   APPLY_MASK        out = in where the stored mask (input) keeps, scaled
   ALPHA_FORWARD     alpha dropout (SELU); mask: optional output
   ALPHA_BACKWARD    its gradient
   GAUSSIAN          forward and backward alike: y = x * (1 + sigma z), sigma from p
   NOISE             y = x + sigma z (dropout_desc_set_sigma); its gradient is dy
   BIAS_DROPOUT_ADD  out = residual + dropout(in + bias); mask: optional output */
#define DROPOUT__OPS(X)                                                                    \
   /* NAME             VALUE STR                  IN MOUT MIN GRAD STEP CLASS CLF64 CUDA      CL         */ \
   X(FORWARD,          1, "forward",          1, 1, 0, 0, 1, PLAIN,  0, DROP,       DROP)       \
   X(BACKWARD,         2, "backward",         1, 0, 0, 1, 0, PLAIN,  0, DROP,       DROP)       \
   X(MASK,             3, "mask",             0, 1, 0, 0, 1, MASK,   0, MASK,       MASK)       \
   X(APPLY_MASK,       4, "apply_mask",       1, 0, 1, 1, 0, PLAIN,  0, APPLY_MASK, APPLY_MASK) \
   X(ALPHA_FORWARD,    5, "alpha_forward",    1, 1, 0, 0, 1, ALPHA,  0, ALPHA,      ALPHA)      \
   X(ALPHA_BACKWARD,   6, "alpha_backward",   1, 0, 0, 1, 0, ALPHA,  0, ALPHA_GRAD, ALPHA_GRAD) \
   X(GAUSSIAN,         7, "gaussian",         1, 0, 0, 1, 1, NORMAL, 1, GAUSS,      GAUSS)      \
   X(NOISE,            8, "noise",            1, 0, 0, 0, 1, NORMAL, 1, NOISE,      NOISE)      \
   X(BIAS_DROPOUT_ADD, 9, "bias_dropout_add", 1, 1, 0, 0, 1, FUSED,  0, FUSED,      FUSED)

typedef enum dropout_op {
#define DROPOUT__OP_ENUM(N, V, S, IN, MOUT, MIN, GRAD, STEP, C, F64, CU, CL) DROPOUT_OP_##N = V,
   DROPOUT__OPS(DROPOUT__OP_ENUM)
#undef DROPOUT__OP_ENUM
   DROPOUT__OP_AS_INT = DROPOUT__ENUM_AS_INT
} dropout_op;

/* The dtypes, one row each, in value order (1, 2, ...): X(NAME, value, sfx, T, size, CUDA_T, K)
      NAME    DROPOUT_DTYPE_<NAME> = value (pinned forever); DROPOUT__<NAME> = value - 1
              inside, the index of the tables generated from the rows
      sfx     the suffix of its calls and kernels (dropout_forward_<sfx>) and its name
      T       the C element type of its calls; size = sizeof (T), bytes per element
      CUDA_T  dropout_cuda.cuh's element type for it (cuda_fp16.h, cuda_bf16.h)
      K       how the GPU kernels hold and compute it: F float, D double (OpenCL: only
              with cl_khr_fp64), H a 16-bit pattern computed in float (dropout_<sfx>_to_f32
              and dropout_f32_to_<sfx>)
   Generated from the rows: the enum, the internal indices, the element sizes, the short
   calls' definitions (their prototypes stay written out), dropout_cuda.cuh's calls,
   element dispatch and kernel instances, dropout_opencl.h's kernels, the walker's
   accumulate and copy. Still written per dtype besides its element functions and
   prototypes: the walker's element function (dropout__elem), the reference's and the
   SIMD paths' dispatch to their per-dtype loops in this file, dropout_cuda.cuh's paired
   16-bit path, and the Python package's name maps. */
#define DROPOUT__DTYPES(X) \
   X(F32,  1, f32,  float,        4, float,          F) \
   X(F64,  2, f64,  double,       8, double,         D) \
   X(F16,  3, f16,  dropout_f16,  2, __half,         H) \
   X(BF16, 4, bf16, dropout_bf16, 2, __nv_bfloat16,  H)

#define DROPOUT__DTYPE_ENUM(NAME, value, sfx, T, size, CUDA_T, K) DROPOUT_DTYPE_##NAME = value,
typedef enum dropout_dtype {   /* DROPOUT_DTYPE_F32 = 1 .. */
   DROPOUT__DTYPES(DROPOUT__DTYPE_ENUM) DROPOUT__DTYPE_AS_INT = DROPOUT__ENUM_AS_INT
} dropout_dtype;
#undef DROPOUT__DTYPE_ENUM

/* The op's name in the list ("forward", "bias_dropout_add", ...); NULL for a value that is
   no dropout_op. */
DROPOUTDEF const char *dropout_op_name(dropout_op op);

/* What an op does to each element (the job's op_class): PLAIN keep or drop and scale
   (FORWARD, BACKWARD, APPLY_MASK), MASK the mask alone, ALPHA alpha dropout, NORMAL a
   normal draw per element (GAUSSIAN, NOISE), FUSED bias-dropout-add. */
typedef enum dropout_op_class {
   DROPOUT_CLASS_PLAIN = 1, DROPOUT_CLASS_MASK = 2, DROPOUT_CLASS_ALPHA = 3, DROPOUT_CLASS_NORMAL = 4,
   DROPOUT_CLASS_FUSED = 5, DROPOUT__CLASS_AS_INT = DROPOUT__ENUM_AS_INT
} dropout_op_class;

/* OUT = y or dx, IN = x or dy, RESIDUAL (bias-dropout-add). bias is 1-D contiguous along
   the last dim; the mask is always packed in logical (mask-shape) row-major order. */
typedef enum dropout_operand {
   DROPOUT_OPERAND_OUT = 0, DROPOUT_OPERAND_IN = 1, DROPOUT_OPERAND_RESIDUAL = 2, DROPOUT__OPERAND_AS_INT = DROPOUT__ENUM_AS_INT
} dropout_operand;

/* Gradients (BACKWARD, ALPHA_BACKWARD, APPLY_MASK, GAUSSIAN): overwrite dx (default), or
   add into it: dx = dx + g, one rounding in the dtype (f16/bf16: the sum in float). */
typedef enum dropout_grad {
   DROPOUT_GRAD_OVERWRITE = 0, DROPOUT_GRAD_ACCUMULATE = 1, DROPOUT__GRAD_AS_INT = DROPOUT__ENUM_AS_INT
} dropout_grad;

/* Private fields: use the functions below. */
/* dropout__unrun's bits for strides a later shape reset: operand w's, and the position strides' */
#define DROPOUT__STALE_OF(w) (32u << (w))
#define DROPOUT__STALE_PSTRIDES 256u
#define DROPOUT__STALE_STRIDES (DROPOUT__STALE_OF(0) | DROPOUT__STALE_OF(1) | DROPOUT__STALE_OF(2) | DROPOUT__STALE_PSTRIDES)

/* Positions pos .. pos + count - 1 of key's stream, of one draw kind (8, 16, 32-bit draws
   or normals: the descriptor's records below) */
typedef struct dropout__drawn_at { dropout_key key; uint64_t pos, count; int kind; } dropout__drawn_at;
typedef struct dropout_desc {
   uint32_t dropout__magic;                          /* set by dropout_desc_init */
   int dropout__op, dropout__dtype, dropout__rank, dropout__grad;
   unsigned dropout__broadcast;                      /* bit d: dim d shares one decision */
   unsigned dropout__strided;                        /* bit w: operand w has its own strides */
   unsigned dropout__pstrided;                       /* 1: dropout__pstride holds position strides */
   unsigned dropout__unrun;                          /* bit w (8: position strides): set before any shape, not run; 16: a shape was set;
                                                        bit 5 + w (256: position strides): set for an earlier shape, reset by one since, not set again */
   uint64_t dropout__pstride[DROPOUT_MAX_RANK];      /* positions per index step of each dim */
   dropout_plan dropout__plan;
   size_t dropout__dim[DROPOUT_MAX_RANK];
   ptrdiff_t dropout__stride[3][DROPOUT_MAX_RANK];   /* by dropout_operand; when its bit is set */
   double dropout__sigma;                            /* NOISE; -1 until set */
   size_t dropout__bias_len;                         /* BIAS_DROPOUT_ADD; 0 = the last dim */
   size_t dropout__mask_bytes;                       /* the mask buffer's size; 0 = not stated */
   const uint64_t *dropout__dev_seed, *dropout__dev_pos;   /* device coordinates (CUDA graphs) */
   /* The plan draws one step's mask, from one place: dropout__home is the address that
      dropout_desc_init, _new_step, _replay (and _set_plan, _move when the plan may draw)
      gave it to, dropout__drawn is set (1) by the run of a STEP op or a plan refused. A
      second forward (DROPOUT_ERR_PLAN_RAN) or one from
      a copy (DROPOUT_ERR_DESC_MOVED) is refused instead of drawing the same mask again.
      dropout__armed: the positions of the plan as it was armed, which a set_plan that
      does not arm leaves as they are: what a spent descriptor drew, or a copy may not.
      dropout__last: the positions its last forward drew, which arming does not clear
      (a plan set, or a step begun, and no forward run: the drawn plan is still refused). */
   const struct dropout_desc *dropout__home;
   int dropout__drawn;
   dropout__drawn_at dropout__armed, dropout__last;
} dropout_desc;

/* op, dtype and plan (copied); default shape: 1-D, plan->count elements, contiguous, no
   broadcast, overwrite. The plan counts op's draws (plan->units: normals for GAUSSIAN and
   NOISE, else the rule's width). GAUSSIAN needs p < 1 (its sigma is sqrt(p / (1 - p)) of
   the realised p). */
DROPOUTDEF int dropout_desc_init(dropout_desc *d, dropout_op op, dropout_dtype dtype, const dropout_plan *plan);
/* rank 1 .. DROPOUT_MAX_RANK dims; resets strides and position strides to the default,
   so it comes first: strides set before d's first shape and never run are refused rather
   than reset (DROPOUT_ERR_SHAPE_RESETS; set them to NULL first to reset on purpose), and
   strides set for an earlier shape must be set again (or to NULL) before d runs with this
   one (DROPOUT_ERR_STRIDES_STALE). The
   positions the shape draws (with the broadcast set after it) must equal plan->count:
   dropout_run checks. */
DROPOUTDEF int dropout_desc_set_shape(dropout_desc *d, int rank, const size_t *dims);
/* `rank` element strides of one operand (set the shape first; NULL = contiguous again). */
DROPOUTDEF int dropout_desc_set_strides(dropout_desc *d, dropout_operand which, const ptrdiff_t *strides);
/* bit d set = dim d shares one keep decision (channel / spatial / locked dropout, drop path). */
DROPOUTDEF int dropout_desc_set_broadcast(dropout_desc *d, unsigned dims);
/* `rank` position strides (set the shape first; NULL = the default again): element
   (i_0, .., i_r-1) draws plan->pos + sum i_d * strides[d] instead of its row-major index,
   and the plan's count is their span, 1 + sum (dim_d - 1) * strides[d] (0 when a dim of 0
   elements has a non-zero stride; a zero stride shares draws, as below).
   For a slice of a larger tensor whose mask is the whole's: tensor parallel's columns
   [c0, c1) of a (B, W) activation are shape {B, c1 - c0}, position strides {W, 1} and the plan
   dropout_plan_slice(&whole, c0, (B - 1) * W + (c1 - c0)), set with dropout_desc_set_plan
   each step (dropout_desc_new_step refuses it: DROPOUT_ERR_POSITION_STRIDES). A zero
   stride shares draws, as a broadcast dim (not with dropout_desc_set_broadcast:
   DROPOUT_ERR_BROADCAST). Two elements never draw one position: over the dims of more
   than one element, each non-zero stride in increasing order passes the span of the
   smaller ones; else DROPOUT_ERR_POSITION_STRIDES (also a span past PTRDIFF_MAX). A last
   dim stepping more than 1 runs an element at a time. A mask written or read covers the
   whole span, not the elements: where the span passes the elements a run with a mask
   needs its size stated (dropout_desc_set_mask_bytes; else DROPOUT_ERR_MASK_BYTES;
   dropout_opencl_run knows its buffer's size). */
DROPOUTDEF int dropout_desc_set_position_strides(dropout_desc *d, const uint64_t *strides);
/* The size in bytes of the mask buffers d's runs are given (0: not stated). A run whose
   mask needs more, (positions + 7) / 8 bytes, is refused (DROPOUT_ERR_MASK_BYTES), as is
   a run with a mask and position strides spanning more positions than elements whose
   size was not stated: that mask holds the whole span, more than the elements. */
DROPOUTDEF int dropout_desc_set_mask_bytes(dropout_desc *d, size_t bytes);
DROPOUTDEF int dropout_desc_set_grad(dropout_desc *d, dropout_grad mode);
DROPOUTDEF int dropout_desc_set_sigma(dropout_desc *d, double sigma);       /* NOISE: finite, >= 0 */
/* BIAS_DROPOUT_ADD: the bias length, which is the last dim. On the default 1-D shape it
   makes the shape [count / bias_len, bias_len]. */
DROPOUTDEF int dropout_desc_set_bias_len(dropout_desc *d, size_t bias_len);
/* CUDA graphs: the seed and the first position are read from device memory when the kernel
   runs (dropout_cuda.cuh); a CPU run refuses a descriptor with these set. NULL, NULL clears. */
DROPOUTDEF int dropout_desc_set_device_coords(dropout_desc *d, const uint64_t *dev_seed, const uint64_t *dev_pos);
/* How many positions the shape draws (the mask's element count). */
DROPOUTDEF int dropout_desc_positions(const dropout_desc *d, uint64_t *positions);
/* The same for a shape before any plan exists (dims[rank], broadcast bits as
   dropout_desc_set_broadcast): the count to give dropout_gen_plan. */
DROPOUTDEF int dropout_shape_positions(int rank, const size_t *dims, unsigned broadcast, uint64_t *positions);
/* Another op on the same descriptor: the backward of a step is its forward's descriptor
   with DROPOUT_OP_BACKWARD (shape, strides, broadcast and plan kept). Between dropout
   draws and normals (GAUSSIAN, NOISE) the plan counts the other kind: a run refuses it
   until dropout_desc_new_step or _set_plan. */
DROPOUTDEF int dropout_desc_set_op(dropout_desc *d, dropout_op op);
/* Another plan (checked, its units against the op; its count against the shape when the
   descriptor runs). It may
   draw one forward, unless it shares positions with the plan d holds and may not draw
   (last step's plan passed again; a copy given its original's): that stays refused. */
DROPOUTDEF int dropout_desc_set_plan(dropout_desc *d, const dropout_plan *plan);
/* A new step: reserves from g the positions the shape draws and makes them the plan (the
   rule kept; the key g's). The descriptor's way to a fresh mask, as dropout_forward_* is
   the short calls'. */
DROPOUTDEF int dropout_desc_new_step(dropout_desc *d, dropout_gen *g);
/* A descriptor draws its plan once: a run of an op that draws a step's mask (FORWARD,
   MASK, ALPHA_FORWARD, GAUSSIAN, NOISE, BIAS_DROPOUT_ADD) spends it, and the next such run
   of d is refused (DROPOUT_ERR_PLAN_RAN) until dropout_desc_new_step gives fresh positions
   or this call says the same mask is wanted again: checkpoint recomputation, GAUSSIAN's
   backward (the same op on dy), MASK then FORWARD of one plan. Backward ops (BACKWARD,
   APPLY_MASK, ALPHA_BACKWARD) read the plan as often as they run and spend nothing. */
DROPOUTDEF int dropout_desc_replay(dropout_desc *d);
/* Moves a descriptor on purpose: *to becomes *from, its plan drawable from to (if from
   could draw it), and from is refused for a forward until its own new_step, set_plan or
   replay (DROPOUT_ERR_DESC_MOVED, or PLAN_RAN for a plan it drew). A copy
   made any other way (assignment, by value, realloc) is refused for a forward until its
   own dropout_desc_new_step, _set_plan or _replay. */
DROPOUTDEF int dropout_desc_move(dropout_desc *to, dropout_desc *from);
/* For a backend outside this library that ran (or enqueued) what dropout_lower made of d:
   a STEP op's plan is drawn, and the strides were used (a shape set now resets them
   rather than DROPOUT_ERR_SHAPE_RESETS, and they must be set again before the next run:
   DROPOUT_ERR_STRIDES_STALE); dropout_run, dropout_cuda_run and dropout_opencl_run do it
   themselves. */
DROPOUTDEF int dropout_desc_ran(dropout_desc *d);

/* Name what you pass; leave the rest NULL (a tensor the op does not use is refused). */
typedef struct dropout_tensors {
   void *out;  uint8_t *mask;  const void *in;  const void *bias;  const void *residual;
} dropout_tensors;

/* Runs d's op on t (a STEP op spends d's plan: dropout_desc_replay). A forward writes d:
   one descriptor's forward never runs on two threads at once. */
DROPOUTDEF int dropout_run(dropout_desc *d, const dropout_tensors *t);

/* THE LOWERED FORM of a descriptor and its tensors: what every backend runs (dropout_run
   on the CPU, dropout_cuda_run, dropout_opencl_run, the Python package's C side), filled
   once by dropout_lower, which makes every check dropout_run makes. A plain struct: read
   it, do not fill it by hand. The geometry is reduced: dims of size 1 are dropped and a
   dim merges into its inner neighbour when the mask index and every operand (bias too)
   step over both as over one, so element (i0 .. ik) of the reduced shape is the same
   element, at the same address and the same draw position, as in the descriptor's shape
   (a contiguous tensor becomes rank 1, a slice of rows rank 2). Strides of the operands a
   run does not use are the contiguous ones (they never stop a merge). */
#define DROPOUT_JOB_BIAS 3          /* stride[DROPOUT_JOB_BIAS]: the bias's strides */
#define DROPOUT_JOB_OPERANDS 4      /* out, in, residual (by dropout_operand), bias */
typedef struct dropout_job {
   dropout_op op;
   dropout_op_class op_class;      /* what each element gets (the op list's CLASS) */
   dropout_dtype dtype;
   size_t elem_size;               /* bytes per element of out, in, residual and bias */
   int accumulate;                 /* 1: out += the result (DROPOUT_GRAD_ACCUMULATE) */
   dropout_rule rule;              /* the plan's rule */
   dropout_alpha_rule alpha;       /* ALPHA ops: the rule's alpha constants; else zeros
                                      (alpha.base = rule) */
   float sigma;                    /* NORMAL ops: the sigma the element functions take */
   int copy;                       /* NORMAL ops with p = 0 or sigma = 0: out = in, bit for bit */
   uint64_t seed, stream;          /* the plan's key */
   uint64_t pos;                   /* the plan's first position (element 0 of the mask) */
   uint64_t positions;             /* the plan's count: the mask's elements */
   const uint64_t *dev_seed, *dev_pos;   /* device coordinates (CUDA graphs), or NULL */
   size_t numel;                   /* elements of the tensors (0: nothing but a mask to write) */
   int rank;                       /* 1 .. DROPOUT_MAX_RANK, reduced (1 when empty or one element) */
   size_t dim[DROPOUT_MAX_RANK];   /* reduced dims; entries past rank are 1 */
   uint64_t mask_stride[DROPOUT_MAX_RANK];   /* mask (draw) index step per dim, 0 on broadcast
                                      dims: element i draws pos + sum i_d * mask_stride[d] */
   ptrdiff_t stride[DROPOUT_JOB_OPERANDS][DROPOUT_MAX_RANK];   /* element strides by operand;
                                      entries past rank are 0 */
   size_t bias_len;                /* FUSED: the bias's elements (the descriptor's last dim);
                                      bias element of i: sum i_d * stride[DROPOUT_JOB_BIAS][d] */
   int contiguous;                 /* 1: the tensors are one run, unbroadcast (numel ==
                                      positions): element k of every operand the op uses
                                      (out, in, residual) is at base + k and draws pos + k */
   void *out;                      /* NULL when the op takes none (MASK) */
   const void *in, *residual, *bias;   /* NULL when the op takes none */
   uint8_t *mask_out;              /* the mask to write (an op that draws one, if given) */
   const uint8_t *mask_in;         /* the stored mask to read (APPLY_MASK) */
} dropout_job;

/* Check d and t as dropout_run does (every code but the CPU's own DEVICE_COORDS) and fill
   *j. On error *j is not written. Device coordinates are copied, not refused: a backend
   that cannot read them (the CPU, OpenCL) refuses a job whose dev_seed is set. */
DROPOUTDEF int dropout_lower(const dropout_desc *d, const dropout_tensors *t, dropout_job *j);

/* ============================ end of VARIANTS declarations ============================ */



/* Link errors that say the fix: every file that includes the declarations refers to this
   symbol and the implementation defines it, so a program without the implementation
   fails with "undefined reference to dropout_h_needs_DROPOUT_IMPLEMENTATION_in_exactly_one_file"
   and one with it in two files with "multiple definition of" the same name. */
#if !defined(DROPOUT_STATIC) && !defined(__OPENCL_C_VERSION__) && !defined(__CUDACC__)
extern int dropout_h_needs_DROPOUT_IMPLEMENTATION_in_exactly_one_file;   /* extern, not DROPOUTDEF: a user's DROPOUTDEF without it (empty, visibility) made this a definition in every file */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(DROPOUT_IMPLEMENTATION) && !defined(DROPOUT_NO_LINK_CHECK)
static int *const dropout__link_check __attribute__((used, unused)) = &dropout_h_needs_DROPOUT_IMPLEMENTATION_in_exactly_one_file;
#endif
#endif

#ifdef __cplusplus
}
#endif

#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#pragma GCC diagnostic pop
#endif

#if defined(DROPOUT__FLOAT_CONTROL)
#pragma float_control(pop)
#endif
#endif /* DROPOUT_H_INCLUDED */

/* ==================================================================================== */
/*                                  IMPLEMENTATION                                      */
/* ==================================================================================== */

#ifdef DROPOUT_IMPLEMENTATION
#ifndef DROPOUT_IMPLEMENTATION_DONE
#define DROPOUT_IMPLEMENTATION_DONE
#if defined(DROPOUT__FLOAT_CONTROL)   /* clang's precise mode (above), for the implementation */
#pragma float_control(precise, on, push)
#endif
/* Options that let the compiler change float results (each would change bits that every
   other build agrees on, silently): refused where the implementation is compiled, like
   excess precision. A file that only includes the declarations is not affected (the
   inline building blocks it calls are compiled with its own flags: call the library
   functions from a fast-math file instead). gcc says which of them are on through these
   macros (-ffast-math sets several); clang 14 defines only __FAST_MATH__ and
   __FINITE_MATH_ONLY__, so clang's -fassociative-math, -fno-signed-zeros,
   -freciprocal-math and -funsafe-math-optimizations cannot be seen here: its precise mode
   (DROPOUT__FLOAT_CONTROL, at the top) undoes them (docs/API.md, "Fast-math"). */
#if defined(__FAST_MATH__)
#error "dropout.h's implementation must not be built with -ffast-math (it reassociates, flushes subnormals and assumes no NaN/Inf, which changes the bits): build the one file that defines DROPOUT_IMPLEMENTATION without -ffast-math / -Ofast, or add -fno-fast-math after it; other files may use -ffast-math"
#endif
#if defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__ > 0
#error "dropout.h's implementation must not be built with -ffinite-math-only (NaN and Inf inputs must pass as specified): add -fno-finite-math-only to the file that defines DROPOUT_IMPLEMENTATION"
#endif
#if defined(__NO_SIGNED_ZEROS__)
#error "dropout.h's implementation must not be built with -fno-signed-zeros (dropped elements are +0 and -0 inputs must stay -0): add -fsigned-zeros to the file that defines DROPOUT_IMPLEMENTATION"
#endif
#if defined(__RECIPROCAL_MATH__)
#error "dropout.h's implementation must not be built with -freciprocal-math (x / y may become x * (1 / y), another rounding): add -fno-reciprocal-math to the file that defines DROPOUT_IMPLEMENTATION"
#endif
#if defined(__ASSOCIATIVE_MATH__)
#error "dropout.h's implementation must not be built with -fassociative-math (reassociated sums round differently): add -fno-associative-math to the file that defines DROPOUT_IMPLEMENTATION"
#endif
#if defined(_M_FP_FAST)   /* MSVC and clang-cl: /fp:fast */
#error "dropout.h's implementation must not be built with /fp:fast (it may contract, reassociate and assume no NaN/Inf, which changes the bits): build the file that defines DROPOUT_IMPLEMENTATION with /fp:precise (the default) or /fp:strict"
#endif

#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
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

/* -fsingle-precision-constant (gcc, clang; common on microcontrollers with a float FPU)
   makes every unsuffixed constant a float: the normals' constants lost their digits and
   Gaussian dropout, noise and alpha dropout changed bits, silently but for two warnings
   that do not say so. No macro says it; a double constant that a float cannot hold does:
   with the flag, this array's size is negative and the build stops here, at this name. */
typedef char dropout__build_the_implementation_without_fsingle_precision_constant
   [(uint64_t)16777217.0 == UINT64_C(16777217) ? 1 : -1];

/* DROPOUT_V0_API, the implementation compiled after the declarations: the 0.1 names that
   dropout_v0.h gave would rename the 1.0 definitions; it lifts them (and gives them back
   at the end of this file) */
#if defined(DROPOUT_V0_API) && defined(DROPOUT_V0_H_INCLUDED)
#define DROPOUT_V0__NAMES_OFF
#include "dropout_v0.h"
#endif

#ifndef DROPOUT_ASSERT
/* assert.h is a hosted header: a freestanding build (-ffreestanding, or a target with no
   libc such as clang --target=wasm32 -nostdlib) checks nothing rather than fail to build */
#if defined(__STDC_HOSTED__) && __STDC_HOSTED__ == 0
#define DROPOUT_ASSERT(x) ((void)0)
#elif defined(__has_include)
#if __has_include(<assert.h>)
#include <assert.h>
#define DROPOUT_ASSERT(x) assert(x)
#else
#define DROPOUT_ASSERT(x) ((void)0)
#endif
#else
#include <assert.h>
#define DROPOUT_ASSERT(x) assert(x)
#endif
#endif

#if defined(_MSC_VER) && (defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 1))
#include <xmmintrin.h>   /* _mm_getcsr: the FPU mode check */
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if !defined(DROPOUT_STATIC) && !defined(__CUDACC__)
int dropout_h_needs_DROPOUT_IMPLEMENTATION_in_exactly_one_file = 1;   /* see the declarations */
#endif

/* The dtypes inside: DROPOUT__F32 = 0 .., the index of the per-dtype tables. */
#define DROPOUT__DTYPE_INDEX(NAME, value, sfx, T, size, CUDA_T, K) DROPOUT__##NAME = value - 1,
#define DROPOUT__DTYPE_ROW(NAME, value, sfx, T, size, CUDA_T, K) DROPOUT__ROW_##NAME,
#define DROPOUT__DTYPE_IN_ORDER(NAME, value, sfx, T, size, CUDA_T, K) \
   typedef char dropout__dtype_row_in_order_and_sized_##NAME[DROPOUT__ROW_##NAME == value - 1 && sizeof (T) == size ? 1 : -1];
enum { DROPOUT__DTYPES(DROPOUT__DTYPE_INDEX) };
enum { DROPOUT__DTYPES(DROPOUT__DTYPE_ROW) DROPOUT__DTYPE_COUNT };
DROPOUT__DTYPES(DROPOUT__DTYPE_IN_ORDER)   /* tables are indexed by value - 1; size is sizeof (T) */
#undef DROPOUT__DTYPE_IN_ORDER
#undef DROPOUT__DTYPE_ROW
#undef DROPOUT__DTYPE_INDEX
/* the type an element is held in inside, by its row's K (the building blocks take f16 and
   bf16 as their 16-bit patterns) */
#define DROPOUT__HELD_F float
#define DROPOUT__HELD_D double
#define DROPOUT__HELD_H uint16_t

/* Elements are processed in chunks of 64 so that a chunk's keep decisions fit one
   uint64_t: bit i = element i of the chunk kept. */
#define DROPOUT__CHUNK 64

/* Bodies written once for every dtype and inlined where the dtype is a constant, so that
   a program calling only the f32 functions links only f32 code (a Cortex-M4 build then
   carries no soft double). Forced only where the compiler optimises: a debug build (-O0)
   folds no constant in an inlined copy, so the copies bought nothing there and cost the
   compile (gcc's -O0 AVX-512 build took 12-14 s, with the bodies called 1.2 s: see
   bench/results/compile-time-*). The same bits either way: no body returns a float (the
   i386 case of DROPOUT_HD). */
#if defined(__GNUC__) || defined(__clang__)
#if defined(__OPTIMIZE__)
#define DROPOUT__INLINE static inline __attribute__((always_inline))
#else
#define DROPOUT__INLINE static inline
#endif
#define DROPOUT__SIMD_ONLY static __attribute__((unused))   /* called by the SIMD paths alone */
#elif defined(_MSC_VER)
#define DROPOUT__INLINE static __forceinline
#define DROPOUT__SIMD_ONLY static
#else
#define DROPOUT__INLINE static inline
#define DROPOUT__SIMD_ONLY static
#endif

DROPOUTDEF const char *dropout_strerror(int code)
{
#define DROPOUT__ERROR_CASE(name, value, message) case name: return message;
   switch (code) {
   DROPOUT__ERRORS(DROPOUT__ERROR_CASE)
   default:   /* the GPU headers' codes: dropout_cuda_strerror and dropout_opencl_strerror name them */
      if (code < -2000)   /* (-2000 would be CL_SUCCESS's: no call returns it) */
         return "an OpenCL call failed, or dropout_opencl.h refused a buffer, queue or device with OpenCL's code for it "
                "(the code is DROPOUT_ERR_OPENCL_BASE + that cl_int)";
      if (code == -2000) return "unknown dropout error code";
      if (code <= -901 && code >= -906)
         return "dropout_opencl.h's own error of this code (dropout_opencl_strerror names it)";
      if (code <= DROPOUT_ERR_CUDA_BASE)
         return "a CUDA call failed (cuda error = DROPOUT_ERR_CUDA_BASE - code)";
      return "unknown dropout error code";
   }
#undef DROPOUT__ERROR_CASE
}

/* Positions offset .. offset + n - 1 must all exist (< 2^64). */
static int dropout__range_ok(size_t n, uint64_t offset)
{
   return n == 0 || (uint64_t)(n - 1) <= UINT64_MAX - offset;
}

static int dropout__range_ok64(uint64_t n, uint64_t offset)
{
   return n == 0 || n - 1 <= UINT64_MAX - offset;
}


/* The FPU mode the bits need: subnormals kept (not flushed) and round to nearest even,
   with NaNs propagated (no default NaN). A program may run in another mode (crtfastmath.o,
   linked into any program one of whose objects is built with -ffast-math or -Ofast, sets
   x86 MXCSR FTZ/DAZ for the whole process; Arm FZ likewise), so every CPU call that
   computes floats sets this mode on entry where it differs and gives the caller's back
   on return (its sticky exception flags kept). Reading the register is the whole cost
   in the usual case (bench/fpu_check.c). Targets without such modes (RISC-V, wasm, s390x,
   soft float) have nothing to do. */
typedef struct dropout__fpu { unsigned long long saved; int set; } dropout__fpu;

#if (defined(__x86_64__) || defined(__i386__)) && defined(__SSE__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDA_ARCH__)
#define DROPOUT__FPU_X86 1
/* MemorySanitizer does not see the asm's store: there alone c starts at 0 (elsewhere that
   store would be one instruction more in every call) */
#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define DROPOUT__CSR_MSAN_INIT = 0
#endif
#endif
#ifndef DROPOUT__CSR_MSAN_INIT
#define DROPOUT__CSR_MSAN_INIT
#endif
static unsigned dropout__csr_get(void) { unsigned c DROPOUT__CSR_MSAN_INIT; __asm__ __volatile__("stmxcsr %0" : "=m"(c)); return c; }
static void dropout__csr_set(unsigned c) { __asm__ __volatile__("ldmxcsr %0" : : "m"(c)); }
#elif defined(_MSC_VER) && (defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 1))
#define DROPOUT__FPU_X86 1
static unsigned dropout__csr_get(void) { return _mm_getcsr(); }
static void dropout__csr_set(unsigned c) { _mm_setcsr(c); }
#endif

static void dropout__fpu_enter(dropout__fpu *f)
{
   f->set = 0;
   f->saved = 0;
#if defined(DROPOUT__FPU_X86)
   {  /* MXCSR: FTZ bit 15, DAZ bit 6, rounding bits 13-14; flags bits 0-5 */
      unsigned c = dropout__csr_get();
      if (c & 0xE040u) { f->saved = c; f->set = 1; dropout__csr_set(c & ~0xE040u); }
   }
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDA_ARCH__)
   {  /* FPCR: DN bit 25, FZ 24, RMode 22-23, FZ16 19, AH 1, FIZ 0 */
      uint64_t c;
      __asm__ __volatile__("mrs %0, fpcr" : "=r"(c));
      if (c & 0x3C80003u) {
         uint64_t w = c & ~(uint64_t)0x3C80003u;
         f->saved = c; f->set = 1;
         __asm__ __volatile__("msr fpcr, %0" : : "r"(w));
      }
   }
#elif defined(__arm__) && defined(__ARM_FP) && (defined(__GNUC__) || defined(__clang__))
   {  /* FPSCR: DN bit 25, FZ 24, RMode 22-23; flags bits 0-4, 7 */
      uint32_t c;
      __asm__ __volatile__("vmrs %0, fpscr" : "=r"(c));
      if (c & 0x3C00000u) {
         uint32_t w = c & ~(uint32_t)0x3C00000u;
         f->saved = c; f->set = 1;
         __asm__ __volatile__("vmsr fpscr, %0" : : "r"(w));
      }
   }
#endif
}

static void dropout__fpu_leave(const dropout__fpu *f)
{
   if (!f->set) return;
#if defined(DROPOUT__FPU_X86)
   dropout__csr_set(((unsigned)f->saved & ~0x3Fu) | (dropout__csr_get() & 0x3Fu));
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDA_ARCH__)
   {  /* FPCR holds no flags (they are in FPSR): give the caller's back as it was */
      uint64_t c = f->saved;
      __asm__ __volatile__("msr fpcr, %0" : : "r"(c));
   }
#elif defined(__arm__) && defined(__ARM_FP) && (defined(__GNUC__) || defined(__clang__))
   {
      uint32_t now, c;
      __asm__ __volatile__("vmrs %0, fpscr" : "=r"(now));
      c = ((uint32_t)f->saved & ~(uint32_t)0x9Fu) | (now & 0x9Fu);
      __asm__ __volatile__("vmsr fpscr, %0" : : "r"(c));
   }
#endif
}

/* Walks the stream one Philox block at a time, so that consecutive draws share a block. */
typedef struct dropout__cursor {
   uint64_t seed, stream;
   uint64_t block;      /* block held in `words`, valid when have != 0 */
   uint32_t words[4];
   int have;
} dropout__cursor;

static void dropout__cursor_init(dropout__cursor *c, uint64_t seed, uint64_t stream)
{
   c->seed = seed;
   c->stream = stream;
   c->block = 0;
   c->have = 0;
}

static const uint32_t *dropout__cursor_words(dropout__cursor *c, uint64_t block)
{
   if (!c->have || c->block != block) {
      dropout_block(c->seed, c->stream, block, c->words);
      c->block = block;
      c->have = 1;
   }
   return c->words;
}

/* ---- the scalar reference --------------------------------------------------------- */

/* Scalar reference: keep bits for `count` (<= 64) positions starting at `pos`. */
static uint64_t dropout__keep_bits_ref(dropout__cursor *c, const dropout_rule *r,
                                       uint64_t pos, unsigned count)
{
   unsigned log2_draws = r->bits == 32 ? 2u : r->bits == 16 ? 3u : 4u;  /* draws per block */
   uint64_t keep = 0;
   unsigned i;
   for (i = 0; i < count; ++i) {
      uint64_t q = pos + i;
      const uint32_t *w = dropout__cursor_words(c, q >> log2_draws);
      unsigned lane = (unsigned)(q & ((1u << log2_draws) - 1u));
      keep |= (uint64_t)dropout_keep(dropout_draw(w, r->bits, lane), *r) << i;
   }
   return keep;
}

static uint64_t dropout__load_mask_bits(const uint8_t *mask, unsigned count)
{
   uint64_t keep = 0;
   unsigned i;
   for (i = 0; i < (count + 7u) / 8u; ++i) keep |= (uint64_t)mask[i] << (8u * i);
   return count == 64 ? keep : keep & (((uint64_t)1 << count) - 1u);
}

static void dropout__store_mask_bits(uint8_t *mask, uint64_t keep, unsigned count)
{
   unsigned i;
   for (i = 0; i < (count + 7u) / 8u; ++i) mask[i] = (uint8_t)(keep >> (8u * i));
}

/* Apply one chunk's keep bits to `count` elements of the given type. */
DROPOUT__INLINE void dropout__apply_chunk_body(int dtype, void *y, const void *x, size_t at,
                                 uint64_t keep, unsigned count, const dropout_rule *r)
{
   unsigned i;
   switch (dtype) {
   case DROPOUT__F32: {
      float *yo = (float *)y + at; const float *xi = (const float *)x + at;
      for (i = 0; i < count; ++i) yo[i] = dropout_apply_f32(xi[i], (int)((keep >> i) & 1u), *r);
   } break;
   case DROPOUT__F64: {
      double *yo = (double *)y + at; const double *xi = (const double *)x + at;
      for (i = 0; i < count; ++i) yo[i] = dropout_apply_f64(xi[i], (int)((keep >> i) & 1u), *r);
   } break;
   case DROPOUT__F16: {
      uint16_t *yo = (uint16_t *)y + at; const uint16_t *xi = (const uint16_t *)x + at;
      for (i = 0; i < count; ++i) yo[i] = dropout_apply_f16(xi[i], (int)((keep >> i) & 1u), *r);
   } break;
   default: {
      uint16_t *yo = (uint16_t *)y + at; const uint16_t *xi = (const uint16_t *)x + at;
      for (i = 0; i < count; ++i) yo[i] = dropout_apply_bf16(xi[i], (int)((keep >> i) & 1u), *r);
   } break;
   }
}

DROPOUT__SIMD_ONLY void dropout__apply_chunk(int dtype, void *y, const void *x, size_t at,
                                            uint64_t keep, unsigned count, const dropout_rule *r)
{
   dropout__apply_chunk_body(dtype, y, x, at, keep, count, r);
}

/* The scalar reference of the one loop behind forward, backward, mask and apply_mask.
   y/x: the data (both NULL for mask only); mask_out: optional; mask_in: when given, the
   keep bits come from it instead of the stream. */
DROPOUT__INLINE void dropout__run_ref_body(int dtype, void *y, uint8_t *mask_out, const void *x,
                                           const uint8_t *mask_in, size_t n, const dropout_rule *r,
                                           uint64_t seed, uint64_t stream, uint64_t offset)
{
   dropout__cursor c;
   size_t at;
   dropout__cursor_init(&c, seed, stream);
   for (at = 0; at < n; at += DROPOUT__CHUNK) {
      unsigned count = (unsigned)(n - at < DROPOUT__CHUNK ? n - at : DROPOUT__CHUNK);
      DROPOUT_ASSERT(count >= 1 && count <= DROPOUT__CHUNK);
      uint64_t keep = mask_in ? dropout__load_mask_bits(mask_in + at / 8u, count)
                              : dropout__keep_bits_ref(&c, r, offset + at, count);
      if (mask_out) dropout__store_mask_bits(mask_out + at / 8u, keep, count);
      if (y) dropout__apply_chunk_body(dtype, y, x, at, keep, count, r);
   }
}

DROPOUT__SIMD_ONLY void dropout__run_ref(int dtype, void *y, uint8_t *mask_out, const void *x,
                                        const uint8_t *mask_in, size_t n, const dropout_rule *r,
                                        uint64_t seed, uint64_t stream, uint64_t offset)
{
   dropout__run_ref_body(dtype, y, mask_out, x, mask_in, n, r, seed, stream, offset);
}

/* Stream words word .. word + n - 1 into out, one block at a time. */
static void dropout__words_ref(uint32_t *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word)
{
   dropout__cursor c;
   size_t i;
   dropout__cursor_init(&c, seed, stream);
   for (i = 0; i < n; ++i) {
      uint64_t q = word + i;
      out[i] = dropout__cursor_words(&c, q >> 2)[q & 3u];
   }
}

/* ------------------------------------------------------------------------------------
   SIMD PATHS (x86 SSE2 / SSE4.1 / AVX2 / AVX-512BW, AArch64 NEON, WebAssembly SIMD128)

   Selected at compile time from the compiler's target macros, as stb_image does: no
   cpuid, no function pointers, no global state. Every path computes exactly what the
   scalar reference above computes (dropout__run_ref, dropout__keep_bits_ref,
   dropout__words_ref): the same Philox words, the same integer compares, the same single
   IEEE multiply per kept element, the same integer f16/bf16 rounding.

   How: Philox runs on many blocks at once (x86: one block per 64-bit lane, the 32x32->64
   products from mul_epu32; NEON and WebAssembly: one per 32-bit lane, from vmull or
   extmul), then a transpose puts
   the words in stream order. Keep bits are made for stream-aligned windows of 64
   positions (4, 8 or 16 blocks: only the blocks the mode needs) straight from vector
   compares (movemask / AVX-512 mask registers); a call at any offset reads its 64-bit
   keep words as a shift of two windows.

   Layout: one block per instruction set (AVX-512, AVX2, SSE2/SSE4.1, NEON, WebAssembly
   SIMD128), the only place intrinsics are written, each defining the same names (listed
   below); then the shared Philox of NEON and WebAssembly (one block per 32-bit lane) and
   of the x86 blocks (one block per 64-bit lane); then one driver (the data grid,
   the overlap, the SIMD run, the engine) written over those names alone. Measurements
   behind the choices: bench/results/simd-design-notes.md.
   ------------------------------------------------------------------------------------ */
/* Opt-outs, for a build whose target flags allow more than the program should use (say
   -march=native, run where 512-bit code lowers the clock): DROPOUT_NO_AVX512 leaves out
   the AVX-512 path (AVX2 is taken where the flags allow it), DROPOUT_NO_AVX2 leaves out
   AVX2 and AVX-512 (the SSE path). Same bits on every path; DROPOUT_NO_SIMD, the
   reference alone. */
#if !defined(DROPOUT_NO_SIMD)
#if defined(__AVX512F__) && defined(__AVX512BW__) && !defined(DROPOUT_NO_AVX512) && !defined(DROPOUT_NO_AVX2)
#define DROPOUT__SIMD_AVX512 1
#define DROPOUT__SIMD_NAME "avx512"
#elif defined(__AVX2__) && !defined(DROPOUT_NO_AVX2)
#define DROPOUT__SIMD_AVX2 1
#define DROPOUT__SIMD_NAME "avx2"
#elif defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#define DROPOUT__SIMD_SSE 1
#ifdef __SSE4_1__
#define DROPOUT__SIMD_NAME "sse4.1"
#else
#define DROPOUT__SIMD_NAME "sse2"
#endif
#elif defined(__ARM_NEON) && defined(__aarch64__)
#define DROPOUT__SIMD_NEON 1
#define DROPOUT__SIMD_NAME "neon"
#elif defined(__wasm_simd128__)
#define DROPOUT__SIMD_WASM 1
#define DROPOUT__SIMD_NAME "wasm-simd128"
#endif
#endif
#ifndef DROPOUT__SIMD_NAME
#define DROPOUT__SIMD_NAME "reference"
#else
#define DROPOUT__SIMD 1
#endif
#if defined(DROPOUT__SIMD_AVX512) || defined(DROPOUT__SIMD_AVX2) || defined(DROPOUT__SIMD_SSE)
#define DROPOUT__SIMD_X86 1
#endif
#if defined(DROPOUT__SIMD_NEON) || defined(DROPOUT__SIMD_WASM)
#define DROPOUT__SIMD_LANES32 1   /* Philox a block a 32-bit lane (below the blocks) */
#endif

#ifdef DROPOUT__SIMD
/* memcpy: string.h where the target has one (programs have come to rely on it being
   included here), and the compiler's own where not: a freestanding wasm32 -nostdlib build
   has no string.h. GCC and Clang inline the fixed-size copies and call memcpy for the rest. */
#if defined(__has_include)
#if __has_include(<string.h>)
#include <string.h>
#endif
#else
#include <string.h>
#endif
#if defined(__GNUC__)
#define dropout__memcpy __builtin_memcpy
#else
#define dropout__memcpy memcpy
#endif

/* g++ 12 (C++ only) reports GCC's own AVX-512 headers, whose _mm512_undefined_* are
   self-initialised on purpose, as "used uninitialized" once they are inlined here; the
   warning is about those headers, not this code, so it is off for the SIMD paths. */
#if defined(__cplusplus) && defined(__GNUC__) && !defined(__clang__) && defined(DROPOUT__SIMD_AVX512)
#define DROPOUT__QUIET_AVX512_HEADERS 1
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

/* What each ISA block defines: the driver below reads these names alone.
   - dropout__v, DROPOUT__W: W lanes of uint32; dropout__v_set1, _add, _xor, _and, _or,
     _srli, _slli, _loadu, _storeu, _fmul, _fadd, _dmul, _cvt_f32, _gt_s, _sel, _lanes32,
     _lanes64 (keep bits to lane masks), _load_u16, _store_u16, the transpose's _unpack*
     and DROPOUT__V_IOTA;
   - Philox in lanes: dropout__blocks_simd (DROPOUT__VB blocks a call; the x86 blocks
     give dropout__v_mul64 .. _pack64 and take the shared one below, NEON and WebAssembly
     dropout__v_mulhilo, _gt_u and _store4 and take theirs);
   - keep bits: dropout__window_keep (64 positions from their words);
   - apply: dropout__apply64_f32, _f16, _bf16 (64 elements, y = kept ? x * scale : +0),
     or DROPOUT__LANES_ONLY for the driver's lane loops and no prefetch (after the blocks);
   - stores: DROPOUT__STREAMS (1: streaming stores exist), DROPOUT__NT_ALIGN,
     dropout__nt_mode, dropout__v_put, dropout__v_put_u16, dropout__v_sfence,
     dropout__stores_prefetch;
   - the overlap (Philox with data between its rounds), where it pays: DROPOUT__OVERLAP,
     DROPOUT__OVERLAP_TAKES(dtype, st) (which calls take it), dropout__blocks_apply;
   - the fills' wide kernel (x86): DROPOUT__WIDE(X), its Philox chains as X(index, name),
     which makes DROPOUT__WORDS_WIDE 1 and dropout__words_wide (without it, 0 and the
     driver's stub that does nothing); DROPOUT__WIDE_SPILL keeps words 1 and 3 of each
     chain in memory (for 16 registers). */
/* Steps: DROPOUT__GROUP chunks of 64 elements (windows) share one call of the keep-word
   maker and one dispatch on the dtype, so the per-chunk cost is the arithmetic alone.
   A step's Philox blocks (GROUP x bits / 2) are whole calls of DROPOUT__VB blocks at
   every draw width (checked after the blocks): AVX-512 (four chains, 32 blocks a call)
   and NEON and WebAssembly (8) take 8; AVX2 and SSE, whose calls are the six chains of their fills
   (24 and 12 blocks), take 12. */
#if defined(DROPOUT__SIMD_AVX2) || defined(DROPOUT__SIMD_SSE)
#define DROPOUT__GROUP 12
#else
#define DROPOUT__GROUP 8
#endif
/* The driver's pieces that the blocks call, defined with it below */
DROPOUT__INLINE void dropout__apply64(int dtype, void *y, const void *x, size_t at, uint64_t keep, float scale, int nt);
DROPOUT__INLINE void dropout__apply64_f32_lanes(float *y, const float *x, uint64_t keep, float scale, int nt);
DROPOUT__INLINE void dropout__apply64_half_lanes(uint16_t *y, const uint16_t *x, uint64_t keep, float scale, int nt, int f16);
static void dropout__blocks_simd(const uint32_t *ks, uint64_t stream, uint64_t block, uint32_t *out);

/* ==== the AVX-512 block (AVX-512F + BW; DQ and BF16 where the flags allow) =========== */
#if defined(DROPOUT__SIMD_AVX512)
#include <immintrin.h>
typedef __m512i dropout__v;
#define DROPOUT__W 16
#define dropout__v_set1(a) _mm512_set1_epi32((int)(a))
#define dropout__v_add _mm512_add_epi32
#define dropout__v_xor _mm512_xor_si512
#define dropout__v_and _mm512_and_si512
#define dropout__v_or _mm512_or_si512
#define dropout__v_srli(a, n) _mm512_srli_epi32(a, n)
#define dropout__v_slli(a, n) _mm512_slli_epi32(a, n)
#define dropout__v_loadu(p) _mm512_loadu_si512((const void *)(p))
#define dropout__v_storeu(p, a) _mm512_storeu_si512((void *)(p), a)
#define dropout__v_fmul(a, b) _mm512_castps_si512(_mm512_mul_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b)))
#define dropout__v_fadd(a, b) _mm512_castps_si512(_mm512_add_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b)))
#define dropout__v_dmul(a, b) _mm512_castpd_si512(_mm512_mul_pd(_mm512_castsi512_pd(a), _mm512_castsi512_pd(b)))
#define dropout__v_cvt_f32(a) _mm512_castps_si512(_mm512_cvtepi32_ps(a))
#define dropout__v_fma(a, b, c) _mm512_castps_si512(_mm512_fmadd_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b), \
                                                                   _mm512_castsi512_ps(c)))
/* F16C: W f16 at p widened to f32 bits, and f32 bits rounded to f16 (RNE) in 32-bit lanes:
   dropout_f16_to_f32 and dropout_f32_to_f16 in one instruction (see dropout__apply64_f16) */
#define dropout__v_nan_any(f) (_mm512_cmp_ps_mask(_mm512_castsi512_ps(f), _mm512_castsi512_ps(f), _CMP_UNORD_Q) != 0)
#define dropout__v_load_f16(p) _mm512_castps_si512(_mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)(p))))
/* (_mm512_cvtps_ph spelt as its masked form with every lane kept: the same builtin with the
   same arguments, so the same code; gcc's -O0 macro for the plain form passes its mask as
   -1, which -Wsign-conversion reports in the file that compiles the implementation) */
#define dropout__mm512_cvtps_ph(f) \
   _mm512_mask_cvtps_ph(_mm256_undefined_si256(), (__mmask16)0xFFFFu, (f), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define dropout__v_round_f16(f) _mm512_cvtepu16_epi32(dropout__mm512_cvtps_ph(_mm512_castsi512_ps(f)))
static inline dropout__v dropout__v_gt_s(dropout__v a, dropout__v b)
{ return _mm512_maskz_mov_epi32(_mm512_cmpgt_epi32_mask(a, b), _mm512_set1_epi32(-1)); }
static inline dropout__v dropout__v_sel(dropout__v m, dropout__v a, dropout__v b)
{ return _mm512_ternarylogic_epi32(m, a, b, 0xCA); }   /* m ? a : b, bitwise */
static inline dropout__v dropout__v_lanes32(uint64_t bits)
{ return _mm512_maskz_mov_epi32((__mmask16)bits, _mm512_set1_epi32(-1)); }
static inline dropout__v dropout__v_lanes64(uint64_t bits)
{ return _mm512_maskz_mov_epi64((__mmask8)bits, _mm512_set1_epi32(-1)); }
static inline dropout__v dropout__v_load_u16(const uint16_t *p)
{ return _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)p)); }
static inline void dropout__v_store_u16(uint16_t *p, dropout__v a)
{ _mm256_storeu_si256((__m256i *)(void *)p, _mm512_cvtepi32_epi16(a)); }
/* lane 4m + j holds block 4j + m, so that the in-lane transpose lands in stream order */
#define DROPOUT__V_IOTA _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15)
#define dropout__v_unpacklo32 _mm512_unpacklo_epi32
#define dropout__v_unpackhi32 _mm512_unpackhi_epi32
#define dropout__v_unpacklo64 _mm512_unpacklo_epi64
#define dropout__v_unpackhi64 _mm512_unpackhi_epi64

/* Philox in 64-bit lanes (the x86 blocks' shared Philox below) */
#define dropout__v_mul64 _mm512_mul_epu32
#define dropout__v_add64 _mm512_add_epi64
#define dropout__v_set64(a) _mm512_set1_epi64((long long)(a))
#define dropout__v_hi64(a) _mm512_srli_epi64(a, 32)
#define dropout__v_xor3(a, b, c) _mm512_ternarylogic_epi32(a, b, c, 0x96)
/* low word from a, high word from b's low word */
#define dropout__v_pack64(a, b) _mm512_mask_blend_epi32(0xAAAA, a, _mm512_slli_epi64(b, 32))
/* 64-bit lane 2L + h holds block L + 4h, so unpacklo64 gives blocks 0..3, unpackhi 4..7 */
#define DROPOUT__V_IOTA64 _mm512_setr_epi64(0, 4, 1, 5, 2, 6, 3, 7)

/* Keep bits of one stream-aligned window of 64 positions from its 2 * bits words:
   bit i = (draw of position i >= t) = (draw > tm1), tm1 = t - 1 (t >= 1 here). The mask
   registers give them straight from unsigned compares. */
static uint64_t dropout__window_keep(const uint32_t *w, int bits, uint32_t tm1)
{
   uint64_t keep = 0;
   int k;
   if (bits == 8) {
      return _mm512_cmpgt_epu8_mask(_mm512_loadu_si512((const void *)w), _mm512_set1_epi8((char)tm1));
   } else if (bits == 16) {
      __m512i t = _mm512_set1_epi16((short)tm1);
      for (k = 0; k < 2; ++k)
         keep |= (uint64_t)_mm512_cmpgt_epu16_mask(_mm512_loadu_si512((const void *)(w + 16 * k)), t) << (32 * k);
   } else {
      __m512i t = _mm512_set1_epi32((int)tm1);
      for (k = 0; k < 4; ++k)
         keep |= (uint64_t)_mm512_cmpgt_epu32_mask(_mm512_loadu_si512((const void *)(w + 16 * k)), t) << (16 * k);
   }
   return keep;
}

/* Stores. nt (dropout__nt_mode) = 1: whole 64-byte vectors stream (y 64-byte aligned);
   2: 16-byte pieces stream (y 16-byte aligned: the fills, whose grid does not shift). */
#define DROPOUT__STREAMS 1
#define DROPOUT__NT_ALIGN 64
#define dropout__v_stream(p, a) _mm512_stream_si512((__m512i *)(void *)(p), a)
#define dropout__v_stream_u16(p, a) _mm256_stream_si256((__m256i *)(void *)(p), _mm512_cvtepi32_epi16(a))
DROPOUT__INLINE void dropout__v_stream16(void *p, __m512i a)
{
   __m128i *q = (__m128i *)p;
   _mm_stream_si128(q, _mm512_castsi512_si128(a));
   _mm_stream_si128(q + 1, _mm512_extracti32x4_epi32(a, 1));
   _mm_stream_si128(q + 2, _mm512_extracti32x4_epi32(a, 2));
   _mm_stream_si128(q + 3, _mm512_extracti32x4_epi32(a, 3));
}
DROPOUT__INLINE void dropout__v_stream16_u16(void *p, __m512i a)
{
   __m256i h = _mm512_cvtepi32_epi16(a);
   _mm_stream_si128((__m128i *)p, _mm256_castsi256_si128(h));
   _mm_stream_si128((__m128i *)p + 1, _mm256_extracti128_si256(h, 1));
}
#define dropout__v_put(nt, p, a) do { if (nt == 1) dropout__v_stream(p, a); else if (nt == 2) dropout__v_stream16(p, a); \
                                      else dropout__v_storeu(p, a); } while (0)
#define dropout__v_put_u16(nt, p, a) do { if (nt == 1) dropout__v_stream_u16(p, a); else if (nt == 2) dropout__v_stream16_u16(p, a); \
                                          else dropout__v_store_u16(p, a); } while (0)
static inline int dropout__nt_mode(const void *p)
{
   uintptr_t a = (uintptr_t)p;
   return a % DROPOUT__NT_ALIGN == 0 ? 1 : a % 16u == 0 ? 2 : 0;
}
#define dropout__v_sfence _mm_sfence

/* f16, 64 elements, t > 0: y = kept ? f16(x * scale) : +0, exactly as dropout_apply_f16;
   nt: streaming stores (y aligned). F16C's vcvtph2ps and vcvtps2ph do the header's f16
   conversions in hardware: widening is exact, narrowing rounds to nearest even by its
   immediate (not MXCSR), keeps subnormal results and quiets a NaN keeping its top payload
   bits, as dropout_f32_to_f16 does; x86's multiply returns a NaN input quieted,
   dropout__scale_f32's rule. */
DROPOUT__INLINE void dropout__apply64_f16(uint16_t *y, const uint16_t *x, uint64_t keep, float scale, int nt)
{
   const __m512 s = _mm512_set1_ps(scale);
   __m512 v[4];
   int g;
   for (g = 0; g < 4; ++g) v[g] = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)(x + 16 * g)));
   for (g = 0; g < 4; ++g) {
      __m256i h = dropout__mm512_cvtps_ph(_mm512_maskz_mul_ps((__mmask16)(keep >> (16 * g)), v[g], s));
      if (nt == 1) _mm256_stream_si256((__m256i *)(void *)(y + 16 * g), h);
      else if (nt == 2) {
         _mm_stream_si128((__m128i *)(void *)(y + 16 * g), _mm256_castsi256_si128(h));
         _mm_stream_si128((__m128i *)(void *)(y + 16 * g + 8), _mm256_extracti128_si256(h, 1));
      } else _mm256_storeu_si256((__m256i *)(void *)(y + 16 * g), h);
   }
   (void)nt;
}

/* f32, 64 elements, t > 0: y = kept ? x * scale : +0; nt: streaming stores (y aligned).
   The chunk's loads come before its stores: where y sits 16 to 48 bytes past x modulo
   4 KiB, a store followed by a load 4 to 12 elements on looks like a dependence to the
   core (4K aliasing); loads first costs nothing elsewhere. */
DROPOUT__INLINE void dropout__apply64_f32(float *y, const float *x, uint64_t keep, float scale, int nt)
{
   __m512 s = _mm512_set1_ps(scale), v[4];
   int g;
   for (g = 0; g < 4; ++g) v[g] = _mm512_loadu_ps(x + 16 * g);
#if defined(__clang__)
   /* whole loads: clang folds each load into its masked multiply, a load whose masked-off
      lanes may not fault, which Zen 5 ran 1.25-3x slower than whole loads out of L2 with
      plain stores (2^21 and 2^24 elements; in L2 about the same). gcc folds one of the
      four and measured the same either way. */
   for (g = 0; g < 4; ++g) __asm__("" : "+v"(v[g]));
#endif
   for (g = 0; g < 4; ++g)   /* zero-masking gives +0 in dropped lanes */
      dropout__v_put(nt, y + 16 * g, _mm512_castps_si512(_mm512_maskz_mul_ps((__mmask16)(keep >> (16 * g)), v[g], s)));
   (void)nt;
}

/* 32 bf16 elements v, t > 0: kept ? bf16(x * scale) : +0, as dropout_apply_bf16, in integer
   arithmetic. A 32-bit lane holds two elements: the even one widens with a shift, the odd
   one with a mask, so no element crosses a lane, and the results go back with one blend.
   A NaN product rounds as a number would (dropout__v_f32_to_bf16_num says why). */
DROPOUT__INLINE __m512i dropout__bf16x32_int(__m512i v, __mmask32 keep, __m512 s)
{
   const __m512i hi = _mm512_set1_epi32((int)0xFFFF0000u), half = _mm512_set1_epi32(0x7FFF);
   const __m512i lsb = _mm512_set1_epi32(0x10000), one = _mm512_set1_epi32(1);
   __m512i r[2];
   int k;
   for (k = 0; k < 2; ++k) {   /* k = 0: even elements, 1: odd */
      __m512i u = _mm512_castps_si512(_mm512_mul_ps(_mm512_castsi512_ps(k ? _mm512_and_si512(v, hi) : _mm512_slli_epi32(v, 16)), s));
      __m512i t = _mm512_add_epi32(u, half);
      r[k] = _mm512_mask_add_epi32(t, _mm512_test_epi32_mask(u, lsb), t, one);   /* + the kept bit 16: ties to even */
   }
   return _mm512_maskz_mov_epi16(keep, _mm512_mask_blend_epi16((__mmask32)0xAAAAAAAAu, _mm512_srli_epi32(r[0], 16), r[1]));
}

/* bf16, 64 elements, t > 0: y = kept ? bf16(x * scale) : +0, exactly as dropout_apply_bf16;
   nt: streaming stores (y aligned). */
DROPOUT__INLINE void dropout__apply64_bf16(uint16_t *y, const uint16_t *x, uint64_t keep, float scale, int nt)
{
   const __m512 s = _mm512_set1_ps(scale);
   int g;
   for (g = 0; g < 2; ++g) {
      const __mmask32 k = (__mmask32)(keep >> (32 * g));
      __m512i out;
#if defined(__AVX512BF16__) && defined(__AVX512DQ__)
      /* AVX512_BF16's vcvtne2ps2bf16 rounds to nearest even and quiets a NaN as
         dropout_f32_to_bf16 does, in one instruction for 32 elements, but it reads a
         subnormal input as zero: 32 elements whose products hold a subnormal take the
         integer rounding instead. */
      __m512 lo = _mm512_mul_ps(_mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(
                     _mm256_loadu_si256((const __m256i *)(const void *)(x + 32 * g))), 16)), s);
      __m512 hi = _mm512_mul_ps(_mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(
                     _mm256_loadu_si256((const __m256i *)(const void *)(x + 32 * g + 16))), 16)), s);
      if (_kortestz_mask16_u8(_mm512_fpclass_ps_mask(lo, 0x20), _mm512_fpclass_ps_mask(hi, 0x20)))
         out = (__m512i)_mm512_maskz_cvtne2ps_pbh(k, hi, lo);
      else
         out = dropout__bf16x32_int(_mm512_loadu_si512((const void *)(x + 32 * g)), k, s);
#else
      out = dropout__bf16x32_int(_mm512_loadu_si512((const void *)(x + 32 * g)), k, s);
#endif
      dropout__v_put(nt, y + 32 * g, out);
   }
   (void)nt;
}

/* The overlap: the data chunks between the Philox rounds (32 registers hold both), for
   the f32, bf16 and f16 calls: dropout__blocks_apply_rounds, with the x86 Philox below. */
#define DROPOUT__OVERLAP 1
#define DROPOUT__OVERLAP_TAKES(dtype, st) (dtype != DROPOUT__F64)
#define dropout__blocks_apply dropout__blocks_apply_rounds
/* the fused op's overlap too, its chunks between the rounds, for every dtype and width.
   f32 at 8-bit draws, where the data is most of a step (8 chunks of x, bias, residual
   and y against one Philox call), with its streamed stores also asks for the next step's
   x and residual before each step (DROPOUT__FUSED_PREFETCHES): without that request the
   overlap ran 1.3-1.7x slower streamed than the mask and the data one after the other,
   with it 0.73-0.81 of their time, in L2 0.78-0.87 (Zen 5). The other cells ran 1.06-1.23x
   slower streamed with the request, so they go without. */
#define DROPOUT__FUSED_ROUNDS 1
#if defined(__clang__)
#define DROPOUT__FUSED_LATER 1   /* its chunks' NaN groups made after the rounds: see dropout__blocks_fused */
#endif
#define DROPOUT__FUSED_OVERLAP_TAKES(dtype, bits) 1
#define DROPOUT__FUSED_PREFETCHES(dtype, bits) ((dtype) == DROPOUT__F32 && (bits) == 8)
/* The overlap's steps at 32-bit draws: six chains a call and 12 windows a step (4 calls of
   48 blocks, three chunks between each call's rounds), where Philox is most of the work:
   0.91-0.97 of the time of four chains in L2, bf16 and f16 streamed 0.89-0.98 (Zen 5). Not
   at 8 and 16 bits, where the chunks between the rounds need the registers that six
   chains take (1.00-1.16 at 8, 0.97-1.07 at 16), nor f32 streamed (1.05-1.12 on two
   threads): bench/results/zen5-amd-epyc-f26m2.md. */
#define DROPOUT__CHAINS_WIDE_STEP(X) X(0, a) X(1, b) X(2, e) X(3, f) X(4, g) X(5, h)
#define DROPOUT__GROUP_WIDE 12
#define DROPOUT__WIDE_STEP_TAKES(dtype, bits, st) ((bits) == 32 && ((dtype) != DROPOUT__F32 || (st).nt == 0))
/* fills: seven Philox chains a call (the wide kernel, with the x86 Philox below): 28 of
   the 32 registers hold them; six measured 5% slower, eight spill */
#define DROPOUT__WIDE(X) X(0, a) X(1, b) X(2, e) X(3, f) X(4, g) X(5, h) X(6, j)

/* ==== the AVX2 block (F16C where the flags allow) ===================================== */
#elif defined(DROPOUT__SIMD_AVX2)
#include <immintrin.h>
typedef __m256i dropout__v;
#define DROPOUT__W 8
#define dropout__v_set1(a) _mm256_set1_epi32((int)(a))
#define dropout__v_add _mm256_add_epi32
#define dropout__v_xor _mm256_xor_si256
#define dropout__v_and _mm256_and_si256
#define dropout__v_or _mm256_or_si256
#define dropout__v_srli(a, n) _mm256_srli_epi32(a, n)
#define dropout__v_slli(a, n) _mm256_slli_epi32(a, n)
#define dropout__v_loadu(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define dropout__v_storeu(p, a) _mm256_storeu_si256((__m256i *)(void *)(p), a)
#define dropout__v_fmul(a, b) _mm256_castps_si256(_mm256_mul_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)))
#define dropout__v_fadd(a, b) _mm256_castps_si256(_mm256_add_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)))
#define dropout__v_dmul(a, b) _mm256_castpd_si256(_mm256_mul_pd(_mm256_castsi256_pd(a), _mm256_castsi256_pd(b)))
#define dropout__v_cvt_f32(a) _mm256_castps_si256(_mm256_cvtepi32_ps(a))
#define dropout__v_nan_any(f) (_mm256_movemask_ps(_mm256_cmp_ps(_mm256_castsi256_ps(f), _mm256_castsi256_ps(f), _CMP_UNORD_Q)) != 0)
#if defined(__FMA__)
#define dropout__v_fma(a, b, c) _mm256_castps_si256(_mm256_fmadd_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), \
                                                                   _mm256_castsi256_ps(c)))
#endif
#if defined(__F16C__)   /* as the AVX-512 block's */
#define dropout__v_load_f16(p) _mm256_castps_si256(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(p))))
#define dropout__v_round_f16(f) _mm256_cvtepu16_epi32(_mm256_cvtps_ph(_mm256_castsi256_ps(f), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC))
#endif
#define dropout__v_gt_s _mm256_cmpgt_epi32
static inline dropout__v dropout__v_sel(dropout__v m, dropout__v a, dropout__v b)
{ return _mm256_blendv_epi8(b, a, m); }
static inline dropout__v dropout__v_lanes32(uint64_t bits)
{
   __m256i sel = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
   return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)(bits & 0xFFu)), sel), sel);
}
static inline dropout__v dropout__v_lanes64(uint64_t bits)
{
   __m256i sel = _mm256_setr_epi32(1, 1, 2, 2, 4, 4, 8, 8);
   return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)(bits & 0xFu)), sel), sel);
}
static inline dropout__v dropout__v_load_u16(const uint16_t *p)
{ return _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)p)); }
static inline void dropout__v_store_u16(uint16_t *p, dropout__v a)
{
   _mm_storeu_si128((__m128i *)(void *)p,
                    _mm_packus_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1)));
}
/* lanes 0..3 hold blocks 0, 2, 4, 6 and lanes 4..7 blocks 1, 3, 5, 7: after the
   in-lane transpose, vector j = blocks 2j, 2j + 1, in stream order */
#define DROPOUT__V_IOTA _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7)
#define dropout__v_unpacklo32 _mm256_unpacklo_epi32
#define dropout__v_unpackhi32 _mm256_unpackhi_epi32
#define dropout__v_unpacklo64 _mm256_unpacklo_epi64
#define dropout__v_unpackhi64 _mm256_unpackhi_epi64

/* Philox in 64-bit lanes (the x86 blocks' shared Philox below) */
#define dropout__v_mul64 _mm256_mul_epu32
#define dropout__v_add64 _mm256_add_epi64
#define dropout__v_set64(a) _mm256_set1_epi64x((long long)(a))
#define dropout__v_hi64(a) _mm256_srli_epi64(a, 32)
#define dropout__v_xor3(a, b, c) _mm256_xor_si256(a, _mm256_xor_si256(b, c))
#define dropout__v_pack64(a, b) _mm256_blend_epi32(a, _mm256_slli_epi64(b, 32), 0xAA)
#define DROPOUT__V_IOTA64 _mm256_setr_epi64x(0, 2, 1, 3)

/* Keep bits of one window (as the AVX-512 block's): signed compares of sign-flipped
   draws, then movemask. */
static uint64_t dropout__window_keep(const uint32_t *w, int bits, uint32_t tm1)
{
   uint64_t keep = 0;
   int k;
   if (bits == 8) {
      __m256i f = _mm256_set1_epi8((char)0x80), t = _mm256_set1_epi8((char)(tm1 ^ 0x80u));
      for (k = 0; k < 2; ++k) {
         __m256i v = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(w + 8 * k)), f);
         keep |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(v, t)) << (32 * k);
      }
   } else if (bits == 16) {
      __m256i f = _mm256_set1_epi16((short)0x8000), t = _mm256_set1_epi16((short)(tm1 ^ 0x8000u));
      __m256i a = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)w), f);
      __m256i b = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(w + 8)), f);
      __m256i c = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(w + 16)), f);
      __m256i d = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(w + 24)), f);
      /* packs works per 128-bit lane: the permute puts the quadwords back in order */
      __m256i ab = _mm256_permute4x64_epi64(_mm256_packs_epi16(_mm256_cmpgt_epi16(a, t), _mm256_cmpgt_epi16(b, t)), 0xD8);
      __m256i cd = _mm256_permute4x64_epi64(_mm256_packs_epi16(_mm256_cmpgt_epi16(c, t), _mm256_cmpgt_epi16(d, t)), 0xD8);
      keep = (uint64_t)(uint32_t)_mm256_movemask_epi8(ab) | (uint64_t)(uint32_t)_mm256_movemask_epi8(cd) << 32;
   } else {
      __m256i f = _mm256_set1_epi32((int)0x80000000u), t = _mm256_set1_epi32((int)(tm1 ^ 0x80000000u));
      for (k = 0; k < 8; ++k) {
         __m256i v = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(w + 8 * k)), f);
         keep |= (uint64_t)(uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(v, t))) << (8 * k);
      }
   }
   return keep;
}

/* Stores: streaming as two 16-byte halves (malloc gives 16-byte alignment, and halves
   stream as fast). */
#define DROPOUT__STREAMS 1
#define DROPOUT__NT_ALIGN 16
DROPOUT__INLINE void dropout__v_stream(void *p, __m256i a)
{
   _mm_stream_si128((__m128i *)p, _mm256_castsi256_si128(a));
   _mm_stream_si128((__m128i *)p + 1, _mm256_extracti128_si256(a, 1));
}
#define dropout__v_stream_u16(p, a) \
   _mm_stream_si128((__m128i *)(void *)(p), _mm_packus_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1)))
#define dropout__v_put(nt, p, a) do { if (nt) dropout__v_stream(p, a); else dropout__v_storeu(p, a); } while (0)
#define dropout__v_put_u16(nt, p, a) do { if (nt) dropout__v_stream_u16(p, a); else dropout__v_store_u16(p, a); } while (0)
static inline int dropout__nt_mode(const void *p)
{
   uintptr_t a = (uintptr_t)p;
   return a % DROPOUT__NT_ALIGN == 0;
}
#define dropout__v_sfence _mm_sfence

#if defined(__F16C__)
/* f16, 64 elements, t > 0: as the AVX-512 block's, F16C (every AVX2 CPU has it) doing the
   conversions; the keep bits as in dropout__apply64_f32: bit 8g + i shifted to lane i's
   sign bit */
DROPOUT__INLINE void dropout__apply64_f16(uint16_t *y, const uint16_t *x, uint64_t keep, float scale, int nt)
{
   const __m256 s = _mm256_set1_ps(scale), z = _mm256_setzero_ps();
   const __m256i sh = _mm256_setr_epi32(31, 30, 29, 28, 27, 26, 25, 24);
   int g;
   for (g = 0; g < 8; ++g) {
      __m256 f = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)(x + 8 * g)));
      __m256 m = _mm256_castsi256_ps(_mm256_sllv_epi32(_mm256_set1_epi32((int)(uint32_t)(keep >> (8 * g))), sh));
      __m128i h = _mm256_cvtps_ph(_mm256_blendv_ps(z, _mm256_mul_ps(f, s), m), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
      if (nt) _mm_stream_si128((__m128i *)(void *)(y + 8 * g), h);
      else _mm_storeu_si128((__m128i *)(void *)(y + 8 * g), h);
   }
   (void)nt;
}
#else
/* f16 without F16C: one element a 32-bit lane, the integer conversions */
DROPOUT__INLINE void dropout__apply64_f16(uint16_t *y, const uint16_t *x, uint64_t keep, float scale, int nt)
{
   dropout__apply64_half_lanes(y, x, keep, scale, nt, 1);
   (void)nt;
}
#endif

/* f32, 64 elements, t > 0 (loads before stores: see the AVX-512 block's) */
DROPOUT__INLINE void dropout__apply64_f32(float *y, const float *x, uint64_t keep, float scale, int nt)
{
   /* a variable shift moves keep bit 8g + i to the sign bit of lane i, which is all
      blendv reads: 1 uop a lane mask instead of broadcast + and + compare */
   __m256 s = _mm256_set1_ps(scale), z = _mm256_setzero_ps();
   __m256i sh = _mm256_setr_epi32(31, 30, 29, 28, 27, 26, 25, 24), eight = _mm256_set1_epi32(8);
   int h, g;
   for (h = 0; h < 2; ++h) {
      __m256i v = _mm256_set1_epi32((int)(uint32_t)(keep >> (32 * h)));
      __m256i t = sh;
      __m256 in[4];
      for (g = 0; g < 4; ++g) in[g] = _mm256_loadu_ps(x + 32 * h + 8 * g);
      for (g = 0; g < 4; ++g) {
         __m256 m = _mm256_castsi256_ps(_mm256_sllv_epi32(v, t));
         __m256 o = _mm256_blendv_ps(z, _mm256_mul_ps(in[g], s), m);
         dropout__v_put(nt, y + 32 * h + 8 * g, _mm256_castps_si256(o));
         t = _mm256_sub_epi32(t, eight);
      }
   }
   (void)nt;
}

/* bf16, 64 elements, t > 0: as the AVX-512 block's dropout__bf16x32_int, 16 elements a
   vector, the keep bits as 16-bit lane masks */
DROPOUT__INLINE void dropout__apply64_bf16(uint16_t *y, const uint16_t *x, uint64_t keep, float scale, int nt)
{
   const __m256 s = _mm256_set1_ps(scale);
   const __m256i hi = _mm256_set1_epi32((int)0xFFFF0000u), half = _mm256_set1_epi32(0x7FFF);
   const __m256i one = _mm256_set1_epi32(1);
   const __m256i bit = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, (short)-32768);
   __m256i v[4];
   int g, k;
   for (g = 0; g < 4; ++g) v[g] = _mm256_loadu_si256((const __m256i *)(const void *)(x + 16 * g));
   for (g = 0; g < 4; ++g) {
      __m256i r[2], kb = _mm256_and_si256(_mm256_set1_epi16((short)(uint16_t)(keep >> (16 * g))), bit);
      for (k = 0; k < 2; ++k) {
         __m256i u = _mm256_castps_si256(_mm256_mul_ps(_mm256_castsi256_ps(k ? _mm256_and_si256(v[g], hi) : _mm256_slli_epi32(v[g], 16)), s));
         r[k] = _mm256_add_epi32(_mm256_add_epi32(u, half), _mm256_and_si256(_mm256_srli_epi32(u, 16), one));   /* NaN too: dropout__v_f32_to_bf16_num */
      }
      dropout__v_put(nt, y + 16 * g, _mm256_and_si256(_mm256_cmpeq_epi16(kb, bit),
                        _mm256_blend_epi16(_mm256_srli_epi32(r[0], 16), r[1], 0xAA)));
   }
   (void)nt;
}

/* The overlap: f32. Philox already spills here (16 registers), so a whole Philox call goes
   first and then its data chunks, a grain the core's reorder window still overlaps. In
   cache always; with streamed stores where DROPOUT_STREAM_OVERLAP says: Zen 3 took 0.86-0.99
   of the steps' time with it (f32 at 2^24, 8/16/32-bit draws, 1 and 2 threads, on and off a
   window boundary and on malloc's alignment), Zen 4 had measured it 5-15% slower, and no
   other core has been measured (bench/results/simd-design-notes.md). So it is on where the
   build is for Zen 3 (-march=znver3, or -march=native on one; no __AVX512F__, which leaves
   out Zen 4, which gcc 12's -march=native may call znver3 too), off elsewhere. bf16 and
   f16 were slower with it on both. */
#ifndef DROPOUT_STREAM_OVERLAP
#if defined(__znver3__) && !defined(__AVX512F__)
#define DROPOUT_STREAM_OVERLAP 1
#else
#define DROPOUT_STREAM_OVERLAP 0
#endif
#endif
#define DROPOUT__OVERLAP 1
#define DROPOUT__OVERLAP_TAKES(dtype, st) (dtype == DROPOUT__F32 && (DROPOUT_STREAM_OVERLAP || (st.nt == 0 && st.h == 0)))
/* the fused op's overlap (its chunks after each Philox call): f32 and bf16 0.62-0.97 of the
   time without it; f16 1.03-1.07 (Zen 5), so not f16 */
#define DROPOUT__FUSED_OVERLAP_TAKES(dtype, bits) ((dtype) != DROPOUT__F16)
/* and its streamed stores for a large output: f16 1.04-1.22x slower with them, so not f16 */
#define DROPOUT__FUSED_NT_TAKES(dtype) ((dtype) != DROPOUT__F16)
/* fills: six Philox chains a call (the wide kernel). 24 words do not fit 16 registers:
   words 1 and 3 of each chain live in memory (DROPOUT__WIDE_SPILL), read once a round as
   the xors' operands and stored once (two stores a chain a round), so that the registers
   hold words 0 and 2, which the multiplies read; left to the compiler's spills the fill
   was 8% slower. */
#define DROPOUT__WIDE(X) X(0, a) X(1, b) X(2, e) X(3, f) X(4, g) X(5, h)
#define DROPOUT__WIDE_SPILL 1
/* and the steps' Philox calls too: dropout__blocks_simd is that kernel (words 1 and 3 in
   memory), 24 blocks a call. Against four chains a call, in L2 (Zen 5): every op that
   makes its mask 0.81-0.96 of the time, the fill the same (bench/results/zen5-amd-epyc-f26m2.md). */
#define DROPOUT__CHAINS(X) DROPOUT__WIDE(X)
#define DROPOUT__STEP_WIDE 1
#define DROPOUT__FEW_BLOCKS 1   /* and four chains for a call's few last blocks */
/* A call whose plain stores miss the caches (DROPOUT__FAR) asks for the next step's y
   lines, to write, before each step (dropout__far_prefetch); at 8-bit draws it takes four
   chains instead (dropout__blocks_apply4). Without either the calls' time
   hung on where the code landed (Zen 5, 2^24 elements, one thread): the f32 forward at
   16-bit draws took 20-23 ns per 64 elements in most places and 36-40 in others, 1.5-2x
   (8 and 32 bits alike), which make bench-places shows. Likely why: the six chains'
   rounds store and reload words 1 and 3, stores leave the core in order, and each of the
   data's plain stores waits on memory for its line. Four chains (nothing in memory)
   were steady too: 0.91-1.06x the time of the fast places at 8 bits, but 1.10-1.22x at
   16 and 32 bits; the lines asked for, 1.08-1.11 at 8 bits, 1.03-1.19 at 16, 1.00-1.09
   at 32, and 0.5-0.7 of the slow places' (bench/results/zen5-amd-epyc-f26m2.md). */
#define DROPOUT__FAR_PREFETCH 1
/* A step's Philox call and then its data chunks (no room for both between the rounds):
   on the six chains, and on four (the far calls at 8-bit draws) */
#define DROPOUT__BLOCKS_THEN_APPLY_FN(name, blocks)                                                      \
   DROPOUT__INLINE void name(const uint32_t *ks, uint64_t stream, uint64_t block, uint32_t *out, int dtype, \
                             void *y, const void *x, const uint64_t *keep, unsigned nc, float scale, int nt) \
   {                                                                                                    \
      unsigned c;                                                                                       \
      blocks(ks, stream, block, out);                                                                   \
      for (c = 0; c < nc; ++c) dropout__apply64(dtype, y, x, 64u * c, keep[c], scale, nt);              \
   }
static void dropout__blocks_simd4(const uint32_t *ks, uint64_t stream, uint64_t block, uint32_t *out);
DROPOUT__BLOCKS_THEN_APPLY_FN(dropout__blocks_apply, dropout__blocks_simd)
DROPOUT__BLOCKS_THEN_APPLY_FN(dropout__blocks_apply4, dropout__blocks_simd4)
#undef DROPOUT__BLOCKS_THEN_APPLY_FN

/* ==== the SSE2 / SSE4.1 block ========================================================= */
#elif defined(DROPOUT__SIMD_SSE)
#include <emmintrin.h>
#ifdef __SSE4_1__
#include <smmintrin.h>
#endif
typedef __m128i dropout__v;
#define DROPOUT__W 4
#define dropout__v_set1(a) _mm_set1_epi32((int)(a))
#define dropout__v_add _mm_add_epi32
#define dropout__v_xor _mm_xor_si128
#define dropout__v_and _mm_and_si128
#define dropout__v_or _mm_or_si128
#define dropout__v_srli(a, n) _mm_srli_epi32(a, n)
#define dropout__v_slli(a, n) _mm_slli_epi32(a, n)
#define dropout__v_loadu(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define dropout__v_storeu(p, a) _mm_storeu_si128((__m128i *)(void *)(p), a)
#define dropout__v_fmul(a, b) _mm_castps_si128(_mm_mul_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b)))
#define dropout__v_fadd(a, b) _mm_castps_si128(_mm_add_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b)))
#define dropout__v_dmul(a, b) _mm_castpd_si128(_mm_mul_pd(_mm_castsi128_pd(a), _mm_castsi128_pd(b)))
#define dropout__v_cvt_f32(a) _mm_castps_si128(_mm_cvtepi32_ps(a))
#define dropout__v_gt_s _mm_cmpgt_epi32
/* fma(a, b, c) of two floats widened in d (a, c) and bd (b), correctly rounded with no fma
   unit: dropout_fmaf's method, lane for lane. The product is exact in double, the sum is
   rounded to odd with its TwoSum error, and the conversion to float rounds once more. */
static inline __m128 dropout__fma2(__m128d ad, __m128d bd, __m128d cd)
{
   const __m128d z = _mm_setzero_pd(), p = _mm_mul_pd(ad, bd), s = _mm_add_pd(p, cd), bb = _mm_sub_pd(s, p);
   const __m128d e = _mm_add_pd(_mm_sub_pd(p, _mm_sub_pd(s, bb)), _mm_sub_pd(cd, bb));
   const __m128i one = _mm_set_epi32(0, 1, 0, 1), si = _mm_castpd_si128(s);
   /* the sum's low bit clear: both words of (s & 1) zero */
   const __m128i even = _mm_cmpeq_epi32(_mm_and_si128(si, one), _mm_setzero_si128());
   const __m128i even64 = _mm_and_si128(even, _mm_shuffle_epi32(even, _MM_SHUFFLE(2, 3, 0, 1)));
   /* made odd where e != 0 (NaN: no) and s is finite (s - s >= 0): away from zero where e
      has s's sign, else toward it */
   const __m128d fix = _mm_and_pd(_mm_or_pd(_mm_cmplt_pd(e, z), _mm_cmpgt_pd(e, z)), _mm_cmpge_pd(_mm_sub_pd(s, s), z));
   const __m128i toward = _mm_xor_si128(_mm_castpd_si128(_mm_cmpgt_pd(e, z)), _mm_castpd_si128(_mm_cmpgt_pd(s, z)));
   const __m128i step = _mm_and_si128(_mm_and_si128(_mm_castpd_si128(fix), even64), _mm_or_si128(toward, one));
   return _mm_cvtpd_ps(_mm_castsi128_pd(_mm_add_epi64(si, step)));
}
static inline dropout__v dropout__v_fma(dropout__v a, dropout__v b, dropout__v c)
{
   const __m128 af = _mm_castsi128_ps(a), bf = _mm_castsi128_ps(b), cf = _mm_castsi128_ps(c);
   const __m128 lo = dropout__fma2(_mm_cvtps_pd(af), _mm_cvtps_pd(bf), _mm_cvtps_pd(cf));
   const __m128 hi = dropout__fma2(_mm_cvtps_pd(_mm_movehl_ps(af, af)), _mm_cvtps_pd(_mm_movehl_ps(bf, bf)),
                                   _mm_cvtps_pd(_mm_movehl_ps(cf, cf)));
   return _mm_castps_si128(_mm_movelh_ps(lo, hi));
}
#define dropout__v_fma dropout__v_fma
#define dropout__v_nan_any(f) (_mm_movemask_ps(_mm_cmpunord_ps(_mm_castsi128_ps(f), _mm_castsi128_ps(f))) != 0)
/* the fused op's NaN test a vector: the fma in double is long, and 16 or 64 results held
   for one test made the f16 op 1.03x slower */
#define DROPOUT__FUSED_GROUP 4
#ifdef __SSE4_1__
static inline dropout__v dropout__v_sel(dropout__v m, dropout__v a, dropout__v b)
{ return _mm_blendv_epi8(b, a, m); }
#else
static inline dropout__v dropout__v_sel(dropout__v m, dropout__v a, dropout__v b)
{ return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b)); }
#endif
static inline dropout__v dropout__v_lanes32(uint64_t bits)
{
   __m128i sel = _mm_setr_epi32(1, 2, 4, 8);
   return _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32((int)(bits & 0xFu)), sel), sel);
}
static inline dropout__v dropout__v_lanes64(uint64_t bits)
{
   __m128i sel = _mm_setr_epi32(1, 1, 2, 2);
   return _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32((int)(bits & 3u)), sel), sel);
}
static inline dropout__v dropout__v_load_u16(const uint16_t *p)
{ return _mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)(const void *)p), _mm_setzero_si128()); }
#ifdef __SSE4_1__
static inline void dropout__v_store_u16(uint16_t *p, dropout__v a)
{ _mm_storel_epi64((__m128i *)(void *)p, _mm_packus_epi32(a, a)); }
#else
/* lanes < 2^16: sign-extend the low half so the signed saturating pack keeps it */
static inline void dropout__v_store_u16(uint16_t *p, dropout__v a)
{
   __m128i s = _mm_srai_epi32(_mm_slli_epi32(a, 16), 16);
   _mm_storel_epi64((__m128i *)(void *)p, _mm_packs_epi32(s, s));
}
#endif
#define DROPOUT__V_IOTA _mm_setr_epi32(0, 1, 2, 3)
#define dropout__v_unpacklo32 _mm_unpacklo_epi32
#define dropout__v_unpackhi32 _mm_unpackhi_epi32
#define dropout__v_unpacklo64 _mm_unpacklo_epi64
#define dropout__v_unpackhi64 _mm_unpackhi_epi64
/* Philox in 64-bit lanes (the x86 blocks' shared Philox below) */
#define dropout__v_mul64 _mm_mul_epu32
#define dropout__v_add64 _mm_add_epi64
#define dropout__v_set64(a) _mm_set1_epi64x((long long)(a))
#define dropout__v_hi64(a) _mm_srli_epi64(a, 32)
#define dropout__v_xor3(a, b, c) _mm_xor_si128(a, _mm_xor_si128(b, c))
#ifdef __SSE4_1__
#define dropout__v_pack64(a, b) _mm_blend_epi16(a, _mm_slli_epi64(b, 32), 0xCC)
#else
#define dropout__v_pack64(a, b) _mm_or_si128(_mm_and_si128(a, _mm_setr_epi32(-1, 0, -1, 0)), _mm_slli_epi64(b, 32))
#endif
#define DROPOUT__V_IOTA64 _mm_setr_epi32(0, 0, 1, 0)

/* Keep bits of one window (as the AVX-512 block's): signed compares of sign-flipped
   draws, then movemask. */
static uint64_t dropout__window_keep(const uint32_t *w, int bits, uint32_t tm1)
{
   uint64_t keep = 0;
   int k;
   if (bits == 8) {
      __m128i f = _mm_set1_epi8((char)0x80), t = _mm_set1_epi8((char)(tm1 ^ 0x80u));
      for (k = 0; k < 4; ++k) {
         __m128i v = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(w + 4 * k)), f);
         keep |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpgt_epi8(v, t)) << (16 * k);
      }
   } else if (bits == 16) {
      __m128i f = _mm_set1_epi16((short)0x8000), t = _mm_set1_epi16((short)(tm1 ^ 0x8000u));
      for (k = 0; k < 4; ++k) {
         __m128i a = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(w + 8 * k)), f);
         __m128i b = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(w + 8 * k + 4)), f);
         __m128i ab = _mm_packs_epi16(_mm_cmpgt_epi16(a, t), _mm_cmpgt_epi16(b, t));
         keep |= (uint64_t)(uint32_t)_mm_movemask_epi8(ab) << (16 * k);
      }
   } else {
      __m128i f = _mm_set1_epi32((int)0x80000000u), t = _mm_set1_epi32((int)(tm1 ^ 0x80000000u));
      for (k = 0; k < 16; ++k) {
         __m128i v = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(w + 4 * k)), f);
         keep |= (uint64_t)(uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(v, t))) << (4 * k);
      }
   }
   return keep;
}

/* Stores */
#define DROPOUT__STREAMS 1
#define DROPOUT__NT_ALIGN 16
#define dropout__v_stream(p, a) _mm_stream_si128((__m128i *)(void *)(p), a)
#define dropout__v_stream_u16 dropout__v_store_u16   /* 8 bytes: SSE has no such stream */
#define dropout__v_put(nt, p, a) do { if (nt) dropout__v_stream(p, a); else dropout__v_storeu(p, a); } while (0)
#define dropout__v_put_u16(nt, p, a) do { if (nt) dropout__v_stream_u16(p, a); else dropout__v_store_u16(p, a); } while (0)
static inline int dropout__nt_mode(const void *p)
{
   uintptr_t a = (uintptr_t)p;
   return a % DROPOUT__NT_ALIGN == 0;
}
#define dropout__v_sfence _mm_sfence
/* no prefetch; apply: one element a 32-bit lane (no whole-vector f16/bf16 conversions) */
#define DROPOUT__LANES_ONLY 1
/* (no overlap: 16 registers hold Philox or the data, not both) */
/* fills: six Philox chains a call (the wide kernel), as AVX2: 0.87-0.89 of the time */
#define DROPOUT__WIDE(X) X(0, a) X(1, b) X(2, e) X(3, f) X(4, g) X(5, h)
/* and the steps' Philox calls the same six chains, 12 blocks a call, their rounds written
   out in dropout__blocks_simd: against four chains, in L2 (Zen 5), every op that makes
   its mask 0.92-0.99 of the time; calling the fills' kernel there (a loop the compiler
   unrolls) made the fill itself 1.08x slower */
#define DROPOUT__CHAINS(X) DROPOUT__WIDE(X)
#define DROPOUT__FEW_BLOCKS 1   /* and four chains for a call's few last blocks */

/* ==== the NEON block (AArch64) ======================================================== */
#elif defined(DROPOUT__SIMD_NEON)
#include <arm_neon.h>
typedef uint32x4_t dropout__v;
#define DROPOUT__W 4
#define dropout__v_set1(a) vdupq_n_u32((uint32_t)(a))
#define dropout__v_add vaddq_u32
#define dropout__v_xor veorq_u32
#define dropout__v_and vandq_u32
#define dropout__v_or vorrq_u32
#define dropout__v_srli(a, n) vshrq_n_u32(a, n)
#define dropout__v_slli(a, n) vshlq_n_u32(a, n)
#define dropout__v_loadu(p) vld1q_u32((const uint32_t *)(const void *)(p))
#define dropout__v_storeu(p, a) vst1q_u32((uint32_t *)(void *)(p), a)
#define dropout__v_fmul(a, b) vreinterpretq_u32_f32(vmulq_f32(vreinterpretq_f32_u32(a), vreinterpretq_f32_u32(b)))
#define dropout__v_fadd(a, b) vreinterpretq_u32_f32(vaddq_f32(vreinterpretq_f32_u32(a), vreinterpretq_f32_u32(b)))
#define dropout__v_dmul(a, b) vreinterpretq_u32_f64(vmulq_f64(vreinterpretq_f64_u32(a), vreinterpretq_f64_u32(b)))
#define dropout__v_cvt_f32(a) vreinterpretq_u32_f32(vcvtq_f32_u32(a))
#define dropout__v_gt_s(a, b) vcgtq_s32(vreinterpretq_s32_u32(a), vreinterpretq_s32_u32(b))
#define dropout__v_sel(m, a, b) vbslq_u32(m, a, b)
static inline dropout__v dropout__v_lanes32(uint64_t bits)
{
   static const uint32_t sel[4] = {1, 2, 4, 8};
   return vtstq_u32(vdupq_n_u32((uint32_t)(bits & 0xFu)), vld1q_u32(sel));
}
static inline dropout__v dropout__v_lanes64(uint64_t bits)
{
   static const uint32_t sel[4] = {1, 1, 2, 2};
   return vtstq_u32(vdupq_n_u32((uint32_t)(bits & 3u)), vld1q_u32(sel));
}
static inline dropout__v dropout__v_iota(void)
{
   static const uint32_t iota[4] = {0, 1, 2, 3};   /* vst4q stores blocks in order */
   return vld1q_u32(iota);
}
#define DROPOUT__V_IOTA dropout__v_iota()
#define dropout__v_load_u16(p) vmovl_u16(vld1_u16(p))
#define dropout__v_store_u16(p, a) vst1_u16(p, vmovn_u32(a))
static inline void dropout__v_mulhilo(dropout__v a, uint32_t m, dropout__v *hi, dropout__v *lo)
{
   uint32x2_t mv = vdup_n_u32(m);
   uint64x2_t p01 = vmull_u32(vget_low_u32(a), mv);
   uint64x2_t p23 = vmull_u32(vget_high_u32(a), mv);
   uint32x4x2_t u = vuzpq_u32(vreinterpretq_u32_u64(p01), vreinterpretq_u32_u64(p23));
   *lo = u.val[0];
   *hi = u.val[1];
}
#define DROPOUT__V_SIGN dropout__v_set1(0x80000000u)
/* unsigned a > b through the sign-flip trick (all-ones lanes where true) */
#define dropout__v_gt_u(a, b) dropout__v_gt_s(dropout__v_xor(a, DROPOUT__V_SIGN), dropout__v_xor(b, DROPOUT__V_SIGN))

/* four vectors of words 0-3 as the blocks of their lanes, in order (an interleaving store) */
static inline void dropout__v_store4(uint32_t *out, dropout__v w0, dropout__v w1, dropout__v w2, dropout__v w3)
{
   uint32x4x4_t v;
   v.val[0] = w0; v.val[1] = w1; v.val[2] = w2; v.val[3] = w3;
   vst4q_u32(out, v);
}

/* Keep bits of one window: compares, then the lanes' weights summed across the vector. */
static uint64_t dropout__window_keep(const uint32_t *w, int bits, uint32_t tm1)
{
   uint64_t keep = 0;
   int k;
   if (bits == 8) {
      static const uint8_t wt[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
      uint8x16_t vw = vld1q_u8(wt), t = vdupq_n_u8((uint8_t)tm1);
      for (k = 0; k < 4; ++k) {
         uint8x16_t m = vandq_u8(vcgtq_u8(vld1q_u8((const uint8_t *)(w + 4 * k)), t), vw);
         keep |= (uint64_t)(vaddv_u8(vget_low_u8(m)) | (unsigned)vaddv_u8(vget_high_u8(m)) << 8) << (16 * k);
      }
   } else if (bits == 16) {
      static const uint16_t wt[8] = {1, 2, 4, 8, 16, 32, 64, 128};
      uint16x8_t vw = vld1q_u16(wt), t = vdupq_n_u16((uint16_t)tm1);
      for (k = 0; k < 8; ++k) {
         uint16x8_t m = vandq_u16(vcgtq_u16(vld1q_u16((const uint16_t *)(w + 4 * k)), t), vw);
         keep |= (uint64_t)vaddvq_u16(m) << (8 * k);
      }
   } else {
      static const uint32_t wt[4] = {1, 2, 4, 8};
      uint32x4_t vw = vld1q_u32(wt), t = vdupq_n_u32(tm1);
      for (k = 0; k < 16; ++k)
         keep |= (uint64_t)vaddvq_u32(vandq_u32(vcgtq_u32(vld1q_u32(w + 4 * k), t), vw)) << (4 * k);
   }
   return keep;
}

/* The overlap (32 registers, as AVX-512): the two interleaved vectors, with data chunk c
   after round c (dropout__blocks_apply, with the Philox in 32-bit lanes below). Its speed
   is unmeasured (no Arm machine); its bits are tested. */
#define DROPOUT__OVERLAP 1
#define DROPOUT__OVERLAP_TAKES(dtype, st) (dtype != DROPOUT__F64)

/* ==== the WebAssembly SIMD128 block (clang -msimd128) ================================= */
#elif defined(DROPOUT__SIMD_WASM)
#include <wasm_simd128.h>
typedef v128_t dropout__v;
#define DROPOUT__W 4
#define dropout__v_set1(a) wasm_i32x4_splat((int32_t)(a))
#define dropout__v_add wasm_i32x4_add
#define dropout__v_xor wasm_v128_xor
#define dropout__v_and wasm_v128_and
#define dropout__v_or wasm_v128_or
#define dropout__v_srli(a, n) wasm_u32x4_shr(a, n)
#define dropout__v_slli(a, n) wasm_i32x4_shl(a, n)
#define dropout__v_loadu(p) wasm_v128_load((const void *)(p))
#define dropout__v_storeu(p, a) wasm_v128_store((void *)(p), a)
/* WebAssembly leaves the payload of a NaN result to the engine (canonical or the input's),
   so the products of NaN lanes are made by integers, as dropout__scale_f32 and
   dropout__scale_f64 make them: the input with its quiet bit set. b is the scale, never a
   NaN. The sums need no such care: the f16 rounding's never see a NaN it keeps, and the
   fused op's groups with a NaN are made again by the scalar loop. */
static inline dropout__v dropout__v_fmul(dropout__v a, dropout__v b)
{
   return wasm_v128_bitselect(wasm_v128_or(a, wasm_i32x4_splat(0x00400000)), wasm_f32x4_mul(a, b), wasm_f32x4_ne(a, a));
}
static inline dropout__v dropout__v_dmul(dropout__v a, dropout__v b)
{
   return wasm_v128_bitselect(wasm_v128_or(a, wasm_i64x2_splat((int64_t)1 << 51)), wasm_f64x2_mul(a, b),
                              wasm_f64x2_ne(a, a));
}
#define dropout__v_fadd wasm_f32x4_add
/* fma(a, b, c) with no fma instruction (WebAssembly's relaxed one may round twice): in
   double, as the SSE block's dropout__fma2, lane for lane. The product is exact in
   double, the sum is rounded to odd with its TwoSum error, and the narrowing rounds once
   more. A NaN anywhere gives a NaN, which sends the group to the scalar loop. */
static inline v128_t dropout__fma2(v128_t ad, v128_t bd, v128_t cd)
{
   const v128_t z = wasm_f64x2_splat(0.0), p = wasm_f64x2_mul(ad, bd), s = wasm_f64x2_add(p, cd), bb = wasm_f64x2_sub(s, p);
   const v128_t e = wasm_f64x2_add(wasm_f64x2_sub(p, wasm_f64x2_sub(s, bb)), wasm_f64x2_sub(cd, bb));
   const v128_t one = wasm_i32x4_make(1, 0, 1, 0);
   /* the sum's low bit clear: both words of (s & 1) zero */
   const v128_t even = wasm_i32x4_eq(wasm_v128_and(s, one), wasm_i32x4_splat(0));
   const v128_t even64 = wasm_v128_and(even, wasm_i32x4_shuffle(even, even, 1, 0, 3, 2));
   /* made odd where e != 0 and s is finite (s - s >= 0): away from zero where e has s's
      sign, else toward it */
   const v128_t fix = wasm_v128_and(wasm_v128_or(wasm_f64x2_lt(e, z), wasm_f64x2_gt(e, z)), wasm_f64x2_ge(wasm_f64x2_sub(s, s), z));
   const v128_t toward = wasm_v128_xor(wasm_f64x2_gt(e, z), wasm_f64x2_gt(s, z));
   const v128_t step = wasm_v128_and(wasm_v128_and(fix, even64), wasm_v128_or(toward, one));
   return wasm_f32x4_demote_f64x2_zero(wasm_i64x2_add(s, step));
}
static inline dropout__v dropout__v_fma(dropout__v a, dropout__v b, dropout__v c)
{
   const v128_t lo = dropout__fma2(wasm_f64x2_promote_low_f32x4(a), wasm_f64x2_promote_low_f32x4(b),
                                   wasm_f64x2_promote_low_f32x4(c));
   const v128_t hi = dropout__fma2(wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(a, a, 2, 3, 0, 1)),
                                   wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(b, b, 2, 3, 0, 1)),
                                   wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(c, c, 2, 3, 0, 1)));
   return wasm_i32x4_shuffle(lo, hi, 0, 1, 4, 5);
}
#define dropout__v_fma dropout__v_fma
#define dropout__v_nan_any(f) wasm_v128_any_true(wasm_f32x4_ne(f, f))
#define DROPOUT__FUSED_GROUP 4   /* (as SSE: the fma in double is long) */
#define dropout__v_cvt_f32 wasm_f32x4_convert_i32x4
#define dropout__v_gt_s wasm_i32x4_gt
#define dropout__v_gt_u wasm_u32x4_gt
#define dropout__v_sel(m, a, b) wasm_v128_bitselect(a, b, m)
static inline dropout__v dropout__v_lanes32(uint64_t bits)
{
   const v128_t sel = wasm_i32x4_make(1, 2, 4, 8);
   return wasm_i32x4_eq(wasm_v128_and(wasm_i32x4_splat((int32_t)(bits & 0xFu)), sel), sel);
}
static inline dropout__v dropout__v_lanes64(uint64_t bits)
{
   const v128_t sel = wasm_i32x4_make(1, 1, 2, 2);
   return wasm_i32x4_eq(wasm_v128_and(wasm_i32x4_splat((int32_t)(bits & 3u)), sel), sel);
}
#define DROPOUT__V_IOTA wasm_i32x4_make(0, 1, 2, 3)
#define dropout__v_load_u16(p) wasm_u32x4_load16x4((const void *)(p))
/* lanes < 2^16: the saturating narrow keeps them */
#define dropout__v_store_u16(p, a) wasm_v128_store64_lane((void *)(p), wasm_u16x8_narrow_i32x4(a, a), 0)
static inline void dropout__v_mulhilo(dropout__v a, uint32_t m, dropout__v *hi, dropout__v *lo)
{
   const v128_t mv = wasm_i32x4_splat((int32_t)m);
   const v128_t p01 = wasm_u64x2_extmul_low_u32x4(a, mv), p23 = wasm_u64x2_extmul_high_u32x4(a, mv);
   *lo = wasm_i32x4_shuffle(p01, p23, 0, 2, 4, 6);
   *hi = wasm_i32x4_shuffle(p01, p23, 1, 3, 5, 7);
}
/* four vectors of words 0-3 as the blocks of their lanes, in order (a 4 x 4 transpose) */
static inline void dropout__v_store4(uint32_t *out, dropout__v w0, dropout__v w1, dropout__v w2, dropout__v w3)
{
   const v128_t t0 = wasm_i32x4_shuffle(w0, w1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(w2, w3, 0, 4, 1, 5);
   const v128_t t2 = wasm_i32x4_shuffle(w0, w1, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(w2, w3, 2, 6, 3, 7);
   wasm_v128_store(out, wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5));
   wasm_v128_store(out + 4, wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7));
   wasm_v128_store(out + 8, wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5));
   wasm_v128_store(out + 12, wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7));
}

/* Keep bits of one window: unsigned compares, then the lanes' top bits (bitmask) */
static uint64_t dropout__window_keep(const uint32_t *w, int bits, uint32_t tm1)
{
   uint64_t keep = 0;
   int k;
   if (bits == 8) {
      const v128_t t = wasm_i8x16_splat((int8_t)tm1);
      for (k = 0; k < 4; ++k)
         keep |= (uint64_t)wasm_i8x16_bitmask(wasm_u8x16_gt(wasm_v128_load(w + 4 * k), t)) << (16 * k);
   } else if (bits == 16) {
      const v128_t t = wasm_i16x8_splat((int16_t)tm1);
      for (k = 0; k < 8; ++k)
         keep |= (uint64_t)wasm_i16x8_bitmask(wasm_u16x8_gt(wasm_v128_load(w + 4 * k), t)) << (8 * k);
   } else {
      const v128_t t = wasm_i32x4_splat((int32_t)tm1);
      for (k = 0; k < 16; ++k)
         keep |= (uint64_t)wasm_i32x4_bitmask(wasm_u32x4_gt(wasm_v128_load(w + 4 * k), t)) << (4 * k);
   }
   return keep;
}

/* (no overlap: under V8 on x86-64, 16 registers, the f32 and bf16 calls ran 1.05-1.10x
   slower with it) */
#endif
/* ==== end of the ISA blocks ========================================================== */

/* ---- Philox in 32-bit lanes: NEON and WebAssembly ----------------------------------- */
#if defined(DROPOUT__SIMD_LANES32)
/* Stores: plain ones (neither has streaming stores); no prefetch; apply: one element a
   32-bit lane, the integer conversions */
#define DROPOUT__STREAMS 0
#define DROPOUT__NT_ALIGN 16   /* (unused: DROPOUT__STREAMS 0) */
#define dropout__v_put(nt, p, a) dropout__v_storeu(p, a)
#define dropout__v_put_u16(nt, p, a) dropout__v_store_u16(p, a)
static inline int dropout__nt_mode(const void *p)
{
   (void)p;
   return 0;
}
#define dropout__v_sfence() ((void)0)
#define DROPOUT__LANES_ONLY 1

/* A block a 32-bit lane, the products from a widening multiply (dropout__v_mulhilo); two
   vectors interleaved, so the multiplier latency of one hides behind the other. */
#define DROPOUT__VB (2 * DROPOUT__W)

/* The two interleaved vectors' Philox state, its start, one round, and the store; the
   blocks and the overlap (dropout__blocks_apply) share them. */
typedef struct dropout__lanes_st { dropout__v a0, a1, a2, a3, b0, b1, b2, b3; } dropout__lanes_st;
static inline void dropout__lanes_start(dropout__lanes_st *p, uint64_t stream, uint64_t block)
{
   dropout__v iota = DROPOUT__V_IOTA, carry;
   /* counter low word of each lane, with the carry into the high word where it wraps */
   p->a0 = dropout__v_add(dropout__v_set1((uint32_t)block), iota);
   carry = dropout__v_gt_u(iota, p->a0);
   p->a1 = dropout__v_add(dropout__v_set1((uint32_t)(block >> 32)), dropout__v_and(carry, dropout__v_set1(1)));
   p->b0 = dropout__v_add(p->a0, dropout__v_set1(DROPOUT__W));
   carry = dropout__v_gt_u(p->a0, p->b0);
   p->b1 = dropout__v_add(p->a1, dropout__v_and(carry, dropout__v_set1(1)));
   p->a2 = p->b2 = dropout__v_set1((uint32_t)stream);
   p->a3 = p->b3 = dropout__v_set1((uint32_t)(stream >> 32));
}
static inline void dropout__lanes_round(dropout__lanes_st *p, const uint32_t *ks, unsigned r)
{
   dropout__v ahi0, alo0, ahi1, alo1, bhi0, blo0, bhi1, blo1;
   dropout__v vk0 = dropout__v_set1(ks[2 * r]), vk1 = dropout__v_set1(ks[2 * r + 1]);
   dropout__v_mulhilo(p->a0, DROPOUT_PHILOX_M0, &ahi0, &alo0);
   dropout__v_mulhilo(p->a2, DROPOUT_PHILOX_M1, &ahi1, &alo1);
   dropout__v_mulhilo(p->b0, DROPOUT_PHILOX_M0, &bhi0, &blo0);
   dropout__v_mulhilo(p->b2, DROPOUT_PHILOX_M1, &bhi1, &blo1);
   p->a0 = dropout__v_xor(dropout__v_xor(ahi1, p->a1), vk0);  p->a1 = alo1;
   p->a2 = dropout__v_xor(dropout__v_xor(ahi0, p->a3), vk1);  p->a3 = alo0;
   p->b0 = dropout__v_xor(dropout__v_xor(bhi1, p->b1), vk0);  p->b1 = blo1;
   p->b2 = dropout__v_xor(dropout__v_xor(bhi0, p->b3), vk1);  p->b3 = blo0;
}
static inline void dropout__lanes_store(const dropout__lanes_st *p, uint32_t *out)
{
   dropout__v_store4(out, p->a0, p->a1, p->a2, p->a3);
   dropout__v_store4(out + 4 * DROPOUT__W, p->b0, p->b1, p->b2, p->b3);
}

/* Words 4 * block .. 4 * (block + DROPOUT__VB) - 1 of the stream, in order, into out. */
static void dropout__blocks_simd(const uint32_t *ks, uint64_t stream, uint64_t block, uint32_t *out)
{
   dropout__lanes_st p;
   unsigned r;
   dropout__lanes_start(&p, stream, block);
   for (r = 0; r < 10; ++r) dropout__lanes_round(&p, ks, r);
   dropout__lanes_store(&p, out);
}

#if defined(DROPOUT__OVERLAP)
/* The overlap: data chunk c after round c */
DROPOUT__INLINE void dropout__blocks_apply(const uint32_t *ks, uint64_t stream, uint64_t block, uint32_t *out, int dtype,
                                           void *y, const void *x, const uint64_t *keep, unsigned nc,
                                           float scale, int nt)
{
   dropout__lanes_st p;
   unsigned r;
   dropout__lanes_start(&p, stream, block);
   for (r = 0; r < 10; ++r) {
      dropout__lanes_round(&p, ks, r);
      if (r < nc) dropout__apply64(dtype, y, x, 64u * r, keep[r], scale, nt);
   }
   dropout__lanes_store(&p, out);
}
#endif
#endif


/* The blocks that say DROPOUT__LANES_ONLY (SSE, NEON, WebAssembly): no prefetch, and apply by the
   driver's lane loops (one element a 32-bit lane). */
#if defined(DROPOUT__LANES_ONLY)
DROPOUT__INLINE void dropout__stores_prefetch(const void *x, size_t at, size_t left, size_t es, int nt)
{
   (void)x; (void)at; (void)left; (void)es; (void)nt;
}
DROPOUT__INLINE void dropout__apply64_f16(uint16_t *y, const uint16_t *x, uint64_t keep, float scale, int nt)
{
   dropout__apply64_half_lanes(y, x, keep, scale, nt, 1);
}
DROPOUT__INLINE void dropout__apply64_f32(float *y, const float *x, uint64_t keep, float scale, int nt)
{
   dropout__apply64_f32_lanes(y, x, keep, scale, nt);
}
DROPOUT__INLINE void dropout__apply64_bf16(uint16_t *y, const uint16_t *x, uint64_t keep, float scale, int nt)
{
   dropout__apply64_half_lanes(y, x, keep, scale, nt, 0);
}
#endif

/* The prefetch of the x86 blocks that apply their own chunks (AVX-512, AVX2): before a
   step's Philox runs, ask for the next step's x (left: whole chunks from this step on),
   so that the loads overlap the arithmetic; with streamed stores only. Whether it pays
   depends on the core (bench/results/simd-design-notes.md): AVX-512 takes it by default,
   AVX2 does not (Zen 4: 5-8% slower with it; an Intel Xeon family 6 model 207: 10-22%
   faster), DROPOUT_STREAM_PREFETCH decides. Always inlined: gcc 12 finds a function whose
   only effect is a prefetch to be const and drops the call, silently (tests/simd checks
   the prefetcht0 is in the object code). */
#if !defined(DROPOUT__LANES_ONLY)
#ifndef DROPOUT_STREAM_PREFETCH
#if defined(DROPOUT__SIMD_AVX512)
#define DROPOUT_STREAM_PREFETCH 1
#else
#define DROPOUT_STREAM_PREFETCH 0
#endif
#endif
DROPOUT__INLINE void dropout__stores_prefetch(const void *x, size_t at, size_t left, size_t es, int nt)
{
   if (DROPOUT_STREAM_PREFETCH && x && nt && left > DROPOUT__GROUP) {
      const char *pf = (const char *)x + (at + (size_t)DROPOUT__GROUP * DROPOUT__CHUNK) * es;
      size_t e, bytes = (size_t)DROPOUT__GROUP * DROPOUT__CHUNK * es;
      for (e = 0; e < bytes; e += 64) _mm_prefetch(pf + e, _MM_HINT_T0);
   }
}
#endif
#if defined(DROPOUT__FAR_PREFETCH)
/* y's elements from .. to - 1 into the cache, owned, asked for before the step that
   writes them runs: a call whose plain stores miss the caches (DROPOUT__FAR; the ISA
   block says why). PREFETCHW asks for each line to write (CPUs without it, Intel's before
   Broadwell, run it as a no-op). Against the fast places without it, the f32 forward at
   16-bit draws took 1.03-1.08 of the time with it, 1.11-1.13 with prefetcht0 of the same
   lines, 1.15 with prefetcht2, 1.18 with every second line and 1.13-1.15 with the step
   after next (Zen 5). The compilers' intrinsic for it needs -mprfchw, so gcc and clang
   take the instruction itself; elsewhere (MSVC) a prefetcht0. Always inlined (see above). */
DROPOUT__INLINE void dropout__far_prefetch(const void *y, size_t from, size_t to, size_t es)
{
   const char *pf = (const char *)y + from * es;
   size_t e, bytes = (to - from) * es;
#if defined(__GNUC__)
   for (e = 0; e < bytes; e += 64) __asm__ __volatile__("prefetchw %0" : : "m"(pf[e]));
#else
   for (e = 0; e < bytes; e += 64) _mm_prefetch(pf + e, _MM_HINT_T0);
#endif
}
#endif

/* ---- Philox in 64-bit lanes: the three x86 blocks ----------------------------------- */
#if defined(DROPOUT__SIMD_X86)
/* x86: Philox with one block per 64-bit lane, its 32-bit words in the low halves.
   mul_epu32 reads only the low halves and returns the full 64-bit product, so a round
   is 2 multiplies, 2 shifts and 4 xors per W/2 blocks with no blends; the high halves
   carry garbage through the rounds and are dropped when the words are packed at the
   end. The 64-bit counter add also gives the carry into the counter's high word. */

/* Independent chains in flight: a round is 8 vector uops a chain with about 5 cycles of
   latency (multiply, shift, xor). The ISA block lists its chains as X(index, name) in
   DROPOUT__CHAINS(X); four by default (AVX-512), which keep the vector pipes busy and
   leave registers for the data chunks between the rounds. */
#define DROPOUT__CHAINS4(X) X(0, a) X(1, b) X(2, e) X(3, f)
#ifndef DROPOUT__CHAINS
#define DROPOUT__CHAINS(X) DROPOUT__CHAINS4(X)
#endif
#define DROPOUT__CHAIN_COUNT(n, c) + 1
#define DROPOUT__U (0 DROPOUT__CHAINS(DROPOUT__CHAIN_COUNT))
/* Blocks processed per call */
#define DROPOUT__VB (DROPOUT__U * DROPOUT__W / 2)

/* one Philox round on chain (a, b, c, d) = words 0..3; c1 ^ k0 is off the critical path */
#define DROPOUT__ROUND1(a, b, c, d)                                                \
   do {                                                                            \
      dropout__v p0_ = dropout__v_mul64(a, m0), p1_ = dropout__v_mul64(c, m1);    \
      a = dropout__v_xor3(dropout__v_hi64(p1_), b, vk0);                          \
      b = p1_;                                                                     \
      c = dropout__v_xor3(dropout__v_hi64(p0_), d, vk1);                          \
      d = p0_;                                                                     \
   } while (0)
#define DROPOUT__CHAIN_ROUND1(n, c) DROPOUT__ROUND1(c##0, c##1, c##2, c##3);
#define DROPOUT__ROUND_ON(chains, r)                                               \
   do {                                                                            \
      dropout__v vk0 = dropout__v_set1(ks[2 * (r)]), vk1 = dropout__v_set1(ks[2 * (r) + 1]); \
      chains(DROPOUT__CHAIN_ROUND1)                                                 \
   } while (0)
#define DROPOUT__ROUND(r) DROPOUT__ROUND_ON(DROPOUT__CHAINS, r)
#define DROPOUT__ROUNDS29_ON(chains)                                                        \
   DROPOUT__ROUND_ON(chains, 2); DROPOUT__ROUND_ON(chains, 3); DROPOUT__ROUND_ON(chains, 4); \
   DROPOUT__ROUND_ON(chains, 5); DROPOUT__ROUND_ON(chains, 6); DROPOUT__ROUND_ON(chains, 7); \
   DROPOUT__ROUND_ON(chains, 8); DROPOUT__ROUND_ON(chains, 9)

/* The chains' declarations and start (counter from block, key words from stream),
   shared by dropout__blocks_simd_any and dropout__blocks_apply_rounds; chain n takes
   the blocks from block + n W/2 on. */
#define DROPOUT__CHAIN_START(n, c)                                                              \
   dropout__v c##0 = (n) ? dropout__v_add64(base_, dropout__v_set64((n) * DROPOUT__W / 2)) : base_; \
   dropout__v c##1 = dropout__v_hi64(c##0), c##2 = s0, c##3 = s1;
#define DROPOUT__CHAINS_START(stream, block)                                                    \
   dropout__v m0 = dropout__v_set1(DROPOUT_PHILOX_M0), m1 = dropout__v_set1(DROPOUT_PHILOX_M1); \
   dropout__v s0 = dropout__v_set64(stream), s1 = dropout__v_set1((uint32_t)((stream) >> 32));  \
   const dropout__v base_ = dropout__v_add64(dropout__v_set64(block), DROPOUT__V_IOTA64);       \
   DROPOUT__CHAINS(DROPOUT__CHAIN_START)

/* Rounds 0 and 1 for calls whose blocks share their high word: block .. block + VB - 1
   does not cross a multiple of 2^32, which all calls but about one in 2^32 / VB do. Then
   counter words 1..3 are the same in every lane, and so are round 0's product M1 * word 2,
   round 0's words 0 and 1 that come of it, and round 1's product M0 * word 0. Made once,
   in scalar arithmetic, they leave a chain 3 + 4 vector operations for the two rounds
   instead of 12 (AVX-512) or 16 (AVX2, whose three-way xor is two). The same words, in the
   same lanes, as DROPOUT__ROUND(0) and (1) on DROPOUT__CHAINS_START. */
#define DROPOUT__SAME_HI_FOR(block, nb) ((uint32_t)(block) <= 0xFFFFFFFFu - (uint32_t)((nb) - 1))
#define DROPOUT__SAME_HI(block) DROPOUT__SAME_HI_FOR(block, DROPOUT__VB)
#define DROPOUT__ROUNDS01(x0, x1, x2, x3)                                                       \
   do {                                                                                         \
      dropout__v p0_ = dropout__v_mul64(x0, m0);  /* round 0: x0 is the counter's word 0 */     \
      dropout__v p1_ = dropout__v_mul64(dropout__v_xor(dropout__v_hi64(p0_), r0c_), m1);        \
      x0 = dropout__v_xor(dropout__v_hi64(p1_), r1a_);                                          \
      x1 = p1_;                                                                                 \
      x2 = dropout__v_xor(p0_, r1c_);                                                           \
      x3 = r1d_;                                                                                \
   } while (0)
#define DROPOUT__SAME_HI_WORDS(ks, stream, block)                                                       \
   dropout__v m0 = dropout__v_set1(DROPOUT_PHILOX_M0), m1 = dropout__v_set1(DROPOUT_PHILOX_M1);          \
   const uint64_t q1_ = (uint64_t)(uint32_t)(stream) * DROPOUT_PHILOX_M1;  /* round 0, every lane */     \
   const uint32_t w0_ = (uint32_t)(q1_ >> 32) ^ (uint32_t)((block) >> 32) ^ (ks)[0];                     \
   const uint64_t q0_ = (uint64_t)w0_ * DROPOUT_PHILOX_M0;                 /* round 1, every lane */     \
   const dropout__v r0c_ = dropout__v_set1((uint32_t)((stream) >> 32) ^ (ks)[1]);                        \
   const dropout__v r1a_ = dropout__v_set1((uint32_t)q1_ ^ (ks)[2]);                                     \
   const dropout__v r1c_ = dropout__v_set1((uint32_t)(q0_ >> 32) ^ (ks)[3]);                             \
   const dropout__v r1d_ = dropout__v_set1((uint32_t)q0_)
#define DROPOUT__CHAIN_DECL01(n, c)                                                                      \
   dropout__v c##0 = (n) ? dropout__v_add64(base_, dropout__v_set64((n) * DROPOUT__W / 2)) : base_, c##1, c##2, c##3;
#define DROPOUT__CHAIN_ROUNDS01(n, c) DROPOUT__ROUNDS01(c##0, c##1, c##2, c##3);
#define DROPOUT__CHAINS_START01_ON(chains, ks, stream, block)                                            \
   DROPOUT__SAME_HI_WORDS(ks, stream, block);                                                            \
   const dropout__v base_ = dropout__v_add64(dropout__v_set64(block), DROPOUT__V_IOTA64);                \
   chains(DROPOUT__CHAIN_DECL01)                                                                         \
   chains(DROPOUT__CHAIN_ROUNDS01)
#define DROPOUT__CHAINS_START01(ks, stream, block) DROPOUT__CHAINS_START01_ON(DROPOUT__CHAINS, ks, stream, block)

#define DROPOUT__STORE(k, a, b, c, d)                                                              \
   do {                                                                                            \
      dropout__v lo_ = dropout__v_pack64(a, b), hi_ = dropout__v_pack64(c, d);                     \
      dropout__v_storeu(out + (k) * 2 * DROPOUT__W, dropout__v_unpacklo64(lo_, hi_));              \
      dropout__v_storeu(out + (k) * 2 * DROPOUT__W + DROPOUT__W, dropout__v_unpackhi64(lo_, hi_)); \
   } while (0)
#define DROPOUT__CHAIN_STORE(n, c) DROPOUT__STORE(n, c##0, c##1, c##2, c##3);

#if defined(DROPOUT__STEP_WIDE)   /* the ISA block's steps call the fills' kernel (below) */
static void dropout__blocks_wide(const uint32_t *ks, uint64_t stream, uint64_t block, uint32_t *out);
#endif

/* dropout__blocks_simd for any block: all ten rounds on the lanes (a call that crosses a
   multiple of 2^32 blocks carries into word 1 in some lanes only). Out of line: rare. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void dropout__blocks_simd_any(const uint32_t *ks, uint64_t stream, uint64_t block, uint32_t *out)
{
   DROPOUT__CHAINS_START(stream, block);
   /* ten rounds, unrolled so that the word rotation costs no moves */
   DROPOUT__ROUND(0); DROPOUT__ROUND(1); DROPOUT__ROUND(2); DROPOUT__ROUND(3); DROPOUT__ROUND(4);
   DROPOUT__ROUND(5); DROPOUT__ROUND(6); DROPOUT__ROUND(7); DROPOUT__ROUND(8); DROPOUT__ROUND(9);
   DROPOUT__CHAINS(DROPOUT__CHAIN_STORE)
}

/* Words 4 * block .. 4 * (block + DROPOUT__VB) - 1 of the stream, in order, into out. */
static void dropout__blocks_simd(const uint32_t *ks, uint64_t stream, uint64_t block, uint32_t *out)
{
   /* (the rare case first: so written, gcc 12 keeps the function whole and spills fewer
      registers with AVX2) */
   if (!DROPOUT__SAME_HI(block)) {
      dropout__blocks_simd_any(ks, stream, block, out);
      return;
   } else {
#if defined(DROPOUT__STEP_WIDE)
      dropout__blocks_wide(ks, stream, block, out);
#else
      DROPOUT__CHAINS_START01(ks, stream, block);
      DROPOUT__ROUNDS29_ON(DROPOUT__CHAINS);
      DROPOUT__CHAINS(DROPOUT__CHAIN_STORE)
#endif
   }
}

#if defined(DROPOUT__FEW_BLOCKS)
/* A call's last blocks, when they are few: four chains, DROPOUT__VB4 blocks. Where the
   steps take six chains (AVX2, SSE), a 64-element call at 8-bit draws needs 4 blocks
   and six chains made it 1.16-1.19x slower (make bench-ab-short, Zen 5). out has room
   for DROPOUT__VB blocks: a call across a multiple of 2^32 blocks (rare) takes
   dropout__blocks_simd_any, which writes that many. Out of line: inlined into
   dropout__windows_keep it ran slower (a 64-element call 1.06x the time). */
#define DROPOUT__VB4 (2 * DROPOUT__W)   /* DROPOUT__CHAINS4's blocks */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void dropout__blocks_simd4(const uint32_t *ks, uint64_t stream, uint64_t block, uint32_t *out)
{
   if (!DROPOUT__SAME_HI_FOR(block, DROPOUT__VB4)) {
      dropout__blocks_simd_any(ks, stream, block, out);
      return;
   } else {
      DROPOUT__CHAINS_START01_ON(DROPOUT__CHAINS4, ks, stream, block);
      DROPOUT__ROUNDS29_ON(DROPOUT__CHAINS4);
      DROPOUT__CHAINS4(DROPOUT__CHAIN_STORE)
   }
}
#endif
#if defined(DROPOUT__FAR_PREFETCH)
/* the far calls' four-chain steps (dropout__blocks_apply4, in the AVX2 block) are whole
   calls of DROPOUT__VB4 blocks at 8-bit draws */
typedef char dropout__far_four_is_whole_calls[(DROPOUT__GROUP * 4) % DROPOUT__VB4 == 0 ? 1 : -1];
#endif

/* Philox blocks block .. block + DROPOUT__VB - 1 into out, as dropout__blocks_simd, with
   data chunks 0 <= c < nc applied between the rounds (the AVX-512 block's overlap): chunk
   c is the 64 elements from element 64c of y and x, with keep word keep[c]. In cache
   chunk c follows round c + 1 (rounds 0 and 1 are made together,
   DROPOUT__CHAINS_START01); streamed (nt), the chunks spread evenly over all ten rounds,
   so that the write-combining buffers drain while Philox runs. */
/* The chunks stay between the rounds where clang compiles them: clang 14 hoisted all the
   rounds (pure arithmetic on registers) above every chunk, so that its calls made the
   whole Philox first and the data after, with no overlap; pinned, its grid took 0.72-1.0
   of the time (Zen 5). The pin, an empty statement that takes each chain's multiplied
   words and may touch memory, orders them: a chunk's loads and stores before it, the next
   round after it. gcc keeps the order as written; there it is empty. */
#if defined(__clang__)
#define DROPOUT__CHAIN_PIN(n, c) __asm__ __volatile__("" : "+v"(c##0), "+v"(c##2) : : "memory");
#define DROPOUT__PIN_ON(chains) do { chains(DROPOUT__CHAIN_PIN) } while (0)
#else
#define DROPOUT__PIN_ON(chains) do { } while (0)
#endif
/* (its chunk slots: in cache chunk c after round c + 1, streamed spread over all ten) */
#define DROPOUT__SPREAD(c) \
   do { for (e = ((c) + 1) * nc / 10u; q < e; ++q) dropout__apply64(dtype, y, x, 64u * q, keep[q], scale, nt); } while (0)
#define DROPOUT__APPLY(c) \
   do { \
      if (nt) DROPOUT__SPREAD(c); \
      else if ((c) < nc) dropout__apply64(dtype, y, x, 64u * (c), keep[c], scale, nt); \
   } while (0)
#define DROPOUT__APPLY_ROUNDS_FN(name, chains)                                                                \
   DROPOUT__INLINE void name(const uint32_t *ks, uint64_t stream, uint64_t block, uint32_t *out, int dtype,  \
                             void *y, const void *x, const uint64_t *keep, unsigned nc, float scale, int nt) \
   {                                                                                                         \
      /* the blocks share their high word: dropout__run_simd takes the overlap only then */                  \
      DROPOUT__CHAINS_START01_ON(chains, ks, stream, block);                                                  \
      unsigned q = 0, e;                                                                                      \
      DROPOUT__APPLY(0); DROPOUT__PIN_ON(chains);                                                             \
      DROPOUT__ROUND_ON(chains, 2); DROPOUT__APPLY(1); DROPOUT__PIN_ON(chains);                               \
      DROPOUT__ROUND_ON(chains, 3); DROPOUT__APPLY(2); DROPOUT__PIN_ON(chains);                               \
      DROPOUT__ROUND_ON(chains, 4); DROPOUT__APPLY(3); DROPOUT__PIN_ON(chains);                               \
      DROPOUT__ROUND_ON(chains, 5); DROPOUT__APPLY(4); DROPOUT__PIN_ON(chains);                               \
      DROPOUT__ROUND_ON(chains, 6); DROPOUT__APPLY(5); DROPOUT__PIN_ON(chains);                               \
      DROPOUT__ROUND_ON(chains, 7); DROPOUT__APPLY(6); DROPOUT__PIN_ON(chains);                               \
      DROPOUT__ROUND_ON(chains, 8); DROPOUT__APPLY(7); if (nt) DROPOUT__SPREAD(8); DROPOUT__PIN_ON(chains);   \
      DROPOUT__ROUND_ON(chains, 9); if (nt) DROPOUT__SPREAD(9);                                               \
      chains(DROPOUT__CHAIN_STORE)                                                                            \
   }
DROPOUT__APPLY_ROUNDS_FN(dropout__blocks_apply_rounds, DROPOUT__CHAINS)
#if defined(DROPOUT__CHAINS_WIDE_STEP)
/* the same on the chains of DROPOUT__CHAINS_WIDE_STEP, whose calls make DROPOUT__VBS blocks
   (a step of DROPOUT__GROUP_WIDE windows at the widths that take them: see
   dropout__run_overlap_body) */
DROPOUT__APPLY_ROUNDS_FN(dropout__blocks_apply_rounds_wide, DROPOUT__CHAINS_WIDE_STEP)
#endif
#undef DROPOUT__APPLY_ROUNDS_FN
#undef DROPOUT__SPREAD
#undef DROPOUT__APPLY

#if defined(DROPOUT__WIDE)
/* The fills' wide kernel: the chains of the block's DROPOUT__WIDE list instead of four.
   On Zen 5 a chain's round is 7 cycles of latency (multiply 3, shift 2, three-way xor 2)
   and 1.5 cycles of the four vector pipes (AVX-512), so four chains leave the scheduler
   no slack: the fill ran at 1.5x the bound of its instructions, six at 1.24x, seven at
   1.19x (bench/results/zen5-amd-epyc-f26m2.md); AVX2 and SSE have more to do a round
   and 16 registers, and six chains still gain. AVX2's steps call it too
   (DROPOUT__STEP_WIDE); AVX-512's steps keep four chains (DROPOUT__VB blocks), which
   leave registers for the data chunks between their rounds: six there made the calls at
   8-bit draws 1.05-1.16x slower in L2. */
#define DROPOUT__WORDS_WIDE 1
#if defined(__GNUC__) && !defined(__CUDACC__)   /* gcc and clang (nvcc's front end has no such pragma) */
#define DROPOUT__UNROLL_8 _Pragma("GCC unroll 8")
#else
#define DROPOUT__UNROLL_8
#endif
#define DROPOUT__WIDE_COUNT(n, c) + 1
#define DROPOUT__WIDE_N (0 DROPOUT__WIDE(DROPOUT__WIDE_COUNT))   /* chains */
#define DROPOUT__VBW (DROPOUT__WIDE_N * DROPOUT__W / 2)             /* blocks a call */
#define DROPOUT__WIDE_START(n, c) \
   dropout__v c##0 = dropout__v_add64(base_, dropout__v_set64((n) * DROPOUT__W / 2)), c##1, c##2, c##3;
#define DROPOUT__WIDE_ROUNDS01(n, c) DROPOUT__ROUNDS01(c##0, c##1, c##2, c##3);
#if defined(DROPOUT__WIDE_SPILL)
/* DROPOUT__ROUND1 with words 1 and 3 of chain n at bd_[2n], bd_[2n + 1]; the empty asm
   after each round keeps them there (its "memory" reads them), and so keeps the compiler
   from spilling words 0 and 2 instead */
#define DROPOUT__WIDE_ROUND1(n, c)                                                              \
   do {                                                                                         \
      dropout__v p0_ = dropout__v_mul64(c##0, m0), p1_ = dropout__v_mul64(c##2, m1);             \
      c##0 = dropout__v_xor3(dropout__v_hi64(p1_), bd_[2 * (n)], vk0);                          \
      bd_[2 * (n)] = p1_;                                                                       \
      c##2 = dropout__v_xor3(dropout__v_hi64(p0_), bd_[2 * (n) + 1], vk1);                      \
      bd_[2 * (n) + 1] = p0_;                                                                   \
   } while (0);
#define DROPOUT__WIDE_TO_BD(n, c) bd_[2 * (n)] = c##1; bd_[2 * (n) + 1] = c##3;
#define DROPOUT__WIDE_FROM_BD(n, c) c##1 = bd_[2 * (n)]; c##3 = bd_[2 * (n) + 1];
#if defined(__GNUC__)
#define DROPOUT__WIDE_KEEP_BD() __asm__ volatile("" : : "r"(bd_) : "memory")
#else   /* (elsewhere the compiler places them as it likes: the same bits) */
#define DROPOUT__WIDE_KEEP_BD() ((void)0)
#endif
#else
#define DROPOUT__WIDE_ROUND1(n, c) DROPOUT__ROUND1(c##0, c##1, c##2, c##3);
#define DROPOUT__WIDE_TO_BD(n, c)
#define DROPOUT__WIDE_FROM_BD(n, c)
#define DROPOUT__WIDE_KEEP_BD() ((void)0)
#endif
#define DROPOUT__WIDE_STORE(n, c) DROPOUT__STORE(n, c##0, c##1, c##2, c##3);
#define DROPOUT__ROUNDW(r)                                                         \
   do {                                                                            \
      dropout__v vk0 = dropout__v_set1(ks[2 * (r)]), vk1 = dropout__v_set1(ks[2 * (r) + 1]); \
      DROPOUT__WIDE(DROPOUT__WIDE_ROUND1)                                          \
      DROPOUT__WIDE_KEEP_BD();                                                     \
   } while (0)

/* Blocks block .. block + DROPOUT__VBW - 1 into out (4 * DROPOUT__VBW words), when they
   share their high word (rounds 0 and 1 as DROPOUT__CHAINS_START01 makes them). */
static void dropout__blocks_wide(const uint32_t *ks, uint64_t stream, uint64_t block, uint32_t *out)
{
   DROPOUT__SAME_HI_WORDS(ks, stream, block);
   const dropout__v base_ = dropout__v_add64(dropout__v_set64(block), DROPOUT__V_IOTA64);
   DROPOUT__WIDE(DROPOUT__WIDE_START)
   DROPOUT__WIDE(DROPOUT__WIDE_ROUNDS01)
   {
      /* rounds 2 .. 9 as a loop that the compiler unrolls late: written out, the kernel's
         size took gcc's budget for inlining elsewhere in the unit, and other calls
         (the fused op's, the plan checks) were compiled differently */
      int r;
#if defined(DROPOUT__WIDE_SPILL)
      dropout__v bd_[2 * DROPOUT__WIDE_N];
#endif
      DROPOUT__WIDE(DROPOUT__WIDE_TO_BD)
      DROPOUT__UNROLL_8
      for (r = 2; r < 10; ++r) DROPOUT__ROUNDW(r);
      DROPOUT__WIDE(DROPOUT__WIDE_FROM_BD)
   }
   DROPOUT__WIDE(DROPOUT__WIDE_STORE)
}

/* The whole wide calls of a fill into out (from a block boundary, cached stores): words
   done; *block moves past them. */
DROPOUT__INLINE size_t dropout__words_wide(const uint32_t *ks, uint64_t stream, uint64_t *block, uint32_t *out, size_t n)
{
   size_t i = 0;
   while (n - i >= 4u * DROPOUT__VBW && DROPOUT__SAME_HI_FOR(*block, DROPOUT__VBW)) {
      dropout__blocks_wide(ks, stream, *block, out + i);
      i += 4u * DROPOUT__VBW;
      *block += DROPOUT__VBW;
   }
   return i;
}
#endif
#endif

#ifndef DROPOUT__WORDS_WIDE   /* the blocks with four chains only */
#define DROPOUT__WORDS_WIDE 0
DROPOUT__INLINE size_t dropout__words_wide(const uint32_t *ks, uint64_t stream, uint64_t *block, uint32_t *out, size_t n)
{
   (void)ks; (void)stream; (void)block; (void)out; (void)n;
   return 0;
}
#endif

/* ==== the driver: written over the ISA blocks' names alone ============================ */

/* The Philox key of each round, k0 and k1 of round r at ks[2r], ks[2r + 1], made once a
   call of the engine: the rounds then broadcast them from memory (a load, which costs the
   vector pipes nothing) instead of adding the round constants in vector registers. */
static void dropout__key_schedule(uint64_t seed, uint32_t ks[20])
{
   uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
   int r;
   for (r = 0; r < 10; ++r) {
      ks[2 * r] = k0;
      ks[2 * r + 1] = k1;
      k0 += DROPOUT_PHILOX_W0;
      k1 += DROPOUT_PHILOX_W1;
   }
}

/* Keep words of `count` consecutive stream-aligned windows from window `index` on, under
   the round keys ks (dropout__key_schedule, made once a call, not once a step). */
static void dropout__windows_keep(const uint32_t *ks, uint64_t stream, uint64_t index, unsigned count,
                                  int bits, uint32_t tm1, uint64_t *keep)
{
   /* 32-bit mode: 64 words a window; room for a vector step's rounding up */
   uint32_t words[(DROPOUT__GROUP + 1) * 64 + 4 * DROPOUT__VB];
   unsigned per = (unsigned)bits / 2u;                  /* blocks per window */
   uint64_t block = index * per;
   unsigned b, i;
   for (b = 0; b < count * per; b += DROPOUT__VB)
#if defined(DROPOUT__FEW_BLOCKS)
      if (count * per - b <= DROPOUT__VB4) dropout__blocks_simd4(ks, stream, block + b, words + 4u * b);
      else
#endif
      dropout__blocks_simd(ks, stream, block + b, words + 4u * b);
   for (i = 0; i < count; ++i)
      keep[i] = dropout__window_keep(words + i * 2u * (unsigned)bits, bits, tm1);
}

/* f16 bits -> f32 bits, lane-wise, exactly as dropout_f16_to_f32. */
DROPOUT__INLINE dropout__v dropout__v_f16_to_f32(dropout__v h)
{
   dropout__v sign = dropout__v_slli(dropout__v_and(h, dropout__v_set1(0x8000u)), 16);
   dropout__v em = dropout__v_and(h, dropout__v_set1(0x7FFFu));
   dropout__v sh = dropout__v_slli(em, 13);
   dropout__v normal = dropout__v_add(sh, dropout__v_set1(112u << 23));
   dropout__v special = dropout__v_or(sh, dropout__v_set1(0x7F800000u));
   /* subnormal (and zero): man * 2^-24, an exact int->float and an exact scaling */
   dropout__v sub = dropout__v_fmul(dropout__v_cvt_f32(em), dropout__v_set1(0x33800000u));
   dropout__v r = dropout__v_sel(dropout__v_gt_s(em, dropout__v_set1(0x3FFu)), normal, sub);
   r = dropout__v_sel(dropout__v_gt_s(em, dropout__v_set1(0x7BFFu)), special, r);
   return dropout__v_or(r, sign);
}

/* f32 bits -> f16 bits, lane-wise, exactly as dropout_f32_to_f16 (RNE, NaN payload). */
DROPOUT__INLINE dropout__v dropout__v_f32_to_f16(dropout__v x)
{
   dropout__v sign = dropout__v_and(dropout__v_srli(x, 16), dropout__v_set1(0x8000u));
   dropout__v ax = dropout__v_and(x, dropout__v_set1(0x7FFFFFFFu));
   dropout__v nan = dropout__v_or(dropout__v_and(dropout__v_srli(ax, 13), dropout__v_set1(0x3FFu)),
                                  dropout__v_set1(0x7E00u));
   /* normal: add 0xFFF + lsb and shift drops the 13 bits with ties to even; a carry
      bumps the exponent (and reaches Inf from 65520 up) */
   dropout__v lsb = dropout__v_and(dropout__v_srli(ax, 13), dropout__v_set1(1u));
   dropout__v normal = dropout__v_add(dropout__v_srli(dropout__v_add(dropout__v_add(ax, dropout__v_set1(0xFFFu)), lsb), 13),
                                      dropout__v_set1((uint32_t)-(int32_t)(112u << 10)));
   /* below 2^-14: adding 0.5f rounds (RNE) at 2^-24, the half's subnormal step */
   dropout__v sub = dropout__v_add(dropout__v_fadd(ax, dropout__v_set1(0x3F000000u)),
                                   dropout__v_set1((uint32_t)-(int32_t)0x3F000000u));
   dropout__v r = dropout__v_sel(dropout__v_gt_s(dropout__v_set1(0x38800000u), ax), sub, normal);
   r = dropout__v_sel(dropout__v_gt_s(ax, dropout__v_set1(0x477FEFFFu)), dropout__v_set1(0x7C00u), r);
   r = dropout__v_sel(dropout__v_gt_s(ax, dropout__v_set1(0x7F800000u)), nan, r);
   return dropout__v_or(r, sign);
}

/* f32 bits -> bf16 bits by rounding to nearest even alone: dropout_f32_to_bf16 for every
   lane that is a number, and for a NaN whose low 16 bits are zero and whose quiet bit is
   set (the rounding adds at most 0x8000 to them, no carry, so it truncates, as
   dropout_f32_to_bf16's NaN rule does, and the quiet bit is there already). The bf16
   calls' products are such NaNs: x * scale with x a widened bf16 (low 16 bits zero) and
   the scale finite gives a NaN only from a NaN x, which x86 and Arm return quieted with its
   payload (dropout__scale_f32's rule), or, in Arm's default-NaN mode, as 0x7FC00000. So
   the bf16 applies of every SIMD path round NaN lanes too, with no compare and select (the
   AVX2 and AVX-512 ones write the same sum out). The fused op's groups with a NaN take the
   scalar loop. */
DROPOUT__INLINE dropout__v dropout__v_f32_to_bf16_num(dropout__v x)
{
   return dropout__v_srli(dropout__v_add(dropout__v_add(x, dropout__v_set1(0x7FFFu)),
                                         dropout__v_and(dropout__v_srli(x, 16), dropout__v_set1(1u))), 16);
}

/* Streaming (non-temporal) stores write around the caches: a large output then costs no
   read-for-ownership of y (8 instead of 12 bytes of memory traffic per f32 element). They
   are used from DROPOUT_STREAM_STORE_BYTES of output on, and the call ends with a store
   fence. The bits are the same. nt = 1: whole vectors, y DROPOUT__NT_ALIGN-byte aligned
   (dropout__run_simd shifts its data grid to get there); nt = 2 (AVX-512): 16-byte
   pieces, y 16-byte aligned (the fills, whose grid does not shift). The default: where a
   forward followed by a read of y (what the next layer does) stops losing by streaming,
   on the CPU measured (bench/results/simd-design-notes.md). */
#ifndef DROPOUT_STREAM_STORE_BYTES
#define DROPOUT_STREAM_STORE_BYTES ((size_t)16 << 20)
#if defined(DROPOUT__SIMD_AVX2) && defined(__GNUC__)
#define DROPOUT__NT_ASKS_CPU 1
#elif defined(DROPOUT__SIMD_AVX512) && defined(__GNUC__)
#define DROPOUT__NT_ASKS_CPU 1
#elif defined(DROPOUT__SIMD_SSE) && defined(__GNUC__) && !defined(__clang__)
#define DROPOUT__NT_ASKS_CPU 1   /* gcc: clang's code for these calls is slower with plain stores (below) */
#endif
#endif

/* The default's one exception, per core, both sides measured. On AMD's Zen 5 (family 26)
   the AVX2 build's 32-byte streaming stores lost to plain stores at 2^24 elements: its own
   wall y = x * s 0.74 of the speed, and every call that makes its mask took 0.68-1.06 of
   the time with plain stores (f32, bf16, f16; 1 and 2 threads; four runs; an f64 forward
   0.81), while on Zen 3, Zen 4 and an Intel Xeon family 6 model 207 the same build streams
   in 0.68-0.75 of the time of plain stores there. The backward from a stored mask (no
   Philox to hide the read for ownership behind) kept streaming faster on Zen 5 (f32
   1.00-1.50 of the time with plain stores, f16 0.89-1.06). The AVX-512 build's 64-byte
   streaming stores, whole lines, split the calls there by their share of Philox: where an
   element's bytes are at most its draw's (bf16 and f16 at 16 and 32 bits, f32 at 32, the
   fill), the call is Philox-bound and took 0.66-0.96 of the time with plain stores; where
   they are more (f32 at 8 and 16 bits, bf16 and f16 at 8), it is bound by memory, whose
   traffic the read for ownership adds to, and took up to 2.6x the time. The SSE2 and
   SSE4.1 builds, whose Philox is the slowest, are Philox-bound in every call that makes
   its mask: f32 0.75-0.90 of the time with plain stores, the fill 0.82-0.90 (bf16, f16
   and the fused op as before). Those are gcc's code: clang 14's SSE2 f32 calls took
   1.15-1.42x the time with plain stores (a figure later found to hang on where the code
   lands), so clang's SSE builds stream as elsewhere; its
   AVX2 build gained as gcc's (0.76-1.0), and so did its AVX-512 build (0.74-0.97) once its
   f32 chunks loaded whole vectors (dropout__apply64_f32). So where
   DROPOUT_STREAM_STORE_BYTES is not set, those builds ask the CPU (cpuid, once: under a
   hypervisor it takes microseconds), and on that family the AVX2 and SSE builds' calls
   that make their mask, and the AVX-512 build's whose elements are at most their draws'
   bytes, stream nothing (bench/results/zen5-amd-epyc-f26m2.md). The bits are the same
   either way. */
#if defined(DROPOUT__NT_ASKS_CPU)
#include <cpuid.h>
/* the family of cpuid leaf 1's eax (the extended family counts from base family 15) */
static inline unsigned dropout__x86_family(unsigned eax)
{
   const unsigned base = (eax >> 8) & 0xFu;
   return base == 0xFu ? base + ((eax >> 20) & 0xFFu) : base;
}
/* 1 on AMD family 26, else 0: asked once */
static inline int dropout__zen5(void)
{
   static int core;   /* 0: not asked yet; 1: another CPU; 2: Zen 5 */
   int c = __atomic_load_n(&core, __ATOMIC_RELAXED);   /* (threads that race store the same) */
   if (c == 0) {
      unsigned a, b, x, d;
      c = 1;
      if (__get_cpuid(0, &a, &b, &x, &d) && b == 0x68747541u && d == 0x69746E65u && x == 0x444D4163u /* AuthenticAMD */
          && __get_cpuid(1, &a, &b, &x, &d) && dropout__x86_family(a) == 26u)
         c = 2;
      __atomic_store_n(&core, c, __ATOMIC_RELAXED);
   }
   return c == 2;
}
#endif
/* dropout__nt_from(es, philox, bits): from how many bytes of output a call streams its
   stores; es: its element's bytes, philox: whether it makes its mask, bits: the draws'
   width. One function a build, out of line (it is cold: one call a call): inlined, the
   question moved gcc's code for the calls around it (the AVX2 build's f32 cells 1.05-1.15x
   slower; an SSE2 build that asked inline, 1.07-1.58x). */
#if defined(DROPOUT__NT_ASKS_CPU) && (defined(DROPOUT__SIMD_AVX2) || defined(DROPOUT__SIMD_SSE))
__attribute__((noinline)) static size_t dropout__nt_from_philox(int philox)   /* AVX2, SSE: every call that makes its mask */
{
   return dropout__zen5() && philox ? SIZE_MAX : (size_t)(DROPOUT_STREAM_STORE_BYTES);
}
#define dropout__nt_from(es, philox, bits) ((void)(es), (void)(bits), dropout__nt_from_philox(philox))
#elif defined(DROPOUT__NT_ASKS_CPU)
__attribute__((noinline)) static size_t dropout__nt_from_share(size_t es, unsigned bits)   /* AVX-512: by the share of Philox */
{
   return dropout__zen5() && bits != 0u && es * 8u <= bits ? SIZE_MAX : (size_t)(DROPOUT_STREAM_STORE_BYTES);
}
#define dropout__nt_from(es, philox, bits) dropout__nt_from_share(es, (philox) ? (unsigned)(bits) : 0u)
#else
#define dropout__nt_from(es, philox, bits) ((void)(es), (void)(philox), (void)(bits), (size_t)(DROPOUT_STREAM_STORE_BYTES))
#endif

/* f64, 64 elements, t > 0: y = kept ? x * scale : +0 (the product in double); nt:
   streaming stores (y aligned). */
DROPOUT__INLINE void dropout__apply64_f64(double *y, const double *x, uint64_t keep, double scale, int nt)
{
   dropout__v s;
   uint64_t sb;
   uint32_t lo, hi, tmp[DROPOUT__W];
   unsigned g, i;
   dropout__memcpy(&sb, &scale, 8);
   lo = (uint32_t)sb; hi = (uint32_t)(sb >> 32);
   /* the 64-bit scale in every pair of lanes: low word first (little endian lanes) */
   for (i = 0; i < DROPOUT__W; i += 2) { tmp[i] = lo; tmp[i + 1] = hi; }
   s = dropout__v_loadu(tmp);
   for (g = 0; g < 64; g += DROPOUT__W / 2)
      dropout__v_put(nt, y + g, dropout__v_and(dropout__v_lanes64(keep >> g), dropout__v_dmul(dropout__v_loadu(x + g), s)));
   (void)nt;
}

/* 64 mask bits as 8 bytes, LSB first */
DROPOUT__INLINE void dropout__store_mask64(uint8_t *mask, uint64_t keep)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
   dropout__store_mask_bits(mask, keep, 64);
#else
   dropout__memcpy(mask, &keep, 8);
#endif
}
static inline uint64_t dropout__load_mask64(const uint8_t *mask)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
   return dropout__load_mask_bits(mask, 64);
#else
   uint64_t keep;
   dropout__memcpy(&keep, mask, 8);
   return keep;
#endif
}

/* f16 (f16 = 1) or bf16, 64 elements, one element a 32-bit lane with the integer
   conversions: for the blocks without whole-vector ones (SSE, NEON, WebAssembly, AVX2
   without F16C) */
DROPOUT__INLINE void dropout__apply64_half_lanes(uint16_t *y, const uint16_t *x, uint64_t keep, float scale, int nt, int f16)
{
   dropout__v s;
   uint32_t sb;
   unsigned g;
   dropout__memcpy(&sb, &scale, 4);
   s = dropout__v_set1(sb);
   for (g = 0; g < 64; g += DROPOUT__W) {
      dropout__v h = dropout__v_load_u16(x + g);
      dropout__v f = dropout__v_fmul(f16 ? dropout__v_f16_to_f32(h) : dropout__v_slli(h, 16), s);
      dropout__v_put_u16(nt, y + g, dropout__v_and(dropout__v_lanes32(keep >> g), f16 ? dropout__v_f32_to_f16(f) : dropout__v_f32_to_bf16_num(f)));
   }
   (void)nt;   /* NEON and WebAssembly have no streaming stores */
}

/* f32, 64 elements, t > 0, one element a 32-bit lane: for the blocks without a kernel of
   their own (SSE, NEON, WebAssembly) */
DROPOUT__INLINE void dropout__apply64_f32_lanes(float *y, const float *x, uint64_t keep, float scale, int nt)
{
   dropout__v s;
   uint32_t sb;
   unsigned g;
   dropout__memcpy(&sb, &scale, 4);
   s = dropout__v_set1(sb);
   for (g = 0; g < 64; g += DROPOUT__W)
      dropout__v_put(nt, y + g, dropout__v_and(dropout__v_lanes32(keep >> g),
                                               dropout__v_fmul(dropout__v_loadu(x + g), s)));
   (void)nt;
}

#if defined(dropout__v_fma)
/* The fused op (SPEC 12) on 64 contiguous elements, where the block has a vector fma
   (AVX-512, AVX2 with FMA; SSE2, SSE4.1 and WebAssembly compute it in double, dropout__fma2):
   h = x + bias; kept: fma(h, scale, residual), rounded once (then to f16 or bf16 by the
   header's rounding); dropped: residual, bit for bit. Each is the correctly rounded fma
   that dropout_fmaf computes, so the bits are the scalar loop's. A NaN's payload is the
   FPU's choice between two NaN operands (SPEC 12), and the compilers order the scalar
   loop's operands as they like: so 64 results among which is a NaN are made again by the
   scalar loop, and every bit is the one the earlier versions gave. NEON has vfmaq_f32 and
   passes the same test, but there the added code moved gcc's inlining of other calls, and
   no Arm machine was at hand to time them: it keeps the scalar loop. */
#define DROPOUT__FUSED_SIMD 1
#if !defined(DROPOUT__FUSED_GROUP)   /* the elements of one NaN test: all 64 where the registers hold them */
#define DROPOUT__FUSED_GROUP 64
#endif
#if !defined(dropout__v_load_f16)   /* no F16C: the integer conversions */
#define dropout__v_load_f16(p) dropout__v_f16_to_f32(dropout__v_load_u16((const uint16_t *)(const void *)(p)))
#define dropout__v_round_f16(f) dropout__v_f32_to_f16(f)
#endif
/* W elements of dtype at p, widened exactly to f32 bits */
static inline dropout__v dropout__v_widen(int dtype, const void *p)
{
   if (dtype == DROPOUT__F32) return dropout__v_loadu(p);
   if (dtype == DROPOUT__BF16) return dropout__v_slli(dropout__v_load_u16((const uint16_t *)p), 16);
   return dropout__v_load_f16(p);
}

/* Elements i .. i + DROPOUT__FUSED_GROUP - 1 by the scalar definition (a NaN among their
   results) */
static void dropout__fused_lanes(int dtype, void *y, const void *x, const void *b, const void *res, unsigned i,
                                 uint64_t keep, const dropout_rule *r)
{
   unsigned e;
   for (e = i; e < i + DROPOUT__FUSED_GROUP; ++e) {
      const int k = (int)((keep >> e) & 1u);
      if (dtype == DROPOUT__F32)
         ((float *)y)[e] = dropout_bias_dropout_add_one_f32(((const float *)x)[e], ((const float *)b)[e], ((const float *)res)[e], k, *r);
      else if (dtype == DROPOUT__BF16)
         ((uint16_t *)y)[e] = dropout_bias_dropout_add_one_bf16(((const uint16_t *)x)[e], ((const uint16_t *)b)[e], ((const uint16_t *)res)[e], k, *r);
      else
         ((uint16_t *)y)[e] = dropout_bias_dropout_add_one_f16(((const uint16_t *)x)[e], ((const uint16_t *)b)[e], ((const uint16_t *)res)[e], k, *r);
   }
}

/* 64 elements of the fused op. A group with a NaN is made by the scalar loop: at once, or,
   in clang's AVX-512 build (DROPOUT__FUSED_LATER) where later is given, not here: its bit
   (g / DROPOUT__FUSED_GROUP) is set in *later, for dropout__blocks_fused to make after its
   Philox rounds. */
#if defined(DROPOUT__FUSED_LATER)
#define DROPOUT__LATER_PARAM , unsigned *later
#define DROPOUT__LATER_NONE , NULL
#else
#define DROPOUT__LATER_PARAM
#define DROPOUT__LATER_NONE
#endif
static inline void dropout__fused64(int dtype, void *y, const void *x, const void *b, const void *res,
                                    uint64_t keep, const dropout_rule *r, int nt DROPOUT__LATER_PARAM)
{
   const size_t es = dtype == DROPOUT__F32 ? 4u : 2u;
   dropout__v s, out[DROPOUT__FUSED_GROUP / DROPOUT__W];
   uint32_t sb;
   unsigned g, v;
   dropout__memcpy(&sb, &r->scale_f32, 4);
   s = dropout__v_set1(sb);
   for (g = 0; g < 64; g += DROPOUT__FUSED_GROUP) {
      dropout__v any = dropout__v_set1(0);
      for (v = 0; v < DROPOUT__FUSED_GROUP / DROPOUT__W; ++v) {
         const size_t o = (g + v * DROPOUT__W) * es;
         const dropout__v k = dropout__v_lanes32(keep >> (g + v * DROPOUT__W));
         const dropout__v h = dropout__v_fadd(dropout__v_widen(dtype, (const char *)x + o), dropout__v_widen(dtype, (const char *)b + o));
         const dropout__v f = dropout__v_fma(h, s, dropout__v_widen(dtype, (const char *)res + o));
         /* one NaN test for the group: a NaN in any f makes the sum a NaN (so may two
            opposite infinities, and the scalar loop then gives the same bits anyway) */
         any = v ? dropout__v_fadd(any, f) : f;
         if (dtype == DROPOUT__F32)
            out[v] = dropout__v_sel(k, f, dropout__v_loadu((const char *)res + o));
         else
            out[v] = dropout__v_sel(k, dtype == DROPOUT__BF16 ? dropout__v_f32_to_bf16_num(f) : dropout__v_round_f16(f),
                                    dropout__v_load_u16((const uint16_t *)(const void *)((const char *)res + o)));
      }
      if (dropout__v_nan_any(any)) {
#if defined(DROPOUT__FUSED_LATER)
         if (later) *later |= 1u << (g / DROPOUT__FUSED_GROUP);
         else
#endif
         dropout__fused_lanes(dtype, y, x, b, res, g, keep, r);
         continue;
      }
      for (v = 0; v < DROPOUT__FUSED_GROUP / DROPOUT__W; ++v) {
         const size_t o = (g + v * DROPOUT__W) * es;
         if (dtype == DROPOUT__F32) dropout__v_put(nt, (char *)y + o, out[v]);
         else dropout__v_put_u16(nt, (uint16_t *)(void *)((char *)y + o), out[v]);
      }
   }
   (void)nt;   /* (WebAssembly has no streaming stores) */
}

/* The fused op's whole 64-element groups of a contiguous run of n f32, bf16 or f16
   elements, keep bit i at bit i % 8 of kb[i / 8]: the elements done, n rounded down to 64.
   One loop per dtype, so that each has its dtype as a constant. */
static size_t dropout__fused_simd(int dtype, void *y, const void *x, const void *b, const void *res,
                                  const uint8_t *kb, size_t n, const dropout_rule *r, int nt)
{
   const size_t es = dtype == DROPOUT__F32 ? 4u : 2u;
   size_t i = 0;
#define DROPOUT__FUSED_LOOP(dt)                                                                    \
   for (; n - i >= 64u; i += 64u)                                                                   \
      dropout__fused64(dt, (char *)y + i * es, (const char *)x + i * es, (const char *)b + i * es,  \
                       (const char *)res + i * es, dropout__load_mask64(kb + i / 8u), r, nt DROPOUT__LATER_NONE)
   if (dtype == DROPOUT__F32) DROPOUT__FUSED_LOOP(DROPOUT__F32);
   else if (dtype == DROPOUT__BF16) DROPOUT__FUSED_LOOP(DROPOUT__BF16);
   else if (dtype == DROPOUT__F16) DROPOUT__FUSED_LOOP(DROPOUT__F16);
#undef DROPOUT__FUSED_LOOP
   return i;
}
#endif

#if !defined(DROPOUT__FUSED_PREFETCHES)   /* (the ISA blocks that prefetch say where) */
#define DROPOUT__FUSED_PREFETCHES(dtype, bits) 0
#endif
#if defined(dropout__v_fma) && defined(DROPOUT__OVERLAP)
/* The fused op's overlap, as the forward's (dropout__run_overlap_body): each step's Philox
   blocks are made with the step before's fused chunks applied between them (AVX-512:
   between the rounds; AVX2: after each Philox call, a grain the core's reorder window
   still overlaps). Made one after the other, the mask and the data had cost their sum.
   Chunk c: the 64 elements from element 64c of y, x and res, bias at bp[c], keep word
   keep[c]. */
#define DROPOUT__FUSED_OVERLAP 1
#if defined(DROPOUT__FUSED_ROUNDS)
/* Clang: a chunk's groups with a NaN are made after the rounds (dropout__fused64's later,
   bit c * groups + g of later), and every chunk is pinned between its rounds. The scalar
   loop is a call, which clobbers every vector register: in its place between the rounds
   clang saved the chains around it on the hot path (f16 pinned: 1.05-1.5x slower, so it
   had gone unpinned, its rounds all first); made later, clang's fused f16 took 0.75-0.82
   of the time. gcc keeps the call in place: there the later groups made its f16 and f32
   8-bit cells 1.07-1.19x slower (Zen 5), and it interleaves as written anyway. */
#if defined(DROPOUT__FUSED_LATER)
/* a call's chunks (at most a step's) times their NaN groups: bits of an unsigned */
typedef char dropout__fused_later_fits[(64 / DROPOUT__FUSED_GROUP) * DROPOUT__GROUP <= 32 ? 1 : -1];
#endif
DROPOUT__INLINE void dropout__blocks_fused(const uint32_t *ks, uint64_t stream, uint64_t block, uint32_t *out, int dtype,
                                           char *y, const char *x, const char *const *bp, const char *res,
                                           const uint64_t *keep, unsigned nc, const dropout_rule *r, int nt)
{
   /* the blocks share their high word: dropout__fused_overlap is taken only then */
   DROPOUT__CHAINS_START01(ks, stream, block);
   const size_t es = dtype == DROPOUT__F32 ? 4u : 2u;
#if defined(DROPOUT__FUSED_LATER)
   enum { groups = 64 / DROPOUT__FUSED_GROUP };   /* the bits fit: dropout__fused_later_fits */
   unsigned later = 0, c, g;
#define DROPOUT__FUSED_AT(c)                                                                                 \
   do {                                                                                                     \
      if ((c) < nc) {                                                                                       \
         unsigned l_ = 0;                                                                                   \
         dropout__fused64(dtype, y + 64u * (c) * es, x + 64u * (c) * es, bp[c], res + 64u * (c) * es,      \
                          keep[c], r, nt, &l_);                                                             \
         later |= l_ << ((c) * groups);                                                                     \
      }                                                                                                     \
   } while (0)
#else
#define DROPOUT__FUSED_AT(c)                                                                                 \
   do {                                                                                                     \
      if ((c) < nc)                                                                                         \
         dropout__fused64(dtype, y + 64u * (c) * es, x + 64u * (c) * es, bp[c], res + 64u * (c) * es, keep[c], r, nt DROPOUT__LATER_NONE); \
   } while (0)
#endif
#define DROPOUT__FUSED_PIN() DROPOUT__PIN_ON(DROPOUT__CHAINS)
   DROPOUT__FUSED_AT(0); DROPOUT__FUSED_PIN();
   DROPOUT__ROUND(2); DROPOUT__FUSED_AT(1); DROPOUT__FUSED_PIN();
   DROPOUT__ROUND(3); DROPOUT__FUSED_AT(2); DROPOUT__FUSED_PIN();
   DROPOUT__ROUND(4); DROPOUT__FUSED_AT(3); DROPOUT__FUSED_PIN();
   DROPOUT__ROUND(5); DROPOUT__FUSED_AT(4); DROPOUT__FUSED_PIN();
   DROPOUT__ROUND(6); DROPOUT__FUSED_AT(5); DROPOUT__FUSED_PIN();
   DROPOUT__ROUND(7); DROPOUT__FUSED_AT(6); DROPOUT__FUSED_PIN();
   DROPOUT__ROUND(8); DROPOUT__FUSED_AT(7); DROPOUT__FUSED_PIN();
   DROPOUT__ROUND(9);
#undef DROPOUT__FUSED_AT
#undef DROPOUT__FUSED_PIN
   DROPOUT__CHAINS(DROPOUT__CHAIN_STORE)
#if defined(DROPOUT__FUSED_LATER)
   for (c = 0; later != 0u; ++c, later >>= groups)
      for (g = 0; g < groups; ++g)
         if (later >> g & 1u)
            dropout__fused_lanes(dtype, y + 64u * c * es, x + 64u * c * es, bp[c], res + 64u * c * es,
                                 g * DROPOUT__FUSED_GROUP, keep[c], r);
#endif
}
#else
DROPOUT__INLINE void dropout__blocks_fused(const uint32_t *ks, uint64_t stream, uint64_t block, uint32_t *out, int dtype,
                                           char *y, const char *x, const char *const *bp, const char *res,
                                           const uint64_t *keep, unsigned nc, const dropout_rule *r, int nt)
{
   const size_t es = dtype == DROPOUT__F32 ? 4u : 2u;
   unsigned c;
   dropout__blocks_simd(ks, stream, block, out);
   for (c = 0; c < nc; ++c)
      dropout__fused64(dtype, y + 64u * c * es, x + 64u * c * es, bp[c], res + 64u * c * es, keep[c], r, nt DROPOUT__LATER_NONE);
}
#endif

/* The fused op on `full` elements of contiguous y, x and res (a multiple of 64, at least
   two steps), whose bias repeats every `cols` elements (a multiple of 64), drawing from
   position `offset` (a multiple of 64) on; the blocks share their high word, p > 0. The
   mask's bytes too when mask_out is given. Returns the elements done (whole steps); the
   caller does the rest. Inlined into one function a dtype (below), each with its dtype a
   constant, as the forward's. */
DROPOUT__INLINE size_t dropout__fused_overlap_body(int dtype, void *y, uint8_t *mask_out, const void *x, const void *b,
                                                   size_t cols, const void *res, size_t full, const dropout_rule *r,
                                                   uint64_t seed, uint64_t stream, uint64_t offset, int nt)
{
   const unsigned per = (unsigned)r->bits / 2u;                   /* blocks a window */
   const unsigned calls = DROPOUT__GROUP * per / DROPOUT__VB;     /* Philox calls a step */
   const uint32_t tm1 = (uint32_t)(r->threshold - 1u);
   const uint64_t w0 = offset >> 6;
   const size_t steps = full / (DROPOUT__GROUP * DROPOUT__CHUNK), es = dtype == DROPOUT__F32 ? 4u : 2u;
   uint32_t ks[20], words[DROPOUT__GROUP * 64];
   uint64_t kb[DROPOUT__GROUP];          /* the keep words of the step's chunks */
   const char *bp[DROPOUT__GROUP];       /* their bias */
   size_t g, bcol = 0;                   /* the next chunk's bias element (its column) */
   unsigned k, c;
   dropout__key_schedule(seed, ks);
   for (k = 0; k < calls; ++k) dropout__blocks_simd(ks, stream, w0 * per + k * DROPOUT__VB, words + 4u * DROPOUT__VB * k);
   for (c = 0; c < DROPOUT__GROUP; ++c) kb[c] = dropout__window_keep(words + c * 2u * (unsigned)r->bits, r->bits, tm1);
   for (g = 0; g < steps; ++g) {
      const size_t at = g * DROPOUT__GROUP * DROPOUT__CHUNK;
      char *yo = (char *)y + at * es;
      const char *xi = (const char *)x + at * es, *ri = (const char *)res + at * es;
      for (c = 0; c < DROPOUT__GROUP; ++c) {   /* a running column, not a division a chunk */
         bp[c] = (const char *)b + bcol * es;
         bcol = bcol + 64u == cols ? 0u : bcol + 64u;
      }
      if (mask_out)
         for (c = 0; c < DROPOUT__GROUP; ++c) dropout__store_mask64(mask_out + at / 8u + 8u * c, kb[c]);
      if (g + 1 == steps) {
         for (c = 0; c < DROPOUT__GROUP; ++c)
            dropout__fused64(dtype, yo + 64u * c * es, xi + 64u * c * es, bp[c], ri + 64u * c * es, kb[c], r, nt DROPOUT__LATER_NONE);
         break;
      }
      if (DROPOUT__FUSED_PREFETCHES(dtype, r->bits)) {   /* the next step's x and residual */
         dropout__stores_prefetch(xi, 0, (steps - g) * DROPOUT__GROUP, es, nt);
         dropout__stores_prefetch(ri, 0, (steps - g) * DROPOUT__GROUP, es, nt);
      }
      for (k = 0; k < calls; ++k) {   /* call k applies the step's chunks lo .. hi - 1 */
         const unsigned lo = k * DROPOUT__GROUP / calls, hi = (k + 1) * DROPOUT__GROUP / calls;
         dropout__blocks_fused(ks, stream, (w0 + (g + 1) * DROPOUT__GROUP) * per + k * DROPOUT__VB,
                               words + 4u * DROPOUT__VB * k, dtype, yo + 64u * lo * es, xi + 64u * lo * es, bp + lo,
                               ri + 64u * lo * es, kb + lo, hi - lo, r, nt);
      }
      for (c = 0; c < DROPOUT__GROUP; ++c) kb[c] = dropout__window_keep(words + c * 2u * (unsigned)r->bits, r->bits, tm1);
   }
   if (nt) dropout__v_sfence();
   return steps * DROPOUT__GROUP * DROPOUT__CHUNK;
}
#define DROPOUT__FUSED_OVERLAP_FN(dtype, sfx)                                                                  \
   static size_t dropout__fused_overlap_##sfx(void *y, uint8_t *mask_out, const void *x, const void *b, size_t cols, \
                                              const void *res, size_t full, const dropout_rule *r, uint64_t seed,   \
                                              uint64_t stream, uint64_t offset, int nt)                           \
   {                                                                                                             \
      return dropout__fused_overlap_body(dtype, y, mask_out, x, b, cols, res, full, r, seed, stream, offset, nt);   \
   }
DROPOUT__FUSED_OVERLAP_FN(DROPOUT__F32, f32)
DROPOUT__FUSED_OVERLAP_FN(DROPOUT__BF16, bf16)
DROPOUT__FUSED_OVERLAP_FN(DROPOUT__F16, f16)
#undef DROPOUT__FUSED_OVERLAP_FN
#endif

/* 64 elements of f32, bf16 or f16 data from element at on */
DROPOUT__INLINE void dropout__apply64(int dtype, void *y, const void *x, size_t at, uint64_t keep, float scale, int nt)
{
   if (dtype == DROPOUT__F32) dropout__apply64_f32((float *)y + at, (const float *)x + at, keep, scale, nt);
   else if (dtype == DROPOUT__BF16) dropout__apply64_bf16((uint16_t *)y + at, (const uint16_t *)x + at, keep, scale, nt);
   else dropout__apply64_f16((uint16_t *)y + at, (const uint16_t *)x + at, keep, scale, nt);
}

/* dropout__run_ref's loop: whole chunks by steps of a few windows with vector arithmetic,
   the last partial chunk (< 64 elements) by the reference. Three concerns, one function
   each, that dropout__run_simd puts together step by step:
   - keep bits (dropout__keep_*): the keep words of the call's chunks, from the windows at
     the call's position (or from a stored mask);
   - store policy (dropout__stores_*): plain or streaming stores, and for streaming the
     shift of the data grid that puts y on an aligned address;
   - data grid (dropout__grid_*): the keep bits applied to the data, 64 elements at a time,
     on the call's grid or on that shifted one. */

/* Keep bits. Keep words and masks follow the call's chunks (elements 64c .. 64c + 63).
   A call at a position offset s = offset % 64 reads chunk c's keep word from window c at
   bit s and window c + 1: the step's last window is kept for the next step, so no window
   is made twice (win[0] carries it; every step after the first starts there). The round
   keys (made once a call) and the stream go to each step as arguments, not through this
   struct (through it they were slower); the windows live in the caller, so that the struct
   itself never escapes to dropout__windows_keep. */
typedef struct dropout__keep_src {
   const uint8_t *mask_in;    /* keep words read from this stored mask, when not NULL */
   uint64_t first;            /* window of the call's first position */
   unsigned s;                /* the call's position in that window */
   int bits, all;             /* all: t = 0, every element kept */
   uint32_t tm1;
   uint64_t *win;             /* DROPOUT__GROUP + 1 windows */
} dropout__keep_src;

static inline void dropout__keep_init(dropout__keep_src *ks, uint64_t *win, const uint8_t *mask_in,
                                      const dropout_rule *r, uint64_t offset)
{
   ks->win = win;
   ks->mask_in = mask_in;
   ks->first = offset >> 6;
   ks->s = (unsigned)(offset & 63u);
   ks->bits = r->bits;
   ks->all = r->threshold == 0;
   ks->tm1 = (uint32_t)(r->threshold - 1u);
}

/* k[0 .. nb): the keep words of the nb whole chunks from element at (a multiple of 64) on;
   the steps come in order, from at = 0 */
static inline void dropout__keep_step(const dropout__keep_src *ks, const uint32_t *rk, uint64_t stream,
                                      size_t at, unsigned nb, uint64_t *k)
{
   const uint64_t w = ks->first + at / DROPOUT__CHUNK;
   unsigned c;
   if (ks->mask_in) {
      for (c = 0; c < nb; ++c) k[c] = dropout__load_mask64(ks->mask_in + at / 8u + 8u * c);
   } else if (ks->all) {
      for (c = 0; c < nb; ++c) k[c] = ~(uint64_t)0;
   } else if (ks->s == 0) {
      dropout__windows_keep(rk, stream, w, nb, ks->bits, ks->tm1, k);
   } else {
      /* window w + nb is in the call's range: the chunks are whole */
      if (at) dropout__windows_keep(rk, stream, w + 1, nb, ks->bits, ks->tm1, ks->win + 1);
      else dropout__windows_keep(rk, stream, w, nb + 1, ks->bits, ks->tm1, ks->win);
      for (c = 0; c < nb; ++c) k[c] = ks->win[c] >> ks->s | ks->win[c + 1] << (64u - ks->s);
      ks->win[0] = ks->win[nb];
   }
}

/* Store policy: streaming stores from DROPOUT_STREAM_STORE_BYTES of output on (nt, as in
   dropout__nt_mode), plain ones below. The data grid is then shifted by h elements, so
   that the streamed stores start on an aligned y (whole-vector streams, and with x as
   aligned as y no split loads). */
typedef struct dropout__stores {
   int nt;
   unsigned h;
#if defined(DROPOUT__FAR_PREFETCH)
   int past;   /* plain stores to an output past the caches: dropout__far_prefetch, or four
                  chains at 8-bit draws (not "far": Windows' headers define far and near
                  as empty macros) */
#endif
} dropout__stores;
#if defined(DROPOUT__FAR_PREFETCH)
#define DROPOUT__FAR(st) ((st).past)
#define DROPOUT__STORES_PLAIN {0, 0, 0}   /* in cache: plain stores on the call's grid */
#else
#define DROPOUT__FAR(st) 0
#define DROPOUT__STORES_PLAIN {0, 0}
#endif
/* from how many bytes of output a call's plain stores are taken to miss the caches:
   DROPOUT_STREAM_STORE_BYTES's default, whatever the build sets it to */
#define DROPOUT__FAR_BYTES ((size_t)16 << 20)

static inline dropout__stores dropout__stores_choose(const void *y, size_t n, size_t es, const dropout_rule *r, int philox)
{
   dropout__stores st;
   const size_t nt_from = dropout__nt_from(es, philox, r->bits);   /* a variable: 0 gives no warning */
   st.nt = 0;
   st.h = 0;
   if (DROPOUT__STREAMS && y && r->threshold != 0 && n * es >= nt_from && n >= DROPOUT__CHUNK) {   /* a shift needs a whole chunk */
      size_t mis = (size_t)((uintptr_t)y % DROPOUT__NT_ALIGN);
      if (mis % es == 0) st.h = (unsigned)(((DROPOUT__NT_ALIGN - mis) % DROPOUT__NT_ALIGN) / es);
      st.nt = dropout__nt_mode((const char *)y + (size_t)st.h * es);
   }
#if defined(DROPOUT__FAR_PREFETCH)
   st.past = !st.nt && y && r->threshold != 0 && n * es >= DROPOUT__FAR_BYTES;
#endif
   return st;
}

/* The streamed stores are ordered before what follows the call. */
static inline void dropout__stores_end(dropout__stores st)
{
   if (st.nt) dropout__v_sfence();
}

/* Data grid: the step's nb chunks from element at, t > 0. kb[1 .. nb] are their keep words
   and kb[0] the step before's last. Unshifted (h = 0), data chunk c is keep chunk c.
   Shifted by h, data chunk c covers elements at + h + 64(c - 1) .. at + h + 64c - 1 and
   takes its keep bits from keep words c - 1 and c, as the position shift does; the first
   step starts at data chunk 1, and dropout__grid_edges applies the elements left over. */
static inline void dropout__grid_step(int dtype, void *y, const void *x, size_t at, unsigned nb,
                                      const uint64_t *kb, dropout__stores st, const dropout_rule *r)
{
   const uint64_t *k = kb + 1;
   const size_t h = st.h;
   unsigned c;
   /* DROPOUT__CHUNKS(apply, T, scale), defined in each branch, for the call's dtype */
#define DROPOUT__BY_DTYPE()                                                                     \
   do {                                                                                        \
      if (dtype == DROPOUT__F32) DROPOUT__CHUNKS(dropout__apply64_f32, float, r->scale_f32);      \
      else if (dtype == DROPOUT__BF16) DROPOUT__CHUNKS(dropout__apply64_bf16, uint16_t, r->scale_f32); \
      else if (dtype == DROPOUT__F16) DROPOUT__CHUNKS(dropout__apply64_f16, uint16_t, r->scale_f32); \
      else DROPOUT__CHUNKS(dropout__apply64_f64, double, r->scale_f64);                          \
   } while (0)
   if (h == 0) {
      /* data chunk c is keep chunk c; nt a constant in each loop, so the store choice folds away */
#define DROPOUT__CHUNKS(apply, T, scale)                                                                   \
      do {                                                                                                 \
         T *yo = (T *)y + at;                                                                              \
         const T *xi = (const T *)x + at;                                                                  \
         if (st.nt == 1)      for (c = 0; c < nb; ++c) apply(yo + 64u * c, xi + 64u * c, k[c], scale, 1); \
         else if (st.nt == 2) for (c = 0; c < nb; ++c) apply(yo + 64u * c, xi + 64u * c, k[c], scale, 2); \
         else                 for (c = 0; c < nb; ++c) apply(yo + 64u * c, xi + 64u * c, k[c], scale, 0); \
      } while (0)
      DROPOUT__BY_DTYPE();
#undef DROPOUT__CHUNKS
   } else {
      /* data chunk c starts h elements into keep chunk c - 1 (the first step starts at 1) */
      const unsigned c0 = at == 0 ? 1u : 0u;
#define DROPOUT__CHUNKS(apply, T, scale)                                                                    \
      do {                                                                                                  \
         T *yo = (T *)y + at + h - 64u;                                                                     \
         const T *xi = (const T *)x + at + h - 64u;                                                         \
         for (c = c0; c < nb; ++c)                                                                          \
            apply(yo + 64u * c, xi + 64u * c, kb[c] >> h | kb[c + 1] << (64u - h), scale, st.nt);           \
      } while (0)
      DROPOUT__BY_DTYPE();
#undef DROPOUT__CHUNKS
   }
#undef DROPOUT__BY_DTYPE
}

/* The shifted grid's leftovers, element by element with the same keep bits: elements
   0 .. h - 1 (keep word k0, of chunk 0) and the last 64 - h of the whole chunks (the low
   bits of klast, the last chunk's keep word). */
static inline void dropout__grid_edges(int dtype, void *y, const void *x, size_t full, unsigned h,
                                       uint64_t k0, uint64_t klast, const dropout_rule *r)
{
   if (h) {
      dropout__apply_chunk(dtype, y, x, 0, k0, h, r);
      dropout__apply_chunk(dtype, y, x, full - 64u + h, klast >> h, 64u - h, r);
   }
}

#if defined(DROPOUT__OVERLAP)
/* In cache, Philox (vector ALU) and the data (loads and stores) use different parts of
   the core, but made one after the other (a step's keep bits, then its data) they cost
   about their sum. So the f32, bf16 and f16 forward (and mask-free backward) make a
   step's Philox blocks with the previous step's data applied between the rounds
   (dropout__blocks_apply, the ISA block's: the same instructions in another order). Out
   of cache the same spreads the step's loads and streamed stores over its Philox. A call
   that starts inside a window (offset % 64 != 0) takes it too. Which calls take it is
   the ISA block's DROPOUT__OVERLAP_TAKES; the gains: bench/results/simd-design-notes.md. */

/* The overlap's wide steps (the ISA block's DROPOUT__CHAINS_WIDE_STEP, at the widths
   DROPOUT__WIDE_STEP_TAKES): DROPOUT__GROUP_WIDE windows a step, calls of DROPOUT__VBS
   blocks. Without them, the names the body reads, never taken. */
#if defined(DROPOUT__CHAINS_WIDE_STEP)
#define DROPOUT__VBS ((0 DROPOUT__CHAINS_WIDE_STEP(DROPOUT__CHAIN_COUNT)) * DROPOUT__W / 2)
#define DROPOUT__GROUP_MAX (DROPOUT__GROUP_WIDE > DROPOUT__GROUP ? DROPOUT__GROUP_WIDE : DROPOUT__GROUP)
#define DROPOUT__BLOCKS_WIDE_STEP dropout__blocks_apply_rounds_wide
typedef char dropout__wide_step_is_whole_calls[(DROPOUT__GROUP_WIDE * 16) % DROPOUT__VBS == 0 ? 1 : -1];
#else
#define DROPOUT__GROUP_WIDE DROPOUT__GROUP
#define DROPOUT__VBS DROPOUT__VB
#define DROPOUT__GROUP_MAX DROPOUT__GROUP
#define DROPOUT__BLOCKS_WIDE_STEP dropout__blocks_apply
#define DROPOUT__WIDE_STEP_TAKES(dtype, bits, st) 0
#endif

/* f32, bf16 or f16 forward (or backward), y given, p > 0, at least two steps of whole
   windows: each step's Philox is made with the step before's data applied between its
   rounds (see above). The data follow the store policy st as dropout__grid_step does:
   streamed or plain stores, on the call's grid or shifted by st.h elements.
   within: the call starts inside a window, s = offset % 64 positions in. Then `full`
   counts the whole windows' elements from that window's start, s before the call's first
   element, and the data grid is the call's, shifted by st.h for streamed stores: s + st.h
   (mod 64) against the windows. The call's mask words are shifted by s: each is stored
   one chunk behind the windows it reads. The data chunks before the call's first element
   or past its last mask word are skipped (with st.h, the st.h elements before the first
   data chunk and the 64 - st.h after the last are applied as edges), and the call's last
   chunk is left to the caller.
   Returns the call's elements done, a multiple of 64; the caller does the rest. Inlined
   into one function per case below, so that each has its dtype, store policy and
   `within` as constants (a shared function, or a run-time within, was slower). */
DROPOUT__INLINE size_t dropout__run_overlap_body(int dtype, void *y, uint8_t *mask_out, const void *x, size_t full,
                                                 const dropout_rule *r, dropout__stores st, uint64_t seed,
                                                 uint64_t stream, uint64_t offset, const int within,
                                                 const int wide)
{
   const unsigned group = wide ? DROPOUT__GROUP_WIDE : DROPOUT__GROUP;   /* windows a step */
#if defined(DROPOUT__FAR_PREFETCH)   /* 8-bit draws past the caches: four chains (the AVX2 block says why) */
   const int four = !wide && DROPOUT__FAR(st) && r->bits == 8;
   const unsigned vb = wide ? DROPOUT__VBS : four ? DROPOUT__VB4 : DROPOUT__VB;   /* blocks a call */
#else
   const unsigned vb = wide ? DROPOUT__VBS : DROPOUT__VB;                  /* blocks a call */
#endif
   const unsigned per = (unsigned)r->bits / 2u;                   /* blocks a window */
   const unsigned calls = group * per / vb;                       /* Philox calls a step */
   const uint32_t tm1 = (uint32_t)(r->threshold - 1u);
   const uint64_t w0 = offset >> 6;
   const size_t steps = full / (group * DROPOUT__CHUNK), es = dtype == DROPOUT__F32 ? 4 : 2;   /* f32, or bf16 and f16 */
   const size_t s = within ? (size_t)(offset & 63u) : 0u;
   const size_t h = (s + st.h) & 63u;   /* the data grid against the windows */
   /* within: the call's elements done here, whole mask words (see above) */
   const size_t done = steps * group * DROPOUT__CHUNK - 64u;
   uint64_t mw[DROPOUT__GROUP_MAX] = {0}; /* within: the call's mask words, shifted by s */
   uint64_t mfirst = 0;               /* within: the call's first mask word, for the head edge */
   uint32_t ks[20], words[DROPOUT__GROUP_MAX * 64];
   uint64_t kb[DROPOUT__GROUP_MAX + 1];   /* kb[1 ..]: the step's keep words; kb[0]: the step before's last */
   uint64_t dk[DROPOUT__GROUP_MAX];       /* the keep words of the step's data chunks (shifted by h) */
   uint64_t k0;
   size_t g;
   unsigned b, c;
   dropout__key_schedule(seed, ks);
   for (b = 0; b < calls; ++b)   /* (the wide calls: no chunks between the rounds) */
      if (wide) DROPOUT__BLOCKS_WIDE_STEP(ks, stream, w0 * per + b * vb, words + 4u * vb * b, dtype, y, x, dk, 0u, 0.0f, 0);
#if defined(DROPOUT__FAR_PREFETCH)
      else if (four) dropout__blocks_apply4(ks, stream, w0 * per + b * vb, words + 4u * vb * b, dtype, y, x, dk, 0u, 0.0f, 0);
#endif
      else dropout__blocks_simd(ks, stream, w0 * per + b * DROPOUT__VB, words + 4u * DROPOUT__VB * b);
   kb[0] = 0;
   for (c = 0; c < group; ++c) kb[c + 1] = dropout__window_keep(words + c * 2u * (unsigned)r->bits, r->bits, tm1);
   k0 = kb[1];
   for (g = 0; g < steps; ++g) {
      const size_t at = g * group * DROPOUT__CHUNK;
      /* data chunk c of the step: window positions at + 64c on the plain grid, at + h +
         64(c - 1) on a shifted one; less s, the call's elements. The first step skips
         the chunks that start before the call's element 0 (the first: element st.h) and,
         within a window, the last skips those that end past `done`. */
      /* (written so that in cache, st.h = 0, first and last are constants and AT needs
         no h: as run-time values they were slower inside a window) */
      const unsigned first = g ? 0u : within ? (h && s > h ? 2u : 1u) : (h ? 1u : 0u);
      const unsigned last = g + 1 < steps || !within || st.h == 0 || s + st.h > 64u ? group : group - 1u;
#define DROPOUT__AT(c) (within && st.h == 0 ? at + 64u * (c) - 64u : at + 64u * (c) + h - (h ? 64u : 0u) - s)   /* c >= first */
      for (c = 0; c < group; ++c) dk[c] = h ? kb[c] >> h | kb[c + 1] << (64u - h) : kb[c + 1];
      if (mask_out && !within)
         for (c = 0; c < group; ++c) dropout__store_mask64(mask_out + at / 8u + 8u * c, kb[c + 1]);
      if (within) {   /* the call's mask words, one chunk behind (none before its first) */
         for (c = 0; c < group; ++c) mw[c] = st.h ? kb[c] >> s | kb[c + 1] << (64u - s) : dk[c];
         if (g == 0) mfirst = mw[1];
         if (mask_out) {   /* (not a loop from a run-time first word, g ? 0 : 1: slower) */
            if (g) dropout__store_mask64(mask_out + at / 8u - 8u, mw[0]);
            for (c = 1; c < group; ++c) dropout__store_mask64(mask_out + at / 8u + 8u * c - 8u, mw[c]);
         }
      }
      if (g + 1 == steps) {
         for (c = first; c < last; ++c) dropout__apply64(dtype, y, x, DROPOUT__AT(c), dk[c], r->scale_f32, st.nt);
         break;
      }
      /* (no prefetch for 2-byte data here: it slowed bf16 and f16) */
      dropout__stores_prefetch(x, DROPOUT__AT(first), (full - s - DROPOUT__AT(first)) / DROPOUT__CHUNK, es, es >= 4 ? st.nt : 0);
#if defined(DROPOUT__FAR_PREFETCH)
      if (DROPOUT__FAR(st) && !four) {   /* the next step's y (plain stores, st.h = 0: its chunks at AT(c) of the next at) */
         const size_t next = at + (size_t)group * DROPOUT__CHUNK - (within ? 64u : 0u);
         dropout__far_prefetch(y, next, next + (size_t)group * DROPOUT__CHUNK, es);
      }
#endif
      for (b = 0; b < calls; ++b) {   /* call b applies the step's data chunks lo .. hi - 1 */
         /* (the first step's skipped chunks leave the call's last rounds without data,
            not its first: the call sees a count of chunks from round 0, as on a window
            boundary; a run-time first chunk in every call was slower) */
         const unsigned lo0 = b * group / calls, hi = (b + 1) * group / calls;
         const unsigned lo = lo0 > first ? lo0 : first;
         if (wide)
            DROPOUT__BLOCKS_WIDE_STEP(ks, stream, (w0 + (g + 1) * group) * per + b * vb, words + 4u * vb * b, dtype,
                                      (char *)y + DROPOUT__AT(lo) * es, (const char *)x + DROPOUT__AT(lo) * es, dk + lo,
                                      hi > lo ? hi - lo : 0u, r->scale_f32, st.nt);
#if defined(DROPOUT__FAR_PREFETCH)
         else if (four)
            dropout__blocks_apply4(ks, stream, (w0 + (g + 1) * group) * per + b * vb, words + 4u * vb * b, dtype,
                                   (char *)y + DROPOUT__AT(lo) * es, (const char *)x + DROPOUT__AT(lo) * es, dk + lo,
                                   hi > lo ? hi - lo : 0u, r->scale_f32, st.nt);
#endif
         else
            dropout__blocks_apply(ks, stream, (w0 + (g + 1) * DROPOUT__GROUP) * per + b * DROPOUT__VB,
                                  words + 4u * DROPOUT__VB * b, dtype, (char *)y + DROPOUT__AT(lo) * es,
                                  (const char *)x + DROPOUT__AT(lo) * es, dk + lo, hi > lo ? hi - lo : 0u,
                                  r->scale_f32, st.nt);
      }
#undef DROPOUT__AT
      kb[0] = kb[group];
      for (c = 0; c < group; ++c) kb[c + 1] = dropout__window_keep(words + c * 2u * (unsigned)r->bits, r->bits, tm1);
   }
   dropout__stores_end(st);
   if (within) {   /* the edges of a shifted data grid: see above */
      if (st.h) {
         dropout__apply_chunk(dtype, y, x, 0, mfirst, st.h, r);
         dropout__apply_chunk(dtype, y, x, done - 64u + st.h, mw[group - 1] >> st.h, 64u - st.h, r);
      }
      return done;
   }
   dropout__grid_edges(dtype, y, x, steps * group * DROPOUT__CHUNK, st.h, k0, kb[group], r);
   return steps * group * DROPOUT__CHUNK;
}

/* The body as one function a case, each with its constants: the dtype; in cache (plain
   stores on the call's grid) or any store policy (streamed, or the shifted grid: st a
   run-time value); and on a window boundary or inside a window. One function
   for the three dtypes is no smaller: every data slot of the rounds holds all three. The
   store-policy ones stay out of line (gcc had cloned and inlined the former shared one,
   and the object doubled). The data are always inlined: a call between the rounds saves
   and restores the whole Philox state, and gcc's inlining limits had left some out. */
#if defined(__GNUC__)
#define DROPOUT__OUTLINE __attribute__((noinline))
#else
#define DROPOUT__OUTLINE
#endif
#define DROPOUT__OVERLAP_FN(attr, name, dtype, plain, within, wide)                                   \
   attr static size_t name(void *y, uint8_t *mask_out, const void *x, size_t full, const dropout_rule *r, \
                           dropout__stores st, uint64_t seed, uint64_t stream, uint64_t offset)          \
   {                                                                                                  \
      const dropout__stores plain_ = DROPOUT__STORES_PLAIN;                                           \
      return dropout__run_overlap_body(dtype, y, mask_out, x, full, r, (plain) ? plain_ : st, seed,   \
                                       stream, offset, within, wide);                                 \
   }
/* w: the names' infix, wide: the wide steps (DROPOUT__WIDE_STEP_TAKES); in: the in-cache
   ones' attribute. The wide ones all out of line, so that they add nothing to
   dropout__run_simd, where the in-cache ones of the other steps are inlined. */
#define DROPOUT__OVERLAP_FNS(dtype, sfx, in, w, wide)                                                  \
   DROPOUT__OVERLAP_FN(in, dropout__run_overlap_##w##sfx, dtype, 1, 0, wide)                           \
   DROPOUT__OVERLAP_FN(in, dropout__run_overlap_##w##in_##sfx, dtype, 1, 1, wide)                      \
   DROPOUT__OVERLAP_FN(DROPOUT__OUTLINE, dropout__run_overlap_##w##st_##sfx, dtype, 0, 0, wide)        \
   DROPOUT__OVERLAP_FN(DROPOUT__OUTLINE, dropout__run_overlap_##w##st_in_##sfx, dtype, 0, 1, wide)
DROPOUT__OVERLAP_FNS(DROPOUT__F32, f32, , , 0)
DROPOUT__OVERLAP_FNS(DROPOUT__BF16, bf16, , , 0)
DROPOUT__OVERLAP_FNS(DROPOUT__F16, f16, , , 0)
#if defined(DROPOUT__CHAINS_WIDE_STEP)
DROPOUT__OVERLAP_FNS(DROPOUT__F32, f32, DROPOUT__OUTLINE, w_, 1)
DROPOUT__OVERLAP_FNS(DROPOUT__BF16, bf16, DROPOUT__OUTLINE, w_, 1)
DROPOUT__OVERLAP_FNS(DROPOUT__F16, f16, DROPOUT__OUTLINE, w_, 1)
#endif
#undef DROPOUT__OVERLAP_FNS
#undef DROPOUT__OVERLAP_FN
#undef DROPOUT__OUTLINE

/* dropout__run_simd's start: the overlap, where the call takes it (the ISA block's
   DROPOUT__OVERLAP_TAKES), on a window boundary or inside one, in cache or with any other
   store policy; then it returns, any rest done by a second call (the steps). A statement
   list rather than a function: so it is the same code where it was written inline. */
#define DROPOUT__OVERLAP_ARGS (y, mask_out, x, wfull, r, st, seed, stream, offset)
#define DROPOUT__OVERLAP_RUN(sfx)                                                                         \
   (s ? (st.nt || DROPOUT__FAR(st) ? dropout__run_overlap_st_in_##sfx DROPOUT__OVERLAP_ARGS            \
           : dropout__run_overlap_in_##sfx DROPOUT__OVERLAP_ARGS)                                         \
      : st.nt == 0 && st.h == 0 && !DROPOUT__FAR(st) ? dropout__run_overlap_##sfx DROPOUT__OVERLAP_ARGS   \
      : dropout__run_overlap_st_##sfx DROPOUT__OVERLAP_ARGS)
#if defined(DROPOUT__CHAINS_WIDE_STEP)
#define DROPOUT__OVERLAP_RUN_W(sfx)                                                                       \
   (s ? (st.nt ? dropout__run_overlap_w_st_in_##sfx DROPOUT__OVERLAP_ARGS : dropout__run_overlap_w_in_##sfx DROPOUT__OVERLAP_ARGS) \
      : st.nt == 0 && st.h == 0 ? dropout__run_overlap_w_##sfx DROPOUT__OVERLAP_ARGS                      \
      : dropout__run_overlap_w_st_##sfx DROPOUT__OVERLAP_ARGS)
#else
#define DROPOUT__OVERLAP_RUN_W(sfx) 0
#endif
#define DROPOUT__RUN_OVERLAP()                                                                         \
   /* s: the call's position in its first window; wfull: the whole windows' elements from there */ \
   const size_t s = (size_t)(offset & 63u);                                                            \
   const size_t wfull = s == 0 ? full : n <= SIZE_MAX - 64u ? (n + s) & ~(size_t)63 : 0;              \
   /* the overlap's blocks (its windows') share their high word, as AVX-512's                         \
      dropout__blocks_apply needs (the other paths take the same rule, for one rule): false           \
      for a call across a multiple of 2^32 blocks (position 2^32 * 128 / bits, times k),              \
      which then takes the steps */                                                                    \
   const unsigned per = (unsigned)r->bits / 2u;                                                        \
   const int same_hi = ((offset >> 6) * per) >> 32 == ((offset >> 6) + wfull / 64u) * per >> 32;      \
   const int wide = DROPOUT__WIDE_STEP_TAKES(dtype, r->bits, st);                                     \
   if (DROPOUT__OVERLAP_TAKES(dtype, st) && y && !mask_in && r->threshold != 0 &&                      \
       wfull >= 2u * (wide ? DROPOUT__GROUP_WIDE : DROPOUT__GROUP) * DROPOUT__CHUNK && same_hi) {      \
      const size_t done = wide ? (dtype == DROPOUT__F32 ? DROPOUT__OVERLAP_RUN_W(f32)                  \
                                  : dtype == DROPOUT__BF16 ? DROPOUT__OVERLAP_RUN_W(bf16) : DROPOUT__OVERLAP_RUN_W(f16)) \
                        : dtype == DROPOUT__F32 ? DROPOUT__OVERLAP_RUN(f32)                            \
                        : dtype == DROPOUT__BF16 ? DROPOUT__OVERLAP_RUN(bf16) : DROPOUT__OVERLAP_RUN(f16); \
      if (done < n)                                                                                    \
         dropout__run_simd(dtype, (char *)y + done * es, mask_out ? mask_out + done / 8u : NULL,       \
                           (const char *)x + done * es, NULL, n - done, r, seed, stream, offset + done); \
      return;                                                                                          \
   }
#else
#define DROPOUT__RUN_OVERLAP()   /* no overlap in this ISA block */
#endif
#undef DROPOUT__STORE
#undef DROPOUT__CHAIN_STORE
#undef DROPOUT__CHAIN_START
#undef DROPOUT__CHAIN_DECL01
#undef DROPOUT__CHAIN_ROUNDS01
#undef DROPOUT__CHAIN_ROUND1
#undef DROPOUT__CHAIN_PIN
#undef DROPOUT__PIN_ON
#undef DROPOUT__CHAINS_START
#undef DROPOUT__CHAINS_START01
#undef DROPOUT__CHAINS_START01_ON
#undef DROPOUT__ROUND_ON
#undef DROPOUT__ROUNDS29_ON
#undef DROPOUT__ROUNDS01
#undef DROPOUT__SAME_HI
#undef DROPOUT__ROUND
#undef DROPOUT__ROUND1

static void dropout__run_simd(int dtype, void *y, uint8_t *mask_out, const void *x,
                              const uint8_t *mask_in, size_t n, const dropout_rule *r,
                              uint64_t seed, uint64_t stream, uint64_t offset)
{
   static const size_t size[4] = {4, 8, 2, 2};   /* bytes per element, by dtype */
   const size_t es = size[dtype];
   const size_t full = n & ~(size_t)(DROPOUT__CHUNK - 1);
   /* DROPOUT__GROUP windows a step, a constant (finer steps, or a step size known only
      at run time, were slower in cache) */
   const unsigned step = DROPOUT__GROUP;
   const dropout__stores st = dropout__stores_choose(y, n, es, r, mask_in == NULL);
   dropout__keep_src ks;
   uint64_t win[DROPOUT__GROUP + 1];  /* the keep bits' windows (ks) */
   uint64_t kb[DROPOUT__GROUP + 1];   /* kb[1 ..]: the step's keep words; kb[0]: the step before's last */
   uint64_t k0 = 0;                   /* keep word of chunk 0, for the shifted grid's head */
   uint32_t rk[20];                   /* the round keys (Philox keep bits only) */
   size_t at;
   DROPOUT__RUN_OVERLAP()
   dropout__keep_init(&ks, win, mask_in, r, offset);
   if (!mask_in && r->threshold != 0) dropout__key_schedule(seed, rk);
   kb[0] = 0;
   for (at = 0; at < full; at += (size_t)step * DROPOUT__CHUNK) {
      const size_t left = (full - at) / DROPOUT__CHUNK;
      const unsigned nb = left < step ? (unsigned)left : step;
      unsigned c;
      dropout__stores_prefetch(x, at, left, es, st.nt);
      dropout__keep_step(&ks, rk, stream, at, nb, kb + 1);
      if (mask_out)
         for (c = 0; c < nb; ++c) dropout__store_mask64(mask_out + at / 8u + 8u * c, kb[1 + c]);
      if (y && r->threshold == 0) {   /* bit-for-bit copy; nothing to do in place */
         if (y != x) dropout__memcpy((char *)y + at * es, (const char *)x + at * es, (size_t)nb * DROPOUT__CHUNK * es);
      } else if (y) {
         if (at == 0) k0 = kb[1];
         dropout__grid_step(dtype, y, x, at, nb, kb, st, r);
      }
      kb[0] = kb[nb];
   }
   dropout__stores_end(st);
   dropout__grid_edges(dtype, y, x, full, st.h, k0, kb[0], r);
   if (full < n)
      dropout__run_ref(dtype, y ? (char *)y + full * es : NULL, mask_out ? mask_out + full / 8u : NULL,
                       x ? (const char *)x + full * es : NULL, mask_in ? mask_in + full / 8u : NULL,
                       n - full, r, seed, stream, offset + full);
}
#undef DROPOUT__RUN_OVERLAP
#undef DROPOUT__OVERLAP_RUN
#undef DROPOUT__OVERLAP_RUN_W
#undef DROPOUT__OVERLAP_ARGS

/* A stored mask into plain stores on the call's grid (the backward from the mask, in
   cache): the chunks in one loop, each reading its keep word, as dropout__run_simd's steps
   would (their keep-word copies were 14-22% of the time in L2). Returns 0, having done
   nothing, for any other call. Its own function, so that dropout__run_simd, where the
   forward's overlap is inlined, is compiled as before. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int dropout__run_mask_simd(int dtype, void *y, const void *x, const uint8_t *mask_in, size_t n,
                                  const dropout_rule *r, uint64_t seed, uint64_t stream, uint64_t offset)
{
   static const size_t size[4] = {4, 8, 2, 2};   /* bytes per element, by dtype */
   const size_t es = size[dtype], full = n & ~(size_t)(DROPOUT__CHUNK - 1), vb = DROPOUT__W * 4u;
   const dropout__stores st = dropout__stores_choose(y, n, es, r, 0);
   const size_t mis = (size_t)((uintptr_t)y % vb);
   size_t c, h = 0;
   if (r->threshold == 0 || st.nt != 0 || st.h != 0) return 0;
   /* f32 and f64 with y not on a vector boundary (malloc gives 16 bytes; AVX2 and AVX-512,
      whose vectors are wider): the data grid shifted by h elements to the next one, so
      that no vector store (nor, with x as misaligned as y, load) straddles two cache
      lines; chunk c then takes its keep bits from mask words c and c + 1, and
      dropout__grid_edges does the first h and the last 64 - h. (2-byte data, whose loads
      are half vectors, gained nothing: bench/results/zen5-amd-epyc-f26m2.md) */
   if (vb > 16u && es >= 4u && mis % es == 0 && full >= 2u * DROPOUT__CHUNK) h = (vb - mis) % vb / es;
#define DROPOUT__MASK_LOOP(apply, T, scale)                                                                 \
   do {                                                                                                     \
      if (h == 0)                                                                                           \
         for (c = 0; c < full / DROPOUT__CHUNK; ++c)                                                        \
            apply((T *)y + 64u * c, (const T *)x + 64u * c, dropout__load_mask64(mask_in + 8u * c), scale, 0); \
      else {                                                                                                \
         uint64_t prev = dropout__load_mask64(mask_in), cur;                                                \
         for (c = 1; c < full / DROPOUT__CHUNK; ++c, prev = cur) {                                          \
            cur = dropout__load_mask64(mask_in + 8u * c);                                                   \
            apply((T *)y + h + 64u * (c - 1u), (const T *)x + h + 64u * (c - 1u), prev >> h | cur << (64u - h), scale, 0); \
         }                                                                                                  \
         dropout__grid_edges(dtype, y, x, full, (unsigned)h, dropout__load_mask64(mask_in), prev, r);         \
      }                                                                                                     \
   } while (0)
   if (dtype == DROPOUT__F32) DROPOUT__MASK_LOOP(dropout__apply64_f32, float, r->scale_f32);
   else if (dtype == DROPOUT__BF16) DROPOUT__MASK_LOOP(dropout__apply64_bf16, uint16_t, r->scale_f32);
   else if (dtype == DROPOUT__F16) DROPOUT__MASK_LOOP(dropout__apply64_f16, uint16_t, r->scale_f32);
   else DROPOUT__MASK_LOOP(dropout__apply64_f64, double, r->scale_f64);
#undef DROPOUT__MASK_LOOP
   if (full < n)
      dropout__run_ref(dtype, (char *)y + full * es, NULL, (const char *)x + full * es, mask_in + full / 8u, n - full,
                       r, seed, stream, offset + full);
   return 1;
}

/* Stream words word .. word + n - 1 into out. A large fill streams its stores as forward
   does (through an L1 buffer): whole blocks land at out - skip + a multiple of 4 * VB
   words, so their alignment is the same every time. */
static void dropout__words_simd(uint32_t *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word)
{
   uint32_t buf[4 * DROPOUT__VB];
   size_t i = 0, j;
   uint64_t block = word >> 2;
   unsigned skip = (unsigned)(word & 3u);
   int nt = 0;
   uint32_t ks[20];
   const size_t nt_from = dropout__nt_from(4u, 1, 32u);   /* a variable: 0 gives no warning */
   if (DROPOUT__STREAMS && n * 4u >= nt_from) nt = dropout__nt_mode(out - skip);
   dropout__key_schedule(seed, ks);
   if (DROPOUT__WORDS_WIDE && !nt && skip == 0) i = dropout__words_wide(ks, stream, &block, out, n);
   while (i < n) {
      size_t take = 4u * DROPOUT__VB - skip;
      if (take > n - i) take = n - i;
      if (skip == 0 && take == 4u * DROPOUT__VB && nt) {
         dropout__blocks_simd(ks, stream, block, buf);
         for (j = 0; j < 4u * DROPOUT__VB; j += DROPOUT__W) dropout__v_put(nt, out + i + j, dropout__v_loadu(buf + j));
      } else if (skip == 0 && take == 4u * DROPOUT__VB) {
         dropout__blocks_simd(ks, stream, block, out + i);
      } else {
#if defined(DROPOUT__FEW_BLOCKS)
         if (skip + take <= 4u * DROPOUT__VB4) dropout__blocks_simd4(ks, stream, block, buf);
         else
#endif
         dropout__blocks_simd(ks, stream, block, buf);
         dropout__memcpy(out + i, buf + skip, take * 4u);
      }
      i += take;
      skip = 0;
      block += DROPOUT__VB;
   }
   if (nt) dropout__v_sfence();
}
#if defined(DROPOUT__QUIET_AVX512_HEADERS)
#pragma GCC diagnostic pop
#endif
#define DROPOUT__HAVE_SIMD 1
/* A step's blocks are whole Philox calls at 8-bit draws (4 blocks a window), and so at
   16 and 32: else the steps' words would run past their buffers (see DROPOUT__GROUP). */
typedef char dropout__group_is_whole_calls[(DROPOUT__GROUP * 4) % DROPOUT__VB == 0 ? 1 : -1];
#else
/* no SIMD path: the engine's branches to it are constant false */
#define DROPOUT__HAVE_SIMD 0
#define DROPOUT__VB 1
#define dropout__run_simd(dtype, y, mask_out, x, mask_in, n, r, seed, stream, offset) ((void)0)
#define dropout__run_mask_simd(dtype, y, x, mask_in, n, r, seed, stream, offset) 0
#define dropout__words_simd(out, n, seed, stream, word) ((void)0)
#endif /* DROPOUT__SIMD */
#if !defined(DROPOUT__FUSED_OVERLAP)   /* the fused op's rows, not its overlap */
#define DROPOUT__FUSED_OVERLAP 0
#endif
#if !defined(DROPOUT__FUSED_NT_TAKES)
#define DROPOUT__FUSED_NT_TAKES(dtype) 1
#endif
#if defined(dropout__v_fma)
/* The fused op's store policy: a large output (bytes of it) streams its stores, as the
   forward's does, where y (p) is aligned for them (its 64-element groups then are too):
   dropout__nt_mode's 1 or 2; else 0. bits: the rule's draw width. */
static inline int dropout__fused_nt(int dtype, size_t bytes, const void *p, unsigned bits)
{
   const size_t nt_from = dropout__nt_from(dtype == DROPOUT__F32 ? 4u : 2u, 1, bits);   /* a variable: 0 gives no warning */
   (void)dtype;
   return DROPOUT__STREAMS && DROPOUT__FUSED_NT_TAKES(dtype) && bytes >= nt_from ? dropout__nt_mode(p) : 0;
}
#define dropout__fused_sfence() dropout__v_sfence()
#else
#define dropout__fused_nt(dtype, bytes, p, bits) 0
#define dropout__fused_sfence() ((void)0)
#endif
#if !defined(DROPOUT__FUSED_SIMD)   /* no vector fma: the fused op's scalar loop does it all */
#define DROPOUT__FUSED_SIMD 0
static size_t dropout__fused_simd(int dtype, void *y, const void *x, const void *b, const void *res,
                                  const uint8_t *kb, size_t n, const dropout_rule *r, int nt)
{
   (void)dtype; (void)y; (void)x; (void)b; (void)res; (void)kb; (void)n; (void)r; (void)nt;
   return 0;
}
#endif
/* ------------------------------- end of SIMD PATHS ---------------------------------- */

/* The engine behind every plain dropout call (forward, backward, mask, apply_mask), for a
   valid rule: the SIMD path or the reference, the same bits. */
DROPOUT__INLINE void dropout__engine_body(int dtype, void *y, uint8_t *mask_out, const void *x,
                                          const uint8_t *mask_in, size_t n, const dropout_rule *r,
                                          uint64_t seed, uint64_t stream, uint64_t offset)
{
   /* p = 1 drops everything, whatever a stored mask says (SPEC section 7): a kept bit would
      scale by 0, and Inf * 0 is a NaN whose bits depend on the machine. Without the mask
      the call is forward at t = 2^bits, which keeps nothing and writes +0. */
   if (mask_in && r->threshold >> r->bits) mask_in = NULL;
   /* a call shorter than a chunk needs at most two blocks: the reference is quicker */
   if (DROPOUT__HAVE_SIMD && n >= DROPOUT__CHUNK) {
      if (mask_in && y && !mask_out && dropout__run_mask_simd(dtype, y, x, mask_in, n, r, seed, stream, offset)) return;
      dropout__run_simd(dtype, y, mask_out, x, mask_in, n, r, seed, stream, offset);
      return;
   }
   dropout__run_ref_body(dtype, y, mask_out, x, mask_in, n, r, seed, stream, offset);
}

static void dropout__engine(int dtype, void *y, uint8_t *mask_out, const void *x,
                            const uint8_t *mask_in, size_t n, const dropout_rule *r,
                            uint64_t seed, uint64_t stream, uint64_t offset)
{
   dropout__engine_body(dtype, y, mask_out, x, mask_in, n, r, seed, stream, offset);
}

/* the f32 calls' own copy (see DROPOUT__INLINE) */
static void dropout__engine_f32(float *y, uint8_t *mask_out, const float *x,
                                const uint8_t *mask_in, size_t n, const dropout_rule *r,
                                uint64_t seed, uint64_t stream, uint64_t offset)
{
   dropout__engine_body(DROPOUT__F32, y, mask_out, x, mask_in, n, r, seed, stream, offset);
}

static void dropout__words(uint32_t *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word)
{
   if (DROPOUT__HAVE_SIMD && n >= 4u * DROPOUT__VB) {   /* shorter: the reference makes fewer blocks */
      dropout__words_simd(out, n, seed, stream, word);
      return;
   }
   dropout__words_ref(out, n, seed, stream, word);
}


/* ---- rules, generators, plans ------------------------------------------------------ */

static int dropout__bits_ok(int bits)
{
   return bits == 8 || bits == 16 || bits == 32;
}

/* The float nearest the double whose bits are u (a positive normal double in float's
   range, as every scale is), ties to even: integers only. */
static uint32_t dropout__f32_bits_of(uint64_t u)
{
   uint64_t m = (u & (((uint64_t)1 << 52) - 1u)) | ((uint64_t)1 << 52);
   int e = (int)(u >> 52) - 1023;
   uint64_t m24 = m >> 29, rem = m & (((uint64_t)1 << 29) - 1u);
   if (rem > ((uint64_t)1 << 28) || (rem == ((uint64_t)1 << 28) && (m24 & 1u))) {
      ++m24;
      if (m24 >> 24) { m24 >>= 1; ++e; }
   }
   return (uint32_t)(127 + e) << 23 | (uint32_t)(m24 & 0x7FFFFFu);
}

/* Do a rule's fields agree? bits 8/16/32, t <= 2^bits, scale_f64 = 2^bits / (2^bits - t)
   rounded to nearest even (0 when t = 2^bits), scale_f32 = scale_f64 rounded to float.
   With integers only (no soft double on a microcontroller) and a few multiplies: the
   double m 2^(e-52) is the rounded quotient iff |m den - 2^(bits+52-e)| <= den / 2 (ties
   to even m), a quotient of integers this small never lying near a power of two. */
static int dropout__rule_fields_ok(const dropout_rule *r)
{
   union { double f; uint64_t u; } d;
   union { float f; uint32_t u; } f;
   uint64_t n, t = r->threshold, den, m, mh, ml, hi, lo, pl, ph, dl, dh, x;
   int b = r->bits, e, sh;
   if (!dropout__bits_ok(b)) return 0;
   n = (uint64_t)1 << b;
   if (t > n) return 0;
   d.f = r->scale_f64;
   f.f = r->scale_f32;
   if (t == n) return d.u == 0 && f.u == 0;
   if (t == 0) return d.u == 0x3FF0000000000000u && f.u == 0x3F800000u;
   e = (int)(d.u >> 52) - 1023;               /* the sign bit makes e past b */
   if (e < 0 || e > b) return 0;
   if (f.u != dropout__f32_bits_of(d.u)) return 0;
   den = n - t;                                /* 1 .. 2^32 - 1 */
   m = (d.u & (((uint64_t)1 << 52) - 1u)) | ((uint64_t)1 << 52);
   mh = m >> 32; ml = m & 0xFFFFFFFFu;         /* m den = (mh den) 2^32 + ml den, < 2^85 */
   x = mh * den;
   hi = x >> 32; lo = x << 32;
   x = ml * den;
   lo += x;
   if (lo < x) ++hi;
   sh = b + 52 - e;                            /* 52 .. 84 */
   ph = sh >= 64 ? (uint64_t)1 << (sh - 64) : 0;
   pl = sh >= 64 ? 0 : (uint64_t)1 << sh;
   if (hi > ph || (hi == ph && lo >= pl)) { dh = hi - ph - (lo < pl); dl = lo - pl; }
   else { dh = ph - hi - (pl < lo); dl = pl - lo; }
   if (dh != 0 || dl > den) return 0;
   return 2 * dl < den || (2 * dl == den && !(m & 1u));
}

static int dropout__rule_check(const dropout_rule *r)
{
   if (!r) return DROPOUT_ERR_NULL_RULE;
   if (!dropout__rule_fields_ok(r)) return DROPOUT_ERR_RULE;
   return DROPOUT_OK;
}

/* What a call draws from a plan: dropout draws of its rule's width, normals (the value
   dropout__op_normals gives: 0, 1), or either (a slice, which draws nothing). */
enum { DROPOUT__PLAN_DRAWS = 0, DROPOUT__PLAN_NORMALS = 1, DROPOUT__PLAN_ANY = 2 };
/* A plan checked for a call that draws `kind`: positions of another kind are other stream
   words than were reserved for them. Units not set (a plan written by hand), or another
   width than the rule's (a rule swapped in), are no kind of positions. */
static int dropout__plan_check_kind(const dropout_plan *plan, int kind)
{
   int err, same_width;
   if (!plan) return DROPOUT_ERR_NULL_PLAN;
   err = dropout__rule_check(&plan->rule);
   if (err) return err;
   same_width = (int)plan->units == plan->rule.bits;
   if (kind == DROPOUT__PLAN_NORMALS ? plan->units != DROPOUT_UNITS_NORMALS
                                     : !(same_width || (kind == DROPOUT__PLAN_ANY && plan->units == DROPOUT_UNITS_NORMALS)))
      return DROPOUT_ERR_PLAN_UNITS;
   if (!dropout__range_ok64(plan->count, plan->pos) || plan->count > (uint64_t)(size_t)-1) return DROPOUT_ERR_RANGE;
   if (plan->count > (uint64_t)PTRDIFF_MAX) return DROPOUT_ERR_SIZE;   /* as dropout_plan_at: a plan filled by hand */
   return DROPOUT_OK;
}

static int dropout__plan_check(const dropout_plan *plan)
{
   return dropout__plan_check_kind(plan, DROPOUT__PLAN_ANY);
}

/* The threshold of p at a width, as dropout_rule_make computes it (p valid). */
static uint64_t dropout__threshold_of(double p, int bits)
{
   return (uint64_t)(p * (double)((uint64_t)1 << bits) + 0.5);
}

/* Does the width realise p inside (0, 1), and (strict) p and 1 - p within 1%? */
static int dropout__width_serves(double p, int bits, int strict)
{
   uint64_t t = dropout__threshold_of(p, bits), n = (uint64_t)1 << bits;
   double off, closer;
   if (t == 0 || t == n) return 0;
   if (!strict) return 1;
   off = (double)t / (double)n - p;            /* t / n exact */
   if (off < 0.0) off = -off;
   closer = p < 0.5 ? p : 1.0 - p;              /* 1 - p exact for p >= 1/2 */
   return off <= 0.01 * closer;
}

/* scale = 2^bits / (2^bits - t), rounded to nearest even in 53 bits (scale_f64) and that
   rounded again to 24 bits (scale_f32): exactly what dropout_rule_make's double
   arithmetic gives (its q = 1 - t / 2^bits is exact, 1 / q rounds once), here by long
   division on integers, so that no double code is linked. */
DROPOUTDEF int (dropout_rule_init_threshold)(dropout_rule *r, uint64_t threshold, dropout_bits bits)
{
   int b = (int)bits;
   uint64_t n, den, q = 0, rem = 1;
   int k = 0, e, i;
   union { uint64_t u; double f; } d;
   union { uint32_t u; float f; } f;
   if (!r) return DROPOUT_ERR_NULL_RESULT;
   if (!dropout__bits_ok(b)) return DROPOUT_ERR_BITS;
   n = (uint64_t)1 << b;
   if (threshold > n) return DROPOUT_ERR_THRESHOLD;
   r->threshold = threshold;
   r->bits = b;
   if (threshold == n) {          /* everything dropped: scale 0 */
      d.u = 0; f.u = 0;
      r->scale_f64 = d.f;
      r->scale_f32 = f.f;
      return DROPOUT_OK;
   }
   den = n - threshold;           /* 1 .. 2^b */
   while ((den >> (k + 1)) != 0) ++k;   /* 2^k <= den < 2^(k+1) */
   /* q = floor(2^(53+k) / den) in (2^52, 2^53]: one quotient bit a step, rem < den <= 2^32 */
   for (i = 0; i < 53 + k; ++i) {
      rem <<= 1;
      q <<= 1;
      if (rem >= den) { rem -= den; q |= 1u; }
   }
   /* scale = q * 2^(b - 53 - k) (+ the remainder): exponent e of q's leading bit */
   e = b - 1 - k;
   if (q >> 53) { q >>= 1; ++e; }            /* den a power of two: exact, rem = 0 */
   if (2 * rem > den || (2 * rem == den && (q & 1u))) {   /* round to nearest even */
      ++q;
      if (q >> 53) { q >>= 1; ++e; }
   }
   d.u = (uint64_t)(1023 + e) << 52 | (q & (((uint64_t)1 << 52) - 1u));
   f.u = dropout__f32_bits_of(d.u);          /* the 53-bit significand to 24, ties to even */
   r->scale_f64 = d.f;
   r->scale_f32 = f.f;
   return DROPOUT_OK;
}

static int dropout__rule_init_p(dropout_rule *r, double p, dropout_bits bits, int strict)
{
   int b = (int)bits, err;
   dropout__fpu f;
   if (!r) return DROPOUT_ERR_NULL_RESULT;
   if (!dropout__bits_ok(b)) return DROPOUT_ERR_BITS;
   if (!(p >= 0.0 && p <= 1.0)) return DROPOUT_ERR_P;    /* also catches NaN */
   dropout__fpu_enter(&f);   /* p 2^bits + 1/2 rounds */
   if (p > 0.0 && p < 1.0 && !dropout__width_serves(p, b, strict)) {
      /* the width that would serve: the first wider one that honours p */
      int w;
      err = DROPOUT_ERR_P_UNREALISABLE;
      for (w = b * 2; w <= 32; w *= 2)
         if (dropout__width_serves(p, w, strict)) { err = w == 16 ? DROPOUT_ERR_P_NEEDS_16 : DROPOUT_ERR_P_NEEDS_32; break; }
   } else {
      err = dropout_rule_init_threshold(r, dropout__threshold_of(p, b), bits);
   }
   dropout__fpu_leave(&f);
   return err;
}

DROPOUTDEF int dropout_rule_init(dropout_rule *r, double p, dropout_bits bits)
{
   return dropout__rule_init_p(r, p, bits, 1);
}

DROPOUTDEF int dropout_rule_init_quantised(dropout_rule *r, double p, dropout_bits bits)
{
   return dropout__rule_init_p(r, p, bits, 0);
}

DROPOUTDEF double dropout_rule_p(const dropout_rule *r)
{
   if (dropout__rule_check(r)) return -1.0;
   return (double)r->threshold / (double)((uint64_t)1 << r->bits);   /* exact */
}

/* units a generator's next may count, with next: DROPOUT_UNITS_NONE only at 0 (nothing
   handed out), where every kind starts */
static int dropout__units_ok(int units, uint64_t next)
{
   return units == 8 || units == 16 || units == 32 || units == DROPOUT_UNITS_NORMALS ||
          (units == DROPOUT_UNITS_NONE && next == 0);
}

DROPOUTDEF int dropout_gen_resume(dropout_gen *g, dropout_key key, uint64_t next, dropout_units units)
{
   if (!g) return DROPOUT_ERR_NULL_GEN;
   if (!dropout__units_ok((int)units, next)) return DROPOUT_ERR_UNITS;
   g->key = key;
   g->next = next;
   g->units = units;
   g->dropout__home = g;
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_gen_init(dropout_gen *g, dropout_key key)
{
   return dropout_gen_resume(g, key, 0, DROPOUT_UNITS_NONE);
}

/* g, if it is the generator dropout_gen_init made (not a copy, which would hand out its
   positions again) */
static int dropout__gen_check(const dropout_gen *g)
{
   if (!g) return DROPOUT_ERR_NULL_GEN;
   if (g->dropout__home != g) return DROPOUT_ERR_GEN_MOVED;
   /* fields set by hand (g.next = saved after dropout_gen_init): units must say what next counts */
   if (!dropout__units_ok((int)g->units, g->next)) return DROPOUT_ERR_UNITS;
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_gen_move(dropout_gen *to, dropout_gen *from)
{
   dropout_key key;
   uint64_t next;
   dropout_units units;
   int err = dropout__gen_check(from);
   if (err) return err;
   if (!to) return DROPOUT_ERR_NULL_GEN;
   if (to == from) return DROPOUT_OK;
   key = from->key;
   next = from->next;
   units = from->units;
   from->dropout__home = NULL;   /* the old place is refused from now on */
   return dropout_gen_resume(to, key, next, units);
}

/* The draw kinds a generator hands out and a descriptor's records keep: 8, 16, 32 (a
   dropout draw of that width) or DROPOUT__NORMALS (a normal, SPEC section 11 V.3: a
   position each, but normals 2k and 2k + 1 read the words 2k and 2k + 1 together, so
   the words of normals start and end at even words). */
#define DROPOUT__NORMALS ((int)DROPOUT_UNITS_NORMALS)

/* log2 of the positions of `kind` a word holds (1, 2, 4): shifts, not 64-bit division,
   which a microcontroller or wasm32 build would take from a runtime library it lacks */
static unsigned dropout__kind_shift(int kind)
{
   return kind == 8 ? 2u : kind == 16 ? 1u : 0u;
}

/* The first and last stream word (inclusive) that positions pos .. pos + count - 1
   (count >= 1, pos + count <= 2^64) of `kind` read. */
static void dropout__kind_words(int kind, uint64_t pos, uint64_t count, uint64_t *w0, uint64_t *w1)
{
   const unsigned s = dropout__kind_shift(kind);
   const uint64_t last = pos + (count - 1u);
   *w0 = kind == DROPOUT__NORMALS ? pos & ~(uint64_t)1 : pos >> s;
   *w1 = kind == DROPOUT__NORMALS ? last | 1u : last >> s;
}

/* The first position of count fresh ones of g of `kind` (8, 16 or 32-bit draws;
   DROPOUT__NORMALS): g->next when g handed out that kind last (or nothing yet); after
   another kind, the first position of this one past every stream word g handed out
   (SPEC section 8). DROPOUT_ERR_RANGE where that, or its count, passes 2^64. */
static int dropout__gen_first(const dropout_gen *g, int kind, uint64_t count, uint64_t *first)
{
   uint64_t at = g->next;
   if (g->units != DROPOUT_UNITS_NONE && (int)g->units != kind) {
      /* the words g handed out end before `words`: a word read by a quarter, or a normal
         pair read by its first normal, counts whole */
      const unsigned was = dropout__kind_shift((int)g->units), per = dropout__kind_shift(kind);
      uint64_t words = (at >> was) + ((at & ((1u << was) - 1u)) != 0);
      if (g->units == DROPOUT_UNITS_NORMALS || kind == DROPOUT__NORMALS) {
         if (words == UINT64_MAX) return DROPOUT_ERR_RANGE;   /* odd: its even end is 2^64 */
         words += words & 1u;   /* normals end, and start, at an even word */
      }
      if (words > UINT64_MAX >> per) return DROPOUT_ERR_RANGE;
      at = words << per;
   }
   if (count > UINT64_MAX - at) return DROPOUT_ERR_RANGE;
   *first = at;
   return DROPOUT_OK;
}

/* g after count positions of `kind` from first */
static void dropout__gen_take(dropout_gen *g, int kind, uint64_t first, uint64_t count)
{
   g->next = first + count;
   g->units = (dropout_units)kind;
}

/* a count of elements no buffer can have: past PTRDIFF_MAX bytes of the smallest
   element a plan's count may describe (a mask bit is smaller, but a negative int
   converted is what this catches) */
static int dropout__count_ok(uint64_t count, size_t es)
{
   return count <= (uint64_t)PTRDIFF_MAX / es;
}

static int dropout__gen_plan_kind(dropout_gen *g, const dropout_rule *rule, uint64_t count, dropout_plan *out, int normals)
{
   uint64_t first;
   int kind;
   int err = dropout__gen_check(g);
   if (err) return err;
   if (!out) return DROPOUT_ERR_NULL_RESULT;
   err = dropout__rule_check(rule);
   if (err) return err;
   if (!dropout__count_ok(count, 1)) return DROPOUT_ERR_SIZE;
   kind = normals ? DROPOUT__NORMALS : rule->bits;
   err = dropout__gen_first(g, kind, count, &first);
   if (err) return err;
   out->rule = *rule;
   out->key = g->key;
   out->pos = first;
   out->count = count;
   out->units = (dropout_units)kind;
   dropout__gen_take(g, kind, first, count);
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_gen_plan(dropout_gen *g, const dropout_rule *rule, uint64_t count, dropout_plan *out)
{
   return dropout__gen_plan_kind(g, rule, count, out, 0);
}

DROPOUTDEF int dropout_gen_plan_normals(dropout_gen *g, const dropout_rule *rule, uint64_t count, dropout_plan *out)
{
   return dropout__gen_plan_kind(g, rule, count, out, 1);
}

static int dropout__plan_at(dropout_plan *out, const dropout_rule *rule, dropout_key key, dropout_pos first, uint64_t count,
                            int normals)
{
   dropout_rule r = { 0, 1.0, 1.0f, 32 };   /* the empty plan's rule */
   int err;
   if (!out) return DROPOUT_ERR_NULL_RESULT;
   /* the rule read before *out is written: it may be out's own (a plan re-aimed at other
      coordinates, its rule kept), which the empty plan below would replace by p = 0 */
   err = dropout__rule_check(rule);
   if (!err) r = *rule;
   /* a plan whatever happens, so that an unchecked call leaves nothing uninitialised
      (gcc -flto / DROPOUT_STATIC -Werror=maybe-uninitialized): empty, and every call
      that takes it refuses it unless n is 0 */
   out->rule.threshold = 0; out->rule.scale_f64 = 1.0; out->rule.scale_f32 = 1.0f; out->rule.bits = 32;
   out->key = key;
   out->pos = first.index;
   out->count = 0;
   out->units = normals ? DROPOUT_UNITS_NORMALS : DROPOUT_UNITS_32;
   if (err) return err;
   if (!dropout__count_ok(count, 1)) return DROPOUT_ERR_SIZE;
   if (!dropout__range_ok64(count, first.index)) return DROPOUT_ERR_RANGE;
   out->rule = r;
   out->count = count;
   if (!normals) out->units = (dropout_units)r.bits;
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_plan_at(dropout_plan *out, const dropout_rule *rule, dropout_key key, dropout_pos first, uint64_t count)
{
   return dropout__plan_at(out, rule, key, first, count, 0);
}

DROPOUTDEF int dropout_plan_at_normals(dropout_plan *out, const dropout_rule *rule, dropout_key key, dropout_pos first, uint64_t count)
{
   return dropout__plan_at(out, rule, key, first, count, 1);
}

DROPOUTDEF int dropout_plan_slice(const dropout_plan *whole, uint64_t start, uint64_t count, dropout_plan *out)
{
   dropout_plan s;
   int err;
   if (!out) return DROPOUT_ERR_NULL_RESULT;
   err = dropout__plan_check(whole);
   if (err) return err;
   if (start > whole->count || count > whole->count - start) return DROPOUT_ERR_SLICE;
   s = *whole;
   s.pos += start;
   s.count = count;
   *out = s;
   return DROPOUT_OK;
}

/* ---- the short calls --------------------------------------------------------------- */

#define DROPOUT__DTYPE_SIZE(NAME, value, sfx, T, size, CUDA_T, K) size,
static const size_t dropout__esize[DROPOUT__DTYPE_COUNT] = { DROPOUT__DTYPES(DROPOUT__DTYPE_SIZE) };   /* bytes per element, by DROPOUT__ index */
#undef DROPOUT__DTYPE_SIZE

/* Do [a, a + an) and [b, b + bn) (bytes) share memory? */
static int dropout__meets(const void *a, size_t an, const void *b, size_t bn)
{
   uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
   if (!a || !b || an == 0 || bn == 0) return 0;
   return pa < pb + bn && pb < pa + an;
}

/* y and x are the same buffer (in place) or apart; n elements of es bytes */
static int dropout__in_place_ok(const void *y, const void *x, size_t n, size_t es)
{
   return y == x || !dropout__meets(y, n * es, x, n * es);
}

/* The count n a call was given, against its plan: a size no buffer has, then another
   count than the plan's. */
static int dropout__n_check(const dropout_plan *plan, size_t n, size_t es)
{
   if (!dropout__count_ok((uint64_t)n, es)) return DROPOUT_ERR_SIZE;
   if ((uint64_t)n != plan->count) return DROPOUT_ERR_COUNT;
   return DROPOUT_OK;
}

/* forward, backward and replay (the same operation on different data): every check; the
   plan's own only where the caller gave it (plan_made: a step's forward, whose plan
   dropout__step_plan made from checked parts a moment ago) */
static int dropout__short_check(int dtype, const dropout_plan *plan, size_t n, const void *y, const uint8_t *mask, const void *x,
                                int plan_made)
{
   size_t es = dropout__esize[dtype];
   int err = plan_made ? DROPOUT_OK : dropout__plan_check_kind(plan, DROPOUT__PLAN_DRAWS);
   if (!err) err = dropout__n_check(plan, n, es);
   if (err) return err;
   if (n > 0 && !y) return DROPOUT_ERR_NULL_OUTPUT;
   if (n > 0 && !x) return DROPOUT_ERR_NULL_INPUT;
   if (!dropout__in_place_ok(y, x, n, es) ||
       dropout__meets(mask, (n + 7) / 8, y, n * es) || dropout__meets(mask, (n + 7) / 8, x, n * es))
      return DROPOUT_ERR_OVERLAP;
   return DROPOUT_OK;
}

/* always inlined: with dtype a constant, an f32 call links the f32 engine alone (no f64 code
   on a microcontroller: tests/xarch/mcu_fb.c) */
DROPOUT__INLINE int dropout__short(int dtype, const dropout_plan *plan, size_t n, void *y, uint8_t *mask, const void *x,
                                   int plan_made)
{
   dropout__fpu f;
   int err = dropout__short_check(dtype, plan, n, y, mask, x, plan_made);
   if (err) return err;
   dropout__fpu_enter(&f);
   if (dtype == DROPOUT__F32)
      dropout__engine_f32((float *)y, mask, (const float *)x, NULL, n, &plan->rule, plan->key.seed, plan->key.stream, plan->pos);
   else
      dropout__engine(dtype, y, mask, x, NULL, n, &plan->rule, plan->key.seed, plan->key.stream, plan->pos);
   dropout__fpu_leave(&f);
   return DROPOUT_OK;
}

/* The plan a step's forward would reserve from g, or the code that refuses it. n is checked
   against the buffers' element size es before g's range, so a count no buffer holds is
   DROPOUT_ERR_SIZE wherever g stands (not RANGE near 2^64). */
static int dropout__step_plan(const dropout_gen *g, const dropout_rule *rule, size_t n, size_t es, dropout_plan *p)
{
   int err = dropout__gen_check(g);
   if (err) return err;
   err = dropout__rule_check(rule);
   if (err) return err;
   if (!dropout__count_ok((uint64_t)n, es)) return DROPOUT_ERR_SIZE;
   err = dropout__gen_first(g, rule->bits, (uint64_t)n, &p->pos);
   if (err) return err;
   p->rule = *rule;
   p->key = g->key;
   p->count = (uint64_t)n;
   p->units = (dropout_units)rule->bits;
   return DROPOUT_OK;
}

DROPOUT__INLINE int dropout__forward(int dtype, dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n,
                            void *y, uint8_t *mask, const void *x)
{
   dropout_plan p;
   int err = dropout__step_plan(g, rule, n, dropout__esize[dtype], &p);
   if (!err) err = dropout__short(dtype, &p, n, y, mask, x, 1);   /* p: made and checked just now */
   if (err) return err;
   dropout__gen_take(g, p.rule.bits, p.pos, p.count);
   if (plan) *plan = p;
   return DROPOUT_OK;
}

static int dropout__short_apply_mask(int dtype, const dropout_rule *rule, size_t n, void *y, const uint8_t *mask, const void *x)
{
   dropout__fpu f;
   int err = dropout__rule_check(rule);
   if (err) return err;
   if (!dropout__count_ok((uint64_t)n, dropout__esize[dtype])) return DROPOUT_ERR_SIZE;
   if (n > 0 && !y) return DROPOUT_ERR_NULL_OUTPUT;
   if (n > 0 && !mask) return DROPOUT_ERR_NULL_MASK;
   if (n > 0 && !x) return DROPOUT_ERR_NULL_INPUT;
   if (!dropout__in_place_ok(y, x, n, dropout__esize[dtype]) ||
       dropout__meets(mask, (n + 7) / 8, y, n * dropout__esize[dtype]))
      return DROPOUT_ERR_OVERLAP;
   dropout__fpu_enter(&f);
   dropout__engine(dtype, y, NULL, x, mask, n, rule, 0, 0, 0);
   dropout__fpu_leave(&f);
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_mask(const dropout_plan *plan, size_t n, uint8_t *mask)
{
   int err = dropout__plan_check_kind(plan, DROPOUT__PLAN_DRAWS);
   if (!err) err = dropout__n_check(plan, n, 1);
   if (err) return err;
   if (n > 0 && !mask) return DROPOUT_ERR_NULL_MASK;
   dropout__engine(DROPOUT__F32, NULL, mask, NULL, NULL, n, &plan->rule,
                   plan->key.seed, plan->key.stream, plan->pos);
   return DROPOUT_OK;
}

/* The short calls of every dtype, from its row of DROPOUT__DTYPES: dropout_forward_<sfx>,
   dropout_backward_<sfx>, dropout_replay_<sfx>, dropout_apply_mask_<sfx> (their prototypes,
   written out, are in the declarations; the compiler holds each definition to its own). */
#define DROPOUT__SHORT_CALLS(NAME, value, sfx, T, size, CUDA_T, K)                                          \
   DROPOUTDEF int dropout_forward_##sfx(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n,  \
                                        T *y, uint8_t *mask, const T *x)                                        \
   {                                                                                                            \
      return dropout__forward(DROPOUT__##NAME, g, rule, plan, n, y, mask, x);                                   \
   }                                                                                                            \
   DROPOUTDEF int dropout_backward_##sfx(const dropout_plan *plan, size_t n, T *dx, const T *dy)                 \
   {                                                                                                            \
      return dropout__short(DROPOUT__##NAME, plan, n, dx, NULL, dy, 0);                                         \
   }                                                                                                            \
   DROPOUTDEF int dropout_replay_##sfx(const dropout_plan *plan, size_t n, T *y, uint8_t *mask, const T *x)      \
   {                                                                                                            \
      return dropout__short(DROPOUT__##NAME, plan, n, y, mask, x, 0);                                           \
   }                                                                                                            \
   DROPOUTDEF int dropout_apply_mask_##sfx(const dropout_rule *rule, size_t n, T *y, const uint8_t *mask, const T *x) \
   {                                                                                                            \
      return dropout__short_apply_mask(DROPOUT__##NAME, rule, n, y, mask, x);                                   \
   }
DROPOUT__DTYPES(DROPOUT__SHORT_CALLS)
#undef DROPOUT__SHORT_CALLS

/* ---- the raw stream ---------------------------------------------------------------- */

static int dropout__fill_u32(uint32_t *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word)
{
   if (n > 0 && !out) return DROPOUT_ERR_NULL;
   if (!dropout__range_ok(n, word)) return DROPOUT_ERR_RANGE;
   dropout__words(out, n, seed, stream, word);
   return DROPOUT_OK;
}

/* The uniform fills convert words made DROPOUT__FILL at a time. */
#define DROPOUT__FILL 256

static int dropout__fill_uniform_f32(float *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word)
{
   uint32_t w[DROPOUT__FILL];
   size_t at, i;
   if (n > 0 && !out) return DROPOUT_ERR_NULL;
   if (!dropout__range_ok(n, word)) return DROPOUT_ERR_RANGE;
   for (at = 0; at < n; at += DROPOUT__FILL) {
      size_t m = n - at < DROPOUT__FILL ? n - at : DROPOUT__FILL;
      dropout__words(w, m, seed, stream, word + at);
      for (i = 0; i < m; ++i)
         out[at + i] = (float)(w[i] >> 8) * 5.9604644775390625e-8f;   /* 2^-24 */
   }
   return DROPOUT_OK;
}

static int dropout__fill_uniform_f64(double *out, size_t n, uint64_t seed, uint64_t stream, uint64_t index)
{
   uint32_t w[DROPOUT__FILL];
   size_t at, i;
   if (n > 0 && !out) return DROPOUT_ERR_NULL;
   /* doubles index..index+n-1 must lie below 2^63 (two words each); n = 0 asks for none */
   if (n > 0 && (index > (UINT64_MAX >> 1) || (uint64_t)(n - 1) > (UINT64_MAX >> 1) - index))
      return DROPOUT_ERR_RANGE;
   for (at = 0; at < n; at += DROPOUT__FILL / 2) {
      size_t m = n - at < DROPOUT__FILL / 2 ? n - at : DROPOUT__FILL / 2;
      /* double index + at uses words 2(index + at) (low half) and the next (high half) */
      dropout__words(w, 2 * m, seed, stream, 2u * (index + at));
      for (i = 0; i < m; ++i) {
         uint64_t u = (uint64_t)w[2 * i + 1] << 32 | w[2 * i];
         out[at + i] = (double)(u >> 11) * 1.1102230246251565404236316680908203125e-16;  /* 2^-53 */
      }
   }
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_fill_u32(dropout_key key, dropout_pos first, uint32_t *out, size_t n)
{
   if (!dropout__count_ok((uint64_t)n, 4)) return DROPOUT_ERR_SIZE;
   if (n > 0 && !out) return DROPOUT_ERR_NULL_OUTPUT;
   return dropout__fill_u32(out, n, key.seed, key.stream, first.index);
}

DROPOUTDEF int dropout_fill_uniform_f32(dropout_key key, dropout_pos first, float *out, size_t n)
{
   if (!dropout__count_ok((uint64_t)n, 4)) return DROPOUT_ERR_SIZE;
   if (n > 0 && !out) return DROPOUT_ERR_NULL_OUTPUT;
   return dropout__fill_uniform_f32(out, n, key.seed, key.stream, first.index);
}

DROPOUTDEF int dropout_fill_uniform_f64(dropout_key key, dropout_pos first, double *out, size_t n)
{
   if (!dropout__count_ok((uint64_t)n, 8)) return DROPOUT_ERR_SIZE;
   if (n > 0 && !out) return DROPOUT_ERR_NULL_OUTPUT;
   return dropout__fill_uniform_f64(out, n, key.seed, key.stream, first.index);
}

#undef DROPOUT__FILL

/* ---- normals ------------------------------------------------------------------------- */

DROPOUTDEF float dropout_gaussian_sigma(double p)
{
   dropout__fpu f;
   float sigma;
   dropout__fpu_enter(&f);
   sigma = (float)dropout__sqrt_f64(p / (1.0 - p));
   dropout__fpu_leave(&f);
   return sigma;
}

static int dropout__fill_normal_f32(float *out, size_t n, uint64_t seed, uint64_t stream, uint64_t offset)
{
   dropout__cursor c;
   size_t i;
   if (n > 0 && !out) return DROPOUT_ERR_NULL;
   if (!dropout__range_ok(n, offset)) return DROPOUT_ERR_RANGE;
   dropout__cursor_init(&c, seed, stream);
   for (i = 0; i < n; ++i) {
      uint64_t q = offset + i;
      const uint32_t *w = dropout__cursor_words(&c, q >> 2);
      out[i] = dropout_normal_from_words(w[q & 2u], w[(q & 2u) + 1u], (int)(q & 1u));
   }
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_fill_normal_f32(dropout_key key, dropout_pos first, float *out, size_t n)
{
   dropout__fpu f;
   int err;
   if (!dropout__count_ok((uint64_t)n, 4)) return DROPOUT_ERR_SIZE;
   if (n > 0 && !out) return DROPOUT_ERR_NULL_OUTPUT;
   dropout__fpu_enter(&f);
   err = dropout__fill_normal_f32(out, n, key.seed, key.stream, first.index);
   dropout__fpu_leave(&f);
   return err;
}

DROPOUTDEF void dropout_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
   dropout_philox4x32_rounds(10, ctr, key, out);
}

DROPOUTDEF uint32_t dropout_stream_u32(dropout_key key, dropout_pos pos)
{
   uint32_t w[4];
   dropout_block(key.seed, key.stream, pos.index >> 2, w);
   return w[pos.index & 3u];
}

/* ====================================================================================
   VARIANTS, STRIDES AND THE DESCRIPTOR (implementation). One walker runs every op of
   dropout_run over any shape, broadcast and strides: rows of the innermost dim, keep
   bits made for a chunk of a row at a time by the engine above, the element formulas
   of the building blocks. Plain dropout rows that are contiguous go through the engine
   whole (its SIMD paths).
   ==================================================================================== */

#define DROPOUT__DESC_MAGIC 0x64726F70u    /* "drop" */
/* NOISE's sigma (set_sigma and the run): >= 0, and finite as the float it is applied as,
   RN32(sigma) (SPEC V.4): from FLT_MAX + half an ulp (0x1.ffffffp+127) up that is +inf */
#define DROPOUT__SIGMA_OK(s) ((s) >= 0.0 && (s) < 3.4028235677973366e38)
#if !defined(DROPOUT_ROW_CHUNK)
#define DROPOUT_ROW_CHUNK 256
#endif
#if DROPOUT_ROW_CHUNK < 64 || DROPOUT_ROW_CHUNK % 64 != 0
#error "DROPOUT_ROW_CHUNK must be a multiple of 64, at least 64 (the walker's chunks start on mask bytes and keep words)"
#endif
#define DROPOUT__ROW_CHUNK DROPOUT_ROW_CHUNK   /* elements per chunk of a row (keep bits, gathered data) */

/* The operands the walker moves through: by dropout_operand, then the bias. */
enum { DROPOUT__W_OUT = 0, DROPOUT__W_IN = 1, DROPOUT__W_RES = 2, DROPOUT__W_BIAS = 3, DROPOUT__NW = 4 };

/* The op list's columns, by op value (ok = 0 for a value that is no op). */
typedef struct dropout__op_row { int ok, in, mask_out, mask_in, grad, step, cls; } dropout__op_row;

static dropout__op_row dropout__op_of(int op)
{
   dropout__op_row r = { 0, 0, 0, 0, 0, 0, 0 };
   switch (op) {
#define DROPOUT__OP_ROW(N, V, S, IN, MOUT, MIN, GRAD, STEP, C, F64, CU, CL) \
   case V: r.ok = 1; r.in = IN; r.mask_out = MOUT; r.mask_in = MIN; r.grad = GRAD; r.step = STEP; r.cls = DROPOUT_CLASS_##C; break;
   DROPOUT__OPS(DROPOUT__OP_ROW)
#undef DROPOUT__OP_ROW
   default: break;
   }
   return r;
}

static int dropout__op_ok(int op) { return dropout__op_of(op).ok; }

DROPOUTDEF const char *dropout_op_name(dropout_op op)
{
   unsigned v = op;   /* any value: the enum's private member is no op (-Wswitch-enum) */
   switch (v) {
#define DROPOUT__OP_NAME(N, V, S, IN, MOUT, MIN, GRAD, STEP, C, F64, CU, CL) case DROPOUT_OP_##N: return S;
   DROPOUT__OPS(DROPOUT__OP_NAME)
#undef DROPOUT__OP_NAME
   default: return NULL;
   }
}
static int dropout__dtype_ok(int dt) { return dt >= 1 && dt <= DROPOUT__DTYPE_COUNT; }

/* the gradients (which may accumulate) */
static int dropout__op_takes_grad(int op) { return dropout__op_of(op).grad; }

/* Element count and positions of a shape: SHAPE_OVERFLOW past size_t (judged on the
   non-zero dims, so the answer does not depend on their order). A zero dim empties the
   tensor; the mask keeps its own shape (a zero dim that is broadcast is 1 there). */
static int dropout__shape_count(int rank, const size_t *dim, unsigned bcast, size_t *numel, size_t *positions)
{
   size_t ne = 1, np = 1;
   int d, empty = 0, mask_empty = 0;
   for (d = 0; d < rank; ++d) {
      size_t k = dim[d];
      int b = (int)((bcast >> d) & 1u);
      if (k == 0) { empty = 1; if (!b) mask_empty = 1; continue; }
      if (ne > (size_t)-1 / k) return DROPOUT_ERR_SHAPE_OVERFLOW;
      ne *= k;
      if (!b) np *= k;    /* np divides ne: cannot overflow once ne did not */
   }
   *numel = empty ? 0 : ne;
   *positions = mask_empty ? 0 : np;
   return DROPOUT_OK;
}

/* The positions that position strides s[0 .. rank) span over a shape, 1 + sum (dim_d -
   1) * s_d, 0 when a dim of 0 elements has a stride (its mask is empty; a zero stride
   on it is a broadcast's empty dim); POSITION_STRIDES where two elements would draw one
   position: the non-zero strides over dims of more than one element, in increasing
   order, each past the span of the smaller ones (the nesting of every row-major order;
   an interleaving that happens to be one-to-one is refused too: no guess); at most
   PTRDIFF_MAX positions (a plan's count). A last dim stepping more than one position
   gets rows of one element from the lowering (dropout__geometry), so the 8 dims of a
   rank-8 shape, all of more than one element, leave no room for it: refused. */
static int dropout__pstride_span(int rank, const size_t *dim, const uint64_t *s, size_t *positions)
{
   uint64_t span = 0, sorted[DROPOUT_MAX_RANK];
   size_t len[DROPOUT_MAX_RANK];
   int d, k, n = 0, empty = 0, wide = 0;
   for (d = 0; d < rank; ++d) wide += dim[d] > 1;
   if (wide == DROPOUT_MAX_RANK && s[rank - 1] > 1) return DROPOUT_ERR_POSITION_STRIDES;
   for (d = 0; d < rank; ++d) {
      if (dim[d] == 0 && s[d] != 0) empty = 1;
      if (dim[d] <= 1 || s[d] == 0) continue;
      for (k = n++; k > 0 && sorted[k - 1] > s[d]; --k) { sorted[k] = sorted[k - 1]; len[k] = len[k - 1]; }
      sorted[k] = s[d];
      len[k] = dim[d];
   }
   for (k = 0; k < n; ++k) {   /* span: the last position reached so far */
      if (sorted[k] <= span) return DROPOUT_ERR_POSITION_STRIDES;
      if ((uint64_t)(len[k] - 1) > (UINT64_MAX - span) / sorted[k]) return DROPOUT_ERR_POSITION_STRIDES;
      span += (uint64_t)(len[k] - 1) * sorted[k];
   }
   if (span >= (uint64_t)PTRDIFF_MAX) return DROPOUT_ERR_POSITION_STRIDES;   /* span + 1 positions: a plan's count */
   *positions = empty ? 0 : (size_t)span + 1;
   return DROPOUT_OK;
}

/* dropout__shape_count of d's shape, with its position strides when set */
static int dropout__desc_count(const dropout_desc *d, int rank, size_t *numel, size_t *positions)
{
   int err = dropout__shape_count(rank, d->dropout__dim, d->dropout__broadcast, numel, positions);
   if (err || !d->dropout__pstrided) return err;
   return dropout__pstride_span(rank, d->dropout__dim, d->dropout__pstride, positions);
}

/* Lowest and highest element offsets of a strided operand (dims of size 1 do not count;
   the caller has a non-empty shape); 0 if they do not fit ptrdiff_t bytes. */
static int dropout__extent(int rank, const size_t *dim, const ptrdiff_t *st, size_t es, ptrdiff_t *lo, ptrdiff_t *hi)
{
   size_t neg = 0, pos = 0, lim = (size_t)PTRDIFF_MAX / es;
   int d;
   for (d = 0; d < rank; ++d) {
      size_t a, span;
      if (dim[d] <= 1) continue;
      a = st[d] < 0 ? (size_t)0 - (size_t)st[d] : (size_t)st[d];
      if (a != 0 && dim[d] - 1 > lim / a) return 0;
      span = a * (dim[d] - 1);
      if (st[d] < 0) { if (span > lim - neg) return 0; neg += span; }
      else { if (span > lim - pos) return 0; pos += span; }
   }
   if (pos > lim - neg) return 0;     /* the whole span, in bytes, fits ptrdiff_t */
   *lo = -(ptrdiff_t)neg;
   *hi = (ptrdiff_t)pos;
   return 1;
}

/* An output's strides: no zero stride on a dim of more than one element, and no two
   elements at one address. Sufficient and checkable: the dims, by growing |stride|,
   each step past the extent of the ones before. */
static int dropout__out_strides_ok(int rank, const size_t *dim, const ptrdiff_t *st)
{
   size_t a[DROPOUT_MAX_RANK], n[DROPOUT_MAX_RANK], reach = 0;
   int d, k = 0, i;
   for (d = 0; d < rank; ++d) {
      size_t v;
      if (dim[d] <= 1) continue;
      if (st[d] == 0) return DROPOUT_ERR_STRIDE;
      v = st[d] < 0 ? (size_t)0 - (size_t)st[d] : (size_t)st[d];
      for (i = k; i > 0 && a[i - 1] > v; --i) { a[i] = a[i - 1]; n[i] = n[i - 1]; }
      a[i] = v;
      n[i] = dim[d];
      ++k;
   }
   for (i = 0; i < k; ++i) {       /* reach: the largest offset the smaller dims make */
      if (a[i] <= reach) return DROPOUT_ERR_OVERLAP;
      reach += a[i] * (n[i] - 1);  /* fits: the extent was checked */
   }
   return DROPOUT_OK;
}

/* row-major strides of a shape; 0 past the rank (every entry set) */
static void dropout__contiguous(int rank, const size_t *dim, ptrdiff_t *st)
{
   /* set_shape keeps the products of the inner dims of a non-empty shape within
      ptrdiff_t; an empty one (a dim of 0) addresses nothing, and its strides saturate */
   size_t acc = 1;
   int d;
   for (d = DROPOUT_MAX_RANK - 1; d >= 0; --d) {
      size_t e = d < rank && dim[d] ? dim[d] : 1;
      st[d] = d < rank ? (ptrdiff_t)acc : 0;
      acc = acc > (size_t)PTRDIFF_MAX / e ? (size_t)PTRDIFF_MAX : acc * e;
   }
}

static int dropout__desc_ok(const dropout_desc *d)
{
   if (!d) return DROPOUT_ERR_NULL_DESC;
   if (d->dropout__magic != DROPOUT__DESC_MAGIC) return DROPOUT_ERR_DESC;
   return DROPOUT_OK;
}

/* The strides of operand w (0..2) of a descriptor. */
static void dropout__desc_strides(const dropout_desc *d, int w, ptrdiff_t *st)
{
   int k;
   if ((d->dropout__strided >> w) & 1u)
      for (k = 0; k < DROPOUT_MAX_RANK; ++k) st[k] = d->dropout__stride[w][k];   /* a fixed size: no memcpy call */
   else
      dropout__contiguous(d->dropout__rank, d->dropout__dim, st);
}

/* Bytes [lo, hi) of a strided operand (non-empty shape, extent checked). */
static void dropout__span(const void *base, int rank, const size_t *dim, const ptrdiff_t *st, size_t es,
                          uintptr_t *lo, uintptr_t *hi)
{
   ptrdiff_t l = 0, h = 0;
   (void)dropout__extent(rank, dim, st, es, &l, &h);
   *lo = (uintptr_t)base - (uintptr_t)((size_t)(-l) * es);
   *hi = (uintptr_t)base + (uintptr_t)((size_t)h * es) + es;
}

static int dropout__spans_meet(uintptr_t alo, uintptr_t ahi, uintptr_t blo, uintptr_t bhi)
{
   return alo < bhi && blo < ahi;
}

/* The checks of d's settings and of the tensors against them: all of dropout_lower's
   (dropout_run's but the CPU's own, device coordinates) but the last, whether the plan
   may draw (dropout__desc_may_draw). */
/* mask_sized: the backend checks the mask buffer's size itself (an OpenCL buffer has one) */
static int dropout__desc_args_check(const dropout_desc *d, const dropout_tensors *t, int mask_sized)
{
   int op, err, w, k, rank;
   size_t numel, positions, es, mask_bytes;
   ptrdiff_t st[3][DROPOUT_MAX_RANK];
   const void *ptr[3];
   uintptr_t lo[3], hi[3];
   int need_in, need_mask, fused;
   dropout__op_row row;
   err = dropout__desc_ok(d);
   if (err) return err;
   if (!t) return DROPOUT_ERR_NULL_TENSORS;
   op = d->dropout__op;
   row = dropout__op_of(op);
   if (!row.ok) return DROPOUT_ERR_OP;
   if (!dropout__dtype_ok(d->dropout__dtype)) return DROPOUT_ERR_DTYPE;
   rank = d->dropout__rank;
   if (rank < 1 || rank > DROPOUT_MAX_RANK) return DROPOUT_ERR_RANK;
   if (d->dropout__broadcast >> rank) return DROPOUT_ERR_BROADCAST;
   if (d->dropout__grad != DROPOUT_GRAD_OVERWRITE && d->dropout__grad != DROPOUT_GRAD_ACCUMULATE) return DROPOUT_ERR_GRAD;
   if (d->dropout__grad == DROPOUT_GRAD_ACCUMULATE && !row.grad) return DROPOUT_ERR_OP;
   err = dropout__plan_check_kind(&d->dropout__plan, row.cls == DROPOUT_CLASS_NORMAL);
   if (err) return err;
   if (op == DROPOUT_OP_GAUSSIAN && d->dropout__plan.rule.threshold >> d->dropout__plan.rule.bits) return DROPOUT_ERR_P;
   if (op == DROPOUT_OP_NOISE && !DROPOUT__SIGMA_OK(d->dropout__sigma)) return DROPOUT_ERR_SIGMA;
   err = dropout__desc_count(d, rank, &numel, &positions);
   if (err) return err;
   fused = row.cls == DROPOUT_CLASS_FUSED;
   /* strides of an earlier shape that a later one reset, on an operand the op addresses
      (out and in where it takes them, the residual in the fused op), or position strides
      (every op draws by them): not said again for this shape */
   if (numel > 0 && (d->dropout__unrun & (DROPOUT__STALE_PSTRIDES |
                                           (row.in ? DROPOUT__STALE_OF(DROPOUT_OPERAND_OUT) | DROPOUT__STALE_OF(DROPOUT_OPERAND_IN) : 0u) |
                                           (fused ? DROPOUT__STALE_OF(DROPOUT_OPERAND_RESIDUAL) : 0u))))
      return DROPOUT_ERR_STRIDES_STALE;
   if ((uint64_t)positions != d->dropout__plan.count) return DROPOUT_ERR_SHAPE_COUNT;
   if (fused && d->dropout__bias_len != 0 && d->dropout__bias_len != d->dropout__dim[rank - 1])
      return DROPOUT_ERR_BIAS_LEN;
   /* the fused op's rows are its bias's (the GPU kernels count columns along a row): its
      last dim, of more than one element, steps 0 or 1 position */
   if (fused && d->dropout__pstrided && d->dropout__dim[rank - 1] > 1 && d->dropout__pstride[rank - 1] > 1)
      return DROPOUT_ERR_POSITION_STRIDES;
   /* the tensors the op takes (the op list's IN, MOUT, MIN, CLASS), and no other */
   need_in = row.in;
   need_mask = row.mask_in;
   if (!need_in && t->out) return DROPOUT_ERR_OP;
   if (!need_in && t->in) return DROPOUT_ERR_OP;
   if (!row.mask_out && !need_mask && t->mask) return DROPOUT_ERR_OP;
   if (!fused && (t->bias || t->residual)) return DROPOUT_ERR_OP;
   if (!fused && ((d->dropout__strided >> DROPOUT_OPERAND_RESIDUAL) & 1u)) return DROPOUT_ERR_OP;
   if (!need_in && positions > 0 && !t->mask) return DROPOUT_ERR_NULL_MASK;   /* the mask is all it writes */
   if (numel > 0) {
      if (need_in && !t->out) return DROPOUT_ERR_NULL_OUTPUT;
      if (need_in && !t->in) return DROPOUT_ERR_NULL_INPUT;
      if (need_mask && !t->mask) return DROPOUT_ERR_NULL_MASK;
      if (fused && !t->bias) return DROPOUT_ERR_NULL_BIAS;
      if (fused && !t->residual) return DROPOUT_ERR_NULL_RESIDUAL;
   }
   /* a mask holds a bit a position: with position strides, of the whole span, which a
      buffer sized for the elements does not hold where the span passes them (its size must
      be stated, unless the backend knows it); any mask of a stated size must hold the span */
   if (t->mask && positions > 0) {
      const size_t mb = positions / 8 + (positions % 8 != 0);
      if (d->dropout__mask_bytes ? d->dropout__mask_bytes < mb : d->dropout__pstrided && positions > numel && !mask_sized)
         return DROPOUT_ERR_MASK_BYTES;
   }
   /* device coordinates (CUDA graphs): every thread reads them, so the call must not write
      them: not in the mask it writes (here) nor in its output (below) */
   if (d->dropout__dev_pos && t->mask && (row.mask_out || !need_in) && positions > 0) {
      const uintptr_t m = (uintptr_t)t->mask, mb = (uintptr_t)(positions / 8 + (positions % 8 != 0));
      const uintptr_t cs = (uintptr_t)d->dropout__dev_seed, cp = (uintptr_t)d->dropout__dev_pos;
      if (dropout__spans_meet(m, m + mb, cs, cs + 8u) || dropout__spans_meet(m, m + mb, cp, cp + 8u))
         return DROPOUT_ERR_OVERLAP;
   }
   if (numel == 0) return DROPOUT_OK;          /* nothing but perhaps a mask is written */
   if (!need_in) return DROPOUT_OK;
   es = dropout__esize[d->dropout__dtype - 1];
   if (numel > (size_t)PTRDIFF_MAX / es) return DROPOUT_ERR_SHAPE_OVERFLOW;
   ptr[0] = t->out; ptr[1] = t->in; ptr[2] = t->residual;
   for (w = 0; w < 3; ++w) {
      ptrdiff_t l, h;
      if (!ptr[w]) continue;
      dropout__desc_strides(d, w, st[w]);
      if (!dropout__extent(rank, d->dropout__dim, st[w], es, &l, &h)) return DROPOUT_ERR_STRIDE;
      if ((uintptr_t)ptr[w] < (uintptr_t)((size_t)(-l) * es) ||
          (uintptr_t)ptr[w] + (uintptr_t)((size_t)h * es + es) < (uintptr_t)ptr[w]) return DROPOUT_ERR_STRIDE;
      dropout__span(ptr[w], rank, d->dropout__dim, st[w], es, &lo[w], &hi[w]);
   }
   err = dropout__out_strides_ok(rank, d->dropout__dim, st[0]);
   if (err) return err;
   if (d->dropout__dev_pos) {   /* the device coordinates, in the output's span (see above) */
      const uintptr_t cs = (uintptr_t)d->dropout__dev_seed, cp = (uintptr_t)d->dropout__dev_pos;
      if (dropout__spans_meet(lo[0], hi[0], cs, cs + 8u) || dropout__spans_meet(lo[0], hi[0], cp, cp + 8u))
         return DROPOUT_ERR_OVERLAP;
   }
   /* an output meets an input only as the same elements (in place) */
   for (w = 1; w < 3; ++w) {
      if (!ptr[w] || !dropout__spans_meet(lo[0], hi[0], lo[w], hi[w])) continue;
      if (ptr[w] != ptr[0]) return DROPOUT_ERR_OVERLAP;
      for (k = 0; k < rank; ++k)
         if (d->dropout__dim[k] > 1 && st[w][k] != st[0][k]) return DROPOUT_ERR_OVERLAP;
   }
   if (t->bias) {
      uintptr_t b = (uintptr_t)t->bias, n = (uintptr_t)(d->dropout__dim[rank - 1] * es);
      if (dropout__spans_meet(lo[0], hi[0], b, b + n)) return DROPOUT_ERR_OVERLAP;
   }
   mask_bytes = positions / 8 + (positions % 8 != 0);
   if (t->mask && mask_bytes) {
      uintptr_t m = (uintptr_t)t->mask;
      for (w = 0; w < 3; ++w)
         if (ptr[w] && (w == 0 || row.mask_out) && dropout__spans_meet(lo[w], hi[w], m, m + mask_bytes))
            return DROPOUT_ERR_OVERLAP;
      if (t->bias && row.mask_out) {
         uintptr_t b = (uintptr_t)t->bias, n = (uintptr_t)(d->dropout__dim[rank - 1] * es);
         if (dropout__spans_meet(m, m + mask_bytes, b, b + n)) return DROPOUT_ERR_OVERLAP;
      }
   }
   return DROPOUT_OK;
}

/* Whether d's op may draw its plan's positions now: a plan that drew a step's mask
   already, or one that another descriptor holds too (d is a copy), would draw the same
   mask again. Device coordinates are exempt: their positions are read when the kernel
   runs (moved by dropout_cuda_advance), not taken from the plan. d checked. */
static int dropout__desc_may_draw(const dropout_desc *d)
{
   if (!dropout__op_of(d->dropout__op).step || d->dropout__dev_pos) return DROPOUT_OK;
   if (d->dropout__drawn) return DROPOUT_ERR_PLAN_RAN;
   return d->dropout__home == d ? DROPOUT_OK : DROPOUT_ERR_DESC_MOVED;
}

/* THE geometry reduction (dropout_lower's, so every backend's): mask strides, then
   size-1 dims dropped and a dim merged into its inner neighbour where the mask index and
   every operand step through them as through one dim (a contiguous tensor becomes 1-D, a
   slice of rows 2-D). In: rank, dim, bcast, the position strides (NULL: row-major over
   the dims not broadcast) and the operands' strides st[w][0 .. rank); out: *rrank,
   rdim, ms and st reduced in place (entries past *rrank: dim 1, strides 0). */
static void dropout__geometry(int rank, const size_t *dim, unsigned bcast, const uint64_t *pstride, int *rrank,
                              size_t *rdim, uint64_t *ms, ptrdiff_t st[DROPOUT__NW][DROPOUT_MAX_RANK])
{
   uint64_t acc = 1;
   int d, r = 0, w, n;
   for (d = rank - 1; d >= 0; --d) {
      if (pstride) ms[d] = pstride[d];
      else if ((bcast >> d) & 1u) ms[d] = 0;
      else { ms[d] = acc; acc *= (uint64_t)dim[d]; }
   }
   for (d = 0; d < rank; ++d) {         /* drop dims of 1 (their index is always 0) */
      if (dim[d] == 1) continue;
      rdim[r] = dim[d];
      ms[r] = ms[d];
      for (w = 0; w < DROPOUT__NW; ++w) st[w][r] = st[w][d];
      ++r;
   }
   if (r == 0) {                        /* a single element */
      rdim[0] = 1;
      ms[0] = 0;
      for (w = 0; w < DROPOUT__NW; ++w) st[w][0] = 0;
      r = 1;
   }
   n = r;
   for (d = n - 2; d >= 0; --d) {       /* merge dim d into d + 1 where they chain */
      int ok = ms[d] == ms[d + 1] * (uint64_t)rdim[d + 1];
      for (w = 0; w < DROPOUT__NW && ok; ++w) {
         ptrdiff_t inner = st[w][d + 1];
         /* (PTRDIFF_MIN / -1 overflows, a trap on x86: a dim of 0 elements, or an operand the
            op does not take, is not held to the extent check that excludes such a stride) */
         ok = inner == 0 ? st[w][d] == 0
            : inner == -1 ? st[w][d] != PTRDIFF_MIN && (size_t)-st[w][d] == rdim[d + 1]
                          : st[w][d] % inner == 0 && (size_t)(st[w][d] / inner) == rdim[d + 1];
      }
      if (!ok) continue;
      rdim[d + 1] *= rdim[d];
      for (r = d; r + 1 < n; ++r) {     /* remove dim d */
         rdim[r] = rdim[r + 1];
         ms[r] = ms[r + 1];
         for (w = 0; w < DROPOUT__NW; ++w) st[w][r] = st[w][r + 1];
      }
      --n;
   }
   if (n < DROPOUT_MAX_RANK && ms[n - 1] > 1) {
      /* a last dim stepping more than one position (position strides): rows of one
         element, one decision each at its own position, since every backend's row loop
         draws a row's positions as one run or takes one decision for it */
      rdim[n] = 1;
      ms[n] = 0;
      for (w = 0; w < DROPOUT__NW; ++w) st[w][n] = 0;
      ++n;
   }
   for (d = n; d < DROPOUT_MAX_RANK; ++d) {
      rdim[d] = 1;
      ms[d] = 0;
      for (w = 0; w < DROPOUT__NW; ++w) st[w][d] = 0;
   }
   *rrank = n;
}

/* len bits from bit `at` of src into dst, from bit 0 (reads no byte past the bits) */
static void dropout__bits_copy(uint8_t *dst, const uint8_t *src, uint64_t at, size_t len)
{
   const uint8_t *s = src + at / 8u;
   unsigned sh = (unsigned)(at % 8u);
   size_t i;
   for (i = 0; i < (len + 7u) / 8u; ++i) {
      unsigned v = (unsigned)s[i] >> sh;
      if (sh && i * 8u + 8u - sh < len) v |= (unsigned)s[i + 1] << (8u - sh);
      dst[i] = (uint8_t)v;
   }
}

/* g added to what the output holds (the building blocks dropout_accumulate_*) */
static void dropout__accumulate(int dtype, char *o, const char *g)
{
   switch (dtype) {
#define DROPOUT__ACCUMULATE(NAME, value, sfx, T, size, CUDA_T, K)                         \
   case DROPOUT__##NAME: {                                                            \
      DROPOUT__HELD_##K *p = (DROPOUT__HELD_##K *)(void *)o;                          \
      *p = dropout_accumulate_##sfx(*p, *(const DROPOUT__HELD_##K *)(const void *)g); \
   } break;
   DROPOUT__DTYPES(DROPOUT__ACCUMULATE)
#undef DROPOUT__ACCUMULATE
   default: break;
   }
}

/* One element of any op: its value from x (and bias, residual), keep decision, normal z,
   written to o (or added, for gradients that accumulate). */
static void dropout__elem(const dropout_job *j, char *o, const char *x, const char *res, const char *b, int keep, float z)
{
   union { float f; double d; uint16_t h; } g;
   int op = (int)j->op, dt = (int)j->dtype - 1;
   switch (dt) {
   case DROPOUT__F32: {
      float v = *(const float *)(const void *)x;
      if (op == DROPOUT_OP_ALPHA_FORWARD) g.f = dropout_alpha_apply_f32(v, keep, j->alpha);
      else if (op == DROPOUT_OP_ALPHA_BACKWARD) g.f = dropout_alpha_grad_f32(v, keep, j->alpha);
      else if (op == DROPOUT_OP_GAUSSIAN) g.f = j->copy ? v : v * dropout_gaussian_mult(z, j->sigma);
      else if (op == DROPOUT_OP_NOISE) g.f = j->copy ? v : dropout_noise_add_f32(v, z, j->sigma);
      else if (op == DROPOUT_OP_BIAS_DROPOUT_ADD)
         g.f = dropout_bias_dropout_add_one_f32(v, *(const float *)(const void *)b, *(const float *)(const void *)res, keep, j->rule);
      else g.f = dropout_apply_f32(v, keep, j->rule);
      if (j->accumulate) dropout__accumulate(dt, o, (const char *)&g.f);
      else *(float *)(void *)o = g.f;
   } break;
   case DROPOUT__F64: {
      double v = *(const double *)(const void *)x;
      if (op == DROPOUT_OP_ALPHA_FORWARD) g.d = dropout_alpha_apply_f64(v, keep, j->alpha);
      else if (op == DROPOUT_OP_ALPHA_BACKWARD) g.d = dropout_alpha_grad_f64(v, keep, j->alpha);
      else if (op == DROPOUT_OP_GAUSSIAN) g.d = j->copy ? v : v * (double)dropout_gaussian_mult(z, j->sigma);
      else if (op == DROPOUT_OP_NOISE) g.d = j->copy ? v : dropout_noise_add_f64(v, z, j->sigma);
      else if (op == DROPOUT_OP_BIAS_DROPOUT_ADD)
         g.d = dropout_bias_dropout_add_one_f64(v, *(const double *)(const void *)b, *(const double *)(const void *)res, keep, j->rule);
      else g.d = dropout_apply_f64(v, keep, j->rule);
      if (j->accumulate) dropout__accumulate(dt, o, (const char *)&g.d);
      else *(double *)(void *)o = g.d;
   } break;
   default: {   /* f16, bf16: the building blocks widen to float and round back once */
      uint16_t v = *(const uint16_t *)(const void *)x;
      int h = dt == DROPOUT__F16;
      if (op == DROPOUT_OP_ALPHA_FORWARD) g.h = h ? dropout_alpha_apply_f16(v, keep, j->alpha) : dropout_alpha_apply_bf16(v, keep, j->alpha);
      else if (op == DROPOUT_OP_ALPHA_BACKWARD) g.h = h ? dropout_alpha_grad_f16(v, keep, j->alpha) : dropout_alpha_grad_bf16(v, keep, j->alpha);
      else if (op == DROPOUT_OP_GAUSSIAN || op == DROPOUT_OP_NOISE) {
         if (j->copy) g.h = v;
         else {
            float f = h ? dropout_f16_to_f32(v) : dropout_bf16_to_f32(v);
            f = op == DROPOUT_OP_GAUSSIAN ? f * dropout_gaussian_mult(z, j->sigma) : dropout_noise_add_f32(f, z, j->sigma);
            g.h = h ? dropout_f32_to_f16(f) : dropout_f32_to_bf16(f);
         }
      } else if (op == DROPOUT_OP_BIAS_DROPOUT_ADD) {
         uint16_t bv = *(const uint16_t *)(const void *)b, rv = *(const uint16_t *)(const void *)res;
         g.h = h ? dropout_bias_dropout_add_one_f16(v, bv, rv, keep, j->rule) : dropout_bias_dropout_add_one_bf16(v, bv, rv, keep, j->rule);
      } else g.h = h ? dropout_apply_f16(v, keep, j->rule) : dropout_apply_bf16(v, keep, j->rule);
      if (j->accumulate) dropout__accumulate(dt, o, (const char *)&g.h);
      else *(uint16_t *)(void *)o = g.h;
   } break;
   }
}

/* Copy element i of a strided run to element k of a contiguous one, or back: by the
   element's own type (no memcpy: freestanding builds have none to call). */
static void dropout__elem_copy(int dtype, char *dst, const char *src)
{
   switch (dtype) {
#define DROPOUT__ELEM_COPY(NAME, value, sfx, T, size, CUDA_T, K) \
   case DROPOUT__##NAME: *(DROPOUT__HELD_##K *)(void *)dst = *(const DROPOUT__HELD_##K *)(const void *)src; break;
   DROPOUT__DTYPES(DROPOUT__ELEM_COPY)
#undef DROPOUT__ELEM_COPY
   default: break;
   }
}

/* The fused op's elements at + i, i < n, of a row (strides in elements): one loop per
   dtype, so that the dtype and the op are decided once a chunk, not once an element as
   dropout__elem does. keep: bit i of kb, or k1 for every element (a broadcast dim). */
static void dropout__fused_chunk(const dropout_job *j, int dt, char *o, const char *x, const char *res, const char *b,
                                 const ptrdiff_t st[DROPOUT__NW], size_t at, size_t n, const uint8_t *kb, int k1)
{
   size_t i;
   switch (dt) {
#define DROPOUT__FUSED_CHUNK(NAME, value, sfx, T, size, CUDA_T, K)                                            \
   case DROPOUT__##NAME: {                                                                                \
      DROPOUT__HELD_##K *yo = (DROPOUT__HELD_##K *)(void *)o;                                             \
      const DROPOUT__HELD_##K *xi = (const DROPOUT__HELD_##K *)(const void *)x;                           \
      const DROPOUT__HELD_##K *ri = (const DROPOUT__HELD_##K *)(const void *)res;                         \
      const DROPOUT__HELD_##K *bi = (const DROPOUT__HELD_##K *)(const void *)b;                           \
      for (i = 0; i < n; ++i) {                                                                           \
         ptrdiff_t e = (ptrdiff_t)(at + i);                                                               \
         int keep = kb ? (kb[i / 8u] >> (i % 8u)) & 1 : k1;                                               \
         yo[e * st[DROPOUT__W_OUT]] = dropout_bias_dropout_add_one_##sfx(xi[e * st[DROPOUT__W_IN]],      \
            bi[e * st[DROPOUT__W_BIAS]], ri[e * st[DROPOUT__W_RES]], keep, j->rule);                      \
      }                                                                                                   \
   } break;
   DROPOUT__DTYPES(DROPOUT__FUSED_CHUNK)
#undef DROPOUT__FUSED_CHUNK
   default: break;
   }
}

/* A contiguous row of the fused op (every stride 1, mask index m0 + i) by the vector
   loop, a span at a time. The keep bits come from the call's mask where it has one
   (dropout__job_run wrote it before the rows, and it meets no operand), else from the
   stream; the span is a multiple of every draw width's Philox call, so none is wasted. */
#define DROPOUT__FUSED_SPAN 2048
static void dropout__fused_row(const dropout_job *j, int dt, char *o, const char *x, const char *res, const char *b,
                               size_t len, uint64_t m0)
{
   static const ptrdiff_t st1[DROPOUT__NW] = { 1, 1, 1, 1 };
   uint8_t kb[DROPOUT__FUSED_SPAN / 8];
   const size_t es = j->elem_size;
   size_t at;
   for (at = 0; at < len; at += DROPOUT__FUSED_SPAN) {
      const size_t n = len - at < DROPOUT__FUSED_SPAN ? len - at : DROPOUT__FUSED_SPAN;
      const uint64_t m = m0 + at;
      const uint8_t *mk = kb;
      const int nt = dropout__fused_nt(dt, j->numel * es, o + at * es, (unsigned)j->rule.bits);
      size_t done;
      if (j->mask_out && m % 8u == 0) mk = j->mask_out + m / 8u;
      else if (j->mask_out) dropout__bits_copy(kb, j->mask_out, m, n);
      else dropout__engine(DROPOUT__F32, NULL, kb, NULL, NULL, n, &j->rule, j->seed, j->stream, j->pos + m);
      done = dropout__fused_simd(dt, o + at * es, x + at * es, b + at * es, res + at * es, mk, n, &j->rule, nt);
      if (nt) dropout__fused_sfence();
      if (done < n) dropout__fused_chunk(j, dt, o, x, res, b, st1, at + done, n - done, mk + done / 8u, 0);
   }
}

/* One row of the innermost dim: element i at o + i*so (etc.), mask index m0 + i*sm. */
static void dropout__job_row(const dropout_job *j, ptrdiff_t off[DROPOUT__NW], uint64_t m0)
{
   int in = j->rank - 1, dt = (int)j->dtype - 1;
   size_t len = j->dim[in], es = j->elem_size, at, i;
   ptrdiff_t so = j->stride[DROPOUT__W_OUT][in], si = j->stride[DROPOUT__W_IN][in];
   ptrdiff_t sr = j->stride[DROPOUT__W_RES][in], sb = j->stride[DROPOUT__W_BIAS][in];
   uint64_t sm = j->mask_stride[in];
   char *o = (char *)j->out + off[DROPOUT__W_OUT] * (ptrdiff_t)es;
   const char *x = (const char *)j->in + off[DROPOUT__W_IN] * (ptrdiff_t)es;
   const char *res = j->residual ? (const char *)j->residual + off[DROPOUT__W_RES] * (ptrdiff_t)es : NULL;
   const char *b = j->bias ? (const char *)j->bias + off[DROPOUT__W_BIAS] * (ptrdiff_t)es : NULL;
   int plain = j->op_class == DROPOUT_CLASS_PLAIN;
   int normal = j->op_class == DROPOUT_CLASS_NORMAL;
   int all_dropped = (j->rule.threshold >> j->rule.bits) != 0;   /* p = 1: a stored mask is not read */
   uint8_t kb[DROPOUT__ROW_CHUNK / 8];
   union { float f[DROPOUT__ROW_CHUNK]; double d[DROPOUT__ROW_CHUNK]; uint16_t h[DROPOUT__ROW_CHUNK]; } tin, tout;
   dropout__cursor c;
   if (plain && so == 1 && si == 1 && sm == 1 && !j->accumulate &&
       (!j->mask_in || m0 % 8u == 0 || all_dropped)) {
      /* contiguous: the engine on the whole row */
      dropout__engine(dt, o, NULL, x, j->mask_in ? j->mask_in + m0 / 8u : NULL, len,
                      &j->rule, j->seed, j->stream, j->pos + m0);
      return;
   }
   if (plain && sm == 1) {
      /* the engine by chunks: a strided input is gathered into tin, a strided output (or
         a gradient to add) comes out of tout; a mask row that does not start on a byte is
         shifted into kb */
      for (at = 0; at < len; at += DROPOUT__ROW_CHUNK) {
         size_t n = len - at < DROPOUT__ROW_CHUNK ? len - at : DROPOUT__ROW_CHUNK;
         const uint8_t *mk = NULL;
         const char *src = x + (ptrdiff_t)at * si * (ptrdiff_t)es;
         char *dst = o + (ptrdiff_t)at * so * (ptrdiff_t)es;
         int direct = so == 1 && !j->accumulate;
         if (j->mask_in) {
            if (m0 % 8u == 0 && (m0 + at) % 8u == 0) mk = j->mask_in + (m0 + at) / 8u;
            else { dropout__bits_copy(kb, j->mask_in, m0 + at, n); mk = kb; }
         }
         if (si != 1) {
            for (i = 0; i < n; ++i) dropout__elem_copy(dt, (char *)&tin + i * es, src + (ptrdiff_t)i * si * (ptrdiff_t)es);
            src = (const char *)&tin;
         }
         dropout__engine(dt, direct ? (void *)dst : (void *)&tout, NULL, src, mk, n, &j->rule, j->seed, j->stream, j->pos + m0 + at);
         if (!direct)
            for (i = 0; i < n; ++i) {
               char *e = dst + (ptrdiff_t)i * so * (ptrdiff_t)es;
               if (j->accumulate) dropout__accumulate(dt, e, (const char *)&tout + i * es);
               else dropout__elem_copy(dt, e, (const char *)&tout + i * es);
            }
      }
      return;
   }
   if (DROPOUT__FUSED_SIMD && j->op_class == DROPOUT_CLASS_FUSED && dt != DROPOUT__F64 &&
       so == 1 && si == 1 && sr == 1 && sb == 1 && sm == 1) {
      dropout__fused_row(j, dt, o, x, res, b, len, m0);
      return;
   }
   dropout__cursor_init(&c, j->seed, j->stream);
   for (at = 0; at < len; at += DROPOUT__ROW_CHUNK) {
      size_t n = len - at < DROPOUT__ROW_CHUNK ? len - at : DROPOUT__ROW_CHUNK;
      int k1 = 0;
      if (!normal) {   /* the chunk's keep bits: from the stream, or the stored mask */
         if (sm == 0) {
            if (j->mask_in) k1 = !all_dropped && (((unsigned)j->mask_in[m0 / 8u] >> (m0 % 8u)) & 1u);
            else k1 = dropout_keep_at(j->seed, j->stream, j->pos + m0, j->rule);
         } else if (j->mask_in) {
            if (!all_dropped) dropout__bits_copy(kb, j->mask_in, m0 + at, n);
         } else {
            dropout__engine(DROPOUT__F32, NULL, kb, NULL, NULL, n, &j->rule, j->seed, j->stream, j->pos + m0 + at);
         }
      }
      if (j->op_class == DROPOUT_CLASS_FUSED) {   /* no stored mask, no gradient to add */
         const ptrdiff_t st[DROPOUT__NW] = { so, si, sr, sb };
         dropout__fused_chunk(j, dt, o, x, res, b, st, at, n, sm == 0 ? NULL : kb, k1);
         continue;
      }
      for (i = 0; i < n; ++i) {
         ptrdiff_t e = (ptrdiff_t)(at + i);
         int keep = sm == 0 ? k1 : j->mask_in && all_dropped ? 0 : (kb[i / 8u] >> (i % 8u)) & 1;
         float z = 0.0f;
         if (normal && !j->copy) {
            uint64_t q = j->pos + m0 + (uint64_t)e * sm;
            const uint32_t *w = dropout__cursor_words(&c, q >> 2);
            z = dropout_normal_from_words(w[q & 2u], w[(q & 2u) + 1u], (int)(q & 1u));
         }
         dropout__elem(j, o + e * so * (ptrdiff_t)es, x + e * si * (ptrdiff_t)es,
                       res ? res + e * sr * (ptrdiff_t)es : NULL, b ? b + e * sb * (ptrdiff_t)es : NULL, keep, z);
      }
   }
}

#if DROPOUT__FUSED_OVERLAP
/* The fused op over contiguous tensors whose bias repeats along the rows (rank 1, or rank
   2 with the bias broadcast over the rows), rows a multiple of 64 long, from a window's
   first position: the overlap, mask and all, then the rest (under a step) by rows.
   Returns 0, having written nothing, where it does not apply. */
static int dropout__fused_flat(const dropout_job *j)
{
   const int dt = (int)j->dtype - 1, in = j->rank - 1;
   const size_t cols = j->dim[in], es = j->elem_size, n = j->numel;
   const uint64_t per = (unsigned)j->rule.bits / 2u, w0 = j->pos >> 6;
   size_t done, at;
   int nt;
   if (j->op_class != DROPOUT_CLASS_FUSED || dt == DROPOUT__F64 || !DROPOUT__FUSED_OVERLAP_TAKES(dt, j->rule.bits) ||
       !j->contiguous || j->accumulate || j->rank > 2 ||
       j->stride[DROPOUT_JOB_BIAS][in] != 1 || (in == 1 && j->stride[DROPOUT_JOB_BIAS][0] != 0) || cols % 64u ||
       j->pos % 64u || j->rule.threshold == 0 || n < 2u * DROPOUT__GROUP * DROPOUT__CHUNK ||
       (w0 * per) >> 32 != ((w0 + n / 64u) * per) >> 32)   /* the blocks' high word changes */
      return 0;
   nt = dropout__fused_nt(dt, n * es, j->out, (unsigned)j->rule.bits);   /* (every chunk is aligned as y is) */
   done = (dt == DROPOUT__F32 ? dropout__fused_overlap_f32 : dt == DROPOUT__BF16 ? dropout__fused_overlap_bf16
                              : dropout__fused_overlap_f16)(j->out, j->mask_out, j->in, j->bias, cols, j->residual,
                                                            n - n % 64u, &j->rule, j->seed, j->stream, j->pos, nt);
   if (j->mask_out && done < n)
      dropout__engine(DROPOUT__F32, NULL, j->mask_out + done / 8u, NULL, NULL, n - done, &j->rule, j->seed, j->stream,
                      j->pos + done);
   for (at = done; at < n;) {
      const size_t c0 = at % cols, len = cols - c0 < n - at ? cols - c0 : n - at;
      dropout__fused_row(j, dt, (char *)j->out + at * es, (const char *)j->in + at * es,
                         (const char *)j->residual + at * es, (const char *)j->bias + c0 * es, len, at);
      at += len;
   }
   return 1;
}
#else
#define dropout__fused_flat(j) 0
#endif

/* Run a checked job: the mask first (ops that write one), then the rows in order; the
   fused op over contiguous tensors both at once where it can (dropout__fused_flat). */
static void dropout__job_run(const dropout_job *j)
{
   size_t idx[DROPOUT_MAX_RANK];
   ptrdiff_t off[DROPOUT__NW];
   uint64_t m0 = 0;
   int d, w, plain_fwd;
   if (j->op_class == DROPOUT_CLASS_MASK) {
      dropout__engine(DROPOUT__F32, NULL, j->mask_out, NULL, NULL, (size_t)j->positions, &j->rule, j->seed, j->stream, j->pos);
      return;
   }
   plain_fwd = j->op == DROPOUT_OP_FORWARD && !j->accumulate && j->rank == 1 && j->mask_stride[0] == 1 &&
               j->stride[DROPOUT__W_OUT][0] == 1 && j->stride[DROPOUT__W_IN][0] == 1;
   if (plain_fwd && j->numel > 0) {   /* contiguous, no broadcast: one engine call, mask and all */
      dropout__engine((int)j->dtype - 1, j->out, j->mask_out, j->in, NULL, j->numel, &j->rule, j->seed, j->stream, j->pos);
      return;
   }
   if (dropout__fused_flat(j)) return;
   if (j->mask_out)
      dropout__engine(DROPOUT__F32, NULL, j->mask_out, NULL, NULL, (size_t)j->positions, &j->rule, j->seed, j->stream, j->pos);
   if (j->numel == 0) return;
   for (d = 0; d < DROPOUT_MAX_RANK; ++d) idx[d] = 0;   /* fixed sizes: no memset call (freestanding) */
   off[0] = off[1] = off[2] = off[3] = 0;
   for (;;) {
      dropout__job_row(j, off, m0);
      for (d = j->rank - 2; d >= 0; --d) {   /* the next row: an odometer over the outer dims */
         m0 += j->mask_stride[d];
         for (w = 0; w < DROPOUT__NW; ++w) off[w] += j->stride[w][d];
         if (++idx[d] < j->dim[d]) break;
         m0 -= j->mask_stride[d] * (uint64_t)j->dim[d];
         for (w = 0; w < DROPOUT__NW; ++w) off[w] -= j->stride[w][d] * (ptrdiff_t)j->dim[d];
         idx[d] = 0;
      }
      if (d < 0) return;
   }
}

/* ---- the descriptor ------------------------------------------------------------------ */

/* the descriptor's plan, field by field (see dropout_desc_init) */
static void dropout__desc_put_plan(dropout_desc *d, const dropout_plan *plan)
{
   d->dropout__plan.rule.threshold = plan->rule.threshold;
   d->dropout__plan.rule.scale_f64 = plan->rule.scale_f64;
   d->dropout__plan.rule.scale_f32 = plan->rule.scale_f32;
   d->dropout__plan.rule.bits = plan->rule.bits;
   d->dropout__plan.key = plan->key;
   d->dropout__plan.pos = plan->pos;
   d->dropout__plan.count = plan->count;
   d->dropout__plan.units = plan->units;
}

/* Whether op draws normals (GAUSSIAN, NOISE: whatever the rule's width) rather than
   dropout draws of the rule's width */
static int dropout__op_normals(int op)
{
   return dropout__op_of(op).cls == DROPOUT_CLASS_NORMAL;
}
/* The draw kind of d's op and rule: DROPOUT__NORMALS or the rule's width */
static int dropout__desc_kind(const dropout_desc *d)
{
   return dropout__op_normals(d->dropout__op) ? DROPOUT__NORMALS : d->dropout__plan.rule.bits;
}

/* The descriptor's records of positions, field by field (no struct copy: see
   dropout_desc_init) */
static void dropout__at_put(dropout__drawn_at *s, const dropout_plan *p, int kind)
{
   s->key = p->key;
   s->pos = p->pos;
   s->count = p->count;
   s->kind = kind;
}
static void dropout__at_copy(dropout__drawn_at *to, const dropout__drawn_at *from)
{
   to->key = from->key;
   to->pos = from->pos;
   to->count = from->count;
   to->kind = from->kind;
}
/* Whether positions s and plan b, drawn as `kind`, share a draw of one stream: a position
   of one kind, or a stream word across kinds (8-bit positions 0 .. 3 and a 32-bit
   position 0 are one word; a normal reads its pair's two words). No sums that could
   pass 2^64. */
static int dropout__at_meets(const dropout__drawn_at *s, const dropout_plan *b, int kind)
{
   uint64_t s0, s1, b0, b1;
   if (s->key.seed != b->key.seed || s->key.stream != b->key.stream || s->count == 0 || b->count == 0) return 0;
   if (s->kind == kind) return s->pos >= b->pos ? s->pos - b->pos < b->count : b->pos - s->pos < s->count;
   dropout__kind_words(s->kind, s->pos, s->count, &s0, &s1);
   dropout__kind_words(kind, b->pos, b->count, &b0, &b1);
   return s0 <= b1 && b0 <= s1;
}

/* d's plan may draw one step's mask, from d (dropout__desc_may_draw). */
static void dropout__desc_arm(dropout_desc *d)
{
   d->dropout__home = d;
   d->dropout__drawn = 0;
   dropout__at_put(&d->dropout__armed, &d->dropout__plan, (int)d->dropout__plan.units);
}

DROPOUTDEF int dropout_desc_init(dropout_desc *d, dropout_op op, dropout_dtype dtype, const dropout_plan *plan)
{
   int err, k;
   if (!d) return DROPOUT_ERR_NULL_DESC;
   if (!dropout__op_ok((int)op)) return DROPOUT_ERR_OP;
   if (!dropout__dtype_ok((int)dtype)) return DROPOUT_ERR_DTYPE;
   err = dropout__plan_check_kind(plan, dropout__op_normals((int)op));
   if (err) return err;
   if (op == DROPOUT_OP_GAUSSIAN && plan->rule.threshold >> plan->rule.bits) return DROPOUT_ERR_P;
   /* field by field (no struct copy, no zeroing loop: freestanding builds have no
      memcpy/memset to call); dropout__stride is read only where dropout__strided says */
   d->dropout__magic = DROPOUT__DESC_MAGIC;
   d->dropout__op = (int)op;
   d->dropout__dtype = (int)dtype;
   d->dropout__rank = 1;
   d->dropout__grad = DROPOUT_GRAD_OVERWRITE;
   d->dropout__broadcast = 0;
   d->dropout__strided = 0;
   d->dropout__pstrided = 0;   /* (dropout__pstride is read only where this says) */
   d->dropout__unrun = 0;
   dropout__desc_put_plan(d, plan);
   for (k = 0; k < DROPOUT_MAX_RANK; ++k) d->dropout__dim[k] = k == 0 ? (size_t)plan->count : 1;
   d->dropout__sigma = -1.0;          /* unset: NOISE refuses to run until it is set */
   d->dropout__bias_len = 0;
   d->dropout__mask_bytes = 0;
   d->dropout__dev_seed = NULL;
   d->dropout__dev_pos = NULL;
   dropout__desc_arm(d);
   dropout__at_put(&d->dropout__last, plan, (int)plan->units);
   d->dropout__last.count = 0;   /* nothing drawn yet */
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_desc_set_shape(dropout_desc *d, int rank, const size_t *dims)
{
   size_t numel, positions;
   int err = dropout__desc_ok(d), k;
   if (err) return err;
   /* strides set before any shape and never run: the setters in the wrong order (a shape
      resets strides); later shapes reset strides on purpose (a reused descriptor) */
   if (d->dropout__unrun & 15u) return DROPOUT_ERR_SHAPE_RESETS;
   if (rank < 1 || rank > DROPOUT_MAX_RANK) return DROPOUT_ERR_RANK;
   if (!dims) return DROPOUT_ERR_NULL_DIMS;
   if (d->dropout__broadcast >> rank) return DROPOUT_ERR_BROADCAST;
   err = dropout__shape_count(rank, dims, d->dropout__broadcast, &numel, &positions);
   if (err) return err;
   if (numel) {  /* the contiguous strides (products of the inner dims) must fit ptrdiff_t;
                    an empty tensor has no element to address */
      size_t span = 1;
      for (k = 1; k < rank; ++k) {
         size_t e = dims[k] ? dims[k] : 1;
         if (span > (size_t)PTRDIFF_MAX / e) return DROPOUT_ERR_SHAPE_OVERFLOW;
         span *= e;
      }
   }
   d->dropout__rank = rank;
   for (k = 0; k < DROPOUT_MAX_RANK; ++k) d->dropout__dim[k] = k < rank ? dims[k] : 1;
   /* strides of an earlier shape, reset now, must be said again before a run: a view
      reshaped batch after batch would otherwise run contiguous once its strides are not
      set again (the same pending bits carry over a second shape) */
   d->dropout__unrun = 16u | (d->dropout__unrun & DROPOUT__STALE_STRIDES) | (d->dropout__strided & 7u) * DROPOUT__STALE_OF(0) |
                       (d->dropout__pstrided ? DROPOUT__STALE_PSTRIDES : 0u);
   d->dropout__strided = 0;
   d->dropout__pstrided = 0;
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_desc_set_strides(dropout_desc *d, dropout_operand which, const ptrdiff_t *strides)
{
   int err = dropout__desc_ok(d), w = (int)which, k;
   if (err) return err;
   if (w < DROPOUT_OPERAND_OUT || w > DROPOUT_OPERAND_RESIDUAL) return DROPOUT_ERR_OPERAND;
   if (!strides) {   /* (clearing fits every op) */
      d->dropout__strided &= ~(1u << w);
      d->dropout__unrun &= ~(1u << w | DROPOUT__STALE_OF(w));
      return DROPOUT_OK;
   }
   if (w == DROPOUT_OPERAND_RESIDUAL && d->dropout__op != DROPOUT_OP_BIAS_DROPOUT_ADD) return DROPOUT_ERR_OP;
   {   /* the span must be an address range: the output's always, an input's (the op may not
          read it) where the shape has elements (an empty one reads none: any strides) */
      ptrdiff_t l, h;
      size_t es = dropout__dtype_ok(d->dropout__dtype) ? dropout__esize[d->dropout__dtype - 1] : 1;
      int empty = 0;
      for (k = 0; k < d->dropout__rank; ++k) empty |= d->dropout__dim[k] == 0;
      if ((w == DROPOUT_OPERAND_OUT || !empty) && !dropout__extent(d->dropout__rank, d->dropout__dim, strides, es, &l, &h))
         return DROPOUT_ERR_STRIDE;
   }
   if (w == DROPOUT_OPERAND_OUT) {
      err = dropout__out_strides_ok(d->dropout__rank, d->dropout__dim, strides);
      if (err) return err;
   }
   for (k = 0; k < DROPOUT_MAX_RANK; ++k) d->dropout__stride[w][k] = k < d->dropout__rank ? strides[k] : 0;
   d->dropout__strided |= 1u << w;
   d->dropout__unrun &= ~DROPOUT__STALE_OF(w);   /* said again for this shape */
   if (!(d->dropout__unrun & 16u)) d->dropout__unrun |= 1u << w;   /* before any shape */
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_desc_set_broadcast(dropout_desc *d, unsigned dims)
{
   int err = dropout__desc_ok(d);
   if (err) return err;
   if (dims >> d->dropout__rank) return DROPOUT_ERR_BROADCAST;
   if (dims && d->dropout__pstrided) return DROPOUT_ERR_BROADCAST;   /* a zero position stride is the broadcast */
   d->dropout__broadcast = dims;
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_desc_set_position_strides(dropout_desc *d, const uint64_t *strides)
{
   size_t positions;
   int err = dropout__desc_ok(d), k;
   if (err) return err;
   if (!strides) {
      d->dropout__pstrided = 0;
      d->dropout__unrun &= ~(8u | DROPOUT__STALE_PSTRIDES);
      return DROPOUT_OK;
   }
   if (d->dropout__broadcast) return DROPOUT_ERR_BROADCAST;
   err = dropout__pstride_span(d->dropout__rank, d->dropout__dim, strides, &positions);
   if (err) return err;
   for (k = 0; k < DROPOUT_MAX_RANK; ++k) d->dropout__pstride[k] = k < d->dropout__rank ? strides[k] : 0;
   d->dropout__pstrided = 1;
   d->dropout__unrun &= ~DROPOUT__STALE_PSTRIDES;
   if (!(d->dropout__unrun & 16u)) d->dropout__unrun |= 8u;
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_desc_set_grad(dropout_desc *d, dropout_grad mode)
{
   int err = dropout__desc_ok(d);
   if (err) return err;
   if (mode != DROPOUT_GRAD_OVERWRITE && mode != DROPOUT_GRAD_ACCUMULATE) return DROPOUT_ERR_GRAD;
   if (mode == DROPOUT_GRAD_ACCUMULATE && !dropout__op_takes_grad(d->dropout__op)) return DROPOUT_ERR_OP;
   d->dropout__grad = (int)mode;
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_desc_set_sigma(dropout_desc *d, double sigma)
{
   int err = dropout__desc_ok(d);
   if (err) return err;
   if (d->dropout__op != DROPOUT_OP_NOISE) return DROPOUT_ERR_OP;
   if (!DROPOUT__SIGMA_OK(sigma)) return DROPOUT_ERR_SIGMA;
   d->dropout__sigma = sigma;
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_desc_set_mask_bytes(dropout_desc *d, size_t bytes)
{
   int err = dropout__desc_ok(d);
   if (err) return err;
   d->dropout__mask_bytes = bytes;
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_desc_set_bias_len(dropout_desc *d, size_t bias_len)
{
   int err = dropout__desc_ok(d);
   if (err) return err;
   if (d->dropout__op != DROPOUT_OP_BIAS_DROPOUT_ADD) return DROPOUT_ERR_OP;
   if (bias_len == 0) return DROPOUT_ERR_BIAS_LEN;
   if (bias_len != d->dropout__dim[d->dropout__rank - 1]) {
      /* the default 1-D shape becomes [count / bias_len, bias_len] */
      if (d->dropout__rank != 1 || d->dropout__strided || d->dropout__broadcast || d->dropout__pstrided ||
          d->dropout__dim[0] % bias_len != 0)
         return DROPOUT_ERR_BIAS_LEN;
      d->dropout__rank = 2;
      d->dropout__dim[1] = bias_len;
      d->dropout__dim[0] /= bias_len;
   }
   d->dropout__bias_len = bias_len;
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_desc_set_device_coords(dropout_desc *d, const uint64_t *dev_seed, const uint64_t *dev_pos)
{
   int err = dropout__desc_ok(d);
   if (err) return err;
   if (!dev_seed != !dev_pos) return DROPOUT_ERR_NULL;   /* both, or neither (clears) */
   /* every GPU thread loads them as 64-bit words: one not 8-byte aligned is a misaligned
      address there, an error that ends the CUDA context, not just the call */
   if (((uintptr_t)dev_seed | (uintptr_t)dev_pos) & 7u) return DROPOUT_ERR_DEVICE_COORDS;
   d->dropout__dev_seed = dev_seed;
   d->dropout__dev_pos = dev_pos;
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_desc_positions(const dropout_desc *d, uint64_t *positions)
{
   size_t numel, np;
   int err = dropout__desc_ok(d);
   if (err) return err;
   if (!positions) return DROPOUT_ERR_NULL_RESULT;
   if (d->dropout__rank < 1 || d->dropout__rank > DROPOUT_MAX_RANK) return DROPOUT_ERR_RANK;
   if (d->dropout__broadcast >> d->dropout__rank) return DROPOUT_ERR_BROADCAST;
   err = dropout__desc_count(d, d->dropout__rank, &numel, &np);
   if (err) return err;
   *positions = (uint64_t)np;
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_shape_positions(int rank, const size_t *dims, unsigned broadcast, uint64_t *positions)
{
   size_t numel, np;
   int err;
   if (rank < 1 || rank > DROPOUT_MAX_RANK) return DROPOUT_ERR_RANK;
   if (!dims) return DROPOUT_ERR_NULL_DIMS;
   if (!positions) return DROPOUT_ERR_NULL_RESULT;
   if (broadcast >> rank) return DROPOUT_ERR_BROADCAST;
   err = dropout__shape_count(rank, dims, broadcast, &numel, &np);
   if (err) return err;
   *positions = (uint64_t)np;
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_desc_set_op(dropout_desc *d, dropout_op op)
{
   int err = dropout__desc_ok(d);
   if (err) return err;
   if (!dropout__op_ok((int)op)) return DROPOUT_ERR_OP;
   if (op == DROPOUT_OP_GAUSSIAN && d->dropout__plan.rule.threshold >> d->dropout__plan.rule.bits) return DROPOUT_ERR_P;
   if (d->dropout__grad == DROPOUT_GRAD_ACCUMULATE && !dropout__op_takes_grad((int)op)) return DROPOUT_ERR_OP;
   if (op != DROPOUT_OP_BIAS_DROPOUT_ADD && ((d->dropout__strided >> DROPOUT_OPERAND_RESIDUAL) & 1u))
      return DROPOUT_ERR_OP;   /* residual strides: the fused op's alone (clear them first) */
   /* between dropout draws and normals the plan's positions count the other kind: runs
      refuse it (DROPOUT_ERR_PLAN_UNITS) until dropout_desc_new_step or _set_plan gives d
      positions of the new op's kind, or set_op goes back */
   d->dropout__op = (int)op;
   return DROPOUT_OK;
}


DROPOUTDEF int dropout_desc_set_plan(dropout_desc *d, const dropout_plan *plan)
{
   int redrawn, hit_last, kind, err = dropout__desc_ok(d);
   if (err) return err;
   err = dropout__plan_check_kind(plan, dropout__op_normals(d->dropout__op));
   if (err) return err;
   if (d->dropout__op == DROPOUT_OP_GAUSSIAN && plan->rule.threshold >> plan->rule.bits) return DROPOUT_ERR_P;
   /* positions the descriptor drew (or, a copy, may not draw) stay so: a plan passed
      again (last step's, kept in a variable) would draw that mask again (under any rule:
      the same draws); the same mask on purpose is dropout_desc_replay. They are the
      armed plan's, kept through set_plans that do not arm (else a plan that meets them,
      then one that meets only the drawn positions, would arm the second), and the last
      drawn plan's, kept through arming (a plan set and never run, then the drawn one
      again); a plan over those is as spent as the run that drew them. */
   kind = (int)plan->units;
   hit_last = dropout__at_meets(&d->dropout__last, plan, kind);
   redrawn = hit_last || ((d->dropout__drawn || d->dropout__home != d) && dropout__at_meets(&d->dropout__armed, plan, kind));
   dropout__desc_put_plan(d, plan);
   if (!redrawn) dropout__desc_arm(d);
   else if (hit_last) {
      if (d->dropout__home == d && !d->dropout__drawn) {   /* an armed, undrawn plan: the record is the drawn one again */
         dropout__at_copy(&d->dropout__armed, &d->dropout__last);
      }
      d->dropout__drawn = 1;
   }
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_desc_new_step(dropout_desc *d, dropout_gen *g)
{
   dropout_plan p;
   uint64_t positions, first;
   int kind;
   int err = dropout_desc_positions(d, &positions);
   if (err) return err;
   /* a descriptor with position strides is a slice of a larger tensor: its step is the
      whole tensor's (dropout_gen_plan of its count), then dropout_plan_slice and _set_plan;
      reserving its own span would start every rank at the step's first position and
      leave the next step inside this one */
   if (d->dropout__pstrided) return DROPOUT_ERR_POSITION_STRIDES;
   err = dropout__gen_check(g);
   if (err) return err;
   kind = dropout__desc_kind(d);
   err = dropout__gen_first(g, kind, positions, &first);
   if (err) return err;
   p = d->dropout__plan;
   p.key = g->key;
   p.pos = first;
   p.count = positions;
   p.units = (dropout_units)kind;
   err = dropout__plan_check(&p);
   if (err) return err;
   dropout__desc_put_plan(d, &p);
   dropout__desc_arm(d);
   dropout__gen_take(g, kind, first, positions);
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_desc_replay(dropout_desc *d)
{
   int err = dropout__desc_ok(d);
   if (err) return err;
   dropout__desc_arm(d);
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_desc_move(dropout_desc *to, dropout_desc *from)
{
   int k, w, err = dropout__desc_ok(from);
   if (err) return err;
   if (!to) return DROPOUT_ERR_NULL_DESC;
   if (to == from) return DROPOUT_OK;
   /* field by field, as dropout_desc_init (no memcpy in freestanding builds) */
   to->dropout__magic = from->dropout__magic;
   to->dropout__op = from->dropout__op;
   to->dropout__dtype = from->dropout__dtype;
   to->dropout__rank = from->dropout__rank;
   to->dropout__grad = from->dropout__grad;
   to->dropout__broadcast = from->dropout__broadcast;
   to->dropout__strided = from->dropout__strided;
   to->dropout__pstrided = from->dropout__pstrided;
   to->dropout__unrun = from->dropout__unrun;
   dropout__desc_put_plan(to, &from->dropout__plan);
   for (k = 0; k < DROPOUT_MAX_RANK; ++k) {
      to->dropout__dim[k] = from->dropout__dim[k];
      to->dropout__pstride[k] = from->dropout__pstride[k];
      for (w = 0; w < 3; ++w) to->dropout__stride[w][k] = from->dropout__stride[w][k];
   }
   to->dropout__sigma = from->dropout__sigma;
   to->dropout__bias_len = from->dropout__bias_len;
   to->dropout__mask_bytes = from->dropout__mask_bytes;
   to->dropout__dev_seed = from->dropout__dev_seed;
   to->dropout__dev_pos = from->dropout__dev_pos;
   /* to draws only what from could (a stale copy moved back over the original cannot
      re-arm it); from draws nothing until its own new_step, set_plan or replay */
   to->dropout__home = from->dropout__home == from ? to : NULL;
   to->dropout__drawn = from->dropout__drawn;
   dropout__at_copy(&to->dropout__armed, &from->dropout__armed);
   dropout__at_copy(&to->dropout__last, &from->dropout__last);
   from->dropout__home = NULL;
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_desc_ran(dropout_desc *d)
{
   int err = dropout__desc_ok(d);
   if (err) return err;
   /* its strides were used: a shape set now resets them (to be set again: bits 32 ..). Stored
      only when it changes, so a backward's runs, which may share d across threads, only read d */
   if (d->dropout__unrun & 15u) d->dropout__unrun &= ~15u;
   if (dropout__op_of(d->dropout__op).step && !d->dropout__dev_pos) {
      d->dropout__drawn = 1;
      dropout__at_put(&d->dropout__last, &d->dropout__plan, (int)d->dropout__plan.units);
   }
   return DROPOUT_OK;
}

/* The sigma GAUSSIAN and NOISE apply, as the float the element functions take, and
   whether the op is the bit-for-bit copy (p = 0, sigma = 0); d checked. */
static void dropout__desc_sigma(const dropout_desc *d, float *sigma, int *copy)
{
   *sigma = 0.0f;
   *copy = 0;
   if (d->dropout__op == DROPOUT_OP_GAUSSIAN) {
      *copy = d->dropout__plan.rule.threshold == 0;
      *sigma = *copy ? 0.0f : dropout_gaussian_sigma(dropout_rule_p(&d->dropout__plan.rule));
   } else if (d->dropout__op == DROPOUT_OP_NOISE) {
      *copy = !(d->dropout__sigma > 0.0);
      *sigma = (float)d->dropout__sigma;
   }
}

/* Whether the reduced geometry is one contiguous, unbroadcast run of the operands the op
   uses (mask index k = element k = offset k in each). */
static int dropout__job_contiguous(const dropout_job *j)
{
   size_t acc = 1;
   int d, w;
   if (j->numel != (size_t)j->positions) return 0;
   if (j->numel == 0) return 1;
   for (d = j->rank - 1; d >= 0; --d) {
      if (j->dim[d] == 1) continue;
      if (j->mask_stride[d] != (uint64_t)acc) return 0;
      for (w = 0; w < 3; ++w) {
         int used = w == DROPOUT_OPERAND_RESIDUAL ? j->op_class == DROPOUT_CLASS_FUSED : j->op_class != DROPOUT_CLASS_MASK;
         if (used && j->stride[w][d] != (ptrdiff_t)acc) return 0;
      }
      acc *= j->dim[d];
   }
   return 1;
}

/* dropout_lower; with draws = 0 without the last check (whether the plan may draw), for
   a backend that has checks of its own to make first (dropout_opencl.h), which also knows
   its mask buffer's size (mask_sized: DROPOUT_ERR_MASK_BYTES asks no stated size). */
static int dropout__lower(const dropout_desc *d, const dropout_tensors *t, dropout_job *j, int draws, int mask_sized)
{
   const dropout_plan *plan;
   dropout__op_row row;
   dropout__fpu f;
   size_t numel = 0, positions = 0;
   int err = dropout__desc_args_check(d, t, mask_sized), w, k, rank;
   if (err) return err;
   if (!j) return DROPOUT_ERR_NULL_RESULT;
   if (draws && (err = dropout__desc_may_draw(d)) != DROPOUT_OK) return err;   /* the last check */
   plan = &d->dropout__plan;
   row = dropout__op_of(d->dropout__op);
   rank = d->dropout__rank;
   dropout__fpu_enter(&f);   /* the variant constants are doubles: computed in the mode their bits need */
   j->op = (dropout_op)d->dropout__op;
   j->op_class = (dropout_op_class)row.cls;
   j->dtype = (dropout_dtype)d->dropout__dtype;
   j->elem_size = dropout__esize[d->dropout__dtype - 1];
   j->accumulate = d->dropout__grad == DROPOUT_GRAD_ACCUMULATE;
   j->rule = plan->rule;
   if (row.cls == DROPOUT_CLASS_ALPHA) {
      j->alpha = dropout_alpha_rule_of(plan->rule);
   } else {                 /* unused: set, so that copies of the job read no garbage */
      j->alpha.base = plan->rule;
      j->alpha.a = j->alpha.c = j->alpha.drop = 0.0;
      j->alpha.a_f32 = j->alpha.c_f32 = j->alpha.drop_f32 = 0.0f;
   }
   dropout__desc_sigma(d, &j->sigma, &j->copy);
   dropout__fpu_leave(&f);
   j->seed = plan->key.seed;
   j->stream = plan->key.stream;
   j->pos = plan->pos;
   j->positions = plan->count;
   j->dev_seed = d->dropout__dev_seed;
   j->dev_pos = d->dropout__dev_pos;
   (void)dropout__desc_count(d, rank, &numel, &positions);
   j->numel = numel;
   /* the operands' strides: out, in, residual as the descriptor has them (contiguous
      unless set); an operand the op does not use (out and in of the mask-only ops, the
      residual outside FUSED), whatever was set for it, and the bias outside FUSED are
      contiguous, so that they never stop a merge; FUSED's bias steps along the last dim */
   for (w = 0; w < 3; ++w) {
      if (w == DROPOUT_OPERAND_RESIDUAL ? row.cls == DROPOUT_CLASS_FUSED : row.in)
         dropout__desc_strides(d, w, j->stride[w]);
      else
         dropout__contiguous(rank, d->dropout__dim, j->stride[w]);
   }
   if (row.cls == DROPOUT_CLASS_FUSED)
      for (k = 0; k < DROPOUT_MAX_RANK; ++k) j->stride[DROPOUT_JOB_BIAS][k] = k == rank - 1 ? 1 : 0;
   else
      dropout__contiguous(rank, d->dropout__dim, j->stride[DROPOUT_JOB_BIAS]);
   dropout__geometry(rank, d->dropout__dim, d->dropout__broadcast, d->dropout__pstrided ? d->dropout__pstride : NULL,
                     &j->rank, j->dim, j->mask_stride, j->stride);
   j->bias_len = row.cls == DROPOUT_CLASS_FUSED ? d->dropout__dim[rank - 1] : 0;
   j->out = t->out;
   j->in = t->in;
   j->residual = t->residual;
   j->bias = t->bias;
   j->mask_out = row.mask_out ? t->mask : NULL;
   j->mask_in = row.mask_in ? t->mask : NULL;
   j->contiguous = dropout__job_contiguous(j);
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_lower(const dropout_desc *d, const dropout_tensors *t, dropout_job *j)
{
   return dropout__lower(d, t, j, 1, 0);
}

DROPOUTDEF int dropout_run(dropout_desc *d, const dropout_tensors *t)
{
   dropout_job j;
   dropout__fpu f;
   int err = dropout_lower(d, t, &j);
   if (err) return err;
   if (j.dev_seed || j.dev_pos) return DROPOUT_ERR_DEVICE_COORDS;   /* device memory: not the CPU's */
   (void)dropout_desc_ran(d);   /* before the work: nothing can fail now */
   dropout__fpu_enter(&f);
   dropout__job_run(&j);
   dropout__fpu_leave(&f);
   return DROPOUT_OK;
}

/* ---- the fused op's short calls --------------------------------------------------------- */

static int dropout__short_bda(int dtype, const dropout_plan *plan, size_t n, size_t bias_len, void *y, uint8_t *mask,
                              const void *x, const void *bias, const void *residual)
{
   dropout_desc d;
   dropout_tensors t;
   int err = dropout__plan_check_kind(plan, DROPOUT__PLAN_DRAWS);
   if (!err) err = dropout__n_check(plan, n, dropout__esize[dtype]);
   if (err) return err;
   if (bias_len == 0 || plan->count % bias_len != 0) return DROPOUT_ERR_BIAS_LEN;
   err = dropout_desc_init(&d, DROPOUT_OP_BIAS_DROPOUT_ADD, (dropout_dtype)(dtype + 1), plan);
   if (!err) err = dropout_desc_set_bias_len(&d, bias_len);
   if (err) return err;
   t.out = y; t.mask = mask; t.in = x; t.bias = bias; t.residual = residual;
   return dropout_run(&d, &t);
}

static int dropout__forward_bda(int dtype, dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, size_t bias_len,
                                void *y, uint8_t *mask, const void *x, const void *bias, const void *residual)
{
   dropout_plan p;
   int err = dropout__step_plan(g, rule, n, dropout__esize[dtype], &p);
   if (!err) err = dropout__short_bda(dtype, &p, n, bias_len, y, mask, x, bias, residual);
   if (err) return err;
   dropout__gen_take(g, p.rule.bits, p.pos, p.count);
   if (plan) *plan = p;
   return DROPOUT_OK;
}

/* dropout_bias_dropout_add_<sfx> and dropout_bias_dropout_add_replay_<sfx> of every dtype,
   from its row of DROPOUT__DTYPES (prototypes in the declarations). */
#define DROPOUT__BDA_CALLS(NAME, value, sfx, T, size, CUDA_T, K)                                           \
   DROPOUTDEF int dropout_bias_dropout_add_##sfx(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan,  \
                                                 size_t n, size_t bias_len, T *y, uint8_t *mask, const T *x,   \
                                                 const T *bias, const T *residual)                             \
   {                                                                                                           \
      return dropout__forward_bda(DROPOUT__##NAME, g, rule, plan, n, bias_len, y, mask, x, bias, residual);    \
   }                                                                                                           \
   DROPOUTDEF int dropout_bias_dropout_add_replay_##sfx(const dropout_plan *plan, size_t n, size_t bias_len, T *y, \
                                                        uint8_t *mask, const T *x, const T *bias,               \
                                                        const T *residual)                                      \
   {                                                                                                           \
      return dropout__short_bda(DROPOUT__##NAME, plan, n, bias_len, y, mask, x, bias, residual);               \
   }
DROPOUT__DTYPES(DROPOUT__BDA_CALLS)
#undef DROPOUT__BDA_CALLS

#ifdef __cplusplus
}
#endif

#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#pragma GCC diagnostic pop
#endif
#if defined(DROPOUT__FLOAT_CONTROL)
#pragma float_control(pop)
#endif
#endif /* DROPOUT_IMPLEMENTATION_DONE */
#endif /* DROPOUT_IMPLEMENTATION */

/* DROPOUT_V0_API: the 0.1.0 interface, deprecated, lives in dropout_v0.h beside this file
   (on the calls above, after them so that the 1.0 definitions keep their names). */
#if defined(DROPOUT_V0_API)
#if defined(__has_include)
#if !__has_include("dropout_v0.h")
#error "DROPOUT_V0_API: the 0.1.0 calls live in dropout_v0.h; put it beside dropout.h (or move the calls to 1.0: CHANGELOG.md)"
#endif
#endif
#if defined(DROPOUT__FLOAT_CONTROL)   /* clang's precise mode (at the top), for the 0.1 calls too */
#pragma float_control(precise, on, push)
#endif
#include "dropout_v0.h"
#if defined(DROPOUT__FLOAT_CONTROL)
#pragma float_control(pop)
#endif
#endif

/*
------------------------------------------------------------------------------
This software is available under 2 licenses -- choose whichever you prefer.
------------------------------------------------------------------------------
ALTERNATIVE A - MIT License
Copyright (c) 2026 the dropout.h authors
Permission is hereby granted, free of charge, to any person obtaining a copy of
this software and associated documentation files (the "Software"), to deal in
the Software without restriction, including without limitation the rights to
use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies
of the Software, and to permit persons to whom the Software is furnished to do
so, subject to the following conditions:
The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.
THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
------------------------------------------------------------------------------
ALTERNATIVE B - Public Domain (www.unlicense.org)
This is free and unencumbered software released into the public domain.
Anyone is free to copy, modify, publish, use, compile, sell, or distribute this
software, either in source code form or as a compiled binary, for any purpose,
commercial or non-commercial, and by any means.
In jurisdictions that recognize copyright laws, the author or authors of this
software dedicate any and all copyright interest in the software to the public
domain. We make this dedication for the benefit of the public at large and to
the detriment of our heirs and successors. We intend this dedication to be an
overt act of relinquishment in perpetuity of all present and future rights to
this software under copyright law.
THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN
ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION
WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
------------------------------------------------------------------------------
*/
