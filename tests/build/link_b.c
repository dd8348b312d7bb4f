/* link_b.c: uses the library through the declarations only (see link_a.c). */
#include "dropout.h"
#include <stdio.h>

#ifdef __cplusplus
extern "C"
#endif
int link_a_first_mask(void);

int main(int argc, char **argv)
{
   uint8_t m[2];
   dropout_rule r;
   dropout_plan pl;
   int ok = dropout_rule_init(&r, 0.5, DROPOUT_BITS_8) == DROPOUT_OK &&
            dropout_plan_at(&pl, &r, dropout_key_make(0, 0), dropout_pos_make(0), 16) == DROPOUT_OK &&
            dropout_mask(&pl, 16, m) == DROPOUT_OK && (m[0] | m[1] << 8) == 0xBAB3 &&
            link_a_first_mask() == 0xBAB3 && dropout_stream_u32(dropout_key_make(0, 0), dropout_pos_make(0)) == 0x6627e8d5u;
   printf("%s link %s\n", ok ? "PASS" : "FAIL", argc > 1 ? argv[1] : "");
   return ok ? 0 : 1;
}
