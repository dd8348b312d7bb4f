/* fuzz_desc.c - coverage-guided fuzz target over the extended entry (dropout_desc + dropout_run).

   The input bytes choose everything a user can get wrong: the op, the dtype, p or an
   integer threshold and the draw width, sigma, the rank and dims (zero, one, huge), the
   strides of the output, the input and the residual (contiguous, padded, reversed =
   negative, zero, arbitrary small, huge), the broadcast bits, the gradient mode, the bias
   length, the plan's first position (small or near 2^64) and count (right or not), a plan
   slice, device coordinates, a reshape after the strides (some set again, some not), and
   the data (NaN, Inf, -0, subnormals among them).

   Every call must either
     - return an error, with nothing written: every buffer, every gap between strided
       elements and the canary zones around each buffer keep their bytes; or
     - return DROPOUT_OK with exactly the bits of the scalar reference below (an
       independent loop over the logical row-major index that calls the header's inline
       building blocks, one element at a time), nothing written outside the output's
       elements and the mask's bytes; and the same call on contiguous copies of the
       operands gives the same elements and the same mask.
   And the harness's own reading of the rules must agree with the library's: a call that
   the rules make invalid must be refused, one they make valid must run (see `verdict`).

   Build: clang -fsanitize=fuzzer,address,undefined (tests/fuzz/suite.sh, make fuzz).
   Without libFuzzer: -DFUZZ_MAIN gives a main() that replays the files named on its
   command line (the corpus in tests/fuzz/corpus/), with any compiler. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAP_ELEMS 4096        /* the largest buffer span the harness allocates, in elements */
#define PAD 64                /* canary bytes before and after every buffer */
#define CANARY 0xC3

/* ---- reading the input ------------------------------------------------------------ */
typedef struct bytes { const uint8_t *p; size_t n, at; } bytes;
static unsigned u8(bytes *b) { return b->at < b->n ? b->p[b->at++] : 0u; }
static uint64_t u64(bytes *b, int k)   /* k little-endian bytes */
{
   uint64_t v = 0;
   int i;
   for (i = 0; i < k; ++i) v |= (uint64_t)u8(b) << (8 * i);
   return v;
}

static void fail(const char *what)
{
   fprintf(stderr, "FAIL fuzz_desc: %s\n", what);
   abort();   /* libFuzzer keeps the input as a crash file */
}

/* ---- the case the bytes describe --------------------------------------------------- */
enum { OPD_OUT = 0, OPD_IN = 1, OPD_RES = 2, N_OPD = 3 };
typedef struct fcase {
   int op, dtype;
   dropout_rule rule;
   dropout_plan plan;
   int rank;                                   /* as accepted by set_shape (1 .. 8) */
   size_t dims[DROPOUT_MAX_RANK];
   ptrdiff_t strides[N_OPD][DROPOUT_MAX_RANK]; /* as accepted (contiguous by default) */
   unsigned broadcast;
   int pstrided;                               /* position strides ps (dropout_desc_set_position_strides) */
   uint64_t ps[DROPOUT_MAX_RANK];
   int accumulate;
   double sigma; float sigma_f32; int sigma_set;
   size_t bias_len; int bias_set;
   int with_mask;
   int inplace;                                /* in = out, same strides */
   int said[N_OPD];                            /* strides set (not NULL) for the shape in force */
   int stale[N_OPD], stale_ps;                 /* set for an earlier shape, reset by a later one, not said again */
} fcase;

static size_t esize(int dtype) { return dtype == DROPOUT_DTYPE_F64 ? 8 : dtype == DROPOUT_DTYPE_F32 ? 4 : 2; }

/* element count of the shape and of its mask shape (broadcast dims set to 1); 0 on overflow */
static int counts(const fcase *c, uint64_t *numel, uint64_t *positions)
{
   uint64_t ne = 1, np = 1;
   int d, empty = 0;
   for (d = 0; d < c->rank; ++d) {
      uint64_t k = (uint64_t)c->dims[d];
      if (k == 0) { empty = 1; continue; }
      if (ne > UINT64_MAX / k) return 0;
      ne *= k;
      if (!(c->broadcast >> d & 1u)) np *= k;
   }
   for (d = 0; d < c->rank; ++d) if (c->dims[d] == 0 && !(c->broadcast >> d & 1u)) np = 0;
   if (c->pstrided) {   /* the span of the position strides (saturated: an invalid one is refused) */
      np = 1;
      for (d = 0; d < c->rank; ++d) {
         uint64_t k = (uint64_t)c->dims[d];
         if (k == 0) { if (c->ps[d]) { np = 0; break; } continue; }
         if (c->ps[d] && k - 1 > (UINT64_MAX - np) / c->ps[d]) { np = UINT64_MAX; break; }
         np += (k - 1) * c->ps[d];
      }
   }
   if (!empty && c->rank > 1) {   /* a non-empty shape's contiguous strides must fit ptrdiff_t */
      uint64_t inner = ne / (uint64_t)c->dims[0];
      if (inner > (uint64_t)PTRDIFF_MAX) return 0;
   }
   *numel = empty ? 0 : ne;
   *positions = np;
   return 1;
}

static void contiguous(const fcase *c, ptrdiff_t *s)
{
   size_t k = 1;   /* unsigned: a huge shape wraps here instead of overflowing (it is never run) */
   int d;
   for (d = c->rank - 1; d >= 0; --d) { s[d] = (ptrdiff_t)k; k *= c->dims[d] ? c->dims[d] : 1; }
}

/* span of an operand in elements: lowest and highest element offset from the base */
static int span(const fcase *c, const ptrdiff_t *s, ptrdiff_t *lo, ptrdiff_t *hi)
{
   int d;
   *lo = *hi = 0;
   for (d = 0; d < c->rank; ++d) {
      ptrdiff_t e;
      if (c->dims[d] == 0) { *lo = *hi = 0; return 1; }
      if (c->dims[d] - 1 > (size_t)CAP_ELEMS) return 0;
      if (s[d] > CAP_ELEMS || s[d] < -CAP_ELEMS) { if (c->dims[d] > 1) return 0; continue; }
      e = (ptrdiff_t)(c->dims[d] - 1) * s[d];
      if (e < 0) *lo += e; else *hi += e;
   }
   return *hi - *lo < CAP_ELEMS;
}

/* element offset of logical element i (row-major) */
static ptrdiff_t offset_of(const fcase *c, const ptrdiff_t *s, uint64_t i, uint64_t *m)
{
   ptrdiff_t off = 0;
   uint64_t mi = 0, mstride = 1;
   int d;
   for (d = c->rank - 1; d >= 0; --d) {
      uint64_t k = c->dims[d], id = i % k;
      i /= k;
      off += (ptrdiff_t)id * s[d];
      if (c->pstrided) mi += id * c->ps[d];
      else if (!(c->broadcast >> d & 1u)) { mi += id * mstride; mstride *= k; }
   }
   if (m) *m = mi;
   return off;
}

/* Whether position strides are ones the docs accept (docs/API.md): not a rank-8 shape whose
   dims are all above 1 with a last dim stepping more than 1; the non-zero strides of the
   dims of more than one element, smallest first, each pass the span reached by the
   smaller ones; at most PTRDIFF_MAX positions. Read from the docs, not from the header:
   the smallest remaining stride is picked each round (no sort). */
static int pstrides_ok(const fcase *c)
{
   int d, wide = 0, used[DROPOUT_MAX_RANK] = { 0 }, round;
   uint64_t reach = 0;
   for (d = 0; d < c->rank; ++d) if (c->dims[d] > 1) ++wide;
   if (wide == DROPOUT_MAX_RANK && c->ps[c->rank - 1] > 1) return 0;
   for (round = 0; round < c->rank; ++round) {
      int pick = -1;
      for (d = 0; d < c->rank; ++d)
         if (!used[d] && c->dims[d] > 1 && c->ps[d] > 0 && (pick < 0 || c->ps[d] < c->ps[pick])) pick = d;
      if (pick < 0) break;
      used[pick] = 1;
      if (c->ps[pick] <= reach) return 0;
      if ((uint64_t)(c->dims[pick] - 1) > (UINT64_MAX - reach) / c->ps[pick]) return 0;
      reach += (uint64_t)(c->dims[pick] - 1) * c->ps[pick];
   }
   return reach < (uint64_t)PTRDIFF_MAX;
}

/* ---- buffers with canaries --------------------------------------------------------- */
typedef struct buf { unsigned char *mem, *snap; size_t bytes; unsigned char *base; } buf;

static void buf_make(buf *b, size_t elems_lo, size_t elems, size_t es, bytes *in)
{
   size_t i;
   b->bytes = 2 * PAD + elems * es;
   b->mem = (unsigned char *)malloc(b->bytes);
   b->snap = (unsigned char *)malloc(b->bytes);
   if (!b->mem || !b->snap) fail("out of memory");
   memset(b->mem, CANARY, b->bytes);
   for (i = 0; i < elems * es; ++i) {
      unsigned v = u8(in);
      /* the data: mostly ordinary numbers; special bit patterns now and then */
      b->mem[PAD + i] = (unsigned char)(v ^ (i * 0x9Du));
   }
   b->base = b->mem + PAD + elems_lo * es;
   memcpy(b->snap, b->mem, b->bytes);
}
static void buf_free(buf *b) { free(b->mem); free(b->snap); }
static int buf_same(const buf *b) { return memcmp(b->mem, b->snap, b->bytes) == 0; }

/* ---- the scalar reference: one element at a time, building blocks only -------------- */
typedef union val { float f; double d; uint16_t h; } val;

static val load(int dtype, const unsigned char *p)
{
   val v;
   memset(&v, 0, sizeof v);
   if (dtype == DROPOUT_DTYPE_F32) memcpy(&v.f, p, 4);
   else if (dtype == DROPOUT_DTYPE_F64) memcpy(&v.d, p, 8);
   else memcpy(&v.h, p, 2);
   return v;
}
static void store(int dtype, unsigned char *p, val v)
{
   if (dtype == DROPOUT_DTYPE_F32) memcpy(p, &v.f, 4);
   else if (dtype == DROPOUT_DTYPE_F64) memcpy(p, &v.d, 8);
   else memcpy(p, &v.h, 2);
}
static float to_f32(int dtype, uint16_t h) { return dtype == DROPOUT_DTYPE_F16 ? dropout_f16_to_f32(h) : dropout_bf16_to_f32(h); }
static uint16_t from_f32(int dtype, float f) { return dtype == DROPOUT_DTYPE_F16 ? dropout_f32_to_f16(f) : dropout_f32_to_bf16(f); }

static val apply(int dtype, val x, int keep, dropout_rule r)
{
   val y = x;
   if (dtype == DROPOUT_DTYPE_F32) y.f = dropout_apply_f32(x.f, keep, r);
   else if (dtype == DROPOUT_DTYPE_F64) y.d = dropout_apply_f64(x.d, keep, r);
   else if (dtype == DROPOUT_DTYPE_F16) y.h = dropout_apply_f16(x.h, keep, r);
   else y.h = dropout_apply_bf16(x.h, keep, r);
   return y;
}

/* accumulate: the gradient in the dtype's arithmetic (f16/bf16: in float, rounded once) */
static val accumulate(int dtype, val old, val g)
{
   val y = g;
   if (dtype == DROPOUT_DTYPE_F32) y.f = old.f + g.f;
   else if (dtype == DROPOUT_DTYPE_F64) y.d = old.d + g.d;
   else y.h = from_f32(dtype, to_f32(dtype, old.h) + to_f32(dtype, g.h));
   return y;
}

static val alpha_el(int dtype, val x, int keep, const dropout_alpha_rule *ar, int grad)
{
   val y = x;
   if (dtype == DROPOUT_DTYPE_F32) y.f = grad ? dropout_alpha_grad_f32(x.f, keep, *ar) : dropout_alpha_apply_f32(x.f, keep, *ar);
   else if (dtype == DROPOUT_DTYPE_F64) y.d = grad ? dropout_alpha_grad_f64(x.d, keep, *ar) : dropout_alpha_apply_f64(x.d, keep, *ar);
   else if (dtype == DROPOUT_DTYPE_F16) y.h = grad ? dropout_alpha_grad_f16(x.h, keep, *ar) : dropout_alpha_apply_f16(x.h, keep, *ar);
   else y.h = grad ? dropout_alpha_grad_bf16(x.h, keep, *ar) : dropout_alpha_apply_bf16(x.h, keep, *ar);
   return y;
}

static val fused_el(int dtype, val x, val bias, val res, int keep, dropout_rule r)
{
   val y = x;
   if (dtype == DROPOUT_DTYPE_F32) y.f = dropout_bias_dropout_add_one_f32(x.f, bias.f, res.f, keep, r);
   else if (dtype == DROPOUT_DTYPE_F64) y.d = dropout_bias_dropout_add_one_f64(x.d, bias.d, res.d, keep, r);
   else if (dtype == DROPOUT_DTYPE_F16) y.h = dropout_bias_dropout_add_one_f16(x.h, bias.h, res.h, keep, r);
   else y.h = dropout_bias_dropout_add_one_bf16(x.h, bias.h, res.h, keep, r);
   return y;
}

/* Gaussian dropout multiplies by m = 1 + sigma z, noise adds sigma z (z: normal number pos) */
static val gauss_el(int dtype, val x, float z, float sigma_f32, int noise)
{
   val y = x;
   if (noise) {
      if (dtype == DROPOUT_DTYPE_F64) y.d = dropout_noise_add_f64(x.d, z, sigma_f32);
      else if (dtype == DROPOUT_DTYPE_F32) y.f = dropout_noise_add_f32(x.f, z, sigma_f32);
      else y.h = from_f32(dtype, dropout_noise_add_f32(to_f32(dtype, x.h), z, sigma_f32));
   } else {
      float m = dropout_gaussian_mult(z, sigma_f32);
      if (dtype == DROPOUT_DTYPE_F64) y.d = x.d * (double)m;
      else if (dtype == DROPOUT_DTYPE_F32) y.f = x.f * m;
      else y.h = from_f32(dtype, to_f32(dtype, x.h) * m);
   }
   return y;
}

/* Bits equal, or (where docs/SPEC.md leaves a NaN's payload to the FPU: the variants, the
   fused op, an accumulated gradient) both NaN. Plain dropout keeps payloads exactly. */
static int is_nan(int dtype, const unsigned char *p)
{
   val v = load(dtype, p);
   if (dtype == DROPOUT_DTYPE_F32) return v.f != v.f;
   if (dtype == DROPOUT_DTYPE_F64) return v.d != v.d;
   if (dtype == DROPOUT_DTYPE_F16) return (v.h & 0x7C00u) == 0x7C00u && (v.h & 0x3FFu) != 0;
   return (v.h & 0x7F80u) == 0x7F80u && (v.h & 0x7Fu) != 0;
}
static int same_element(const fcase *c, const unsigned char *a, const unsigned char *b)
{
   int payload_free = c->accumulate || (c->op != DROPOUT_OP_FORWARD && c->op != DROPOUT_OP_BACKWARD &&
                                        c->op != DROPOUT_OP_APPLY_MASK && c->op != DROPOUT_OP_MASK);
   if (memcmp(a, b, esize(c->dtype)) == 0) return 1;
   return payload_free && is_nan(c->dtype, a) && is_nan(c->dtype, b);
}

static int mask_bit(const uint8_t *mask, uint64_t m) { return mask[m >> 3] >> (m & 7u) & 1; }

/* ---- the verdict: what the rules say about a case ----------------------------------- */
static int uses_draws(int op) { (void)op; return 1; }   /* APPLY_MASK too: the plan's count is the mask's positions */
static int draws_normals(int op) { return op == DROPOUT_OP_GAUSSIAN || op == DROPOUT_OP_NOISE; }
static int has_in(int op) { return op != DROPOUT_OP_MASK; }
/* the ops that draw a step's mask, so that a run spends the descriptor's plan (API.md) */
static int draws_step(int op)
{
   return op == DROPOUT_OP_FORWARD || op == DROPOUT_OP_MASK || op == DROPOUT_OP_ALPHA_FORWARD || op == DROPOUT_OP_GAUSSIAN ||
          op == DROPOUT_OP_NOISE || op == DROPOUT_OP_BIAS_DROPOUT_ADD;
}
static int has_mask_out(int op)
{
   return op == DROPOUT_OP_FORWARD || op == DROPOUT_OP_MASK || op == DROPOUT_OP_ALPHA_FORWARD ||
          op == DROPOUT_OP_BIAS_DROPOUT_ADD;
}
static int is_grad(int op)
{
   return op == DROPOUT_OP_BACKWARD || op == DROPOUT_OP_ALPHA_BACKWARD || op == DROPOUT_OP_APPLY_MASK;
}

/* Two output elements at one address? (brute force over the logical elements) */
static int output_overlaps(const fcase *c, uint64_t numel, ptrdiff_t lo, ptrdiff_t hi)
{
   unsigned char *seen;
   uint64_t i;
   int clash = 0;
   if (numel < 2) return 0;
   seen = (unsigned char *)calloc((size_t)(hi - lo + 1), 1);
   if (!seen) fail("out of memory");
   for (i = 0; i < numel && !clash; ++i) {
      ptrdiff_t o = offset_of(c, c->strides[OPD_OUT], i, NULL) - lo;
      clash = seen[o]++;
   }
   free(seen);
   return clash;
}

/* The layouts the library promises to accept for an output: taken by growing |stride|
   (dims of size 1 aside), each stride steps past the extent of the dims before it. Every
   transpose, slice, flip or padding of a contiguous tensor is such a layout. (Other
   layouts without overlap may be refused; overlapping ones must be.) */
static int layout_ok(const fcase *c, const ptrdiff_t *s)
{
   int d, e, used[DROPOUT_MAX_RANK] = {0};
   uint64_t extent = 0;
   for (d = 0; d < c->rank; ++d) if (c->dims[d] == 0) return 1;   /* empty: nothing to write */
   for (;;) {
      int best = -1;
      uint64_t bs = 0;
      for (e = 0; e < c->rank; ++e) {
         uint64_t a = (uint64_t)(s[e] < 0 ? -s[e] : s[e]);
         if (used[e] || c->dims[e] <= 1) continue;
         if (best < 0 || a < bs) { best = e; bs = a; }
      }
      if (best < 0) return 1;
      if (bs <= extent) return 0;
      used[best] = 1;
      extent += (uint64_t)(c->dims[best] - 1) * bs;
   }
}

/* ---- the short calls (1.0): a step's forward from a generator, the backward and the
   replay of its plan, the mask; counts that differ from the plan's or that no buffer has,
   and rules whose fields were edited. An error writes nothing and leaves g as it was; a
   success gives the scalar reference's bits and moves g on by n. ---------------------- */
static int short_call(int dtype, int which, dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n,
                      void *y, uint8_t *mask, const void *x)
{
   switch (which * 4 + dtype - 1) {
   case 0: return dropout_forward_f32(g, rule, plan, n, (float *)y, mask, (const float *)x);
   case 1: return dropout_forward_f64(g, rule, plan, n, (double *)y, mask, (const double *)x);
   case 2: return dropout_forward_f16(g, rule, plan, n, (dropout_f16 *)y, mask, (const dropout_f16 *)x);
   case 3: return dropout_forward_bf16(g, rule, plan, n, (dropout_bf16 *)y, mask, (const dropout_bf16 *)x);
   case 4: return dropout_replay_f32(plan, n, (float *)y, mask, (const float *)x);
   case 5: return dropout_replay_f64(plan, n, (double *)y, mask, (const double *)x);
   case 6: return dropout_replay_f16(plan, n, (dropout_f16 *)y, mask, (const dropout_f16 *)x);
   case 7: return dropout_replay_bf16(plan, n, (dropout_bf16 *)y, mask, (const dropout_bf16 *)x);
   case 8: return dropout_backward_f32(plan, n, (float *)y, (const float *)x);
   case 9: return dropout_backward_f64(plan, n, (double *)y, (const double *)x);
   case 10: return dropout_backward_f16(plan, n, (dropout_f16 *)y, (const dropout_f16 *)x);
   case 11: return dropout_backward_bf16(plan, n, (dropout_bf16 *)y, (const dropout_bf16 *)x);
   default: return dropout_mask(plan, n, mask);
   }
}

static void fuzz_short(bytes *in, const dropout_rule *good, dropout_key key)
{
   enum { SN = 200 };
   unsigned char xb[SN * 8], yb[SN * 8 + 2 * PAD], ysnap[SN * 8 + 2 * PAD], mb[SN / 8 + 1 + 2 * PAD], msnap[SN / 8 + 1 + 2 * PAD];
   dropout_rule rule = *good;
   dropout_gen g, g0;
   dropout_plan plan, got;
   unsigned sel = u8(in), k;
   int dtype = (int)(sel % 4u) + 1, which = (int)((sel / 4u) % 4u), err, want_err = 0, edited = 0;
   size_t es = esize(dtype), n = u8(in) % SN, call_n = n, i;
   uint64_t start = u64(in, 2);
   dropout_gen_resume(&g, key, (sel & 64u) ? UINT64_MAX - u64(in, 1) : start, (dropout_units)good->bits);
   for (i = 0; i < sizeof xb; ++i) xb[i] = (unsigned char)u8(in);
   sel = u8(in);
   if (sel & 1u) { call_n = n + (size_t)(int8_t)u8(in); }                     /* another count */
   if (sel & 2u) { call_n = (size_t)(ptrdiff_t)-(ptrdiff_t)(u8(in) + 1u); }  /* a negative int */
   if (sel & 4u) {                                                           /* a field edited */
      k = u8(in) % 4u;
      if (k == 0) rule.threshold += 1u + u8(in) % 3u;
      else if (k == 1) rule.scale_f64 *= 1.0 + (double)(u8(in) + 1u) * 1e-16;
      else if (k == 2) rule.scale_f32 *= 3.0f;
      else if (rule.threshold != 0) rule.bits = rule.bits == 8 ? 16 : 8;   /* (p = 0 is the same rule at every width) */
      edited = memcmp(&rule, good, sizeof rule) != 0;
   }
   /* what the call must say, in the order the header checks: rule, count, range */
   if (which == 0) {
      if (edited) want_err = DROPOUT_ERR_RULE;
      else if ((uint64_t)call_n > (uint64_t)PTRDIFF_MAX) want_err = DROPOUT_ERR_SIZE;
      else if ((uint64_t)call_n > UINT64_MAX - g.next) want_err = DROPOUT_ERR_RANGE;
      else if ((uint64_t)call_n > (uint64_t)PTRDIFF_MAX / es) want_err = DROPOUT_ERR_SIZE;
      else if (call_n != n) return;   /* a count larger or smaller than the buffers: the caller's word is taken */
      plan.count = 0;
   } else {
      err = dropout_plan_at(&plan, &rule, key, dropout_pos_make(g.next), n);
      if (edited) { if (err != DROPOUT_ERR_RULE) fail("plan_at accepted a rule whose fields disagree"); return; }
      if (err == DROPOUT_ERR_RANGE) return;
      if (err != DROPOUT_OK) fail("plan_at refused a plan that fits");
      if ((uint64_t)call_n > (uint64_t)PTRDIFF_MAX / (which == 3 ? 1u : es)) want_err = DROPOUT_ERR_SIZE;
      else if (call_n != n) want_err = DROPOUT_ERR_COUNT;
   }
   memset(yb, CANARY, sizeof yb); memset(mb, CANARY, sizeof mb);
   memcpy(ysnap, yb, sizeof yb); memcpy(msnap, mb, sizeof mb);
   g0 = g;
   memset(&got, 0xA5, sizeof got);
   err = short_call(dtype, which, &g, &rule, which == 0 ? &got : &plan, call_n, yb + PAD, mb + PAD, xb);
   if (want_err || err) {
      char msg[200];
      snprintf(msg, sizeof msg, "short call %d dtype %d n %zu (count %zu): returned %d, want %d", which, dtype, call_n, n, err, want_err);
      if (err != want_err) fail(msg);
      if (memcmp(yb, ysnap, sizeof yb) || memcmp(mb, msnap, sizeof mb) || memcmp(&g, &g0, sizeof g)) fail("a refused short call wrote something or moved g");
      return;
   }
   if (which == 0) {
      if (g.next != g0.next + n || got.pos != g0.next || got.count != n || memcmp(&got.rule, good, sizeof got.rule))
         fail("forward: g not moved on by n, or the plan handed back is not the positions it used");
      plan = got;
   }
   for (i = 0; i < n; ++i) {
      int keep = dropout_keep_at(key.seed, key.stream, plan.pos + i, *good);
      if (which != 3) {
         val want = apply(dtype, load(dtype, xb + i * es), keep, *good);
         unsigned char w[8];
         store(dtype, w, want);
         if (memcmp(w, yb + PAD + i * es, es) && !(is_nan(dtype, w) && is_nan(dtype, yb + PAD + i * es)))
            fail("a short call's element differs from the scalar reference");
      }
      if (which != 2 && mask_bit(mb + PAD, i) != keep) fail("a short call's mask bit differs from its position's keep decision");
   }
   if (memcmp(yb, ysnap, PAD) || memcmp(yb + PAD + n * es, ysnap + PAD + n * es, sizeof yb - PAD - n * es))
      fail("a short call wrote past its n elements");
   if (which != 2 && (memcmp(mb, msnap, PAD) || memcmp(mb + PAD + (n + 7) / 8, msnap + PAD + (n + 7) / 8, sizeof mb - PAD - (n + 7) / 8)))
      fail("a short call wrote past its mask bytes");
   if (which == 2 && memcmp(mb, msnap, sizeof mb)) fail("the backward wrote a mask");
}

/* ---- one case ------------------------------------------------------------------------ */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
   static const double p_list[] = { 0.0, 1.0, 0.5, 0.1, 0.3, 0.999, 0.001, 1e-6, 1e-12, 0.25, 0.75, 0.9 };
   static const double sigma_list[] = { 0.0, 0.5, 1.0, 1e30, -1.0, 1e300 };
   bytes in;
   fcase c;
   dropout_desc d;
   dropout_tensors t;
   static const dropout_bits widths[3] = { DROPOUT_BITS_8, DROPOUT_BITS_16, DROPOUT_BITS_32 };
   unsigned sel, pmode, flags;
   int wrong_units;
   dropout_bits bits;
   dropout_key key;
   uint64_t first, count, numel = 0, positions = 0, want_positions;
   int err, d_i, o, ok_counts, invalid = 0, maybe = 0, runnable = 1, extra, want_stale = 0;
   const char *why = "";
   ptrdiff_t lo[N_OPD], hi[N_OPD];
   buf b[N_OPD], bmask, bbias;
   char msg[600];

   in.p = data; in.n = size; in.at = 0;
   memset(&c, 0, sizeof c);

   /* op and dtype: mostly valid, sometimes out of range */
   sel = u8(&in); c.op = (int)(sel % 12u); if (c.op == 11) c.op = 255;
   sel = u8(&in); c.dtype = (int)(sel % 6u);
   /* the rule */
   sel = u8(&in); bits = widths[sel % 3u]; pmode = (sel / 3u) % 4u;
   if (pmode == 3) {   /* an integer threshold, no double arithmetic */
      uint64_t th = u64(&in, 5) % (((uint64_t)1 << bits) + 2u);
      err = dropout_rule_init_threshold(&c.rule, th, bits);
      if ((err == DROPOUT_OK) != (th <= ((uint64_t)1 << bits))) fail("rule_init_threshold: accepted a threshold past 2^bits, or refused a valid one");
   } else {
      double p = pmode == 0 ? p_list[u8(&in) % 12u] : pmode == 1 ? (double)u64(&in, 2) / 65536.0 : (double)u64(&in, 4) / 4294967296.0;
      dropout_rule strict;
      int serr = dropout_rule_init(&strict, p, bits);
      err = dropout_rule_init_quantised(&c.rule, p, bits);
      if (serr == DROPOUT_OK) {   /* accepted: the quantised rule, within 1% */
         double off = dropout_rule_p(&strict) - p, near = p < 0.5 ? p : 1.0 - p;
         if (err != DROPOUT_OK || memcmp(&strict, &c.rule, sizeof strict) || (off < 0 ? -off : off) > 0.01 * near)
            fail("rule_init accepted a p realised more than 1% off, or another rule than the quantised one");
      } else if (err == DROPOUT_OK && p > 0.0 && p < 1.0) {
         double off = dropout_rule_p(&c.rule) - p, near = p < 0.5 ? p : 1.0 - p;
         if ((off < 0 ? -off : off) <= 0.01 * near) fail("rule_init refused a p realised within 1%");
      }
   }
   if (err != DROPOUT_OK) return 0;   /* runtime.c checks the refusals of p */
   if (c.op == 0) {   /* no op: the short calls instead (an input's other bytes keep their meaning) */
      fuzz_short(&in, &c.rule, dropout_key_make(u64(&in, 2), u64(&in, 1)));
      return 0;
   }

   /* the plan: its first position, small or near the end of the stream */
   key = dropout_key_make(u64(&in, 2), u64(&in, 1));
   flags = u8(&in);
   /* the shape first: the count usually follows from it */
   sel = u8(&in); c.rank = (int)(sel % 10u);   /* 0 and 9: out of range */
   for (d_i = 0; d_i < DROPOUT_MAX_RANK; ++d_i) {
      unsigned v = d_i < c.rank ? u8(&in) : 1u;
      c.dims[d_i] = v == 255 ? (size_t)-1 / 3 : v == 254 ? ((size_t)1 << 31) + 1 : v % 7u;
   }
   c.broadcast = (flags & 1u) ? (unsigned)u8(&in) : 0u;
   if ((flags & 128u) && !(flags & 16u) && c.rank >= 1 && c.rank <= DROPOUT_MAX_RANK) {
      /* position strides: a tensor-parallel block's (the last dim 1, the others nested past
         the span with gaps), with a zero stride, or anything small (often refused) */
      unsigned mode = u8(&in) % 3u;
      uint64_t reach = 0;
      c.pstrided = 1;
      for (d_i = c.rank - 1; d_i >= 0; --d_i) {
         unsigned v = u8(&in);
         if (mode == 2) c.ps[d_i] = v % 6u;
         else if (mode == 1 && v % 4u == 0) c.ps[d_i] = 0;
         else c.ps[d_i] = d_i == c.rank - 1 ? 1u : reach + 1u + v % 5u;
         if (c.dims[d_i] > 1 && c.ps[d_i] && reach < UINT64_MAX / 2) reach += (uint64_t)(c.dims[d_i] - 1) * c.ps[d_i];
      }
   }
   if (c.rank < 1 || c.rank > DROPOUT_MAX_RANK) { numel = positions = 0; ok_counts = 1; }
   else ok_counts = counts(&c, &numel, &positions);
   want_positions = positions;   /* normals too: one per mask element */
   if (flags & 2u) first = UINT64_MAX - u64(&in, 1);      /* near 2^64 */
   else first = u64(&in, 3);
   count = want_positions;
   if (flags & 4u) count += (uint64_t)(int8_t)u8(&in);    /* a count that does not fit the shape */
   /* the plan counts the op's draws; flag 64, the other kind's, which the descriptor refuses */
   wrong_units = (flags & 64u) != 0;
   err = (draws_normals(c.op) != wrong_units ? dropout_plan_at_normals : dropout_plan_at)(&c.plan, &c.rule, key, dropout_pos_make(first), count);
   if ((err == DROPOUT_OK) != (count <= (uint64_t)PTRDIFF_MAX && (count == 0 || count - 1 <= UINT64_MAX - first))) fail(   /* last position 2^64 - 1 at most */
      "plan_at: accepted positions past 2^64 or a count no buffer has, or refused a plan that fits");
   if (err != DROPOUT_OK) return 0;
   if (c.plan.count != count || c.plan.pos != first) fail("plan_at: the plan does not hold the first position and count given");

   /* the descriptor */
   err = dropout_desc_init(&d, (dropout_op)c.op, (dropout_dtype)c.dtype, &c.plan);
   if (wrong_units && c.op >= 1 && c.op <= 9 && c.dtype >= 1 && c.dtype <= 4) {
      if (err != DROPOUT_ERR_PLAN_UNITS) fail("desc_init took a plan of the other draw kind than its op's");
      return 0;
   }
   if ((c.op < 1 || c.op > 9 || c.dtype < 1 || c.dtype > 4 ||
        (c.op == DROPOUT_OP_GAUSSIAN && c.rule.threshold == (uint64_t)1 << c.rule.bits)) != (err != DROPOUT_OK)) {
      snprintf(msg, sizeof msg, "desc_init(op %d, dtype %d) returned %d", c.op, c.dtype, err);
      fail(msg);
   }
   if (err != DROPOUT_OK) return 0;
   if (c.op == DROPOUT_OP_GAUSSIAN) c.sigma_f32 = dropout_gaussian_sigma(dropout_rule_p(&c.rule));
   if (flags & 16u) {
      /* no set_shape: the default shape, 1-D with plan->count elements; the fused op's
         bias length then makes it [count / bias_len, bias_len] */
      c.rank = 1;
      c.dims[0] = (size_t)c.plan.count;
      ok_counts = counts(&c, &numel, &positions);
      if (c.op == DROPOUT_OP_BIAS_DROPOUT_ADD && (flags & 32u)) {
         size_t bl = (size_t)(u8(&in) % 9u);
         err = dropout_desc_set_bias_len(&d, bl);
         if ((err == DROPOUT_OK) != (bl != 0 && c.dims[0] % bl == 0))
            fail("set_bias_len on the default shape: a length that does not divide the count accepted, or one that does refused");
         if (err == DROPOUT_OK) {
            if (bl != c.dims[0]) { c.rank = 2; c.dims[1] = bl; c.dims[0] /= bl; }   /* one row: stays 1-D */
            c.bias_set = 1; c.bias_len = bl;
            ok_counts = counts(&c, &numel, &positions);
         }
      }
   } else {
      err = dropout_desc_set_shape(&d, c.rank, c.dims);
      if (c.rank < 1 || c.rank > DROPOUT_MAX_RANK) {
         if (err == DROPOUT_OK) fail("set_shape accepted a rank outside 1..8");
         return 0;
      }
      if (!ok_counts) {
         if (err == DROPOUT_OK) fail("set_shape accepted a shape whose element count overflows");
         return 0;
      }
      if (err != DROPOUT_OK) {
         snprintf(msg, sizeof msg, "set_shape refused a rank-%d shape whose counts fit (%d: %s)", c.rank, err, dropout_strerror(err));
         fail(msg);
      }
   }
   for (o = 0; o < N_OPD; ++o) contiguous(&c, c.strides[o]);
   if (c.broadcast) {
      int bad = (c.broadcast >> c.rank) != 0;
      err = dropout_desc_set_broadcast(&d, c.broadcast);
      if ((err != DROPOUT_OK) != bad) fail("set_broadcast: a bit past the rank accepted, or a valid one refused");
      if (err != DROPOUT_OK) return 0;
   }
   if (c.pstrided) {
      int want = c.broadcast ? DROPOUT_ERR_BROADCAST : pstrides_ok(&c) ? DROPOUT_OK : DROPOUT_ERR_POSITION_STRIDES;
      uint64_t before = 0, after = 0;
      (void)dropout_desc_positions(&d, &before);
      err = dropout_desc_set_position_strides(&d, c.ps);
      if (err != want) {
         snprintf(msg, sizeof msg, "set_position_strides returned %d where the docs say %d (rank %d, strides %llu,%llu,%llu, dims %zu,%zu,%zu)",
                  err, want, c.rank, (unsigned long long)c.ps[0], (unsigned long long)c.ps[1], (unsigned long long)c.ps[2],
                  c.dims[0], c.dims[1], c.dims[2]);
         fail(msg);
      }
      if (err != DROPOUT_OK) {
         (void)dropout_desc_positions(&d, &after);
         if (after != before) fail("a refused set_position_strides changed the descriptor's positions");
         return 0;
      }
   }

   /* strides of each operand */
   for (o = 0; o < N_OPD; ++o) {
      unsigned mode = u8(&in) % 8u;
      ptrdiff_t s[DROPOUT_MAX_RANK];
      memcpy(s, c.strides[o], sizeof s);
      switch (mode) {
      case 0: continue;                                        /* the default */
      case 1: break;                                           /* contiguous, said explicitly */
      /* (unsigned arithmetic: a huge shape wraps instead of overflowing; it is never run) */
      case 2: for (d_i = 0; d_i < c.rank; ++d_i) s[d_i] = (ptrdiff_t)((size_t)s[d_i] * 2u); break;   /* padded */
      case 3: d_i = (int)(u8(&in) % (unsigned)c.rank); s[d_i] = (ptrdiff_t)(0u - (size_t)s[d_i]); break;   /* one dim flipped */
      case 4: for (d_i = 0; d_i < c.rank; ++d_i) s[d_i] = (ptrdiff_t)(int8_t)u8(&in) % 9; break;   /* anything small */
      case 5: s[u8(&in) % (unsigned)c.rank] = 0; break;       /* a broadcast input */
      case 6: s[u8(&in) % (unsigned)c.rank] = (ptrdiff_t)1 << 40; break;
      case 7:   /* transposed: the last two dims swapped in memory (the outer strides stay) */
         if (c.rank >= 2) {
            s[c.rank - 2] = 1;
            s[c.rank - 1] = (ptrdiff_t)(c.dims[c.rank - 2] ? c.dims[c.rank - 2] : 1);
         }
         break;
      }
      err = dropout_desc_set_strides(&d, (dropout_operand)o, s);
      if (err == DROPOUT_OK) { memcpy(c.strides[o], s, sizeof s); c.said[o] = 1; }
      else if ((o == OPD_OUT && c.op == DROPOUT_OP_MASK) || (o == OPD_IN && !has_in(c.op)) ||
               (o == OPD_RES && c.op != DROPOUT_OP_BIAS_DROPOUT_ADD)) {
         /* an operand the op does not take: refusing its strides is right */
      } else if (o == OPD_OUT) {
         /* the output: refused only when two elements would share memory */
         fcase t2 = c;
         ptrdiff_t l, h;
         memcpy(t2.strides[OPD_OUT], s, sizeof s);
         if (numel > 1 && numel <= CAP_ELEMS && span(&t2, s, &l, &h) && layout_ok(&t2, s)) {
            snprintf(msg, sizeof msg, "set_strides refused output strides where no two elements share memory (%d: %s)", err, dropout_strerror(err));
            fail(msg);
         }
      } else {
         /* inputs: any stride is defined (zero included); only a span past the address
            space may be refused */
         int any_huge = 0;
         for (d_i = 0; d_i < c.rank; ++d_i) if (s[d_i] >= ((ptrdiff_t)1 << 40) || s[d_i] <= -((ptrdiff_t)1 << 40)) any_huge = 1;
         if (!any_huge && ok_counts && numel <= CAP_ELEMS) {
            snprintf(msg, sizeof msg, "set_strides refused ordinary strides for operand %d (%d: %s)", o, err, dropout_strerror(err));
            fail(msg);
         }
      }
   }
   /* in place: the input is the output itself, with the output's strides */
   c.inplace = (flags & 8u) != 0 && has_in(c.op) && c.op != DROPOUT_OP_BIAS_DROPOUT_ADD;
   if (c.inplace) {
      err = dropout_desc_set_strides(&d, DROPOUT_OPERAND_IN, c.strides[OPD_OUT]);
      if (err == DROPOUT_OK) { memcpy(c.strides[OPD_IN], c.strides[OPD_OUT], sizeof c.strides[OPD_IN]); c.said[OPD_IN] = 1; }
      else c.inplace = 0;
   }
   sel = u8(&in);
   c.accumulate = (sel & 1u) && is_grad(c.op);
   if (sel & 2u) {
      int mode = (sel & 4u) ? 2 : (int)(sel & 1u);              /* 2: not a mode */
      err = dropout_desc_set_grad(&d, (dropout_grad)mode);
      if (mode == 2 && err == DROPOUT_OK) fail("set_grad accepted a mode that is neither overwrite nor accumulate");
      if (mode != 2 && is_grad(c.op) && err != DROPOUT_OK) fail("set_grad refused a mode for a gradient op");
      if (err == DROPOUT_OK) c.accumulate = mode == 1; else c.accumulate = 0;
   } else c.accumulate = 0;
   if (c.op == DROPOUT_OP_NOISE) {
      double s = sigma_list[u8(&in) % 6u];
      err = dropout_desc_set_sigma(&d, s);
      if ((err == DROPOUT_OK) != (s >= 0.0 && s < 3.4028235677973366e38)) fail("set_sigma: a negative sigma, or one that is +inf as a float, accepted, or a valid one refused");
      c.sigma_set = err == DROPOUT_OK;
      c.sigma = s;
      c.sigma_f32 = c.sigma_set ? (float)s : 0.0f;
   }
   c.bias_len = c.dims[c.rank - 1];
   if (c.op == DROPOUT_OP_BIAS_DROPOUT_ADD && (sel & 8u)) {
      /* rank 1: only the last dim itself (a 1-D default shape would be reshaped by it) */
      size_t bl = c.rank == 1 ? c.dims[0] : (size_t)(u8(&in) % 9u);
      if (dropout_desc_set_bias_len(&d, bl) == DROPOUT_OK) { c.bias_len = bl; c.bias_set = 1; }
   }
   c.with_mask = ((sel & 16u) != 0 && has_mask_out(c.op)) || c.op == DROPOUT_OP_MASK || c.op == DROPOUT_OP_APPLY_MASK;
   extra = (sel & 64u) != 0;
   if (sel & 32u) {   /* device coordinates (CUDA graphs): both, one alone, or set then cleared */
      static const uint64_t dev_seed = 1, dev_pos = 2;
      unsigned mode = u8(&in) % 3u;
      if (mode == 1) {
         if (dropout_desc_set_device_coords(&d, &dev_seed, NULL) != DROPOUT_ERR_NULL) fail("set_device_coords accepted a seed without a position");
      } else if (dropout_desc_set_device_coords(&d, &dev_seed, &dev_pos) == DROPOUT_OK) {
         if (mode == 2) {
            if (dropout_desc_set_device_coords(&d, NULL, NULL) != DROPOUT_OK) fail("set_device_coords(NULL, NULL) did not clear");
         } else { invalid = 1; why = "device coordinates on a CPU run"; }   /* a CPU run refuses */
      }
   }

   if (sel & 128u) {   /* (sel's last free bit: the other inputs keep their meaning) */
      /* a reshape after the strides (a descriptor reused for the next batch): set_shape once
         or twice more (the first shape again, its dims rotated, flattened, or emptied), each
         followed by some strides and position strides said again for the new shape, cleared
         with NULL, or left as the shape reset them: contiguous, but pending until said again
         (docs/API.md, set_shape), and a run that addresses a pending one is refused */
      size_t dims0[DROPOUT_MAX_RANK];
      /* shape_set: on the default shape (flag 16) the strides said so far came before any shape */
      int rank0 = c.rank, had_ps = c.pstrided, shape_set = !(flags & 16u), k, n_re = 1 + (int)(u8(&in) & 1u);
      memcpy(dims0, c.dims, sizeof dims0);
      for (k = 0; k < n_re; ++k) {
         unsigned how = u8(&in), again = u8(&in);
         fcase r = c;
         uint64_t n2, p2;
         int want;
         if (how % 4u == 0) { r.rank = rank0; memcpy(r.dims, dims0, sizeof dims0); }
         else if (how % 4u == 1) for (d_i = 0; d_i < c.rank; ++d_i) r.dims[d_i] = c.dims[(d_i + 1) % c.rank];
         else if (how % 4u == 2) { r.rank = 1; r.dims[0] = (size_t)numel; }   /* (the same count: it fit) */
         else r.dims[(how / 4u) % (unsigned)c.rank] = 0;
         for (d_i = r.rank; d_i < DROPOUT_MAX_RANK; ++d_i) r.dims[d_i] = 1;
         /* strides set before any shape are refused rather than reset; a broadcast bit past
            the new rank is refused; then the counts, as for the first shape */
         want = !shape_set && (c.said[OPD_OUT] || c.said[OPD_IN] || c.said[OPD_RES]) ? DROPOUT_ERR_SHAPE_RESETS :
                (c.broadcast >> r.rank) != 0 ? DROPOUT_ERR_BROADCAST : DROPOUT_OK;
         err = dropout_desc_set_shape(&d, r.rank, r.dims);
         if (want == DROPOUT_OK && !counts(&r, &n2, &p2) ? err == DROPOUT_OK : err != want) {
            snprintf(msg, sizeof msg, "a reshape to rank %d returned %d where the rules say %d", r.rank, err, want);
            fail(msg);
         }
         if (err == DROPOUT_OK) {   /* what the shape reset (said strides) is pending now */
            for (o = 0; o < N_OPD; ++o) {
               r.stale[o] |= r.said[o];
               r.said[o] = 0;
               contiguous(&r, r.strides[o]);
            }
            r.stale_ps |= r.pstrided;
            r.pstrided = 0;
            c = r;
            shape_set = 1;
            ok_counts = counts(&c, &numel, &positions);
         }
         /* two bits a target (out, in, residual, position strides): 0 left, 1 NULL, 2 the
            contiguous strides said explicitly (position strides: the first ones again, which
            the new shape may refuse), 3 padded */
         for (o = 0; o <= N_OPD; ++o) {
            unsigned a = again >> (2 * o) & 3u;
            if (a == 0) continue;
            if (o == N_OPD) {
               if (a != 1 && !had_ps) continue;
               want = a == 1 || pstrides_ok(&c) ? DROPOUT_OK : DROPOUT_ERR_POSITION_STRIDES;
               err = dropout_desc_set_position_strides(&d, a == 1 ? NULL : c.ps);
               if (err != want) {
                  snprintf(msg, sizeof msg, "set_position_strides after a reshape returned %d where the docs say %d", err, want);
                  fail(msg);
               }
               if (err == DROPOUT_OK) { c.pstrided = a != 1; c.stale_ps = 0; }
            } else {
               ptrdiff_t s[DROPOUT_MAX_RANK] = { 0 };
               contiguous(&c, s);
               if (a == 3) for (d_i = 0; d_i < c.rank; ++d_i) s[d_i] = (ptrdiff_t)((size_t)s[d_i] * 2u);
               err = dropout_desc_set_strides(&d, (dropout_operand)o, a == 1 ? NULL : s);
               if (err == DROPOUT_OK) { memcpy(c.strides[o], s, sizeof s); c.said[o] = a != 1; c.stale[o] = 0; }
               else if (a == 1 || (numel > 0 && numel <= CAP_ELEMS && (o != OPD_RES || c.op == DROPOUT_OP_BIAS_DROPOUT_ADD)))
                  fail("set_strides refused NULL, or a contiguous or padded layout of the new shape");
            }
         }
         ok_counts = counts(&c, &numel, &positions);
      }
      /* in place needs the output's strides on the input: strides said for one of them
         alone make two buffers of it */
      if (c.inplace && memcmp(c.strides[OPD_IN], c.strides[OPD_OUT], (size_t)c.rank * sizeof(ptrdiff_t)) != 0) c.inplace = 0;
   }

   /* what the rules say */
   if (!ok_counts) { invalid = 1; why = "the shape's counts overflow"; }
   else {
      uint64_t pos_of_shape;
      want_positions = positions;   /* normals too: one per mask element */
      if (uses_draws(c.op) && c.plan.count != want_positions) { invalid = 1; why = "the shape draws other than plan->count positions"; }
      if (c.op == DROPOUT_OP_NOISE && !c.sigma_set) { invalid = 1; why = "NOISE without sigma"; }   /* NOISE needs its sigma */
      /* an explicit bias length must be the last dim (and not 0); the default is the last dim */
      if (c.op == DROPOUT_OP_BIAS_DROPOUT_ADD && c.bias_set && (c.bias_len == 0 || c.bias_len != c.dims[c.rank - 1])) { invalid = 1; why = "a bias length other than the last dim"; }
      /* the fused op's last dim (its bias's) steps 0 or 1 position */
      if (c.op == DROPOUT_OP_BIAS_DROPOUT_ADD && c.pstrided && c.dims[c.rank - 1] > 1 && c.ps[c.rank - 1] > 1) { invalid = 1; why = "the fused op's last dim stepping more than 1 position"; }
      err = dropout_desc_positions(&d, &pos_of_shape);
      if (err == DROPOUT_OK && uses_draws(c.op) && pos_of_shape != want_positions) {
         snprintf(msg, sizeof msg, "desc_positions says %llu, the shape draws %llu", (unsigned long long)pos_of_shape, (unsigned long long)want_positions);
         fail(msg);
      }
      for (o = 0; o < N_OPD; ++o) if (!span(&c, c.strides[o], &lo[o], &hi[o])) runnable = 0;
      if (runnable && numel > 0) {
         for (d_i = 0; d_i < c.rank; ++d_i) if (c.strides[OPD_OUT][d_i] == 0 && c.dims[d_i] > 1) { invalid = 1; why = "a zero output stride"; }
         if (output_overlaps(&c, numel, lo[OPD_OUT], hi[OPD_OUT])) { invalid = 1; why = "two output elements share memory"; }
         else if (!layout_ok(&c, c.strides[OPD_OUT])) maybe = 1;   /* no overlap, but not a promised layout */
      }
   }
   /* strides a reshape left pending, of an operand the op addresses (out and in where it
      takes an input, the residual in the fused op), or position strides (every op draws by
      them), where the shape has elements: DROPOUT_ERR_STRIDES_STALE, which the run checks
      after the op's own settings (NOISE's sigma) and before the shape's count, the bias, the
      tensors, the mask's size and device coordinates */
   want_stale = ok_counts && numel > 0 && !(c.op == DROPOUT_OP_NOISE && !c.sigma_set) &&
                (c.stale_ps || (has_in(c.op) && (c.stale[OPD_OUT] || c.stale[OPD_IN])) ||
                 (c.op == DROPOUT_OP_BIAS_DROPOUT_ADD && c.stale[OPD_RES]));
   if (want_stale) { invalid = 1; why = "strides a reshape reset, not said again"; }
   if (positions > 8 * (uint64_t)CAP_ELEMS || (c.op == DROPOUT_OP_BIAS_DROPOUT_ADD && c.dims[c.rank - 1] > CAP_ELEMS)) runnable = 0;
   if (!runnable || (numel > CAP_ELEMS && !invalid)) return 0;   /* too big to allocate: the setters were the test */
   if (!ok_counts) { memset(lo, 0, sizeof lo); memset(hi, 0, sizeof hi); }

   /* the buffers, canaries around each */
   for (o = 0; o < N_OPD; ++o) buf_make(&b[o], (size_t)-lo[o], (size_t)(hi[o] - lo[o] + 1), esize(c.dtype), &in);
   buf_make(&bmask, 0, (size_t)((positions + 7) / 8) + 1, 1, &in);
   buf_make(&bbias, 0, (c.op == DROPOUT_OP_BIAS_DROPOUT_ADD ? c.dims[c.rank - 1] : 0) + 1, esize(c.dtype), &in);
   memset(&t, 0, sizeof t);
   t.out = c.op != DROPOUT_OP_MASK ? b[OPD_OUT].base : NULL;
   t.in = !has_in(c.op) ? NULL : c.inplace ? b[OPD_OUT].base : b[OPD_IN].base;
   t.mask = c.with_mask ? bmask.base : NULL;
   {  /* the mask buffer's size: stated exactly, left unstated, or stated a byte short. With
         position strides spanning more positions than elements a mask's size must be
         stated (the mask holds the span); one stated short is refused on any descriptor */
      const unsigned mb_mode = u8(&in) % 4u;
      const size_t need = (size_t)((positions + 7) / 8);
      const int short_by_one = mb_mode == 2 && need > 1;   /* (0 bytes would be "not stated") */
      if (mb_mode != 1 && dropout_desc_set_mask_bytes(&d, short_by_one ? need - 1 : need) != DROPOUT_OK)
         fail("set_mask_bytes refused");
      if (c.with_mask && positions > 0 && (short_by_one || (mb_mode == 1 && c.pstrided && positions > numel))) {
         invalid = 1;
         why = "a mask of no stated size under position strides that span more than the elements, or of a size stated short";
      }
   }
   t.bias = c.op == DROPOUT_OP_BIAS_DROPOUT_ADD ? bbias.base : NULL;
   t.residual = c.op == DROPOUT_OP_BIAS_DROPOUT_ADD ? b[OPD_RES].base : NULL;
   if (extra) {   /* a residual for an op that takes none; the fused op without its residual */
      t.residual = c.op != DROPOUT_OP_BIAS_DROPOUT_ADD ? b[OPD_RES].base : NULL;
      if (numel > 0) { invalid = 1; why = "a tensor the op does not take (or the fused op without its residual)"; }
      else maybe = 1;   /* an empty tensor: pointers may be refused or ignored */
   }

   err = dropout_run(&d, &t);
   if ((err == DROPOUT_ERR_STRIDES_STALE) != want_stale) {
      snprintf(msg, sizeof msg, "dropout_run returned %d where the rules say %s (op %d rank %d numel %llu, pending out %d in %d residual %d position strides %d)",
               err, want_stale ? "DROPOUT_ERR_STRIDES_STALE" : "no DROPOUT_ERR_STRIDES_STALE", c.op, c.rank, (unsigned long long)numel,
               c.stale[OPD_OUT], c.stale[OPD_IN], c.stale[OPD_RES], c.stale_ps);
      fail(msg);
   }
   if (err != DROPOUT_OK || invalid) {
      if (err == DROPOUT_OK) {
         snprintf(msg, sizeof msg, "dropout_run accepted an invalid call: %s (op %d dtype %d rank %d broadcast %x count %llu, shape positions %llu)",
                  why, c.op, c.dtype, c.rank, c.broadcast, (unsigned long long)c.plan.count, (unsigned long long)want_positions);
         fail(msg);
      }
      if (!invalid && !maybe && numel <= CAP_ELEMS) {
         snprintf(msg, sizeof msg, "dropout_run refused a valid call (op %d dtype %d rank %d): %d %s", c.op, c.dtype, c.rank, err, dropout_strerror(err));
         fail(msg);
      }
      for (o = 0; o < N_OPD; ++o) if (!buf_same(&b[o])) fail("an error, but an operand was written");
      if (!buf_same(&bmask) || !buf_same(&bbias)) fail("an error, but the mask or the bias was written");
      if (!dropout_strerror(err) || !dropout_strerror(err)[0]) fail("an error code without a message");
   } else {
      /* the reference, element by element */
      size_t es = esize(c.dtype);
      unsigned char *expect = (unsigned char *)malloc(b[OPD_OUT].bytes);
      dropout_alpha_rule ar;
      uint64_t i;
      if (!expect) fail("out of memory");
      memcpy(expect, b[OPD_OUT].snap, b[OPD_OUT].bytes);
      ar = dropout_alpha_rule_of(c.rule);
      for (i = 0; i < numel; ++i) {
         uint64_t m;
         ptrdiff_t eo = offset_of(&c, c.strides[OPD_OUT], i, &m);
         ptrdiff_t ei = offset_of(&c, c.strides[OPD_IN], i, NULL);
         ptrdiff_t er = offset_of(&c, c.strides[OPD_RES], i, NULL);
         unsigned char *dst = expect + (b[OPD_OUT].base - b[OPD_OUT].mem) + eo * (ptrdiff_t)es;
         val old = load(c.dtype, dst), x = c.inplace ? old : load(c.dtype, b[OPD_IN].base + ei * (ptrdiff_t)es), y = x;
         int keep = 1;
         if (c.op == DROPOUT_OP_APPLY_MASK)   /* p = 1 drops all, whatever the stored mask says (SPEC 7) */
            keep = c.rule.threshold != (uint64_t)1 << c.rule.bits && mask_bit(bmask.snap + PAD, m);
         else if (!draws_normals(c.op)) keep = dropout_keep_at(c.plan.key.seed, c.plan.key.stream, c.plan.pos + m, c.rule);
         switch (c.op) {
         case DROPOUT_OP_FORWARD: case DROPOUT_OP_BACKWARD: case DROPOUT_OP_APPLY_MASK:
            y = apply(c.dtype, x, keep, c.rule); break;
         case DROPOUT_OP_MASK: continue;
         case DROPOUT_OP_ALPHA_FORWARD: y = alpha_el(c.dtype, x, keep, &ar, 0); break;
         case DROPOUT_OP_ALPHA_BACKWARD: y = alpha_el(c.dtype, x, keep, &ar, 1); break;
         case DROPOUT_OP_GAUSSIAN: case DROPOUT_OP_NOISE:
            /* p = 0 (Gaussian) and sigma = 0 (noise) copy x bit for bit (SPEC V.4) */
            if (c.op == DROPOUT_OP_GAUSSIAN ? c.rule.threshold == 0 : !(c.sigma > 0.0)) { y = x; break; }
            y = gauss_el(c.dtype, x, dropout_normal_at(c.plan.key.seed, c.plan.key.stream, c.plan.pos + m),
                         c.sigma_f32, c.op == DROPOUT_OP_NOISE);
            break;
         case DROPOUT_OP_BIAS_DROPOUT_ADD: {
            size_t col = (size_t)(i % c.dims[c.rank - 1]);
            y = fused_el(c.dtype, x, load(c.dtype, bbias.base + col * es), load(c.dtype, b[OPD_RES].base + er * (ptrdiff_t)es), keep, c.rule);
            break; }
         }
         if (c.accumulate) y = accumulate(c.dtype, old, y);
#ifdef FUZZ_BREAK_REFERENCE   /* the suite's proof that a wrong bit is caught */
         if (i == 0) *(unsigned char *)&y ^= 1u;
#endif
         store(c.dtype, dst, y);
      }
      /* elements: the reference's bits (NaN payloads aside where the FPU chooses them);
         then every other byte of the span (gaps, canaries): untouched */
      for (i = 0; i < numel; ++i) {
         ptrdiff_t at = (b[OPD_OUT].base - b[OPD_OUT].mem) + offset_of(&c, c.strides[OPD_OUT], i, NULL) * (ptrdiff_t)es;
         if (c.op != DROPOUT_OP_MASK && same_element(&c, expect + at, b[OPD_OUT].mem + at)) memcpy(expect + at, b[OPD_OUT].mem + at, es);
      }
      if (memcmp(expect, b[OPD_OUT].mem, b[OPD_OUT].bytes) != 0) {
         size_t k;
         for (k = 0; k < b[OPD_OUT].bytes && expect[k] == b[OPD_OUT].mem[k]; ++k) {}
         snprintf(msg, sizeof msg, "op %d dtype %d rank %d dims %zu,%zu,%zu broadcast %x accumulate %d in place %d out strides %td,%td,%td in strides %td,%td,%td p %.17g bits %d: the output differs from the scalar reference at byte %lld of the span (%s: want %02x, got %02x)",
                  c.op, c.dtype, c.rank, c.dims[0], c.dims[1], c.dims[2], c.broadcast, c.accumulate, c.inplace,
                  c.strides[OPD_OUT][0], c.strides[OPD_OUT][1], c.strides[OPD_OUT][2],
                  c.strides[OPD_IN][0], c.strides[OPD_IN][1], c.strides[OPD_IN][2], dropout_rule_p(&c.rule), c.rule.bits,
                  (long long)k - PAD, k < PAD || k >= b[OPD_OUT].bytes - PAD ? "a canary" : "an element or a gap",
                  (unsigned)expect[k], (unsigned)b[OPD_OUT].mem[k]);
         fail(msg);
      }
      free(expect);
      if (!buf_same(&b[OPD_IN]) || !buf_same(&b[OPD_RES]) || !buf_same(&bbias)) fail("an input was written");
      /* the mask: packed in mask-shape row-major order; bytes past it untouched */
      if (c.with_mask && has_mask_out(c.op)) {
         uint64_t m;
         for (m = 0; m < positions; ++m)
            if (mask_bit(bmask.base, m) != dropout_keep_at(c.plan.key.seed, c.plan.key.stream, c.plan.pos + m, c.rule))
               fail("a mask bit differs from the keep decision of its position");
         if (memcmp(bmask.mem + PAD + (positions + 7) / 8, bmask.snap + PAD + (positions + 7) / 8, bmask.bytes - PAD - (size_t)(positions + 7) / 8) != 0 ||
             memcmp(bmask.mem, bmask.snap, PAD) != 0)
            fail("the mask's canaries were written");
      } else if (!buf_same(&bmask)) fail("the mask was written by an op that only reads it (or was not given it)");

      /* a plan draws one forward: the same run again is refused, nothing written */
      if (draws_step(c.op)) {
         unsigned char *o2 = (unsigned char *)malloc(b[OPD_OUT].bytes), *m2 = (unsigned char *)malloc(bmask.bytes);
         if (!o2 || !m2) fail("out of memory");
         memcpy(o2, b[OPD_OUT].mem, b[OPD_OUT].bytes); memcpy(m2, bmask.mem, bmask.bytes);
         if (dropout_run(&d, &t) != DROPOUT_ERR_PLAN_RAN) fail("a second forward of one plan was not refused with DROPOUT_ERR_PLAN_RAN");
         if (memcmp(o2, b[OPD_OUT].mem, b[OPD_OUT].bytes) || memcmp(m2, bmask.mem, bmask.bytes)) fail("the refused second forward wrote");
         free(o2); free(m2);
      }

      /* the same call on contiguous copies: the strided rule */
      {
         dropout_desc dc;
         dropout_tensors tc;
         unsigned char *cin = (unsigned char *)malloc((size_t)numel * es + 1), *cout = (unsigned char *)malloc((size_t)numel * es + 1),
                       *cres = (unsigned char *)malloc((size_t)numel * es + 1), *cmask = (unsigned char *)malloc((size_t)(positions + 7) / 8 + 1);
         if (!cin || !cout || !cres || !cmask) fail("out of memory");
         for (i = 0; i < numel; ++i) {
            if (c.inplace)   /* the input was the output's bytes before the call */
               memcpy(cin + i * es, b[OPD_OUT].snap + (b[OPD_OUT].base - b[OPD_OUT].mem) + offset_of(&c, c.strides[OPD_OUT], i, NULL) * (ptrdiff_t)es, es);
            else memcpy(cin + i * es, b[OPD_IN].base + offset_of(&c, c.strides[OPD_IN], i, NULL) * (ptrdiff_t)es, es);
            memcpy(cres + i * es, b[OPD_RES].base + offset_of(&c, c.strides[OPD_RES], i, NULL) * (ptrdiff_t)es, es);
            memcpy(cout + i * es, b[OPD_OUT].snap + (b[OPD_OUT].base - b[OPD_OUT].mem) + offset_of(&c, c.strides[OPD_OUT], i, NULL) * (ptrdiff_t)es, es);
         }
         if (c.op == DROPOUT_OP_APPLY_MASK) memcpy(cmask, bmask.snap + PAD, (size_t)(positions + 7) / 8);
         if (dropout_desc_init(&dc, (dropout_op)c.op, (dropout_dtype)c.dtype, &c.plan) != DROPOUT_OK ||
             dropout_desc_set_shape(&dc, c.rank, c.dims) != DROPOUT_OK ||
             (c.broadcast && dropout_desc_set_broadcast(&dc, c.broadcast) != DROPOUT_OK) ||
             (c.pstrided && dropout_desc_set_position_strides(&dc, c.ps) != DROPOUT_OK) ||
             dropout_desc_set_mask_bytes(&dc, (size_t)((positions + 7) / 8)) != DROPOUT_OK ||
             (c.accumulate && dropout_desc_set_grad(&dc, DROPOUT_GRAD_ACCUMULATE) != DROPOUT_OK) ||
             (c.sigma_set && dropout_desc_set_sigma(&dc, (double)c.sigma_f32) != DROPOUT_OK) ||
             (c.bias_set && dropout_desc_set_bias_len(&dc, c.bias_len) != DROPOUT_OK))
            fail("the contiguous descriptor was refused");
         memset(&tc, 0, sizeof tc);
         tc.out = t.out ? cout : NULL; tc.in = t.in ? cin : NULL; tc.mask = t.mask ? cmask : NULL;
         tc.bias = t.bias; tc.residual = t.residual ? cres : NULL;
         err = dropout_run(&dc, &tc);
         if (err != DROPOUT_OK) fail("the same call on contiguous copies was refused");
         for (i = 0; i < numel; ++i)
            if (!same_element(&c, cout + i * es, b[OPD_OUT].base + offset_of(&c, c.strides[OPD_OUT], i, NULL) * (ptrdiff_t)es))
               fail("a strided element differs from the same call on the contiguous copy");
         if (t.mask && has_mask_out(c.op) && positions > 0 && memcmp(cmask, bmask.base, (size_t)(positions + 7) / 8) != 0)
            fail("the strided call's mask differs from the contiguous call's");
         free(cin); free(cout); free(cres); free(cmask);
      }
   }
   for (o = 0; o < N_OPD; ++o) buf_free(&b[o]);
   buf_free(&bmask); buf_free(&bbias);
   return 0;
}

#ifdef FUZZ_MAIN
/* replay: every file named on the command line is one input */
int main(int argc, char **argv)
{
   int i, n = 0;
   for (i = 1; i < argc; ++i) {
      static uint8_t data[1 << 16];
      size_t len;
      FILE *f = fopen(argv[i], "rb");
      if (!f) { printf("FAIL fuzz replay: cannot open %s\n", argv[i]); return 1; }
      len = fread(data, 1, sizeof data, f);
      fclose(f);
      LLVMFuzzerTestOneInput(data, len);
      ++n;
   }
   printf("PASS fuzz replay: %d inputs, every call an error with nothing written or the reference's bits\n", n);
   return 0;
}
#endif
