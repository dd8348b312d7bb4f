/* train_loop.c - dropout.h in your own training loop, and a checkpoint that resumes it.

   make example      (runs this and examples/basic.c)
   ./build/train_loop [--check] [--ckpt PATH]

   A two-hidden-layer regression network, x (4) -> 32 -> ReLU -> dropout -> 32 -> ReLU
   -> dropout -> 1, trained by plain SGD. What dropout needs from your loop is four
   things, marked DROPOUT below:
     1. one dropout_rule per dropout layer, made once (p and the draw width), and one
        dropout_gen for the run (its key {seed, stream} and next position), made in place;
     2. every step, every dropout layer's forward takes the generator (it reserves fresh
        positions itself, so no step can repeat another's mask) and hands back a
        dropout_plan; the backward of that layer takes that plan: it rebuilds the mask
        from it, nothing is stored;
     3. at evaluation there is no dropout at all (inverted dropout scaled the kept
        activations during training, so inference is the identity);
     4. the checkpoint saves the generator's key, next position and its units (what
        next counts: draws of 16 bits here) next to the weights; the resume hands them
        to dropout_gen_resume, and the masks continue exactly where the interrupted run
        would have been.
   The program trains STEPS steps in one go, then again with a checkpoint written at
   step STEPS/2, everything thrown away, and resumed from the file, and compares the
   weights byte for byte. It also shows what goes wrong when the generator is not saved.
   Optimiser state (momentum, Adam moments) and the data position belong in a
   checkpoint too; plain SGD has none, and the data position here is the step. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#include <stdio.h>
#include <string.h>

enum { IN = 4, H = 32, B = 16, N_TRAIN = 256, N_TEST = 256, STEPS = 400 };
static const double P_DROP = 0.2;   /* dropout probability of both layers */
static const dropout_bits BITS = DROPOUT_BITS_16;   /* p is realised to within 1/65536 */
static const float LR = 0.05f;

typedef struct Model {
   float w1[IN * H], b1[H], w2[H * H], b2[H], w3[H], b3;
} Model;

/* Everything a run needs to continue: the step (it also says where the data is), the
   weights, and the dropout generator. */
typedef struct State {
   long step;
   Model m;
   dropout_gen gen;   /* DROPOUT 1 */
} State;

/* DROPOUT 1: the rule of each dropout layer, made once in main (configuration, so not in
   the checkpoint) */
static dropout_rule rule1, rule2;

static float x_train[N_TRAIN][IN], y_train[N_TRAIN], x_test[N_TEST][IN], y_test[N_TEST];

/* The data: x uniform in [-1, 1)^4, y = x0 x1 + x2 / 2 - x3 (uniforms from dropout.h's raw
   stream, stream 9 of seed 2024, so no other generator is needed). Returns dropout.h's code. */
static int make_data(void)
{
   float u[IN];
   int i, k, err;
   for (i = 0; i < N_TRAIN + N_TEST; ++i) {
      float *x = i < N_TRAIN ? x_train[i] : x_test[i - N_TRAIN];
      float *y = i < N_TRAIN ? &y_train[i] : &y_test[i - N_TRAIN];
      if ((err = dropout_fill_uniform_f32(dropout_key_make(2024, 9), dropout_pos_make((uint64_t)i * IN), u, IN)))
         return err;   /* u was not written */
      for (k = 0; k < IN; ++k) x[k] = 2.0f * u[k] - 1.0f;
      *y = x[0] * x[1] + 0.5f * x[2] - x[3];
   }
   return 0;
}

/* returns dropout.h's code: not 0 leaves s unusable */
static int init(State *s, uint64_t seed)
{
   float u[H * H];
   int i, err;
   memset(s, 0, sizeof *s);
   /* initial weights from another stream of the same seed: uniform in +-sqrt(3/fan_in) */
   const dropout_key init_key = dropout_key_make(seed, 1);
   if ((err = dropout_fill_uniform_f32(init_key, dropout_pos_make(0), u, IN * H))) return err;
   for (i = 0; i < IN * H; ++i) s->m.w1[i] = (2.0f * u[i] - 1.0f) * 0.8660254f;
   if ((err = dropout_fill_uniform_f32(init_key, dropout_pos_make(IN * H), u, H * H))) return err;
   for (i = 0; i < H * H; ++i) s->m.w2[i] = (2.0f * u[i] - 1.0f) * 0.30618622f;
   if ((err = dropout_fill_uniform_f32(init_key, dropout_pos_make(IN * H + H * H), u, H))) return err;
   for (i = 0; i < H; ++i) s->m.w3[i] = (2.0f * u[i] - 1.0f) * 0.30618622f;
   return dropout_gen_init(&s->gen, dropout_key_make(seed, 0));   /* DROPOUT 1: stream 0 of the seed is dropout's */
}

/* out (rows, OC) = relu?(in (rows, C) @ w (C, OC) + b) */
static void linear(float *out, const float *in, const float *w, const float *b, int rows,
                   int C, int OC, int relu)
{
   int r, c, o;
   for (r = 0; r < rows; ++r)
      for (o = 0; o < OC; ++o) {
         float acc = b[o];
         for (c = 0; c < C; ++c) acc += in[r * C + c] * w[c * OC + o];
         out[r * OC + o] = relu && acc < 0.0f ? 0.0f : acc;
      }
}

/* Gradients of linear: dw += in^T dout, db += sum dout, din = dout w^T (din may be NULL). */
static void linear_backward(float *din, float *dw, float *db, const float *dout, const float *in,
                            const float *w, int rows, int C, int OC)
{
   int r, c, o;
   for (r = 0; r < rows; ++r)
      for (o = 0; o < OC; ++o) {
         db[o] += dout[r * OC + o];
         for (c = 0; c < C; ++c) dw[c * OC + o] += in[r * C + c] * dout[r * OC + o];
      }
   if (din)
      for (r = 0; r < rows; ++r)
         for (c = 0; c < C; ++c) {
            float acc = 0.0f;
            for (o = 0; o < OC; ++o) acc += dout[r * OC + o] * w[c * OC + o];
            din[r * C + c] = acc;
         }
}

/* One SGD step on batch number s->step, its mean squared error in *loss_out; returns 0, or
   dropout's error code with the step not taken (the caller stops: the same step again would
   fail again). */
static int train_step(State *s, float *loss_out)
{
   static float x[B][IN], h1[B * H], h2[B * H], out[B], dout[B], dh1[B * H], dh2[B * H];
   static Model g;
   Model *m = &s->m;
   dropout_plan plan1, plan2;
   float loss = 0.0f, *gp = (float *)&g, *mp = (float *)m;
   size_t i, n = sizeof g / sizeof(float);
   int r, j, err;
   for (r = 0; r < B; ++r) {   /* the data position is a function of the step */
      int k = (int)((s->step * B + r) % N_TRAIN);
      memcpy(x[r], x_train[k], sizeof x[r]);
   }
   /* DROPOUT 2: each dropout layer's forward takes B*H fresh positions of the stream from
      the generator and hands back the plan its backward needs */
   linear(h1, &x[0][0], m->w1, m->b1, B, IN, H, 1);
   if ((err = dropout_forward_f32(&s->gen, &rule1, &plan1, B * H, h1, NULL, h1))) return err;   /* g, rule, plan out; n, output, input */
   linear(h2, h1, m->w2, m->b2, B, H, H, 1);
   if ((err = dropout_forward_f32(&s->gen, &rule2, &plan2, B * H, h2, NULL, h2))) return err;
   linear(out, h2, m->w3, &m->b3, B, H, 1, 0);
   for (r = 0; r < B; ++r) {
      int k = (int)((s->step * B + r) % N_TRAIN);
      float e = out[r] - y_train[k];
      loss += e * e / B;
      dout[r] = 2.0f * e / B;
   }

   memset(&g, 0, sizeof g);
   linear_backward(dh2, g.w3, &g.b3, dout, h2, m->w3, B, H, 1);
   /* dropout's backward: the same plan as its forward (dx = dh2 overwritten) */
   if ((err = dropout_backward_f32(&plan2, B * H, dh2, dh2))) return err;
   for (j = 0; j < B * H; ++j) dh2[j] = h2[j] > 0.0f ? dh2[j] : 0.0f;   /* ReLU (dropped: h2 = 0) */
   linear_backward(dh1, g.w2, g.b2, dh2, h1, m->w2, B, H, H);
   if ((err = dropout_backward_f32(&plan1, B * H, dh1, dh1))) return err;
   for (j = 0; j < B * H; ++j) dh1[j] = h1[j] > 0.0f ? dh1[j] : 0.0f;
   linear_backward(NULL, g.w1, g.b1, dh1, &x[0][0], m->w1, B, IN, H);

   for (i = 0; i < n; ++i) mp[i] -= LR * gp[i];   /* Model is all floats: SGD in one loop */
   ++s->step;
   *loss_out = loss;
   return 0;
}

/* steps until s->step is `until`; at dropout's first error it says so and returns it */
static int train_to(State *s, long until)
{
   float loss;
   while (s->step < until) {
      int err = train_step(s, &loss);
      if (err) {
         printf("FAIL train_loop: step %ld: %s\n", s->step, dropout_strerror(err));
         return err;
      }
   }
   return 0;
}

/* DROPOUT 3: evaluation runs the same layers with no dropout call at all. */
static float test_loss(const Model *m)
{
   float h1[H], h2[H], out, loss = 0.0f;
   int i;
   for (i = 0; i < N_TEST; ++i) {
      linear(h1, x_test[i], m->w1, m->b1, 1, IN, H, 1);
      linear(h2, h1, m->w2, m->b2, 1, H, H, 1);
      linear(&out, h2, m->w3, &m->b3, 1, H, 1, 0);
      loss += (out - y_test[i]) * (out - y_test[i]) / N_TEST;
   }
   return loss;
}

/* DROPOUT 4: the checkpoint. A magic number, then the state's fields as raw bytes: the
   file is for this machine and this build (byte order, float format); a portable format
   would write each integer and float in a fixed byte order. */
static const char MAGIC[8] = {'D', 'R', 'O', 'P', 'C', 'K', 'P', '2'};

static int save(const char *path, const State *s)
{
   const int32_t units = (int32_t)s->gen.units;   /* an enum's size is the compiler's: 4 bytes here */
   FILE *f = fopen(path, "wb");
   int ok;
   if (!f) return -1;
   ok = fwrite(MAGIC, sizeof MAGIC, 1, f) == 1 && fwrite(&s->step, sizeof s->step, 1, f) == 1 &&
        fwrite(&s->gen.key.seed, sizeof s->gen.key.seed, 1, f) == 1 &&
        fwrite(&s->gen.key.stream, sizeof s->gen.key.stream, 1, f) == 1 &&
        fwrite(&s->gen.next, sizeof s->gen.next, 1, f) == 1 &&
        fwrite(&units, sizeof units, 1, f) == 1 &&
        fwrite(&s->m, sizeof s->m, 1, f) == 1;
   return fclose(f) == 0 && ok ? 0 : -1;
}

static int load(const char *path, State *s)
{
   char magic[8];
   dropout_key key;
   uint64_t next;
   int32_t units;
   FILE *f = fopen(path, "rb");
   int ok;
   if (!f) return -1;
   ok = fread(magic, sizeof magic, 1, f) == 1 && !memcmp(magic, MAGIC, sizeof MAGIC) &&
        fread(&s->step, sizeof s->step, 1, f) == 1 &&
        fread(&key.seed, sizeof key.seed, 1, f) == 1 &&
        fread(&key.stream, sizeof key.stream, 1, f) == 1 &&
        fread(&next, sizeof next, 1, f) == 1 &&
        fread(&units, sizeof units, 1, f) == 1 &&
        fread(&s->m, sizeof s->m, 1, f) == 1;
   fclose(f);
   /* DROPOUT 4: the generator continues at the saved position, in its new place; units
      says what next counts (a bad value in the file is refused, not guessed) */
   return ok && dropout_gen_resume(&s->gen, key, next, (dropout_units)units) == DROPOUT_OK ? 0 : -1;
}

/* A refused call writes nothing: going on would train on zeros or an unmade generator.
   So each code is looked at; this says which call failed and why. */
static int failed(const char *what, int err)
{
   if (err) printf("FAIL train_loop: %s: %s\n", what, dropout_strerror(err));
   return err != 0;
}

static uint64_t fnv1a(const void *p, size_t n)   /* one number that names the exact weights */
{
   const unsigned char *b = (const unsigned char *)p;
   uint64_t h = 0xcbf29ce484222325u;
   while (n--) { h ^= *b++; h *= 0x100000001b3u; }
   return h;
}

int main(int argc, char **argv)
{
   static State whole, part, resumed, forgot;
   const char *ckpt = "build/train_loop.ckpt";
   int check = 0, i, same, differs;
   for (i = 1; i < argc; ++i) {
      if (!strcmp(argv[i], "--check")) check = 1;
      else if (!strcmp(argv[i], "--ckpt") && i + 1 < argc) ckpt = argv[++i];
      else { fprintf(stderr, "usage: %s [--check] [--ckpt PATH]\n", argv[0]); return 2; }
   }
   if (failed("the data", make_data())) return 1;
   /* DROPOUT 1: the rules; a p that 16-bit draws cannot realise would be refused here */
   if (failed("the rules", dropout_rule_init(&rule1, P_DROP, BITS)) ||
       failed("the rules", dropout_rule_init(&rule2, P_DROP, BITS)))
      return 1;

   /* 1. the unbroken run */
   if (failed("init", init(&whole, 7))) return 1;
   printf("held-out mean squared error (no dropout at evaluation), dropout p = %.1f:\n", P_DROP);
   printf("  step %4ld: %.4f\n", whole.step, (double)test_loss(&whole.m));
   while (whole.step < STEPS) {
      float loss;
      int err = train_step(&whole, &loss);
      if (err) {
         printf("FAIL train_loop: step %ld: %s\n", whole.step, dropout_strerror(err));
         return 1;
      }
      if (whole.step % 100 == 0)
         printf("  step %4ld: %.4f   (last batch, with dropout: %.4f)\n", whole.step,
                (double)test_loss(&whole.m), (double)loss);
   }

   /* 2. the same run, stopped half way, saved, forgotten, and resumed from the file */
   if (failed("init", init(&part, 7))) return 1;
   if (train_to(&part, STEPS / 2)) return 1;
   if (save(ckpt, &part)) { printf("FAIL train_loop: cannot write %s\n", ckpt); return 1; }
   memset(&part, 0xff, sizeof part);   /* nothing of the first half survives in memory */
   if (load(ckpt, &resumed)) { printf("FAIL train_loop: cannot read %s\n", ckpt); return 1; }
   if (train_to(&resumed, STEPS)) return 1;

   /* 3. the classic mistake: weights restored, generator made afresh (position 0), so the
      second half replays the first half's masks */
   if (load(ckpt, &forgot)) return 1;
   if (failed("dropout_gen_init", dropout_gen_init(&forgot.gen, dropout_key_make(7, 0)))) return 1;
   if (train_to(&forgot, STEPS)) return 1;

   same = !memcmp(&whole.m, &resumed.m, sizeof whole.m) && whole.gen.next == resumed.gen.next;
   differs = memcmp(&whole.m, &forgot.m, sizeof whole.m) != 0;
   printf("\nweights after %d steps (FNV-1a of their bits):\n", STEPS);
   printf("  unbroken run                          %016llx\n", (unsigned long long)fnv1a(&whole.m, sizeof whole.m));
   printf("  checkpoint at step %d, resumed       %016llx  %s\n", STEPS / 2,
          (unsigned long long)fnv1a(&resumed.m, sizeof resumed.m), same ? "IDENTICAL" : "DIFFERENT");
   printf("  resumed without saving dropout_gen    %016llx  %s\n",
          (unsigned long long)fnv1a(&forgot.m, sizeof forgot.m), differs ? "DIFFERENT (masks replayed)" : "identical?");
   if (check) {
      printf("%s train_loop: checkpoint at step %d + resume gives bit-identical weights%s\n",
             same ? "PASS" : "FAIL", STEPS / 2, same ? "" : " (it did not)");
      printf("%s train_loop: a resume with a fresh dropout_gen gives different weights%s\n",
             differs ? "PASS" : "FAIL", differs ? "" : " (it did not: the check cannot tell)");
   }
   return same && differs ? 0 : 1;
}
