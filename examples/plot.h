/* plot.h - just enough picture writing for examples/train_mlp.c, no dependencies.

   png_write: an 8-bit RGB PNG whose zlib stream uses "stored" (uncompressed) deflate
   blocks, so the whole encoder is a CRC-32, an Adler-32 and some framing. The files are
   bigger than a real encoder's, and every viewer opens them.
   svg_*: line charts and bar charts written by hand as SVG text. */
#ifndef PLOT_H
#define PLOT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t plot__crc_update(uint32_t crc, const uint8_t *p, size_t n)
{
   size_t i;
   int k;
   crc = ~crc;
   for (i = 0; i < n; ++i) {   /* bitwise CRC-32 (IEEE, reflected): small beats fast here */
      crc ^= p[i];
      for (k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
   }
   return ~crc;
}

static void plot__be32(uint8_t *b, uint32_t v)
{
   b[0] = (uint8_t)(v >> 24); b[1] = (uint8_t)(v >> 16); b[2] = (uint8_t)(v >> 8); b[3] = (uint8_t)v;
}

/* One PNG chunk: length, type, data, CRC over type + data. The data is written in
   pieces by the caller through plot__chunk_part so no big buffer is needed. */
typedef struct plot__chunk { FILE *f; uint32_t crc; } plot__chunk;

static void plot__chunk_begin(plot__chunk *c, FILE *f, const char *type, uint32_t len)
{
   uint8_t b[4];
   plot__be32(b, len);
   fwrite(b, 1, 4, f);
   fwrite(type, 1, 4, f);
   c->f = f;
   c->crc = plot__crc_update(0, (const uint8_t *)type, 4);
}

static void plot__chunk_part(plot__chunk *c, const uint8_t *p, size_t n)
{
   fwrite(p, 1, n, c->f);
   c->crc = plot__crc_update(c->crc, p, n);
}

static void plot__chunk_end(plot__chunk *c)
{
   uint8_t b[4];
   plot__be32(b, c->crc);
   fwrite(b, 1, 4, c->f);
}

/* rgb: w*h*3 bytes, rows top to bottom. Returns 0 on success. */
static int png_write(const char *path, int w, int h, const uint8_t *rgb)
{
   static const uint8_t sig[8] = {137, 'P', 'N', 'G', 13, 10, 26, 10};
   const size_t row = (size_t)w * 3u + 1u;            /* filter byte + pixels */
   const size_t raw = row * (size_t)h;
   const size_t nblocks = (raw + 65534u) / 65535u;    /* stored blocks hold <= 65535 bytes */
   uint8_t ihdr[13], hdr[5], b[4];
   uint32_t a1 = 1, a2 = 0;                           /* Adler-32 of the raw bytes */
   size_t pos = 0, y;
   plot__chunk c;
   FILE *f = fopen(path, "wb");
   if (!f) return -1;
   fwrite(sig, 1, 8, f);
   plot__be32(ihdr, (uint32_t)w);
   plot__be32(ihdr + 4, (uint32_t)h);
   ihdr[8] = 8; ihdr[9] = 2; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;   /* 8-bit RGB */
   plot__chunk_begin(&c, f, "IHDR", 13);
   plot__chunk_part(&c, ihdr, 13);
   plot__chunk_end(&c);

   plot__chunk_begin(&c, f, "IDAT", (uint32_t)(2u + raw + 5u * nblocks + 4u));
   hdr[0] = 0x78; hdr[1] = 0x01;                       /* zlib: deflate, 32K window */
   plot__chunk_part(&c, hdr, 2);
   /* The raw stream is rows of (filter 0, pixels); blocks may split rows anywhere. */
   for (y = 0; y < nblocks; ++y) {
      size_t len = raw - pos < 65535u ? raw - pos : 65535u, i;
      hdr[0] = (uint8_t)(y + 1 == nblocks);            /* BFINAL, BTYPE = 00 stored */
      hdr[1] = (uint8_t)len; hdr[2] = (uint8_t)(len >> 8);
      hdr[3] = (uint8_t)~len; hdr[4] = (uint8_t)(~len >> 8);
      plot__chunk_part(&c, hdr, 5);
      for (i = 0; i < len; ++i, ++pos) {
         size_t r = pos / row, col = pos % row;
         uint8_t v = col == 0 ? 0 : rgb[r * (size_t)w * 3u + col - 1u];
         plot__chunk_part(&c, &v, 1);
         a1 = (a1 + v) % 65521u;
         a2 = (a2 + a1) % 65521u;
      }
   }
   plot__be32(b, a2 << 16 | a1);
   plot__chunk_part(&c, b, 4);
   plot__chunk_end(&c);

   plot__chunk_begin(&c, f, "IEND", 0);
   plot__chunk_end(&c);
   return fclose(f) == 0 ? 0 : -1;
}

/* ---- SVG: a chart is a frame with data coordinates mapped to a pixel box. ---- */

typedef struct svg_chart {
   FILE *f;
   double x0, x1, y0, y1;        /* data range */
   double px, py, pw, ph;        /* plot box in pixels */
} svg_chart;

static double svg_x(const svg_chart *c, double x) { return c->px + (x - c->x0) / (c->x1 - c->x0) * c->pw; }
static double svg_y(const svg_chart *c, double y) { return c->py + c->ph - (y - c->y0) / (c->y1 - c->y0) * c->ph; }

static FILE *svg_open(const char *path, int w, int h)
{
   FILE *f = fopen(path, "w");
   if (!f) return NULL;
   fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
              "font-family=\"sans-serif\" font-size=\"12\">\n"
              "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", w, h);
   return f;
}

static int svg_close(FILE *f)
{
   fprintf(f, "</svg>\n");
   return fclose(f) == 0 ? 0 : -1;
}

static void svg_text(FILE *f, double x, double y, const char *anchor, const char *text)
{
   fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n", x, y, anchor, text);
}

/* Frame, title, and `ticks` evenly spaced labelled ticks on each axis (x labels only
   when xticks is set). */
static void svg_axes(const svg_chart *c, const char *title, const char *xlabel,
                     const char *ylabel, int ticks, int xticks)
{
   char buf[64];
   int i;
   fprintf(c->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                 "stroke=\"black\"/>\n", c->px, c->py, c->pw, c->ph);
   for (i = 0; i <= ticks; ++i) {
      double xv = c->x0 + (c->x1 - c->x0) * i / ticks, yv = c->y0 + (c->y1 - c->y0) * i / ticks;
      snprintf(buf, sizeof buf, "%g", xv);
      if (xticks) svg_text(c->f, svg_x(c, xv), c->py + c->ph + 16, "middle", buf);
      snprintf(buf, sizeof buf, "%.3g", yv);
      svg_text(c->f, c->px - 6, svg_y(c, yv) + 4, "end", buf);
      fprintf(c->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
              c->px, svg_y(c, yv), c->px + c->pw, svg_y(c, yv));
   }
   fprintf(c->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"15\">%s</text>\n",
           c->px + c->pw / 2, c->py - 10, title);
   svg_text(c->f, c->px + c->pw / 2, c->py + c->ph + 34, "middle", xlabel);
   fprintf(c->f, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" text-anchor=\"middle\">%s"
                 "</text>\n", c->px - 48, c->py + c->ph / 2, ylabel);
}

/* A polyline through (xs[i], ys[i]); dashed when dash != 0. Values are clipped to the box. */
static void svg_line(const svg_chart *c, const double *xs, const double *ys, int n,
                     const char *color, int dash)
{
   int i;
   fprintf(c->f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", color,
           dash ? " stroke-dasharray=\"6 4\"" : "");
   for (i = 0; i < n; ++i) {
      double y = ys[i] < c->y0 ? c->y0 : ys[i] > c->y1 ? c->y1 : ys[i];
      fprintf(c->f, "%.1f,%.1f ", svg_x(c, xs[i]), svg_y(c, y));
   }
   fprintf(c->f, "\"/>\n");
}

static void svg_legend(const svg_chart *c, int slot, const char *color, int dash, const char *label)
{
   double x = c->px + c->pw - 230, y = c->py + 18 + 18 * slot;
   fprintf(c->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                 "stroke-width=\"2\"%s/>\n", x, y - 4, x + 30, y - 4, color,
           dash ? " stroke-dasharray=\"6 4\"" : "");
   svg_text(c->f, x + 36, y, "start", label);
}

#endif
