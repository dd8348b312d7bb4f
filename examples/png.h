/* png.h - a small PNG writer with its own deflate compressor, no dependencies.

   png_write(path, w, h, rgb) writes an 8-bit RGB PNG. Each row gets the PNG filter
   (None, Sub, Up, Average, Paeth) whose output has the smallest sum of |byte| (the usual
   heuristic: small numbers repeat), then the filtered rows are deflated with LZ77 (hash
   chains over a 32 KiB window) and the fixed Huffman code of RFC 1951 section 3.2.6:
   no code tables to build or send, and the pictures here (flat colours, masks, text)
   still shrink by 10x to 100x. Wrapped in zlib (RFC 1950, Adler-32); every chunk
   carries its CRC-32.

   png_deflate is exposed for the tests: it compresses any buffer into a zlib stream.
   Example code: it allocates (malloc), unlike dropout.h. */
#ifndef PNG_H
#define PNG_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline uint32_t png__crc_update(uint32_t crc, const uint8_t *p, size_t n)
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

static inline uint32_t png__adler32(const uint8_t *p, size_t n)
{
   uint32_t a = 1, b = 0;
   size_t i;
   for (i = 0; i < n; ++i) {
      a = (a + p[i]) % 65521u;
      b = (b + a) % 65521u;
   }
   return b << 16 | a;
}

/* ---- the bit writer: deflate packs bits LSB first; Huffman codes go MSB first ---- */
typedef struct png__bits {
   uint8_t *out;
   size_t len;
   uint32_t acc;
   int nacc;
} png__bits;

static inline void png__put(png__bits *b, uint32_t v, int n)   /* n low bits of v, LSB first */
{
   b->acc |= v << b->nacc;
   b->nacc += n;
   while (b->nacc >= 8) {
      b->out[b->len++] = (uint8_t)b->acc;
      b->acc >>= 8;
      b->nacc -= 8;
   }
}

static inline void png__put_code(png__bits *b, uint32_t code, int n)   /* a Huffman code, MSB first */
{
   uint32_t r = 0;
   int i;
   for (i = 0; i < n; ++i) r |= ((code >> i) & 1u) << (n - 1 - i);
   png__put(b, r, n);
}

/* The fixed literal/length code (RFC 1951 3.2.6). */
static inline void png__put_litlen(png__bits *b, int sym)
{
   if (sym < 144) png__put_code(b, 0x30u + (uint32_t)sym, 8);
   else if (sym < 256) png__put_code(b, 0x190u + (uint32_t)(sym - 144), 9);
   else if (sym < 280) png__put_code(b, (uint32_t)(sym - 256), 7);
   else png__put_code(b, 0xC0u + (uint32_t)(sym - 280), 8);
}

static const uint16_t png__len_base[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27,
   31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t png__len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3,
   3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t png__dist_base[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129,
   193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t png__dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7,
   8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

static inline void png__put_match(png__bits *b, int len, int dist)
{
   int i = 28, d = 29;
   while (png__len_base[i] > len) --i;
   png__put_litlen(b, 257 + i);
   png__put(b, (uint32_t)(len - png__len_base[i]), png__len_extra[i]);
   while (png__dist_base[d] > dist) --d;
   png__put_code(b, (uint32_t)d, 5);   /* fixed distance code: 5 bits, the symbol itself */
   png__put(b, (uint32_t)(dist - png__dist_base[d]), png__dist_extra[d]);
}

enum { PNG__WINDOW = 32768, PNG__HASH = 1 << 15, PNG__CHAIN = 48, PNG__MAXLEN = 258 };

static inline uint32_t png__hash3(const uint8_t *p)
{
   return ((uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]) * 2654435761u >> 17;
}

/* zlib stream of in[0..n) into a malloc'd buffer; *out_len its length. NULL if out of
   memory. One final fixed-Huffman block: the format allows a block of any length. */
static inline uint8_t *png_deflate(const uint8_t *in, size_t n, size_t *out_len)
{
   /* worst case: every byte a 9-bit literal, plus header, end code and Adler-32 */
   size_t cap = n + n / 8 + 16, i = 0;
   int32_t *head = (int32_t *)malloc(PNG__HASH * sizeof(int32_t));
   int32_t *prev = (int32_t *)malloc(PNG__WINDOW * sizeof(int32_t));
   png__bits b;
   uint32_t adler = png__adler32(in, n);
   memset(&b, 0, sizeof b);
   b.out = (uint8_t *)malloc(cap);
   if (!head || !prev || !b.out) { free(head); free(prev); free(b.out); return NULL; }
   memset(head, 0xff, PNG__HASH * sizeof(int32_t));   /* -1: empty */
   b.out[b.len++] = 0x78; b.out[b.len++] = 0x01;       /* zlib: deflate, 32K window, no dict */
   png__put(&b, 1, 1);                                  /* BFINAL */
   png__put(&b, 1, 2);                                  /* BTYPE 01: fixed Huffman */
   while (i < n) {
      int best = 0, bdist = 0;
      if (i + 3 <= n) {
         uint32_t h = png__hash3(in + i);
         int32_t cand = head[h];
         int chain = PNG__CHAIN;
         size_t maxlen = n - i < (size_t)PNG__MAXLEN ? n - i : (size_t)PNG__MAXLEN;
         while (cand >= 0 && i - (size_t)cand <= PNG__WINDOW && chain-- > 0) {
            size_t l = 0;
            while (l < maxlen && in[(size_t)cand + l] == in[i + l]) ++l;
            if ((int)l > best) {
               best = (int)l;
               bdist = (int)(i - (size_t)cand);
               if (l == maxlen) break;
            }
            {
               int32_t nxt = prev[cand % PNG__WINDOW];
               if (nxt >= cand) break;   /* that slot was reused by a newer position */
               cand = nxt;
            }
         }
      }
      if (best >= 3) {
         size_t k;
         png__put_match(&b, best, bdist);
         for (k = 0; k < (size_t)best; ++k, ++i) {   /* index every position it covers */
            if (i + 3 <= n) {
               uint32_t h = png__hash3(in + i);
               prev[i % PNG__WINDOW] = head[h];
               head[h] = (int32_t)i;
            }
         }
      } else {
         if (i + 3 <= n) {
            uint32_t h = png__hash3(in + i);
            prev[i % PNG__WINDOW] = head[h];
            head[h] = (int32_t)i;
         }
         png__put_litlen(&b, in[i]);
         ++i;
      }
   }
   png__put_litlen(&b, 256);                 /* end of block */
   if (b.nacc > 0) png__put(&b, 0, 8 - b.nacc);
   b.out[b.len++] = (uint8_t)(adler >> 24); b.out[b.len++] = (uint8_t)(adler >> 16);
   b.out[b.len++] = (uint8_t)(adler >> 8);  b.out[b.len++] = (uint8_t)adler;
   free(head);
   free(prev);
   *out_len = b.len;
   return b.out;
}

/* ---- PNG framing ---- */

static inline void png__be32(uint8_t *b, uint32_t v)
{
   b[0] = (uint8_t)(v >> 24); b[1] = (uint8_t)(v >> 16); b[2] = (uint8_t)(v >> 8); b[3] = (uint8_t)v;
}

static inline void png__chunk(FILE *f, const char *type, const uint8_t *data, size_t len)
{
   uint8_t b[4];
   uint32_t crc = png__crc_update(0, (const uint8_t *)type, 4);
   crc = png__crc_update(crc, data, len);
   png__be32(b, (uint32_t)len);
   fwrite(b, 1, 4, f);
   fwrite(type, 1, 4, f);
   if (len) fwrite(data, 1, len, f);
   png__be32(b, crc);
   fwrite(b, 1, 4, f);
}

static inline uint8_t png__paeth(uint8_t a, uint8_t b, uint8_t c)
{
   int p = (int)a + b - c, pa = p > a ? p - a : a - p, pb = p > b ? p - b : b - p;
   int pc = p > c ? p - c : c - p;
   return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Row y of rgb filtered with filter type ft into out (stride bytes, no filter byte). */
static inline void png__filter_row(uint8_t *out, const uint8_t *rgb, int y, size_t stride, int ft)
{
   const uint8_t *row = rgb + (size_t)y * stride, *up = y > 0 ? row - stride : NULL;
   size_t x;
   for (x = 0; x < stride; ++x) {
      uint8_t a = x >= 3 ? row[x - 3] : 0, b = up ? up[x] : 0, c = x >= 3 && up ? up[x - 3] : 0;
      uint8_t pred = ft == 1 ? a : ft == 2 ? b : ft == 3 ? (uint8_t)((a + b) / 2) :
                     ft == 4 ? png__paeth(a, b, c) : 0;
      out[x] = (uint8_t)(row[x] - pred);
   }
}

/* rgb: w*h*3 bytes, rows top to bottom. Returns 0 on success. */
static inline int png_write(const char *path, int w, int h, const uint8_t *rgb)
{
   static const uint8_t sig[8] = {137, 'P', 'N', 'G', 13, 10, 26, 10};
   const size_t stride = (size_t)w * 3u, raw_len = (stride + 1u) * (size_t)h;
   uint8_t ihdr[13], *raw = (uint8_t *)malloc(raw_len), *z;
   size_t zlen = 0;
   int y, ok;
   FILE *f;
   if (!raw) return -1;
   for (y = 0; y < h; ++y) {
      uint8_t *dst = raw + (size_t)y * (stride + 1u);
      unsigned long best_cost = (unsigned long)-1;
      int ft, best = 0;
      for (ft = 0; ft < 5; ++ft) {
         unsigned long cost = 0;
         size_t x;
         png__filter_row(dst + 1, rgb, y, stride, ft);
         for (x = 1; x <= stride; ++x) cost += dst[x] < 128 ? dst[x] : 256u - dst[x];
         if (cost < best_cost) { best_cost = cost; best = ft; }
      }
      dst[0] = (uint8_t)best;
      png__filter_row(dst + 1, rgb, y, stride, best);
   }
   z = png_deflate(raw, raw_len, &zlen);
   free(raw);
   if (!z) return -1;
   f = fopen(path, "wb");
   if (!f) { free(z); return -1; }
   fwrite(sig, 1, 8, f);
   png__be32(ihdr, (uint32_t)w);
   png__be32(ihdr + 4, (uint32_t)h);
   ihdr[8] = 8; ihdr[9] = 2; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;   /* 8-bit RGB */
   png__chunk(f, "IHDR", ihdr, 13);
   png__chunk(f, "IDAT", z, zlen);
   png__chunk(f, "IEND", NULL, 0);
   free(z);
   ok = !ferror(f);
   return fclose(f) == 0 && ok ? 0 : -1;
}

#endif
