/* train_mlp_opencl.c - the demo MLP (mlp_model.h) trained with its dropout on an OpenCL
   device, compared bit for bit with the CPU.

   make demo-opencl   (cc -std=c99 -O2 -ffp-contract=off -I. examples/train_mlp_opencl.c -lOpenCL)
   ./build/train_mlp_opencl [--epochs N]   prints PASS / FAIL, or SKIP without an OpenCL device

   Same data, seed, initial weights and settings as `make demo`'s dropout run. The CPU run
   is mlp_run.h's (one thread); the OpenCL run does the same steps in the same order, but
   both dropout layers, forward and mask-free backward, run on the device through
   dropout_opencl_run with the very plans the CPU uses (mlp_step_plans). The rest of the
   step (matmuls, loss, Adam) stays on the CPU: dropout is what this twin checks. The two
   sets of final weights are compared byte for byte; with the default 300 epochs their
   FNV-1a hash is make demo's, e950157a793eac0e.

   Why the bits can match: a dropout mask is a function of (seed, stream, position) and
   the kernels are dropout.h's own element functions compiled as OpenCL C, with
   contraction off (dropout_opencl.h). */
#define DROPOUT_IMPLEMENTATION
#include "examples/mlp_run.h"

#define DROPOUT_OPENCL_IMPLEMENTATION
#include "dropout_opencl.h"

#define CL_CHECK(call)                                                                   \
   do {                                                                                  \
      cl_int e_ = (call);                                                                \
      if (e_ != CL_SUCCESS) {                                                            \
         printf("FAIL train_mlp_opencl: %s: OpenCL error %d\n", #call, (int)e_);          \
         exit(1);                                                                        \
      }                                                                                  \
   } while (0)

typedef struct Device {
   cl_context ctx;
   cl_command_queue q;
   dropout_opencl ocl;
   cl_mem buf;          /* (B, H): the activation or gradient a dropout layer works on */
} Device;

/* y = dropout(y) in place on the device, op FORWARD or BACKWARD, with `plan` */
static void dropout_on_device(Device *dev, dropout_op op, const dropout_plan *plan, float *y)
{
   dropout_desc d;
   dropout_opencl_tensors t;
   size_t bytes = (size_t)plan->count * sizeof(float);
   int rc = dropout_desc_init(&d, op, DROPOUT_DTYPE_F32, plan);
   memset(&t, 0, sizeof t);
   t.out = dev->buf; t.in = dev->buf;   /* in place, as the CPU step does */
   CL_CHECK(clEnqueueWriteBuffer(dev->q, dev->buf, CL_FALSE, 0, bytes, y, 0, NULL, NULL));
   if (!rc) rc = dropout_opencl_run(&dev->ocl, &d, &t, dev->q);
   if (rc) {
      printf("FAIL train_mlp_opencl: dropout_opencl_run: %s (%s)\n", dropout_opencl_strerror(rc), dev->ocl.message);
      exit(1);
   }
   CL_CHECK(clEnqueueReadBuffer(dev->q, dev->buf, CL_TRUE, 0, bytes, y, 0, NULL, NULL));
}

/* mlp_step_rows for the whole batch, its four dropout calls on the device */
static void step_rows_opencl(Device *dev, Acts *a, const Config *c, const float *params, const Dataset *train,
                             const int *batch, int B, const dropout_plan plan[2])
{
   const int H = c->hidden;
   const size_t hn = (size_t)(B * H);
   Tensors P = tensors_view((float *)params, H);
   int i;
   for (i = 0; i < B; ++i) {
      int src = batch[i];
      a->x[2 * i] = train->x[2 * src];
      a->x[2 * i + 1] = train->x[2 * src + 1];
      a->y[i] = train->y[src];
   }
   matmul_forward(a->h1, a->x, P.w1, P.b1, B, IN, H);
   relu_forward(a->d1, a->h1, hn);
   dropout_on_device(dev, DROPOUT_OP_FORWARD, &plan[0], a->d1);
   matmul_forward(a->h2, a->d1, P.w2, P.b2, B, H, H);
   relu_forward(a->d2, a->h2, hn);
   dropout_on_device(dev, DROPOUT_OP_FORWARD, &plan[1], a->d2);
   matmul_forward(a->logits, a->d2, P.w3, P.b3, B, H, CLASSES);
   for (i = 0; i < B; ++i)
      a->losses[i] = softmax_xent_row(a->dlogits + i * CLASSES, a->logits + i * CLASSES, a->y[i], CLASSES, (float)B);
   matmul_backward_input(a->g2, a->dlogits, P.w3, B, H, CLASSES);
   dropout_on_device(dev, DROPOUT_OP_BACKWARD, &plan[1], a->g2);
   relu_backward(a->g2, a->h2, a->g2, hn);
   matmul_backward_input(a->g1, a->g2, P.w2, B, H, H);
   dropout_on_device(dev, DROPOUT_OP_BACKWARD, &plan[0], a->g1);
   relu_backward(a->g1, a->h1, a->g1, hn);
}

/* train_worker's loop for one thread, dropout on the device */
static void train_opencl(Device *dev, Run *r)
{
   const Config *c = &r->cfg;
   const int H = c->hidden, n = r->train->n;
   dropout_gen gen;
   int epoch, step = 0, rc = dropout_gen_init(&gen, dropout_key_make(c->seed, STREAM_DROPOUT));
   if (rc) { printf("FAIL train_mlp_opencl: dropout_gen_init: %s\n", dropout_strerror(rc)); exit(1); }
   for (epoch = 0; epoch < c->epochs; ++epoch) {
      int at;
      shuffle(r->perm, n, c->seed, epoch);
      for (at = 0; at < n; at += c->batch) {
         const int B = n - at < c->batch ? n - at : c->batch;
         dropout_plan plan[2];
         if ((rc = mlp_step_plans(plan, &gen, r->rule, B, H)) != DROPOUT_OK) {
            printf("FAIL train_mlp_opencl: the step's plans: %s\n", dropout_strerror(rc));
            exit(1);
         }
         step_rows_opencl(dev, &r->act, c, r->params, r->train, r->perm + at, B, plan);
         mlp_step_grads(r->grads, &r->act, H, 0, B, 0, 1);
         mlp_step_adam(r->params, r->adam_m, r->adam_v, r->grads, 0, r->n_params, adam_step(c->lr, ++step));
      }
   }
}

/* the first device of the first platform that has one */
static int open_device(Device *dev)
{
   cl_platform_id plats[8];
   cl_device_id d = NULL;
   cl_uint np = 0, nd = 0, i;
   cl_int err;
   int rc;
   if (clGetPlatformIDs(8, plats, &np) != CL_SUCCESS || np == 0) {
      printf("SKIP train_mlp_opencl: no OpenCL platform (install an ICD such as pocl-opencl-icd)\n");
      return 0;
   }
   for (i = 0; i < np && nd == 0; ++i)
      if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &d, &nd) != CL_SUCCESS) nd = 0;
   if (nd == 0) { printf("SKIP train_mlp_opencl: no OpenCL device\n"); return 0; }
   dev->ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
   CL_CHECK(err);
   dev->q = clCreateCommandQueue(dev->ctx, d, 0, &err);
   CL_CHECK(err);
   rc = dropout_opencl_init(&dev->ocl, dev->ctx, d, 0);
   if (rc) { printf("FAIL train_mlp_opencl: dropout_opencl_init: %s\n", dev->ocl.message); exit(1); }
   return 1;
}

int main(int argc, char **argv)
{
   Config c;
   Dataset train, test;
   Run cpu, gpu;
   float xbuf[2 * 2 * 200];
   int ybuf[2 * 200], ok, rc;
   Device dev;
   cl_int err;
   uint64_t hc, hg;
   double t0, t_cpu, t_ocl;
   memset(&dev, 0, sizeof dev);
   if (!open_device(&dev)) return 0;
   memset(&c, 0, sizeof c);   /* the same settings as train_mlp.c's demo */
   c.hidden = 64; c.batch = 25; c.epochs = 300; c.threads = 1; c.eval_every = 1000000;
   c.print_every = 0; c.p = 0.3; c.bits = 16; c.seed = 1; c.lr = 0.01f;
   if (argc == 3 && !strcmp(argv[1], "--epochs")) c.epochs = atoi(argv[2]);
   rc = make_spirals(&train, xbuf, ybuf, 200, 0.3f, 42, 0);
   if (!rc) rc = make_spirals(&test, xbuf + 2 * 200, ybuf + 200, 200, 0.3f, 42, 1u << 20);
   if (rc) { printf("FAIL train_mlp_opencl: the data: %s\n", dropout_strerror(rc)); return 1; }

   run_init(&cpu, &c, &train, &test);
   run_init(&gpu, &c, &train, &test);   /* the same initial weights */
   if (cpu.failed || gpu.failed) { printf("FAIL train_mlp_opencl: run_init\n"); return 1; }
   t0 = now_seconds();
   run_train(&cpu);
   t_cpu = now_seconds() - t0;
   dev.buf = clCreateBuffer(dev.ctx, CL_MEM_READ_WRITE, (size_t)(c.batch * c.hidden) * sizeof(float), NULL, &err);
   CL_CHECK(err);
   t0 = now_seconds();
   train_opencl(&dev, &gpu);
   t_ocl = now_seconds() - t0;

   hc = hash_params(cpu.params, cpu.n_params);
   hg = hash_params(gpu.params, gpu.n_params);
   ok = !cpu.failed && !memcmp(cpu.params, gpu.params, cpu.n_params * sizeof(float));
   printf("OpenCL device: %s\n", dev.ocl.device_name);
   printf("%zu weights after %d epochs (p %.2f, %d-bit draws, seed %llu), FNV-1a of their bits:\n",
          cpu.n_params, c.epochs, c.p, c.bits, (unsigned long long)c.seed);
   printf("  CPU %016llx   OpenCL %016llx   max|diff| %g%s\n", (unsigned long long)hc, (unsigned long long)hg,
          max_abs_diff(cpu.params, gpu.params, cpu.n_params),
          c.epochs == 300 ? (hc == 0xe950157a793eac0eu ? "   (make demo's hash)" : "   (NOT make demo's e950157a793eac0e)") : "");
   printf("CPU vs OpenCL weights: %s\n", ok ? "IDENTICAL" : "DIFFERENT");
   printf("training time: CPU (1 thread) %.2f s, with dropout on the OpenCL device %.2f s (each dropout\n"
          "call copies its activations over and back: this measures the round trips, not dropout)\n", t_cpu, t_ocl);
   if (c.epochs == 300 && hc != 0xe950157a793eac0eu) ok = 0;
   if (ok) printf("PASS train_mlp_opencl: weights trained with OpenCL dropout equal the CPU's bit for bit\n");
   else printf("FAIL train_mlp_opencl: the OpenCL-trained weights differ from the CPU's (or from make demo's hash)\n");
   clReleaseMemObject(dev.buf);
   dropout_opencl_release(&dev.ocl);
   clReleaseCommandQueue(dev.q);
   clReleaseContext(dev.ctx);
   run_free(&cpu); run_free(&gpu);
   return ok ? 0 : 1;
}
