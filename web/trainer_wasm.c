/* trainer_wasm.c - the demo trainer of `make demo` (examples/mlp_model.h), built for
   wasm32 with no libc, one epoch per call so that the page can draw between epochs.

   The settings are the demo's (examples/train_mlp.c): two spirals, 200 training and 1000
   held-out points (data seed 42, noise 0.3), H = 64, batches of 25, Adam lr 0.01, seed 1,
   16-bit draws; run 0 without dropout, run 1 with p = 0.3. The steps are the demo's
   single-thread steps: the same header functions in the same order, so the weights after
   300 epochs are the same bits, and hash to what `make demo` prints (e950157a793eac0e for
   the dropout run). Everything lives in static arrays; web/trainer.js reads the results
   through the module's memory. */
#define DROPOUT_IMPLEMENTATION
#include "examples/mlp_model.h"
#include "wasm_libc.h"

#define TW_EXPORT(name) __attribute__((export_name(name)))

enum { TW_H = 64, TW_B = 25, TW_TRAIN = 200, TW_TEST = 1000, TW_GRID_MAX = 160,
       TW_NP = IN * TW_H + TW_H + TW_H * TW_H + TW_H + TW_H * CLASSES + CLASSES };

static float tw_x[(TW_TRAIN + TW_TEST) * IN];
static int tw_y[TW_TRAIN + TW_TEST];
static Dataset tw_train, tw_test;

typedef struct TwRun {
   Config cfg;
   dropout_rule rule[2];   /* the two dropout layers' rules, made once */
   dropout_gen gen;
   int epoch, step;
   float params[TW_NP], grads[TW_NP], m[TW_NP], v[TW_NP];
   float x[TW_B * IN], h1[TW_B * TW_H], d1[TW_B * TW_H], h2[TW_B * TW_H], d2[TW_B * TW_H];
   float logits[TW_B * CLASSES], dlogits[TW_B * CLASSES], losses[TW_B];
   float g1[TW_B * TW_H], g2[TW_B * TW_H];
   int y[TW_B], perm[TW_TRAIN];
   Acts act;
} TwRun;
static TwRun tw_runs[2];

static float tw_scratch[EVAL_ROWS * 2 * TW_H];
static float tw_logits[TW_GRID_MAX * TW_GRID_MAX * CLASSES];   /* also the evaluations' */
static float tw_grid[TW_GRID_MAX * TW_GRID_MAX * IN];
static double tw_out[8];
static uint32_t tw_hash[2];

TW_EXPORT("tw_out") double *tw_out_ptr(void) { return tw_out; }
TW_EXPORT("tw_hash") uint32_t *tw_hash_ptr(void) { return tw_hash; }
TW_EXPORT("tw_logits") float *tw_logits_ptr(void) { return tw_logits; }
TW_EXPORT("tw_train_x") float *tw_train_x(void) { return tw_train.x; }
TW_EXPORT("tw_train_y") int *tw_train_y(void) { return tw_train.y; }
TW_EXPORT("tw_train_n") int tw_train_n(void) { return tw_train.n; }

/* Start run `which` (0: no dropout, 1: dropout p) afresh; epochs = 0. */
TW_EXPORT("tw_init") int tw_init(int which, double p, int bits, uint64_t seed)
{
   TwRun *r;
   int err;
   if (which < 0 || which > 1) return DROPOUT_ERR_ARG;
   /* the data has its own seed: both runs see the same points (as in the demo) */
   err = make_spirals(&tw_train, tw_x, tw_y, TW_TRAIN, 0.3f, 42, 0);
   if (!err) err = make_spirals(&tw_test, tw_x + TW_TRAIN * IN, tw_y + TW_TRAIN, TW_TEST, 0.3f, 42, 1u << 20);
   if (err) return err;
   r = &tw_runs[which];
   memset(r, 0, sizeof *r);
   r->cfg.hidden = TW_H; r->cfg.batch = TW_B; r->cfg.threads = 1;
   r->cfg.p = p; r->cfg.bits = bits; r->cfg.seed = seed; r->cfg.lr = 0.01f;
   err = mlp_dropout_rules(r->rule, &r->cfg);   /* refuses a p the width cannot realise */
   if (err) return err;
   err = dropout_gen_init(&r->gen, dropout_key_make(seed, STREAM_DROPOUT));
   if (err) return err;
   r->act.x = r->x; r->act.y = r->y;
   r->act.h1 = r->h1; r->act.d1 = r->d1; r->act.h2 = r->h2; r->act.d2 = r->d2;
   r->act.logits = r->logits; r->act.dlogits = r->dlogits; r->act.losses = r->losses;
   r->act.g1 = r->g1; r->act.g2 = r->g2;
   return init_params(r->params, TW_H, seed);
}

/* One epoch of run `which`, as the demo's train_worker does it with one thread.
   tw_out[0] = the epoch's mean batch loss. Returns the epochs done, or an error < 0. */
TW_EXPORT("tw_epoch") int tw_epoch(int which)
{
   TwRun *r = &tw_runs[which & 1];
   const Config *c = &r->cfg;
   const int n = tw_train.n;
   double epoch_loss = 0.0;
   int at, i;
   shuffle(r->perm, n, c->seed, r->epoch);
   for (at = 0; at < n; at += c->batch) {
      const int B = n - at < c->batch ? n - at : c->batch;
      dropout_plan plan[2];   /* each dropout layer's B*H positions of this step */
      int err = mlp_step_plans(plan, &r->gen, r->rule, B, TW_H);
      if (!err) err = mlp_step_rows(&r->act, c, r->params, &tw_train, r->perm + at, B, plan, 0, B);
      if (err) return err;
      mlp_step_grads(r->grads, &r->act, TW_H, 0, B, 0, 1);
      for (i = 0; i < B; ++i) epoch_loss += r->act.losses[i];
      mlp_step_adam(r->params, r->m, r->v, r->grads, 0, TW_NP, adam_step(c->lr, ++r->step));
   }
   tw_out[0] = epoch_loss / n;
   return ++r->epoch;
}

/* tw_out[0..3] = training loss, training accuracy, held-out loss, held-out accuracy. */
TW_EXPORT("tw_eval") void tw_eval(int which)
{
   TwRun *r = &tw_runs[which & 1];
   mlp_evaluate(&tw_out[0], &tw_out[1], tw_logits, tw_scratch, r->params, TW_H, &tw_train);
   mlp_evaluate(&tw_out[2], &tw_out[3], tw_logits, tw_scratch, r->params, TW_H, &tw_test);
}

/* tw_logits = the logits on an s x s grid over [lo, lo + span]^2, row 0 at the top. */
TW_EXPORT("tw_grid") int tw_grid_logits(int which, int s, float lo, float span)
{
   TwRun *r = &tw_runs[which & 1];
   int i, j;
   if (s < 2 || s > TW_GRID_MAX) return DROPOUT_ERR_ARG;
   for (i = 0; i < s; ++i)
      for (j = 0; j < s; ++j) {
         tw_grid[2 * (i * s + j)] = lo + span * ((float)j + 0.5f) / (float)s;
         tw_grid[2 * (i * s + j) + 1] = lo + span * ((float)(s - 1 - i) + 0.5f) / (float)s;
      }
   mlp_predict(tw_logits, tw_scratch, r->params, TW_H, tw_grid, s * s);
   return 0;
}

/* tw_hash = FNV-1a 64 of the weights' bytes (lo, hi), the demo's hash_params */
TW_EXPORT("tw_hash_params") void tw_hash_params(int which)
{
   uint64_t h = hash_params(tw_runs[which & 1].params, TW_NP);
   tw_hash[0] = (uint32_t)h;
   tw_hash[1] = (uint32_t)(h >> 32);
}
