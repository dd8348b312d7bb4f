/* The variants' CUDA launchers (dropout_cuda.cuh) against the CPU reference, bit for bit
   (all dtypes, a few shapes, odd offsets). Inputs include NaNs with payloads, Inf, -0
   and subnormals; the variants' NaN payloads are unspecified (docs/SPEC.md section 10),
   so there a NaN matches any NaN and every other element must match to the bit. Built by tests/cuda/suite.sh
   with nvcc -Werror all-warnings for sm_75, sm_80 and sm_90 (cached) and run by
   `make test-cuda`; prints one SKIP line where no GPU is present. The kernel bodies are
   also run over emulated grids by tests/cuda/test_cuda_logic.c. */
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
      case_skip("variants CUDA == CPU", "no CUDA device");
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
   CHECK(cudaDeviceSynchronize() == cudaSuccess, "CUDA error");
   case_end("variants CUDA == CPU bit for bit");
   return check_exit();
}
