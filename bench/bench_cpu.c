/* bench_cpu.c - how close dropout.h's CPU paths come to the memory wall (`make bench`).

   Not a test: speeds are printed and saved, never asserted. One run measures, for
   2^24 f32 elements (out of cache) and 2^16 (in cache), on one thread and on all:
      wall      y[i] = x[i] * s over the same arrays: the memory wall, the baseline
      wall NT   the same loop with streaming stores (x86): no read-for-ownership of y, so
                8 instead of 12 bytes of traffic an element; the library streams its
                large outputs too (DROPOUT_STREAM_STORE_BYTES), so this is the fair wall
      forward   with and without the bit mask, in 8-, 16- and 32-bit modes
      backward  mask-free (rebuilds the mask) and from the stored mask
      stream    dropout_fill_u32, against Random123's philox4x32 in the plainest loop (which
                compilers vectorise) and cuRAND's host generator (libcurand, where the CUDA
                toolkit is; no GPU needed), all at the same flags
      torch     F.dropout on the same size, in a python3 process (bench/torch_dropout.py),
                in place and out of place, the faster counted
   Then, on one thread: where the time goes in cache (ns per 64 elements: the Philox blocks
   a mode needs, the keep bits, the data), and the streaming-store threshold: forward with
   streaming stores against plain stores from 2^14 to 2^24 elements, alone and followed by
   a read of y (what the next layer does), to choose DROPOUT_STREAM_STORE_BYTES; and the
   overlap table: in L2, each call against max(wall, Philox alone), f32 and bf16.
   Each figure is the best of N repetitions, each case interleaved with the wall. GB/s counts the bytes really moved
   (x read + y written, + n/8 for a mask; 4 bytes a word for the streams).
   usage: bench_cpu [results.md]      bench_cpu --path   prints the SIMD path's name
          bench_cpu --cycles [file.md]   the where-the-time-goes table alone, appended
          bench_cpu --overlap [file.md]  the overlap tables alone, in L2 and out of cache (issue 22),
                                         appended */
#define _POSIX_C_SOURCE 200809L
#define DROPOUT_V0_API   /* written against the 0.1.0 calls */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define HAVE_NT 1
#endif
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__has_include)
#if __has_include(<Random123/philox.h>)
#include <Random123/philox.h>
#define HAVE_R123 1
#endif
#endif
#ifdef HAVE_CURAND   /* the Makefile defines it where the CUDA toolkit's libcurand is */
#include <curand.h>
static curandGenerator_t curand_gen[64];
#endif

/* bench/stream_variant.c, compiled with the threshold at 0 (nt) and SIZE_MAX (cached) */
int variant_forward_nt(float *y, uint8_t *mask, const float *x, size_t n, int bits);
int variant_forward_cached(float *y, uint8_t *mask, const float *x, size_t n, int bits);

#ifndef BENCH_FLAGS
#define BENCH_FLAGS "?"
#endif

static double now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static float *x, *y;
static uint8_t *mask;
static uint32_t *words;
static size_t n;
static int threads, use_nt;   /* use_nt: time the streaming-store wall too (out of cache only) */
static volatile uint32_t sink;

enum { K_WALL, K_WALL_NT, K_FWD, K_FWD_MASK, K_BWD, K_BWD_MASK, K_STREAM, K_R123, K_CURAND };
typedef struct { int kind, bits; } job;

/* Elements a thread: about n / threads, rounded up to 64 (whole mask bytes and keep words,
   so no two threads write one mask byte); each chunk is a call at its own position. */
static size_t chunk_elems(size_t count, int nthreads)
{
   size_t t = nthreads > 1 ? (size_t)nthreads : 1u;
   size_t per = (count + t - 1) / t;
   return per == 0 ? 64u : (per + 63u) / 64u * 64u;
}

static void run_job(job j)
{
   size_t per = chunk_elems(n, threads);
   long c, chunks = (long)((n + per - 1) / per);
   const float s = 1.1111112f;
#ifdef _OPENMP
#pragma omp parallel for num_threads(threads) schedule(static)
#endif
   for (c = 0; c < chunks; ++c) {
      size_t at = (size_t)c * per, m = n - at < per ? n - at : per, i;
      switch (j.kind) {
      case K_WALL: for (i = at; i < at + m; ++i) y[i] = x[i] * s; break;
      case K_WALL_NT:
#ifdef HAVE_NT
      {   /* y + at is 16-byte aligned: malloc's alignment, chunks multiples of 64 */
         __m128 v = _mm_set1_ps(s);
         for (i = at; i + 4 <= at + m; i += 4) _mm_stream_ps(y + i, _mm_mul_ps(_mm_loadu_ps(x + i), v));
         for (; i < at + m; ++i) y[i] = x[i] * s;
         _mm_sfence();
      }
#endif
      break;
      case K_FWD: dropout_v0_forward_f32(y + at, NULL, x + at, m, 0.1, j.bits, 42, 7, at); break;
      case K_FWD_MASK: dropout_v0_forward_f32(y + at, mask + at / 8, x + at, m, 0.1, j.bits, 42, 7, at); break;
      case K_BWD: dropout_v0_backward_f32(y + at, x + at, m, 0.1, j.bits, 42, 7, at); break;
      case K_BWD_MASK: dropout_backward_mask_f32(y + at, x + at, mask + at / 8, m, 0.1, j.bits); break;
      case K_STREAM: dropout_v0_fill_u32(words + at, m, 42, 7, at); break;
      case K_R123:
#ifdef HAVE_R123
      {  /* the plainest loop, which compilers vectorise: ctr = {block, 0, stream, 0} is the
            library's stream while the block fits 32 bits (n <= 2^34 words), four stores */
         philox4x32_key_t k = {{42u, 0u}};
         uint32_t b, b0 = (uint32_t)(at / 4), b1 = (uint32_t)((at + m) / 4);   /* m: a multiple of 4 */
         for (b = b0; b < b1; ++b) {
            philox4x32_ctr_t ctr = {{b, 0u, 7u, 0u}};
            philox4x32_ctr_t r = philox4x32(ctr, k);
            words[4 * (size_t)b] = r.v[0];
            words[4 * (size_t)b + 1] = r.v[1];
            words[4 * (size_t)b + 2] = r.v[2];
            words[4 * (size_t)b + 3] = r.v[3];
         }
      }
#endif
      break;
      case K_CURAND:
#ifdef HAVE_CURAND
         /* cuRAND's host generator (libcurand, no GPU): its own layout of the same Philox
            (65536 subsequences interleaved), so a speed peer, not a bit peer; one generator
            per chunk, made outside the timing */
         curandGenerate(curand_gen[c % 64], words + at, m);
#endif
      break;
      }
   }
}

static double time_job(job j)
{
   double t0 = now();
   run_job(j);
   return now() - t0;
}

/* The machine is shared and noisy: a case and the two walls run in alternation (wall,
   wall NT, case, ...), and each is the best of its reps, so all see the same quiet and
   busy moments. wall_rate[0..1] get the walls' best from these same rounds. */
static double best_rate(job j, int reps, double *wall_rate)
{
   job w = {K_WALL, 0}, wn = {K_WALL_NT, 0};
   double best = 1e30, wbest = 1e30, nbest = 1e30, t;
   int r;
   run_job(w);
   run_job(j);   /* warm up: pages touched, caches filled */
   for (r = 0; r < reps; ++r) {
      if ((t = time_job(w)) < wbest) wbest = t;
      /* in cache it would evict y and x between the rounds of the others */
      if (use_nt && (t = time_job(wn)) < nbest) nbest = t;
      if ((t = time_job(j)) < best) best = t;
   }
   sink = words[1] ^ (uint32_t)y[3];
   if (wall_rate) { wall_rate[0] = (double)n / wbest; wall_rate[1] = (double)n / nbest; }
   return (double)n / best;
}

static char torch_way[32] = "?";
static double torch_rate(size_t nn, int th, int reps, char *version, size_t vlen)
{
   const char *py[2] = {"/usr/bin/python3", "python3"};
   int k;
   for (k = 0; k < 2; ++k) {
      char cmd[512], line[256];
      FILE *f;
      double rate = 0;
      snprintf(cmd, sizeof cmd, "%s bench/torch_dropout.py %zu %d %d 2>/dev/null", py[k], nn, th, reps);
      f = popen(cmd, "r");
      if (!f) continue;
      line[0] = 0;
      if (!fgets(line, sizeof line, f)) line[0] = 0;
      pclose(f);
      if (sscanf(line, "elements_per_s %lf torch %63s %31s", &rate, version, torch_way) >= 2 && rate > 0) return rate;
      (void)vlen;
   }
   return 0;
}

static FILE *md;
static int cycles_only;   /* --cycles: the where-the-time-goes table alone */
static int overlap_only;  /* --overlap: the overlap table alone */
/* print to the terminal and to the results file, whatever the length */
static void out(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   vprintf(fmt, ap);
   va_end(ap);
   if (md) {
      va_start(ap, fmt);
      vfprintf(md, fmt, ap);
      va_end(ap);
   }
}

/* Best time of `reps` calls of what the block does, in seconds (one thread, in cache). */
#define BEST_OF(reps, best, ...)                          \
   do {                                                   \
      int r_;                                             \
      best = 1e30;                                        \
      for (r_ = 0; r_ < (reps); ++r_) {                   \
         double t0_ = now(), t_;                          \
         __VA_ARGS__;                                     \
         if ((t_ = now() - t0_) < best) best = t_;        \
      }                                                   \
   } while (0)

/* Where the time goes, one thread, 2^14 elements in cache: the Philox blocks a mode needs
   (dropout_fill_u32 of the same words), the keep bits alone (dropout_mask), forward
   without and with the mask, the mask-free backward, and the data alone (backward from a
   stored mask). ns per 64 elements; the mode's Philox words are 64 * bits / 32. */
static void cycles_table(void)
{
   const size_t m = (size_t)1 << 14;
   static const int modes[3] = {8, 16, 32};
   int b;
   double t;
   if (!cycles_only) out("## Where the time goes: 2^14 f32 in cache, 1 thread, ns per 64 elements\n\n");
   out("| draw bits | Philox words (fill_u32) | keep bits (mask) | forward | forward +mask | backward mask-free | data alone (backward from mask) | Philox share of forward +mask |\n");
   out("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
   for (b = 0; b < 3; ++b) {
      int bits = modes[b];
      size_t words_needed = m * (size_t)bits / 32u;
      double per = 64.0 / (double)m * 1e9, tf, tk, tw, tm, tb, td;
      BEST_OF(300, tf, dropout_v0_fill_u32(words, words_needed, 42, 7, 0));
      BEST_OF(300, tk, dropout_v0_mask(mask, m, 0.1, bits, 42, 7, 0));
      BEST_OF(300, tw, dropout_v0_forward_f32(y, NULL, x, m, 0.1, bits, 42, 7, 0));
      BEST_OF(300, tm, dropout_v0_forward_f32(y, mask, x, m, 0.1, bits, 42, 7, 0));
      BEST_OF(300, tb, dropout_v0_backward_f32(y, x, m, 0.1, bits, 42, 7, 0));
      BEST_OF(300, td, dropout_backward_mask_f32(y, x, mask, m, 0.1, bits));
      out("| %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.0f%% |\n", bits, tf * per, tk * per, tw * per, tm * per,
          tb * per, td * per, 100.0 * tf / tm);
   }
   BEST_OF(300, t, { size_t i; for (i = 0; i < m; ++i) y[i] = x[i] * 1.1111112f; });
   out("\nThe wall y = x*s on the same 2^14 elements: %.2f ns per 64.\n\n", t * 64.0 / (double)m * 1e9);
   sink ^= (uint32_t)y[5];
}

/* The overlap table (issue 22): in L2, one thread, ns per 64 elements, for 2^14, 2^16 and
   2^17 elements of f32 and of bf16: the plain wall y = x*s (bf16: widened, scaled, rounded
   back to nearest even, which is what the library's bf16 path does for a kept element),
   Philox alone for the words the call needs (dropout_fill_u32 of n/4, n/2 or n words for
   8-, 16- or 32-bit draws), forward with the mask, the mask-free backward, and the mask
   alone; then each call over max(wall, Philox alone): 1.00 would hide the smaller half
   behind the larger one completely. All cases of one row run in alternation, round by
   round, and each keeps its best, so they see the same quiet and busy moments. */
static uint16_t *xb, *yb;
/* the table's buffers, from malloc at each size (as a program's tensors are): slices of
   the 64 MiB buffers sit at one offset in their 2 MiB pages, and how x, y and the words
   then share cache sets and 4 KiB offsets moved the overlapped calls by up to 40% */
static float *ox, *oy;
static uint16_t *oxb, *oyb;
static uint8_t *omask;
static uint32_t *owords;
enum { O_WALL, O_PHILOX, O_FWD, O_BWD, O_MASK, O_COUNT };
static void overlap_case(int c, int bf16, size_t m, int bits)
{
   size_t i;
   const float s = 1.1111112f;
   switch (c) {
   case O_WALL:
      if (!bf16) { for (i = 0; i < m; ++i) oy[i] = ox[i] * s; break; }
      for (i = 0; i < m; ++i) {
         uint32_t u = (uint32_t)oxb[i] << 16, r;
         float f;
         memcpy(&f, &u, 4);
         f *= s;
         memcpy(&u, &f, 4);
         r = u + 0x7fffu + ((u >> 16) & 1u);
         oyb[i] = (uint16_t)(r >> 16);
      }
      break;
   case O_PHILOX: dropout_v0_fill_u32(owords, m * (size_t)bits / 32u, 42, 7, 0); break;
   case O_FWD:
      if (bf16) dropout_v0_forward_bf16(oyb, omask, oxb, m, 0.1, bits, 42, 7, 0);
      else dropout_v0_forward_f32(oy, omask, ox, m, 0.1, bits, 42, 7, 0);
      break;
   case O_BWD:
      if (bf16) dropout_v0_backward_bf16(oyb, oxb, m, 0.1, bits, 42, 7, 0);
      else dropout_v0_backward_f32(oy, ox, m, 0.1, bits, 42, 7, 0);
      break;
   case O_MASK: dropout_v0_mask(omask, m, 0.1, bits, 42, 7, 0); break;
   }
}

static void overlap_table(void)
{
   static const int modes[3] = {8, 16, 32}, lgs[3] = {14, 16, 17};
   int bf16, li, b, c, r;
   out("## Overlap in L2: 1 thread, ns per 64 elements, and call / max(wall, Philox alone)\n\n");
   out("Wall: y = x*s on the same buffers (bf16: widened, scaled, rounded back). Philox alone:\n"
       "dropout_fill_u32 of the words the call needs (n/4, n/2, n for 8-, 16-, 32-bit draws).\n"
       "Forward writes y and the bit mask; backward is mask-free (it rebuilds the keep bits);\n"
       "mask writes the bit mask alone. x, y, the mask and the words are malloc'd at each size.\n"
       "The cases of a row run in alternation, best of %d each.\n"
       "Measured: the %s path of this build, on the CPU named above; no other path, CPU\n"
       "or device is measured by this table.\n\n", 200, DROPOUT__SIMD_NAME);
   out("| type | n | draw bits | wall | Philox alone | forward +mask | backward | mask | forward / max | backward / max | mask / max |\n");
   out("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
   for (bf16 = 0; bf16 < 2; ++bf16)
      for (li = 0; li < 3; ++li) {
         size_t m = (size_t)1 << lgs[li];
         ox = (float *)malloc(m * 4); oy = (float *)malloc(m * 4);
         oxb = (uint16_t *)malloc(m * 2); oyb = (uint16_t *)malloc(m * 2);
         omask = (uint8_t *)malloc(m / 8); owords = (uint32_t *)malloc(m * 4);
         if (!ox || !oy || !oxb || !oyb || !omask || !owords) { fprintf(stderr, "out of memory\n"); exit(1); }
         memcpy(ox, x, m * 4);
         memcpy(oxb, xb, m * 2);
         for (b = 0; b < 3; ++b) {
            double best[O_COUNT], per = 64.0 / (double)m * 1e9, mx;
            for (c = 0; c < O_COUNT; ++c) { best[c] = 1e30; overlap_case(c, bf16, m, modes[b]); }
            for (r = 0; r < 200; ++r)
               for (c = 0; c < O_COUNT; ++c) {
                  double t0 = now(), t;
                  overlap_case(c, bf16, m, modes[b]);
                  if ((t = now() - t0) < best[c]) best[c] = t;
               }
            mx = best[O_WALL] > best[O_PHILOX] ? best[O_WALL] : best[O_PHILOX];
            out("| %s | 2^%d | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", bf16 ? "bf16" : "f32",
                lgs[li], modes[b], best[O_WALL] * per, best[O_PHILOX] * per, best[O_FWD] * per, best[O_BWD] * per,
                best[O_MASK] * per, best[O_FWD] / mx, best[O_BWD] / mx, best[O_MASK] / mx);
         }
         sink ^= (uint32_t)oy[7] ^ oyb[7] ^ omask[3];
         free(ox); free(oy); free(oxb); free(oyb); free(omask); free(owords);
      }
   out("\nGoal (issue 22): every ratio at most 1.15.\n\n");
}

/* The same out of cache (issue 22's second goal): 2^24 f32, one thread, the streaming-store
   wall (the library streams outputs this large), Philox alone at its in-cache speed (fill_u32
   into a 2^14-word buffer, per word, times the words the call needs: the arithmetic with no
   memory wall under it), forward with the mask, the mask-free backward; each call over the
   NT wall, and over max(NT wall, Philox alone). Best of 9, the cases in alternation. */
static void overlap_dram_table(void)
{
   static const int modes[3] = {8, 16, 32};
   const size_t m = (size_t)1 << 24, small = (size_t)1 << 14;
   job wn = {K_WALL_NT, 0}, fw = {K_FWD_MASK, 0}, bw = {K_BWD, 0};
   int b, r;
   out("## Overlap out of cache: 2^24 f32, 1 thread, ns per 64 elements\n\n");
   out("Wall NT: y = x*s with streaming stores. Philox alone: dropout_fill_u32 into a 2^14-word\n"
       "buffer (in L1/L2), per word, times the words the call needs. Best of 9, in alternation.\n"
       "Measured: the %s path of this build, on the CPU named above.\n\n", DROPOUT__SIMD_NAME);
#ifndef HAVE_NT
   out("SKIP: no streaming stores on this target\n\n");
   (void)modes; (void)m; (void)small; (void)wn; (void)fw; (void)bw; (void)b; (void)r;
#else
   out("| draw bits | wall NT | Philox alone | forward +mask | backward | forward / wall NT | forward / max | backward / max |\n");
   out("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
   threads = 1;
   n = m;
   for (b = 0; b < 3; ++b) {
      double tw = 1e30, tp = 1e30, tf = 1e30, tb = 1e30, t, per = 64.0 / (double)m * 1e9, ph, mx;
      size_t need = m * (size_t)modes[b] / 32u;
      fw.bits = bw.bits = modes[b];
      run_job(fw);
      for (r = 0; r < 9; ++r) {
         double t0 = now();
         dropout_v0_fill_u32(words, small, 42, 7, 0);
         if ((t = now() - t0) < tp) tp = t;
         if ((t = time_job(wn)) < tw) tw = t;
         if ((t = time_job(fw)) < tf) tf = t;
         if ((t = time_job(bw)) < tb) tb = t;
      }
      ph = tp * (double)need / (double)small;
      mx = tw > ph ? tw : ph;
      out("| %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", modes[b], tw * per, ph * per, tf * per, tb * per,
          tf / tw, tf / mx, tb / mx);
   }
   out("\nGoals (issue 22): 8-bit forward / wall NT at most 1.05 (0.95x the wall's speed); 32-bit\n"
       "forward / max at most 1.15.\n\n");
   sink ^= (uint32_t)y[11] ^ mask[5];
#endif
}

/* Streaming stores against plain ones, by size: the library's forward (8-bit, mask) built
   with the threshold at 0 and at SIZE_MAX, in alternation, alone and followed by a sum over
   y, which is what the next layer does (streamed stores leave y out of the caches). */
static void threshold_table(void)
{
   int lg;
   out("## Streaming-store threshold: forward 8-bit +mask, 1 thread, streaming / plain stores (time ratio < 1: streaming faster)\n\n");
   out("| n | output bytes | forward alone | forward, then a read of y |\n|---:|---:|---:|---:|\n");
   for (lg = 14; lg <= 24; lg += 1) {
      size_t m = (size_t)1 << lg, i;
      int reps = lg < 20 ? 200 : 15, r, v;
      double best[2][2] = {{1e30, 1e30}, {1e30, 1e30}};
      uint64_t acc = 0;
      for (r = 0; r < reps; ++r)
         for (v = 0; v < 2; ++v) {
            double t0 = now(), t1;
            if (v == 0) variant_forward_nt(y, mask, x, m, 8); else variant_forward_cached(y, mask, x, m, 8);
            t1 = now();
            for (i = 0; i < m * 4; i += 8) {   /* a read at full speed: 64-bit xors, vectorised */
               uint64_t w;
               memcpy(&w, (const char *)y + i, 8);
               acc ^= w;
            }
            if (t1 - t0 < best[v][0]) best[v][0] = t1 - t0;
            if (now() - t0 < best[v][1]) best[v][1] = now() - t0;
         }
      sink ^= (uint32_t)acc;
      out("| 2^%d | %zu KiB | %.2f | %.2f |\n", lg, m * 4 / 1024, best[0][0] / best[1][0], best[0][1] / best[1][1]);
   }
#ifdef DROPOUT_STREAM_STORE_BYTES
   out("\nThe library streams from DROPOUT_STREAM_STORE_BYTES = %zu bytes of output (%zu f32).\n\n",
       (size_t)DROPOUT_STREAM_STORE_BYTES, (size_t)DROPOUT_STREAM_STORE_BYTES / 4u);
#else
   out("\nThis build has no streaming stores (%s path).\n\n", DROPOUT__SIMD_NAME);
#endif
}

int main(int argc, char **argv)
{
   static const struct { const char *name; job j; double bytes; } cases[] = {
      {"wall  y = x*s", {K_WALL, 0}, 8.0},
      {"wall NT  y = x*s, streaming stores", {K_WALL_NT, 0}, 8.0},
      {"forward  8-bit", {K_FWD, 8}, 8.0},
      {"forward 16-bit", {K_FWD, 16}, 8.0},
      {"forward 32-bit", {K_FWD, 32}, 8.0},
      {"forward  8-bit +mask", {K_FWD_MASK, 8}, 8.125},
      {"forward 16-bit +mask", {K_FWD_MASK, 16}, 8.125},
      {"forward 32-bit +mask", {K_FWD_MASK, 32}, 8.125},
      {"backward mask-free 8-bit", {K_BWD, 8}, 8.0},
      {"backward mask-free 32-bit", {K_BWD, 32}, 8.0},
      {"backward from mask", {K_BWD_MASK, 8}, 8.125},
      {"Random123 philox4x32, plain loop (words)", {K_R123, 0}, 4.0},
      {"cuRAND host generator, Philox4_32_10 (words)", {K_CURAND, 0}, 4.0},
      {"stream fill_u32 (words)", {K_STREAM, 0}, 4.0},
   };
   const size_t sizes[2] = {(size_t)1 << 24, (size_t)1 << 16};
   int maxthreads = 1, si, ti, ci;
   char cpu[256] = "unknown", date[64], tv[64] = "?";
   time_t tt = time(NULL);
   char cpuid[128] = "", simdflags[128] = "";
   FILE *f = fopen("/proc/cpuinfo", "r");
   if (f) {   /* the model name, and what tells apart CPUs that share one ("AMD EPYC") */
      char line[4096];
      int fam = -1, mod = -1, step = -1;
      while (fgets(line, sizeof line, f)) {
         char *p = strchr(line, ':');
         if (!p) continue;
         if (!strncmp(line, "model name", 10)) { snprintf(cpu, sizeof cpu, "%s", p + 2); cpu[strcspn(cpu, "\n")] = 0; }
         else if (!strncmp(line, "cpu family", 10)) fam = atoi(p + 1);
         else if (!strncmp(line, "model\t", 6)) mod = atoi(p + 1);
         else if (!strncmp(line, "stepping", 8)) step = atoi(p + 1);
         else if (!strncmp(line, "flags", 5)) {
            static const char *want[] = {" sse4_1", " avx2", " avx512f", " avx512bw", " avx512vl"};
            size_t w;
            for (w = 0; w < sizeof want / sizeof want[0]; ++w) {
               const char *q = strstr(p, want[w]);
               size_t len = strlen(want[w]);
               if (q && (q[len] == ' ' || q[len] == '\n'))
                  snprintf(simdflags + strlen(simdflags), sizeof simdflags - strlen(simdflags), "%s", want[w]);
            }
            break;   /* the first processor's block is enough */
         }
      }
      snprintf(cpuid, sizeof cpuid, "family %d, model %d, stepping %d", fam, mod, step);
      fclose(f);
   }
   strftime(date, sizeof date, "%Y-%m-%d %H:%M", localtime(&tt));
#ifdef _OPENMP
   maxthreads = omp_get_max_threads();
#endif
   if (argc > 1 && !strcmp(argv[1], "--path")) {   /* for the results file's name */
      printf("%s\n", DROPOUT__SIMD_NAME);
      return 0;
   }
   if (argc > 1 && !strcmp(argv[1], "--cycles")) {   /* make bench-isa: one table per build */
      cycles_only = 1;
      if (argc > 2) md = fopen(argv[2], "a");
   } else if (argc > 1 && !strcmp(argv[1], "--overlap")) {   /* make bench-isa: one pair of tables per build */
      overlap_only = 1;
      if (argc > 2) md = fopen(argv[2], "a");
   } else if (argc > 1) md = fopen(argv[1], "w");
   x = (float *)malloc(((size_t)1 << 24) * 4);
   y = (float *)malloc(((size_t)1 << 24) * 4);
   words = (uint32_t *)malloc(((size_t)1 << 24) * 4);
   mask = (uint8_t *)malloc(((size_t)1 << 21));
   xb = (uint16_t *)malloc(((size_t)1 << 17) * 2);
   yb = (uint16_t *)malloc(((size_t)1 << 17) * 2);
   if (!x || !y || !words || !mask || !xb || !yb) { fprintf(stderr, "out of memory\n"); return 1; }
   for (n = 0; n < ((size_t)1 << 24); ++n) x[n] = (float)(n % 1000) * 0.001f - 0.5f;
   dropout_v0_mask(mask, (size_t)1 << 24, 0.1, 8, 42, 7, 0);
   for (n = 0; n < ((size_t)1 << 17); ++n) xb[n] = (uint16_t)(0x3f00u + n % 500u);   /* 0.5 .. about 1.5 */

   if (overlap_only) {   /* --overlap: the overlap table alone */
      out("### %s (%s), CPU: %s (%s)\n\n", DROPOUT__SIMD_NAME, BENCH_FLAGS, cpu, cpuid);
      overlap_table();
      overlap_dram_table();
      if (md) fclose(md);
      return (int)(sink & 0u);
   }
   if (cycles_only) {
      out("### %s (%s)\n\n", DROPOUT__SIMD_NAME, BENCH_FLAGS);
      threads = 1;
      cycles_table();
      if (md) fclose(md);
      return (int)(sink & 0u);
   }
   out("# dropout.h CPU benchmark\n\n");
   out("- date: %s\n- CPU: %s (%s; flags:%s), %d threads available\n- compiler: %s\n- build: %s\n- SIMD path: %s\n",
       date, cpu, cpuid, simdflags, maxthreads,
#ifdef __VERSION__
       __VERSION__,
#else
       "?",
#endif
       BENCH_FLAGS, DROPOUT__SIMD_NAME);
   out("- p = 0.1; best of N repetitions; GB/s = bytes read + written by the code / time.\n"
       "- vs wall = elements/s over the memory wall y = x*s (same size, threads): the\n"
       "  issue's baseline. vs wall NT = over the same loop with streaming stores, which skip\n"
       "  the read-for-ownership of y (8 instead of 12 bytes of traffic per element) as the\n"
       "  library does from DROPOUT_STREAM_STORE_BYTES (%zu) of output on; out of cache\n"
       "  only. The walls are timed in alternation with the case (wall, wall NT, case, ...):\n"
       "  best of each.\n\n",
#ifdef DROPOUT_STREAM_STORE_BYTES
       (size_t)DROPOUT_STREAM_STORE_BYTES);
#else
       (size_t)0 - 1u);   /* a header from before streaming stores */
#endif

#ifdef HAVE_CURAND
   for (ci = 0; ci < 64; ++ci) {
      if (curandCreateGeneratorHost(&curand_gen[ci], CURAND_RNG_PSEUDO_PHILOX4_32_10) != CURAND_STATUS_SUCCESS ||
          curandSetPseudoRandomGeneratorSeed(curand_gen[ci], 42) != CURAND_STATUS_SUCCESS) {
         fprintf(stderr, "curandCreateGeneratorHost failed\n");
         return 1;
      }
   }
#endif
   for (si = 0; si < 2; ++si) {
      for (ti = 0; ti < 2; ++ti) {
         double wall = 0, rates[16], tr, wmin = 1e30, wmax = 0, f8 = 0, f32 = 0, r123 = 0, cur = 0;
         int reps = si == 0 ? 11 : 400;
         threads = ti == 0 ? 1 : maxthreads;
         if (ti == 1 && maxthreads == 1) break;
         n = sizes[si];
#ifdef HAVE_NT
         use_nt = si == 0;
#endif
         out("## n = 2^%d f32 (%s), %d thread%s\n\n", si == 0 ? 24 : 16,
             si == 0 ? "out of cache" : "in cache", threads, threads > 1 ? "s" : "");
         out("| case | Melem/s | GB/s | vs wall | vs wall NT | vs peer |\n|---|---:|---:|---:|---:|---:|\n");
         for (ci = 0; ci < (int)(sizeof cases / sizeof cases[0]); ++ci) {
            double r, g, wr[2], w;
            char vsnt[32] = "";
#ifndef HAVE_R123
            if (cases[ci].j.kind == K_R123) { out("| %s | SKIP: Random123 headers not found (apt-get install librandom123-dev) | | | | |\n", cases[ci].name); continue; }
#endif
#ifndef HAVE_CURAND
            if (cases[ci].j.kind == K_CURAND) { out("| %s | SKIP: libcurand not found (the CUDA toolkit's) | | | | |\n", cases[ci].name); continue; }
#endif
            if (cases[ci].j.kind == K_WALL_NT && !use_nt) {
               out("| %s | n/a: %s | | | | |\n", cases[ci].name,
                   si == 0 ? "not an x86 build" : "in cache (the library streams only large outputs)");
               continue;
            }
            r = rates[ci] = best_rate(cases[ci].j, reps, wr);
            w = wr[0];
            if (use_nt) snprintf(vsnt, sizeof vsnt, "%.2f", r / wr[1]);
            if (ci == 0) wall = r;
            if (cases[ci].j.kind == K_FWD_MASK && cases[ci].j.bits == 8) f8 = r;
            if (cases[ci].j.kind == K_FWD_MASK && cases[ci].j.bits == 32) f32 = r;
            g = r * cases[ci].bytes * 1e-9;
            if (cases[ci].j.kind == K_R123) r123 = r;
            if (cases[ci].j.kind == K_CURAND) cur = r;
            /* vs wall: against the walls' best in this case's own interleaved rounds */
            if (cases[ci].j.kind == K_STREAM) {
               char peers[96] = "", *p = peers;
               if (r123 > 0) p += snprintf(p, 48, "%.2fx Random123", r / r123);
               if (cur > 0) snprintf(p, 48, "%s%.2fx cuRAND host", r123 > 0 ? ", " : "", r / cur);
               out("| %s | %.0f | %.2f | %.2f | %s | %s |\n", cases[ci].name, r * 1e-6, g, r / w, vsnt, peers);
            } else {
               out("| %s | %.0f | %.2f | %.2f | %s | |\n", cases[ci].name, r * 1e-6, g, r / w, vsnt);
            }
            if (w < wmin) wmin = w;
            if (w > wmax) wmax = w;
         }
         tr = torch_rate(n, threads, si == 0 ? 5 : 50, tv, sizeof tv);
         if (tr > 0)
            out("| torch %s F.dropout (p=0.1, %s) | %.0f | %.2f | %.2f | | forward 8/32-bit +mask: %.1fx / %.1fx torch |\n",
                tv, torch_way, tr * 1e-6, tr * 8e-9, tr / wall, f8 / tr, f32 / tr);
         else
            out("| torch F.dropout | SKIP: python3-torch not importable | | | | |\n");
         out("\nnoise: the wall's best of %d ranged %.0f .. %.0f Melem/s over this table's cases (%.0f%%).\n\n",
             reps, wmin * 1e-6, wmax * 1e-6, 100.0 * (wmax - wmin) / wmax);
      }
   }
   threads = 1;
   cycles_table();
   overlap_table();
   overlap_dram_table();
   threshold_table();
   if (md) fclose(md);
   return (int)(sink & 0u);
}
