/* compile-fail: a bare integer where the raw stream wants a key (0.1's fill took seed,
   stream and a position as three integers; 1.0 takes a dropout_key and a dropout_pos).
   expect-c: incompatible type
   expect-c++: cannot convert|no matching function|no viable conversion|could not convert
   expect: dropout_key */
#include "dropout.h"

int noise(uint32_t *out, size_t n, uint64_t seed);
int noise(uint32_t *out, size_t n, uint64_t seed)
{
#ifdef RIGHT
   return dropout_fill_u32(dropout_key_make(seed, 0), dropout_pos_make(0), out, n);
#else
   return dropout_fill_u32(seed, dropout_pos_make(0), out, n);
#endif
}
