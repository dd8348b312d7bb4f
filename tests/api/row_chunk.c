/* row_chunk.c - the descriptor walker's outputs, one FNV-1a hash a case, for rows longer
   than any chunk (1001 elements): tests/api/suite.sh builds it at the default
   DROPOUT_ROW_CHUNK (256) and at 64, and every line must be the same (the option
   changes the walker's stack, never a bit). The cases take each chunked path: a strided
   input and output (plain ops, a gradient added), a mask row that starts inside a byte,
   alpha, Gaussian, noise and the fused op over a strided view, f32, f64, f16 and bf16. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include <stdio.h>
#include <string.h>

#define ROWS 3
#define COLS 1001   /* odd: rows 1 and 2 of the mask start inside a byte */
#define PITCH 1003   /* elements a row of the strided view steps: not a multiple of 8 */

static unsigned char in_[ROWS * PITCH * 8], res_[ROWS * PITCH * 8], bias_[COLS * 8], out_[ROWS * PITCH * 8];
static uint8_t mask_[(ROWS * COLS + 64) / 8];

static uint64_t fnv(const void *p, size_t n, uint64_t h)
{
   const unsigned char *b = (const unsigned char *)p;
   size_t i;
   for (i = 0; i < n; ++i) { h ^= b[i]; h *= 0x100000001B3u; }
   return h;
}

static int one(dropout_op op, dropout_dtype dt, int strided, dropout_grad grad, uint64_t start, uint64_t *h)
{
   dropout_rule rule; dropout_plan plan; dropout_desc d; dropout_tensors t;
   size_t dims[2] = { ROWS, COLS };
   ptrdiff_t st[2] = { PITCH, 1 };
   int rc;
   memset(out_, 0x5A, sizeof out_);
   rc = dropout_rule_init(&rule, 0.3, DROPOUT_BITS_16);
   if (op == DROPOUT_OP_GAUSSIAN || op == DROPOUT_OP_NOISE)
      rc = rc ? rc : dropout_plan_at_normals(&plan, &rule, dropout_key_make(42, 7), dropout_pos_make(start), ROWS * COLS);
   else
      rc = rc ? rc : dropout_plan_at(&plan, &rule, dropout_key_make(42, 7), dropout_pos_make(start), ROWS * COLS);
   rc = rc ? rc : dropout_desc_init(&d, op, dt, &plan);
   rc = rc ? rc : dropout_desc_set_shape(&d, 2, dims);
   if (strided) {
      rc = rc ? rc : dropout_desc_set_strides(&d, DROPOUT_OPERAND_IN, st);
      rc = rc ? rc : dropout_desc_set_strides(&d, DROPOUT_OPERAND_OUT, st);
      if (op == DROPOUT_OP_BIAS_DROPOUT_ADD) rc = rc ? rc : dropout_desc_set_strides(&d, DROPOUT_OPERAND_RESIDUAL, st);
   }
   if (grad == DROPOUT_GRAD_ACCUMULATE) rc = rc ? rc : dropout_desc_set_grad(&d, grad);
   if (op == DROPOUT_OP_NOISE) rc = rc ? rc : dropout_desc_set_sigma(&d, 0.5);
   memset(&t, 0, sizeof t);
   t.out = out_; t.in = in_;
   if (op == DROPOUT_OP_APPLY_MASK) t.mask = mask_;
   if (op == DROPOUT_OP_BIAS_DROPOUT_ADD) { t.bias = bias_; t.residual = res_; }
   rc = rc ? rc : dropout_run(&d, &t);
   *h = fnv(out_, sizeof out_, 0xCBF29CE484222325u);
   return rc;
}

int main(void)
{
   static const dropout_op ops[] = { DROPOUT_OP_FORWARD, DROPOUT_OP_BACKWARD, DROPOUT_OP_APPLY_MASK, DROPOUT_OP_ALPHA_FORWARD,
                                     DROPOUT_OP_ALPHA_BACKWARD, DROPOUT_OP_GAUSSIAN, DROPOUT_OP_NOISE, DROPOUT_OP_BIAS_DROPOUT_ADD };
   static const dropout_dtype dts[] = { DROPOUT_DTYPE_F32, DROPOUT_DTYPE_F64, DROPOUT_DTYPE_F16, DROPOUT_DTYPE_BF16 };
   size_t i, o, k;
   unsigned cases = 0;
   /* inputs: bytes of every value (NaNs, infinities and subnormals among them) */
   for (i = 0; i < sizeof in_; ++i) { in_[i] = (unsigned char)(i * 37u + 11u); res_[i] = (unsigned char)(i * 53u + 5u); }
   for (i = 0; i < sizeof bias_; ++i) bias_[i] = (unsigned char)(i * 29u + 3u);
   for (i = 0; i < sizeof mask_; ++i) mask_[i] = (unsigned char)(i * 151u + 77u);
   for (o = 0; o < sizeof ops / sizeof ops[0]; ++o)
      for (k = 0; k < sizeof dts / sizeof dts[0]; ++k) {
         int strided, acc;
         for (strided = 0; strided < 2; ++strided)
            for (acc = 0; acc < 2; ++acc) {
               uint64_t h;
               int rc;
               dropout_op op = ops[o];
               int is_grad = op == DROPOUT_OP_BACKWARD || op == DROPOUT_OP_APPLY_MASK || op == DROPOUT_OP_ALPHA_BACKWARD ||
                             op == DROPOUT_OP_GAUSSIAN;
               if (acc && !is_grad) continue;
               /* a start inside a mask byte (5) for the stored mask; a start past 2^32 otherwise */
               rc = one(op, dts[k], strided, acc ? DROPOUT_GRAD_ACCUMULATE : DROPOUT_GRAD_OVERWRITE,
                        op == DROPOUT_OP_APPLY_MASK ? 0 : ((uint64_t)1 << 33) + 5u, &h);
               printf("%s dtype %d strided %d accumulate %d: rc %d hash %016llx\n", dropout_op_name(op), (int)dts[k],
                      strided, acc, rc, (unsigned long long)h);
               ++cases;
            }
      }
   printf("cases %u\n", cases);
   return 0;
}
