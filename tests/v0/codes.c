/* codes.c - 0.1 calls return 0.1.0's codes (-1 .. -5) only, where the 1.0 calls underneath
   name a mistake more closely (DROPOUT_ERR_OVERLAP, DROPOUT_ERR_SIZE: 0.1 code that checks
   for DROPOUT_ERR_ARG must see it), and the Gaussian call refuses overlapping buffers
   whether or not its p has a 32-bit threshold (p = 0.00026 has none: a loop of its own
   computes it). Not a 0.1.0 program: its expected output is 0.1.0's contract, every code
   -5 and nothing written. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

static float b[32], before[32];

static void show(const char *what, int code)
{
   printf("%-48s %d%s\n", what, code, memcmp(b, before, sizeof b) ? " (wrote)" : "");
}

int main(void)
{
   uint8_t m[4] = {0};
   int i;
   for (i = 0; i < 32; ++i) b[i] = (float)i + 0.5f;
   memcpy(before, b, sizeof b);
   show("forward, y one element past x", dropout_forward_f32(b + 1, NULL, b, 16, 0.5, 8, 1, 2, 3));
   show("forward, the mask inside y", dropout_forward_f32(b, (uint8_t *)(b + 2), b + 16, 16, 0.5, 8, 1, 2, 3));
   show("apply_mask, the mask inside y", dropout_apply_mask_f32(b, b + 16, (const uint8_t *)b, 16, 0.5, 8));
   show("gaussian p 0.00025, y one element past x", dropout_gaussian_forward_f32(b, b + 1, 4, 0.00025, 1, 2, 0));
   show("gaussian p 0.00026 (no threshold), y past x", dropout_gaussian_forward_f32(b, b + 1, 4, 0.00026, 1, 2, 0));
   show("forward, n = SIZE_MAX / 2", dropout_forward_f32(b, NULL, b + 16, (size_t)-1 / 2, 0.5, 8, 1, 2, 0));
   show("mask, n = SIZE_MAX", dropout_mask(m, (size_t)-1, 0.5, 8, 1, 2, 0));
   show("fill_u32, n = SIZE_MAX", dropout_fill_u32((uint32_t *)b, (size_t)-1, 1, 2, 0));
   show("bias_dropout_add, rows * cols = SIZE_MAX", dropout_bias_dropout_add_f32(b, NULL, b, b, b, (size_t)-1, 1, 0.5, 8, 1, 2, 0));
   show("gaussian p 0.00026 in place (y == x)", dropout_gaussian_forward_f32(b, b, 4, 0.00026, 1, 2, 0));
   return 0;
}
