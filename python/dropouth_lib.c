/* dropouth_lib.c - dropout.h as a shared library, for python/dropouth.py (ctypes).
   `make python` builds it: cc -O2 -shared -fPIC python/dropouth_lib.c
   Every DROPOUTDEF function of dropout.h is exported; nothing is added here. */
#define DROPOUT_IMPLEMENTATION
#include "../dropout.h"
