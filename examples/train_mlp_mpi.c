/* train_mlp_mpi.c - the demo MLP of train_mlp.c trained data-parallel over Open MPI ranks,
   with final weights that do not depend on the number of ranks.

   make demo-mpi       trains serially and on 1, 2, 3 and 4 ranks, prints one weight hash
                       per run and IDENTICAL when all are equal (examples/demo_mpi.sh)
   mpirun -np R ./build/train_mlp_mpi [options]     one data-parallel run
   ./build/train_mlp_mpi --serial [options]         the same computation in one process
                                                    that never calls MPI

   Same data, seed, initial weights, shuffles, dropout masks and Adam as `make demo`'s
   dropout run: the data, the layers, the step and the optimiser are the model header's
   (mlp_model.h, which train_mlp.c uses too). What is new is how the work and the
   gradient sum are split:

   - Each minibatch is cut into fixed blocks of --block samples (5 by default). Rank r
     takes the contiguous blocks slice(nblocks, r, R) .. slice(nblocks, r + 1, R): uneven
     shards whenever R does not divide the block count, and a rank may get none.
   - Dropout positions come from the sample's place in the minibatch, never from the rank:
     each dropout layer's plan covers the whole batch (mlp_step_plans), and sample b uses
     its elements b*H .. b*H + H - 1, exactly as in train_mlp.c (mlp_step_rows). Every rank
     makes its own generator of the same key and advances it in lockstep, so nobody sends
     plans.
   - The gradient of each block is summed from zero over its samples in order (a block
     partial), all partials are gathered on every rank (MPI_Allgatherv), and every rank adds
     them in block order: P0 + P1 + P2 + ... The float additions are the same whatever R is,
     so the weights are the same bits for every R, and equal to --serial's.
   - --reduce allreduce instead sums each rank's rows into one partial and adds the ranks'
     partials with MPI_Allreduce, as data-parallel frameworks do: cheaper, but the order of
     the additions (and so the weights) changes with R. It is here to be measured against.

   One block per batch (--block 25) is train_mlp.c's own order (one sum over the batch,
   b ascending): --serial --block 25 gives `make demo`'s hash (e950157a793eac0e). So does
   --reduce allreduce on 1 rank.

   A rank that fails stops the job: MPI's default error handler aborts on a failed call,
   mpirun ends the whole job when one process dies, and before printing a hash rank 0 checks
   that every rank holds the same weights. --fail-at R:S makes rank R crash at step S, so the
   test suite can check that a failure ends with a message and a non-zero status, never with
   weights. Build: mpicc -std=c99 -O2 -ffp-contract=off -I. examples/train_mlp_mpi.c; with
   -DTRAIN_MLP_NO_MPI any C compiler builds the --serial half alone. */
#define _POSIX_C_SOURCE 200809L
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "mlp_model.h"   /* the model, its step and its fixed summation order */
#include "mlp_run.h"     /* a run's buffers (the arena), as the demo allocates them */

#include <limits.h>
#include <signal.h>
#ifndef TRAIN_MLP_NO_MPI
#include <mpi.h>
#endif

typedef struct Options {
   Config cfg;
   int block;          /* samples per reduction block */
   int serial;         /* 1: one process, no MPI calls */
   int allreduce;      /* 1: per-rank sums added by MPI_Allreduce (order depends on R) */
   int fail_rank, fail_step;
   const char *save, *compare;
} Options;

typedef struct Ranks { int rank, size, mpi; } Ranks;

/* Stop everything with a message. Under MPI the whole job goes, not only this rank. */
static void die(const Ranks *rk, const char *why)
{
   fprintf(stderr, "train_mlp_mpi: rank %d: %s; stopping the job\n", rk->rank, why);
   fflush(stderr);
#ifndef TRAIN_MLP_NO_MPI
   if (rk->mpi) MPI_Abort(MPI_COMM_WORLD, 3);
#endif
   exit(3);
}

typedef struct Timing { double total, reduce; } Timing;

/* One training run on this rank. blocks: room for the largest batch's block partials. */
static Timing train_data_parallel(Run *r, const Options *o, const Ranks *rk)
{
   const Config *c = &r->cfg;
   const int n = r->train->n, K = o->block;
   const size_t np = r->n_params;
   const int most_blocks = (c->batch + K - 1) / K;
   float *blocks = (float *)malloc((size_t)most_blocks * np * sizeof(float));
   int *counts = (int *)malloc(2 * (size_t)rk->size * sizeof(int));   /* and displacements */
   /* every rank makes its own generator of the same key: they advance in lockstep and
      make the same plans, so nobody sends them */
   dropout_gen gen;
   Timing tm = {0.0, 0.0};
   double t0 = now_seconds();
   int epoch, step = 0, err = dropout_gen_init(&gen, dropout_key_make(c->seed, STREAM_DROPOUT));
   if (err) die(rk, dropout_strerror(err));
   if (!blocks || !counts) die(rk, "out of memory");
   /* MPI counts and displacements are ints: the gather below counts floats, up to all the
      blocks' partials of a batch */
   if ((size_t)most_blocks * np > (size_t)INT_MAX) die(rk, "--hidden and --block: a batch's partials pass 2^31 floats");
   for (epoch = 0; epoch < c->epochs; ++epoch) {
      int at;
      shuffle(r->perm, n, c->seed, epoch);   /* every rank draws the same permutation */
      for (at = 0; at < n; at += c->batch) {
         const int B = n - at < c->batch ? n - at : c->batch, nb = (B + K - 1) / K;
         const int k0 = slice(nb, rk->rank, rk->size), k1 = slice(nb, rk->rank + 1, rk->size);
         const int r0 = k0 * K < B ? k0 * K : B, r1 = k1 * K < B ? k1 * K : B;
         dropout_plan plan[2];   /* the two dropout layers' plans for the whole batch */
         double t1;
         int k, q;
         size_t j;
         if ((err = mlp_step_plans(plan, &gen, r->rule, B, c->hidden)) != DROPOUT_OK) die(rk, dropout_strerror(err));
         ++step;
         if (rk->rank == o->fail_rank && step == o->fail_step) {
            fprintf(stderr, "train_mlp_mpi: rank %d: --fail-at: crashing at step %d\n", rk->rank, step);
            fflush(stderr);
            raise(SIGKILL);   /* a crash: no MPI_Abort, no goodbye; mpirun must notice */
         }
         /* forward, loss and backward to the inputs for this rank's samples */
         if (mlp_step_rows(&r->act, c, r->params, r->train, r->perm + at, B, plan, r0, r1))
            die(rk, "dropout call failed");

         t1 = now_seconds();
         if (!o->allreduce) {
            for (k = k0; k < k1; ++k)
               mlp_step_grads(blocks + (size_t)k * np, &r->act, c->hidden, k * K, (k + 1) * K < B ? (k + 1) * K : B, 0, 1);
#ifndef TRAIN_MLP_NO_MPI
            if (rk->mpi && rk->size > 1) {
               int *displs = counts + rk->size;
               for (q = 0; q < rk->size; ++q) {
                  counts[q] = (slice(nb, q + 1, rk->size) - slice(nb, q, rk->size)) * (int)np;
                  displs[q] = slice(nb, q, rk->size) * (int)np;
               }
               MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, blocks, counts, displs,
                              MPI_FLOAT, MPI_COMM_WORLD);
            }
#endif
            /* the fixed order: P0, then + P1, + P2 ... (starting from P0, not 0 + P0, keeps
               a -0 gradient -0 as train_mlp.c's single sum does) */
            memcpy(r->grads, blocks, np * sizeof(float));
            for (k = 1; k < nb; ++k) {
               const float *pk = blocks + (size_t)k * np;
               for (j = 0; j < np; ++j) r->grads[j] = add_rn(r->grads[j], pk[j]);
            }
         } else {
            mlp_step_grads(r->grads, &r->act, c->hidden, r0, r1, 0, 1);
#ifndef TRAIN_MLP_NO_MPI
            if (rk->mpi && rk->size > 1)
               MPI_Allreduce(MPI_IN_PLACE, r->grads, (int)np, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
#endif
         }
         (void)q;
         tm.reduce += now_seconds() - t1;

         {   /* Adam on every parameter, on every rank: same inputs, same bits */
            AdamStep s = adam_step(c->lr, step);
            for (j = 0; j < np; ++j)
               adam_one(&r->params[j], &r->adam_m[j], &r->adam_v[j], r->grads[j], s);
         }
      }
   }
   tm.total = now_seconds() - t0;
   free(blocks);
   free(counts);
   return tm;
}

static void usage(const char *argv0)
{
   fprintf(stderr,
           "usage: %s [--serial] [--reduce blocks|allreduce] [--block K] [--epochs N]\n"
           "          [--hidden H] [--batch B] [--seed S] [--save FILE] [--compare FILE]\n"
           "          [--fail-at RANK:STEP]\n", argv0);
}

static int parse(Options *o, int argc, char **argv)
{
   int i;
   memset(o, 0, sizeof *o);
   /* train_mlp.c's demo settings: `make demo`'s dropout run */
   o->cfg.hidden = 64; o->cfg.batch = 25; o->cfg.epochs = 300; o->cfg.threads = 1;
   o->cfg.eval_every = 300; o->cfg.p = 0.3; o->cfg.bits = 16; o->cfg.seed = 1; o->cfg.lr = 0.01f;
   o->block = 5;
   o->fail_rank = -1;
   for (i = 1; i < argc; ++i) {
      const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
      if (!strcmp(a, "--serial")) { o->serial = 1; continue; }
      if (!v) return 0;
      ++i;
      if (!strcmp(a, "--reduce")) {
         if (!strcmp(v, "allreduce")) o->allreduce = 1;
         else if (strcmp(v, "blocks")) return 0;
      }
      else if (!strcmp(a, "--block")) o->block = atoi(v);
      else if (!strcmp(a, "--epochs")) o->cfg.epochs = atoi(v);
      else if (!strcmp(a, "--hidden")) o->cfg.hidden = atoi(v);
      else if (!strcmp(a, "--batch")) o->cfg.batch = atoi(v);
      else if (!strcmp(a, "--seed")) { if (!mlp_parse_u64(v, &o->cfg.seed)) return 0; }
      else if (!strcmp(a, "--save")) o->save = v;
      else if (!strcmp(a, "--compare")) o->compare = v;
      else if (!strcmp(a, "--fail-at")) {
         if (sscanf(v, "%d:%d", &o->fail_rank, &o->fail_step) != 2) return 0;
      }
      else return 0;
   }
   o->cfg.eval_every = o->cfg.epochs;
   return o->block >= 1 && o->cfg.epochs >= 1 && o->cfg.hidden >= 1 && o->cfg.hidden <= 4096 &&
          o->cfg.batch >= 1 && o->cfg.batch <= 200;
}

/* rank 0 only: the weights against a file written by --save (max |difference|) */
static void compare_file(const char *path, const float *w, size_t np)
{
   float *ref = (float *)malloc(np * sizeof(float));
   FILE *f = fopen(path, "rb");
   if (!ref || !f || fread(ref, sizeof(float), np, f) != np) {
      printf("  vs %s: cannot read %zu weights\n", path, np);
   } else {
      double d = max_abs_diff(ref, w, np);
      int same = !memcmp(ref, w, np * sizeof(float));
      printf("  vs %s: %016llx, max|diff| %.3g  %s\n", path,
             (unsigned long long)hash_params(ref, np), d, same ? "IDENTICAL" : "DIFFERENT");
   }
   if (f) fclose(f);
   free(ref);
}

int main(int argc, char **argv)
{
   Options o;
   Ranks rk = {0, 1, 0};
   Dataset train, test;
   float xbuf[(200 + 1000) * IN], *logits;
   int ybuf[200 + 1000], q, err;
   Run r;
   Timing tm;
   uint64_t h;
   if (!parse(&o, argc, argv)) { usage(argv[0]); return 2; }
#ifndef TRAIN_MLP_NO_MPI
   if (!o.serial) {
      MPI_Init(&argc, &argv);
      MPI_Comm_rank(MPI_COMM_WORLD, &rk.rank);
      MPI_Comm_size(MPI_COMM_WORLD, &rk.size);
      rk.mpi = 1;
      {   /* every rank must run the same settings: a rank with another seed trains on other
             masks and data order (found only by the final weight check, after training),
             another batch or reduction hangs the collectives, another block or width
             truncates them. Compared here, before any step. */
         unsigned long long mine[6] = {(unsigned long long)o.cfg.seed, (unsigned long long)o.block,
                                       (unsigned long long)o.cfg.batch, (unsigned long long)o.cfg.hidden,
                                       (unsigned long long)o.cfg.epochs, (unsigned long long)o.allreduce}, lo[6], hi[6];
         MPI_Allreduce(mine, lo, 6, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
         MPI_Allreduce(mine, hi, 6, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
         if (memcmp(lo, hi, sizeof lo))
            die(&rk, "ranks were given different --seed, --block, --batch, --hidden, --epochs or --reduce");
      }
   }
#else
   if (!o.serial) { fprintf(stderr, "built without MPI (-DTRAIN_MLP_NO_MPI): use --serial\n"); return 2; }
#endif
   /* the data of `make demo`: every rank generates all of it, from its own seed */
   err = make_spirals(&train, xbuf, ybuf, 200, 0.3f, 42, 0);
   if (!err) err = make_spirals(&test, xbuf + 200 * IN, ybuf + 200, 1000, 0.3f, 42, 1u << 20);
   if (err) die(&rk, dropout_strerror(err));
   run_init(&r, &o.cfg, &train, &test);
   tm = train_data_parallel(&r, &o, &rk);
   h = hash_params(r.params, r.n_params);

#ifndef TRAIN_MLP_NO_MPI
   if (rk.mpi) {   /* every rank must hold the same weights, or nothing is printed */
      unsigned long long mine = (unsigned long long)h, *all;
      double slowest[2], times[2];
      all = (unsigned long long *)malloc((size_t)rk.size * sizeof *all);
      if (!all) die(&rk, "out of memory");
      MPI_Allgather(&mine, 1, MPI_UNSIGNED_LONG_LONG, all, 1, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
      for (q = 0; q < rk.size; ++q)
         if (all[q] != mine) die(&rk, "ranks hold different weights");
      free(all);
      times[0] = tm.total; times[1] = tm.reduce;
      MPI_Reduce(times, slowest, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      tm.total = slowest[0]; tm.reduce = slowest[1];
   }
#endif
   if (rk.rank == 0) {
      double loss, acc;
      int nb = (o.cfg.batch + o.block - 1) / o.block;
      logits = (float *)malloc(1000 * CLASSES * sizeof(float));
      if (!logits) die(&rk, "out of memory");
      evaluate(&r, &test, &loss, &acc, logits);
      char who[32];
      if (o.serial) snprintf(who, sizeof who, "serial (no MPI)");
      else snprintf(who, sizeof who, "%d rank%s", rk.size, rk.size == 1 ? "" : "s");
      printf("train_mlp_mpi: %s, %s, blocks of %d samples, %d epochs, H=%d, p=%.2f\n", who,
             o.allreduce ? "MPI_Allreduce of per-rank sums" : "fixed block order", o.block,
             o.cfg.epochs, o.cfg.hidden, o.cfg.p);
      printf("  samples per rank in a batch of %d:", o.cfg.batch);
      for (q = 0; q < rk.size; ++q) {
         int k0 = slice(nb, q, rk.size), k1 = slice(nb, q + 1, rk.size);
         int hi = k1 * o.block < o.cfg.batch ? k1 * o.block : o.cfg.batch;
         printf(" %d", hi - k0 * o.block);
      }
      printf("\n  held-out accuracy %.1f%%, loss %.4f\n", 100 * acc, loss);
      printf("  %.3f s, %.2f ms per epoch, gradient reduction %.2f ms per epoch (slowest rank)\n",
             tm.total, 1e3 * tm.total / o.cfg.epochs, 1e3 * tm.reduce / o.cfg.epochs);
      if (o.save) {
         FILE *f = fopen(o.save, "wb");
         if (!f || fwrite(r.params, sizeof(float), r.n_params, f) != r.n_params || fclose(f))
            die(&rk, "cannot write --save file");
      }
      if (o.compare) compare_file(o.compare, r.params, r.n_params);
      printf("weights %016llx ranks %d\n", (unsigned long long)h, o.serial ? 0 : rk.size);
      fflush(stdout);
      free(logits);
   }
   run_free(&r);
#ifndef TRAIN_MLP_NO_MPI
   if (rk.mpi) MPI_Finalize();
#endif
   return 0;
}
