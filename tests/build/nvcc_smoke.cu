/* nvcc_smoke.cu - dropout.h under nvcc: the implementation compiles as CUDA C++ host
   code (-Werror all-warnings), and the host/device building blocks compile into a
   __global__ kernel for each target architecture. Run on a machine with a GPU, the
   kernel's masks and outputs are compared bit for bit with the host library; without a
   GPU that part prints a SKIP line. */
#define DROPOUT_V0_API   /* written against the 0.1.0 calls: they must keep giving the same bits */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

enum { N = 4099 };

/* One thread per element, straight from the contract: position offset + j. */
__global__ void smoke_kernel(float *y, uint16_t *yh, uint16_t *yb, double *yd, uint8_t *keep,
                             const float *x, size_t n, double p, int bits, uint64_t seed,
                             uint64_t stream, uint64_t offset)
{
   size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
   if (j >= n) return;
   dropout_rule r = dropout_rule_make(p, bits);
   unsigned per_block = 128u / (unsigned)bits;
   uint64_t q = offset + j;
   uint32_t w[4];
   dropout_block(seed, stream, q / per_block, w);
   int k = dropout_keep(dropout_draw(w, bits, (unsigned)(q % per_block)), r);
   keep[j] = (uint8_t)k;
   y[j] = dropout_apply_f32(x[j], k, r);
   yd[j] = dropout_apply_f64((double)x[j], k, r);
   yh[j] = dropout_apply_f16(dropout_f32_to_f16(x[j]), k, r);
   yb[j] = dropout_apply_bf16(dropout_f32_to_bf16(x[j]), k, r);
}

static int host_checks(void)
{
   const uint32_t ctr[4] = {0, 0, 0, 0}, key[2] = {0, 0};
   uint32_t out[4];
   uint8_t m[2];
   dropout_philox4x32_10(ctr, key, out);
   return out[0] == 0x6627e8d5u && dropout_v0_mask(m, 16, 0.5, 8, 0, 0, 0) == 0 && m[0] == 0xB3 &&
          dropout_f16_to_f32(dropout_f32_to_f16(1.5f)) == 1.5f;
}

static int device_checks(int bits, double p)
{
   static float x[N], y[N], hy[N];
   static double yd[N], hyd[N], xd[N];
   static uint16_t yh[N], yb[N], hyh[N], hyb[N], xh[N], xb[N];
   static uint8_t keep[N], hm[(N + 7) / 8];
   float *dx, *dy; double *dyd; uint16_t *dyh, *dyb; uint8_t *dk;
   const uint64_t seed = 0xFEEDu, stream = 0x8000000000000003ull, offset = 123457;
   int j, bad = 0;
   for (j = 0; j < N; ++j) {
      x[j] = (float)(j % 97) * 0.37f - 11.0f;
      xd[j] = (double)x[j]; xh[j] = dropout_f32_to_f16(x[j]); xb[j] = dropout_f32_to_bf16(x[j]);
   }
   if (cudaMalloc(&dx, sizeof x) || cudaMalloc(&dy, sizeof y) || cudaMalloc(&dyd, sizeof yd) ||
       cudaMalloc(&dyh, sizeof yh) || cudaMalloc(&dyb, sizeof yb) || cudaMalloc(&dk, sizeof keep))
      return -1;
   cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
   smoke_kernel<<<(N + 127) / 128, 128>>>(dy, dyh, dyb, dyd, dk, dx, N, p, bits, seed, stream, offset);
   if (cudaDeviceSynchronize() != cudaSuccess) return -1;
   cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
   cudaMemcpy(yd, dyd, sizeof yd, cudaMemcpyDeviceToHost);
   cudaMemcpy(yh, dyh, sizeof yh, cudaMemcpyDeviceToHost);
   cudaMemcpy(yb, dyb, sizeof yb, cudaMemcpyDeviceToHost);
   cudaMemcpy(keep, dk, sizeof keep, cudaMemcpyDeviceToHost);
   cudaFree(dx); cudaFree(dy); cudaFree(dyd); cudaFree(dyh); cudaFree(dyb); cudaFree(dk);
   dropout_v0_forward_f32(hy, hm, x, N, p, bits, seed, stream, offset);
   dropout_v0_forward_f64(hyd, NULL, xd, N, p, bits, seed, stream, offset);
   dropout_v0_forward_f16(hyh, NULL, xh, N, p, bits, seed, stream, offset);
   dropout_v0_forward_bf16(hyb, NULL, xb, N, p, bits, seed, stream, offset);
   for (j = 0; j < N; ++j)
      bad += keep[j] != ((hm[j / 8] >> (j % 8)) & 1) || memcmp(&y[j], &hy[j], 4) != 0 ||
             memcmp(&yd[j], &hyd[j], 8) != 0 || yh[j] != hyh[j] || yb[j] != hyb[j];
   return bad;
}

int main(int argc, char **argv)
{
   int count = 0;
   const char *name = argc > 1 ? argv[1] : "nvcc";
   printf("%s %s host\n", host_checks() ? "PASS" : "FAIL", name);
   if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      printf("SKIP %s device: no CUDA device here\n", name);
      return 0;
   }
   {
      int bad = device_checks(8, 0.3) | device_checks(16, 0.1) | device_checks(32, 0.5);
      printf("%s %s device (kernel == host library, 3 rules x %d elements x 4 types)%s\n",
             bad == 0 ? "PASS" : "FAIL", name, N, bad < 0 ? ": a CUDA call failed" : "");
      return bad != 0;
   }
}
