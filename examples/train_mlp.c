/* train_mlp.c - a small MLP trained with dropout.h, in plain C (llm.c style).

   make demo        trains on two noisy spirals, with and without dropout, then shows that
                    the result is bit-reproducible (same seed twice, 1 thread vs all threads)
                    and writes pictures to build/demo/
   ./build/train_mlp --quick    a short run of the reproducibility checks only

   The network: x (2) -> Linear -> ReLU -> Dropout -> Linear -> ReLU -> Dropout -> Linear (2)
   -> softmax cross-entropy, trained with Adam on a small training set so that it overfits.

   Conventions (as in llm.c): every layer is a forward/backward pair, outputs come first in
   the argument list, shapes are in comments, and all buffers are owned by the caller (one
   arena per training run, allocated once). dropout.h itself never allocates.

   Reproducibility is a property of the whole program, not only of the dropout mask:
   - dropout masks come from dropout.h: a pure function of (seed, stream, position), so a
     thread that handles rows r0..r1 just passes offset + r0 * width;
   - every output of a matrix product is summed in one FIXED order (bias first, then k
     ascending), whichever thread computes it and however the loops are vectorised;
   - every float rounding is one mul_rn/add_rn/... (mlp_math.h), the build turns off FMA
     contraction (-ffp-contract=off), and exp/log come from mlp_math.h, not libm.
   So the weights after training are the same bits for any thread count, on any machine
   with IEEE floats, and on the GPU (examples/train_mlp_cuda.cu). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "mlp_math.h"

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

enum { IN = 2, CLASSES = 2 };

/* Philox streams: one per purpose, so that e.g. the data never depends on the seed
   that drives initialisation and dropout. */
enum { STREAM_DROPOUT = 0, STREAM_INIT = 1, STREAM_SHUFFLE = 2, STREAM_DATA = 3 };

typedef struct Config {
   int hidden;        /* H: width of both hidden layers */
   int batch;         /* B: rows per step */
   int epochs;
   int threads;
   int eval_every;    /* epochs between evaluations (the curves' resolution) */
   int print_every;   /* epochs between progress lines, a multiple of eval_every; 0: silent */
   double p;          /* dropout probability of both dropout layers */
   int bits;          /* dropout.h draw width: 8, 16 or 32 */
   uint64_t seed;     /* drives initialisation, shuffling and dropout */
   float lr;
} Config;

typedef struct Dataset {
   int n;
   float *x;          /* (n, IN) */
   int *y;            /* (n) */
} Dataset;

/* ------------------------------------------------------------------------------------
   Data: two interleaved spirals with noise. Uniforms come from dropout.h's own stream.
   ------------------------------------------------------------------------------------ */

static void make_spirals(Dataset *d, float *xbuf, int *ybuf, int n, float noise,
                         uint64_t data_seed, uint64_t first_word)
{
   int i;
   d->n = n;
   d->x = xbuf;
   d->y = ybuf;
   for (i = 0; i < n; ++i) {
      float u[5], t, angle, radius, nx, ny;
      dropout_fill_uniform_f32(u, 5, data_seed, STREAM_DATA, first_word + 5u * (uint64_t)i);
      ybuf[i] = i & 1;
      t = add_rn(0.1f, mul_rn(0.9f, u[0]));               /* distance along the arm */
      angle = add_rn(mul_rn(t, 9.42477796f), ybuf[i] ? 3.14159274f : 0.0f);   /* 1.5 turns */
      radius = t;
      /* roughly Gaussian noise: sum of two uniforms, centred */
      nx = mul_rn(noise, sub_rn(add_rn(u[1], u[2]), 1.0f));
      ny = mul_rn(noise, sub_rn(add_rn(u[3], u[4]), 1.0f));
      xbuf[2 * i + 0] = add_rn(mul_rn(radius, cos_rn(angle)), nx);
      xbuf[2 * i + 1] = add_rn(mul_rn(radius, sin_rn(angle)), ny);
   }
}

/* ------------------------------------------------------------------------------------
   Layers. Each output element is summed in a fixed order: that order, not the loop
   structure, is what the GPU kernels reproduce.
   ------------------------------------------------------------------------------------ */

/* out (B,OC) = inp (B,C) @ weight (C,OC) + bias (OC)
   out[b][o] = (((bias[o] + inp[b][0] w[0][o]) + inp[b][1] w[1][o]) + ...): the inner
   loop runs over o, so it vectorises without changing any output's order. */
static void matmul_forward(float *out, const float *inp, const float *weight,
                           const float *bias, int B, int C, int OC)
{
   int b, i, o;
   for (b = 0; b < B; ++b) {
      float *row = out + b * OC;
      for (o = 0; o < OC; ++o) row[o] = bias[o];
      for (i = 0; i < C; ++i) {
         float a = inp[b * C + i];
         const float *w = weight + i * OC;
         for (o = 0; o < OC; ++o) row[o] = add_rn(row[o], mul_rn(a, w[o]));
      }
   }
}

/* dinp (B,C) = dout (B,OC) @ weight^T: dinp[b][i] = ((0 + dout[b][0] w[i][0]) + ...). */
static void matmul_backward_input(float *dinp, const float *dout, const float *weight,
                                  int B, int C, int OC)
{
   int b, i, o;
   for (b = 0; b < B; ++b) {
      for (i = 0; i < C; ++i) {
         const float *w = weight + i * OC, *d = dout + b * OC;
         float acc = 0.0f;
         for (o = 0; o < OC; ++o) acc = add_rn(acc, mul_rn(d[o], w[o]));
         dinp[b * C + i] = acc;
      }
   }
}

/* Rows i0..i1 of dweight (C,OC) = inp^T @ dout: dweight[i][o] = ((0 + inp[0][i] dout[0][o])
   + inp[1][i] dout[1][o]) + ..., b ascending. Threads split the rows i. */
static void matmul_backward_weight(float *dweight, const float *dout, const float *inp,
                                   int B, int C, int OC, int i0, int i1)
{
   int b, i, o;
   for (i = i0; i < i1; ++i)
      for (o = 0; o < OC; ++o) dweight[i * OC + o] = 0.0f;
   for (b = 0; b < B; ++b) {
      const float *d = dout + b * OC;
      for (i = i0; i < i1; ++i) {
         float a = inp[b * C + i];
         float *dw = dweight + i * OC;
         for (o = 0; o < OC; ++o) dw[o] = add_rn(dw[o], mul_rn(a, d[o]));
      }
   }
}

/* Entries o0..o1 of dbias (OC) = sum over b ascending of dout (B,OC). */
static void bias_backward(float *dbias, const float *dout, int B, int OC, int o0, int o1)
{
   int b, o;
   for (o = o0; o < o1; ++o) dbias[o] = 0.0f;
   for (b = 0; b < B; ++b)
      for (o = o0; o < o1; ++o) dbias[o] = add_rn(dbias[o], dout[b * OC + o]);
}

/* out (N) = max(inp, 0); out may be inp */
static void relu_forward(float *out, const float *inp, size_t N)
{
   size_t i;
   for (i = 0; i < N; ++i) out[i] = inp[i] > 0.0f ? inp[i] : 0.0f;
}

/* dinp (N) = dout where the forward input was positive; dinp may be dout */
static void relu_backward(float *dinp, const float *inp, const float *dout, size_t N)
{
   size_t i;
   for (i = 0; i < N; ++i) dinp[i] = inp[i] > 0.0f ? dout[i] : 0.0f;
}

/* One row of softmax cross-entropy, forward and backward fused.
   dlogits (K) = (softmax(logits) - onehot(label)) / scale_div, returns the row's loss.
   MLP_HD: the GPU trainer calls this very function. */
MLP_HD float softmax_xent_row(float *dlogits, const float *logits, int label, int K,
                              float scale_div)
{
   float m = logits[0], sum = 0.0f;
   int k;
   for (k = 1; k < K; ++k) m = logits[k] > m ? logits[k] : m;
   for (k = 0; k < K; ++k) sum = add_rn(sum, exp_rn(sub_rn(logits[k], m)));
   for (k = 0; k < K; ++k) {
      float prob = div_rn(exp_rn(sub_rn(logits[k], m)), sum);
      dlogits[k] = div_rn(sub_rn(prob, k == label ? 1.0f : 0.0f), scale_div);
   }
   return sub_rn(log_rn(sum), sub_rn(logits[label], m));   /* log sum exp - logit[label] */
}

/* One Adam update of one parameter. bc1 = 1 - beta1^t and bc2 = 1 - beta2^t. */
typedef struct AdamStep { float lr, beta1, beta2, eps, bc1, bc2; } AdamStep;

MLP_HD void adam_one(float *w, float *m, float *v, float g, AdamStep s)
{
   float mhat, vhat;
   *m = add_rn(mul_rn(s.beta1, *m), mul_rn(sub_rn(1.0f, s.beta1), g));
   *v = add_rn(mul_rn(s.beta2, *v), mul_rn(sub_rn(1.0f, s.beta2), mul_rn(g, g)));
   mhat = div_rn(*m, s.bc1);
   vhat = div_rn(*v, s.bc2);
   *w = sub_rn(*w, mul_rn(s.lr, div_rn(mhat, add_rn(sqrt_rn(vhat), s.eps))));
}

/* beta^t by repeated rounding multiplies: the same bits on every device */
static AdamStep adam_step(float lr, int t)
{
   AdamStep s;
   float p1 = 1.0f, p2 = 1.0f;
   int i;
   s.lr = lr; s.beta1 = 0.9f; s.beta2 = 0.999f; s.eps = 1e-8f;
   for (i = 0; i < t; ++i) { p1 = mul_rn(p1, s.beta1); p2 = mul_rn(p2, s.beta2); }
   s.bc1 = sub_rn(1.0f, p1);
   s.bc2 = sub_rn(1.0f, p2);
   return s;
}

/* ------------------------------------------------------------------------------------
   The model: all parameters in one flat array, so hashing, diffing and uploading to a
   GPU are single loops / copies. Layout: W1 (IN,H) b1 (H) W2 (H,H) b2 (H) W3 (H,CLASSES)
   b3 (CLASSES).
   ------------------------------------------------------------------------------------ */

typedef struct Tensors { float *w1, *b1, *w2, *b2, *w3, *b3; } Tensors;

static size_t param_count(int H) { return (size_t)(IN * H + H + H * H + H + H * CLASSES + CLASSES); }

static Tensors tensors_view(float *flat, int H)
{
   Tensors t;
   t.w1 = flat;                       t.b1 = t.w1 + IN * H;
   t.w2 = t.b1 + H;                   t.b2 = t.w2 + H * H;
   t.w3 = t.b2 + H;                   t.b3 = t.w3 + H * CLASSES;
   return t;
}

/* Uniform in +-1/sqrt(fan_in) (He-like); biases 0. */
static void init_params(float *flat, int H, uint64_t seed)
{
   Tensors t = tensors_view(flat, H);
   struct { float *w; int fan_in, n; } layer[3];
   uint64_t word = 0;
   int l, i;
   layer[0].w = t.w1; layer[0].fan_in = IN; layer[0].n = IN * H;
   layer[1].w = t.w2; layer[1].fan_in = H;  layer[1].n = H * H;
   layer[2].w = t.w3; layer[2].fan_in = H;  layer[2].n = H * CLASSES;
   memset(flat, 0, param_count(H) * sizeof(float));
   for (l = 0; l < 3; ++l) {
      float a = div_rn(1.7320508f, sqrt_rn((float)layer[l].fan_in));   /* sqrt(3/fan_in) */
      dropout_fill_uniform_f32(layer[l].w, (size_t)layer[l].n, seed, STREAM_INIT, word);
      word += (uint64_t)layer[l].n;
      for (i = 0; i < layer[l].n; ++i)
         layer[l].w[i] = mul_rn(a, sub_rn(mul_rn(2.0f, layer[l].w[i]), 1.0f));
   }
}

/* ------------------------------------------------------------------------------------
   One training run. Threads work SPMD style: every thread runs train_worker, owns a
   slice of the batch rows for the row-local work (forward, backward to the inputs,
   dropout), a slice of the weight rows for the gradient sums, and a slice of the
   parameters for Adam; three barriers per step separate the phases.
   ------------------------------------------------------------------------------------ */

typedef struct Barrier {   /* pthread_barrier_t is optional in POSIX (macOS lacks it) */
   pthread_mutex_t mu;
   pthread_cond_t cv;
   int count, waiting, phase;
} Barrier;

static void barrier_init(Barrier *b, int count)
{
   pthread_mutex_init(&b->mu, NULL);
   pthread_cond_init(&b->cv, NULL);
   b->count = count; b->waiting = 0; b->phase = 0;
}

static void barrier_wait(Barrier *b)
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

static void barrier_destroy(Barrier *b)
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
   /* activations of one batch */
   float *x;         /* (B, IN) */
   int *y;           /* (B) */
   float *h1, *d1;   /* (B, H): pre-activation, ReLU+dropout output */
   float *h2, *d2;   /* (B, H) */
   float *logits, *dlogits, *losses;   /* (B, CLASSES), (B, CLASSES), (B) */
   float *g2, *g1;   /* (B, H): gradients flowing back into d2/h2 and d1/h1 */
   int *perm;        /* (n_train) */
   float *eval;      /* scratch for predict(): (EVAL_ROWS, 2H) */
   Curve curve;
   Barrier bar;
   double seconds;
} Run;

enum { EVAL_ROWS = 256 };

/* Logits of n rows without dropout (inference), EVAL_ROWS at a time, into logits_out
   (n, CLASSES). Single-threaded: only used for reporting. */
static void predict(Run *r, float *logits_out, const float *x, int n)
{
   int H = r->cfg.hidden, at;
   Tensors t = tensors_view(r->params, H);
   float *h1 = r->eval, *h2 = h1 + EVAL_ROWS * H;
   for (at = 0; at < n; at += EVAL_ROWS) {
      int B = n - at < EVAL_ROWS ? n - at : EVAL_ROWS;
      matmul_forward(h1, x + at * IN, t.w1, t.b1, B, IN, H);
      relu_forward(h1, h1, (size_t)(B * H));
      matmul_forward(h2, h1, t.w2, t.b2, B, H, H);
      relu_forward(h2, h2, (size_t)(B * H));
      matmul_forward(logits_out + at * CLASSES, h2, t.w3, t.b3, B, H, CLASSES);
   }
}

static void evaluate(Run *r, const Dataset *d, double *loss, double *acc, float *logits)
{
   double sum = 0.0;
   int i, correct = 0;
   predict(r, logits, d->x, d->n);
   for (i = 0; i < d->n; ++i) {
      float dl[CLASSES];
      const float *z = logits + i * CLASSES;
      sum += softmax_xent_row(dl, z, d->y[i], CLASSES, 1.0f);
      correct += (z[1] > z[0]) == (d->y[i] == 1);
   }
   *loss = sum / d->n;
   *acc = (double)correct / d->n;
}

/* perm (n) = a permutation of 0..n-1 for this epoch: Fisher-Yates driven by the seed's
   shuffle stream (modulo bias is irrelevant here; determinism is the point). */
static void shuffle(int *perm, int n, uint64_t seed, int epoch)
{
   int i;
   for (i = 0; i < n; ++i) perm[i] = i;
   for (i = n - 1; i > 0; --i) {
      uint32_t u = dropout_stream_u32(seed, STREAM_SHUFFLE, (uint64_t)epoch * (uint64_t)n + (uint64_t)i);
      int j = (int)(u % (uint32_t)(i + 1)), tmp = perm[i];
      perm[i] = perm[j];
      perm[j] = tmp;
   }
}

typedef struct Worker { Run *run; int tid; } Worker;

static int slice(int n, int tid, int nt) { return (int)((long long)n * tid / nt); }

static void *train_worker(void *arg)
{
   Worker *wk = (Worker *)arg;
   Run *r = wk->run;
   const Config *c = &r->cfg;
   const int H = c->hidden, nt = c->threads, tid = wk->tid, n = r->train->n;
   Tensors P = tensors_view(r->params, H), G = tensors_view(r->grads, H);
   /* Every thread holds its own copy of the generator: it is three integers and all
      copies advance in lockstep, so no thread has to publish offsets to the others. */
   dropout_gen gen = dropout_gen_make(c->seed, STREAM_DROPOUT);
   float *logits_all = NULL;
   int epoch, step = 0;
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
         const int r0 = slice(B, tid, nt), r1 = slice(B, tid + 1, nt), rows = r1 - r0;
         /* this thread's rows of every activation; hn elements each */
         float *h1 = r->h1 + r0 * H, *d1 = r->d1 + r0 * H, *g1 = r->g1 + r0 * H;
         float *h2 = r->h2 + r0 * H, *d2 = r->d2 + r0 * H, *g2 = r->g2 + r0 * H;
         const size_t hn = (size_t)(rows * H);
         const uint64_t first = (uint64_t)(r0 * H);   /* where these rows start in the stream */
         uint64_t off1 = 0, off2 = 0;
         int i;
         dropout_gen_next(&gen, (size_t)(B * H), &off1);   /* each dropout layer takes B*H */
         dropout_gen_next(&gen, (size_t)(B * H), &off2);   /* fresh stream positions */

         /* phase 1, rows r0..r1: forward, loss, backward down to the first layer */
         for (i = r0; i < r1; ++i) {
            int src = r->perm[at + i];
            r->x[2 * i] = r->train->x[2 * src];
            r->x[2 * i + 1] = r->train->x[2 * src + 1];
            r->y[i] = r->train->y[src];
         }
         matmul_forward(h1, r->x + r0 * IN, P.w1, P.b1, rows, IN, H);
         relu_forward(d1, h1, hn);
         dropout_forward_f32(d1, NULL, d1, hn, c->p, c->bits, c->seed, STREAM_DROPOUT, off1 + first);
         matmul_forward(h2, d1, P.w2, P.b2, rows, H, H);
         relu_forward(d2, h2, hn);
         dropout_forward_f32(d2, NULL, d2, hn, c->p, c->bits, c->seed, STREAM_DROPOUT, off2 + first);
         matmul_forward(r->logits + r0 * CLASSES, d2, P.w3, P.b3, rows, H, CLASSES);
         for (i = r0; i < r1; ++i)
            r->losses[i] = softmax_xent_row(r->dlogits + i * CLASSES, r->logits + i * CLASSES,
                                            r->y[i], CLASSES, (float)B);
         matmul_backward_input(g2, r->dlogits + r0 * CLASSES, P.w3, rows, H, CLASSES);
         /* mask-free backward: dropout.h rebuilds the mask from (seed, stream, offset) */
         dropout_backward_f32(g2, g2, hn, c->p, c->bits, c->seed, STREAM_DROPOUT, off2 + first);
         relu_backward(g2, h2, g2, hn);
         matmul_backward_input(g1, g2, P.w2, rows, H, H);
         dropout_backward_f32(g1, g1, hn, c->p, c->bits, c->seed, STREAM_DROPOUT, off1 + first);
         relu_backward(g1, h1, g1, hn);
         barrier_wait(&r->bar);

         /* phase 2: weight gradients, summed over all B rows; thread tid owns a slice
            of every weight matrix's rows and of every bias */
         matmul_backward_weight(G.w3, r->dlogits, r->d2, B, H, CLASSES, slice(H, tid, nt), slice(H, tid + 1, nt));
         matmul_backward_weight(G.w2, r->g2, r->d1, B, H, H, slice(H, tid, nt), slice(H, tid + 1, nt));
         matmul_backward_weight(G.w1, r->g1, r->x, B, IN, H, slice(IN, tid, nt), slice(IN, tid + 1, nt));
         bias_backward(G.b3, r->dlogits, B, CLASSES, slice(CLASSES, tid, nt), slice(CLASSES, tid + 1, nt));
         bias_backward(G.b2, r->g2, B, H, slice(H, tid, nt), slice(H, tid + 1, nt));
         bias_backward(G.b1, r->g1, B, H, slice(H, tid, nt), slice(H, tid + 1, nt));
         if (tid == 0)
            for (i = 0; i < B; ++i) epoch_loss += r->losses[i];
         barrier_wait(&r->bar);

         /* phase 3: Adam on this thread's slice of the parameters */
         {
            AdamStep s = adam_step(c->lr, ++step);
            size_t k, k0 = r->n_params * (size_t)tid / (size_t)nt;
            size_t k1 = r->n_params * (size_t)(tid + 1) / (size_t)nt;
            for (k = k0; k < k1; ++k)
               adam_one(&r->params[k], &r->adam_m[k], &r->adam_v[k], r->grads[k], s);
         }
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
            printf("  epoch %4d  loss %.4f | train loss %.4f acc %5.1f%% | held-out loss "
                   "%.4f acc %5.1f%%\n", epoch + 1, cv->batch_loss[k], cv->train_loss[k],
                   100 * cv->train_acc[k], cv->test_loss[k], 100 * cv->test_acc[k]);
      }
   }
   free(logits_all);
   return NULL;
}

static double now_seconds(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The arena: every buffer of a run in one allocation. */
static void run_init(Run *r, const Config *c, const Dataset *train, const Dataset *test)
{
   const size_t H = (size_t)c->hidden, B = (size_t)c->batch, E = (size_t)c->epochs;
   size_t floats, ints;
   float *f;
   int *ip;
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
   r->x = f; f += B * IN;
   r->h1 = f; f += B * H;  r->d1 = f; f += B * H;
   r->h2 = f; f += B * H;  r->d2 = f; f += B * H;
   r->logits = f; f += B * CLASSES;
   r->dlogits = f; f += B * CLASSES;
   r->losses = f; f += B;
   r->g2 = f; f += B * H;  r->g1 = f; f += B * H;
   r->eval = f;
   r->y = ip; r->perm = ip + B;
   r->curve.batch_loss = r->curve.epoch + (E + 1);
   r->curve.train_loss = r->curve.epoch + 2 * (E + 1);
   r->curve.test_loss = r->curve.epoch + 3 * (E + 1);
   r->curve.train_acc = r->curve.epoch + 4 * (E + 1);
   r->curve.test_acc = r->curve.epoch + 5 * (E + 1);
   init_params(r->params, c->hidden, c->seed);
}

static void run_free(Run *r)
{
   free(r->params);
   free(r->y);
   free(r->curve.epoch);
}

static void run_train(Run *r)
{
   pthread_t th[64];
   Worker wk[64];
   int t, nt = r->cfg.threads;
   double t0 = now_seconds();
   barrier_init(&r->bar, nt);
   for (t = 0; t < nt; ++t) { wk[t].run = r; wk[t].tid = t; }
   for (t = 1; t < nt; ++t) pthread_create(&th[t], NULL, train_worker, &wk[t]);
   train_worker(&wk[0]);
   for (t = 1; t < nt; ++t) pthread_join(th[t], NULL);
   barrier_destroy(&r->bar);
   r->seconds = now_seconds() - t0;
}

/* FNV-1a over the bytes of the parameters: one number that names the exact weights. */
static uint64_t hash_params(const float *p, size_t n)
{
   const uint8_t *b = (const uint8_t *)p;
   uint64_t h = 0xcbf29ce484222325u;
   size_t i;
   for (i = 0; i < n * sizeof(float); ++i) { h ^= b[i]; h *= 0x100000001b3u; }
   return h;
}

static double max_abs_diff(const float *a, const float *b, size_t n)
{
   double m = 0.0;
   size_t i;
   for (i = 0; i < n; ++i) {
      double d = (double)a[i] - (double)b[i];
      if (d < 0) d = -d;
      if (d > m || d != d) m = d;
   }
   return m;
}

#ifndef TRAIN_MLP_NO_MAIN
/* ====================================================================================
   The demo: main() and the pictures.
   ==================================================================================== */
#include "plot.h"

typedef struct Options {
   Config cfg;
   int n_train, n_test, quick, threads;
   float noise;
   const char *out;
} Options;

static void train_and_report(Run *r, const char *what)
{
   const Config *c = &r->cfg;
   printf("%s: H=%d, p=%.2f (%d-bit draws), seed %llu, %d thread%s, %d epochs\n", what,
          c->hidden, c->p, c->bits, (unsigned long long)c->seed, c->threads,
          c->threads == 1 ? "" : "s", c->epochs);
   run_train(r);
}

/* --- pictures ------------------------------------------------------------------------ */

static char *path_in(char *buf, size_t size, const char *dir, const char *name)
{
   snprintf(buf, size, "%s/%s", dir, name);
   return buf;
}

/* What a held-out loss curve did, in words derived from its points: where it was lowest
   and how far it rose after that. The loss picture's title is built from these, so it can
   only say what the curves show. */
static void curve_summary(char *buf, size_t size, const Curve *c)
{
   int i, lo = 0, last = c->n - 1;
   for (i = 1; i < c->n; ++i)
      if (c->test_loss[i] < c->test_loss[lo]) lo = i;
   if (lo == last)
      snprintf(buf, size, "lowest at the last epoch, %d: %.3f", (int)c->epoch[lo], c->test_loss[lo]);
   else
      snprintf(buf, size, "lowest %.3f at epoch %d, then %s to %.3f at epoch %d (%+.3f)",
               c->test_loss[lo], (int)c->epoch[lo],
               c->test_loss[last] > c->test_loss[lo] ? "rises" : "ends", c->test_loss[last],
               (int)c->epoch[last], c->test_loss[last] - c->test_loss[lo]);
}

/* Held-out and training loss of both runs against the epoch; the points also go to a CSV
   next to it (to re-plot, and for the test that checks the title against them). */
static int picture_loss(const char *svg_path, const char *csv_path, const Run *plain, const Run *drop)
{
   svg_chart c;
   double top = 0.0;
   char line[2][160], words[120];
   int i;
   FILE *f = fopen(csv_path, "w");
   if (!f) return -1;
   fprintf(f, "epoch,train_loss_no_dropout,heldout_loss_no_dropout,train_loss_dropout,heldout_loss_dropout\n");
   for (i = 0; i < plain->curve.n; ++i)
      fprintf(f, "%d,%.6f,%.6f,%.6f,%.6f\n", (int)plain->curve.epoch[i], plain->curve.train_loss[i],
              plain->curve.test_loss[i], drop->curve.train_loss[i], drop->curve.test_loss[i]);
   if (fclose(f) != 0) return -1;
   f = svg_open(svg_path, 720, 490);
   if (!f) return -1;
   for (i = 0; i < plain->curve.n; ++i) {
      top = plain->curve.test_loss[i] > top ? plain->curve.test_loss[i] : top;
      top = drop->curve.test_loss[i] > top ? drop->curve.test_loss[i] : top;
   }
   c.f = f; c.x0 = 0; c.x1 = plain->cfg.epochs; c.y0 = 0; c.y1 = top < 1.5 ? 1.5 : top;
   c.px = 70; c.py = 90; c.pw = 620; c.ph = 340;
   svg_axes(&c, "", "epoch", "loss", 5, 1);
   fprintf(f, "<text x=\"%.1f\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">Cross-entropy loss, "
              "training (dashed) and held-out (solid)</text>\n", c.px + c.pw / 2);
   curve_summary(words, sizeof words, &plain->curve);
   snprintf(line[0], sizeof line[0], "held-out, no dropout: %s", words);
   curve_summary(words, sizeof words, &drop->curve);
   snprintf(line[1], sizeof line[1], "held-out, dropout p = %.2f: %s", drop->cfg.p, words);
   for (i = 0; i < 2; ++i)
      fprintf(f, "<text class=\"summary\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
              c.px + c.pw / 2, 46.0 + 17.0 * i, i ? "#1f77b4" : "#d62728", line[i]);
   svg_line(&c, plain->curve.epoch, plain->curve.test_loss, plain->curve.n, "#d62728", 0);
   svg_line(&c, plain->curve.epoch, plain->curve.train_loss, plain->curve.n, "#d62728", 1);
   svg_line(&c, drop->curve.epoch, drop->curve.test_loss, drop->curve.n, "#1f77b4", 0);
   svg_line(&c, drop->curve.epoch, drop->curve.train_loss, drop->curve.n, "#1f77b4", 1);
   svg_legend(&c, 0, "#d62728", 0, "no dropout, held-out");
   svg_legend(&c, 1, "#d62728", 1, "no dropout, train");
   svg_legend(&c, 2, "#1f77b4", 0, "dropout, held-out");
   svg_legend(&c, 3, "#1f77b4", 1, "dropout, train");
   printf("\nheld-out loss curves (loss.svg's title says this):\n  %s\n  %s\n", line[0], line[1]);
   return svg_close(f);
}

/* Two panels (no dropout | dropout): background = P(class 1) on a grid over the data,
   dots = the training points; a title, a heading with the measured held-out accuracy and
   loss over each panel, the axis range and a key below. */
static int picture_boundary(const char *path, Run *plain, Run *drop)
{
   enum { S = 300, GAP = 16, M = 12, TOP = 74, BOTTOM = 52, W = 2 * S + GAP + 2 * M, H = TOP + S + BOTTOM };
   const float lo = -1.6f, span = 3.2f;
   plot_img im;
   float *grid = (float *)malloc((size_t)S * S * IN * sizeof(float));
   float *logits = (float *)malloc((size_t)S * S * CLASSES * sizeof(float));
   Run *runs[2];
   char buf[128];
   int panel, i, j, k, err;
   im.w = W; im.h = H;
   im.rgb = (uint8_t *)malloc((size_t)W * H * 3);
   if (!im.rgb || !grid || !logits) { free(im.rgb); free(grid); free(logits); return -1; }
   runs[0] = plain; runs[1] = drop;
   img_rect(&im, 0, 0, W, H, 0xffffff);
   snprintf(buf, sizeof buf, "Decision regions after %d epochs", plain->cfg.epochs);
   img_text(&im, W / 2, 8, buf, 2, 0x000000, 1);
   for (i = 0; i < S; ++i)
      for (j = 0; j < S; ++j) {
         grid[2 * (i * S + j)] = lo + span * ((float)j + 0.5f) / (float)S;
         grid[2 * (i * S + j) + 1] = lo + span * ((float)(S - 1 - i) + 0.5f) / (float)S;  /* y up */
      }
   for (panel = 0; panel < 2; ++panel) {
      const Dataset *tr = runs[panel]->train;
      const Curve *cv = &runs[panel]->curve;
      const int X0 = M + panel * (S + GAP), Y0 = TOP;
      predict(runs[panel], logits, grid, S * S);
      if (panel == 0) snprintf(buf, sizeof buf, "no dropout");
      else snprintf(buf, sizeof buf, "dropout p = %.2f", runs[panel]->cfg.p);
      img_text(&im, X0 + S / 2, 34, buf, 2, panel ? 0x1f77b4 : 0xd62728, 1);
      snprintf(buf, sizeof buf, "held-out: accuracy %.1f%%, loss %.3f", 100 * cv->test_acc[cv->n - 1],
               cv->test_loss[cv->n - 1]);
      img_text(&im, X0 + S / 2, 58, buf, 1, 0x000000, 1);
      for (i = 0; i < S; ++i)
         for (j = 0; j < S; ++j) {
            const float *z = logits + 2 * (i * S + j);
            float p1 = div_rn(1.0f, add_rn(1.0f, exp_rn(sub_rn(z[0], z[1]))));
            uint8_t *px = im.rgb + 3 * ((Y0 + i) * W + X0 + j);
            /* class 0 orange-ish, class 1 blue-ish, pale so the dots stand out */
            px[0] = (uint8_t)(255.0f - 90.0f * p1);
            px[1] = (uint8_t)(200.0f + 20.0f * p1);
            px[2] = (uint8_t)(165.0f + 90.0f * p1);
         }
      for (i = 0; i + 1 < S; ++i)   /* the decision boundary, where the argmax changes */
         for (j = 0; j + 1 < S; ++j) {
            const float *z = logits + 2 * (i * S + j);
            int here = z[1] > z[0], right = z[3] > z[2], below = z[2 * S + 1] > z[2 * S];
            if (here != right || here != below) img_rect(&im, X0 + j, Y0 + i, 1, 1, 0x3c3c3c);
         }
      for (k = 0; k < tr->n; ++k) {
         int cx = (int)((tr->x[2 * k] - lo) / span * (float)S), cy = S - 1 - (int)((tr->x[2 * k + 1] - lo) / span * (float)S);
         int dx, dy;
         for (dy = -2; dy <= 2; ++dy)
            for (dx = -2; dx <= 2; ++dx) {
               int x = cx + dx, y = cy + dy;
               if (x < 0 || x >= S || y < 0 || y >= S || dx * dx + dy * dy > 5) continue;
               img_rect(&im, X0 + x, Y0 + y, 1, 1, tr->y[k] ? 0x143cc8 : 0xc8460a);
            }
      }
      img_text(&im, X0, Y0 + S + 4, "-1.6", 1, 0x000000, 0);
      img_text(&im, X0 + S, Y0 + S + 4, "1.6", 1, 0x000000, 2);
      img_text(&im, X0 + S / 2, Y0 + S + 4, "x1", 1, 0x000000, 1);
   }
   snprintf(buf, sizeof buf, "background: predicted class (orange 0, blue 1), grey line: the boundary");
   img_text(&im, W / 2, TOP + S + 18, buf, 1, 0x000000, 1);
   snprintf(buf, sizeof buf, "dots: the %d training points; both axes -1.6 .. 1.6", plain->train->n);
   img_text(&im, W / 2, TOP + S + 32, buf, 1, 0x000000, 1);
   err = png_write(path, W, H, im.rgb);
   free(im.rgb); free(grid); free(logits);
   return err;
}

/* Dropout masks on a 64 x 64 grid, white = kept: p = 0.1, 0.5, 0.9 element masks, then a
   channel mask (p = 0.5): one decision per row (channel), broadcast along the row. Each
   panel is captioned with the kept count it shows. */
static int picture_masks(const char *path, uint64_t seed)
{
   enum { N = 64, Z = 3, P = N * Z, GAP = 16, M = 12, TOP = 70, BOTTOM = 22,
          W = 4 * P + 3 * GAP + 2 * M, H = TOP + P + BOTTOM };
   static const double ps[3] = {0.1, 0.5, 0.9};
   uint8_t mask[N * N / 8], chan[N / 8];
   plot_img im;
   char buf[96];
   int panel, i, j, err;
   im.w = W; im.h = H;
   im.rgb = (uint8_t *)malloc((size_t)W * H * 3);
   if (!im.rgb) return -1;
   img_rect(&im, 0, 0, W, H, 0xffffff);
   snprintf(buf, sizeof buf, "Dropout masks, 64 x 64, white = kept (16-bit draws, seed %llu)",
            (unsigned long long)seed);
   img_text(&im, W / 2, 8, buf, 2, 0x000000, 1);
   for (panel = 0; panel < 4; ++panel) {
      const int X0 = M + panel * (P + GAP);
      int kept_total = 0;
      if (panel < 3) dropout_mask(mask, N * N, ps[panel], 16, seed, STREAM_DROPOUT, 0);
      else dropout_mask(chan, N, 0.5, 16, seed, STREAM_DROPOUT, 0);
      for (i = 0; i < P; ++i)
         for (j = 0; j < P; ++j) {
            int e = (i / Z) * N + j / Z, c = i / Z;
            int kept = panel < 3 ? (mask[e / 8] >> (e % 8)) & 1 : (chan[c / 8] >> (c % 8)) & 1;
            img_rect(&im, X0 + j, TOP + i, 1, 1, kept ? 0xffffff : 0x000000);
         }
      for (i = 0; i < (panel < 3 ? N * N : N); ++i)
         kept_total += panel < 3 ? (mask[i / 8] >> (i % 8)) & 1 : (chan[i / 8] >> (i % 8)) & 1;
      if (panel < 3) snprintf(buf, sizeof buf, "p = %.1f", ps[panel]);
      else snprintf(buf, sizeof buf, "channel, p = 0.5");
      img_text(&im, X0 + P / 2, 32, buf, 2, 0x000000, 1);
      if (panel < 3) snprintf(buf, sizeof buf, "%d of %d kept", kept_total, N * N);
      else snprintf(buf, sizeof buf, "%d of %d rows kept", kept_total, N);
      img_text(&im, X0 + P / 2, 56, buf, 1, 0x000000, 1);
   }
   img_text(&im, W / 2, TOP + P + 8, "a channel mask draws one decision per row and broadcasts it along the row",
            1, 0x000000, 1);
   err = png_write(path, W, H, im.rgb);
   free(im.rgb);
   return err;
}

/* Max |difference| per tensor between the reference run and three others. */
static int picture_diffs(const char *path, const float *ref, const float *const other[3],
                         const char *const label[3], int H)
{
   static const char *names[6] = {"W1", "b1", "W2", "b2", "W3", "b3"};
   static const char *colors[3] = {"#2ca02c", "#9467bd", "#d62728"};
   size_t sizes[6], at = 0;
   double d[3][6], top = 0.0;
   svg_chart c;
   char buf[64];
   int t, k;
   FILE *f = svg_open(path, 720, 420);
   if (!f) return -1;
   sizes[0] = (size_t)(IN * H); sizes[1] = (size_t)H; sizes[2] = (size_t)(H * H);
   sizes[3] = (size_t)H; sizes[4] = (size_t)(H * CLASSES); sizes[5] = CLASSES;
   for (t = 0; t < 6; ++t) {
      for (k = 0; k < 3; ++k) {
         d[k][t] = max_abs_diff(ref + at, other[k] + at, sizes[t]);
         top = d[k][t] > top ? d[k][t] : top;
      }
      at += sizes[t];
   }
   c.f = f; c.x0 = 0; c.x1 = 6; c.y0 = 0; c.y1 = top > 0 ? top * 1.15 : 1;
   c.px = 70; c.py = 40; c.pw = 620; c.ph = 300;
   svg_axes(&c, "max |weight difference| against run 1 (seed 1, 1 thread), per tensor",
            "", "max |difference|", 4, 0);
   for (t = 0; t < 6; ++t) {
      svg_text(f, svg_x(&c, t + 0.5), c.py + c.ph + 18, "middle", names[t]);
      for (k = 0; k < 3; ++k) {
         double x = svg_x(&c, t + 0.2 + 0.2 * k), y = svg_y(&c, d[k][t]);
         fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
                 x, y, c.pw / 6 * 0.2, c.py + c.ph - y, colors[k]);
         if (d[k][t] == 0.0) {
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"%s\">0</text>\n",
                    x + c.pw / 60, c.py + c.ph - 4, colors[k]);
         }
      }
   }
   for (k = 0; k < 3; ++k) {
      snprintf(buf, sizeof buf, "%s", label[k]);
      svg_legend(&c, k, colors[k], 0, buf);
   }
   return svg_close(f);
}

static void make_dir(const char *dir)
{
   char cmd[512];
   snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
   if (system(cmd) != 0) fprintf(stderr, "warning: could not create %s\n", dir);
}

/* --- main --------------------------------------------------------------------------- */

static int compare(const char *what, const Run *a, const Run *b, int expect_same)
{
   uint64_t ha = hash_params(a->params, a->n_params), hb = hash_params(b->params, b->n_params);
   double d = max_abs_diff(a->params, b->params, a->n_params);
   int same = ha == hb && d == 0.0 && !memcmp(a->params, b->params, a->n_params * sizeof(float));
   int ok = same == expect_same;
   printf("  %-34s %016llx vs %016llx  max|diff| %-9.3g %s  %s\n", what, (unsigned long long)ha,
          (unsigned long long)hb, d, same ? "IDENTICAL" : "DIFFERENT", ok ? "ok" : "UNEXPECTED");
   return ok;
}

int main(int argc, char **argv)
{
   Options o;
   Dataset train, test;
   float *xbuf;
   int *ybuf, i, all_ok = 1;
   Run plain, drop, again, threaded, other;
   double t0 = now_seconds();
   long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
   memset(&o, 0, sizeof o);
   o.cfg.hidden = 64; o.cfg.batch = 25; o.cfg.epochs = 300; o.cfg.threads = 1;
   o.cfg.eval_every = 5; o.cfg.print_every = 20; o.cfg.p = 0.3; o.cfg.bits = 16;
   o.cfg.seed = 1; o.cfg.lr = 0.01f;
   o.n_train = 200; o.n_test = 1000; o.noise = 0.3f; o.out = "build/demo";
   o.threads = ncpu < 2 ? 2 : ncpu > 16 ? 16 : (int)ncpu;
   for (i = 1; i < argc; ++i) {
      const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "0";
      if (!strcmp(a, "--quick")) o.quick = 1;
      else if (!strcmp(a, "--threads")) { o.threads = atoi(v); ++i; }
      else if (!strcmp(a, "--out")) { o.out = v; ++i; }
      else if (!strcmp(a, "--epochs")) { o.cfg.epochs = atoi(v); ++i; }
      else if (!strcmp(a, "--p")) { o.cfg.p = atof(v); ++i; }
      else if (!strcmp(a, "--seed")) { o.cfg.seed = (uint64_t)atoll(v); ++i; }
      else {
         fprintf(stderr, "usage: %s [--quick] [--threads N] [--out DIR] [--epochs N] [--p P] "
                         "[--seed S]\n", argv[0]);
         return 2;
      }
   }
   if (o.threads < 1 || o.threads > 64 || o.cfg.epochs < 1 || !(o.cfg.p >= 0 && o.cfg.p < 1)) {
      fprintf(stderr, "bad arguments\n");
      return 2;
   }
   if (o.quick) { o.cfg.epochs = 20; o.n_test = 200; o.cfg.print_every = 0; }

   xbuf = (float *)malloc((size_t)((o.n_train + o.n_test) * IN) * sizeof(float));
   ybuf = (int *)malloc((size_t)(o.n_train + o.n_test) * sizeof(int));
   if (!xbuf || !ybuf) return 1;
   /* the data has its own seed: every run below sees the same points */
   make_spirals(&train, xbuf, ybuf, o.n_train, o.noise, 42, 0);
   make_spirals(&test, xbuf + o.n_train * IN, ybuf + o.n_train, o.n_test, o.noise, 42, 1u << 20);
   printf("two noisy spirals: %d training points, %d held-out points\n\n", o.n_train, o.n_test);

   {
      Config c = o.cfg;
      c.p = 0.0;
      run_init(&plain, &c, &train, &test);
      train_and_report(&plain, "1. without dropout");
      run_init(&drop, &o.cfg, &train, &test);
      train_and_report(&drop, "2. with dropout");
   }
   {
      const Curve *a = &plain.curve, *b = &drop.curve;
      int E = a->n - 1;
      printf("\nafter %d epochs          train acc  held-out acc  held-out loss\n", o.cfg.epochs);
      printf("  without dropout         %5.1f%%       %5.1f%%        %.4f\n", 100 * a->train_acc[E],
             100 * a->test_acc[E], a->test_loss[E]);
      printf("  with dropout p=%.2f     %5.1f%%       %5.1f%%        %.4f\n", o.cfg.p,
             100 * b->train_acc[E], 100 * b->test_acc[E], b->test_loss[E]);
      printf("  dropout %s held-out accuracy by %+.1f points and %s held-out loss by %.0f%%\n\n",
             b->test_acc[E] >= a->test_acc[E] ? "raises" : "LOWERS",
             100 * (b->test_acc[E] - a->test_acc[E]),
             b->test_loss[E] <= a->test_loss[E] ? "cuts" : "RAISES",
             100 * (1 - b->test_loss[E] / a->test_loss[E]));
   }

   printf("reproducibility (FNV-1a hash of the %zu weights' bits):\n", drop.n_params);
   {
      Config c = o.cfg;
      c.print_every = 0;
      c.eval_every = c.epochs;   /* these runs are compared, not plotted: skip most evaluations */
      run_init(&again, &c, &train, &test);
      run_train(&again);
      all_ok &= compare("same seed, run again:", &drop, &again, 1);
      c.threads = o.threads;
      run_init(&threaded, &c, &train, &test);
      run_train(&threaded);
      {
         char what[64];
         snprintf(what, sizeof what, "1 thread vs %d thread%s:", o.threads, o.threads == 1 ? "" : "s");
         all_ok &= compare(what, &drop, &threaded, 1);
      }
      c.threads = 1;
      c.seed = o.cfg.seed + 1;
      run_init(&other, &c, &train, &test);
      run_train(&other);
      all_ok &= compare("seed 1 vs seed 2:", &drop, &other, 0);
   }
   printf("  %s\n", all_ok ? "REPRODUCIBLE: every check as expected" : "NOT REPRODUCIBLE");

   if (!o.quick) {
      char path[512];
      const float *others[3];
      const char *labels[3];
      char l2[64];
      int err = 0;
      make_dir(o.out);
      others[0] = again.params; others[1] = threaded.params; others[2] = other.params;
      snprintf(l2, sizeof l2, "same seed, %d threads", o.threads);
      labels[0] = "same seed, run again"; labels[1] = l2; labels[2] = "another seed";
      {
         char csv[512];
         err |= picture_loss(path_in(path, sizeof path, o.out, "loss.svg"),
                             path_in(csv, sizeof csv, o.out, "loss.csv"), &plain, &drop);
      }
      err |= picture_boundary(path_in(path, sizeof path, o.out, "boundary.png"), &plain, &drop);
      err |= picture_masks(path_in(path, sizeof path, o.out, "masks.png"), o.cfg.seed);
      err |= picture_diffs(path_in(path, sizeof path, o.out, "weight_diff.svg"), drop.params,
                           others, labels, o.cfg.hidden);
      printf("\npictures in %s/:\n"
             "  loss.svg         training and held-out loss, with and without dropout (points in loss.csv)\n"
             "  boundary.png     decision regions (left: no dropout, right: dropout), dots = training points\n"
             "  masks.png        dropout masks, white = kept: p = 0.1, 0.5, 0.9, channel mask p = 0.5\n"
             "  weight_diff.svg  max |weight difference| per tensor for the three comparisons\n", o.out);
      if (err) { printf("  (could not write every picture)\n"); all_ok = 0; }
   }
   printf("\ntotal %.2f s\n", now_seconds() - t0);
   run_free(&plain); run_free(&drop); run_free(&again); run_free(&threaded); run_free(&other);
   free(xbuf); free(ybuf);
   return all_ok ? 0 : 1;
}
#endif
