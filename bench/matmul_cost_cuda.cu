/* matmul_cost_cuda.cu - what a fixed summation order costs a GPU matrix product.

   examples/train_mlp_cuda.cu gets the CPU's weights bit for bit because every output of
   every matrix product is summed in one order: bias first, then k = 0, 1, 2, ..., each
   step one rounded multiply and one rounded add (__fmul_rn, __fadd_rn: no FMA). This
   program measures what that rule costs against cuBLAS on the same GPU, C (M,N) = A (M,K)
   @ B (K,N), row-major, fp32, M = N = K = 4096:

     fixed, naive   the trainer's kernel: one thread per output, k ascending
     fixed, tiled   the same sums, 64x64 tiles through shared memory, 4x4 outputs per
                    thread: tiling moves data, not the order of any sum, so its bits equal
                    the naive kernel's and the CPU's (checked below at 256^3)
     cuBLAS fp32    cublasSgemm, default math (FMA, free summation order; no bias)
     cuBLAS tf32    the same with CUBLAS_TF32_TENSOR_OP_MATH (tensor cores, 10-bit mantissas)

   Median of 10 CUDA-event timings after 2 warm-ups. Needs a GPU and cuBLAS. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cublas_v2.h>

#define CU(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
   printf("FAIL %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)
#define CB(call) do { cublasStatus_t s_ = (call); if (s_ != CUBLAS_STATUS_SUCCESS) { \
   printf("FAIL %s: cublas status %d\n", #call, (int)s_); exit(1); } } while (0)

/* one thread per C[m][n]: bias first, then k ascending (train_mlp_cuda.cu's kernel) */
__global__ void fixed_naive(float *C, const float *A, const float *B, const float *bias, int M, int N, int K)
{
   int idx = blockIdx.x * blockDim.x + threadIdx.x, m = idx / N, n = idx % N;
   float acc;
   if (idx >= M * N) return;
   acc = bias[n];
   for (int k = 0; k < K; ++k) acc = __fadd_rn(acc, __fmul_rn(A[m * K + k], B[k * N + n]));
   C[idx] = acc;
}

enum { BM = 64, BN = 64, BK = 16 };   /* 16 x 16 threads, 4 x 4 outputs each */

/* the same sums as fixed_naive (M, N multiples of 64, K of 16) */
__global__ void __launch_bounds__(256) fixed_tiled(float *C, const float *A, const float *B, const float *bias, int M, int N, int K)
{
   __shared__ float As[BK][BM + 4], Bs[BK][BN];
   int tx = threadIdx.x % 16, ty = threadIdx.x / 16, m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
   float acc[4][4];
   for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) acc[i][j] = bias[n0 + tx * 4 + j];
   for (int k0 = 0; k0 < K; k0 += BK) {
      for (int t = threadIdx.x; t < BM * BK; t += 256) {   /* A tile stored k-major */
         int r = t / BK, c = t % BK;
         As[c][r] = A[(m0 + r) * K + k0 + c];
      }
      for (int t = threadIdx.x; t < BK * BN; t += 256) {
         int r = t / BN, c = t % BN;
         Bs[r][c] = B[(k0 + r) * N + n0 + c];
      }
      __syncthreads();
      for (int kk = 0; kk < BK; ++kk) {   /* k ascending, as everywhere */
         float a[4], b[4];
         for (int i = 0; i < 4; ++i) a[i] = As[kk][ty * 4 + i];
         for (int j = 0; j < 4; ++j) b[j] = Bs[kk][tx * 4 + j];
         for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) acc[i][j] = __fadd_rn(acc[i][j], __fmul_rn(a[i], b[j]));
      }
      __syncthreads();
   }
   for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) C[(m0 + ty * 4 + i) * N + n0 + tx * 4 + j] = acc[i][j];
}

static int cmp_float(const void *a, const void *b)
{
   float x = *(const float *)a, y = *(const float *)b;
   return x < y ? -1 : x > y;
}

static cublasHandle_t handle;
static float *dA, *dB, *dC, *dbias;

/* 0 naive, 1 tiled, 2 cuBLAS (the handle's math mode) */
static void run(int which, int M, int N, int K)
{
   const float one = 1.0f, zero = 0.0f;
   if (which == 0) fixed_naive<<<(M * N + 255) / 256, 256>>>(dC, dA, dB, dbias, M, N, K);
   else if (which == 1) fixed_tiled<<<dim3(N / BN, M / BM), 256>>>(dC, dA, dB, dbias, M, N, K);
   else CB(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, dB, N, dA, K, &zero, dC, N));   /* row-major via C^T = B^T A^T */
   CU(cudaGetLastError());
}

static double median_ms(int which, int M, int N, int K)
{
   cudaEvent_t a, b;
   float t[10];
   CU(cudaEventCreate(&a)); CU(cudaEventCreate(&b));
   for (int i = -2; i < 10; ++i) {
      CU(cudaEventRecord(a));
      run(which, M, N, K);
      CU(cudaEventRecord(b));
      CU(cudaEventSynchronize(b));
      if (i >= 0) CU(cudaEventElapsedTime(&t[i], a, b));
   }
   cudaEventDestroy(a); cudaEventDestroy(b);
   qsort(t, 10, sizeof t[0], cmp_float);
   return 0.5 * (t[4] + t[5]);
}

int main(void)
{
   const int S = 4096, s = 256;
   int ndev = 0, ok = 1;
   if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) { printf("SKIP matmul_cost_cuda: no CUDA device\n"); return 0; }
   float *hA = (float *)malloc((size_t)S * S * 4), *hB = (float *)malloc((size_t)S * S * 4);
   float *hbias = (float *)malloc((size_t)S * 4), *hC = (float *)malloc((size_t)s * s * 4), *ref = (float *)malloc((size_t)s * s * 4);
   uint32_t r = 12345;
   for (size_t i = 0; i < (size_t)S * S; ++i) {
      r = r * 1664525u + 1013904223u; hA[i] = (float)(r >> 8) * 5.9604644775390625e-8f - 0.5f;   /* [-0.5, 0.5) */
      r = r * 1664525u + 1013904223u; hB[i] = (float)(r >> 8) * 5.9604644775390625e-8f - 0.5f;
   }
   for (int i = 0; i < S; ++i) hbias[i] = (float)i * 2.44140625e-4f;
   CU(cudaMalloc(&dA, (size_t)S * S * 4)); CU(cudaMalloc(&dB, (size_t)S * S * 4));
   CU(cudaMalloc(&dC, (size_t)S * S * 4)); CU(cudaMalloc(&dbias, (size_t)S * 4));
   CU(cudaMemcpy(dbias, hbias, (size_t)S * 4, cudaMemcpyHostToDevice));
   CB(cublasCreate(&handle));

   /* bits: at 256^3 the CPU loop, the naive and the tiled kernel must agree exactly */
   CU(cudaMemcpy(dA, hA, (size_t)s * s * 4, cudaMemcpyHostToDevice));
   CU(cudaMemcpy(dB, hB, (size_t)s * s * 4, cudaMemcpyHostToDevice));
   for (int m = 0; m < s; ++m)
      for (int n = 0; n < s; ++n) {
         float acc = hbias[n];
         for (int k = 0; k < s; ++k) {
            float p = hA[m * s + k] * hB[k * s + n];   /* built with -ffp-contract=off */
            acc = acc + p;
         }
         ref[m * s + n] = acc;
      }
   for (int which = 0; which < 2; ++which) {
      CU(cudaMemset(dC, 0xFF, (size_t)s * s * 4));
      run(which, s, s, s);
      CU(cudaMemcpy(hC, dC, (size_t)s * s * 4, cudaMemcpyDeviceToHost));
      if (memcmp(hC, ref, (size_t)s * s * 4)) { ok = 0; printf("FAIL matmul_cost_cuda: %s kernel differs from the CPU loop\n", which ? "tiled" : "naive"); }
   }
   if (ok) printf("PASS matmul_cost_cuda: naive and tiled fixed-order kernels equal the CPU loop bit for bit (256^3)\n");

   CU(cudaMemcpy(dA, hA, (size_t)S * S * 4, cudaMemcpyHostToDevice));
   CU(cudaMemcpy(dB, hB, (size_t)S * S * 4, cudaMemcpyHostToDevice));
   double flop = 2.0 * S * S * (double)S, ms[4];
   ms[0] = median_ms(0, S, S, S);
   ms[1] = median_ms(1, S, S, S);
   CB(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
   ms[2] = median_ms(2, S, S, S);
   CB(cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH));
   ms[3] = median_ms(2, S, S, S);
   static const char *names[] = { "fixed order, naive (the trainer's kernel)", "fixed order, tiled (same bits)",
                                  "cuBLAS sgemm fp32 (FMA, free order)", "cuBLAS sgemm tf32 tensor cores" };
   printf("\n| C = A @ B, fp32, %d^3 | ms | TFLOP/s | time / cuBLAS fp32 |\n|---|---|---|---|\n", S);
   for (int i = 0; i < 4; ++i) printf("| %s | %.2f | %.1f | %.2fx |\n", names[i], ms[i], flop / ms[i] / 1e9, ms[i] / ms[2]);
   cublasDestroy(handle);
   cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dbias);
   free(hA); free(hB); free(hbias); free(hC); free(ref);
   return ok ? 0 : 1;
}
