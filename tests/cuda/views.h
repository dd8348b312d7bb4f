/* views.h - random strided views and their descriptors, for the CUDA tests of
   dropout_cuda_run (tests/cuda/test_cuda_logic.c on the CPU, tests/cuda/test_cuda_run.cu
   on a GPU). Include after dropout_cuda.cuh.

   A case is one op on one view: every op and dtype, rank 1 to 4, sizes 0 to 6 and a few
   long rows (whole 32-element units and tails), each operand laid out by its own
   permutation of the dims, padded, some dims reversed (negative strides), inputs with
   some zero strides, sometimes an operand or all of them contiguous, random broadcast
   bits, gradient accumulation, p from 0 to 1 and every draw width, first positions near
   2^64, and device coordinates (the seed and first position read from memory). The
   buffers are the test's: views_make says where in them each operand's element (0, .., 0)
   sits so that the whole view fits. */
#ifndef TESTS_CUDA_VIEWS_H
#define TESTS_CUDA_VIEWS_H

#include <string.h>

typedef struct view_case {
   int dt;                                  /* DROPOUT_CUDA__F32 .. BF16 */
   dropout_op op;
   int rank;
   size_t dims[DROPOUT_MAX_RANK];
   unsigned bcast;
   int accumulate, use_dev, bits;
   int has_out, has_in, fused, reads_mask, writes_mask;
   int nan_ok;                              /* NaN payloads unspecified (docs/SPEC.md 10, 12) */
   double p, sigma;
   uint64_t off, numel, positions;
   ptrdiff_t st[3][DROPOUT_MAX_RANK];
   const ptrdiff_t *stp[3];                 /* NULL: contiguous */
   size_t base[3];                          /* element (0, .., 0)'s element index in its buffer */
} view_case;

static uint64_t views__state = 0x9E3779B97F4A7C15u;
static uint32_t views_rnd(void)
{
   views__state = views__state * 6364136223846793005u + 1442695040888963407u;
   return (uint32_t)(views__state >> 32);
}

/* element offset of logical (row-major) index i; st NULL: contiguous */
static ptrdiff_t views_offset(int rank, const size_t *dims, const ptrdiff_t *st, uint64_t i)
{
   ptrdiff_t off = 0;
   int d;
   if (!st) return (ptrdiff_t)i;
   for (d = rank - 1; d >= 0; --d) {
      off += (ptrdiff_t)(i % dims[d]) * st[d];
      i /= dims[d];
   }
   return off;
}

/* operand layout: strides from a shuffled dim order, padding, reversal; zero strides when
   allowed; lo/hi: the lowest and highest element offsets the view reaches */
static void views_layout(int rank, const size_t *dims, ptrdiff_t *st, int allow_zero, ptrdiff_t *lo, ptrdiff_t *hi)
{
   int perm[DROPOUT_MAX_RANK], d, j;
   ptrdiff_t c = 1 + (ptrdiff_t)(views_rnd() % 2u);
   for (d = 0; d < rank; ++d) perm[d] = d;
   for (d = rank - 1; d > 0; --d) {
      int k = (int)(views_rnd() % (uint32_t)(d + 1)), t = perm[d];
      if (views_rnd() % 2u) { perm[d] = perm[k]; perm[k] = t; }
   }
   for (j = rank - 1; j >= 0; --j) {
      d = perm[j];
      st[d] = c;
      c *= (ptrdiff_t)dims[d] + (views_rnd() % 3u == 0 ? 1 : 0);
      if (c == 0) c = 1;
      if (views_rnd() % 4u == 0) st[d] = -st[d];
      if (allow_zero && views_rnd() % 6u == 0) st[d] = 0;
   }
   *lo = *hi = 0;
   for (d = 0; d < rank; ++d) {
      ptrdiff_t e = dims[d] ? st[d] * (ptrdiff_t)(dims[d] - 1) : 0;
      if (e < 0) *lo += e; else *hi += e;
   }
}

/* A random case whose view has at most max_elems elements and positions and whose every
   operand fits in buf_elems elements (16 bytes of margin left at the start). */
static void views_make(view_case *c, size_t max_elems, size_t buf_elems)
{
   static const dropout_op ops[] = { DROPOUT_OP_FORWARD, DROPOUT_OP_BACKWARD, DROPOUT_OP_MASK, DROPOUT_OP_APPLY_MASK,
                                     DROPOUT_OP_ALPHA_FORWARD, DROPOUT_OP_ALPHA_BACKWARD, DROPOUT_OP_GAUSSIAN,
                                     DROPOUT_OP_NOISE, DROPOUT_OP_BIAS_DROPOUT_ADD };
   static const double ps[] = { 0.0, 0.1, 0.5, 0.9, 1.0 };
   for (;;) {
      ptrdiff_t lo[3], hi[3];
      int d, k, fits = 1, grad;
      memset(c, 0, sizeof *c);
      c->dt = (int)(views_rnd() % 4u);
      c->op = ops[views_rnd() % 9u];
      c->rank = 1 + (int)(views_rnd() % 4u);
      c->bits = 8 << (views_rnd() % 3u);
      grad = c->op == DROPOUT_OP_BACKWARD || c->op == DROPOUT_OP_APPLY_MASK || c->op == DROPOUT_OP_ALPHA_BACKWARD ||
             c->op == DROPOUT_OP_GAUSSIAN;
      c->accumulate = grad && views_rnd() % 3u == 0;
      c->use_dev = views_rnd() % 4u == 0;
      c->fused = c->op == DROPOUT_OP_BIAS_DROPOUT_ADD;
      c->has_out = c->has_in = c->op != DROPOUT_OP_MASK;
      c->reads_mask = c->op == DROPOUT_OP_APPLY_MASK;
      c->writes_mask = c->op == DROPOUT_OP_MASK ||
         ((c->op == DROPOUT_OP_FORWARD || c->op == DROPOUT_OP_ALPHA_FORWARD || c->fused) && views_rnd() % 2u);
      c->nan_ok = c->accumulate || c->fused || c->op == DROPOUT_OP_ALPHA_FORWARD || c->op == DROPOUT_OP_ALPHA_BACKWARD ||
                  c->op == DROPOUT_OP_GAUSSIAN || c->op == DROPOUT_OP_NOISE;
      c->p = ps[views_rnd() % 5u];
      if (c->op == DROPOUT_OP_GAUSSIAN && c->p >= 1.0) c->p = 0.9;
      c->sigma = (double)(views_rnd() % 4u) * 0.5;
      c->numel = c->positions = 1;
      for (d = 0; d < c->rank; ++d) {
         uint32_t r = views_rnd() % 16u;
         c->dims[d] = r < 1 ? 0 : r < 11 ? 1 + views_rnd() % 6u : r < 14 ? 30 + views_rnd() % 40u : 64 + views_rnd() % 70u;
         if (views_rnd() % 3u == 0) c->bcast |= 1u << d;
         c->numel *= c->dims[d];
         if (!((c->bcast >> d) & 1u)) c->positions *= c->dims[d];
      }
      if (c->numel > max_elems || c->positions > max_elems) continue;
      c->off = views_rnd() % 4u == 0 ? UINT64_MAX - c->positions + 1 : (uint64_t)(views_rnd() % 1000u);
      for (k = 0; k < 3; ++k) {
         views_layout(c->rank, c->dims, c->st[k], k > 0, &lo[k], &hi[k]);
         c->stp[k] = views_rnd() % 5u == 0 ? NULL : c->st[k];   /* sometimes one operand contiguous */
      }
      if (views_rnd() % 4u == 0) c->stp[0] = c->stp[1] = c->stp[2] = NULL;   /* the contiguous kernels' case */
      for (k = 0; k < 3; ++k) {
         if (!(k == 0 ? c->has_out : k == 1 ? c->has_in : c->fused)) c->stp[k] = NULL;   /* the op has no such operand */
         if (!c->stp[k]) { lo[k] = 0; hi[k] = c->numel ? (ptrdiff_t)c->numel - 1 : 0; }
         if ((size_t)(hi[k] - lo[k]) + 16 >= buf_elems) fits = 0;
         c->base[k] = (size_t)(16 - lo[k]);
      }
      if (fits) return;
   }
}

/* the case's descriptor on plan; strided = 0: its contiguous copy (no strides) */
static int views_desc(dropout_desc *d, const view_case *c, const dropout_plan *plan, int strided)
{
   int rc = dropout_desc_init(d, c->op, (dropout_dtype)(c->dt + 1), plan), k;
   if (!rc) rc = dropout_desc_set_shape(d, c->rank, c->dims);
   if (!rc && c->bcast) rc = dropout_desc_set_broadcast(d, c->bcast);
   if (!rc && c->accumulate) rc = dropout_desc_set_grad(d, DROPOUT_GRAD_ACCUMULATE);
   if (!rc && c->op == DROPOUT_OP_NOISE) rc = dropout_desc_set_sigma(d, c->sigma);
   if (!rc && c->fused) rc = dropout_desc_set_bias_len(d, c->dims[c->rank - 1]);
   for (k = 0; k < 3 && !rc && strided; ++k)
      if (c->stp[k]) rc = dropout_desc_set_strides(d, (dropout_operand)k, c->stp[k]);
   return rc;
}

/* the case's plan: key (seed, 5), first position pos. p = 0.1 and 0.9 at 8 bits are 26/256
   off by 1.6%, which dropout_rule_init refuses; the cases take the quantised p, as a caller
   who accepts it would, so that 8-bit draws at those p still run on both sides. */
static int views_plan(const view_case *c, uint64_t seed, uint64_t pos, dropout_plan *plan)
{
   dropout_rule rule;
   int rc = dropout_rule_init(&rule, c->p, (dropout_bits)c->bits);
   if (rc == DROPOUT_ERR_P_NEEDS_16 || rc == DROPOUT_ERR_P_NEEDS_32) rc = dropout_rule_init_quantised(&rule, c->p, (dropout_bits)c->bits);
   if (!rc) rc = (c->op == DROPOUT_OP_GAUSSIAN || c->op == DROPOUT_OP_NOISE ? dropout_plan_at_normals : dropout_plan_at)(
                    plan, &rule, dropout_key_make(seed, 5), dropout_pos_make(pos), c->positions);
   return rc;
}

static int views_is_nan(int dt, const unsigned char *p)
{
   uint64_t u = 0;
   memcpy(&u, p, dropout_cuda__esize(dt));   /* little-endian */
   if (dt == DROPOUT_CUDA__F32) return (u & 0x7FFFFFFFu) > 0x7F800000u;
   if (dt == DROPOUT_CUDA__F64) return (u & 0x7FFFFFFFFFFFFFFFu) > 0x7FF0000000000000u;
   if (dt == DROPOUT_CUDA__F16) return (u & 0x7FFFu) > 0x7C00u;
   return (u & 0x7FFFu) > 0x7F80u;
}

/* got == want over the whole output buffer (bytes long); where the case leaves NaN
   payloads open, view elements that are NaN on both sides count as equal */
static int views_same(const view_case *c, unsigned char *got, const unsigned char *want, size_t bytes)
{
   unsigned es = dropout_cuda__esize(c->dt);
   uint64_t i;
   if (c->nan_ok && c->has_out)
      for (i = 0; i < c->numel; ++i) {
         size_t at = (size_t)((ptrdiff_t)c->base[0] + views_offset(c->rank, c->dims, c->stp[0], i)) * es;
         if (views_is_nan(c->dt, got + at) && views_is_nan(c->dt, want + at)) memcpy(got + at, want + at, es);
      }
   return memcmp(got, want, bytes) == 0;
}

#endif
