/* test_cuda_run.cu - dropout_cuda_run on a real GPU against dropout_run on the CPU, bit for
   bit: strided views, every op and dtype, broadcast, gradient accumulation, device
   coordinates, and a captured CUDA graph of a strided layer. `make test-cuda` builds and
   runs it; needs a GPU (prints one SKIP line without one).

   The cases are tests/cuda/views.h's: each operand laid out by its own permutation of the
   dims, padded, some dims reversed (negative strides), inputs with zero strides, random
   broadcast bits, positions near 2^64. Each case runs on the CPU (dropout_run, host
   buffers) and on the GPU (dropout_cuda_run, device copies of the same buffers), and the
   whole output buffer must come back equal, bytes outside the view included (a NaN
   matches any NaN where docs/SPEC.md leaves payloads open: fused op, variants,
   accumulation); so must the mask and the bytes past it. The same cases run on the CPU
   against emulated kernels in tests/cuda/test_cuda_logic.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DROPOUT_IMPLEMENTATION
#define DROPOUT_CUDA_IMPLEMENTATION
#include "dropout_cuda.cuh"
#include "check.h"
#include "views.h"

#define CU(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
   printf("FAIL cuda call %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

enum { SBUF = 40000, BYTES = SBUF * 8, MBYTES = SBUF / 8 + 8 };
static unsigned char h_x[BYTES], h_r[BYTES], h_b[BYTES], h_y0[BYTES], h_cpu[BYTES], h_got[BYTES];
static uint8_t h_m0[MBYTES], h_mcpu[MBYTES], h_mgot[MBYTES];
static unsigned char *d_x, *d_r, *d_b, *d_y;
static uint8_t *d_m;
static uint64_t *d_coords;   /* seed, position */

static void fill_random(unsigned char *p, size_t n)
{
   for (size_t i = 0; i < n; ++i) p[i] = (unsigned char)views_rnd();
}

/* the case's tensors over one set of buffers (host or device) */
static dropout_tensors case_tensors(const view_case *c, unsigned char *out, uint8_t *mask, const unsigned char *x,
                                    const unsigned char *bias, const unsigned char *res)
{
   dropout_tensors t;
   unsigned es = dropout_cuda__esize(c->dt);
   memset(&t, 0, sizeof t);
   if (c->has_out) t.out = out + c->base[0] * es;
   if (c->has_in) t.in = x + c->base[1] * es;
   if (c->reads_mask || c->writes_mask) t.mask = mask;
   if (c->fused) { t.bias = bias; t.residual = res + c->base[2] * es; }
   return t;
}

static const char *dt_name(int dt)
{
   return dt == DROPOUT_CUDA__F32 ? "f32" : dt == DROPOUT_CUDA__F64 ? "f64" : dt == DROPOUT_CUDA__F16 ? "f16" : "bf16";
}

static void test_views(int cases)
{
   int ran = 0, refused = 0, dev = 0;
   for (int iter = 0; iter < cases; ++iter) {
      view_case c;
      dropout_plan plan, wrong;
      dropout_desc d, dd;
      dropout_tensors th, td;
      dropout_job job;
      uint64_t coords[2];
      int rc;
      views_make(&c, 6000, SBUF);
      fill_random(h_x, sizeof h_x); fill_random(h_r, sizeof h_r); fill_random(h_b, sizeof h_b);
      fill_random(h_y0, sizeof h_y0); fill_random(h_m0, sizeof h_m0);
      rc = views_plan(&c, 77, c.off, &plan);
      if (!rc) rc = views_desc(&d, &c, &plan, 1);
      th = case_tensors(&c, h_y0, h_m0, h_x, h_b, h_r);
      if (!rc) rc = dropout_lower(&d, &th, &job);
      if (rc) { ++refused; continue; }   /* refused alike on both sides (the logic test counts them) */
      ++ran;
      memcpy(h_cpu, h_y0, sizeof h_cpu); memcpy(h_mcpu, h_m0, sizeof h_mcpu);
      th = case_tensors(&c, h_cpu, c.reads_mask ? h_m0 : h_mcpu, h_x, h_b, h_r);
      rc = dropout_run(&d, &th);
      CHECK(rc == 0, "cpu: %s", dropout_strerror(rc));
      CU(cudaMemcpy(d_x, h_x, BYTES, cudaMemcpyHostToDevice)); CU(cudaMemcpy(d_r, h_r, BYTES, cudaMemcpyHostToDevice));
      CU(cudaMemcpy(d_b, h_b, BYTES, cudaMemcpyHostToDevice)); CU(cudaMemcpy(d_y, h_y0, BYTES, cudaMemcpyHostToDevice));
      CU(cudaMemcpy(d_m, h_m0, MBYTES, cudaMemcpyHostToDevice));
      dd = d;
      rc = dropout_desc_replay(&dd);   /* the GPU draws the CPU's positions again: said so */
      CHECK(rc == 0, "replay: %s", dropout_strerror(rc));
      if (c.use_dev) {   /* the plan's own coordinates wrong, the right ones in device memory */
         ++dev;
         coords[0] = 77; coords[1] = c.off;
         CU(cudaMemcpy(d_coords, coords, sizeof coords, cudaMemcpyHostToDevice));
         rc = views_plan(&c, 1, 0, &wrong);
         if (!rc) rc = views_desc(&dd, &c, &wrong, 1);
         if (!rc) rc = dropout_desc_set_device_coords(&dd, d_coords, d_coords + 1);
         CHECK(rc == 0, "device-coordinates descriptor: %s", dropout_strerror(rc));
      }
      td = case_tensors(&c, d_y, d_m, d_x, d_b, d_r);
      rc = dropout_cuda_run(&dd, &td, 0);
      CU(cudaDeviceSynchronize());
      CHECK(rc == 0, "gpu: %s", dropout_cuda_strerror(rc));
      CU(cudaMemcpy(h_got, d_y, BYTES, cudaMemcpyDeviceToHost));
      CU(cudaMemcpy(h_mgot, d_m, MBYTES, cudaMemcpyDeviceToHost));
      CHECK(views_same(&c, h_got, h_cpu, BYTES),
            "%s op %d rank %d dims %zu,%zu,%zu,%zu bcast %x p %g bits %d off %llu acc %d dev %d: the GPU's output differs from the CPU's",
            dt_name(c.dt), (int)c.op, c.rank, c.dims[0], c.rank > 1 ? c.dims[1] : 0, c.rank > 2 ? c.dims[2] : 0,
            c.rank > 3 ? c.dims[3] : 0, c.bcast, c.p, c.bits, (unsigned long long)c.off, c.accumulate, c.use_dev);
      CHECK(memcmp(h_mgot, h_mcpu, MBYTES) == 0, "op %d: the GPU's mask differs from the CPU's (or bytes past it were written)", (int)c.op);
   }
   CHECK(ran > cases * 9 / 10 && dev > cases / 8, "only %d cases ran (%d refused), %d with device coordinates", ran, refused, dev);
   case_end("dropout_cuda_run == dropout_run: random strided views, every op and dtype, broadcast, accumulate, device coordinates; nothing written outside the view");
}

/* A layer on a transposed, channel-broadcast view in a captured graph: forward with mask,
   then the backward (accumulating into dx) at the saved position; each replay equals the
   CPU at the advanced position. */
static void test_graph_strided(void)
{
   const size_t dims[3] = { 6, 40, 33 };               /* (N, C, L), mask over (N, C): broadcast L */
   const size_t n = 6 * 40 * 33, npos = 6 * 40;
   const ptrdiff_t tr[3] = { 40 * 33, 1, 40 };         /* stored (N, L, C): C innermost */
   float *hx = (float *)malloc(n * 4), *hy = (float *)malloc(n * 4), *hdx = (float *)malloc(n * 4);
   float *wy = (float *)malloc(n * 4), *wdx = (float *)malloc(n * 4);
   uint8_t hm[64], wm[64];
   float *dx, *dy, *ddx;
   uint8_t *dm;
   uint64_t *dpos, *dsaved, *dseed, seed = 1234, pos0 = 7;
   cudaStream_t cs;
   cudaGraph_t g;
   cudaGraphExec_t ge;
   dropout_rule rule;
   dropout_plan plan;
   dropout_desc fw, bw, cf, cb;
   dropout_tensors tf, tb, hf, hb;
   int rc;
   for (size_t i = 0; i < n; ++i) hx[i] = (float)((int)(views_rnd() % 2001u) - 1000) * 0.01f;
   CU(cudaStreamCreate(&cs));
   CU(cudaMalloc(&dx, n * 4)); CU(cudaMalloc(&dy, n * 4)); CU(cudaMalloc(&ddx, n * 4)); CU(cudaMalloc(&dm, 64));
   CU(cudaMalloc(&dpos, 8)); CU(cudaMalloc(&dsaved, 8)); CU(cudaMalloc(&dseed, 8));
   CU(cudaMemcpy(dx, hx, n * 4, cudaMemcpyHostToDevice));
   CU(cudaMemset(ddx, 0, n * 4));
   CU(cudaMemcpy(dpos, &pos0, 8, cudaMemcpyHostToDevice)); CU(cudaMemcpy(dseed, &seed, 8, cudaMemcpyHostToDevice));
   rc = dropout_rule_init(&rule, 0.25, DROPOUT_BITS_16);
   if (!rc) rc = dropout_plan_at(&plan, &rule, dropout_key_make(0, 9), dropout_pos_make(0), npos);
   /* the GPU's descriptors (device coordinates) and the CPU's (the plan moved by hand) */
   for (int k = 0; k < 2 && !rc; ++k) {
      dropout_desc *dsc = k ? &bw : &fw;
      rc = dropout_desc_init(dsc, k ? DROPOUT_OP_BACKWARD : DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
      if (!rc) rc = dropout_desc_set_shape(dsc, 3, dims);
      if (!rc) rc = dropout_desc_set_broadcast(dsc, 1u << 2);
      if (!rc) rc = dropout_desc_set_strides(dsc, DROPOUT_OPERAND_OUT, tr);
      if (!rc) rc = dropout_desc_set_strides(dsc, DROPOUT_OPERAND_IN, tr);
      if (!rc && k) rc = dropout_desc_set_grad(dsc, DROPOUT_GRAD_ACCUMULATE);
      if (!rc) rc = dropout_desc_set_device_coords(dsc, dseed, k ? dsaved : dpos);
   }
   CHECK(rc == 0, "descriptors: %s", dropout_strerror(rc));
   memset(&tf, 0, sizeof tf); memset(&tb, 0, sizeof tb);
   tf.out = dy; tf.mask = dm; tf.in = dx;
   tb.out = ddx; tb.in = dx;   /* dy = x here: any gradient will do */
   CU(cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal));
   rc = dropout_cuda_run(&fw, &tf, cs);
   if (!rc) rc = dropout_cuda_advance(dpos, dsaved, npos, cs);
   if (!rc) rc = dropout_cuda_run(&bw, &tb, cs);
   CU(cudaStreamEndCapture(cs, &g));
   CU(cudaGraphInstantiate(&ge, g, 0));
   CHECK(rc == 0, "capture: %s", dropout_cuda_strerror(rc));
   memset(wdx, 0, n * 4);
   for (int k = 0; k < 3 && rc == 0; ++k) {
      dropout_plan at;
      CU(cudaGraphLaunch(ge, cs));
      CU(cudaStreamSynchronize(cs));
      CU(cudaMemcpy(hy, dy, n * 4, cudaMemcpyDeviceToHost)); CU(cudaMemcpy(hdx, ddx, n * 4, cudaMemcpyDeviceToHost));
      CU(cudaMemcpy(hm, dm, (npos + 7) / 8, cudaMemcpyDeviceToHost));
      rc = dropout_plan_at(&at, &rule, dropout_key_make(seed, 9), dropout_pos_make(pos0 + (uint64_t)k * npos), npos);
      for (int j = 0; j < 2 && !rc; ++j) {
         dropout_desc *dsc = j ? &cb : &cf;
         rc = dropout_desc_init(dsc, j ? DROPOUT_OP_BACKWARD : DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &at);
         if (!rc) rc = dropout_desc_set_shape(dsc, 3, dims);
         if (!rc) rc = dropout_desc_set_broadcast(dsc, 1u << 2);
         if (!rc) rc = dropout_desc_set_strides(dsc, DROPOUT_OPERAND_OUT, tr);
         if (!rc) rc = dropout_desc_set_strides(dsc, DROPOUT_OPERAND_IN, tr);
         if (!rc && j) rc = dropout_desc_set_grad(dsc, DROPOUT_GRAD_ACCUMULATE);
      }
      memset(&hf, 0, sizeof hf); memset(&hb, 0, sizeof hb);
      hf.out = wy; hf.mask = wm; hf.in = hx;
      hb.out = wdx; hb.in = hx;
      if (!rc) rc = dropout_run(&cf, &hf);
      if (!rc) rc = dropout_run(&cb, &hb);
      CHECK(rc == 0, "cpu: %s", dropout_strerror(rc));
      CHECK(memcmp(hy, wy, n * 4) == 0, "replay %d: forward differs from the cpu at position %llu", k, (unsigned long long)(pos0 + k * npos));
      CHECK(memcmp(hm, wm, (npos + 7) / 8) == 0, "replay %d: mask differs", k);
      CHECK(memcmp(hdx, wdx, n * 4) == 0, "replay %d: accumulated backward differs (saved position not used?)", k);
   }
   case_end("graph capture of a strided, broadcast layer: forward + mask, advance, accumulating backward at the saved position == CPU on every replay");
   cudaGraphExecDestroy(ge); cudaGraphDestroy(g); cudaStreamDestroy(cs);
   cudaFree(dx); cudaFree(dy); cudaFree(ddx); cudaFree(dm); cudaFree(dpos); cudaFree(dsaved); cudaFree(dseed);
   free(hx); free(hy); free(hdx); free(wy); free(wdx);
}

/* The refusals each call makes before it touches the GPU, as the CPU calls of the same
   names make them: no device needed (tests/cuda/suite.sh runs this part without one). The
   pointers are never dereferenced: every call below is refused first. */
static void test_refusals(void)
{
   dropout_rule r;
   dropout_plan big;
   const dropout_key key = dropout_key_make(1, 2);
   float *fake = (float *)(uintptr_t)4096;
   uint64_t *pos = (uint64_t *)(uintptr_t)8192;
   int rc;
   dropout_rule_init(&r, 0.5, DROPOUT_BITS_8);
   /* n whose bytes wrap 2^64: the fills had launched, writing past the buffer */
   rc = dropout_cuda_fill_u32(key, dropout_pos_make(0), (uint32_t *)fake, SIZE_MAX / 4u + 2u, 0);
   CHECK(rc == DROPOUT_ERR_SIZE, "fill_u32 of SIZE_MAX / 4 + 2 words: %d (%s)", rc, dropout_cuda_strerror(rc));
   rc = dropout_cuda_fill_uniform_f64(key, dropout_pos_make(0), (double *)fake, SIZE_MAX / 8u + 2u, 0);
   CHECK(rc == DROPOUT_ERR_SIZE, "fill_uniform_f64 of SIZE_MAX / 8 + 2: %d", rc);
   rc = dropout_cuda_fill_normal_f32(key, dropout_pos_make(5), fake, SIZE_MAX, 0);
   CHECK(rc == DROPOUT_ERR_SIZE, "fill_normal_f32 of SIZE_MAX from 5 (SIZE before RANGE, as the CPU): %d", rc);
   rc = dropout_cuda_fill_u32(key, dropout_pos_make(0), NULL, 1, 0);
   CHECK(rc == DROPOUT_ERR_NULL_OUTPUT, "fill_u32 into NULL: %d", rc);
   /* 2^62 f32 elements: no buffer holds them; the CPU's DROPOUT_ERR_SIZE, not a shape overflow */
   CHECK(dropout_plan_at(&big, &r, key, dropout_pos_make(0), (uint64_t)1 << 62) == DROPOUT_OK, "a plan of 2^62");
   rc = dropout_cuda_replay_f32(&big, (size_t)1 << 62, fake, NULL, fake, 0);
   CHECK(rc == DROPOUT_ERR_SIZE, "replay_f32 of 2^62: %d", rc);
   {   /* the count and the generator, as the CPU's short calls take them */
      dropout_gen g, copy;
      dropout_plan p1, out;
      dropout_gen_init(&g, key);
      CHECK(dropout_plan_at(&p1, &r, key, dropout_pos_make(0), 256) == DROPOUT_OK, "a plan of 256");
      rc = dropout_cuda_backward_f32(&p1, 64, fake, fake, 0);
      CHECK(rc == DROPOUT_ERR_COUNT, "backward_f32 of a 256-element plan on 64: %d", rc);
      rc = dropout_cuda_replay_f16(&p1, 257, (__half *)fake, NULL, (const __half *)fake, 0);
      CHECK(rc == DROPOUT_ERR_COUNT, "replay_f16 of a 256-element plan on 257: %d", rc);
      rc = dropout_cuda_mask(&p1, 255, (uint8_t *)fake, 0);
      CHECK(rc == DROPOUT_ERR_COUNT, "mask of a 256-element plan on 255: %d", rc);
      rc = dropout_cuda_bias_dropout_add_replay_f32(&p1, 128, 64, fake, NULL, fake, fake, fake, 0);
      CHECK(rc == DROPOUT_ERR_COUNT, "bias_dropout_add_replay of a 256-element plan on 128: %d", rc);
      rc = dropout_cuda_forward_f32(&g, &r, &out, (size_t)-16, fake, NULL, fake, 0);
      CHECK(rc == DROPOUT_ERR_SIZE && g.next == 0, "forward_f32 of a negative int: %d, g at %llu", rc, (unsigned long long)g.next);
      rc = dropout_cuda_forward_f32(&g, &r, &out, 256, fake, NULL, NULL, 0);
      CHECK(rc == DROPOUT_ERR_NULL_INPUT && g.next == 0, "forward_f32 without x: %d, g at %llu", rc, (unsigned long long)g.next);
      rc = dropout_cuda_forward_bf16(NULL, &r, &out, 256, (__nv_bfloat16 *)fake, NULL, (const __nv_bfloat16 *)fake, 0);
      CHECK(rc == DROPOUT_ERR_NULL_GEN, "forward_bf16 without g: %d", rc);
      copy = g;   /* a copy would hand out g's positions again */
      rc = dropout_cuda_forward_f32(&copy, &r, &out, 256, fake, NULL, fake, 0);
      CHECK(rc == DROPOUT_ERR_GEN_MOVED && copy.next == 0, "forward_f32 on a copy of g: %d", rc);
      rc = dropout_cuda_bias_dropout_add_f64(&copy, &r, &out, 256, 64, (double *)fake, NULL, (const double *)fake,
                                             (const double *)fake, (const double *)fake, 0);
      CHECK(rc == DROPOUT_ERR_GEN_MOVED, "bias_dropout_add_f64 on a copy of g: %d", rc);
   }
   rc = dropout_cuda_apply_mask_f32(&r, (size_t)PTRDIFF_MAX / 4u + 1u, NULL, NULL, NULL, 0);
   CHECK(rc == DROPOUT_ERR_SIZE, "apply_mask_f32 of PTRDIFF_MAX / 4 + 1 with NULLs (the CPU's order: the size first): %d", rc);
   rc = dropout_cuda_apply_mask_f16(&r, (size_t)PTRDIFF_MAX, NULL, (const uint8_t *)fake, (const __half *)fake, 0);
   CHECK(rc == DROPOUT_ERR_SIZE, "apply_mask_f16 of PTRDIFF_MAX with NULL y: %d", rc);
   rc = dropout_cuda_apply_mask_f32(&r, 8, fake, NULL, NULL, 0);
   CHECK(rc == DROPOUT_ERR_NULL_MASK, "apply_mask_f32 without mask and x (the CPU's order: the mask first): %d", rc);
   {   /* a descriptor's plan draws one forward: a copy (or a spent plan) is refused, as on the CPU */
      dropout_plan p1;
      dropout_desc d, copy;
      dropout_tensors t;
      memset(&t, 0, sizeof t);
      t.out = fake; t.in = (const float *)(uintptr_t)(1u << 20);
      rc = dropout_plan_at(&p1, &r, key, dropout_pos_make(0), 256);
      if (!rc) rc = dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &p1);
      copy = d;
      if (!rc) rc = dropout_cuda_run(&copy, &t, 0);
      CHECK(rc == DROPOUT_ERR_DESC_MOVED, "cuda_run of a copied forward descriptor: %d", rc);
   }
   {  /* a tensor pointer off its element's alignment: a GPU's load of it faults and ends the
         CUDA context (0.9.0 launched it), so it is refused before anything is launched */
      float *off2 = (float *)(uintptr_t)((1u << 20) + 2);   /* 2 bytes into a float (apart from fake) */
      double *off4 = (double *)(uintptr_t)((1u << 21) + 4);   /* 4 bytes into a double */
      dropout_plan p1;
      dropout_gen g;
      dropout_desc d;
      dropout_tensors t;
      dropout_gen_init(&g, key);
      CHECK(dropout_plan_at(&p1, &r, key, dropout_pos_make(0), 256) == DROPOUT_OK, "a plan of 256");
      rc = dropout_cuda_replay_f32(&p1, 256, off2, NULL, fake, 0);
      CHECK(rc == DROPOUT_ERR_ALIGN, "replay_f32 into a y 2 bytes off: %d", rc);
      rc = dropout_cuda_backward_f32(&p1, 256, fake, off2, 0);
      CHECK(rc == DROPOUT_ERR_ALIGN, "backward_f32 from a dy 2 bytes off: %d", rc);
      rc = dropout_cuda_forward_f64(&g, &r, NULL, 256, off4, NULL, (const double *)fake, 0);
      CHECK(rc == DROPOUT_ERR_ALIGN && g.next == 0, "forward_f64 into a y 4 bytes off: %d, g at %llu", rc, (unsigned long long)g.next);
      rc = dropout_cuda_replay_f16(&p1, 256, (__half *)fake, NULL, (const __half *)(uintptr_t)((1u << 22) + 1), 0);
      CHECK(rc == DROPOUT_ERR_ALIGN, "replay_f16 from an x 1 byte off: %d", rc);
      rc = dropout_cuda_bias_dropout_add_replay_f32(&p1, 256, 64, fake, NULL, fake, off2, fake, 0);
      CHECK(rc == DROPOUT_ERR_ALIGN, "bias_dropout_add_replay with a bias 2 bytes off: %d", rc);
      rc = dropout_cuda_fill_u32(key, dropout_pos_make(0), (uint32_t *)(uintptr_t)((1u << 20) + 2), 16, 0);
      CHECK(rc == DROPOUT_ERR_ALIGN, "fill_u32 into words 2 bytes off: %d", rc);
      rc = dropout_cuda_fill_uniform_f64(key, dropout_pos_make(0), off4, 16, 0);
      CHECK(rc == DROPOUT_ERR_ALIGN, "fill_uniform_f64 into doubles 4 bytes off: %d", rc);
      memset(&t, 0, sizeof t);
      t.out = fake; t.in = off2;
      rc = dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &p1);
      if (!rc) rc = dropout_cuda_run(&d, &t, 0);
      CHECK(rc == DROPOUT_ERR_ALIGN, "cuda_run of a forward from an x 2 bytes off: %d", rc);
   }
   rc = dropout_cuda_advance(pos, pos, 1, 0);
   CHECK(rc == DROPOUT_ERR_OVERLAP, "advance with dev_saved == dev_pos: %d", rc);
   CHECK(strstr(dropout_cuda_strerror(-2003), "OpenCL") != NULL, "dropout_cuda_strerror(-2003): %s", dropout_cuda_strerror(-2003));
   case_end("cuda refusals before any launch: fills whose bytes wrap, a count no buffer holds or not the plan's, a copied generator, a copied descriptor's forward, NULLs in the CPU's order (g not moved), tensors off their element's alignment, advance onto itself");
}

int main(int argc, char **argv)
{
   int ndev = 0, small = argc > 1 && strcmp(argv[1], "small") == 0;
   test_refusals();
   if (argc > 1 && strcmp(argv[1], "refusals") == 0) return check_exit();
   if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
      case_skip("dropout_cuda_run == dropout_run", "no CUDA device");
      return 0;
   }
   CU(cudaMalloc(&d_x, BYTES)); CU(cudaMalloc(&d_r, BYTES)); CU(cudaMalloc(&d_b, BYTES)); CU(cudaMalloc(&d_y, BYTES));
   CU(cudaMalloc(&d_m, MBYTES)); CU(cudaMalloc(&d_coords, 16));
   test_views(small ? 60 : 3000);
   test_graph_strided();
   cudaFree(d_x); cudaFree(d_r); cudaFree(d_b); cudaFree(d_y); cudaFree(d_m); cudaFree(d_coords);
   return check_exit();
}
