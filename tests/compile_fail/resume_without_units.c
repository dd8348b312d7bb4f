/* compile-fail: 0.9's checkpoint was a key and next, and dropout_gen_resume took those
   two. A generator serving layers of two draw widths counts next in the width it handed
   out last, so a next resumed into another width's plan was read as that width's
   position and drew stream words handed out already: the same masks, silently. The
   checkpoint now holds what next counts (g.units), and resuming without it does not
   compile.
   expect: too few arguments|requires 4 arguments, but 3 were provided */
#include "dropout.h"

int load(dropout_gen *g, dropout_key key, uint64_t next, dropout_units units);
int load(dropout_gen *g, dropout_key key, uint64_t next, dropout_units units)
{
#ifdef RIGHT
   return dropout_gen_resume(g, key, next, units);
#else
   (void)units;
   return dropout_gen_resume(g, key, next);
#endif
}
