/* test_strided.c - strided views give the bits of the contiguous copy. For every op of
   dropout_run and every dtype, on a few shapes and broadcast sets, the input (and the
   residual) and the output are laid out transposed, sliced (padded), flipped (negative
   strides), a mix of the three, and for inputs with a zero stride (a dim broadcast in
   memory); the output is then read back in logical order. Oracle: the same descriptor on
   contiguous buffers (itself == the 0.1.0 calls, test_equal.c), byte for byte, with the
   output storage outside the view untouched (canaries) and the same mask. Also:
   DROPOUT_GRAD_ACCUMULATE == overwrite into a scratch buffer, then acc + g. */
#include <stdio.h>
#include <stdlib.h>
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"
#include "data.h"

#define CAP 8192   /* storage elements */

typedef struct layout { ptrdiff_t st[DROPOUT_MAX_RANK]; ptrdiff_t base; size_t span; } layout;

/* kind 0 contiguous, 1 transposed, 2 padded, 3 flipped, 4 transposed + padded + some dims
   flipped, 5 like 0 with a zero stride on dim 0 (inputs only) */
static void make_layout(int kind, int rank, const size_t *dims, layout *L)
{
   int perm[DROPOUT_MAX_RANK], k, d;
   ptrdiff_t acc = 1;
   for (k = 0; k < rank; ++k) perm[k] = (kind == 1 || kind == 4) ? rank - 1 - k : k;
   for (k = rank - 1; k >= 0; --k) {
      size_t pad = (kind == 2 || kind == 4) ? (size_t)(k % 2 + 1) : 0;
      d = perm[k];
      L->st[d] = acc;
      acc *= (ptrdiff_t)(dims[d] + pad);
   }
   L->span = (size_t)acc;
   L->base = 0;
   for (d = 0; d < rank; ++d) {
      int flip = kind == 3 || (kind == 4 && d % 2 == 0);
      if (flip) { L->base += L->st[d] * (ptrdiff_t)(dims[d] - 1); L->st[d] = -L->st[d]; }
   }
   if (kind == 5) L->st[0] = 0;
}

/* storage offset of logical element i (row-major over dims) */
static ptrdiff_t offset_of(const layout *L, int rank, const size_t *dims, size_t i)
{
   ptrdiff_t off = L->base;
   int d;
   for (d = rank - 1; d >= 0; --d) { off += (ptrdiff_t)(i % dims[d]) * L->st[d]; i /= dims[d]; }
   return off;
}

static unsigned char xs[CAP * 8], rs[CAP * 8], ys[CAP * 8], yref[CAP * 8], xl[CAP * 8], rl[CAP * 8], bias[256 * 8], yinit[CAP * 8];
static uint8_t m_in[CAP / 8], m_ref[CAP / 8 + 8], m_out[CAP / 8 + 8];

static int setup(dropout_desc *d, int op, int dt, const dropout_plan *pl, int rank, const size_t *dims, unsigned bc)
{
   int err = dropout_desc_init(d, (dropout_op)op, (dropout_dtype)dt, pl);
   if (!err) err = dropout_desc_set_shape(d, rank, dims);
   if (!err) err = dropout_desc_set_broadcast(d, bc);
   if (!err && op == DROPOUT_OP_NOISE) err = dropout_desc_set_sigma(d, 0.75);
   return err;
}

static void case_views(int accumulate)
{
   static const size_t shapes[3][4] = {{3, 4, 37, 0}, {2, 130, 0, 0}, {5, 1, 9, 3}};
   static const int ranks[3] = {3, 2, 4};
   static const unsigned bcs[4] = {0, 1, 2, 5};
   static const int ops[8] = {DROPOUT_OP_FORWARD, DROPOUT_OP_BACKWARD, DROPOUT_OP_APPLY_MASK, DROPOUT_OP_ALPHA_FORWARD,
                              DROPOUT_OP_ALPHA_BACKWARD, DROPOUT_OP_GAUSSIAN, DROPOUT_OP_NOISE, DROPOUT_OP_BIAS_DROPOUT_ADD};
   int sh, o, dt, b, lin, lout;
   for (sh = 0; sh < 3; ++sh)
      for (o = 0; o < 8; ++o)
         for (dt = 1; dt <= 4; ++dt)
            for (b = 0; b < 4; ++b)
               for (lin = 0; lin < 6; ++lin)
                  for (lout = 0; lout < 5; ++lout) {
                     int rank = ranks[sh], op = ops[o], err, k;
                     const size_t *dims = shapes[sh];
                     unsigned bc = bcs[b] & ((1u << rank) - 1u);
                     size_t n = 1, np = 1, es = data_esize(dt), i;
                     dropout_rule r;
                     dropout_plan pl;
                     dropout_desc d;
                     dropout_tensors t = {0}, tc = {0};
                     layout Li, Lo;
                     int bda = op == DROPOUT_OP_BIAS_DROPOUT_ADD, writes_mask, grad;
                     grad = op == DROPOUT_OP_BACKWARD || op == DROPOUT_OP_ALPHA_BACKWARD || op == DROPOUT_OP_APPLY_MASK || op == DROPOUT_OP_GAUSSIAN;
                     if (accumulate && !grad) continue;
                     writes_mask = op == DROPOUT_OP_FORWARD || op == DROPOUT_OP_ALPHA_FORWARD || bda;
                     for (k = 0; k < rank; ++k) { n *= dims[k]; if (!((bc >> k) & 1u)) np *= dims[k]; }
                     dropout_rule_init_threshold(&r, 77, DROPOUT_BITS_8);
                     (op == DROPOUT_OP_GAUSSIAN || op == DROPOUT_OP_NOISE ? dropout_plan_at_normals : dropout_plan_at)(
                        &pl, &r, dropout_key_make(2024, (uint64_t)op), dropout_pos_make(61), np);
                     make_layout(lin, rank, dims, &Li);
                     make_layout(lout, rank, dims, &Lo);
                     /* logical inputs; with a zero stride on dim 0 they repeat along it */
                     data_fill(dt, xl, n); data_fill(dt, rl, n); data_fill(dt, bias, dims[rank - 1]);
                     if (lin == 5)
                        for (i = 0; i < n; ++i) {
                           size_t i0 = i % (n / dims[0]);
                           memcpy(xl + i * es, xl + i0 * es, es);
                           memcpy(rl + i * es, rl + i0 * es, es);
                        }
                     for (i = 0; i < np / 8 + 1; ++i) m_in[i] = (uint8_t)data_rand();
                     memset(xs, 0xEE, sizeof xs); memset(rs, 0xEE, sizeof rs);
                     for (i = 0; i < n; ++i) {
                        memcpy(xs + (size_t)offset_of(&Li, rank, dims, i) * es, xl + i * es, es);
                        memcpy(rs + (size_t)offset_of(&Li, rank, dims, i) * es, rl + i * es, es);
                     }
                     /* the output's initial values (accumulate adds to them) */
                     data_fill(dt, yinit, n);
                     memset(ys, 0xC3, sizeof ys);
                     for (i = 0; i < n; ++i) memcpy(ys + (size_t)offset_of(&Lo, rank, dims, i) * es, yinit + i * es, es);
                     memcpy(yref, yinit, n * es);
                     /* the contiguous run */
                     memset(m_ref, 0x5A, sizeof m_ref); memset(m_out, 0x5A, sizeof m_out);
                     err = setup(&d, op, dt, &pl, rank, dims, bc);
                     if (!err && accumulate) err = dropout_desc_set_grad(&d, DROPOUT_GRAD_ACCUMULATE);
                     tc.out = yref; tc.in = xl;
                     tc.mask = op == DROPOUT_OP_APPLY_MASK ? m_in : writes_mask ? m_ref : NULL;
                     if (bda) { tc.bias = bias; tc.residual = rl; }
                     if (!err) err = dropout_run(&d, &tc);
                     CHECK(err == DROPOUT_OK, "contiguous op=%d: %s", op, dropout_strerror(err));
                     /* the strided run */
                     err = setup(&d, op, dt, &pl, rank, dims, bc);
                     if (!err && accumulate) err = dropout_desc_set_grad(&d, DROPOUT_GRAD_ACCUMULATE);
                     if (!err) err = dropout_desc_set_strides(&d, DROPOUT_OPERAND_IN, Li.st);
                     if (!err) err = dropout_desc_set_strides(&d, DROPOUT_OPERAND_OUT, Lo.st);
                     if (!err && bda) err = dropout_desc_set_strides(&d, DROPOUT_OPERAND_RESIDUAL, Li.st);
                     t.out = ys + Lo.base * (ptrdiff_t)es; t.in = xs + Li.base * (ptrdiff_t)es;
                     t.mask = op == DROPOUT_OP_APPLY_MASK ? m_in : writes_mask ? m_out : NULL;
                     if (bda) { t.bias = bias; t.residual = rs + Li.base * (ptrdiff_t)es; }
                     if (!err) err = dropout_run(&d, &t);
                     CHECK(err == DROPOUT_OK, "strided op=%d lin=%d lout=%d: %s", op, lin, lout, dropout_strerror(err));
                     for (i = 0; i < n; ++i) {
                        size_t at = (size_t)offset_of(&Lo, rank, dims, i) * es;
                        CHECK(!memcmp(ys + at, yref + i * es, es), "op=%d dt=%d shape %d bc=%#x in layout %d out layout %d: element %zu differs",
                              op, dt, sh, bc, lin, lout, i);
                        memset(ys + at, 0xC3, es);   /* then everything must be canary */
                     }
                     for (i = 0; i < Lo.span * es; ++i)
                        if (ys[i] != 0xC3) { CHECK(0, "op=%d out layout %d: byte %zu outside the view written", op, lout, i); break; }
                     CHECK(!memcmp(m_out, m_ref, sizeof m_out), "op=%d layouts %d/%d bc=%#x: mask differs", op, lin, lout, bc);
                  }
   case_end(accumulate ? "api strided: DROPOUT_GRAD_ACCUMULATE on transposed/sliced/flipped/zero-stride views == contiguous accumulate"
                       : "api strided: 8 ops x 4 dtypes, transposed/sliced/flipped/mixed outputs and inputs (and zero input strides), broadcast == contiguous copy, nothing outside the view written");
}

/* NaN of the dtype? (which NaN a sum of two NaNs returns is the machine's choice) */
static int is_nan(int dt, const unsigned char *p)
{
   if (dt == DROPOUT_DTYPE_F32) { uint32_t u; memcpy(&u, p, 4); return (u & 0x7FFFFFFFu) > 0x7F800000u; }
   if (dt == DROPOUT_DTYPE_F64) { uint64_t u; memcpy(&u, p, 8); return (u & 0x7FFFFFFFFFFFFFFFu) > 0x7FF0000000000000u; }
   {
      uint16_t u; memcpy(&u, p, 2);
      return dt == DROPOUT_DTYPE_F16 ? (u & 0x7FFFu) > 0x7C00u : (u & 0x7FFFu) > 0x7F80u;
   }
}

/* accumulate == overwrite into scratch, then acc + g in the dtype (the oracle written here) */
static void case_accumulate_oracle(void)
{
   static unsigned char g[CAP * 8], acc[CAP * 8], want[CAP * 8];
   static const int ops[4] = {DROPOUT_OP_BACKWARD, DROPOUT_OP_ALPHA_BACKWARD, DROPOUT_OP_APPLY_MASK, DROPOUT_OP_GAUSSIAN};
   int o, dt;
   size_t n = 1000, i;
   for (o = 0; o < 4; ++o)
      for (dt = 1; dt <= 4; ++dt) {
         dropout_rule r;
         dropout_plan pl;
         dropout_desc d;
         dropout_tensors t = {0};
         size_t es = data_esize(dt);
         int err;
         dropout_rule_init(&r, 0.3, DROPOUT_BITS_16);
         (ops[o] == DROPOUT_OP_GAUSSIAN ? dropout_plan_at_normals : dropout_plan_at)(&pl, &r, dropout_key_make(3, 4), dropout_pos_make(5), n);
         data_fill(dt, xl, n); data_fill(dt, acc, n);
         for (i = 0; i < n / 8 + 1; ++i) m_in[i] = (uint8_t)data_rand();
         t.in = xl; t.mask = ops[o] == DROPOUT_OP_APPLY_MASK ? m_in : NULL;
         t.out = g;
         err = dropout_desc_init(&d, (dropout_op)ops[o], (dropout_dtype)dt, &pl);
         if (!err) err = dropout_run(&d, &t);
         for (i = 0; i < n; ++i) {
            if (dt == DROPOUT_DTYPE_F32) {
               float a, b; volatile float s;
               memcpy(&a, acc + 4 * i, 4); memcpy(&b, g + 4 * i, 4); s = a + b; a = s; memcpy(want + 4 * i, &a, 4);
            } else if (dt == DROPOUT_DTYPE_F64) {
               double a, b; volatile double s;
               memcpy(&a, acc + 8 * i, 8); memcpy(&b, g + 8 * i, 8); s = a + b; a = s; memcpy(want + 8 * i, &a, 8);
            } else {
               uint16_t a, b, w;
               volatile float s;
               memcpy(&a, acc + 2 * i, 2); memcpy(&b, g + 2 * i, 2);
               if (dt == DROPOUT_DTYPE_F16) { s = dropout_f16_to_f32(a) + dropout_f16_to_f32(b); w = dropout_f32_to_f16(s); }
               else { s = dropout_bf16_to_f32(a) + dropout_bf16_to_f32(b); w = dropout_f32_to_bf16(s); }
               memcpy(want + 2 * i, &w, 2);
            }
         }
         t.out = acc;
         if (!err) err = dropout_desc_set_grad(&d, DROPOUT_GRAD_ACCUMULATE);
         /* GAUSSIAN's backward is the same op again: it says so (the others read the plan freely) */
         if (!err && ops[o] == DROPOUT_OP_GAUSSIAN) err = dropout_desc_replay(&d);
         if (!err) err = dropout_run(&d, &t);
         CHECK(err == DROPOUT_OK, "op %d: %s", ops[o], dropout_strerror(err));
         for (i = 0; i < n; ++i)
            if (memcmp(acc + i * es, want + i * es, es) && !(is_nan(dt, acc + i * es) && is_nan(dt, want + i * es))) {
               CHECK(0, "op %d dt %d element %zu: accumulate != overwrite + add", ops[o], dt, i);
               break;
            }
      }
   case_end("api strided: DROPOUT_GRAD_ACCUMULATE == overwrite into scratch, then acc + g (one rounding; f16/bf16 in float)");
}

int main(void)
{
   case_views(0);
   case_views(1);
   case_accumulate_oracle();
   return check_exit();
}
