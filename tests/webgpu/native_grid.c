/* native_grid.c - the oracle of tests/webgpu/: writes the grid of cases that
   dropout_webgpu.js must reproduce, each with its inputs and the bytes a native build of
   dropout.h writes, for tests/webgpu/run_grid.js to compare with the WebGPU device's.

   usage: native_grid DIR
          native_grid --page SEED STREAM POS P BITS   (the teaching page's digest, below)
          native_grid --usage                         (what docs/WEBGPU.md's snippet prints)
          native_grid --rules                         (dropout_rule_init's verdicts)
          native_grid --gen                           (dropout_gen_plan's positions)
   DIR/grid.txt, one line a case:
      id op dtype bits p seed stream pos count in_place with_mask data_bytes mask_bytes view
   where view is - (contiguous) or shape:broadcast:y strides:x strides:y offset:x offset
   (lists comma-separated; the offsets are the element (0, .., 0) in the buffers)
   and per case (files absent where the op has no such operand):
      DIR/ID.x   the input buffer (x, or dy for backward)
      DIR/ID.y0  the output buffer before the call (canary bytes; the input for in place)
      DIR/ID.y   the output buffer after dropout.h's call
      DIR/ID.m0  the mask buffer before (canary, or the stored mask for apply_mask)
      DIR/ID.m   the mask buffer after
   Buffers are 16 canary bytes longer than the call's bytes rounded up to 4 (WebGPU binds
   whole 4-byte words), so a device that writes one byte too many fails the comparison.
   Inputs mix raw random bit patterns (NaN payloads, Inf, -0, subnormals) with values
   chosen for the edges of the f32 multiply and the f16 / bf16 roundings. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OP_FORWARD, OP_BACKWARD, OP_MASK, OP_APPLY_MASK, N_OPS };
static const char *const op_name[N_OPS] = { "forward", "backward", "mask", "apply_mask" };
enum { DT_F32, DT_F16, DT_BF16, N_DT };
static const char *const dt_name[N_DT] = { "f32", "f16", "bf16" };
static const size_t dt_size[N_DT] = { 4, 2, 2 };
#define CANARY 0xA5u
#define MAX_N 65536u

static uint64_t rng_state;
static uint64_t rnd(void)   /* xorshift64*: the inputs only, not part of any contract */
{
   rng_state ^= rng_state >> 12;
   rng_state ^= rng_state << 25;
   rng_state ^= rng_state >> 27;
   return rng_state * 0x2545F4914F6CDD1Du;
}

static uint32_t f32_input(void)
{
   static const uint32_t special[] = {
      0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00001u,
      0x7F800001u, 0xFFBFFFFFu, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x00400000u,
      0x00800000u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x3F800000u, 0xBF800000u, 0x7F000000u,
      0x7E800000u, 0x00000003u, 0x00200001u, 0x3F7FFFFFu
   };
   uint64_t r = rnd();
   uint32_t u = (uint32_t)(r >> 32), sign = u & 0x80000000u, man = u & 0x7FFFFFu;
   switch (r % 8u) {
   case 0: return u;                                                   /* any pattern */
   case 1: return special[(r >> 8) % (sizeof special / sizeof special[0])];
   case 2: return sign | man;                                          /* subnormal */
   case 3: return sign | ((250u + (uint32_t)((r >> 8) % 5u)) << 23) | man;   /* near overflow */
   case 4: return sign | ((1u + (uint32_t)((r >> 8) % 3u)) << 23) | man;     /* smallest normals */
   default: return sign | ((118u + (uint32_t)((r >> 8) % 20u)) << 23) | man;
   }
}

static uint16_t f16_input(int dtype)
{
   static const uint16_t special[] = {
      0x0000u, 0x8000u, 0x7C00u, 0xFC00u, 0x7E00u, 0xFE01u, 0x7C01u, 0x0001u, 0x8001u,
      0x03FFu, 0x0400u, 0x7BFFu, 0xFBFFu, 0x3C00u, 0x7BF0u, 0x7B00u, 0x0200u
   };
   static const uint16_t bspecial[] = {
      0x0000u, 0x8000u, 0x7F80u, 0xFF80u, 0x7FC0u, 0xFF81u, 0x7F81u, 0x0001u, 0x807Fu,
      0x0080u, 0x7F7Fu, 0xFF7Fu, 0x3F80u, 0x7F00u
   };
   uint64_t r = rnd();
   uint16_t u = (uint16_t)(r >> 48);
   if (r % 4u == 0) {
      return dtype == DT_F16 ? special[(r >> 8) % (sizeof special / sizeof special[0])]
                             : bspecial[(r >> 8) % (sizeof bspecial / sizeof bspecial[0])];
   }
   return u;
}

static void put(const char *dir, unsigned id, const char *ext, const uint8_t *b, size_t n)
{
   char path[512];
   FILE *f;
   snprintf(path, sizeof path, "%s/%03u.%s", dir, id, ext);
   f = fopen(path, "wb");
   if (!f || fwrite(b, 1, n, f) != n || fclose(f) != 0) {
      fprintf(stderr, "cannot write %s\n", path);
      exit(1);
   }
}

static const dropout_op op_code[N_OPS] = { DROPOUT_OP_FORWARD, DROPOUT_OP_BACKWARD, DROPOUT_OP_MASK, DROPOUT_OP_APPLY_MASK };
static const dropout_dtype dt_code[N_DT] = { DROPOUT_DTYPE_F32, DROPOUT_DTYPE_F16, DROPOUT_DTYPE_BF16 };

/* The grid's rule for (p, bits): the threshold t = floor(p 2^bits + 1/2) (docs/SPEC.md
   section 4, what dropoutWebGPU.rule computes), made by dropout_rule_init_threshold, so the
   grid does not depend on which p dropout_rule_init refuses (check_rules.js compares that
   policy with dropout_webgpu.js's on its own). */
static int rule_of(dropout_rule *r, double p, int bits)
{
   return dropout_rule_init_threshold(r, (uint64_t)(p * (double)((uint64_t)1 << bits) + 0.5), (dropout_bits)bits);
}

/* One contiguous call through the descriptor: the 1-D call without strides or broadcast,
   which gives the short calls' bits (docs/SPEC.md V.1), in the spelling the views use. */
static int run(int op, int dtype, const dropout_plan *plan, const dropout_tensors *t)
{
   dropout_desc desc;
   int err = dropout_desc_init(&desc, op_code[op], dt_code[dtype], plan);
   if (!err) err = dropout_run(&desc, t);
   return err;
}

typedef struct gcase {
   int op, dtype, bits, in_place, with_mask, every16;   /* every16: x = all 65536 patterns */
   double p;
   uint64_t seed, stream, pos;
   uint32_t count;
} gcase;

static FILE *index_file;
static const char *out_dir;
static unsigned n_cases;

static void emit(gcase c)
{
   static uint8_t x[MAX_N * 4 + 16], y0[MAX_N * 4 + 16], y[MAX_N * 4 + 16];
   static uint8_t m0[MAX_N / 8 + 16], m[MAX_N / 8 + 16];
   size_t n = c.count, es = dt_size[c.dtype], i;
   size_t data_bytes = (n * es + 3) / 4 * 4 + 16, mask_bytes = ((n + 7) / 8 + 3) / 4 * 4 + 16;
   int has_mask = c.op == OP_MASK || c.op == OP_APPLY_MASK || (c.op == OP_FORWARD && c.with_mask);
   dropout_rule rule;
   dropout_plan plan;
   int err;
   unsigned id = n_cases++;
   rng_state = 0x9E3779B97F4A7C15u * (id + 1u);
   memset(x, CANARY, data_bytes);
   for (i = 0; i < n; ++i) {
      if (c.dtype == DT_F32) {
         uint32_t v = f32_input();
         memcpy(x + 4 * i, &v, 4);
      } else {
         uint16_t v = c.every16 ? (uint16_t)i : f16_input(c.dtype);
         memcpy(x + 2 * i, &v, 2);
      }
   }
   memset(y0, CANARY, data_bytes);
   if (c.in_place) memcpy(y0, x, data_bytes);
   memcpy(y, y0, data_bytes);
   memset(m0, CANARY, mask_bytes);
   if (c.op == OP_APPLY_MASK)
      for (i = 0; i < (n + 7) / 8; ++i) m0[i] = (uint8_t)(rnd() >> 56);
   memcpy(m, m0, mask_bytes);

   err = rule_of(&rule, c.p, c.bits);
   if (!err) err = dropout_plan_at(&plan, &rule, dropout_key_make(c.seed, c.stream), dropout_pos_make(c.pos), n);
   if (!err) {
      dropout_tensors t;
      memset(&t, 0, sizeof t);
      if (c.op != OP_MASK) {
         t.out = y;
         t.in = c.in_place ? (const void *)y : (const void *)x;
      }
      if (has_mask) t.mask = m;
      err = run(c.op, c.dtype, &plan, &t);
   }
   if (err) {
      fprintf(stderr, "case %u: dropout.h refused it: %s\n", id, dropout_strerror(err));
      exit(1);
   }
   fprintf(index_file, "%03u %s %s %d %.17g %llu %llu %llu %u %d %d %zu %zu -\n", id, op_name[c.op],
           dt_name[c.dtype], c.bits, c.p, (unsigned long long)c.seed, (unsigned long long)c.stream,
           (unsigned long long)c.pos, c.count, c.in_place, has_mask && c.op == OP_FORWARD,
           c.op == OP_MASK ? (size_t)0 : data_bytes, has_mask ? mask_bytes : (size_t)0);
   if (c.op != OP_MASK) {
      if (!c.in_place) put(out_dir, id, "x", x, data_bytes);
      put(out_dir, id, "y0", y0, data_bytes);
      put(out_dir, id, "y", y, data_bytes);
   }
   if (has_mask) {
      put(out_dir, id, "m0", m0, mask_bytes);
      put(out_dir, id, "m", m, mask_bytes);
   }
}

/* A view through the descriptor: shape, broadcast, strides of y and x (NULL: contiguous),
   the element (0, .., 0) at yoff / xoff in buffers of ylen / xlen elements. */
typedef struct vcase {
   int op, dtype, bits, in_place, with_mask, rank;
   double p;
   uint64_t pos;
   size_t dim[8];
   unsigned broadcast;
   int pstrided;             /* position strides ps instead of the row-major mask index */
   uint64_t ps[8];
   ptrdiff_t ys[8], xs[8];
   size_t yoff, xoff, ylen, xlen;
} vcase;

static void list(FILE *f, const ptrdiff_t *v, const size_t *u, int n)
{
   int i;
   for (i = 0; i < n; ++i) {
      if (v) fprintf(f, "%s%td", i ? "," : "", v[i]);
      else fprintf(f, "%s%zu", i ? "," : "", u[i]);
   }
}

static void emit_view(vcase c)
{
   static uint8_t x[1 << 16], y0[1 << 16], y[1 << 16], m0[1 << 12], m[1 << 12];
   size_t es = dt_size[c.dtype], i, positions = 1;
   size_t data_bytes = ((c.ylen > c.xlen ? c.ylen : c.xlen) * es + 3) / 4 * 4 + 16, mask_bytes;
   int has_mask = c.op == OP_MASK || c.op == OP_APPLY_MASK || (c.op == OP_FORWARD && c.with_mask);
   int d, err;
   dropout_rule rule;
   dropout_plan plan;
   dropout_desc desc;
   dropout_tensors t;
   unsigned id = n_cases++;
   for (d = 0; d < c.rank; ++d)
      if (!((c.broadcast >> d) & 1u)) positions *= c.dim[d];
   if (c.pstrided)   /* their span */
      for (positions = 1, d = 0; d < c.rank; ++d) positions += (size_t)c.ps[d] * (c.dim[d] - 1u);
   mask_bytes = ((positions + 7) / 8 + 3) / 4 * 4 + 16;
   if (data_bytes > sizeof x || mask_bytes > sizeof m) { fprintf(stderr, "view case %u too large\n", id); exit(1); }
   rng_state = 0x9E3779B97F4A7C15u * (id + 1u);
   memset(x, CANARY, data_bytes);
   for (i = 0; i < data_bytes / es; ++i) {
      if (c.dtype == DT_F32) { uint32_t v = f32_input(); memcpy(x + 4 * i, &v, 4); }
      else { uint16_t v = f16_input(c.dtype); memcpy(x + 2 * i, &v, 2); }
   }
   memset(y0, CANARY, data_bytes);
   if (c.in_place) memcpy(y0, x, data_bytes);
   memcpy(y, y0, data_bytes);
   memset(m0, CANARY, mask_bytes);
   if (c.op == OP_APPLY_MASK)
      for (i = 0; i < (positions + 7) / 8; ++i) m0[i] = (uint8_t)(rnd() >> 56);
   memcpy(m, m0, mask_bytes);

   err = rule_of(&rule, c.p, c.bits);
   if (!err) err = dropout_plan_at(&plan, &rule, dropout_key_make(5, 6), dropout_pos_make(c.pos), positions);
   if (!err) err = dropout_desc_init(&desc, op_code[c.op], dt_code[c.dtype], &plan);
   if (!err) err = dropout_desc_set_shape(&desc, c.rank, c.dim);
   if (!err) err = dropout_desc_set_broadcast(&desc, c.broadcast);
   if (!err && c.pstrided) err = dropout_desc_set_position_strides(&desc, c.ps);
   if (!err && c.pstrided) err = dropout_desc_set_mask_bytes(&desc, (positions + 7) / 8);   /* the mask holds the span */
   if (!err && c.op != OP_MASK) err = dropout_desc_set_strides(&desc, DROPOUT_OPERAND_OUT, c.ys);
   if (!err && c.op != OP_MASK) err = dropout_desc_set_strides(&desc, DROPOUT_OPERAND_IN, c.xs);
   memset(&t, 0, sizeof t);
   if (c.op != OP_MASK) {
      t.out = y + c.yoff * es;
      t.in = c.in_place ? (const void *)(y + c.xoff * es) : (const void *)(x + c.xoff * es);
   }
   if (has_mask) t.mask = m;
   if (!err) err = dropout_run(&desc, &t);
   if (err) {
      fprintf(stderr, "view case %u: dropout.h refused it: %s\n", id, dropout_strerror(err));
      exit(1);
   }
   fprintf(index_file, "%03u %s %s %d %.17g 5 6 %llu %zu %d %d %zu %zu ", id, op_name[c.op], dt_name[c.dtype],
           c.bits, c.p, (unsigned long long)c.pos, positions, c.in_place, has_mask && c.op == OP_FORWARD,
           c.op == OP_MASK ? (size_t)0 : data_bytes, has_mask ? mask_bytes : (size_t)0);
   list(index_file, NULL, c.dim, c.rank);
   fprintf(index_file, ":%u:", c.broadcast);
   list(index_file, c.ys, NULL, c.rank);
   fputc(':', index_file);
   list(index_file, c.xs, NULL, c.rank);
   fprintf(index_file, ":%zu:%zu:", c.yoff, c.xoff);
   if (c.pstrided)
      for (d = 0; d < c.rank; ++d) fprintf(index_file, "%s%llu", d ? "," : "", (unsigned long long)c.ps[d]);
   fprintf(index_file, "%s\n", c.pstrided ? "" : "-");
   if (c.op != OP_MASK) {
      if (!c.in_place) put(out_dir, id, "x", x, data_bytes);
      put(out_dir, id, "y0", y0, data_bytes);
      put(out_dir, id, "y", y, data_bytes);
   }
   if (has_mask) {
      put(out_dir, id, "m0", m0, mask_bytes);
      put(out_dir, id, "m", m, mask_bytes);
   }
}

/* contiguous strides of c's shape, for y and x; the buffers just hold the tensor */
static vcase shaped(int op, int dtype, int bits, double p, uint64_t pos, int rank, const size_t *dim, unsigned bc)
{
   vcase c;
   ptrdiff_t acc = 1;
   int d;
   memset(&c, 0, sizeof c);
   c.op = op; c.dtype = dtype; c.bits = bits; c.p = p; c.pos = pos; c.rank = rank; c.broadcast = bc;
   for (d = rank - 1; d >= 0; --d) {
      c.dim[d] = dim[d];
      c.ys[d] = c.xs[d] = acc;
      acc *= (ptrdiff_t)dim[d];
   }
   c.ylen = c.xlen = (size_t)acc;
   return c;
}

static void views(void)
{
   static const size_t nchw[] = { 2, 3, 5, 7 }, tbf[] = { 4, 3, 33 }, mat[] = { 33, 65 }, flip[] = { 4, 130 };
   static const size_t rows[] = { 5, 64 }, pad[] = { 3, 31 }, path[] = { 6, 2, 3, 5 }, r8[] = { 2, 1, 3, 1, 2, 2, 1, 3 };
   static const size_t odd[] = { 7, 9 }, col[] = { 3, 1 }, row1[] = { 1, 4 }, tp[] = { 5, 13 }, tp3[] = { 3, 4, 9 };
   static const size_t tp1[] = { 5, 1 }, tpt[] = { 13, 5 };
   vcase c;
   int dt;
   for (dt = 0; dt < N_DT; ++dt) {
      /* channel dropout (Dropout2d), forward + mask */
      c = shaped(OP_FORWARD, dt, 8, 0.3, 1000003u, 4, nchw, 0xCu); c.with_mask = 1; emit_view(c);
      /* locked dropout (time dim broadcast), 32-bit draws at the end of the stream */
      c = shaped(OP_FORWARD, dt, 32, 0.9, 0u - 99u, 3, tbf, 0x1u); emit_view(c);
      /* a transposed output (column-major y), 16-bit draws */
      c = shaped(OP_FORWARD, dt, 16, 0.3, 17u, 2, mat, 0); c.ys[0] = 1; c.ys[1] = 33; c.with_mask = 1; emit_view(c);
      /* a flipped input (negative stride; its element (0, 0) is the last row) */
      c = shaped(OP_BACKWARD, dt, 8, 0.9, 0xFFFFFFFFu - 100u, 2, flip, 0);
      c.xs[0] = -130; c.xoff = 3 * 130; emit_view(c);
      /* an input broadcast in memory (zero stride), stored mask */
      c = shaped(OP_APPLY_MASK, dt, 16, 0.3, 0u, 2, rows, 0); c.xs[0] = 0; emit_view(c);
      /* padded rows of the output, and the input with an offset */
      c = shaped(OP_FORWARD, dt, 16, 1.0, 3u, 2, pad, 0); c.ys[0] = 40; c.ylen = 3 * 40; c.xoff = 5; c.xlen += 5;
      c.with_mask = 1; emit_view(c);
      /* drop path: everything but the batch dim broadcast */
      c = shaped(OP_BACKWARD, dt, 8, 0.3, 12345u, 4, path, 0xEu); emit_view(c);
      /* in place on every other element of padded rows: the untouched halves stay */
      c = shaped(OP_FORWARD, dt, 8, 0.3, 7u, 2, odd, 0); c.ys[0] = c.xs[0] = 20; c.ys[1] = c.xs[1] = 2;
      c.ylen = c.xlen = 7 * 20; c.in_place = 1; emit_view(c);
      /* rank 8 with a broadcast, p = 0 (a copy) */
      c = shaped(OP_FORWARD, dt, 16, 0.0, 99u, 8, r8, 0x25u); c.with_mask = 1; emit_view(c);
      /* a dim of one element never moves, so its stride is never used (dropout.h ignores
         it): in place with other strides there, and strides past 2^31 there */
      c = shaped(OP_FORWARD, dt, 8, 0.3, 11u, 2, col, 0); c.ys[1] = 5; c.xs[1] = 7; c.in_place = 1; emit_view(c);
      c = shaped(OP_FORWARD, dt, 16, 0.3, 13u, 2, row1, 0); c.ys[0] = (ptrdiff_t)1 << 31; c.xs[0] = -((ptrdiff_t)1 << 40);
      c.with_mask = 1; emit_view(c);
      /* position strides: a tensor-parallel rank's (5, 13) block of a (5, 40) activation
         (columns 17 .. 29: the plan from pos + 17, positions b*40 + c), forward + mask,
         both backwards; and stored column-major */
      c = shaped(OP_FORWARD, dt, 8, 0.3, 1000u + 17u, 2, tp, 0); c.pstrided = 1; c.ps[0] = 40; c.ps[1] = 1;
      c.with_mask = 1; emit_view(c);
      c.op = OP_BACKWARD; c.with_mask = 0; emit_view(c);
      c.op = OP_APPLY_MASK; emit_view(c);
      c = shaped(OP_FORWARD, dt, 16, 0.5, 0u - 300u, 2, tp, 0); c.pstrided = 1; c.ps[0] = 40; c.ps[1] = 1;
      c.ys[0] = c.xs[0] = 1; c.ys[1] = c.xs[1] = 5; emit_view(c);
      /* a block of one column (rows of one element), and the mask's order transposed */
      c = shaped(OP_FORWARD, dt, 8, 0.3, 1000u + 39u, 2, tp1, 0); c.pstrided = 1; c.ps[0] = 40; c.ps[1] = 1;
      c.with_mask = 1; emit_view(c);
      c = shaped(OP_FORWARD, dt, 16, 0.3, 1000u + 17u, 2, tpt, 0); c.pstrided = 1; c.ps[0] = 1; c.ps[1] = 40;
      c.with_mask = 1; emit_view(c);
      /* a zero position stride (a row shares one draw), a gap of unused positions */
      c = shaped(OP_FORWARD, dt, 32, 0.3, 5u, 3, tp3, 0); c.pstrided = 1; c.ps[0] = 100; c.ps[1] = 0; c.ps[2] = 1;
      c.with_mask = 1; emit_view(c);
   }
   /* the mask alone of a block */
   c = shaped(OP_MASK, DT_F32, 8, 0.3, 5u, 2, tp, 0); c.pstrided = 1; c.ps[0] = 40; c.ps[1] = 1; emit_view(c);
   /* the mask alone, channel shape */
   c = shaped(OP_MASK, DT_F32, 8, 0.3, 5u, 4, nchw, 0xCu); emit_view(c);
}

/* A first position for a call of n elements: the kinds cycle with the case number. */
static uint64_t position(unsigned kind, uint32_t n)
{
   switch (kind % 9u) {
   case 0: return 0;
   case 1: return 1000003u;                                /* odd, mid-block */
   case 2: return 0xFFFFFFFFu - 20u;                       /* the position's low word carries inside */
   case 3: return 0u - (uint64_t)n;                        /* the last n positions of the stream */
   case 4: return 0u - (uint64_t)n - 13u;                  /* just before them, odd */
   /* the Philox block counter's low word carries into its high word inside the call: at
      position 2^36 with 8-bit draws (16 a block), 2^35 with 16-bit, 2^34 with 32-bit */
   case 5: return ((uint64_t)1 << 36) - 5u;
   case 6: return ((uint64_t)1 << 35) - 3u;
   case 7: return ((uint64_t)1 << 34) - 1u;
   default: return 0x8000000000000005u;
   }
}

static const uint32_t sizes[] = { 1, 7, 31, 32, 33, 63, 65, 2047, 2048, 2049, 4097, 6145 };
static const uint64_t seeds[] = { 1234u, 0u, 0xFFFFFFFFFFFFFFFFu, 0xDEADBEEFCAFEF00Du };
static const uint64_t streams[] = { 0u, 7u, 0xFFFFFFFFFFFFFFFFu, 0x0000000100000005u };

/* The teaching page's section 5 (web/webgpu.js): the same x, element i, as f32 bits. */
static uint32_t page_input(uint32_t i)
{
   static const uint32_t special[] = {
      0x7FC00000u, 0xFFA00001u, 0x7F800000u, 0xFF800000u, 0x80000000u, 0x00000000u,
      0x00000001u, 0x807FFFFFu, 0x00400000u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F400000u
   };
   uint32_t h = i;
   if (i < sizeof special / sizeof special[0]) return special[i];
   h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16;   /* lowbias32 */
   if ((h & 7u) == 0) return h;
   return (h & 0x807FFFFFu) | ((126u + ((h >> 24) & 3u)) << 23);
}

/* native_grid --page SEED STREAM POS P BITS: the digest section 5 must print, FNV-1a 64
   over the mask bytes then the y bytes of the forward of 65536 elements. */
static int page_digest(char **argv)
{
   enum { PN = 1 << 16 };
   static float x[PN], y[PN];
   static uint8_t mask[PN / 8];
   uint64_t h = 0xcbf29ce484222325u;
   dropout_rule rule;
   dropout_plan plan;
   uint32_t i;
   int err;
   for (i = 0; i < PN; ++i) {
      uint32_t b = page_input(i);
      memcpy(&x[i], &b, 4);
   }
   err = dropout_rule_init(&rule, strtod(argv[4], NULL), (dropout_bits)atoi(argv[5]));
   if (!err) err = dropout_plan_at(&plan, &rule, dropout_key_make(strtoull(argv[1], NULL, 0), strtoull(argv[2], NULL, 0)),
                                   dropout_pos_make(strtoull(argv[3], NULL, 0)), PN);
   if (!err) {
      dropout_tensors t;
      memset(&t, 0, sizeof t);
      t.out = y; t.mask = mask; t.in = x;
      err = run(OP_FORWARD, DT_F32, &plan, &t);
   }
   if (err) {
      fprintf(stderr, "%s\n", dropout_strerror(err));
      return 1;
   }
   for (i = 0; i < PN / 8; ++i) { h ^= mask[i]; h *= 0x100000001b3u; }
   for (i = 0; i < 4u * PN; ++i) { h ^= ((const uint8_t *)y)[i]; h *= 0x100000001b3u; }
   printf("%016llx\n", (unsigned long long)h);
   return 0;
}

/* native_grid --rules: dropout_rule_init's answer for each (p, bits) of a list, one line
   each: "P BITS ok T SCALE32_BITS" or "P BITS err CODE" (tests/webgpu/check_rules.js asks
   dropoutWebGPU.rule the same). */
static int rules(void)
{
   static const double ps[] = { 0.0, 1.0, 0.5, 0.1, 0.3, 0.9, 0.99, 0.999, 0.001, 0.002, 0.00196, 0.998,
                                1e-5, 1e-7, 1e-9, 1e-12, 0.25, 0.7, 0.123456789, 0.0039, 0.996, 1.0 - 1e-9,
                                -0.1, 1.5 };
   int b;
   size_t i;
   for (i = 0; i < sizeof ps / sizeof ps[0]; ++i)
      for (b = 8; b <= 32; b *= 2) {
         dropout_rule r;
         int err = dropout_rule_init(&r, ps[i], (dropout_bits)b);
         uint32_t u;
         if (err) { printf("%.17g %d err %d\n", ps[i], b, err); continue; }
         memcpy(&u, &r.scale_f32, 4);
         printf("%.17g %d ok %llu %u\n", ps[i], b, (unsigned long long)r.threshold, u);
      }
   return 0;
}

/* native_grid --gen: the positions dropout_gen_plan hands out for a fixed run of (count,
   bits), from 0 and from a generator resumed near the stream's end, one line each: "START
   START_BITS COUNT BITS POS" or "... err CODE" (START and START_BITS: the run's first state;
   tests/webgpu/check_gen.js asks dropoutWebGPU.generator the same). The widths change in
   every order, with counts that end inside a word and counts of 0. */
static int gen_runs(void)
{
   static const uint64_t starts[][2] = { { 0, 0 }, { 5, 8 }, { 3, 16 }, { UINT64_C(0x3ffffffffffffff0), 32 },
                                        { UINT64_C(0xffffffffffffffc0), 8 }, { UINT64_C(0xffffffffffffff00), 16 } };
   static const uint32_t counts[] = { 4096, 3, 0, 1, 7, 65, 4097, 2, 15 };
   size_t s, k;
   uint32_t lcg = 12345u;
   for (s = 0; s < sizeof starts / sizeof starts[0]; ++s) {
      dropout_gen g;
      const dropout_units u = (dropout_units)starts[s][1];   /* 0 (none), 8, 16, 32: the enum's values */
      if (dropout_gen_resume(&g, dropout_key_make(7, 3), starts[s][0], u)) return 1;
      for (k = 0; k < 24; ++k) {
         const int bits = 8 << ((lcg >> 16) % 3u);
         const uint32_t count = counts[(lcg >> 8) % (sizeof counts / sizeof counts[0])];
         dropout_rule r;
         dropout_plan plan;
         int err;
         lcg = lcg * 1103515245u + 12345u;
         if (dropout_rule_init(&r, 0.5, (dropout_bits)bits)) return 1;
         err = dropout_gen_plan(&g, &r, count, &plan);
         if (err) printf("%llu %d %u %d err %d\n", (unsigned long long)starts[s][0], (int)starts[s][1], count, bits, err);
         else printf("%llu %d %u %d %llu\n", (unsigned long long)starts[s][0], (int)starts[s][1], count, bits,
                     (unsigned long long)plan.pos);
      }
   }
   return 0;
}

/* native_grid --usage: what docs/WEBGPU.md's usage snippet prints (the same call in C) */
static int usage_line(void)
{
   enum { UN = 1000 };
   static float x[UN], y[UN];
   dropout_rule rule;
   dropout_plan plan;
   int i, kept = 0;
   dropout_tensors t;
   for (i = 0; i < UN; ++i) x[i] = 1.0f;
   memset(&t, 0, sizeof t);
   t.out = y; t.in = x;
   if (dropout_rule_init(&rule, 0.1, DROPOUT_BITS_16) ||
       dropout_plan_at(&plan, &rule, dropout_key_make(1234, 0), dropout_pos_make(0), UN) ||
       run(OP_FORWARD, DT_F32, &plan, &t)) return 1;
   for (i = 0; i < UN; ++i) kept += y[i] > 0.0f;   /* x = 1: kept is 1/q, dropped +0 */
   printf("kept %d of %d; y[0] = %.17g\n", kept, UN, (double)y[0]);
   return 0;
}

int main(int argc, char **argv)
{
   static const double ps[] = { 0.0, 0.3, 0.9, 1.0 };
   /* with 0.2 and 0.9 the float scale is 1.25 and 10 exactly: few mantissa bits, so many
      products fall exactly halfway (ties to even) */
   static const double ps32[] = { 0.1, 0.37, 0.5, 0.999, 1e-9, 0.123456789, 0.75, 0.01, 0.2, 0.9 };
   char path[512];
   unsigned k = 0;
   int op, dt, b, pi;
   if (argc == 7 && strcmp(argv[1], "--page") == 0) return page_digest(argv + 1);
   if (argc == 2 && strcmp(argv[1], "--usage") == 0) return usage_line();
   if (argc == 2 && strcmp(argv[1], "--rules") == 0) return rules();
   if (argc == 2 && strcmp(argv[1], "--gen") == 0) return gen_runs();
   if (argc != 2) {
      fprintf(stderr, "usage: %s DIR | --page SEED STREAM POS P BITS\n", argv[0]);
      return 2;
   }
   out_dir = argv[1];
   snprintf(path, sizeof path, "%s/grid.txt", out_dir);
   index_file = fopen(path, "w");
   if (!index_file) {
      fprintf(stderr, "cannot write %s\n", path);
      return 1;
   }
   /* every op (forward with and without the mask), dtype, width and p in {0, 0.3, 0.9, 1};
      sizes, positions, keys and in-place cycle with the case number */
   for (op = 0; op < N_OPS; ++op)
      for (dt = 0; dt < N_DT; ++dt)
         for (b = 8; b <= 32; b *= 2)
            for (pi = 0; pi < 4; ++pi) {
               int masks;
               for (masks = 0; masks <= (op == OP_FORWARD); ++masks) {
                  gcase c;
                  memset(&c, 0, sizeof c);
                  if (op == OP_MASK && dt != DT_F32) continue;   /* the mask has no dtype */
                  c.op = op; c.dtype = dt; c.bits = b; c.p = ps[pi];
                  c.count = sizes[k % 12u];
                  c.pos = position(k / 2u, c.count);
                  c.seed = seeds[k % 4u];
                  c.stream = streams[(k / 4u) % 4u];
                  c.in_place = op != OP_MASK && k % 5u == 2u;
                  c.with_mask = masks;
                  ++k;
                  emit(c);
               }
            }
   /* every position kind at every width, forward + mask (f32, then f16 with odd sizes) */
   for (dt = 0; dt < 2; ++dt)
      for (b = 8; b <= 32; b *= 2)
         for (pi = 0; pi < 7; ++pi) {
            gcase c;
            memset(&c, 0, sizeof c);
            c.op = OP_FORWARD; c.dtype = dt ? DT_F16 : DT_F32; c.bits = b; c.p = 0.3;
            c.count = dt ? 2049u : 2048u;
            c.pos = position((unsigned)pi, c.count);
            c.seed = seeds[pi % 4]; c.stream = streams[(pi + 1) % 4];
            c.in_place = 0; c.with_mask = 1;
            emit(c);
         }
   /* the integer f32 multiply under many scales: 32-bit draws, 8192 inputs each */
   for (pi = 0; pi < (int)(sizeof ps32 / sizeof ps32[0]); ++pi) {
      gcase c;
      memset(&c, 0, sizeof c);
      c.op = OP_BACKWARD; c.dtype = pi % 2 ? DT_BF16 : DT_F32; c.bits = 32; c.p = ps32[pi];
      c.count = 8192u; c.pos = 77u * (uint64_t)pi; c.seed = 99u; c.stream = (uint64_t)pi;
      c.in_place = 0; c.with_mask = 0;
      emit(c);
      c.dtype = DT_F16; c.pos += 1u;
      emit(c);
   }
   /* every f16 and bf16 pattern through the conversions and the multiply, at a scale from
      each width (1/q rounded to float: 1.43, 1.2e4, 10) */
   for (dt = DT_F16; dt <= DT_BF16; ++dt)
      for (b = 8; b <= 32; b *= 2) {
         gcase c;
         memset(&c, 0, sizeof c);
         c.op = OP_BACKWARD; c.dtype = dt; c.bits = b; c.every16 = 1;
         c.p = b == 8 ? 0.3 : b == 16 ? 0.99992 : 0.9;
         c.count = 65536u; c.pos = 3u; c.seed = 8u; c.stream = 9u;
         emit(c);
      }
   views();
   if (fclose(index_file) != 0) return 1;
   printf("%u cases written to %s\n", n_cases, out_dir);
   return 0;
}
