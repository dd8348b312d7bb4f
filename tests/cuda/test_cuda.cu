/* test_cuda.cu - dropout_cuda.cuh on a real GPU, against the CPU library, bit for bit.
   `make test-cuda` builds and runs it (then compute-sanitizer on a reduced size).
   Needs a GPU; prints PASS/FAIL lines and "N passed, M failed". The strided views and
   every op of dropout_cuda_run: tests/cuda/test_cuda_run.cu.

   Inputs carry special values at random places (so on kept and dropped elements): NaNs
   with payloads, quiet and signalling, both signs; infinities; signed zeros; subnormals;
   the largest finite values. Forward, backward, apply_mask must match the CPU bit for bit
   on all of them (a kept NaN is the input NaN, quieted: docs/SPEC.md section 5). The fused
   op's NaN payloads are unspecified (section 12): there a NaN matches any NaN.
   The launch configurations run the warp path, at 1, 2, 4 and 8 lanes a unit, and the
   direct path (DROPOUT_CUDA_WARP 1 and 0); the shifted pointers send the warp path down
   its single-element chunks.
   Argument "small" (the sanitizer runs): a reduced matrix, and no deliberately failing
   launch (a sanitizer counts that as an error). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include <curand_kernel.h>

#define DROPOUT_IMPLEMENTATION
#define DROPOUT_CUDA_IMPLEMENTATION
#include "dropout_cuda.cuh"

static int n_pass, n_fail, small_run;

static void report(const char *name, int ok, const char *why)
{
   if (ok) { printf("PASS %s\n", name); ++n_pass; }
   else { printf("FAIL %s: %s\n", name, why); ++n_fail; }
   fflush(stdout);
}

#define CU(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
   printf("FAIL cuda call %s: %s\n", #call, cudaGetErrorString(e_)); exit(1); } } while (0)

static uint64_t rs = 88172645463325252ull;
static uint32_t rnd32(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (uint32_t)rs; }

static const int DTS[4] = { DROPOUT_CUDA__F32, DROPOUT_CUDA__F64, DROPOUT_CUDA__F16, DROPOUT_CUDA__BF16 };
static const char *DTN[4] = { "f32", "f64", "f16", "bf16" };

/* random values, a quarter of them replaced by special values (see the top) */
static void random_data(int dt, void *p, size_t n)
{
   static const uint32_t s32[] = { 0x7FC00001u, 0xFFC12345u, 0x7F800001u, 0xFFBFFFFFu, 0x7F800000u, 0xFF800000u,
                                   0x80000000u, 0x00000000u, 0x00000001u, 0x807FFFFFu, 0x7F7FFFFFu, 0x00400000u };
   static const uint64_t s64[] = { 0x7FF8000000000001ull, 0xFFF8123456789ABCull, 0x7FF0000000000001ull, 0xFFF7FFFFFFFFFFFFull,
                                   0x7FF0000000000000ull, 0xFFF0000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull,
                                   0x800FFFFFFFFFFFFFull, 0x7FEFFFFFFFFFFFFFull, 0x0008000000000000ull, 0ull };
   static const uint16_t s16[] = { 0x7E01u, 0xFE55u, 0x7C01u, 0xFDFFu, 0x7C00u, 0xFC00u, 0x8000u, 0x0001u, 0x83FFu, 0x7BFFu, 0x0200u, 0u };
   static const uint16_t sb16[] = { 0x7FC1u, 0xFFC5u, 0x7F81u, 0xFFBFu, 0x7F80u, 0xFF80u, 0x8000u, 0x0001u, 0x807Fu, 0x7F7Fu, 0x0040u, 0u };
   size_t i;
   for (i = 0; i < n; ++i) {
      uint32_t r = rnd32(), k = (r >> 8) % 12u, special = (r & 3u) == 0;
      if (dt == DROPOUT_CUDA__F32) {
         float f = (float)(int32_t)rnd32() * 1e-6f;
         if (special) memcpy(&f, &s32[k], 4);
         ((float *)p)[i] = f;
      } else if (dt == DROPOUT_CUDA__F64) {
         double d = (double)(int32_t)rnd32() * 1e-7;
         if (special) memcpy(&d, &s64[k], 8);
         ((double *)p)[i] = d;
      } else {
         uint16_t h = (uint16_t)rnd32();
         if (special) h = dt == DROPOUT_CUDA__F16 ? s16[k] : sb16[k];
         ((uint16_t *)p)[i] = h;
      }
   }
}

static int is_nan(int dt, const unsigned char *p)
{
   uint64_t u = 0;
   memcpy(&u, p, dropout_cuda__esize(dt));   /* little-endian */
   if (dt == DROPOUT_CUDA__F32) return (u & 0x7FFFFFFFu) > 0x7F800000u;
   if (dt == DROPOUT_CUDA__F64) return (u & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull;
   if (dt == DROPOUT_CUDA__F16) return (u & 0x7FFFu) > 0x7C00u;
   return (u & 0x7FFFu) > 0x7F80u;
}

static unsigned long long bits_at(int dt, const unsigned char *p)
{
   uint64_t u = 0;
   memcpy(&u, p, dropout_cuda__esize(dt));
   return (unsigned long long)u;
}

/* index of the first element that differs (n if none); nan_aware: a NaN matches any NaN */
static size_t first_diff(int dt, const unsigned char *a, const unsigned char *b, size_t n, int nan_aware)
{
   size_t es = dropout_cuda__esize(dt), i;
   if (!nan_aware) {
      if (!memcmp(a, b, n * es)) return n;
      for (i = 0; memcmp(a + i * es, b + i * es, es) == 0; ++i) {}
      return i;
   }
   for (i = 0; i < n; ++i)
      if (memcmp(a + i * es, b + i * es, es) && !(is_nan(dt, a + i * es) && is_nan(dt, b + i * es))) return i;
   return n;
}

/* CPU reference for one op: dropout.h's 1.0 calls at (p, bits), key (seed, st), position off */
static int cpu_op(int dt, int op, void *y, uint8_t *m, const void *x, const uint8_t *min, const void *b,
                  const void *r, size_t n, size_t cols, double p, int bits, uint64_t seed, uint64_t st, uint64_t off)
{
   dropout_rule rule;
   dropout_plan plan;
   int rc = dropout_rule_init_quantised(&rule, p, (dropout_bits)bits);
   if (!rc) rc = dropout_plan_at(&plan, &rule, dropout_key_make(seed, st), dropout_pos_make(off), n);
   if (rc) return rc;
   if (op == DROPOUT_CUDA__MASK) return dropout_mask(&plan, (size_t)plan.count, m);
   if (op == DROPOUT_CUDA__FUSED) {
      if (dt == DROPOUT_CUDA__F32) return dropout_bias_dropout_add_replay_f32(&plan, (size_t)plan.count, cols, (float *)y, m, (const float *)x, (const float *)b, (const float *)r);
      if (dt == DROPOUT_CUDA__F64) return dropout_bias_dropout_add_replay_f64(&plan, (size_t)plan.count, cols, (double *)y, m, (const double *)x, (const double *)b, (const double *)r);
      if (dt == DROPOUT_CUDA__F16) return dropout_bias_dropout_add_replay_f16(&plan, (size_t)plan.count, cols, (dropout_f16 *)y, m, (const dropout_f16 *)x, (const dropout_f16 *)b, (const dropout_f16 *)r);
      return dropout_bias_dropout_add_replay_bf16(&plan, (size_t)plan.count, cols, (dropout_bf16 *)y, m, (const dropout_bf16 *)x, (const dropout_bf16 *)b, (const dropout_bf16 *)r);
   }
   if (op == DROPOUT_CUDA__APPLY_MASK) {
      switch (dt) {
      case DROPOUT_CUDA__F32: return dropout_apply_mask_f32(&rule, n, (float *)y, min, (const float *)x);
      case DROPOUT_CUDA__F64: return dropout_apply_mask_f64(&rule, n, (double *)y, min, (const double *)x);
      case DROPOUT_CUDA__F16: return dropout_apply_mask_f16(&rule, n, (dropout_f16 *)y, min, (const dropout_f16 *)x);
      default: return dropout_apply_mask_bf16(&rule, n, (dropout_bf16 *)y, min, (const dropout_bf16 *)x);
      }
   }
   switch (dt) {
   case DROPOUT_CUDA__F32: return dropout_replay_f32(&plan, (size_t)plan.count, (float *)y, m, (const float *)x);
   case DROPOUT_CUDA__F64: return dropout_replay_f64(&plan, (size_t)plan.count, (double *)y, m, (const double *)x);
   case DROPOUT_CUDA__F16: return dropout_replay_f16(&plan, (size_t)plan.count, (dropout_f16 *)y, m, (const dropout_f16 *)x);
   default: return dropout_replay_bf16(&plan, (size_t)plan.count, (dropout_bf16 *)y, m, (const dropout_bf16 *)x);
   }
}

/* the matrix: every op, dtype, p, size, offset, shift and launch configuration */
static void test_matrix(void)
{
   static const double ps[] = { 0.0, 0.1, 0.5, 0.9, 1.0 };
   static const int bitss[] = { 8, 16, 32 };
   static const size_t sizes_full[] = { 1, 7, 8, 31, 32, 33, 63, 64, 65, 127, 128, 129, 1023, 1024, 1025, 65536 + 37, 1000003 };
   static const size_t sizes_small[] = { 33, 1025 + 64 };   /* a tail, a whole warp span */
   /* grid, block, warp path (0: direct), lanes a unit (0: the launcher's choice, which is
      the largest at these sizes). Block 100 is not whole warps: direct there. */
   static const unsigned cfg[][4] = { { 0, 0, 1, 0 }, { 0, 0, 0, 0 }, { 0, 0, 1, 1 }, { 1, 32, 1, 2 }, { 1, 32, 0, 0 },
                                      { 3, 64, 1, 4 }, { 7, 512, 1, 8 }, { 7, 512, 0, 0 }, { 1000, 96, 1, 2 },
                                      { 5, 100, 1, 0 } };
   const int ncfg = sizeof cfg / sizeof cfg[0];
   const size_t *sizes = small_run ? sizes_small : sizes_full;
   size_t nsizes = small_run ? 2 : sizeof sizes_full / sizeof sizes_full[0], maxn = small_run ? 1025 + 64 : 1000003;
   int ops[] = { DROPOUT_CUDA__DROP, DROPOUT_CUDA__APPLY_MASK, DROPOUT_CUDA__MASK, DROPOUT_CUDA__FUSED };
   size_t bytes = maxn * 8 + 64, mb = maxn / 8 + 64;
   std::vector<unsigned char> hx(bytes), hr(bytes), hb(bytes), hy(bytes), hw(bytes);
   std::vector<uint8_t> hm(mb), hmw(mb), hmin(mb);
   unsigned char *dx, *dy, *dr, *db;
   uint8_t *dm, *dmin;
   CU(cudaMalloc(&dx, bytes)); CU(cudaMalloc(&dy, bytes)); CU(cudaMalloc(&dr, bytes));
   CU(cudaMalloc(&db, bytes)); CU(cudaMalloc(&dm, mb)); CU(cudaMalloc(&dmin, mb));
   for (int io = 0; io < 4; ++io) {
      int op = ops[io];
      for (int it = 0; it < 4; ++it) {
         int dt = DTS[it];
         char name[200], why[400] = "";
         int ok = 1;
         if (op == DROPOUT_CUDA__MASK && dt != DROPOUT_CUDA__F32) continue;
         unsigned es = dropout_cuda__esize(dt);
         for (size_t is = 0; is < nsizes && ok; ++is)
            for (int ib = 0; ib < 3 && ok; ++ib)
               for (int ip = small_run ? 2 : 0; ip < (small_run ? 3 : 5) && ok; ++ip)   /* small: p 0.5 */
                  for (int ko = small_run; ko < (small_run ? 2 : 3) && ok; ++ko)            /* small: offset 4097 + */
                     for (unsigned shift = 0; shift < 2 && ok; ++shift) {
                        /* fused: 96 columns (a multiple of 16 bytes of every dtype: the f16/bf16
                           pairs with vector bias loads) at offset 4097, 97 or 5 otherwise */
                        size_t n = sizes[is], cols = n <= 100 ? 5 : ko == 1 ? 96 : 97;
                        if (op == DROPOUT_CUDA__FUSED) { n = n / cols * cols; if (n == 0) continue; }
                        uint64_t off = ko == 0 ? 0 : ko == 1 ? 4097 + (uint64_t)is : UINT64_MAX - n + 1 - (uint64_t)ip;
                        double p = ps[ip];
                        /* forward and fused write the mask or not; mask always; apply_mask never */
                        int bits = bitss[ib], with_mask = ((ko + ip) & 1) && op != DROPOUT_CUDA__APPLY_MASK;
                        int wm = with_mask || op == DROPOUT_CUDA__MASK;
                        size_t sh = shift * es, nb = (n + 7) / 8;
                        random_data(dt, hx.data() + sh, n); random_data(dt, hr.data() + sh, n);
                        random_data(dt, hb.data(), cols);
                        for (size_t i = 0; i < nb + 4; ++i) hmin[i] = (uint8_t)rnd32();
                        memset(hw.data(), 0x5A, n * es + sh + 16); memset(hmw.data(), 0x5A, nb + 4);
                        int rc = cpu_op(dt, op, hw.data() + sh, wm ? hmw.data() : NULL, hx.data() + sh, hmin.data(), hb.data(),
                                        hr.data() + sh, n, cols, p, bits, 1234, 7, off);
                        if (rc) { ok = 0; snprintf(why, sizeof why, "cpu rc %d", rc); break; }
                        CU(cudaMemcpy(dx, hx.data(), n * es + sh, cudaMemcpyHostToDevice));
                        CU(cudaMemcpy(dr, hr.data(), n * es + sh, cudaMemcpyHostToDevice));
                        CU(cudaMemcpy(db, hb.data(), cols * es, cudaMemcpyHostToDevice));
                        CU(cudaMemcpy(dmin, hmin.data(), nb + 4, cudaMemcpyHostToDevice));
                        for (int c = 0; c < ncfg && ok; ++c) {
                           dropout_cuda__args a = dropout_cuda__args_make();
                           a.warp = (int)cfg[c][2]; a.split = cfg[c][3];
                           CU(cudaMemset(dy, 0x5A, n * es + sh + 16)); CU(cudaMemset(dm, 0x5A, nb + 4));
                           a.x = dx + sh; a.y = dy + sh; a.residual = dr + sh; a.bias = db; a.cols = cols;
                           a.mask_in = dmin; a.mask_out = wm ? dm : NULL; a.n = n;
                           a.rule = dropout_rule_make(p, bits); a.seed = 1234; a.stream = 7; a.offset = off;
                           rc = dropout_cuda__launch(&a, dt, op, cfg[c][0], cfg[c][1], 0);
                           CU(cudaDeviceSynchronize());
                           CU(cudaMemcpy(hy.data(), dy, n * es + sh + 16, cudaMemcpyDeviceToHost));
                           CU(cudaMemcpy(hm.data(), dm, nb + 4, cudaMemcpyDeviceToHost));
                           if (rc) { ok = 0; snprintf(why, sizeof why, "launch rc %d (%s)", rc, dropout_cuda_strerror(rc)); }
                           else if (op != DROPOUT_CUDA__MASK &&
                                    (first_diff(dt, hy.data() + sh, hw.data() + sh, n, op == DROPOUT_CUDA__FUSED) != n ||
                                     memcmp(hy.data(), hw.data(), sh) || memcmp(hy.data() + sh + n * es, hw.data() + sh + n * es, 16))) {
                              size_t i = first_diff(dt, hy.data() + sh, hw.data() + sh, n, op == DROPOUT_CUDA__FUSED);
                              ok = 0; snprintf(why, sizeof why, "data differ at elem %zu of %zu (gpu %llx cpu %llx; past n if == n): p %g bits %d off %llu shift %u grid %u block %u warp %u split %u",
                                               i, n, bits_at(dt, hy.data() + sh + i * es), bits_at(dt, hw.data() + sh + i * es),
                                               p, bits, (unsigned long long)off, shift, cfg[c][0], cfg[c][1], cfg[c][2], cfg[c][3]);
                           } else if (wm && memcmp(hm.data(), hmw.data(), nb + 4)) {
                              ok = 0; snprintf(why, sizeof why, "mask differs: n %zu p %g bits %d off %llu grid %u block %u warp %u split %u", n, p, bits, (unsigned long long)off, cfg[c][0], cfg[c][1], cfg[c][2], cfg[c][3]);
                           }
                        }
                     }
         snprintf(name, sizeof name, "gpu == cpu: %s %s (special values, p, bits, sizes, offsets near 2^64, shifted pointers, 10 launch configs, warp and direct paths, 1 to 8 lanes a unit)",
                  op == DROPOUT_CUDA__DROP ? "forward/backward" : op == DROPOUT_CUDA__APPLY_MASK ? "backward from mask" : op == DROPOUT_CUDA__MASK ? "mask" : "fused bias-dropout-residual",
                  op == DROPOUT_CUDA__MASK ? "" : DTN[it]);
         report(name, ok, why);
      }
   }
   cudaFree(dx); cudaFree(dy); cudaFree(dr); cudaFree(db); cudaFree(dm); cudaFree(dmin);
}

/* Field by field: a plan has padding after `units` (8-byte alignment), which no call
   writes, so memcmp would compare stack garbage. */
static int same_plan(const dropout_plan *a, const dropout_plan *b)
{
   return a->rule.threshold == b->rule.threshold && !memcmp(&a->rule.scale_f64, &b->rule.scale_f64, 8) &&
          !memcmp(&a->rule.scale_f32, &b->rule.scale_f32, 4) && a->rule.bits == b->rule.bits &&
          a->key.seed == b->key.seed && a->key.stream == b->key.stream && a->pos == b->pos &&
          a->count == b->count && a->units == b->units;
}

/* the public launchers: dropout.h's checks before anything is launched, and a sample of results */
static void test_launchers(void)
{
   size_t n = 1000;
   std::vector<float> hx(n), hy(n), hw(n);
   float *dx, *dy;
   char why[200] = "";
   int ok = 1, rc;
   dropout_rule rule, r0;
   dropout_plan plan, p0, bad;
   CU(cudaMalloc(&dx, n * 4)); CU(cudaMalloc(&dy, n * 4));
   random_data(DROPOUT_CUDA__F32, hx.data(), n);
   hx[3] = 0.0f / 0.0f;   /* p = 0 copies it, bit for bit */
   CU(cudaMemcpy(dx, hx.data(), n * 4, cudaMemcpyHostToDevice));
   dropout_rule_init(&rule, 0.5, DROPOUT_BITS_8);
   dropout_rule_init(&r0, 0.0, DROPOUT_BITS_8);
   dropout_plan_at(&plan, &rule, dropout_key_make(1, 2), dropout_pos_make(3), n);
   dropout_plan_at(&p0, &r0, dropout_key_make(1, 2), dropout_pos_make(3), n);
   if ((rc = dropout_cuda_replay_f32(NULL, n, dy, NULL, dx, 0)) != DROPOUT_ERR_NULL_PLAN) { ok = 0; snprintf(why, sizeof why, "NULL plan: %d", rc); }
   if ((rc = dropout_cuda_replay_f32(&plan, n, dy, NULL, NULL, 0)) != DROPOUT_ERR_NULL_INPUT) { ok = 0; snprintf(why, sizeof why, "NULL x: %d", rc); }
   bad = plan; bad.rule.bits = 12;
   if ((rc = dropout_cuda_replay_f32(&bad, n, dy, NULL, dx, 0)) != DROPOUT_ERR_RULE) { ok = 0; snprintf(why, sizeof why, "bits 12: %d", rc); }
   bad = plan; bad.pos = UINT64_MAX - 5;
   if ((rc = dropout_cuda_replay_f32(&bad, n, dy, NULL, dx, 0)) != DROPOUT_ERR_RANGE) { ok = 0; snprintf(why, sizeof why, "range: %d", rc); }
   if ((rc = dropout_cuda_bias_dropout_add_replay_f32(&plan, n, 7, dy, NULL, dx, dx, dx, 0)) != DROPOUT_ERR_BIAS_LEN) { ok = 0; snprintf(why, sizeof why, "bias_len 7 of 1000: %d", rc); }
   if ((rc = dropout_cuda_backward_f32(&p0, n, dy, dx, 0)) != 0) { ok = 0; snprintf(why, sizeof why, "backward p 0: %d", rc); }
   CU(cudaMemcpy(hy.data(), dy, n * 4, cudaMemcpyDeviceToHost));
   if (memcmp(hy.data(), hx.data(), n * 4)) { ok = 0; strcpy(why, "p = 0 is not a bit copy (NaN payload)"); }
   {   /* a step from a generator: the plan it hands back is the CPU's, its bits the replay's */
      dropout_gen g;
      dropout_plan step;
      dropout_gen_resume(&g, plan.key, plan.pos, (dropout_units)rule.bits);
      if ((rc = dropout_cuda_forward_f32(&g, &rule, &step, n, dy, NULL, dx, 0)) != 0 || g.next != plan.pos + n ||
          !same_plan(&step, &plan)) {
         ok = 0; snprintf(why, sizeof why, "step forward: %d, g at %llu", rc, (unsigned long long)g.next);
      }
      CU(cudaMemcpy(hy.data(), dy, n * 4, cudaMemcpyDeviceToHost));
      if (ok && (rc = dropout_cuda_replay_f32(&plan, n, dy, NULL, dx, 0)) != 0) { ok = 0; snprintf(why, sizeof why, "replay: %d", rc); }
      CU(cudaMemcpy(hw.data(), dy, n * 4, cudaMemcpyDeviceToHost));
      if (ok && memcmp(hy.data(), hw.data(), n * 4)) { ok = 0; strcpy(why, "a step's forward and the replay of its plan differ"); }
   }
   {   /* a step on a stream being captured into a graph: its positions would be fixed at
          capture and every replay would repeat them, so it is refused and g stays */
      cudaStream_t cs;
      cudaGraph_t graph;
      dropout_gen g;
      dropout_plan step;
      CU(cudaStreamCreate(&cs));
      dropout_gen_init(&g, plan.key);
      CU(cudaStreamBeginCapture(cs, cudaStreamCaptureModeThreadLocal));
      rc = dropout_cuda_forward_f32(&g, &rule, &step, n, dy, NULL, dx, cs);
      CU(cudaStreamEndCapture(cs, &graph));
      if (ok && (rc != DROPOUT_ERR_CAPTURE || g.next != 0)) { ok = 0; snprintf(why, sizeof why, "a step under capture: %d, g at %llu", rc, (unsigned long long)g.next); }
      cudaGraphDestroy(graph);
      {   /* the descriptor's forward with the plan's own coordinates under capture: every
             replay would draw them again, so refused (0.9.0 launched it), the plan not
             spent; its backward, which reads the plan as often as it runs, is captured */
         dropout_desc f;
         dropout_tensors tf = {};
         int rb;
         tf.out = dy; tf.in = dx;
         dropout_desc_init(&f, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
         CU(cudaStreamBeginCapture(cs, cudaStreamCaptureModeThreadLocal));
         rc = dropout_cuda_run(&f, &tf, cs);
         rb = dropout_desc_set_op(&f, DROPOUT_OP_BACKWARD);
         if (!rb) rb = dropout_cuda_run(&f, &tf, cs);
         CU(cudaStreamEndCapture(cs, &graph));
         cudaGraphDestroy(graph);
         if (ok && (rc != DROPOUT_ERR_CAPTURE || rb != 0)) { ok = 0; snprintf(why, sizeof why, "dropout_cuda_run under capture: forward %d, backward %d", rc, rb); }
         rc = dropout_desc_set_op(&f, DROPOUT_OP_FORWARD);
         if (!rc) rc = dropout_cuda_run(&f, &tf, cs);   /* outside capture: the plan is still unspent */
         if (ok && rc != 0) { ok = 0; snprintf(why, sizeof why, "the forward refused under capture, run after it: %d", rc); }
      }
      /* a descriptor's forward: its plan draws once (then PLAN_RAN), as on the CPU */
      dropout_desc d, copy;
      dropout_tensors t = {};
      t.out = dy; t.in = dx;
      dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
      copy = d;
      if (ok && (rc = dropout_cuda_run(&copy, &t, cs)) != DROPOUT_ERR_DESC_MOVED) { ok = 0; snprintf(why, sizeof why, "a copied descriptor's forward: %d", rc); }
      if (ok && (rc = dropout_cuda_run(&d, &t, cs)) != 0) { ok = 0; snprintf(why, sizeof why, "a descriptor's forward: %d", rc); }
      if (ok && (rc = dropout_cuda_run(&d, &t, cs)) != DROPOUT_ERR_PLAN_RAN) { ok = 0; snprintf(why, sizeof why, "a second forward of one plan: %d", rc); }
      CU(cudaStreamSynchronize(cs));
      cudaStreamDestroy(cs);
   }
   if (strcmp(dropout_cuda_strerror(DROPOUT_ERR_CUDA_BASE - (int)cudaErrorInvalidValue), cudaGetErrorString(cudaErrorInvalidValue))) { ok = 0; strcpy(why, "strerror of a CUDA code"); }
   if (strcmp(dropout_cuda_strerror(DROPOUT_ERR_RULE), dropout_strerror(DROPOUT_ERR_RULE))) { ok = 0; strcpy(why, "strerror of a library code"); }
   /* a launch failure travels in the code: a block of 2048 threads is invalid */
   if (!small_run) {
      dropout_cuda__args a = dropout_cuda__args_make();
      a.x = dx; a.y = dy; a.n = n;
      rc = dropout_cuda__launch(&a, DROPOUT_CUDA__F32, DROPOUT_CUDA__DROP, 1, 2048, 0);
      if (rc > DROPOUT_ERR_CUDA_BASE) { ok = 0; snprintf(why, sizeof why, "bad launch returned %d", rc); }
   }
   report("launchers check before launching (dropout.h's codes); a step from a generator == the replay of its plan, refused under graph capture (and a descriptor's forward without device coordinates); a descriptor's forward draws its plan once; CUDA errors map to codes", ok, why);
   cudaFree(dx); cudaFree(dy);
}

/* y == x on both paths, every dtype; odd n so the tail span goes direct */
static void test_inplace(void)
{
   size_t n = small_run ? 2048 + 37 : 65536 * 3 + 37;
   std::vector<unsigned char> hx(n * 8), hw(n * 8), hy(n * 8);
   unsigned char *d;
   char why[300] = "";
   int ok = 1;
   CU(cudaMalloc(&d, n * 8));
   for (int it = 0; it < 4; ++it)
      for (int warp = 0; warp < 2; ++warp) {
         int dt = DTS[it], rc;
         unsigned es = dropout_cuda__esize(dt);
         dropout_cuda__args a = dropout_cuda__args_make();
         random_data(dt, hx.data(), n);
         cpu_op(dt, DROPOUT_CUDA__DROP, hw.data(), NULL, hx.data(), NULL, NULL, NULL, n, 1, 0.25, 16, 31, 2, 5);
         CU(cudaMemcpy(d, hx.data(), n * es, cudaMemcpyHostToDevice));
         a.x = d; a.y = d; a.n = n; a.rule = dropout_rule_make(0.25, 16); a.seed = 31; a.stream = 2; a.offset = 5;
         a.warp = warp;
         rc = dropout_cuda__launch(&a, dt, DROPOUT_CUDA__DROP, 0, 0, 0);
         CU(cudaDeviceSynchronize());
         CU(cudaMemcpy(hy.data(), d, n * es, cudaMemcpyDeviceToHost));
         size_t i = first_diff(dt, hy.data(), hw.data(), n, 0);
         if (rc || i != n) { ok = 0; snprintf(why, sizeof why, "%s warp %d: rc %d, elem %zu differs", DTN[it], warp, rc, i); }
      }
   report("in place (y == x), warp and direct paths, all dtypes", ok, why);
   cudaFree(d);
}

static __global__ void curand_words(uint32_t *out, size_t n, uint64_t seed, uint64_t sub, uint64_t w0)
{
   size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n) return;
   curandStatePhilox4_32_10_t s;
   curand_init(seed, sub, w0 + i, &s);
   out[i] = curand(&s);
}

static void test_stream_vs_curand(void)
{
   size_t n = small_run ? 1000 : 1 << 20;
   std::vector<uint32_t> a(n), b(n), c(n);
   std::vector<float> uf(n), wf(n);
   uint32_t *d1, *d2;
   char why[200] = "";
   int ok = 1;
   uint64_t w0s[] = { 0, 3, UINT64_MAX - n + 1 };
   CU(cudaMalloc(&d1, n * 4)); CU(cudaMalloc(&d2, n * 4));
   for (int k = 0; k < 3; ++k) {
      curand_words<<<(unsigned)((n + 255) / 256), 256>>>(d1, n, 0x123456789ABCDEFull, 42, w0s[k]);
      int rc = dropout_cuda_fill_u32(dropout_key_make(0x123456789ABCDEFull, 42), dropout_pos_make(w0s[k]), d2, n, 0);
      CU(cudaDeviceSynchronize());
      CU(cudaMemcpy(a.data(), d1, n * 4, cudaMemcpyDeviceToHost));
      CU(cudaMemcpy(b.data(), d2, n * 4, cudaMemcpyDeviceToHost));
      dropout_fill_u32(dropout_key_make(0x123456789ABCDEFull, 42), dropout_pos_make(w0s[k]), c.data(), n);
      if (rc || memcmp(a.data(), b.data(), n * 4) || memcmp(b.data(), c.data(), n * 4)) { ok = 0; snprintf(why, sizeof why, "word %llu: curand/gpu/cpu differ", (unsigned long long)w0s[k]); }
      rc = dropout_cuda_fill_uniform_f32(dropout_key_make(5, 6), dropout_pos_make(w0s[k]), (float *)d2, n, 0);
      CU(cudaMemcpy(uf.data(), d2, n * 4, cudaMemcpyDeviceToHost));
      dropout_fill_uniform_f32(dropout_key_make(5, 6), dropout_pos_make(w0s[k]), wf.data(), n);
      if (rc || memcmp(uf.data(), wf.data(), n * 4)) { ok = 0; strcpy(why, "uniform f32 differs from cpu"); }
   }
   {
      std::vector<double> ud(n / 2), wd(n / 2);
      int rc = dropout_cuda_fill_uniform_f64(dropout_key_make(5, 6), dropout_pos_make(77), (double *)d1, n / 2, 0);
      CU(cudaMemcpy(ud.data(), d1, n / 2 * 8, cudaMemcpyDeviceToHost));
      dropout_fill_uniform_f64(dropout_key_make(5, 6), dropout_pos_make(77), wd.data(), n / 2);
      if (rc || memcmp(ud.data(), wd.data(), n / 2 * 8)) { ok = 0; strcpy(why, "uniform f64 differs from cpu"); }
      rc = dropout_cuda_fill_normal_f32(dropout_key_make(5, 6), dropout_pos_make(UINT64_MAX - n + 1), (float *)d1, n, 0);
      CU(cudaMemcpy(uf.data(), d1, n * 4, cudaMemcpyDeviceToHost));
      dropout_fill_normal_f32(dropout_key_make(5, 6), dropout_pos_make(UINT64_MAX - n + 1), wf.data(), n);
      if (rc || memcmp(uf.data(), wf.data(), n * 4)) { ok = 0; strcpy(why, "normals differ from cpu"); }
   }
   report("raw stream == curand_init(seed, s, w) + curand() == cpu; uniform f32/f64, normals == cpu", ok, why);
   cudaFree(d1); cudaFree(d2);
}

/* A descriptor whose seed and first position live in device memory (the plan's own
   coordinates are ignored): dropout_desc_set_device_coords. */
static dropout_desc graph_desc(dropout_op op, dropout_dtype dt, double p, dropout_bits bits, uint64_t stream, uint64_t n,
                               size_t bias_len, const uint64_t *dseed, const uint64_t *dpos)
{
   dropout_rule rule;
   dropout_plan plan;
   dropout_desc d;
   int rc = dropout_rule_init_quantised(&rule, p, bits);
   if (!rc) rc = dropout_plan_at(&plan, &rule, dropout_key_make(0, stream), dropout_pos_make(0), n);
   if (!rc) rc = dropout_desc_init(&d, op, dt, &plan);
   if (!rc && bias_len) rc = dropout_desc_set_bias_len(&d, bias_len);
   if (!rc) rc = dropout_desc_set_device_coords(&d, dseed, dpos);
   if (rc) { printf("FAIL graph descriptor: %s\n", dropout_strerror(rc)); exit(1); }
   return d;
}

/* a captured graph replays with the position read at run time: fresh masks each replay,
   each equal to the CPU at position off0 + k * n; the backward reads the saved one */
static void test_graph(void)
{
   size_t n = 4099;
   std::vector<float> hx(n), hy(n), hw(n), hdx(n);
   float *dx, *dy, *ddx;
   uint64_t *doff, *dsaved, *dseed, seed = 99, off0 = 5;
   char why[200] = "";
   int ok = 1;
   cudaStream_t cs;
   cudaGraph_t g;
   cudaGraphExec_t ge;
   CU(cudaStreamCreate(&cs));
   CU(cudaMalloc(&dx, n * 4)); CU(cudaMalloc(&dy, n * 4)); CU(cudaMalloc(&ddx, n * 4));
   CU(cudaMalloc(&doff, 8)); CU(cudaMalloc(&dsaved, 8)); CU(cudaMalloc(&dseed, 8));
   random_data(DROPOUT_CUDA__F32, hx.data(), n);
   CU(cudaMemcpy(dx, hx.data(), n * 4, cudaMemcpyHostToDevice));
   CU(cudaMemcpy(doff, &off0, 8, cudaMemcpyHostToDevice));
   CU(cudaMemcpy(dseed, &seed, 8, cudaMemcpyHostToDevice));
   dropout_desc fw = graph_desc(DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, 0.3, DROPOUT_BITS_16, 1, n, 0, dseed, doff);
   dropout_desc bw = graph_desc(DROPOUT_OP_BACKWARD, DROPOUT_DTYPE_F32, 0.3, DROPOUT_BITS_16, 1, n, 0, dseed, dsaved);
   dropout_tensors tf = {}, tb = {};
   tf.out = dy; tf.in = dx;
   tb.out = ddx; tb.in = dx;
   CU(cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal));
   int rc = dropout_cuda_run(&fw, &tf, cs);
   rc |= dropout_cuda_advance(doff, dsaved, n, cs);
   rc |= dropout_cuda_run(&bw, &tb, cs);
   CU(cudaStreamEndCapture(cs, &g));
   CU(cudaGraphInstantiate(&ge, g, 0));
   if (rc) { ok = 0; strcpy(why, "capture launch failed"); }
   for (int k = 0; k < 4 && ok; ++k) {
      CU(cudaGraphLaunch(ge, cs));
      CU(cudaStreamSynchronize(cs));
      CU(cudaMemcpy(hy.data(), dy, n * 4, cudaMemcpyDeviceToHost));
      CU(cudaMemcpy(hdx.data(), ddx, n * 4, cudaMemcpyDeviceToHost));
      cpu_op(DROPOUT_CUDA__F32, DROPOUT_CUDA__DROP, hw.data(), NULL, hx.data(), NULL, NULL, NULL, n, 0, 0.3, 16, seed, 1, off0 + (uint64_t)k * n);
      if (memcmp(hy.data(), hw.data(), n * 4)) { ok = 0; snprintf(why, sizeof why, "replay %d: forward is not the cpu at position %llu", k, (unsigned long long)(off0 + k * n)); }
      if (memcmp(hdx.data(), hw.data(), n * 4)) { ok = 0; snprintf(why, sizeof why, "replay %d: backward did not use the saved position", k); }
   }
   uint64_t end;
   CU(cudaMemcpy(&end, doff, 8, cudaMemcpyDeviceToHost));
   if (ok && end != off0 + 4 * n) { ok = 0; strcpy(why, "device position did not advance by n per replay"); }
   /* the forward from the device position as it is now must write nothing to a zeroed y */
   auto nothing_written = [&](const char *where) {
      CU(cudaMemset(dy, 0, n * 4));
      int r = dropout_cuda_run(&fw, &tf, cs);
      CU(cudaStreamSynchronize(cs));
      CU(cudaMemcpy(hy.data(), dy, n * 4, cudaMemcpyDeviceToHost));
      for (size_t i = 0; i < n && ok; ++i)
         if (hy[i] != 0.0f) { ok = 0; snprintf(why, sizeof why, "element %zu written %s (rc %d)", i, where, r); }
   };
   /* a run-time position whose run would pass 2^64: nothing written */
   {
      uint64_t bad = UINT64_MAX - 10;
      CU(cudaMemcpy(doff, &bad, 8, cudaMemcpyHostToDevice));
      nothing_written("past 2^64 positions");
   }
   /* an advance that would wrap parks the position at 2^64 - 1, where nothing is drawn (a
      wrap to 0 would replay step 0's masks) */
   {
      uint64_t near = UINT64_MAX - 3, got = 0, saved = 0;
      CU(cudaMemcpy(doff, &near, 8, cudaMemcpyHostToDevice));
      rc = dropout_cuda_advance(doff, dsaved, n, cs);
      CU(cudaStreamSynchronize(cs));
      CU(cudaMemcpy(&got, doff, 8, cudaMemcpyDeviceToHost));
      CU(cudaMemcpy(&saved, dsaved, 8, cudaMemcpyDeviceToHost));
      if (ok && (rc || got != UINT64_MAX || saved != near)) {
         ok = 0; snprintf(why, sizeof why, "advance past 2^64: rc %d, position %llu, saved %llu", rc, (unsigned long long)got, (unsigned long long)saved);
      }
      nothing_written("from a parked position");
   }
   report("graph capture: replays advance the device position; backward reads the saved one; past 2^64 nothing is written; an advance past 2^64 parks at 2^64 - 1", ok, why);
   cudaGraphExecDestroy(ge); cudaGraphDestroy(g); cudaStreamDestroy(cs);
   cudaFree(dx); cudaFree(dy); cudaFree(ddx); cudaFree(doff); cudaFree(dsaved); cudaFree(dseed);
}

/* the fused op with device coordinates in a captured graph (f16 and f64): each replay
   equals the CPU op at the advanced position, mask included */
static void test_graph_fused(void)
{
   const size_t rows = 33, cols = 96, n = rows * cols, nb = (n + 7) / 8;
   uint64_t off0 = 11, seed = 5;
   char why[200] = "";
   int ok = 1;
   for (int which = 0; which < 2 && ok; ++which) {
      int dt = which ? DROPOUT_CUDA__F64 : DROPOUT_CUDA__F16;
      unsigned es = dropout_cuda__esize(dt);
      std::vector<unsigned char> hx(n * es), hr(n * es), hb(cols * es), hy(n * es), hw(n * es);
      std::vector<uint8_t> hm(nb), hmw(nb);
      unsigned char *dx, *dr, *db, *dy;
      uint8_t *dm;
      uint64_t *doff, *dseed;
      cudaStream_t cs;
      cudaGraph_t g;
      cudaGraphExec_t ge;
      CU(cudaStreamCreate(&cs));
      CU(cudaMalloc(&dx, n * es)); CU(cudaMalloc(&dr, n * es)); CU(cudaMalloc(&db, cols * es));
      CU(cudaMalloc(&dy, n * es)); CU(cudaMalloc(&dm, nb)); CU(cudaMalloc(&doff, 8)); CU(cudaMalloc(&dseed, 8));
      random_data(dt, hx.data(), n); random_data(dt, hr.data(), n); random_data(dt, hb.data(), cols);
      CU(cudaMemcpy(dx, hx.data(), n * es, cudaMemcpyHostToDevice));
      CU(cudaMemcpy(dr, hr.data(), n * es, cudaMemcpyHostToDevice));
      CU(cudaMemcpy(db, hb.data(), cols * es, cudaMemcpyHostToDevice));
      CU(cudaMemcpy(doff, &off0, 8, cudaMemcpyHostToDevice));
      CU(cudaMemcpy(dseed, &seed, 8, cudaMemcpyHostToDevice));
      dropout_desc d = graph_desc(DROPOUT_OP_BIAS_DROPOUT_ADD, which ? DROPOUT_DTYPE_F64 : DROPOUT_DTYPE_F16, 0.2,
                                  DROPOUT_BITS_8, 3, n, cols, dseed, doff);
      dropout_tensors t = {};
      t.out = dy; t.mask = dm; t.in = dx; t.bias = db; t.residual = dr;
      CU(cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal));
      int rc = dropout_cuda_run(&d, &t, cs);
      rc |= dropout_cuda_advance(doff, NULL, n, cs);
      CU(cudaStreamEndCapture(cs, &g));
      CU(cudaGraphInstantiate(&ge, g, 0));
      if (rc) { ok = 0; snprintf(why, sizeof why, "%s capture: rc %d", DTN[dt], rc); }
      for (int k = 0; k < 3 && ok; ++k) {
         CU(cudaGraphLaunch(ge, cs));
         CU(cudaStreamSynchronize(cs));
         CU(cudaMemcpy(hy.data(), dy, n * es, cudaMemcpyDeviceToHost));
         CU(cudaMemcpy(hm.data(), dm, nb, cudaMemcpyDeviceToHost));
         cpu_op(dt, DROPOUT_CUDA__FUSED, hw.data(), hmw.data(), hx.data(), NULL, hb.data(), hr.data(), n, cols, 0.2, 8, seed, 3, off0 + (uint64_t)k * n);
         if (first_diff(dt, hy.data(), hw.data(), n, 1) != n || memcmp(hm.data(), hmw.data(), nb)) {
            ok = 0; snprintf(why, sizeof why, "%s replay %d differs from the cpu at position %llu", DTN[dt], k, (unsigned long long)(off0 + k * n));
         }
      }
      cudaGraphExecDestroy(ge); cudaGraphDestroy(g); cudaStreamDestroy(cs);
      cudaFree(dx); cudaFree(dr); cudaFree(db); cudaFree(dy); cudaFree(dm); cudaFree(doff); cudaFree(dseed);
   }
   report("graph capture: fused f16 / f64 with device coordinates replay with advancing positions", ok, why);
}

int main(int argc, char **argv)
{
   int ndev = 0;
   small_run = argc > 1 && strcmp(argv[1], "small") == 0;
   if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
      printf("SKIP test_cuda: no CUDA device\n");
      return 0;
   }
   test_launchers();
   test_stream_vs_curand();
   test_graph();
   test_graph_fused();
   test_inplace();
   test_matrix();
   printf("%d passed, %d failed\n", n_pass, n_fail);
   return n_fail ? 1 : 0;
}
