/* desc_threads.c - one layer's backward descriptor shared by threads, under ThreadSanitizer.

   docs/API.md ("Threads"): a descriptor's forward never runs on two threads at once, its
   backward may. Two micro-batches' gradients through one layer are that case: the forward
   ran, dropout_desc_set_op made the descriptor the backward's, and two threads each run it
   on their own dy and dx. Each run must only read the descriptor (0.9.0 stored into it on
   every run, a data race however harmless its value), and each dx must be the one-thread
   result. tests/api/suite.sh builds this with -fsanitize=thread and fails on any report. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

#include <pthread.h>
#include <string.h>

enum { ROWS = 48, COLS = 64, N = ROWS * COLS, RUNS = 50 };

static dropout_desc d;   /* the layer's, shared */
static float dy[2][N], dx[2][N], want[2][N];

static void *micro_batch(void *arg)
{
   int k = (int)(size_t)arg, i, err = 0;
   dropout_tensors t;
   memset(&t, 0, sizeof t);
   t.out = dx[k];
   t.in = dy[k];
   for (i = 0; i < RUNS; ++i) err |= dropout_run(&d, &t);
   return (void *)(size_t)(err != 0);
}

int main(void)
{
   static float x[N], y[N];
   static const size_t dims[2] = {ROWS, COLS};
   static const ptrdiff_t col_major[2] = {1, ROWS};   /* a transposed view: strides on both operands */
   dropout_rule rule;
   dropout_gen g;
   dropout_tensors fwd;
   pthread_t th[2];
   void *r[2];
   int i, k, err;
   for (i = 0; i < N; ++i) x[i] = dy[0][i] = (float)i, dy[1][i] = (float)(N - i);
   err = dropout_rule_init(&rule, 0.3, DROPOUT_BITS_16);
   if (!err) err = dropout_gen_init(&g, dropout_key_make(11, 2));
   if (!err) { dropout_plan p; err = dropout_gen_plan(&g, &rule, N, &p); if (!err) err = dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &p); }
   if (!err) err = dropout_desc_set_shape(&d, 2, dims);
   if (!err) err = dropout_desc_set_strides(&d, DROPOUT_OPERAND_IN, col_major);
   if (!err) err = dropout_desc_set_strides(&d, DROPOUT_OPERAND_OUT, col_major);
   memset(&fwd, 0, sizeof fwd);
   fwd.out = y;
   fwd.in = x;
   if (!err) err = dropout_run(&d, &fwd);
   if (!err) err = dropout_desc_set_op(&d, DROPOUT_OP_BACKWARD);
   for (k = 0; k < 2 && !err; ++k) {   /* the one-thread results */
      dropout_tensors t;
      memset(&t, 0, sizeof t);
      t.out = want[k];
      t.in = dy[k];
      err = dropout_run(&d, &t);
   }
   CHECK(err == 0, "setting up the layer: %d", err);
   if (!err) {
      for (k = 0; k < 2; ++k) pthread_create(&th[k], NULL, micro_batch, (void *)(size_t)k);
      for (k = 0; k < 2; ++k) pthread_join(th[k], &r[k]);
      CHECK(!r[0] && !r[1], "a run on a thread failed");
      CHECK(!memcmp(dx[0], want[0], sizeof want[0]) && !memcmp(dx[1], want[1], sizeof want[1]),
            "a thread's dx differs from the one-thread run");
   }
   case_end("api threads: one backward descriptor (a strided view) run by two threads at once: each dx as on one thread");
   return check_exit();
}
