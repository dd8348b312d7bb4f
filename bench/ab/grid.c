/* grid.c - `make bench-ab`: a revision's dropout.h (A) against the working tree's (B) over
   the whole grid, in one process: draw widths 8/16/32; forward with and without the mask,
   the mask alone, both backwards (mask-free, from the stored mask), the fused
   bias-dropout-add; f32, bf16, f16; in L2 and streamed (out of cache); one thread and two.

   How it judges a change on a shared, noisy machine: each cell runs A, B, A' and B' call by
   call in alternation, round after round (the order rotates each round), and keeps each
   one's best time. A' and B' are A's and B's headers built once more with their code moved
   (a pad before the header: every function at another address) and called 208 bytes
   further down the stack: the same instructions in another place. B/A is the change; A'/A
   and B'/B are the spreads to read it against: the noise of the moment and what placement
   alone does (on Zen 5 a hot loop that did not change an instruction measured up to 8%
   apart in two builds, and the same plain-store code out of cache 1.4-2.1x apart in three
   places). A B/A inside either spread is no change.
   Also the walls, y = x * s over the same arrays (streaming stores out of cache, plain in
   L2; 4-byte and 2-byte elements), and each forward's share of its wall (wall / call: 1.0
   runs at the wall). Not a test: nothing is asserted.

   usage: ab_grid --path   prints B's SIMD path
          ab_grid [-s l2|mem|both] [-t 1|2|both] [-r rounds in L2] [-R rounds streamed]
                  [-l log2 n in L2] [-L log2 n streamed: by default 24, more where the
                  last-level cache is over a quarter of f32 x and y] [-f substring of the cell names]
                  [-p first position] */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__SSE2__)
#include <immintrin.h>
#endif
#ifdef _OPENMP
#include <omp.h>
#endif

enum { OP_FWD_MASK, OP_FWD, OP_MASK, OP_BWD, OP_BWD_MASK, OP_FUSED, OP_FILL };
enum { DT_F32, DT_BF16, DT_F16 };
static const char *op_name[] = {"fwd+mask", "fwd", "mask", "bwd", "bwd(mask)", "fused", "fill_u32"};
static const char *dt_name[] = {"f32", "bf16", "f16"};

#define AB_DECL(S)                                                                                    \
   int ab_grid_call##S(int op, int dt, int bits, void *y, uint8_t *mask, const void *x, const void *bias, \
                       const void *res, size_t n, size_t cols, uint64_t offset);                      \
   int ab_grid_fill##S(uint32_t *w, size_t n);                                                       \
   const char *ab_grid_path##S(void);
AB_DECL(A)
AB_DECL(B)
AB_DECL(C)
AB_DECL(D)

#define COLS 1024   /* the fused op's row length */

typedef struct cell { int op, dt, bits; double best[4]; } cell;   /* A, B, A', B' */

static float *xf, *yf, *rf, *bias_f;
static uint16_t *xb, *xh, *yh, *rb, *rh, *bias_b, *bias_h;
static uint8_t *mask;
static uint32_t *words;
static int nthreads;
static uint64_t pos;   /* the calls' first position (-p) */

static double now(void)
{
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* one thread's part of a call: elements lo .. hi - 1, a call at its own position; v: 0 A,
   1 B, 2 A's header built again with its code and stack moved (C, A'), 3 B's so (D, B') */
static void part_of(const cell *c, int v, size_t lo, size_t hi)
{
   const size_t m = hi - lo;
   int (*call)(int, int, int, void *, uint8_t *, const void *, const void *, const void *, size_t, size_t, uint64_t) =
      v == 1 ? ab_grid_callB : v == 2 ? ab_grid_callC : v == 3 ? ab_grid_callD : ab_grid_callA;
   if (c->op == OP_FILL) {
      (v == 1 ? ab_grid_fillB : v == 2 ? ab_grid_fillC : v == 3 ? ab_grid_fillD : ab_grid_fillA)(words + lo, m);
   } else if (c->dt == DT_F32) {
      call(c->op, c->dt, c->bits, yf + lo, mask + lo / 8, xf + lo, bias_f, rf + lo, m, COLS, pos + lo);
   } else {
      const int bf = c->dt == DT_BF16;
      call(c->op, c->dt, c->bits, yh + lo, mask + lo / 8, (bf ? xb : xh) + lo, bf ? bias_b : bias_h,
           (bf ? rb : rh) + lo, m, COLS, pos + lo);
   }
}
static void part(const cell *c, int v, size_t lo, size_t hi)
{
   if (v >= 2) {   /* A' and B' also run 208 bytes further down the stack */
      volatile unsigned char pad[208];
      pad[0] = 0;
      part_of(c, v, lo, hi);
      pad[1] = pad[0];
   } else {
      part_of(c, v, lo, hi);
   }
}

/* the call over n elements on nthreads threads, each a part of whole rows (COLS, a multiple of 64) */
static double time_call(const cell *c, int v, size_t n)
{
   const size_t per = (n / (size_t)nthreads + COLS - 1) / COLS * COLS;
   double t0 = now();
   int t;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads) schedule(static)
#endif
   for (t = 0; t < nthreads; ++t) {
      size_t lo = (size_t)t * per, hi = lo + per > n ? n : lo + per;
      if (lo < hi) part(c, v, lo, hi);
   }
   return now() - t0;
}

/* the wall: y = x * s over n elements of es bytes, the widest vectors this build has,
   streaming stores if nt (x86); the AVX-512 loops ask for x WALL_AHEAD bytes ahead, as the
   library's AVX-512 build does when it streams (without it the library beat this wall by
   10-20% on Zen 5) */
#define WALL_AHEAD 2048
static size_t misalign;   /* -a (below) */
static double time_wall(size_t n, int es, int nt)
{
   const size_t per = (n / (size_t)nthreads + COLS - 1) / COLS * COLS;
   /* the arrays' aligned starts (-a moves the calls' arrays, never the wall's vectors) */
   float *wx = (float *)(void *)((char *)xf - misalign), *wy = (float *)(void *)((char *)yf - misalign);
   uint16_t *wxb = (uint16_t *)(void *)((char *)xb - misalign), *wyh = (uint16_t *)(void *)((char *)yh - misalign);
   double t0 = now();
   int t;
   (void)nt;   /* (no streaming stores in a build without SSE2: WebAssembly) */
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads) schedule(static)
#endif
   for (t = 0; t < nthreads; ++t) {
      size_t lo = (size_t)t * per, hi = lo + per > n ? n : lo + per, i;
      if (es == 4) {
#if defined(__AVX512F__)
         if (nt) {
            const __m512 s = _mm512_set1_ps(1.1111112f);
            for (i = lo; i + 16 <= hi; i += 16) {
               _mm_prefetch((const char *)(wx + i) + WALL_AHEAD, _MM_HINT_T0);
               _mm512_stream_ps(wy + i, _mm512_mul_ps(_mm512_load_ps(wx + i), s));
            }
            continue;
         }
#elif defined(__AVX__)
         if (nt) {
            const __m256 s = _mm256_set1_ps(1.1111112f);
            for (i = lo; i + 8 <= hi; i += 8) _mm256_stream_ps(wy + i, _mm256_mul_ps(_mm256_load_ps(wx + i), s));
            continue;
         }
#elif defined(__SSE2__)
         if (nt) {
            const __m128 s = _mm_set1_ps(1.1111112f);
            for (i = lo; i + 4 <= hi; i += 4) _mm_stream_ps(wy + i, _mm_mul_ps(_mm_load_ps(wx + i), s));
            continue;
         }
#endif
         for (i = lo; i < hi; ++i) wy[i] = wx[i] * 1.1111112f;
      } else {   /* a 16-bit "multiply": an add, as cheap as the f32 multiply */
#if defined(__AVX512BW__)
         if (nt) {
            const __m512i s = _mm512_set1_epi16(3);
            for (i = lo; i + 32 <= hi; i += 32) {
               _mm_prefetch((const char *)(wxb + i) + WALL_AHEAD, _MM_HINT_T0);
               _mm512_stream_si512((void *)(wyh + i), _mm512_add_epi16(_mm512_load_si512((const void *)(wxb + i)), s));
            }
            continue;
         }
#elif defined(__AVX2__)
         if (nt) {
            const __m256i s = _mm256_set1_epi16(3);
            for (i = lo; i + 16 <= hi; i += 16)
               _mm256_stream_si256((__m256i *)(void *)(wyh + i), _mm256_add_epi16(_mm256_load_si256((const __m256i *)(const void *)(wxb + i)), s));
            continue;
         }
#elif defined(__SSE2__)
         if (nt) {
            const __m128i s = _mm_set1_epi16(3);
            for (i = lo; i + 8 <= hi; i += 8)
               _mm_stream_si128((__m128i *)(void *)(wyh + i), _mm_add_epi16(_mm_load_si128((const __m128i *)(const void *)(wxb + i)), s));
            continue;
         }
#endif
         for (i = lo; i < hi; ++i) wyh[i] = (uint16_t)(wxb[i] + 3u);
      }
   }
#if defined(__SSE2__)
   if (nt) _mm_sfence();
#endif
   return now() - t0;
}

static int log2_of(size_t n)
{
   int k = 0;
   while (((size_t)1 << (k + 1)) <= n) ++k;
   return k;
}

/* -a BYTES: every array that many bytes past a 64-byte boundary (16: what glibc's malloc
   gives a large block), for the calls' unaligned case; 0 (the default): aligned */

static void *big(size_t bytes)
{
   void *p = NULL;
   if (posix_memalign(&p, 64, bytes + misalign) != 0 || !p) { fprintf(stderr, "out of memory\n"); exit(1); }
   memset(p, 0, bytes + misalign);
   return (char *)p + misalign;   /* (never freed: the process ends) */
}

/* one size class and thread count: every cell that matches `filter` */
static void grid(size_t n, int rounds, int streamed, const char *filter)
{
   static const int bitsv[3] = {8, 16, 32};
   static cell cells[128];
   const double per64 = 64.0 / (double)n * 1e9;
   double wall[2] = {1e30, 1e30};   /* 4-byte, 2-byte elements */
   int nc = 0, op, dt, b, r, i, v;
   for (b = 0; b < 3; ++b)
      for (op = OP_FWD_MASK; op <= OP_FUSED; ++op)
         for (dt = 0; dt < (op == OP_MASK ? 1 : 3); ++dt) {
            char name[64];
            snprintf(name, sizeof name, "%s %s %d", op_name[op], op == OP_MASK ? "-" : dt_name[dt], bitsv[b]);
            if (filter && !strstr(name, filter)) continue;
            cells[nc].op = op; cells[nc].dt = dt; cells[nc].bits = bitsv[b];
            cells[nc].best[0] = cells[nc].best[1] = cells[nc].best[2] = cells[nc].best[3] = 1e30;
            ++nc;
         }
   if (!filter || strstr("fill_u32", filter)) {
      cells[nc].op = OP_FILL; cells[nc].dt = DT_F32; cells[nc].bits = 32;
      cells[nc].best[0] = cells[nc].best[1] = cells[nc].best[2] = cells[nc].best[3] = 1e30;
      ++nc;
   }
   for (i = 0; i < nc; ++i)   /* warm */
      for (v = 0; v < 4; ++v) time_call(&cells[i], v, n);
   for (r = 0; r < rounds; ++r) {
      double t;
      if ((t = time_wall(n, 4, streamed)) < wall[0]) wall[0] = t;
      if ((t = time_wall(n, 2, streamed)) < wall[1]) wall[1] = t;
      for (i = 0; i < nc; ++i)
         for (v = 0; v < 4; ++v) {
            const int w = (v + r) % 4;   /* 0: A, 1: B, 2: A moved (A'), 3: B moved (B') */
            if ((t = time_call(&cells[i], w, n)) < cells[i].best[w]) cells[i].best[w] = t;
         }
   }
#if defined(__SSE2__)
   const char *big_name = "streamed (out of cache)", *big_stores = "streaming";
#else   /* (WebAssembly: no streaming stores, and the library makes plain ones) */
   const char *big_name = "large (plain stores: this build has no streaming ones)", *big_stores = "plain";
#endif
   printf("\n### 2^%d elements, %s, %d thread%s, best of %d rounds\n\n", log2_of(n), streamed ? big_name : "in L2",
          nthreads, nthreads > 1 ? "s" : "", rounds);
   printf("Walls (y = x*s, %s stores): 4-byte %.2f, 2-byte %.2f ns per 64 elements.\n\n", streamed ? big_stores : "plain",
          wall[0] * per64, wall[1] * per64);
   printf("| cell (op dtype bits) | A ns/64 | B ns/64 | **B/A** | A'/A (spread) | B'/B (spread) | B at wall/call |\n"
          "|---|---:|---:|---:|---:|---:|---:|\n");
   for (i = 0; i < nc; ++i) {
      const cell *c = &cells[i];
      const int fwd = c->op == OP_FWD_MASK || c->op == OP_FWD || c->op == OP_BWD || c->op == OP_BWD_MASK;
      char share[32] = "";
      if (fwd) snprintf(share, sizeof share, "%.2f", wall[c->dt == DT_F32 ? 0 : 1] / c->best[1]);
      if (c->op == OP_FILL) printf("| fill_u32 (n words) |");
      else printf("| %s %s %d |", op_name[c->op], c->op == OP_MASK ? "-" : dt_name[c->dt], c->bits);
      printf(" %.2f | %.2f | **%.3f** | %.3f | %.3f | %s |\n", c->best[0] * per64, c->best[1] * per64, c->best[1] / c->best[0],
             c->best[2] / c->best[0], c->best[3] / c->best[1], share);
   }
   /* the cells where B took more than 1.05x A's time, and by more than either one's own
      spread (a cell whose A or B moves that much with its place is not read as a change) */
   printf("\nB/A above 1.05 and above the spread:");
   for (i = 0, v = 0; i < nc; ++i) {
      const cell *c = &cells[i];
      const double ba = c->best[1] / c->best[0], sa = c->best[2] / c->best[0], sb = c->best[3] / c->best[1];
      if (ba > 1.05 && ba > (sa > 1.0 ? sa : 1.0 / sa) && ba > (sb > 1.0 ? sb : 1.0 / sb)) {
         if (c->op == OP_FILL) printf("%s fill_u32 (%.3f)", v++ ? "," : "", ba);   /* the name -f takes (recheck.sh) */
         else printf("%s %s %s %d (%.3f)", v++ ? "," : "", op_name[c->op], c->op == OP_MASK ? "-" : dt_name[c->dt], c->bits, ba);
      }
   }
   printf("%s\n", v ? "" : " none");
   fflush(stdout);
}

/* The last-level cache of cpu 0 as Linux describes it (sysfs: the highest level's size),
   in bytes; 0 where it does not say. A cache's own count: a chip with several L3s (one a
   core complex) gives one of them. */
static size_t llc_bytes(void)
{
   size_t best = 0;
   int idx, best_level = 0;
   for (idx = 0; idx < 10; ++idx) {
      char path[96], unit = 0;
      unsigned long size = 0;
      int level = 0;
      FILE *f;
      snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", idx);
      if (!(f = fopen(path, "r"))) break;
      if (fscanf(f, "%d", &level) != 1) level = 0;
      fclose(f);
      snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", idx);
      if (!(f = fopen(path, "r"))) continue;
      if (fscanf(f, "%lu%c", &size, &unit) < 1) size = 0;
      fclose(f);
      size *= unit == 'K' ? 1024ul : unit == 'M' ? 1024ul * 1024ul : 1ul;
      if (level > best_level && size > 0) { best_level = level; best = (size_t)size; }
   }
   return best;
}

int main(int argc, char **argv)
{
   int lg_l2 = 16, lg_mem = 0, reps_l2 = 200, reps_mem = 7, which_s = 3, which_t = 3, a, t;
   size_t llc;
   const char *filter = NULL;
   size_t n, i;
   if (argc == 2 && !strcmp(argv[1], "--path")) { printf("%s\n", ab_grid_pathB()); return 0; }
   for (a = 1; a + 1 < argc; a += 2) {
      const char *o = argv[a], *val = argv[a + 1];
      if (!strcmp(o, "-s")) which_s = !strcmp(val, "l2") ? 1 : !strcmp(val, "mem") ? 2 : 3;
      else if (!strcmp(o, "-t")) which_t = !strcmp(val, "1") ? 1 : !strcmp(val, "2") ? 2 : 3;
      else if (!strcmp(o, "-r")) reps_l2 = atoi(val);
      else if (!strcmp(o, "-R")) reps_mem = atoi(val);
      else if (!strcmp(o, "-l")) lg_l2 = atoi(val);
      else if (!strcmp(o, "-L")) lg_mem = atoi(val);
      else if (!strcmp(o, "-f")) filter = val;
      else if (!strcmp(o, "-p")) pos = (uint64_t)strtoull(val, NULL, 10);
      else if (!strcmp(o, "-a")) misalign = (size_t)atoi(val) % 64u / 4u * 4u;   /* whole f32 elements */
      else { fprintf(stderr, "unknown option %s\n", o); return 2; }
   }
   /* The streamed block's size, unless -L gives it: 2^24 elements, or more where f32 x and y
      (8 bytes an element) would not be four times the last-level cache, up to 2^26: so that
      on a chip with a large L3 (up to 320 MB on some Xeons) "streamed" still means memory.
      A and B run in one process, so both always have the same size. */
   llc = llc_bytes();
   if (lg_mem == 0)
      for (lg_mem = 24; lg_mem < 26 && ((size_t)8 << lg_mem) < 4 * llc; ++lg_mem) {}
   if (lg_l2 < 12 || lg_l2 > 26 || lg_mem < 12 || lg_mem > 26) { fprintf(stderr, "log2 n: 12 .. 26\n"); return 2; }
   n = (size_t)1 << (lg_mem > lg_l2 ? lg_mem : lg_l2);
   xf = (float *)big(n * 4); yf = (float *)big(n * 4); rf = (float *)big(n * 4); words = (uint32_t *)big(n * 4);
   xb = (uint16_t *)big(n * 2); xh = (uint16_t *)big(n * 2); yh = (uint16_t *)big(n * 2);
   rb = (uint16_t *)big(n * 2); rh = (uint16_t *)big(n * 2); mask = (uint8_t *)big(n / 8);
   bias_f = (float *)big(COLS * 4); bias_b = (uint16_t *)big(COLS * 2); bias_h = (uint16_t *)big(COLS * 2);
   for (i = 0; i < n; ++i) {
      xf[i] = (float)(i % 1000) * 0.001f - 0.5f;
      rf[i] = (float)(i % 7) * 0.25f;
      xb[i] = (uint16_t)(0x3f00u + i % 500u);   /* bf16 0.5 .. about 1.5 */
      xh[i] = (uint16_t)(0x3800u + i % 500u);   /* f16 0.5 .. about 0.74 */
      rb[i] = (uint16_t)(0x3e80u + i % 7u);
      rh[i] = (uint16_t)(0x3400u + i % 7u);
   }
   for (i = 0; i < COLS; ++i) { bias_f[i] = 0.01f * (float)(i % 10); bias_b[i] = 0x3c00; bias_h[i] = 0x2000; }
   printf("A/B over the grid: p = 0.1, seed 42, stream 7, first position %llu (each thread's part a call at its own position).\n"
          "Cells: op dtype draw-bits; ns per 64 elements; B/A < 1: B faster; A'/A and B'/B: each timed again in another place, the spreads.\n",
          (unsigned long long)pos);
   printf("SIMD path: A %s, B %s.", ab_grid_pathA(), ab_grid_pathB());
   if (misalign) printf(" Arrays %u bytes past a 64-byte boundary (-a).", (unsigned)misalign);
   printf("\n");
   if (which_s & 2) {   /* is "streamed" out of cache on this machine? */
      const size_t xy = ((size_t)8 << lg_mem);   /* f32 x and y */
      if (llc == 0)
         printf("Last-level cache: not given by this system; the streamed block: 2^%d elements, f32 x and y %zu MiB.\n",
                lg_mem, xy >> 20);
      else
         printf("Last-level cache of cpu 0: %zu MiB; the streamed block: 2^%d elements, f32 x and y %zu MiB%s\n", llc >> 20,
                lg_mem, xy >> 20,
                xy > 2 * llc ? "." : ": **they fit in that cache (or nearly), so the streamed cells measure it, not memory**.");
   }
#ifndef _OPENMP
   if (which_t & 2) printf("\n(2 threads: not run, built without OpenMP)\n");
   which_t &= 1;
#endif
   for (t = 1; t <= 2; ++t) {
      if (!(which_t & t)) continue;
      nthreads = t;
      if (which_s & 1) grid((size_t)1 << lg_l2, reps_l2, 0, filter);
      if (which_s & 2) grid((size_t)1 << lg_mem, reps_mem, 1, filter);
   }
   return 0;
}
