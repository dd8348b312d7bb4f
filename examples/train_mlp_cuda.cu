/* train_mlp_cuda.cu - the MLP of train_mlp.c trained on the GPU, compared bit for bit with
   the CPU.

   make demo-cuda     (nvcc -O2 -I. -Xcompiler -ffp-contract=off examples/train_mlp_cuda.cu)
   ./build/train_mlp_cuda [--epochs N]     prints PASS / FAIL, or SKIP without a GPU

   Same data, seed, initial weights and settings as `make demo`'s dropout run: the CPU
   run happens here too, and the two sets of final weights are compared byte for byte.

   Why the bits can match:
   - dropout is the library's own GPU launchers (dropout_cuda_replay_f32 and
     dropout_cuda_backward_f32 from dropout_cuda.cuh) on the plans the CPU run uses
     (mlp_step_plans reserves both layers' positions of the step from the one generator,
     as the CPU run does): the mask is a function of (seed, stream, position), not of the
     grid;
   - every matrix kernel computes one output with the same sequence of roundings as the
     CPU loop (one thread per output, a sequential k loop, bias first), written with
     mul_rn/add_rn, which are __fmul_rn/__fadd_rn here: nvcc never contracts those into
     an FMA. The cost: no tensor cores, no split-k, no tiling that reorders a sum;
   - the row-wise pieces (softmax cross-entropy, Adam) are the very MLP_HD functions the
     CPU calls, with exp/log written from single IEEE operations (mlp_math.h). */
#define DROPOUT_IMPLEMENTATION
#include "examples/mlp_run.h"

#define DROPOUT_CUDA_IMPLEMENTATION
#include "dropout_cuda.cuh"

#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                 \
   do {                                                                                  \
      cudaError_t e_ = (call);                                                           \
      if (e_ != cudaSuccess) {                                                           \
         printf("FAIL train_mlp_cuda: %s: %s\n", #call, cudaGetErrorString(e_));         \
         exit(1);                                                                        \
      }                                                                                  \
   } while (0)

static unsigned blocks_for(int n) { return (unsigned)((n + 127) / 128); }

/* x (B,IN), y (B) = rows perm[0..B) of the training set */
__global__ void gather_kernel(float *x, int *y, const float *train_x, const int *train_y,
                              const int *perm, int B)
{
   int b = (int)(blockIdx.x * blockDim.x + threadIdx.x);
   if (b >= B) return;
   x[2 * b] = train_x[2 * perm[b]];
   x[2 * b + 1] = train_x[2 * perm[b] + 1];
   y[b] = train_y[perm[b]];
}

/* out (B,OC) = inp (B,C) @ weight (C,OC) + bias: one thread per out[b][o], i ascending */
__global__ void matmul_forward_kernel(float *out, const float *inp, const float *weight,
                                      const float *bias, int B, int C, int OC)
{
   int idx = (int)(blockIdx.x * blockDim.x + threadIdx.x), b = idx / OC, o = idx % OC, i;
   float acc;
   if (idx >= B * OC) return;
   acc = bias[o];
   for (i = 0; i < C; ++i) acc = add_rn(acc, mul_rn(inp[b * C + i], weight[i * OC + o]));
   out[idx] = acc;
}

/* out (n) = max(h, 0), as relu_forward */
__global__ void relu_forward_kernel(float *out, const float *h, int n)
{
   int j = (int)(blockIdx.x * blockDim.x + threadIdx.x);
   if (j < n) out[j] = h[j] > 0.0f ? h[j] : 0.0f;
}

/* g (n) = g where the forward input h was positive, else 0, as relu_backward */
__global__ void relu_backward_kernel(float *g, const float *h, int n)
{
   int j = (int)(blockIdx.x * blockDim.x + threadIdx.x);
   if (j < n) g[j] = h[j] > 0.0f ? g[j] : 0.0f;
}

/* the library's return code checked like a CUDA call */
#define DROPOUT_CHECK(call)                                                              \
   do {                                                                                  \
      int rc_ = (call);                                                                  \
      if (rc_ != DROPOUT_OK) {                                                           \
         printf("FAIL train_mlp_cuda: %s: %s\n", #call, dropout_cuda_strerror(rc_));     \
         exit(1);                                                                        \
      }                                                                                  \
   } while (0)

__global__ void softmax_xent_kernel(float *dlogits, float *losses, const float *logits,
                                    const int *y, int B)
{
   int b = (int)(blockIdx.x * blockDim.x + threadIdx.x);
   if (b >= B) return;
   losses[b] = softmax_xent_row(dlogits + b * CLASSES, logits + b * CLASSES, y[b], CLASSES,
                                (float)B);
}

/* dinp (B,C) = dout (B,OC) @ weight^T: one thread per dinp[b][i], o ascending from 0 */
__global__ void matmul_backward_input_kernel(float *dinp, const float *dout,
                                             const float *weight, int B, int C, int OC)
{
   int idx = (int)(blockIdx.x * blockDim.x + threadIdx.x), b = idx / C, i = idx % C, o;
   float acc = 0.0f;
   if (idx >= B * C) return;
   for (o = 0; o < OC; ++o) acc = add_rn(acc, mul_rn(dout[b * OC + o], weight[i * OC + o]));
   dinp[idx] = acc;
}

/* dweight (C,OC) = inp^T @ dout: one thread per dweight[i][o], b ascending from 0 */
__global__ void matmul_backward_weight_kernel(float *dweight, const float *dout,
                                              const float *inp, int B, int C, int OC)
{
   int idx = (int)(blockIdx.x * blockDim.x + threadIdx.x), i = idx / OC, o = idx % OC, b;
   float acc = 0.0f;
   if (idx >= C * OC) return;
   for (b = 0; b < B; ++b) acc = add_rn(acc, mul_rn(inp[b * C + i], dout[b * OC + o]));
   dweight[idx] = acc;
}

__global__ void bias_backward_kernel(float *dbias, const float *dout, int B, int OC)
{
   int o = (int)(blockIdx.x * blockDim.x + threadIdx.x), b;
   float acc = 0.0f;
   if (o >= OC) return;
   for (b = 0; b < B; ++b) acc = add_rn(acc, dout[b * OC + o]);
   dbias[o] = acc;
}

__global__ void adam_kernel(float *params, float *m, float *v, const float *grads, int n,
                            AdamStep s)
{
   int k = (int)(blockIdx.x * blockDim.x + threadIdx.x);
   if (k >= n) return;
   adam_one(&params[k], &m[k], &v[k], grads[k], s);
}

/* Train on the GPU with the same config, data and initial weights as the CPU run;
   params_out receives the final weights. */
static void train_gpu(const Config *c, const Dataset *train, const float *init, float *params_out)
{
   const int H = c->hidden, Bmax = c->batch, n = train->n;
   const int P = (int)param_count(H);
   float *d_params, *d_grads, *d_m, *d_v, *d_tx, *d_x, *d_h1, *d_d1, *d_h2, *d_d2;
   float *d_logits, *d_dlogits, *d_losses, *d_g1, *d_g2;
   int *d_ty, *d_y, *d_perm, *perm = (int *)malloc((size_t)n * sizeof(int));
   dropout_gen gen;
   dropout_rule rule[2];   /* the two dropout layers' rules, as the CPU run makes them */
   int epoch, at, step = 0;
   Tensors Pt, G;
   size_t fb = sizeof(float);
   DROPOUT_CHECK(dropout_gen_init(&gen, dropout_key_make(c->seed, STREAM_DROPOUT)));
   CUDA_CHECK(cudaMalloc((void **)&d_params, (size_t)P * fb));
   CUDA_CHECK(cudaMalloc((void **)&d_grads, (size_t)P * fb));
   CUDA_CHECK(cudaMalloc((void **)&d_m, (size_t)P * fb));
   CUDA_CHECK(cudaMalloc((void **)&d_v, (size_t)P * fb));
   CUDA_CHECK(cudaMalloc((void **)&d_tx, (size_t)(n * IN) * fb));
   CUDA_CHECK(cudaMalloc((void **)&d_ty, (size_t)n * sizeof(int)));
   CUDA_CHECK(cudaMalloc((void **)&d_perm, (size_t)n * sizeof(int)));
   CUDA_CHECK(cudaMalloc((void **)&d_x, (size_t)(Bmax * IN) * fb));
   CUDA_CHECK(cudaMalloc((void **)&d_y, (size_t)Bmax * sizeof(int)));
   CUDA_CHECK(cudaMalloc((void **)&d_h1, (size_t)(Bmax * H) * fb));
   CUDA_CHECK(cudaMalloc((void **)&d_d1, (size_t)(Bmax * H) * fb));
   CUDA_CHECK(cudaMalloc((void **)&d_h2, (size_t)(Bmax * H) * fb));
   CUDA_CHECK(cudaMalloc((void **)&d_d2, (size_t)(Bmax * H) * fb));
   CUDA_CHECK(cudaMalloc((void **)&d_g1, (size_t)(Bmax * H) * fb));
   CUDA_CHECK(cudaMalloc((void **)&d_g2, (size_t)(Bmax * H) * fb));
   CUDA_CHECK(cudaMalloc((void **)&d_logits, (size_t)(Bmax * CLASSES) * fb));
   CUDA_CHECK(cudaMalloc((void **)&d_dlogits, (size_t)(Bmax * CLASSES) * fb));
   CUDA_CHECK(cudaMalloc((void **)&d_losses, (size_t)Bmax * fb));
   CUDA_CHECK(cudaMemcpy(d_params, init, (size_t)P * fb, cudaMemcpyHostToDevice));
   CUDA_CHECK(cudaMemset(d_m, 0, (size_t)P * fb));
   CUDA_CHECK(cudaMemset(d_v, 0, (size_t)P * fb));
   CUDA_CHECK(cudaMemcpy(d_tx, train->x, (size_t)(n * IN) * fb, cudaMemcpyHostToDevice));
   CUDA_CHECK(cudaMemcpy(d_ty, train->y, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
   if (mlp_dropout_rules(rule, c)) { printf("FAIL train_mlp_cuda: the dropout rules\n"); exit(1); }
   Pt = tensors_view(d_params, H);
   G = tensors_view(d_grads, H);
   for (epoch = 0; epoch < c->epochs; ++epoch) {
      shuffle(perm, n, c->seed, epoch);
      CUDA_CHECK(cudaMemcpy(d_perm, perm, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
      for (at = 0; at < n; at += c->batch) {
         const int B = n - at < c->batch ? n - at : c->batch, BH = B * H;
         dropout_plan plan[2];   /* this step's two dropout layers: the CPU's plans */
         DROPOUT_CHECK(mlp_step_plans(plan, &gen, rule, B, H));
         gather_kernel<<<blocks_for(B), 128>>>(d_x, d_y, d_tx, d_ty, d_perm + at, B);
         matmul_forward_kernel<<<blocks_for(BH), 128>>>(d_h1, d_x, Pt.w1, Pt.b1, B, IN, H);
         relu_forward_kernel<<<blocks_for(BH), 128>>>(d_d1, d_h1, BH);
         DROPOUT_CHECK(dropout_cuda_replay_f32(&plan[0], (size_t)BH, d_d1, NULL, d_d1, 0));
         matmul_forward_kernel<<<blocks_for(BH), 128>>>(d_h2, d_d1, Pt.w2, Pt.b2, B, H, H);
         relu_forward_kernel<<<blocks_for(BH), 128>>>(d_d2, d_h2, BH);
         DROPOUT_CHECK(dropout_cuda_replay_f32(&plan[1], (size_t)BH, d_d2, NULL, d_d2, 0));
         matmul_forward_kernel<<<blocks_for(B * CLASSES), 128>>>(d_logits, d_d2, Pt.w3, Pt.b3, B, H, CLASSES);
         softmax_xent_kernel<<<blocks_for(B), 128>>>(d_dlogits, d_losses, d_logits, d_y, B);
         matmul_backward_input_kernel<<<blocks_for(BH), 128>>>(d_g2, d_dlogits, Pt.w3, B, H, CLASSES);
         /* mask-free backward: the same plan rebuilds the forward's mask */
         DROPOUT_CHECK(dropout_cuda_backward_f32(&plan[1], (size_t)BH, d_g2, d_g2, 0));
         relu_backward_kernel<<<blocks_for(BH), 128>>>(d_g2, d_h2, BH);
         matmul_backward_input_kernel<<<blocks_for(BH), 128>>>(d_g1, d_g2, Pt.w2, B, H, H);
         DROPOUT_CHECK(dropout_cuda_backward_f32(&plan[0], (size_t)BH, d_g1, d_g1, 0));
         relu_backward_kernel<<<blocks_for(BH), 128>>>(d_g1, d_h1, BH);
         matmul_backward_weight_kernel<<<blocks_for(H * CLASSES), 128>>>(G.w3, d_dlogits, d_d2, B, H, CLASSES);
         matmul_backward_weight_kernel<<<blocks_for(H * H), 128>>>(G.w2, d_g2, d_d1, B, H, H);
         matmul_backward_weight_kernel<<<blocks_for(IN * H), 128>>>(G.w1, d_g1, d_x, B, IN, H);
         bias_backward_kernel<<<blocks_for(CLASSES), 128>>>(G.b3, d_dlogits, B, CLASSES);
         bias_backward_kernel<<<blocks_for(H), 128>>>(G.b2, d_g2, B, H);
         bias_backward_kernel<<<blocks_for(H), 128>>>(G.b1, d_g1, B, H);
         adam_kernel<<<blocks_for(P), 128>>>(d_params, d_m, d_v, d_grads, P, adam_step(c->lr, ++step));
         CUDA_CHECK(cudaGetLastError());
      }
   }
   CUDA_CHECK(cudaMemcpy(params_out, d_params, (size_t)P * fb, cudaMemcpyDeviceToHost));
   cudaFree(d_params); cudaFree(d_grads); cudaFree(d_m); cudaFree(d_v); cudaFree(d_tx);
   cudaFree(d_ty); cudaFree(d_perm); cudaFree(d_x); cudaFree(d_y); cudaFree(d_h1);
   cudaFree(d_d1); cudaFree(d_h2); cudaFree(d_d2); cudaFree(d_g1); cudaFree(d_g2);
   cudaFree(d_logits); cudaFree(d_dlogits); cudaFree(d_losses);
   free(perm);
}

int main(int argc, char **argv)
{
   Config c;
   Dataset train, test;
   Run cpu, start;
   float xbuf[2 * 2 * 200], *gpu_params;
   int ybuf[2 * 200], devices = 0, ok;
   cudaError_t e = cudaGetDeviceCount(&devices);
   uint64_t hc, hg;
   double t0, t_cpu, t_gpu;
   if (e != cudaSuccess || devices == 0) {
      printf("SKIP train_mlp_cuda: no CUDA device (%s)\n",
             e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
      return 0;
   }
   memset(&c, 0, sizeof c);   /* the same settings as train_mlp.c's demo */
   c.hidden = 64; c.batch = 25; c.epochs = 300; c.threads = 1; c.eval_every = 1000000;
   c.print_every = 0; c.p = 0.3; c.bits = 16; c.seed = 1; c.lr = 0.01f;
   if (argc == 3 && !strcmp(argv[1], "--epochs")) c.epochs = atoi(argv[2]);
   DROPOUT_CHECK(make_spirals(&train, xbuf, ybuf, 200, 0.3f, 42, 0));
   DROPOUT_CHECK(make_spirals(&test, xbuf + 2 * 200, ybuf + 200, 200, 0.3f, 42, 1u << 20));

   run_init(&start, &c, &train, &test);   /* initial weights, untouched */
   run_init(&cpu, &c, &train, &test);
   t0 = now_seconds();
   run_train(&cpu);
   t_cpu = now_seconds() - t0;
   gpu_params = (float *)malloc(cpu.n_params * sizeof(float));
   CUDA_CHECK(cudaFree(0));                /* context creation stays out of the timing */
   t0 = now_seconds();
   train_gpu(&c, &train, start.params, gpu_params);
   t_gpu = now_seconds() - t0;

   hc = hash_params(cpu.params, cpu.n_params);
   hg = hash_params(gpu_params, cpu.n_params);
   ok = !memcmp(cpu.params, gpu_params, cpu.n_params * sizeof(float));
   printf("%zu weights after %d epochs (p %.2f, %d-bit draws, seed %llu), FNV-1a of their bits:\n",
          cpu.n_params, c.epochs, c.p, c.bits, (unsigned long long)c.seed);
   printf("  CPU %016llx   GPU %016llx   max|diff| %g\n", (unsigned long long)hc,
          (unsigned long long)hg, max_abs_diff(cpu.params, gpu_params, cpu.n_params));
   printf("CPU vs GPU weights: %s\n", ok ? "IDENTICAL" : "DIFFERENT");
   printf("training time: CPU (1 thread) %.2f s, GPU %.2f s (%d epochs of %d steps; at this size\n"
          "kernel launches dominate, not arithmetic)\n", t_cpu, t_gpu, c.epochs, (train.n + c.batch - 1) / c.batch);
   if (ok) printf("PASS train_mlp_cuda: GPU-trained weights equal the CPU's bit for bit\n");
   else printf("FAIL train_mlp_cuda: GPU-trained weights differ from the CPU's\n");
   run_free(&cpu); run_free(&start); free(gpu_params);
   return ok ? 0 : 1;
}
