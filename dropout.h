/* dropout.h - v0.1.0 - reproducible dropout for C/C++/CUDA - public domain or MIT

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
         dropout_gen g = dropout_gen_make(1234, 0);    // seed, stream
         uint64_t off;
         dropout_gen_next(&g, n, &off);                 // reserve n stream positions
         dropout_forward_f32(y, NULL, x, n, 0.1, 8, g.seed, g.stream, off);
         ...
         // backward: rebuild the same mask, no mask memory needed
         dropout_backward_f32(dx, dy, n, 0.1, 8, g.seed, g.stream, off);

      Every function returns DROPOUT_OK (0) or a negative code; dropout_strerror(code)
      says what was wrong. On error nothing is written.

   OPTIONS (#define before including, in the implementation file at least)
      DROPOUT_IMPLEMENTATION  emit the function bodies (one translation unit only)
      DROPOUT_STATIC          make every function static (private to one file)
      DROPOUT_ASSERT(x)       your own assert for internal invariants (default: assert.h,
                              or nothing where there is no assert.h: -ffreestanding,
                              wasm32 -nostdlib); argument validation does not depend on it
      DROPOUT_NO_SIMD         use only the scalar reference paths (bit-identical anyway)
      DROPOUT_STREAM_STORE_BYTES  x86: outputs of at least this many bytes (default 16 MiB,
                              about where a last-level cache stops keeping y for the
                              next layer) are written with streaming stores, which skip
                              the cache; 0 = always, SIZE_MAX = never. Same bits.

   SIMD
      The vector path is chosen when the implementation is compiled, from the compiler's
      own target macros: __AVX512F__ with __AVX512BW__, else __AVX2__, else SSE2
      (__SSE2__ / x86-64; SSE4.1 blends with __SSE4_1__), else AArch64 __ARM_NEON. So
      -march=native or -mavx2 picks AVX2. No cpuid, no function pointers, no global state:
      one binary runs one path, and every path gives the same bits as the reference.
      Calls shorter than 64 elements (32 words for the fills) take the reference path.

   THE CONTRACT (docs/SPEC.md has it to the bit)
      word w of stream s under seed k = philox4x32_10(ctr = {w/4 lo, w/4 hi, s lo, s hi},
      key = {k lo, k hi})[w % 4], which is cuRAND's curand_init(k, s, w) + curand().
      Element j of a call with offset o draws position o + j: a 32-, 16- or 8-bit slice of
      that stream. Keep iff draw >= round(p * 2^bits); kept y = x * (1/q), q the realised
      keep probability; dropped y = +0. Masks are bit-packed, LSB first, 1 = kept.

   DETERMINISM
      Results are defined as specific IEEE-754 operations in round-to-nearest-even: one
      multiply per kept element (float for f32/f16/bf16, double for f64), with the f16
      and bf16 conversions done by this header's own integer code. Plain dropout has no
      multiply-add to contract; the fused op uses an explicit, exactly emulated fma; the
      variants are written so that every product that meets an add is exact, and use the
      header's own log and sin/cos. No libm call anywhere, so -O3, -march=native and FMA
      hardware change nothing. Do not build with -ffast-math (it may flush denormals to
      zero and reassociate); excess precision (FLT_EVAL_METHOD != 0) is refused at
      compile time (see PORTABILITY).

   PORTABILITY AND FREESTANDING USE
      C99 or later, or C++11 (C89 stops at an #error). Needs FLT_EVAL_METHOD == 0, i.e.
      float and double operations rounded to their own precision: 32-bit x86 needs
      -msse2 -mfpmath=sse (the x87 FPU rounds a double product twice), s390x GNU mode
      or -fexcess-precision=fast; other settings stop at an #error that says so.
      Tested to give the same bits (tests/suite_xarch.sh) on x86-64 (SSE2, SSE4.1, AVX2,
      AVX-512, none), i386 SSE2, aarch64 (NEON), armhf, s390x (big-endian), riscv64,
      wasm32 and a Cortex-M4 (soft float and FPv4-SP), NaN payloads of the variants and
      the fused op aside (docs/SPEC.md).
      Freestanding (no libc: microcontrollers, wasm32 -nostdlib, kernels): the header
      includes only stddef.h and stdint.h (and assert.h where it exists, see
      DROPOUT_ASSERT), calls no libc or libm function and allocates nothing. Provide
      nothing beyond what GCC and Clang expect of any freestanding target: their runtime
      library (libgcc / compiler-rt: soft-float and 64-bit helpers where the CPU lacks
      them) and memset/memcpy, which a compiler may call for plain C loops (seen: clang
      -Os on wasm32; -O2 there and arm-none-eabi-gcc -Os need none) and which the x86
      and NEON paths call. On a Cortex-M4 (-Os) forward + backward f32 take about 2 KB of
      flash plus 2.5 KB (FPU) to 3.1 KB (soft float) of libgcc, mostly soft double.

   THREADS AND CHUNKS
      Functions are reentrant. To split a tensor over threads or machines, give each
      chunk its own offset (offset + chunk start) and output slice: the result equals
      one call. Mask bytes hold 8 elements, so chunks that write masks start at
      multiples of 8 elements.

   LICENSE: see the end of the file.
*/

#ifndef DROPOUT_H_INCLUDED
#define DROPOUT_H_INCLUDED

/* Said here rather than in 98 errors from `inline` on: the header is C99 (or C++11). */
#if !defined(__cplusplus) && !defined(_MSC_VER) && (!defined(__STDC_VERSION__) || __STDC_VERSION__ < 199901L)
#error "dropout.h needs C99 or later (or C++11): compile with -std=c99 (or -std=c11, gnu99, ...)"
#endif
/* Every result is specified as float and double operations, each rounded once. Where the
   compiler evaluates them wider (FLT_EVAL_METHOD 2: x87, plain gcc -m32, where a double
   product is rounded twice; FLT_EVAL_METHOD 1: s390x in strict ISO mode, float in double)
   the bits drift from every other CPU's (tests/suite_xarch.sh saw both), so refuse. */
#if defined(__FLT_EVAL_METHOD__) && !defined(__CUDA_ARCH__) && \
    !(__FLT_EVAL_METHOD__ == 0 || __FLT_EVAL_METHOD__ == 16 || __FLT_EVAL_METHOD__ == 32)
#error "dropout.h needs FLT_EVAL_METHOD == 0: on 32-bit x86 compile with -msse2 -mfpmath=sse (x87 rounds twice); on s390x with -std=gnu99/gnu11 or -fexcess-precision=fast"
#endif

#include <stddef.h>   /* both freestanding headers: no libc needed */
#include <stdint.h>

#define DROPOUT_VERSION_MAJOR 0
#define DROPOUT_VERSION_MINOR 1
#define DROPOUT_VERSION_PATCH 0
#define DROPOUT_VERSION_STRING "0.1.0"

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
#else
#define DROPOUT_HD static inline
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes. */
enum {
   DROPOUT_OK = 0,
   DROPOUT_ERR_P = -1,      /* p is NaN or outside [0, 1] */
   DROPOUT_ERR_NULL = -2,   /* a required pointer is NULL while n > 0 */
   DROPOUT_ERR_BITS = -3,   /* bits is not 8, 16 or 32 */
   DROPOUT_ERR_RANGE = -4,  /* offset + n runs past the stream's 2^64 positions */
   DROPOUT_ERR_ARG = -5,    /* another argument is out of its domain */
   /* dropout_cuda.cuh: a failed CUDA call returns DROPOUT_ERR_CUDA_BASE - cudaError_t,
      so the CUDA error travels in the code itself (no global state). */
   DROPOUT_ERR_CUDA_BASE = -1000
};

/* ------------------------------------------------------------------------------------
   Inline building blocks (host and device). Usable in your own kernels; the library
   itself is built from exactly these.
   ------------------------------------------------------------------------------------ */

/* The realised dropout rule for (p, bits); see docs/SPEC.md section 3. */
typedef struct dropout_rule {
   uint64_t threshold;  /* t = floor(p * 2^bits + 1/2), in [0, 2^bits]; keep iff draw >= t */
   double scale_f64;    /* 1 / (1 - t / 2^bits); 0 when t = 2^bits (everything dropped) */
   float scale_f32;     /* scale_f64 rounded once to float */
   int bits;            /* 8, 16 or 32 */
} dropout_rule;

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
   union { float f; uint32_t u; } v;
   if (x >= x) return x * scale;   /* not NaN (>=, not ==: -Wfloat-equal stays quiet) */
   v.f = x;
   v.u |= 0x00400000u;
   return v.f;
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
   return keep ? dropout__scale_f32(x, r.scale_f32) : 0.0f;
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

/* ------------------------------------------------------------------------------------
   The library API. Arguments: outputs first, then inputs, n, the rule (p, bits), then
   the stream coordinates (seed, stream, offset). y may equal x (in place); otherwise the
   buffers must not overlap. mask may be NULL where marked optional.
   ------------------------------------------------------------------------------------ */

/* A checkpointable generator: plain integers, advance by n per call. */
typedef struct dropout_gen {
   uint64_t seed;
   uint64_t stream;
   uint64_t offset;   /* next unused stream position */
} dropout_gen;

DROPOUTDEF dropout_gen dropout_gen_make(uint64_t seed, uint64_t stream);
/* Reserve n positions: *offset receives the first, g->offset moves past the last.
   DROPOUT_ERR_RANGE when the generator cannot represent the next offset. */
DROPOUTDEF int dropout_gen_next(dropout_gen *g, size_t n, uint64_t *offset);

DROPOUTDEF const char *dropout_strerror(int code);

/* Philox4x32-10 of one counter, exactly as Random123's philox4x32(ctr, key). */
DROPOUTDEF void dropout_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

/* The raw stream: word `word` of stream `stream` under `seed`. */
DROPOUTDEF uint32_t dropout_stream_u32(uint64_t seed, uint64_t stream, uint64_t word);
/* out[i] = word (word + i), i < n. */
DROPOUTDEF int dropout_fill_u32(uint32_t *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word);
/* out[i] = (word(word + i) >> 8) * 2^-24: exact, in [0, 1). */
DROPOUTDEF int dropout_fill_uniform_f32(float *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word);
/* out[i] = ((w(2(q)+1) << 32 | w(2q)) >> 11) * 2^-53 with q = index + i: exact, in [0, 1).
   `index` counts doubles (two words each), so index + n must not pass 2^63. */
DROPOUTDEF int dropout_fill_uniform_f64(double *out, size_t n, uint64_t seed, uint64_t stream, uint64_t index);

/* Forward. mask (optional): ceil(n/8) bytes, bit j%8 of byte j/8 = element j kept;
   bits of the last byte past n are written as 0. */
DROPOUTDEF int dropout_forward_f32(float *y, uint8_t *mask, const float *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_forward_f64(double *y, uint8_t *mask, const double *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_forward_f16(uint16_t *y, uint8_t *mask, const uint16_t *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_forward_bf16(uint16_t *y, uint8_t *mask, const uint16_t *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);

/* Backward that rebuilds the mask from (seed, stream, offset): no mask memory. */
DROPOUTDEF int dropout_backward_f32(float *dx, const float *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_backward_f64(double *dx, const double *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_backward_f16(uint16_t *dx, const uint16_t *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_backward_bf16(uint16_t *dx, const uint16_t *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);

/* The mask alone. */
DROPOUTDEF int dropout_mask(uint8_t *mask, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);

/* y = x where the stored mask keeps, scaled as forward; 0 elsewhere. This is also the
   backward from a stored mask (x = dy). (p, bits) give the scale and must be those of the
   forward that made the mask. */
DROPOUTDEF int dropout_apply_mask_f32(float *y, const float *x, const uint8_t *mask, size_t n, double p, int bits);
DROPOUTDEF int dropout_apply_mask_f64(double *y, const double *x, const uint8_t *mask, size_t n, double p, int bits);
DROPOUTDEF int dropout_apply_mask_f16(uint16_t *y, const uint16_t *x, const uint8_t *mask, size_t n, double p, int bits);
DROPOUTDEF int dropout_apply_mask_bf16(uint16_t *y, const uint16_t *x, const uint8_t *mask, size_t n, double p, int bits);

/* Backward from a stored mask: the same operation as apply_mask, named for the reader. */
DROPOUTDEF int dropout_backward_mask_f32(float *dx, const float *dy, const uint8_t *mask, size_t n, double p, int bits);
DROPOUTDEF int dropout_backward_mask_f64(double *dx, const double *dy, const uint8_t *mask, size_t n, double p, int bits);
DROPOUTDEF int dropout_backward_mask_f16(uint16_t *dx, const uint16_t *dy, const uint8_t *mask, size_t n, double p, int bits);
DROPOUTDEF int dropout_backward_mask_bf16(uint16_t *dx, const uint16_t *dy, const uint8_t *mask, size_t n, double p, int bits);

/* Validation shared with dropout_cuda.cuh: DROPOUT_OK or the code a call would return. */
DROPOUTDEF int dropout_check_args(double p, int bits, size_t n, uint64_t offset);

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
   The CPU uses dropout_fmaf below (exact, no libm); the GPU uses __fmaf_rn: equal. */

/* fmaf(a, b, c) in software, correctly rounded (nearest even). a * b is exact in double
   (24 + 24 <= 53 bits); the double sum p + c is rounded to odd with the TwoSum error term;
   round-to-odd in 53 bits then to nearest in 24 bits is correct because 53 >= 24 + 2. */
DROPOUT_HD float dropout_fmaf(float a, float b, float c)
{
#if defined(__CUDA_ARCH__)
   return __fmaf_rn(a, b, c);
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
   float h = __fadd_rn(x, bias);                 /* __fadd_rn: never contracted into an fma */
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

/* y, x, residual: rows * cols elements; bias: cols; mask: optional, ceil(rows*cols/8)
   bytes as forward's. y may equal x or residual. DROPOUT_ERR_ARG if rows * cols
   overflows size_t. */
DROPOUTDEF int dropout_bias_dropout_add_f32(float *y, uint8_t *mask, const float *x, const float *bias, const float *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_bias_dropout_add_f64(double *y, uint8_t *mask, const double *x, const double *bias, const double *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_bias_dropout_add_f16(uint16_t *y, uint8_t *mask, const uint16_t *x, const uint16_t *bias, const uint16_t *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_bias_dropout_add_bf16(uint16_t *y, uint8_t *mask, const uint16_t *x, const uint16_t *bias, const uint16_t *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
/* ---- END fused bias-dropout-residual (declarations) ----------------------------------- */

/* ====================================================================================
   VARIANTS (docs/SPEC.md section 11): broadcast masks (channel / spatial / locked
   dropout, drop path), alpha dropout (SELU), Gaussian dropout and Gaussian noise.
   Same conventions as the core: outputs first, validation before any write, y may be x.
   ==================================================================================== */

#define DROPOUT_MAX_RANK 8

/* A contiguous row-major tensor (the last dimension varies fastest) and the dimensions
   that share one keep decision: bit d of `broadcast` set = dimension d is broadcast.
   The mask has the tensor's shape with broadcast dimensions set to 1; its element m
   (row-major index in that shape) draws stream position offset + m. So a channel mask
   for (N, C, H, W) is broadcast = 0xC (H, W) and uses N*C positions. A zero dimension
   makes an empty tensor (nothing is written to y; the mask still has its own shape). */
typedef struct dropout_shape {
   int rank;                       /* 1 .. DROPOUT_MAX_RANK */
   size_t dim[DROPOUT_MAX_RANK];
   unsigned broadcast;
} dropout_shape;

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

/* (float)(a * b + c) with a*b exact in double: two roundings (double, then float). */
DROPOUT_HD float dropout__madf(float a, float b, double c)
{
   return (float)((double)a * (double)b + c);
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

/* sqrt(x) for x >= 0 in double, no libm: a bit-level first guess (relative error < 6.1%)
   and six Newton steps y = 0.5 * (y + x / y) (a division, an addition and an exact
   halving: nothing to contract). Within 1 ulp of the true root (tested); 0 for x <= 0
   or NaN, x for +Inf. */
DROPOUT_HD double dropout__sqrt_f64(double x)
{
   double y, scale = 1.0;
   int i;
   if (!(x > 0.0)) return 0.0;
   if (x > 1.7976931348623157e308) return x;
   if (x < 2.2250738585072014e-308) { x *= 3.2451855365842673e32; scale = 5.5511151231257827e-17; } /* 2^108, 2^-54 */
   y = dropout__f64_from_bits((dropout__f64_bits(x) >> 1) + ((uint64_t)0x3FF0000000000000u >> 1));
   for (i = 0; i < 6; ++i) y = 0.5 * (y + x / y);
   return y * scale;
}

/* -- Alpha dropout ------------------------------------------------------------------ */

#define DROPOUT_SELU_ALPHA_PRIME (-1.7580993408473766)   /* -scale * alpha of SELU */

/* Dropped elements take alpha'; then y = (v + c) * a, v = kept ? x : alpha', with the
   realised P = t / 2^bits: a = ((1-P)(1 + P alpha'^2))^-1/2, c = -alpha' P (so that
   a*c is the affine shift b = -a alpha' P). Add-then-multiply cannot be contracted. */
typedef struct dropout_alpha_rule {
   dropout_rule base;      /* threshold and bits; base.scale_* unused */
   double a, c, drop;      /* f64: y = (x + c) * a; drop = (alpha' + c) * a */
   float a_f32, c_f32, drop_f32;
} dropout_alpha_rule;

/* Call only with a valid p and bits (dropout_check_args). */
DROPOUT_HD dropout_alpha_rule dropout_alpha_rule_make(double p, int bits)
{
   dropout_alpha_rule r;
   double two_b, P, q, a2, s, v;
   r.base = dropout_rule_make(p, bits);
   two_b = (double)((uint64_t)1 << bits);
   P = (double)r.base.threshold / two_b;                    /* exact, <= 32 bits */
   q = 1.0 - P;                                             /* exact */
   a2 = DROPOUT_SELU_ALPHA_PRIME * DROPOUT_SELU_ALPHA_PRIME;
   s = 1.0 + dropout__mul_split(P, a2);
   v = q * s;
   r.a = v > 0.0 ? 1.0 / dropout__sqrt_f64(v) : 0.0;       /* v = 0: all dropped */
   r.c = dropout__mul_split(P, -DROPOUT_SELU_ALPHA_PRIME);
   r.drop = (DROPOUT_SELU_ALPHA_PRIME + r.c) * r.a;
   r.a_f32 = (float)r.a;
   r.c_f32 = (float)r.c;
   r.drop_f32 = ((float)DROPOUT_SELU_ALPHA_PRIME + r.c_f32) * r.a_f32;
   return r;
}

/* One element forward: t = 0 copies x; t = 2^bits gives +0; else (v + c) * a. */
DROPOUT_HD float dropout_alpha_apply_f32(float x, int keep, dropout_alpha_rule r)
{
   if (r.base.threshold == 0) return x;
   if (r.base.threshold == (uint64_t)1 << r.base.bits) return 0.0f;   /* all dropped */
   return keep ? (x + r.c_f32) * r.a_f32 : r.drop_f32;
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
   return keep ? dy * r.a_f32 : 0.0f;
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

#define DROPOUT__LN2 0.6931471805599453
#define DROPOUT__SQRT2 1.4142135623730951
#define DROPOUT__PI_2_30 1.4629180792671596e-09    /* (pi / 2) * 2^-30 */

/* ln((w0 + 1) 2^-32) in double, <= 0. */
DROPOUT_HD double dropout__log_u(uint32_t w0)
{
   uint64_t m = (uint64_t)w0 + 1u;              /* 1 .. 2^32 */
   int e = 0;
   double f, s, lnf, ln2_hi, ln2_lo, E;
   float sf, z, h;
   while ((m >> (e + 1)) != 0) ++e;              /* e = floor(log2 m), 0 .. 32 */
   f = (double)m * dropout__f64_from_bits((uint64_t)(1023 - e) << 52);   /* [1, 2), exact */
   if (f > DROPOUT__SQRT2) { f *= 0.5; ++e; }   /* [sqrt(1/2), sqrt 2] */
   s = (f - 1.0) / (f + 1.0);                    /* f - 1 and f + 1 exact */
   sf = (float)s;
   z = dropout__madf(sf, sf, 0.0);
   h = (float)(1.0 / 11.0);
   h = dropout__madf(h, z, 1.0 / 9.0);
   h = dropout__madf(h, z, 1.0 / 7.0);
   h = dropout__madf(h, z, 1.0 / 5.0);
   h = dropout__madf(h, z, 1.0 / 3.0);
   h = dropout__madf(h, z, 1.0);
   lnf = 2.0 * ((double)sf * (double)h);          /* exact */
   E = (double)(e - 32);                          /* -32 .. 0 */
   ln2_hi = dropout__trunc21(DROPOUT__LN2);       /* E * piece: exact */
   ln2_lo = DROPOUT__LN2 - ln2_hi;                /* 32 bits */
   return (E * ln2_hi + lnf) + E * ln2_lo;
}

/* sin and cos of x in [0, pi/4] from its square z, Taylor to x^9 and x^10. */
DROPOUT_HD float dropout__sin_poly(float x, float z)
{
   float h = (float)(1.0 / 362880.0);
   h = dropout__madf(h, z, -1.0 / 5040.0);
   h = dropout__madf(h, z, 1.0 / 120.0);
   h = dropout__madf(h, z, -1.0 / 6.0);
   h = dropout__madf(h, z, 1.0);
   return dropout__madf(x, h, 0.0);
}

DROPOUT_HD float dropout__cos_poly(float z)
{
   float h = (float)(-1.0 / 3628800.0);
   h = dropout__madf(h, z, 1.0 / 40320.0);
   h = dropout__madf(h, z, -1.0 / 720.0);
   h = dropout__madf(h, z, 1.0 / 24.0);
   h = dropout__madf(h, z, -0.5);
   return dropout__madf(h, z, 1.0);
}

/* The normal of a word pair: odd = 0 gives r cos(angle), odd = 1 gives r sin(angle). */
DROPOUT_HD float dropout_normal_from_words(uint32_t w0, uint32_t w1, int odd)
{
   unsigned quadrant = w1 >> 30;
   uint32_t rem = w1 & 0x3FFFFFFFu, g;
   int swap = rem > 0x20000000u;                  /* past pi/4: use the complement */
   float x, z, sn, cs, s_t, c_t, trig, r;
   g = swap ? 0x40000000u - rem : rem;            /* 0 .. 2^29 */
   x = (float)((double)g * DROPOUT__PI_2_30);
   z = dropout__madf(x, x, 0.0);
   sn = dropout__sin_poly(x, z);
   cs = dropout__cos_poly(z);
   s_t = swap ? cs : sn;                          /* sin and cos of the angle in the quadrant */
   c_t = swap ? sn : cs;
   if (odd) trig = quadrant == 0 ? s_t : quadrant == 1 ? c_t : quadrant == 2 ? -s_t : -c_t;
   else     trig = quadrant == 0 ? c_t : quadrant == 1 ? -s_t : quadrant == 2 ? -c_t : s_t;
   r = (float)dropout__sqrt_f64(-2.0 * dropout__log_u(w0));
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
   return dropout__madf(sigma_f32, z, (double)x);
}

DROPOUT_HD double dropout_noise_add_f64(double x, float z, float sigma_f32)
{
   return x + (double)sigma_f32 * (double)z;
}

/* -- API ------------------------------------------------------------------------------ */

/* Validate a shape: DROPOUT_ERR_NULL, DROPOUT_ERR_ARG (rank outside 1..8, broadcast bits
   at or past rank, element or mask counts that overflow size_t) or DROPOUT_OK, with the
   tensor's element count and the positions a call uses (both optional). */
DROPOUTDEF int dropout_shape_sizes(const dropout_shape *shape, size_t *numel, size_t *positions);
DROPOUTDEF int dropout_bcast_make(dropout_bcast *b, const dropout_shape *shape);

/* Broadcast dropout: the core keep rule on the mask positions, scaled as the core.
   mask (optional): ceil(positions / 8) bytes, the mask in its own shape (== dropout_mask
   of `positions` elements). No broadcast bits gives exactly dropout_forward_*. */
DROPOUTDEF int dropout_bcast_forward_f32(float *y, uint8_t *mask, const float *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_bcast_forward_f64(double *y, uint8_t *mask, const double *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_bcast_forward_f16(uint16_t *y, uint8_t *mask, const uint16_t *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_bcast_forward_bf16(uint16_t *y, uint8_t *mask, const uint16_t *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_bcast_backward_f32(float *dx, const float *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_bcast_backward_f64(double *dx, const double *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_bcast_backward_f16(uint16_t *dx, const uint16_t *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_bcast_backward_bf16(uint16_t *dx, const uint16_t *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);

/* Alpha dropout (broadcast = 0) and feature alpha dropout (broadcast the spatial dims). */
DROPOUTDEF int dropout_alpha_forward_f32(float *y, uint8_t *mask, const float *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_alpha_forward_f64(double *y, uint8_t *mask, const double *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_alpha_forward_f16(uint16_t *y, uint8_t *mask, const uint16_t *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_alpha_forward_bf16(uint16_t *y, uint8_t *mask, const uint16_t *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_alpha_backward_f32(float *dx, const float *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_alpha_backward_f64(double *dx, const double *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_alpha_backward_f16(uint16_t *dx, const uint16_t *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_alpha_backward_bf16(uint16_t *dx, const uint16_t *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);

/* out[i] = normal number offset + i (float). A call uses n positions. */
DROPOUTDEF int dropout_fill_normal_f32(float *out, size_t n, uint64_t seed, uint64_t stream, uint64_t offset);

/* Gaussian dropout, p in [0, 1): y = x * m_i (backward: dx = dy * m_i, same noise).
   p = 0 copies x. f16/bf16 compute in float; f64 multiplies by (double)m_i. */
DROPOUTDEF int dropout_gaussian_forward_f32(float *y, const float *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_gaussian_forward_f64(double *y, const double *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_gaussian_forward_f16(uint16_t *y, const uint16_t *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_gaussian_forward_bf16(uint16_t *y, const uint16_t *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_gaussian_backward_f32(float *dx, const float *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_gaussian_backward_f64(double *dx, const double *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_gaussian_backward_f16(uint16_t *dx, const uint16_t *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_gaussian_backward_bf16(uint16_t *dx, const uint16_t *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset);

/* Gaussian noise: y = x + sigma_f * z_i, sigma finite and >= 0 (else DROPOUT_ERR_ARG);
   sigma = 0 copies x. The gradient is the identity (dx = dy): no backward function. */
DROPOUTDEF int dropout_noise_forward_f32(float *y, const float *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_noise_forward_f64(double *y, const double *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_noise_forward_f16(uint16_t *y, const uint16_t *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUTDEF int dropout_noise_forward_bf16(uint16_t *y, const uint16_t *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset);

/* sigma_f of Gaussian dropout: (float)sqrt(p / (1 - p)); valid p only. */
DROPOUTDEF float dropout_gaussian_sigma(double p);

/* ============================ end of VARIANTS declarations ============================ */


#ifdef __cplusplus
}
#endif

#endif /* DROPOUT_H_INCLUDED */

/* ==================================================================================== */
/*                                  IMPLEMENTATION                                      */
/* ==================================================================================== */

#ifdef DROPOUT_IMPLEMENTATION
#ifndef DROPOUT_IMPLEMENTATION_DONE
#define DROPOUT_IMPLEMENTATION_DONE

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

#ifdef __cplusplus
extern "C" {
#endif

enum { DROPOUT__F32, DROPOUT__F64, DROPOUT__F16, DROPOUT__BF16 };

/* Elements are processed in chunks of 64 so that a chunk's keep decisions fit one
   uint64_t: bit i = element i of the chunk kept. */
#define DROPOUT__CHUNK 64

DROPOUTDEF const char *dropout_strerror(int code)
{
   switch (code) {
   case DROPOUT_OK:        return "ok";
   case DROPOUT_ERR_P:     return "p must be a number in [0, 1]";
   case DROPOUT_ERR_NULL:  return "a required pointer is NULL while n > 0";
   case DROPOUT_ERR_BITS:  return "bits must be 8, 16 or 32";
   case DROPOUT_ERR_RANGE: return "offset + n runs past the end of the stream (2^64 positions)";
   case DROPOUT_ERR_ARG:   return "an argument is out of its domain";
   default:
      if (code <= DROPOUT_ERR_CUDA_BASE)
         return "a CUDA call failed (cuda error = DROPOUT_ERR_CUDA_BASE - code)";
      return "unknown dropout error code";
   }
}

DROPOUTDEF dropout_gen dropout_gen_make(uint64_t seed, uint64_t stream)
{
   dropout_gen g;
   g.seed = seed;
   g.stream = stream;
   g.offset = 0;
   return g;
}

DROPOUTDEF int dropout_gen_next(dropout_gen *g, size_t n, uint64_t *offset)
{
   if (!g || !offset) return DROPOUT_ERR_NULL;
   if ((uint64_t)n > UINT64_MAX - g->offset) return DROPOUT_ERR_RANGE;
   *offset = g->offset;
   g->offset += (uint64_t)n;
   return DROPOUT_OK;
}

/* Positions offset .. offset + n - 1 must all exist (< 2^64). */
static int dropout__range_ok(size_t n, uint64_t offset)
{
   return n == 0 || (uint64_t)(n - 1) <= UINT64_MAX - offset;
}

DROPOUTDEF int dropout_check_args(double p, int bits, size_t n, uint64_t offset)
{
   if (bits != 8 && bits != 16 && bits != 32) return DROPOUT_ERR_BITS;
   if (!(p >= 0.0 && p <= 1.0)) return DROPOUT_ERR_P;    /* also catches NaN */
   if (!dropout__range_ok(n, offset)) return DROPOUT_ERR_RANGE;
   return DROPOUT_OK;
}

DROPOUTDEF void dropout_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
   dropout_philox4x32_rounds(10, ctr, key, out);
}

DROPOUTDEF uint32_t dropout_stream_u32(uint64_t seed, uint64_t stream, uint64_t word)
{
   uint32_t w[4];
   dropout_block(seed, stream, word >> 2, w);
   return w[word & 3u];
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
static void dropout__apply_chunk(int dtype, void *y, const void *x, size_t at,
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

/* The scalar reference of the one loop behind forward, backward, mask and apply_mask.
   y/x: the data (both NULL for mask only); mask_out: optional; mask_in: when given, the
   keep bits come from it instead of the stream. */
static void dropout__run_ref(int dtype, void *y, uint8_t *mask_out, const void *x,
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
      if (y) dropout__apply_chunk(dtype, y, x, at, keep, count, r);
   }
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
   SIMD PATHS (x86 SSE2 / SSE4.1 / AVX2 / AVX-512BW, AArch64 NEON)

   Selected at compile time from the compiler's target macros, as stb_image does: no
   cpuid, no function pointers, no global state. Every path computes exactly what the
   scalar reference above computes (dropout__run_ref, dropout__keep_bits_ref,
   dropout__words_ref): the same Philox words, the same integer compares, the same single
   IEEE multiply per kept element, the same integer f16/bf16 rounding.

   How: Philox runs on W blocks at once (one block per 32-bit lane, the 32x32->64
   products from mul_epu32 on even and odd lanes), then a 4x4 transpose per 128-bit lane
   stores the words in stream order. Keep bits are made for stream-aligned windows of 64
   positions (4, 8 or 16 blocks: only the blocks the mode needs) straight from vector
   compares (movemask / AVX-512 mask registers); a call at any offset reads its 64-bit
   keep words as a shift of two windows.
   ------------------------------------------------------------------------------------ */
#if !defined(DROPOUT_NO_SIMD)
#if defined(__AVX512F__) && defined(__AVX512BW__)
#define DROPOUT__SIMD_AVX512 1
#define DROPOUT__SIMD_NAME "avx512"
#elif defined(__AVX2__)
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
#endif
#endif
#ifndef DROPOUT__SIMD_NAME
#define DROPOUT__SIMD_NAME "reference"
#else
#define DROPOUT__SIMD 1
#endif

#ifdef DROPOUT__SIMD
#include <string.h>   /* memcpy */

/* g++ 12 (C++ only) reports GCC's own AVX-512 headers, whose _mm512_undefined_* are
   self-initialised on purpose, as "used uninitialized" once they are inlined here; the
   warning is about those headers, not this code, so it is off for the SIMD paths. */
#if defined(__cplusplus) && defined(__GNUC__) && !defined(__clang__) && defined(DROPOUT__SIMD_AVX512)
#define DROPOUT__QUIET_AVX512_HEADERS 1
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

/* ---- the primitive layer: W lanes of uint32 in a dropout__v ------------------------ */
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
static inline dropout__v dropout__v_sel(dropout__v m, dropout__v a, dropout__v b)
{
#ifdef __SSE4_1__
   return _mm_blendv_epi8(b, a, m);
#else
   return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b));
#endif
}
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
static inline void dropout__v_store_u16(uint16_t *p, dropout__v a)
{
#ifdef __SSE4_1__
   _mm_storel_epi64((__m128i *)(void *)p, _mm_packus_epi32(a, a));
#else   /* lanes < 2^16: sign-extend the low half so the signed saturating pack keeps it */
   __m128i s = _mm_srai_epi32(_mm_slli_epi32(a, 16), 16);
   _mm_storel_epi64((__m128i *)(void *)p, _mm_packs_epi32(s, s));
#endif
}
#define DROPOUT__V_IOTA _mm_setr_epi32(0, 1, 2, 3)
#define dropout__v_unpacklo32 _mm_unpacklo_epi32
#define dropout__v_unpackhi32 _mm_unpackhi_epi32
#define dropout__v_unpacklo64 _mm_unpacklo_epi64
#define dropout__v_unpackhi64 _mm_unpackhi_epi64

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
#endif

#define DROPOUT__V_SIGN dropout__v_set1(0x80000000u)
/* unsigned a > b through the sign-flip trick (all-ones lanes where true) */
#define dropout__v_gt_u(a, b) dropout__v_gt_s(dropout__v_xor(a, DROPOUT__V_SIGN), dropout__v_xor(b, DROPOUT__V_SIGN))

#if defined(DROPOUT__SIMD_NEON)
/* Blocks processed per call: two vectors interleaved, so the multiplier latency of one
   hides behind the other. */
#define DROPOUT__VB (2 * DROPOUT__W)

/* Words 4 * block .. 4 * (block + DROPOUT__VB) - 1 of the stream, in order, into out. */
static void dropout__blocks_simd(uint64_t seed, uint64_t stream, uint64_t block, uint32_t *out)
{
   dropout__v iota = DROPOUT__V_IOTA;
   dropout__v a0, a1, a2, a3, b0, b1, b2, b3, carry;
   uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
   int r;
   /* counter low word of each lane, with the carry into the high word where it wraps */
   a0 = dropout__v_add(dropout__v_set1((uint32_t)block), iota);
   carry = dropout__v_gt_u(iota, a0);
   a1 = dropout__v_add(dropout__v_set1((uint32_t)(block >> 32)), dropout__v_and(carry, dropout__v_set1(1)));
   b0 = dropout__v_add(a0, dropout__v_set1(DROPOUT__W));
   carry = dropout__v_gt_u(a0, b0);
   b1 = dropout__v_add(a1, dropout__v_and(carry, dropout__v_set1(1)));
   a2 = b2 = dropout__v_set1((uint32_t)stream);
   a3 = b3 = dropout__v_set1((uint32_t)(stream >> 32));
   for (r = 0; r < 10; ++r) {
      dropout__v ahi0, alo0, ahi1, alo1, bhi0, blo0, bhi1, blo1;
      dropout__v vk0 = dropout__v_set1(k0), vk1 = dropout__v_set1(k1);
      dropout__v_mulhilo(a0, DROPOUT_PHILOX_M0, &ahi0, &alo0);
      dropout__v_mulhilo(a2, DROPOUT_PHILOX_M1, &ahi1, &alo1);
      dropout__v_mulhilo(b0, DROPOUT_PHILOX_M0, &bhi0, &blo0);
      dropout__v_mulhilo(b2, DROPOUT_PHILOX_M1, &bhi1, &blo1);
      a0 = dropout__v_xor(dropout__v_xor(ahi1, a1), vk0);  a1 = alo1;
      a2 = dropout__v_xor(dropout__v_xor(ahi0, a3), vk1);  a3 = alo0;
      b0 = dropout__v_xor(dropout__v_xor(bhi1, b1), vk0);  b1 = blo1;
      b2 = dropout__v_xor(dropout__v_xor(bhi0, b3), vk1);  b3 = blo0;
      k0 += DROPOUT_PHILOX_W0;
      k1 += DROPOUT_PHILOX_W1;
   }
   {
      uint32x4x4_t s;
      s.val[0] = a0; s.val[1] = a1; s.val[2] = a2; s.val[3] = a3;
      vst4q_u32(out, s);
      s.val[0] = b0; s.val[1] = b1; s.val[2] = b2; s.val[3] = b3;
      vst4q_u32(out + 4 * DROPOUT__W, s);
   }
}
#else
/* x86: Philox with one block per 64-bit lane, its 32-bit words in the low halves.
   mul_epu32 reads only the low halves and returns the full 64-bit product, so a round
   is 2 multiplies, 2 shifts and 4 xors per W/2 blocks with no blends; the high halves
   carry garbage through the rounds and are dropped when the words are packed at the
   end. The 64-bit counter add also gives the carry into the counter's high word. */
#if defined(DROPOUT__SIMD_AVX512)
#define dropout__v_mul64 _mm512_mul_epu32
#define dropout__v_add64 _mm512_add_epi64
#define dropout__v_set64(a) _mm512_set1_epi64((long long)(a))
#define dropout__v_hi64(a) _mm512_srli_epi64(a, 32)
#define dropout__v_xor3(a, b, c) _mm512_ternarylogic_epi32(a, b, c, 0x96)
/* low word from a, high word from b's low word */
#define dropout__v_pack64(a, b) _mm512_mask_blend_epi32(0xAAAA, a, _mm512_slli_epi64(b, 32))
/* 64-bit lane 2L + h holds block L + 4h, so unpacklo64 gives blocks 0..3, unpackhi 4..7 */
#define DROPOUT__V_IOTA64 _mm512_setr_epi64(0, 4, 1, 5, 2, 6, 3, 7)
#elif defined(DROPOUT__SIMD_AVX2)
#define dropout__v_mul64 _mm256_mul_epu32
#define dropout__v_add64 _mm256_add_epi64
#define dropout__v_set64(a) _mm256_set1_epi64x((long long)(a))
#define dropout__v_hi64(a) _mm256_srli_epi64(a, 32)
#define dropout__v_xor3(a, b, c) _mm256_xor_si256(a, _mm256_xor_si256(b, c))
#define dropout__v_pack64(a, b) _mm256_blend_epi32(a, _mm256_slli_epi64(b, 32), 0xAA)
#define DROPOUT__V_IOTA64 _mm256_setr_epi64x(0, 2, 1, 3)
#else
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
#endif

/* Independent chains in flight: a round is 8 vector uops a chain with about 5 cycles of
   latency (multiply, shift, xor), so 4 chains keep the vector pipes busy. On AVX2 that is
   more than 16 registers hold, but the few spilled constants are cheap memory operands:
   measured on Zen 3 (AVX2), 4 chains unrolled are 9% faster than the former
   even/odd + blend layout; 2 or 3 chains are no faster than it. */
#define DROPOUT__U 4
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
#define DROPOUT__ROUND()                                                           \
   do {                                                                            \
      DROPOUT__ROUND1(a0, a1, a2, a3); DROPOUT__ROUND1(b0, b1, b2, b3);             \
      DROPOUT__ROUND1(e0, e1, e2, e3); DROPOUT__ROUND1(f0, f1, f2, f3);             \
      vk0 = dropout__v_add(vk0, w0); vk1 = dropout__v_add(vk1, w1);                 \
   } while (0)

/* Words 4 * block .. 4 * (block + DROPOUT__VB) - 1 of the stream, in order, into out. */
static void dropout__blocks_simd(uint64_t seed, uint64_t stream, uint64_t block, uint32_t *out)
{
   dropout__v m0 = dropout__v_set1(DROPOUT_PHILOX_M0), m1 = dropout__v_set1(DROPOUT_PHILOX_M1);
   dropout__v w0 = dropout__v_set1(DROPOUT_PHILOX_W0), w1 = dropout__v_set1(DROPOUT_PHILOX_W1);
   dropout__v vk0 = dropout__v_set1((uint32_t)seed), vk1 = dropout__v_set1((uint32_t)(seed >> 32));
   dropout__v s0 = dropout__v_set64(stream), s1 = dropout__v_set1((uint32_t)(stream >> 32));
   dropout__v a0 = dropout__v_add64(dropout__v_set64(block), DROPOUT__V_IOTA64);
   dropout__v a1 = dropout__v_hi64(a0), a2 = s0, a3 = s1;
   dropout__v b0 = dropout__v_add64(a0, dropout__v_set64(DROPOUT__W / 2));
   dropout__v b1 = dropout__v_hi64(b0), b2 = s0, b3 = s1;
   dropout__v e0 = dropout__v_add64(a0, dropout__v_set64(DROPOUT__W));
   dropout__v e1 = dropout__v_hi64(e0), e2 = s0, e3 = s1;
   dropout__v f0 = dropout__v_add64(a0, dropout__v_set64(3 * DROPOUT__W / 2));
   dropout__v f1 = dropout__v_hi64(f0), f2 = s0, f3 = s1;
   /* ten rounds, unrolled so that the word rotation costs no moves */
   DROPOUT__ROUND(); DROPOUT__ROUND(); DROPOUT__ROUND(); DROPOUT__ROUND(); DROPOUT__ROUND();
   DROPOUT__ROUND(); DROPOUT__ROUND(); DROPOUT__ROUND(); DROPOUT__ROUND(); DROPOUT__ROUND();
   (void)vk0; (void)vk1;
#define DROPOUT__STORE(k, a, b, c, d)                                                              \
   do {                                                                                            \
      dropout__v lo_ = dropout__v_pack64(a, b), hi_ = dropout__v_pack64(c, d);                     \
      dropout__v_storeu(out + (k) * 2 * DROPOUT__W, dropout__v_unpacklo64(lo_, hi_));              \
      dropout__v_storeu(out + (k) * 2 * DROPOUT__W + DROPOUT__W, dropout__v_unpackhi64(lo_, hi_)); \
   } while (0)
   DROPOUT__STORE(0, a0, a1, a2, a3);
   DROPOUT__STORE(1, b0, b1, b2, b3);
   DROPOUT__STORE(2, e0, e1, e2, e3);
   DROPOUT__STORE(3, f0, f1, f2, f3);
}
#undef DROPOUT__STORE
#undef DROPOUT__ROUND
#undef DROPOUT__ROUND1
#endif

/* Keep bits of one stream-aligned window of 64 positions from its 2 * bits words:
   bit i = (draw of position i >= t) = (draw > tm1), tm1 = t - 1 (t >= 1 here). */
static uint64_t dropout__window_keep(const uint32_t *w, int bits, uint32_t tm1)
{
   uint64_t keep = 0;
   int k;
#if defined(DROPOUT__SIMD_AVX512)
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
#elif defined(DROPOUT__SIMD_AVX2)
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
#elif defined(DROPOUT__SIMD_SSE)
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
#elif defined(DROPOUT__SIMD_NEON)
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
#endif
   return keep;
}

/* Steps: DROPOUT__GROUP chunks of 64 elements (windows) share one call of the keep-word
   maker and one dispatch on the dtype, so the per-chunk cost is the arithmetic alone. */
#define DROPOUT__GROUP 8

/* Keep words of `count` consecutive stream-aligned windows from window `index` on. */
static void dropout__windows_keep(uint64_t seed, uint64_t stream, uint64_t index, unsigned count,
                                  int bits, uint32_t tm1, uint64_t *keep)
{
   /* 32-bit mode: 64 words a window; room for a vector step's rounding up */
   uint32_t words[(DROPOUT__GROUP + 1) * 64 + 4 * DROPOUT__VB];
   unsigned per = (unsigned)bits / 2u;                  /* blocks per window */
   uint64_t block = index * per;
   unsigned b, i;
   for (b = 0; b < count * per; b += DROPOUT__VB)
      dropout__blocks_simd(seed, stream, block + b, words + 4u * b);
   for (i = 0; i < count; ++i)
      keep[i] = dropout__window_keep(words + i * 2u * (unsigned)bits, bits, tm1);
}

/* f16 bits -> f32 bits, lane-wise, exactly as dropout_f16_to_f32. */
static inline dropout__v dropout__v_f16_to_f32(dropout__v h)
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
static inline dropout__v dropout__v_f32_to_f16(dropout__v x)
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

/* f32 bits -> bf16 bits, exactly as dropout_f32_to_bf16. */
static inline dropout__v dropout__v_f32_to_bf16(dropout__v x)
{
   dropout__v ax = dropout__v_and(x, dropout__v_set1(0x7FFFFFFFu));
   dropout__v hi = dropout__v_srli(x, 16);
   dropout__v nan = dropout__v_or(hi, dropout__v_set1(0x40u));
   dropout__v rne = dropout__v_srli(dropout__v_add(dropout__v_add(x, dropout__v_set1(0x7FFFu)),
                                                   dropout__v_and(hi, dropout__v_set1(1u))), 16);
   return dropout__v_sel(dropout__v_gt_s(ax, dropout__v_set1(0x7F800000u)), nan, rne);
}

/* Streaming (non-temporal) stores write around the caches: a large output then costs no
   read-for-ownership of y (8 instead of 12 bytes of memory traffic per f32 element). They
   are used from DROPOUT_STREAM_STORE_BYTES of output on, and the call ends with a store
   fence. The bits are the same. nt = 1: whole vectors, y DROPOUT__NT_ALIGN-byte aligned
   (dropout__run_simd shifts its data grid to get there); nt = 2 (AVX-512): 16-byte
   pieces, y 16-byte aligned (the fills, whose grid does not shift).
   The default threshold, from `make bench`'s table on Zen 4 (32 MiB L3), two runs: forward
   alone gains from streaming from 2 MiB of output on, but forward followed by a read of y
   (what the next layer does) loses 4 to 22% with it from 2 to 8 MiB and is within -6%
   to +15% at 16 MiB; from 32 MiB on streaming wins both ways. */
#ifndef DROPOUT_STREAM_STORE_BYTES
#define DROPOUT_STREAM_STORE_BYTES ((size_t)16 << 20)
#endif
#if defined(DROPOUT__SIMD_AVX512)
#define DROPOUT__NT_ALIGN 64
#define dropout__v_stream(p, a) _mm512_stream_si512((__m512i *)(void *)(p), a)
#define dropout__v_stream_u16(p, a) _mm256_stream_si256((__m256i *)(void *)(p), _mm512_cvtepi32_epi16(a))
static inline void dropout__v_stream16(void *p, __m512i a)
{
   __m128i *q = (__m128i *)p;
   _mm_stream_si128(q, _mm512_castsi512_si128(a));
   _mm_stream_si128(q + 1, _mm512_extracti32x4_epi32(a, 1));
   _mm_stream_si128(q + 2, _mm512_extracti32x4_epi32(a, 2));
   _mm_stream_si128(q + 3, _mm512_extracti32x4_epi32(a, 3));
}
static inline void dropout__v_stream16_u16(void *p, __m512i a)
{
   __m256i h = _mm512_cvtepi32_epi16(a);
   _mm_stream_si128((__m128i *)p, _mm256_castsi256_si128(h));
   _mm_stream_si128((__m128i *)p + 1, _mm256_extracti128_si256(h, 1));
}
#elif defined(DROPOUT__SIMD_AVX2)
/* as two 16-byte halves: malloc gives 16-byte alignment, and halves stream as fast */
#define DROPOUT__NT_ALIGN 16
static inline void dropout__v_stream(void *p, __m256i a)
{
   _mm_stream_si128((__m128i *)p, _mm256_castsi256_si128(a));
   _mm_stream_si128((__m128i *)p + 1, _mm256_extracti128_si256(a, 1));
}
#define dropout__v_stream_u16(p, a) \
   _mm_stream_si128((__m128i *)(void *)(p), _mm_packus_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1)))
#elif defined(DROPOUT__SIMD_SSE)
#define DROPOUT__NT_ALIGN 16
#define dropout__v_stream(p, a) _mm_stream_si128((__m128i *)(void *)(p), a)
#define dropout__v_stream_u16 dropout__v_store_u16   /* 8 bytes: SSE has no such stream */
#endif
#if defined(DROPOUT__SIMD_AVX512)
#define dropout__v_put(nt, p, a) do { if (nt == 1) dropout__v_stream(p, a); else if (nt == 2) dropout__v_stream16(p, a); \
                                      else dropout__v_storeu(p, a); } while (0)
#define dropout__v_put_u16(nt, p, a) do { if (nt == 1) dropout__v_stream_u16(p, a); else if (nt == 2) dropout__v_stream16_u16(p, a); \
                                          else dropout__v_store_u16(p, a); } while (0)
#elif defined(DROPOUT__NT_ALIGN)
#define dropout__v_put(nt, p, a) do { if (nt) dropout__v_stream(p, a); else dropout__v_storeu(p, a); } while (0)
#define dropout__v_put_u16(nt, p, a) do { if (nt) dropout__v_stream_u16(p, a); else dropout__v_store_u16(p, a); } while (0)
#else   /* NEON: plain stores */
#define dropout__v_put(nt, p, a) dropout__v_storeu(p, a)
#define dropout__v_put_u16(nt, p, a) dropout__v_store_u16(p, a)
#endif

#ifdef DROPOUT__NT_ALIGN
/* How stores to p (and to p plus any multiple of 64 bytes) can stream: 1 whole vectors,
   2 16-byte pieces (AVX-512), 0 not at all. */
static inline int dropout__nt_mode(const void *p)
{
   uintptr_t a = (uintptr_t)p;
#if defined(DROPOUT__SIMD_AVX512)
   return a % DROPOUT__NT_ALIGN == 0 ? 1 : a % 16u == 0 ? 2 : 0;
#else
   return a % DROPOUT__NT_ALIGN == 0;
#endif
}
#endif

/* One full chunk of 64 elements with keep bits, t > 0 (else the caller copies);
   nt: streaming stores (y aligned). */
static void dropout__apply_chunk_simd(int dtype, void *y, const void *x, size_t at,
                                      uint64_t keep, const dropout_rule *r, int nt)
{
   unsigned g;
   (void)nt;
   switch (dtype) {
   case DROPOUT__F64: {
      double *yo = (double *)y + at; const double *xi = (const double *)x + at;
      dropout__v s;
      uint64_t sb;
      uint32_t lo, hi;
      memcpy(&sb, &r->scale_f64, 8);
      lo = (uint32_t)sb; hi = (uint32_t)(sb >> 32);
      /* the 64-bit scale in every pair of lanes: low word first (little endian lanes) */
      {
         uint32_t tmp[DROPOUT__W];
         unsigned i;
         for (i = 0; i < DROPOUT__W; i += 2) { tmp[i] = lo; tmp[i + 1] = hi; }
         s = dropout__v_loadu(tmp);
      }
      for (g = 0; g < 64; g += DROPOUT__W / 2)
         dropout__v_put(nt, yo + g, dropout__v_and(dropout__v_lanes64(keep >> g),
                                                   dropout__v_dmul(dropout__v_loadu(xi + g), s)));
   } break;
   case DROPOUT__F16: {
      uint16_t *yo = (uint16_t *)y + at; const uint16_t *xi = (const uint16_t *)x + at;
      dropout__v s;
      uint32_t sb;
      memcpy(&sb, &r->scale_f32, 4);
      s = dropout__v_set1(sb);
      for (g = 0; g < 64; g += DROPOUT__W) {
         dropout__v f = dropout__v_fmul(dropout__v_f16_to_f32(dropout__v_load_u16(xi + g)), s);
         dropout__v_put_u16(nt, yo + g, dropout__v_and(dropout__v_lanes32(keep >> g), dropout__v_f32_to_f16(f)));
      }
   } break;
   default: {   /* bf16 (f32 has its own) */
      uint16_t *yo = (uint16_t *)y + at; const uint16_t *xi = (const uint16_t *)x + at;
      dropout__v s;
      uint32_t sb;
      memcpy(&sb, &r->scale_f32, 4);
      s = dropout__v_set1(sb);
      for (g = 0; g < 64; g += DROPOUT__W) {
         dropout__v f = dropout__v_fmul(dropout__v_slli(dropout__v_load_u16(xi + g), 16), s);
         dropout__v_put_u16(nt, yo + g, dropout__v_and(dropout__v_lanes32(keep >> g), dropout__v_f32_to_bf16(f)));
      }
   } break;
   }
}

/* 64 mask bits as 8 bytes, LSB first */
static inline void dropout__store_mask64(uint8_t *mask, uint64_t keep)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
   dropout__store_mask_bits(mask, keep, 64);
#else
   memcpy(mask, &keep, 8);
#endif
}
static inline uint64_t dropout__load_mask64(const uint8_t *mask)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
   return dropout__load_mask_bits(mask, 64);
#else
   uint64_t keep;
   memcpy(&keep, mask, 8);
   return keep;
#endif
}

/* f32, 64 elements, t > 0: y = kept ? x * scale : +0; nt: streaming stores (y aligned).
   The chunk's loads come before its stores: where y sits 16 to 48 bytes past x modulo
   4 KiB, a store followed by a load 4 to 12 elements on looks like a dependence to the
   core (4K aliasing), and interleaving them cost 20-35% out of cache on Zen 4 (AVX-512
   and AVX2 builds); loads first costs nothing elsewhere. */
static inline void dropout__apply64_f32(float *y, const float *x, uint64_t keep, float scale, int nt)
{
#if defined(DROPOUT__SIMD_AVX512)
   __m512 s = _mm512_set1_ps(scale), v[4];
   int g;
   for (g = 0; g < 4; ++g) v[g] = _mm512_loadu_ps(x + 16 * g);
   for (g = 0; g < 4; ++g)   /* zero-masking gives +0 in dropped lanes */
      dropout__v_put(nt, y + 16 * g, _mm512_castps_si512(_mm512_maskz_mul_ps((__mmask16)(keep >> (16 * g)), v[g], s)));
#elif defined(DROPOUT__SIMD_AVX2)
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
#else
   dropout__v s;
   uint32_t sb;
   unsigned g;
   memcpy(&sb, &scale, 4);
   s = dropout__v_set1(sb);
   for (g = 0; g < 64; g += DROPOUT__W)
      dropout__v_put(nt, y + g, dropout__v_and(dropout__v_lanes32(keep >> g),
                                               dropout__v_fmul(dropout__v_loadu(x + g), s)));
#endif
   (void)nt;
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
   is made twice (win[0] carries it; every step after the first starts there). The key
   (seed, stream) goes to each step as it is, not through this struct, so that a call with
   a constant key still gets Philox with the key folded in (through the struct: 5 to 16%
   slower at 8 bits in cache, gcc 12, AVX-512); the windows live in the caller, so that
   the struct itself never escapes to dropout__windows_keep. */
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
static inline void dropout__keep_step(const dropout__keep_src *ks, uint64_t seed, uint64_t stream,
                                      size_t at, unsigned nb, uint64_t *k)
{
   const uint64_t w = ks->first + at / DROPOUT__CHUNK;
   unsigned c;
   if (ks->mask_in) {
      for (c = 0; c < nb; ++c) k[c] = dropout__load_mask64(ks->mask_in + at / 8u + 8u * c);
   } else if (ks->all) {
      for (c = 0; c < nb; ++c) k[c] = ~(uint64_t)0;
   } else if (ks->s == 0) {
      dropout__windows_keep(seed, stream, w, nb, ks->bits, ks->tm1, k);
   } else {
      /* window w + nb is in the call's range: the chunks are whole */
      if (at) dropout__windows_keep(seed, stream, w + 1, nb, ks->bits, ks->tm1, ks->win + 1);
      else dropout__windows_keep(seed, stream, w, nb + 1, ks->bits, ks->tm1, ks->win);
      for (c = 0; c < nb; ++c) k[c] = ks->win[c] >> ks->s | ks->win[c + 1] << (64u - ks->s);
      ks->win[0] = ks->win[nb];
   }
}

/* Store policy: streaming stores from DROPOUT_STREAM_STORE_BYTES of output on (nt, as in
   dropout__nt_mode), plain ones below. The data grid is then shifted by h elements, so
   that the streamed stores start on an aligned y (whole-vector streams, and with x as
   aligned as y no split loads). */
typedef struct dropout__stores { int nt; unsigned h; } dropout__stores;

static inline dropout__stores dropout__stores_choose(const void *y, size_t n, size_t es, const dropout_rule *r)
{
   dropout__stores st;
#ifdef DROPOUT__NT_ALIGN
   const size_t nt_from = (size_t)(DROPOUT_STREAM_STORE_BYTES);   /* a variable: 0 gives no warning */
#endif
   st.nt = 0;
   st.h = 0;
#ifdef DROPOUT__NT_ALIGN
   if (y && r->threshold != 0 && n * es >= nt_from) {
      size_t mis = (size_t)((uintptr_t)y % DROPOUT__NT_ALIGN);
      if (mis % es == 0) st.h = (unsigned)(((DROPOUT__NT_ALIGN - mis) % DROPOUT__NT_ALIGN) / es);
      st.nt = dropout__nt_mode((const char *)y + (size_t)st.h * es);
   }
#else
   (void)y; (void)n; (void)es; (void)r;
#endif
   return st;
}

/* Before a step's Philox runs, ask for the next step's x (left: whole chunks from this
   step on), so that the loads overlap the arithmetic. Measured on Zen 4: +2 to +35% out of
   cache with streamed stores in the AVX-512 build, while the AVX2 build on the same CPU
   lost 5-8% with it; so AVX-512 with streaming stores only. */
static inline void dropout__stores_prefetch(const void *x, size_t at, size_t left, size_t es, int nt)
{
#if defined(DROPOUT__SIMD_AVX512)
   if (x && nt && left > DROPOUT__GROUP) {
      const char *pf = (const char *)x + (at + (size_t)DROPOUT__GROUP * DROPOUT__CHUNK) * es;
      size_t e, bytes = (size_t)DROPOUT__GROUP * DROPOUT__CHUNK * es;
      for (e = 0; e < bytes; e += 64) _mm_prefetch(pf + e, _MM_HINT_T0);
   }
#else
   (void)x; (void)at; (void)left; (void)es; (void)nt;
#endif
}

/* The streamed stores are ordered before what follows the call. */
static inline void dropout__stores_end(dropout__stores st)
{
#ifdef DROPOUT__NT_ALIGN
   if (st.nt) _mm_sfence();
#else
   (void)st;
#endif
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
   const unsigned h = st.h;
   unsigned c;
   if (h == 0) {
      if (dtype == DROPOUT__F32) {
         float *yo = (float *)y + at;
         const float *xi = (const float *)x + at;
         /* nt a constant in each loop, so the store choice folds away */
         if (st.nt == 1)      for (c = 0; c < nb; ++c) dropout__apply64_f32(yo + 64u * c, xi + 64u * c, k[c], r->scale_f32, 1);
         else if (st.nt == 2) for (c = 0; c < nb; ++c) dropout__apply64_f32(yo + 64u * c, xi + 64u * c, k[c], r->scale_f32, 2);
         else                 for (c = 0; c < nb; ++c) dropout__apply64_f32(yo + 64u * c, xi + 64u * c, k[c], r->scale_f32, 0);
      } else {
         for (c = 0; c < nb; ++c) dropout__apply_chunk_simd(dtype, y, x, at + 64u * c, k[c], r, st.nt);
      }
   } else {
      const unsigned c0 = at == 0 ? 1u : 0u;
      if (dtype == DROPOUT__F32) {
         float *yo = (float *)y + at + h - 64u;
         const float *xi = (const float *)x + at + h - 64u;
         for (c = c0; c < nb; ++c)
            dropout__apply64_f32(yo + 64u * c, xi + 64u * c, kb[c] >> h | kb[c + 1] << (64u - h), r->scale_f32, st.nt);
      } else {
         for (c = c0; c < nb; ++c)
            dropout__apply_chunk_simd(dtype, y, x, at + h + 64u * c - 64u, kb[c] >> h | kb[c + 1] << (64u - h), r, st.nt);
      }
   }
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

static void dropout__run_simd(int dtype, void *y, uint8_t *mask_out, const void *x,
                              const uint8_t *mask_in, size_t n, const dropout_rule *r,
                              uint64_t seed, uint64_t stream, uint64_t offset)
{
   static const size_t size[4] = {4, 8, 2, 2};   /* bytes per element, by dtype */
   const size_t es = size[dtype];
   const size_t full = n & ~(size_t)(DROPOUT__CHUNK - 1);
   /* DROPOUT__GROUP windows a step, a constant: measured on Zen 3 (AVX2), steps of 1
      Philox call or 1 window (keep bits and data alternating finely) or any step size
      known only at run time were no faster out of cache and 7-8% slower in cache. */
   const unsigned step = DROPOUT__GROUP;
   const dropout__stores st = dropout__stores_choose(y, n, es, r);
   dropout__keep_src ks;
   uint64_t win[DROPOUT__GROUP + 1];  /* the keep bits' windows (ks) */
   uint64_t kb[DROPOUT__GROUP + 1];   /* kb[1 ..]: the step's keep words; kb[0]: the step before's last */
   uint64_t k0 = 0;                   /* keep word of chunk 0, for the shifted grid's head */
   size_t at;
   dropout__keep_init(&ks, win, mask_in, r, offset);
   kb[0] = 0;
   for (at = 0; at < full; at += (size_t)step * DROPOUT__CHUNK) {
      const size_t left = (full - at) / DROPOUT__CHUNK;
      const unsigned nb = left < step ? (unsigned)left : step;
      unsigned c;
      dropout__stores_prefetch(x, at, left, es, st.nt);
      dropout__keep_step(&ks, seed, stream, at, nb, kb + 1);
      if (mask_out)
         for (c = 0; c < nb; ++c) dropout__store_mask64(mask_out + at / 8u + 8u * c, kb[1 + c]);
      if (y && r->threshold == 0) {   /* bit-for-bit copy; nothing to do in place */
         if (y != x) memcpy((char *)y + at * es, (const char *)x + at * es, (size_t)nb * DROPOUT__CHUNK * es);
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
#ifdef DROPOUT__NT_ALIGN
   const size_t nt_from = (size_t)(DROPOUT_STREAM_STORE_BYTES);   /* a variable: 0 gives no warning */
   if (n * 4u >= nt_from) nt = dropout__nt_mode(out - skip);
#endif
   while (i < n) {
      size_t take = 4u * DROPOUT__VB - skip;
      if (take > n - i) take = n - i;
      if (skip == 0 && take == 4u * DROPOUT__VB && nt) {
         dropout__blocks_simd(seed, stream, block, buf);
         for (j = 0; j < 4u * DROPOUT__VB; j += DROPOUT__W) dropout__v_put(nt, out + i + j, dropout__v_loadu(buf + j));
      } else if (skip == 0 && take == 4u * DROPOUT__VB) {
         dropout__blocks_simd(seed, stream, block, out + i);
      } else {
         dropout__blocks_simd(seed, stream, block, buf);
         memcpy(out + i, buf + skip, take * 4u);
      }
      i += take;
      skip = 0;
      block += DROPOUT__VB;
   }
#ifdef DROPOUT__NT_ALIGN
   if (nt) _mm_sfence();
#endif
}
#if defined(DROPOUT__QUIET_AVX512_HEADERS)
#pragma GCC diagnostic pop
#endif
#endif /* DROPOUT__SIMD */
/* ------------------------------- end of SIMD PATHS ---------------------------------- */

static int dropout__run(int dtype, void *y, uint8_t *mask_out, const void *x,
                        const uint8_t *mask_in, size_t n, double p, int bits,
                        uint64_t seed, uint64_t stream, uint64_t offset)
{
   dropout_rule r;
   int err = dropout_check_args(p, bits, n, offset);
   if (err) return err;
   r = dropout_rule_make(p, bits);
   /* p = 1 drops everything, whatever a stored mask says (SPEC section 7): a kept bit would
      scale by 0, and Inf * 0 is a NaN whose bits depend on the machine. Without the mask
      the call is forward at t = 2^bits, which keeps nothing and writes +0. */
   if (mask_in && r.threshold >> bits) mask_in = NULL;
#ifdef DROPOUT__SIMD
   /* a call shorter than a chunk needs at most two blocks: the reference is quicker */
   if (n >= DROPOUT__CHUNK) {
      dropout__run_simd(dtype, y, mask_out, x, mask_in, n, &r, seed, stream, offset);
      return DROPOUT_OK;
   }
#endif
   dropout__run_ref(dtype, y, mask_out, x, mask_in, n, &r, seed, stream, offset);
   return DROPOUT_OK;
}

static void dropout__words(uint32_t *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word)
{
#ifdef DROPOUT__SIMD
   if (n >= 4u * DROPOUT__VB) {   /* shorter: the reference makes fewer blocks */
      dropout__words_simd(out, n, seed, stream, word);
      return;
   }
#endif
   dropout__words_ref(out, n, seed, stream, word);
}

#define DROPOUT__NEED(ptr) do { if (n > 0 && !(ptr)) return DROPOUT_ERR_NULL; } while (0)

DROPOUTDEF int dropout_mask(uint8_t *mask, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   DROPOUT__NEED(mask);
   return dropout__run(DROPOUT__F32, NULL, mask, NULL, NULL, n, p, bits, seed, stream, offset);
}

/* forward and mask-free backward are the same operation on different data */
#define DROPOUT__DEFINE_TYPE(suffix, T, dtype)                                                  \
   DROPOUTDEF int dropout_forward_##suffix(T *y, uint8_t *mask, const T *x, size_t n, double p,  \
                                           int bits, uint64_t seed, uint64_t stream,             \
                                           uint64_t offset)                                      \
   {                                                                                             \
      DROPOUT__NEED(y); DROPOUT__NEED(x);                                                        \
      return dropout__run(dtype, y, mask, x, NULL, n, p, bits, seed, stream, offset);            \
   }                                                                                             \
   DROPOUTDEF int dropout_backward_##suffix(T *dx, const T *dy, size_t n, double p, int bits,    \
                                            uint64_t seed, uint64_t stream, uint64_t offset)     \
   {                                                                                             \
      return dropout_forward_##suffix(dx, NULL, dy, n, p, bits, seed, stream, offset);           \
   }                                                                                             \
   DROPOUTDEF int dropout_apply_mask_##suffix(T *y, const T *x, const uint8_t *mask, size_t n,   \
                                              double p, int bits)                                \
   {                                                                                             \
      DROPOUT__NEED(y); DROPOUT__NEED(x); DROPOUT__NEED(mask);                                   \
      return dropout__run(dtype, y, NULL, x, mask, n, p, bits, 0, 0, 0);                         \
   }                                                                                             \
   DROPOUTDEF int dropout_backward_mask_##suffix(T *dx, const T *dy, const uint8_t *mask,        \
                                                 size_t n, double p, int bits)                   \
   {                                                                                             \
      return dropout_apply_mask_##suffix(dx, dy, mask, n, p, bits);                              \
   }

DROPOUT__DEFINE_TYPE(f32, float, DROPOUT__F32)
DROPOUT__DEFINE_TYPE(f64, double, DROPOUT__F64)
DROPOUT__DEFINE_TYPE(f16, uint16_t, DROPOUT__F16)
DROPOUT__DEFINE_TYPE(bf16, uint16_t, DROPOUT__BF16)

DROPOUTDEF int dropout_fill_u32(uint32_t *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word)
{
   DROPOUT__NEED(out);
   if (!dropout__range_ok(n, word)) return DROPOUT_ERR_RANGE;
   dropout__words(out, n, seed, stream, word);
   return DROPOUT_OK;
}

/* The uniform fills convert words made DROPOUT__FILL at a time. */
#define DROPOUT__FILL 256

DROPOUTDEF int dropout_fill_uniform_f32(float *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word)
{
   uint32_t w[DROPOUT__FILL];
   size_t at, i;
   DROPOUT__NEED(out);
   if (!dropout__range_ok(n, word)) return DROPOUT_ERR_RANGE;
   for (at = 0; at < n; at += DROPOUT__FILL) {
      size_t m = n - at < DROPOUT__FILL ? n - at : DROPOUT__FILL;
      dropout__words(w, m, seed, stream, word + at);
      for (i = 0; i < m; ++i)
         out[at + i] = (float)(w[i] >> 8) * 5.9604644775390625e-8f;   /* 2^-24 */
   }
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_fill_uniform_f64(double *out, size_t n, uint64_t seed, uint64_t stream, uint64_t index)
{
   uint32_t w[DROPOUT__FILL];
   size_t at, i;
   DROPOUT__NEED(out);
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

#undef DROPOUT__NEED
#undef DROPOUT__FILL
#undef DROPOUT__DEFINE_TYPE

/* ====================================================================================
   VARIANTS implementation (declarations and formulas: see the VARIANTS block above).
   ==================================================================================== */

DROPOUTDEF int dropout_shape_sizes(const dropout_shape *shape, size_t *numel, size_t *positions)
{
   size_t ne = 1, np = 1;
   int d, empty = 0;
   if (!shape) return DROPOUT_ERR_NULL;
   if (shape->rank < 1 || shape->rank > DROPOUT_MAX_RANK) return DROPOUT_ERR_ARG;
   if ((shape->broadcast >> shape->rank) != 0) return DROPOUT_ERR_ARG;
   for (d = 0; d < shape->rank; ++d) {
      size_t k = shape->dim[d];
      int b = (int)((shape->broadcast >> d) & 1u);
      if (k == 0) { empty = 1; continue; }
      /* overflow is judged on the non-zero dims, so the answer does not depend on order */
      if (ne > (size_t)-1 / k) return DROPOUT_ERR_ARG;
      ne *= k;
      if (!b) np *= k;    /* np divides ne: cannot overflow once ne did not */
   }
   for (d = 0; d < shape->rank; ++d)       /* a zero mask dim empties the mask too */
      if (shape->dim[d] == 0 && !((shape->broadcast >> d) & 1u)) np = 0;
   if (numel) *numel = empty ? 0 : ne;
   if (positions) *positions = np;
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_bcast_make(dropout_bcast *b, const dropout_shape *shape)
{
   size_t ne, np;
   int d, r = 0, prev = -1;
   uint64_t stride = 1;
   int err;
   if (!b) return DROPOUT_ERR_NULL;
   err = dropout_shape_sizes(shape, &ne, &np);
   if (err) return err;
   /* merge adjacent dims with the same flag (dims of 1 join either): the row-major mask
      index is unchanged by merging */
   for (d = 0; d < shape->rank; ++d) {
      int flag = (int)((shape->broadcast >> d) & 1u);
      uint64_t k = shape->dim[d];
      if (k == 1 && r > 0) continue;
      if (r > 0 && flag == prev) { b->dim[r - 1] *= k; continue; }
      b->dim[r] = k;
      b->mstride[r] = (uint64_t)flag;   /* temporarily: the flag */
      prev = flag;
      ++r;
   }
   for (d = r - 1; d >= 0; --d) {       /* flags to mask strides */
      if (b->mstride[d]) { b->mstride[d] = 0; }
      else { b->mstride[d] = stride; stride *= b->dim[d]; }
   }
   for (d = r; d < DROPOUT_MAX_RANK; ++d) { b->dim[d] = 1; b->mstride[d] = 0; }
   b->rank = r;
   b->numel = (uint64_t)ne;
   b->positions = (uint64_t)np;
   return DROPOUT_OK;
}

enum { DROPOUT__PLAIN, DROPOUT__ALPHA, DROPOUT__ALPHA_GRAD };

/* One element of the broadcast ops. */
static void dropout__bcast_elem(int kind, int dtype, void *y, const void *x, size_t i, int keep,
                                const dropout_rule *r, const dropout_alpha_rule *ar)
{
   switch (dtype) {
   case DROPOUT__F32: {
      float v = ((const float *)x)[i];
      ((float *)y)[i] = kind == DROPOUT__PLAIN ? dropout_apply_f32(v, keep, *r)
                       : kind == DROPOUT__ALPHA ? dropout_alpha_apply_f32(v, keep, *ar)
                       : dropout_alpha_grad_f32(v, keep, *ar);
   } break;
   case DROPOUT__F64: {
      double v = ((const double *)x)[i];
      ((double *)y)[i] = kind == DROPOUT__PLAIN ? dropout_apply_f64(v, keep, *r)
                        : kind == DROPOUT__ALPHA ? dropout_alpha_apply_f64(v, keep, *ar)
                        : dropout_alpha_grad_f64(v, keep, *ar);
   } break;
   case DROPOUT__F16: {
      uint16_t v = ((const uint16_t *)x)[i];
      ((uint16_t *)y)[i] = kind == DROPOUT__PLAIN ? dropout_apply_f16(v, keep, *r)
                          : kind == DROPOUT__ALPHA ? dropout_alpha_apply_f16(v, keep, *ar)
                          : dropout_alpha_grad_f16(v, keep, *ar);
   } break;
   default: {
      uint16_t v = ((const uint16_t *)x)[i];
      ((uint16_t *)y)[i] = kind == DROPOUT__PLAIN ? dropout_apply_bf16(v, keep, *r)
                          : kind == DROPOUT__ALPHA ? dropout_alpha_apply_bf16(v, keep, *ar)
                          : dropout_alpha_grad_bf16(v, keep, *ar);
   } break;
   }
}

/* Scalar reference of every broadcast op: walks the tensor in row-major order with an
   odometer over the merged dims; consecutive mask positions share a cached block. */
static int dropout__bcast_run(int kind, int dtype, void *y, uint8_t *mask, const void *x,
                              const dropout_shape *shape, double p, int bits,
                              uint64_t seed, uint64_t stream, uint64_t offset)
{
   dropout_bcast b;
   dropout_rule r;
   dropout_alpha_rule ar;
   dropout__cursor c;
   uint64_t idx[DROPOUT_MAX_RANK], m = 0, i;
   unsigned log2_draws;
   int d, err = dropout_bcast_make(&b, shape);
   if (err) return err;
   err = dropout_check_args(p, bits, (size_t)b.positions, offset);
   if (err) return err;
   if (b.numel > 0 && (!y || !x)) return DROPOUT_ERR_NULL;
   if (mask) {
      err = dropout_mask(mask, (size_t)b.positions, p, bits, seed, stream, offset);
      if (err) return err;
   }
   r = dropout_rule_make(p, bits);
   ar = dropout_alpha_rule_make(p, bits);
   log2_draws = bits == 32 ? 2u : bits == 16 ? 3u : 4u;
   dropout__cursor_init(&c, seed, stream);
   for (d = 0; d < DROPOUT_MAX_RANK; ++d) idx[d] = 0;   /* a fixed size: no memset call (freestanding) */
   for (i = 0; i < b.numel; ++i) {
      uint64_t pos = offset + m;
      const uint32_t *w = dropout__cursor_words(&c, pos >> log2_draws);
      int keep = dropout_keep(dropout_draw(w, bits, (unsigned)(pos & ((1u << log2_draws) - 1u))), r);
      DROPOUT_ASSERT(m == dropout_bcast_index(&b, i));
      dropout__bcast_elem(kind, dtype, y, x, (size_t)i, keep, &r, &ar);
      for (d = b.rank - 1; d >= 0; --d) {          /* next index, mask index with it */
         m += b.mstride[d];
         if (++idx[d] < b.dim[d]) break;
         m -= b.mstride[d] * b.dim[d];
         idx[d] = 0;
      }
   }
   return DROPOUT_OK;
}

/* The normal noise ops, n elements: kind 0 Gaussian dropout (forward == backward),
   kind 1 Gaussian noise. */
static int dropout__normal_run(int kind, int dtype, void *y, const void *x, size_t n,
                               double param, uint64_t seed, uint64_t stream, uint64_t offset)
{
   dropout__cursor c;
   float sigma;
   size_t i;
   if (kind == 0 && !(param >= 0.0 && param < 1.0)) return DROPOUT_ERR_P;
   if (kind == 1 && !(param >= 0.0 && param <= 1.7976931348623157e308)) return DROPOUT_ERR_ARG;
   if (!dropout__range_ok(n, offset)) return DROPOUT_ERR_RANGE;
   if (n > 0 && (!y || !x)) return DROPOUT_ERR_NULL;
   sigma = kind == 0 ? dropout_gaussian_sigma(param) : (float)param;
   dropout__cursor_init(&c, seed, stream);
   for (i = 0; i < n; ++i) {
      uint64_t q = offset + i;
      const uint32_t *w;
      float z;
      if (!(param > 0.0)) {                       /* copy bit for bit */
         switch (dtype) {
         case DROPOUT__F32: ((float *)y)[i] = ((const float *)x)[i]; break;
         case DROPOUT__F64: ((double *)y)[i] = ((const double *)x)[i]; break;
         default: ((uint16_t *)y)[i] = ((const uint16_t *)x)[i]; break;
         }
         continue;
      }
      w = dropout__cursor_words(&c, q >> 2);
      z = dropout_normal_from_words(w[q & 2u], w[(q & 2u) + 1u], (int)(q & 1u));
      switch (dtype) {
      case DROPOUT__F32: {
         float v = ((const float *)x)[i];
         ((float *)y)[i] = kind == 0 ? v * dropout_gaussian_mult(z, sigma) : dropout_noise_add_f32(v, z, sigma);
      } break;
      case DROPOUT__F64: {
         double v = ((const double *)x)[i];
         ((double *)y)[i] = kind == 0 ? v * (double)dropout_gaussian_mult(z, sigma) : dropout_noise_add_f64(v, z, sigma);
      } break;
      case DROPOUT__F16: {
         float v = dropout_f16_to_f32(((const uint16_t *)x)[i]);
         ((uint16_t *)y)[i] = dropout_f32_to_f16(kind == 0 ? v * dropout_gaussian_mult(z, sigma) : dropout_noise_add_f32(v, z, sigma));
      } break;
      default: {
         float v = dropout_bf16_to_f32(((const uint16_t *)x)[i]);
         ((uint16_t *)y)[i] = dropout_f32_to_bf16(kind == 0 ? v * dropout_gaussian_mult(z, sigma) : dropout_noise_add_f32(v, z, sigma));
      } break;
      }
   }
   return DROPOUT_OK;
}

DROPOUTDEF float dropout_gaussian_sigma(double p)
{
   return (float)dropout__sqrt_f64(p / (1.0 - p));
}

DROPOUTDEF int dropout_fill_normal_f32(float *out, size_t n, uint64_t seed, uint64_t stream, uint64_t offset)
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

#define DROPOUT__DEFINE_VARIANTS(suffix, T, dtype)                                                  \
   DROPOUTDEF int dropout_bcast_forward_##suffix(T *y, uint8_t *mask, const T *x,                    \
         const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset) \
   { return dropout__bcast_run(DROPOUT__PLAIN, dtype, y, mask, x, shape, p, bits, seed, stream, offset); } \
   DROPOUTDEF int dropout_bcast_backward_##suffix(T *dx, const T *dy, const dropout_shape *shape,    \
         double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)                        \
   { return dropout__bcast_run(DROPOUT__PLAIN, dtype, dx, NULL, dy, shape, p, bits, seed, stream, offset); } \
   DROPOUTDEF int dropout_alpha_forward_##suffix(T *y, uint8_t *mask, const T *x,                    \
         const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset) \
   { return dropout__bcast_run(DROPOUT__ALPHA, dtype, y, mask, x, shape, p, bits, seed, stream, offset); } \
   DROPOUTDEF int dropout_alpha_backward_##suffix(T *dx, const T *dy, const dropout_shape *shape,    \
         double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)                        \
   { return dropout__bcast_run(DROPOUT__ALPHA_GRAD, dtype, dx, NULL, dy, shape, p, bits, seed, stream, offset); } \
   DROPOUTDEF int dropout_gaussian_forward_##suffix(T *y, const T *x, size_t n, double p,            \
         uint64_t seed, uint64_t stream, uint64_t offset)                                            \
   { return dropout__normal_run(0, dtype, y, x, n, p, seed, stream, offset); }                       \
   DROPOUTDEF int dropout_gaussian_backward_##suffix(T *dx, const T *dy, size_t n, double p,         \
         uint64_t seed, uint64_t stream, uint64_t offset)                                            \
   { return dropout__normal_run(0, dtype, dx, dy, n, p, seed, stream, offset); }                     \
   DROPOUTDEF int dropout_noise_forward_##suffix(T *y, const T *x, size_t n, double sigma,           \
         uint64_t seed, uint64_t stream, uint64_t offset)                                            \
   { return dropout__normal_run(1, dtype, y, x, n, sigma, seed, stream, offset); }

DROPOUT__DEFINE_VARIANTS(f32, float, DROPOUT__F32)
DROPOUT__DEFINE_VARIANTS(f64, double, DROPOUT__F64)
DROPOUT__DEFINE_VARIANTS(f16, uint16_t, DROPOUT__F16)
DROPOUT__DEFINE_VARIANTS(bf16, uint16_t, DROPOUT__BF16)
#undef DROPOUT__DEFINE_VARIANTS

/* ============================ end of VARIANTS implementation ========================== */

/* ---- fused bias-dropout-residual (implementation) -------------------------------------
   Scalar and self-contained (only the public building blocks), so it is the reference
   the GPU kernels are tested against. */
static int dropout__bda_run(int dtype, void *y, uint8_t *mask, const void *x, const void *bias,
                            const void *residual, size_t rows, size_t cols, double p, int bits,
                            uint64_t seed, uint64_t stream, uint64_t offset)
{
   dropout_rule r;
   uint32_t w[4];
   uint64_t block = 0;
   unsigned log2_draws;
   size_t n, j, c = 0;
   uint8_t byte = 0;
   int have = 0, err;
   if (cols != 0 && rows > (size_t)-1 / cols) return DROPOUT_ERR_ARG;
   n = rows * cols;
   if (n > 0 && (!y || !x || !bias || !residual)) return DROPOUT_ERR_NULL;
   err = dropout_check_args(p, bits, n, offset);
   if (err) return err;
   r = dropout_rule_make(p, bits);
   log2_draws = bits == 32 ? 2u : bits == 16 ? 3u : 4u;
   for (j = 0; j < n; ++j) {
      uint64_t q = offset + (uint64_t)j;
      int keep;
      if (!have || (q >> log2_draws) != block) {
         block = q >> log2_draws;
         dropout_block(seed, stream, block, w);
         have = 1;
      }
      keep = dropout_keep(dropout_draw(w, bits, (unsigned)(q & ((1u << log2_draws) - 1u))), r);
      if (dtype == DROPOUT__F32)
         ((float *)y)[j] = dropout_bias_dropout_add_one_f32(((const float *)x)[j], ((const float *)bias)[c], ((const float *)residual)[j], keep, r);
      else if (dtype == DROPOUT__F64)
         ((double *)y)[j] = dropout_bias_dropout_add_one_f64(((const double *)x)[j], ((const double *)bias)[c], ((const double *)residual)[j], keep, r);
      else if (dtype == DROPOUT__F16)
         ((uint16_t *)y)[j] = dropout_bias_dropout_add_one_f16(((const uint16_t *)x)[j], ((const uint16_t *)bias)[c], ((const uint16_t *)residual)[j], keep, r);
      else
         ((uint16_t *)y)[j] = dropout_bias_dropout_add_one_bf16(((const uint16_t *)x)[j], ((const uint16_t *)bias)[c], ((const uint16_t *)residual)[j], keep, r);
      if (++c == cols) c = 0;
      if (mask) {
         byte = (uint8_t)(byte | (unsigned)keep << (j & 7u));
         if ((j & 7u) == 7u || j + 1 == n) { mask[j >> 3] = byte; byte = 0; }
      }
   }
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_bias_dropout_add_f32(float *y, uint8_t *mask, const float *x, const float *bias, const float *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout__bda_run(DROPOUT__F32, y, mask, x, bias, residual, rows, cols, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_bias_dropout_add_f64(double *y, uint8_t *mask, const double *x, const double *bias, const double *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout__bda_run(DROPOUT__F64, y, mask, x, bias, residual, rows, cols, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_bias_dropout_add_f16(uint16_t *y, uint8_t *mask, const uint16_t *x, const uint16_t *bias, const uint16_t *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout__bda_run(DROPOUT__F16, y, mask, x, bias, residual, rows, cols, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_bias_dropout_add_bf16(uint16_t *y, uint8_t *mask, const uint16_t *x, const uint16_t *bias, const uint16_t *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout__bda_run(DROPOUT__BF16, y, mask, x, bias, residual, rows, cols, p, bits, seed, stream, offset);
}
/* ---- END fused bias-dropout-residual (implementation) --------------------------------- */


#ifdef __cplusplus
}
#endif

#endif /* DROPOUT_IMPLEMENTATION_DONE */
#endif /* DROPOUT_IMPLEMENTATION */

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
