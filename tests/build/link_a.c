/* link_a.c + link_b.c: the implementation in one translation unit, a plain include in
   another, linked together (also with one side compiled as C++ and the other as C:
   extern "C" must make the symbols meet). */
#define DROPOUT_V0_API   /* written against the 0.1.0 calls: they must keep giving the same bits */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

#ifdef __cplusplus
extern "C"
#endif
int link_a_first_mask(void);

int link_a_first_mask(void)
{
   uint8_t m[2];
   if (dropout_v0_mask(m, 16, 0.5, 8, 0, 0, 0) != DROPOUT_OK) return -1;
   return m[0] | m[1] << 8;
}
