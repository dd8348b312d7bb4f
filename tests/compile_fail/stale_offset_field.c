/* compile-fail: 0.1 code that reads the generator's offset field. There is no such field:
   the generator keeps its next position private to the reservation (g.next), and a layer
   uses the plan dropout_gen_plan gives back.
   expect: offset */
#include "dropout.h"

uint64_t where(const dropout_gen *g);
uint64_t where(const dropout_gen *g)
{
#ifdef RIGHT
   return g->next;
#else
   return g->offset;
#endif
}
