/* dropouth_view.h - a view of more dims than dropout.h's DROPOUT_MAX_RANK, folded by the
   library's own lowering (python/dropouth_lib.c and python/dropouth_cuda_lib.cu include it
   after dropout.h).

   The package hands the library the view as PyTorch or NumPy has it (dims and element
   strides of out and in) and the library reduces it (dropout_lower: dims of 1 dropped,
   neighbours merged where both operands and the mask index step over them as over one).
   A descriptor takes at most DROPOUT_MAX_RANK dims, so a longer view (a tensor of more
   dims whose merged form fits) is first lowered window by window: each window of up to
   DROPOUT_MAX_RANK consecutive dims, innermost first, is described and lowered alone and
   replaced by its reduced dims; consecutive windows share a dim, so every pair of
   neighbours is seen (whether two neighbours merge depends on them alone: merging
   elsewhere does not change it). What is left is what dropout_lower would make of the
   whole view; more than DROPOUT_MAX_RANK dims left is DROPOUT_ERR_RANK. */
#ifndef DROPOUTH_VIEW_H
#define DROPOUTH_VIEW_H

#define DROPOUTH_MAX_VIEW 64   /* dims a view may have before folding (NumPy 2 and PyTorch allow 64) */

/* dims [lo, lo + w) of the view, lowered: their reduced dims and strides into place, the
   dims after them moved up; *rank shrinks by what the window lost */
static int dropouth__fold_window(int *rank, size_t *dims, ptrdiff_t *os, ptrdiff_t *is, int lo, int w,
                                 int dtype, void *out, const void *in)
{
   dropout_rule rule;
   dropout_plan plan;
   dropout_desc d;
   dropout_tensors t;
   dropout_job j;
   uint64_t count = 1;
   int k, rc, lost;
   for (k = lo; k < lo + w; ++k) count *= dims[k];
   rc = dropout_rule_init(&rule, 0.0, DROPOUT_BITS_32);
   if (!rc) rc = dropout_plan_at(&plan, &rule, dropout_key_make(0, 0), dropout_pos_make(0), count);
   if (!rc) rc = dropout_desc_init(&d, DROPOUT_OP_BACKWARD, (dropout_dtype)dtype, &plan);
   if (!rc) rc = dropout_desc_set_shape(&d, w, dims + lo);
   if (!rc) rc = dropout_desc_set_strides(&d, DROPOUT_OPERAND_OUT, os + lo);
   if (!rc) rc = dropout_desc_set_strides(&d, DROPOUT_OPERAND_IN, is + lo);
   memset(&t, 0, sizeof t);
   t.out = out;
   t.in = in;
   if (!rc) rc = dropout_lower(&d, &t, &j);
   if (rc) return rc;
   lost = w - j.rank;
   for (k = 0; k < j.rank; ++k) {
      dims[lo + k] = j.dim[k];
      os[lo + k] = j.stride[DROPOUT_OPERAND_OUT][k];
      is[lo + k] = j.stride[DROPOUT_OPERAND_IN][k];
   }
   for (k = lo + w; k < *rank; ++k) {
      dims[k - lost] = dims[k];
      os[k - lost] = os[k];
      is[k - lost] = is[k];
   }
   *rank -= lost;
   return DROPOUT_OK;
}

/* Fold a non-empty view of *rank (<= DROPOUTH_MAX_VIEW) dims in place until it fits
   DROPOUT_MAX_RANK; DROPOUT_ERR_RANK when it cannot. */
static int dropouth__fold(int *rank, size_t *dims, ptrdiff_t *os, ptrdiff_t *is, int dtype, void *out, const void *in)
{
   while (*rank > DROPOUT_MAX_RANK) {
      int before = *rank, end = *rank, rc;
      for (;;) {
         int lo = end > DROPOUT_MAX_RANK ? end - DROPOUT_MAX_RANK : 0;
         rc = dropouth__fold_window(rank, dims, os, is, lo, end - lo, dtype, out, in);
         if (rc) return rc;
         if (lo == 0) break;
         end = lo + 1;   /* the next window ends with this one's outermost dim */
      }
      if (*rank == before) return DROPOUT_ERR_RANK;
   }
   return DROPOUT_OK;
}

/* The descriptor and tensors that run op on a view of rank (<= DROPOUTH_MAX_VIEW) dims and
   plan->count elements, folded first when it has more dims than a descriptor takes; the
   shims run them (dropout_run, dropout_cuda_run). The mask is the forward's output only. */
static int dropouth__describe(dropout_desc *d, dropout_tensors *t, dropout_op op, int dtype, const dropout_plan *plan,
                              int rank, const size_t *dims, const ptrdiff_t *os, const ptrdiff_t *is,
                              void *out, uint8_t *mask, const void *in)
{
   size_t vd[DROPOUTH_MAX_VIEW];
   ptrdiff_t vo[DROPOUTH_MAX_VIEW], vi[DROPOUTH_MAX_VIEW];
   int i, rc;
   if (rank > DROPOUT_MAX_RANK) {   /* more dims than a descriptor takes: folded by the library */
      for (i = 0; i < rank; i++) { vd[i] = dims[i]; vo[i] = os[i]; vi[i] = is[i]; }
      if (plan->count == 0) {   /* empty: nothing to fold, nothing to write */
         rank = 1; vd[0] = 0; vo[0] = vi[0] = 1;
      } else if ((rc = dropouth__fold(&rank, vd, vo, vi, dtype, out, in)) != DROPOUT_OK) {
         return rc;
      }
      dims = vd; os = vo; is = vi;
   }
   if ((rc = dropout_desc_init(d, op, (dropout_dtype)dtype, plan)) != DROPOUT_OK) return rc;
   if (rank > 0) {
      if ((rc = dropout_desc_set_shape(d, rank, dims)) != DROPOUT_OK) return rc;
      if ((rc = dropout_desc_set_strides(d, DROPOUT_OPERAND_OUT, os)) != DROPOUT_OK) return rc;
      if ((rc = dropout_desc_set_strides(d, DROPOUT_OPERAND_IN, is)) != DROPOUT_OK) return rc;
   }
   memset(t, 0, sizeof *t);
   t->out = out;
   t->in = in;
   t->mask = op == DROPOUT_OP_FORWARD ? mask : NULL;
   return DROPOUT_OK;
}

#endif
