# suite_simd.sh - sourced by tests/run.sh. The SIMD path is chosen when dropout.h is
# compiled, so tests/test_simd.c is built once per instruction set (run.sh's own build is
# the compiler's default: SSE2 on x86-64). Each build runs only where this CPU has the
# instructions; AVX-512 is compiled only when the CPU lacks it; NEON is cross-compiled
# and run under qemu when those are installed. Prints which builds ran.

simd_flag() { grep -qw "$1" /proc/cpuinfo 2>/dev/null; }

# simd_case NAME CPUFLAG(or -) COMPILER FLAGS...: build test_simd.c; run it if the CPU can
simd_case() {
   sname=$1; sflag=$2; scc=$3; shift 3
   if ! command -v "$scc" >/dev/null 2>&1; then say "SKIP simd[$sname]: $scc not installed"; return; fi
   if "$scc" -std=c99 -O2 $WARN "$@" -I. -Itests tests/test_simd.c -o "$BUILD/test_simd_$sname" \
         >"$BUILD/test_simd_$sname.build.log" 2>&1; then
      say "PASS build simd[$sname] ($scc $*)"
   else
      say "FAIL build simd[$sname]: $(head -c 600 "$BUILD/test_simd_$sname.build.log" | tr '\n' ' ')"
      return
   fi
   if [ "$sflag" = - ] || simd_flag "$sflag"; then
      echo "    simd[$sname]: running"
      run_prog "test_simd_$sname" "$BUILD/test_simd_$sname"
   else
      say "SKIP simd[$sname] run: this CPU has no $sflag"
   fi
}

if [ "$(uname -m)" = x86_64 ]; then
   simd_case sse2-clang sse2 clang -mno-sse4.1
   simd_case sse4.1 sse4_1 "$CC" -msse4.1
   simd_case avx2-openmp avx2 "$CC" -mavx2 -fopenmp
   # streaming stores for every call (threshold 0) and never (test_simd.c's own is 1 KiB)
   simd_case avx2-stream-always avx2 "$CC" -mavx2 -DDROPOUT_STREAM_STORE_BYTES=0
   simd_case sse2-stream-never sse2 "$CC" -DDROPOUT_STREAM_STORE_BYTES=SIZE_MAX
   simd_case avx512 avx512bw "$CC" -mavx512f -mavx512bw
   # every call streams: the shifted data grid (y aligned to 64 bytes) with masks, in place
   simd_case avx512-stream-always avx512bw "$CC" -mavx512f -mavx512bw -DDROPOUT_STREAM_STORE_BYTES=0
fi
simd_case reference - "$CC" -DDROPOUT_NO_SIMD

# C++ (the header must stay valid C++11) with the widest path this machine's compiler has
simd_cxx_flags=$([ "$(uname -m)" = x86_64 ] && echo -mavx2)
if command -v "${CXX:-c++}" >/dev/null 2>&1; then
   build simd-cxx11 sh -c "printf '#define DROPOUT_IMPLEMENTATION\n#include \"dropout.h\"\n' | \
      ${CXX:-c++} -std=c++11 -x c++ -O2 $WARN $simd_cxx_flags -I. -c - -o $BUILD/simd_cxx.o"
else
   say "SKIP build simd-cxx11: no C++ compiler (${CXX:-c++})"
fi

# AArch64 NEON: cross-compiled when the cross compiler is there, run under qemu-user
if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
   if aarch64-linux-gnu-gcc -std=c99 -O2 $WARN -static -I. -Itests tests/test_simd.c \
         -o "$BUILD/test_simd_neon" >"$BUILD/test_simd_neon.build.log" 2>&1; then
      say "PASS build simd[neon] (aarch64-linux-gnu-gcc)"
      if command -v qemu-aarch64 >/dev/null 2>&1; then
         run_prog test_simd_neon qemu-aarch64 "$BUILD/test_simd_neon"
      else
         say "SKIP simd[neon] run: qemu-aarch64 not installed"
      fi
   else
      say "FAIL build simd[neon]: $(head -c 600 "$BUILD/test_simd_neon.build.log" | tr '\n' ' ')"
   fi
else
   say "SKIP simd[neon]: aarch64-linux-gnu-gcc not installed (apt-get install gcc-aarch64-linux-gnu)"
fi
