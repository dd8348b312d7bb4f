/* expected.c - the C side of tests/octave/: a grid of calls, their inputs and the bytes that
 * dropout.h gives for them, for check_bits.m to reproduce through the +dropouth package.
 *
 *   expected DIR    writes DIR/cases.txt (one call a line) and, per case, DIR/in/NAME.x.bin
 *                   (forward and backward inputs) and DIR/exp/NAME.*.bin (what Octave must
 *                   give, byte for byte)
 *
 * The expected bytes are computed element by element from the building blocks, with the
 * column-major rule written out: element (i1, .., ik) of an array of size [d1 .. dk] has
 * linear index j = i1 + d1 (i2 + d2 (i3 + ..)) (0-based) and takes stream position pos + j
 * (docs/SPEC.md, "Column-major arrays"). Each case is also run through the library's short
 * calls on the contiguous memory and, for N-D arrays, through the descriptor with the
 * dimensions reversed (row-major [dk .. d1]); the program fails when those differ from the
 * per-element bytes, so the three spellings of the rule agree before Octave is asked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#define MAXDIM 6

typedef struct ex_case {
   const char *kind;    /* forward, backward, mask, u32, uniform */
   const char *cls;     /* single or double (u32: uint32) */
   double p;
   int bits;            /* 0: the default width (the Python package's rule, written again below) */
   uint64_t seed, stream, pos;
   int ndim;
   size_t dims[MAXDIM];
} ex_case;

static const char *ex_dir;
static FILE *ex_list;
static int ex_failed;
static unsigned ex_count;

static void ex_write(const char *sub, const char *name, const char *suffix, const void *data, size_t bytes)
{
   char path[512];
   FILE *f;
   snprintf(path, sizeof path, "%s/%s/%s.%s.bin", ex_dir, sub, name, suffix);
   f = fopen(path, "wb");
   if (!f || (bytes && fwrite(data, 1, bytes, f) != bytes) || fclose(f) != 0) {
      printf("FAIL octave expected: cannot write %s\n", path);
      exit(1);
   }
}

/* the default width, independently of matlab/dropouth_mex.c: the narrowest of 8 and 16
 * bits whose realised p, floor(p 2^b + 1/2) / 2^b, is within 0.1% of p relative to
 * min(p, 1 - p); else 32 */
static int ex_default_bits(double p)
{
   int b;
   double m = p < 1.0 - p ? p : 1.0 - p;
   for (b = 8; b <= 16; b += 8) {
      double scale = b == 8 ? 256.0 : 65536.0;
      double t = (double)(uint64_t)(p * scale + 0.5);
      double e = t / scale - p;
      if ((e < 0 ? -e : e) <= 1e-3 * m) return b;
   }
   return 32;
}

/* an input with the values that tell implementations apart: signs, -0, subnormals,
 * infinities, a NaN with a payload, and the largest finite values */
static double ex_value(size_t j, int single)
{
   static const double special[] = { -0.0, 1e-310, -4.9e-324, 1.0 / 0.0, -1.0 / 0.0, 1.7976931348623157e308 };
   static const double special32[] = { -0.0, 1e-40, -1.4e-45, 1.0 / 0.0, -1.0 / 0.0, 3.4028234663852886e38 };
   if (j % 11 == 5) return single ? special32[(j / 11) % 6] : special[(j / 11) % 6];
   return ((double)((j * 2654435761u) % 2001u) - 1000.0) / 37.0;
}

static void ex_case_run(const char *name, const ex_case *c)
{
   size_t n = 1, j;
   int k, single = strcmp(c->cls, "single") == 0;
   int bits = c->bits ? c->bits : ex_default_bits(c->p);
   dropout_rule rule;
   dropout_plan plan;
   dropout_key key = dropout_key_make(c->seed, c->stream);
   size_t width = single ? 4 : 8;
   unsigned char *x, *y, *y2, *m, *m2;
   uint8_t *packed;
   int bad = 0;

   for (k = 0; k < c->ndim; ++k) n *= c->dims[k];
   x = calloc(n + 1, 8); y = calloc(n + 1, 8); y2 = calloc(n + 1, 8);
   m = calloc(n + 1, 1); m2 = calloc(n + 1, 1); packed = calloc(n / 8 + 1, 1);
   if (!x || !y || !y2 || !m || !m2 || !packed) { printf("FAIL octave expected: out of memory\n"); exit(1); }

   fprintf(ex_list, "%s %s %s %.17g %d %lu %lu %lu %lu %lu %lu %d", name, c->kind, c->cls, c->p, c->bits,
           (unsigned long)(c->seed >> 32), (unsigned long)(c->seed & 0xFFFFFFFFu),
           (unsigned long)(c->stream >> 32), (unsigned long)(c->stream & 0xFFFFFFFFu),
           (unsigned long)(c->pos >> 32), (unsigned long)(c->pos & 0xFFFFFFFFu), c->ndim);
   for (k = 0; k < c->ndim; ++k) fprintf(ex_list, " %lu", (unsigned long)c->dims[k]);
   fprintf(ex_list, "\n");

   if (strcmp(c->kind, "u32") == 0 || strcmp(c->kind, "uniform") == 0) {
      int u32 = strcmp(c->kind, "u32") == 0, dbl = !u32 && !single;
      size_t w = u32 ? 4 : width;
      for (j = 0; j < n; ++j) {
         uint64_t q = c->pos + j;
         if (u32) {
            uint32_t v = dropout_stream_u32(key, dropout_pos_make(q));
            memcpy(y + j * 4, &v, 4);
         } else if (!dbl) {   /* (word >> 8) * 2^-24 */
            float v = (float)(dropout_stream_u32(key, dropout_pos_make(q)) >> 8) * (1.0f / 16777216.0f);
            memcpy(y + j * 4, &v, 4);
         } else {             /* ((word(2q+1) << 32 | word(2q)) >> 11) * 2^-53 */
            uint64_t lo = dropout_stream_u32(key, dropout_pos_make(2 * q));
            uint64_t hi = dropout_stream_u32(key, dropout_pos_make(2 * q + 1));
            double v = (double)(((hi << 32) | lo) >> 11) * (1.0 / 9007199254740992.0);
            memcpy(y + j * 8, &v, 8);
         }
      }
      /* the library's fills must agree */
      if (n) {
         int err = u32 ? dropout_fill_u32(key, dropout_pos_make(c->pos), (uint32_t *)(void *)y2, n)
                 : !dbl ? dropout_fill_uniform_f32(key, dropout_pos_make(c->pos), (float *)(void *)y2, n)
                        : dropout_fill_uniform_f64(key, dropout_pos_make(c->pos), (double *)(void *)y2, n);
         if (err || memcmp(y, y2, n * w) != 0) bad = 1;
      }
      ex_write("exp", name, "y", y, n * w);
   } else {
      if (dropout_rule_init(&rule, c->p, (dropout_bits)bits) != DROPOUT_OK ||
          dropout_plan_at(&plan, &rule, key, dropout_pos_make(c->pos), (uint64_t)n) != DROPOUT_OK) {
         printf("FAIL octave expected: case %s is not a valid call\n", name);
         exit(1);
      }
      /* the input, in memory (column-major) order */
      for (j = 0; j < n && strcmp(c->kind, "mask") != 0; ++j) {
         double v = ex_value(j, single);
         if (j % 13 == 9) {   /* a quiet NaN with a payload */
            if (single) { uint32_t u = 0x7FC00000u | (uint32_t)(j & 0xFFFF); memcpy(x + j * 4, &u, 4); }
            else { uint64_t u = UINT64_C(0x7FF8000000000000) | (uint64_t)j; memcpy(x + j * 8, &u, 8); }
            continue;
         }
         if (single) { float f = (float)v; memcpy(x + j * 4, &f, 4); }
         else memcpy(x + j * 8, &v, 8);
      }
      /* per element, over the multi-index: (i1, .., ik) -> j = i1 + d1 (i2 + d2 (..)) */
      {
         size_t idx[MAXDIM] = { 0 };
         size_t e;
         for (e = 0; e < n; ++e) {
            size_t lin = 0;
            int keep;
            for (k = c->ndim - 1; k >= 0; --k) lin = lin * c->dims[k] + idx[k];
            keep = dropout_keep_at(c->seed, c->stream, c->pos + lin, rule);
            m[lin] = (unsigned char)keep;
            if (single) {
               float xf, yf;
               memcpy(&xf, x + lin * 4, 4);
               yf = dropout_apply_f32(xf, keep, rule);
               memcpy(y + lin * 4, &yf, 4);
            } else {
               double xd, yd;
               memcpy(&xd, x + lin * 8, 8);
               yd = dropout_apply_f64(xd, keep, rule);
               memcpy(y + lin * 8, &yd, 8);
            }
            for (k = 0; k < c->ndim; ++k) {          /* the next multi-index, i1 fastest */
               if (++idx[k] < c->dims[k]) break;
               idx[k] = 0;
            }
         }
      }
      /* the short calls on the contiguous memory */
      if (n) {
         int err;
         if (strcmp(c->kind, "mask") == 0) err = dropout_mask(&plan, n, packed);
         else if (strcmp(c->kind, "forward") == 0)
            err = single ? dropout_replay_f32(&plan, n, (float *)(void *)y2, packed, (const float *)(void *)x)
                         : dropout_replay_f64(&plan, n, (double *)(void *)y2, packed, (const double *)(void *)x);
         else
            err = single ? dropout_backward_f32(&plan, n, (float *)(void *)y2, (const float *)(void *)x)
                         : dropout_backward_f64(&plan, n, (double *)(void *)y2, (const double *)(void *)x);
         if (err) bad = 1;
         if (strcmp(c->kind, "mask") != 0 && memcmp(y, y2, n * width) != 0) bad = 1;
         if (strcmp(c->kind, "backward") != 0) {
            for (j = 0; j < n; ++j) m2[j] = (unsigned char)((packed[j / 8] >> (j % 8)) & 1);
            if (memcmp(m, m2, n) != 0) bad = 1;
         }
      }
      /* the descriptor, the dims reversed: a column-major [d1 .. dk] is a row-major [dk .. d1] */
      if (n && c->ndim > 1 && strcmp(c->kind, "mask") != 0) {
         dropout_desc d;
         dropout_tensors t;
         size_t rdims[MAXDIM];
         int err;
         for (k = 0; k < c->ndim; ++k) rdims[k] = c->dims[c->ndim - 1 - k];
         memset(y2, 0xA5, n * width);
         memset(&t, 0, sizeof t);
         t.out = y2;
         t.in = x;
         err = dropout_desc_init(&d, strcmp(c->kind, "forward") == 0 ? DROPOUT_OP_FORWARD : DROPOUT_OP_BACKWARD,
                                 single ? DROPOUT_DTYPE_F32 : DROPOUT_DTYPE_F64, &plan);
         err = err ? err : dropout_desc_set_shape(&d, c->ndim, rdims);
         err = err ? err : dropout_run(&d, &t);
         if (err || memcmp(y, y2, n * width) != 0) bad = 1;
      }
      if (strcmp(c->kind, "mask") != 0) ex_write("in", name, "x", x, n * width);
      if (strcmp(c->kind, "mask") != 0) ex_write("exp", name, "y", y, n * width);
      if (strcmp(c->kind, "backward") != 0) ex_write("exp", name, "m", m, n);
   }
   if (bad) {
      printf("FAIL octave expected: case %s: the per-element bytes, the short call and the descriptor differ\n", name);
      ex_failed = 1;
   }
   ++ex_count;
   free(x); free(y); free(y2); free(m); free(m2); free(packed);
}

int main(int argc, char **argv)
{
   static const struct { int ndim; size_t d[MAXDIM]; } shapes[] = {
      { 2, { 1, 1 } }, { 2, { 7, 1 } }, { 2, { 1, 13 } }, { 2, { 8, 8 } }, { 2, { 63, 1 } },
      { 2, { 65, 2 } }, { 2, { 16, 17 } }, { 3, { 3, 5, 7 } }, { 4, { 2, 3, 4, 5 } },
      { 5, { 2, 1, 3, 1, 2 } }, { 2, { 0, 5 } }, { 3, { 4, 0, 2 } }, { 2, { 1000, 1 } },
   };
   static const struct { double p; int bits; } rules[] = {
      { 0.0, 8 }, { 0.3, 8 }, { 0.5, 16 }, { 0.9, 32 }, { 1.0, 8 }, { 0.3, 0 },
      { 0.001, 0 }, { 0.001, 16 }, { 1e-6, 32 }, { 0.123456789, 0 }, { 0.75, 32 },
   };
   static const uint64_t positions[] = {
      0, 1, 17, 63, UINT64_C(4294967293), UINT64_C(9007199254740991), UINT64_C(9007199254740992),
      UINT64_C(0xFFFFFFFFFFFFFFFF) - 1000,
   };
   static const uint64_t seeds[] = { 0, 42, UINT64_C(0xFFFFFFFFFFFFFFFF), UINT64_C(0x0123456789ABCDEF) };
   static const uint64_t streams[] = { 0, 1, UINT64_C(0x8000000000000000) };
   static const char *const kinds[] = { "forward", "backward", "mask" };
   char path[512], name[64];
   size_t s, r, q, i;
   if (argc != 2) { printf("usage: expected DIR\n"); return 2; }
   ex_dir = argv[1];
   snprintf(path, sizeof path, "%s/cases.txt", ex_dir);
   ex_list = fopen(path, "w");
   if (!ex_list) { printf("FAIL octave expected: cannot write %s\n", path); return 1; }

   /* every shape with every rule at one position, cycling the kind, class, key */
   for (s = 0, i = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
      for (r = 0; r < sizeof rules / sizeof rules[0]; ++r, ++i) {
         ex_case c;
         memset(&c, 0, sizeof c);
         c.kind = kinds[i % 3];
         c.cls = (i / 3) % 2 ? "single" : "double";
         c.p = rules[r].p;
         c.bits = rules[r].bits;
         c.seed = seeds[i % 4];
         c.stream = streams[i % 3];
         c.pos = positions[i % 8];
         c.ndim = shapes[s].ndim;
         memcpy(c.dims, shapes[s].d, sizeof c.dims);
         snprintf(name, sizeof name, "grid%03u", (unsigned)i);
         ex_case_run(name, &c);
      }
   }
   /* every position and both classes for one N-D forward */
   for (q = 0; q < sizeof positions / sizeof positions[0]; ++q) {
      for (i = 0; i < 2; ++i) {
         ex_case c;
         memset(&c, 0, sizeof c);
         c.kind = "forward"; c.cls = i ? "single" : "double"; c.p = 0.25; c.bits = 8;
         c.seed = 7; c.stream = 3; c.pos = positions[q];
         c.ndim = 3; c.dims[0] = 5; c.dims[1] = 4; c.dims[2] = 3;
         snprintf(name, sizeof name, "pos%u%s", (unsigned)q, i ? "s" : "d");
         ex_case_run(name, &c);
      }
   }
   /* the raw stream and the uniforms */
   for (q = 0; q < sizeof positions / sizeof positions[0]; ++q) {
      static const char *const fk[3][2] = { { "u32", "uint32" }, { "uniform", "single" }, { "uniform", "double" } };
      for (i = 0; i < 3; ++i) {
         ex_case c;
         memset(&c, 0, sizeof c);
         c.kind = fk[i][0]; c.cls = fk[i][1];
         c.seed = seeds[q % 4]; c.stream = streams[q % 3];
         c.pos = positions[q];
         if (i == 2 && c.pos > (UINT64_C(1) << 62)) c.pos = (UINT64_C(1) << 63) - 40;   /* doubles: below 2^63 */
         c.ndim = 3; c.dims[0] = 4; c.dims[1] = 2; c.dims[2] = 5;
         snprintf(name, sizeof name, "fill%u_%u", (unsigned)q, (unsigned)i);
         ex_case_run(name, &c);
      }
   }
   if (fclose(ex_list) != 0) { printf("FAIL octave expected: cannot write %s\n", path); return 1; }
   if (!ex_failed) printf("PASS octave expected: %u cases, the per-element column-major bytes equal the short calls and the reversed-dims descriptor\n", ex_count);
   return ex_failed;
}
