/* opencl_vs_cpu.c - dropout_opencl.h against dropout.h's CPU functions, bit for bit.

   Every case runs the same descriptor (or fill) through dropout_run on the CPU and
   through dropout_opencl_run on the first OpenCL device, into buffers filled with the
   same guard pattern, and compares every byte, guards included (so nothing may be
   written outside the call's elements). Cases: every op and dtype, every draw width, p at
   0, 1 and between, sizes around the 32-element units and the work-group spans, first
   positions mid-block and at the end of the 2^64 positions, data and mask offsets that
   are not multiples of anything, several work-group sizes and group counts; strided,
   transposed, flipped and broadcast views; accumulated gradients; the raw stream; the
   refusals (buffers over overlapping host memory, access flags against what a call reads
   and writes). Also the Random123 known answers of Philox4x32 run as an OpenCL kernel.
   Prints PASS / FAIL / SKIP lines (SKIP when there is no OpenCL platform or device). */
#define DROPOUT_IMPLEMENTATION
#define DROPOUT_OPENCL_IMPLEMENTATION
#include "dropout_opencl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cl_context g_ctx;
static cl_device_id g_dev;
static cl_command_queue g_q;
static dropout_opencl g_ocl;
static int g_fail;

/* ---- a deterministic test-data generator (splitmix64) ------------------------------ */
static uint64_t g_rng = 0x243F6A8885A308D3u;
static uint64_t rnd(void)
{
   uint64_t z = (g_rng += 0x9E3779B97F4A7C15u);
   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
   z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
   return z ^ (z >> 31);
}

/* element bytes: ordinary values; specials 1 adds zeros and denormals, 2 also infinities
   and NaNs with payloads. The contract keeps NaN payloads through dropout, apply_mask and
   the mask; where two NaNs or infinities meet in an add (the fused op, the variants, an
   accumulated gradient) which payload or default NaN comes out is the hardware's choice
   (docs/SPEC.md), so those cases get specials 1. */
static void fill_data(unsigned char *p, size_t n, int dtype, int specials)
{
   size_t i;
   for (i = 0; i < n; ++i) {
      uint64_t r = rnd();
      int kind = specials == 2 ? (int)(r % 16u) : specials == 1 ? (r % 8u == 0 ? 0 : 15) : 15;
      if (dtype == DROPOUT_DTYPE_F32) {
         float v = (float)((double)(int64_t)(r >> 8) * 8.8817841970012523e-16);
         uint32_t u;
         memcpy(&u, &v, 4);
         if (kind == 0) u = (uint32_t)(r >> 40) & 0x807FFFFFu;   /* denormal or zero */
         if (kind == 1) u = 0x7F800000u | (uint32_t)(r & 0x80000000u);
         if (kind == 2) u = 0x7F800001u | (uint32_t)(r >> 41);   /* NaN with a payload */
         memcpy(p + 4 * i, &u, 4);
      } else if (dtype == DROPOUT_DTYPE_F64) {
         double v = (double)(int64_t)r * 8.6736173798840355e-19;
         uint64_t u;
         memcpy(&u, &v, 8);
         if (kind == 0) u = (r >> 12) | (r & 0x8000000000000000u);
         if (kind == 1) u = 0x7FF0000000000000u;
         if (kind == 2) u = 0x7FF0000000000001u | (r >> 14);
         memcpy(p + 8 * i, &u, 8);
      } else {
         uint16_t u = (uint16_t)(r >> 17);
         if (dtype == DROPOUT_DTYPE_F16) {
            u = (uint16_t)((u & 0x83FFu) | (((r >> 5) % 29u + 1u) << 10));   /* finite, normal */
            if (kind == 0) u &= 0x83FFu;
            if (kind == 1) u = 0x7C00u;
            if (kind == 2) u = (uint16_t)(0x7C01u | (r & 0x1FFu));
         } else {
            u = (uint16_t)((u & 0x807Fu) | (((r >> 5) % 60u + 97u) << 7));
            if (kind == 0) u &= 0x807Fu;
            if (kind == 1) u = 0x7F80u;
            if (kind == 2) u = (uint16_t)(0x7F81u | (r & 0x3Fu));
         }
         memcpy(p + 2 * i, &u, 2);
      }
   }
}

/* ---- OpenCL buffers mirrored on the host ----------------------------------------------- */
typedef struct Buf { cl_mem m; unsigned char *host, *back; size_t size; } Buf;

static int buf_make(Buf *b, size_t size)
{
   cl_int err;
   size_t i;
   b->size = size ? size : 1;
   b->host = (unsigned char *)malloc(b->size);
   b->back = (unsigned char *)malloc(b->size);
   for (i = 0; i < b->size; ++i) b->host[i] = (unsigned char)(0xA5u ^ (i * 7u));   /* guards */
   b->m = clCreateBuffer(g_ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, b->size, b->host, &err);
   return err == CL_SUCCESS && b->host && b->back ? 0 : -1;
}

static void buf_upload(Buf *b)
{
   clEnqueueWriteBuffer(g_q, b->m, CL_TRUE, 0, b->size, b->host, 0, NULL, NULL);
}

static int buf_same(Buf *b, size_t *at)
{
   size_t i;
   clEnqueueReadBuffer(g_q, b->m, CL_TRUE, 0, b->size, b->back, 0, NULL, NULL);
   for (i = 0; i < b->size; ++i)
      if (b->host[i] != b->back[i]) { *at = i; return 0; }
   return 1;
}

static void buf_free(Buf *b)
{
   if (b->m) clReleaseMemObject(b->m);
   free(b->host); free(b->back);
   memset(b, 0, sizeof *b);
}

/* ---- one descriptor case ------------------------------------------------------------------ */
typedef struct Case {
   int op, dtype, bits, grad, rank, bias_len;
   double p, sigma;
   uint64_t seed, stream, pos;
   size_t dims[DROPOUT_MAX_RANK];
   ptrdiff_t strides[3][DROPOUT_MAX_RANK];
   int strided[3];
   unsigned broadcast;
   int pstrided;           /* position strides (pstrides) instead of the row-major mask index */
   uint64_t pstrides[DROPOUT_MAX_RANK];
   size_t off[5];          /* elements of out, in, residual, bias; mask bytes */
   int with_mask, in_place, specials;
} Case;

static const char *op_name(int op)
{
   static const char *const names[] = { "?", "forward", "backward", "mask", "apply_mask", "alpha_forward",
                                        "alpha_backward", "gaussian", "noise", "bias_dropout_add" };
   return op >= 1 && op <= 9 ? names[op] : "?";
}
static const char *dtype_name(int dt)
{
   static const char *const names[] = { "?", "f32", "f64", "f16", "bf16" };
   return dt >= 1 && dt <= 4 ? names[dt] : "?";
}

/* extent in elements of an operand: [lo, hi] relative to element (0..0) */
static void extent(const Case *c, int w, int64_t *lo, int64_t *hi)
{
   int d;
   int64_t contig = 1;
   *lo = 0; *hi = 0;
   for (d = c->rank - 1; d >= 0; --d) {
      int64_t s = c->strided[w] ? (int64_t)c->strides[w][d] : contig;
      if (c->dims[d] == 0) { *lo = 0; *hi = -1; return; }
      if (s < 0) *lo += s * (int64_t)(c->dims[d] - 1); else *hi += s * (int64_t)(c->dims[d] - 1);
      contig *= (int64_t)c->dims[d];
   }
}

static char g_why[600];

/* 1 = same bits (or the same refusal), 0 = differ (g_why says how) */
static int run_case(const Case *c)
{
   dropout_rule rule;
   dropout_plan plan;
   dropout_desc d;
   dropout_tensors ht;
   dropout_opencl_tensors ot;
   Buf out, in, res, bias, mask;
   uint64_t positions = 0;
   size_t es = c->dtype == DROPOUT_DTYPE_F64 ? 8 : c->dtype == DROPOUT_DTYPE_F32 ? 4 : 2, at = 0;
   int64_t lo[3], hi[3];
   int rc_cpu, rc_ocl, ok = 1, w;
   size_t base[3], mbytes;
   int uses_in = c->op != DROPOUT_OP_MASK, uses_res = c->op == DROPOUT_OP_BIAS_DROPOUT_ADD;
   int uses_mask = c->op == DROPOUT_OP_MASK || c->op == DROPOUT_OP_APPLY_MASK || c->with_mask;
   memset(&out, 0, sizeof out); memset(&in, 0, sizeof in); memset(&res, 0, sizeof res);
   memset(&bias, 0, sizeof bias); memset(&mask, 0, sizeof mask);
   g_why[0] = 0;
   if (dropout_rule_init(&rule, c->p, (dropout_bits)c->bits)) return 2;   /* not a case: counted apart */
   {
      /* the plan's count is the positions the shape draws */
      size_t pcount = 1;
      for (w = 0; w < c->rank; ++w) pcount *= (c->broadcast >> w) & 1u ? 1u : c->dims[w];
      if (c->pstrided)   /* their span */
         for (pcount = 1, w = 0; w < c->rank; ++w) pcount += (size_t)c->pstrides[w] * (c->dims[w] - 1u);
      if ((c->op == DROPOUT_OP_GAUSSIAN || c->op == DROPOUT_OP_NOISE ? dropout_plan_at_normals : dropout_plan_at)(
             &plan, &rule, dropout_key_make(c->seed, c->stream), dropout_pos_make(c->pos), pcount)) return 2;
   }
   if (dropout_desc_init(&d, (dropout_op)c->op, (dropout_dtype)c->dtype, &plan)) return 2;
   if (c->rank != 1 || c->dims[0] != plan.count) {
      if (c->op == DROPOUT_OP_BIAS_DROPOUT_ADD && c->rank == 2 && !c->broadcast && !c->strided[0] && !c->strided[1] && !c->strided[2]) {
         if (dropout_desc_set_bias_len(&d, c->dims[1])) return 2;
      } else if (dropout_desc_set_shape(&d, c->rank, c->dims)) return 2;
   } else if (c->op == DROPOUT_OP_BIAS_DROPOUT_ADD) {
      if (dropout_desc_set_bias_len(&d, c->dims[0])) return 2;
   }
   for (w = 0; w < 3; ++w)
      if (c->strided[w] && dropout_desc_set_strides(&d, (dropout_operand)w, c->strides[w])) return 2;
   if (c->broadcast && dropout_desc_set_broadcast(&d, c->broadcast)) return 2;
   if (c->pstrided && dropout_desc_set_position_strides(&d, c->pstrides)) { snprintf(g_why, sizeof g_why, "position strides refused"); return 0; }
   if (c->pstrided && dropout_desc_set_mask_bytes(&d, (size_t)((plan.count + 7u) / 8u))) return 2;   /* the mask holds the span */
   if (c->grad && dropout_desc_set_grad(&d, DROPOUT_GRAD_ACCUMULATE)) return 2;
   if (c->op == DROPOUT_OP_NOISE && dropout_desc_set_sigma(&d, c->sigma)) return 2;
   dropout_desc_positions(&d, &positions);

   for (w = 0; w < 3; ++w) extent(c, w, &lo[w], &hi[w]);
   /* buffers: offset elements, then the extent; element (0..0) at base */
   base[0] = c->off[0] + (size_t)-lo[0];
   base[1] = c->off[1] + (size_t)-lo[1];
   base[2] = c->off[2] + (size_t)-lo[2];
   mbytes = c->off[4] + (size_t)(positions + 7u) / 8u + 3u;
   if (buf_make(&out, (base[0] + (size_t)(hi[0] + 1) + 3u) * es)) return 0;
   fill_data(out.host + c->off[0] * es, (size_t)(hi[0] - lo[0] + 1), c->dtype, c->specials);
   if (uses_in && !c->in_place) {
      buf_make(&in, (base[1] + (size_t)(hi[1] + 1) + 5u) * es);
      fill_data(in.host + c->off[1] * es, (size_t)(hi[1] - lo[1] + 1), c->dtype, c->specials);
   }
   if (uses_res) {
      buf_make(&res, (base[2] + (size_t)(hi[2] + 1) + 2u) * es);
      fill_data(res.host + c->off[2] * es, (size_t)(hi[2] - lo[2] + 1), c->dtype, c->specials);
      buf_make(&bias, (c->off[3] + c->dims[c->rank - 1] + 1u) * es);
      fill_data(bias.host + c->off[3] * es, c->dims[c->rank - 1], c->dtype, c->specials);
   }
   if (uses_mask) {
      buf_make(&mask, mbytes);
      if (c->op == DROPOUT_OP_APPLY_MASK) {   /* a stored mask: random bytes, the last one's spare bits too */
         size_t i;
         for (i = 0; i < (size_t)(positions + 7u) / 8u; ++i) mask.host[c->off[4] + i] = (unsigned char)rnd();
      }
   }
   buf_upload(&out);
   if (in.m) buf_upload(&in);
   if (res.m) { buf_upload(&res); buf_upload(&bias); }
   if (mask.m) buf_upload(&mask);

   memset(&ht, 0, sizeof ht); memset(&ot, 0, sizeof ot);
   ht.out = out.host + base[0] * es; ot.out = out.m; ot.out_offset = base[0] * es;
   if (uses_in) {
      if (c->in_place) { ht.in = ht.out; ot.in = out.m; ot.in_offset = base[0] * es; }
      else { ht.in = in.host + base[1] * es; ot.in = in.m; ot.in_offset = base[1] * es; }
   }
   if (uses_res) {
      ht.residual = res.host + base[2] * es; ot.residual = res.m; ot.residual_offset = base[2] * es;
      ht.bias = bias.host + c->off[3] * es; ot.bias = bias.m; ot.bias_offset = c->off[3] * es;
   }
   if (uses_mask) { ht.mask = mask.host + c->off[4]; ot.mask = mask.m; ot.mask_offset = c->off[4]; }

   rc_ocl = dropout_opencl_run(&g_ocl, &d, &ot, g_q);
   dropout_desc_replay(&d);   /* the CPU draws the same positions again: said so */
   rc_cpu = dropout_run(&d, &ht);
   clFinish(g_q);
   if (rc_cpu != rc_ocl) {
      snprintf(g_why, sizeof g_why, "CPU returned %d, OpenCL %d (%s)", rc_cpu, rc_ocl, g_ocl.message);
      ok = 0;
   } else {
      Buf *bufs[4];
      static const char *const names[4] = { "out", "mask", "in", "residual" };
      int k;
      bufs[0] = &out; bufs[1] = &mask; bufs[2] = &in; bufs[3] = &res;
      for (k = 0; k < 4 && ok; ++k) {
         if (!bufs[k]->m) continue;
         if (!buf_same(bufs[k], &at)) {
            /* the whole element, as a hex integer (little-endian bytes) */
            size_t e0 = k == 1 ? at : at - at % es, b, eb = k == 1 ? 1 : es;
            unsigned long long hc = 0, ho = 0;
            for (b = eb; b-- > 0;) { hc = hc << 8 | bufs[k]->host[e0 + b]; ho = ho << 8 | bufs[k]->back[e0 + b]; }
            snprintf(g_why, sizeof g_why, "%s byte %lu (element %ld from the base): CPU %0*llx, OpenCL %0*llx",
                     names[k], (unsigned long)at, k == 1 ? (long)at - (long)c->off[4] : (long)(at / es) - (long)base[k == 0 ? 0 : k == 2 ? 1 : 2],
                     (int)(2 * eb), hc, (int)(2 * eb), ho);
            ok = 0;
         }
      }
   }
   if (!ok) {
      size_t l = strlen(g_why);
      snprintf(g_why + l, sizeof g_why - l, " [%s %s bits %d p %.17g grad %d rank %d dims %lu,%lu,%lu bcast %x pstrides %d pos %llu off %lu,%lu,%lu,%lu mask %d inplace %d launch %lu x %lu%s]",
               op_name(c->op), dtype_name(c->dtype), c->bits, c->p, c->grad, c->rank,
               (unsigned long)c->dims[0], (unsigned long)(c->rank > 1 ? c->dims[1] : 0), (unsigned long)(c->rank > 2 ? c->dims[2] : 0),
               c->broadcast, c->pstrided, (unsigned long long)c->pos, (unsigned long)c->off[0], (unsigned long)c->off[1],
               (unsigned long)c->off[2], (unsigned long)c->off[4], c->with_mask, c->in_place,
               (unsigned long)g_ocl.local_size, (unsigned long)g_ocl.max_groups, g_ocl.direct ? " direct" : " staged");
   }
   buf_free(&out); buf_free(&in); buf_free(&res); buf_free(&bias); buf_free(&mask);
   return ok;
}

/* a group of cases: one PASS line with the count, or FAIL with the first difference */
/* a group of cases: one PASS line with the count, or FAIL with the first difference.
   run_case's 2: the drawn case is none (a p the width cannot realise, a setter's refusal of
   a combination): counted apart and said, never counted as a pass */
typedef struct Tally { const char *name; long cases, bad, none; char first[700]; } Tally;

static void tally(Tally *t, int r)
{
   if (r == 2) { ++t->none; return; }
   ++t->cases;
   if (!r && t->bad++ == 0) snprintf(t->first, sizeof t->first, "%s", g_why);
}

static void report(const Tally *t)
{
   char none[96] = "";
   if (t->none) snprintf(none, sizeof none, "; %ld more drawn were no case (a p or a combination refused), not run", t->none);
   if (t->bad) { printf("FAIL opencl %s: %ld of %ld cases differ; first: %s\n", t->name, t->bad, t->cases, t->first); g_fail = 1; }
   else if (!t->cases) { printf("FAIL opencl %s: no case ran%s\n", t->name, none); g_fail = 1; }
   else printf("PASS opencl %s (%ld cases, bit for bit with the CPU%s)\n", t->name, t->cases, none);
}

static const double g_ps[] = { 0.0, 1.0, 0.5, 0.1, 1.0 / 3.0, 0.9, 0.999, 0.0625 };
#define NPS (sizeof g_ps / sizeof g_ps[0])
static const size_t g_sizes[] = { 1, 7, 8, 31, 32, 33, 63, 65, 255, 257, 2047, 2048, 2049, 4111, 20000 };
#define NSIZES (sizeof g_sizes / sizeof g_sizes[0])
/* work-group sizes, group counts and the contiguous ops' layout (1 direct, 0 staged in
   local memory; few sizes: PoCL compiles a kernel once per size) */
static const size_t g_launch[][3] = { { 64, 0, 0 }, { 64, 0, 1 }, { 1, 1, 0 }, { 7, 5, 1 }, { 256, 1, 0 }, { 64, 1, 1 },
                                      { 1, 1000, 1 }, { 7, 2, 0 } };
#define NLAUNCH (sizeof g_launch / sizeof g_launch[0])

static uint64_t pick_pos(uint64_t n)
{
   switch (rnd() % 6u) {
   case 0: return 0;
   case 1: return rnd() % 64u;
   case 2: return UINT64_MAX - n + 1u;           /* ends at the last position */
   case 3: return UINT64_MAX - n + 1u - rnd() % 50u;
   case 4: return ((uint64_t)1 << 63) - rnd() % 20u;
   default: return rnd();
   }
}

static void set_launch(size_t i)
{
   dropout_opencl_set_launch(&g_ocl, g_launch[i][0], g_launch[i][1] ? g_launch[i][1] : 64);
   dropout_opencl_set_direct(&g_ocl, (int)g_launch[i][2]);
}

/* contiguous 1-D cases of one op and dtype */
static void contiguous(int op, int dtype, int grad)
{
   Tally t;
   char name[96];
   size_t si;
   int bits_i, p_i;
   memset(&t, 0, sizeof t);
   snprintf(name, sizeof name, "%s %s%s contiguous", op_name(op), dtype_name(dtype), grad ? " accumulate" : "");
   t.name = name;
   for (si = 0; si < NSIZES; ++si)
      for (bits_i = 0; bits_i < 3; ++bits_i)
         for (p_i = 0; p_i < (int)NPS; ++p_i) {
            Case c;
            if (op >= DROPOUT_OP_ALPHA_FORWARD && op != DROPOUT_OP_BIAS_DROPOUT_ADD && si % 3u != 0) continue;
            if ((op == DROPOUT_OP_GAUSSIAN || op == DROPOUT_OP_NOISE) && bits_i != 2) continue;
            if (op == DROPOUT_OP_GAUSSIAN && g_ps[p_i] >= 1.0) continue;
            memset(&c, 0, sizeof c);
            c.op = op; c.dtype = dtype; c.grad = grad;
            c.bits = 8 << bits_i; c.p = g_ps[p_i];
            c.sigma = p_i == 0 ? 0.0 : g_ps[p_i] * 3.0;
            c.seed = rnd(); c.stream = rnd() % 3u ? rnd() % 100u : rnd();
            c.rank = 1; c.dims[0] = g_sizes[si];
            c.pos = pick_pos(c.dims[0]);
            if (op == DROPOUT_OP_BIAS_DROPOUT_ADD) {
               size_t cols = 1u + rnd() % 40u;
               c.rank = 2; c.dims[1] = cols; c.dims[0] = (g_sizes[si] + cols - 1u) / cols;
               c.pos = pick_pos(c.dims[0] * cols);
            }
            c.off[0] = rnd() % 3u ? rnd() % 5u : 0; c.off[1] = rnd() % 7u; c.off[2] = rnd() % 3u;
            c.off[3] = rnd() % 4u; c.off[4] = rnd() % 2u ? rnd() % 9u : 0;
            c.with_mask = (int)(rnd() % 2u);
            c.in_place = op != DROPOUT_OP_MASK && rnd() % 5u == 0;
            c.specials = op <= DROPOUT_OP_APPLY_MASK && !grad ? 2 : 1;
            set_launch((size_t)(rnd() % NLAUNCH));
            tally(&t, run_case(&c));
         }
   set_launch(0);
   report(&t);
}

/* strided, transposed, flipped, zero-stride inputs and broadcast masks, rank 1 .. 4 */
static void views(int op, int dtype)
{
   Tally t;
   char name[96];
   int k;
   memset(&t, 0, sizeof t);
   snprintf(name, sizeof name, "%s %s views", op_name(op), dtype_name(dtype));
   t.name = name;
   for (k = 0; k < 60; ++k) {
      Case c;
      int dd, w;
      memset(&c, 0, sizeof c);
      c.op = op; c.dtype = dtype;
      c.bits = 8 << (rnd() % 3u);
      c.p = g_ps[rnd() % NPS];
      if (op == DROPOUT_OP_GAUSSIAN && c.p >= 1.0) c.p = 0.25;
      c.sigma = 0.5;
      c.seed = rnd(); c.stream = rnd() % 10u;
      c.rank = 1 + (int)(rnd() % 4u);
      for (dd = 0; dd < c.rank; ++dd) c.dims[dd] = 1u + rnd() % (c.rank > 2 ? 9u : 70u);
      if (k % 7 == 0) c.dims[(int)(rnd() % (uint64_t)c.rank)] = 1;
      if (op == DROPOUT_OP_BIAS_DROPOUT_ADD && k % 10 == 3) {   /* one bias element: the lowering drops its dim */
         if (c.rank == 1) { c.rank = 2; c.dims[0] = 1u + rnd() % 70u; }
         c.dims[c.rank - 1] = 1;
      }
      if (op != DROPOUT_OP_BIAS_DROPOUT_ADD && rnd() % 3u == 0) c.broadcast = (unsigned)(rnd() % (1u << c.rank));
      if (c.broadcast == (1u << c.rank) - 1u) c.broadcast = 0;
      if (!c.broadcast && op != DROPOUT_OP_BIAS_DROPOUT_ADD && rnd() % 3u == 0) {   /* position strides: half the time the last dim of more than one element steps 0 or 1, the rest nested with gaps */
         uint64_t pspan = 0;
         int inner;
         c.pstrided = 1;
         for (inner = c.rank - 1; inner >= 0 && c.dims[inner] <= 1; --inner) {}
         if (inner >= 0 && rnd() % 2u) { c.pstrides[inner] = rnd() % 5u ? 1u : 0u; pspan = c.pstrides[inner] * (c.dims[inner] - 1u); }
         else inner = -1;   /* every dim nested: a last dim stepping more than 1, rows of one element */
         for (dd = c.rank - 1; dd >= 0; --dd) {
            if (dd == inner) continue;
            c.pstrides[dd] = rnd() % 5u ? pspan + 1u + rnd() % 40u : 0u;
            pspan += c.pstrides[dd] * (c.dims[dd] - 1u);
         }
      }
      for (w = 0; w < 3; ++w) {
         /* a permutation of the dims with gaps, some flipped; inputs may be zero-stride (the
            residual's, w = 2, only where the op takes one: other ops refuse its strides) */
         int perm[DROPOUT_MAX_RANK], i;
         int64_t span = 1;
         if (rnd() % 3u == 0 || (w == 2 && op != DROPOUT_OP_BIAS_DROPOUT_ADD)) continue;
         c.strided[w] = 1;
         for (i = 0; i < c.rank; ++i) perm[i] = i;
         for (i = c.rank - 1; i > 0; --i) { int j = (int)(rnd() % (uint64_t)(i + 1)), tmp = perm[i]; perm[i] = perm[j]; perm[j] = tmp; }
         for (i = 0; i < c.rank; ++i) {
            int dim = perm[i];
            int64_t s = span * (int64_t)(1u + rnd() % 2u);
            if (rnd() % 4u == 0) s = -s;
            if (w > 0 && rnd() % 6u == 0) s = 0;
            c.strides[w][dim] = (ptrdiff_t)s;
            span = (s < 0 ? -s : s) * (int64_t)c.dims[dim] + span;
         }
      }
      c.pos = pick_pos(64);
      c.off[0] = rnd() % 3u; c.off[1] = rnd() % 3u; c.off[2] = rnd() % 3u; c.off[3] = rnd() % 3u; c.off[4] = rnd() % 5u;
      c.with_mask = (int)(rnd() % 2u);
      c.grad = (op == DROPOUT_OP_BACKWARD || op == DROPOUT_OP_APPLY_MASK || op == DROPOUT_OP_GAUSSIAN ||
                op == DROPOUT_OP_ALPHA_BACKWARD) && rnd() % 3u == 0;
      c.specials = op <= DROPOUT_OP_APPLY_MASK && !c.grad ? 2 : 1;
      set_launch((size_t)(rnd() % NLAUNCH));
      tally(&t, run_case(&c));
   }
   set_launch(0);
   report(&t);
}

/* ---- the raw stream --------------------------------------------------------------------- */
static void fills(void)
{
   static const char *const names[4] = { "fill_u32", "fill_uniform_f32", "fill_uniform_f64", "fill_normal_f32" };
   int kind;
   for (kind = 0; kind < 4; ++kind) {
      Tally t;
      char name[64];
      int k;
      memset(&t, 0, sizeof t);
      snprintf(name, sizeof name, "%s", names[kind]);
      t.name = name;
      for (k = 0; k < 80; ++k) {
         size_t n = k < 40 ? g_sizes[(size_t)k % NSIZES] : (size_t)(1u + rnd() % 3000u), es = kind == 2 ? 8 : 4, off = rnd() % 5u, at;
         uint64_t first = pick_pos(n);
         dropout_key key = dropout_key_make(rnd(), rnd() % 4u);
         Buf b;
         int rc_cpu, rc_ocl;
         if (kind == 2 && first + n > ((uint64_t)1 << 63)) first = rnd() % ((uint64_t)1 << 62);
         buf_make(&b, (off + n + 2u) * es);
         set_launch((size_t)(rnd() % NLAUNCH));
         rc_ocl = kind == 0 ? dropout_opencl_fill_u32(&g_ocl, key, dropout_pos_make(first), b.m, off * es, n, g_q)
                : kind == 1 ? dropout_opencl_fill_uniform_f32(&g_ocl, key, dropout_pos_make(first), b.m, off * es, n, g_q)
                : kind == 2 ? dropout_opencl_fill_uniform_f64(&g_ocl, key, dropout_pos_make(first), b.m, off * es, n, g_q)
                : dropout_opencl_fill_normal_f32(&g_ocl, key, dropout_pos_make(first), b.m, off * es, n, g_q);
         rc_cpu = kind == 0 ? dropout_fill_u32(key, dropout_pos_make(first), (uint32_t *)(void *)(b.host + off * es), n)
                : kind == 1 ? dropout_fill_uniform_f32(key, dropout_pos_make(first), (float *)(void *)(b.host + off * es), n)
                : kind == 2 ? dropout_fill_uniform_f64(key, dropout_pos_make(first), (double *)(void *)(b.host + off * es), n)
                : dropout_fill_normal_f32(key, dropout_pos_make(first), (float *)(void *)(b.host + off * es), n);
         clFinish(g_q);
         if (rc_cpu != rc_ocl) {
            snprintf(g_why, sizeof g_why, "n %lu first %llu: CPU %d, OpenCL %d (%s)", (unsigned long)n, (unsigned long long)first, rc_cpu, rc_ocl, g_ocl.message);
            tally(&t, 0);
         } else if (!buf_same(&b, &at)) {
            snprintf(g_why, sizeof g_why, "n %lu first %llu off %lu: byte %lu differs", (unsigned long)n, (unsigned long long)first, (unsigned long)off, (unsigned long)at);
            tally(&t, 0);
         } else tally(&t, 1);
         buf_free(&b);
      }
      set_launch(0);
      report(&t);
   }
}

/* ---- Random123's known answers, as a kernel of the user's own --------------------------- */
static void kat(void)
{
   static const uint32_t v[6][11] = {   /* rounds, ctr[4], key[2], out[4] */
      { 10, 0, 0, 0, 0, 0, 0, 0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u },
      { 10, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu },
      { 10, 0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u, 0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u },
      { 7, 0, 0, 0, 0, 0, 0, 0x5f6fb709u, 0x0d893f64u, 0x4f121f81u, 0x4f730a48u },
      { 7, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x5207ddc2u, 0x45165e59u, 0x4d8ee751u, 0x8c52f662u },
      { 7, 0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u, 0x4dfccabau, 0x190a87f0u, 0xc47362bau, 0xb6b5242au } };
   static const char *const kernel[] = {
      "__kernel void kat(__global const uint *in, __global uint *out)\n",
      "{\n",
      "   size_t i = get_global_id(0);\n",
      "   uint ctr[4], key[2], o[4], k;\n",
      "   for (k = 0; k < 4; ++k) ctr[k] = in[11 * i + 1 + k];\n",
      "   key[0] = in[11 * i + 5]; key[1] = in[11 * i + 6];\n",
      "   dropout_philox4x32_rounds(in[11 * i], ctr, key, o);\n",
      "   for (k = 0; k < 4; ++k) out[4 * i + k] = o[k];\n",
      "}\n" };
   const char *src[4096];   /* the program's lines and ours */
   size_t lines, i, nk = sizeof kernel / sizeof kernel[0];
   const char *const *lib = dropout_opencl_source(&lines);
   cl_int err;
   cl_program p;
   cl_kernel k;
   cl_mem in, out;
   uint32_t got[24];
   size_t global = 6;
   int bad = 0;
   if (lines + nk > sizeof src / sizeof src[0]) { printf("FAIL opencl kat: program too long for the test\n"); g_fail = 1; return; }
   for (i = 0; i < lines; ++i) src[i] = lib[i];
   for (i = 0; i < nk; ++i) src[lines + i] = kernel[i];
   p = clCreateProgramWithSource(g_ctx, (cl_uint)(lines + nk), src, NULL, &err);
   err = clBuildProgram(p, 1, &g_dev, g_ocl.fp64 ? "-DDROPOUT_OPENCL_FP64" : "", NULL, NULL);
   if (err != CL_SUCCESS) { printf("FAIL opencl kat: build error %d\n", (int)err); g_fail = 1; clReleaseProgram(p); return; }
   k = clCreateKernel(p, "kat", &err);
   in = clCreateBuffer(g_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof v, (void *)v, &err);
   out = clCreateBuffer(g_ctx, CL_MEM_WRITE_ONLY, sizeof got, NULL, &err);
   clSetKernelArg(k, 0, sizeof in, &in);
   clSetKernelArg(k, 1, sizeof out, &out);
   clEnqueueNDRangeKernel(g_q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
   clEnqueueReadBuffer(g_q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
   for (i = 0; i < 6; ++i)
      if (memcmp(got + 4 * i, v[i] + 7, 16)) {
         printf("FAIL opencl kat: philox4x32-%u vector %lu: got %08x %08x %08x %08x\n", v[i][0], (unsigned long)i,
                got[4 * i], got[4 * i + 1], got[4 * i + 2], got[4 * i + 3]);
         bad = g_fail = 1;
      }
   if (!bad) printf("PASS opencl kat: Random123's 6 Philox4x32 known answers (10 and 7 rounds) from an OpenCL kernel\n");
   clReleaseMemObject(in); clReleaseMemObject(out); clReleaseKernel(k); clReleaseProgram(p);
}

/* dropout_opencl_source() with one kernel appended, built with `options`: the build's code */
static cl_int build_own(const char *body, const char *options)
{
   const char *src[4096];   /* the program's lines and ours */
   size_t lines, i;
   const char *const *lib = dropout_opencl_source(&lines);
   cl_int err;
   cl_program p;
   if (lines + 1 > sizeof src / sizeof src[0]) return CL_OUT_OF_HOST_MEMORY;
   for (i = 0; i < lines; ++i) src[i] = lib[i];
   src[lines] = body;
   p = clCreateProgramWithSource(g_ctx, (cl_uint)(lines + 1), src, NULL, &err);
   if (err != CL_SUCCESS) return err;
   err = clBuildProgram(p, 1, &g_dev, options, NULL, NULL);
   clReleaseProgram(p);
   return err;
}

/* whether the compiler says -cl-finite-math-only (__FINITE_MATH_ONLY__ > 0), in a program
   of its own */
static int finite_math_said(void)
{
   const char *src = "#if defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__ > 0\n"
                     "__kernel void k(__global float *y) { y[0] = 1.0f; }\n"
                     "#else\n#error not said\n#endif\n";
   cl_int err;
   cl_program p = clCreateProgramWithSource(g_ctx, 1, &src, NULL, &err);
   if (err != CL_SUCCESS) return 1;
   err = clBuildProgram(p, 1, &g_dev, "-cl-finite-math-only", NULL, NULL);
   clReleaseProgram(p);
   return err == CL_SUCCESS;
}

/* Kernels of one's own on the library's building blocks: without DROPOUT_OPENCL_FP64 a call
   of a double building block (which would compute in float) does not build, nor does a
   program built with an option that changes float results; integer and float ones build. */
static void own_kernels(void)
{
   static const char *floats =
      "__kernel void k(__global float *y) { y[0] = dropout_apply_f32(y[0], 1, dropout_ocl_rule(1, 8, 2.0f, 0)); }\n";
   static const char *normal = "__kernel void k(__global float *y) { y[0] = dropout_normal_at(1, 2, 3); }\n";
   static const char *rule = "__kernel void k(__global ulong *y) { y[0] = dropout_rule_make(0.1, 32).threshold; }\n";
   cl_int plain = build_own(floats, ""), fast = build_own(floats, "-cl-fast-relaxed-math"),
          finite = build_own(floats, "-cl-finite-math-only"), n = build_own(normal, ""), r = build_own(rule, "");
   /* OpenCL defines __FAST_RELAXED_MATH__ for -cl-fast-relaxed-math; for -cl-finite-math-only
      it defines nothing, and only compilers that say so (clang's __FINITE_MATH_ONLY__, as
      in PoCL) can be refused. NVIDIA's driver says nothing: there the option builds. */
   const int says = finite_math_said();
   if (plain == CL_SUCCESS && fast != CL_SUCCESS && (finite != CL_SUCCESS) == says && n != CL_SUCCESS && r != CL_SUCCESS)
      printf("PASS opencl own kernels: without DROPOUT_OPENCL_FP64 dropout_normal_at and dropout_rule_make do not build (they would compute in float), nor does -cl-fast-relaxed-math%s; dropout_apply_f32 builds\n",
             says ? " or -cl-finite-math-only" : " (-cl-finite-math-only builds: this compiler does not define __FINITE_MATH_ONLY__, so it cannot be refused)");
   else {
      printf("FAIL opencl own kernels: build codes: plain %d, fast-relaxed %d, finite-only %d (the compiler says it: %d), normal without fp64 %d, rule_make without fp64 %d\n",
             (int)plain, (int)fast, (int)finite, says, (int)n, (int)r);
      g_fail = 1;
   }
}

/* ---- refusals ------------------------------------------------------------------------------ */
static void refusals(void)
{
   dropout_rule rule;
   dropout_plan plan;
   dropout_desc d;
   dropout_opencl_tensors t;
   dropout_opencl weak;
   Buf x, y, m;
   size_t at;
   int rc, ok = 1;
   char why[400] = "";
   dropout_rule_init(&rule, 0.25, DROPOUT_BITS_8);
   dropout_plan_at(&plan, &rule, dropout_key_make(7, 1), dropout_pos_make(0), 100);
   dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
   buf_make(&x, 404); buf_make(&y, 404); buf_make(&m, 13);
   memset(&t, 0, sizeof t);
   t.out = y.m; t.in = x.m;
   t.out_offset = 2;                                    /* not a multiple of 4 */
   rc = dropout_opencl_run(&g_ocl, &d, &t, g_q);
   if (rc != DROPOUT_ERR_OPENCL_OFFSET) { ok = 0; snprintf(why, sizeof why, "odd byte offset: %d", rc); }
   t.out_offset = 8;                                    /* 8 + 400 > 404 */
   rc = dropout_opencl_run(&g_ocl, &d, &t, g_q);
   if (ok && rc != DROPOUT_ERR_OPENCL_BOUNDS) { ok = 0; snprintf(why, sizeof why, "short buffer: %d", rc); }
   t.out_offset = 0; t.mask = m.m; t.mask_offset = 1;   /* 13 mask bytes from byte 1: one short */
   rc = dropout_opencl_run(&g_ocl, &d, &t, g_q);
   if (ok && rc != DROPOUT_ERR_OPENCL_BOUNDS) { ok = 0; snprintf(why, sizeof why, "short mask: %d", rc); }
   t.mask = NULL; t.mask_offset = 0; t.in = NULL;       /* dropout.h's own check: no input */
   rc = dropout_opencl_run(&g_ocl, &d, &t, g_q);
   if (ok && rc != DROPOUT_ERR_NULL_INPUT) { ok = 0; snprintf(why, sizeof why, "no input: %d", rc); }
   t.in = x.m;
   if (ok && dropout_opencl_run(NULL, &d, &t, g_q) != DROPOUT_ERR_OPENCL_CTX) { ok = 0; snprintf(why, sizeof why, "NULL ctx"); }
   /* a NULL names its argument with the CPU's code (the queue has none of its own) */
   if (ok && (dropout_opencl_run(&g_ocl, NULL, &t, g_q) != DROPOUT_ERR_NULL_DESC || dropout_opencl_run(&g_ocl, &d, NULL, g_q) != DROPOUT_ERR_NULL_TENSORS ||
              dropout_opencl_run(&g_ocl, &d, &t, NULL) != DROPOUT_ERR_NULL ||
              dropout_opencl_fill_u32(&g_ocl, dropout_key_make(1, 2), dropout_pos_make(0), NULL, 0, 4, g_q) != DROPOUT_ERR_NULL_OUTPUT)) {
      ok = 0; snprintf(why, sizeof why, "a NULL descriptor, tensors, queue or fill output: not the CPU's code");
   }
   {   /* CUDA-graph device coordinates mean nothing here */
      static const uint64_t fake = 0;
      dropout_desc dc = d;
      dropout_desc_set_device_coords(&dc, &fake, &fake);
      rc = dropout_opencl_run(&g_ocl, &dc, &t, g_q);
      if (ok && rc != DROPOUT_ERR_DEVICE_COORDS) { ok = 0; snprintf(why, sizeof why, "device coordinates: %d", rc); }
   }
   if (ok) {   /* n whose bytes wrap 2^64 (the bounds check had passed, and the fill wrote past the buffer) */
      rc = dropout_opencl_fill_u32(&g_ocl, dropout_key_make(1, 2), dropout_pos_make(0), y.m, 0, SIZE_MAX / 4u + 2u, g_q);
      if (rc != DROPOUT_ERR_SIZE) { ok = 0; snprintf(why, sizeof why, "fill of SIZE_MAX / 4 + 2 words: %d", rc); }
   }
   if (ok) {   /* a call wrong in two ways gets the CPU fill's code: the count is checked first, then
                  the output, then the range (OpenCL checked the count last: RANGE, NULL_OUTPUT) */
      static uint32_t host[4];
      const dropout_key k12 = dropout_key_make(1, 2);
      const size_t n4 = (size_t)PTRDIFF_MAX / 4u + 2u, n8 = (size_t)PTRDIFF_MAX / 8u + 2u;
      const dropout_pos end = dropout_pos_make(UINT64_MAX - 10u), zero = dropout_pos_make(0), mid = dropout_pos_make(((uint64_t)1 << 63) - 5u);
      const int c1 = dropout_fill_u32(k12, end, host, n4), o1 = dropout_opencl_fill_u32(&g_ocl, k12, end, y.m, 0, n4, g_q);
      const int c2 = dropout_fill_u32(k12, zero, NULL, n4), o2 = dropout_opencl_fill_u32(&g_ocl, k12, zero, NULL, 0, n4, g_q);
      const int c3 = dropout_fill_uniform_f64(k12, mid, (double *)(void *)host, n8),
                o3 = dropout_opencl_fill_uniform_f64(&g_ocl, k12, mid, y.m, 0, n8, g_q);
      if (c1 != o1 || c2 != o2 || c3 != o3 || c1 != DROPOUT_ERR_SIZE) {
         ok = 0; snprintf(why, sizeof why, "a fill too long and past the stream / without an output: CPU %d %d %d, OpenCL %d %d %d", c1, c2, c3, o1, o2, o3);
      }
   }
   if (ok && sizeof(size_t) >= 8) {   /* a mask of 2^64 - 1 positions, its plan filled by hand: its bytes (+ 7)
                                         had wrapped to 0 here; refused as dropout_plan_at refuses such a count */
      static const size_t dims[7] = { 3, 5, 17, 257, 641, 65537, 6700417 };   /* their product: 2^64 - 1 */
      dropout_desc dm;
      dropout_opencl_tensors tm;
      memset(&tm, 0, sizeof tm);
      tm.mask = m.m;
      dropout_desc_init(&dm, DROPOUT_OP_MASK, DROPOUT_DTYPE_F32, &plan);
      dropout_desc_set_shape(&dm, 7, dims);
      dm.dropout__plan.count = UINT64_MAX;
      if ((rc = dropout_opencl_run(&g_ocl, &dm, &tm, g_q)) != DROPOUT_ERR_SIZE) {
         ok = 0; snprintf(why, sizeof why, "a mask of 2^64 - 1 positions (a plan filled by hand) into 13 bytes: %d", rc);
      }
   }
   if (ok) {   /* a read-only output, and an output of another context: refused before any launch */
      cl_int err;
      cl_mem ro = clCreateBuffer(g_ctx, CL_MEM_READ_ONLY, 404, NULL, &err);
      cl_context other = clCreateContext(NULL, 1, &g_dev, NULL, NULL, &err);
      cl_mem foreign = other ? clCreateBuffer(other, CL_MEM_READ_WRITE, 404, NULL, &err) : NULL;
      dropout_opencl_tensors tr;
      memset(&tr, 0, sizeof tr);
      tr.in = x.m; tr.out = ro;
      if (ro && (rc = dropout_opencl_run(&g_ocl, &d, &tr, g_q)) != DROPOUT_ERR_OPENCL_BASE + CL_INVALID_MEM_OBJECT) {
         ok = 0; snprintf(why, sizeof why, "a CL_MEM_READ_ONLY output: %d", rc);
      }
      tr.out = y.m; tr.mask = m.m; tr.in = foreign;
      if (ok && foreign && (rc = dropout_opencl_run(&g_ocl, &d, &tr, g_q)) != DROPOUT_ERR_OPENCL_BASE + CL_INVALID_CONTEXT) {
         ok = 0; snprintf(why, sizeof why, "an input of another context: %d", rc);
      }
      if (foreign) clReleaseMemObject(foreign);
      if (other) clReleaseContext(other);
      if (ro) clReleaseMemObject(ro);
   }
   if (ok) {   /* sub-buffers of one buffer alias its bytes: overlapping ones are refused as offsets in one buffer are */
      cl_uint align_bits = 0;
      size_t a, sz;
      cl_int err;
      Buf whole;
      cl_buffer_region r1, r2, r3;
      cl_mem s_in, s_out, s_mask;
      clGetDeviceInfo(g_dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
      a = align_bits >= 8 ? align_bits / 8u : 128u;
      sz = a * ((400u + a - 1u) / a + 1u);              /* at least 100 floats, more than one alignment */
      buf_make(&whole, a + sz);
      r1.origin = 0; r1.size = sz;                      /* in:  [0, sz) */
      r2.origin = a; r2.size = sz;                      /* out: [a, a + sz): overlaps in */
      r3.origin = a; r3.size = a;                       /* out's first bytes */
      s_in = clCreateSubBuffer(whole.m, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
      s_out = clCreateSubBuffer(whole.m, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
      s_mask = clCreateSubBuffer(whole.m, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r3, &err);
      if (!s_in || !s_out || !s_mask) {
         ok = 0; snprintf(why, sizeof why, "clCreateSubBuffer failed (%d; alignment %lu bytes)", (int)err, (unsigned long)a);
      } else {
         dropout_opencl_tensors ts;
         memset(&ts, 0, sizeof ts);
         /* the bytes the call touches must overlap: out's are [a, a + 400), and from in's
            offset a - 4 in's are [a - 4, a + 396). (From offset 0 they would be [0, 400), apart
            from out's where the alignment a is 400 bytes or more: on NVIDIA's driver the
            call ran, rightly.) */
         ts.out = s_out; ts.in = s_in; ts.in_offset = a - 4u;
         rc = dropout_opencl_run(&g_ocl, &d, &ts, g_q);
         if (rc != DROPOUT_ERR_OVERLAP) { ok = 0; snprintf(why, sizeof why, "out and in as overlapping sub-buffers: %d", rc); }
         /* OpenCL leaves a command on a buffer and its sub-buffer undefined (only reading both
            is defined), and on two sub-buffers that overlap: refused whatever bytes the call
            touches (a driver with a device copy per cl_mem would leave one stale) */
         ts.in_offset = 0; ts.out = s_mask; ts.in = whole.m; ts.out_offset = 0;
         if (ok && (rc = dropout_opencl_run(&g_ocl, &d, &ts, g_q)) != DROPOUT_ERR_OVERLAP) {
            ok = 0; snprintf(why, sizeof why, "out a sub-buffer of in: %d", rc);
         }
         ts.out = s_out; ts.in = s_in;   /* in's first 100 floats, out's: bytes apart when a >= 400, the objects overlap */
         if (ok && (rc = dropout_opencl_run(&g_ocl, &d, &ts, g_q)) != DROPOUT_ERR_OVERLAP) {
            ok = 0; snprintf(why, sizeof why, "out and in as overlapping sub-buffers, bytes touched apart or not: %d", rc);
         }
         ts.in = x.m; ts.out = y.m; ts.mask = s_in;        /* the mask a sub-buffer of another buffer: runs */
         if (ok && (rc = dropout_opencl_run(&g_ocl, &d, &ts, g_q)) != DROPOUT_OK) {
            ok = 0; snprintf(why, sizeof why, "a mask in a sub-buffer apart from out and in: %d", rc);
         }
         clFinish(g_q);
         /* that run drew its plan's mask: the same call again is refused (as dropout_run),
            until a replay says the same mask is wanted */
         if (ok && (rc = dropout_opencl_run(&g_ocl, &d, &ts, g_q)) != DROPOUT_ERR_PLAN_RAN) {
            ok = 0; snprintf(why, sizeof why, "a second forward of one plan: %d", rc);
         }
         ts.out_offset = 2;   /* the arguments first, this file's included, as dropout_run orders them */
         if (ok && (rc = dropout_opencl_run(&g_ocl, &d, &ts, g_q)) != DROPOUT_ERR_OPENCL_OFFSET) {
            ok = 0; snprintf(why, sizeof why, "an odd offset on a spent plan: %d, not the offset's code", rc);
         }
         ts.out_offset = 0;
         dropout_desc_replay(&d);
         buf_upload(&y); buf_upload(&whole);               /* (that run wrote y and the mask: the guards again) */
         ts.in = x.m; ts.out = s_out; ts.mask = s_mask;    /* the mask over out's bytes */
         if (ok && (rc = dropout_opencl_run(&g_ocl, &d, &ts, g_q)) != DROPOUT_ERR_OVERLAP) {
            ok = 0; snprintf(why, sizeof why, "a mask sub-buffer over out's sub-buffer: %d", rc);
         }
         clFinish(g_q);
         if (ok && !buf_same(&whole, &at)) { ok = 0; snprintf(why, sizeof why, "a refused sub-buffer call wrote byte %lu", (unsigned long)at); }
      }
      if (s_in) clReleaseMemObject(s_in);
      if (s_out) clReleaseMemObject(s_out);
      if (s_mask) clReleaseMemObject(s_mask);
      buf_free(&whole);
   }
   {  /* an image is not a buffer: refused before anything is enqueued (a driver that refused
         it at the element launch's argument would have had the mask written) */
      cl_image_format fmt;
      cl_image_desc idesc;
      cl_mem img;
      cl_int e;
      const dropout_opencl_tensors kept = t;   /* the weak device's check below runs with t */
      fmt.image_channel_order = CL_R; fmt.image_channel_data_type = CL_FLOAT;
      memset(&idesc, 0, sizeof idesc);
      idesc.image_type = CL_MEM_OBJECT_IMAGE2D; idesc.image_width = 100; idesc.image_height = 1;
      img = clCreateImage(g_ctx, CL_MEM_READ_WRITE, &fmt, &idesc, NULL, &e);
      if (e == CL_SUCCESS) {
         memset(&t, 0, sizeof t);
         t.out = img; t.in = x.m; t.mask = m.m;
         dropout_desc_replay(&d);
         rc = dropout_opencl_run(&g_ocl, &d, &t, g_q);
         if (ok && rc != DROPOUT_ERR_OPENCL_BASE + CL_INVALID_MEM_OBJECT) { ok = 0; snprintf(why, sizeof why, "an image as out: %d", rc); }
         clReleaseMemObject(img);
      } else printf("    (no 2-D float image on this device, %d: the image refusal not checked)\n", (int)e);
      t = kept;
   }
   clFinish(g_q);
   if (ok && (!buf_same(&x, &at) || !buf_same(&y, &at) || !buf_same(&m, &at))) { ok = 0; snprintf(why, sizeof why, "a refused call wrote"); }
   if (ok) printf("PASS opencl refusals: odd offsets, short buffers, a missing input, no context, device coordinates, a plan's second forward, a fill and a mask whose bytes wrap 2^64, overlapping sub-buffers, a read-only output, a buffer of another context and an image are refused, nothing written\n");
   else { printf("FAIL opencl refusals: %s\n", why); g_fail = 1; }

   /* a device that would flush denormals or has no fp64: refused, never other bits */
   rc = dropout_opencl_init(&weak, g_ctx, g_dev, DROPOUT_OPENCL_WITHOUT_FP64 | DROPOUT_OPENCL_WITHOUT_DENORM);
   if (rc) { printf("FAIL opencl weak device: init %d: %s\n", rc, weak.message); g_fail = 1; }
   else {
      dropout_desc dm, d64;
      int r1, r2, r3, r4;
      dropout_desc_init(&dm, DROPOUT_OP_MASK, DROPOUT_DTYPE_F32, &plan);
      dropout_desc_init(&d64, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F64, &plan);
      r1 = dropout_opencl_run(&weak, &d, &t, g_q);
      memset(&t, 0, sizeof t); t.mask = m.m;
      r2 = dropout_opencl_run(&weak, &dm, &t, g_q);
      memset(&t, 0, sizeof t); t.out = y.m; t.in = x.m;
      r3 = dropout_opencl_run(&weak, &d64, &t, g_q);
      r4 = dropout_opencl_fill_normal_f32(&weak, dropout_key_make(1, 2), dropout_pos_make(0), y.m, 0, 10, g_q);
      clFinish(g_q);
      if (r1 == DROPOUT_ERR_OPENCL_FP && r2 == DROPOUT_OK && r3 == DROPOUT_ERR_OPENCL_FP64 && r4 == DROPOUT_ERR_OPENCL_FP64 && strstr(weak.message, "cl_khr_fp64"))
         printf("PASS opencl weak device: without denormals f32 forward is refused (%d), the mask runs; without fp64 f64 and normals are refused (%d)\n", r1, r3);
      else { printf("FAIL opencl weak device: codes %d %d %d %d (%s)\n", r1, r2, r3, r4, weak.message); g_fail = 1; }
      dropout_opencl_release(&weak);
   }
   buf_free(&x); buf_free(&y); buf_free(&m);
}

/* ---- what a user can get wrong around a run (each once refused with another code, or
   crashed) -------------------------------------------------------------------------------- */
/* a copy of the ctx (its kernels are the original's, which release frees: a run on the copy
   after that crashed) is refused and releases nothing; unknown init flags are refused; an
   offset past its buffer's end (a negative one in a size_t) is BOUNDS, not NULL or OVERLAP;
   apply_mask's stored mask over the same memory as its input (both only read) runs, as
   dropout_run takes it, with dropout_run's bytes; strerror says a refusal with an OpenCL
   code is one */
static void user_mistakes(void)
{
   enum { N = 64 };
   dropout_rule rule;
   dropout_plan plan;
   dropout_desc d;
   dropout_opencl_tensors t;
   dropout_opencl copy, unknown;
   Buf x, y;
   size_t at = 0;
   int rc, ok = 1;
   char why[800] = "";
   float yh[N];
   dropout_rule_init(&rule, 0.5, DROPOUT_BITS_16);
   dropout_plan_at(&plan, &rule, dropout_key_make(11, 3), dropout_pos_make(5), N);
   dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
   buf_make(&x, N * 4); buf_make(&y, N * 4);
   memset(&t, 0, sizeof t); t.out = y.m; t.in = x.m;
   /* the copy: refused, its message says so; its release leaves the original running */
   copy = g_ocl;
   rc = dropout_opencl_run(&copy, &d, &t, g_q);
   if (rc != DROPOUT_ERR_OPENCL_CTX || !strstr(copy.message, "copy")) { ok = 0; snprintf(why, sizeof why, "a copy of the ctx: %d (%s)", rc, copy.message); }
   if (ok && (dropout_opencl_set_launch(&copy, 32, 0) != DROPOUT_ERR_OPENCL_CTX || dropout_opencl_set_direct(&copy, 1) != DROPOUT_ERR_OPENCL_CTX)) {
      ok = 0; snprintf(why, sizeof why, "a copy of the ctx: set_launch or set_direct accepted");
   }
   dropout_opencl_release(&copy);
   if (ok && (rc = dropout_opencl_run(&g_ocl, &d, &t, g_q)) != DROPOUT_OK) { ok = 0; snprintf(why, sizeof why, "the original after its copy's release: %d (%s)", rc, g_ocl.message); }
   clFinish(g_q);
   /* unknown flags */
   if (ok && ((rc = dropout_opencl_init(&unknown, g_ctx, g_dev, 0x10080u)) != DROPOUT_ERR_ARG || !strstr(unknown.message, "flags"))) {
      ok = 0; snprintf(why, sizeof why, "init with flags 0x10080: %d", rc);
      if (rc == DROPOUT_OK) dropout_opencl_release(&unknown);
   }
   /* offsets past the end, nothing written */
   {
      const size_t bad[3] = { (size_t)0 - 4u, (size_t)1 << 40, (size_t)0 - ((size_t)1 << 57) };
      int w, k;
      buf_upload(&y);
      for (w = 0; ok && w < 2; ++w)
         for (k = 0; ok && k < 3; ++k) {
            memset(&t, 0, sizeof t); t.out = y.m; t.in = x.m;
            if (w) t.in_offset = bad[k]; else t.out_offset = bad[k];
            rc = dropout_opencl_run(&g_ocl, &d, &t, g_q);
            if (rc != DROPOUT_ERR_OPENCL_BOUNDS || !strstr(g_ocl.message, "past its end")) {
               ok = 0; snprintf(why, sizeof why, "%s_offset %zu: %d (%s)", w ? "in" : "out", bad[k], rc, g_ocl.message);
            }
         }
      clFinish(g_q);
      if (ok && !buf_same(&y, &at)) { ok = 0; snprintf(why, sizeof why, "a refused offset wrote y (byte %zu)", at); }
   }
   /* apply_mask: the mask a sub-buffer of in's buffer, past in's elements (both only read) */
   if (ok) {
      cl_uint bits = 0;
      size_t a, i;
      cl_int e;
      cl_buffer_region r;
      cl_mem whole, sub;
      static unsigned char host[4096 + 256];
      dropout_desc da;
      dropout_tensors ht;
      clGetDeviceInfo(g_dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
      a = bits / 8u ? bits / 8u : 1u;
      r.origin = ((N * 4 + a - 1) / a) * a; r.size = N / 8;
      for (i = 0; i < sizeof host; ++i) host[i] = (unsigned char)(i * 37u + 11u);
      for (i = 0; i < N; ++i) { float v = (float)i - 20.5f; memcpy(host + 4 * i, &v, 4); }
      whole = clCreateBuffer(g_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, r.origin + r.size, host, &e);
      sub = e == CL_SUCCESS ? clCreateSubBuffer(whole, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &e) : NULL;
      if (e != CL_SUCCESS || r.origin + r.size > sizeof host) { ok = 0; snprintf(why, sizeof why, "apply_mask alias: buffers: %d", (int)e); }
      else {
         dropout_desc_init(&da, DROPOUT_OP_APPLY_MASK, DROPOUT_DTYPE_F32, &plan);
         memset(&t, 0, sizeof t); t.out = y.m; t.in = whole; t.mask = sub;
         rc = dropout_opencl_run(&g_ocl, &da, &t, g_q);
         memset(&ht, 0, sizeof ht); ht.out = yh; ht.in = host; ht.mask = host + r.origin;
         if (rc != DROPOUT_OK || dropout_run(&da, &ht) != DROPOUT_OK) { ok = 0; snprintf(why, sizeof why, "apply_mask, mask a sub-buffer of in: %d (%s)", rc, g_ocl.message); }
         else {
            clEnqueueReadBuffer(g_q, y.m, CL_TRUE, 0, N * 4, y.back, 0, NULL, NULL);
            if (memcmp(y.back, yh, N * 4)) { ok = 0; snprintf(why, sizeof why, "apply_mask, mask a sub-buffer of in: not dropout_run's bytes"); }
         }
      }
      if (sub) clReleaseMemObject(sub);
      if (whole) clReleaseMemObject(whole);
   }
   if (ok && (!strstr(dropout_opencl_strerror(DROPOUT_ERR_OPENCL_BASE + CL_INVALID_CONTEXT), "refused") ||
              strstr(dropout_opencl_strerror(DROPOUT_ERR_OPENCL_BASE), "OpenCL call"))) {
      ok = 0; snprintf(why, sizeof why, "strerror of an OpenCL code: '%s'", dropout_opencl_strerror(DROPOUT_ERR_OPENCL_BASE + CL_INVALID_CONTEXT));
   }
   if (ok) printf("PASS opencl user mistakes: a copy of the ctx refused (its release frees nothing), unknown init flags refused, offsets past their buffer BOUNDS (nothing written), apply_mask's mask over its input's memory runs with dropout_run's bytes\n");
   else { printf("FAIL opencl user mistakes: %s\n", why); g_fail = 1; }
   /* a queue of a sub-device of ctx's device (clCreateSubDevices) runs ctx's program: taken,
      with dropout_run's bytes */
   {
      cl_device_partition_property props[] = { CL_DEVICE_PARTITION_EQUALLY, 1, 0 };
      cl_device_id sub[64];
      cl_uint nsub = 0;
      cl_int e = clCreateSubDevices(g_dev, props, 64, sub, &nsub);
      if (e != CL_SUCCESS || nsub == 0) printf("SKIP opencl sub-device queue: the device makes no sub-devices (%d)\n", (int)e);
      else {
         cl_command_queue qs = clCreateCommandQueue(g_ctx, sub[0], 0, &e);
         dropout_tensors ht;
         float xh[N];
         size_t i;
         cl_uint k;
         for (i = 0; i < N; ++i) xh[i] = (float)i * 0.37f - 10.0f;
         clEnqueueWriteBuffer(g_q, x.m, CL_TRUE, 0, N * 4, xh, 0, NULL, NULL);
         dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
         memset(&t, 0, sizeof t); t.out = y.m; t.in = x.m;
         rc = e == CL_SUCCESS ? dropout_opencl_run(&g_ocl, &d, &t, qs) : (int)e;
         if (rc == DROPOUT_OK) clEnqueueReadBuffer(qs, y.m, CL_TRUE, 0, N * 4, y.back, 0, NULL, NULL);
         dropout_desc_replay(&d);
         memset(&ht, 0, sizeof ht); ht.out = yh; ht.in = xh;
         if (rc != DROPOUT_OK || dropout_run(&d, &ht) != DROPOUT_OK || memcmp(y.back, yh, N * 4))
            { printf("FAIL opencl sub-device queue: rc %d (%s), or not dropout_run's bytes\n", rc, g_ocl.message); g_fail = 1; }
         else printf("PASS opencl sub-device queue: a queue of a sub-device of ctx's device runs, with dropout_run's bytes\n");
         if (e == CL_SUCCESS) clReleaseCommandQueue(qs);
         for (k = 0; k < nsub; ++k) clReleaseDevice(sub[k]);
      }
   }
   buf_free(&x); buf_free(&y);
}

/* ---- buffers over host memory (CL_MEM_USE_HOST_PTR) --------------------------------------- */
/* two buffers made over overlapping host memory share bytes, as two sub-buffers do: an output
   partly over its input, or a mask over the output, is refused as dropout_run refuses the
   same pointers, nothing written; the same host bytes exactly (in place) and two ranges that
   only touch run, the in-place one byte for byte as dropout_run */
static int host_same(cl_mem b, const unsigned char *want, size_t size, unsigned char *scratch, size_t *at)
{
   size_t i;
   if (clEnqueueReadBuffer(g_q, b, CL_TRUE, 0, size, scratch, 0, NULL, NULL) != CL_SUCCESS) { *at = 0; return 0; }
   for (i = 0; i < size; ++i)
      if (scratch[i] != want[i]) { *at = i; return 0; }
   return 1;
}

static void host_aliases(void)
{
   enum { N = 1024, SHIFT = 16 };   /* out starts 16 floats (64 bytes) after in */
   const size_t bytes = (N + SHIFT) * 4u, mbytes = N / 8u;
   dropout_rule rule;
   dropout_plan plan, half;
   dropout_desc d;
   dropout_opencl_tensors t;
   dropout_tensors ht;
   unsigned char *host, *keep, *want, *scratch;
   cl_mem b_in = NULL, b_out = NULL, b_mask = NULL;
   cl_int err;
   size_t at = 0;
   int rc, ok = 1;
   Buf x;
   char why[800] = "";
   if (sizeof(void *) < 8) {
      printf("SKIP opencl host memory: a 32-bit host (buffers over host memory are told apart by their cl_mem only)\n");
      return;
   }
   host = (unsigned char *)malloc(bytes); keep = (unsigned char *)malloc(bytes);
   want = (unsigned char *)malloc(bytes); scratch = (unsigned char *)malloc(bytes);
   buf_make(&x, N * 4u);
   fill_data(host, N + SHIFT, DROPOUT_DTYPE_F32, 0);
   memcpy(keep, host, bytes);
   dropout_rule_init(&rule, 0.5, DROPOUT_BITS_16);
   dropout_plan_at(&plan, &rule, dropout_key_make(7, 1), dropout_pos_make(0), N);
   dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
   memset(&ht, 0, sizeof ht);
   ht.in = host; ht.out = host + SHIFT * 4u;
   if ((rc = dropout_run(&d, &ht)) != DROPOUT_ERR_OVERLAP) { ok = 0; snprintf(why, sizeof why, "dropout_run, out 16 floats past in: %d", rc); }
   b_in = clCreateBuffer(g_ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, N * 4u, host, &err);
   b_out = clCreateBuffer(g_ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, N * 4u, host + SHIFT * 4u, &err);
   b_mask = clCreateBuffer(g_ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, mbytes, host + bytes - mbytes, &err);   /* out's last bytes */
   if (ok && (!b_in || !b_out || !b_mask)) { ok = 0; snprintf(why, sizeof why, "clCreateBuffer(CL_MEM_USE_HOST_PTR) failed: %d", (int)err); }
   memset(&t, 0, sizeof t);
   t.in = b_in; t.out = b_out;
   if (ok && (rc = dropout_opencl_run(&g_ocl, &d, &t, g_q)) != DROPOUT_ERR_OVERLAP) {
      ok = 0; snprintf(why, sizeof why, "out and in over host memory 16 floats apart: %d, want %d (DROPOUT_ERR_OVERLAP)", rc, DROPOUT_ERR_OVERLAP);
   }
   t.in = x.m; t.mask = b_mask;
   if (ok && (rc = dropout_opencl_run(&g_ocl, &d, &t, g_q)) != DROPOUT_ERR_OVERLAP) {
      ok = 0; snprintf(why, sizeof why, "a mask over the output's host memory: %d, want %d (DROPOUT_ERR_OVERLAP)", rc, DROPOUT_ERR_OVERLAP);
   }
   clFinish(g_q);
   if (ok && (!host_same(b_in, keep, N * 4u, scratch, &at) || !host_same(b_out, keep + SHIFT * 4u, N * 4u, scratch, &at))) {
      ok = 0; snprintf(why, sizeof why, "a refused call over host memory wrote (byte %lu of a buffer)", (unsigned long)at);
   }
   if (b_out) clReleaseMemObject(b_out);
   if (b_mask) clReleaseMemObject(b_mask);
   b_mask = NULL;
   /* a second buffer over the same host bytes exactly: OpenCL leaves commands on two
      buffers over overlapping host memory undefined (a driver may copy each to the device),
      so this "in place" is refused too; in place is one cl_mem as in and out */
   b_out = clCreateBuffer(g_ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, N * 4u, host, &err);
   t.in = b_in; t.out = b_out; t.mask = NULL;
   if (ok && (rc = dropout_opencl_run(&g_ocl, &d, &t, g_q)) != DROPOUT_ERR_OVERLAP) {
      ok = 0; snprintf(why, sizeof why, "in place through two buffers over the same host memory: %d, want %d (DROPOUT_ERR_OVERLAP)", rc, DROPOUT_ERR_OVERLAP);
   }
   t.in = b_in; t.out = b_in;
   if (ok && (rc = dropout_opencl_run(&g_ocl, &d, &t, g_q)) != DROPOUT_OK) {
      ok = 0; snprintf(why, sizeof why, "in place in one buffer over host memory: %d (%s)", rc, g_ocl.message);
   }
   clFinish(g_q);
   if (ok) {
      memcpy(want, keep, bytes);
      dropout_desc_replay(&d);
      ht.in = want; ht.out = want;
      if ((rc = dropout_run(&d, &ht)) != DROPOUT_OK) { ok = 0; snprintf(why, sizeof why, "dropout_run in place: %d", rc); }
      else if (!host_same(b_in, want, N * 4u, scratch, &at)) {
         ok = 0; snprintf(why, sizeof why, "in place over host memory: byte %lu differs from dropout_run's", (unsigned long)at);
      }
   }
   if (b_in) clReleaseMemObject(b_in);
   if (b_out) clReleaseMemObject(b_out);
   if (ok && memcmp(host + N * 4u, keep + N * 4u, SHIFT * 4u)) { ok = 0; snprintf(why, sizeof why, "the in-place call wrote past its buffer"); }
   /* in and out that only touch: [0, N/2) and [N/2, N) floats of one host array */
   dropout_plan_at(&half, &rule, dropout_key_make(7, 2), dropout_pos_make(0), N / 2);
   dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &half);
   b_in = clCreateBuffer(g_ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, N * 2u, host, &err);
   b_out = clCreateBuffer(g_ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, N * 2u, host + N * 2u, &err);
   t.in = b_in; t.out = b_out;
   if (ok && (rc = dropout_opencl_run(&g_ocl, &d, &t, g_q)) != DROPOUT_OK) {
      ok = 0; snprintf(why, sizeof why, "in and out over adjacent host memory: %d (%s)", rc, g_ocl.message);
   }
   clFinish(g_q);
   if (b_in) clReleaseMemObject(b_in);
   if (b_out) clReleaseMemObject(b_out);
   if (ok && !buf_same(&x, &at)) { ok = 0; snprintf(why, sizeof why, "a refused call wrote x's byte %lu", (unsigned long)at); }
   buf_free(&x);
   free(host); free(keep); free(want); free(scratch);
   if (ok) printf("PASS opencl host memory: buffers made with CL_MEM_USE_HOST_PTR over overlapping host memory (out over in, a mask over out, and two over the same bytes: OpenCL leaves commands on them undefined) are refused with DROPOUT_ERR_OVERLAP, nothing written; adjacent bytes run, and in place in one such cl_mem as dropout_run\n");
   else { printf("FAIL opencl host memory: %s\n", why); g_fail = 1; }
}

/* ---- access flags: a buffer the call only reads may be read-only; one it reads may not be
   write-only (a kernel reading CL_MEM_WRITE_ONLY memory is undefined) ------------------------ */
static cl_mem flagged(cl_mem_flags flags, const Buf *like)   /* like's guard bytes, other flags */
{
   cl_int err;
   return clCreateBuffer(g_ctx, flags | CL_MEM_COPY_HOST_PTR, like->size, like->host, &err);
}

static void access_flags(void)
{
   enum { N = 100 };
   static const char *const what[5] = { "x of forward", "bias", "residual", "a stored mask (apply_mask)", "dx under DROPOUT_GRAD_ACCUMULATE" };
   static const char *const names[5] = { "`in`", "`bias`", "`residual`", "`mask`", "`out`" };
   const int want_ro = DROPOUT_ERR_OPENCL_BASE + CL_INVALID_MEM_OBJECT;
   dropout_rule rule;
   dropout_plan plan;
   dropout_desc d;
   dropout_opencl_tensors t;
   dropout_tensors ht;
   Buf x, y, m, b, r;
   cl_mem ro_mask, wo;
   size_t at = 0;
   int rc, ok = 1, k;
   char why[800] = "";
   buf_make(&x, N * 4u); buf_make(&y, N * 4u); buf_make(&m, N / 8u + 1u); buf_make(&b, N * 4u); buf_make(&r, N * 4u);
   fill_data(x.host, N, DROPOUT_DTYPE_F32, 0); buf_upload(&x);
   dropout_rule_init(&rule, 0.25, DROPOUT_BITS_8);
   dropout_plan_at(&plan, &rule, dropout_key_make(7, 1), dropout_pos_make(0), N);
   /* a stored mask, made on the CPU, in a CL_MEM_READ_ONLY buffer: apply_mask only reads it */
   dropout_desc_init(&d, DROPOUT_OP_MASK, DROPOUT_DTYPE_F32, &plan);
   memset(&ht, 0, sizeof ht); ht.mask = m.host;
   dropout_run(&d, &ht);
   buf_upload(&m);
   ro_mask = flagged(CL_MEM_READ_ONLY, &m);
   dropout_desc_init(&d, DROPOUT_OP_APPLY_MASK, DROPOUT_DTYPE_F32, &plan);
   memset(&t, 0, sizeof t); t.out = y.m; t.in = x.m; t.mask = ro_mask;
   if ((rc = dropout_opencl_run(&g_ocl, &d, &t, g_q)) != DROPOUT_OK) {
      ok = 0; snprintf(why, sizeof why, "apply_mask with a CL_MEM_READ_ONLY mask: %d (%s)", rc, g_ocl.message);
   }
   clFinish(g_q);
   memset(&ht, 0, sizeof ht); ht.out = y.host; ht.in = x.host; ht.mask = m.host;   /* y.host: what y must hold */
   if (ok && (rc = dropout_run(&d, &ht)) != DROPOUT_OK) { ok = 0; snprintf(why, sizeof why, "dropout_run apply_mask: %d", rc); }
   if (ok && !buf_same(&y, &at)) { ok = 0; snprintf(why, sizeof why, "apply_mask with a read-only mask: y's byte %lu differs from dropout_run's", (unsigned long)at); }
   /* a mask the call writes must still not be read-only */
   dropout_desc_init(&d, DROPOUT_OP_MASK, DROPOUT_DTYPE_F32, &plan);
   memset(&t, 0, sizeof t); t.mask = ro_mask;
   if (ok && (rc = dropout_opencl_run(&g_ocl, &d, &t, g_q)) != want_ro) {
      ok = 0; snprintf(why, sizeof why, "the mask op into a CL_MEM_READ_ONLY mask: %d, want %d", rc, want_ro);
   }
   /* a buffer the call reads, made CL_MEM_WRITE_ONLY: refused naming it, nothing enqueued */
   for (k = 0; ok && k < 5; ++k) {
      wo = flagged(CL_MEM_WRITE_ONLY, k == 0 ? &x : k == 1 ? &b : k == 2 ? &r : k == 3 ? &m : &y);
      memset(&t, 0, sizeof t); t.out = y.m; t.in = x.m;
      if (k == 0) { dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan); t.in = wo; }
      if (k == 1 || k == 2) {
         dropout_desc_init(&d, DROPOUT_OP_BIAS_DROPOUT_ADD, DROPOUT_DTYPE_F32, &plan);
         dropout_desc_set_bias_len(&d, N);
         t.bias = k == 1 ? wo : b.m; t.residual = k == 2 ? wo : r.m;
      }
      if (k == 3) { dropout_desc_init(&d, DROPOUT_OP_APPLY_MASK, DROPOUT_DTYPE_F32, &plan); t.mask = wo; }
      if (k == 4) {
         dropout_desc_init(&d, DROPOUT_OP_BACKWARD, DROPOUT_DTYPE_F32, &plan);
         dropout_desc_set_grad(&d, DROPOUT_GRAD_ACCUMULATE);
         t.out = wo;
      }
      g_ocl.message[0] = 0;
      rc = dropout_opencl_run(&g_ocl, &d, &t, g_q);
      clFinish(g_q);
      if (rc != want_ro || !strstr(g_ocl.message, names[k]) || !strstr(g_ocl.message, "CL_MEM_WRITE_ONLY")) {
         ok = 0; snprintf(why, sizeof why, "%s in a CL_MEM_WRITE_ONLY buffer: %d (\"%s\"), want %d naming %s", what[k], rc, g_ocl.message, want_ro, names[k]);
      }
      if (ok && k == 4) {   /* the write-only dx still holds its bytes: nothing ran */
         unsigned char *back = (unsigned char *)malloc(y.size);
         clEnqueueReadBuffer(g_q, wo, CL_TRUE, 0, y.size, back, 0, NULL, NULL);
         if (memcmp(back, y.host, y.size)) { ok = 0; snprintf(why, sizeof why, "a refused accumulate wrote its write-only dx"); }
         free(back);
      }
      clReleaseMemObject(wo);
   }
   /* a CL_MEM_WRITE_ONLY output that is only written runs */
   wo = flagged(CL_MEM_WRITE_ONLY, &y);
   dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
   memset(&t, 0, sizeof t); t.out = wo; t.in = x.m;
   if (ok && (rc = dropout_opencl_run(&g_ocl, &d, &t, g_q)) != DROPOUT_OK) {
      ok = 0; snprintf(why, sizeof why, "forward into a CL_MEM_WRITE_ONLY output: %d (%s)", rc, g_ocl.message);
   }
   clFinish(g_q);
   clReleaseMemObject(wo);
   if (ok && (!buf_same(&x, &at) || !buf_same(&y, &at) || !buf_same(&m, &at) || !buf_same(&b, &at) || !buf_same(&r, &at))) {
      ok = 0; snprintf(why, sizeof why, "a refused call wrote (byte %lu)", (unsigned long)at);
   }
   clReleaseMemObject(ro_mask);
   buf_free(&x); buf_free(&y); buf_free(&m); buf_free(&b); buf_free(&r);
   if (ok) printf("PASS opencl access flags: apply_mask reads a CL_MEM_READ_ONLY mask (dropout_run's bytes) and the mask op still refuses one; x, bias, residual, a stored mask and an accumulated dx made CL_MEM_WRITE_ONLY are refused naming the buffer, nothing written; a write-only output runs\n");
   else { printf("FAIL opencl access flags: %s\n", why); g_fail = 1; }
}

/* the f32 / f16 / bf16 ops built without any double in the program: same bits */
static void without_fp64(void)
{
   dropout_opencl keep = g_ocl;
   int rc = dropout_opencl_init(&g_ocl, g_ctx, g_dev, DROPOUT_OPENCL_WITHOUT_FP64);
   if (rc) { printf("FAIL opencl without fp64: init %d: %s\n", rc, g_ocl.message); g_fail = 1; g_ocl = keep; return; }
   contiguous(DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, 0);
   contiguous(DROPOUT_OP_BIAS_DROPOUT_ADD, DROPOUT_DTYPE_BF16, 0);
   views(DROPOUT_OP_ALPHA_FORWARD, DROPOUT_DTYPE_F16);
   dropout_opencl_release(&g_ocl);
   g_ocl = keep;
}

/* This file's own codes: not dropout.h's, not a CUDA call's (dropout_cuda.cuh returns
   DROPOUT_ERR_CUDA_BASE - cudaError_t, -1000 .. -1999: 0.9's -1901 .. -1906 were CUDA's
   stream-capture errors too), each with its own message. Needs no device. */
static void codes(void)
{
   static const int own[] = { DROPOUT_ERR_OPENCL_BUILD, DROPOUT_ERR_OPENCL_FP, DROPOUT_ERR_OPENCL_FP64,
                              DROPOUT_ERR_OPENCL_OFFSET, DROPOUT_ERR_OPENCL_BOUNDS, DROPOUT_ERR_OPENCL_CTX };
   size_t k, j;
   int ok = 1;
   for (k = 0; k < sizeof own / sizeof own[0]; ++k) {
      ok &= own[k] > DROPOUT_ERR_CUDA_BASE && own[k] > DROPOUT_ERR_OPENCL_BASE &&
            strncmp(dropout_strerror(own[k]), "dropout_opencl.h's own", 22) == 0;
      for (j = 0; j < k; ++j) ok &= strcmp(dropout_opencl_strerror(own[k]), dropout_opencl_strerror(own[j])) != 0;
   }
   if (ok) printf("PASS opencl codes: its own codes are neither dropout.h's nor a CUDA call's, each with its own message\n");
   else { printf("FAIL opencl codes: an own code is dropout.h's or a CUDA call's, or shares a message\n"); g_fail = 1; }
}

int main(int argc, char **argv)
{
   cl_platform_id plats[8];
   cl_uint np = 0, nd = 0, i;
   cl_int err;
   int rc, op, dt, quick = argc > 1 && !strcmp(argv[1], "quick");
   setvbuf(stdout, NULL, _IOLBF, 0);
   codes();
   err = clGetPlatformIDs(8, plats, &np);
   if (err != CL_SUCCESS || np == 0) {
      printf("SKIP opencl: no OpenCL platform (clGetPlatformIDs: %d; install an ICD such as pocl-opencl-icd)\n", (int)err);
      return 0;
   }
   for (i = 0; i < np && nd == 0; ++i)
      if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &g_dev, &nd) != CL_SUCCESS) nd = 0;
   if (nd == 0) { printf("SKIP opencl: %u OpenCL platforms but no device\n", np); return 0; }
   g_ctx = clCreateContext(NULL, 1, &g_dev, NULL, NULL, &err);
   if (err != CL_SUCCESS) { printf("FAIL opencl: clCreateContext: %d\n", (int)err); return 1; }
   g_q = clCreateCommandQueue(g_ctx, g_dev, 0, &err);
   if (err != CL_SUCCESS) { printf("FAIL opencl: clCreateCommandQueue: %d\n", (int)err); return 1; }
   rc = dropout_opencl_init(&g_ocl, g_ctx, g_dev, 0);
   if (rc) { printf("FAIL opencl init: %d: %s\n", rc, g_ocl.message); return 1; }
   printf("device: %s (fp32 exact %d, fp64 %d)\n", g_ocl.device_name, g_ocl.fp32_exact, g_ocl.fp64);

   kat();
   own_kernels();
   for (dt = DROPOUT_DTYPE_F32; dt <= DROPOUT_DTYPE_BF16; ++dt) {
      if (dt == DROPOUT_DTYPE_F64 && !g_ocl.fp64) { printf("SKIP opencl f64: the device has no cl_khr_fp64\n"); continue; }
      for (op = DROPOUT_OP_FORWARD; op <= DROPOUT_OP_BIAS_DROPOUT_ADD; ++op) {
         if (op == DROPOUT_OP_MASK && dt != DROPOUT_DTYPE_F32) continue;
         if (quick && dt != DROPOUT_DTYPE_F32 && op > DROPOUT_OP_APPLY_MASK) continue;
         contiguous(op, dt, 0);
         if (op == DROPOUT_OP_BACKWARD || op == DROPOUT_OP_APPLY_MASK || op == DROPOUT_OP_GAUSSIAN || op == DROPOUT_OP_ALPHA_BACKWARD)
            contiguous(op, dt, 1);
         views(op, dt);
      }
   }
   fills();
   refusals();
   user_mistakes();
   host_aliases();
   access_flags();
   without_fp64();
   dropout_opencl_release(&g_ocl);
   clReleaseCommandQueue(g_q);
   clReleaseContext(g_ctx);
   return g_fail;
}
