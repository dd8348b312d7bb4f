/* mlp_model.h - the demo MLP: its data, layers, one training step and the fixed summation
   order, shared by every trainer that must give the same weights bit for bit:

      examples/train_mlp.c       the demo (`make demo`): CPU threads, pictures
      examples/train_mlp_mpi.c   data parallel over Open MPI ranks (`make demo-mpi`)
      examples/train_mlp_cuda.cu the GPU, compared byte for byte (`make demo-cuda`)
      the browser page           the same code built for WebAssembly

   The network: x (IN) -> Linear -> ReLU -> Dropout -> Linear -> ReLU -> Dropout -> Linear
   (CLASSES) -> softmax cross-entropy, trained with Adam.

   Conventions (as in llm.c's train_gpt2.c): every layer is a forward/backward pair, outputs
   come first in the argument list, shapes are in comments, and the caller owns every buffer.

   What this header may use, so that it builds freestanding (clang --target=wasm32
   -nostdlib): dropout.h and mlp_math.h only. No stdio, no malloc, no threads, no libm;
   the programs that include it bring those. Its functions are `static inline`: each
   program uses part of it.

   Why the bits are the same everywhere:
   - dropout masks come from dropout.h: a pure function of (seed, stream, position), so a
     thread, rank or GPU block that handles rows r0..r1 of a batch takes that slice of
     the batch's plan, and gets the mask that one whole-batch call would give those rows;
   - every output of a matrix product is summed in one FIXED order (bias first, then k
     ascending), whoever computes it and however the loops are vectorised; a gradient is
     summed over the batch from zero, b ascending; nothing is summed across threads;
   - every float rounding is one mul_rn/add_rn/... (mlp_math.h), the programs are built
     without FMA contraction (-ffp-contract=off), and exp/log come from mlp_math.h. */
#ifndef MLP_MODEL_H
#define MLP_MODEL_H

#include <stddef.h>
#include <stdint.h>

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
   int threads;       /* read by the CPU trainer only */
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

/* Part `part` of `parts` of 0..n-1 starts here: the one way work is cut, for threads and ranks. */
static inline int slice(int n, int part, int parts) { return (int)((long long)n * part / parts); }

/* ------------------------------------------------------------------------------------
   Data: two interleaved spirals with noise. Uniforms come from dropout.h's own stream.
   ------------------------------------------------------------------------------------ */

/* d = n points (xbuf (n, IN), ybuf (n)); point i uses the 5 uniforms at stream positions
   first_word + 5i .. first_word + 5i + 4 of (data_seed, STREAM_DATA). Returns dropout.h's
   code: not 0 (positions past the stream's end) leaves d unusable. */
static inline int make_spirals(Dataset *d, float *xbuf, int *ybuf, int n, float noise,
                               uint64_t data_seed, uint64_t first_word)
{
   int i;
   d->n = n;
   d->x = xbuf;
   d->y = ybuf;
   for (i = 0; i < n; ++i) {
      float u[5], t, angle, radius, nx, ny;
      int err = dropout_fill_uniform_f32(dropout_key_make(data_seed, STREAM_DATA),
                                         dropout_pos_make(first_word + 5u * (uint64_t)i), u, 5);
      if (err) return err;   /* u was not written: no point from it */
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
   return DROPOUT_OK;
}

/* perm (n) = a permutation of 0..n-1 for this epoch: Fisher-Yates driven by the seed's
   shuffle stream (modulo bias is irrelevant here; determinism is the point). */
static inline void shuffle(int *perm, int n, uint64_t seed, int epoch)
{
   int i;
   for (i = 0; i < n; ++i) perm[i] = i;
   for (i = n - 1; i > 0; --i) {
      uint32_t u = dropout_stream_u32(dropout_key_make(seed, STREAM_SHUFFLE),
                                      dropout_pos_make((uint64_t)epoch * (uint64_t)n + (uint64_t)i));
      int j = (int)(u % (uint32_t)(i + 1)), tmp = perm[i];
      perm[i] = perm[j];
      perm[j] = tmp;
   }
}

/* ------------------------------------------------------------------------------------
   Layers. Each output element is summed in a fixed order: that order, not the loop
   structure, is what the GPU kernels reproduce.
   ------------------------------------------------------------------------------------ */

/* out (B,OC) = inp (B,C) @ weight (C,OC) + bias (OC)
   out[b][o] = (((bias[o] + inp[b][0] w[0][o]) + inp[b][1] w[1][o]) + ...): the inner
   loop runs over o, so it vectorises without changing any output's order. */
static inline void matmul_forward(float *out, const float *inp, const float *weight,
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
static inline void matmul_backward_input(float *dinp, const float *dout, const float *weight,
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
static inline void matmul_backward_weight(float *dweight, const float *dout, const float *inp,
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
static inline void bias_backward(float *dbias, const float *dout, int B, int OC, int o0, int o1)
{
   int b, o;
   for (o = o0; o < o1; ++o) dbias[o] = 0.0f;
   for (b = 0; b < B; ++b)
      for (o = o0; o < o1; ++o) dbias[o] = add_rn(dbias[o], dout[b * OC + o]);
}

/* out (N) = max(inp, 0); out may be inp */
static inline void relu_forward(float *out, const float *inp, size_t N)
{
   size_t i;
   for (i = 0; i < N; ++i) out[i] = inp[i] > 0.0f ? inp[i] : 0.0f;
}

/* dinp (N) = dout where the forward input was positive; dinp may be dout */
static inline void relu_backward(float *dinp, const float *inp, const float *dout, size_t N)
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
static inline AdamStep adam_step(float lr, int t)
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
   The parameters: all in one flat array, so hashing, diffing and uploading to a GPU are
   single loops / copies. Layout: W1 (IN,H) b1 (H) W2 (H,H) b2 (H) W3 (H,CLASSES)
   b3 (CLASSES).
   ------------------------------------------------------------------------------------ */

typedef struct Tensors { float *w1, *b1, *w2, *b2, *w3, *b3; } Tensors;

static inline size_t param_count(int H) { return (size_t)(IN * H + H + H * H + H + H * CLASSES + CLASSES); }

static inline Tensors tensors_view(float *flat, int H)
{
   Tensors t;
   t.w1 = flat;                       t.b1 = t.w1 + IN * H;
   t.w2 = t.b1 + H;                   t.b2 = t.w2 + H * H;
   t.w3 = t.b2 + H;                   t.b3 = t.w3 + H * CLASSES;
   return t;
}

/* flat (param_count(H)): weights uniform in +-sqrt(3/fan_in) (He-like), biases 0. Returns
   dropout.h's code: not 0 leaves the weights unusable. */
static inline int init_params(float *flat, int H, uint64_t seed)
{
   Tensors t = tensors_view(flat, H);
   struct { float *w; int fan_in, n; } layer[3];
   uint64_t word = 0;
   size_t k, np = param_count(H);
   int l, i;
   layer[0].w = t.w1; layer[0].fan_in = IN; layer[0].n = IN * H;
   layer[1].w = t.w2; layer[1].fan_in = H;  layer[1].n = H * H;
   layer[2].w = t.w3; layer[2].fan_in = H;  layer[2].n = H * CLASSES;
   for (k = 0; k < np; ++k) flat[k] = 0.0f;
   for (l = 0; l < 3; ++l) {
      float a = div_rn(1.7320508f, sqrt_rn((float)layer[l].fan_in));   /* sqrt(3/fan_in) */
      int err = dropout_fill_uniform_f32(dropout_key_make(seed, STREAM_INIT), dropout_pos_make(word),
                                         layer[l].w, (size_t)layer[l].n);
      if (err) return err;   /* the layer's weights were not written */
      word += (uint64_t)layer[l].n;
      for (i = 0; i < layer[l].n; ++i)
         layer[l].w[i] = mul_rn(a, sub_rn(mul_rn(2.0f, layer[l].w[i]), 1.0f));
   }
   return DROPOUT_OK;
}

/* FNV-1a over the bytes of the parameters: one number that names the exact weights. */
static inline uint64_t hash_params(const float *p, size_t n)
{
   const uint8_t *b = (const uint8_t *)p;
   uint64_t h = 0xcbf29ce484222325u;
   size_t i;
   for (i = 0; i < n * sizeof(float); ++i) { h ^= b[i]; h *= 0x100000001b3u; }
   return h;
}

static inline double max_abs_diff(const float *a, const float *b, size_t n)
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

/* ------------------------------------------------------------------------------------
   One training step: the dropout plans, then three phases that may each be split between
   workers (threads, ranks) without changing a bit:
     0. mlp_step_plans  each dropout layer's plan for the batch, from the generator;
     1. mlp_step_rows   rows r0..r1 of the batch: forward, loss, backward to the inputs
                        of every layer (row-local);
     2. mlp_step_grads  the weight and bias gradients, each entry summed over the batch;
     3. mlp_step_adam   Adam on a slice of the parameters (elementwise).
   ------------------------------------------------------------------------------------ */

typedef struct Acts {  /* the activations of one batch: B rows, H = Config.hidden */
   float *x;           /* (B, IN) */
   int *y;             /* (B) */
   float *h1, *d1;     /* (B, H): pre-activation, ReLU+dropout output */
   float *h2, *d2;     /* (B, H) */
   float *logits, *dlogits, *losses;   /* (B, CLASSES), (B, CLASSES), (B) */
   float *g2, *g1;     /* (B, H): gradients flowing back into d2/h2 and d1/h1 */
} Acts;

/* The dropout rule of each dropout layer (p realised with the draw width), made once per
   run. Returns 0 or a dropout.h error: a p that the draw width cannot realise is refused
   here, before any training. */
static inline int mlp_dropout_rules(dropout_rule rule[2], const Config *c)
{
   int err = dropout_rule_init(&rule[0], c->p, (dropout_bits)c->bits);
   return err ? err : dropout_rule_init(&rule[1], c->p, (dropout_bits)c->bits);
}

/* Once per step: each dropout layer reserves the B*H positions of its batch from the run's
   generator and gets back the plan that uses them; the layer's forward and backward both
   take that plan, so they cannot disagree. Every thread, rank and device that holds a copy
   of the generator makes the same plans, in the same order. (A step on one thread would
   call dropout_forward_f32 with the generator itself; a step split over rows reserves
   first, then each row range runs its slice with dropout_replay_f32.) */
static inline int mlp_step_plans(dropout_plan plan[2], dropout_gen *gen, const dropout_rule rule[2], int B, int H)
{
   int err = dropout_gen_plan(gen, &rule[0], (uint64_t)B * (uint64_t)H, &plan[0]);
   return err ? err : dropout_gen_plan(gen, &rule[1], (uint64_t)B * (uint64_t)H, &plan[1]);
}

/* Phase 1 for rows r0..r1 of a batch of B samples, sample b being train->x[batch[b]];
   plan[0], plan[1]: the dropout layers' plans for the whole batch (mlp_step_plans). Rows
   r0..r1 use the slice of each plan that starts at element r0*H, so the mask of a row is
   the same whoever computes it. Writes rows r0..r1 of every buffer of a. Returns 0 or a
   dropout.h error. */
static inline int mlp_step_rows(Acts *a, const Config *c, const float *params, const Dataset *train,
                                const int *batch, int B, const dropout_plan plan[2], int r0, int r1)
{
   const int H = c->hidden, rows = r1 - r0;
   Tensors P = tensors_view((float *)params, H);
   float *h1 = a->h1 + r0 * H, *d1 = a->d1 + r0 * H, *g1 = a->g1 + r0 * H;
   float *h2 = a->h2 + r0 * H, *d2 = a->d2 + r0 * H, *g2 = a->g2 + r0 * H;
   const size_t hn = (size_t)(rows * H);
   dropout_plan drop1, drop2;   /* these rows' part of each dropout layer */
   int i, err = dropout_plan_slice(&plan[0], (uint64_t)r0 * (uint64_t)H, hn, &drop1);
   if (!err) err = dropout_plan_slice(&plan[1], (uint64_t)r0 * (uint64_t)H, hn, &drop2);
   if (err) return err;
   for (i = r0; i < r1; ++i) {
      int src = batch[i];
      a->x[2 * i] = train->x[2 * src];
      a->x[2 * i + 1] = train->x[2 * src + 1];
      a->y[i] = train->y[src];
   }
   /* forward: x (rows, IN) -> h1 (rows, H) -> d1 = dropout(relu(h1)) -> h2 (rows, H)
      -> d2 = dropout(relu(h2)) -> logits (rows, CLASSES) -> loss; backward the other way */
   matmul_forward(h1, a->x + r0 * IN, P.w1, P.b1, rows, IN, H);
   relu_forward(d1, h1, hn);
   if ((err = dropout_replay_f32(&drop1, hn, d1, NULL, d1)) != 0) return err;   /* this step's slice, in place, no mask kept */
   matmul_forward(h2, d1, P.w2, P.b2, rows, H, H);
   relu_forward(d2, h2, hn);
   if ((err = dropout_replay_f32(&drop2, hn, d2, NULL, d2)) != 0) return err;
   matmul_forward(a->logits + r0 * CLASSES, d2, P.w3, P.b3, rows, H, CLASSES);
   for (i = r0; i < r1; ++i)
      a->losses[i] = softmax_xent_row(a->dlogits + i * CLASSES, a->logits + i * CLASSES,
                                      a->y[i], CLASSES, (float)B);
   matmul_backward_input(g2, a->dlogits + r0 * CLASSES, P.w3, rows, H, CLASSES);
   /* mask-free backward: the forward's plan rebuilds its mask */
   if ((err = dropout_backward_f32(&drop2, hn, g2, g2)) != 0) return err;
   relu_backward(g2, h2, g2, hn);
   matmul_backward_input(g1, g2, P.w2, rows, H, H);
   if ((err = dropout_backward_f32(&drop1, hn, g1, g1)) != 0) return err;
   relu_backward(g1, h1, g1, hn);
   return 0;
}

/* Phase 2: grads (param_count(H)) = the gradient of samples b0..b1 of the batch, each entry
   summed from zero over those samples, b ascending. Only part `part` of `parts` of every
   weight matrix's rows and of every bias is written (the threads' split: nothing is summed
   across parts). The loss terms were divided by the batch size in phase 1. */
static inline void mlp_step_grads(float *grads, const Acts *a, int H, int b0, int b1, int part, int parts)
{
   const Tensors G = tensors_view(grads, H);
   const int rows = b1 - b0, h0 = slice(H, part, parts), h1 = slice(H, part + 1, parts);
   matmul_backward_weight(G.w3, a->dlogits + b0 * CLASSES, a->d2 + b0 * H, rows, H, CLASSES, h0, h1);
   matmul_backward_weight(G.w2, a->g2 + b0 * H, a->d1 + b0 * H, rows, H, H, h0, h1);
   matmul_backward_weight(G.w1, a->g1 + b0 * H, a->x + b0 * IN, rows, IN, H,
                          slice(IN, part, parts), slice(IN, part + 1, parts));
   bias_backward(G.b3, a->dlogits + b0 * CLASSES, rows, CLASSES,
                 slice(CLASSES, part, parts), slice(CLASSES, part + 1, parts));
   bias_backward(G.b2, a->g2 + b0 * H, rows, H, h0, h1);
   bias_backward(G.b1, a->g1 + b0 * H, rows, H, h0, h1);
}

/* Phase 3: Adam on parameters k0..k1 (params, m, v, grads: param_count(H) each). */
static inline void mlp_step_adam(float *params, float *m, float *v, const float *grads,
                                 size_t k0, size_t k1, AdamStep s)
{
   size_t k;
   for (k = k0; k < k1; ++k) adam_one(&params[k], &m[k], &v[k], grads[k], s);
}

/* ------------------------------------------------------------------------------------
   Inference (no dropout: inverted dropout already scaled the kept units in training).
   ------------------------------------------------------------------------------------ */

enum { EVAL_ROWS = 256 };

/* logits_out (n, CLASSES) for x (n, IN), EVAL_ROWS rows at a time through
   scratch (EVAL_ROWS, 2H). */
static inline void mlp_predict(float *logits_out, float *scratch, const float *params, int H,
                               const float *x, int n)
{
   Tensors t = tensors_view((float *)params, H);
   float *h1 = scratch, *h2 = h1 + EVAL_ROWS * H;
   int at;
   for (at = 0; at < n; at += EVAL_ROWS) {
      int B = n - at < EVAL_ROWS ? n - at : EVAL_ROWS;
      matmul_forward(h1, x + at * IN, t.w1, t.b1, B, IN, H);
      relu_forward(h1, h1, (size_t)(B * H));
      matmul_forward(h2, h1, t.w2, t.b2, B, H, H);
      relu_forward(h2, h2, (size_t)(B * H));
      matmul_forward(logits_out + at * CLASSES, h2, t.w3, t.b3, B, H, CLASSES);
   }
}

/* Mean loss and accuracy over d; logits (d->n, CLASSES) and scratch (EVAL_ROWS, 2H). */
static inline void mlp_evaluate(double *loss, double *acc, float *logits, float *scratch,
                                const float *params, int H, const Dataset *d)
{
   double sum = 0.0;
   int i, correct = 0;
   mlp_predict(logits, scratch, params, H, d->x, d->n);
   for (i = 0; i < d->n; ++i) {
      float dl[CLASSES];
      const float *z = logits + i * CLASSES;
      sum += softmax_xent_row(dl, z, d->y[i], CLASSES, 1.0f);
      correct += (z[1] > z[0]) == (d->y[i] == 1);
   }
   *loss = sum / d->n;
   *acc = (double)correct / d->n;
}

#endif
