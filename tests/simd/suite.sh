# covers: every SIMD path (SSE2, SSE4.1, AVX2, AVX-512, AVX-512 + BF16, NEON, WebAssembly SIMD128) and every x86 path in 4 compilers
# oracle: the header's scalar building blocks (test_simd.c); the DROPOUT_NO_SIMD build's digest
# needs: cc; optional clang, g++, clang++, aarch64-linux-gnu-gcc + qemu-aarch64, clang + wasi-libc +
#        compiler-rt for wasm32 + node (else SKIP)
# The SIMD path is chosen when dropout.h is compiled, so tests/simd/test_simd.c is built
# once per instruction set (run.sh's own build is the compiler's default: SSE2 on x86-64).
# Each build runs only where this CPU has the instructions; AVX-512 is compiled only when
# the CPU lacks it; NEON is cross-compiled and run under qemu when those are installed.
# Prints which builds ran.

simd_flag() { grep -qw "$1" /proc/cpuinfo 2>/dev/null; }

# simd_case NAME CPUFLAG(or -, or front) COMPILER FLAGS...: start building test_simd.c (in
# the background: the builds take most of this suite's time, and two cores build two at
# once); simd_finish then says each build's result in order and runs it where the CPU can,
# once with each of $simd_runs (test_simd.c's argument: the streaming threshold in bytes,
# or max; unset, one run at its own 1 KiB), which simd_case takes and clears. CPUFLAG
# front: the front end alone, never run (a compile-time threshold, for its warnings).
simd_started=""; simd_runs=""
# A build this CPU cannot run is made by the compiler's front end alone (-fsyntax-only: its
# warnings under -Werror, about a second): on an AVX2 machine the full builds of the AVX-512
# variants (one under ASan) cost make test CPU time for nothing it could run. The x86
# matrix below still builds every path in full.
simd_case() {
   sname=$1; sflag=$2; scc=$3; shift 3
   if ! command -v "$scc" >/dev/null 2>&1; then say "SKIP simd[$sname]: $scc not installed"; return; fi
   svar=$(printf '%s' "$sname" | tr -c 'A-Za-z0-9' '_')
   sonly=""
   case $sflag in -) ;; front) sonly=-fsyntax-only ;; *) simd_flag "$sflag" || sonly=-fsyntax-only ;; esac
   rm -f "$BUILD/test_simd_$sname" "$BUILD/test_simd_$sname.rc"
   ( "$scc" -std=c99 -O2 $WARN "$@" $sonly -I. -Itests tests/simd/test_simd.c -o "$BUILD/test_simd_$sname" \
        >"$BUILD/test_simd_$sname.build.log" 2>&1; echo $? >"$BUILD/test_simd_$sname.rc" ) &
   eval "simd_pid_$svar=\$!; simd_desc_$svar=\"\$scc \$* \$sonly\"; simd_runs_$svar=\$simd_runs"
   simd_started="$simd_started $sname:$sflag"; simd_runs=""
}
simd_finish() {
   for scase in $simd_started; do
      sname=${scase%%:*}; sflag=${scase#*:}; svar=$(printf '%s' "$sname" | tr -c 'A-Za-z0-9' '_')
      eval "wait \$simd_pid_$svar; sdesc=\$simd_desc_$svar; sruns=\$simd_runs_$svar"
      if [ "$(cat "$BUILD/test_simd_$sname.rc" 2>/dev/null)" != 0 ]; then
         say "FAIL build simd[$sname]: $(head -c 600 "$BUILD/test_simd_$sname.build.log" | tr '\n' ' ')"
         continue
      fi
      say "PASS build simd[$sname] ($sdesc)"
      if [ "$sflag" = front ]; then
         continue
      elif [ "$sflag" = - ] || simd_flag "$sflag"; then
         if [ -z "$sruns" ]; then
            echo "    simd[$sname]: running"
            run_prog "test_simd_$sname" "$BUILD/test_simd_$sname"
         fi
         for srun in $sruns; do
            echo "    simd[$sname]: running, DROPOUT_STREAM_STORE_BYTES $srun"
            run_prog "test_simd_$sname-$srun" "$BUILD/test_simd_$sname" "$srun"
         done
      else
         say "SKIP simd[$sname] run: this CPU has no $sflag (checked by the front end only)"
      fi
   done
   simd_started=""
}

if [ "$(uname -m)" = x86_64 ]; then
   simd_case sse2-clang sse2 clang -mno-sse4.1
   simd_case sse4.1 sse4_1 "$CC" -msse4.1
   simd_case avx2-openmp avx2 "$CC" -mavx2 -fopenmp
   # x86-64-v3 (AVX2 with F16C, FMA, BMI2: what -march gives an AVX2 CPU): f16 through F16C
   simd_case avx2-v3 avx2 "$CC" -march=x86-64-v3
   # streaming stores for every call (threshold 0) and never (max; test_simd.c's own is
   # 1 KiB), one build run twice: never streaming, with 16 MiB calls too (TEST_FAR:
   # test_simd.c's case_far), the AVX2 overlap's plain stores that miss the caches, with the
   # next step's y asked for ahead. The constants themselves: the front end, for warnings.
   simd_runs="0 max"; simd_case avx2-stream avx2 "$CC" -mavx2 -DTEST_FAR
   simd_case avx2-stream-always-front front "$CC" -mavx2 -DDROPOUT_STREAM_STORE_BYTES=0
   simd_case avx2-stream-never-front front "$CC" -mavx2 -DDROPOUT_STREAM_STORE_BYTES=SIZE_MAX -DTEST_FAR
   simd_case sse2-stream-never-front front "$CC" -DDROPOUT_STREAM_STORE_BYTES=SIZE_MAX
   # the prefetch of the next step's x in the AVX2 build (off by default)
   simd_case avx2-prefetch avx2 "$CC" -mavx2 -DDROPOUT_STREAM_STORE_BYTES=0 -DDROPOUT_STREAM_PREFETCH=1
   # the AVX2 f32 overlap with streamed stores (on by default in a build for Zen 3 only):
   # every call streams, on the call's grid and the shifted one
   simd_case avx2-stream-overlap avx2 "$CC" -mavx2 -DDROPOUT_STREAM_STORE_BYTES=0 -DDROPOUT_STREAM_OVERLAP=1
   # AVX-512 under ASan and UBSan, at test_simd.c's own threshold (calls from 1 KiB
   # stream), always streaming and never: no bit check sees a load past a buffer's end or a
   # shift out of range, these do (any report stops the program, which fails it). clang
   # -O0: the sanitizers check the same loads and shifts at any level, all of them at -O0,
   # and there the library's bodies are called, not copied into each caller (a 2 s compile
   # and three runs of 3 s, where -O1 took 36-48 s of CPU to compile). -g1: line tables,
   # all a report needs.
   if printf 'int main(void){return 0;}\n' >"$BUILD/simd_san.c" &&
         clang -fsanitize=address,undefined "$BUILD/simd_san.c" -o "$BUILD/simd_san" 2>/dev/null && "$BUILD/simd_san"; then
      simd_runs="1024 0 max"; simd_case avx512-asan-ubsan avx512bw clang -mavx512f -mavx512bw -O0 -g1 \
         -fsanitize=address,undefined \
         -fno-sanitize-recover=all -fno-omit-frame-pointer
   else
      say "SKIP simd[avx512-asan-ubsan]: clang with the ASan/UBSan runtime not found (apt-get install clang)"
   fi
   # one build, three runs: test_simd.c's own 1 KiB; 0, every call streams: the shifted data
   # grid (y aligned to 64 bytes) with masks, in place, and the Philox/data overlap on that
   # grid; max, none does: every large aligned f32/bf16 call takes the overlap on the call's
   # grid. The constants themselves by the front end (their warnings), the second with the
   # AVX-512 prefetch switched off (a run-time test of that constant, asked only by streamed
   # calls, so only its compile could differ: no run of its own)
   simd_runs="1024 0 max"; simd_case avx512-stream avx512bw "$CC" -mavx512f -mavx512bw
   simd_case avx512-stream-always-front front "$CC" -mavx512f -mavx512bw -DDROPOUT_STREAM_STORE_BYTES=0
   simd_case avx512-stream-never-front front "$CC" -mavx512f -mavx512bw -DDROPOUT_STREAM_STORE_BYTES=SIZE_MAX \
      -DDROPOUT_STREAM_PREFETCH=0
   # AVX512_BF16: bf16 rounds with vcvtne2ps2bf16 (subnormal products by integers), gcc and clang
   simd_case avx512-bf16 avx512_bf16 "$CC" -mavx512f -mavx512bw -mavx512dq -mavx512bf16
   simd_case avx512-bf16-clang avx512_bf16 clang -mavx512f -mavx512bw -mavx512dq -mavx512bf16
fi
simd_case reference - "$CC" -DDROPOUT_NO_SIMD
simd_finish
# the rule's own build (tests/run.sh: the compiler's default, SSE2 on x86-64) again, never
# streaming (its first run, at 1 KiB, said its build's result)
if [ "$(uname -m)" = x86_64 ] && grep -qx "BUILD ok test_simd" "$LOG" && [ -x "$BUILD/simd/test_simd" ]; then
   echo "    simd[default]: running, DROPOUT_STREAM_STORE_BYTES max"
   run_prog test_simd-max "$BUILD/simd/test_simd" max
fi

# Every x86 path with explicit flags (not -march=native: that hid a g++ -Werror failure on
# AVX-512 hosts), in C and C++, gcc, g++, clang and clang++, -O2 -Werror, whatever this CPU
# is: tests/xarch/digest.c (the whole API) must print the DROPOUT_NO_SIMD build's digests
# (C++: the AVX2 builds and g++'s AVX-512; the other paths through the C++ front end,
# tests/xarch/start.sh).
# All compile in the background; each runs where the CPU has the instructions.
[ -n "${xa_started:-}" ] || . ./tests/xarch/start.sh   # the builds (started early by run.sh)
if [ "$(uname -m)" = x86_64 ]; then
   wait "$simd_pid_ref" && "$simd_mx/ref.bin" >"$simd_mx/ref.out" 2>&1 && simd_ref=$simd_mx/ref.out
   for simd_w in $simd_pids; do wait "$simd_w"; done
   for simd_c in gcc g++ clang clang++; do
      if ! command -v $simd_c >/dev/null 2>&1; then say "SKIP simd-matrix[$simd_c]: not installed"; continue; fi
      for simd_p in $simd_x86; do
         simd_n=${simd_p%%:*}; simd_f=$(echo "$simd_p" | cut -d: -f2 | tr , ' '); simd_cpu=${simd_p##*:}
         simd_t="simd-matrix[$simd_c $simd_f]"
         if [ ! -e "$simd_mx/$simd_c-$simd_n.built" ]; then
            say "FAIL build $simd_t: $(head -c 600 "$simd_mx/$simd_c-$simd_n.build.log" | tr '\n' ' ')"; continue
         fi
         if [ ! -x "$simd_mx/$simd_c-$simd_n.bin" ]; then   # a C++ front-end check (tests/xarch/start.sh)
            say "PASS build $simd_t -fsyntax-only"; continue
         fi
         say "PASS build $simd_t"
         if ! simd_flag "$simd_cpu"; then say "SKIP $simd_t run: this CPU has no $simd_cpu"
         elif [ -z "$simd_ref" ]; then say "FAIL $simd_t: the DROPOUT_NO_SIMD digest did not build or run"
         elif "$simd_mx/$simd_c-$simd_n.bin" >"$simd_mx/$simd_c-$simd_n.out" 2>&1 &&
              cmp -s "$simd_ref" "$simd_mx/$simd_c-$simd_n.out"; then
            say "PASS $simd_t: whole-API digest equals DROPOUT_NO_SIMD's"
         else
            say "FAIL $simd_t: digest differs from DROPOUT_NO_SIMD's in: $(diff "$simd_ref" "$simd_mx/$simd_c-$simd_n.out" | sed -n 's/^> \([a-z]*\) .*/\1/p' | tr '\n' ' ')"
         fi
      done
      # The AVX-512 build asks for the next step's x while it streams its stores; a compiler
      # may drop a prefetch it thinks has no effect (gcc 12 did, for a prefetch in a function
      # of its own: the streamed 8-bit forward ran 2.6x slower), and no digest can see that.
      # So the object code must still hold it. Needs objdump (binutils, which gcc brings).
      if [ -x "$simd_mx/$simd_c-avx512.bin" ]; then
         if ! command -v objdump >/dev/null 2>&1; then
            say "SKIP simd-matrix[$simd_c avx512] prefetch: no objdump (apt-get install binutils)"
         elif [ "$(objdump -d "$simd_mx/$simd_c-avx512.bin" | grep -c prefetcht0)" -gt 0 ]; then
            say "PASS simd-matrix[$simd_c avx512] prefetch: the streamed forward's prefetcht0 of x is in the object code"
         else
            say "FAIL simd-matrix[$simd_c avx512] prefetch: no prefetcht0 in the AVX-512 build: the compiler dropped the prefetch of x (streamed calls lose 2x)"
         fi
      fi
   done
fi

# DROPOUT_STREAM_OVERLAP's default follows the core the build is for: on for Zen 3
# (-march=znver3, what -march=native gives there), off for the generic AVX2 build and for a
# znver3 build with AVX-512 (gcc 12 names later AMD cores znver3 too). Front end only.
if [ "$(uname -m)" = x86_64 ]; then
   printf '%s\n' '#define DROPOUT_IMPLEMENTATION' '#include "dropout.h"' '#ifndef DROPOUT_STREAM_OVERLAP' \
      '#define DROPOUT_STREAM_OVERLAP 0 /* not the AVX2 path */' '#endif' \
      '#if DROPOUT_STREAM_OVERLAP != WANT' '#error DROPOUT_STREAM_OVERLAP is not WANT' '#endif' >"$BUILD/simd_overlap.c"
   for simd_o in "-march=znver3:1" "-march=x86-64-v3:0" "-march=znver3 -mavx512f -mavx512bw:0"; do
      if "$CC" -std=c99 $WARN ${simd_o%:*} -DWANT=${simd_o##*:} -I. -fsyntax-only "$BUILD/simd_overlap.c" 2>"$BUILD/simd_overlap.log"; then
         say "PASS simd overlap default: DROPOUT_STREAM_OVERLAP is ${simd_o##*:} with ${simd_o%:*}"
      else
         say "FAIL simd overlap default with ${simd_o%:*}: $(head -c 300 "$BUILD/simd_overlap.log" | tr '\n' ' ')"
      fi
   done
fi

# The streaming-store threshold the library chooses when the program leaves it: on AMD
# family 26 (Zen 5) the AVX2 and gcc's SSE paths' calls that make their mask, and the
# AVX-512 path's whose element has at most its draw's bytes, take plain stores; everything
# else streams from 16 MiB. Each build with $CC and, where it is here, clang (whose SSE
# builds never ask). The oracle is /proc/cpuinfo, not the header's cpuid.
if [ "$(uname -m)" = x86_64 ]; then
   simd_zen5=0
   if grep -q '^vendor_id.*AuthenticAMD' /proc/cpuinfo 2>/dev/null && grep -q '^cpu family[[:space:]]*: 26$' /proc/cpuinfo; then simd_zen5=1; fi
   simd_ccs=$CC
   if command -v clang >/dev/null 2>&1; then simd_ccs="$CC clang"
   else say "SKIP simd nt default[clang]: clang not found (apt-get install clang)"; fi
   for simd_c in $simd_ccs; do
      for simd_n in "avx2:-march=x86-64-v3" "avx512bw:-mavx512f -mavx512bw" "sse2:-march=x86-64"; do
         simd_f=${simd_n%%:*}
         simd_b="nt_default_${simd_f}_$(basename "$simd_c")"
         build "$simd_b" "$simd_c" -std=c99 -O2 $WARN ${simd_n#*:} -I. -Itests tests/simd/nt_default.c -o "$BUILD/$simd_b"
         if [ ! -x "$BUILD/$simd_b" ]; then :
         elif simd_flag "$simd_f"; then run_prog "$simd_b" "$BUILD/$simd_b" $simd_zen5
         else say "SKIP simd nt default[$simd_c ${simd_n#*:}] run: this CPU has no $simd_f (built)"; fi
      done
   done
fi

# Debug builds (-O0). There gcc's intrinsics are macros, expanded in the user's file, where
# the user's warnings apply to them: gcc's -O0 _mm512_cvtps_ph passed its mask as -1, a
# -Wsign-conversion error under -Werror in every AVX-512 debug build. The front end's
# warnings of every x86 path in four compilers (-fsyntax-only: about a second in all); each
# path the CPU runs in full, gcc and clang, run against the DROPOUT_NO_SIMD digest (built by
# tests/xarch/start.sh).
if [ "$(uname -m)" = x86_64 ]; then
   printf '#define DROPOUT_IMPLEMENTATION\n#include "dropout.h"\n' >"$BUILD/simd_debug.c"
   for simd_c in gcc g++ clang clang++; do
      if ! command -v $simd_c >/dev/null 2>&1; then say "SKIP simd debug builds [$simd_c]: not installed"; continue; fi
      case $simd_c in *++) simd_l="-x c++ -std=c++11" ;; *) simd_l="-std=c99" ;; esac
      simd_bad=""; simd_n=0
      for simd_f in -msse2 -msse4.1 -mavx2 -march=x86-64-v3 "-mavx512f -mavx512bw" \
                    "-mavx512f -mavx512bw -mavx512dq -mavx512bf16" -march=sapphirerapids; do
         simd_n=$((simd_n + 1))
         # shellcheck disable=SC2086 # flag lists are split on purpose
         $simd_c $simd_l -O0 $WARN $simd_f -I. -fsyntax-only "$BUILD/simd_debug.c" >"$BUILD/simd_debug.log" 2>&1 ||
            simd_bad="$simd_bad [$simd_f] $(grep -m1 -E 'error|warning' "$BUILD/simd_debug.log" | head -c 300)"
      done
      if [ -z "$simd_bad" ]; then say "PASS simd debug builds [$simd_c -O0]: $simd_n x86 paths, no warning (-Werror)"
      else say "FAIL simd debug builds [$simd_c -O0]:$simd_bad"; fi
   done
   # the debug builds in full (tests/xarch/start.sh: each x86 path this CPU runs, gcc and
   # clang), each against the DROPOUT_NO_SIMD digest
   [ -n "${simd_o0:-}${simd_o0_no:-}" ] || say "SKIP simd-matrix[-O0]: neither gcc nor clang here"
   for simd_b in ${simd_o0_no:-}; do
      say "SKIP simd-matrix[${simd_b%%:*} -O0]: this CPU has no ${simd_b#*:} (not built: the -O0 front-end builds above check its warnings)"
   done
   for simd_b in ${simd_o0:-}; do
      simd_t="simd-matrix[${simd_b%-O0} -O0]"
      if [ ! -x "$simd_mx/$simd_b.bin" ]; then
         say "FAIL build $simd_t: $(head -c 600 "$simd_mx/$simd_b.build.log" | tr '\n' ' ')"
      elif [ -z "$simd_ref" ]; then say "FAIL $simd_t: the DROPOUT_NO_SIMD digest did not build or run"
      elif "$simd_mx/$simd_b.bin" >"$simd_mx/$simd_b.out" 2>&1 && cmp -s "$simd_ref" "$simd_mx/$simd_b.out"; then
         say "PASS $simd_t: whole-API digest equals DROPOUT_NO_SIMD's (a debug build)"
      else say "FAIL $simd_t: digest differs from DROPOUT_NO_SIMD's"; fi
   done
   # what keeps those builds at a second or two: at -O0 the library's bodies are called,
   # not forced into each caller (DROPOUT__INLINE), so each is a function of its own: the
   # engine's on every path, the overlap's on AVX-512 (where its copies cost most)
   simd_want="gcc-sse2-O0:dropout__engine_body gcc-avx512-O0:dropout__run_overlap_body"
   simd_bad=""; simd_seen=""
   for simd_w in $simd_want; do
      simd_b=$simd_mx/${simd_w%%:*}.bin
      [ -x "$simd_b" ] || continue
      simd_seen="$simd_seen ${simd_w%%:*}"
      nm "$simd_b" 2>/dev/null | grep -q " [tT] ${simd_w#*:}\$" || simd_bad="$simd_bad ${simd_w%%:*} has no ${simd_w#*:};"
   done
   if [ -z "$simd_seen" ]; then say "SKIP simd debug inlining: no gcc -O0 build here"
   elif ! command -v nm >/dev/null 2>&1; then say "SKIP simd debug inlining: no nm (apt-get install binutils)"
   elif [ -z "$simd_bad" ]; then say "PASS simd debug inlining: the bodies are functions of their own at -O0, not forced copies (${simd_seen# })"
   else say "FAIL simd debug inlining: a body forced inline at -O0 again:$simd_bad"; fi
fi

# The opt-outs: with AVX-512 flags, DROPOUT_NO_AVX512 must take the AVX2 path and
# DROPOUT_NO_AVX2 the SSE one (the digest matrix above checks those paths' bits)
if [ "$(uname -m)" = x86_64 ]; then
   for simd_o in DROPOUT_NO_AVX512:avx2 DROPOUT_NO_AVX2:sse4.1; do
      simd_got=$(printf '#define DROPOUT_IMPLEMENTATION\n#include "dropout.h"\n' |
                 "$CC" -std=c99 -mavx512f -mavx512bw -D"${simd_o%%:*}" -I. -dM -E - 2>&1 |
                 sed -n 's/^#define DROPOUT__SIMD_NAME "\(.*\)"$/\1/p')
      if [ "$simd_got" = "${simd_o##*:}" ]; then say "PASS simd opt-out ${simd_o%%:*}: the $simd_got path"
      else say "FAIL simd opt-out ${simd_o%%:*}: path '$simd_got', expected ${simd_o##*:}"; fi
   done
fi

# AArch64 NEON: cross-compiled when the cross compiler is there, run under qemu-user
if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
   if aarch64-linux-gnu-gcc -std=c99 -O2 $WARN -static -I. -Itests tests/simd/test_simd.c \
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

# WebAssembly SIMD128: test_simd.c for wasm32-wasi (wasi-libc gives it stdio and malloc),
# run by node's WASI (tests/simd/run_wasi.js)
simd_wasi_get="apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32 nodejs"
printf 'int main(void) { return 0; }\n' >"$BUILD/wasi_probe.c"
if ! command -v clang >/dev/null 2>&1 ||
   ! clang --target=wasm32-wasi "$BUILD/wasi_probe.c" -o "$BUILD/wasi_probe.wasm" >/dev/null 2>&1; then
   say "SKIP simd[wasm-simd128]: clang cannot build for wasm32-wasi here ($simd_wasi_get)"
elif ! command -v node >/dev/null 2>&1; then
   say "SKIP simd[wasm-simd128]: node not installed (apt-get install nodejs)"
elif clang --target=wasm32-wasi -msimd128 -std=c99 -O2 $WARN -I. -Itests tests/simd/test_simd.c \
        -o "$BUILD/test_simd_wasm.wasm" >"$BUILD/test_simd_wasm.build.log" 2>&1; then
   say "PASS build simd[wasm-simd128] (clang --target=wasm32-wasi -msimd128)"
   run_prog test_simd_wasm node --no-warnings tests/simd/run_wasi.js "$BUILD/test_simd_wasm.wasm"
   # the runner itself with a memory the size of make bench-ab-wasm's (node 20's WASI aborted
   # past some tens of MiB, or crashed at exit, until run_wasi.js turned off V8's fast calls)
   printf '#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\nint main(void) { size_t n = (size_t)256 << 20, i; unsigned s = 0; unsigned char *p = malloc(n); if (!p) return 3; memset(p, 7, n);\n for (i = 0; i < n; i += 4096) s += p[i]; printf("%%u\\n", s); return 0; }\n' >"$BUILD/wasi_big.c"
   if clang --target=wasm32-wasi -O2 "$BUILD/wasi_big.c" -o "$BUILD/wasi_big.wasm" >/dev/null 2>&1; then
      node --no-warnings tests/simd/run_wasi.js "$BUILD/wasi_big.wasm" >"$BUILD/wasi_big.out" 2>&1
      simd_rc=$?
      if [ $simd_rc -eq 0 ] && [ "$(cat "$BUILD/wasi_big.out")" = 458752 ]; then
         say "PASS simd[wasm-simd128] runner: run_wasi.js runs a program with 256 MiB of memory to its end"
      else say "FAIL simd[wasm-simd128] runner: 256 MiB under run_wasi.js: exit $simd_rc, output '$(head -c 200 "$BUILD/wasi_big.out")'"; fi
   else say "FAIL build simd[wasm-simd128] runner probe (clang --target=wasm32-wasi)"; fi
else
   say "FAIL build simd[wasm-simd128]: $(head -c 600 "$BUILD/test_simd_wasm.build.log" | tr '\n' ' ')"
fi
