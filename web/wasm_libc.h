/* wasm_libc.h - the three libc functions a compiler may call on its own (for zeroing
   loops, struct copies) in a module built with clang --target=wasm32 -nostdlib, where no
   libc provides them. Include it in exactly one file per module. Byte loops: exact by
   nature, and LLVM does not turn a function named memset back into a call to itself. */
#ifndef WASM_LIBC_H
#define WASM_LIBC_H
#include <stddef.h>

void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);

void *memset(void *dst, int c, size_t n)
{
   unsigned char *d = (unsigned char *)dst;
   while (n--) *d++ = (unsigned char)c;
   return dst;
}
void *memcpy(void *dst, const void *src, size_t n)
{
   unsigned char *d = (unsigned char *)dst;
   const unsigned char *s = (const unsigned char *)src;
   while (n--) *d++ = *s++;
   return dst;
}
void *memmove(void *dst, const void *src, size_t n)
{
   unsigned char *d = (unsigned char *)dst;
   const unsigned char *s = (const unsigned char *)src;
   if (d < s) while (n--) *d++ = *s++;
   else { d += n; s += n; while (n--) *--d = *--s; }
   return dst;
}
#endif
