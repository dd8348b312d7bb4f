/* static_b.c: see static_a.c. Uses only a few functions: the others must not warn. */
#define DROPOUT_V0_API   /* written against the 0.1.0 calls: they must keep giving the same bits */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#define DROPOUT_STATIC
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include <stdio.h>

uint32_t static_a_word(void);

int main(void)
{
   int ok = static_a_word() == 0xe169c58du && dropout_v0_stream_u32(0, 0, 1) == 0xe169c58du;
   printf("%s static_two_private_copies\n", ok ? "PASS" : "FAIL");
   return ok ? 0 : 1;
}
