/* host_ptr_mock.c - dropout_opencl_run's host-side checks of CL_MEM_USE_HOST_PTR buffers,
   on a 64-bit and a 32-bit host (gcc -m32: there is no 32-bit OpenCL driver here, so the
   OpenCL calls the checks make are this file's stand-ins; the library's own code is what
   runs). Two such buffers over overlapping host memory, one written, are refused on any
   host (OpenCL leaves commands on them undefined; on a 32-bit host they were once taken as
   two buffers: the output written while an input over the same bytes was read); and two
   device buffers past 256 MiB could be refused as overlapping on a 32-bit host. */
#define CL_TARGET_OPENCL_VERSION 120
#define DROPOUT_IMPLEMENTATION
#define DROPOUT_OPENCL_IMPLEMENTATION
#define clGetMemObjectInfo mock_GetMemObjectInfo
#define clSetKernelArg mock_SetKernelArg
#define clEnqueueNDRangeKernel mock_EnqueueNDRangeKernel
#define clGetDeviceInfo mock_GetDeviceInfo
#define clCreateProgramWithSource mock_CreateProgramWithSource
#define clBuildProgram mock_BuildProgram
#define clGetProgramBuildInfo mock_GetProgramBuildInfo
#define clCreateKernel mock_CreateKernel
#define clReleaseKernel mock_ReleaseKernel
#define clReleaseProgram mock_ReleaseProgram
#define clGetKernelWorkGroupInfo mock_GetKernelWorkGroupInfo
#define clCreateCommandQueue mock_CreateCommandQueue
#define clCreateBuffer mock_CreateBuffer
#define clEnqueueReadBuffer mock_EnqueueReadBuffer
#define clReleaseMemObject mock_ReleaseMemObject
#define clReleaseCommandQueue mock_ReleaseCommandQueue
#define clGetCommandQueueInfo mock_GetCommandQueueInfo
#define clGetContextInfo mock_GetContextInfo
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>
struct mockmem { cl_mem_flags flags; size_t size; void *host; cl_context ctx; };
static int enqueued;
cl_int mock_GetMemObjectInfo(cl_mem m, cl_mem_info what, size_t sz, void *v, size_t *ret)
{
   struct mockmem *b = (struct mockmem *)(void *)m; (void)sz; (void)ret;
   switch (what) {
   case CL_MEM_TYPE: *(cl_mem_object_type *)v = CL_MEM_OBJECT_BUFFER; return 0;
   case CL_MEM_CONTEXT: *(cl_context *)v = b->ctx; return 0;
   case CL_MEM_FLAGS: *(cl_mem_flags *)v = b->flags; return 0;
   case CL_MEM_SIZE: *(size_t *)v = b->size; return 0;
   case CL_MEM_HOST_PTR: *(void **)v = b->host; return 0;
   case CL_MEM_ASSOCIATED_MEMOBJECT: *(cl_mem *)v = NULL; return 0;
   case CL_MEM_OFFSET: *(size_t *)v = 0; return 0;
   default: return CL_INVALID_VALUE;
   }
}
cl_int mock_SetKernelArg(cl_kernel k, cl_uint i, size_t s, const void *v) { (void)k; (void)i; (void)s; (void)v; return 0; }
cl_int mock_EnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint d, const size_t *o, const size_t *g, const size_t *l, cl_uint n, const cl_event *w, cl_event *e)
{ (void)q; (void)k; (void)d; (void)o; (void)g; (void)l; (void)n; (void)w; (void)e; ++enqueued; return 0; }
cl_int mock_GetDeviceInfo(cl_device_id a, cl_device_info b, size_t c, void *d, size_t *e) { (void)a; (void)b; (void)c; (void)d; (void)e; return -1; }
cl_program mock_CreateProgramWithSource(cl_context a, cl_uint b, const char **c, const size_t *d, cl_int *e) { (void)a; (void)b; (void)c; (void)d; *e = -1; return NULL; }
cl_int mock_BuildProgram(cl_program a, cl_uint b, const cl_device_id *c, const char *d, void (CL_CALLBACK *f)(cl_program, void *), void *g) { (void)a; (void)b; (void)c; (void)d; (void)f; (void)g; return -1; }
cl_int mock_GetProgramBuildInfo(cl_program a, cl_device_id b, cl_program_build_info c, size_t d, void *e, size_t *f) { (void)a; (void)b; (void)c; (void)d; (void)e; (void)f; return -1; }
cl_kernel mock_CreateKernel(cl_program a, const char *b, cl_int *c) { (void)a; (void)b; *c = -1; return NULL; }
cl_int mock_ReleaseKernel(cl_kernel a) { (void)a; return 0; }
cl_int mock_ReleaseProgram(cl_program a) { (void)a; return 0; }
cl_int mock_GetKernelWorkGroupInfo(cl_kernel a, cl_device_id b, cl_kernel_work_group_info c, size_t d, void *e, size_t *f) { (void)a; (void)b; (void)c; (void)d; (void)e; (void)f; return -1; }
cl_command_queue mock_CreateCommandQueue(cl_context a, cl_device_id b, cl_command_queue_properties c, cl_int *e) { (void)a; (void)b; (void)c; *e = -1; return NULL; }
cl_mem mock_CreateBuffer(cl_context a, cl_mem_flags b, size_t c, void *d, cl_int *e) { (void)a; (void)b; (void)c; (void)d; *e = -1; return NULL; }
cl_int mock_EnqueueReadBuffer(cl_command_queue a, cl_mem b, cl_bool c, size_t d, size_t e, void *f, cl_uint g, const cl_event *h, cl_event *i) { (void)a; (void)b; (void)c; (void)d; (void)e; (void)f; (void)g; (void)h; (void)i; return -1; }
cl_int mock_ReleaseMemObject(cl_mem a) { (void)a; return 0; }
cl_int mock_ReleaseCommandQueue(cl_command_queue a) { (void)a; return 0; }
cl_int mock_GetCommandQueueInfo(cl_command_queue a, cl_command_queue_info b, size_t c, void *d, size_t *e) { (void)a; (void)b; (void)c; (void)d; (void)e; return -1; }
cl_int mock_GetContextInfo(cl_context a, cl_context_info b, size_t c, void *d, size_t *e) { (void)a; (void)b; (void)c; (void)d; (void)e; return -1; }
#include "dropout_opencl.h"


/* a forward of 1000 floats from in to out: its code and the kernels it enqueued */
static int run(struct mockmem *out, size_t out_offset, struct mockmem *in, int *launches)
{
   static int fakectx, fakekernel;
   dropout_opencl o;
   dropout_rule rule;
   dropout_plan plan;
   dropout_desc d;
   dropout_opencl_tensors t;
   int k, rc;
   memset(&o, 0, sizeof o);
   o.magic = DROPOUT_OPENCL__MAGIC; o.self = &o;
   o.context = out->ctx = in->ctx = (cl_context)(void *)&fakectx;
   for (k = 0; k < DROPOUT_OPENCL__KERNELS; ++k) o.kernel[k] = (cl_kernel)(void *)&fakekernel;
   o.fp32_exact = o.fp64 = 1; o.local_size = 64; o.max_groups = 16; o.direct = 1;
   dropout_rule_init(&rule, 0.5, DROPOUT_BITS_8);
   dropout_plan_at(&plan, &rule, dropout_key_make(1, 2), dropout_pos_make(0), 1000);
   dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
   memset(&t, 0, sizeof t);
   t.out = (cl_mem)(void *)out; t.out_offset = out_offset; t.in = (cl_mem)(void *)in;
   enqueued = 0;
   rc = dropout_opencl_run(&o, &d, &t, (cl_command_queue)(void *)&fakectx);
   *launches = enqueued;
   return rc;
}

int main(void)
{
   static float host[4000];
   const cl_mem_flags uhp = CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR;
   struct mockmem in = { uhp, 1000 * 4, host, NULL }, out = { uhp, 1000 * 4, host + 10, NULL };
   struct mockmem apart = { uhp, 1000 * 4, host + 2000, NULL };
   int rc, n, bits = (int)(8 * sizeof(void *)), fail = 0;
   rc = run(&out, 0, &in, &n);
   if (rc == DROPOUT_ERR_OVERLAP && n == 0)
      printf("PASS opencl host pointers (%d-bit host): two USE_HOST_PTR buffers over overlapping host memory are refused, nothing enqueued\n", bits);
   else { printf("FAIL opencl host pointers (%d-bit host): overlapping host memory: rc %d, %d kernels enqueued\n", bits, rc, n); fail = 1; }
   rc = run(&apart, 0, &in, &n);
   if (rc == 0 && n > 0) printf("PASS opencl host pointers (%d-bit host): two over separate host memory run\n", bits);
   else { printf("FAIL opencl host pointers (%d-bit host): separate host memory: rc %d\n", bits, rc); fail = 1; }
   rc = run(&in, 0, &in, &n);
   if (rc == 0 && n > 0) printf("PASS opencl host pointers (%d-bit host): in place in one buffer runs\n", bits);
   else { printf("FAIL opencl host pointers (%d-bit host): in place: rc %d\n", bits, rc); fail = 1; }
   /* Buffers on the device alone, past 256 MiB: on a 32-bit host each once had 2^28 bytes
      of made-up addresses, so that `out` read 2^29 + 8 bytes in ran into `in`'s and the
      two were refused as overlapping. */
   {
      struct mockmem big = { CL_MEM_READ_WRITE, (size_t)1 << 30, NULL, NULL }, small = { CL_MEM_READ_WRITE, 4000, NULL, NULL };
      struct mockmem huge = { CL_MEM_READ_WRITE, (size_t)3 << 30, NULL, NULL }, large = { CL_MEM_READ_WRITE, (size_t)3 << 29, NULL, NULL };
      rc = run(&big, ((size_t)1 << 29) + 8u, &small, &n);
      if (rc == 0 && n > 0) printf("PASS opencl device buffers (%d-bit host): out at 512 MiB + 8 into a 1 GiB buffer beside another runs\n", bits);
      else { printf("FAIL opencl device buffers (%d-bit host): out at 512 MiB + 8 into a 1 GiB buffer: rc %d\n", bits, rc); fail = 1; }
      /* 3 + 1.5 GiB: no room for both below 4 GiB on a 32-bit host, refused there by name */
      rc = run(&huge, (size_t)1 << 31, &large, &n);
      if (bits < 64 ? rc == DROPOUT_ERR_OPENCL_BOUNDS && n == 0 : rc == 0 && n > 0)
         printf("PASS opencl device buffers (%d-bit host): 3 GiB beside 1.5 GiB %s\n", bits, bits < 64 ? "refused (more than 4 GiB of addresses)" : "runs");
      else { printf("FAIL opencl device buffers (%d-bit host): 3 GiB beside 1.5 GiB: rc %d, %d kernels\n", bits, rc, n); fail = 1; }
   }
   return fail;
}
