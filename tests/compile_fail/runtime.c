/* runtime.c - the mistakes of issue 18's table that no type can catch, caught at run time:
   every one returns its own error code, its message names what is wrong, and nothing is
   written (the outputs keep a canary pattern).
     - p in (0, 1) that the draw width realises as 0 or 1 (p = 0.001 with 8-bit draws was
       "no dropout at all"; p = 0.999 dropped everything): refused, the message names the
       width that would serve;
     - NaN or out-of-range p;
     - a bias length that does not divide the plan's count (the rows x cols of 0.1);
     - an FPU that flushes subnormals (x86 MXCSR FTZ/DAZ as set by crtfastmath.o when a
       program is linked with -ffast-math): the call sets the mode it needs, gives the
       default mode's bits, and gives the caller's mode back (1.0; 0.9 refused the call).
   With the argument --flushed (the suite links this program with -ffast-math, which makes
   the C runtime set FTZ/DAZ before main) the call must give the bits of a plain program. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#include <stdio.h>
#include <string.h>
#if defined(__x86_64__) || defined(__SSE2__)
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#endif

static int failures = 0;
static void check(int ok, const char *name, const char *why)
{
   printf("%s runtime: %s%s%s\n", ok ? "PASS" : "FAIL", name, ok ? "" : ": ", ok ? "" : why);
   if (!ok) ++failures;
}

static int untouched(const void *p, size_t n)   /* still the 0xA5 canary everywhere */
{
   const unsigned char *b = (const unsigned char *)p;
   size_t i;
   for (i = 0; i < n; ++i) if (b[i] != 0xA5) return 0;
   return 1;
}

/* rule_init must refuse p with `want`, leave the rule as it was, and name `word` */
static void refuse_p(double p, dropout_bits bits, int want, const char *word, const char *name)
{
   dropout_rule r;
   char why[200];
   int err;
   memset(&r, 0xA5, sizeof r);
   err = dropout_rule_init(&r, p, bits);
   snprintf(why, sizeof why, "returned %d (want %d), message \"%s\"", err, want, dropout_strerror(err));
   check(err == want && untouched(&r, sizeof r) && strstr(dropout_strerror(err), word) != NULL, name, why);
}

#define N 64

int main(int argc, char **argv)
{
   static float x[N], y[N], res[N], bias[N];
   static uint8_t mask[N / 8];
   volatile double zero = 0.0;
   dropout_rule rule;
   dropout_plan plan;
   char why[200];
   int err, i;

   for (i = 0; i < N; ++i) { x[i] = (float)i + 0.5f; res[i] = 1.0f; bias[i] = 2.0f; }

   if (argc > 1 && strcmp(argv[1], "--flushed") == 0) {
#ifdef HAVE_MXCSR
      if ((_mm_getcsr() & 0x8040u) == 0) {
         printf("SKIP runtime flushed: linking with -ffast-math did not set FTZ/DAZ here\n");
         return 0;
      }
      dropout_rule_init(&rule, 0.5, DROPOUT_BITS_8);
      dropout_plan_at(&plan, &rule, dropout_key_make(1, 2), dropout_pos_make(0), N);
      {
         static float want[N];
         unsigned int csr = _mm_getcsr();
         for (i = 0; i < N; i += 3) x[i] = 1e-39f * (float)i;   /* subnormals, which DAZ would read as 0 */
         err = dropout_replay_f32(&plan, N, y, mask, x);
         check((_mm_getcsr() & 0x8040u) == 0x8040u, "the call gives the program's FTZ/DAZ back", "");
         _mm_setcsr(csr & ~0x8040u);
         dropout_replay_f32(&plan, N, want, NULL, x);
         _mm_setcsr(csr);
         snprintf(why, sizeof why, "returned %d (%s), or other bits", err, dropout_strerror(err));
         check(err == DROPOUT_OK && !memcmp(y, want, sizeof y),
               "a program linked with -ffast-math (crtfastmath sets FTZ/DAZ) gets the default mode's bits", why);
      }
#else
      printf("SKIP runtime flushed: not x86\n");
#endif
      return failures ? 1 : 0;
   }

   refuse_p(0.001, DROPOUT_BITS_8, DROPOUT_ERR_P_NEEDS_16, "16",
            "p = 0.001 with 8-bit draws (realised as 0) is DROPOUT_ERR_P_NEEDS_16, the message names 16");
   refuse_p(0.999, DROPOUT_BITS_8, DROPOUT_ERR_P_NEEDS_16, "16",
            "p = 0.999 with 8-bit draws (realised as 1) is DROPOUT_ERR_P_NEEDS_16");
   refuse_p(1e-6, DROPOUT_BITS_16, DROPOUT_ERR_P_NEEDS_32, "32",
            "p = 1e-6 with 16-bit draws is DROPOUT_ERR_P_NEEDS_32, the message names 32");
   refuse_p(1e-12, DROPOUT_BITS_32, DROPOUT_ERR_P_UNREALISABLE, "p",
            "p = 1e-12 (below 2^-33: even 32-bit draws realise 0) is DROPOUT_ERR_P_UNREALISABLE");
   refuse_p(zero / zero, DROPOUT_BITS_16, DROPOUT_ERR_P, "p", "p = NaN is DROPOUT_ERR_P");
   refuse_p(-0.25, DROPOUT_BITS_16, DROPOUT_ERR_P, "p", "p = -0.25 is DROPOUT_ERR_P");
   refuse_p(1.5, DROPOUT_BITS_16, DROPOUT_ERR_P, "p", "p = 1.5 is DROPOUT_ERR_P");
   refuse_p(0.5, (dropout_bits)12, DROPOUT_ERR_BITS, "bits", "12-bit draws are DROPOUT_ERR_BITS");

   /* the realised p is one call away, and p = 0 and p = 1 exactly are allowed */
   err = dropout_rule_init(&rule, 0.3, DROPOUT_BITS_8);
   check(err == DROPOUT_OK && dropout_rule_p(&rule) == 77.0 / 256.0, "p = 0.3 with 8-bit draws is realised as 77/256 (dropout_rule_p)", "");
   err = dropout_rule_init(&rule, 0.001, DROPOUT_BITS_16);
   check(err == DROPOUT_OK && dropout_rule_p(&rule) == 66.0 / 65536.0, "p = 0.001 with 16-bit draws is allowed, realised as 66/65536", "");
   check(dropout_rule_init(&rule, 0.0, DROPOUT_BITS_8) == DROPOUT_OK && dropout_rule_p(&rule) == 0.0 &&
         dropout_rule_init(&rule, 1.0, DROPOUT_BITS_8) == DROPOUT_OK && dropout_rule_p(&rule) == 1.0,
         "p = 0 and p = 1 exactly are allowed at every width", "");

   /* the fused op's one size: a bias length that does not divide the count is an error */
   dropout_rule_init(&rule, 0.25, DROPOUT_BITS_16);
   dropout_plan_at(&plan, &rule, dropout_key_make(5, 6), dropout_pos_make(7), N);
   memset(y, 0xA5, sizeof y);
   memset(mask, 0xA5, sizeof mask);
   err = dropout_bias_dropout_add_replay_f32(&plan, (size_t)plan.count, 24, y, mask, x, bias, res);
   snprintf(why, sizeof why, "returned %d (%s)", err, dropout_strerror(err));
   check(err < 0 && untouched(y, sizeof y) && untouched(mask, sizeof mask),
         "bias_len 24 with a count of 64 is refused, nothing written", why);
   err = dropout_bias_dropout_add_replay_f32(&plan, (size_t)plan.count, 16, y, mask, x, bias, res);
   check(err == DROPOUT_OK && !untouched(y, sizeof y), "bias_len 16 with a count of 64 runs (4 rows)", dropout_strerror(err));

   /* an FPU that flushes subnormals: the call sets the mode it needs and gives it back */
#ifdef HAVE_MXCSR
   {
      static float want[N];
      unsigned int csr = _mm_getcsr();
      int modes[3] = { 0x8000, 0x0040, 0x8040 };   /* FTZ, DAZ, both */
      const char *names[3] = { "FTZ", "DAZ", "FTZ and DAZ" };
      int k;
      for (i = 0; i < N; i += 3) x[i] = 1e-39f * (float)i;   /* subnormals */
      dropout_plan_at(&plan, &rule, dropout_key_make(5, 6), dropout_pos_make(7), N);
      dropout_replay_f32(&plan, N, want, NULL, x);
      for (k = 0; k < 3; ++k) {
         char name[120];
         unsigned int after;
         memset(y, 0xA5, sizeof y);
         _mm_setcsr(csr | (unsigned int)modes[k]);
         err = dropout_replay_f32(&plan, N, y, NULL, x);
         after = _mm_getcsr();
         _mm_setcsr(csr);
         snprintf(name, sizeof name, "MXCSR %s set: forward_f32 gives the default mode's bits and leaves %s set", names[k], names[k]);
         snprintf(why, sizeof why, "returned %d (%s), MXCSR after %#x", err, dropout_strerror(err), after);
         check(err == DROPOUT_OK && !memcmp(y, want, sizeof y) && (after & 0x8040u) == (unsigned int)modes[k], name, why);
      }
   }
#else
   printf("SKIP runtime flush: the MXCSR check is x86's (Arm FZ is checked where the header supports it)\n");
#endif
   return failures ? 1 : 0;
}
