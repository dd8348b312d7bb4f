/* nt_default.c - the streaming-store threshold of a build that leaves
   DROPOUT_STREAM_STORE_BYTES to the library (tests/simd/suite.sh). Calls that make their
   mask in the AVX2 build on AMD family 26 (Zen 5) take plain stores at every size, where
   they measured faster; every other call, build and CPU streams from 16 MiB of output.
   argv[1]: 1 where /proc/cpuinfo names AuthenticAMD family 26 (the oracle is the kernel's
   reading of the CPU, not the header's cpuid), else 0. Also the family the header decodes
   from known cpuid leaf-1 words. */
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
   const int zen5 = argc > 1 && atoi(argv[1]) == 1;
   const size_t dflt = (size_t)16 << 20;
   size_t want = dflt;
#if defined(DROPOUT__NT_ASKS_CPU)
   static const struct { unsigned eax, family; const char *cpu; } known[] = {
      { 0x00B00F21u, 26, "AMD EPYC family 26 model 2 (Zen 5)" },
      { 0x00B40F40u, 26, "AMD family 26 model 68 (Zen 5, desktop)" },
      { 0x00A10F11u, 25, "AMD EPYC family 25 model 17 (Zen 4)" },
      { 0x00A00F11u, 25, "AMD EPYC family 25 model 1 (Zen 3)" },
      { 0x00800F12u, 23, "AMD family 23 model 1 (Zen)" },
      { 0x000C06F2u, 6, "Intel Xeon family 6 model 207" },
      { 0x000906EAu, 6, "Intel family 6 model 158" },
   };
   unsigned i;
   for (i = 0; i < sizeof known / sizeof known[0]; ++i)
      CHECK(dropout__x86_family(known[i].eax) == known[i].family, "%s: family %u, want %u", known[i].cpu,
            dropout__x86_family(known[i].eax), known[i].family);
   case_end("nt default [" DROPOUT__SIMD_NAME "]: the cpuid family of seven known CPUs");
   if (zen5) want = SIZE_MAX;
#else
   (void)zen5;   /* this build never asks the CPU */
#endif
   CHECK(dropout__nt_from(1) == want, "got %zu, want %zu", dropout__nt_from(1), want);
   CHECK(dropout__nt_from(1) == want, "asked again: got %zu, want %zu", dropout__nt_from(1), want);
   case_end(zen5 ? "nt default [" DROPOUT__SIMD_NAME "]: the threshold of a call that makes its mask, AMD family 26"
                 : "nt default [" DROPOUT__SIMD_NAME "]: the threshold of a call that makes its mask, other CPUs");
   CHECK(dropout__nt_from(0) == dflt, "got %zu, want %zu", dropout__nt_from(0), dflt);
   case_end("nt default [" DROPOUT__SIMD_NAME "]: the threshold of the backward from a stored mask");
   return check_exit();
}
