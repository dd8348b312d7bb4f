/* test_fpu.c - a CPU call made while the FPU flushes subnormals (x86 MXCSR FTZ bit 15 or
   DAZ bit 6, as -ffast-math's crtfastmath.o sets for a whole process; AArch64 FPCR FZ bit
   24, default NaN bit 25) or rounds other than to nearest gives the default mode's bits,
   exactly: each call sets the mode it needs and gives the caller's back (the control bits
   as they were, checked after every call). Subnormal inputs, outputs that round, the
   variants' own log/sin/cos and the fused op's fma all meet the mode. */
#include <stdio.h>
#include <string.h>
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__SSE__)
#define FPU_NAME "x86 MXCSR"
static unsigned get_mode(void) { unsigned c; __asm__ __volatile__("stmxcsr %0" : "=m"(c)); return c & ~0x3Fu; }   /* flags aside */
static void set_mode(unsigned c) { __asm__ __volatile__("ldmxcsr %0" : : "m"(c)); }
static const unsigned modes[] = {1u << 15, 1u << 6, (1u << 15) | (1u << 6), 1u << 13, 2u << 13, 3u << 13, (1u << 15) | (1u << 6) | (3u << 13)};
#elif defined(__aarch64__)
#define FPU_NAME "AArch64 FPCR"
static unsigned get_mode(void) { uint64_t c; __asm__ __volatile__("mrs %0, fpcr" : "=r"(c)); return (unsigned)c; }
static void set_mode(unsigned c) { uint64_t v = c; __asm__ __volatile__("msr fpcr, %0" : : "r"(v)); }
static const unsigned modes[] = {1u << 24, 1u << 25, (1u << 24) | (1u << 25), 1u << 22, 2u << 22, 3u << 22, (1u << 24) | (3u << 22)};
#endif

#ifdef FPU_NAME
enum { N = 300 };
typedef struct outputs {
   float f32[N], normal[N], gauss[N], fused[N];
   double f64[N], alpha[N];
   dropout_f16 f16[N];
   dropout_bf16 bf16[N];
   uint8_t mask[N / 8 + 1];
} outputs;

static float x[N], bias[N / 10], res[N];
static double xd[N];
static dropout_f16 xh[N];
static dropout_bf16 xb[N];

/* every float-computing call once; returns the OR of their codes (0 = all ran) and
   whether the mode was the same after each call as before it */
static int run_all(outputs *o, const dropout_plan *pl, unsigned mode, int *kept)
{
   dropout_desc d;
   dropout_tensors t;
   dropout_plan normals;   /* GAUSSIAN's: pl's positions, counting normals */
   size_t n = (size_t)pl->count;
   int e = 0;
   *kept = 1;
#define STEP(call) do { e |= -(call); *kept &= get_mode() == mode; } while (0)
   STEP(dropout_replay_f32(pl, n, o->f32, o->mask, x));
   STEP(dropout_backward_f64(pl, n, o->f64, xd));
   STEP(dropout_replay_f16(pl, n, o->f16, NULL, xh));
   STEP(dropout_replay_bf16(pl, n, o->bf16, NULL, xb));
   STEP(dropout_fill_normal_f32(pl->key, dropout_pos_make(0), o->normal, N));
   STEP(dropout_bias_dropout_add_replay_f32(pl, n, N / 10, o->fused, NULL, x, bias, res));
   memset(&t, 0, sizeof t);
   STEP(dropout_plan_at_normals(&normals, &pl->rule, pl->key, dropout_pos_make(pl->pos), pl->count));
   STEP(dropout_desc_init(&d, DROPOUT_OP_GAUSSIAN, DROPOUT_DTYPE_F32, &normals));
   t.out = o->gauss; t.in = x;
   STEP(dropout_run(&d, &t));
   STEP(dropout_desc_init(&d, DROPOUT_OP_ALPHA_FORWARD, DROPOUT_DTYPE_F64, pl));
   t.out = o->alpha; t.in = xd;
   STEP(dropout_run(&d, &t));
#undef STEP
   return e;
}
#endif

int main(void)
{
#ifdef FPU_NAME
   static outputs want, got;
   dropout_rule r;
   dropout_plan pl;
   unsigned saved = get_mode();
   int i, k, e, kept;
   for (i = 0; i < N; ++i) {   /* subnormals among them, and values whose products round */
      x[i] = (i % 3) ? 1e-39f * (float)i : (float)i / 3.0f;
      xd[i] = (i % 3) ? 1e-310 * (double)i : (double)i / 3.0;
      res[i] = (float)i * 1e-39f;
      xh[i].bits = (uint16_t)(i % 5 ? i : 0x3C01 + i);
      xb[i].bits = (uint16_t)(i % 5 ? i : 0x3F81 + i);
   }
   for (i = 0; i < N / 10; ++i) bias[i] = 1e-40f * (float)i;
   dropout_rule_init(&r, 0.3, DROPOUT_BITS_16);
   dropout_plan_at(&pl, &r, dropout_key_make(7, 7), dropout_pos_make(0), N);
   memset(&want, 0x7B, sizeof want);   /* the padding too: the structs are compared whole */
   e = run_all(&want, &pl, saved, &kept);
   CHECK(e == 0 && kept, "default mode: a call failed (%d) or left the mode changed", -e);
   for (k = 0; k < (int)(sizeof modes / sizeof modes[0]); ++k) {
      unsigned mode = saved | modes[k];
      memset(&got, 0x7B, sizeof got);
      set_mode(mode);
      e = run_all(&got, &pl, mode, &kept);
      set_mode(saved);
      CHECK(e == 0, "mode %#x: a call was refused (%d)", modes[k], -e);
      CHECK(kept, "mode %#x: the caller's mode was not given back", modes[k]);
      CHECK(!memcmp(&got, &want, sizeof got), "mode %#x: other bits than the default mode's", modes[k]);
   }
   case_end("api fpu: " FPU_NAME " flush-to-zero, denormals-are-zero, default NaN, every rounding: each call gives the default mode's bits and gives the caller's mode back");
#else
   case_skip("api fpu", "no FPU mode register this test knows on this target");
#endif
   return check_exit();
}
