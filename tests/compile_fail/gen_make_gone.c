/* compile-fail: 0.9's dropout_gen_make returned the generator by value, so a copy of it
   (a struct passed by value, a model copied) was a generator too and handed out the same
   positions again: the same masks, silently. A generator is now made in place, and every
   call refuses one that is not where it was made; the old spelling names the new one.
   expect: dropout_gen_make_is_gone__use_dropout_gen_init */
#include "dropout.h"

int start(dropout_gen *g);
int start(dropout_gen *g)
{
#ifdef RIGHT
   return dropout_gen_init(g, dropout_key_make(1234, 0));
#else
   *g = dropout_gen_make(dropout_key_make(1234, 0));
   return 0;
#endif
}
