/* philox_clock.c - the core clock, dropout_fill_u32's speed and the bound of its instruction
   mix, in one run, for the Philox throughput analysis (bench/results/philox-*.md). Not a
   test: nothing is asserted.

   The clock: a chain of 10^7 dependent 64-bit register adds (one cycle each on every x86
   core of the last 15 years), timed; cycles = adds, so GHz = 1e7 / seconds (best of 100),
   checked against a chain of multiplies (see clock_ghz). Then dropout_fill_u32
   of 2^14 words (64 KiB, in L2) as best of 2000 calls, and the clock once more (a clock
   that moved between the two is visible).

   The instruction-mix bound: the vector operations one dropout__blocks_simd call executes
   (counted in its object code with this build's path; see mix_cycles), run with no
   dependences between them, in a loop: the cycles that loop takes are what this core's
   pipes need for those operations alone, whatever its port layout (measured, not read from
   a table). Moves, spills, loads, stores and the call are left out, so the bound is below
   what any code with these operations can reach. x86-64 with GCC or Clang only (inline asm).
   build: cc -std=c99 -O3 -march=native -I. bench/philox_clock.c -o build/philox_clock
          (-march=x86-64-v3: the AVX2 path; -march=x86-64: SSE2) */
#define _POSIX_C_SOURCE 200809L
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* best of 100 runs of 10^7 dependent adds, in GHz (short runs: on a shared machine the
   best of many short runs is one that nothing interrupted). The add's other operand is a
   register, not an immediate: Intel's cores from Golden Cove on execute a chain of
   immediate adds at rename, several a cycle (an Intel Xeon family 6 model 207 read
   "14 GHz" with `add $1`). mul_ghz is the same from a chain of 64-bit multiplies (3 cycles
   each on every x86 core of the last 15 years): the two agree when the clock is right. */
static double chain_ghz(int mul)
{
   double best = 1e30;
   int r;
   for (r = 0; r < 100; ++r) {
      unsigned long long v = 1, one = 1, i = mul ? 333333ull : 1000000ull;   /* 10 a trip */
      double t0 = now(), t;
      if (mul)
         __asm__ volatile("1:\n\t"
                          "imul %2, %0\n\timul %2, %0\n\timul %2, %0\n\timul %2, %0\n\timul %2, %0\n\t"
                          "imul %2, %0\n\timul %2, %0\n\timul %2, %0\n\timul %2, %0\n\timul %2, %0\n\t"
                          "dec %1\n\tjnz 1b"
                          : "+r"(v), "+r"(i) : "r"(one));
      else
         __asm__ volatile("1:\n\t"
                          "add %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\t"
                          "add %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\t"
                          "dec %1\n\tjnz 1b"
                          : "+r"(v), "+r"(i) : "r"(one));
      if ((t = now() - t0) < best) best = t;
   }
   return 1e-2 / best;   /* 1e7 cycles (3.33e6 multiplies x 3) / best seconds, in GHz */
}
static double clock_ghz(void) { return chain_ghz(0); }
static double mul_ghz(void) { return chain_ghz(1); }


/* One dropout__blocks_simd call's vector ALU operations, independent of each other (the
   destinations are written, never read, except the three-operand logic of AVX-512 and the
   two-operand SSE forms, which rotate over enough registers to stay off their latency).
   Counts per call from objdump of this file's build (gcc 12, -O3):
     AVX-512, 128 words: 72 vpmuludq, 72 vpsrlq + 8 vpsllq, 64 vpternlogd + 12 vpxord,
                         5 vpblendmd, 8 vpunpck[lh]qdq, 4 vpaddq                    = 245
     AVX2, 64 words:     72 vpmuludq, 72 vpsrlq + 8 vpsllq, 137 vpxor, 8 vpblendd,
                         8 vpunpck[lh]qdq, 4 vpaddq                                 = 309
     SSE2, 32 words:     72 pmuludq, 72 psrlq + 8 psllq, 137 pxor + 8 pand + 8 por,
                         20 pshufd, 9 punpck[lh]qdq, 4 paddq                        = 338
   Returns the words of one call; *cycles gets the loop's cycles per call at ghz. */
#if defined(__AVX512F__) && defined(__AVX512BW__)
#define MIX_WORDS 128
#define MIX_BODY                                                                                  \
   ".rept 8\n.irp r,2,3,4,5,6,7,8,9\n"                                                            \
   "vpmuludq %%zmm28, %%zmm29, %%zmm0\n vpsrlq $32, %%zmm30, %%zmm10\n"                           \
   "vpternlogd $0x96, %%zmm28, %%zmm29, %%zmm\\r\n"                                               \
   ".endr\n.endr\n"                                                                              \
   ".rept 8\nvpmuludq %%zmm29, %%zmm30, %%zmm1\n vpsrlq $32, %%zmm31, %%zmm12\n"                 \
   "vpsllq $32, %%zmm31, %%zmm11\n vpunpcklqdq %%zmm28, %%zmm29, %%zmm13\n"                       \
   "vpxord %%zmm30, %%zmm31, %%zmm14\n .endr\n"                                                  \
   ".rept 4\nvpxord %%zmm28, %%zmm29, %%zmm15\n vpaddq %%zmm28, %%zmm29, %%zmm16\n .endr\n"      \
   ".rept 5\nvpblendmd %%zmm28, %%zmm29, %%zmm17%{%%k1%}\n .endr\n"
#define MIX_CLOBBER "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", \
   "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "k1"
#elif defined(__AVX2__)
#define MIX_WORDS 64
#define MIX_BODY                                                                                  \
   ".rept 65\nvpmuludq %%ymm12, %%ymm13, %%ymm0\n vpsrlq $32, %%ymm14, %%ymm1\n"                  \
   "vpxor %%ymm12, %%ymm13, %%ymm2\n vpxor %%ymm13, %%ymm14, %%ymm3\n .endr\n"                    \
   ".rept 7\nvpmuludq %%ymm12, %%ymm13, %%ymm0\n vpsrlq $32, %%ymm14, %%ymm1\n vpxor %%ymm12, %%ymm13, %%ymm2\n .endr\n" \
   ".rept 8\nvpsllq $32, %%ymm15, %%ymm4\n vpblendd $0xaa, %%ymm12, %%ymm13, %%ymm5\n"          \
   "vpunpcklqdq %%ymm12, %%ymm13, %%ymm6\n .endr\n"                                              \
   ".rept 4\nvpaddq %%ymm12, %%ymm13, %%ymm7\n .endr\n"
#define MIX_CLOBBER "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7"
#else
#define MIX_WORDS 32
#define MIX_BODY                                                                                  \
   ".rept 12\n"                                                                                  \
   "pmuludq %%xmm15, %%xmm0\n psrlq $32, %%xmm6\n pxor %%xmm15, %%xmm10\n pxor %%xmm14, %%xmm11\n" \
   "pmuludq %%xmm15, %%xmm1\n psrlq $32, %%xmm7\n pxor %%xmm15, %%xmm12\n pxor %%xmm14, %%xmm13\n" \
   "pmuludq %%xmm15, %%xmm2\n psrlq $32, %%xmm8\n pxor %%xmm15, %%xmm10\n pxor %%xmm14, %%xmm11\n" \
   "pmuludq %%xmm15, %%xmm3\n psrlq $32, %%xmm9\n pxor %%xmm15, %%xmm12\n pxor %%xmm14, %%xmm13\n" \
   "pmuludq %%xmm15, %%xmm4\n psrlq $32, %%xmm6\n pxor %%xmm15, %%xmm10\n pxor %%xmm14, %%xmm11\n" \
   "pmuludq %%xmm15, %%xmm5\n psrlq $32, %%xmm7\n pxor %%xmm15, %%xmm12\n"                        \
   ".endr\n"                                                                                     \
   ".rept 5\npxor %%xmm14, %%xmm13\n .endr\n"                                                    \
   ".rept 8\npsllq $32, %%xmm8\n pand %%xmm14, %%xmm10\n por %%xmm15, %%xmm11\n .endr\n"          \
   ".rept 9\npunpcklqdq %%xmm15, %%xmm9\n .endr\n"                                               \
   ".rept 20\npshufd $0, %%xmm14, %%xmm12\n .endr\n"                                             \
   ".rept 4\npaddq %%xmm15, %%xmm13\n .endr\n"
#define MIX_CLOBBER "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", \
   "xmm11", "xmm12", "xmm13"
#endif

/* seconds of one run of the mix loop, 1000 trips */
static double mix_seconds(void)
{
   unsigned long long i = 1000;
   double t0 = now();
#if defined(__AVX512F__) && defined(__AVX512BW__)
   __asm__ volatile("movl $0x5555, %%eax\n\tkmovw %%eax, %%k1\n\t" ::: "eax", "k1");
#endif
   __asm__ volatile("1:\n\t" MIX_BODY "dec %0\n\tjnz 1b" : "+r"(i) : : MIX_CLOBBER);
   return now() - t0;
}

#if defined(__AVX512F__) && defined(__AVX512BW__)
/* The rounds' dependences, apart from everything else: k paths of multiply -> shift ->
   three-way xor, each step of a path reading the one before (a Philox round is two such
   paths a chain: words 0 and 2), repeated, with no loads or stores. Their operations a
   cycle say what the scheduler gets out of the four pipes with the dependence of the
   real rounds and k paths in flight: 8 for four chains, 12 for six, 14 for seven. */
#define DEP_PATH(s, t)                                                                           \
   "vpmuludq %%zmm31, %%zmm" #s ", %%zmm" #t "\n vpsrlq $32, %%zmm" #t ", %%zmm" #t "\n"           \
   "vpternlogd $0x96, %%zmm30, %%zmm29, %%zmm" #t "\n"                                              \
   "vpmuludq %%zmm31, %%zmm" #t ", %%zmm" #s "\n vpsrlq $32, %%zmm" #s ", %%zmm" #s "\n"           \
   "vpternlogd $0x96, %%zmm30, %%zmm29, %%zmm" #s "\n"
#define DEP_8 DEP_PATH(0, 1) DEP_PATH(2, 3) DEP_PATH(4, 5) DEP_PATH(6, 7) DEP_PATH(8, 9) DEP_PATH(10, 11) \
   DEP_PATH(12, 13) DEP_PATH(14, 15)
#define DEP_12 DEP_8 DEP_PATH(16, 17) DEP_PATH(18, 19) DEP_PATH(20, 21) DEP_PATH(22, 23)
#define DEP_14 DEP_12 DEP_PATH(24, 25) DEP_PATH(26, 27)
#define DEP_CLOBBER "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", \
   "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", \
   "xmm23", "xmm24", "xmm25", "xmm26", "xmm27"
/* More paths than seven chains hold: the round key as a broadcast memory operand (a load,
   not a vector operation) frees its register, so 15 paths fit beside the multiplier, and
   16 with the multiplier broadcast from memory as well. Whether more paths in flight
   would bring the rounds nearer the independent mix. */
#define DEP_PATH_M(s, t, m)                                                                      \
   "vpmuludq " m ", %%zmm" #s ", %%zmm" #t "\n vpsrlq $32, %%zmm" #t ", %%zmm" #t "\n"            \
   "vpternlogd $0x96, 8(%1)%{1to16%}, %%zmm" #s ", %%zmm" #t "\n"                                  \
   "vpmuludq " m ", %%zmm" #t ", %%zmm" #s "\n vpsrlq $32, %%zmm" #s ", %%zmm" #s "\n"            \
   "vpternlogd $0x96, 8(%1)%{1to16%}, %%zmm" #t ", %%zmm" #s "\n"
#define DEP_M14(m) DEP_PATH_M(0, 1, m) DEP_PATH_M(2, 3, m) DEP_PATH_M(4, 5, m) DEP_PATH_M(6, 7, m)     \
   DEP_PATH_M(8, 9, m) DEP_PATH_M(10, 11, m) DEP_PATH_M(12, 13, m) DEP_PATH_M(14, 15, m)               \
   DEP_PATH_M(16, 17, m) DEP_PATH_M(18, 19, m) DEP_PATH_M(20, 21, m) DEP_PATH_M(22, 23, m)             \
   DEP_PATH_M(24, 25, m) DEP_PATH_M(26, 27, m)
#define DEP_REG "%%zmm31"
#define DEP_MEM "(%1)%{1to8%}"
static const uint64_t dep_consts[2] = {0xD2511F53u, 0x9E3779B9u};   /* multiplier, key */
/* operations a cycle with k = 8, 12, 14, 15 (the key from memory, the multiplier in
   zmm31) or 16 paths (both from memory) */
static double dep_rate(int k, double ghz)
{
   double best = 1e30;
   int r;
   for (r = 0; r < 200; ++r) {
      unsigned long long i = 1000;
      double t0 = now(), t;
      if (k == 8) __asm__ volatile("1:\n\t" DEP_8 "dec %0\n\tjnz 1b" : "+r"(i) : : DEP_CLOBBER);
      else if (k == 12) __asm__ volatile("1:\n\t" DEP_12 "dec %0\n\tjnz 1b" : "+r"(i) : : DEP_CLOBBER);
      else if (k == 14) __asm__ volatile("1:\n\t" DEP_14 "dec %0\n\tjnz 1b" : "+r"(i) : : DEP_CLOBBER);
      else if (k == 15)
         __asm__ volatile("vpbroadcastq (%1), %%zmm31\n1:\n\t" DEP_M14(DEP_REG) DEP_PATH_M(28, 29, DEP_REG)
                          "dec %0\n\tjnz 1b" : "+r"(i) : "r"(dep_consts) : DEP_CLOBBER, "xmm28", "xmm29", "xmm31");
      else
         __asm__ volatile("1:\n\t" DEP_M14(DEP_MEM) DEP_PATH_M(28, 29, DEP_MEM) DEP_PATH_M(30, 31, DEP_MEM)
                          "dec %0\n\tjnz 1b" : "+r"(i) : "r"(dep_consts) : DEP_CLOBBER, "xmm28", "xmm29", "xmm30", "xmm31");
      if ((t = now() - t0) < best) best = t;
   }
   return 6.0 * k * 1000.0 / (best * ghz * 1e9);
}
#endif

int main(void)
{
   const size_t n = (size_t)1 << 14;
   uint32_t *w = (uint32_t *)malloc(n * 4);
   dropout_key key = dropout_key_make(42, 7);
   double ghz0, ghz1, ghzm, ghz, best = 1e30, best_mix = 1e30, ns, mix;
   int r;
   if (!w) return 1;
   ghz0 = clock_ghz();
   dropout_fill_u32(key, dropout_pos_make(0), w, n);
   /* fill and mix in alternation, best of each: a VM's clock moves by 5% from one second to
      the next, and the ratio of the two must not carry that */
   for (r = 0; r < 2000; ++r) {
      double t0 = now(), t;
      dropout_fill_u32(key, dropout_pos_make(0), w, n);
      if ((t = now() - t0) < best) best = t;
      if ((t = mix_seconds()) < best_mix) best_mix = t;
   }
   ghz1 = clock_ghz();
   ghz = 0.5 * (ghz0 + ghz1);
   ghzm = mul_ghz();
   ns = best * 1e9 / (double)n;
   mix = best_mix / 1000.0 * ghz * 1e9 / MIX_WORDS;
   printf("path %s\nclock before %.3f GHz, after %.3f GHz (10^7 dependent register adds, best of 100);"
          " multiplies %.3f GHz%s\n", DROPOUT__SIMD_NAME, ghz0, ghz1, ghzm,
          ghzm > 1.05 * ghz || ghzm < 0.95 * ghz ? " (the two chains disagree: the cycles below are not)" : "");
   printf("dropout_fill_u32, 2^14 words, best of 2000 (alternating with the mix below): %.4f ns/word = %.3f words/ns = %.3f cycles/word"
          " = %.3f cycles/byte at %.3f GHz\n",
          ns, 1.0 / ns, ns * ghz, ns * ghz / 4.0, ghz);
   printf("instruction-mix bound (the %d-word call's vector operations alone, independent, best of 2000 x 1000):\n"
          "   %.1f cycles per call = %.3f cycles/word = %.3f cycles/byte; fill_u32 takes %.2f times the bound\n",
          MIX_WORDS, mix * MIX_WORDS, mix, mix / 4.0, ns * ghz / mix);
#if defined(__AVX512F__) && defined(__AVX512BW__)
   {
      const double mix_rate = 245.0 / (mix * MIX_WORDS);   /* the census's operations a cycle */
      printf("the rounds' dependences alone (multiply -> shift -> xor paths, no memory): operations a cycle\n"
             "   8 paths (4 chains) %.2f, 12 (6) %.2f, 14 (7) %.2f; the independent mix %.2f\n",
             dep_rate(8, ghz), dep_rate(12, ghz), dep_rate(14, ghz), mix_rate);
      printf("   with the key from memory: 15 paths %.2f; 16, the multiplier from memory too, %.2f\n"
             "   (with 16, four of a path-round's six operations load their broadcast: the loads bound it)\n",
             dep_rate(15, ghz), dep_rate(16, ghz));
   }
#endif
   free(w);
   return 0;
}
