/* test_plan.c - plans: the generator hands out consecutive positions; slices of a plan
   (chunks for threads or ranks, slices of slices) give what one call on the whole gives,
   forward with masks (slices at multiples of 8), backward, and through dropout_run; a
   descriptor's positions are those of its mask shape. Oracle: the whole call, bytes. */
#include <stdio.h>
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"
#include "data.h"

enum { N = 5000 };
static float x[N], y_whole[N], y_parts[N], g_whole[N], g_parts[N];
static uint8_t m_whole[N / 8 + 1], m_parts[N / 8 + 1];

/* two plans field by field (a memcmp would read their padding, after scale_f32, which no
   call promises: it read other bytes as soon as the program's stack moved) */
static int plan_eq(const dropout_plan *a, const dropout_plan *b)
{
   return a->rule.threshold == b->rule.threshold && a->rule.bits == b->rule.bits &&
          !memcmp(&a->rule.scale_f64, &b->rule.scale_f64, sizeof a->rule.scale_f64) &&
          !memcmp(&a->rule.scale_f32, &b->rule.scale_f32, sizeof a->rule.scale_f32) &&
          a->key.seed == b->key.seed && a->key.stream == b->key.stream && a->pos == b->pos &&
          a->count == b->count && a->units == b->units;
}

static void case_slices(void)
{
   static const uint64_t cuts[][5] = {{0, 8, 64, 1000, N}, {0, 4992, N, N, N}, {0, 1, 2, 3, N}, {0, 2504, 2504, 4000, N}};
   dropout_rule r;
   dropout_plan whole, half, part;
   size_t c, k;
   int w;
   data_fill(DROPOUT_DTYPE_F32, x, N);
   for (w = 8; w <= 32; w *= 2)
      for (c = 0; c < sizeof cuts / sizeof cuts[0]; ++c) {
         dropout_gen g;
         dropout_plan first;
         dropout_gen_init(&g, dropout_key_make(31337, 4));
         dropout_rule_init(&r, 0.3, (dropout_bits)w);
         CHECK(dropout_gen_plan(&g, &r, 123, &first) == DROPOUT_OK && first.pos == 0, "first plan");
         CHECK(dropout_gen_plan(&g, &r, N, &whole) == DROPOUT_OK && whole.pos == 123 && whole.count == N && g.next == 123 + N, "second plan");
         dropout_replay_f32(&whole, (size_t)whole.count, y_whole, m_whole, x);
         dropout_backward_f32(&whole, (size_t)whole.count, g_whole, x);
         memset(y_parts, 0, sizeof y_parts); memset(m_parts, 0, sizeof m_parts); memset(g_parts, 0, sizeof g_parts);
         for (k = 0; k < 4; ++k) {
            uint64_t a = cuts[c][k], b = cuts[c][k + 1];
            int masks = a % 8 == 0;   /* a chunk that writes a mask starts on a byte */
            CHECK(dropout_plan_slice(&whole, a, b - a, &part) == DROPOUT_OK, "slice %llu..%llu", (unsigned long long)a, (unsigned long long)b);
            CHECK(dropout_replay_f32(&part, (size_t)part.count, y_parts + a, masks ? m_parts + a / 8 : NULL, x + a) == DROPOUT_OK, "forward slice");
            CHECK(dropout_backward_f32(&part, (size_t)part.count, g_parts + a, x + a) == DROPOUT_OK, "backward slice");
         }
         CHECK(!memcmp(y_whole, y_parts, sizeof y_whole), "bits %d cuts %zu: forward by slices != whole", w, c);
         CHECK(!memcmp(g_whole, g_parts, sizeof g_whole), "bits %d cuts %zu: backward by slices != whole", w, c);
         if (c != 2) CHECK(   /* cuts 2 has slices off the mask bytes: no masks there */!memcmp(m_whole, m_parts, sizeof m_whole), "bits %d cuts %zu: masks by slices != whole", w, c);
         /* a slice of a slice is the slice of the whole */
         {
            dropout_plan s2, direct;
            dropout_plan_slice(&whole, 1000, 3000, &half);
            dropout_plan_slice(&half, 7, 500, &s2);
            dropout_plan_slice(&whole, 1007, 500, &direct);
            CHECK(plan_eq(&s2, &direct), "slice of a slice");
            CHECK(dropout_plan_slice(&half, 7, 500, &half) == DROPOUT_OK && plan_eq(&half, &direct), "slice in place");
         }
      }
   case_end("api plan: gen_plan positions; forward (masks), backward by slices and slices of slices == one call on the whole");
}

static void case_positions(void)
{
   static const size_t dims[4] = {4, 3, 5, 2};
   dropout_rule r;
   dropout_plan p;
   dropout_desc d;
   uint64_t np;
   dropout_rule_init(&r, 0.5, DROPOUT_BITS_8);
   dropout_plan_at(&p, &r, dropout_key_make(1, 1), dropout_pos_make(0), 12);
   CHECK(dropout_desc_init(&d, DROPOUT_OP_FORWARD, DROPOUT_DTYPE_F32, &p) == DROPOUT_OK, "init");
   CHECK(dropout_desc_positions(&d, &np) == DROPOUT_OK && np == 12, "default shape: count");
   dropout_desc_set_shape(&d, 4, dims);
   CHECK(dropout_desc_positions(&d, &np) == DROPOUT_OK && np == 120, "4x3x5x2: 120");
   dropout_desc_set_broadcast(&d, 0xC);
   CHECK(dropout_desc_positions(&d, &np) == DROPOUT_OK && np == 12, "channel mask (broadcast 5x2): 12, got %llu", (unsigned long long)np);
   dropout_desc_set_broadcast(&d, 0xF);
   CHECK(dropout_desc_positions(&d, &np) == DROPOUT_OK && np == 1, "all broadcast: 1");
   case_end("api plan: dropout_desc_positions counts the mask shape's elements");
}

/* the stream bits [first, end) a plan of dropout draws reads: draw i of a w-bit plan is bits
   i * w .. i * w + w - 1 of the stream (docs/SPEC.md), so two plans of any widths read a
   bit twice exactly where these ranges meet */
static void plan_bits(const dropout_plan *p, uint64_t *first, uint64_t *end)
{
   *first = p->pos * (uint64_t)p->units;
   *end = (p->pos + p->count) * (uint64_t)p->units;
}

/* docs/API.md's recipe for a step too large for one plan where size_t is 32 bits: its first
   position from an empty plan of the step's kind, each rank's slice from dropout_plan_at, the
   generator resumed past the step with the empty plan's units. After a layer of another
   width, every slice starts past that layer's words and the next layer past the step's, for
   each pair of widths. The control: the step's first position taken from g.next instead (what
   the recipe said before) rereads the layer's words where a narrower step follows a wider
   layer, so the check can fail. */
static void case_split_step(void)
{
   const uint64_t whole = (uint64_t)1 << 31, share = 1000;   /* past PTRDIFF_MAX on 32 bits */
   int a, b, reread_before = 0;
   for (a = 8; a <= 32; a *= 2)
      for (b = 8; b <= 32; b *= 2) {
         dropout_gen g;
         dropout_rule ra, rb;
         dropout_plan layer, p0, slice, later;
         uint64_t l0, l1, s0, s1, n0, n1, rank;
         dropout_rule_init(&ra, 0.5, (dropout_bits)a);
         dropout_rule_init(&rb, 0.5, (dropout_bits)b);
         dropout_gen_init(&g, dropout_key_make(9, 2));
         CHECK(dropout_gen_plan(&g, &ra, 999, &layer) == DROPOUT_OK, "layer");
         plan_bits(&layer, &l0, &l1);
         if (g.next * (uint64_t)b < l1) ++reread_before;   /* g.next read as a position of the step's width */
         CHECK(dropout_gen_plan(&g, &rb, 0, &p0) == DROPOUT_OK, "the step's first position");
         for (rank = 0; rank < 4; ++rank) {
            CHECK(dropout_plan_at(&slice, &rb, g.key, dropout_pos_make(p0.pos + rank * (whole / 4)), share) == DROPOUT_OK,
                  "slice");
            plan_bits(&slice, &s0, &s1);
            CHECK(s0 >= l1, "%d-bit layer, %d-bit step: rank %llu's slice reads stream bit %llu, the layer's end is %llu",
                  a, b, (unsigned long long)rank, (unsigned long long)s0, (unsigned long long)l1);
         }
         CHECK(dropout_gen_resume(&g, g.key, p0.pos + whole, p0.units) == DROPOUT_OK, "resume past the step");
         CHECK(dropout_gen_plan(&g, &ra, 999, &later) == DROPOUT_OK, "the next layer");
         plan_bits(&later, &n0, &n1);
         CHECK(n0 >= (p0.pos + whole) * (uint64_t)b,
               "%d-bit layer, %d-bit step: the next layer reads stream bit %llu inside the step", a, b, (unsigned long long)n0);
      }
   CHECK(reread_before == 3, "the control: g.next as the step's first position rereads in %d of 9 width pairs, not 3",
         reread_before);
   case_end("api plan: docs/API.md's split step (an empty plan's position and units, dropout_plan_at, dropout_gen_resume) "
            "reads no stream bit of the layer before or after, for 9 pairs of widths (g.next would reread in 3)");
}

int main(void)
{
   case_slices();
   case_positions();
   case_split_step();
   return check_exit();
}
