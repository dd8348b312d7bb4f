/* data.h - inputs for the tests in tests/api: reproducible pseudo-random elements of each
   dtype with the values that tell implementations apart mixed in (NaN payloads, Inf, -0,
   subnormals), and the element size of a dropout_dtype. */
#ifndef API_DATA_H
#define API_DATA_H
#include <stdint.h>
#include <string.h>
#include "dropout.h"

static uint64_t data__state = 0x9E3779B97F4A7C15u;

static inline uint64_t data_rand(void)   /* xorshift64* */
{
   data__state ^= data__state >> 12;
   data__state ^= data__state << 25;
   data__state ^= data__state >> 27;
   return data__state * 0x2545F4914F6CDD1Du;
}

static inline size_t data_esize(int dt)
{
   return dt == DROPOUT_DTYPE_F64 ? 8 : dt == DROPOUT_DTYPE_F32 ? 4 : 2;
}

/* n elements: mostly numbers around +-8, one in 16 a special value */
static inline void data_fill(int dt, void *buf, size_t n)
{
   size_t i;
   for (i = 0; i < n; ++i) {
      uint64_t r = data_rand();
      int special = (r & 15u) == 0;
      unsigned which = (unsigned)(r >> 4) & 7u;
      if (dt == DROPOUT_DTYPE_F32) {
         static const uint32_t sp[8] = {0x7FC00001u, 0xFF800000u, 0x7F800000u, 0x80000000u, 0x00000001u, 0x807FFFFFu, 0x7F812345u, 0x00000000u};
         uint32_t u;
         float f = (float)((double)(int32_t)(r >> 32) / 268435456.0);
         memcpy(&u, &f, 4);
         if (special) u = sp[which];
         memcpy((char *)buf + 4 * i, &u, 4);
      } else if (dt == DROPOUT_DTYPE_F64) {
         static const uint64_t sp[8] = {0x7FF8000000000001u, 0xFFF0000000000000u, 0x7FF0000000000000u, 0x8000000000000000u,
                                        0x0000000000000001u, 0x800FFFFFFFFFFFFFu, 0x7FF0000000012345u, 0};
         uint64_t u;
         double f = (double)(int64_t)r / 1152921504606846976.0;
         memcpy(&u, &f, 8);
         if (special) u = sp[which];
         memcpy((char *)buf + 8 * i, &u, 8);
      } else {
         static const uint16_t sp16[8] = {0x7E01u, 0xFC00u, 0x7C00u, 0x8000u, 0x0001u, 0x83FFu, 0x7D23u, 0};
         static const uint16_t spb[8] = {0x7FC1u, 0xFF80u, 0x7F80u, 0x8000u, 0x0001u, 0x807Fu, 0x7F81u, 0};
         uint16_t u = (uint16_t)(r >> 16);
         if (dt == DROPOUT_DTYPE_F16 && (u & 0x7C00u) == 0x7C00u) u ^= 0x4000u;   /* no accidental NaN/Inf */
         if (dt == DROPOUT_DTYPE_BF16 && (u & 0x7F80u) == 0x7F80u) u ^= 0x4000u;
         if (special) u = dt == DROPOUT_DTYPE_F16 ? sp16[which] : spb[which];
         memcpy((char *)buf + 2 * i, &u, 2);
      }
   }
}
#endif
