/* dropout_v0.h - the 0.1.0 interface of dropout.h, deprecated - public domain or MIT

   For code on its way over to 1.0. Put this file beside dropout.h and
   #define DROPOUT_V0_API before including dropout.h (in the implementation file too):
   dropout.h then includes this file, and 0.1.0 code compiles unchanged and gives the
   same bits as under 0.1.0. Nothing here is new engine code: every call below is written
   on dropout.h's public 1.0 calls (its own helpers are named dropout_v0__), in the order
   0.1.0 checked its arguments, with 0.1.0's return codes (DROPOUT_ERR_NULL and
   DROPOUT_ERR_ARG for what 1.0 names more closely).

   0.1.0 spelled some calls with the names 1.0 gives to other arguments (dropout_forward_f32
   took y, mask, x, n, p, bits, seed, stream, offset). Those are the dropout_v0_ functions
   here, and at the end of this file macros give them their 0.1 names (dropout_forward_f32
   -> dropout_v0_forward_f32): with DROPOUT_V0_API the 1.0 spelling of those names is not
   available in the same file. The calls that 1.0 removed keep their 0.1 names.

   DEPRECATED: each function is marked with the 1.0 call to use (CHANGELOG.md's table
   "Moving a 0.1 call" shows each move), so the compiler names it where the 0.1 call is.
   #define DROPOUT_DISABLE_DEPRECATE_WARNINGS to silence them. DROPOUT_V0_API and this file
   go away in 1.0.
*/

#if defined(DROPOUT_V0__NAMES_OFF)
/* dropout.h, compiling its implementation after this file has already named the 0.1
   calls (declarations included first, the implementation later): lift the names so the
   1.0 definitions keep theirs; the end of dropout.h includes this file again. */
#undef DROPOUT_V0__NAMES_OFF
#undef dropout_apply_mask_bf16
#undef dropout_apply_mask_f16
#undef dropout_apply_mask_f32
#undef dropout_apply_mask_f64
#undef dropout_backward_bf16
#undef dropout_backward_f16
#undef dropout_backward_f32
#undef dropout_backward_f64
#undef dropout_bias_dropout_add_bf16
#undef dropout_bias_dropout_add_f16
#undef dropout_bias_dropout_add_f32
#undef dropout_bias_dropout_add_f64
#undef dropout_fill_normal_f32
#undef dropout_fill_u32
#undef dropout_fill_uniform_f32
#undef dropout_fill_uniform_f64
#undef dropout_forward_bf16
#undef dropout_forward_f16
#undef dropout_forward_f32
#undef dropout_forward_f64
#undef dropout_gen
#undef dropout_gen_init
#undef dropout_gen_make
#undef dropout_gen_move
#undef dropout_gen_plan
#undef dropout_gen_plan_normals
#undef dropout_gen_resume
#undef dropout_desc_new_step
#undef dropout_mask
#undef dropout_stream_u32
#else

#ifndef DROPOUT_H_INCLUDED
#error "dropout_v0.h is included by dropout.h: #define DROPOUT_V0_API and #include \"dropout.h\""
#endif

#ifndef DROPOUT_V0_H_INCLUDED
#define DROPOUT_V0_H_INCLUDED

/* DROPOUT_DEPRECATED("use ..."): the compiler's deprecation mark with its message, or
   nothing (DROPOUT_DISABLE_DEPRECATE_WARNINGS, or a compiler without one). */
#ifndef DROPOUT_DEPRECATED
#if defined(DROPOUT_DISABLE_DEPRECATE_WARNINGS)
#define DROPOUT_DEPRECATED(message)
#elif defined(__cplusplus) && __cplusplus >= 201402L
#define DROPOUT_DEPRECATED(message) [[deprecated(message)]]
#elif defined(__clang__) || (defined(__GNUC__) && (__GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ >= 5)))
#define DROPOUT_DEPRECATED(message) __attribute__((deprecated(message)))
#elif defined(__GNUC__)
#define DROPOUT_DEPRECATED(message) __attribute__((deprecated))
#elif defined(_MSC_VER)
#define DROPOUT_DEPRECATED(message) __declspec(deprecated(message))
#else
#define DROPOUT_DEPRECATED(message)
#endif
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

#define DROPOUT_V0__USE(call) DROPOUT_DEPRECATED("0.1 call: use " call " (CHANGELOG.md, 'Moving a 0.1 call')")

#ifdef __cplusplus
extern "C" {
#endif

/* Arguments: outputs first, then inputs, n, the rule (p, bits), then the stream
   coordinates (seed, stream, offset). y may equal x (in place); otherwise the buffers
   must not overlap. mask may be NULL where marked optional. */

/* A checkpointable generator: plain integers, advance by n per call. */
typedef struct dropout_v0_gen {
   uint64_t seed;
   uint64_t stream;
   uint64_t offset;   /* next unused stream position */
} dropout_v0_gen;

DROPOUT_V0__USE("dropout_gen_init(&g, dropout_key_make(seed, stream)) in a file without DROPOUT_V0_API")
DROPOUTDEF dropout_v0_gen dropout_v0_gen_make(uint64_t seed, uint64_t stream);
/* Reserve n positions: *offset receives the first, g->offset moves past the last.
   DROPOUT_ERR_RANGE when the generator cannot represent the next offset. */
DROPOUT_V0__USE("dropout_gen_plan(&g, &rule, n, &plan) in a file without DROPOUT_V0_API")
DROPOUTDEF int dropout_gen_next(dropout_v0_gen *g, size_t n, uint64_t *offset);

/* The raw stream: word `word` of stream `stream` under `seed`. */
DROPOUT_V0__USE("dropout_stream_u32(dropout_key_make(seed, stream), dropout_pos_make(word))")
DROPOUTDEF uint32_t dropout_v0_stream_u32(uint64_t seed, uint64_t stream, uint64_t word);
/* out[i] = word (word + i), i < n. */
DROPOUT_V0__USE("dropout_fill_u32(key, dropout_pos_make(word), out, n)")
DROPOUTDEF int dropout_v0_fill_u32(uint32_t *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word);
/* out[i] = (word(word + i) >> 8) * 2^-24: exact, in [0, 1). */
DROPOUT_V0__USE("dropout_fill_uniform_f32(key, dropout_pos_make(word), out, n)")
DROPOUTDEF int dropout_v0_fill_uniform_f32(float *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word);
/* out[i] = ((w(2(q)+1) << 32 | w(2q)) >> 11) * 2^-53 with q = index + i: exact, in [0, 1).
   `index` counts doubles (two words each), so index + n must not pass 2^63. */
DROPOUT_V0__USE("dropout_fill_uniform_f64(key, dropout_pos_make(index), out, n)")
DROPOUTDEF int dropout_v0_fill_uniform_f64(double *out, size_t n, uint64_t seed, uint64_t stream, uint64_t index);

/* Forward. mask (optional): ceil(n/8) bytes, bit j%8 of byte j/8 = element j kept;
   bits of the last byte past n are written as 0. */
DROPOUT_V0__USE("dropout_forward_f32(&g, &rule, &plan, n, y, mask, x), or dropout_replay_f32 at given coordinates")
DROPOUTDEF int dropout_v0_forward_f32(float *y, uint8_t *mask, const float *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE("dropout_forward_f64(&g, &rule, &plan, n, y, mask, x), or dropout_replay_f64 at given coordinates")
DROPOUTDEF int dropout_v0_forward_f64(double *y, uint8_t *mask, const double *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE("dropout_forward_f16(&g, &rule, &plan, n, y, mask, x), or dropout_replay_f16 at given coordinates")
DROPOUTDEF int dropout_v0_forward_f16(uint16_t *y, uint8_t *mask, const uint16_t *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE("dropout_forward_bf16(&g, &rule, &plan, n, y, mask, x), or dropout_replay_bf16 at given coordinates")
DROPOUTDEF int dropout_v0_forward_bf16(uint16_t *y, uint8_t *mask, const uint16_t *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);

/* Backward that rebuilds the mask from (seed, stream, offset): no mask memory. */
DROPOUT_V0__USE("dropout_backward_f32(&plan, n, dx, dy)")
DROPOUTDEF int dropout_v0_backward_f32(float *dx, const float *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE("dropout_backward_f64(&plan, n, dx, dy)")
DROPOUTDEF int dropout_v0_backward_f64(double *dx, const double *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE("dropout_backward_f16(&plan, n, dx, dy)")
DROPOUTDEF int dropout_v0_backward_f16(uint16_t *dx, const uint16_t *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE("dropout_backward_bf16(&plan, n, dx, dy)")
DROPOUTDEF int dropout_v0_backward_bf16(uint16_t *dx, const uint16_t *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);

/* The mask alone. */
DROPOUT_V0__USE("dropout_mask(&plan, n, mask)")
DROPOUTDEF int dropout_v0_mask(uint8_t *mask, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);

/* y = x where the stored mask keeps, scaled as forward; 0 elsewhere. This is also the
   backward from a stored mask (x = dy). (p, bits) give the scale and must be those of the
   forward that made the mask. */
DROPOUT_V0__USE("dropout_apply_mask_f32(&rule, n, y, mask, x)")
DROPOUTDEF int dropout_v0_apply_mask_f32(float *y, const float *x, const uint8_t *mask, size_t n, double p, int bits);
DROPOUT_V0__USE("dropout_apply_mask_f64(&rule, n, y, mask, x)")
DROPOUTDEF int dropout_v0_apply_mask_f64(double *y, const double *x, const uint8_t *mask, size_t n, double p, int bits);
DROPOUT_V0__USE("dropout_apply_mask_f16(&rule, n, y, mask, x)")
DROPOUTDEF int dropout_v0_apply_mask_f16(uint16_t *y, const uint16_t *x, const uint8_t *mask, size_t n, double p, int bits);
DROPOUT_V0__USE("dropout_apply_mask_bf16(&rule, n, y, mask, x)")
DROPOUTDEF int dropout_v0_apply_mask_bf16(uint16_t *y, const uint16_t *x, const uint8_t *mask, size_t n, double p, int bits);

/* Backward from a stored mask: the same operation as apply_mask, named for the reader. */
DROPOUT_V0__USE("dropout_apply_mask_f32(&rule, n, dx, mask, dy)")
DROPOUTDEF int dropout_backward_mask_f32(float *dx, const float *dy, const uint8_t *mask, size_t n, double p, int bits);
DROPOUT_V0__USE("dropout_apply_mask_f64(&rule, n, dx, mask, dy)")
DROPOUTDEF int dropout_backward_mask_f64(double *dx, const double *dy, const uint8_t *mask, size_t n, double p, int bits);
DROPOUT_V0__USE("dropout_apply_mask_f16(&rule, n, dx, mask, dy)")
DROPOUTDEF int dropout_backward_mask_f16(uint16_t *dx, const uint16_t *dy, const uint8_t *mask, size_t n, double p, int bits);
DROPOUT_V0__USE("dropout_apply_mask_bf16(&rule, n, dx, mask, dy)")
DROPOUTDEF int dropout_backward_mask_bf16(uint16_t *dx, const uint16_t *dy, const uint8_t *mask, size_t n, double p, int bits);

/* Validation shared with dropout_cuda_v0.cuh: DROPOUT_OK or the code a call would return. */
DROPOUT_V0__USE("dropout_rule_init(&rule, p, bits) then dropout_plan_at (each checks its part)")
DROPOUTDEF int dropout_check_args(double p, int bits, size_t n, uint64_t offset);

/* y, x, residual: rows * cols elements; bias: cols; mask: optional, ceil(rows*cols/8)
   bytes as forward's. y may equal x or residual. DROPOUT_ERR_ARG if rows * cols
   overflows size_t. */
DROPOUT_V0__USE("dropout_bias_dropout_add_f32(&g, &rule, &plan, rows * cols, cols, y, mask, x, bias, residual)")
DROPOUTDEF int dropout_v0_bias_dropout_add_f32(float *y, uint8_t *mask, const float *x, const float *bias, const float *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE("dropout_bias_dropout_add_f64(&g, &rule, &plan, rows * cols, cols, y, mask, x, bias, residual)")
DROPOUTDEF int dropout_v0_bias_dropout_add_f64(double *y, uint8_t *mask, const double *x, const double *bias, const double *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE("dropout_bias_dropout_add_f16(&g, &rule, &plan, rows * cols, cols, y, mask, x, bias, residual)")
DROPOUTDEF int dropout_v0_bias_dropout_add_f16(uint16_t *y, uint8_t *mask, const uint16_t *x, const uint16_t *bias, const uint16_t *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE("dropout_bias_dropout_add_bf16(&g, &rule, &plan, rows * cols, cols, y, mask, x, bias, residual)")
DROPOUTDEF int dropout_v0_bias_dropout_add_bf16(uint16_t *y, uint8_t *mask, const uint16_t *x, const uint16_t *bias, const uint16_t *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);

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

/* Validate a shape: DROPOUT_ERR_NULL, DROPOUT_ERR_ARG (rank outside 1..8, broadcast bits
   at or past rank, element or mask counts that overflow size_t) or DROPOUT_OK, with the
   tensor's element count and the positions a call uses (both optional). */
DROPOUT_V0__USE("dropout_shape_positions(rank, dims, broadcast, &positions)")
DROPOUTDEF int dropout_shape_sizes(const dropout_shape *shape, size_t *numel, size_t *positions);
DROPOUT_V0__USE("a dropout_desc with dropout_desc_set_shape and dropout_desc_set_broadcast")
DROPOUTDEF int dropout_bcast_make(dropout_bcast *b, const dropout_shape *shape);

/* Broadcast dropout: the core keep rule on the mask positions, scaled as the core.
   mask (optional): ceil(positions / 8) bytes, the mask in its own shape (== dropout_v0_mask
   of `positions` elements). No broadcast bits gives exactly dropout_forward_*. */
#define DROPOUT_V0__BCAST "dropout_run with DROPOUT_OP_FORWARD, dropout_desc_set_shape and dropout_desc_set_broadcast"
#define DROPOUT_V0__BCAST_BACK "dropout_run with DROPOUT_OP_BACKWARD, dropout_desc_set_shape and dropout_desc_set_broadcast"
DROPOUT_V0__USE(DROPOUT_V0__BCAST)
DROPOUTDEF int dropout_bcast_forward_f32(float *y, uint8_t *mask, const float *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__BCAST)
DROPOUTDEF int dropout_bcast_forward_f64(double *y, uint8_t *mask, const double *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__BCAST)
DROPOUTDEF int dropout_bcast_forward_f16(uint16_t *y, uint8_t *mask, const uint16_t *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__BCAST)
DROPOUTDEF int dropout_bcast_forward_bf16(uint16_t *y, uint8_t *mask, const uint16_t *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__BCAST_BACK)
DROPOUTDEF int dropout_bcast_backward_f32(float *dx, const float *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__BCAST_BACK)
DROPOUTDEF int dropout_bcast_backward_f64(double *dx, const double *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__BCAST_BACK)
DROPOUTDEF int dropout_bcast_backward_f16(uint16_t *dx, const uint16_t *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__BCAST_BACK)
DROPOUTDEF int dropout_bcast_backward_bf16(uint16_t *dx, const uint16_t *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);

/* Alpha dropout (broadcast = 0) and feature alpha dropout (broadcast the spatial dims). */
#define DROPOUT_V0__ALPHA "dropout_run with DROPOUT_OP_ALPHA_FORWARD (dropout_desc_set_shape, dropout_desc_set_broadcast)"
#define DROPOUT_V0__ALPHA_BACK "dropout_run with DROPOUT_OP_ALPHA_BACKWARD (dropout_desc_set_shape, dropout_desc_set_broadcast)"
DROPOUT_V0__USE(DROPOUT_V0__ALPHA)
DROPOUTDEF int dropout_alpha_forward_f32(float *y, uint8_t *mask, const float *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__ALPHA)
DROPOUTDEF int dropout_alpha_forward_f64(double *y, uint8_t *mask, const double *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__ALPHA)
DROPOUTDEF int dropout_alpha_forward_f16(uint16_t *y, uint8_t *mask, const uint16_t *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__ALPHA)
DROPOUTDEF int dropout_alpha_forward_bf16(uint16_t *y, uint8_t *mask, const uint16_t *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__ALPHA_BACK)
DROPOUTDEF int dropout_alpha_backward_f32(float *dx, const float *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__ALPHA_BACK)
DROPOUTDEF int dropout_alpha_backward_f64(double *dx, const double *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__ALPHA_BACK)
DROPOUTDEF int dropout_alpha_backward_f16(uint16_t *dx, const uint16_t *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__ALPHA_BACK)
DROPOUTDEF int dropout_alpha_backward_bf16(uint16_t *dx, const uint16_t *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset);

/* out[i] = normal number offset + i (float). A call uses n positions. */
DROPOUT_V0__USE("dropout_fill_normal_f32(key, dropout_pos_make(offset), out, n)")
DROPOUTDEF int dropout_v0_fill_normal_f32(float *out, size_t n, uint64_t seed, uint64_t stream, uint64_t offset);

/* Gaussian dropout, p in [0, 1): y = x * m_i (backward: dx = dy * m_i, same noise).
   p = 0 copies x. f16/bf16 compute in float; f64 multiplies by (double)m_i. sigma is
   dropout_gaussian_sigma(p) of p as given (1.0's DROPOUT_OP_GAUSSIAN: of the realised p). */
#define DROPOUT_V0__GAUSS "dropout_run with DROPOUT_OP_GAUSSIAN (sigma from the plan's realised p)"
DROPOUT_V0__USE(DROPOUT_V0__GAUSS)
DROPOUTDEF int dropout_gaussian_forward_f32(float *y, const float *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__GAUSS)
DROPOUTDEF int dropout_gaussian_forward_f64(double *y, const double *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__GAUSS)
DROPOUTDEF int dropout_gaussian_forward_f16(uint16_t *y, const uint16_t *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__GAUSS)
DROPOUTDEF int dropout_gaussian_forward_bf16(uint16_t *y, const uint16_t *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__GAUSS " on dy")
DROPOUTDEF int dropout_gaussian_backward_f32(float *dx, const float *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__GAUSS " on dy")
DROPOUTDEF int dropout_gaussian_backward_f64(double *dx, const double *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__GAUSS " on dy")
DROPOUTDEF int dropout_gaussian_backward_f16(uint16_t *dx, const uint16_t *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__GAUSS " on dy")
DROPOUTDEF int dropout_gaussian_backward_bf16(uint16_t *dx, const uint16_t *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset);

/* Gaussian noise: y = x + sigma_f * z_i, sigma finite and >= 0 (else DROPOUT_ERR_ARG);
   sigma = 0 copies x. The gradient is the identity (dx = dy): no backward function. */
#define DROPOUT_V0__NOISE "dropout_run with DROPOUT_OP_NOISE and dropout_desc_set_sigma"
DROPOUT_V0__USE(DROPOUT_V0__NOISE)
DROPOUTDEF int dropout_noise_forward_f32(float *y, const float *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__NOISE)
DROPOUTDEF int dropout_noise_forward_f64(double *y, const double *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__NOISE)
DROPOUTDEF int dropout_noise_forward_f16(uint16_t *y, const uint16_t *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset);
DROPOUT_V0__USE(DROPOUT_V0__NOISE)
DROPOUTDEF int dropout_noise_forward_bf16(uint16_t *y, const uint16_t *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset);

#ifdef __cplusplus
}
#endif

#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#pragma GCC diagnostic pop
#endif

#endif /* DROPOUT_V0_H_INCLUDED */

/* ==================================================================================== */
/*   helpers of both implementations (this file's and dropout_cuda_v0.cuh's)           */
/* ==================================================================================== */
#if (defined(DROPOUT_IMPLEMENTATION) || defined(DROPOUT_CUDA_IMPLEMENTATION)) && !defined(DROPOUT_V0__HELPERS_DONE)

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
#define DROPOUT_V0__HELPERS_DONE

/* Gaussian dropout's and noise's parameter (the 0.1 order of checks: before the range and
   the pointers): p in [0, 1); sigma >= 0 and finite once rounded to float, as it is applied
   (from 2^128 - 2^103 up it is +inf: 0.9.0 wrote infinities then; refused since, as the
   1.0 calls refuse it) */
static int dropout_v0__normal_param(dropout_op op, double param)
{
   if (op == DROPOUT_OP_GAUSSIAN && !(param >= 0.0 && param < 1.0)) return DROPOUT_ERR_P;
   if (op == DROPOUT_OP_NOISE && !(param >= 0.0 && param < 3.4028235677973366e38)) return DROPOUT_ERR_ARG;
   return DROPOUT_OK;
}

/* The Gaussian fallback's own loop (CPU and CUDA) passes no engine check: the engine's
   refusals made here, a count no buffer holds and y over part of x (in place, y == x, is
   fine) */
static int dropout_v0__fallback_bufs_ok(dropout_dtype dt, const void *y, const void *x, size_t n)
{
   const size_t es = dt == DROPOUT_DTYPE_F64 ? 8u : dt == DROPOUT_DTYPE_F32 ? 4u : 2u;
   const uintptr_t a = (uintptr_t)y, b = (uintptr_t)x;
   return !(n > (size_t)PTRDIFF_MAX / es || (a != b && (a < b ? b - a : a - b) < n * es));
}

/* positions offset .. offset + n - 1 exist (n = 0 always does) */
static int dropout_v0__range_ok(size_t n, uint64_t offset)
{
   return n == 0 || (uint64_t)(n - 1) <= UINT64_MAX - offset;
}

/* 0.1.0's argument check, in its order: bits, p, the range */
static int dropout_v0__check(double p, int bits, size_t n, uint64_t offset)
{
   if (bits != 8 && bits != 16 && bits != 32) return DROPOUT_ERR_BITS;
   if (!(p >= 0.0 && p <= 1.0)) return DROPOUT_ERR_P;    /* also catches NaN */
   if (!dropout_v0__range_ok(n, offset)) return DROPOUT_ERR_RANGE;
   return DROPOUT_OK;
}

/* 0.1.0's rule for a checked (p, bits): t = floor(p 2^bits + 1/2) as 0.1.0 computed it
   (round to nearest even), p realised as 0 or 1 not refused. Written with exact
   operations only (p 2^bits and the fraction below are exact), so the caller's rounding
   mode cannot move t; the scales come from dropout_rule_init_threshold's integers. The
   one double below 1/2 rounds up with the 1/2 added, as it did: hence its comparison. */
static dropout_rule dropout_v0__rule(double p, int bits)
{
   dropout_rule r;
   double x = p * (double)((uint64_t)1 << bits);
   uint64_t t = (uint64_t)x;
   if (x - (double)t >= 0.49999999999999994) ++t;
   if (dropout_rule_init_threshold(&r, t, (dropout_bits)bits) != DROPOUT_OK)
      r = dropout_rule_make(p, bits);   /* not reached (t <= 2^bits); says r is always set */
   return r;
}

/* ---- Gaussian dropout and noise ----
   0.1.0's Gaussian sigma is dropout_gaussian_sigma(p) of p as given; DROPOUT_OP_GAUSSIAN
   takes it from the plan's realised p = t / 2^32. So look for a t whose sigma is that
   float (sigma grows with t: a bisection), found for most p (CHANGELOG: 99368 of the
   99999 p = k / 100000); 0 where no t gives it (then the caller computes the elements
   itself, from the inline building blocks the engine is made of). */
static int dropout_v0__gauss_threshold(double p, uint64_t *t_out)
{
   float want = dropout_gaussian_sigma(p);
   uint64_t lo = 1, hi = ((uint64_t)1 << 32) - 1;
   dropout_rule r;
   while (lo < hi) {   /* the smallest t whose sigma is >= want */
      uint64_t mid = lo + (hi - lo) / 2;
      if (dropout_rule_init_threshold(&r, mid, DROPOUT_BITS_32) != DROPOUT_OK) return 0;
      if (dropout_gaussian_sigma(dropout_rule_p(&r)) < want) lo = mid + 1; else hi = mid;
   }
   *t_out = lo;
   if (dropout_rule_init_threshold(&r, lo, DROPOUT_BITS_32) != DROPOUT_OK) return 0;
   return dropout_gaussian_sigma(dropout_rule_p(&r)) == want;
}

/* A shape's element count and positions: DROPOUT_ERR_NULL, then anything else wrong is
   DROPOUT_ERR_ARG (rank, broadcast bits, a count past size_t, judged on the non-zero
   dims). A zero dim empties the tensor; the mask keeps its own shape (a zero dim that is
   broadcast is 1 there). The arithmetic of dropout_shape_positions, by 0.1's codes. */
static int dropout_v0__shape_check(const dropout_shape *shape, size_t *numel, size_t *positions)
{
   size_t ne = 1, np = 1;
   int d, empty = 0, mask_empty = 0;
   if (!shape) return DROPOUT_ERR_NULL;
   if (shape->rank < 1 || shape->rank > DROPOUT_MAX_RANK) return DROPOUT_ERR_ARG;
   if ((shape->broadcast >> shape->rank) != 0) return DROPOUT_ERR_ARG;
   for (d = 0; d < shape->rank; ++d) {
      size_t k = shape->dim[d];
      int b = (int)((shape->broadcast >> d) & 1u);
      if (k == 0) { empty = 1; if (!b) mask_empty = 1; continue; }
      if (ne > (size_t)-1 / k) return DROPOUT_ERR_ARG;
      ne *= k;
      if (!b) np *= k;    /* np divides ne: cannot overflow once ne did not */
   }
   *numel = empty ? 0 : ne;
   *positions = mask_empty ? 0 : np;
   return DROPOUT_OK;
}

#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#pragma GCC diagnostic pop
#endif

#endif /* helpers */

/* ==================================================================================== */
/*                  IMPLEMENTATION: the 0.1.0 calls on the 1.0 public calls             */
/* ==================================================================================== */

#if defined(DROPOUT_IMPLEMENTATION) && !defined(DROPOUT_V0_IMPLEMENTATION_DONE)
#define DROPOUT_V0_IMPLEMENTATION_DONE

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

#ifdef __cplusplus
extern "C" {
#endif

static int dropout_v0__plan(dropout_plan *pl, const dropout_rule *r, uint64_t count, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_plan_at(pl, r, dropout_key_make(seed, stream), dropout_pos_make(offset), count);
}

/* 0.1.0's return codes: a 1.0 call's code that 0.1 did not have (DROPOUT_ERR_OVERLAP,
   DROPOUT_ERR_SIZE, ...) is DROPOUT_ERR_ARG (an argument out of its domain), as
   0.1.0 code checks for it; 0.1's own codes (-1 .. -5) and a GPU call's
   (DROPOUT_ERR_CUDA_BASE - error: dropout_cuda_v0.cuh) pass as they are */
static int dropout_v0__code(int err)
{
   return err >= DROPOUT_ERR_ARG || err <= DROPOUT_ERR_CUDA_BASE ? err : DROPOUT_ERR_ARG;
}

/* forward, backward, mask, apply_mask of 0.1.0: pointers (by the caller), then (bits, p,
   range); n = 0 writes nothing and takes NULL buffers. mask_in: apply_mask. */
static int dropout_v0__run(dropout_dtype dt, void *y, uint8_t *mask_out, const void *x, const uint8_t *mask_in,
                           size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   dropout_rule r;
   dropout_plan pl;
   int err = dropout_v0__check(p, bits, n, offset);
   if (err || n == 0) return err;
   r = dropout_v0__rule(p, bits);
   if (mask_in) {
      switch (dt) {
      case DROPOUT_DTYPE_F32: return dropout_v0__code(dropout_apply_mask_f32(&r, n, (float *)y, mask_in, (const float *)x));
      case DROPOUT_DTYPE_F64: return dropout_v0__code(dropout_apply_mask_f64(&r, n, (double *)y, mask_in, (const double *)x));
      case DROPOUT_DTYPE_F16: return dropout_v0__code(dropout_apply_mask_f16(&r, n, (dropout_f16 *)y, mask_in, (const dropout_f16 *)x));
      default: return dropout_v0__code(dropout_apply_mask_bf16(&r, n, (dropout_bf16 *)y, mask_in, (const dropout_bf16 *)x));
      }
   }
   err = dropout_v0__plan(&pl, &r, (uint64_t)n, seed, stream, offset);
   if (err) return dropout_v0__code(err);
   if (!y) return dropout_v0__code(dropout_mask(&pl, n, mask_out));
   switch (dt) {
   case DROPOUT_DTYPE_F32: return dropout_v0__code(dropout_replay_f32(&pl, n, (float *)y, mask_out, (const float *)x));
   case DROPOUT_DTYPE_F64: return dropout_v0__code(dropout_replay_f64(&pl, n, (double *)y, mask_out, (const double *)x));
   case DROPOUT_DTYPE_F16: return dropout_v0__code(dropout_replay_f16(&pl, n, (dropout_f16 *)y, mask_out, (const dropout_f16 *)x));
   default: return dropout_v0__code(dropout_replay_bf16(&pl, n, (dropout_bf16 *)y, mask_out, (const dropout_bf16 *)x));
   }
}

DROPOUTDEF dropout_v0_gen dropout_v0_gen_make(uint64_t seed, uint64_t stream)
{
   dropout_v0_gen g;
   g.seed = seed;
   g.stream = stream;
   g.offset = 0;
   return g;
}

DROPOUTDEF int dropout_gen_next(dropout_v0_gen *g, size_t n, uint64_t *offset)
{
   if (!g || !offset) return DROPOUT_ERR_NULL;
   if ((uint64_t)n > UINT64_MAX - g->offset) return DROPOUT_ERR_RANGE;
   *offset = g->offset;
   g->offset += (uint64_t)n;
   return DROPOUT_OK;
}

DROPOUTDEF int dropout_check_args(double p, int bits, size_t n, uint64_t offset)
{
   return dropout_v0__check(p, bits, n, offset);
}

DROPOUTDEF uint32_t dropout_v0_stream_u32(uint64_t seed, uint64_t stream, uint64_t word)
{
   return dropout_stream_u32(dropout_key_make(seed, stream), dropout_pos_make(word));
}

/* the fills: 0.1.0 checked out, then the range (1.0: the same two, by its codes) */
static int dropout_v0__fill_check(const void *out, size_t n, uint64_t first)
{
   if (n > 0 && !out) return DROPOUT_ERR_NULL;
   return dropout_v0__range_ok(n, first) ? DROPOUT_OK : DROPOUT_ERR_RANGE;
}

DROPOUTDEF int dropout_v0_fill_u32(uint32_t *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word)
{
   int err = dropout_v0__fill_check(out, n, word);
   if (err || n == 0) return err;
   return dropout_v0__code(dropout_fill_u32(dropout_key_make(seed, stream), dropout_pos_make(word), out, n));
}

DROPOUTDEF int dropout_v0_fill_uniform_f32(float *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word)
{
   int err = dropout_v0__fill_check(out, n, word);
   if (err || n == 0) return err;
   return dropout_v0__code(dropout_fill_uniform_f32(dropout_key_make(seed, stream), dropout_pos_make(word), out, n));
}

DROPOUTDEF int dropout_v0_fill_uniform_f64(double *out, size_t n, uint64_t seed, uint64_t stream, uint64_t index)
{
   if (n > 0 && !out) return DROPOUT_ERR_NULL;
   if (n == 0) return DROPOUT_OK;
   /* doubles index .. index + n - 1 below 2^63 (two words each); 1.0 checks the same */
   if (index > (UINT64_MAX >> 1) || (uint64_t)(n - 1) > (UINT64_MAX >> 1) - index) return DROPOUT_ERR_RANGE;
   return dropout_v0__code(dropout_fill_uniform_f64(dropout_key_make(seed, stream), dropout_pos_make(index), out, n));
}

DROPOUTDEF int dropout_v0_fill_normal_f32(float *out, size_t n, uint64_t seed, uint64_t stream, uint64_t offset)
{
   int err = dropout_v0__fill_check(out, n, offset);
   if (err || n == 0) return err;
   return dropout_v0__code(dropout_fill_normal_f32(dropout_key_make(seed, stream), dropout_pos_make(offset), out, n));
}

#define DROPOUT_V0__NEED(ptr) do { if (n > 0 && !(ptr)) return DROPOUT_ERR_NULL; } while (0)

DROPOUTDEF int dropout_v0_forward_f32(float *y, uint8_t *mask, const float *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   DROPOUT_V0__NEED(y); DROPOUT_V0__NEED(x);
   return dropout_v0__run(DROPOUT_DTYPE_F32, y, mask, x, NULL, n, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_v0_forward_f64(double *y, uint8_t *mask, const double *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   DROPOUT_V0__NEED(y); DROPOUT_V0__NEED(x);
   return dropout_v0__run(DROPOUT_DTYPE_F64, y, mask, x, NULL, n, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_v0_forward_f16(uint16_t *y, uint8_t *mask, const uint16_t *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   DROPOUT_V0__NEED(y); DROPOUT_V0__NEED(x);
   return dropout_v0__run(DROPOUT_DTYPE_F16, y, mask, x, NULL, n, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_v0_forward_bf16(uint16_t *y, uint8_t *mask, const uint16_t *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   DROPOUT_V0__NEED(y); DROPOUT_V0__NEED(x);
   return dropout_v0__run(DROPOUT_DTYPE_BF16, y, mask, x, NULL, n, p, bits, seed, stream, offset);
}

/* 0.1.0's backward was its forward without a mask */
DROPOUTDEF int dropout_v0_backward_f32(float *dx, const float *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   DROPOUT_V0__NEED(dx); DROPOUT_V0__NEED(dy);
   return dropout_v0__run(DROPOUT_DTYPE_F32, dx, NULL, dy, NULL, n, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_v0_backward_f64(double *dx, const double *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   DROPOUT_V0__NEED(dx); DROPOUT_V0__NEED(dy);
   return dropout_v0__run(DROPOUT_DTYPE_F64, dx, NULL, dy, NULL, n, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_v0_backward_f16(uint16_t *dx, const uint16_t *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   DROPOUT_V0__NEED(dx); DROPOUT_V0__NEED(dy);
   return dropout_v0__run(DROPOUT_DTYPE_F16, dx, NULL, dy, NULL, n, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_v0_backward_bf16(uint16_t *dx, const uint16_t *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   DROPOUT_V0__NEED(dx); DROPOUT_V0__NEED(dy);
   return dropout_v0__run(DROPOUT_DTYPE_BF16, dx, NULL, dy, NULL, n, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_v0_mask(uint8_t *mask, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   DROPOUT_V0__NEED(mask);
   return dropout_v0__run(DROPOUT_DTYPE_F32, NULL, mask, NULL, NULL, n, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_v0_apply_mask_f32(float *y, const float *x, const uint8_t *mask, size_t n, double p, int bits)
{
   DROPOUT_V0__NEED(y); DROPOUT_V0__NEED(x); DROPOUT_V0__NEED(mask);
   return dropout_v0__run(DROPOUT_DTYPE_F32, y, NULL, x, mask, n, p, bits, 0, 0, 0);
}

DROPOUTDEF int dropout_v0_apply_mask_f64(double *y, const double *x, const uint8_t *mask, size_t n, double p, int bits)
{
   DROPOUT_V0__NEED(y); DROPOUT_V0__NEED(x); DROPOUT_V0__NEED(mask);
   return dropout_v0__run(DROPOUT_DTYPE_F64, y, NULL, x, mask, n, p, bits, 0, 0, 0);
}

DROPOUTDEF int dropout_v0_apply_mask_f16(uint16_t *y, const uint16_t *x, const uint8_t *mask, size_t n, double p, int bits)
{
   DROPOUT_V0__NEED(y); DROPOUT_V0__NEED(x); DROPOUT_V0__NEED(mask);
   return dropout_v0__run(DROPOUT_DTYPE_F16, y, NULL, x, mask, n, p, bits, 0, 0, 0);
}

DROPOUTDEF int dropout_v0_apply_mask_bf16(uint16_t *y, const uint16_t *x, const uint8_t *mask, size_t n, double p, int bits)
{
   DROPOUT_V0__NEED(y); DROPOUT_V0__NEED(x); DROPOUT_V0__NEED(mask);
   return dropout_v0__run(DROPOUT_DTYPE_BF16, y, NULL, x, mask, n, p, bits, 0, 0, 0);
}

DROPOUTDEF int dropout_backward_mask_f32(float *dx, const float *dy, const uint8_t *mask, size_t n, double p, int bits)
{
   DROPOUT_V0__NEED(dx); DROPOUT_V0__NEED(dy); DROPOUT_V0__NEED(mask);
   return dropout_v0__run(DROPOUT_DTYPE_F32, dx, NULL, dy, mask, n, p, bits, 0, 0, 0);
}

DROPOUTDEF int dropout_backward_mask_f64(double *dx, const double *dy, const uint8_t *mask, size_t n, double p, int bits)
{
   DROPOUT_V0__NEED(dx); DROPOUT_V0__NEED(dy); DROPOUT_V0__NEED(mask);
   return dropout_v0__run(DROPOUT_DTYPE_F64, dx, NULL, dy, mask, n, p, bits, 0, 0, 0);
}

DROPOUTDEF int dropout_backward_mask_f16(uint16_t *dx, const uint16_t *dy, const uint8_t *mask, size_t n, double p, int bits)
{
   DROPOUT_V0__NEED(dx); DROPOUT_V0__NEED(dy); DROPOUT_V0__NEED(mask);
   return dropout_v0__run(DROPOUT_DTYPE_F16, dx, NULL, dy, mask, n, p, bits, 0, 0, 0);
}

DROPOUTDEF int dropout_backward_mask_bf16(uint16_t *dx, const uint16_t *dy, const uint8_t *mask, size_t n, double p, int bits)
{
   DROPOUT_V0__NEED(dx); DROPOUT_V0__NEED(dy); DROPOUT_V0__NEED(mask);
   return dropout_v0__run(DROPOUT_DTYPE_BF16, dx, NULL, dy, mask, n, p, bits, 0, 0, 0);
}

#undef DROPOUT_V0__NEED

/* ---- the fused op: rows * cols overflow (ARG), pointers, (bits, p, range) ---- */
static int dropout_v0__bda(dropout_dtype dt, void *y, uint8_t *mask, const void *x, const void *bias, const void *residual,
                           size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   dropout_rule r;
   dropout_plan pl;
   size_t n;
   int err;
   if (cols != 0 && rows > (size_t)-1 / cols) return DROPOUT_ERR_ARG;
   n = rows * cols;
   if (n > 0 && (!y || !x || !bias || !residual)) return DROPOUT_ERR_NULL;
   err = dropout_v0__check(p, bits, n, offset);
   if (err || n == 0) return err;
   r = dropout_v0__rule(p, bits);
   err = dropout_v0__plan(&pl, &r, (uint64_t)n, seed, stream, offset);
   if (err) return dropout_v0__code(err);
   switch (dt) {
   case DROPOUT_DTYPE_F32: return dropout_v0__code(dropout_bias_dropout_add_replay_f32(&pl, n, cols, (float *)y, mask, (const float *)x, (const float *)bias, (const float *)residual));
   case DROPOUT_DTYPE_F64: return dropout_v0__code(dropout_bias_dropout_add_replay_f64(&pl, n, cols, (double *)y, mask, (const double *)x, (const double *)bias, (const double *)residual));
   case DROPOUT_DTYPE_F16: return dropout_v0__code(dropout_bias_dropout_add_replay_f16(&pl, n, cols, (dropout_f16 *)y, mask, (const dropout_f16 *)x, (const dropout_f16 *)bias, (const dropout_f16 *)residual));
   default: return dropout_v0__code(dropout_bias_dropout_add_replay_bf16(&pl, n, cols, (dropout_bf16 *)y, mask, (const dropout_bf16 *)x, (const dropout_bf16 *)bias, (const dropout_bf16 *)residual));
   }
}

DROPOUTDEF int dropout_v0_bias_dropout_add_f32(float *y, uint8_t *mask, const float *x, const float *bias, const float *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bda(DROPOUT_DTYPE_F32, y, mask, x, bias, residual, rows, cols, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_v0_bias_dropout_add_f64(double *y, uint8_t *mask, const double *x, const double *bias, const double *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bda(DROPOUT_DTYPE_F64, y, mask, x, bias, residual, rows, cols, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_v0_bias_dropout_add_f16(uint16_t *y, uint8_t *mask, const uint16_t *x, const uint16_t *bias, const uint16_t *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bda(DROPOUT_DTYPE_F16, y, mask, x, bias, residual, rows, cols, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_v0_bias_dropout_add_bf16(uint16_t *y, uint8_t *mask, const uint16_t *x, const uint16_t *bias, const uint16_t *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bda(DROPOUT_DTYPE_BF16, y, mask, x, bias, residual, rows, cols, p, bits, seed, stream, offset);
}

/* Out of line under gcc: 0.1 code read the counts without checking the code for a shape
   it knew to be valid; inlined, gcc sees the error paths and warns (maybe-uninitialized)
   in that caller, which built warning-free under 0.1.0. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((noinline))
#endif
DROPOUTDEF int dropout_shape_sizes(const dropout_shape *shape, size_t *numel, size_t *positions)
{
   size_t ne, np;
   int err = dropout_v0__shape_check(shape, &ne, &np);
   if (err) return dropout_v0__code(err);
   if (numel) *numel = ne;
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
   err = dropout_v0__shape_check(shape, &ne, &np);
   if (err) return dropout_v0__code(err);
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

/* ---- broadcast and alpha: shape, (bits, p, range) on the positions, pointers ---- */
static int dropout_v0__bcast(dropout_op op, dropout_dtype dt, void *y, uint8_t *mask, const void *x, const dropout_shape *shape,
                             double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   dropout_rule r;
   dropout_plan pl;
   dropout_desc d;
   dropout_tensors t;
   size_t ne, np;
   int err = dropout_v0__shape_check(shape, &ne, &np);
   if (err) return dropout_v0__code(err);
   err = dropout_v0__check(p, bits, np, offset);
   if (err) return dropout_v0__code(err);
   if (ne > 0 && (!y || !x)) return DROPOUT_ERR_NULL;
   if (ne == 0 && (np == 0 || !mask)) return DROPOUT_OK;
   r = dropout_v0__rule(p, bits);
   err = dropout_v0__plan(&pl, &r, (uint64_t)np, seed, stream, offset);
   if (err) return dropout_v0__code(err);
   if (ne == 0) return dropout_v0__code(dropout_mask(&pl, np, mask));   /* an empty tensor: the mask alone, in its own shape */
   err = dropout_desc_init(&d, op, dt, &pl);
   if (!err) err = dropout_desc_set_shape(&d, shape->rank, shape->dim);
   if (!err) err = dropout_desc_set_broadcast(&d, shape->broadcast);
   if (err) return dropout_v0__code(err);
   t.out = y; t.mask = mask; t.in = x; t.bias = NULL; t.residual = NULL;
   return dropout_v0__code(dropout_run(&d, &t));
}

DROPOUTDEF int dropout_bcast_forward_f32(float *y, uint8_t *mask, const float *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bcast(DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, y, mask, x, shape, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_bcast_forward_f64(double *y, uint8_t *mask, const double *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bcast(DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F64, y, mask, x, shape, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_bcast_forward_f16(uint16_t *y, uint8_t *mask, const uint16_t *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bcast(DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F16, y, mask, x, shape, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_bcast_forward_bf16(uint16_t *y, uint8_t *mask, const uint16_t *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bcast(DROPOUT_OP_FORWARD, DROPOUT_DTYPE_BF16, y, mask, x, shape, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_bcast_backward_f32(float *dx, const float *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bcast(DROPOUT_OP_BACKWARD, DROPOUT_DTYPE_F32, dx, NULL, dy, shape, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_bcast_backward_f64(double *dx, const double *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bcast(DROPOUT_OP_BACKWARD, DROPOUT_DTYPE_F64, dx, NULL, dy, shape, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_bcast_backward_f16(uint16_t *dx, const uint16_t *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bcast(DROPOUT_OP_BACKWARD, DROPOUT_DTYPE_F16, dx, NULL, dy, shape, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_bcast_backward_bf16(uint16_t *dx, const uint16_t *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bcast(DROPOUT_OP_BACKWARD, DROPOUT_DTYPE_BF16, dx, NULL, dy, shape, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_alpha_forward_f32(float *y, uint8_t *mask, const float *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bcast(DROPOUT_OP_ALPHA_FORWARD, DROPOUT_DTYPE_F32, y, mask, x, shape, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_alpha_forward_f64(double *y, uint8_t *mask, const double *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bcast(DROPOUT_OP_ALPHA_FORWARD, DROPOUT_DTYPE_F64, y, mask, x, shape, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_alpha_forward_f16(uint16_t *y, uint8_t *mask, const uint16_t *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bcast(DROPOUT_OP_ALPHA_FORWARD, DROPOUT_DTYPE_F16, y, mask, x, shape, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_alpha_forward_bf16(uint16_t *y, uint8_t *mask, const uint16_t *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bcast(DROPOUT_OP_ALPHA_FORWARD, DROPOUT_DTYPE_BF16, y, mask, x, shape, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_alpha_backward_f32(float *dx, const float *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bcast(DROPOUT_OP_ALPHA_BACKWARD, DROPOUT_DTYPE_F32, dx, NULL, dy, shape, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_alpha_backward_f64(double *dx, const double *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bcast(DROPOUT_OP_ALPHA_BACKWARD, DROPOUT_DTYPE_F64, dx, NULL, dy, shape, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_alpha_backward_f16(uint16_t *dx, const uint16_t *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bcast(DROPOUT_OP_ALPHA_BACKWARD, DROPOUT_DTYPE_F16, dx, NULL, dy, shape, p, bits, seed, stream, offset);
}

DROPOUTDEF int dropout_alpha_backward_bf16(uint16_t *dx, const uint16_t *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__bcast(DROPOUT_OP_ALPHA_BACKWARD, DROPOUT_DTYPE_BF16, dx, NULL, dy, shape, p, bits, seed, stream, offset);
}

/* ---- Gaussian dropout and noise: dropout_v0__gauss_threshold above; where it finds no
   threshold, this loop computes the elements with the same inline building blocks the
   engine uses, in the caller's FPU mode. ---- */
static void dropout_v0__gauss_loop(dropout_dtype dt, void *y, const void *x, size_t n, float sigma,
                                   uint64_t seed, uint64_t stream, uint64_t offset)
{
   size_t i;
   for (i = 0; i < n; ++i) {
      float m = dropout_gaussian_mult(dropout_normal_at(seed, stream, offset + (uint64_t)i), sigma);
      switch (dt) {
      case DROPOUT_DTYPE_F32: ((float *)y)[i] = ((const float *)x)[i] * m; break;
      case DROPOUT_DTYPE_F64: ((double *)y)[i] = ((const double *)x)[i] * (double)m; break;
      case DROPOUT_DTYPE_F16: ((uint16_t *)y)[i] = dropout_f32_to_f16(dropout_f16_to_f32(((const uint16_t *)x)[i]) * m); break;
      default: ((uint16_t *)y)[i] = dropout_f32_to_bf16(dropout_bf16_to_f32(((const uint16_t *)x)[i]) * m); break;
      }
   }
}

/* op GAUSSIAN (param p) or NOISE (param sigma): param, range, pointers */
static int dropout_v0__normal(dropout_op op, dropout_dtype dt, void *y, const void *x, size_t n, double param,
                              uint64_t seed, uint64_t stream, uint64_t offset)
{
   dropout_rule r;
   dropout_plan pl;
   dropout_desc d;
   dropout_tensors t;
   uint64_t th = 0;
   int err;
   if ((err = dropout_v0__normal_param(op, param)) != DROPOUT_OK) return err;
   if (!dropout_v0__range_ok(n, offset)) return DROPOUT_ERR_RANGE;
   if (n > 0 && (!y || !x)) return DROPOUT_ERR_NULL;
   if (n == 0) return DROPOUT_OK;
   if (op == DROPOUT_OP_GAUSSIAN && param > 0.0 && !dropout_v0__gauss_threshold(param, &th)) {
      if (!dropout_v0__fallback_bufs_ok(dt, y, x, n)) return DROPOUT_ERR_ARG;
      dropout_v0__gauss_loop(dt, y, x, n, dropout_gaussian_sigma(param), seed, stream, offset);
      return DROPOUT_OK;
   }
   err = dropout_rule_init_threshold(&r, th, DROPOUT_BITS_32);   /* p = 0 (and NOISE): t = 0 */
   if (!err) err = dropout_plan_at_normals(&pl, &r, dropout_key_make(seed, stream), dropout_pos_make(offset), (uint64_t)n);
   if (!err) err = dropout_desc_init(&d, op, dt, &pl);
   if (!err && op == DROPOUT_OP_NOISE) err = dropout_desc_set_sigma(&d, param);
   if (err) return dropout_v0__code(err);
   t.out = y; t.mask = NULL; t.in = x; t.bias = NULL; t.residual = NULL;
   return dropout_v0__code(dropout_run(&d, &t));
}

DROPOUTDEF int dropout_gaussian_forward_f32(float *y, const float *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__normal(DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F32, y, x, n, p, seed, stream, offset);
}

DROPOUTDEF int dropout_gaussian_forward_f64(double *y, const double *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__normal(DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F64, y, x, n, p, seed, stream, offset);
}

DROPOUTDEF int dropout_gaussian_forward_f16(uint16_t *y, const uint16_t *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__normal(DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F16, y, x, n, p, seed, stream, offset);
}

DROPOUTDEF int dropout_gaussian_forward_bf16(uint16_t *y, const uint16_t *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__normal(DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_BF16, y, x, n, p, seed, stream, offset);
}

DROPOUTDEF int dropout_gaussian_backward_f32(float *dx, const float *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__normal(DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F32, dx, dy, n, p, seed, stream, offset);
}

DROPOUTDEF int dropout_gaussian_backward_f64(double *dx, const double *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__normal(DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F64, dx, dy, n, p, seed, stream, offset);
}

DROPOUTDEF int dropout_gaussian_backward_f16(uint16_t *dx, const uint16_t *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__normal(DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F16, dx, dy, n, p, seed, stream, offset);
}

DROPOUTDEF int dropout_gaussian_backward_bf16(uint16_t *dx, const uint16_t *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__normal(DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_BF16, dx, dy, n, p, seed, stream, offset);
}

DROPOUTDEF int dropout_noise_forward_f32(float *y, const float *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__normal(DROPOUT_OP_NOISE, DROPOUT_DTYPE_F32, y, x, n, sigma, seed, stream, offset);
}

DROPOUTDEF int dropout_noise_forward_f64(double *y, const double *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__normal(DROPOUT_OP_NOISE, DROPOUT_DTYPE_F64, y, x, n, sigma, seed, stream, offset);
}

DROPOUTDEF int dropout_noise_forward_f16(uint16_t *y, const uint16_t *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__normal(DROPOUT_OP_NOISE, DROPOUT_DTYPE_F16, y, x, n, sigma, seed, stream, offset);
}

DROPOUTDEF int dropout_noise_forward_bf16(uint16_t *y, const uint16_t *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset)
{
   return dropout_v0__normal(DROPOUT_OP_NOISE, DROPOUT_DTYPE_BF16, y, x, n, sigma, seed, stream, offset);
}

#ifdef __cplusplus
}
#endif

#if defined(__cplusplus) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#pragma GCC diagnostic pop
#endif

#endif /* DROPOUT_IMPLEMENTATION && !DROPOUT_V0_IMPLEMENTATION_DONE */

/* The 0.1.0 names whose 1.0 form differs, as the dropout_v0_ functions. After the
   implementations, so that dropout.h's 1.0 definitions keep their names. */
#define dropout_apply_mask_bf16 dropout_v0_apply_mask_bf16
#define dropout_apply_mask_f16 dropout_v0_apply_mask_f16
#define dropout_apply_mask_f32 dropout_v0_apply_mask_f32
#define dropout_apply_mask_f64 dropout_v0_apply_mask_f64
#define dropout_backward_bf16 dropout_v0_backward_bf16
#define dropout_backward_f16 dropout_v0_backward_f16
#define dropout_backward_f32 dropout_v0_backward_f32
#define dropout_backward_f64 dropout_v0_backward_f64
#define dropout_bias_dropout_add_bf16 dropout_v0_bias_dropout_add_bf16
#define dropout_bias_dropout_add_f16 dropout_v0_bias_dropout_add_f16
#define dropout_bias_dropout_add_f32 dropout_v0_bias_dropout_add_f32
#define dropout_bias_dropout_add_f64 dropout_v0_bias_dropout_add_f64
#define dropout_fill_normal_f32 dropout_v0_fill_normal_f32
#define dropout_fill_u32 dropout_v0_fill_u32
#define dropout_fill_uniform_f32 dropout_v0_fill_uniform_f32
#define dropout_fill_uniform_f64 dropout_v0_fill_uniform_f64
#define dropout_forward_bf16 dropout_v0_forward_bf16
#define dropout_forward_f16 dropout_v0_forward_f16
#define dropout_forward_f32 dropout_v0_forward_f32
#define dropout_forward_f64 dropout_v0_forward_f64
#define dropout_gen dropout_v0_gen
#undef dropout_gen_make   /* dropout.h's: 0.9's dropout_gen_make is gone */
#define dropout_gen_make dropout_v0_gen_make
/* 1.0's generator calls take 1.0's dropout_gen, which this file names 0.1's: in a file
   with DROPOUT_V0_API they would write past a 0.1 generator, so they stop the build */
#define dropout_gen_init(g, key) dropout_gen_init_needs_a_file_without_DROPOUT_V0_API
#define dropout_gen_resume(g, key, next, units) dropout_gen_resume_needs_a_file_without_DROPOUT_V0_API
#define dropout_gen_move(to, from) dropout_gen_move_needs_a_file_without_DROPOUT_V0_API
#define dropout_gen_plan(g, rule, count, out) dropout_gen_plan_needs_a_file_without_DROPOUT_V0_API
#define dropout_gen_plan_normals(g, rule, count, out) dropout_gen_plan_normals_needs_a_file_without_DROPOUT_V0_API
#define dropout_desc_new_step(d, g) dropout_desc_new_step_needs_a_file_without_DROPOUT_V0_API
#define dropout_mask dropout_v0_mask
#define dropout_stream_u32 dropout_v0_stream_u32

#endif /* !DROPOUT_V0__NAMES_OFF */

/*
   LICENSE: as dropout.h's (public domain or MIT, see the end of dropout.h).
*/
