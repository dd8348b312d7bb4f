/* test_cuda_v0.cu - a program written against 0.1.0's CUDA interface, built unchanged
   with DROPOUT_V0_API: every 0.1.0 dropout_cuda_* call compiles with its 0.1.0 signature
   and, on a GPU, gives the 0.1.0 CPU call's bits (those run on dropout.h's DROPOUT_V0_API
   too). The body below the first block is tests/variants_cuda.cu as it was at 0.1.0;
   the core calls, the fills, the _state launchers and dropout_cuda_philox_advance follow.
   Built by the nvcc suite (tests/cuda/suite.sh) and run by `make test-cuda`; prints one
   SKIP line where no GPU is present. */
#define DROPOUT_V0_API
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* a 0.1.0 program, kept unchanged: its calls are meant */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#define DROPOUT_IMPLEMENTATION
#define DROPOUT_CUDA_IMPLEMENTATION
#include "dropout_cuda.cuh"
#include "check.h"

/* f16 / bf16 buffers are uint16_t bit patterns here, __half / __nv_bfloat16 in the API */
#define H(p) ((__half *)(p))
#define B(p) ((__nv_bfloat16 *)(p))

enum { N = 3 * 5 * 7 * 11 };

static int nan_bits(uint64_t u, size_t size, int bf16)
{
   if (size == 8) return (u & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull;
   if (size == 4) return (u & 0x7FFFFFFFu) > 0x7F800000u;
   return (u & 0x7FFFu) > (bf16 ? 0x7F80u : 0x7C00u);
}

/* bit for bit, except that a NaN matches any NaN; bf16: 16-bit data is bf16, not f16 */
template <typename T>
static void compare(const char *what, const T *cpu, const T *dev_ptr, size_t n, int bf16 = 0)
{
   T *host = (T *)malloc(n * sizeof(T));
   size_t i;
   cudaMemcpy(host, dev_ptr, n * sizeof(T), cudaMemcpyDeviceToHost);
   for (i = 0; i < n; ++i) {
      uint64_t a = 0, b = 0;
      memcpy(&a, &host[i], sizeof(T)); memcpy(&b, &cpu[i], sizeof(T));
      if (a != b && !(nan_bits(a, sizeof(T), bf16) && nan_bits(b, sizeof(T), bf16))) break;
   }
   CHECK(i == n, "%s: GPU differs from CPU at element %zu", what, i);
   free(host);
}

/* a few special values over the data: NaN payloads (quiet, signalling), Inf, -0, subnormals */
static void specials(float *x, double *xd, uint16_t *xh, uint16_t *xb, size_t n)
{
   static const uint32_t s32[] = { 0x7FC00001u, 0xFF800001u, 0x7F800000u, 0x80000000u, 0x00000001u, 0x807FFFFFu };
   static const uint64_t s64[] = { 0x7FF8000000000001ull, 0xFFF0000000000001ull, 0xFFF0000000000000ull, 0x8000000000000000ull, 1ull, 0x000FFFFFFFFFFFFFull };
   static const uint16_t s16[] = { 0x7E01u, 0xFC01u, 0x7C00u, 0x8000u, 0x0001u, 0x83FFu };
   static const uint16_t sb[] = { 0x7FC1u, 0xFF81u, 0x7F80u, 0x8000u, 0x0001u, 0x807Fu };
   for (size_t i = 0; i < n; i += 7) {
      size_t k = (i / 7) % 6;
      memcpy(&x[i], &s32[k], 4); memcpy(&xd[i], &s64[k], 8); xh[i] = s16[k]; xb[i] = sb[k];
   }
}

int main(void)
{
   int count = 0;
   (void)case_skip;
   if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      case_skip("0.1.0 CUDA program under DROPOUT_V0_API", "no CUDA device");
      return 0;
   }
   static float x[N], y[N];
   static double xd[N], yd[N];
   static uint16_t xh[N], yh[N], xb[N];
   static uint8_t m[N / 8 + 1];
   float *dx, *dy; double *dxd, *dyd; uint16_t *dxh, *dyh, *dxb; uint8_t *dm;
   cudaMalloc(&dx, sizeof x); cudaMalloc(&dy, sizeof y); cudaMalloc(&dxd, sizeof xd); cudaMalloc(&dyd, sizeof yd);
   cudaMalloc(&dxh, sizeof xh); cudaMalloc(&dyh, sizeof yh); cudaMalloc(&dm, sizeof m);
   dropout_fill_normal_f32(x, N, 1, 1, 0);
   for (size_t i = 0; i < N; ++i) { xd[i] = x[i] * 1.1; xh[i] = dropout_f32_to_f16(x[i]); xb[i] = dropout_f32_to_bf16(x[i]); }
   specials(x, xd, xh, xb, N);
   cudaMalloc(&dxb, sizeof xb);
   cudaMemcpy(dxb, xb, sizeof xb, cudaMemcpyHostToDevice);
   cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
   cudaMemcpy(dxd, xd, sizeof xd, cudaMemcpyHostToDevice);
   cudaMemcpy(dxh, xh, sizeof xh, cudaMemcpyHostToDevice);
   const dropout_shape shapes[3] = {{4, {3, 5, 7, 11}, 0xC}, {4, {3, 5, 7, 11}, 0x1}, {1, {N}, 0}};
   const int bitss[3] = {8, 16, 32};
   for (int s = 0; s < 3; ++s)
      for (int b = 0; b < 3; ++b) {
         const dropout_shape *sh = &shapes[s];
         size_t np;
         dropout_shape_sizes(sh, NULL, &np);
         CHECK(dropout_cuda_bcast_forward_f32(dy, dm, dx, sh, 0.3, bitss[b], 7, 8, 9, 0) == 0, "bcast launch");
         dropout_bcast_forward_f32(y, m, x, sh, 0.3, bitss[b], 7, 8, 9);
         compare("bcast f32", y, dy, N); compare("bcast mask", m, dm, (np + 7) / 8);
         dropout_cuda_alpha_forward_f32(dy, NULL, dx, sh, 0.2, bitss[b], 7, 8, 9, 0);
         dropout_alpha_forward_f32(y, NULL, x, sh, 0.2, bitss[b], 7, 8, 9);
         compare("alpha f32", y, dy, N);
         dropout_cuda_alpha_forward_f64(dyd, NULL, dxd, sh, 0.2, bitss[b], 7, 8, 9, 0);
         dropout_alpha_forward_f64(yd, NULL, xd, sh, 0.2, bitss[b], 7, 8, 9);
         compare("alpha f64", yd, dyd, N);
         dropout_cuda_alpha_forward_f16(H(dyh), NULL, H(dxh), sh, 0.2, bitss[b], 7, 8, 9, 0);
         dropout_alpha_forward_f16(yh, NULL, xh, sh, 0.2, bitss[b], 7, 8, 9);
         compare("alpha f16", yh, dyh, N);
         dropout_cuda_alpha_backward_bf16(B(dyh), B(dxb), sh, 0.2, bitss[b], 7, 8, 9, 0);
         dropout_alpha_backward_bf16(yh, xb, sh, 0.2, bitss[b], 7, 8, 9);
         compare("alpha backward bf16", yh, dyh, N, 1);
         dropout_cuda_bcast_backward_f64(dyd, dxd, sh, 0.6, bitss[b], 7, 8, 9, 0);
         dropout_bcast_backward_f64(yd, xd, sh, 0.6, bitss[b], 7, 8, 9);
         compare("bcast backward f64", yd, dyd, N);
      }
   dropout_cuda_fill_normal_f32(dy, N, 3, 4, 5, 0);
   dropout_fill_normal_f32(y, N, 3, 4, 5);
   compare("normals", y, dy, N);
   dropout_cuda_gaussian_forward_f32(dy, dx, N, 0.3, 3, 4, 5, 0);
   dropout_gaussian_forward_f32(y, x, N, 0.3, 3, 4, 5);
   compare("gaussian f32", y, dy, N);
   dropout_cuda_gaussian_backward_f64(dyd, dxd, N, 0.3, 3, 4, 5, 0);
   dropout_gaussian_backward_f64(yd, xd, N, 0.3, 3, 4, 5);
   compare("gaussian backward f64", yd, dyd, N);
   dropout_cuda_gaussian_forward_f16(H(dyh), H(dxh), N, 0.3, 3, 4, 5, 0);
   dropout_gaussian_forward_f16(yh, xh, N, 0.3, 3, 4, 5);
   compare("gaussian f16", yh, dyh, N);
   dropout_cuda_noise_forward_bf16(B(dyh), B(dxb), N, 0.5, 3, 4, 5, 0);
   dropout_noise_forward_bf16(yh, xb, N, 0.5, 3, 4, 5);
   compare("noise bf16", yh, dyh, N, 1);
   dropout_cuda_noise_forward_f64(dyd, dxd, N, 0.5, 3, 4, 5, 0);
   dropout_noise_forward_f64(yd, xd, N, 0.5, 3, 4, 5);
   compare("noise f64", yd, dyd, N);
   CHECK(dropout_cuda_noise_forward_f32(dy, dx, N, -1.0, 3, 4, 5, 0) == DROPOUT_ERR_ARG, "sigma < 0 on the GPU");
   /* the core calls, 0.1.0 signatures */
   for (int b = 0; b < 3; ++b) {
      CHECK(dropout_cuda_forward_f32(dy, dm, dx, N, 0.3, bitss[b], 7, 8, 9, 0) == 0, "forward");
      dropout_forward_f32(y, m, x, N, 0.3, bitss[b], 7, 8, 9);
      compare("forward f32", y, dy, N); compare("forward mask", m, dm, (N + 7) / 8);
      CHECK(dropout_cuda_backward_f64(dyd, dxd, N, 0.3, bitss[b], 7, 8, 9, 0) == 0, "backward");
      dropout_backward_f64(yd, xd, N, 0.3, bitss[b], 7, 8, 9);
      compare("backward f64", yd, dyd, N);
      CHECK(dropout_cuda_forward_f16((__half *)dyh, NULL, (const __half *)dxh, N, 0.3, bitss[b], 7, 8, 9, 0) == 0, "forward f16");
      dropout_forward_f16(yh, NULL, xh, N, 0.3, bitss[b], 7, 8, 9);
      compare("forward f16", yh, dyh, N);
      CHECK(dropout_cuda_backward_bf16((__nv_bfloat16 *)dyh, (const __nv_bfloat16 *)dxb, N, 0.3, bitss[b], 7, 8, 9, 0) == 0, "backward bf16");
      dropout_backward_bf16(yh, xb, N, 0.3, bitss[b], 7, 8, 9);
      compare("backward bf16", yh, dyh, N, 1);
      CHECK(dropout_cuda_mask(dm, N, 0.3, bitss[b], 7, 8, 9, 0) == 0, "mask");
      dropout_mask(m, N, 0.3, bitss[b], 7, 8, 9);
      compare("mask", m, dm, (N + 7) / 8);
      CHECK(dropout_cuda_apply_mask_f32(dy, dx, dm, N, 0.3, bitss[b], 0) == 0, "apply_mask");
      dropout_apply_mask_f32(y, x, m, N, 0.3, bitss[b]);
      compare("apply_mask f32", y, dy, N);
      CHECK(dropout_cuda_backward_mask_f64(dyd, dxd, dm, N, 0.3, bitss[b], 0) == 0, "backward_mask");
      dropout_backward_mask_f64(yd, xd, m, N, 0.3, bitss[b]);
      compare("backward_mask f64", yd, dyd, N);
      CHECK(dropout_cuda_bias_dropout_add_f32(dy, dm, dx, dx, dx, 3 * 5 * 7, 11, 0.3, bitss[b], 7, 8, 9, 0) == 0, "fused");
      dropout_bias_dropout_add_f32(y, m, x, x, x, 3 * 5 * 7, 11, 0.3, bitss[b], 7, 8, 9);
      compare("fused f32", y, dy, N); compare("fused mask", m, dm, (N + 7) / 8);
   }
   {
      static uint32_t w[N];
      uint32_t *dw;
      cudaMalloc(&dw, sizeof w);
      CHECK(dropout_cuda_fill_u32(dw, N, 3, 4, 5, 0) == 0, "fill_u32");
      dropout_fill_u32(w, N, 3, 4, 5);
      compare("fill_u32", w, dw, N);
      CHECK(dropout_cuda_fill_uniform_f32(dy, N, 3, 4, 5, 0) == 0, "fill_uniform_f32");
      dropout_fill_uniform_f32(y, N, 3, 4, 5);
      compare("fill_uniform_f32", y, dy, N);
      CHECK(dropout_cuda_fill_uniform_f64(dyd, N, 3, 4, 5, 0) == 0, "fill_uniform_f64");
      dropout_fill_uniform_f64(yd, N, 3, 4, 5);
      compare("fill_uniform_f64", yd, dyd, N);
      cudaFree(dw);
   }
   {   /* the _state launchers: (seed, offset) from device memory; advance */
      uint64_t *dst, st0[2] = { 7, 9 };
      cudaMalloc(&dst, sizeof st0);
      cudaMemcpy(dst, st0, sizeof st0, cudaMemcpyHostToDevice);
      dropout_cuda_philox_state st = { 0, 0, dst, dst + 1, NULL };
      CHECK(dropout_cuda_forward_f32_state(dy, NULL, dx, N, 0.3, 16, 8, st, 0) == 0, "forward_state");
      dropout_forward_f32(y, NULL, x, N, 0.3, 16, 7, 8, 9);
      compare("forward f32 _state", y, dy, N);
      CHECK(dropout_cuda_philox_advance(dst + 1, NULL, N, 0) == 0, "advance");
      CHECK(dropout_cuda_backward_f64_state(dyd, dxd, N, 0.3, 16, 8, st, 0) == 0, "backward_state");
      dropout_backward_f64(yd, xd, N, 0.3, 16, 7, 8, 9 + N);
      compare("backward f64 _state after advance", yd, dyd, N);
      CHECK(dropout_cuda_mask_state(dm, N, 0.3, 16, 8, st, 0) == 0, "mask_state");
      dropout_mask(m, N, 0.3, 16, 7, 8, 9 + N);
      compare("mask _state", m, dm, (N + 7) / 8);
      CHECK(dropout_cuda_bias_dropout_add_f16_state((__half *)dyh, NULL, (const __half *)dxh, (const __half *)dxh, (const __half *)dxh, 3 * 5 * 7, 11, 0.3, 8, 8, st, 0) == 0, "fused_state");
      dropout_bias_dropout_add_f16(yh, NULL, xh, xh, xh, 3 * 5 * 7, 11, 0.3, 8, 7, 8, 9 + N);
      compare("fused f16 _state", yh, dyh, N);
      cudaFree(dst);
   }

   CHECK(cudaDeviceSynchronize() == cudaSuccess, "CUDA error");
   case_end("a 0.1.0 CUDA program built with DROPOUT_V0_API: every call == the 0.1.0 CPU call, bit for bit");
   return check_exit();
}
