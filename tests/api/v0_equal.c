/* v0_equal.c - the 1.0 calls give the 0.1.0 calls' bits (the 0.1.0 ones built with
   DROPOUT_V0_API in v0_side.c): short calls and dropout_run, every op, the four dtypes,
   the three draw widths, sizes around the 64-element chunks and positions up to the end
   of the stream. Oracle: byte equality of every output and mask, return codes equal. */
#include <stdio.h>
#include <stdlib.h>
#include "dropout.h"
#include "check.h"
#include "v0_side.h"
#include "data.h"

static const size_t sizes[] = {0, 1, 7, 8, 63, 64, 65, 127, 200, 1000, 4099};
static const uint64_t positions[] = {0, 3, 64, 1000003, UINT64_MAX - 5000};
static const double ps[] = {0.0, 0.1, 1.0 / 3.0, 0.5, 0.9, 1.0};
static const dropout_bits widths[] = {DROPOUT_BITS_8, DROPOUT_BITS_16, DROPOUT_BITS_32};
#define NS (sizeof sizes / sizeof sizes[0])
#define NP (sizeof positions / sizeof positions[0])
#define NPS (sizeof ps / sizeof ps[0])
#define MAXN 4099

static unsigned char x[(MAXN + 8) * 8], y_new[(MAXN + 8) * 8], y_old[(MAXN + 8) * 8], r_in[(MAXN + 8) * 8], bias[(MAXN + 8) * 8];
static uint8_t m_new[MAXN / 8 + 8], m_old[MAXN / 8 + 8], m_in[MAXN / 8 + 8];

static void canary(void)
{
   memset(y_new, 0xA5, sizeof y_new); memset(y_old, 0xA5, sizeof y_old);
   memset(m_new, 0x5A, sizeof m_new); memset(m_old, 0x5A, sizeof m_old);
}

static int short_forward(int dt, const dropout_plan *pl, void *y, uint8_t *m, const void *xx)
{
   switch (dt) {
   case DROPOUT_DTYPE_F32: return dropout_replay_f32(pl, (size_t)pl->count, (float *)y, m, (const float *)xx);
   case DROPOUT_DTYPE_F64: return dropout_replay_f64(pl, (size_t)pl->count, (double *)y, m, (const double *)xx);
   case DROPOUT_DTYPE_F16: return dropout_replay_f16(pl, (size_t)pl->count, (dropout_f16 *)y, m, (const dropout_f16 *)xx);
   default: return dropout_replay_bf16(pl, (size_t)pl->count, (dropout_bf16 *)y, m, (const dropout_bf16 *)xx);
   }
}

static int short_backward(int dt, const dropout_plan *pl, void *dx, const void *dy)
{
   switch (dt) {
   case DROPOUT_DTYPE_F32: return dropout_backward_f32(pl, (size_t)pl->count, (float *)dx, (const float *)dy);
   case DROPOUT_DTYPE_F64: return dropout_backward_f64(pl, (size_t)pl->count, (double *)dx, (const double *)dy);
   case DROPOUT_DTYPE_F16: return dropout_backward_f16(pl, (size_t)pl->count, (dropout_f16 *)dx, (const dropout_f16 *)dy);
   default: return dropout_backward_bf16(pl, (size_t)pl->count, (dropout_bf16 *)dx, (const dropout_bf16 *)dy);
   }
}

static int short_apply(int dt, const dropout_rule *r, size_t n, void *y, const uint8_t *m, const void *xx)
{
   switch (dt) {
   case DROPOUT_DTYPE_F32: return dropout_apply_mask_f32(r, n, (float *)y, m, (const float *)xx);
   case DROPOUT_DTYPE_F64: return dropout_apply_mask_f64(r, n, (double *)y, m, (const double *)xx);
   case DROPOUT_DTYPE_F16: return dropout_apply_mask_f16(r, n, (dropout_f16 *)y, m, (const dropout_f16 *)xx);
   default: return dropout_apply_mask_bf16(r, n, (dropout_bf16 *)y, m, (const dropout_bf16 *)xx);
   }
}

static int short_bda(int dt, const dropout_plan *pl, size_t cols, void *y, uint8_t *m, const void *xx, const void *b, const void *res)
{
   switch (dt) {
   case DROPOUT_DTYPE_F32: return dropout_bias_dropout_add_replay_f32(pl, (size_t)pl->count, cols, (float *)y, m, (const float *)xx, (const float *)b, (const float *)res);
   case DROPOUT_DTYPE_F64: return dropout_bias_dropout_add_replay_f64(pl, (size_t)pl->count, cols, (double *)y, m, (const double *)xx, (const double *)b, (const double *)res);
   case DROPOUT_DTYPE_F16: return dropout_bias_dropout_add_replay_f16(pl, (size_t)pl->count, cols, (dropout_f16 *)y, m, (const dropout_f16 *)xx, (const dropout_f16 *)b, (const dropout_f16 *)res);
   default: return dropout_bias_dropout_add_replay_bf16(pl, (size_t)pl->count, cols, (dropout_bf16 *)y, m, (const dropout_bf16 *)xx, (const dropout_bf16 *)b, (const dropout_bf16 *)res);
   }
}

/* dropout_run on the default 1-D shape */
static int run_1d(int op, int dt, const dropout_plan *pl, void *out, uint8_t *m, const void *in)
{
   dropout_desc d;
   dropout_tensors t = {0};
   int err = dropout_desc_init(&d, (dropout_op)op, (dropout_dtype)dt, pl);
   if (err) return err;
   t.out = out; t.mask = m; t.in = in;
   return dropout_run(&d, &t);
}

static void case_plain(void)
{
   size_t si, pi, k;
   int dt, w;
   for (dt = 1; dt <= 4; ++dt)
      for (w = 0; w < 3; ++w)
         for (k = 0; k < NPS; ++k)
            for (si = 0; si < NS; ++si)
               for (pi = 0; pi < NP; ++pi) {
                  size_t n = sizes[si], es = data_esize(dt), nb = (n + 7) / 8;
                  uint64_t pos = positions[pi];
                  dropout_rule r;
                  dropout_plan pl;
                  int e1, e2, bits = (int)widths[w];
                  CHECK(dropout_rule_init_quantised(&r, ps[k], widths[w]) == DROPOUT_OK, "rule p=%g bits=%d", ps[k], bits);
                  CHECK(dropout_plan_at(&pl, &r, dropout_key_make(42, 7), dropout_pos_make(pos), n) == DROPOUT_OK, "plan");
                  data_fill(dt, x, n);
                  /* forward with mask: short call, dropout_run, 0.1.0 */
                  canary();
                  e1 = short_forward(dt, &pl, y_new, m_new, x);
                  e2 = v0_forward(dt, y_old, m_old, x, n, ps[k], bits, 42, 7, pos);
                  CHECK(e1 == e2 && !memcmp(y_new, y_old, n * es + 8) && !memcmp(m_new, m_old, nb + 1),
                        "forward dt=%d bits=%d p=%g n=%zu pos=%llu: %d %d", dt, bits, ps[k], n, (unsigned long long)pos, e1, e2);
                  canary();
                  memset(y_old, 0xA5, sizeof y_old);
                  e1 = run_1d(DROPOUT_OP_FORWARD, dt, &pl, y_new, m_new, x);
                  e2 = v0_forward(dt, y_old, m_old, x, n, ps[k], bits, 42, 7, pos);
                  CHECK(e1 == e2 && !memcmp(y_new, y_old, n * es + 8) && !memcmp(m_new, m_old, nb + 1),
                        "run FORWARD dt=%d bits=%d p=%g n=%zu pos=%llu", dt, bits, ps[k], n, (unsigned long long)pos);
                  /* backward */
                  canary();
                  e1 = short_backward(dt, &pl, y_new, x);
                  e2 = v0_backward(dt, y_old, x, n, ps[k], bits, 42, 7, pos);
                  CHECK(e1 == e2 && !memcmp(y_new, y_old, n * es + 8), "backward dt=%d bits=%d p=%g n=%zu", dt, bits, ps[k], n);
                  memset(y_new, 0xA5, sizeof y_new);
                  e1 = run_1d(DROPOUT_OP_BACKWARD, dt, &pl, y_new, NULL, x);
                  CHECK(e1 == e2 && !memcmp(y_new, y_old, n * es + 8), "run BACKWARD dt=%d bits=%d p=%g n=%zu", dt, bits, ps[k], n);
                  /* in place */
                  memcpy(y_new, x, n * es);
                  e1 = short_backward(dt, &pl, y_new, y_new);
                  CHECK(e1 == e2 && !memcmp(y_new, y_old, n * es), "backward in place dt=%d n=%zu", dt, n);
                  /* the mask alone */
                  if (dt == 1) {
                     canary();
                     e1 = dropout_mask(&pl, (size_t)pl.count, m_new);
                     e2 = v0_mask(m_old, n, ps[k], bits, 42, 7, pos);
                     CHECK(e1 == e2 && !memcmp(m_new, m_old, nb + 1), "mask bits=%d p=%g n=%zu", bits, ps[k], n);
                     memset(m_new, 0x5A, sizeof m_new);
                     e1 = run_1d(DROPOUT_OP_MASK, dt, &pl, NULL, m_new, NULL);
                     CHECK(e1 == e2 && !memcmp(m_new, m_old, nb + 1), "run MASK bits=%d p=%g n=%zu", bits, ps[k], n);
                  }
                  /* a stored (random) mask */
                  {
                     size_t i;
                     for (i = 0; i < nb; ++i) m_in[i] = (uint8_t)data_rand();
                     canary();
                     e1 = short_apply(dt, &r, n, y_new, m_in, x);
                     e2 = v0_apply_mask(dt, y_old, x, m_in, n, ps[k], bits);
                     CHECK(e1 == e2 && !memcmp(y_new, y_old, n * es + 8), "apply_mask dt=%d bits=%d p=%g n=%zu", dt, bits, ps[k], n);
                     memset(y_new, 0xA5, sizeof y_new);
                     {
                        dropout_desc d;
                        dropout_tensors t = {0};
                        dropout_plan pm;
                        dropout_plan_at(&pm, &r, dropout_key_make(0, 0), dropout_pos_make(0), n);
                        t.out = y_new; t.mask = m_in; t.in = x;
                        e1 = dropout_desc_init(&d, DROPOUT_OP_APPLY_MASK, (dropout_dtype)dt, &pm);
                        if (!e1) e1 = dropout_run(&d, &t);
                     }
                     CHECK(e1 == e2 && !memcmp(y_new, y_old, n * es + 8), "run APPLY_MASK dt=%d bits=%d p=%g n=%zu", dt, bits, ps[k], n);
                  }
               }
   case_end("api equal: forward, backward (also in place), mask, apply_mask: short calls and dropout_run == 0.1.0 (4 dtypes, 8/16/32 bits, 6 p, 11 sizes, 5 positions)");
}

static void case_bda(void)
{
   static const size_t rc[][2] = {{1, 1}, {3, 5}, {7, 64}, {2, 100}, {33, 31}, {1, 777}, {4, 0}, {0, 4}};
   size_t c, k;
   int dt, w;
   for (dt = 1; dt <= 4; ++dt)
      for (w = 0; w < 3; ++w)
         for (k = 0; k < NPS; ++k)
            for (c = 0; c < sizeof rc / sizeof rc[0]; ++c) {
               size_t rows = rc[c][0], cols = rc[c][1], n = rows * cols, es = data_esize(dt), nb = (n + 7) / 8;
               dropout_rule r;
               dropout_plan pl;
               int e1, e2, bits = (int)widths[w];
               dropout_rule_init_quantised(&r, ps[k], widths[w]);
               dropout_plan_at(&pl, &r, dropout_key_make(9, 1), dropout_pos_make(12345), n);
               data_fill(dt, x, n); data_fill(dt, r_in, n); data_fill(dt, bias, cols);
               canary();
               e2 = v0_bda(dt, y_old, m_old, x, bias, r_in, rows, cols, ps[k], bits, 9, 1, 12345);
               if (cols == 0) {   /* 1.0 refuses bias_len 0 */
                  CHECK(short_bda(dt, &pl, cols, y_new, m_new, x, bias, r_in) == DROPOUT_ERR_BIAS_LEN, "bias_len 0");
                  continue;
               }
               e1 = short_bda(dt, &pl, cols, y_new, m_new, x, bias, r_in);
               CHECK(e1 == e2 && !memcmp(y_new, y_old, n * es + 8) && !memcmp(m_new, m_old, nb + 1),
                     "bias_dropout_add dt=%d bits=%d p=%g %zux%zu: %d %d", dt, bits, ps[k], rows, cols, e1, e2);
            }
   case_end("api equal: bias_dropout_add (rows x bias_len) == 0.1.0 (rows, cols)");
}

static void case_bcast(void)
{
   static const size_t dims[4] = {2, 3, 5, 7};
   static const int ops[4] = {DROPOUT_OP_FORWARD, DROPOUT_OP_BACKWARD, DROPOUT_OP_ALPHA_FORWARD, DROPOUT_OP_ALPHA_BACKWARD};
   unsigned bc;
   int dt, w, o;
   size_t k, n = 2 * 3 * 5 * 7;
   for (dt = 1; dt <= 4; ++dt)
      for (w = 0; w < 3; ++w)
         for (k = 0; k < NPS; ++k)
            for (o = 0; o < 4; ++o)
               for (bc = 0; bc < 16; ++bc) {
                  dropout_rule r;
                  dropout_plan pl;
                  dropout_desc d;
                  dropout_tensors t = {0};
                  uint64_t np = 1;
                  size_t es = data_esize(dt);
                  int e1, e2, bits = (int)widths[w], j;
                  for (j = 0; j < 4; ++j) if (!((bc >> j) & 1u)) np *= dims[j];
                  dropout_rule_init_quantised(&r, ps[k], widths[w]);
                  dropout_plan_at(&pl, &r, dropout_key_make(5, 3), dropout_pos_make(999), np);
                  data_fill(dt, x, n);
                  canary();
                  e2 = v0_bcast(ops[o], dt, y_old, (o % 2) ? NULL : m_old, x, 4, dims, bc, ps[k], bits, 5, 3, 999);
                  e1 = dropout_desc_init(&d, (dropout_op)ops[o], (dropout_dtype)dt, &pl);
                  if (!e1) e1 = dropout_desc_set_shape(&d, 4, dims);
                  if (!e1) e1 = dropout_desc_set_broadcast(&d, bc);
                  t.out = y_new; t.mask = (o % 2) ? NULL : m_new; t.in = x;
                  if (!e1) e1 = dropout_run(&d, &t);
                  CHECK(e1 == e2 && !memcmp(y_new, y_old, n * es + 8) && !memcmp(m_new, m_old, (size_t)(np + 7) / 8 + 1),
                        "op=%d dt=%d bits=%d p=%g broadcast=%#x: %d %d", ops[o], dt, bits, ps[k], bc, e1, e2);
               }
   case_end("api equal: dropout_run broadcast FORWARD/BACKWARD/ALPHA_* on (2,3,5,7), all 16 broadcast sets == 0.1.0 bcast_/alpha_");
}

static void case_normal(void)
{
   /* p exactly t / 2^bits, so that the 0.1.0 call's p is the rule's realised p */
   static const uint64_t ts[] = {0, 1, 26, 128, 200, 255};
   size_t si, k;
   int dt;
   for (dt = 1; dt <= 4; ++dt)
      for (k = 0; k < sizeof ts / sizeof ts[0]; ++k)
         for (si = 0; si < NS; ++si) {
            size_t n = sizes[si], es = data_esize(dt);
            dropout_rule r;
            dropout_plan pl;
            dropout_desc d;
            dropout_tensors t = {0};
            double sigma = (double)ts[k] / 64.0;
            int e1, e2;
            dropout_rule_init_threshold(&r, ts[k], DROPOUT_BITS_8);
            dropout_plan_at_normals(&pl, &r, dropout_key_make(77, 2), dropout_pos_make(31), n);
            data_fill(dt, x, n);
            t.out = y_new; t.in = x;
            canary();
            e2 = v0_normal(DROPOUT_OP_GAUSSIAN, dt, y_old, x, n, dropout_rule_p(&r), 77, 2, 31);
            e1 = dropout_desc_init(&d, DROPOUT_OP_GAUSSIAN, (dropout_dtype)dt, &pl);
            if (!e1) e1 = dropout_run(&d, &t);
            CHECK(e1 == e2 && !memcmp(y_new, y_old, n * es + 8), "GAUSSIAN dt=%d t=%llu n=%zu: %d %d", dt, (unsigned long long)ts[k], n, e1, e2);
            canary();
            e2 = v0_normal(DROPOUT_OP_NOISE, dt, y_old, x, n, sigma, 77, 2, 31);
            e1 = dropout_desc_init(&d, DROPOUT_OP_NOISE, (dropout_dtype)dt, &pl);
            if (!e1) e1 = dropout_desc_set_sigma(&d, sigma);
            if (!e1) e1 = dropout_run(&d, &t);
            CHECK(e1 == e2 && !memcmp(y_new, y_old, n * es + 8), "NOISE dt=%d sigma=%g n=%zu: %d %d", dt, sigma, n, e1, e2);
         }
   case_end("api equal: dropout_run GAUSSIAN and NOISE == 0.1.0 gaussian_/noise_");
}

static void case_stream(void)
{
   static uint32_t a[MAXN * 2], b[MAXN * 2];
   size_t si, pi;
   int kind;
   for (si = 0; si < NS; ++si)
      for (pi = 0; pi < NP; ++pi) {
         size_t n = sizes[si];
         uint64_t p0 = positions[pi];
         dropout_key key = dropout_key_make(0xDEADBEEFCAFEull, 0x1234);
         for (kind = 0; kind < 4; ++kind) {
            uint64_t p = kind == 2 ? p0 >> 2 : p0;   /* doubles: positions below 2^63 */
            int e1, e2;
            memset(a, 0xA5, sizeof a); memset(b, 0xA5, sizeof b);
            e2 = v0_fill(kind, b, n, key.seed, key.stream, p);
            e1 = kind == 0 ? dropout_fill_u32(key, dropout_pos_make(p), a, n)
               : kind == 1 ? dropout_fill_uniform_f32(key, dropout_pos_make(p), (float *)(void *)a, n)
               : kind == 2 ? dropout_fill_uniform_f64(key, dropout_pos_make(p), (double *)(void *)a, n)
               : dropout_fill_normal_f32(key, dropout_pos_make(p), (float *)(void *)a, n);
            CHECK(e1 == e2 && !memcmp(a, b, sizeof a), "fill kind %d n=%zu pos=%llu: %d %d", kind, n, (unsigned long long)p, e1, e2);
         }
         CHECK(dropout_stream_u32(key, dropout_pos_make(p0 + n)) == v0_stream_u32(key.seed, key.stream, p0 + n), "stream_u32");
      }
   {   /* the generator hands out the positions 0.1.0's gen_next did */
      static const size_t ns[5] = {10, 0, 4099, 1, 77};
      uint64_t offs[5];
      dropout_gen g;
      dropout_rule r;
      int i;
      dropout_gen_init(&g, dropout_key_make(1, 2));
      dropout_rule_init_quantised(&r, 0.5, DROPOUT_BITS_8);
      CHECK(v0_gen_next(1, 2, ns, 5, offs) == 0, "gen_next");
      for (i = 0; i < 5; ++i) {
         dropout_plan pl;
         CHECK(dropout_gen_plan(&g, &r, ns[i], &pl) == DROPOUT_OK && pl.pos == offs[i] && pl.count == ns[i] &&
               pl.key.seed == 1 && pl.key.stream == 2, "gen_plan %d", i);
      }
   }
   case_end("api equal: stream_u32, fill_u32, fill_uniform_f32/_f64, fill_normal_f32, gen_plan == 0.1.0");
}

int main(void)
{
   case_plain();
   case_bda();
   case_bcast();
   case_normal();
   case_stream();
   return check_exit();
}
