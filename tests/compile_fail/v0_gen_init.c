/* compile-fail: in a file with DROPOUT_V0_API, dropout_gen is 0.1's generator (three
   integers, no place of its own); 1.0's dropout_gen_init, _resume, _move, _plan and
   dropout_desc_new_step take 1.0's, larger, and would have written past it (C compilers
   only warn about the pointer type). They stop the build there, naming the fix.
   expect: needs_a_file_without_DROPOUT_V0_API */
#define DROPOUT_V0_API
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS
#include "dropout.h"

int start(void);
int start(void)
{
#ifdef RIGHT
   dropout_gen g = dropout_gen_make(1234, 0);   /* 0.1's call, in 0.1 code */
   return (int)g.offset;
#else
   dropout_gen g;
   return dropout_gen_init(&g, dropout_key_make(1234, 0));
#endif
}
