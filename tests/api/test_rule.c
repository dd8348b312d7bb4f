/* test_rule.c - the rule. dropout_rule_init_threshold (integer arithmetic only) gives the
   fields of 0.1.0's double computation (dropout_rule_make) bit for bit: every threshold of
   8 and 16 bits, and 2^20 sampled ones plus the edges of 32 bits. dropout_rule_init refuses
   a p in (0, 1) that the width realises as 0 or 1, with the code of the width that serves
   (a table with the boundaries on both sides), and dropout_rule_p gives the realised p. */
#include <stdio.h>
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"
#include "data.h"

static double absd(double v) { return v < 0 ? -v : v; }

static int same_rule(const dropout_rule *a, const dropout_rule *b)
{
   return a->threshold == b->threshold && a->bits == b->bits &&
          !memcmp(&a->scale_f64, &b->scale_f64, sizeof a->scale_f64) &&
          !memcmp(&a->scale_f32, &b->scale_f32, sizeof a->scale_f32);
}

static int check_t(uint64_t t, int bits)
{
   dropout_rule a, b;
   double p = (double)t / (double)((uint64_t)1 << bits);   /* exact */
   int err = dropout_rule_init_threshold(&a, t, (dropout_bits)bits);
   b = dropout_rule_make(p, bits);
   CHECK(err == DROPOUT_OK && same_rule(&a, &b), "bits %d t %llu: scale_f64 %.17g vs %.17g, scale_f32 %.9g vs %.9g",
         bits, (unsigned long long)t, a.scale_f64, b.scale_f64, (double)a.scale_f32, (double)b.scale_f32);
   CHECK(dropout_rule_p(&a) == p, "rule_p bits %d t %llu", bits, (unsigned long long)t);
   return err == DROPOUT_OK && same_rule(&a, &b);
}

static void case_threshold(void)
{
   uint64_t t, i, n32 = 0;
   dropout_rule r;
   for (t = 0; t <= 256; ++t) check_t(t, 8);
   for (t = 0; t <= 65536; ++t) check_t(t, 16);
   for (i = 0; i <= 32; ++i) {      /* powers of two and their neighbours */
      uint64_t p2 = (uint64_t)1 << i;
      check_t(p2, 32); check_t(p2 - 1, 32); if (p2 < ((uint64_t)1 << 32)) check_t(p2 + 1, 32);
      check_t(((uint64_t)1 << 32) - p2, 32);
   }
   for (i = 0; i < (1u << 20); ++i) n32 += (uint64_t)check_t(data_rand() & 0xFFFFFFFFu, 32);
   CHECK(n32 == (1u << 20), "32-bit samples: %llu of 2^20 equal", (unsigned long long)n32);
   CHECK(dropout_rule_init_threshold(&r, 257, DROPOUT_BITS_8) == DROPOUT_ERR_THRESHOLD, "t = 257 at 8 bits");
   CHECK(dropout_rule_init_threshold(&r, ((uint64_t)1 << 32) + 1, DROPOUT_BITS_32) == DROPOUT_ERR_THRESHOLD, "t = 2^32 + 1");
   CHECK(dropout_rule_init_threshold(&r, 1, (dropout_bits)12) == DROPOUT_ERR_BITS, "bits 12");
   CHECK(dropout_rule_init_threshold(NULL, 1, DROPOUT_BITS_8) == DROPOUT_ERR_NULL, "NULL rule");
   case_end("api rule: rule_init_threshold (integers only) == dropout_rule_make's doubles, every 8- and 16-bit threshold, 2^20 + edges of 32");
}

static void case_init_equals_make(void)
{
   int i, w;
   for (w = 8; w <= 32; w *= 2)
      for (i = 0; i < 200000; ++i) {
         double p = (double)(data_rand() >> 11) * 1.1102230246251565e-16;   /* [0, 1) */
         dropout_rule a, b = dropout_rule_make(p, w);
         int err = dropout_rule_init(&a, p, (dropout_bits)w);
         if (err == DROPOUT_OK) CHECK(same_rule(&a, &b), "p %.17g bits %d", p, w);
         else CHECK(b.threshold == 0 || b.threshold == (uint64_t)1 << w, "p %.17g bits %d refused (%d) though realisable", p, w, err);
      }
   case_end("api rule: dropout_rule_init == dropout_rule_make wherever it accepts (600000 random p)");
}

static void case_refusals(void)
{
   static const struct { double p; int bits; int code; } tab[] = {
      {0.0, 8, DROPOUT_OK}, {1.0, 8, DROPOUT_OK}, {-0.0, 32, DROPOUT_OK}, {0.5, 8, DROPOUT_OK},
      {0.001, 8, DROPOUT_ERR_P_NEEDS_16}, {0.999, 8, DROPOUT_ERR_P_NEEDS_16},
      {0.001, 16, DROPOUT_OK}, {0.999, 16, DROPOUT_OK},
      {1.0 / 512.0, 8, DROPOUT_OK},                          /* p 2^8 + 1/2 = 1: t = 1 */
      {1.0 / 512.0 - 1e-12, 8, DROPOUT_ERR_P_NEEDS_16},      /* just below: t = 0 */
      {1.0 - 1.0 / 512.0, 8, DROPOUT_ERR_P_NEEDS_16},        /* p 2^8 + 1/2 = 256: t = 2^8 */
      {1.0 - 1.0 / 512.0 - 1e-12, 8, DROPOUT_OK},            /* t = 255 */
      {1e-6, 8, DROPOUT_ERR_P_NEEDS_32}, {1e-6, 16, DROPOUT_ERR_P_NEEDS_32}, {1e-6, 32, DROPOUT_OK},
      {1.0 - 1e-6, 16, DROPOUT_ERR_P_NEEDS_32},
      {1.0 / 131072.0, 16, DROPOUT_OK}, {1.0 / 131072.0 - 1e-15, 16, DROPOUT_ERR_P_NEEDS_32},
      {1e-12, 8, DROPOUT_ERR_P_UNREALISABLE}, {1e-12, 32, DROPOUT_ERR_P_UNREALISABLE},
      {1.0 - 1e-12, 32, DROPOUT_ERR_P_UNREALISABLE}, {4.9e-324, 16, DROPOUT_ERR_P_UNREALISABLE},
      {1.0 / 8589934592.0, 32, DROPOUT_OK},                  /* 2^-33: t = 1 */
      {-0.1, 8, DROPOUT_ERR_P}, {1.5, 16, DROPOUT_ERR_P}, {-1e-300, 8, DROPOUT_ERR_P},
   };
   size_t i;
   dropout_rule r;
   for (i = 0; i < sizeof tab / sizeof tab[0]; ++i) {
      int err;
      memset(&r, 0xA5, sizeof r);
      err = dropout_rule_init(&r, tab[i].p, (dropout_bits)tab[i].bits);
      CHECK(err == tab[i].code, "p = %.17g, %d bits: %d (%s), want %d", tab[i].p, tab[i].bits, err, dropout_strerror(err), tab[i].code);
      if (err) {
         unsigned char c[sizeof r];
         memset(c, 0xA5, sizeof c);
         CHECK(!memcmp(&r, c, sizeof r), "p = %g: the rule was written on error", tab[i].p);
      } else {
         double rp = dropout_rule_p(&r);
         CHECK(absd(rp - tab[i].p) <= 0.5 / (double)((uint64_t)1 << tab[i].bits), "realised p %.17g for p %.17g", rp, tab[i].p);
      }
   }
   { volatile double z = 0.0; CHECK(dropout_rule_init(&r, z / z, DROPOUT_BITS_8) == DROPOUT_ERR_P, "NaN"); }
   CHECK(dropout_rule_init(&r, 0.5, (dropout_bits)24) == DROPOUT_ERR_BITS, "bits 24");
   CHECK(strstr(dropout_strerror(DROPOUT_ERR_P_NEEDS_16), "DROPOUT_BITS_16") != NULL, "the message names 16 bits");
   CHECK(strstr(dropout_strerror(DROPOUT_ERR_P_NEEDS_32), "DROPOUT_BITS_32") != NULL, "the message names 32 bits");
   case_end("api rule: p that the width realises as 0 or 1 is refused with the width that serves (boundaries both sides), nothing written");
}

int main(void)
{
   case_threshold();
   case_init_equals_make();
   case_refusals();
   return check_exit();
}
