/* test_fpu.c - a CPU call made while the FPU flushes subnormals (x86 MXCSR FTZ bit 15 or
   DAZ bit 6, as -ffast-math's crtfastmath.o sets for a whole process; AArch64 FPCR FZ bit
   24) or rounds other than to nearest returns DROPOUT_ERR_FLUSH / DROPOUT_ERR_ROUNDING
   with nothing written, instead of other bits; calls without float arithmetic (the mask,
   the integer fills) still run; with the default mode back, the call gives the bits. */
#include <stdio.h>
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__SSE__)
#define FPU_NAME "x86 MXCSR"
static unsigned get_mode(void) { unsigned c; __asm__ __volatile__("stmxcsr %0" : "=m"(c)); return c; }
static void set_mode(unsigned c) { __asm__ __volatile__("ldmxcsr %0" : : "m"(c)); }
static const unsigned flush_bits[] = {1u << 15, 1u << 6, (1u << 15) | (1u << 6)};   /* FTZ, DAZ, both */
static const unsigned round_bits[] = {1u << 13, 2u << 13, 3u << 13};
#elif defined(__aarch64__)
#define FPU_NAME "AArch64 FPCR"
static unsigned get_mode(void) { uint64_t c; __asm__ __volatile__("mrs %0, fpcr" : "=r"(c)); return (unsigned)c; }
static void set_mode(unsigned c) { uint64_t v = c; __asm__ __volatile__("msr fpcr, %0" : : "r"(v)); }
static const unsigned flush_bits[] = {1u << 24, 1u << 24, 1u << 24};
static const unsigned round_bits[] = {1u << 22, 2u << 22, 3u << 22};
#endif

int main(void)
{
#ifdef FPU_NAME
   enum { N = 300 };
   static float x[N], y[N], want[N];
   static uint8_t m[N / 8 + 1], mw[N / 8 + 1];
   dropout_rule r;
   dropout_plan pl;
   unsigned saved = get_mode();
   int i, k, e, flushes = 1, rounds = 1;
   for (i = 0; i < N; ++i) x[i] = (i % 3) ? 1e-39f * (float)i : (float)i;   /* subnormals among them */
   dropout_rule_init(&r, 0.5, DROPOUT_BITS_8);
   dropout_plan_at(&pl, &r, dropout_key_make(7, 7), dropout_pos_make(0), N);
   dropout_forward_f32(&pl, want, mw, x);
   for (k = 0; k < 3; ++k) {
      dropout_desc d;
      dropout_tensors t = {0};
      memset(y, 0x7B, sizeof y);
      set_mode(saved | flush_bits[k]);
      e = dropout_forward_f32(&pl, y, NULL, x);
      flushes &= e == DROPOUT_ERR_FLUSH;
      e = dropout_backward_f32(&pl, y, x);
      flushes &= e == DROPOUT_ERR_FLUSH;
      t.out = y; t.in = x;
      dropout_desc_init(&d, DROPOUT_OP_BACKWARD, DROPOUT_DTYPE_F32, &pl);
      flushes &= dropout_run(&d, &t) == DROPOUT_ERR_FLUSH;
      flushes &= dropout_fill_normal_f32(pl.key, dropout_pos_make(0), y, 10) == DROPOUT_ERR_FLUSH;
      e = dropout_mask(&pl, m);                                /* no float arithmetic: runs */
      set_mode(saved);
      for (i = 0; i < N; ++i) flushes &= ((const unsigned char *)y)[4 * i] == 0x7B;
      CHECK(flushes, "mode %#x: a float call ran or wrote", flush_bits[k]);
      CHECK(e == DROPOUT_OK && !memcmp(m, mw, sizeof m), "mode %#x: the mask call was refused or differs", flush_bits[k]);
   }
   for (k = 0; k < 3; ++k) {
      set_mode(saved | round_bits[k]);
      e = dropout_forward_f32(&pl, y, NULL, x);
      set_mode(saved);
      rounds &= e == DROPOUT_ERR_ROUNDING;
      CHECK(rounds, "rounding mode %#x: got %d", round_bits[k], e);
   }
   CHECK(dropout_forward_f32(&pl, y, m, x) == DROPOUT_OK && !memcmp(y, want, sizeof y), "default mode: the bits");
   case_end("api fpu: " FPU_NAME " flush-to-zero / denormals-are-zero -> DROPOUT_ERR_FLUSH, other rounding -> DROPOUT_ERR_ROUNDING, nothing written; mask still runs");
#else
   case_skip("api fpu", "no FPU mode register this test knows on this target");
#endif
   return check_exit();
}
