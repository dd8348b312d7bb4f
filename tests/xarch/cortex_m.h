/* cortex_m.h - what a Cortex-M image needs under qemu-system-arm -M mps2-an386 with no C
   library (tests/xarch/cortex_m.ld): ARM semihosting, and the vector table whose reset
   handler runs main and exits through semihosting with its status. Included once per
   image, by digest.c (XD_SEMIHOSTING) and mcu_stack.c. */
#include <stdint.h>

/* ARM semihosting: r0 = operation, r1 = argument; bkpt 0xAB on M-profile. */
static int xd_semihost(int op, const void *arg)
{
   register int r0 __asm__("r0") = op;
   register const void *r1 __asm__("r1") = arg;
   __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
   return r0;
}

int main(void);
extern char xd_stack_top[];   /* tests/xarch/cortex_m.ld */
void xd_reset(void);
struct xd_vector_table { void *stack_top; void (*reset)(void); };
__attribute__((section(".vectors"), used)) static const struct xd_vector_table xd_vectors = {xd_stack_top, xd_reset};
void xd_reset(void)
{
#if defined(__ARM_FP)   /* hard-float build: switch the FPU on (CPACR, CP10 and CP11) */
   *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
   __asm__ volatile("dsb\n\tisb");
#endif
   /* SYS_EXIT: ADP_Stopped_ApplicationExit (0x20026) makes qemu exit with status 0 */
   xd_semihost(0x18, (const void *)(main() == 0 ? 0x20026 : 0x20023));
   for (;;) { }
}
