/* peer_curand.c - dropout.h's stream against cuRAND's host Philox generator.

   libcurand's host generator runs on the CPU (no GPU needed) and is NVIDIA's own
   Philox4_32_10. It lays its output out as: words 4g .. 4g+3 = philox4x32_10(
   ctr = {g / 65536, 0, g % 65536, 0}, key = seed), i.e. subsequence g % 65536 at block
   g / 65536 (/work/shared/reference/README.md). In dropout.h's terms those are words
   4 * (g / 65536) .. + 3 of stream g % 65536. Built and run by tests/build/suite.sh
   with -lcurand. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

#include <curand.h>
#include <stdlib.h>

enum { WORDS = 1 << 22 };

static void compare(unsigned long long seed)
{
   curandGenerator_t g;
   uint32_t *out = (uint32_t *)malloc(WORDS * sizeof *out);
   unsigned long long mismatches = 0, blk;
   char name[64];
   CHECK(out != NULL, "out of memory");
   if (!out) { case_end("stream_vs_curand_host"); return; }
   CHECK(curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10) == CURAND_STATUS_SUCCESS,
         "curandCreateGeneratorHost");
   CHECK(curandSetPseudoRandomGeneratorSeed(g, seed) == CURAND_STATUS_SUCCESS, "set seed");
   CHECK(curandGenerate(g, out, WORDS) == CURAND_STATUS_SUCCESS, "curandGenerate");
   for (blk = 0; blk < WORDS / 4; ++blk) {
      uint32_t mine[4];
      int j;
      dropout_fill_u32(dropout_key_make(seed, blk % 65536u), dropout_pos_make(4u * (blk / 65536u)), mine, 4);
      for (j = 0; j < 4; ++j)
         if (mine[j] != out[4 * blk + (unsigned)j]) {
            if (!mismatches)
               CHECK(0, "seed %llu word %llu: %08x, cuRAND %08x", seed, 4 * blk + (unsigned)j,
                     mine[j], out[4 * blk + (unsigned)j]);
            ++mismatches;
         }
   }
   printf("  seed %llu: %d words compared with cuRAND's host Philox4_32_10, %llu mismatches\n",
          seed, WORDS, mismatches);
   curandDestroyGenerator(g);
   free(out);
   snprintf(name, sizeof name, "stream_vs_curand_host seed=%llu", seed);
   case_end(name);
}

int main(void)
{
   (void)case_skip;   /* every case here runs: the suite skips the whole program */
   compare(1234u);
   compare(0xFEDCBA9876543210ull);
   return check_exit();
}
