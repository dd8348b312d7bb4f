/* build_checks.c - what dropout_opencl.h sees besides the arguments: the program as the
   driver built it, and the queue a call is given.
     build_checks plain      f32 and f64 forwards of subnormals equal dropout_run's bytes
     build_checks flushing   run with a driver option that flushes subnormals (PoCL:
                             POCL_EXTRA_BUILD_FLAGS=-cl-denorms-are-zero): init succeeds,
                             the same calls are refused (the message says the build
                             flushed), nothing is written, the mask op still runs
     build_checks two_devices  a context of two devices (PoCL: POCL_DEVICES="pthread
                             basic"): a call on the other device's queue is refused,
                             nothing written (PoCL aborted the process at the enqueue);
                             init with a device outside its context is refused
   Prints PASS / FAIL / SKIP lines (tests/opencl/suite.sh runs it). */
#define CL_TARGET_OPENCL_VERSION 120
#define DROPOUT_IMPLEMENTATION
#define DROPOUT_OPENCL_IMPLEMENTATION
#include "dropout_opencl.h"
#include <stdio.h>
#include <string.h>

enum { N = 256 };
static cl_context g_ctx;
static cl_command_queue g_q;
static dropout_opencl g_ocl;
static int g_fail;

/* forward of N subnormals and small normals at p = 0.3: rc, and into got */
static int forward(int dtype, cl_command_queue q, unsigned char *got, size_t es, const unsigned char *x)
{
   dropout_rule rule;
   dropout_plan plan;
   dropout_desc d;
   dropout_opencl_tensors t;
   cl_int err;
   int rc;
   cl_mem X = clCreateBuffer(g_ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * es, (void *)x, &err);
   cl_mem Y = clCreateBuffer(g_ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * es, got, &err);
   dropout_rule_init(&rule, 0.3, DROPOUT_BITS_16);
   dropout_plan_at(&plan, &rule, dropout_key_make(3, 4), dropout_pos_make(0), N);
   dropout_desc_init(&d, DROPOUT_OP_FORWARD, (dropout_dtype)dtype, &plan);
   memset(&t, 0, sizeof t);
   t.out = Y; t.in = X;
   rc = dropout_opencl_run(&g_ocl, &d, &t, q);
   clFinish(g_q);
   clEnqueueReadBuffer(g_q, Y, CL_TRUE, 0, N * es, got, 0, NULL, NULL);
   clReleaseMemObject(X); clReleaseMemObject(Y);
   return rc;
}

static void inputs(unsigned char *x32, unsigned char *x64, unsigned char *want32, unsigned char *want64)
{
   dropout_rule rule;
   dropout_plan plan;
   size_t i;
   for (i = 0; i < N; ++i) {
      uint32_t u = (uint32_t)(i * 2654435761u) & 0x807FFFFFu;          /* subnormal */
      uint64_t v = ((uint64_t)i * 0x9E3779B97F4A7C15u) & 0x800FFFFFFFFFFFFFu;
      if (i % 4 == 1) u |= 0x00800000u;                                   /* the smallest normals */
      memcpy(x32 + 4 * i, &u, 4);
      memcpy(x64 + 8 * i, &v, 8);
   }
   dropout_rule_init(&rule, 0.3, DROPOUT_BITS_16);
   dropout_plan_at(&plan, &rule, dropout_key_make(3, 4), dropout_pos_make(0), N);
   dropout_replay_f32(&plan, N, (float *)(void *)want32, NULL, (const float *)(const void *)x32);
   dropout_replay_f64(&plan, N, (double *)(void *)want64, NULL, (const double *)(const void *)x64);
}

int main(int argc, char **argv)
{
   static unsigned char x32[N * 4], x64[N * 8], want32[N * 4], want64[N * 8], got[N * 8], canary[N * 8];
   const char *mode = argc > 1 ? argv[1] : "plain";
   cl_platform_id plat;
   cl_device_id dev[2];
   cl_uint np = 0, nd = 0;
   cl_int err;
   int rc;
   setvbuf(stdout, NULL, _IOLBF, 0);
   if (clGetPlatformIDs(1, &plat, &np) != CL_SUCCESS || np == 0 ||
       clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 2, dev, &nd) != CL_SUCCESS || nd == 0) {
      printf("SKIP opencl build checks [%s]: no OpenCL device\n", mode);
      return 0;
   }
   if (!strcmp(mode, "two_devices") && nd < 2) {
      printf("SKIP opencl build checks [two_devices]: the platform offers %u device\n", nd);
      return 0;
   }
   g_ctx = clCreateContext(NULL, !strcmp(mode, "two_devices") ? 2u : 1u, dev, NULL, NULL, &err);
   if (err == CL_SUCCESS) g_q = clCreateCommandQueue(g_ctx, dev[0], 0, &err);
   if (err != CL_SUCCESS) { printf("FAIL opencl build checks [%s]: context or queue: %d\n", mode, (int)err); return 1; }
   rc = dropout_opencl_init(&g_ocl, g_ctx, dev[0], 0);
   if (rc) { printf("FAIL opencl build checks [%s]: init: %d: %s\n", mode, rc, g_ocl.message); return 1; }
   inputs(x32, x64, want32, want64);
   memset(canary, 0x5A, sizeof canary);

   if (!strcmp(mode, "two_devices")) {
      cl_command_queue other = clCreateCommandQueue(g_ctx, dev[1], 0, &err);
      memcpy(got, canary, sizeof got);
      rc = forward(DROPOUT_DTYPE_F32, other, got, 4, x32);
      if (rc == DROPOUT_ERR_OPENCL_BASE + CL_INVALID_DEVICE && strstr(g_ocl.message, "another device") && !memcmp(got, canary, N * 4))
         printf("PASS opencl build checks [two_devices]: a call on another device's queue of ctx's context is refused (%d), nothing written\n", rc);
      else { printf("FAIL opencl build checks [two_devices]: rc %d (%s)\n", rc, g_ocl.message); g_fail = 1; }
      clReleaseCommandQueue(other);
      {   /* a ctx for a device its context does not hold: named, not "the program did not build" */
         dropout_opencl alone;
         cl_context one = clCreateContext(NULL, 1u, dev, NULL, NULL, &err);
         rc = err == CL_SUCCESS ? dropout_opencl_init(&alone, one, dev[1], 0) : -1;
         if (rc == DROPOUT_ERR_OPENCL_BASE + CL_INVALID_DEVICE && strstr(alone.message, "not one of the context's devices"))
            printf("PASS opencl build checks [two_devices]: init with a device outside the context is refused (%d), naming the device\n", rc);
         else { printf("FAIL opencl build checks [two_devices]: init with a device outside the context: rc %d (%s)\n", rc, rc == -1 ? "no context" : alone.message); g_fail = 1; }
         if (rc == DROPOUT_OK) dropout_opencl_release(&alone);
         if (err == CL_SUCCESS) clReleaseContext(one);
      }
   } else if (!strcmp(mode, "flushing") && !(g_ocl.flushed & 1)) {
      printf("SKIP opencl build checks [flushing]: the build kept subnormals (%s; POCL_EXTRA_BUILD_FLAGS is PoCL's)\n", g_ocl.device_name);
   } else {
      int flushing = !strcmp(mode, "flushing"), dt;
      for (dt = 0; dt < 2; ++dt) {
         int dtype = dt ? DROPOUT_DTYPE_F64 : DROPOUT_DTYPE_F32;
         size_t es = dt ? 8 : 4;
         if (dt && !g_ocl.fp64 && !(g_ocl.flushed & 2)) { printf("SKIP opencl build checks [%s] f64: no cl_khr_fp64\n", mode); continue; }
         memcpy(got, canary, sizeof got);
         rc = forward(dtype, g_q, got, es, dt ? x64 : x32);
         if (!flushing && rc == 0 && !memcmp(got, dt ? want64 : want32, N * es))
            printf("PASS opencl build checks [plain] %s: a forward of subnormals equals dropout_run's bytes\n", dt ? "f64" : "f32");
         else if (flushing && rc == (dt ? DROPOUT_ERR_OPENCL_FP64 : DROPOUT_ERR_OPENCL_FP) && strstr(g_ocl.message, "flushed") &&
                  !memcmp(got, canary, N * es))
            printf("PASS opencl build checks [flushing] %s: the build flushes subnormals; the forward is refused (%d, the message says so), nothing written\n",
                   dt ? "f64" : "f32", rc);
         else { printf("FAIL opencl build checks [%s] %s: rc %d (%s)\n", mode, dt ? "f64" : "f32", rc, g_ocl.message); g_fail = 1; }
      }
      if (flushing) {   /* the mask needs no float: it still runs */
         dropout_rule rule;
         dropout_plan plan;
         dropout_desc d;
         dropout_opencl_tensors t;
         unsigned char m[N / 8], want[N / 8];
         cl_mem M = clCreateBuffer(g_ctx, CL_MEM_READ_WRITE, N / 8, NULL, &err);
         dropout_rule_init(&rule, 0.3, DROPOUT_BITS_16);
         dropout_plan_at(&plan, &rule, dropout_key_make(3, 4), dropout_pos_make(0), N);
         dropout_mask(&plan, N, want);
         dropout_desc_init(&d, DROPOUT_OP_MASK, DROPOUT_DTYPE_F32, &plan);
         memset(&t, 0, sizeof t);
         t.mask = M;
         rc = dropout_opencl_run(&g_ocl, &d, &t, g_q);
         clEnqueueReadBuffer(g_q, M, CL_TRUE, 0, sizeof m, m, 0, NULL, NULL);
         if (rc == 0 && !memcmp(m, want, sizeof m)) printf("PASS opencl build checks [flushing]: the mask op, which computes no float, still runs\n");
         else { printf("FAIL opencl build checks [flushing] mask: rc %d (%s)\n", rc, g_ocl.message); g_fail = 1; }
         clReleaseMemObject(M);
      }
   }
   dropout_opencl_release(&g_ocl);
   clReleaseCommandQueue(g_q);
   clReleaseContext(g_ctx);
   return g_fail;
}
