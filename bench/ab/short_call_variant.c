/* short_call_variant.c - one header's f32 short call at explicit coordinates, for
   short_call.c: built twice, -DVNAME=A with a revision's dropout.h and -DVNAME=B with the
   working tree's, each object keeping only its two functions. A 0.9 header runs
   dropout_forward_f32(&plan, y, NULL, x); a 1.0 header (it defines DROPOUT_RULE_THRESHOLD)
   runs what replaced it, dropout_replay_f32(&plan, n, y, NULL, x): same coordinates, same
   bits, so the difference is the call's own cost (its checks) and its code's placement.
   _step is a step's forward from a generator (fresh positions each call) where the header
   has one: made in place (dropout_gen_init: the header defines dropout_gen_make as the
   error that names it) or by value (dropout_gen_make, 1.0 before that); a 0.9 header has
   none (-1). A and B make the same number of calls, so their last outputs are equal. */
#define DROPOUT_STATIC
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#define AB_CAT2(a, b) a##b
#define AB_CAT(a, b) AB_CAT2(a, b)
#define AB_FN(name) AB_CAT(AB_CAT(sc_, VNAME), name)

static dropout_plan sc_plan;
#if defined(DROPOUT_RULE_THRESHOLD)
static dropout_rule sc_rule;
static dropout_gen sc_gen;
#endif

void AB_FN(_init)(size_t n)
{
   dropout_rule r;
   (void)dropout_rule_init(&r, 0.25, DROPOUT_BITS_8);
   (void)dropout_plan_at(&sc_plan, &r, dropout_key_make(42, 7), dropout_pos_make(12345), n);
#if defined(dropout_gen_make)
   sc_rule = r;   /* moved to 8-bit position 12345 by a plan: every such header's way */
   (void)dropout_gen_init(&sc_gen, dropout_key_make(42, 7));
   {
      dropout_plan skip;
      (void)dropout_gen_plan(&sc_gen, &r, 12345, &skip);
   }
#elif defined(DROPOUT_RULE_THRESHOLD)
   sc_rule = r;
   sc_gen = dropout_gen_make(dropout_key_make(42, 7));
   sc_gen.next = 12345;
#endif
}

int AB_FN(_step)(float *y, const float *x, size_t n)
{
#if defined(DROPOUT_RULE_THRESHOLD)
   return dropout_forward_f32(&sc_gen, &sc_rule, NULL, n, y, NULL, x);
#else
   (void)y; (void)x; (void)n;
   return -1;
#endif
}

int AB_FN(_run)(float *y, const float *x, size_t n)
{
#if defined(DROPOUT_RULE_THRESHOLD)
   return dropout_replay_f32(&sc_plan, n, y, NULL, x);
#else
   (void)n;
   return dropout_forward_f32(&sc_plan, y, NULL, x);
#endif
}
