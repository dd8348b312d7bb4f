/* bench_cuda.cu - dropout_cuda.cuh throughput against the GPU's own copy bandwidth.

   For n = 2^20 .. 2^28 elements (DROPOUT_BENCH_MIN_LOG2 / _MAX_LOG2 change the range), f32 and bf16:
   forward with and without mask and mask-free backward in 8/16/32-bit draws, backward
   from a stored mask, fused bias-dropout-residual with and without mask, and a
   device-to-device cudaMemcpy of the same n elements as the baseline. Each case is timed
   with CUDA events, DROPOUT_BENCH_REPS (default 20) launches after 2 warm-ups, and the
   median is kept. Bytes are those really moved (reads + writes, mask bytes included).
   Every data case runs on both span paths through the same public launchers
   (DROPOUT_CUDA_WARP 1: warp, 0: direct), so one run shows what the warp path buys, and
   on the warp path with 128-thread blocks as well as the default 256.
   Writes CSV to argv[1] (for bench/torch_cuda.py, which adds PyTorch and writes the
   markdown report) and a table to stdout. DROPOUT_BENCH_SPLITS=file first writes the split
   table (split_table). Needs a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* DROPOUT_CUDA_WARP, DROPOUT_CUDA_BLOCK and DROPOUT_CUDA_SPLIT are read at each launch:
   variables let one binary time both paths, two block sizes and every split */
static int bench_warp = 1;
static unsigned bench_block = 256, bench_split = 0;
#define DROPOUT_CUDA_WARP bench_warp
#define DROPOUT_CUDA_BLOCK bench_block
#define DROPOUT_CUDA_SPLIT bench_split
#define DROPOUT_IMPLEMENTATION
#define DROPOUT_CUDA_IMPLEMENTATION
#include "dropout_cuda.cuh"

#define CU(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
   fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

static int reps = 20, warmups = 2;

struct bufs { void *x, *y, *r, *b; uint8_t *m; size_t n, cols; int bf16; };

/* what = 0 copy, 1 forward, 2 forward+mask, 3 backward, 4 backward from mask, 5 fused, 6 fused+mask */
static int run_case(const bufs &B, int what, int bits)
{
   dropout_rule rule;
   dropout_plan plan;
   /* quantised: 8-bit draws realise p = 0.1 as 26/256, which dropout_rule_init refuses; the
      work per element, and so the speed, is the same */
   int rc = dropout_rule_init_quantised(&rule, 0.1, (dropout_bits)bits);
   if (!rc) rc = dropout_plan_at(&plan, &rule, dropout_key_make(1, 0), dropout_pos_make(0), B.n);
   if (rc) return rc;
   if (what == 0) return cudaMemcpyAsync(B.y, B.x, B.n * (B.bf16 ? 2 : 4), cudaMemcpyDeviceToDevice, 0) == cudaSuccess ? 0 : -1;
   if (!B.bf16) {
      float *x = (float *)B.x, *y = (float *)B.y;
      switch (what) {
      case 1: return dropout_cuda_replay_f32(&plan, B.n, y, NULL, x, 0);
      case 2: return dropout_cuda_replay_f32(&plan, B.n, y, B.m, x, 0);
      case 3: return dropout_cuda_backward_f32(&plan, B.n, y, x, 0);
      case 4: return dropout_cuda_apply_mask_f32(&rule, B.n, y, B.m, x, 0);
      case 5: return dropout_cuda_bias_dropout_add_replay_f32(&plan, B.n, B.cols, y, NULL, x, (float *)B.b, (float *)B.r, 0);
      default: return dropout_cuda_bias_dropout_add_replay_f32(&plan, B.n, B.cols, y, B.m, x, (float *)B.b, (float *)B.r, 0);
      }
   }
   __nv_bfloat16 *x = (__nv_bfloat16 *)B.x, *y = (__nv_bfloat16 *)B.y;
   switch (what) {
   case 1: return dropout_cuda_replay_bf16(&plan, B.n, y, NULL, x, 0);
   case 2: return dropout_cuda_replay_bf16(&plan, B.n, y, B.m, x, 0);
   case 3: return dropout_cuda_backward_bf16(&plan, B.n, y, x, 0);
   case 4: return dropout_cuda_apply_mask_bf16(&rule, B.n, y, B.m, x, 0);
   case 5: return dropout_cuda_bias_dropout_add_replay_bf16(&plan, B.n, B.cols, y, NULL, x, (__nv_bfloat16 *)B.b, (__nv_bfloat16 *)B.r, 0);
   default: return dropout_cuda_bias_dropout_add_replay_bf16(&plan, B.n, B.cols, y, B.m, x, (__nv_bfloat16 *)B.b, (__nv_bfloat16 *)B.r, 0);
   }
}

static double bytes_moved(const bufs &B, int what)
{
   double e = B.bf16 ? 2.0 : 4.0, n = (double)B.n, mask = n / 8.0;
   switch (what) {
   case 0: case 1: case 3: return 2 * n * e;
   case 2: case 4: return 2 * n * e + mask;
   case 5: return 3 * n * e + (double)B.cols * e;
   default: return 3 * n * e + (double)B.cols * e + mask;
   }
}

static int cmp_float(const void *a, const void *b)
{
   float x = *(const float *)a, y = *(const float *)b;
   return x < y ? -1 : x > y;
}

/* median of `reps` event-timed launches after `warmups` untimed ones */
static double median_ms(const bufs &B, int what, int bits)
{
   cudaEvent_t a, b;
   float t[1000];
   int n = reps < 1 ? 1 : reps > 1000 ? 1000 : reps;
   CU(cudaEventCreate(&a)); CU(cudaEventCreate(&b));
   for (int i = -warmups; i < n; ++i) {
      CU(cudaEventRecord(a));
      int rc = run_case(B, what, bits);
      CU(cudaEventRecord(b));
      CU(cudaEventSynchronize(b));
      if (rc) { fprintf(stderr, "case %d failed: %s\n", what, dropout_cuda_strerror(rc)); exit(1); }
      if (i >= 0) CU(cudaEventElapsedTime(&t[i], a, b));
   }
   cudaEventDestroy(a); cudaEventDestroy(b);
   qsort(t, (size_t)n, sizeof t[0], cmp_float);
   return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* The warp path's split (lanes per unit, DROPOUT_CUDA_SPLIT) against call size: for each
   size from 2^minlog to 2^maxlog (DROPOUT_BENCH_SPLIT_MIN_LOG2 / _MAX_LOG2, default 14 and
   24), the cases most sensitive to it, / copy at split 1, 2, 4,
   8 and the launcher's own choice (0), to stdout and to the file named by
   DROPOUT_BENCH_SPLITS. */
static void split_table(bufs &B, int minlog, int maxlog, const char *path)
{
   static const struct { const char *name; int what, bits; } cases[] = {
      { "forward", 1, 8 }, { "forward", 1, 32 }, { "forward+mask", 2, 32 }, { "backward from mask", 4, 8 },
      { "fused bias-dropout-add", 5, 8 } };
   static const unsigned splits[] = { 1, 2, 4, 8, 0 };
   FILE *f = fopen(path, "w");
   static const char head[] = "\n| case | dtype | bits | n | copy ms | split 1 | 2 | 4 | 8 | chosen (split) |\n"
                              "|---|---|---|---|---|---|---|---|---|---|\n";
   char line[512];
   int len;
   fputs(head, stdout); if (f) fputs(head, f);
   bench_warp = 1; bench_block = 256;
   for (int bf = 0; bf < 2; ++bf)
      for (int lg = minlog; lg <= maxlog; ++lg) {
         B.n = (size_t)1 << lg; B.cols = 4096; B.bf16 = bf;
         double copy_ms = median_ms(B, 0, 8);
         for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
            len = snprintf(line, sizeof line, "| %s | %s | %d | 2^%d | %.4f |", cases[c].name, bf ? "bf16" : "f32",
                           cases[c].bits, lg, copy_ms);
            for (size_t k = 0; k < sizeof splits / sizeof splits[0]; ++k) {
               bench_split = splits[k];
               double ms = median_ms(B, cases[c].what, cases[c].bits);
               /* bytes: the copy moves 2 n e; ratio of throughputs = (bytes / ms) / (copy bytes / copy ms) */
               double ratio = bytes_moved(B, cases[c].what) / ms / (bytes_moved(B, 0) / copy_ms);
               if (splits[k]) len += snprintf(line + len, sizeof line - (size_t)len, " %.3f |", ratio);
               else {
                  dropout_cuda__args a = dropout_cuda__args_make();
                  a.x = B.x; a.y = B.y; a.residual = B.r;
                  len += snprintf(line + len, sizeof line - (size_t)len, " %.3f (%u) |", ratio,
                                  dropout_cuda__split_for(&a, bf ? DROPOUT_CUDA__BF16 : DROPOUT_CUDA__F32,
                                                          cases[c].what == 4 ? DROPOUT_CUDA__APPLY_MASK : cases[c].what >= 5 ? DROPOUT_CUDA__FUSED : DROPOUT_CUDA__DROP,
                                                          (uint64_t)B.n / 32u));
               }
            }
            snprintf(line + len, sizeof line - (size_t)len, "\n");
            fputs(line, stdout); if (f) fputs(line, f);
         }
      }
   bench_split = 0;
   if (f) fclose(f);
}

int main(int argc, char **argv)
{
   static const char *names[] = { "copy (cudaMemcpy D2D)", "forward", "forward+mask", "backward (mask-free)",
                                  "backward from mask", "fused bias-dropout-add", "fused bias-dropout-add+mask" };
   int ndev = 0, minlog = 20, maxlog = 28;
   const char *env;
   FILE *csv = argc > 1 ? fopen(argv[1], "w") : NULL;
   if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) { printf("SKIP bench_cuda: no CUDA device\n"); return 0; }
   if ((env = getenv("DROPOUT_BENCH_MAX_LOG2"))) maxlog = atoi(env);
   if ((env = getenv("DROPOUT_BENCH_MIN_LOG2"))) minlog = atoi(env);
   if ((env = getenv("DROPOUT_BENCH_REPS"))) reps = atoi(env);
   if ((env = getenv("DROPOUT_BENCH_WARMUPS"))) warmups = atoi(env);
   cudaDeviceProp prop;
   int drv = 0, rt = 0;
   CU(cudaGetDeviceProperties(&prop, 0));
   cudaDriverGetVersion(&drv); cudaRuntimeGetVersion(&rt);
   printf("device: %s (sm_%d%d, %d SMs, %.1f GiB), CUDA driver %d, runtime %d\n", prop.name, prop.major, prop.minor,
          prop.multiProcessorCount, (double)prop.totalGlobalMem / 1073741824.0, drv, rt);
   if (csv) fprintf(csv, "case,dtype,bits,n,path,ms,GBps,ratio_copy\n");
   printf("| case | dtype | bits | n | path | ms | GB/s | / copy |\n|---|---|---|---|---|---|---|---|\n");
   size_t nmax = (size_t)1 << maxlog;
   bufs B;
   CU(cudaMalloc(&B.x, nmax * 4)); CU(cudaMalloc(&B.y, nmax * 4)); CU(cudaMalloc(&B.r, nmax * 4));
   CU(cudaMalloc(&B.b, 65536 * 4)); CU(cudaMalloc((void **)&B.m, nmax / 8 + 8));
   CU(cudaMemset(B.x, 0x3c, nmax * 4)); CU(cudaMemset(B.r, 0x3c, nmax * 4)); CU(cudaMemset(B.b, 0x3c, 65536 * 4));
   CU(cudaMemset(B.m, 0x55, nmax / 8 + 8));
   if ((env = getenv("DROPOUT_BENCH_SPLITS"))) {
      const char *lo = getenv("DROPOUT_BENCH_SPLIT_MIN_LOG2"), *hi = getenv("DROPOUT_BENCH_SPLIT_MAX_LOG2");
      int smax = hi ? atoi(hi) : 24;
      split_table(B, lo ? atoi(lo) : 14, smax > maxlog ? maxlog : smax, env);
   }
   /* path: name, warp path on/off, threads per block */
   static const struct { const char *name; int warp; unsigned block; } paths[] = {
      { "direct", 0, 256 }, { "warp", 1, 256 }, { "warp-b128", 1, 128 } };
   for (int bf = 0; bf < 2; ++bf)
      for (int lg = minlog; lg <= maxlog; lg += 2) {
         B.n = (size_t)1 << lg; B.cols = 4096; B.bf16 = bf;
         double copy_ms = median_ms(B, 0, 8), copy_gbs = bytes_moved(B, 0) / copy_ms / 1e6;
         for (int what = 0; what <= 6; ++what)
            for (int bits = 8; bits <= 32; bits *= 2)
               for (int path = 0; path < 3; ++path) {
                  if (bits != 8 && what != 1 && what != 2 && what != 3) continue;
                  if (what == 0 && (bits != 8 || path)) continue;
                  bench_warp = paths[path].warp; bench_block = paths[path].block;
                  double ms = what == 0 ? copy_ms : median_ms(B, what, bits);
                  double gbs = bytes_moved(B, what) / ms / 1e6;
                  const char *pn = what == 0 ? "-" : paths[path].name;
                  printf("| %s | %s | %d | 2^%d | %s | %.4f | %.1f | %.3f |\n", names[what], bf ? "bf16" : "f32", what == 0 ? 0 : bits, lg, pn, ms, gbs, gbs / copy_gbs);
                  if (csv) fprintf(csv, "%s,%s,%d,%zu,%s,%.6f,%.2f,%.4f\n", names[what], bf ? "bf16" : "f32", what == 0 ? 0 : bits, B.n, pn, ms, gbs, gbs / copy_gbs);
               }
      }
   if (csv) fclose(csv);
   return 0;
}
