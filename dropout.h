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
      DROPOUT_ASSERT(x)       your own assert for internal invariants (default: assert.h);
                              argument validation does not depend on it
      DROPOUT_NO_SIMD         use only the scalar reference paths (bit-identical anyway)

   THE CONTRACT (docs/SPEC.md has it to the bit)
      word w of stream s under seed k = philox4x32_10(ctr = {w/4 lo, w/4 hi, s lo, s hi},
      key = {k lo, k hi})[w % 4], which is cuRAND's curand_init(k, s, w) + curand().
      Element j of a call with offset o draws position o + j: a 32-, 16- or 8-bit slice of
      that stream. Keep iff draw >= round(p * 2^bits); kept y = x * (1/q), q the realised
      keep probability; dropped y = +0. Masks are bit-packed, LSB first, 1 = kept.

   DETERMINISM
      Results are defined as specific IEEE-754 operations in round-to-nearest-even: one
      multiply per kept element (float for f32/f16/bf16, double for f64), with the f16
      and bf16 conversions done by this header's own integer code. There is no
      multiply-add to contract and no libm call, so -O3, -march=native and FMA hardware
      change nothing. Do not build with -ffast-math (it may flush denormals to zero) and
      do not use an x87 FPU with excess precision (FLT_EVAL_METHOD must be 0).

   THREADS AND CHUNKS
      Functions are reentrant. To split a tensor over threads or machines, give each
      chunk its own offset (offset + chunk start) and output slice: the result equals
      one call. Mask bytes hold 8 elements, so chunks that write masks start at
      multiples of 8 elements.

   LICENSE: see the end of the file.
*/

#ifndef DROPOUT_H_INCLUDED
#define DROPOUT_H_INCLUDED

#include <stddef.h>
#include <stdint.h>

#define DROPOUT_VERSION_MAJOR 0
#define DROPOUT_VERSION_MINOR 1
#define DROPOUT_VERSION_PATCH 0
#define DROPOUT_VERSION_STRING "0.1.0"

#ifndef DROPOUTDEF
#ifdef DROPOUT_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define DROPOUTDEF static __attribute__((unused))   /* a file may use only a few */
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

/* One element of forward (or backward: pass dy as x). t = 0 copies x bit for bit. */
DROPOUT_HD float dropout_apply_f32(float x, int keep, dropout_rule r)
{
   if (r.threshold == 0) return x;
   return keep ? x * r.scale_f32 : 0.0f;
}

DROPOUT_HD double dropout_apply_f64(double x, int keep, dropout_rule r)
{
   if (r.threshold == 0) return x;
   return keep ? x * r.scale_f64 : 0.0;
}

DROPOUT_HD uint16_t dropout_apply_f16(uint16_t x, int keep, dropout_rule r)
{
   if (r.threshold == 0) return x;
   return keep ? dropout_f32_to_f16(dropout_f16_to_f32(x) * r.scale_f32) : (uint16_t)0;
}

DROPOUT_HD uint16_t dropout_apply_bf16(uint16_t x, int keep, dropout_rule r)
{
   if (r.threshold == 0) return x;
   return keep ? dropout_f32_to_bf16(dropout_bf16_to_f32(x) * r.scale_f32) : (uint16_t)0;
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
#include <assert.h>
#define DROPOUT_ASSERT(x) assert(x)
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

/* The one loop behind forward, backward, mask and apply_mask.
   y/x: the data (both NULL for mask only); mask_out: optional; mask_in: when given, the
   keep bits come from it instead of the stream. */
static int dropout__run(int dtype, void *y, uint8_t *mask_out, const void *x,
                        const uint8_t *mask_in, size_t n, double p, int bits,
                        uint64_t seed, uint64_t stream, uint64_t offset)
{
   dropout_rule r;
   dropout__cursor c;
   size_t at;
   int err = dropout_check_args(p, bits, n, offset);
   if (err) return err;
   r = dropout_rule_make(p, bits);
   dropout__cursor_init(&c, seed, stream);
   for (at = 0; at < n; at += DROPOUT__CHUNK) {
      unsigned count = (unsigned)(n - at < DROPOUT__CHUNK ? n - at : DROPOUT__CHUNK);
      DROPOUT_ASSERT(count >= 1 && count <= DROPOUT__CHUNK);
      uint64_t keep = mask_in ? dropout__load_mask_bits(mask_in + at / 8u, count)
                              : dropout__keep_bits_ref(&c, &r, offset + at, count);
      if (mask_out) dropout__store_mask_bits(mask_out + at / 8u, keep, count);
      if (y) dropout__apply_chunk(dtype, y, x, at, keep, count, &r);
   }
   return DROPOUT_OK;
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
   dropout__cursor c;
   size_t i;
   DROPOUT__NEED(out);
   if (!dropout__range_ok(n, word)) return DROPOUT_ERR_RANGE;
   dropout__cursor_init(&c, seed, stream);
   for (i = 0; i < n; ++i) {
      uint64_t q = word + i;
      out[i] = dropout__cursor_words(&c, q >> 2)[q & 3u];
   }
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_fill_uniform_f32(float *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word)
{
   dropout__cursor c;
   size_t i;
   DROPOUT__NEED(out);
   if (!dropout__range_ok(n, word)) return DROPOUT_ERR_RANGE;
   dropout__cursor_init(&c, seed, stream);
   for (i = 0; i < n; ++i) {
      uint64_t q = word + i;
      uint32_t w = dropout__cursor_words(&c, q >> 2)[q & 3u];
      out[i] = (float)(w >> 8) * 5.9604644775390625e-8f;   /* 2^-24 */
   }
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_fill_uniform_f64(double *out, size_t n, uint64_t seed, uint64_t stream, uint64_t index)
{
   dropout__cursor c;
   size_t i;
   DROPOUT__NEED(out);
   if (index > (UINT64_MAX >> 1) || !dropout__range_ok(n, index) ||
       (n > 0 && index + (uint64_t)(n - 1) > (UINT64_MAX >> 1)))
      return DROPOUT_ERR_RANGE;
   dropout__cursor_init(&c, seed, stream);
   for (i = 0; i < n; ++i) {
      uint64_t q = 2u * (index + i);         /* words q (low half) and q + 1 (high half) */
      const uint32_t *w = dropout__cursor_words(&c, q >> 2);
      uint64_t u = (uint64_t)w[(q & 3u) + 1u] << 32 | w[q & 3u];
      out[i] = (double)(u >> 11) * 1.1102230246251565404236316680908203125e-16;  /* 2^-53 */
   }
   return DROPOUT_OK;
}

#undef DROPOUT__NEED
#undef DROPOUT__DEFINE_TYPE

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
