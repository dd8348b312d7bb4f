/* The plain half of spc_user.c's comparison: the implementation, and the inline building
   blocks that use double constants, compiled without -fsingle-precision-constant. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "spc.h"

void spc_blocks(uint64_t q, struct spc_out *o)
{
   SPC_BLOCKS(q, o);
}
