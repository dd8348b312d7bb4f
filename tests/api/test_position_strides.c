/* test_position_strides.c - dropout_desc_set_position_strides: a descriptor whose elements
   draw the positions of a larger tensor.
   oracle: the unsplit tensor's one call (tensor parallel), and each element's own
   one-element call at the position its strides give (random layouts), bit for bit. */
#include <stdlib.h>
#include <string.h>
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

enum { B = 7, W = 100 };   /* one (B, W) activation, W not a multiple of 8 */

static int share(int n, int r, int R) { return n * r / R; }

/* bit i of m */
static int bit(const uint8_t *m, uint64_t i) { return (m[i / 8u] >> (i % 8u)) & 1; }

/* Tensor parallel: rank r of R holds columns [c0, c1) of every row, contiguous (B, c1 - c0),
   and runs one descriptor: shape {B, cw}, position strides {W, 1}, the whole plan's slice
   from c0. Forward + mask, the mask-free backward and the backward from that mask equal
   the whole tensor's columns; the mask is the whole's bits c0 .. c0 + span - 1. */
static void test_tensor_parallel(void)
{
   static float x[B * W], y[B * W], dx[B * W], xl[B * W], yl[B * W], dxl[B * W], al[B * W];
   static uint8_t mask[B * W / 8 + 8], ml[B * W / 8 + 8];
   dropout_rule rule;
   dropout_plan whole, part;
   dropout_desc d;
   dropout_tensors t;
   int R, r, b, c, i, rc, bits;
   for (i = 0; i < B * W; ++i) x[i] = (float)(i % 37) - 11.5f;
   for (bits = 8; bits <= 32; bits *= 2) {
      CHECK(dropout_rule_init(&rule, 0.3, (dropout_bits)bits) == 0, "rule");
      CHECK(dropout_plan_at(&whole, &rule, dropout_key_make(5, 2), dropout_pos_make(1001), B * W) == 0, "plan");
      memset(mask, 0, sizeof mask);
      CHECK(dropout_replay_f32(&whole, B * W, y, mask, x) == 0, "whole forward");
      CHECK(dropout_backward_f32(&whole, B * W, dx, x) == 0, "whole backward");
      for (R = 1; R <= 5; ++R)
         for (r = 0; r < R; ++r) {
            const int c0 = share(W, r, R), cw = share(W, r + 1, R) - c0;
            const size_t dims[2] = { B, (size_t)cw };
            const uint64_t ps[2] = { W, 1 }, span = (uint64_t)(B - 1) * W + (uint64_t)cw;
            uint64_t got = 0;
            for (b = 0; b < B; ++b)
               for (c = 0; c < cw; ++c) xl[b * cw + c] = x[b * W + c0 + c];
            rc = dropout_plan_slice(&whole, (uint64_t)c0, span, &part);
            if (!rc) rc = dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &part);
            if (!rc) rc = dropout_desc_set_shape(&d, 2, dims);
            if (!rc) rc = dropout_desc_set_position_strides(&d, ps);
            if (!rc) rc = dropout_desc_positions(&d, &got);
            CHECK(rc == 0 && got == span, "bits %d ranks %d rank %d: setup %d, positions %llu (want %llu)", bits, R, r,
                  rc, (unsigned long long)got, (unsigned long long)span);
            memset(&t, 0, sizeof t);
            memset(ml, 0, sizeof ml);
            t.out = yl; t.in = xl; t.mask = ml;
            /* the mask holds the span, not the rank's elements: its size must be stated, and
               hold the span (a buffer sized for the elements was written past its end) */
            memset(yl, 0x5A, sizeof yl);
            rc = 0;
            if (span > (uint64_t)B * (uint64_t)cw) {   /* one rank: the span is the elements */
               rc = dropout_run(&d, &t);
               CHECK(rc == DROPOUT_ERR_MASK_BYTES, "a mask of no stated size: %s", dropout_strerror(rc));
               rc = dropout_desc_set_mask_bytes(&d, (size_t)(B * cw + 7) / 8);
               if (!rc) rc = dropout_run(&d, &t);
               CHECK(rc == DROPOUT_ERR_MASK_BYTES, "a mask sized for the elements: %s", dropout_strerror(rc));
               rc = 0;
            }
            for (i = 0; i < (int)sizeof ml; ++i) CHECK(ml[i] == 0, "a refused run wrote the mask");
            for (i = 0; i < (int)sizeof yl; ++i) CHECK(((unsigned char *)yl)[i] == 0x5A, "a refused run wrote y");
            if (!rc) rc = dropout_desc_set_mask_bytes(&d, sizeof ml);
            if (!rc) rc = dropout_run(&d, &t);
            CHECK(rc == 0, "forward: %s", dropout_strerror(rc));
            t.out = dxl; t.mask = NULL;
            rc = dropout_desc_set_op(&d, DROPOUT_OP_BACKWARD);
            if (!rc) rc = dropout_run(&d, &t);
            CHECK(rc == 0, "backward: %s", dropout_strerror(rc));
            t.out = al; t.mask = ml;
            rc = dropout_desc_set_op(&d, DROPOUT_OP_APPLY_MASK);
            if (!rc) rc = dropout_run(&d, &t);
            CHECK(rc == 0, "apply mask: %s", dropout_strerror(rc));
            for (b = 0; b < B; ++b)
               for (c = 0; c < cw; ++c) {
                  const int g = b * W + c0 + c, l = b * cw + c;
                  CHECK(memcmp(&yl[l], &y[g], 4) == 0, "bits %d, %d ranks, rank %d: y(%d, %d) %g, the whole's %g", bits, R, r,
                        b, c0 + c, (double)yl[l], (double)y[g]);
                  CHECK(memcmp(&dxl[l], &dx[g], 4) == 0, "bits %d, %d ranks, rank %d: dx(%d, %d) differs", bits, R, r, b, c0 + c);
                  CHECK(memcmp(&al[l], &y[g], 4) == 0, "bits %d, %d ranks, rank %d: from the mask (%d, %d) differs", bits, R, r, b, c0 + c);
               }
            for (i = 0; i < (int)span; ++i)
               CHECK(bit(ml, (uint64_t)i) == bit(mask, (uint64_t)(c0 + i)), "bits %d, %d ranks, rank %d: mask bit %d of the span", bits, R, r, i);
            for (i = (int)span; i < (int)((span + 7) / 8 * 8); ++i)
               CHECK(bit(ml, (uint64_t)i) == 0, "a mask bit past the span is set");
         }
   }
   /* the slice stored transposed, (cw, B): the mask's order as the shape, the layout as
      operand strides */
   for (R = 2; R <= 3; ++R)
      for (r = 0; r < R; ++r) {
         const int c0 = share(W, r, R), cw = share(W, r + 1, R) - c0;
         const size_t dims[2] = { B, (size_t)cw };
         const uint64_t ps[2] = { W, 1 };
         const ptrdiff_t st[2] = { 1, B };
         for (b = 0; b < B; ++b)
            for (c = 0; c < cw; ++c) xl[c * B + b] = x[b * W + c0 + c];
         rc = dropout_plan_slice(&whole, (uint64_t)c0, (uint64_t)(B - 1) * W + (uint64_t)cw, &part);
         if (!rc) rc = dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &part);
         if (!rc) rc = dropout_desc_set_shape(&d, 2, dims);
         if (!rc) rc = dropout_desc_set_position_strides(&d, ps);
         if (!rc) rc = dropout_desc_set_strides(&d, DROPOUT_OPERAND_OUT, st);
         if (!rc) rc = dropout_desc_set_strides(&d, DROPOUT_OPERAND_IN, st);
         memset(&t, 0, sizeof t);
         t.out = yl; t.in = xl;
         if (!rc) rc = dropout_run(&d, &t);
         CHECK(rc == 0, "transposed: %s", dropout_strerror(rc));
         for (b = 0; b < B; ++b)
            for (c = 0; c < cw; ++c)
               CHECK(memcmp(&yl[c * B + b], &y[b * W + c0 + c], 4) == 0, "transposed, %d ranks, rank %d: (%d, %d) differs", R, r, b, c0 + c);
      }
   case_end("position strides: tensor parallel's column slices (1-5 ranks, 8/16/32-bit draws; stored row- and column-major), one descriptor each: forward, mask, both backwards == the whole tensor's columns");
}

static uint64_t rng = 88172645463325252u;
static unsigned rnd(unsigned n)
{
   rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
   return (unsigned)(rng % n);
}

/* Random shapes (rank 1-4, dims 0-5), random nested position strides in a random dim
   order with gaps, some zero; every element against its own one-element call. */
static void test_random_layouts(void)
{
   static float x[1300], y[1300], want;   /* 6^4 elements at most, and one byte past */
   dropout_rule rule;
   int iter, bad = 0, ran = 0;
   CHECK(dropout_rule_init(&rule, 0.45, DROPOUT_BITS_16) == 0, "rule");
   for (iter = 0; iter < 3000; ++iter) {
      int rank = 1 + (int)rnd(4), order[4], k, dd, inner, rc;
      size_t dims[4], numel = 1, e;
      uint64_t ps[4], span = 0, pos0 = rnd(3) == 0 ? UINT64_MAX - 100000 : rnd(100000), got = 0;
      dropout_plan plan;
      dropout_desc d;
      dropout_tensors t;
      for (k = 0; k < rank; ++k) { dims[k] = rnd(6); if (rnd(4)) dims[k] += 1; numel *= dims[k]; order[k] = k; }
      for (k = rank - 1; k > 0; --k) { int j = (int)rnd((unsigned)k + 1), s = order[k]; order[k] = order[j]; order[j] = s; }
      for (inner = rank - 1; inner >= 0 && dims[inner] <= 1; --inner) {}
      if (inner >= 0 && rnd(2)) {   /* half the time the last dim steps 0 or 1 (a row is one run) */
         ps[inner] = rnd(5) == 0 ? 0 : 1;
         span = ps[inner] * (uint64_t)(dims[inner] - 1);
      } else inner = -1;
      for (k = 0; k < rank; ++k) {   /* the others (or all) in a random order, each past the span */
         dd = order[k];
         if (dd == inner) continue;
         if (rnd(5) == 0) { ps[dd] = 0; continue; }
         ps[dd] = span + 1 + rnd(4);
         if (dims[dd] > 1) span += (uint64_t)(dims[dd] - 1) * ps[dd];
      }
      for (k = 0; k < rank; ++k) if (dims[k] == 0 && ps[k] != 0) span = UINT64_MAX;   /* empty mask */
      for (e = 0; e < numel; ++e) x[e] = (float)e + 0.25f;
      rc = dropout_plan_at(&plan, &rule, dropout_key_make(9, 1), dropout_pos_make(pos0), span == UINT64_MAX ? 0 : span + 1);
      if (!rc) rc = dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
      if (!rc) rc = dropout_desc_set_shape(&d, rank, dims);
      if (!rc) rc = dropout_desc_set_position_strides(&d, ps);
      if (!rc) rc = dropout_desc_positions(&d, &got);
      if (rc || got != plan.count) {
         CHECK(0, "iter %d rank %d: setup %s, positions %llu of %llu", iter, rank, dropout_strerror(rc),
               (unsigned long long)got, (unsigned long long)plan.count);
         continue;
      }
      memset(&t, 0, sizeof t);
      memset(y, 0xA5, sizeof y);
      t.out = y; t.in = x;
      rc = dropout_run(&d, &t);
      CHECK(rc == 0, "iter %d: run: %s", iter, dropout_strerror(rc));
      ++ran;
      for (e = 0; e < numel; ++e) {   /* element e (row-major in dims) draws pos0 + sum i_d ps[d] */
         size_t rest = e;
         uint64_t at = 0;
         dropout_plan one;
         for (k = rank - 1; k >= 0; --k) { at += (uint64_t)(rest % dims[k]) * ps[k]; rest /= dims[k]; }
         rc = dropout_plan_at(&one, &rule, dropout_key_make(9, 1), dropout_pos_make(pos0 + at), 1);
         if (!rc) rc = dropout_replay_f32(&one, 1, &want, NULL, &x[e]);
         if (rc || memcmp(&want, &y[e], 4) != 0) ++bad;
      }
      CHECK(((const uint8_t *)y)[numel * 4] == 0xA5, "iter %d: a byte past the output written", iter);
   }
   CHECK(bad == 0 && ran > 2500, "%d elements differ from their own one-element call (%d layouts ran)", bad, ran);
   case_end("position strides: 3000 random layouts (rank 1-4, empty dims, zero strides, any dim order, gaps, last dims stepping more than 1, near 2^64) == each element's one-element call at pos + sum i_d s_d");
}

/* The refusals, each leaving the descriptor as it was */
static void test_refusals(void)
{
   static float x[64], y[64];
   const size_t d22[2] = { 2, 2 }, d44[2] = { 4, 4 };
   const uint64_t same[2] = { 1, 1 }, inter[2] = { 3, 1 }, ok[2] = { 10, 1 }, huge[2] = { UINT64_MAX / 2, 1 };
   const uint64_t inner2[2] = { 1, 4 };
   dropout_rule rule;
   dropout_plan plan, p16;
   dropout_desc d;
   dropout_tensors t;
   dropout_gen g;
   uint64_t n = 0;
   int rc;
   CHECK(dropout_rule_init(&rule, 0.5, DROPOUT_BITS_8) == 0, "rule");
   CHECK(dropout_plan_at(&plan, &rule, dropout_key_make(1, 0), dropout_pos_make(0), 4) == 0, "plan");
   CHECK(dropout_plan_at(&p16, &rule, dropout_key_make(1, 0), dropout_pos_make(0), 16) == 0, "plan");
   CHECK(dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan) == 0, "init");
   CHECK(dropout_desc_set_shape(&d, 2, d22) == 0, "shape");
   CHECK(dropout_desc_set_position_strides(NULL, ok) == DROPOUT_ERR_NULL_DESC, "NULL d");
   rc = dropout_desc_set_position_strides(&d, same);
   CHECK(rc == DROPOUT_ERR_POSITION_STRIDES, "{1, 1} on {2, 2} (elements (0, 1) and (1, 0) share position 1): %d", rc);
   CHECK(dropout_desc_positions(&d, &n) == 0 && n == 4, "a refused setter changed the positions: %llu", (unsigned long long)n);
   CHECK(dropout_desc_set_shape(&d, 2, d44) == 0, "shape 4x4");
   rc = dropout_desc_set_position_strides(&d, inter);
   CHECK(rc == DROPOUT_ERR_POSITION_STRIDES, "{3, 1} on {4, 4} (position 3 twice): %d", rc);
   rc = dropout_desc_set_position_strides(&d, inner2);
   CHECK(rc == 0, "{1, 4} on {4, 4} (a transposed order: rows of one element) refused: %d", rc);
   CHECK(dropout_desc_set_position_strides(&d, NULL) == 0, "clear");
   {   /* rank 8, every dim of 2, the last stepping 2: no room for rows of one element */
      const size_t d8[8] = { 2, 2, 2, 2, 2, 2, 2, 2 };
      const uint64_t s8[8] = { 1, 4, 8, 16, 32, 64, 128, 2 }, s8ok[8] = { 128, 64, 32, 16, 8, 4, 2, 1 };
      dropout_desc e;
      CHECK(dropout_desc_init(&e, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan) == 0 && dropout_desc_set_shape(&e, 8, d8) == 0, "rank 8");
      CHECK(dropout_desc_set_position_strides(&e, s8) == DROPOUT_ERR_POSITION_STRIDES, "rank 8, the last dim stepping 2");
      CHECK(dropout_desc_set_position_strides(&e, s8ok) == 0, "rank 8, row-major");
   }
   rc = dropout_desc_set_position_strides(&d, huge);
   CHECK(rc == DROPOUT_ERR_POSITION_STRIDES, "a span past size_t: %d", rc);
   {
      const uint64_t justover[2] = { (uint64_t)PTRDIFF_MAX / 3, 1 };   /* span 3 * that + 3 + 1 > PTRDIFF_MAX */
      rc = dropout_desc_set_position_strides(&d, justover);
      CHECK(rc == DROPOUT_ERR_POSITION_STRIDES, "a span past PTRDIFF_MAX (no plan has that count): %d", rc);
   }
   CHECK(strstr(dropout_strerror(DROPOUT_ERR_POSITION_STRIDES), "position strides") != NULL, "the message names the argument");
   /* with broadcast: one or the other */
   CHECK(dropout_desc_set_broadcast(&d, 1u) == 0, "broadcast");
   CHECK(dropout_desc_set_position_strides(&d, ok) == DROPOUT_ERR_BROADCAST, "position strides over a broadcast");
   CHECK(dropout_desc_set_broadcast(&d, 0u) == 0 && dropout_desc_set_position_strides(&d, ok) == 0, "ok strides");
   CHECK(dropout_desc_set_broadcast(&d, 2u) == DROPOUT_ERR_BROADCAST, "a broadcast over position strides");
   CHECK(dropout_desc_positions(&d, &n) == 0 && n == 34, "span of {10, 1} on 4x4: %llu", (unsigned long long)n);
   /* the plan's count is the span: a plan of 16 is refused and nothing is written */
   CHECK(dropout_desc_set_plan(&d, &p16) == 0, "set_plan");
   memset(&t, 0, sizeof t);
   memset(y, 0x5A, sizeof y);
   t.out = y; t.in = x;
   rc = dropout_run(&d, &t);
   CHECK(rc == DROPOUT_ERR_SHAPE_COUNT && ((uint8_t *)y)[0] == 0x5A, "a plan of the element count, not the span: %d", rc);
   /* new_step refuses: a slice's step is the whole tensor's, reserved apart */
   CHECK(dropout_gen_init(&g, dropout_key_make(3, 0)) == 0, "gen");
   CHECK(dropout_desc_new_step(&d, &g) == DROPOUT_ERR_POSITION_STRIDES, "new_step on position strides");
   CHECK(dropout_gen_plan(&g, &rule, 1, &plan) == 0 && plan.pos == 0, "the refused new_step moved g to %llu", (unsigned long long)plan.pos);
   /* NULL clears; a new shape clears */
   CHECK(dropout_desc_set_position_strides(&d, NULL) == 0 && dropout_desc_positions(&d, &n) == 0 && n == 16, "NULL clears: %llu",
         (unsigned long long)n);
   CHECK(dropout_desc_set_position_strides(&d, ok) == 0 && dropout_desc_set_shape(&d, 2, d44) == 0 &&
         dropout_desc_positions(&d, &n) == 0 && n == 16, "set_shape clears: %llu", (unsigned long long)n);
   {  /* position strides before the first shape, never run: refused (the shape would drop
         them); once run, a shape resets them */
      dropout_desc e;
      const uint64_t two[1] = { 2 };
      dropout_plan p7;
      CHECK(dropout_plan_at(&p7, &rule, dropout_key_make(3, 0), dropout_pos_make(0), 7) == 0, "plan of 7");
      CHECK(dropout_desc_init(&e, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &p7) == 0, "init");
      CHECK(dropout_desc_set_position_strides(&e, two) == 0, "1-D position strides on the default shape");
      CHECK(dropout_desc_set_shape(&e, 2, d44) == DROPOUT_ERR_SHAPE_RESETS && dropout_desc_positions(&e, &n) == 0 && n == 13,
            "set_shape before a run: refused, the strides kept: %llu", (unsigned long long)n);
      CHECK(dropout_desc_ran(&e) == 0 && dropout_desc_set_shape(&e, 2, d44) == 0 &&
            dropout_desc_positions(&e, &n) == 0 && n == 16, "set_shape after a run resets them: %llu", (unsigned long long)n);
   }
   /* the fused op's 1-D shape does not become 2-D under position strides */
   {
      const uint64_t one[1] = { 1 };
      const size_t d4[1] = { 4 };
      dropout_desc f;
      CHECK(dropout_plan_at(&plan, &rule, dropout_key_make(1, 0), dropout_pos_make(0), 7) == 0, "plan");
      CHECK(dropout_desc_init(&f, DROPOUT_OP_BIAS_DROPOUT_ADD, DROPOUT_DTYPE_F32, &plan) == 0, "fused init");
      CHECK(dropout_desc_set_shape(&f, 1, d4) == 0 && dropout_desc_set_position_strides(&f, one) == 0, "fused");
      CHECK(dropout_desc_set_bias_len(&f, 2) == DROPOUT_ERR_BIAS_LEN, "bias_len reshaping a position-strided shape");
   }
   {  /* the fused op's last dim (its bias's) steps 0 or 1: refused at run, nothing written */
      const size_t d23[2] = { 2, 3 };
      const uint64_t t23[2] = { 1, 2 };
      static float b3[3], r6[6];
      dropout_desc f;
      CHECK(dropout_plan_at(&plan, &rule, dropout_key_make(1, 0), dropout_pos_make(0), 6) == 0, "plan");
      CHECK(dropout_desc_init(&f, DROPOUT_OP_BIAS_DROPOUT_ADD, DROPOUT_DTYPE_F32, &plan) == 0 &&
            dropout_desc_set_shape(&f, 2, d23) == 0 && dropout_desc_set_position_strides(&f, t23) == 0, "fused 2x3");
      memset(&t, 0, sizeof t);
      memset(y, 0x5A, sizeof y);
      t.out = y; t.in = x; t.bias = b3; t.residual = r6;
      rc = dropout_run(&f, &t);
      CHECK(rc == DROPOUT_ERR_POSITION_STRIDES && ((uint8_t *)y)[0] == 0x5A, "the fused op with its last dim stepping 2: %d", rc);
   }
   case_end("position strides: refusals (shared positions, a span past PTRDIFF_MAX, rank 8 with no room, with broadcast, NULL d, new_step, the fused op's last dim), nothing changed; a transposed order accepted; count = span; NULL and set_shape clear");
}

int main(void)
{
   test_tensor_parallel();
   test_random_layouts();
   test_refusals();
   return check_exit();
}
