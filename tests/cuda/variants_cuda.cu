/* The variants on the GPU (dropout_cuda_run with dropout.h's descriptor: broadcast
   dropout, alpha dropout forward and backward, Gaussian dropout, Gaussian noise, and the
   normals) against dropout_run on the CPU, bit for bit (all dtypes, a few shapes, odd
   positions). Inputs include NaNs with payloads, Inf, -0 and subnormals; the variants' NaN
   payloads are unspecified (docs/SPEC.md section 10), so there a NaN matches any NaN and
   every other element must match to the bit. Built by the nvcc suite (tests/cuda/suite.sh)
   with -Werror all-warnings (sm_90) and run by `make test-cuda`;
   prints one SKIP line where no GPU is present. The kernels are also run over emulated
   grids by tests/cuda/test_cuda_logic.c. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#define DROPOUT_IMPLEMENTATION
#define DROPOUT_CUDA_IMPLEMENTATION
#include "dropout_cuda.cuh"
#include "check.h"

enum { N = 3 * 5 * 7 * 11 };

static int nan_bits(uint64_t u, size_t size, int bf16)
{
   if (size == 8) return (u & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull;
   if (size == 4) return (u & 0x7FFFFFFFu) > 0x7F800000u;
   return (u & 0x7FFFu) > (bf16 ? 0x7F80u : 0x7C00u);
}

/* bit for bit, except that a NaN matches any NaN; bf16: 16-bit data is bf16, not f16 */
static void compare(const char *what, const void *cpu, const void *dev_ptr, size_t n, size_t es, int bf16)
{
   unsigned char *host = (unsigned char *)malloc(n * es);
   size_t i;
   cudaMemcpy(host, dev_ptr, n * es, cudaMemcpyDeviceToHost);
   for (i = 0; i < n; ++i) {
      uint64_t a = 0, b = 0;
      memcpy(&a, host + i * es, es); memcpy(&b, (const unsigned char *)cpu + i * es, es);
      if (a != b && !(nan_bits(a, es, bf16) && nan_bits(b, es, bf16))) break;
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

/* One op on a contiguous tensor of `rank` dims with `bcast` broadcast bits, on the CPU
   (host buffers) and on the GPU (device buffers), with the same descriptor; the outputs
   and masks (when given) are compared. */
static void both(const char *what, dropout_op op, dropout_dtype dt, double p, dropout_bits bits, double sigma,
                 int rank, const size_t *dims, unsigned bcast, const void *hx, void *hy, uint8_t *hm,
                 const void *dx, void *dy, uint8_t *dm)
{
   static const size_t es[5] = { 0, 4, 8, 2, 2 };
   dropout_rule rule;
   dropout_plan plan;
   dropout_desc d;
   dropout_tensors th, td;
   uint64_t positions = 1;
   int i, rc;
   for (i = 0; i < rank; ++i) if (!((bcast >> i) & 1u)) positions *= dims[i];
   if (op == DROPOUT_OP_GAUSSIAN || op == DROPOUT_OP_NOISE) bits = DROPOUT_BITS_32;
   rc = dropout_rule_init(&rule, p, bits);
   if (!rc) rc = (op == DROPOUT_OP_GAUSSIAN || op == DROPOUT_OP_NOISE ? dropout_plan_at_normals : dropout_plan_at)(&plan, &rule, dropout_key_make(7, 8), dropout_pos_make(9), positions);
   if (!rc) rc = dropout_desc_init(&d, op, dt, &plan);
   if (!rc) rc = dropout_desc_set_shape(&d, rank, dims);
   if (!rc && bcast) rc = dropout_desc_set_broadcast(&d, bcast);
   if (!rc && op == DROPOUT_OP_NOISE) rc = dropout_desc_set_sigma(&d, sigma);
   memset(&th, 0, sizeof th); memset(&td, 0, sizeof td);
   th.out = hy; th.in = hx; th.mask = hm;
   td.out = dy; td.in = dx; td.mask = hm ? dm : NULL;
   if (!rc) rc = dropout_run(&d, &th);
   CHECK(rc == 0, "%s: cpu %s", what, dropout_strerror(rc));
   if (!rc) rc = dropout_desc_replay(&d);   /* the GPU draws the CPU's positions again */
   if (!rc) rc = dropout_cuda_run(&d, &td, 0);
   CHECK(rc == 0, "%s: gpu %s", what, dropout_cuda_strerror(rc));
   CHECK(cudaDeviceSynchronize() == cudaSuccess, "%s: CUDA error", what);
   compare(what, hy, dy, N, es[dt], dt == DROPOUT_DTYPE_BF16);
   if (hm) compare(what, hm, dm, (size_t)(positions + 7) / 8, 1, 0);
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
   cudaMalloc(&dxh, sizeof xh); cudaMalloc(&dyh, sizeof yh); cudaMalloc(&dm, sizeof m); cudaMalloc(&dxb, sizeof xb);
   dropout_fill_normal_f32(dropout_key_make(1, 1), dropout_pos_make(0), x, N);
   for (size_t i = 0; i < N; ++i) { xd[i] = x[i] * 1.1; xh[i] = dropout_f32_to_f16(x[i]); xb[i] = dropout_f32_to_bf16(x[i]); }
   specials(x, xd, xh, xb, N);
   cudaMemcpy(dxb, xb, sizeof xb, cudaMemcpyHostToDevice);
   cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
   cudaMemcpy(dxd, xd, sizeof xd, cudaMemcpyHostToDevice);
   cudaMemcpy(dxh, xh, sizeof xh, cudaMemcpyHostToDevice);
   const size_t shapes[3][4] = { { 3, 5, 7, 11 }, { 3, 5, 7, 11 }, { N, 1, 1, 1 } };
   const unsigned bcasts[3] = { 0xC, 0x1, 0 };
   const int ranks[3] = { 4, 4, 1 };
   const dropout_bits bitss[3] = { DROPOUT_BITS_8, DROPOUT_BITS_16, DROPOUT_BITS_32 };
   for (int s = 0; s < 3; ++s)
      for (int b = 0; b < 3; ++b) {
         const size_t *dims = shapes[s];
         both("broadcast f32 + mask", DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, 0.3, bitss[b], 0, ranks[s], dims, bcasts[s], x, y, m, dx, dy, dm);
         both("alpha f32", DROPOUT_OP_ALPHA_FORWARD, DROPOUT_DTYPE_F32, 0.2, bitss[b], 0, ranks[s], dims, bcasts[s], x, y, NULL, dx, dy, dm);
         both("alpha f64 + mask", DROPOUT_OP_ALPHA_FORWARD, DROPOUT_DTYPE_F64, 0.2, bitss[b], 0, ranks[s], dims, bcasts[s], xd, yd, m, dxd, dyd, dm);
         both("alpha f16", DROPOUT_OP_ALPHA_FORWARD, DROPOUT_DTYPE_F16, 0.2, bitss[b], 0, ranks[s], dims, bcasts[s], xh, yh, NULL, dxh, dyh, dm);
         both("alpha backward bf16", DROPOUT_OP_ALPHA_BACKWARD, DROPOUT_DTYPE_BF16, 0.2, bitss[b], 0, ranks[s], dims, bcasts[s], xb, yh, NULL, dxb, dyh, dm);
         both("broadcast backward f64", DROPOUT_OP_BACKWARD, DROPOUT_DTYPE_F64, 0.6, bitss[b], 0, ranks[s], dims, bcasts[s], xd, yd, NULL, dxd, dyd, dm);
      }
   {
      const size_t n1[1] = { N };
      int rc = dropout_cuda_fill_normal_f32(dropout_key_make(3, 4), dropout_pos_make(5), dy, N, 0);
      dropout_fill_normal_f32(dropout_key_make(3, 4), dropout_pos_make(5), y, N);
      CHECK(rc == 0 && cudaDeviceSynchronize() == cudaSuccess, "normals: rc %d", rc);
      compare("normals", y, dy, N, 4, 0);
      both("gaussian f32", DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F32, 0.3, DROPOUT_BITS_32, 0, 1, n1, 0, x, y, NULL, dx, dy, dm);
      both("gaussian f64", DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F64, 0.3, DROPOUT_BITS_32, 0, 1, n1, 0, xd, yd, NULL, dxd, dyd, dm);
      both("gaussian f16", DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F16, 0.3, DROPOUT_BITS_32, 0, 1, n1, 0, xh, yh, NULL, dxh, dyh, dm);
      both("noise bf16", DROPOUT_OP_NOISE, DROPOUT_DTYPE_BF16, 0.0, DROPOUT_BITS_32, 0.5, 1, n1, 0, xb, yh, NULL, dxb, dyh, dm);
      both("noise f64", DROPOUT_OP_NOISE, DROPOUT_DTYPE_F64, 0.0, DROPOUT_BITS_32, 0.5, 1, n1, 0, xd, yd, NULL, dxd, dyd, dm);
   }
   CHECK(cudaDeviceSynchronize() == cudaSuccess, "CUDA error");
   case_end("variants CUDA == CPU bit for bit (dropout_cuda_run == dropout_run)");
   return check_exit();
}
