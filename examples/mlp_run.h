/* mlp_run.h - one training run of the demo MLP (mlp_model.h) on CPU threads: the arena
   that holds a run's buffers, the threads and their barriers, the curves. The demo
   (train_mlp.c) trains with it; the MPI and GPU trainers use it for their CPU reference
   run and their buffers.

   Threads work SPMD style: every thread runs train_worker and does its part of each of
   the model's three step phases (mlp_step_rows, _grads, _adam); three barriers per step
   separate the phases. The thread count cannot change a bit (mlp_model.h says why).

   Needs libc and POSIX threads. A program includes it after defining
   DROPOUT_IMPLEMENTATION (or linking dropout.h's implementation elsewhere). Its functions
   are `static inline`, as in mlp_model.h: each program uses part of them. */
#ifndef MLP_RUN_H
#define MLP_RUN_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* clock_gettime; takes effect only before the first system header */
#endif
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mlp_model.h"

/* A seed from the command line: every value in [0, 2^64), all of v, else 0 (atoll
   saturated 2^63 and up at 2^63 - 1 and read "abc" as seed 0: another run than asked) */
static inline int mlp_parse_u64(const char *v, uint64_t *out)
{
   char *end = NULL;
   unsigned long long u;
   if (*v < '0' || *v > '9') return 0;   /* no sign, no space: strtoull takes "-1" as 2^64 - 1 */
   errno = 0;
   u = strtoull(v, &end, 10);
   if (errno || *end) return 0;
   *out = (uint64_t)u;
   return 1;
}

typedef struct Barrier {   /* pthread_barrier_t is optional in POSIX (macOS lacks it) */
   pthread_mutex_t mu;
   pthread_cond_t cv;
   int count, waiting, phase;
} Barrier;

static inline void barrier_init(Barrier *b, int count)
{
   pthread_mutex_init(&b->mu, NULL);
   pthread_cond_init(&b->cv, NULL);
   b->count = count; b->waiting = 0; b->phase = 0;
}

static inline void barrier_wait(Barrier *b)
{
   int phase;
   if (b->count == 1) return;
   pthread_mutex_lock(&b->mu);
   phase = b->phase;
   if (++b->waiting == b->count) {
      b->waiting = 0;
      ++b->phase;
      pthread_cond_broadcast(&b->cv);
   } else {
      while (phase == b->phase) pthread_cond_wait(&b->cv, &b->mu);
   }
   pthread_mutex_unlock(&b->mu);
}

static inline void barrier_destroy(Barrier *b)
{
   pthread_cond_destroy(&b->cv);
   pthread_mutex_destroy(&b->mu);
}

typedef struct Curve {     /* one point every eval_every epochs */
   int n;
   double *epoch, *batch_loss, *train_loss, *test_loss, *train_acc, *test_acc;
} Curve;

typedef struct Run {
   Config cfg;
   const Dataset *train, *test;
   size_t n_params;
   float *params, *grads, *adam_m, *adam_v;   /* (n_params) each */
   dropout_rule rule[2];   /* the dropout layers' rules, made once (mlp_dropout_rules) */
   Acts act;         /* the activations of one batch (B = cfg.batch rows) */
   int *perm;        /* (n_train) */
   float *eval;      /* scratch for predict(): (EVAL_ROWS, 2H) */
   Curve curve;
   Barrier bar;
   int failed;       /* a dropout.h call returned an error */
   double seconds;
} Run;

/* Logits of n rows without dropout (inference), into logits_out (n, CLASSES).
   Single-threaded: only used for reporting. */
static inline void predict(Run *r, float *logits_out, const float *x, int n)
{
   mlp_predict(logits_out, r->eval, r->params, r->cfg.hidden, x, n);
}

static inline void evaluate(Run *r, const Dataset *d, double *loss, double *acc, float *logits)
{
   mlp_evaluate(loss, acc, logits, r->eval, r->params, r->cfg.hidden, d);
}

/* failed is each thread's own: several threads writing one flag of the Run would race
   (gathered into r->failed once they are joined) */
typedef struct Worker { Run *run; int tid; int failed; } Worker;

static inline void *train_worker(void *arg)
{
   Worker *wk = (Worker *)arg;
   Run *r = wk->run;
   const Config *c = &r->cfg;
   const int H = c->hidden, nt = c->threads, tid = wk->tid, n = r->train->n;
   /* Every thread makes its own generator of the same key: all of them advance in
      lockstep, so no thread has to publish plans to the others. */
   dropout_gen gen;
   float *logits_all = NULL;
   int epoch, step = 0;
   /* refused only for a NULL g, so never here; looked at all the same (a refusal fails the run) */
   if (dropout_gen_init(&gen, dropout_key_make(c->seed, STREAM_DROPOUT))) wk->failed = 1;
   if (tid == 0) {
      int most = r->train->n > r->test->n ? r->train->n : r->test->n;
      logits_all = (float *)malloc((size_t)(most * CLASSES) * sizeof(float));
   }
   for (epoch = 0; epoch < c->epochs; ++epoch) {
      double epoch_loss = 0.0;
      int at;
      if (tid == 0) shuffle(r->perm, n, c->seed, epoch);
      barrier_wait(&r->bar);
      for (at = 0; at < n; at += c->batch) {
         const int B = n - at < c->batch ? n - at : c->batch;
         dropout_plan plan[2];   /* the two dropout layers' plans for this batch */
         int i;
         if (mlp_step_plans(plan, &gen, r->rule, B, H) ||
             /* phase 1: this thread's rows of the batch */
             mlp_step_rows(&r->act, c, r->params, r->train, r->perm + at, B, plan,
                           slice(B, tid, nt), slice(B, tid + 1, nt)))
            wk->failed = 1;
         barrier_wait(&r->bar);

         /* phase 2: weight gradients, summed over all B rows; thread tid owns a slice
            of every weight matrix's rows and of every bias */
         mlp_step_grads(r->grads, &r->act, H, 0, B, tid, nt);
         if (tid == 0)
            for (i = 0; i < B; ++i) epoch_loss += r->act.losses[i];
         barrier_wait(&r->bar);

         /* phase 3: Adam on this thread's slice of the parameters */
         mlp_step_adam(r->params, r->adam_m, r->adam_v, r->grads, r->n_params * (size_t)tid / (size_t)nt,
                       r->n_params * (size_t)(tid + 1) / (size_t)nt, adam_step(c->lr, ++step));
         barrier_wait(&r->bar);
      }
      if (tid == 0 && ((epoch + 1) % c->eval_every == 0 || epoch == 0)) {
         /* bookkeeping (the other threads wait at the next barrier) */
         Curve *cv = &r->curve;
         int k = cv->n++;
         cv->epoch[k] = epoch + 1;
         cv->batch_loss[k] = epoch_loss / n;
         evaluate(r, r->train, &cv->train_loss[k], &cv->train_acc[k], logits_all);
         evaluate(r, r->test, &cv->test_loss[k], &cv->test_acc[k], logits_all);
         if (c->print_every && ((epoch + 1) % c->print_every == 0 || epoch == 0))
            printf("  epoch %4d  batch loss %.4f | training-set loss %.4f acc %5.1f%% | held-out loss "
                   "%.4f acc %5.1f%%\n", epoch + 1, cv->batch_loss[k], cv->train_loss[k],
                   100 * cv->train_acc[k], cv->test_loss[k], 100 * cv->test_acc[k]);
      }
   }
   free(logits_all);
   return NULL;
}

static inline double now_seconds(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The arena: every buffer of a run in one allocation. */
static inline void run_init(Run *r, const Config *c, const Dataset *train, const Dataset *test)
{
   const size_t H = (size_t)c->hidden, B = (size_t)c->batch, E = (size_t)c->epochs;
   size_t floats, ints;
   float *f;
   int *ip, err;
   Acts *a = &r->act;
   memset(r, 0, sizeof *r);
   r->cfg = *c;
   r->train = train;
   r->test = test;
   r->n_params = param_count(c->hidden);
   floats = 4 * r->n_params + B * IN + 4 * B * H + 2 * B * CLASSES + B + 2 * B * H +
            EVAL_ROWS * 2 * H;
   ints = B + (size_t)train->n;
   f = (float *)calloc(floats, sizeof(float));
   ip = (int *)calloc(ints, sizeof(int));
   r->curve.epoch = (double *)calloc(6 * (E + 1), sizeof(double));
   if (!f || !ip || !r->curve.epoch) { fprintf(stderr, "out of memory\n"); exit(1); }
   r->params = f; f += r->n_params;
   r->grads = f;  f += r->n_params;
   r->adam_m = f; f += r->n_params;
   r->adam_v = f; f += r->n_params;
   a->x = f; f += B * IN;
   a->h1 = f; f += B * H;  a->d1 = f; f += B * H;
   a->h2 = f; f += B * H;  a->d2 = f; f += B * H;
   a->logits = f; f += B * CLASSES;
   a->dlogits = f; f += B * CLASSES;
   a->losses = f; f += B;
   a->g2 = f; f += B * H;  a->g1 = f; f += B * H;
   r->eval = f;
   a->y = ip; r->perm = ip + B;
   r->curve.batch_loss = r->curve.epoch + (E + 1);
   r->curve.train_loss = r->curve.epoch + 2 * (E + 1);
   r->curve.test_loss = r->curve.epoch + 3 * (E + 1);
   r->curve.train_acc = r->curve.epoch + 4 * (E + 1);
   r->curve.test_acc = r->curve.epoch + 5 * (E + 1);
   err = init_params(r->params, c->hidden, c->seed);
   if (err) { fprintf(stderr, "initial weights: %s\n", dropout_strerror(err)); exit(2); }
   err = mlp_dropout_rules(r->rule, c);
   if (err) { fprintf(stderr, "dropout p = %g, %d-bit draws: %s\n", c->p, c->bits, dropout_strerror(err)); exit(2); }
}

static inline void run_free(Run *r)
{
   free(r->params);
   free(r->act.y);
   free(r->curve.epoch);
}

static inline void run_train(Run *r)
{
   pthread_t th[64];
   Worker wk[64];
   int t, nt = r->cfg.threads;
   double t0 = now_seconds();
   barrier_init(&r->bar, nt);
   for (t = 0; t < nt; ++t) { wk[t].run = r; wk[t].tid = t; wk[t].failed = 0; }
   for (t = 1; t < nt; ++t) pthread_create(&th[t], NULL, train_worker, &wk[t]);
   train_worker(&wk[0]);
   for (t = 1; t < nt; ++t) pthread_join(th[t], NULL);
   for (t = 0; t < nt; ++t) r->failed |= wk[t].failed;
   barrier_destroy(&r->bar);
   r->seconds = now_seconds() - t0;
}

#endif
