/* link_b.c: uses the library through the declarations only (see link_a.c). */
#define DROPOUT_V0_API   /* written against the 0.1.0 calls: they must keep giving the same bits */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#include "dropout.h"
#include <stdio.h>

#ifdef __cplusplus
extern "C"
#endif
int link_a_first_mask(void);

int main(int argc, char **argv)
{
   uint8_t m[2];
   int ok = dropout_v0_mask(m, 16, 0.5, 8, 0, 0, 0) == DROPOUT_OK && (m[0] | m[1] << 8) == 0xBAB3 &&
            link_a_first_mask() == 0xBAB3 && dropout_v0_stream_u32(0, 0, 0) == 0x6627e8d5u;
   printf("%s link %s\n", ok ? "PASS" : "FAIL", argc > 1 ? argv[1] : "");
   return ok ? 0 : 1;
}
