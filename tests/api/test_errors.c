/* test_errors.c - every error code, each from the call and argument that should give it,
   with nothing written: the output, the mask and the inputs are compared with copies
   taken before the call (canaries), and setters must leave the descriptor as it was.
   Also: every code has its own message, which names the argument. */
#include <stdio.h>
#include <stdint.h>
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

#define N 96
static float x[N + 8], y[N + 8], r[N + 8], b[16];
static uint8_t m[N / 8 + 4];
static float x0[N + 8], y0[N + 8], r0[N + 8];
static uint8_t m0[N / 8 + 4];

static void snap(void)
{
   int i;
   for (i = 0; i < N + 8; ++i) { x[i] = (float)i * 0.5f - 7.0f; y[i] = -12345.0f; r[i] = (float)i; }
   for (i = 0; i < N / 8 + 4; ++i) m[i] = 0xA5;
   memcpy(x0, x, sizeof x); memcpy(y0, y, sizeof y); memcpy(r0, r, sizeof r); memcpy(m0, m, sizeof m);
}

static int untouched(void)
{
   return !memcmp(x0, x, sizeof x) && !memcmp(y0, y, sizeof y) && !memcmp(r0, r, sizeof r) && !memcmp(m0, m, sizeof m);
}

#define EXPECT(call, code) do { int e_; snap(); e_ = (call); \
   CHECK(e_ == (code), "%s: got %d (%s), want %d", #call, e_, dropout_strerror(e_), (int)(code)); \
   CHECK(untouched(), "%s: wrote something", #call); } while (0)

/* a setter that fails leaves the descriptor as it was */
#define EXPECT_SET(dp, call, code) do { dropout_desc before_ = *(dp); int e_ = (call); \
   CHECK(e_ == (code), "%s: got %d (%s), want %d", #call, e_, dropout_strerror(e_), (int)(code)); \
   CHECK(!memcmp(&before_, (dp), sizeof before_), "%s: changed the descriptor", #call); } while (0)

static double zero_val(void) { volatile double z = 0.0; return z; }
#define INF_VAL (1.0 / zero_val())
#define NAN_VAL (zero_val() / zero_val())

static dropout_rule rule;
static dropout_plan plan, plan_n;   /* dropout draws; normals (GAUSSIAN, NOISE) */

static int run(int op, const dropout_plan *pl, void (*tweak)(dropout_desc *), void *out, uint8_t *mask, const void *in,
               const void *bias, const void *res)
{
   dropout_desc d;
   dropout_tensors t;
   int err = dropout_desc_init(&d, (dropout_op)op, DROPOUT_DTYPE_F32, pl);
   if (err) return err;
   if (tweak) tweak(&d);
   t.out = out; t.mask = mask; t.in = in; t.bias = bias; t.residual = res;
   return dropout_run(&d, &t);
}

static size_t dims2[2] = {8, 12}, dims_big[2] = {(size_t)-1, 2};
static void t_shape(dropout_desc *d) { dropout_desc_set_shape(d, 2, dims2); }
static void t_rank(dropout_desc *d) { d->dropout__rank = 9; }
static void t_bcast(dropout_desc *d) { d->dropout__broadcast = 4; }
static void t_count(dropout_desc *d) { dropout_desc_set_shape(d, 2, dims2); dropout_desc_set_broadcast(d, 1); }
static void t_ostride0(dropout_desc *d) { dropout_desc_set_shape(d, 2, dims2); d->dropout__strided = 1; d->dropout__stride[0][0] = 0; d->dropout__stride[0][1] = 1; }
static void t_overlap(dropout_desc *d) { dropout_desc_set_shape(d, 2, dims2); d->dropout__strided = 1; d->dropout__stride[0][0] = 4; d->dropout__stride[0][1] = 1; }
/* (by hand: dropout_desc_set_strides refuses such strides, and run must too) */
static void t_huge(dropout_desc *d) { dropout_desc_set_shape(d, 2, dims2); d->dropout__strided = 2; d->dropout__stride[1][0] = PTRDIFF_MAX / 2; d->dropout__stride[1][1] = 1; }
static void t_inplace_other(dropout_desc *d) { static const ptrdiff_t s[2] = {1, 8}; dropout_desc_set_shape(d, 2, dims2); dropout_desc_set_strides(d, DROPOUT_OPERAND_IN, s); }
static void t_devc(dropout_desc *d) { static uint64_t a, c; dropout_desc_set_device_coords(d, &a, &c); }
static void t_magic(dropout_desc *d) { d->dropout__magic = 0; }
static void t_op(dropout_desc *d) { d->dropout__op = 42; }
static void t_dtype(dropout_desc *d) { d->dropout__dtype = 0; }
static void t_grad(dropout_desc *d) { d->dropout__grad = 3; }
static void t_bias12(dropout_desc *d) { dropout_desc_set_shape(d, 2, dims2); d->dropout__bias_len = 5; }
static void t_rule(dropout_desc *d) { d->dropout__plan.rule.bits = 7; }

static void case_codes(void)
{
   dropout_rule bad;
   dropout_plan p1, big;
   dropout_gen g;
   dropout_desc d;
   double dbl[4];
   dropout_rule_init(&rule, 0.25, DROPOUT_BITS_8);
   dropout_plan_at(&plan, &rule, dropout_key_make(1, 2), dropout_pos_make(3), N);
   dropout_plan_at_normals(&plan_n, &rule, dropout_key_make(1, 2), dropout_pos_make(3), N);
   /* rules and plans */
   EXPECT(dropout_rule_init(&bad, NAN_VAL, DROPOUT_BITS_8), DROPOUT_ERR_P);
   EXPECT(dropout_rule_init(&bad, -0.25, DROPOUT_BITS_8), DROPOUT_ERR_P);
   EXPECT(dropout_rule_init(&bad, 0.5, (dropout_bits)12), DROPOUT_ERR_BITS);
   EXPECT(dropout_rule_init(NULL, 0.5, DROPOUT_BITS_8), DROPOUT_ERR_NULL_RESULT);
   EXPECT(dropout_rule_init(&bad, 0.001, DROPOUT_BITS_8), DROPOUT_ERR_P_NEEDS_16);
   EXPECT(dropout_rule_init(&bad, 1e-6, DROPOUT_BITS_16), DROPOUT_ERR_P_NEEDS_32);
   EXPECT(dropout_rule_init(&bad, 1e-13, DROPOUT_BITS_32), DROPOUT_ERR_P_UNREALISABLE);
   EXPECT(dropout_rule_init_threshold(&bad, 65537, DROPOUT_BITS_16), DROPOUT_ERR_THRESHOLD);
   bad = rule; bad.threshold = 300;
   EXPECT(dropout_plan_at(&p1, &bad, dropout_key_make(1, 2), dropout_pos_make(0), 1), DROPOUT_ERR_RULE);
   EXPECT(dropout_plan_at(&p1, &rule, dropout_key_make(1, 2), dropout_pos_make(UINT64_MAX - 10), 12), DROPOUT_ERR_RANGE);
   EXPECT(dropout_plan_slice(&plan, 90, 7, &p1), DROPOUT_ERR_SLICE);
   EXPECT(dropout_plan_slice(&plan, 97, 0, &p1), DROPOUT_ERR_SLICE);
   dropout_gen_resume(&g, dropout_key_make(1, 1), UINT64_MAX - 3, (dropout_units)rule.bits);
   EXPECT(dropout_gen_plan(&g, &rule, 5, &p1), DROPOUT_ERR_RANGE);
   CHECK(g.next == UINT64_MAX - 3, "gen_plan moved the generator on error");
   EXPECT(dropout_fill_uniform_f64(dropout_key_make(0, 0), dropout_pos_make((uint64_t)1 << 63), dbl, 1), DROPOUT_ERR_RANGE);
   /* short calls */
   EXPECT(dropout_replay_f32(&plan, N, NULL, m, x), DROPOUT_ERR_NULL_OUTPUT);
   EXPECT(dropout_replay_f32(&plan, N, y, m, NULL), DROPOUT_ERR_NULL_INPUT);
   EXPECT(dropout_replay_f32(NULL, N, y, m, x), DROPOUT_ERR_NULL_PLAN);
   EXPECT(dropout_replay_f32(&plan, N - 1, y, m, x), DROPOUT_ERR_COUNT);
   EXPECT(dropout_backward_f32(&plan, (size_t)-16, y, x), DROPOUT_ERR_SIZE);
   dropout_gen_init(&g, dropout_key_make(1, 1));
   EXPECT(dropout_forward_f32(NULL, &rule, &p1, N, y, m, x), DROPOUT_ERR_NULL_GEN);
   EXPECT(dropout_forward_f32(&g, NULL, &p1, N, y, m, x), DROPOUT_ERR_NULL_RULE);
   EXPECT(dropout_forward_f32(&g, &rule, &p1, (size_t)(int)-16, y, m, x), DROPOUT_ERR_SIZE);
   EXPECT(dropout_forward_f32(&g, &rule, &p1, N, y, m, NULL), DROPOUT_ERR_NULL_INPUT);
   CHECK(g.next == 0, "forward moved the generator on error");
   {  /* a count no f32 buffer holds is SIZE (it names n) wherever the generator stands:
         0.9.0 said RANGE once g was near 2^64, as if the positions were the mistake */
      dropout_gen near;
      dropout_gen_resume(&near, dropout_key_make(1, 1), UINT64_MAX - 11, DROPOUT_UNITS_8);
      EXPECT(dropout_forward_f32(&near, &rule, &p1, (size_t)PTRDIFF_MAX / 4 + 1, y, m, x), DROPOUT_ERR_SIZE);
      EXPECT(dropout_bias_dropout_add_f32(&near, &rule, &p1, (size_t)PTRDIFF_MAX / 4 + 1, 1, y, m, x, r, r), DROPOUT_ERR_SIZE);
      CHECK(near.next == UINT64_MAX - 11, "a refused forward moved a generator near 2^64");
   }
   EXPECT(dropout_fill_u32(dropout_key_make(0, 0), dropout_pos_make(0), (uint32_t *)(void *)y, (size_t)-16), DROPOUT_ERR_SIZE);
   EXPECT(dropout_replay_f32(&plan, N, y + 1, m, y), DROPOUT_ERR_OVERLAP);          /* partly in place */
   EXPECT(dropout_replay_f32(&plan, N, y, (uint8_t *)(void *)(y + 4), x), DROPOUT_ERR_OVERLAP);   /* mask inside y */
   p1 = plan; p1.rule.bits = 9;
   EXPECT(dropout_replay_f32(&p1, N, y, m, x), DROPOUT_ERR_RULE);
   EXPECT(dropout_backward_f32(&p1, N, y, x), DROPOUT_ERR_RULE);
   big = plan; big.pos = UINT64_MAX - 5;
   EXPECT(dropout_backward_f32(&big, N, y, x), DROPOUT_ERR_RANGE);
   /* a plan's units against the call's draws (read as the other kind, its positions are
      other stream words than were reserved) */
   p1 = plan; p1.units = DROPOUT_UNITS_NONE;   /* a plan written by hand */
   EXPECT(dropout_replay_f32(&p1, N, y, m, x), DROPOUT_ERR_PLAN_UNITS);
   p1 = plan; dropout_rule_init(&p1.rule, 0.25, DROPOUT_BITS_16);   /* another width's rule swapped in */
   EXPECT(dropout_backward_f32(&p1, N, y, x), DROPOUT_ERR_PLAN_UNITS);
   EXPECT(dropout_replay_f32(&plan_n, N, y, m, x), DROPOUT_ERR_PLAN_UNITS);
   EXPECT(dropout_mask(&plan_n, N, m), DROPOUT_ERR_PLAN_UNITS);
   EXPECT(dropout_bias_dropout_add_replay_f32(&plan_n, N, 12, y, m, x, b, r), DROPOUT_ERR_PLAN_UNITS);
   EXPECT(run(DROPOUT_OP_GAUSSIAN, &plan, NULL, y, NULL, x, NULL, NULL), DROPOUT_ERR_PLAN_UNITS);
   EXPECT(run(DROPOUT_OP_FORWARD, &plan_n, NULL, y, m, x, NULL, NULL), DROPOUT_ERR_PLAN_UNITS);
   EXPECT(dropout_mask(&plan, N, NULL), DROPOUT_ERR_NULL_MASK);
   EXPECT(dropout_apply_mask_f32(&rule, N, y, NULL, x), DROPOUT_ERR_NULL_MASK);
   EXPECT(dropout_apply_mask_f32(&bad, N, y, m, x), DROPOUT_ERR_RULE);
   EXPECT(dropout_bias_dropout_add_replay_f32(&plan, N, 0, y, m, x, b, r), DROPOUT_ERR_BIAS_LEN);
   EXPECT(dropout_bias_dropout_add_replay_f32(&plan, N, 7, y, m, x, b, r), DROPOUT_ERR_BIAS_LEN);
   EXPECT(dropout_bias_dropout_add_replay_f32(&plan, N, 12, y, m, x, NULL, r), DROPOUT_ERR_NULL_BIAS);
   EXPECT(dropout_bias_dropout_add_replay_f32(&plan, N, 12, y, m, x, b, NULL), DROPOUT_ERR_NULL_RESIDUAL);
   EXPECT(dropout_bias_dropout_add_replay_f32(&plan, N + 12, 12, y, m, x, b, r), DROPOUT_ERR_COUNT);
   /* descriptor setters */
   CHECK(dropout_desc_init(&d, (dropout_op)0, DROPOUT_DTYPE_F32, &plan) == DROPOUT_ERR_OP, "op 0");
   CHECK(dropout_desc_init(&d, (dropout_op)10, DROPOUT_DTYPE_F32, &plan) == DROPOUT_ERR_OP, "op 10");
   CHECK(dropout_desc_init(&d, DROPOUT_OP_FORWARD, (dropout_dtype)5, &plan) == DROPOUT_ERR_DTYPE, "dtype 5");
   CHECK(dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, NULL) == DROPOUT_ERR_NULL_PLAN, "plan NULL");
   {
      dropout_rule all;
      dropout_plan pa;
      dropout_rule_init(&all, 1.0, DROPOUT_BITS_8);
      dropout_plan_at_normals(&pa, &all, dropout_key_make(0, 0), dropout_pos_make(0), 4);
      CHECK(dropout_desc_init(&d, DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F32, &pa) == DROPOUT_ERR_P, "GAUSSIAN p = 1");
   }
   dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
   {
      static const size_t d0[2] = {8, 0};
      static const ptrdiff_t s0[2] = {12, 0}, sov[2] = {1, 1}, sbig[2] = {PTRDIFF_MAX, 1};
      size_t d9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 96};
      EXPECT_SET(&d, dropout_desc_set_shape(&d, 0, dims2), DROPOUT_ERR_RANK);
      EXPECT_SET(&d, dropout_desc_set_shape(&d, 9, d9), DROPOUT_ERR_RANK);
      EXPECT_SET(&d, dropout_desc_set_shape(&d, 2, NULL), DROPOUT_ERR_NULL_DIMS);
      EXPECT_SET(&d, dropout_desc_set_shape(&d, 2, dims_big), DROPOUT_ERR_SHAPE_OVERFLOW);
      EXPECT_SET(&d, dropout_desc_set_broadcast(&d, 2), DROPOUT_ERR_BROADCAST);
      EXPECT_SET(&d, dropout_desc_set_grad(&d, (dropout_grad)2), DROPOUT_ERR_GRAD);
      EXPECT_SET(&d, dropout_desc_set_grad(&d, DROPOUT_GRAD_ACCUMULATE), DROPOUT_ERR_OP);   /* forward has none */
      EXPECT_SET(&d, dropout_desc_set_sigma(&d, 1.0), DROPOUT_ERR_OP);
      EXPECT_SET(&d, dropout_desc_set_bias_len(&d, 12), DROPOUT_ERR_OP);
      EXPECT_SET(&d, dropout_desc_set_strides(&d, DROPOUT_OPERAND_RESIDUAL, s0), DROPOUT_ERR_OP);
      EXPECT_SET(&d, dropout_desc_set_strides(&d, (dropout_operand)3, s0), DROPOUT_ERR_OPERAND);
      EXPECT_SET(&d, dropout_desc_set_strides(&d, (dropout_operand)-1, NULL), DROPOUT_ERR_OPERAND);
      EXPECT_SET(&d, dropout_desc_set_device_coords(&d, NULL, &plan.pos), DROPOUT_ERR_NULL);
      {  /* a GPU thread loads each as a 64-bit word: one not 8-byte aligned is refused */
         static uint64_t words[3];
         const uint64_t *odd = (const uint64_t *)(const void *)((const unsigned char *)words + 4);
         EXPECT_SET(&d, dropout_desc_set_device_coords(&d, &words[0], odd), DROPOUT_ERR_DEVICE_COORDS);
         EXPECT_SET(&d, dropout_desc_set_device_coords(&d, odd, &words[2]), DROPOUT_ERR_DEVICE_COORDS);
      }
      dropout_desc_set_shape(&d, 2, dims2);
      EXPECT_SET(&d, dropout_desc_set_strides(&d, DROPOUT_OPERAND_OUT, s0), DROPOUT_ERR_STRIDE);
      EXPECT_SET(&d, dropout_desc_set_strides(&d, DROPOUT_OPERAND_OUT, sov), DROPOUT_ERR_OVERLAP);
      EXPECT_SET(&d, dropout_desc_set_strides(&d, DROPOUT_OPERAND_OUT, sbig), DROPOUT_ERR_STRIDE);
      EXPECT_SET(&d, dropout_desc_set_strides(&d, DROPOUT_OPERAND_IN, sbig), DROPOUT_ERR_STRIDE);
      CHECK(dropout_desc_set_strides(&d, DROPOUT_OPERAND_IN, s0) == DROPOUT_OK, "a zero input stride is allowed");
      CHECK(dropout_desc_set_shape(&d, 2, d0) == DROPOUT_OK, "a zero dim is allowed (a second shape resets strides)");
   }
   {  /* strides before the first shape, never run: the setters in the wrong order (the shape
         would reset them and the view run contiguous): refused; NULL strides first reset */
      dropout_desc e;
      const ptrdiff_t s2[1] = { 2 };
      const size_t d42[2] = { 4, 2 };
      dropout_plan p8;
      CHECK(dropout_plan_at(&p8, &rule, dropout_key_make(1, 2), dropout_pos_make(0), 8) == 0, "plan");
      CHECK(dropout_desc_init(&e, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &p8) == 0, "init");
      CHECK(dropout_desc_set_strides(&e, DROPOUT_OPERAND_OUT, s2) == DROPOUT_OK, "1-D strides on the default shape");
      EXPECT_SET(&e, dropout_desc_set_shape(&e, 2, d42), DROPOUT_ERR_SHAPE_RESETS);
      CHECK(dropout_desc_set_strides(&e, DROPOUT_OPERAND_OUT, NULL) == DROPOUT_OK &&
            dropout_desc_set_shape(&e, 2, d42) == DROPOUT_OK, "NULL strides, then the shape");
   }
   {  /* strides of an earlier shape, reset by a later one: a column-major (4, 8) view that
         ran, reshaped to (3, 8) for a smaller last batch, would run contiguous (writing
         outside the view, every call 0) once its strides are not set again: refused
         (DROPOUT_ERR_STRIDES_STALE) until each is set again or cleared with NULL; the
         pending strides carry over a second shape; a reset of position strides too */
      dropout_desc e;
      dropout_tensors t;
      dropout_plan p32, p24;
      const size_t d48[2] = { 4, 8 }, d38[2] = { 3, 8 }, d28[2] = { 2, 8 };
      const ptrdiff_t cm[2] = { 1, 4 }, cm3[2] = { 1, 4 };   /* column-major in a 4-row buffer */
      const uint64_t ps[2] = { 8, 1 };
      CHECK(dropout_plan_at(&p32, &rule, dropout_key_make(1, 2), dropout_pos_make(0), 32) == 0 &&
            dropout_plan_at(&p24, &rule, dropout_key_make(1, 2), dropout_pos_make(32), 24) == 0, "plans");
      t.out = y; t.mask = NULL; t.in = x; t.bias = NULL; t.residual = NULL;
      CHECK(dropout_desc_init(&e, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &p32) == 0 && dropout_desc_set_shape(&e, 2, d48) == 0 &&
            dropout_desc_set_strides(&e, DROPOUT_OPERAND_OUT, cm) == 0 && dropout_desc_set_strides(&e, DROPOUT_OPERAND_IN, cm) == 0,
            "a column-major view");
      snap();
      CHECK(dropout_run(&e, &t) == DROPOUT_OK, "the view runs");
      CHECK(dropout_desc_set_shape(&e, 2, d38) == DROPOUT_OK && dropout_desc_set_plan(&e, &p24) == DROPOUT_OK,
            "a smaller batch's shape and plan are taken");
      EXPECT(dropout_run(&e, &t), DROPOUT_ERR_STRIDES_STALE);
      CHECK(dropout_desc_set_strides(&e, DROPOUT_OPERAND_OUT, cm3) == DROPOUT_OK, "out's strides again");
      EXPECT(dropout_run(&e, &t), DROPOUT_ERR_STRIDES_STALE);   /* in's still pending */
      CHECK(dropout_desc_set_shape(&e, 2, d28) == DROPOUT_OK, "a second shape");
      CHECK(dropout_desc_set_strides(&e, DROPOUT_OPERAND_OUT, cm3) == DROPOUT_OK, "out's strides for it");
      EXPECT(dropout_run(&e, &t), DROPOUT_ERR_STRIDES_STALE);   /* in's carried over */
      {
         dropout_job job;
         EXPECT(dropout_lower(&e, &t, &job), DROPOUT_ERR_STRIDES_STALE);   /* every backend's check */
      }
      CHECK(dropout_desc_set_shape(&e, 2, d38) == DROPOUT_OK && dropout_desc_set_strides(&e, DROPOUT_OPERAND_OUT, cm3) == DROPOUT_OK &&
            dropout_desc_set_strides(&e, DROPOUT_OPERAND_IN, NULL) == DROPOUT_OK, "out's strides, in's cleared on purpose");
      snap();
      CHECK(dropout_run(&e, &t) == DROPOUT_OK, "then it runs");
      CHECK(dropout_desc_set_shape(&e, 2, d38) == DROPOUT_OK && dropout_desc_set_strides(&e, DROPOUT_OPERAND_OUT, NULL) == DROPOUT_OK,
            "a shape, and out's strides cleared on purpose");
      CHECK(dropout_plan_at(&p24, &rule, dropout_key_make(1, 2), dropout_pos_make(56), 24) == 0 &&
            dropout_desc_set_plan(&e, &p24) == DROPOUT_OK && dropout_run(&e, &t) == DROPOUT_OK, "a contiguous view runs");
      /* position strides */
      CHECK(dropout_plan_at(&p32, &rule, dropout_key_make(1, 2), dropout_pos_make(64), 4 * 8) == 0 &&
            dropout_desc_init(&e, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &p32) == 0 && dropout_desc_set_shape(&e, 2, d48) == 0, "a (4, 8)");
      {
         const size_t d41[2] = { 4, 1 };
         CHECK(dropout_desc_set_shape(&e, 2, d41) == 0 && dropout_desc_set_position_strides(&e, ps) == 0 &&
               dropout_plan_at(&p24, &rule, dropout_key_make(1, 2), dropout_pos_make(64), 25) == 0 &&
               dropout_desc_set_plan(&e, &p24) == 0, "a (4, 1) column of a (4, 8), by position strides");
         CHECK(dropout_desc_set_shape(&e, 2, d41) == DROPOUT_OK, "the same shape again");
         EXPECT(dropout_run(&e, &t), DROPOUT_ERR_STRIDES_STALE);
         CHECK(dropout_desc_set_position_strides(&e, ps) == DROPOUT_OK, "position strides again");
         snap();
         CHECK(dropout_run(&e, &t) == DROPOUT_OK, "then it runs");
      }
      {  /* strides the op does not address are not asked for: a strided forward reshaped and
            made the mask op (which takes no out or in), and a shape of no element */
         const size_t d08[2] = { 0, 8 };
         dropout_tensors tm;
         tm.out = NULL; tm.mask = m; tm.in = NULL; tm.bias = NULL; tm.residual = NULL;
         CHECK(dropout_plan_at(&p32, &rule, dropout_key_make(1, 2), dropout_pos_make(200), 32) == 0 &&
               dropout_desc_init(&e, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &p32) == 0 && dropout_desc_set_shape(&e, 2, d48) == 0 &&
               dropout_desc_set_strides(&e, DROPOUT_OPERAND_OUT, cm) == 0 && dropout_run(&e, &t) == 0, "a strided forward ran");
         CHECK(dropout_desc_set_shape(&e, 2, d48) == 0 && dropout_desc_set_op(&e, DROPOUT_OP_MASK) == 0, "reshaped, made the mask op");
         CHECK(dropout_plan_at(&p32, &rule, dropout_key_make(1, 2), dropout_pos_make(300), 32) == 0 &&
               dropout_desc_set_plan(&e, &p32) == 0 && dropout_run(&e, &tm) == DROPOUT_OK, "the mask op runs");
         CHECK(dropout_desc_set_op(&e, DROPOUT_OP_FORWARD) == 0 && dropout_desc_set_shape(&e, 2, d08) == 0, "an empty last batch");
         CHECK(dropout_plan_at(&p32, &rule, dropout_key_make(1, 2), dropout_pos_make(400), 0) == 0 &&
               dropout_desc_set_plan(&e, &p32) == 0, "its plan");
         t.out = NULL; t.in = NULL;
         EXPECT(dropout_run(&e, &t), DROPOUT_OK);
         t.out = y; t.in = x;
      }
   }
   {  /* a mask with position strides: its size stated where the span passes the elements
         (a mask sized for the elements would be written past its end); not where it does
         not (a 1-rank block, 32 positions for 32 elements) */
      dropout_desc e;
      dropout_tensors t;
      dropout_plan pl;
      const size_t d48[2] = { 4, 8 }, d44[2] = { 4, 4 };
      const uint64_t ps8[2] = { 8, 1 };
      t.out = y; t.mask = m; t.in = x; t.bias = NULL; t.residual = NULL;
      CHECK(dropout_plan_at(&pl, &rule, dropout_key_make(3, 4), dropout_pos_make(0), 32) == 0 &&
            dropout_desc_init(&e, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &pl) == 0 && dropout_desc_set_shape(&e, 2, d48) == 0 &&
            dropout_desc_set_position_strides(&e, ps8) == 0, "a (4, 8) with position strides {8, 1}");
      snap();
      CHECK(dropout_run(&e, &t) == DROPOUT_OK, "32 positions for 32 elements: no size asked");
      CHECK(dropout_plan_at(&pl, &rule, dropout_key_make(3, 4), dropout_pos_make(64), 28) == 0 &&
            dropout_desc_set_shape(&e, 2, d44) == 0 && dropout_desc_set_position_strides(&e, ps8) == 0 &&
            dropout_desc_set_plan(&e, &pl) == 0, "a (4, 4) block of it: 28 positions for 16 elements");
      EXPECT(dropout_run(&e, &t), DROPOUT_ERR_MASK_BYTES);
      CHECK(dropout_desc_set_mask_bytes(&e, 3) == DROPOUT_OK, "3 bytes stated");
      EXPECT(dropout_run(&e, &t), DROPOUT_ERR_MASK_BYTES);
      CHECK(dropout_desc_set_mask_bytes(&e, 4) == DROPOUT_OK, "4 bytes stated");
      snap();
      CHECK(dropout_run(&e, &t) == DROPOUT_OK, "then it runs");
   }
   {  /* strides whose span is no address range, on an operand the op does not read or on a
         dim of 0 elements: refused, or harmless; never a trap (the merge of dims in
         dropout_lower had divided PTRDIFF_MIN by -1, SIGFPE on x86) */
      static const size_t d22[2] = {2, 2}, d02[2] = {0, 2};
      static const ptrdiff_t smin[2] = {PTRDIFF_MIN, -1}, sone[2] = {2, 1};
      dropout_plan p4, p0;
      dropout_job job;
      dropout_tensors tm, tf;
      tm.out = NULL; tm.mask = m; tm.in = NULL; tm.bias = NULL; tm.residual = NULL;
      tf.out = y; tf.mask = NULL; tf.in = x; tf.bias = NULL; tf.residual = NULL;
      CHECK(dropout_plan_at(&p4, &rule, dropout_key_make(1, 2), dropout_pos_make(0), 4) == DROPOUT_OK &&
            dropout_plan_at(&p0, &rule, dropout_key_make(1, 2), dropout_pos_make(0), 0) == DROPOUT_OK, "plans of 4 and 0");
      dropout_desc_init(&d, DROPOUT_OP_MASK, DROPOUT_DTYPE_F32, &p4);
      dropout_desc_set_shape(&d, 2, d22);
      EXPECT_SET(&d, dropout_desc_set_strides(&d, DROPOUT_OPERAND_IN, smin), DROPOUT_ERR_STRIDE);
      snap();
      CHECK(dropout_lower(&d, &tm, &job) == DROPOUT_OK && dropout_run(&d, &tm) == DROPOUT_OK,
            "the mask op with no input strides set runs");
      dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &p0);
      dropout_desc_set_shape(&d, 2, d02);
      CHECK(dropout_desc_set_strides(&d, DROPOUT_OPERAND_IN, smin) == DROPOUT_OK &&
            dropout_desc_set_strides(&d, DROPOUT_OPERAND_OUT, sone) == DROPOUT_OK,
            "a stride on a dim of 0 elements is any stride");
      EXPECT(dropout_lower(&d, &tf, &job), DROPOUT_OK);
      EXPECT(dropout_run(&d, &tf), DROPOUT_OK);
      {  /* device coordinates (CUDA graphs) inside what the call writes: every thread reads
            them, so a call that wrote them would draw from positions it had overwritten */
         static uint64_t coords[2];
         dropout_tensors tc;
         dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
         tc.out = y; tc.mask = m; tc.in = x; tc.bias = NULL; tc.residual = NULL;
         dropout_desc_set_device_coords(&d, &coords[0], (const uint64_t *)(const void *)(y + 4));
         EXPECT(dropout_lower(&d, &tc, &job), DROPOUT_ERR_OVERLAP);
         dropout_desc_set_device_coords(&d, (const uint64_t *)(const void *)(m + 8), &coords[1]);
         EXPECT(dropout_lower(&d, &tc, &job), DROPOUT_ERR_OVERLAP);
         dropout_desc_set_device_coords(&d, &coords[0], &coords[1]);
         EXPECT(dropout_lower(&d, &tc, &job), DROPOUT_OK);
      }
      /* a plan filled by hand with a count dropout_plan_at refuses (past PTRDIFF_MAX): refused
         where it is taken, as there (dropout_opencl.h's mask bounds had wrapped on it) */
      p4.count = UINT64_MAX;
      EXPECT(dropout_desc_init(&d, DROPOUT_OP_MASK, DROPOUT_DTYPE_F32, &p4), DROPOUT_ERR_SIZE);
   }
   {  /* set_op refuses a setting the new op does not take (the fused op's residual strides),
         as set_strides does; clearing them fits every op */
      static const size_t d2[2] = {8, 12};
      static const ptrdiff_t sres[2] = {24, 1};
      dropout_desc_init(&d, DROPOUT_OP_BIAS_DROPOUT_ADD, DROPOUT_DTYPE_F32, &plan);
      dropout_desc_set_shape(&d, 2, d2);
      CHECK(dropout_desc_set_strides(&d, DROPOUT_OPERAND_RESIDUAL, sres) == DROPOUT_OK, "residual strides on the fused op");
      EXPECT_SET(&d, dropout_desc_set_op(&d, DROPOUT_OP_FORWARD), DROPOUT_ERR_OP);
      CHECK(dropout_desc_set_strides(&d, DROPOUT_OPERAND_RESIDUAL, NULL) == DROPOUT_OK &&
            dropout_desc_set_op(&d, DROPOUT_OP_FORWARD) == DROPOUT_OK &&
            dropout_desc_set_strides(&d, DROPOUT_OPERAND_RESIDUAL, NULL) == DROPOUT_OK,
            "cleared, the forward takes the descriptor; clearing again fits the forward");
   }
   dropout_desc_init(&d, DROPOUT_OP_NOISE, DROPOUT_DTYPE_F32, &plan_n);
   EXPECT_SET(&d, dropout_desc_set_sigma(&d, -1.0), DROPOUT_ERR_SIGMA);
   EXPECT_SET(&d, dropout_desc_set_sigma(&d, INF_VAL), DROPOUT_ERR_SIGMA);
   EXPECT_SET(&d, dropout_desc_set_sigma(&d, NAN_VAL), DROPOUT_ERR_SIGMA);
   /* NOISE applies sigma rounded to float: one that rounds to +inf is refused (2^128 - 2^103,
      FLT_MAX plus half its ulp, rounds to +inf by ties to even), the float just below it is not */
   EXPECT_SET(&d, dropout_desc_set_sigma(&d, 3.4028235677973366e38), DROPOUT_ERR_SIGMA);
   EXPECT_SET(&d, dropout_desc_set_sigma(&d, 1e300), DROPOUT_ERR_SIGMA);
   CHECK(dropout_desc_set_sigma(&d, 3.4028234663852886e38) == DROPOUT_OK, "set_sigma(FLT_MAX) accepted");
   CHECK(dropout_desc_set_sigma(&d, 3.4028235677973362e38) == DROPOUT_OK, "set_sigma(the double below 2^128 - 2^103: rounds to FLT_MAX) accepted");
   dropout_desc_init(&d, DROPOUT_OP_BIAS_DROPOUT_ADD, DROPOUT_DTYPE_F32, &plan);
   EXPECT_SET(&d, dropout_desc_set_bias_len(&d, 0), DROPOUT_ERR_BIAS_LEN);
   EXPECT_SET(&d, dropout_desc_set_bias_len(&d, 7), DROPOUT_ERR_BIAS_LEN);
   /* dropout_run: every check before any write */
   EXPECT(run(DROPOUT_OP_FORWARD, &plan, t_rank, y, m, x, NULL, NULL), DROPOUT_ERR_RANK);
   EXPECT(run(DROPOUT_OP_FORWARD, &plan, t_bcast, y, m, x, NULL, NULL), DROPOUT_ERR_BROADCAST);
   EXPECT(run(DROPOUT_OP_FORWARD, &plan, t_count, y, m, x, NULL, NULL), DROPOUT_ERR_SHAPE_COUNT);
   EXPECT(run(DROPOUT_OP_FORWARD, &plan, t_ostride0, y, m, x, NULL, NULL), DROPOUT_ERR_STRIDE);
   EXPECT(run(DROPOUT_OP_FORWARD, &plan, t_overlap, y, m, x, NULL, NULL), DROPOUT_ERR_OVERLAP);
   EXPECT(run(DROPOUT_OP_FORWARD, &plan, t_huge, y, m, x, NULL, NULL), DROPOUT_ERR_STRIDE);
   EXPECT(run(DROPOUT_OP_FORWARD, &plan, t_inplace_other, y, m, y, NULL, NULL), DROPOUT_ERR_OVERLAP);
   EXPECT(run(DROPOUT_OP_FORWARD, &plan, t_shape, y, (uint8_t *)(void *)x, x, NULL, NULL), DROPOUT_ERR_OVERLAP);  /* mask over x */
   EXPECT(run(DROPOUT_OP_FORWARD, &plan, t_devc, y, m, x, NULL, NULL), DROPOUT_ERR_DEVICE_COORDS);
   EXPECT(run(DROPOUT_OP_FORWARD, &plan, t_magic, y, m, x, NULL, NULL), DROPOUT_ERR_DESC);
   EXPECT(run(DROPOUT_OP_FORWARD, &plan, t_op, y, m, x, NULL, NULL), DROPOUT_ERR_OP);
   EXPECT(run(DROPOUT_OP_FORWARD, &plan, t_dtype, y, m, x, NULL, NULL), DROPOUT_ERR_DTYPE);
   EXPECT(run(DROPOUT_OP_BACKWARD, &plan, t_grad, y, NULL, x, NULL, NULL), DROPOUT_ERR_GRAD);
   EXPECT(run(DROPOUT_OP_FORWARD, &plan, t_rule, y, m, x, NULL, NULL), DROPOUT_ERR_RULE);
   EXPECT(run(DROPOUT_OP_BACKWARD, &plan, NULL, y, m, x, NULL, NULL), DROPOUT_ERR_OP);      /* a mask BACKWARD does not take */
   EXPECT(run(DROPOUT_OP_FORWARD, &plan, NULL, y, m, x, b, NULL), DROPOUT_ERR_OP);          /* a bias FORWARD does not take */
   EXPECT(run(DROPOUT_OP_MASK, &plan, NULL, y, m, NULL, NULL, NULL), DROPOUT_ERR_OP);
   EXPECT(run(DROPOUT_OP_APPLY_MASK, &plan, NULL, y, NULL, x, NULL, NULL), DROPOUT_ERR_NULL_MASK);
   EXPECT(run(DROPOUT_OP_FORWARD, &plan, NULL, NULL, m, x, NULL, NULL), DROPOUT_ERR_NULL_OUTPUT);
   EXPECT(run(DROPOUT_OP_NOISE, &plan_n, NULL, y, NULL, x, NULL, NULL), DROPOUT_ERR_SIGMA);    /* sigma never set */
   EXPECT(run(DROPOUT_OP_BIAS_DROPOUT_ADD, &plan, t_bias12, y, m, x, b, r), DROPOUT_ERR_BIAS_LEN);
   EXPECT(run(DROPOUT_OP_BIAS_DROPOUT_ADD, &plan, t_shape, y, m, x, b, NULL), DROPOUT_ERR_NULL_RESIDUAL);
   EXPECT(run(DROPOUT_OP_BIAS_DROPOUT_ADD, &plan, t_shape, y, m, x, y + 3, r), DROPOUT_ERR_OVERLAP);  /* bias inside y */
   EXPECT(dropout_run(NULL, NULL), DROPOUT_ERR_NULL_DESC);
   dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
   EXPECT(dropout_run(&d, NULL), DROPOUT_ERR_NULL_TENSORS);
   {
      dropout_desc z;
      dropout_tensors t;
      uint64_t pcount;
      memset(&z, 0, sizeof z);
      t.out = y; t.mask = m; t.in = x; t.bias = NULL; t.residual = NULL;
      EXPECT(dropout_run(&z, &t), DROPOUT_ERR_DESC);
      EXPECT(dropout_desc_set_shape(&z, 1, dims2), DROPOUT_ERR_DESC);
      EXPECT(dropout_desc_positions(&z, &pcount), DROPOUT_ERR_DESC);
   }
   case_end("api errors: every code from its argument, with nothing written (output, mask, inputs, generator, descriptor)");
}

static void case_messages(void)
{
   int c, k;
   const char *msg[46];
   for (c = 0; c <= 45; ++c) {
      msg[c] = dropout_strerror(-c);
      CHECK(strstr(msg[c], "unknown") == NULL, "code %d has no message", -c);
      for (k = 0; k < c; ++k) CHECK(strcmp(msg[c], msg[k]) != 0, "codes %d and %d share a message", -c, -k);
   }
   CHECK(strstr(dropout_strerror(DROPOUT_ERR_RANK), "rank") && strstr(dropout_strerror(DROPOUT_ERR_BROADCAST), "broadcast") &&
         strstr(dropout_strerror(DROPOUT_ERR_SIGMA), "sigma") && strstr(dropout_strerror(DROPOUT_ERR_SHAPE_OVERFLOW), "shape") &&
         strstr(dropout_strerror(DROPOUT_ERR_STRIDE), "stride") && strstr(dropout_strerror(DROPOUT_ERR_BIAS_LEN), "bias_len"),
         "the messages name their argument");
   CHECK(strstr(dropout_strerror(DROPOUT_ERR_NULL_PLAN), "plan") && strstr(dropout_strerror(DROPOUT_ERR_NULL_RULE), "rule") &&
         strstr(dropout_strerror(DROPOUT_ERR_NULL_GEN), "generator") && strstr(dropout_strerror(DROPOUT_ERR_NULL_MASK), "mask") &&
         strstr(dropout_strerror(DROPOUT_ERR_NULL_BIAS), "bias") && strstr(dropout_strerror(DROPOUT_ERR_NULL_RESIDUAL), "residual") &&
         strstr(dropout_strerror(DROPOUT_ERR_NULL_OUTPUT), "output") && strstr(dropout_strerror(DROPOUT_ERR_NULL_INPUT), "input") &&
         !strstr(dropout_strerror(DROPOUT_ERR_NULL_PLAN), "rule"), "a NULL message names the one argument");
   CHECK(strstr(dropout_strerror(DROPOUT_ERR_GEN_MOVED), "g:") != NULL, "the moved generator's message names g");
   CHECK(strstr(dropout_strerror(DROPOUT_ERR_CAPTURE), "graph") != NULL, "the capture message names the graph");
   CHECK(strstr(dropout_strerror(DROPOUT_ERR_PLAN_RAN), "d:") && strstr(dropout_strerror(DROPOUT_ERR_PLAN_RAN), "dropout_desc_new_step") &&
         strstr(dropout_strerror(DROPOUT_ERR_PLAN_RAN), "dropout_desc_replay"), "the spent plan's message names d and both ways on");
   CHECK(strstr(dropout_strerror(DROPOUT_ERR_DESC_MOVED), "d:") && strstr(dropout_strerror(DROPOUT_ERR_DESC_MOVED), "dropout_desc_move"),
         "the moved descriptor's message names d and the move");
   CHECK(strstr(dropout_strerror(DROPOUT_ERR_OPERAND), "which:") != NULL, "the operand's message names which");
   CHECK(strstr(dropout_strerror(-46), "unknown") != NULL, "-46 is not a code yet");
   case_end("api errors: each code has its own message, naming the argument");
}

int main(void)
{
   case_codes();
   case_messages();
   return check_exit();
}
