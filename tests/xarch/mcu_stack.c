/* mcu_stack.c - how much stack each call takes on a Cortex-M4: the stack below the caller
   is painted with one byte, the call runs, and the painted bytes it overwrote are counted
   (run under qemu-system-arm -M mps2-an386 with semihosting, tests/xarch/cortex_m.ld).
   tests/xarch/suite.sh builds it at the default DROPOUT_ROW_CHUNK and at 64, prints each
   figure, and holds the short calls and, at 64, the descriptor's calls to the bounds below
   (README's stack figures). */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#define MS_PAINT 32768u   /* bytes painted below the caller's frame */
#define MS_N 1037u        /* elements: not a multiple of 64 or 8 */

#include "xarch/cortex_m.h"   /* xd_semihost, and the start-up that runs main */

/* "name bytes rc\n" through SYS_WRITE0, no C library */
static void ms_report(const char *name, unsigned long bytes, int rc)
{
   char line[96], digits[24];
   int n = 0, k = 0;
   unsigned long v = bytes;
   unsigned u = (unsigned)(rc < 0 ? -rc : rc);
   while (*name && n < 60) line[n++] = *name++;
   line[n++] = ' ';
   do { digits[k++] = (char)('0' + v % 10u); v /= 10u; } while (v);
   while (k) line[n++] = digits[--k];
   line[n++] = ' ';
   if (rc < 0) line[n++] = '-';
   do { digits[k++] = (char)('0' + u % 10u); u /= 10u; } while (u);
   while (k) line[n++] = digits[--k];
   line[n++] = '\n';
   line[n] = 0;
   xd_semihost(0x04, line);
}

static volatile unsigned char *ms_low;

/* paints MS_PAINT bytes below its own frame (volatile stores: no memset call) */
static __attribute__((noinline)) void ms_paint(void)
{
   unsigned char *sp;
   unsigned i;
   __asm__ volatile("mov %0, sp" : "=r"(sp));
   ms_low = sp - MS_PAINT;
   for (i = 0; i < MS_PAINT - 64u; ++i) ms_low[i] = 0xA5;
}

/* the bytes a call overwrote: from the deepest changed byte up */
static unsigned long ms_used(void)
{
   unsigned i = 0;
   while (i < MS_PAINT && ms_low[i] == 0xA5) ++i;
   return (unsigned long)(MS_PAINT - i);
}

static float x[MS_N], y[MS_N], bias[MS_N];
static uint8_t mask[MS_N / 8u + 1u];
static dropout_gen g;
static dropout_rule rule;
static dropout_plan plan;

static int ms_rule(void) { return dropout_rule_init(&rule, 0.1, DROPOUT_BITS_16); }
static int ms_forward(void) { return dropout_forward_f32(&g, &rule, &plan, MS_N, y, mask, x); }
static int ms_backward(void) { return dropout_backward_f32(&plan, MS_N, y, x); }
static int ms_uniform(void) { return dropout_fill_uniform_f32(dropout_key_make(1, 2), dropout_pos_make(0), y, MS_N); }
static int ms_normal(void) { return dropout_fill_normal_f32(dropout_key_make(1, 2), dropout_pos_make(0), y, MS_N); }
static int ms_fused(void) { return dropout_bias_dropout_add_f32(&g, &rule, &plan, MS_N, 17, y, mask, x, bias, x); }

/* a descriptor's run over a 61 x 17 view (rows through the walker) */
static int ms_desc(dropout_op op)
{
   dropout_desc d;
   dropout_tensors t;
   size_t dims[2] = { 61, 17 };
   int normal = op == DROPOUT_OP_GAUSSIAN || op == DROPOUT_OP_NOISE;
   int rc = normal ? dropout_gen_plan_normals(&g, &rule, 61 * 17, &plan) : dropout_gen_plan(&g, &rule, 61 * 17, &plan);
   rc = rc ? rc : dropout_desc_init(&d, op, DROPOUT_DTYPE_F32, &plan);
   rc = rc ? rc : dropout_desc_set_shape(&d, 2, dims);
   if (op == DROPOUT_OP_NOISE) rc = rc ? rc : dropout_desc_set_sigma(&d, 0.5);
   t.out = y; t.in = x; t.mask = 0; t.bias = 0; t.residual = 0;
   return rc ? rc : dropout_run(&d, &t);
}
static int ms_run_forward(void) { return ms_desc(DROPOUT_OP_FORWARD); }
static int ms_run_alpha(void) { return ms_desc(DROPOUT_OP_ALPHA_FORWARD); }
static int ms_run_gaussian(void) { return ms_desc(DROPOUT_OP_GAUSSIAN); }

static const struct { const char *name; int (*call)(void); } ms_calls[] = {
   { "rule_init", ms_rule }, { "forward_f32", ms_forward }, { "backward_f32", ms_backward },
   { "fill_uniform_f32", ms_uniform }, { "fill_normal_f32", ms_normal }, { "bias_dropout_add_f32", ms_fused },
   { "run_forward", ms_run_forward }, { "run_alpha_forward", ms_run_alpha }, { "run_gaussian", ms_run_gaussian }
};

int main(void)
{
   unsigned i;
   int bad = 0;
   for (i = 0; i < MS_N; ++i) { x[i] = (float)i; bias[i] = 1.0f; }
   bad |= dropout_gen_init(&g, dropout_key_make(1234, 0));
   for (i = 0; i < sizeof ms_calls / sizeof ms_calls[0]; ++i) {
      int rc;
      ms_paint();
      rc = ms_calls[i].call();
      ms_report(ms_calls[i].name, ms_used(), rc);
      bad |= rc;
   }
   return bad != 0;
}
