/* test_lower.c - dropout_lower, the one lowering every backend runs (dropout_run, the
   CUDA and OpenCL launchers, the Python package's C side). Known answers for the reduced
   geometry: contiguous -> rank 1, a slice of rows -> rank 2, transposes, broadcast dims
   (mask stride 0), negative strides, size-1 dims, empty tensors, the contiguity flag, the
   bias; the op's class, element size, sigma and alpha constants; the tensors a run reads
   and writes. Every refusal leaves *j as it was. And an oracle for the reduction: over
   random views, the reduced geometry visits the same elements, at the same addresses and
   draw positions, in the same order, as the descriptor's own shape. (Its bits through
   dropout_run: tests/api/test_strided.c and the core and variants tests.) */
#include <stdio.h>
#include <string.h>
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

static float ybuf[4096], xbuf[4096], rbuf[4096], bbuf[64];
static uint8_t mbuf[600];

typedef struct spec {
   dropout_op op;
   int rank;
   size_t dims[DROPOUT_MAX_RANK];
   unsigned bcast;
   const ptrdiff_t *out_st, *in_st;
   ptrdiff_t out_at, in_at;     /* element (0, .., 0) in ybuf / xbuf */
   int with_mask, accumulate;
} spec;

static int lower(const spec *s, dropout_job *j)
{
   dropout_rule r;
   dropout_plan plan;
   dropout_desc d;
   dropout_tensors t;
   uint64_t positions = 0;
   int rc = dropout_rule_init(&r, 0.25, DROPOUT_BITS_16);
   if (!rc) rc = dropout_shape_positions(s->rank, s->dims, s->bcast, &positions);
   if (!rc) rc = (s->op == DROPOUT_OP_GAUSSIAN || s->op == DROPOUT_OP_NOISE ? dropout_plan_at_normals : dropout_plan_at)(
                    &plan, &r, dropout_key_make(3, 4), dropout_pos_make(100), positions);
   if (!rc) rc = dropout_desc_init(&d, s->op, DROPOUT_DTYPE_F32, &plan);
   if (!rc) rc = dropout_desc_set_shape(&d, s->rank, s->dims);
   if (!rc && s->bcast) rc = dropout_desc_set_broadcast(&d, s->bcast);
   if (!rc && s->out_st) rc = dropout_desc_set_strides(&d, DROPOUT_OPERAND_OUT, s->out_st);
   if (!rc && s->in_st) rc = dropout_desc_set_strides(&d, DROPOUT_OPERAND_IN, s->in_st);
   if (!rc && s->accumulate) rc = dropout_desc_set_grad(&d, DROPOUT_GRAD_ACCUMULATE);
   if (!rc && s->op == DROPOUT_OP_NOISE) rc = dropout_desc_set_sigma(&d, 0.5);
   memset(&t, 0, sizeof t);
   if (s->op != DROPOUT_OP_MASK) { t.out = ybuf + s->out_at; t.in = xbuf + s->in_at; }
   if (s->with_mask) t.mask = mbuf;
   if (s->op == DROPOUT_OP_BIAS_DROPOUT_ADD) { t.bias = bbuf; t.residual = rbuf; }
   if (rc) return rc;
   return dropout_lower(&d, &t, j);
}


static void test_shapes(void)
{
   static const ptrdiff_t rows[2] = { 10, 1 }, rows3[3] = { 40, 10, 1 }, tr[2] = { 1, 5 };
   static const ptrdiff_t flip_rows[2] = { -5, 1 }, flip_all[2] = { -5, -1 }, flip1[1] = { -1 };
   dropout_job j;
   int rc;
   {  spec s = { DROPOUT_OP_FORWARD, 3, { 4, 5, 6 }, 0, NULL, NULL, 0, 0, 1, 0 };
      rc = lower(&s, &j);
      CHECK(rc == 0 && j.rank == 1 && j.dim[0] == 120 && j.mask_stride[0] == 1 && j.stride[0][0] == 1 &&
            j.stride[1][0] == 1 && j.contiguous && j.numel == 120 && j.positions == 120 && j.pos == 100 &&
            j.seed == 3 && j.stream == 4 && j.elem_size == 4 && j.op_class == DROPOUT_CLASS_PLAIN &&
            j.dtype == DROPOUT_DTYPE_F32 && j.mask_out == mbuf && !j.mask_in && j.out == (void *)ybuf &&
            j.in == (const void *)xbuf && !j.bias && !j.residual && j.bias_len == 0 && !j.accumulate &&
            j.dim[1] == 1 && j.stride[0][1] == 0, "contiguous [4,5,6]: rank %d", j.rank);
      case_end("contiguous 3-D -> rank 1, contiguous, mask written");
   }
   {  spec s = { DROPOUT_OP_BACKWARD, 2, { 4, 6 }, 0, rows, rows, 0, 0, 0, 0 };
      rc = lower(&s, &j);
      CHECK(rc == 0 && j.rank == 2 && j.dim[0] == 4 && j.dim[1] == 6 && j.stride[0][0] == 10 && j.stride[0][1] == 1 &&
            j.stride[1][0] == 10 && j.mask_stride[0] == 6 && j.mask_stride[1] == 1 && !j.contiguous && !j.mask_out,
            "slice of rows: rank %d", j.rank);
      spec s3 = { DROPOUT_OP_BACKWARD, 3, { 3, 4, 6 }, 0, rows3, rows3, 0, 0, 0, 0 };
      rc = lower(&s3, &j);
      CHECK(rc == 0 && j.rank == 2 && j.dim[0] == 12 && j.dim[1] == 6 && j.stride[0][0] == 10 && j.mask_stride[0] == 6,
            "slice of rows of a 3-D tensor: rank %d dims %zu %zu", j.rank, j.dim[0], j.dim[1]);
      case_end("a slice of rows -> rank 2 (outer dims that chain merged)");
   }
   {  spec s = { DROPOUT_OP_FORWARD, 2, { 5, 7 }, 0, tr, tr, 0, 0, 1, 0 };
      rc = lower(&s, &j);
      CHECK(rc == 0 && j.rank == 2 && j.dim[0] == 5 && j.dim[1] == 7 && j.stride[0][0] == 1 && j.stride[0][1] == 5 &&
            j.mask_stride[0] == 7 && j.mask_stride[1] == 1 && !j.contiguous, "transpose");
      case_end("a transpose stays rank 2, mask strides row-major");
   }
   {  spec s = { DROPOUT_OP_FORWARD, 3, { 3, 1, 50 }, 1u, NULL, NULL, 0, 0, 1, 0 };
      rc = lower(&s, &j);
      CHECK(rc == 0 && j.rank == 2 && j.dim[0] == 3 && j.dim[1] == 50 && j.mask_stride[0] == 0 && j.mask_stride[1] == 1 &&
            j.stride[0][0] == 50 && j.numel == 150 && j.positions == 50 && !j.contiguous, "broadcast dim 0");
      spec s2 = { DROPOUT_OP_FORWARD, 3, { 2, 3, 50 }, 3u, NULL, NULL, 0, 0, 1, 0 };
      rc = lower(&s2, &j);
      CHECK(rc == 0 && j.rank == 2 && j.dim[0] == 6 && j.dim[1] == 50 && j.mask_stride[0] == 0 && j.positions == 50,
            "two broadcast dims merge: rank %d", j.rank);
      spec s3 = { DROPOUT_OP_FORWARD, 2, { 40, 1 }, 2u, NULL, NULL, 0, 0, 1, 0 };
      rc = lower(&s3, &j);
      CHECK(rc == 0 && j.rank == 1 && j.dim[0] == 40 && j.mask_stride[0] == 1 && j.contiguous,
            "a broadcast dim of 1 changes nothing: contiguous");
      case_end("broadcast dims: mask stride 0, merged with each other, not with drawn dims");
   }
   {  spec s = { DROPOUT_OP_BACKWARD, 2, { 4, 5 }, 0, flip_rows, flip_rows, 15, 15, 0, 0 };
      rc = lower(&s, &j);
      CHECK(rc == 0 && j.rank == 2 && j.stride[0][0] == -5 && j.stride[0][1] == 1 && !j.contiguous, "flipped rows");
      spec s2 = { DROPOUT_OP_BACKWARD, 2, { 4, 5 }, 0, flip_all, flip_all, 19, 19, 0, 0 };
      rc = lower(&s2, &j);
      CHECK(rc == 0 && j.rank == 1 && j.dim[0] == 20 && j.stride[0][0] == -1 && j.mask_stride[0] == 1 && !j.contiguous,
            "flipped 2-D -> one reversed run: rank %d", j.rank);
      spec s1 = { DROPOUT_OP_BACKWARD, 1, { 20 }, 0, flip1, NULL, 19, 0, 0, 0 };
      rc = lower(&s1, &j);
      CHECK(rc == 0 && j.rank == 1 && j.stride[0][0] == -1 && j.stride[1][0] == 1 && !j.contiguous, "reversed output");
      case_end("negative strides: kept, merged when they chain");
   }
   {  spec s = { DROPOUT_OP_FORWARD, 3, { 1, 7, 1 }, 0, NULL, NULL, 0, 0, 0, 0 };
      rc = lower(&s, &j);
      CHECK(rc == 0 && j.rank == 1 && j.dim[0] == 7 && j.contiguous, "[1,7,1]");
      spec s1 = { DROPOUT_OP_FORWARD, 2, { 1, 1 }, 0, NULL, NULL, 0, 0, 0, 0 };
      rc = lower(&s1, &j);
      CHECK(rc == 0 && j.rank == 1 && j.dim[0] == 1 && j.numel == 1 && j.contiguous, "[1,1]");
      case_end("size-1 dims dropped; one element -> rank 1, dim 1");
   }
   {  spec s = { DROPOUT_OP_FORWARD, 3, { 3, 0, 4 }, 0, NULL, NULL, 0, 0, 0, 0 };
      rc = lower(&s, &j);
      CHECK(rc == 0 && j.numel == 0 && j.positions == 0 && j.contiguous, "[3,0,4]");
      spec s1 = { DROPOUT_OP_FORWARD, 2, { 0, 5 }, 1u, NULL, NULL, 0, 0, 1, 0 };
      rc = lower(&s1, &j);
      CHECK(rc == 0 && j.numel == 0 && j.positions == 5 && !j.contiguous && j.mask_out == mbuf,
            "[0,5] broadcast over dim 0: no element, a mask of 5 to write");
      case_end("empty tensors: numel 0 (a broadcast empty dim still has a mask)");
   }
   {  spec s = { DROPOUT_OP_BIAS_DROPOUT_ADD, 2, { 4, 33 }, 0, NULL, NULL, 0, 0, 1, 0 };
      rc = lower(&s, &j);
      CHECK(rc == 0 && j.contiguous && j.rank == 2 && j.dim[1] == 33 && j.bias_len == 33 &&
            j.stride[DROPOUT_JOB_BIAS][0] == 0 && j.stride[DROPOUT_JOB_BIAS][1] == 1 && j.op_class == DROPOUT_CLASS_FUSED &&
            j.bias == (const void *)bbuf && j.residual == (const void *)rbuf, "fused: rank %d", j.rank);
      spec s1 = { DROPOUT_OP_BIAS_DROPOUT_ADD, 3, { 4, 6, 1 }, 0, NULL, NULL, 0, 0, 0, 0 };
      rc = lower(&s1, &j);
      CHECK(rc == 0 && j.rank == 1 && j.dim[0] == 24 && j.bias_len == 1 && j.stride[DROPOUT_JOB_BIAS][0] == 0,
            "fused with one bias element: rank %d", j.rank);
      case_end("bias: its stride keeps its dim apart (rank 2, still contiguous), bias_len");
   }
   {  spec s = { DROPOUT_OP_BACKWARD, 2, { 4, 6 }, 0, NULL, NULL, 0, 0, 0, 1 };
      dropout_rule r;
      dropout_alpha_rule a;
      rc = lower(&s, &j);
      CHECK(rc == 0 && j.accumulate && j.contiguous, "accumulate");
      s.op = DROPOUT_OP_APPLY_MASK; s.with_mask = 1; s.accumulate = 0;
      rc = lower(&s, &j);
      CHECK(rc == 0 && j.mask_in == mbuf && !j.mask_out && j.op_class == DROPOUT_CLASS_PLAIN, "apply_mask reads the mask");
      s.op = DROPOUT_OP_MASK;
      rc = lower(&s, &j);
      CHECK(rc == 0 && j.mask_out == mbuf && !j.out && !j.in && j.op_class == DROPOUT_CLASS_MASK, "mask op");
      s.op = DROPOUT_OP_GAUSSIAN; s.with_mask = 0;
      rc = lower(&s, &j);
      dropout_rule_init(&r, 0.25, DROPOUT_BITS_16);
      CHECK(rc == 0 && j.op_class == DROPOUT_CLASS_NORMAL && !j.copy && j.sigma == dropout_gaussian_sigma(dropout_rule_p(&r)),
            "gaussian sigma %g", (double)j.sigma);
      s.op = DROPOUT_OP_NOISE;
      rc = lower(&s, &j);
      CHECK(rc == 0 && j.sigma == 0.5f && !j.copy, "noise sigma");
      s.op = DROPOUT_OP_ALPHA_FORWARD; s.with_mask = 1;
      rc = lower(&s, &j);
      a = dropout_alpha_rule_of(r);
      CHECK(rc == 0 && j.op_class == DROPOUT_CLASS_ALPHA && j.alpha.a == a.a && j.alpha.c == a.c && j.alpha.drop == a.drop &&
            j.alpha.a_f32 == a.a_f32 && j.mask_out == mbuf, "alpha constants");
      s.op = DROPOUT_OP_FORWARD; s.with_mask = 0;
      rc = lower(&s, &j);
      CHECK(rc == 0 && j.alpha.a == 0.0 && j.alpha.base.threshold == r.threshold && j.sigma == 0.0f, "no alpha, no sigma");
      case_end("op class, tensors read and written, accumulate, sigma and alpha constants");
   }
}

/* every refusal leaves *j as it was */
static void test_refusals(void)
{
   static const ptrdiff_t half[2] = { 3, 1 };
   dropout_job j, poison;
   dropout_rule r;
   dropout_plan plan, p9, pn;
   dropout_desc d, bad;
   dropout_tensors t;
   uint64_t dseed = 1, dpos = 2;
   int rc, k;
   const size_t dims[2] = { 4, 5 };
   memset(&poison, 0xA5, sizeof poison);
   dropout_rule_init(&r, 0.5, DROPOUT_BITS_8);
   dropout_plan_at(&plan, &r, dropout_key_make(1, 2), dropout_pos_make(0), 20);
   dropout_plan_at(&p9, &r, dropout_key_make(1, 2), dropout_pos_make(0), 9);
   dropout_plan_at_normals(&pn, &r, dropout_key_make(1, 2), dropout_pos_make(0), 20);
   for (k = 0; k < 11; ++k) {
      int want;
      const char *what;
      dropout_job *jp = &j;
      dropout_desc *dp = &d;
      dropout_tensors *tp = &t;
      dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
      dropout_desc_set_shape(&d, 2, dims);
      memset(&t, 0, sizeof t);
      t.out = ybuf; t.in = xbuf;
      memset(&bad, 0, sizeof bad);
      switch (k) {
      case 0: dp = NULL; want = DROPOUT_ERR_NULL_DESC; what = "NULL d"; break;
      case 1: tp = NULL; want = DROPOUT_ERR_NULL_TENSORS; what = "NULL t"; break;
      case 2: jp = NULL; want = DROPOUT_ERR_NULL_RESULT; what = "NULL j"; break;
      case 3: dp = &bad; want = DROPOUT_ERR_DESC; what = "a descriptor never initialised"; break;
      case 4: dropout_desc_set_plan(&d, &p9); want = DROPOUT_ERR_SHAPE_COUNT; what = "plan count != shape"; break;
      case 5: t.out = NULL; want = DROPOUT_ERR_NULL_OUTPUT; what = "NULL out"; break;
      case 6: t.in = NULL; want = DROPOUT_ERR_NULL_INPUT; what = "NULL in"; break;
      case 7: dropout_desc_set_op(&d, DROPOUT_OP_BACKWARD); t.mask = mbuf; want = DROPOUT_ERR_OP; what = "a mask for backward"; break;
      case 8: t.in = ybuf; dropout_desc_set_strides(&d, DROPOUT_OPERAND_IN, half); want = DROPOUT_ERR_OVERLAP; what = "in place, other strides"; break;
      case 9: dropout_desc_init(&d, DROPOUT_OP_NOISE, DROPOUT_DTYPE_F32, &pn); want = DROPOUT_ERR_SIGMA; what = "noise without sigma"; break;
      default: dropout_desc_set_op(&d, DROPOUT_OP_APPLY_MASK); want = DROPOUT_ERR_NULL_MASK; what = "apply_mask without mask"; break;
      }
      memcpy(&j, &poison, sizeof j);
      rc = dropout_lower(dp, tp, jp);
      CHECK(rc == want, "%s: got %d (%s), want %d", what, rc, dropout_strerror(rc), want);
      CHECK(memcmp(&j, &poison, sizeof j) == 0, "%s: *j written on error", what);
   }
   /* device coordinates: lowered (copied for CUDA), refused by dropout_run */
   dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &plan);
   dropout_desc_set_device_coords(&d, &dseed, &dpos);
   memset(&t, 0, sizeof t);
   t.out = ybuf; t.in = xbuf;
   rc = dropout_lower(&d, &t, &j);
   CHECK(rc == 0 && j.dev_seed == &dseed && j.dev_pos == &dpos, "device coordinates copied: %d", rc);
   CHECK(dropout_run(&d, &t) == DROPOUT_ERR_DEVICE_COORDS, "dropout_run refuses device coordinates");
   case_end("refusals name the argument and leave *j as it was; device coordinates lowered, refused by the CPU");
}

/* ---- the reduction against the descriptor's own shape, over random views ------------- */
static uint64_t rng = 99;
static unsigned rnd(unsigned n)
{
   rng = rng * 6364136223846793005u + 1442695040888963407u;
   return (unsigned)(rng >> 33) % n;
}

typedef struct visit { ptrdiff_t o, i; uint64_t m; } visit;
static visit want[4096], got[4096];

/* element k of a shape in row-major order: its offsets by strides and its mask index */
static size_t walk(int rank, const size_t *dim, const ptrdiff_t *so, const ptrdiff_t *si, const uint64_t *ms, visit *v)
{
   size_t idx[DROPOUT_MAX_RANK], n = 0, total = 1;
   int d;
   for (d = 0; d < rank; ++d) { idx[d] = 0; total *= dim[d]; }
   for (n = 0; n < total; ++n) {
      ptrdiff_t o = 0, i = 0;
      uint64_t m = 0;
      for (d = 0; d < rank; ++d) { o += (ptrdiff_t)idx[d] * so[d]; i += (ptrdiff_t)idx[d] * si[d]; m += idx[d] * ms[d]; }
      v[n].o = o; v[n].i = i; v[n].m = m;
      for (d = rank - 1; d >= 0 && ++idx[d] == dim[d]; --d) idx[d] = 0;
   }
   return total;
}

static void test_reduction_oracle(void)
{
   int iter, ran = 0, merged = 0;
   for (iter = 0; iter < 3000; ++iter) {
      spec s;
      dropout_job j;
      ptrdiff_t so[DROPOUT_MAX_RANK], si[DROPOUT_MAX_RANK], acc = 1, lo = 0;
      uint64_t ms[DROPOUT_MAX_RANK], macc = 1;
      size_t n, m;
      int d, perm[DROPOUT_MAX_RANK], rc;
      memset(&s, 0, sizeof s);
      s.op = rnd(3) == 0 ? DROPOUT_OP_BACKWARD : DROPOUT_OP_FORWARD;
      s.rank = 1 + (int)rnd(5);
      for (d = 0; d < s.rank; ++d) { s.dims[d] = rnd(4) == 0 ? 1 : 1 + rnd(5); perm[d] = d; }
      s.bcast = rnd(3) == 0 ? rnd(1u << s.rank) : 0;
      for (d = s.rank - 1; d > 0 && rnd(2); --d) {   /* some dims swapped in memory */
         int k = (int)rnd((unsigned)d + 1), tmp = perm[d];
         perm[d] = perm[k]; perm[k] = tmp;
      }
      for (d = s.rank - 1; d >= 0; --d) {            /* memory order by perm, padded, some flipped */
         int q = perm[d];
         so[q] = rnd(4) == 0 ? -acc : acc;
         if (so[q] < 0) lo += acc * (ptrdiff_t)(s.dims[q] - 1);
         acc *= (ptrdiff_t)s.dims[q] + (rnd(3) == 0 ? 1 : 0);
      }
      if (acc > 4000) continue;
      for (d = 0; d < s.rank; ++d) si[d] = so[d];
      s.out_st = so; s.in_st = si; s.out_at = lo; s.in_at = lo;
      for (d = s.rank - 1; d >= 0; --d) {
         if ((s.bcast >> d) & 1u) ms[d] = 0;
         else { ms[d] = macc; macc *= s.dims[d]; }
      }
      rc = lower(&s, &j);
      CHECK(rc == 0, "lower: %s", dropout_strerror(rc));
      if (rc) continue;
      ++ran;
      if (j.rank < s.rank) ++merged;
      n = walk(s.rank, s.dims, so, si, ms, want);
      m = walk(j.rank, j.dim, j.stride[0], j.stride[1], j.mask_stride, got);
      CHECK(n == m && n == j.numel && memcmp(want, got, n * sizeof *want) == 0,
            "rank %d dims %zu,%zu,%zu bcast %x: the reduced geometry (rank %d) visits other elements", s.rank,
            s.dims[0], s.dims[1], s.dims[2], s.bcast, j.rank);
      for (d = 0; d < j.rank; ++d) CHECK(j.rank == 1 || j.dim[d] > 1, "a dim of 1 left in a reduced rank %d", j.rank);
   }
   CHECK(ran > 2000 && merged > 500, "only %d views lowered, %d merged", ran, merged);
   printf("    %d random views lowered, %d of them to a lower rank\n", ran, merged);
   case_end("reduced geometry == the descriptor's shape: same elements, addresses, draw positions, order (random views)");
}

int main(void)
{
   test_shapes();
   test_refusals();
   test_reduction_oracle();
   return check_exit();
}
