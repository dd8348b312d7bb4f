/* dropout_cuda_v0.cuh - the 0.1.0 CUDA calls of dropout_cuda.cuh, deprecated - public domain or MIT

   For CUDA code on its way over to 1.0, as dropout_v0.h is for the CPU calls. Put it
   beside dropout_cuda.cuh (and dropout_v0.h beside dropout.h) and #define DROPOUT_V0_API
   before including dropout_cuda.cuh, in the implementation file too: dropout_cuda.cuh then
   includes this file, and 0.1.0 CUDA code compiles unchanged and gives the same bits.
   Every launcher here is written on dropout_cuda.cuh's public calls (the short calls,
   dropout_cuda_run with a dropout_desc, dropout_desc_set_device_coords for the _state
   launchers, dropout_cuda_advance), with 0.1.0's checks in 0.1.0's order and its codes.
   Two small kernels of this file's own, on dropout.h's inline building blocks, do what
   no 1.0 call does:
      - a _state launcher's status_ptr: a one-thread kernel after the run writes
        DROPOUT_ERR_RANGE there when the run-time offset + n passes 2^64 - 1 (the run
        itself then wrote nothing, as under 0.1.0 past 2^64; a device position never
        hands out 2^64 - 1, where dropout_cuda_philox_advance now stops instead of
        wrapping to step 0's positions); a _state launcher given only one of seed_ptr
        and offset_ptr puts the other value in a stream-ordered device word for the run
        (1.0's device coordinates come as a pair);
      - Gaussian dropout at a p whose float sigma no 32-bit threshold realises (see
        dropout_v0.h): a grid-stride kernel over dropout_normal_at and
        dropout_gaussian_mult.
   Each launcher is marked deprecated with the 1.0 call to use (DROPOUT_DEPRECATED, see
   dropout_v0.h; DROPOUT_DISABLE_DEPRECATE_WARNINGS silences them). The names whose 1.0 form
   differs are macros for the dropout_cuda_v0_ launchers at the end of this file; the
   calls that 1.0 removed keep their 0.1 names.
*/
#ifndef DROPOUT_CUDA_CUH_INCLUDED
#error "dropout_cuda_v0.cuh is included by dropout_cuda.cuh: #define DROPOUT_V0_API and #include \"dropout_cuda.cuh\""
#endif
#ifndef DROPOUT_V0_H_INCLUDED
#error "DROPOUT_V0_API: dropout_cuda_v0.cuh needs dropout_v0.h beside dropout.h"
#endif

#ifndef DROPOUT_CUDA_V0_CUH_INCLUDED
#define DROPOUT_CUDA_V0_CUH_INCLUDED

#define DROPOUT_CUDA_V0__BCAST "dropout_cuda_run with DROPOUT_OP_FORWARD, dropout_desc_set_shape and dropout_desc_set_broadcast"
#define DROPOUT_CUDA_V0__BCAST_BACK "dropout_cuda_run with DROPOUT_OP_BACKWARD, dropout_desc_set_shape and dropout_desc_set_broadcast"
#define DROPOUT_CUDA_V0__ALPHA "dropout_cuda_run with DROPOUT_OP_ALPHA_FORWARD (dropout_desc_set_shape, dropout_desc_set_broadcast)"
#define DROPOUT_CUDA_V0__ALPHA_BACK "dropout_cuda_run with DROPOUT_OP_ALPHA_BACKWARD (dropout_desc_set_shape, dropout_desc_set_broadcast)"
#define DROPOUT_CUDA_V0__GAUSS "dropout_cuda_run with DROPOUT_OP_GAUSSIAN (sigma from the plan's realised p)"
#define DROPOUT_CUDA_V0__NOISE "dropout_cuda_run with DROPOUT_OP_NOISE and dropout_desc_set_sigma"

extern "C" {

/* Where a _state launcher takes its seed and offset. A pointer that is not NULL wins
   over the value next to it and is read by the kernel when it runs. */
typedef struct dropout_cuda_philox_state {
   uint64_t seed;
   uint64_t offset;
   const uint64_t *seed_ptr;     /* device pointer or NULL */
   const uint64_t *offset_ptr;   /* device pointer or NULL */
   int *status_ptr;              /* optional device int: set to DROPOUT_ERR_RANGE when the
                                    run-time offset + n passes 2^64 - 1 (then nothing is
                                    written) */
} dropout_cuda_philox_state;

DROPOUT_V0__USE("dropout_cuda_replay_f32(&plan, n, y, mask, x, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_forward_f32(float *y, uint8_t *mask, const float *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_replay_f64(&plan, n, y, mask, x, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_forward_f64(double *y, uint8_t *mask, const double *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_replay_f16(&plan, n, y, mask, x, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_forward_f16(__half *y, uint8_t *mask, const __half *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_replay_bf16(&plan, n, y, mask, x, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_forward_bf16(__nv_bfloat16 *y, uint8_t *mask, const __nv_bfloat16 *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_backward_f32(&plan, n, dx, dy, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_backward_f32(float *dx, const float *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_backward_f64(&plan, n, dx, dy, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_backward_f64(double *dx, const double *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_backward_f16(&plan, n, dx, dy, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_backward_f16(__half *dx, const __half *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_backward_bf16(&plan, n, dx, dy, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_backward_bf16(__nv_bfloat16 *dx, const __nv_bfloat16 *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_mask(&plan, n, mask, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_mask(uint8_t *mask, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_apply_mask_f32(&rule, n, y, mask, x, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_apply_mask_f32(float *y, const float *x, const uint8_t *mask, size_t n, double p, int bits, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_apply_mask_f64(&rule, n, y, mask, x, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_apply_mask_f64(double *y, const double *x, const uint8_t *mask, size_t n, double p, int bits, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_apply_mask_f16(&rule, n, y, mask, x, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_apply_mask_f16(__half *y, const __half *x, const uint8_t *mask, size_t n, double p, int bits, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_apply_mask_bf16(&rule, n, y, mask, x, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_apply_mask_bf16(__nv_bfloat16 *y, const __nv_bfloat16 *x, const uint8_t *mask, size_t n, double p, int bits, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_apply_mask_f32(&rule, n, dx, mask, dy, cs)")
DROPOUT_CUDADEF int dropout_cuda_backward_mask_f32(float *dx, const float *dy, const uint8_t *mask, size_t n, double p, int bits, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_apply_mask_f64(&rule, n, dx, mask, dy, cs)")
DROPOUT_CUDADEF int dropout_cuda_backward_mask_f64(double *dx, const double *dy, const uint8_t *mask, size_t n, double p, int bits, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_apply_mask_f16(&rule, n, dx, mask, dy, cs)")
DROPOUT_CUDADEF int dropout_cuda_backward_mask_f16(__half *dx, const __half *dy, const uint8_t *mask, size_t n, double p, int bits, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_apply_mask_bf16(&rule, n, dx, mask, dy, cs)")
DROPOUT_CUDADEF int dropout_cuda_backward_mask_bf16(__nv_bfloat16 *dx, const __nv_bfloat16 *dy, const uint8_t *mask, size_t n, double p, int bits, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_fill_u32(key, dropout_pos_make(word), out, n, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_fill_u32(uint32_t *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_fill_uniform_f32(key, dropout_pos_make(word), out, n, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_fill_uniform_f32(float *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_fill_uniform_f64(key, dropout_pos_make(index), out, n, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_fill_uniform_f64(double *out, size_t n, uint64_t seed, uint64_t stream, uint64_t index, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_fill_normal_f32(key, dropout_pos_make(offset), out, n, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_fill_normal_f32(float *out, size_t n, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_bias_dropout_add_replay_f32(&plan, n, cols, y, mask, x, bias, residual, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_bias_dropout_add_f32(float *y, uint8_t *mask, const float *x, const float *bias, const float *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_bias_dropout_add_replay_f64(&plan, n, cols, y, mask, x, bias, residual, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_bias_dropout_add_f64(double *y, uint8_t *mask, const double *x, const double *bias, const double *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_bias_dropout_add_replay_f16(&plan, n, cols, y, mask, x, bias, residual, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_bias_dropout_add_f16(__half *y, uint8_t *mask, const __half *x, const __half *bias, const __half *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_bias_dropout_add_replay_bf16(&plan, n, cols, y, mask, x, bias, residual, cs)")
DROPOUT_CUDADEF int dropout_cuda_v0_bias_dropout_add_bf16(__nv_bfloat16 *y, uint8_t *mask, const __nv_bfloat16 *x, const __nv_bfloat16 *bias, const __nv_bfloat16 *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_run with dropout_desc_set_device_coords (and dropout_cuda_advance)")
DROPOUT_CUDADEF int dropout_cuda_forward_f32_state(float *y, uint8_t *mask, const float *x, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_run with dropout_desc_set_device_coords (and dropout_cuda_advance)")
DROPOUT_CUDADEF int dropout_cuda_forward_f64_state(double *y, uint8_t *mask, const double *x, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_run with dropout_desc_set_device_coords (and dropout_cuda_advance)")
DROPOUT_CUDADEF int dropout_cuda_forward_f16_state(__half *y, uint8_t *mask, const __half *x, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_run with dropout_desc_set_device_coords (and dropout_cuda_advance)")
DROPOUT_CUDADEF int dropout_cuda_forward_bf16_state(__nv_bfloat16 *y, uint8_t *mask, const __nv_bfloat16 *x, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_run with dropout_desc_set_device_coords (and dropout_cuda_advance)")
DROPOUT_CUDADEF int dropout_cuda_backward_f32_state(float *dx, const float *dy, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_run with dropout_desc_set_device_coords (and dropout_cuda_advance)")
DROPOUT_CUDADEF int dropout_cuda_backward_f64_state(double *dx, const double *dy, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_run with dropout_desc_set_device_coords (and dropout_cuda_advance)")
DROPOUT_CUDADEF int dropout_cuda_backward_f16_state(__half *dx, const __half *dy, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_run with dropout_desc_set_device_coords (and dropout_cuda_advance)")
DROPOUT_CUDADEF int dropout_cuda_backward_bf16_state(__nv_bfloat16 *dx, const __nv_bfloat16 *dy, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_run with dropout_desc_set_device_coords (and dropout_cuda_advance)")
DROPOUT_CUDADEF int dropout_cuda_mask_state(uint8_t *mask, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_run with dropout_desc_set_device_coords (and dropout_cuda_advance)")
DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_f32_state(float *y, uint8_t *mask, const float *x, const float *bias, const float *residual, size_t rows, size_t cols, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_run with dropout_desc_set_device_coords (and dropout_cuda_advance)")
DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_f64_state(double *y, uint8_t *mask, const double *x, const double *bias, const double *residual, size_t rows, size_t cols, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_run with dropout_desc_set_device_coords (and dropout_cuda_advance)")
DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_f16_state(__half *y, uint8_t *mask, const __half *x, const __half *bias, const __half *residual, size_t rows, size_t cols, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_run with dropout_desc_set_device_coords (and dropout_cuda_advance)")
DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_bf16_state(__nv_bfloat16 *y, uint8_t *mask, const __nv_bfloat16 *x, const __nv_bfloat16 *bias, const __nv_bfloat16 *residual, size_t rows, size_t cols, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__BCAST)
DROPOUT_CUDADEF int dropout_cuda_bcast_forward_f32(float *y, uint8_t *mask, const float *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__BCAST)
DROPOUT_CUDADEF int dropout_cuda_bcast_forward_f64(double *y, uint8_t *mask, const double *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__BCAST)
DROPOUT_CUDADEF int dropout_cuda_bcast_forward_f16(__half *y, uint8_t *mask, const __half *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__BCAST)
DROPOUT_CUDADEF int dropout_cuda_bcast_forward_bf16(__nv_bfloat16 *y, uint8_t *mask, const __nv_bfloat16 *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__BCAST_BACK)
DROPOUT_CUDADEF int dropout_cuda_bcast_backward_f32(float *dx, const float *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__BCAST_BACK)
DROPOUT_CUDADEF int dropout_cuda_bcast_backward_f64(double *dx, const double *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__BCAST_BACK)
DROPOUT_CUDADEF int dropout_cuda_bcast_backward_f16(__half *dx, const __half *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__BCAST_BACK)
DROPOUT_CUDADEF int dropout_cuda_bcast_backward_bf16(__nv_bfloat16 *dx, const __nv_bfloat16 *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__ALPHA)
DROPOUT_CUDADEF int dropout_cuda_alpha_forward_f32(float *y, uint8_t *mask, const float *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__ALPHA)
DROPOUT_CUDADEF int dropout_cuda_alpha_forward_f64(double *y, uint8_t *mask, const double *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__ALPHA)
DROPOUT_CUDADEF int dropout_cuda_alpha_forward_f16(__half *y, uint8_t *mask, const __half *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__ALPHA)
DROPOUT_CUDADEF int dropout_cuda_alpha_forward_bf16(__nv_bfloat16 *y, uint8_t *mask, const __nv_bfloat16 *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__ALPHA_BACK)
DROPOUT_CUDADEF int dropout_cuda_alpha_backward_f32(float *dx, const float *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__ALPHA_BACK)
DROPOUT_CUDADEF int dropout_cuda_alpha_backward_f64(double *dx, const double *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__ALPHA_BACK)
DROPOUT_CUDADEF int dropout_cuda_alpha_backward_f16(__half *dx, const __half *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__ALPHA_BACK)
DROPOUT_CUDADEF int dropout_cuda_alpha_backward_bf16(__nv_bfloat16 *dx, const __nv_bfloat16 *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__GAUSS)
DROPOUT_CUDADEF int dropout_cuda_gaussian_forward_f32(float *y, const float *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__GAUSS)
DROPOUT_CUDADEF int dropout_cuda_gaussian_forward_f64(double *y, const double *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__GAUSS)
DROPOUT_CUDADEF int dropout_cuda_gaussian_forward_f16(__half *y, const __half *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__GAUSS)
DROPOUT_CUDADEF int dropout_cuda_gaussian_forward_bf16(__nv_bfloat16 *y, const __nv_bfloat16 *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__GAUSS " on dy")
DROPOUT_CUDADEF int dropout_cuda_gaussian_backward_f32(float *dx, const float *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__GAUSS " on dy")
DROPOUT_CUDADEF int dropout_cuda_gaussian_backward_f64(double *dx, const double *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__GAUSS " on dy")
DROPOUT_CUDADEF int dropout_cuda_gaussian_backward_f16(__half *dx, const __half *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__GAUSS " on dy")
DROPOUT_CUDADEF int dropout_cuda_gaussian_backward_bf16(__nv_bfloat16 *dx, const __nv_bfloat16 *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__NOISE)
DROPOUT_CUDADEF int dropout_cuda_noise_forward_f32(float *y, const float *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__NOISE)
DROPOUT_CUDADEF int dropout_cuda_noise_forward_f64(double *y, const double *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__NOISE)
DROPOUT_CUDADEF int dropout_cuda_noise_forward_f16(__half *y, const __half *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE(DROPOUT_CUDA_V0__NOISE)
DROPOUT_CUDADEF int dropout_cuda_noise_forward_bf16(__nv_bfloat16 *y, const __nv_bfloat16 *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs);
DROPOUT_V0__USE("dropout_cuda_advance(dev_pos, dev_saved, n, cs)")
DROPOUT_CUDADEF int dropout_cuda_philox_advance(uint64_t *offset_ptr, uint64_t *saved_ptr, uint64_t n, cudaStream_t cs);

} /* extern "C" */

/* ------------------------------------------------------------------------------------ */
#ifdef DROPOUT_CUDA_IMPLEMENTATION

/* the status word of a _state launcher: what 0.1.0's kernel wrote when the offset it read
   ran the n positions past 2^64, set wherever 1.0's kernel wrote nothing (a device
   position also never hands out 2^64 - 1: CUDA GRAPHS in dropout_cuda.cuh) */
static __global__ void dropout_cuda_v0__status_kernel(const uint64_t *offset_ptr, uint64_t n, int *status)
{
   if (n > 0 && n > UINT64_MAX - *offset_ptr) *status = DROPOUT_ERR_RANGE;
}

/* a by-value seed or offset where the other one is read from device memory */
static __global__ void dropout_cuda_v0__put_kernel(uint64_t *slot, uint64_t value)
{
   *slot = value;
}

/* x * m and m widened, in PTX: nvcc's -ftz=true (which --use_fast_math implies) makes the
   f32 instructions it writes flush subnormals; written out, they keep IEEE's results, as
   the 1.0 kernels' do */
static __device__ __forceinline__ float dropout_cuda_v0__mul(float a, float b)
{
   float r;
   asm("mul.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
   return r;
}
static __device__ __forceinline__ double dropout_cuda_v0__widen(float a)
{
   double r;
   asm("cvt.f64.f32 %0, %1;" : "=d"(r) : "f"(a));
   return r;
}

/* Gaussian dropout with 0.1.0's sigma, where no plan's realised p gives it (dropout_v0.h) */
static __global__ void dropout_cuda_v0__gauss_kernel(int dtype, void *y, const void *x, uint64_t n, float sigma,
                                                     uint64_t seed, uint64_t stream, uint64_t offset)
{
   uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, step = (uint64_t)gridDim.x * blockDim.x;
   for (; i < n; i += step) {
      float m = dropout_gaussian_mult(dropout_normal_at(seed, stream, offset + i), sigma);
      if (dtype == DROPOUT_DTYPE_F32) ((float *)y)[i] = dropout_cuda_v0__mul(((const float *)x)[i], m);
      else if (dtype == DROPOUT_DTYPE_F64) ((double *)y)[i] = ((const double *)x)[i] * dropout_cuda_v0__widen(m);
      else if (dtype == DROPOUT_DTYPE_F16) ((uint16_t *)y)[i] = dropout_f32_to_f16(dropout_cuda_v0__mul(dropout_f16_to_f32(((const uint16_t *)x)[i]), m));
      else ((uint16_t *)y)[i] = dropout_f32_to_bf16(dropout_cuda_v0__mul(dropout_bf16_to_f32(((const uint16_t *)x)[i]), m));
   }
}

/* an error an earlier CUDA call left pending: returned before launching, and left for its
   owner to clear (peek, not get) */
static int dropout_cuda_v0__pending(void)
{
   cudaError_t e = cudaPeekAtLastError();
   return e == cudaSuccess ? DROPOUT_OK : DROPOUT_ERR_CUDA_BASE - (int)e;
}

static int dropout_cuda_v0__launched(void)
{
   cudaError_t e = cudaGetLastError();
   return e == cudaSuccess ? DROPOUT_OK : DROPOUT_ERR_CUDA_BASE - (int)e;
}

static dropout_cuda_philox_state dropout_cuda_v0__by_value(uint64_t seed, uint64_t offset)
{
   dropout_cuda_philox_state st;
   st.seed = seed; st.offset = offset;
   st.seed_ptr = NULL; st.offset_ptr = NULL; st.status_ptr = NULL;
   return st;
}

/* Whether cs is being captured into a CUDA graph (0 when the query fails: the run that
   follows reports that error; an error someone else left pending is left for them). */
static int dropout_cuda_v0__capturing(cudaStream_t cs)
{
   cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
   if (dropout_cuda_v0__pending() != DROPOUT_OK) return 0;
   if (cudaStreamIsCapturing(cs, &capture) != cudaSuccess) {
      (void)cudaGetLastError();
      return 0;
   }
   return capture != cudaStreamCaptureStatusNone;
}

/* A descriptor of op on the plan, run with st's device coordinates where it has them.
   0.1.0's by-value calls captured into a CUDA graph drew their coordinates again at every
   replay, by design (the _state calls are the graph's way); dropout_cuda_run refuses a
   plan's own coordinates under capture (DROPOUT_ERR_CAPTURE: for 1.0 code that is last
   step's mask again), so there they travel as device coordinates holding the same values. */
static int dropout_cuda_v0__run_state(dropout_desc *d, const dropout_tensors *t, uint64_t n,
                                      dropout_cuda_philox_state st, cudaStream_t cs)
{
   uint64_t *slot = NULL;
   int err;
   if (st.seed_ptr || st.offset_ptr || dropout_cuda_v0__capturing(cs)) {
      const uint64_t *dev_seed = st.seed_ptr, *dev_pos = st.offset_ptr;
      if (!dev_seed || !dev_pos) {   /* 1.0 reads both from device memory: give it the others */
         cudaError_t e;
         /* a by-value offset becomes a device position, which never hands out 2^64 - 1 */
         if (!dev_pos && n > UINT64_MAX - st.offset) return dropout_v0__code(DROPOUT_ERR_RANGE);
         /* someone else's pending error first (left for them), then this call's own
            allocation and launches, whose errors are returned and not left pending */
         if ((err = dropout_cuda_v0__pending()) != DROPOUT_OK) return err;
         e = cudaMallocAsync((void **)&slot, 2 * sizeof *slot, cs);   /* [0] seed, [1] position */
         if (e != cudaSuccess) {
            (void)cudaGetLastError();
            return DROPOUT_ERR_CUDA_BASE - (int)e;
         }
         if (!dev_seed) dropout_cuda_v0__put_kernel<<<1, 1, 0, cs>>>(slot, st.seed);
         err = dropout_cuda_v0__launched();
         if (!err && !dev_pos) {
            dropout_cuda_v0__put_kernel<<<1, 1, 0, cs>>>(slot + 1, st.offset);
            err = dropout_cuda_v0__launched();
         }
         if (err) {
            (void)cudaFreeAsync(slot, cs);
            (void)cudaGetLastError();
            return err;
         }
         if (!dev_seed) dev_seed = slot;
         if (!dev_pos) dev_pos = slot + 1;
      }
      err = dropout_desc_set_device_coords(d, dev_seed, dev_pos);
      if (!err) err = dropout_cuda_run(d, t, cs);
      if (!err && st.status_ptr && st.offset_ptr) {
         dropout_cuda_v0__status_kernel<<<1, 1, 0, cs>>>(st.offset_ptr, n, st.status_ptr);
         err = dropout_cuda_v0__launched();
      }
      if (slot) {
         cudaError_t e = cudaFreeAsync(slot, cs);
         if (e != cudaSuccess) {
            (void)cudaGetLastError();
            if (!err) err = DROPOUT_ERR_CUDA_BASE - (int)e;
         }
      }
      return dropout_v0__code(err);
   }
   return dropout_v0__code(dropout_cuda_run(d, t, cs));
}

/* forward, mask-free backward and mask, with (seed, offset) by value or from st: 0.1.0's
   checks (p, bits, the range of a by-value offset), then the pointers */
static int dropout_cuda_v0__drop(dropout_dtype dt, dropout_op op, void *y, uint8_t *mask, const void *x, size_t n,
                                 double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs)
{
   dropout_rule r;
   dropout_plan pl;
   dropout_desc d;
   dropout_tensors t;
   int err = dropout_v0__check(p, bits, n, st.offset_ptr ? 0u : st.offset);
   if (err) return dropout_v0__code(err);
   if (n > 0 && ((op != DROPOUT_OP_MASK && (!y || !x)) || (op == DROPOUT_OP_MASK && !mask)))
      return DROPOUT_ERR_NULL;
   if (n == 0) return DROPOUT_OK;
   r = dropout_v0__rule(p, bits);
   err = dropout_plan_at(&pl, &r, dropout_key_make(st.seed, stream), dropout_pos_make(st.offset_ptr ? 0u : st.offset), (uint64_t)n);
   if (err) return dropout_v0__code(err);
   if (!st.seed_ptr && !st.offset_ptr) {   /* the short calls */
      if (op == DROPOUT_OP_MASK) return dropout_v0__code(dropout_cuda_mask(&pl, n, mask, cs));
      switch (dt) {
      case DROPOUT_DTYPE_F32: return dropout_v0__code(dropout_cuda_replay_f32(&pl, n, (float *)y, mask, (const float *)x, cs));
      case DROPOUT_DTYPE_F64: return dropout_v0__code(dropout_cuda_replay_f64(&pl, n, (double *)y, mask, (const double *)x, cs));
      case DROPOUT_DTYPE_F16: return dropout_v0__code(dropout_cuda_replay_f16(&pl, n, (__half *)y, mask, (const __half *)x, cs));
      default: return dropout_v0__code(dropout_cuda_replay_bf16(&pl, n, (__nv_bfloat16 *)y, mask, (const __nv_bfloat16 *)x, cs));
      }
   }
   err = dropout_desc_init(&d, op, dt, &pl);
   if (err) return dropout_v0__code(err);
   t.out = y; t.mask = mask; t.in = x; t.bias = NULL; t.residual = NULL;
   return dropout_cuda_v0__run_state(&d, &t, (uint64_t)n, st, cs);
}

static int dropout_cuda_v0__apply_mask(dropout_dtype dt, void *y, const void *x, const uint8_t *mask,
                                       size_t n, double p, int bits, cudaStream_t cs)
{
   dropout_rule r;
   int err = dropout_v0__check(p, bits, n, 0);
   if (err) return dropout_v0__code(err);
   if (n > 0 && (!y || !x || !mask)) return DROPOUT_ERR_NULL;
   if (n == 0) return DROPOUT_OK;
   r = dropout_v0__rule(p, bits);
   switch (dt) {
   case DROPOUT_DTYPE_F32: return dropout_v0__code(dropout_cuda_apply_mask_f32(&r, n, (float *)y, mask, (const float *)x, cs));
   case DROPOUT_DTYPE_F64: return dropout_v0__code(dropout_cuda_apply_mask_f64(&r, n, (double *)y, mask, (const double *)x, cs));
   case DROPOUT_DTYPE_F16: return dropout_v0__code(dropout_cuda_apply_mask_f16(&r, n, (__half *)y, mask, (const __half *)x, cs));
   default: return dropout_v0__code(dropout_cuda_apply_mask_bf16(&r, n, (__nv_bfloat16 *)y, mask, (const __nv_bfloat16 *)x, cs));
   }
}

/* the fills: kind 0 u32, 1 uniform f32, 2 uniform f64, 3 normal f32; 0.1.0's checks */
static int dropout_cuda_v0__fill(int kind, void *out, size_t n, uint64_t seed, uint64_t stream, uint64_t first, cudaStream_t cs)
{
   dropout_key key = dropout_key_make(seed, stream);
   if (n > 0 && !out) return DROPOUT_ERR_NULL;
   if (kind == 2 ? n > 0 && (first > (UINT64_MAX >> 1) || (uint64_t)(n - 1) > (UINT64_MAX >> 1) - first)
                 : !dropout_v0__range_ok(n, first))
      return DROPOUT_ERR_RANGE;
   if (n == 0) return DROPOUT_OK;
   switch (kind) {
   case 0: return dropout_v0__code(dropout_cuda_fill_u32(key, dropout_pos_make(first), (uint32_t *)out, n, cs));
   case 1: return dropout_v0__code(dropout_cuda_fill_uniform_f32(key, dropout_pos_make(first), (float *)out, n, cs));
   case 2: return dropout_v0__code(dropout_cuda_fill_uniform_f64(key, dropout_pos_make(first), (double *)out, n, cs));
   default: return dropout_v0__code(dropout_cuda_fill_normal_f32(key, dropout_pos_make(first), (float *)out, n, cs));
   }
}

/* the fused op: rows * cols overflow (ARG), (p, bits, range), pointers */
static int dropout_cuda_v0__fused(dropout_dtype dt, void *y, uint8_t *mask, const void *x, const void *bias,
                                  const void *residual, size_t rows, size_t cols, double p, int bits,
                                  uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs)
{
   dropout_rule r;
   dropout_plan pl;
   dropout_desc d;
   dropout_tensors t;
   size_t n;
   int err;
   if (cols != 0 && rows > (size_t)-1 / cols) return DROPOUT_ERR_ARG;
   n = rows * cols;
   err = dropout_v0__check(p, bits, n, st.offset_ptr ? 0u : st.offset);
   if (err) return dropout_v0__code(err);
   if (n > 0 && (!y || !x || !bias || !residual)) return DROPOUT_ERR_NULL;
   if (n == 0) return DROPOUT_OK;
   r = dropout_v0__rule(p, bits);
   err = dropout_plan_at(&pl, &r, dropout_key_make(st.seed, stream), dropout_pos_make(st.offset_ptr ? 0u : st.offset), (uint64_t)n);
   if (err) return dropout_v0__code(err);
   if (!st.seed_ptr && !st.offset_ptr) {
      switch (dt) {
      case DROPOUT_DTYPE_F32: return dropout_v0__code(dropout_cuda_bias_dropout_add_replay_f32(&pl, n, cols, (float *)y, mask, (const float *)x, (const float *)bias, (const float *)residual, cs));
      case DROPOUT_DTYPE_F64: return dropout_v0__code(dropout_cuda_bias_dropout_add_replay_f64(&pl, n, cols, (double *)y, mask, (const double *)x, (const double *)bias, (const double *)residual, cs));
      case DROPOUT_DTYPE_F16: return dropout_v0__code(dropout_cuda_bias_dropout_add_replay_f16(&pl, n, cols, (__half *)y, mask, (const __half *)x, (const __half *)bias, (const __half *)residual, cs));
      default: return dropout_v0__code(dropout_cuda_bias_dropout_add_replay_bf16(&pl, n, cols, (__nv_bfloat16 *)y, mask, (const __nv_bfloat16 *)x, (const __nv_bfloat16 *)bias, (const __nv_bfloat16 *)residual, cs));
      }
   }
   err = dropout_desc_init(&d, DROPOUT_OP_BIAS_DROPOUT_ADD, dt, &pl);
   if (!err) err = dropout_desc_set_bias_len(&d, cols);
   if (err) return dropout_v0__code(err);
   t.out = y; t.mask = mask; t.in = x; t.bias = bias; t.residual = residual;
   return dropout_cuda_v0__run_state(&d, &t, (uint64_t)n, st, cs);
}

/* broadcast and alpha: the shape (dropout_shape_sizes' codes), (p, bits, range) on its
   positions, pointers */
static int dropout_cuda_v0__bcast(dropout_dtype dt, dropout_op op, void *y, uint8_t *mask, const void *x,
                                  const dropout_shape *shape, double p, int bits, uint64_t seed,
                                  uint64_t stream, uint64_t offset, cudaStream_t cs)
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
   err = dropout_plan_at(&pl, &r, dropout_key_make(seed, stream), dropout_pos_make(offset), (uint64_t)np);
   if (err) return dropout_v0__code(err);
   if (ne == 0) return dropout_v0__code(dropout_cuda_mask(&pl, np, mask, cs));   /* an empty tensor: the mask alone, in its own shape */
   err = dropout_desc_init(&d, op, dt, &pl);
   if (!err) err = dropout_desc_set_shape(&d, shape->rank, shape->dim);
   if (!err) err = dropout_desc_set_broadcast(&d, shape->broadcast);
   if (err) return dropout_v0__code(err);
   t.out = y; t.mask = mask; t.in = x; t.bias = NULL; t.residual = NULL;
   return dropout_cuda_v0__run_state(&d, &t, (uint64_t)np, dropout_cuda_v0__by_value(seed, offset), cs);
}

/* Gaussian dropout (param p) and noise (param sigma): param, range, pointers */
static int dropout_cuda_v0__normal(dropout_dtype dt, dropout_op op, void *y, const void *x, size_t n, double param,
                                   uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
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
      /* the CPU fallback's refusals; then an error an earlier CUDA call left pending,
         returned before launching and left for its owner, as every 1.0 launcher does */
      uint64_t blocks = ((uint64_t)n + 255u) / 256u;
      if (!dropout_v0__fallback_bufs_ok(dt, y, x, n)) return DROPOUT_ERR_ARG;
      if ((err = dropout_cuda_v0__pending()) != DROPOUT_OK) return err;
      dropout_cuda_v0__gauss_kernel<<<(unsigned)(blocks < 65535u ? blocks : 65535u), 256, 0, cs>>>(
         (int)dt, y, x, (uint64_t)n, dropout_gaussian_sigma(param), seed, stream, offset);
      return dropout_cuda_v0__launched();
   }
   err = dropout_rule_init_threshold(&r, th, DROPOUT_BITS_32);   /* p = 0 (and NOISE): t = 0 */
   if (!err) err = dropout_plan_at_normals(&pl, &r, dropout_key_make(seed, stream), dropout_pos_make(offset), (uint64_t)n);
   if (!err) err = dropout_desc_init(&d, op, dt, &pl);
   if (!err && op == DROPOUT_OP_NOISE) err = dropout_desc_set_sigma(&d, param);
   if (err) return dropout_v0__code(err);
   t.out = y; t.mask = NULL; t.in = x; t.bias = NULL; t.residual = NULL;
   return dropout_cuda_v0__run_state(&d, &t, (uint64_t)n, dropout_cuda_v0__by_value(seed, offset), cs);
}

extern "C" {

DROPOUT_CUDADEF int dropout_cuda_v0_forward_f32(float *y, uint8_t *mask, const float *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_F32, DROPOUT_OP_FORWARD, y, mask, x, n, p, bits, stream, dropout_cuda_v0__by_value(seed, offset), cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_forward_f64(double *y, uint8_t *mask, const double *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_F64, DROPOUT_OP_FORWARD, y, mask, x, n, p, bits, stream, dropout_cuda_v0__by_value(seed, offset), cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_forward_f16(__half *y, uint8_t *mask, const __half *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_F16, DROPOUT_OP_FORWARD, y, mask, x, n, p, bits, stream, dropout_cuda_v0__by_value(seed, offset), cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_forward_bf16(__nv_bfloat16 *y, uint8_t *mask, const __nv_bfloat16 *x, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_BF16, DROPOUT_OP_FORWARD, y, mask, x, n, p, bits, stream, dropout_cuda_v0__by_value(seed, offset), cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_backward_f32(float *dx, const float *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_F32, DROPOUT_OP_BACKWARD, dx, NULL, dy, n, p, bits, stream, dropout_cuda_v0__by_value(seed, offset), cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_backward_f64(double *dx, const double *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_F64, DROPOUT_OP_BACKWARD, dx, NULL, dy, n, p, bits, stream, dropout_cuda_v0__by_value(seed, offset), cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_backward_f16(__half *dx, const __half *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_F16, DROPOUT_OP_BACKWARD, dx, NULL, dy, n, p, bits, stream, dropout_cuda_v0__by_value(seed, offset), cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_backward_bf16(__nv_bfloat16 *dx, const __nv_bfloat16 *dy, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_BF16, DROPOUT_OP_BACKWARD, dx, NULL, dy, n, p, bits, stream, dropout_cuda_v0__by_value(seed, offset), cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_mask(uint8_t *mask, size_t n, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_F32, DROPOUT_OP_MASK, NULL, mask, NULL, n, p, bits, stream, dropout_cuda_v0__by_value(seed, offset), cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_apply_mask_f32(float *y, const float *x, const uint8_t *mask, size_t n, double p, int bits, cudaStream_t cs)
{
   return dropout_cuda_v0__apply_mask(DROPOUT_DTYPE_F32, y, x, mask, n, p, bits, cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_apply_mask_f64(double *y, const double *x, const uint8_t *mask, size_t n, double p, int bits, cudaStream_t cs)
{
   return dropout_cuda_v0__apply_mask(DROPOUT_DTYPE_F64, y, x, mask, n, p, bits, cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_apply_mask_f16(__half *y, const __half *x, const uint8_t *mask, size_t n, double p, int bits, cudaStream_t cs)
{
   return dropout_cuda_v0__apply_mask(DROPOUT_DTYPE_F16, y, x, mask, n, p, bits, cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_apply_mask_bf16(__nv_bfloat16 *y, const __nv_bfloat16 *x, const uint8_t *mask, size_t n, double p, int bits, cudaStream_t cs)
{
   return dropout_cuda_v0__apply_mask(DROPOUT_DTYPE_BF16, y, x, mask, n, p, bits, cs);
}

DROPOUT_CUDADEF int dropout_cuda_backward_mask_f32(float *dx, const float *dy, const uint8_t *mask, size_t n, double p, int bits, cudaStream_t cs)
{
   return dropout_cuda_v0__apply_mask(DROPOUT_DTYPE_F32, dx, dy, mask, n, p, bits, cs);
}

DROPOUT_CUDADEF int dropout_cuda_backward_mask_f64(double *dx, const double *dy, const uint8_t *mask, size_t n, double p, int bits, cudaStream_t cs)
{
   return dropout_cuda_v0__apply_mask(DROPOUT_DTYPE_F64, dx, dy, mask, n, p, bits, cs);
}

DROPOUT_CUDADEF int dropout_cuda_backward_mask_f16(__half *dx, const __half *dy, const uint8_t *mask, size_t n, double p, int bits, cudaStream_t cs)
{
   return dropout_cuda_v0__apply_mask(DROPOUT_DTYPE_F16, dx, dy, mask, n, p, bits, cs);
}

DROPOUT_CUDADEF int dropout_cuda_backward_mask_bf16(__nv_bfloat16 *dx, const __nv_bfloat16 *dy, const uint8_t *mask, size_t n, double p, int bits, cudaStream_t cs)
{
   return dropout_cuda_v0__apply_mask(DROPOUT_DTYPE_BF16, dx, dy, mask, n, p, bits, cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_fill_u32(uint32_t *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word, cudaStream_t cs)
{
   return dropout_cuda_v0__fill(0, out, n, seed, stream, word, cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_fill_uniform_f32(float *out, size_t n, uint64_t seed, uint64_t stream, uint64_t word, cudaStream_t cs)
{
   return dropout_cuda_v0__fill(1, out, n, seed, stream, word, cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_fill_uniform_f64(double *out, size_t n, uint64_t seed, uint64_t stream, uint64_t index, cudaStream_t cs)
{
   return dropout_cuda_v0__fill(2, out, n, seed, stream, index, cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_fill_normal_f32(float *out, size_t n, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__fill(3, out, n, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_bias_dropout_add_f32(float *y, uint8_t *mask, const float *x, const float *bias, const float *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__fused(DROPOUT_DTYPE_F32, y, mask, x, bias, residual, rows, cols, p, bits, stream, dropout_cuda_v0__by_value(seed, offset), cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_bias_dropout_add_f64(double *y, uint8_t *mask, const double *x, const double *bias, const double *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__fused(DROPOUT_DTYPE_F64, y, mask, x, bias, residual, rows, cols, p, bits, stream, dropout_cuda_v0__by_value(seed, offset), cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_bias_dropout_add_f16(__half *y, uint8_t *mask, const __half *x, const __half *bias, const __half *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__fused(DROPOUT_DTYPE_F16, y, mask, x, bias, residual, rows, cols, p, bits, stream, dropout_cuda_v0__by_value(seed, offset), cs);
}

DROPOUT_CUDADEF int dropout_cuda_v0_bias_dropout_add_bf16(__nv_bfloat16 *y, uint8_t *mask, const __nv_bfloat16 *x, const __nv_bfloat16 *bias, const __nv_bfloat16 *residual, size_t rows, size_t cols, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__fused(DROPOUT_DTYPE_BF16, y, mask, x, bias, residual, rows, cols, p, bits, stream, dropout_cuda_v0__by_value(seed, offset), cs);
}

DROPOUT_CUDADEF int dropout_cuda_forward_f32_state(float *y, uint8_t *mask, const float *x, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_F32, DROPOUT_OP_FORWARD, y, mask, x, n, p, bits, stream, st, cs);
}

DROPOUT_CUDADEF int dropout_cuda_forward_f64_state(double *y, uint8_t *mask, const double *x, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_F64, DROPOUT_OP_FORWARD, y, mask, x, n, p, bits, stream, st, cs);
}

DROPOUT_CUDADEF int dropout_cuda_forward_f16_state(__half *y, uint8_t *mask, const __half *x, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_F16, DROPOUT_OP_FORWARD, y, mask, x, n, p, bits, stream, st, cs);
}

DROPOUT_CUDADEF int dropout_cuda_forward_bf16_state(__nv_bfloat16 *y, uint8_t *mask, const __nv_bfloat16 *x, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_BF16, DROPOUT_OP_FORWARD, y, mask, x, n, p, bits, stream, st, cs);
}

DROPOUT_CUDADEF int dropout_cuda_backward_f32_state(float *dx, const float *dy, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_F32, DROPOUT_OP_BACKWARD, dx, NULL, dy, n, p, bits, stream, st, cs);
}

DROPOUT_CUDADEF int dropout_cuda_backward_f64_state(double *dx, const double *dy, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_F64, DROPOUT_OP_BACKWARD, dx, NULL, dy, n, p, bits, stream, st, cs);
}

DROPOUT_CUDADEF int dropout_cuda_backward_f16_state(__half *dx, const __half *dy, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_F16, DROPOUT_OP_BACKWARD, dx, NULL, dy, n, p, bits, stream, st, cs);
}

DROPOUT_CUDADEF int dropout_cuda_backward_bf16_state(__nv_bfloat16 *dx, const __nv_bfloat16 *dy, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_BF16, DROPOUT_OP_BACKWARD, dx, NULL, dy, n, p, bits, stream, st, cs);
}

DROPOUT_CUDADEF int dropout_cuda_mask_state(uint8_t *mask, size_t n, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs)
{
   return dropout_cuda_v0__drop(DROPOUT_DTYPE_F32, DROPOUT_OP_MASK, NULL, mask, NULL, n, p, bits, stream, st, cs);
}

DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_f32_state(float *y, uint8_t *mask, const float *x, const float *bias, const float *residual, size_t rows, size_t cols, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs)
{
   return dropout_cuda_v0__fused(DROPOUT_DTYPE_F32, y, mask, x, bias, residual, rows, cols, p, bits, stream, st, cs);
}

DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_f64_state(double *y, uint8_t *mask, const double *x, const double *bias, const double *residual, size_t rows, size_t cols, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs)
{
   return dropout_cuda_v0__fused(DROPOUT_DTYPE_F64, y, mask, x, bias, residual, rows, cols, p, bits, stream, st, cs);
}

DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_f16_state(__half *y, uint8_t *mask, const __half *x, const __half *bias, const __half *residual, size_t rows, size_t cols, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs)
{
   return dropout_cuda_v0__fused(DROPOUT_DTYPE_F16, y, mask, x, bias, residual, rows, cols, p, bits, stream, st, cs);
}

DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_bf16_state(__nv_bfloat16 *y, uint8_t *mask, const __nv_bfloat16 *x, const __nv_bfloat16 *bias, const __nv_bfloat16 *residual, size_t rows, size_t cols, double p, int bits, uint64_t stream, dropout_cuda_philox_state st, cudaStream_t cs)
{
   return dropout_cuda_v0__fused(DROPOUT_DTYPE_BF16, y, mask, x, bias, residual, rows, cols, p, bits, stream, st, cs);
}

DROPOUT_CUDADEF int dropout_cuda_bcast_forward_f32(float *y, uint8_t *mask, const float *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__bcast(DROPOUT_DTYPE_F32, DROPOUT_OP_FORWARD, y, mask, x, shape, p, bits, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_bcast_forward_f64(double *y, uint8_t *mask, const double *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__bcast(DROPOUT_DTYPE_F64, DROPOUT_OP_FORWARD, y, mask, x, shape, p, bits, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_bcast_forward_f16(__half *y, uint8_t *mask, const __half *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__bcast(DROPOUT_DTYPE_F16, DROPOUT_OP_FORWARD, y, mask, x, shape, p, bits, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_bcast_forward_bf16(__nv_bfloat16 *y, uint8_t *mask, const __nv_bfloat16 *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__bcast(DROPOUT_DTYPE_BF16, DROPOUT_OP_FORWARD, y, mask, x, shape, p, bits, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_bcast_backward_f32(float *dx, const float *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__bcast(DROPOUT_DTYPE_F32, DROPOUT_OP_BACKWARD, dx, NULL, dy, shape, p, bits, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_bcast_backward_f64(double *dx, const double *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__bcast(DROPOUT_DTYPE_F64, DROPOUT_OP_BACKWARD, dx, NULL, dy, shape, p, bits, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_bcast_backward_f16(__half *dx, const __half *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__bcast(DROPOUT_DTYPE_F16, DROPOUT_OP_BACKWARD, dx, NULL, dy, shape, p, bits, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_bcast_backward_bf16(__nv_bfloat16 *dx, const __nv_bfloat16 *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__bcast(DROPOUT_DTYPE_BF16, DROPOUT_OP_BACKWARD, dx, NULL, dy, shape, p, bits, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_alpha_forward_f32(float *y, uint8_t *mask, const float *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__bcast(DROPOUT_DTYPE_F32, DROPOUT_OP_ALPHA_FORWARD, y, mask, x, shape, p, bits, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_alpha_forward_f64(double *y, uint8_t *mask, const double *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__bcast(DROPOUT_DTYPE_F64, DROPOUT_OP_ALPHA_FORWARD, y, mask, x, shape, p, bits, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_alpha_forward_f16(__half *y, uint8_t *mask, const __half *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__bcast(DROPOUT_DTYPE_F16, DROPOUT_OP_ALPHA_FORWARD, y, mask, x, shape, p, bits, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_alpha_forward_bf16(__nv_bfloat16 *y, uint8_t *mask, const __nv_bfloat16 *x, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__bcast(DROPOUT_DTYPE_BF16, DROPOUT_OP_ALPHA_FORWARD, y, mask, x, shape, p, bits, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_alpha_backward_f32(float *dx, const float *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__bcast(DROPOUT_DTYPE_F32, DROPOUT_OP_ALPHA_BACKWARD, dx, NULL, dy, shape, p, bits, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_alpha_backward_f64(double *dx, const double *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__bcast(DROPOUT_DTYPE_F64, DROPOUT_OP_ALPHA_BACKWARD, dx, NULL, dy, shape, p, bits, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_alpha_backward_f16(__half *dx, const __half *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__bcast(DROPOUT_DTYPE_F16, DROPOUT_OP_ALPHA_BACKWARD, dx, NULL, dy, shape, p, bits, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_alpha_backward_bf16(__nv_bfloat16 *dx, const __nv_bfloat16 *dy, const dropout_shape *shape, double p, int bits, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__bcast(DROPOUT_DTYPE_BF16, DROPOUT_OP_ALPHA_BACKWARD, dx, NULL, dy, shape, p, bits, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_gaussian_forward_f32(float *y, const float *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__normal(DROPOUT_DTYPE_F32, DROPOUT_OP_GAUSSIAN, y, x, n, p, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_gaussian_forward_f64(double *y, const double *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__normal(DROPOUT_DTYPE_F64, DROPOUT_OP_GAUSSIAN, y, x, n, p, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_gaussian_forward_f16(__half *y, const __half *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__normal(DROPOUT_DTYPE_F16, DROPOUT_OP_GAUSSIAN, y, x, n, p, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_gaussian_forward_bf16(__nv_bfloat16 *y, const __nv_bfloat16 *x, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__normal(DROPOUT_DTYPE_BF16, DROPOUT_OP_GAUSSIAN, y, x, n, p, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_gaussian_backward_f32(float *dx, const float *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__normal(DROPOUT_DTYPE_F32, DROPOUT_OP_GAUSSIAN, dx, dy, n, p, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_gaussian_backward_f64(double *dx, const double *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__normal(DROPOUT_DTYPE_F64, DROPOUT_OP_GAUSSIAN, dx, dy, n, p, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_gaussian_backward_f16(__half *dx, const __half *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__normal(DROPOUT_DTYPE_F16, DROPOUT_OP_GAUSSIAN, dx, dy, n, p, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_gaussian_backward_bf16(__nv_bfloat16 *dx, const __nv_bfloat16 *dy, size_t n, double p, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__normal(DROPOUT_DTYPE_BF16, DROPOUT_OP_GAUSSIAN, dx, dy, n, p, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_noise_forward_f32(float *y, const float *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__normal(DROPOUT_DTYPE_F32, DROPOUT_OP_NOISE, y, x, n, sigma, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_noise_forward_f64(double *y, const double *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__normal(DROPOUT_DTYPE_F64, DROPOUT_OP_NOISE, y, x, n, sigma, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_noise_forward_f16(__half *y, const __half *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__normal(DROPOUT_DTYPE_F16, DROPOUT_OP_NOISE, y, x, n, sigma, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_noise_forward_bf16(__nv_bfloat16 *y, const __nv_bfloat16 *x, size_t n, double sigma, uint64_t seed, uint64_t stream, uint64_t offset, cudaStream_t cs)
{
   return dropout_cuda_v0__normal(DROPOUT_DTYPE_BF16, DROPOUT_OP_NOISE, y, x, n, sigma, seed, stream, offset, cs);
}

DROPOUT_CUDADEF int dropout_cuda_philox_advance(uint64_t *offset_ptr, uint64_t *saved_ptr, uint64_t n, cudaStream_t cs)
{
   return dropout_cuda_advance(offset_ptr, saved_ptr, n, cs);
}
} /* extern "C" */

#endif /* DROPOUT_CUDA_IMPLEMENTATION */
#endif /* DROPOUT_CUDA_V0_CUH_INCLUDED */

/* The 0.1.0 names whose 1.0 form differs, as the dropout_cuda_v0_ launchers (after the
   implementations, so that dropout_cuda.cuh's 1.0 definitions keep their names). */
#define dropout_cuda_forward_f32 dropout_cuda_v0_forward_f32
#define dropout_cuda_forward_f64 dropout_cuda_v0_forward_f64
#define dropout_cuda_forward_f16 dropout_cuda_v0_forward_f16
#define dropout_cuda_forward_bf16 dropout_cuda_v0_forward_bf16
#define dropout_cuda_backward_f32 dropout_cuda_v0_backward_f32
#define dropout_cuda_backward_f64 dropout_cuda_v0_backward_f64
#define dropout_cuda_backward_f16 dropout_cuda_v0_backward_f16
#define dropout_cuda_backward_bf16 dropout_cuda_v0_backward_bf16
#define dropout_cuda_mask dropout_cuda_v0_mask
#define dropout_cuda_apply_mask_f32 dropout_cuda_v0_apply_mask_f32
#define dropout_cuda_apply_mask_f64 dropout_cuda_v0_apply_mask_f64
#define dropout_cuda_apply_mask_f16 dropout_cuda_v0_apply_mask_f16
#define dropout_cuda_apply_mask_bf16 dropout_cuda_v0_apply_mask_bf16
#define dropout_cuda_fill_u32 dropout_cuda_v0_fill_u32
#define dropout_cuda_fill_uniform_f32 dropout_cuda_v0_fill_uniform_f32
#define dropout_cuda_fill_uniform_f64 dropout_cuda_v0_fill_uniform_f64
#define dropout_cuda_fill_normal_f32 dropout_cuda_v0_fill_normal_f32
#define dropout_cuda_bias_dropout_add_f32 dropout_cuda_v0_bias_dropout_add_f32
#define dropout_cuda_bias_dropout_add_f64 dropout_cuda_v0_bias_dropout_add_f64
#define dropout_cuda_bias_dropout_add_f16 dropout_cuda_v0_bias_dropout_add_f16
#define dropout_cuda_bias_dropout_add_bf16 dropout_cuda_v0_bias_dropout_add_bf16

/*
   LICENSE: as dropout.h's (public domain or MIT, see the end of dropout.h).
*/
