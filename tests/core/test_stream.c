/* test_stream.c - the raw Philox stream: known answers, the original Random123 as a peer,
   and the fill functions' documented conversions.

   The stream is the foundation of every mask, so it is pinned three ways:
   1. Random123's published known-answer vectors (7 and 10 rounds);
   2. Random123's own philox4x32() over millions of words at awkward coordinates
      (word offsets near 2^64, streams with the high bits set, carries between counter words);
   3. cuRAND's host generator, in tests/build/peer_curand.c (run by tests/build/suite.sh).
   Peers that are missing print a SKIP line. */
#define _POSIX_C_SOURCE 200809L   /* popen */
#define DROPOUT_V0_API   /* written against the 0.1.0 calls: they must keep giving the same bits */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<Random123/philox.h>)
#include <Random123/philox.h>
#define HAVE_RANDOM123 1
#endif
#endif

#define KAT_FILE "/usr/share/doc/librandom123-dev/tests/kat_vectors.gz"

static uint64_t rng_next(uint64_t *s)   /* splitmix64: test inputs only */
{
   uint64_t z = (*s += 0x9E3779B97F4A7C15u);
   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
   z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
   return z ^ (z >> 31);
}

typedef struct kat {
   unsigned rounds;
   uint32_t ctr[4], key[2], out[4];
} kat;

/* /work/shared/reference/README.md, copied from Random123's tests/kat_vectors. */
static const kat kats[] = {
   {10, {0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u}, {0x00000000u, 0x00000000u},
        {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}},
   {10, {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}, {0xffffffffu, 0xffffffffu},
        {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}},
   {10, {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}, {0xa4093822u, 0x299f31d0u},
        {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}},
   {7,  {0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u}, {0x00000000u, 0x00000000u},
        {0x5f6fb709u, 0x0d893f64u, 0x4f121f81u, 0x4f730a48u}},
   {7,  {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}, {0xffffffffu, 0xffffffffu},
        {0x5207ddc2u, 0x45165e59u, 0x4d8ee751u, 0x8c52f662u}},
   {7,  {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}, {0xa4093822u, 0x299f31d0u},
        {0x4dfccabau, 0x190a87f0u, 0xc47362bau, 0xb6b5242au}},
};

static int kat_ok(const kat *k)
{
   uint32_t out[4];
   dropout_philox4x32_rounds(k->rounds, k->ctr, k->key, out);
   if (memcmp(out, k->out, sizeof out) != 0) return 0;
   if (k->rounds == 10) {
      dropout_philox4x32_10(k->ctr, k->key, out);
      if (memcmp(out, k->out, sizeof out) != 0) return 0;
   }
   return 1;
}

static void test_kat_reference(void)
{
   size_t i;
   for (i = 0; i < sizeof kats / sizeof kats[0]; ++i)
      CHECK(kat_ok(&kats[i]), "vector %u (%u rounds) differs", (unsigned)i, kats[i].rounds);
   /* the same first vector through the stream API: seed 0, stream 0, words 0..3 */
   for (i = 0; i < 4; ++i)
      CHECK(dropout_v0_stream_u32(0, 0, i) == kats[0].out[i], "stream word %u = %08x, want %08x",
            (unsigned)i, dropout_v0_stream_u32(0, 0, i), kats[0].out[i]);
   case_end("philox_kat_reference (6 vectors, 7 and 10 rounds)");
}

/* Every philox4x32 line of Random123's own vector file, read through zcat. */
static void test_kat_file(void)
{
   FILE *f = fopen(KAT_FILE, "rb");
   char line[512];
   int count = 0;
   if (!f) { case_skip("philox_kat_file", KAT_FILE " absent (apt-get install librandom123-doc)"); return; }
   fclose(f);
   f = popen("zcat " KAT_FILE, "r");
   if (!f) { case_skip("philox_kat_file", "cannot run zcat"); return; }
   while (fgets(line, sizeof line, f)) {
      kat k;
      unsigned v[10];
      int j;
      if (strncmp(line, "philox4x32 ", 11) != 0) continue;
      if (sscanf(line + 11, "%u %x %x %x %x %x %x %x %x %x %x", &k.rounds, &v[0], &v[1], &v[2],
                 &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]) != 11) {
         CHECK(0, "unparsed line: %s", line);
         continue;
      }
      for (j = 0; j < 4; ++j) k.ctr[j] = v[j];
      for (j = 0; j < 2; ++j) k.key[j] = v[4 + j];
      for (j = 0; j < 4; ++j) k.out[j] = v[6 + j];
      CHECK(kat_ok(&k), "file vector differs: %s", line);
      ++count;
   }
   CHECK(pclose(f) == 0, "zcat failed");
   CHECK(count >= 6, "only %d philox4x32 vectors in the file", count);
   printf("  %d philox4x32 vectors from %s\n", count, KAT_FILE);
   case_end("philox_kat_file");
}

#ifdef HAVE_RANDOM123
/* word w of (seed, stream) the way Random123's users would write it */
static uint32_t r123_word(uint64_t seed, uint64_t stream, uint64_t w)
{
   philox4x32_ctr_t c;
   philox4x32_key_t k;
   philox4x32_ctr_t r;
   c.v[0] = (uint32_t)(w >> 2);  c.v[1] = (uint32_t)(w >> 34);
   c.v[2] = (uint32_t)stream;    c.v[3] = (uint32_t)(stream >> 32);
   k.v[0] = (uint32_t)seed;      k.v[1] = (uint32_t)(seed >> 32);
   r = philox4x32(c, k);
   return r.v[w & 3u];
}
#endif

static int quick;   /* --quick: smaller cross-checks, for sanitizer builds */

static void test_random123_peer(void)
{
#ifdef HAVE_RANDOM123
   static const uint64_t seeds[] = {0, 1234, 0xDEADBEEFCAFEF00Du, UINT64_MAX};
   static const uint64_t streams[] = {0, 1, (uint64_t)1 << 32, 0x8000000000000007u, UINT64_MAX};
   enum { NMAX = 65536 + 3 };
   const size_t N = quick ? 4096 + 3 : NMAX;
   /* word offsets: aligned, unaligned, the carry from counter word 0 into word 1 (block
      2^32), the top of the 63-bit range, and the very end of the stream */
   const uint64_t words[] = {0, 3, ((uint64_t)1 << 34) - 4 * 100 - 1,
                             ((uint64_t)1 << 63) - 5, UINT64_MAX - N + 1};
   static uint32_t out[NMAX];
   uint64_t total = 0, mismatches = 0;
   size_t a, b, c, i;
   for (a = 0; a < sizeof seeds / sizeof seeds[0]; ++a)
      for (b = 0; b < sizeof streams / sizeof streams[0]; ++b)
         for (c = 0; c < sizeof words / sizeof words[0]; ++c) {
            int rc = dropout_v0_fill_u32(out, N, seeds[a], streams[b], words[c]);
            CHECK(rc == DROPOUT_OK, "fill_u32 at word %llu: %d", (unsigned long long)words[c], rc);
            for (i = 0; i < N; ++i) {
               uint64_t w = words[c] + i;
               uint32_t want = r123_word(seeds[a], streams[b], w);
               if (out[i] != want) {
                  if (!mismatches)
                     CHECK(0, "seed %llx stream %llx word %llx: %08x, Random123 %08x",
                           (unsigned long long)seeds[a], (unsigned long long)streams[b],
                           (unsigned long long)w, out[i], want);
                  ++mismatches;
               }
               if (i % 61 == 0 && dropout_v0_stream_u32(seeds[a], streams[b], w) != want) {
                  if (!mismatches) CHECK(0, "stream_u32 word %llx differs", (unsigned long long)w);
                  ++mismatches;
               }
               ++total;
            }
         }
   printf("  %llu words compared with Random123 philox4x32, %llu mismatches\n",
          (unsigned long long)total, (unsigned long long)mismatches);
   case_end("stream_vs_random123");
#else
   case_skip("stream_vs_random123", "<Random123/philox.h> absent (apt-get install librandom123-dev)");
#endif
}

/* fill_u32 is stream_u32 over a range, wherever the range starts inside a block. */
static void test_fill_u32_consistency(void)
{
   uint64_t s = 42;
   uint32_t out[300];
   int it;
   for (it = 0; it < 2000; ++it) {
      uint64_t seed = rng_next(&s), stream = rng_next(&s), word = rng_next(&s) >> (it % 3 * 20);
      size_t n = (size_t)(rng_next(&s) % 300), i;
      if (word > UINT64_MAX - 300) word -= 300;
      CHECK(dropout_v0_fill_u32(out, n, seed, stream, word) == DROPOUT_OK, "fill_u32 failed");
      for (i = 0; i < n; ++i)
         CHECK(out[i] == dropout_v0_stream_u32(seed, stream, word + i), "word %llu + %u differs",
               (unsigned long long)word, (unsigned)i);
   }
   case_end("fill_u32_equals_stream_u32");
}

/* out[i] = (w >> 8) * 2^-24: every value is a float, computed here in double. */
static void test_fill_uniform_f32(void)
{
   enum { N = 4099 };
   static uint32_t w[N];
   static float f[N];
   uint64_t s = 7;
   int it;
   size_t i;
   for (it = 0; it < 20; ++it) {
      uint64_t seed = rng_next(&s), stream = rng_next(&s), word = rng_next(&s) >> 2;
      CHECK(dropout_v0_fill_u32(w, N, seed, stream, word) == DROPOUT_OK, "fill_u32");
      CHECK(dropout_v0_fill_uniform_f32(f, N, seed, stream, word) == DROPOUT_OK, "fill_uniform_f32");
      for (i = 0; i < N; ++i) {
         float want = (float)((double)(w[i] >> 8) / 16777216.0);
         CHECK(memcmp(&f[i], &want, sizeof want) == 0 && f[i] >= 0.0f && f[i] < 1.0f,
               "f32 %u: %.9g, want %.9g", (unsigned)i, (double)f[i], (double)want);
      }
   }
   /* the extremes of the conversion */
   {
      uint32_t top = 0xFFFFFFFFu;
      float want = (float)((double)(top >> 8) / 16777216.0);
      CHECK(want < 1.0f, "2^24-1 over 2^24 rounds below 1");
   }
   case_end("fill_uniform_f32_conversion");
}

/* out[i] = ((w(2q+1) << 32 | w(2q)) >> 11) * 2^-53, q = index + i. */
static void test_fill_uniform_f64(void)
{
   enum { N = 2051 };
   static uint32_t w[2 * N];
   static double d[N];
   uint64_t s = 8;
   int it;
   size_t i;
   for (it = 0; it < 20; ++it) {
      uint64_t seed = rng_next(&s), stream = rng_next(&s), index = rng_next(&s) >> 3;
      CHECK(dropout_v0_fill_u32(w, 2 * N, seed, stream, 2 * index) == DROPOUT_OK, "fill_u32");
      CHECK(dropout_v0_fill_uniform_f64(d, N, seed, stream, index) == DROPOUT_OK, "fill_uniform_f64");
      for (i = 0; i < N; ++i) {
         uint64_t u = (uint64_t)w[2 * i + 1] << 32 | w[2 * i];
         double want = (double)(u >> 11) / 9007199254740992.0;
         CHECK(memcmp(&d[i], &want, sizeof want) == 0 && d[i] >= 0.0 && d[i] < 1.0,
               "f64 %u: %.17g, want %.17g", (unsigned)i, d[i], want);
      }
   }
   case_end("fill_uniform_f64_conversion");
}

static int all_bytes(const void *p, size_t n, unsigned char c)
{
   const unsigned char *b = (const unsigned char *)p;
   size_t i;
   for (i = 0; i < n; ++i)
      if (b[i] != c) return 0;
   return 1;
}

/* The end of the stream: positions up to 2^64 - 1 exist, one more is an error that
   writes nothing. */
static void test_fill_ranges(void)
{
   enum { N = 37 };
   uint32_t u[N];
   float f[N];
   double d[N];
   const uint64_t end = UINT64_MAX;   /* last word */
   const uint64_t half = (uint64_t)1 << 63;
   size_t i;
   const uint64_t seed = 99, stream = 0xF000000000000001u;

   CHECK(dropout_v0_fill_u32(u, N, seed, stream, end - N + 1) == DROPOUT_OK, "u32 ending at 2^64-1");
   for (i = 0; i < N; ++i)
      CHECK(u[i] == dropout_v0_stream_u32(seed, stream, end - N + 1 + i), "u32 end word %u", (unsigned)i);
   memset(u, 0xAB, sizeof u);
   CHECK(dropout_v0_fill_u32(u, N, seed, stream, end - N + 2) == DROPOUT_ERR_RANGE, "u32 past 2^64");
   CHECK(all_bytes(u, sizeof u, 0xAB), "u32 written on error");
   CHECK(dropout_v0_fill_u32(u, 1, seed, stream, end) == DROPOUT_OK, "u32 last word alone");
   CHECK(dropout_v0_fill_u32(u, 0, seed, stream, end) == DROPOUT_OK, "u32 n = 0 at the end");

   CHECK(dropout_v0_fill_uniform_f32(f, N, seed, stream, end - N + 1) == DROPOUT_OK, "f32 at end");
   memset(f, 0xAB, sizeof f);
   CHECK(dropout_v0_fill_uniform_f32(f, N, seed, stream, end - N + 2) == DROPOUT_ERR_RANGE, "f32 past");
   CHECK(all_bytes(f, sizeof f, 0xAB), "f32 written on error");

   /* doubles: index + n must not pass 2^63 (the last double uses words 2^64-2, 2^64-1) */
   CHECK(dropout_v0_fill_uniform_f64(d, N, seed, stream, half - N) == DROPOUT_OK, "f64 ending at 2^63");
   {
      uint64_t lo = dropout_v0_stream_u32(seed, stream, end - 1), hi = dropout_v0_stream_u32(seed, stream, end);
      double want = (double)((hi << 32 | lo) >> 11) / 9007199254740992.0;
      CHECK(memcmp(&d[N - 1], &want, sizeof want) == 0, "last double %.17g, want %.17g", d[N - 1], want);
   }
   memset(d, 0xAB, sizeof d);
   CHECK(dropout_v0_fill_uniform_f64(d, N, seed, stream, half - N + 1) == DROPOUT_ERR_RANGE, "f64 past 2^63");
   CHECK(dropout_v0_fill_uniform_f64(d, 1, seed, stream, half) == DROPOUT_ERR_RANGE, "f64 at 2^63");
   CHECK(dropout_v0_fill_uniform_f64(d, 1, seed, stream, UINT64_MAX) == DROPOUT_ERR_RANGE, "f64 at 2^64-1");
   CHECK(all_bytes(d, sizeof d, 0xAB), "f64 written on error");

   /* NULL is fine only when nothing is asked for */
   CHECK(dropout_v0_fill_u32(NULL, 1, 0, 0, 0) == DROPOUT_ERR_NULL, "u32 NULL");
   CHECK(dropout_v0_fill_uniform_f32(NULL, 1, 0, 0, 0) == DROPOUT_ERR_NULL, "f32 NULL");
   CHECK(dropout_v0_fill_uniform_f64(NULL, 1, 0, 0, 0) == DROPOUT_ERR_NULL, "f64 NULL");
   CHECK(dropout_v0_fill_u32(NULL, 0, 0, 0, 0) == DROPOUT_OK, "u32 NULL n=0");
   CHECK(dropout_v0_fill_uniform_f32(NULL, 0, 0, 0, 0) == DROPOUT_OK, "f32 NULL n=0");
   CHECK(dropout_v0_fill_uniform_f64(NULL, 0, 0, 0, 0) == DROPOUT_OK, "f64 NULL n=0");
   /* n = 0 asks for no position, so any start is fine, as for fill_u32 */
   CHECK(dropout_v0_fill_uniform_f64(NULL, 0, 0, 0, UINT64_MAX) == DROPOUT_OK, "f64 n=0 at 2^64-1");
   case_end("fill_offsets_near_2^64_and_2^63");
}

/* Streams and seeds are separate sequences: a different stream or seed at the same word
   gives a different block (a cheap guard against key/counter slots being swapped). */
static void test_coordinates_matter(void)
{
   uint32_t base[8], other[8];
   CHECK(dropout_v0_fill_u32(base, 8, 5, 6, 7) == DROPOUT_OK, "fill");
   dropout_v0_fill_u32(other, 8, 6, 5, 7);
   CHECK(memcmp(base, other, sizeof base) != 0, "seed and stream swapped give the same words");
   dropout_v0_fill_u32(other, 8, 5, 7, 6);
   CHECK(memcmp(base, other, sizeof base) != 0, "stream and word swapped give the same words");
   dropout_v0_fill_u32(other, 8, (uint64_t)5 << 32, 6, 7);
   CHECK(memcmp(base, other, sizeof base) != 0, "seed halves swapped give the same words");
   {  /* the slot order, by hand: stream s sits in counter words 2 and 3, seed in the key */
      uint32_t ctr[4] = {1, 0, 0x89ABCDEFu, 0x01234567u}, key[2] = {0x76543210u, 0xFEDCBA98u}, out[4];
      dropout_philox4x32_10(ctr, key, out);
      CHECK(dropout_v0_stream_u32(0xFEDCBA9876543210u, 0x0123456789ABCDEFu, 6) == out[2],
            "word 6 is lane 2 of block 1");
   }
   case_end("stream_coordinates_in_their_slots");
}

/* C++26's std::philox4x32 (P2075, [rand.eng.philox]): "the 10000th consecutive invocation
   of a default-constructed object of type philox4x32 produces the value 1955073260". Its
   default seed is 20111115, its counter starts at 0 and it returns the words of each block
   in order: word 9999 of stream 0 under seed 20111115 here, an answer computed outside
   this project. Also through a fill that starts a block early and ends one late. */
static void test_cxx26_philox(void)
{
   uint32_t w[6];
   CHECK(dropout_v0_stream_u32(20111115u, 0, 9999) == 1955073260u, "word 9999 = %u, want 1955073260",
         dropout_v0_stream_u32(20111115u, 0, 9999));
   CHECK(dropout_v0_fill_u32(w, 6, 20111115u, 0, 9995) == DROPOUT_OK && w[4] == 1955073260u, "fill: word 9999 = %u", w[4]);
   case_end("cxx26_std_philox4x32: the 10000th output under the default seed 20111115 is 1955073260");
}

int main(int argc, char **argv)
{
   quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
   test_kat_reference();
   test_kat_file();
   test_random123_peer();
   test_fill_u32_consistency();
   test_fill_uniform_f32();
   test_fill_uniform_f64();
   test_fill_ranges();
   test_coordinates_matter();
   test_cxx26_philox();
   return check_exit();
}
