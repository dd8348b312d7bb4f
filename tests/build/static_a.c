/* static_a.c + static_b.c: two translation units, each with its own private copy of the
   library (DROPOUT_STATIC), linked into one program without clashing symbols. */
#define DROPOUT_V0_API   /* written against the 0.1.0 calls: they must keep giving the same bits */
#define DROPOUT_DISABLE_DEPRECATE_WARNINGS   /* the 0.1 calls (dropout_v0_*) are meant here */
#define DROPOUT_STATIC
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"

uint32_t static_a_word(void);

uint32_t static_a_word(void) { return dropout_v0_stream_u32(0, 0, 1); }
