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
            CHECK(!memcmp(&s2, &direct, sizeof s2), "slice of a slice");
            CHECK(dropout_plan_slice(&half, 7, 500, &half) == DROPOUT_OK && !memcmp(&half, &direct, sizeof half), "slice in place");
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

int main(void)
{
   case_slices();
   case_positions();
   return check_exit();
}
