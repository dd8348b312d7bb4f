/* variant.c - one copy of dropout.h behind a suffix, for bench/ab/main.c.

   Built twice by `make bench-ab`: once against the working tree's dropout.h and once
   against a revision's (build/ab/base/dropout.h), with VNAME=A or B, so that the two
   libraries live side by side in one program and run call by call in alternation: the
   same quiet and busy moments of a shared machine for both. Each is compiled as a user's
   program compiles it (extern functions, not DROPOUT_STATIC, which lets the compiler
   specialise the engine for these wrappers and measured up to 35% faster than the real
   thing); objcopy then hides every symbol but the wrappers, so the two can link. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#include <stdio.h>
#include <stdlib.h>

#define AB_CAT2(a, b) a##b
#define AB_CAT(a, b) AB_CAT2(a, b)
#define V(name) AB_CAT(name, VNAME)

void V(ab_fwd_f32)(float *y, uint8_t *mask, const float *x, size_t n, int bits);
void V(ab_bwd_f32)(float *dx, const float *dy, size_t n, int bits);
void V(ab_fwd_bf16)(uint16_t *y, uint8_t *mask, const uint16_t *x, size_t n, int bits);
void V(ab_fwd_f16)(uint16_t *y, uint8_t *mask, const uint16_t *x, size_t n, int bits);
void V(ab_mask)(uint8_t *mask, size_t n, int bits);
void V(ab_fill)(uint32_t *w, size_t n);

#ifndef AB_POS
#define AB_POS 0   /* the calls' first position: make bench-ab POS=... */
#endif

/* p = 0.1 at the given draw width (quantised at 8 bits, where dropout_rule_init refuses
   it), seed 42, stream 7, position AB_POS; a refused plan stops the program rather than
   timing calls that do nothing */
static dropout_plan ab_plan(size_t n, int bits)
{
   dropout_rule r;
   dropout_plan p;
#ifdef DROPOUT_RULE_THRESHOLD   /* a header with dropout_rule_init_quantised */
   if (dropout_rule_init_quantised(&r, 0.1, (dropout_bits)bits) != DROPOUT_OK ||
#else                           /* an older one, whose dropout_rule_init quantises */
   if (dropout_rule_init(&r, 0.1, (dropout_bits)bits) != DROPOUT_OK ||
#endif
       dropout_plan_at(&p, &r, dropout_key_make(42, 7), dropout_pos_make(AB_POS), n) != DROPOUT_OK) {
      fprintf(stderr, "ab: no plan for p = 0.1 at %d bits\n", bits);
      exit(1);
   }
   return p;
}
void V(ab_fwd_f32)(float *y, uint8_t *mask, const float *x, size_t n, int bits)
{
   dropout_plan p = ab_plan(n, bits);
   dropout_replay_f32(&p, (size_t)p.count, y, mask, x);
}
void V(ab_bwd_f32)(float *dx, const float *dy, size_t n, int bits)
{
   dropout_plan p = ab_plan(n, bits);
   dropout_backward_f32(&p, (size_t)p.count, dx, dy);
}
void V(ab_fwd_bf16)(uint16_t *y, uint8_t *mask, const uint16_t *x, size_t n, int bits)
{
   dropout_plan p = ab_plan(n, bits);
   dropout_replay_bf16(&p, (size_t)p.count, (dropout_bf16 *)(void *)y, mask, (const dropout_bf16 *)(const void *)x);
}
void V(ab_fwd_f16)(uint16_t *y, uint8_t *mask, const uint16_t *x, size_t n, int bits)
{
   dropout_plan p = ab_plan(n, bits);
   dropout_replay_f16(&p, (size_t)p.count, (dropout_f16 *)(void *)y, mask, (const dropout_f16 *)(const void *)x);
}
void V(ab_mask)(uint8_t *mask, size_t n, int bits)
{
   dropout_plan p = ab_plan(n, bits);
   dropout_mask(&p, (size_t)p.count, mask);
}
void V(ab_fill)(uint32_t *w, size_t n)
{
   dropout_fill_u32(dropout_key_make(42, 7), dropout_pos_make(0), w, n);
}
