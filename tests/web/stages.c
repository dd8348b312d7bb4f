/* stages.c - what the web page (web/index.html) must show, printed by a native build of
   dropout.h: tests/web/suite.sh compares every line with the value the page displays in
   the element of the same data-check name.

   usage: stages SEED STREAM POS P BITS N K
   Lines are "name value". Hex words are 8 digits; 64-bit digests 16; numbers in %.17g
   (the suite compares those as numbers, the page writing JavaScript's shortest form).
   Where dropout_rule_init refuses p, "rule_error MESSAGE" replaces the keep bit, the
   kept counts and the digests. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include <stdio.h>
#include <stdlib.h>

static uint64_t fnv(const uint8_t *b, size_t n)
{
   uint64_t h = 0xcbf29ce484222325u;
   size_t i;
   for (i = 0; i < n; ++i) { h ^= b[i]; h *= 0x100000001b3u; }
   return h;
}

static unsigned kept_count(const uint8_t *m, size_t n)
{
   unsigned k = 0;
   size_t i;
   for (i = 0; i < n; ++i) k += (m[i / 8] >> (i % 8)) & 1u;
   return k;
}

int main(int argc, char **argv)
{
   static uint8_t one[1 << 13], chunked[1 << 13];
   uint64_t seed, stream, pos, block;
   double p;
   int bits, n, k, i, err;
   unsigned per, lane, r;
   uint32_t ctr[4], key[2], words[4], draw;
   uint8_t bit = 0;
   dropout_rule rule, made;
   dropout_plan plan;
   dropout_key key64;
   if (argc != 8) {
      fprintf(stderr, "usage: %s SEED STREAM POS P BITS N K\n", argv[0]);
      return 2;
   }
   seed = strtoull(argv[1], NULL, 0);
   stream = strtoull(argv[2], NULL, 0);
   pos = strtoull(argv[3], NULL, 0);
   p = strtod(argv[4], NULL);
   bits = atoi(argv[5]);
   n = atoi(argv[6]);
   k = atoi(argv[7]);
   if (n < 1 || n > (1 << 16) || k < 1 || k > 32) return 2;
   if ((bits != 8 && bits != 16 && bits != 32) || !(p >= 0.0 && p <= 1.0)) return 2;

   /* 1. one position, stage by stage (the building blocks) */
   per = 128u / (unsigned)bits;
   block = pos / per;
   lane = (unsigned)(pos % per);
   ctr[0] = (uint32_t)block;  ctr[1] = (uint32_t)(block >> 32);
   ctr[2] = (uint32_t)stream; ctr[3] = (uint32_t)(stream >> 32);
   key[0] = (uint32_t)seed;   key[1] = (uint32_t)(seed >> 32);
   printf("block %llu\nlane %u\n", (unsigned long long)block, lane);
   printf("counter %08x %08x %08x %08x\n", ctr[0], ctr[1], ctr[2], ctr[3]);
   printf("key %08x %08x\n", key[0], key[1]);
   for (r = 1; r <= 10; ++r) {
      uint32_t out[4];
      dropout_philox4x32_rounds(r, ctr, key, out);
      printf("rkey%u %08x %08x\n", r, (uint32_t)(key[0] + (r - 1) * DROPOUT_PHILOX_W0),
             (uint32_t)(key[1] + (r - 1) * DROPOUT_PHILOX_W1));
      printf("round%u %08x %08x %08x %08x\n", r, out[0], out[1], out[2], out[3]);
   }
   dropout_philox4x32_10(ctr, key, words);
   printf("words %08x %08x %08x %08x\n", words[0], words[1], words[2], words[3]);
   draw = dropout_draw(words, bits, lane);
   made = dropout_rule_make(p, bits);   /* what p rounds to, refused or not */
   printf("draw %u\n", draw);
   printf("threshold %llu\n", (unsigned long long)made.threshold);

   /* 2. the rule */
   printf("p_realised %.17g\n", (double)made.threshold / (double)((uint64_t)1 << bits));
   printf("q %.17g\n", 1.0 - (double)made.threshold / (double)((uint64_t)1 << bits));
   printf("scale_f64 %.17g\n", made.scale_f64);
   printf("scale_f32 %.17g\n", (double)made.scale_f32);
   err = dropout_rule_init(&rule, p, (dropout_bits)bits);
   if (err) { printf("rule_error %s\n", dropout_strerror(err)); return 0; }

   /* the decision at the position, by the library's mask call */
   key64 = dropout_key_make(seed, stream);
   if ((err = dropout_plan_at(&plan, &rule, key64, dropout_pos_make(pos), 1)) != 0 ||
       (err = dropout_mask(&plan, (size_t)plan.count, &bit)) != 0) {
      printf("error %s\n", dropout_strerror(err));
      return 1;
   }
   printf("keep %u\n", bit & 1u);

   /* 3. the mask as one call, and as k slices of its plan */
   if ((err = dropout_plan_at(&plan, &rule, key64, dropout_pos_make(pos), (uint64_t)n)) != 0 ||
       (err = dropout_mask(&plan, (size_t)plan.count, one)) != 0) {
      printf("error %s\n", dropout_strerror(err));
      return 1;
   }
   printf("kept %u\n", kept_count(one, (size_t)n));
   printf("digest_one %016llx\n", (unsigned long long)fnv(one, ((size_t)n + 7) / 8));
   for (i = 0; i < k; ++i) {
      int s = (int)(((int64_t)n * i / k) & ~7), e = i + 1 == k ? n : (int)(((int64_t)n * (i + 1) / k) & ~7);
      dropout_plan part;
      if (e > s && ((err = dropout_plan_slice(&plan, (uint64_t)s, (uint64_t)(e - s), &part)) != 0 ||
                    (err = dropout_mask(&part, (size_t)part.count, chunked + s / 8)) != 0)) {
         printf("error %s\n", dropout_strerror(err));
         return 1;
      }
   }
   printf("kept_chunked %u\n", kept_count(chunked, (size_t)n));
   printf("digest_chunked %016llx\n", (unsigned long long)fnv(chunked, ((size_t)n + 7) / 8));
   return 0;
}
