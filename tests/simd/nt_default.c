/* nt_default.c - the streaming-store threshold of a build that leaves
   DROPOUT_STREAM_STORE_BYTES to the library (tests/simd/suite.sh). On AMD family 26
   (Zen 5), where both sides were measured, calls that make their mask take plain stores at
   every size: in the AVX2 build (gcc, clang) and gcc's SSE builds all of them, in the
   AVX-512 build (gcc, clang) those whose element has at most the bytes of its draw (bf16
   and f16 at 16 and 32 bits, f32 at 32, the fill); clang's SSE builds never ask.
   Every other call, build and CPU streams from 16 MiB of output. argv[1]: 1 where
   /proc/cpuinfo names AuthenticAMD family 26 (the oracle is the kernel's reading of the
   CPU, not the header's cpuid), else 0. Also the family the header decodes from known
   cpuid leaf-1 words. */
/* DROPOUT_STATIC: every function private to this file, so the compiler drops the ones it
   never calls; the threshold functions are the same code, and the build of the whole
   library costs make test 11 s of CPU for nothing here (AVX-512: 0.6 s instead). */
#define DROPOUT_STATIC
#define DROPOUT_IMPLEMENTATION
#include "dropout.h"
#include "check.h"

#include <stdlib.h>

#if defined(__clang__)
#define NT_CC "clang "
#else
#define NT_CC ""
#endif

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
   case_end("nt default [" NT_CC DROPOUT__SIMD_NAME "]: the cpuid family of seven known CPUs");
#else
   (void)zen5;   /* this build never asks the CPU */
#endif
   {
      /* (element bytes, draw bits; 0: the backward from a stored mask, which draws none) and
         whether the AVX2 and SSE builds, and the AVX-512 build, stream nothing there on
         family 26 */
      static const struct { unsigned es, bits; int avx2_sse, avx512; const char *call; } calls[] = {
         { 4, 8, 1, 0, "f32 at 8 bits" },   { 4, 16, 1, 0, "f32 at 16 bits" }, { 4, 32, 1, 1, "f32 at 32 bits, the fill" },
         { 2, 8, 1, 0, "bf16/f16 at 8 bits" }, { 2, 16, 1, 1, "bf16/f16 at 16 bits" }, { 2, 32, 1, 1, "bf16/f16 at 32 bits" },
         { 8, 32, 1, 0, "f64 at 32 bits" }, { 4, 0, 0, 0, "f32 from a stored mask" }, { 2, 0, 0, 0, "bf16/f16 from a stored mask" },
      };
      unsigned c;
      for (c = 0; c < sizeof calls / sizeof calls[0]; ++c) {
         int plain = 0;
#if defined(DROPOUT__NT_ASKS_CPU) && defined(DROPOUT__SIMD_AVX512)
         plain = zen5 && calls[c].avx512;
#elif defined(DROPOUT__NT_ASKS_CPU)
         plain = zen5 && calls[c].avx2_sse;
#endif
         want = plain ? SIZE_MAX : dflt;
         CHECK(dropout__nt_from(calls[c].es, calls[c].bits != 0, calls[c].bits) == want, "%s: got %zu, want %zu", calls[c].call,
               dropout__nt_from(calls[c].es, calls[c].bits != 0, calls[c].bits), want);
         CHECK(dropout__nt_from(calls[c].es, calls[c].bits != 0, calls[c].bits) == want, "%s, asked again: got %zu, want %zu", calls[c].call,
               dropout__nt_from(calls[c].es, calls[c].bits != 0, calls[c].bits), want);
      }
      case_end(zen5 ? "nt default [" NT_CC DROPOUT__SIMD_NAME "]: the threshold of nine kinds of call, AMD family 26"
                    : "nt default [" NT_CC DROPOUT__SIMD_NAME "]: the threshold of nine kinds of call, other CPUs");
   }
   return check_exit();
}
