/* make_figures.c - the tutorial's pictures, made from the library itself.

   make figures      writes docs/img/ (this program, then the demo trainer's pictures)
   ./build/make_figures DIR [--raw] [--check]

   threshold.svg     256 8-bit draws against the threshold t = round(p * 256)
   philox_round.svg  one Philox4x32 round, drawn from a wiring table
   masks_p.png       element masks at six values of p, with the kept counts

   Nothing in a picture is typed in by hand: the draws, thresholds and counts are the
   library's, and the Philox picture's wires and formulas come from the table `wires`,
   which --check runs as a Philox round and compares with dropout.h's own rounds.
   --check also compares the threshold picture's keep decisions with dropout_mask.
   --raw writes each PNG's pixels next to it (NAME.rgb: "P6 w h 255\n" + RGB bytes, a
   binary PPM) so that a test can compare them with an independent decoder's output. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "plot.h"

#include <stdlib.h>

static int checks_failed;

static void report(int ok, const char *name, const char *why)
{
   printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", name, ok ? "" : ": ", ok ? "" : why);
   checks_failed += !ok;
}

static char path_buf[1024];
static const char *in_dir(const char *dir, const char *name)
{
   snprintf(path_buf, sizeof path_buf, "%s/%s", dir, name);
   return path_buf;
}

/* ---- the threshold on 256 draws -------------------------------------------------- */

enum { T_SEED = 1, T_STREAM = 0 };

/* Draw q of the 8-bit stream: byte q % 4 of word q / 4, lowest byte first (SPEC, draws). */
static unsigned draw8(uint64_t q)
{
   return (dropout_stream_u32(dropout_key_make(T_SEED, T_STREAM), dropout_pos_make(q / 4)) >> (8 * (q % 4))) & 0xFFu;
}

static int figure_threshold(const char *dir, int check)
{
   enum { CELL = 24, GX = 30, GY = 70 };
   const double p = 0.3;
   const unsigned t = (unsigned)(p * 256.0 + 0.5);   /* the library's floor(p 2^b + 1/2) */
   unsigned d[256], kept = 0;
   uint8_t mask[32];
   char buf[256];
   int j, lx = GX + 16 * CELL + 40;
   const double lw = 300;
   FILE *f = svg_open(in_dir(dir, "threshold.svg"), 780, 520);
   if (!f) return -1;
   for (j = 0; j < 256; ++j) { d[j] = draw8((uint64_t)j); kept += d[j] >= t; }
   if (check) {
      dropout_rule rule;
      dropout_plan plan;
      int same = dropout_rule_init(&rule, p, DROPOUT_BITS_8) == DROPOUT_OK &&
                 dropout_plan_at(&plan, &rule, dropout_key_make(T_SEED, T_STREAM), dropout_pos_make(0), 256) == DROPOUT_OK &&
                 dropout_mask(&plan, 256, mask) == DROPOUT_OK && rule.threshold == t;
      for (j = 0; j < 256; ++j) same &= ((mask[j / 8] >> (j % 8)) & 1u) == (d[j] >= t);
      report(same, "figures: threshold.svg's keep decisions = dropout_mask (p 0.3, 8-bit draws)",
             "a drawn decision differs from the library's mask");
   }
   snprintf(buf, sizeof buf, "p = %.1f with 8-bit draws: t = round(%.1f * 256) = %u; an element is kept iff its draw &gt;= %u",
            p, p, t, t);
   fprintf(f, "<text x=\"390\" y=\"26\" text-anchor=\"middle\" font-size=\"15\">%s</text>\n", buf);
   snprintf(buf, sizeof buf, "the first 256 draws of seed %d, stream %d (element j, row by row): %u kept, %u dropped",
            T_SEED, T_STREAM, kept, 256 - kept);
   svg_text(f, 390, 48, "middle", buf);
   for (j = 0; j < 256; ++j) {
      int x = GX + (j % 16) * CELL, y = GY + (j / 16) * CELL, k = d[j] >= t;
      fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"white\"/>\n",
              x, y, CELL, CELL, k ? "#cfe8cf" : "#6b1f1f");
      fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"9\" fill=\"%s\">%u</text>\n",
              x + CELL / 2, y + CELL / 2 + 3, k ? "black" : "white", d[j]);
   }
   /* the number line 0 .. 255: dropped values left of t, kept ones from t on; every draw
      is a tick at its value */
   svg_text(f, lx, GY + 10, "start", "all 256 values of an 8-bit draw:");
   fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"24\" fill=\"#6b1f1f\"/>\n", lx, GY + 20, lw * t / 256.0);
   fprintf(f, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"24\" fill=\"#cfe8cf\"/>\n",
           lx + lw * t / 256.0, GY + 20, lw * (256 - t) / 256.0);
   for (j = 0; j < 256; ++j)
      fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\" stroke-opacity=\"0.5\"/>\n",
              lx + lw * (d[j] + 0.5) / 256.0, GY + 48, lx + lw * (d[j] + 0.5) / 256.0, GY + 58);
   svg_text(f, lx, GY + 74, "start", "0");
   snprintf(buf, sizeof buf, "t = %u", t);
   svg_text(f, lx + lw * t / 256.0, GY + 74, "middle", buf);
   svg_text(f, lx + lw, GY + 74, "end", "255");
   svg_text(f, lx, GY + 90, "start", "(ticks: the 256 draws on the left)");
   snprintf(buf, sizeof buf, "dropped: draws 0 .. %u, %u of 256 values", t - 1, t);
   svg_text(f, lx, GY + 130, "start", buf);
   snprintf(buf, sizeof buf, "kept: draws %u .. 255, %u of 256 values", t, 256 - t);
   svg_text(f, lx, GY + 150, "start", buf);
   snprintf(buf, sizeof buf, "realised keep probability q = %u/256 = %.8g", 256 - t, (256 - t) / 256.0);
   svg_text(f, lx, GY + 180, "start", buf);
   snprintf(buf, sizeof buf, "kept elements are scaled by 1/q = %.6f", 256.0 / (256 - t));
   svg_text(f, lx, GY + 200, "start", buf);
   snprintf(buf, sizeof buf, "(1/(1-p) = %.6f would bias E[y] by %+.2f%%)", 1.0 / (1.0 - p),
            100.0 * ((256 - t) / 256.0 / (1.0 - p) - 1.0));
   svg_text(f, lx, GY + 220, "start", buf);
   snprintf(buf, sizeof buf, "these 256 draws: %u kept (%.1f%%), expected %.1f", kept, 100.0 * kept / 256, 256.0 - t);
   svg_text(f, lx, GY + 250, "start", buf);
   svg_text(f, 390, GY + 16 * CELL + 30, "middle",
            "element j's draw is byte j % 4 of stream word j / 4, lowest byte first: one Philox block serves 16 elements");
   return svg_close(f);
}

/* ---- the Philox round, drawn from its wiring ---------------------------------------- */

/* Where each value of a round sits in the picture. Inputs c0..c3 and the key on the top
   row, the two products' halves in the middle, outputs at the bottom. */
enum { V_C0, V_C1, V_C2, V_C3, V_K0, V_K1, V_HI0, V_LO0, V_HI1, V_LO1, V_COUNT };
static const char *const vname[V_COUNT] = {"c0", "c1", "c2", "c3", "k0", "k1", "hi0", "lo0", "hi1", "lo1"};

/* The round: output word `out` is the XOR of the values wired into it. This table is
   both what the picture draws and what --check runs against dropout.h. */
static const struct { int from, out; } wires[] = {
   {V_HI1, 0}, {V_C1, 0}, {V_K0, 0},
   {V_LO1, 1},
   {V_HI0, 2}, {V_C3, 2}, {V_K1, 2},
   {V_LO0, 3},
};
enum { N_WIRES = sizeof wires / sizeof wires[0] };
static const uint32_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u, W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;

static void table_round(uint32_t c[4], const uint32_t k[2])
{
   uint32_t v[V_COUNT], o[4] = {0, 0, 0, 0};
   uint64_t p0 = (uint64_t)M0 * c[0], p1 = (uint64_t)M1 * c[2];
   int i;
   v[V_C0] = c[0]; v[V_C1] = c[1]; v[V_C2] = c[2]; v[V_C3] = c[3]; v[V_K0] = k[0]; v[V_K1] = k[1];
   v[V_HI0] = (uint32_t)(p0 >> 32); v[V_LO0] = (uint32_t)p0;
   v[V_HI1] = (uint32_t)(p1 >> 32); v[V_LO1] = (uint32_t)p1;
   for (i = 0; i < N_WIRES; ++i) o[wires[i].out] ^= v[wires[i].from];
   for (i = 0; i < 4; ++i) c[i] = o[i];
}

static void check_wiring(void)
{
   int trial, r, ok1 = 1, ok10 = 1;
   for (trial = 0; trial < 1000; ++trial) {
      uint32_t w[8], c[4], k[2], lib[4];
      int err = dropout_fill_u32(dropout_key_make(99, 5), dropout_pos_make(8u * (uint64_t)trial), w, 8);
      if (err) {   /* w was not written: no comparison below would mean anything */
         report(0, "figures: the wiring check's counters and keys (dropout_fill_u32)", dropout_strerror(err));
         return;
      }
      c[0] = w[0]; c[1] = w[1]; c[2] = w[2]; c[3] = w[3]; k[0] = w[4]; k[1] = w[5];
      dropout_philox4x32_rounds(1, c, k, lib);
      table_round(c, k);
      ok1 &= !memcmp(c, lib, sizeof lib);
      c[0] = w[0]; c[1] = w[1]; c[2] = w[2]; c[3] = w[3];
      for (r = 0; r < 10; ++r) { table_round(c, k); k[0] += W0; k[1] += W1; }
      k[0] = w[4]; k[1] = w[5];
      dropout_philox4x32_10(w, k, lib);
      ok10 &= !memcmp(c, lib, sizeof lib);
   }
   report(ok1, "figures: philox_round.svg's wiring is dropout.h's round (1000 random counters and keys)",
          "one round through the drawn wires differs from dropout_philox4x32_rounds(1)");
   report(ok10, "figures: ten rounds through the drawn wires + key bumps = dropout_philox4x32_10",
          "ten rounds through the drawn wires differ from the library");
}

static int figure_philox(const char *dir)
{
   /* x positions of each value; y of the rows */
   static const double vx[V_COUNT] = {100, 250, 410, 570, 700, 760, 70, 130, 380, 440};
   static const double ox[4] = {100, 250, 410, 570};
   static const char *const color[V_COUNT] = {"#888", "#2ca02c", "#888", "#9467bd", "#8c564b",
                                              "#e377c2", "#1f77b4", "#17becf", "#d62728", "#ff7f0e"};
   const double y_in = 70, y_mul = 150, y_half = 205, y_out = 390;
   char formula[4][64];
   int i, o;
   FILE *f = svg_open(in_dir(dir, "philox_round.svg"), 820, 510);
   if (!f) return -1;
   fprintf(f, "<text x=\"410\" y=\"26\" text-anchor=\"middle\" font-size=\"15\">One round of Philox4x32 "
              "(dropout.h runs 10; the key is bumped between rounds)</text>\n");
   for (i = 0; i < 4; ++i) {   /* input words */
      fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"60\" height=\"26\" fill=\"#eee\" stroke=\"black\"/>\n",
              vx[i] - 30, y_in - 18);
      svg_text(f, vx[i], y_in, "middle", vname[i]);
   }
   fprintf(f, "<rect x=\"665\" y=\"%.1f\" width=\"130\" height=\"26\" fill=\"#fff4d6\" stroke=\"black\"/>\n", y_in - 18);
   svg_text(f, 730, y_in, "middle", "key k0 | k1");
   for (i = 0; i < 2; ++i) {   /* the two multipliers: c0 and c2 enter, hi/lo leave */
      double x = i ? vx[V_C2] : vx[V_C0];
      fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\" stroke-width=\"2\"/>\n",
              x, y_in + 8, x, y_mul - 16);
      fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"180\" height=\"30\" fill=\"#e8f0ff\" stroke=\"black\"/>\n",
              x - 90, y_mul - 16);
      svg_text(f, x, y_mul + 4, "middle", i ? "M1 * c2 (64-bit product)" : "M0 * c0 (64-bit product)");
   }
   for (i = V_HI0; i <= V_LO1; ++i) {
      double from = i <= V_LO0 ? vx[V_C0] : vx[V_C2];
      fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n",
              from + (vx[i] - from) / 3, y_mul + 14, vx[i], y_half - 14, color[i]);
      svg_text(f, vx[i], y_half, "middle", vname[i]);
   }
   /* the wires: from each source to the output it feeds, in the source's colour */
   for (i = 0; i < N_WIRES; ++i) {
      int v = wires[i].from;
      double x0 = v == V_K0 ? 700 : v == V_K1 ? 760 : vx[v];
      double y0 = v >= V_HI0 ? y_half + 6 : y_in + 8;
      double x1 = ox[wires[i].out] - 20 + 20 * (double)(i % 3), y1 = y_out - 22;
      fprintf(f, "<path d=\"M %.1f %.1f C %.1f %.1f, %.1f %.1f, %.1f %.1f\" fill=\"none\" stroke=\"%s\" "
                 "stroke-width=\"2\"/>\n", x0, y0, x0, (y0 + y1) / 2 + 40, x1, (y0 + y1) / 2, x1, y1, color[v]);
      fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", x1, y1, color[v]);
   }
   for (o = 0; o < 4; ++o) {   /* outputs: the formula is read off the same table */
      char *s = formula[o];
      int first = 1;
      s[0] = '\0';
      for (i = 0; i < N_WIRES; ++i)
         if (wires[i].out == o) {
            strcat(s, first ? "" : " ^ ");
            strcat(s, vname[wires[i].from]);
            first = 0;
         }
      fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"140\" height=\"44\" fill=\"#eee\" stroke=\"black\"/>\n",
              ox[o] - 70, y_out - 20);
      {
         char label[16];
         snprintf(label, sizeof label, "new c%d", o);
         svg_text(f, ox[o], y_out - 4, "middle", label);
      }
      svg_text(f, ox[o], y_out + 14, "middle", formula[o]);
   }
   svg_text(f, 410, y_out + 50, "middle",
            "then k0 += 0x9E3779B9, k1 += 0xBB67AE85 (Weyl sequence) and the next round starts from the new c0..c3");
   svg_text(f, 410, y_out + 70, "middle",
            "hi = high 32 bits, lo = low 32 bits of a product;  M0 = 0xD2511F53, M1 = 0xCD9E8D57");
   svg_text(f, 410, y_out + 90, "middle",
            "c1 and c3 only pass through XORs; c0 and c2 are multiplied, and their halves change places");
   return svg_close(f);
}

/* ---- masks at several p ----------------------------------------------------------- */

static int write_png(const char *dir, const char *name, const plot_img *im, int raw)
{
   int err = png_write(in_dir(dir, name), im->w, im->h, im->rgb);
   if (!err && raw) {
      char rname[256];
      FILE *f;
      snprintf(rname, sizeof rname, "%s.rgb", name);
      f = fopen(in_dir(dir, rname), "wb");
      if (!f) return -1;
      fprintf(f, "P6 %d %d 255\n", im->w, im->h);
      fwrite(im->rgb, 3, (size_t)im->w * (size_t)im->h, f);
      err = fclose(f) == 0 ? 0 : -1;
   }
   return err;
}

static int figure_masks(const char *dir, int raw)
{
   enum { N = 48, Z = 3, P = N * Z, GAP = 14, M = 12, TOP = 96, BOTTOM = 32,
          W = 6 * P + 5 * GAP + 2 * M, H = TOP + P + BOTTOM };
   static const double ps[6] = {0.05, 0.1, 0.25, 0.5, 0.75, 0.9};
   uint8_t mask[N * N / 8];
   plot_img im;
   char buf[96];
   int panel, i, j, err;
   im.w = W; im.h = H;
   im.rgb = (uint8_t *)malloc((size_t)W * H * 3);
   if (!im.rgb) return -1;
   img_rect(&im, 0, 0, W, H, 0xffffff);
   img_text(&im, W / 2, 8, "Element masks at six p, white = kept (48 x 48, 16-bit draws, seed 1)", 2, 0x000000, 1);
   for (panel = 0; panel < 6; ++panel) {
      const int X0 = M + panel * (P + GAP);
      int kept = 0;
      /* each panel its own stream positions, as consecutive layers would take them */
      {
         dropout_rule rule;
         dropout_plan plan;
         if (dropout_rule_init(&rule, ps[panel], DROPOUT_BITS_16) ||
             dropout_plan_at(&plan, &rule, dropout_key_make(1, 0), dropout_pos_make((uint64_t)panel * N * N), N * N) ||
             dropout_mask(&plan, N * N, mask)) { free(im.rgb); return -1; }
      }
      for (i = 0; i < N * N; ++i) kept += (mask[i / 8] >> (i % 8)) & 1;
      for (i = 0; i < P; ++i)
         for (j = 0; j < P; ++j) {
            int e = (i / Z) * N + j / Z;
            img_rect(&im, X0 + j, TOP + i, 1, 1, (mask[e / 8] >> (e % 8)) & 1 ? 0xffffff : 0x000000);
         }
      img_rect(&im, X0 - 1, TOP - 1, P + 2, 1, 0x808080);   /* a frame: white cells at the edge */
      img_rect(&im, X0 - 1, TOP + P, P + 2, 1, 0x808080);
      img_rect(&im, X0 - 1, TOP, 1, P, 0x808080);
      img_rect(&im, X0 + P, TOP, 1, P, 0x808080);
      snprintf(buf, sizeof buf, "p = %.2f", ps[panel]);
      img_text(&im, X0 + P / 2, 32, buf, 2, 0x000000, 1);
      snprintf(buf, sizeof buf, "%d kept", kept);   /* two lines: readable at scale 2 */
      img_text(&im, X0 + P / 2, 54, buf, 2, 0x404040, 1);
      snprintf(buf, sizeof buf, "%.1f%%", 100.0 * kept / (N * N));
      img_text(&im, X0 + P / 2, 74, buf, 2, 0x404040, 1);
   }
   img_text(&im, W / 2, TOP + P + 10, "each panel: the next 2304 positions of stream 0, as layers take them",
            2, 0x000000, 1);
   err = write_png(dir, "masks_p.png", &im, raw);
   free(im.rgb);
   return err;
}

/* Images whose pixels a decoder test compares: text, flat areas, a gradient (all filter
   types win somewhere), random noise (incompressible: the encoder's worst case), noise
   that repeats from far back, and the smallest image. Written only with --raw. */
static int figure_selftest(const char *dir)
{
   plot_img im;
   uint32_t *noise;
   int x, y, err = 0, rc;
   const size_t npix = 333 * 97;
   im.w = 333; im.h = 97;
   im.rgb = (uint8_t *)malloc(npix * 3);
   noise = (uint32_t *)malloc(npix * sizeof(uint32_t));
   if (!im.rgb || !noise) { free(im.rgb); free(noise); return -1; }
   for (y = 0; y < im.h; ++y)
      for (x = 0; x < im.w; ++x) {
         uint8_t *px = im.rgb + 3 * (size_t)(y * im.w + x);
         px[0] = (uint8_t)x; px[1] = (uint8_t)(y * 2); px[2] = (uint8_t)(x ^ y);
      }
   img_rect(&im, 10, 10, 100, 30, 0x204080);
   img_text(&im, 120, 12, "png.h self-test: !\"#$%&'()*+,-./0-9:;<=>?@A-Z[\\]^_`a-z{|}~", 1, 0xffffff, 0);
   img_text(&im, 120, 40, "gjpqy 0.123", 3, 0x000000, 0);
   err |= write_png(dir, "selftest_pattern.png", &im, 1);
   rc = dropout_fill_u32(dropout_key_make(5, 5), dropout_pos_make(0), noise, npix);
   if (rc) {   /* noise was not written: the picture would be malloc's leftovers */
      printf("FAIL figures: dropout_fill_u32: %s\n", dropout_strerror(rc));
      free(im.rgb);
      free(noise);
      return -1;
   }
   memcpy(im.rgb, noise, npix * 3);
   err |= write_png(dir, "selftest_noise.png", &im, 1);
   /* the top half's random rows again below: matches 30050 bytes back, near the 32 KiB
      window's end */
   im.w = 200; im.h = 100;
   memcpy(im.rgb + 50 * 600, im.rgb, 50 * 600);
   err |= write_png(dir, "selftest_noise_repeated.png", &im, 1);
   im.w = 1; im.h = 1;
   err |= write_png(dir, "selftest_1x1.png", &im, 1);
   free(im.rgb);
   free(noise);
   return err;
}

int main(int argc, char **argv)
{
   const char *dir = argc > 1 ? argv[1] : "docs/img";
   int raw = 0, check = 0, i, err = 0;
   for (i = 2; i < argc; ++i) {
      if (!strcmp(argv[i], "--raw")) raw = 1;
      else if (!strcmp(argv[i], "--check")) check = 1;
      else { fprintf(stderr, "usage: %s DIR [--raw] [--check]\n", argv[0]); return 2; }
   }
   if (check) check_wiring();
   err |= figure_threshold(dir, check);
   err |= figure_philox(dir);
   err |= figure_masks(dir, raw);
   if (raw) err |= figure_selftest(dir);
   if (err) printf("FAIL figures: could not write every picture in %s\n", dir);
   else if (!check) printf("wrote threshold.svg, philox_round.svg, masks_p.png in %s\n", dir);
   return err || checks_failed ? 1 : 0;
}
