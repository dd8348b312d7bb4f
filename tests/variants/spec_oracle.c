/* spec_oracle.c - the library's side of tests/variants/spec_oracle.py, which computes the same
   values from docs/SPEC.md's text alone and compares them bit for bit.
     spec_oracle normals    reads (w0, w1) pairs (two little-endian uint32 each) on stdin and
                            writes dropout_normal_from_words(w0, w1, 0) and (.., 1) as floats
     spec_oracle variants   one line per element: ALPHA_FORWARD and GAUSSIAN through dropout_run,
                            f64 and f32, nine p at each width, inputs with -0, subnormals, 1e300
     spec_oracle fused      one line per element: dropout_bias_dropout_add_replay_* of f32, f64,
                            f16 and bf16, p = 0, 0.1, 0.5, 0.9, 1 at each width
     spec_oracle gen        one line per call: a generator handing out random kinds and counts
   Lines: the inputs, the output and the keep bit in hex, as spec_oracle.py reads them. */
#define DROPOUT_IMPLEMENTATION
#include <stdio.h>
#include <string.h>
#include "dropout.h"

static uint64_t st = 88172645463325252u;
static uint64_t rnd(void) { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return st; }

static int normals(void)
{
   uint32_t w[2];
   while (fread(w, 4, 2, stdin) == 2) {
      float z[2];
      z[0] = dropout_normal_from_words(w[0], w[1], 0);
      z[1] = dropout_normal_from_words(w[0], w[1], 1);
      if (fwrite(z, 4, 2, stdout) != 2) return 1;
   }
   return 0;
}

#define VN 64
static int variants(void)
{
   static const double ps[] = { 0.1, 0.2, 0.3, 0.5, 0.05, 0.9, 0.001, 0.75, 0.0001 };
   double xd[VN]; float xf[VN];
   int pi, b, op, dt, i;
   for (i = 0; i < VN; ++i) { xd[i] = (i - 20) * 0.37 + 1e-3 * i * i; xf[i] = (float)xd[i]; }
   xd[1] = -0.0; xf[1] = -0.0f; xd[2] = 1e-310; xf[2] = 1e-40f; xd[3] = 1e300; xf[3] = 3e38f;
   for (op = 0; op < 2; ++op)
   for (pi = 0; pi < (int)(sizeof ps / sizeof ps[0]); ++pi)
   for (b = 8; b <= 32; b *= 2)
   for (dt = 0; dt < 2; ++dt) {
      dropout_rule r; dropout_plan plan; dropout_desc d; dropout_tensors t;
      double yd[VN]; float yf[VN]; uint8_t m[VN / 8];
      uint64_t pos = 1000003u * (uint64_t)(pi + 1) + (uint64_t)b;
      int rc;
      if (dropout_rule_init(&r, ps[pi], (dropout_bits)b)) continue;   /* a width that does not honour p */
      rc = op == 0 ? dropout_plan_at(&plan, &r, dropout_key_make(7, 3), dropout_pos_make(pos), VN)
                   : dropout_plan_at_normals(&plan, &r, dropout_key_make(7, 3), dropout_pos_make(pos), VN);
      rc = rc ? rc : dropout_desc_init(&d, op == 0 ? DROPOUT_OP_ALPHA_FORWARD : DROPOUT_OP_GAUSSIAN,
                                       dt == 0 ? DROPOUT_DTYPE_F64 : DROPOUT_DTYPE_F32, &plan);
      memset(&t, 0, sizeof t);
      t.out = dt == 0 ? (void *)yd : (void *)yf;
      t.in = dt == 0 ? (const void *)xd : (const void *)xf;
      if (op == 0) t.mask = m;
      rc = rc ? rc : dropout_run(&d, &t);
      if (rc) { fprintf(stderr, "spec_oracle variants: %s\n", dropout_strerror(rc)); return 1; }
      for (i = 0; i < VN; ++i) {
         uint64_t xb = 0, yb = 0;
         if (dt == 0) { memcpy(&xb, &xd[i], 8); memcpy(&yb, &yd[i], 8); }
         else { uint32_t a, c; memcpy(&a, &xf[i], 4); memcpy(&c, &yf[i], 4); xb = a; yb = c; }
         printf("%d %d %.17g %d %llu %d %llx %llx %d\n", op, dt, ps[pi], b, (unsigned long long)pos, i,
                (unsigned long long)xb, (unsigned long long)yb, op == 0 ? (m[i / 8] >> (i % 8)) & 1 : -1);
      }
   }
   return 0;
}

#define ROWS 37
#define COLS 11
#define FN (ROWS * COLS)
static int fused(void)
{
   static const double ps[] = { 0.0, 0.1, 0.5, 0.9, 1.0 };
   int pi, b, rep;
   for (rep = 0; rep < 2; ++rep)
   for (pi = 0; pi < 5; ++pi)
   for (b = 8; b <= 32; b *= 2) {
      dropout_rule r; dropout_plan plan; uint8_t m[FN / 8 + 1];
      float xf[FN], bf[COLS], rf[FN], yf[FN]; double xd[FN], bd[COLS], rd[FN], yd[FN];
      dropout_f16 xh[FN], bh[COLS], rh[FN], yh[FN]; dropout_bf16 xb[FN], bb[COLS], rb[FN], yb[FN];
      uint64_t pos = rnd() >> 20;
      int i, rc;
      if (dropout_rule_init(&r, ps[pi], (dropout_bits)b)) continue;
      for (i = 0; i < FN; ++i) {   /* values across exponents; some tiny (subnormal), some near overflow */
         uint64_t u = rnd();
         double v = (double)(int64_t)(u >> 11) / 4503599627370496.0 * (double)(1 << (u & 15));
         if ((u & 0x3F0) == 0) v = 1e-42 * (double)(u & 7);
         if ((u & 0x3F0) == 0x10) v = 3.0e38;
         xd[i] = v; xf[i] = (float)v; xh[i].bits = dropout_f32_to_f16((float)(v / 4)); xb[i].bits = dropout_f32_to_bf16((float)v);
         u = rnd(); v = (double)(int64_t)(u >> 11) / 4503599627370496.0 * (double)(1 << (u & 7));
         rd[i] = v; rf[i] = (float)v; rh[i].bits = dropout_f32_to_f16((float)v); rb[i].bits = dropout_f32_to_bf16((float)v);
      }
      for (i = 0; i < COLS; ++i) {
         double v = (double)i * 0.3 - 1.1;
         bd[i] = v; bf[i] = (float)v; bh[i].bits = dropout_f32_to_f16((float)v); bb[i].bits = dropout_f32_to_bf16((float)v);
      }
      rc = dropout_plan_at(&plan, &r, dropout_key_make(11, (uint64_t)rep), dropout_pos_make(pos), FN);
      rc = rc ? rc : dropout_bias_dropout_add_replay_f32(&plan, FN, COLS, yf, m, xf, bf, rf);
      if (rc) { fprintf(stderr, "spec_oracle fused: %s\n", dropout_strerror(rc)); return 1; }
      for (i = 0; i < FN; ++i) {
         uint32_t a, c, d, e;
         memcpy(&a, &xf[i], 4); memcpy(&c, &bf[i % COLS], 4); memcpy(&d, &rf[i], 4); memcpy(&e, &yf[i], 4);
         printf("0 %.17g %d %d %llu %d %x %x %x %x %d\n", ps[pi], b, rep, (unsigned long long)pos, i, a, c, d, e, (m[i / 8] >> (i % 8)) & 1);
      }
      rc = dropout_bias_dropout_add_replay_f64(&plan, FN, COLS, yd, m, xd, bd, rd);
      if (rc) { fprintf(stderr, "spec_oracle fused: %s\n", dropout_strerror(rc)); return 1; }
      for (i = 0; i < FN; ++i) {
         uint64_t a, c, d, e;
         memcpy(&a, &xd[i], 8); memcpy(&c, &bd[i % COLS], 8); memcpy(&d, &rd[i], 8); memcpy(&e, &yd[i], 8);
         printf("1 %.17g %d %d %llu %d %llx %llx %llx %llx %d\n", ps[pi], b, rep, (unsigned long long)pos, i, (unsigned long long)a,
                (unsigned long long)c, (unsigned long long)d, (unsigned long long)e, (m[i / 8] >> (i % 8)) & 1);
      }
      rc = dropout_bias_dropout_add_replay_f16(&plan, FN, COLS, yh, m, xh, bh, rh);
      if (rc) { fprintf(stderr, "spec_oracle fused: %s\n", dropout_strerror(rc)); return 1; }
      for (i = 0; i < FN; ++i)
         printf("2 %.17g %d %d %llu %d %x %x %x %x %d\n", ps[pi], b, rep, (unsigned long long)pos, i, xh[i].bits, bh[i % COLS].bits,
                rh[i].bits, yh[i].bits, (m[i / 8] >> (i % 8)) & 1);
      rc = dropout_bias_dropout_add_replay_bf16(&plan, FN, COLS, yb, m, xb, bb, rb);
      if (rc) { fprintf(stderr, "spec_oracle fused: %s\n", dropout_strerror(rc)); return 1; }
      for (i = 0; i < FN; ++i)
         printf("3 %.17g %d %d %llu %d %x %x %x %x %d\n", ps[pi], b, rep, (unsigned long long)pos, i, xb[i].bits, bb[i % COLS].bits,
                rb[i].bits, yb[i].bits, (m[i / 8] >> (i % 8)) & 1);
   }
   return 0;
}

/* a generator handing out positions of random kinds and counts (section 8), from 0 and from
   near 2^64 (dropout_gen_resume): one line per call, "kind count rc pos next units" */
static int gen(void)
{
   static const int kinds[4] = { 8, 16, 32, -1 };
   dropout_rule r[3];
   int start, i;
   for (i = 0; i < 3; ++i)
      if (dropout_rule_init(&r[i], 0.5, (dropout_bits)(8 << i))) return 1;
   for (start = 0; start < 2; ++start) {
      dropout_gen g;
      if (dropout_gen_init(&g, dropout_key_make(5, 6))) return 1;
      for (i = 0; i < 400; ++i) {
         int kind = kinds[rnd() % 4];
         uint64_t u = rnd(), count = (u >> 8) % (u & 1 ? 7 : 100000);
         dropout_plan plan;
         int rc;
         if (start == 1 && i % 25 == 0) {   /* near the top: refusals past 2^64 - 1 */
            uint64_t next = UINT64_MAX - (rnd() % 300);
            int was = kinds[rnd() % 4];
            if (was == -1) next &= ~(uint64_t)1;
            if (dropout_gen_resume(&g, dropout_key_make(5, 6), next, (dropout_units)was)) return 1;
            printf("resume %llu %d\n", (unsigned long long)next, was);
         }
         if (start == 1) count = rnd() % 200;
         memset(&plan, 0, sizeof plan);
         rc = kind == -1 ? dropout_gen_plan_normals(&g, &r[0], count, &plan)
                         : dropout_gen_plan(&g, &r[kind == 8 ? 0 : kind == 16 ? 1 : 2], count, &plan);
         printf("%d %llu %d %llu %llu %d\n", kind, (unsigned long long)count, rc, (unsigned long long)plan.pos,
                (unsigned long long)g.next, (int)g.units);
      }
   }
   return 0;
}

int main(int argc, char **argv)
{
   if (argc == 2 && strcmp(argv[1], "normals") == 0) return normals();
   if (argc == 2 && strcmp(argv[1], "variants") == 0) return variants();
   if (argc == 2 && strcmp(argv[1], "fused") == 0) return fused();
   if (argc == 2 && strcmp(argv[1], "gen") == 0) return gen();
   fprintf(stderr, "usage: spec_oracle normals|variants|fused|gen\n");
   return 2;
}
