/* bench_opencl.c - dropout_opencl.h's ops against clEnqueueCopyBuffer of the same bytes.

   make bench-opencl   writes build/opencl/bench_opencl.md (and prints it)

   For each op and size the bytes the op moves (inputs read + outputs written, mask bits
   included) are copied once with clEnqueueCopyBuffer in the same run, on the same queue,
   and the op's time is reported as a ratio to that copy's: 1.0 = the op runs at the speed
   of a plain copy of its bytes. The last column is the same descriptor through dropout.h's
   dropout_run on the host, one thread, same run (context for CPU devices). Best of REPS timed runs each (clFinish around every run),
   after a warm-up run that also compiles the kernels for the work-group size.

   On PoCL the "device" is this machine's CPU: the figures then say how the OpenCL
   kernels do on the CPU, not on a GPU. The device line of the output says which. On a GPU
   a second table follows: the forwards at the largest size under every launch shape
   (work-group size, groups a compute unit, staged or direct), from which the defaults are
   to be chosen (DROPOUT_BENCH_LAUNCHES=1 prints it on any device). */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime; before the first system header */
#define DROPOUT_IMPLEMENTATION
#define DROPOUT_OPENCL_IMPLEMENTATION
#include "dropout_opencl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static cl_command_queue g_q;
static dropout_opencl g_ocl;
static int g_reps = 7;

typedef struct Op { const char *name; dropout_op op; dropout_dtype dt; int bits, mask; } Op;

/* best time of one descriptor run (every repetition draws the same positions: a replay) */
static double time_run(dropout_desc *d, const dropout_opencl_tensors *t)
{
   double best = 1e30;
   int r, rc;
   for (r = 0; r <= g_reps; ++r) {
      double t0, dt;
      dropout_desc_replay(d);
      t0 = now();
      rc = dropout_opencl_run(&g_ocl, d, t, g_q);
      clFinish(g_q);
      dt = now() - t0;
      if (rc) { fprintf(stderr, "dropout_opencl_run: %s (%s)\n", dropout_opencl_strerror(rc), g_ocl.message); exit(1); }
      if (r > 0 && dt < best) best = dt;   /* run 0 warms up */
   }
   return best;
}

/* best time of the same descriptor through dropout.h on the CPU (one thread) */
static double time_cpu(dropout_desc *d, const dropout_tensors *t)
{
   double best = 1e30;
   int r;
   for (r = 0; r <= g_reps; ++r) {
      double t0, dt;
      dropout_desc_replay(d);
      t0 = now();
      if (dropout_run(d, t)) { fprintf(stderr, "dropout_run failed\n"); exit(1); }
      dt = now() - t0;
      if (r > 0 && dt < best) best = dt;
   }
   return best;
}

static double time_copy(cl_mem src, cl_mem dst, size_t bytes)
{
   double best = 1e30;
   int r;
   for (r = 0; r <= g_reps; ++r) {
      double t0 = now(), dt;
      clEnqueueCopyBuffer(g_q, src, dst, 0, 0, bytes, 0, NULL, NULL);
      clFinish(g_q);
      dt = now() - t0;
      if (r > 0 && dt < best) best = dt;
   }
   return best;
}

/* One op's plan and tensors at n elements, buffers a (in), b (out), m (mask); returns the
   bytes it moves */
static size_t op_setup(const Op *o, size_t n, dropout_plan *plan, dropout_desc *d, dropout_opencl_tensors *t,
                       cl_mem a, cl_mem b, cl_mem m)
{
   dropout_rule rule;
   size_t es = o->dt == DROPOUT_DTYPE_F64 ? 8 : o->dt == DROPOUT_DTYPE_F32 ? 4 : 2, bytes = 0;
   if (dropout_rule_init_quantised(&rule, 0.1, (dropout_bits)o->bits) != DROPOUT_OK ||
       (o->op == DROPOUT_OP_GAUSSIAN || o->op == DROPOUT_OP_NOISE ? dropout_plan_at_normals : dropout_plan_at)(plan, &rule, dropout_key_make(1234, 0), dropout_pos_make(0), n) != DROPOUT_OK ||
       dropout_desc_init(d, o->op, o->dt, plan) != DROPOUT_OK) {
      printf("FAIL bench_opencl: no descriptor for p = 0.1 at %d bits\n", o->bits);
      exit(1);
   }
   memset(t, 0, sizeof *t);
   if (o->op != DROPOUT_OP_MASK) { t->out = b; t->in = a; bytes += 2 * n * es; }
   if (o->mask) { t->mask = m; bytes += n / 8u; }
   return bytes;
}

/* The launch shapes: the contiguous forwards at the largest size with work-groups of 64, 128
   and 256 work-items, 8 to 64 groups a compute unit at most, staged and direct layouts (any
   shape, the same bits). On GPUs (DROPOUT_BENCH_LAUNCHES=1: on any device): the table that
   dropout_opencl_init's defaults (64 work-items, 64 groups a compute unit on GPUs and 16 on
   CPUs, staged on GPUs) are chosen from, device by device. */
static void launch_shapes(FILE *f, const Op *ops, size_t nops, size_t n, cl_mem a, cl_mem b, cl_mem m)
{
   static const size_t locals[3] = {64, 128, 256}, per_cu[4] = {8, 16, 32, 64};
   cl_device_type type = 0;
   cl_uint cus = 1;
   const char *env = getenv("DROPOUT_BENCH_LAUNCHES");
   const size_t local0 = g_ocl.local_size, groups0 = g_ocl.max_groups;   /* the defaults, restored at the end */
   size_t i, li, gi;
   int direct, lg = 0;
   clGetDeviceInfo(g_ocl.device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
   clGetDeviceInfo(g_ocl.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
   if (!(type & CL_DEVICE_TYPE_GPU) && !(env && atoi(env))) return;
   while (((size_t)1 << lg) < n) ++lg;
   {
      char head[512];
      snprintf(head, sizeof head,
               "\n## Launch shapes, 2^%d elements (ratio to the copy; %u compute units; default: %lu x %lu a unit, %s)\n\n"
               "| op | layout | work-group | groups a unit | ratio |\n| --- | --- | ---: | ---: | ---: |\n",
               lg, (unsigned)cus, (unsigned long)local0, (unsigned long)(groups0 / (cus ? cus : 1u)),
               g_ocl.direct ? "direct" : "staged");
      fputs(head, f); fputs(head, stdout);
   }
   for (i = 0; i < nops; ++i) {
      const Op *o = &ops[i];
      dropout_plan plan;
      dropout_desc d;
      dropout_opencl_tensors t;
      size_t bytes;
      double tcopy;
      if (o->op != DROPOUT_OP_FORWARD || o->mask || o->dt == DROPOUT_DTYPE_F64) continue;
      bytes = op_setup(o, n, &plan, &d, &t, a, b, m);
      tcopy = time_copy(a, b, bytes / 2u);
      for (direct = 0; direct < 2; ++direct)
         for (li = 0; li < 3; ++li)
            for (gi = 0; gi < 4; ++gi) {
               char row[256];
               if (dropout_opencl_set_direct(&g_ocl, direct) || dropout_opencl_set_launch(&g_ocl, locals[li], per_cu[gi] * cus) ||
                   g_ocl.local_size != locals[li])
                  continue;   /* past the kernels' work-group limit */
               snprintf(row, sizeof row, "| %s | %s | %lu | %lu | %.2f |\n", o->name, direct ? "direct" : "staged",
                        (unsigned long)locals[li], (unsigned long)per_cu[gi], tcopy / time_run(&d, &t));
               fputs(row, f); fputs(row, stdout); fflush(stdout);
            }
   }
   dropout_opencl_set_direct(&g_ocl, -1);
   dropout_opencl_set_launch(&g_ocl, local0, groups0);
}

int main(int argc, char **argv)
{
   static const Op ops[] = {
      { "forward f32, 8-bit draws", DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, 8, 0 },
      { "forward f32 + mask, 8-bit", DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, 8, 1 },
      { "forward f32, 32-bit draws", DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, 32, 0 },
      { "backward f32, 16-bit", DROPOUT_OP_BACKWARD, DROPOUT_DTYPE_F32, 16, 0 },
      { "apply_mask f32", DROPOUT_OP_APPLY_MASK, DROPOUT_DTYPE_F32, 8, 1 },
      { "mask only, 8-bit", DROPOUT_OP_MASK, DROPOUT_DTYPE_F32, 8, 1 },
      { "forward bf16, 8-bit", DROPOUT_OP_FORWARD, DROPOUT_DTYPE_BF16, 8, 0 },
      { "forward f16, 16-bit", DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F16, 16, 0 },
      { "forward f64, 8-bit", DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F64, 8, 0 },
      { "bias_dropout_add f32, 8-bit", DROPOUT_OP_BIAS_DROPOUT_ADD, DROPOUT_DTYPE_F32, 8, 0 },
      { "gaussian f32", DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F32, 32, 0 },
   };
   const char *out_path = argc > 1 ? argv[1] : "build/opencl/bench_opencl.md";
   int log2_min = 16, log2_max = 24, lg;
   size_t i;
   cl_platform_id plats[8];
   cl_device_id dev = NULL;
   cl_uint np = 0, nd = 0, k;
   cl_context ctx;
   cl_int err;
   cl_mem a, b, c2, m, bias;
   unsigned char *ha, *hb, *hc, *hm, *hbias;
   FILE *f;
   char cpu[256] = "unknown";
   const char *env = getenv("DROPOUT_BENCH_MAX_LOG2");
   if (env) log2_max = atoi(env);
   if ((env = getenv("DROPOUT_BENCH_REPS")) != NULL) g_reps = atoi(env);
   if (clGetPlatformIDs(8, plats, &np) != CL_SUCCESS || np == 0) { printf("SKIP bench_opencl: no OpenCL platform\n"); return 0; }
   for (k = 0; k < np && nd == 0; ++k)
      if (clGetDeviceIDs(plats[k], CL_DEVICE_TYPE_ALL, 1, &dev, &nd) != CL_SUCCESS) nd = 0;
   if (nd == 0) { printf("SKIP bench_opencl: no OpenCL device\n"); return 0; }
   ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
   g_q = clCreateCommandQueue(ctx, dev, 0, &err);
   if (dropout_opencl_init(&g_ocl, ctx, dev, 0)) { printf("FAIL bench_opencl: %s\n", g_ocl.message); return 1; }
   {
      FILE *ci = fopen("/proc/cpuinfo", "r");
      char line[512];
      while (ci && fgets(line, sizeof line, ci))
         if (!strncmp(line, "model name", 10)) { char *p = strchr(line, ':'); if (p) { snprintf(cpu, sizeof cpu, "%s", p + 2); cpu[strcspn(cpu, "\n")] = 0; } break; }
      if (ci) fclose(ci);
   }
   {
      size_t maxb = ((size_t)1 << log2_max) * 8u;
      a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, maxb, NULL, &err);
      b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, maxb, NULL, &err);
      c2 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, maxb, NULL, &err);
      m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, maxb / 64u + 8u, NULL, &err);
      bias = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1024 * 8, NULL, &err);
      if (err != CL_SUCCESS) { printf("FAIL bench_opencl: buffers of %lu bytes: %d\n", (unsigned long)maxb, (int)err); return 1; }
      ha = (unsigned char *)malloc(maxb); hb = (unsigned char *)malloc(maxb); hc = (unsigned char *)malloc(maxb);
      hm = (unsigned char *)malloc(maxb / 64u + 8u); hbias = (unsigned char *)malloc(1024 * 8);
      if (!ha || !hb || !hc || !hm || !hbias) { printf("FAIL bench_opencl: out of host memory\n"); return 1; }
      {
         size_t j;
         float one = 1.0f;
         for (j = 0; j + 4 <= maxb; j += 4) { memcpy(ha + j, &one, 4); memcpy(hb + j, &one, 4); memcpy(hc + j, &one, 4); }
         for (j = 0; j < 1024 * 8; j += 4) memcpy(hbias + j, &one, 4);
         memset(hm, 0x5A, maxb / 64u + 8u);
      }
      {   /* defined contents (ones), so that no denormal or NaN path is timed */
         float one = 1.0f;
         clEnqueueFillBuffer(g_q, a, &one, sizeof one, 0, maxb, 0, NULL, NULL);
         clEnqueueFillBuffer(g_q, c2, &one, sizeof one, 0, maxb, 0, NULL, NULL);
         clEnqueueFillBuffer(g_q, bias, &one, sizeof one, 0, 1024 * 8, 0, NULL, NULL);
         clFinish(g_q);
      }
   }
   f = fopen(out_path, "w");
   if (!f) { printf("FAIL bench_opencl: cannot write %s\n", out_path); return 1; }
   {
      char head[1024];
      snprintf(head, sizeof head,
               "# dropout_opencl.h against clEnqueueCopyBuffer\n\n"
               "- device: %s (%s)\n- host CPU: %s\n"
               "- %s\n- ratio = copy time of the op's bytes / op time (1.00 = copy speed); best of %d runs, work-group %lu\n\n"
               "| op | elements | bytes moved | op ms | copy ms | ratio | dropout.h on the CPU, 1 thread, ms |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
               g_ocl.device_name, strstr(g_ocl.device_name, "pthread") || strstr(g_ocl.device_name, "cpu") ? "PoCL on this CPU: these are CPU figures, not a GPU's" : "OpenCL device",
               cpu, "dropout_opencl_run on contiguous 1-D tensors, p = 0.1", g_reps, (unsigned long)g_ocl.local_size);
      fputs(head, f); fputs(head, stdout);
   }
   for (lg = log2_min; lg <= log2_max; lg += 4) {
      size_t n = (size_t)1 << lg;
      for (i = 0; i < sizeof ops / sizeof ops[0]; ++i) {
         const Op *o = &ops[i];
         dropout_rule rule;
         dropout_plan plan;
         dropout_desc d;
         dropout_opencl_tensors t;
         dropout_tensors ht;
         size_t es = o->dt == DROPOUT_DTYPE_F64 ? 8 : o->dt == DROPOUT_DTYPE_F32 ? 4 : 2, bytes;
         double top, tcopy, tcpu;
         char row[256];
         if (o->dt == DROPOUT_DTYPE_F64 && !g_ocl.fp64) continue;
         if (o->op == DROPOUT_OP_GAUSSIAN && !g_ocl.fp64) continue;
         /* p = 0.1, quantised at 8 bits (where dropout_rule_init refuses it): a refused plan
            would time calls that do nothing */
         if (dropout_rule_init_quantised(&rule, 0.1, (dropout_bits)o->bits) != DROPOUT_OK ||
             (o->op == DROPOUT_OP_GAUSSIAN || o->op == DROPOUT_OP_NOISE ? dropout_plan_at_normals : dropout_plan_at)(&plan, &rule, dropout_key_make(1234, 0), dropout_pos_make(0), n) != DROPOUT_OK) {
            printf("FAIL bench_opencl: no plan for p = 0.1 at %d bits\n", o->bits);
            return 1;
         }
         dropout_desc_init(&d, o->op, o->dt, &plan);
         memset(&t, 0, sizeof t);
         memset(&ht, 0, sizeof ht);
         bytes = 0;
         if (o->op != DROPOUT_OP_MASK) { t.out = b; t.in = a; ht.out = hb; ht.in = ha; bytes += 2 * n * es; }
         if (o->mask) { t.mask = m; ht.mask = hm; bytes += n / 8u; }
         if (o->op == DROPOUT_OP_BIAS_DROPOUT_ADD) {
            dropout_desc_set_bias_len(&d, 1024);
            t.bias = bias; t.residual = c2; ht.bias = hbias; ht.residual = hc; bytes += n * es;
         }
         top = time_run(&d, &t);
         tcpu = time_cpu(&d, &ht);
         tcopy = time_copy(c2, b, bytes / 2u);   /* a copy of bytes/2 moves `bytes` (read + write) */
         snprintf(row, sizeof row, "| %s | 2^%d | %.1f MB | %.3f | %.3f | %.2f | %.3f |\n", o->name, lg,
                  (double)bytes / 1e6, top * 1e3, tcopy * 1e3, tcopy / top, tcpu * 1e3);
         fputs(row, f); fputs(row, stdout); fflush(stdout);
      }
   }
   launch_shapes(f, ops, sizeof ops / sizeof ops[0], (size_t)1 << log2_max, a, b, m);
   fclose(f);
   printf("\nsaved %s\n", out_path);
   dropout_opencl_release(&g_ocl);
   clReleaseMemObject(a); clReleaseMemObject(b); clReleaseMemObject(c2); clReleaseMemObject(m); clReleaseMemObject(bias);
   clReleaseCommandQueue(g_q);
   clReleaseContext(ctx);
   free(ha); free(hb); free(hc); free(hm); free(hbias);
   return 0;
}
