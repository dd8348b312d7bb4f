/* link_a.c + link_b.c: the implementation in one translation unit, a plain include in
   another, linked together (also with one side compiled as C++ and the other as C:
   extern "C" must make the symbols meet). */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#ifdef __cplusplus
extern "C"
#endif
int link_a_first_mask(void);

int link_a_first_mask(void)
{
   uint8_t m[2];
   dropout_rule r;
   dropout_plan pl;
   if (dropout_rule_init(&r, 0.5, DROPOUT_BITS_8) != DROPOUT_OK ||
       dropout_plan_at(&pl, &r, dropout_key_make(0, 0), dropout_pos_make(0), 16) != DROPOUT_OK ||
       dropout_mask(&pl, 16, m) != DROPOUT_OK)
      return -1;
   return m[0] | m[1] << 8;
}
