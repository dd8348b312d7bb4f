/* plot.h - just enough picture making for the examples, no dependencies.

   png_write (png.h): an 8-bit RGB PNG, deflate-compressed by png.h's own encoder.
   img_*: an RGB canvas with filled rectangles and text in a built-in 5x7 bitmap font
   (printable ASCII), so that PNG pictures carry their titles and labels.
   svg_*: line charts and bar charts written by hand as SVG text. */
#ifndef PLOT_H
#define PLOT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "png.h"

/* ---- RGB canvas ---- */

typedef struct plot_img { int w, h; uint8_t *rgb; } plot_img;   /* w*h*3 bytes, rows top to bottom */

static inline void img_rect(plot_img *m, int x0, int y0, int w, int h, uint32_t color)   /* 0xRRGGBB */
{
   int x, y;
   for (y = y0 < 0 ? 0 : y0; y < y0 + h && y < m->h; ++y)
      for (x = x0 < 0 ? 0 : x0; x < x0 + w && x < m->w; ++x) {
         uint8_t *p = m->rgb + 3 * ((size_t)y * (size_t)m->w + (size_t)x);
         p[0] = (uint8_t)(color >> 16); p[1] = (uint8_t)(color >> 8); p[2] = (uint8_t)color;
      }
}

/* Glyphs for ' ' .. '~': 7 rows of 5 bits, the top row in the highest bits, bit 4 of a
   row = its leftmost column. Drawn by hand in the style of the HD44780 LCD font; g, p, q
   and y are drawn 2 rows lower than the others so that their tails hang below the line. */
static const uint64_t plot__font[95] = {
   0x000000000, 0x108421004, 0x294000000, 0x295f57d4a, 0x11f4717c4, 0x632222263,
   0x32544564d, 0x108000000, 0x088842082, 0x208210888, 0x009575480, 0x0084f9080,
   0x000003088, 0x0000f8000, 0x00000018c, 0x002222200, 0x3a33ae62e, 0x11842108e,
   0x3a211111f, 0x7c441062e, 0x08ca97c42, 0x7e1e0862e, 0x1910f462e, 0x7c2222108,
   0x3a317462e, 0x3a317844c, 0x018c03180, 0x018c03088, 0x088882082, 0x001f07c00,
   0x208208888, 0x3a2111004, 0x3a216d6ae, 0x3a31fc631, 0x7a31f463e, 0x3a308422e,
   0x72518c65c, 0x7e10f421f, 0x7e10f4210, 0x3a30bc62f, 0x4631fc631, 0x38842108e,
   0x1c4210a4c, 0x4654c5251, 0x42108421f, 0x4775ac631, 0x4639ace31, 0x3a318c62e,
   0x7a31f4210, 0x3a318d64d, 0x7a31f5251, 0x3e107043e, 0x7c8421084, 0x46318c62e,
   0x46318c544, 0x4631ad6aa, 0x462a22a31, 0x463151084, 0x7c222221f, 0x39084210e,
   0x020820820, 0x38421084e, 0x115100000, 0x00000001f, 0x208200000, 0x000e0be2f,
   0x4216cc63e, 0x000e8422e, 0x042d9c62f, 0x000e8fe0e, 0x1928e2108, 0x3e318bc2e,
   0x4216cc631, 0x100c2108e, 0x080610a4c, 0x4212a6292, 0x30842108e, 0x001aad631,
   0x0016cc631, 0x000e8c62e, 0x7a318fa10, 0x3e318bc21, 0x0016cc210, 0x000e8383e,
   0x211c42126, 0x00118c66d, 0x00118c544, 0x00118d6aa, 0x001151151, 0x46318bc2e,
   0x001f1111f, 0x088441082, 0x108421084, 0x208411088, 0x0008a8800,
};

enum { PLOT_GLYPH_W = 6, PLOT_GLYPH_H = 10 };   /* 5x7, tails 2 rows lower, plus spacing */

/* Width in pixels of text at an integer scale. */
static inline int img_text_width(const char *s, int scale) { return (int)strlen(s) * PLOT_GLYPH_W * scale; }

/* Text with its top-left corner at (x, y); align: 0 left, 1 centred on x, 2 right. Each
   font pixel becomes a scale x scale square. Characters outside ' '..'~' draw as '?'. */
static inline void img_text(plot_img *m, int x, int y, const char *s, int scale, uint32_t color, int align)
{
   if (align) x -= img_text_width(s, scale) / (align == 1 ? 2 : 1);
   for (; *s; ++s, x += PLOT_GLYPH_W * scale) {
      int c = (unsigned char)*s, row, col;
      uint64_t g = plot__font[(c >= 32 && c < 127 ? c : '?') - 32];
      int drop = c == 'g' || c == 'p' || c == 'q' || c == 'y' ? 2 : 0;
      for (row = 0; row < 7; ++row)
         for (col = 0; col < 5; ++col)
            if ((g >> (5 * (6 - row) + (4 - col))) & 1u)
               img_rect(m, x + col * scale, y + (row + drop) * scale, scale, scale, color);
   }
}

/* ---- SVG: a chart is a frame with data coordinates mapped to a pixel box. ---- */

typedef struct svg_chart {
   FILE *f;
   double x0, x1, y0, y1;        /* data range */
   double px, py, pw, ph;        /* plot box in pixels */
} svg_chart;

static inline double svg_x(const svg_chart *c, double x) { return c->px + (x - c->x0) / (c->x1 - c->x0) * c->pw; }
static inline double svg_y(const svg_chart *c, double y) { return c->py + c->ph - (y - c->y0) / (c->y1 - c->y0) * c->ph; }

static inline FILE *svg_open(const char *path, int w, int h)
{
   FILE *f = fopen(path, "w");
   if (!f) return NULL;
   fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
              "font-family=\"sans-serif\" font-size=\"12\">\n"
              "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", w, h);
   return f;
}

static inline int svg_close(FILE *f)
{
   fprintf(f, "</svg>\n");
   return fclose(f) == 0 ? 0 : -1;
}

static inline void svg_text(FILE *f, double x, double y, const char *anchor, const char *text)
{
   fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n", x, y, anchor, text);
}

/* A round top for an axis from 0 that must reach `top` (> 0): the smallest count of steps
   of 1, 2 or 5 x 10^k that reaches it in at most max_ticks steps; *ticks gets the count,
   so svg_axes labels every step with a round number (0, 1, 2 ... not 0, 1.05, 2.11 ...). */
static inline double svg_round_top(double top, int max_ticks, int *ticks)
{
   static const double mult[3] = {1.0, 2.0, 5.0};
   double decade = 1e-9;
   int m, n;
   for (;; decade *= 10.0)
      for (m = 0; m < 3; ++m) {
         double step = mult[m] * decade;
         if (top / step > max_ticks && decade < 1e12) continue;   /* also keeps n an int */
         n = (int)(top / step);
         if (n * step < top) ++n;
         if (n <= max_ticks || decade >= 1e12) {
            *ticks = n < 1 ? 1 : n;
            return *ticks * step;
         }
      }
}

/* Frame, title, and `ticks` evenly spaced labelled ticks on each axis (x labels only
   when xticks is set). */
static inline void svg_axes(const svg_chart *c, const char *title, const char *xlabel,
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
static inline void svg_line(const svg_chart *c, const double *xs, const double *ys, int n,
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

static inline void svg_legend(const svg_chart *c, int slot, const char *color, int dash, const char *label)
{
   double x = c->px + c->pw - 230, y = c->py + 18 + 18 * slot;
   fprintf(c->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                 "stroke-width=\"2\"%s/>\n", x, y - 4, x + 30, y - 4, color,
           dash ? " stroke-dasharray=\"6 4\"" : "");
   svg_text(c->f, x + 36, y, "start", label);
}

#endif
