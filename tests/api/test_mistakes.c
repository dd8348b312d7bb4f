/* test_mistakes.c - the mistakes that returned DROPOUT_OK with a wrong result in 0.9, each
   now impossible or refused with nothing written:
     1. last step's plan used for this step, or two layers from copies of one generator:
        a step's forward takes the generator, so consecutive steps draw fresh positions;
        running a mask again is the named dropout_replay_*;
     2. another layer's plan on a smaller buffer, a count of 2^40, a negative int: every
        call takes n and refuses one that differs from the plan's or that no buffer has;
     3. a rule edited or written by hand ({128, 3.0, 3.0f, 8}; bits = 16 on an 8-bit rule):
        refused by every call; DROPOUT_RULE_THRESHOLD makes checked constants;
     4. a p realised far off (0.00196 at 8 bits: +99%; 0.998: keep 0.0039 for 0.002):
        refused, naming the width that honours it; the quantised p is an explicit opt-in;
     6. a NULL names its argument; dropout_plan_at fills its output on error, after
        reading the rule (a plan re-aimed with its own rule became p = 0);
     8. a copy of the generator (passed by value, a model struct copied, bytes loaded into
        another place, never initialised): refused by every call that moves it, nothing
        written; dropout_gen_resume gives a loaded generator its place explicitly;
     9. a descriptor run again without dropout_desc_new_step (the loop that forgot it, the
        forward and backward toggled by set_op, last step's plan set again, a descriptor
        passed by value or copied from a template): the second forward of a plan is
        refused, nothing written; the same mask again is the named dropout_desc_replay, a
        move the named dropout_desc_move;
    10. one generator for layers of different draw widths (a 32-bit layer where p needs
        it, 8-bit ones elsewhere; a Gaussian layer, whose normals read words in pairs):
        positions of another width started at `next` and read the same stream words
        again; a plan of another width now starts past every word handed out. A
        descriptor's records compare plans of two kinds by the words they read (8-bit
        positions 4 .. 7 and a 32-bit position 1 are one word), and set_op between
        dropout and normals spends the plan reserved for the other kind;
    11. a checkpoint of such a generator: key and next alone, resumed, read next as the
        first plan's kind (32-bit words 0 .. 9 handed out, next = 10, resumed into an
        8-bit plan: positions 10 .., words 2 .., drawn again). The generator keeps what
        next counts (g.units), dropout_gen_resume takes it (three arguments are a
        compile error), and every call refuses units that cannot say what next counts;
    12. a plan of dropout_gen_plan given to a GAUSSIAN descriptor read its positions as
        normals (words 2 pos ..: the generator's next plans), one of
        dropout_gen_plan_normals run by dropout_replay_* as dropout draws (words the
        generator had handed out before), a plan given another width's rule read other
        words again. A plan says what it counts (plan.units), every call that makes one
        sets it, and every call that runs one refuses the other kind, nothing written. */
#include <stdio.h>
#include <string.h>
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

enum { N1 = 256, N2 = 64 };
static float x[N1], y[N1 + 16], y2[N1];
static uint8_t m1[N1 / 8], m2[N1 / 8];

/* two plans field by field (a plan has padding after units, which memcmp would read) */
static int same_plan(const dropout_plan *a, const dropout_plan *b)
{
   return a->rule.threshold == b->rule.threshold && a->rule.bits == b->rule.bits && a->key.seed == b->key.seed &&
          a->key.stream == b->key.stream && a->pos == b->pos && a->count == b->count && a->units == b->units;
}

static int canary_ok(const float *p, size_t from, size_t to)
{
   size_t i;
   for (i = from; i < to; ++i) if (p[i] != -7.0f) return 0;
   return 1;
}

static void case_fresh_steps(void)
{
   dropout_rule r;
   dropout_gen g;
   dropout_plan p1, p2;
   int i;
   dropout_gen_init(&g, dropout_key_make(2024, 0));
   for (i = 0; i < N1; ++i) x[i] = 1.0f;
   dropout_rule_init(&r, 0.5, DROPOUT_BITS_8);
   CHECK(dropout_forward_f32(&g, &r, &p1, N1, y, m1, x) == DROPOUT_OK, "step 1");
   CHECK(dropout_forward_f32(&g, &r, &p2, N1, y2, m2, x) == DROPOUT_OK, "step 2");
   CHECK(p1.pos == 0 && p2.pos == N1 && g.next == 2 * N1, "the steps took positions 0 and %d, g at %llu", N1, (unsigned long long)g.next);
   CHECK(memcmp(m1, m2, sizeof m1) != 0, "two steps drew the same mask");
   /* running step 1's mask again is the named door, and gives step 1's bits */
   CHECK(dropout_replay_f32(&p1, N1, y2, m2, x) == DROPOUT_OK && !memcmp(m1, m2, sizeof m1), "replay of step 1");
   CHECK(g.next == 2 * N1, "replay moved the generator");
   case_end("mistakes 1: a step's forward takes fresh positions from the generator; the same mask again only through dropout_replay_*");
}

static void case_counts(void)
{
   dropout_rule r;
   dropout_gen g;
   dropout_plan layer1, layer2;
   int neg = -16;
   size_t i;
   dropout_gen_init(&g, dropout_key_make(1, 1));
   dropout_rule_init(&r, 0.5, DROPOUT_BITS_16);
   dropout_gen_plan(&g, &r, N1, &layer1);
   dropout_gen_plan(&g, &r, N2, &layer2);
   for (i = 0; i < N1 + 16; ++i) y[i] = -7.0f;
   /* layer 1's plan on layer 2's 64-float buffer: 0.9 wrote 256 floats */
   CHECK(dropout_backward_f32(&layer1, N2, y, x) == DROPOUT_ERR_COUNT && canary_ok(y, 0, N1 + 16), "another layer's plan");
   CHECK(dropout_replay_f32(&layer1, N2, y, NULL, x) == DROPOUT_ERR_COUNT && canary_ok(y, 0, N1 + 16), "replay, another layer's plan");
   CHECK(dropout_mask(&layer1, N2, m1) == DROPOUT_ERR_COUNT, "mask, another layer's plan");
   /* a negative int: 2^64 - 16 as a size_t */
   CHECK(dropout_forward_f32(&g, &r, NULL, (size_t)neg, y, NULL, x) == DROPOUT_ERR_SIZE && canary_ok(y, 0, N1 + 16), "negative count");
   CHECK(dropout_fill_u32(g.key, dropout_pos_make(0), (uint32_t *)(void *)y, (size_t)neg) == DROPOUT_ERR_SIZE && canary_ok(y, 0, N1 + 16), "negative fill");
   CHECK(dropout_gen_plan(&g, &r, (uint64_t)(int64_t)neg, &layer2) == DROPOUT_ERR_SIZE, "negative plan count");
   /* 2^40 elements with a plan of 2^40: the caller's word, taken; with a plan of 256: refused */
   CHECK(dropout_backward_f32(&layer1, (size_t)1 << 40, y, x) == DROPOUT_ERR_COUNT && canary_ok(y, 0, N1 + 16), "2^40 against 256");
   case_end("mistakes 2: the count is taken and checked: another layer's plan, a negative int, 2^40");
}

static void case_rules(void)
{
   static const dropout_rule table[2] = { DROPOUT_RULE_THRESHOLD(26, 8), DROPOUT_RULE_THRESHOLD(6554, 16) };
   dropout_rule hand = {128, 3.0, 3.0f, 8}, edited;
   dropout_gen g;
   dropout_plan p;
   size_t i;
   dropout_gen_init(&g, dropout_key_make(1, 1));
   for (i = 0; i < N1 + 16; ++i) y[i] = -7.0f;
   CHECK(dropout_forward_f32(&g, &hand, &p, N1, y, NULL, x) == DROPOUT_ERR_RULE && canary_ok(y, 0, N1 + 16) && g.next == 0,
         "{128, 3.0, 3.0f, 8} accepted");
   dropout_rule_init_quantised(&edited, 0.1, DROPOUT_BITS_8);
   edited.bits = 16;
   CHECK(dropout_forward_f32(&g, &edited, &p, N1, y, NULL, x) == DROPOUT_ERR_RULE && canary_ok(y, 0, N1 + 16), "bits = 16 on an 8-bit rule accepted");
   CHECK(dropout_apply_mask_f32(&edited, N1, y, m1, x) == DROPOUT_ERR_RULE && canary_ok(y, 0, N1 + 16), "apply_mask took the edited rule");
   CHECK(dropout_forward_f32(&g, &table[0], &p, N1, y, NULL, x) == DROPOUT_OK &&
         dropout_forward_f32(&g, &table[1], &p, N1, y, NULL, x) == DROPOUT_OK, "a DROPOUT_RULE_THRESHOLD constant refused");
   case_end("mistakes 3: rules whose fields disagree are refused; DROPOUT_RULE_THRESHOLD constants run");
}

static void case_p(void)
{
   dropout_rule r;
   CHECK(dropout_rule_init(&r, 0.00196, DROPOUT_BITS_8) == DROPOUT_ERR_P_NEEDS_16, "p = 0.00196 at 8 bits");
   CHECK(dropout_rule_init(&r, 0.998, DROPOUT_BITS_8) == DROPOUT_ERR_P_NEEDS_16, "p = 0.998 at 8 bits");
   CHECK(strstr(dropout_strerror(DROPOUT_ERR_P_NEEDS_16), "DROPOUT_BITS_16") != NULL, "the message names the width");
   CHECK(dropout_rule_init_quantised(&r, 0.998, DROPOUT_BITS_8) == DROPOUT_OK && r.threshold == 255, "the quantised opt-in");
   case_end("mistakes 4: p realised more than 1% off refused with the width that honours it; quantised on request");
}

static void case_null_names(void)
{
   dropout_rule r;
   dropout_plan p;
   dropout_gen g;
   dropout_gen_init(&g, dropout_key_make(1, 1));
   dropout_rule_init(&r, 0.5, DROPOUT_BITS_8);
   CHECK(dropout_forward_f32(&g, &r, NULL, N1, NULL, NULL, x) == DROPOUT_ERR_NULL_OUTPUT &&
         strstr(dropout_strerror(DROPOUT_ERR_NULL_OUTPUT), "output") && !strstr(dropout_strerror(DROPOUT_ERR_NULL_OUTPUT), "plan"),
         "NULL y: not named alone");
   /* an unchecked dropout_plan_at leaves an initialised (empty) plan */
   memset(&p, 0xA5, sizeof p);
   CHECK(dropout_plan_at(&p, NULL, g.key, dropout_pos_make(5), N1) == DROPOUT_ERR_NULL_RULE && p.count == 0 && p.pos == 5, "plan_at on error");
   CHECK(dropout_replay_f32(&p, N1, y, NULL, x) == DROPOUT_ERR_COUNT, "the empty plan runs as a 256-element one");
   /* a plan re-aimed at other coordinates, its own rule kept: the rule is read before the
      empty plan is written over it (which made it p = 0: nothing dropped) */
   CHECK(dropout_plan_at(&p, &r, g.key, dropout_pos_make(0), N1) == DROPOUT_OK &&
         dropout_plan_at(&p, &p.rule, g.key, dropout_pos_make(N1), N1) == DROPOUT_OK &&
         p.rule.threshold == r.threshold && p.rule.bits == r.bits && p.rule.scale_f32 == r.scale_f32 && p.pos == N1 && p.count == N1,
         "dropout_plan_at(&p, &p.rule, ...) kept threshold %u, not %u", (unsigned)p.rule.threshold, (unsigned)r.threshold);
   case_end("mistakes 6: a NULL names its argument; dropout_plan_at fills its output on every path, and reads its rule first");
}

/* the descriptor kept for a layer's whole run: set_op gives the backward of the forward it
   ran, new_step fresh positions for the same shape, shape_positions the count before any
   plan exists (item 7 of the issue) */
static void case_descriptor(void)
{
   static const size_t dims[2] = {8, 32};
   dropout_rule r;
   dropout_gen g;
   dropout_plan p;
   dropout_desc d;
   dropout_tensors t;
   uint64_t positions = 0, again = 0;
   float want[N1];
   dropout_gen_init(&g, dropout_key_make(5, 5));
   memset(&t, 0, sizeof t);
   dropout_rule_init(&r, 0.5, DROPOUT_BITS_8);
   CHECK(dropout_shape_positions(2, dims, 2u, &positions) == DROPOUT_OK && positions == 8, "shape_positions: %llu", (unsigned long long)positions);
   CHECK(dropout_gen_plan(&g, &r, positions, &p) == DROPOUT_OK, "plan");
   CHECK(dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &p) == DROPOUT_OK &&
         dropout_desc_set_shape(&d, 2, dims) == DROPOUT_OK && dropout_desc_set_broadcast(&d, 2u) == DROPOUT_OK &&
         dropout_desc_positions(&d, &again) == DROPOUT_OK && again == positions, "the descriptor");
   t.out = y; t.in = x; t.mask = m1;
   CHECK(dropout_run(&d, &t) == DROPOUT_OK, "forward");
   /* the backward: the same descriptor with another op gives what a fresh BACKWARD one gives */
   CHECK(dropout_desc_set_op(&d, DROPOUT_OP_BACKWARD) == DROPOUT_OK, "set_op");
   t.mask = NULL; t.out = y2;
   CHECK(dropout_run(&d, &t) == DROPOUT_OK && !memcmp(y, y2, sizeof want), "backward after set_op differs from the forward's mask");
   /* the next step: fresh positions, another mask */
   CHECK(dropout_desc_set_op(&d, DROPOUT_OP_MASK) == DROPOUT_OK, "set_op mask");
   CHECK(dropout_desc_new_step(&d, &g) == DROPOUT_OK && g.next == 2 * positions, "new_step: g at %llu", (unsigned long long)g.next);
   t.out = NULL; t.in = NULL; t.mask = m2;
   CHECK(dropout_run(&d, &t) == DROPOUT_OK && m1[0] != m2[0], "new_step drew the same mask");
   CHECK(dropout_desc_set_plan(&d, &p) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_OK && m1[0] == m2[0], "set_plan: the old plan's mask");
   CHECK(dropout_desc_set_op(&d, (dropout_op)42) == DROPOUT_ERR_OP && dropout_desc_new_step(&d, NULL) == DROPOUT_ERR_NULL_GEN &&
         dropout_shape_positions(2, NULL, 0, &again) == DROPOUT_ERR_NULL_DIMS, "the setters' errors");
   case_end("mistakes 7: one descriptor per layer: set_op for the backward, new_step for the next step, shape_positions without a plan");
}

/* the layer a user writes with the generator by value: its forward moves the copy */
static int layer_by_value(dropout_gen g, const dropout_rule *r, float *out)
{
   return dropout_forward_f32(&g, r, NULL, N1, out, NULL, x);
}

static void case_copies(void)
{
   static const size_t dims[1] = {N1};
   struct model { float w; dropout_gen g; } a, b;
   dropout_rule r;
   dropout_plan p, q;
   dropout_desc d;
   dropout_gen zero, loaded;
   size_t i;
   for (i = 0; i < N1; ++i) x[i] = 1.0f;
   dropout_rule_init(&r, 0.5, DROPOUT_BITS_8);
   a.w = 1.0f;
   dropout_gen_init(&a.g, dropout_key_make(8, 8));
   b = a;                                                  /* a model copied */
   for (i = 0; i < N1 + 16; ++i) y[i] = -7.0f;
   CHECK(layer_by_value(a.g, &r, y) == DROPOUT_ERR_GEN_MOVED && canary_ok(y, 0, N1 + 16), "a generator passed by value ran");
   CHECK(dropout_forward_f32(&b.g, &r, &p, N1, y, NULL, x) == DROPOUT_ERR_GEN_MOVED && canary_ok(y, 0, N1 + 16) && b.g.next == 0,
         "the copied model's generator ran");
   CHECK(dropout_bias_dropout_add_f32(&b.g, &r, &p, N1, N1, y, NULL, x, x, x) == DROPOUT_ERR_GEN_MOVED && canary_ok(y, 0, N1 + 16),
         "the fused op took a copy");
   CHECK(dropout_gen_plan(&b.g, &r, N1, &p) == DROPOUT_ERR_GEN_MOVED && b.g.next == 0, "gen_plan took a copy");
   CHECK(dropout_gen_plan(&a.g, &r, N1, &p) == DROPOUT_OK, "the original refused");
   CHECK(dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &p) == DROPOUT_OK && dropout_desc_set_shape(&d, 1, dims) == DROPOUT_OK &&
         dropout_desc_new_step(&d, &b.g) == DROPOUT_ERR_GEN_MOVED && b.g.next == 0, "new_step took a copy");
   memset(&zero, 0, sizeof zero);
   CHECK(dropout_forward_f32(&zero, &r, NULL, N1, y, NULL, x) == DROPOUT_ERR_GEN_MOVED && canary_ok(y, 0, N1 + 16), "a zeroed generator ran");
   /* a checkpoint: the bytes of a.g loaded into another generator */
   memcpy(&loaded, &a.g, sizeof loaded);
   CHECK(dropout_gen_plan(&loaded, &r, N1, &q) == DROPOUT_ERR_GEN_MOVED, "loaded bytes ran without dropout_gen_resume");
   CHECK(dropout_gen_resume(&loaded, a.g.key, a.g.next, a.g.units) == DROPOUT_OK && dropout_gen_plan(&loaded, &r, N1, &q) == DROPOUT_OK &&
         dropout_gen_plan(&a.g, &r, N1, &p) == DROPOUT_OK && q.pos == p.pos && q.pos == N1, "resume: %llu", (unsigned long long)q.pos);
   CHECK(dropout_gen_init(NULL, a.g.key) == DROPOUT_ERR_NULL_GEN && dropout_gen_resume(NULL, a.g.key, 0, DROPOUT_UNITS_NONE) == DROPOUT_ERR_NULL_GEN, "NULL g");
   /* a model moved by hand: the new place continues, the old one is refused */
   CHECK(dropout_gen_move(&b.g, &a.g) == DROPOUT_OK && b.g.next == 2 * N1 && dropout_gen_plan(&b.g, &r, N1, &q) == DROPOUT_OK &&
         q.pos == 2 * N1, "move: %llu", (unsigned long long)q.pos);
   CHECK(dropout_gen_plan(&a.g, &r, N1, &p) == DROPOUT_ERR_GEN_MOVED && a.g.next == 2 * N1, "the old place of a moved generator ran");
   CHECK(dropout_gen_move(&loaded, &a.g) == DROPOUT_ERR_GEN_MOVED && dropout_gen_move(NULL, &b.g) == DROPOUT_ERR_NULL_GEN &&
         dropout_gen_move(&b.g, &b.g) == DROPOUT_OK && b.g.next == 3 * N1, "move from a moved-out generator, to NULL, onto itself");
   CHECK(strstr(dropout_strerror(DROPOUT_ERR_GEN_MOVED), "dropout_gen_resume") != NULL, "the message names the fix");
   case_end("mistakes 8: a copied, zeroed or loaded generator is refused, nothing written; dropout_gen_resume places a loaded one, dropout_gen_move a moved one");
}

/* a layer that takes its descriptor by value: the run spends the copy's plan, never the
   caller's, so the caller's would run again */
static int layer_desc_by_value(dropout_desc d, const dropout_tensors *t)
{
   return dropout_run(&d, t);
}

static void case_spent_plans(void)
{
   static const dropout_op steps[] = { DROPOUT_OP_FORWARD, DROPOUT_OP_MASK, DROPOUT_OP_ALPHA_FORWARD, DROPOUT_OP_GAUSSIAN,
                                       DROPOUT_OP_NOISE, DROPOUT_OP_BIAS_DROPOUT_ADD };
   static const float bias[N2] = {0};
   dropout_rule r;
   dropout_gen g;
   dropout_plan p;
   dropout_desc d, copy, tmpl;
   dropout_tensors t;
   size_t i, k;
   uint64_t next;
   for (i = 0; i < N1; ++i) x[i] = (float)i;
   dropout_rule_init(&r, 0.5, DROPOUT_BITS_8);
   dropout_gen_init(&g, dropout_key_make(9, 9));
   memset(&t, 0, sizeof t);
   /* every op that draws a step's mask spends the plan; the second run writes nothing */
   for (k = 0; k < sizeof steps / sizeof steps[0]; ++k) {
      int fused = steps[k] == DROPOUT_OP_BIAS_DROPOUT_ADD, mask_only = steps[k] == DROPOUT_OP_MASK;
      int normals = steps[k] == DROPOUT_OP_GAUSSIAN || steps[k] == DROPOUT_OP_NOISE;
      CHECK((normals ? dropout_gen_plan_normals : dropout_gen_plan)(&g, &r, N1, &p) == DROPOUT_OK &&
            dropout_desc_init(&d, steps[k], DROPOUT_DTYPE_F32, &p) == DROPOUT_OK, "op %s: init", dropout_op_name(steps[k]));
      if (steps[k] == DROPOUT_OP_NOISE) dropout_desc_set_sigma(&d, 0.5);
      if (fused) dropout_desc_set_bias_len(&d, N2);
      t.out = mask_only ? NULL : y; t.in = mask_only ? NULL : x; t.mask = mask_only ? m1 : NULL;
      t.bias = fused ? bias : NULL; t.residual = fused ? x : NULL;
      CHECK(dropout_run(&d, &t) == DROPOUT_OK, "op %s: the first run", dropout_op_name(steps[k]));
      for (i = 0; i < N1 + 16; ++i) y[i] = -7.0f;
      memset(m1, 0xA5, sizeof m1);
      CHECK(dropout_run(&d, &t) == DROPOUT_ERR_PLAN_RAN && canary_ok(y, 0, N1 + 16) && m1[0] == 0xA5 && m1[N1 / 8 - 1] == 0xA5,
            "op %s: a second run of one plan drew its mask again", dropout_op_name(steps[k]));
   }
   memset(&t, 0, sizeof t);
   /* the training loop that forgot new_step, with the forward and backward toggled */
   CHECK(dropout_gen_plan(&g, &r, N1, &p) == DROPOUT_OK && dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &p) == DROPOUT_OK, "init");
   t.out = y; t.in = x; t.mask = m1;
   CHECK(dropout_run(&d, &t) == DROPOUT_OK, "step 1 forward");
   t.mask = NULL; t.out = y2;
   CHECK(dropout_desc_set_op(&d, DROPOUT_OP_BACKWARD) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_OK &&
         !memcmp(y, y2, sizeof y2), "a backward reads the plan as often as it runs");
   t.out = y; t.mask = m2;
   next = g.next;
   CHECK(dropout_desc_set_op(&d, DROPOUT_OP_FORWARD) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_ERR_PLAN_RAN && g.next == next,
         "step 2's forward on step 1's plan ran");
   /* checkpoint recomputation: the same mask again, said so */
   CHECK(dropout_desc_replay(&d) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_OK && !memcmp(m1, m2, sizeof m1) && !memcmp(y, y2, sizeof y2),
         "replay: another mask");
   CHECK(dropout_run(&d, &t) == DROPOUT_ERR_PLAN_RAN, "a replay is one run");
   CHECK(dropout_desc_new_step(&d, &g) == DROPOUT_OK && g.next == next + N1 && dropout_run(&d, &t) == DROPOUT_OK && memcmp(m1, m2, sizeof m1),
         "new_step: the same mask");
   /* last step's plan kept in a variable and set again: its positions were drawn */
   {
      dropout_plan last, half, before, other;
      CHECK(dropout_gen_plan(&g, &r, N1, &last) == DROPOUT_OK && dropout_desc_set_plan(&d, &last) == DROPOUT_OK &&
            dropout_run(&d, &t) == DROPOUT_OK, "a plan set");
      CHECK(dropout_desc_set_plan(&d, &last) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_ERR_PLAN_RAN, "last step's plan set again ran");
      CHECK(dropout_plan_at(&half, &r, last.key, dropout_pos_make(last.pos + N1 / 2), N1) == DROPOUT_OK &&
            dropout_desc_set_plan(&d, &half) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_ERR_PLAN_RAN, "a plan half over the drawn one ran");
      /* d holds `half`, which did not arm; a plan over the drawn positions' first half
         and before them, clear of `half`, still meets what d drew */
      CHECK(dropout_plan_at(&before, &r, last.key, dropout_pos_make(last.pos - N1 / 2), N1) == DROPOUT_OK &&
            dropout_desc_set_plan(&d, &before) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_ERR_PLAN_RAN,
            "after a plan that did not arm, one over the other half of the drawn positions ran");
      /* a fresh plan set, or a step begun, and no forward run (an evaluation step, an early
         exit): the plan drawn last is still refused when passed again */
      CHECK(dropout_desc_replay(&d) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_OK &&
            dropout_gen_plan(&g, &r, N1, &half) == DROPOUT_OK && dropout_desc_set_plan(&d, &half) == DROPOUT_OK &&
            dropout_desc_set_plan(&d, &before) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_ERR_PLAN_RAN,
            "a plan set and never run, then the drawn one again: it ran");
      CHECK(dropout_desc_new_step(&d, &g) == DROPOUT_OK && dropout_desc_set_plan(&d, &before) == DROPOUT_OK &&
            dropout_run(&d, &t) == DROPOUT_ERR_PLAN_RAN, "a step begun and not run, then the drawn plan again: it ran");
      CHECK(dropout_plan_at(&other, &r, dropout_key_make(last.key.seed, last.key.stream + 1), dropout_pos_make(last.pos), N1) == DROPOUT_OK &&
            dropout_desc_set_plan(&d, &other) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_OK, "the same positions of another stream refused");
   }
   /* copies: a by-value parameter, a template copied each step, a copy for another layer */
   CHECK(dropout_desc_new_step(&d, &g) == DROPOUT_OK, "new_step");
   for (i = 0; i < N1 + 16; ++i) y[i] = -7.0f;
   t.mask = NULL;
   CHECK(layer_desc_by_value(d, &t) == DROPOUT_ERR_DESC_MOVED && canary_ok(y, 0, N1 + 16), "a descriptor passed by value ran");
   tmpl = d;
   copy = tmpl;
   CHECK(dropout_run(&copy, &t) == DROPOUT_ERR_DESC_MOVED && canary_ok(y, 0, N1 + 16), "a copy of a template ran");
   CHECK(dropout_desc_set_plan(&copy, &d.dropout__plan) == DROPOUT_OK && dropout_run(&copy, &t) == DROPOUT_ERR_DESC_MOVED,
         "a copy given its original's plan again ran");
   {  /* the same through a plan that did not arm: the copy still may not draw its original's */
      dropout_plan after, before;
      CHECK(dropout_plan_at(&after, &r, d.dropout__plan.key, dropout_pos_make(d.dropout__plan.pos + N1 / 2), N1) == DROPOUT_OK &&
            dropout_plan_at(&before, &r, d.dropout__plan.key, dropout_pos_make(d.dropout__plan.pos - N1 / 2), N1) == DROPOUT_OK &&
            dropout_desc_set_plan(&copy, &after) == DROPOUT_OK && dropout_run(&copy, &t) == DROPOUT_ERR_DESC_MOVED &&
            dropout_desc_set_plan(&copy, &before) == DROPOUT_OK && dropout_run(&copy, &t) == DROPOUT_ERR_DESC_MOVED &&
            canary_ok(y, 0, N1 + 16), "a copy given a plan over its original's, after one that did not arm, ran");
   }
   CHECK(dropout_desc_new_step(&copy, &g) == DROPOUT_OK && dropout_run(&copy, &t) == DROPOUT_OK, "a copy given its own step");
   CHECK(dropout_run(&d, &t) == DROPOUT_OK, "the original, after its copies were refused");
   copy = d;
   CHECK(dropout_run(&copy, &t) == DROPOUT_ERR_PLAN_RAN, "a copy of a descriptor that drew: not PLAN_RAN");
   /* moved on purpose (a layer table grown by hand): the new place draws, the old is refused */
   CHECK(dropout_desc_new_step(&d, &g) == DROPOUT_OK && dropout_desc_move(&copy, &d) == DROPOUT_OK &&
         dropout_run(&d, &t) == DROPOUT_ERR_DESC_MOVED && dropout_run(&copy, &t) == DROPOUT_OK && dropout_run(&copy, &t) == DROPOUT_ERR_PLAN_RAN,
         "dropout_desc_move");
   CHECK(dropout_desc_move(&d, &copy) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_ERR_PLAN_RAN && dropout_run(&copy, &t) == DROPOUT_ERR_PLAN_RAN,
         "a moved descriptor that drew, drew again");
   CHECK(dropout_desc_move(NULL, &d) == DROPOUT_ERR_NULL_DESC && dropout_desc_move(&d, NULL) == DROPOUT_ERR_NULL_DESC &&
         dropout_desc_move(&d, &d) == DROPOUT_OK, "move to or from NULL, onto itself");
   /* a stale copy moved back over the original, or a move there and back: no re-arming */
   CHECK(dropout_desc_new_step(&d, &g) == DROPOUT_OK, "new_step");
   copy = d;
   CHECK(dropout_run(&d, &t) == DROPOUT_OK && dropout_desc_move(&d, &copy) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_ERR_DESC_MOVED,
         "a copy saved before the run, moved back, drew again");
   CHECK(dropout_desc_new_step(&d, &g) == DROPOUT_OK && dropout_desc_move(&copy, &d) == DROPOUT_OK && dropout_run(&copy, &t) == DROPOUT_OK &&
         dropout_desc_move(&copy, &d) == DROPOUT_OK && dropout_run(&copy, &t) == DROPOUT_ERR_DESC_MOVED, "a move there and back drew again");
   /* the arguments first: a spent plan with a bad argument names the argument */
   {
      dropout_job j;
      dropout_tensors bad = t;
      bad.in = NULL;
      CHECK(dropout_run(&copy, &bad) == DROPOUT_ERR_NULL_INPUT && dropout_lower(&copy, &t, NULL) == DROPOUT_ERR_NULL_RESULT &&
            dropout_lower(&copy, &t, &j) == DROPOUT_ERR_DESC_MOVED, "a spent plan's refusal came before an argument's");
   }
   /* a copy for the backward reads the plan */
   copy = d;
   t.out = y2;
   CHECK(dropout_desc_set_op(&copy, DROPOUT_OP_BACKWARD) == DROPOUT_OK && dropout_run(&copy, &t) == DROPOUT_OK && !memcmp(y, y2, sizeof y2),
         "the backward's copy");
   /* a backend of one's own: dropout_lower, then dropout_desc_ran */
   {
      dropout_job j;
      CHECK(dropout_desc_new_step(&d, &g) == DROPOUT_OK && dropout_lower(&d, &t, &j) == DROPOUT_OK && dropout_lower(&d, &t, &j) == DROPOUT_OK &&
            dropout_desc_ran(&d) == DROPOUT_OK && dropout_lower(&d, &t, &j) == DROPOUT_ERR_PLAN_RAN && dropout_desc_ran(NULL) == DROPOUT_ERR_NULL_DESC,
            "lowering spends nothing; dropout_desc_ran does");
   }
   /* GAUSSIAN's backward is the same op: a replay */
   CHECK(dropout_gen_plan_normals(&g, &r, N1, &p) == DROPOUT_OK && dropout_desc_init(&d, DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F32, &p) == DROPOUT_OK &&
         dropout_run(&d, &t) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_ERR_PLAN_RAN, "gaussian forward");
   t.out = y;
   CHECK(dropout_desc_replay(&d) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_OK && !memcmp(y, y2, sizeof y2), "gaussian's backward");
   /* an empty plan is spent too (one rule for every count) */
   CHECK(dropout_gen_plan(&g, &r, 0, &p) == DROPOUT_OK && dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &p) == DROPOUT_OK &&
         dropout_run(&d, &t) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_ERR_PLAN_RAN, "an empty plan");
   CHECK(dropout_desc_replay(NULL) == DROPOUT_ERR_NULL_DESC, "replay(NULL)");
   memset(&copy, 0, sizeof copy);
   CHECK(dropout_desc_replay(&copy) == DROPOUT_ERR_DESC, "replay of a descriptor never made");
   case_end("mistakes 9: a descriptor's forward draws its plan once per dropout_desc_new_step; again only through dropout_desc_replay; copies refused (dropout_desc_move moves), backward free");
}

/* the stream words a plan of n positions from pos reads at `bits` per draw: [*w0, *w1) */
static void words_of(uint64_t pos, uint64_t n, int bits, uint64_t *w0, uint64_t *w1)
{
   const uint64_t per = (uint64_t)(32 / bits);
   *w0 = pos / per;
   *w1 = (pos + n + per - 1) / per;
}

static void case_widths(void)
{
   static const int widths[] = { 32, 8, 16, 8, 32, 16, 16, 8, 8, 32 };
   static const uint64_t counts[] = { 100, 7, 13, 256, 5, 3, 64, 1, 9, 31 };
   dropout_gen g;
   dropout_rule r;
   dropout_plan p, q;
   dropout_desc d, e;
   uint64_t used = 0, w0, w1;   /* every word below `used` was handed out */
   size_t k;
   dropout_gen_init(&g, dropout_key_make(3, 4));
   for (k = 0; k < sizeof widths / sizeof widths[0]; ++k) {
      CHECK(dropout_rule_init(&r, 0.5, (dropout_bits)widths[k]) == DROPOUT_OK && dropout_gen_plan(&g, &r, counts[k], &p) == DROPOUT_OK,
            "plan %u", (unsigned)k);
      words_of(p.pos, p.count, widths[k], &w0, &w1);
      if (k && widths[k] == widths[k - 1])   /* the same width: the next draws (of a shared word, its other part) */
         CHECK(p.pos == q.pos + q.count, "plan %u: position %llu, not the next", (unsigned)k, (unsigned long long)p.pos);
      else   /* another width: past every word handed out */
         CHECK(w0 >= used, "plan %u (%d-bit, %u positions) starts at word %llu, below %llu words handed out", (unsigned)k,
               widths[k], (unsigned)counts[k], (unsigned long long)w0, (unsigned long long)used);
      used = w1;
      q = p;
   }
   /* one width: the positions follow each other, as they always did (the same bits) */
   dropout_rule_init(&r, 0.5, DROPOUT_BITS_8);
   CHECK(dropout_gen_plan(&g, &r, 5, &p) == DROPOUT_OK && dropout_gen_plan(&g, &r, 7, &q) == DROPOUT_OK && q.pos == p.pos + 5 &&
         g.next == q.pos + 7, "one width: consecutive positions");
   /* the short calls and the descriptor's step reserve the same way */
   dropout_rule_init(&r, 0.5, DROPOUT_BITS_32);
   CHECK(dropout_forward_f32(&g, &r, &p, N2, y, NULL, x) == DROPOUT_OK && p.pos == g.next - N2 && p.pos >= (q.pos + 7 + 3) / 4,
         "a 32-bit short call after 8-bit plans reads their words");
   /* normals read a word each (in pairs): a Gaussian layer's step, then an 8-bit layer's */
   dropout_rule_init(&r, 0.5, DROPOUT_BITS_8);
   CHECK(dropout_gen_plan_normals(&g, &r, N1, &p) == DROPOUT_OK && dropout_desc_init(&d, DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F32, &p) == DROPOUT_OK &&
         dropout_gen_plan(&g, &r, N1, &p) == DROPOUT_OK && dropout_desc_init(&e, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &p) == DROPOUT_OK,
         "init");
   CHECK(dropout_desc_new_step(&d, &g) == DROPOUT_OK && dropout_desc_new_step(&e, &g) == DROPOUT_OK, "steps");
   words_of(d.dropout__plan.pos, N1, 32, &w0, &w1);
   CHECK(e.dropout__plan.pos / 4 >= w1, "an 8-bit step after a Gaussian one starts at word %llu, inside its %llu..%llu",
         (unsigned long long)(e.dropout__plan.pos / 4), (unsigned long long)w0, (unsigned long long)w1);
   /* normals read words in pairs (normals 2k and 2k + 1 both read words 2k and 2k + 1):
      an odd count of normals, then 32-bit dropout; 32-bit dropout, then normals */
   dropout_rule_init(&r, 0.5, DROPOUT_BITS_32);
   CHECK(dropout_gen_plan_normals(&g, &r, N1, &p) == DROPOUT_OK && dropout_desc_init(&d, DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F32, &p) == DROPOUT_OK &&
         dropout_gen_plan(&g, &r, N1, &p) == DROPOUT_OK && dropout_desc_init(&e, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &p) == DROPOUT_OK &&
         dropout_desc_set_shape(&d, 1, (const size_t[]){ 5 }) == DROPOUT_OK && dropout_desc_set_shape(&e, 1, (const size_t[]){ 5 }) == DROPOUT_OK,
         "init, 5 elements");
   CHECK(dropout_desc_new_step(&d, &g) == DROPOUT_OK && dropout_desc_new_step(&e, &g) == DROPOUT_OK, "steps");
   CHECK(e.dropout__plan.pos > ((d.dropout__plan.pos + 4) | 1u), "32-bit dropout after 5 normals from %llu starts at word %llu, read by the last normal",
         (unsigned long long)d.dropout__plan.pos, (unsigned long long)e.dropout__plan.pos);
   CHECK(dropout_desc_new_step(&d, &g) == DROPOUT_OK && (d.dropout__plan.pos & ~(uint64_t)1) >= e.dropout__plan.pos + 5,
         "normals after 5 32-bit draws from %llu start at %llu: their pair's first word was drawn",
         (unsigned long long)e.dropout__plan.pos, (unsigned long long)d.dropout__plan.pos);
   /* a descriptor's records across kinds: by words */
   {
      dropout_tensors t;
      dropout_plan drawn, over, past;
      dropout_key key = dropout_key_make(11, 12);
      memset(&t, 0, sizeof t);
      t.out = y;
      t.in = x;
      dropout_rule_init(&r, 0.5, DROPOUT_BITS_32);
      CHECK(dropout_plan_at(&drawn, &r, key, dropout_pos_make(0), 5) == DROPOUT_OK &&
            dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &drawn) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_OK,
            "32-bit positions 0 .. 4 drawn");
      dropout_rule_init(&r, 0.5, DROPOUT_BITS_8);
      CHECK(dropout_plan_at(&over, &r, key, dropout_pos_make(5), 5) == DROPOUT_OK && dropout_desc_set_plan(&d, &over) == DROPOUT_OK &&
            dropout_run(&d, &t) == DROPOUT_ERR_PLAN_RAN, "8-bit positions 5 .. 9 (words 1 .. 2) after 32-bit words 0 .. 4 drew");
      CHECK(dropout_plan_at(&over, &r, key, dropout_pos_make(19), 5) == DROPOUT_OK && dropout_desc_set_plan(&d, &over) == DROPOUT_OK &&
            dropout_run(&d, &t) == DROPOUT_ERR_PLAN_RAN, "8-bit positions 19 .. 23 (words 4 .. 5) after 32-bit words 0 .. 4 drew");
      CHECK(dropout_plan_at(&past, &r, key, dropout_pos_make(20), 5) == DROPOUT_OK && dropout_desc_set_plan(&d, &past) == DROPOUT_OK &&
            dropout_run(&d, &t) == DROPOUT_OK, "8-bit positions 20 .. 24 (words 5 .. 6) refused");
      /* normals 0 .. 4 read words 0 .. 5 */
      dropout_rule_init(&r, 0.5, DROPOUT_BITS_32);
      CHECK(dropout_plan_at_normals(&drawn, &r, key, dropout_pos_make(100), 5) == DROPOUT_OK &&
            dropout_desc_init(&e, DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F32, &drawn) == DROPOUT_OK && dropout_run(&e, &t) == DROPOUT_OK &&
            dropout_desc_set_op(&e, DROPOUT_OP_FORWARD) == DROPOUT_OK &&
            dropout_plan_at(&over, &r, key, dropout_pos_make(105), 5) == DROPOUT_OK && dropout_desc_set_plan(&e, &over) == DROPOUT_OK &&
            dropout_run(&e, &t) == DROPOUT_ERR_PLAN_RAN, "a 32-bit position 105 after normals 100 .. 104 (words 100 .. 105) drew");
      CHECK(dropout_plan_at(&past, &r, key, dropout_pos_make(106), 5) == DROPOUT_OK && dropout_desc_set_plan(&e, &past) == DROPOUT_OK &&
            dropout_run(&e, &t) == DROPOUT_OK, "32-bit positions from 106 refused");
      /* set_op between the kinds: the plan counts the other kind's positions */
      for (k = 0; k < N1 + 16; ++k) y[k] = -7.0f;
      CHECK(dropout_desc_new_step(&e, &g) == DROPOUT_OK && dropout_desc_set_op(&e, DROPOUT_OP_GAUSSIAN) == DROPOUT_OK &&
            dropout_run(&e, &t) == DROPOUT_ERR_PLAN_UNITS && canary_ok(y, 0, N1 + 16), "normals drawn from positions reserved for 32-bit dropout");
      CHECK(dropout_desc_new_step(&e, &g) == DROPOUT_OK && dropout_run(&e, &t) == DROPOUT_OK &&
            dropout_desc_set_op(&e, DROPOUT_OP_NOISE) == DROPOUT_OK && dropout_desc_set_op(&e, DROPOUT_OP_GAUSSIAN) == DROPOUT_OK &&
            dropout_desc_replay(&e) == DROPOUT_OK && dropout_run(&e, &t) == DROPOUT_OK, "new_step, and set_op within the normals");
   }
   /* a GAUSSIAN plan from the generator: dropout_gen_plan_normals reserves normals (words in
      pairs), not draws of the rule's width; the next 8-bit or odd 32-bit plan starts past them */
   {
      dropout_tensors t;
      memset(&t, 0, sizeof t);
      t.out = y;
      t.in = x;
      dropout_rule_init(&r, 0.5, DROPOUT_BITS_8);
      CHECK(dropout_gen_plan_normals(&g, &r, 8, &p) == DROPOUT_OK && dropout_desc_init(&d, DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F32, &p) == DROPOUT_OK &&
            dropout_run(&d, &t) == DROPOUT_OK && dropout_gen_plan(&g, &r, 4, &q) == DROPOUT_OK && q.pos / 4 > ((p.pos + 7) | 1u),
            "an 8-bit plan after 8 normals from %llu starts at word %llu", (unsigned long long)p.pos, (unsigned long long)(q.pos / 4));
      dropout_rule_init(&r, 0.5, DROPOUT_BITS_32);
      CHECK(dropout_gen_plan_normals(&g, &r, 5, &p) == DROPOUT_OK && dropout_gen_plan(&g, &r, 1, &q) == DROPOUT_OK && q.pos > ((p.pos + 4) | 1u),
            "a 32-bit plan after 5 normals (words to %llu) at %llu", (unsigned long long)((p.pos + 4) | 1u), (unsigned long long)q.pos);
      /* set_op away from the plan's kind and back, nothing drawn: it may draw; drawn: refused */
      CHECK(dropout_gen_plan(&g, &r, N1, &p) == DROPOUT_OK && dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &p) == DROPOUT_OK &&
            dropout_desc_set_op(&d, DROPOUT_OP_GAUSSIAN) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_ERR_PLAN_UNITS &&
            dropout_desc_set_op(&d, DROPOUT_OP_FORWARD) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_OK &&
            dropout_desc_set_op(&d, DROPOUT_OP_NOISE) == DROPOUT_OK && dropout_desc_set_op(&d, DROPOUT_OP_FORWARD) == DROPOUT_OK &&
            dropout_run(&d, &t) == DROPOUT_ERR_PLAN_RAN, "set_op to normals and back: undrawn may draw, drawn stays refused");
      /* a plan given to a descriptor counts its op's draws: a dropout plan under GAUSSIAN
         is refused as set (the descriptor as it was), a normals plan runs */
      CHECK(dropout_gen_plan(&g, &r, N1, &p) == DROPOUT_OK && dropout_desc_set_plan(&d, &p) == DROPOUT_OK &&
            dropout_desc_set_op(&d, DROPOUT_OP_GAUSSIAN) == DROPOUT_OK && dropout_desc_set_plan(&d, &p) == DROPOUT_ERR_PLAN_UNITS &&
            dropout_gen_plan_normals(&g, &r, N1, &q) == DROPOUT_OK && dropout_desc_set_plan(&d, &q) == DROPOUT_OK &&
            dropout_run(&d, &t) == DROPOUT_OK && dropout_desc_set_op(&d, DROPOUT_OP_FORWARD) == DROPOUT_OK &&
            dropout_run(&d, &t) == DROPOUT_ERR_PLAN_UNITS, "a plan's units against the descriptor's op");
   }
   /* near the end of the stream: a width change past 2^64 is refused, g unchanged */
   dropout_gen_init(&g, dropout_key_make(3, 4));
   dropout_rule_init(&r, 0.5, DROPOUT_BITS_32);
   CHECK(dropout_gen_plan(&g, &r, UINT64_MAX / 2, &p) == DROPOUT_OK, "a long plan");
   dropout_rule_init(&r, 0.5, DROPOUT_BITS_8);
   w0 = g.next;
   CHECK(dropout_gen_plan(&g, &r, 1, &p) == DROPOUT_ERR_RANGE && g.next == w0, "8-bit positions past 2^64 not refused");
   case_end("mistakes 10: one generator for layers of different draw widths (and normals): no stream word read by two kinds; one kind as before (normals 2k, 2k + 1 of two calls share their pair by design)");
}

/* the plan of `count` positions of `kind` (8, 16, 32; -1: normals) from g */
static int plan_kind(dropout_gen *g, int kind, uint64_t count, dropout_plan *p)
{
   dropout_rule r;
   dropout_rule_init(&r, 0.5, kind < 0 ? DROPOUT_BITS_32 : (dropout_bits)kind);
   return kind < 0 ? dropout_gen_plan_normals(g, &r, count, p) : dropout_gen_plan(g, &r, count, p);
}

static void case_checkpoints(void)
{
   static const int kinds[] = { 32, 8, -1, 16, 8, -1, -1, 32, 16, 32 };
   static const uint64_t counts[] = { 10, 5, 5, 3, 9, 1, 7, 2, 5, 1 };
   static const int bad_units[] = { 1, 7, 64, -2, 24 };
   dropout_gen a, b, snap;
   dropout_plan p, q;
   dropout_rule r;
   dropout_desc d;
   size_t k;
   const size_t dims[1] = { N1 };
   /* every kind after every kind: a generator saved and resumed after each plan (a new
      place each time, as a checkpoint read back) hands out what the unbroken one does */
   dropout_gen_init(&a, dropout_key_make(21, 2));
   for (k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
      dropout_gen *g = k % 2 ? &b : &snap;
      CHECK(dropout_gen_resume(g, a.key, a.next, a.units) == DROPOUT_OK, "resume after plan %u", (unsigned)k);
      CHECK(plan_kind(&a, kinds[k], counts[k], &p) == DROPOUT_OK && plan_kind(g, kinds[k], counts[k], &q) == DROPOUT_OK &&
            same_plan(&p, &q) && g->next == a.next && g->units == a.units,
            "plan %u (kind %d): resumed at %llu, unbroken at %llu", (unsigned)k, kinds[k], (unsigned long long)q.pos, (unsigned long long)p.pos);
   }
   /* the 0.9 repeat, spelled out: 10 32-bit draws, then an 8-bit plan starts at word 10 */
   dropout_gen_init(&a, dropout_key_make(22, 0));
   CHECK(plan_kind(&a, 32, 10, &p) == DROPOUT_OK && a.units == DROPOUT_UNITS_32 && a.next == 10, "10 32-bit draws");
   CHECK(dropout_gen_resume(&b, a.key, a.next, a.units) == DROPOUT_OK && plan_kind(&b, 8, 4, &q) == DROPOUT_OK && q.pos == 40,
         "resumed, an 8-bit plan at %llu (word %llu), not past the 10 words", (unsigned long long)q.pos, (unsigned long long)(q.pos / 4));
   /* units that cannot say what next counts: refused, g not written */
   memset(&b, 0x5A, sizeof b);
   snap = b;
   CHECK(dropout_gen_resume(&b, a.key, 10, DROPOUT_UNITS_NONE) == DROPOUT_ERR_UNITS && !memcmp(&b, &snap, sizeof b),
         "a next of 10 without its units was taken");
   for (k = 0; k < sizeof bad_units / sizeof bad_units[0]; ++k)
      CHECK(dropout_gen_resume(&b, a.key, 0, (dropout_units)bad_units[k]) == DROPOUT_ERR_UNITS && !memcmp(&b, &snap, sizeof b),
            "units %d taken", bad_units[k]);
   CHECK(dropout_gen_resume(&b, a.key, 0, DROPOUT_UNITS_NONE) == DROPOUT_OK && dropout_gen_resume(&b, a.key, 5, DROPOUT_UNITS_NORMALS) == DROPOUT_OK,
         "NONE at 0, an odd count of normals");
   /* the fields set by hand: a next without units, units out of the list */
   dropout_gen_init(&b, a.key);
   b.next = 10;
   dropout_rule_init(&r, 0.5, DROPOUT_BITS_8);
   for (k = 0; k < N1 + 16; ++k) y[k] = -7.0f;
   CHECK(dropout_gen_plan(&b, &r, 4, &p) == DROPOUT_ERR_UNITS && dropout_forward_f32(&b, &r, &p, N1, y, NULL, x) == DROPOUT_ERR_UNITS &&
         canary_ok(y, 0, N1 + 16) && b.next == 10 && b.units == DROPOUT_UNITS_NONE, "g.next = 10 by hand after init was taken");
   CHECK(dropout_plan_at(&q, &r, a.key, dropout_pos_make(0), N1) == DROPOUT_OK && dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &q) == DROPOUT_OK &&
         dropout_desc_set_shape(&d, 1, dims) == DROPOUT_OK && dropout_desc_new_step(&d, &b) == DROPOUT_ERR_UNITS && b.next == 10,
         "new_step took a next without units");
   CHECK(dropout_gen_move(&a, &b) == DROPOUT_ERR_UNITS && b.next == 10, "move took a next without units");
   b.units = (dropout_units)12;
   b.next = 0;
   CHECK(dropout_gen_plan(&b, &r, 4, &p) == DROPOUT_ERR_UNITS, "units 12 set by hand taken");
   b.units = DROPOUT_UNITS_32;
   b.next = 10;
   CHECK(dropout_gen_plan(&b, &r, 4, &p) == DROPOUT_OK && p.pos == 40, "units set by hand with next: %llu", (unsigned long long)p.pos);
   CHECK(strstr(dropout_strerror(DROPOUT_ERR_UNITS), "units") != NULL && strstr(dropout_strerror(DROPOUT_ERR_GEN_MOVED), "units") != NULL,
         "the messages name units");
   case_end("mistakes 11: a checkpoint saves key, next and units; resumed, every kind after every kind continues as the unbroken generator; a next without its units refused, nothing written");
}

static void case_plan_units(void)
{
   dropout_rule r8, r16;
   dropout_gen g;
   dropout_plan p, q, s, hand;
   dropout_desc d, before;
   dropout_tensors t;
   size_t i;
   for (i = 0; i < N1; ++i) x[i] = (float)i;
   memset(&t, 0, sizeof t);
   t.out = y; t.in = x;
   dropout_rule_init(&r8, 0.5, DROPOUT_BITS_8);
   dropout_rule_init(&r16, 0.5, DROPOUT_BITS_16);
   dropout_gen_init(&g, dropout_key_make(12, 12));
   /* every call that makes a plan says what it counts; a slice keeps it */
   CHECK(dropout_gen_plan(&g, &r8, N1, &p) == DROPOUT_OK && p.units == DROPOUT_UNITS_8 &&
         dropout_gen_plan(&g, &r16, N1, &q) == DROPOUT_OK && q.units == DROPOUT_UNITS_16 &&
         dropout_gen_plan_normals(&g, &r8, N1, &s) == DROPOUT_OK && s.units == DROPOUT_UNITS_NORMALS, "gen_plan, gen_plan_normals");
   CHECK(dropout_plan_at(&q, &r16, g.key, dropout_pos_make(3), N1) == DROPOUT_OK && q.units == DROPOUT_UNITS_16 &&
         dropout_plan_at_normals(&q, &r16, g.key, dropout_pos_make(3), N1) == DROPOUT_OK && q.units == DROPOUT_UNITS_NORMALS &&
         dropout_plan_slice(&q, 8, 16, &q) == DROPOUT_OK && q.units == DROPOUT_UNITS_NORMALS &&
         dropout_forward_f32(&g, &r16, &q, N2, y, NULL, x) == DROPOUT_OK && q.units == DROPOUT_UNITS_16, "plan_at, _normals, slice, forward");
   /* the 8-bit plan given to GAUSSIAN, and the normals plan to the dropout calls: refused,
      nothing written (a descriptor's init writes nothing either) */
   for (i = 0; i < N1 + 16; ++i) y[i] = -7.0f;
   memset(m1, 0xA5, sizeof m1);
   memset(&d, 0x5A, sizeof d);
   before = d;
   CHECK(dropout_desc_init(&d, DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F32, &p) == DROPOUT_ERR_PLAN_UNITS &&
         dropout_desc_init(&d, DROPOUT_OP_NOISE, DROPOUT_DTYPE_F32, &p) == DROPOUT_ERR_PLAN_UNITS &&
         dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &s) == DROPOUT_ERR_PLAN_UNITS &&
         !memcmp(&d, &before, sizeof d), "a plan of the other kind given to a descriptor");
   CHECK(dropout_replay_f32(&s, N1, y, m1, x) == DROPOUT_ERR_PLAN_UNITS && dropout_backward_f32(&s, N1, y, x) == DROPOUT_ERR_PLAN_UNITS &&
         dropout_mask(&s, N1, m1) == DROPOUT_ERR_PLAN_UNITS && canary_ok(y, 0, N1 + 16) && m1[0] == 0xA5 && m1[N1 / 8 - 1] == 0xA5,
         "a normals plan run as dropout draws");
   /* a plan written by hand (0.9's four fields: units not set), and one given another
      width's rule */
   memset(&hand, 0, sizeof hand);
   hand.rule = r8; hand.key = p.key; hand.pos = p.pos; hand.count = N1;
   q = p;
   q.rule = r16;
   CHECK(dropout_replay_f32(&hand, N1, y, NULL, x) == DROPOUT_ERR_PLAN_UNITS && dropout_replay_f32(&q, N1, y, NULL, x) == DROPOUT_ERR_PLAN_UNITS &&
         dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &hand) == DROPOUT_ERR_PLAN_UNITS && canary_ok(y, 0, N1 + 16),
         "a plan by hand, a plan with another width's rule");
   CHECK(strstr(dropout_strerror(DROPOUT_ERR_PLAN_UNITS), "plan") == dropout_strerror(DROPOUT_ERR_PLAN_UNITS), "the message names plan");
   /* each kind by its own calls: GAUSSIAN on its normals plan, the descriptor's new_step
      after set_op makes positions of the new kind */
   CHECK(dropout_desc_init(&d, DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F32, &s) == DROPOUT_OK && dropout_run(&d, &t) == DROPOUT_OK &&
         dropout_desc_set_op(&d, DROPOUT_OP_FORWARD) == DROPOUT_OK && dropout_desc_new_step(&d, &g) == DROPOUT_OK &&
         d.dropout__plan.units == DROPOUT_UNITS_8 && dropout_run(&d, &t) == DROPOUT_OK &&
         dropout_desc_set_op(&d, DROPOUT_OP_NOISE) == DROPOUT_OK && dropout_desc_set_sigma(&d, 0.5) == DROPOUT_OK &&
         dropout_desc_new_step(&d, &g) == DROPOUT_OK && d.dropout__plan.units == DROPOUT_UNITS_NORMALS && dropout_run(&d, &t) == DROPOUT_OK,
         "each kind on its own plan");
   case_end("mistakes 12: a plan says what its positions count (plan.units); a plan of the other kind (dropout draws, normals), by hand or given another width's rule is refused by every call, nothing written");
}

int main(void)
{
   case_fresh_steps();
   case_counts();
   case_rules();
   case_p();
   case_null_names();
   case_descriptor();
   case_copies();
   case_spent_plans();
   case_widths();
   case_checkpoints();
   case_plan_units();
   return check_exit();
}
