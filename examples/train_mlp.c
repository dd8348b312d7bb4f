/* train_mlp.c - a small MLP trained with dropout.h, in plain C (llm.c style): the demo.

   make demo        trains on two noisy spirals, with and without dropout, then shows that
                    the result is bit-reproducible (same seed twice, 1 thread vs all threads)
                    and writes pictures to build/demo/
   ./build/train_mlp --quick    a short run of the reproducibility checks only
   ./build/train_mlp --summary  the two trainings and their comparison only (no
                                reproducibility runs, no pictures: a sweep over seeds)

   The network: x (2) -> Linear -> ReLU -> Dropout -> Linear -> ReLU -> Dropout -> Linear (2)
   -> softmax cross-entropy, trained with Adam on a small training set so that it overfits.

   The program is in three files, read in this order:
   - mlp_model.h   the model: data, layers as forward/backward pairs, one training step
                   (dropout plans, then three phases), the fixed summation order that makes the bits the same on
                   every machine (and on the GPU, over MPI and in the browser);
   - mlp_run.h     one training run on CPU threads: the arena (every buffer of a run in one
                   allocation; dropout.h itself never allocates), threads and barriers;
   - this file     main(): the runs, the reproducibility checks, the report and pictures.

   Dropout, the pattern to copy: a dropout_rule per layer made once (mlp_dropout_rules), a
   dropout_plan per layer per step from the run's generator (mlp_step_plans), and the
   layer's forward and backward take the same plan; a thread takes its rows' slice of it.

   The weights after training are the same bits for any thread count, on any machine with
   IEEE floats, and on the GPU (examples/train_mlp_cuda.cu); mlp_model.h says why. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#if defined(_WIN32)   /* MinGW-w64 (its winpthreads gives mlp_run.h's POSIX threads) */
#include <direct.h>   /* _mkdir */
#define train_mkdir(path) _mkdir(path)
/* Windows sets NUMBER_OF_PROCESSORS for every process (windows.h's macros, IN among them,
   would clash with mlp_model.h's names) */
static long train_cpus(void) { const char *n = getenv("NUMBER_OF_PROCESSORS"); return n ? atol(n) : 1; }
#else
#include <unistd.h>
#include <sys/stat.h>
#define train_mkdir(path) mkdir(path, 0777)
static long train_cpus(void) { return sysconf(_SC_NPROCESSORS_ONLN); }
#endif

#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "mlp_model.h"
#include "mlp_run.h"
#include "plot.h"

typedef struct Options {
   Config cfg;
   int n_train, n_test, quick, summary, threads;
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
   int i, ticks = 5;
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
   /* 0 .. 1.5 in steps of 0.3 unless a curve goes higher; round ticks either way */
   c.f = f; c.x0 = 0; c.x1 = plain->cfg.epochs; c.y0 = 0; c.y1 = top <= 1.5 ? 1.5 : svg_round_top(top, 6, &ticks);
   c.px = 70; c.py = 90; c.pw = 620; c.ph = 340;
   svg_axes(&c, "", "epoch", "loss", ticks, 1);
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
   svg_legend(&c, 1, "#d62728", 1, "no dropout, training");
   svg_legend(&c, 2, "#1f77b4", 0, "dropout, held-out");
   svg_legend(&c, 3, "#1f77b4", 1, "dropout, training");
   printf("\nheld-out loss curves (loss.svg's title says this):\n  %s\n  %s\n", line[0], line[1]);
   return svg_close(f);
}

/* Two panels (no dropout | dropout): background = P(class 1) on a grid over the data,
   dots = the training points; a title, a heading with the measured held-out accuracy and
   loss over each panel, both axes labelled (x1 below, x2 on the left), a key below. */
static int picture_boundary(const char *path, Run *plain, Run *drop)
{
   enum { S = 300, GAP = 24, M = 12, YL = 56 /* x2's labels */, TOP = 110, BOTTOM = 80,
          W = 2 * (YL + S) + GAP + 2 * M, H = TOP + S + BOTTOM };
   const uint32_t boundary = 0x808080;   /* mid grey: darker reads as black on 1 pixel */
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
      const int X0 = M + YL + panel * (YL + S + GAP), Y0 = TOP;
      predict(runs[panel], logits, grid, S * S);
      if (panel == 0) snprintf(buf, sizeof buf, "no dropout");
      else snprintf(buf, sizeof buf, "dropout p = %.2f", runs[panel]->cfg.p);
      img_text(&im, X0 + S / 2, 36, buf, 2, panel ? 0x1f77b4 : 0xd62728, 1);
      snprintf(buf, sizeof buf, "held-out accuracy %.1f%%", 100 * cv->test_acc[cv->n - 1]);
      img_text(&im, X0 + S / 2, 62, buf, 2, 0x000000, 1);
      snprintf(buf, sizeof buf, "held-out loss %.3f", cv->test_loss[cv->n - 1]);
      img_text(&im, X0 + S / 2, 84, buf, 2, 0x000000, 1);
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
            if (here != right || here != below) img_rect(&im, X0 + j, Y0 + i, 1, 1, boundary);
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
      img_text(&im, X0, Y0 + S + 6, "-1.6", 2, 0x000000, 0);          /* x1 below */
      img_text(&im, X0 + S, Y0 + S + 6, "1.6", 2, 0x000000, 2);
      img_text(&im, X0 + S / 2, Y0 + S + 6, "x1", 2, 0x000000, 1);
      img_text(&im, X0 - 6, Y0, "1.6", 2, 0x000000, 2);                /* x2 on the left */
      img_text(&im, X0 - 6, Y0 + S - 14, "-1.6", 2, 0x000000, 2);
      img_text(&im, X0 - 6, Y0 + S / 2 - 7, "x2", 2, 0x000000, 2);
   }
   img_text(&im, W / 2, TOP + S + 34, "background: predicted class (orange 0, blue 1)", 2, 0x000000, 1);
   snprintf(buf, sizeof buf, "grey line: the boundary; dots: the %d training points", plain->train->n);
   img_text(&im, W / 2, TOP + S + 56, buf, 2, 0x000000, 1);
   err = png_write(path, W, H, im.rgb);
   free(im.rgb); free(grid); free(logits);
   return err;
}

/* mask (n bits) = the element mask of n positions from position 0 of key, at p (16-bit draws) */
static int element_mask(uint8_t *mask, double p, dropout_key key, size_t n)
{
   dropout_rule rule;
   dropout_plan plan;
   int err = dropout_rule_init(&rule, p, DROPOUT_BITS_16);
   if (!err) err = dropout_plan_at(&plan, &rule, key, dropout_pos_make(0), n);
   return err ? err : dropout_mask(&plan, n, mask);
}

/* mask (rows bits) = a channel mask of a (rows, cols) tensor: one keep decision per row,
   shared along it (broadcast over dim 1), so it draws rows positions. Variants of the
   plain mask go through the descriptor. */
static int channel_mask(uint8_t *mask, double p, dropout_key key, size_t rows, size_t cols)
{
   dropout_rule rule;
   dropout_plan plan;
   dropout_desc desc;
   dropout_tensors t;
   size_t dims[2];
   int err = dropout_rule_init(&rule, p, DROPOUT_BITS_16);
   dims[0] = rows; dims[1] = cols;
   memset(&t, 0, sizeof t);
   t.mask = mask;
   if (!err) err = dropout_plan_at(&plan, &rule, key, dropout_pos_make(0), rows);
   if (!err) err = dropout_desc_init(&desc, DROPOUT_OP_MASK, DROPOUT_DTYPE_F32, &plan);
   if (!err) err = dropout_desc_set_shape(&desc, 2, dims);
   if (!err) err = dropout_desc_set_broadcast(&desc, 1u << 1);
   return err ? err : dropout_run(&desc, &t);
}

/* Dropout masks on a 64 x 64 grid, white = kept: p = 0.1, 0.5, 0.9 element masks, then a
   channel mask (p = 0.5): one decision per row (channel), broadcast along the row. Each
   panel is framed (a mostly white mask on white needs one) and captioned with the kept
   count it shows. */
static int picture_masks(const char *path, uint64_t seed)
{
   enum { N = 64, Z = 3, P = N * Z, GAP = 28, M = 28, TOP = 82, BOTTOM = 36,
          W = 4 * P + 3 * GAP + 2 * M, H = TOP + P + BOTTOM };
   static const double ps[3] = {0.1, 0.5, 0.9};
   uint8_t mask[N * N / 8], chan[N / 8];
   plot_img im;
   char buf[96];
   int panel, i, j, err;
   const dropout_key key = dropout_key_make(seed, STREAM_DROPOUT);
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
      img_rect(&im, X0 - 1, TOP - 1, P + 2, P + 2, 0x808080);   /* the frame, under the mask */
      if (panel < 3) {
         if (element_mask(mask, ps[panel], key, N * N)) { free(im.rgb); return -1; }
      } else {
         if (channel_mask(chan, 0.5, key, N, N)) { free(im.rgb); return -1; }
      }
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
      if (panel < 3) snprintf(buf, sizeof buf, "%d/%d kept", kept_total, N * N);
      else snprintf(buf, sizeof buf, "%d/%d rows kept", kept_total, N);
      img_text(&im, X0 + P / 2, 56, buf, 2, 0x404040, 1);
   }
   img_text(&im, W / 2, TOP + P + 12, "channel mask: one decision per row, broadcast along the row",
            2, 0x000000, 1);
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
   int t, k, ticks;
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
   c.f = f; c.x0 = 0; c.x1 = 6; c.y0 = 0; c.y1 = svg_round_top(top > 0 ? top * 1.05 : 1, 6, &ticks);
   c.px = 70; c.py = 40; c.pw = 620; c.ph = 300;
   svg_axes(&c, "max |weight difference| against run 1 (seed 1, 1 thread), per tensor",
            "weight tensor (W: weights, b: biases; layer 1 takes the input, layer 3 gives the logits)",
            "max |difference|", ticks, 0);
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

/* mkdir -p: each folder of the path in turn, with mkdir(2) (a shell command built from the
   path broke on a quote in it, and ran whatever followed) */
static void make_dir(const char *dir)
{
   char path[512];
   size_t i, n = strlen(dir);
   if (n == 0 || n >= sizeof path) { fprintf(stderr, "warning: could not create %s\n", dir); return; }
   memcpy(path, dir, n + 1);
   for (i = 1; i <= n; ++i) {
      if (path[i] != '/' && path[i] != '\0') continue;
      path[i] = '\0';
      if (train_mkdir(path) != 0 && errno != EEXIST) {
         fprintf(stderr, "warning: could not create %s: %s\n", path, strerror(errno));
         return;
      }
      path[i] = dir[i];
   }
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
   int *ybuf, i, all_ok = 1, rc;
   Run plain, drop, again, threaded, other;
   double t0 = now_seconds();
   long ncpu = train_cpus();
   memset(&o, 0, sizeof o);
   o.cfg.hidden = 64; o.cfg.batch = 25; o.cfg.epochs = 300; o.cfg.threads = 1;
   o.cfg.eval_every = 5; o.cfg.print_every = 20; o.cfg.p = 0.3; o.cfg.bits = 16;
   o.cfg.seed = 1; o.cfg.lr = 0.01f;
   o.n_train = 200; o.n_test = 1000; o.noise = 0.3f; o.out = "build/demo";
   o.threads = ncpu < 2 ? 2 : ncpu > 16 ? 16 : (int)ncpu;
   for (i = 1; i < argc; ++i) {
      const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "0";
      if (!strcmp(a, "--quick")) o.quick = 1;
      else if (!strcmp(a, "--summary")) o.summary = 1;
      else if (!strcmp(a, "--threads")) { o.threads = atoi(v); ++i; }
      else if (!strcmp(a, "--out")) { o.out = v; ++i; }
      else if (!strcmp(a, "--epochs")) { o.cfg.epochs = atoi(v); ++i; }
      else if (!strcmp(a, "--p")) { o.cfg.p = atof(v); ++i; }
      else if (!strcmp(a, "--seed") && mlp_parse_u64(v, &o.cfg.seed)) ++i;
      else {
         fprintf(stderr, "usage: %s [--quick] [--summary] [--threads N] [--out DIR] [--epochs N] [--p P] "
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
   rc = make_spirals(&train, xbuf, ybuf, o.n_train, o.noise, 42, 0);
   if (!rc) rc = make_spirals(&test, xbuf + o.n_train * IN, ybuf + o.n_train, o.n_test, o.noise, 42, 1u << 20);
   if (rc) { fprintf(stderr, "the data: %s\n", dropout_strerror(rc)); return 1; }
   printf("two noisy spirals: %d training points, %d held-out points\n", o.n_train, o.n_test);
   if (o.cfg.print_every)
      printf("each epoch line: batch loss = the mean loss of the epoch's minibatches as they were\n"
             "trained (dropout on, weights moving); training-set and held-out = loss and accuracy\n"
             "on the whole set after the epoch (no dropout)\n");
   printf("\n");

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
      /* the verb says which way, so the amounts are magnitudes (a gain keeps its "+"): a
         seed where dropout hurt read "LOWERS ... by -13.5 points" */
      double gain = 100 * (b->test_acc[E] - a->test_acc[E]), cut = 100 * (1 - b->test_loss[E] / a->test_loss[E]);
      printf("  dropout %s held-out accuracy by %s%.1f points and %s held-out loss by %.0f%%\n\n",
             gain >= 0 ? "raises" : "LOWERS", gain >= 0 ? "+" : "", gain >= 0 ? gain : -gain,
             cut >= 0 ? "cuts" : "RAISES", cut >= 0 ? cut : -cut);
   }

   if (o.summary) {   /* a sweep over seeds needs this much (tests/docs/suite.sh: seeds 2 to 5) */
      all_ok = !plain.failed && !drop.failed;
      run_free(&plain); run_free(&drop);
      free(xbuf); free(ybuf);
      return all_ok ? 0 : 1;
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
   if (plain.failed || drop.failed || again.failed || threaded.failed || other.failed) {
      printf("  a dropout.h call returned an error (see --p)\n");
      all_ok = 0;
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
