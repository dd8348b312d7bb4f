# covers: the build matrix (gcc/clang, C99/C11, C++11/17), links, no libm, sanitizers, nvcc, cuRAND
# oracle: -Werror compiles that run; libm's symbol list; cuRAND's host Philox generator's words
# needs: cc; optional gcc, clang, g++, clang++, nm, asan/ubsan runtime, nvcc + g++, libcurand (else SKIP)
# Sourced by tests/run.sh: the build matrix and the peers, as checks.
#   - tests/build/smoke.c (every public function) with gcc and clang in C99 and C11, and
#     as C++ with g++ (C++11, C++17) and clang++ (C++17), all under $WARN, each one run;
#   - two-file links: implementation in one file, plain include in the other (also with
#     the implementation compiled as C++ and the user as C); DROPOUT_STATIC twice in one
#     program; the link errors without the implementation and with two name the fix;
#     an unchecked dropout_plan_at under DROPOUT_STATIC and -flto, -Werror (lto_plan.c);
#   - no libm: programs link without -lm, and no undefined symbol of the implementation
#     is one that libm defines;
#   - test_dropout and test_stream under -fsanitize=address,undefined;
#   - nvcc: the implementation as CUDA host code and the building blocks in a kernel, for
#     sm_75 and sm_90 (-Werror all-warnings), run (device part SKIPs without a GPU);
#   - cuRAND's host generator as a peer for the stream (tests/build/peer_curand.c).
#   - the x86 benchmarks that use the header's private functions (bench/overlap_ceiling.c
#     and bench/ops_ceiling.c at three x86-64 levels: x86-64-v3 built and run once, the
#     others through the front end; bench/philox_clock.c), and make bench-ab's program,
#     build under $WARN.
# Uses run.sh's say / build / run_prog, $CC, $BUILD, $WARN. Names here start with sb_
# because this file is sourced into run.sh's shell.

sb_dir=$BUILD/suite_build
mkdir -p "$sb_dir"
sb_cuda=${CUDA_HOME:-/usr/local/cuda}
sb_opt=-O1   # the matrix checks that the code compiles cleanly; speed is not the point

sb_have() { command -v "$1" >/dev/null 2>&1; }

# sb_bg NAME CMD...: start a compile in the background (the machine has 2 cores and
# nvcc mostly waits on one); sb_wait NAME reports it like run.sh's build().
sb_key() { printf '%s' "$1" | tr -c 'A-Za-z0-9_' '_'; }   # a name usable in a variable
sb_bg() {
   sb_n=$1; shift
   "$@" >"$BUILD/$sb_n.build.log" 2>&1 &
   eval "sb_pid_$(sb_key "$sb_n")=\$!"
}
sb_wait() {
   eval "sb_w=\$sb_pid_$(sb_key "$1")"
   if wait "$sb_w"; then say "PASS build $1"
   else say "FAIL build $1: $(head -c 600 "$BUILD/$1.build.log" | tr '\n' ' ')"; fi
}

# sb_prefixed NAME PREFIX CMD...: run CMD, rename its result lines "PASS x" -> "PASS PREFIX: x"
# so that a second run of a test program under other flags counts apart.
sb_prefixed() {
   sb_n=$1; sb_p=$2; shift 2
   run_prog "$sb_n" sh -c '"$@" >"$0.raw" 2>&1; r=$?; sed -E "s/^(PASS|FAIL|SKIP) /\1 '"$sb_p"': /" "$0.raw"; exit $r' \
      "$sb_dir/$sb_n" "$@"
}

# ---- all compiles start here, in the background (nvcc, sanitizer builds, the matrix):
# the shell waits for each where its result is reported
sb_nvcc=$(command -v nvcc 2>/dev/null || echo "$sb_cuda/bin/nvcc")
sb_nvcc_skip=""
if [ ! -x "$sb_nvcc" ]; then sb_nvcc_skip="nvcc not found (neither on PATH nor in $sb_cuda/bin)"
elif ! sb_have g++; then sb_nvcc_skip="nvcc's host compiler g++ not found"; fi
if [ -z "$sb_nvcc_skip" ]; then
   rm -f "$sb_dir/nvcc_smoke"
   sb_bg nvcc_sm75_sm90 "$sb_nvcc" -O1 -I. -Werror all-warnings -Xcompiler -Wall,-Wextra,-Wshadow,-Wconversion,-Werror -Itests \
      -gencode arch=compute_75,code=sm_75 -gencode arch=compute_90,code=sm_90 tests/build/nvcc_smoke.cu -o "$sb_dir/nvcc_smoke"
fi
sb_san=""
for sb_c in clang gcc; do
   if sb_have $sb_c && echo 'int main(void){return 0;}' >"$sb_dir/san_probe.c" &&
      $sb_c -fsanitize=address,undefined "$sb_dir/san_probe.c" -o "$sb_dir/san_probe" 2>/dev/null &&
      "$sb_dir/san_probe"; then sb_san=$sb_c; break; fi
done
# (DROPOUT_STATIC: a sanitizer sees the code that runs alone, so the functions the test
# never calls need not be built: 3 and 1.3 s of CPU instead of 6.6 and 6.3)
if [ -n "$sb_san" ]; then
   for sb_t in test_dropout test_stream; do
      rm -f "$sb_dir/san_$sb_t"
      sb_bg "asan_ubsan_$sb_t" $sb_san -std=c99 -O1 -g1 $WARN -fsanitize=address,undefined -fno-sanitize-recover=all \
         -fno-omit-frame-pointer -DDROPOUT_STATIC -I. -Itests tests/core/$sb_t.c -o "$sb_dir/san_$sb_t"
   done
fi

# ---- the matrix: every compiler and standard, every public function (all compiled at
# once in the background; each is waited for in order)
sb_matrix="gcc:c99 gcc:c11 clang:c99 clang:c11 g++:c++11 g++:c++17 clang++:c++17"
for sb_m in $sb_matrix; do
   sb_cc=${sb_m%%:*}; sb_std=${sb_m#*:}; sb_tag="$sb_cc-$sb_std"
   sb_have "$sb_cc" || continue
   case $sb_cc in *++) sb_lang="-x c++" ;; *) sb_lang="" ;; esac
   rm -f "$sb_dir/smoke_$sb_tag"
   sb_bg "matrix_$sb_tag" "$sb_cc" $sb_lang -std=$sb_std $sb_opt $WARN -I. -Itests tests/build/smoke.c -o "$sb_dir/smoke_$sb_tag"
done
for sb_m in $sb_matrix; do
   sb_cc=${sb_m%%:*}; sb_std=${sb_m#*:}; sb_tag="$sb_cc-$sb_std"
   if ! sb_have "$sb_cc"; then say "SKIP matrix $sb_tag: $sb_cc not found"; continue; fi
   sb_wait "matrix_$sb_tag"
   [ -x "$sb_dir/smoke_$sb_tag" ] && run_prog "smoke_$sb_tag" "$sb_dir/smoke_$sb_tag" "$sb_tag"
done

# ---- links
rm -f "$sb_dir"/link_* "$sb_dir"/static_*
build link_c "$CC" -std=c99 $sb_opt $WARN -I. -Itests tests/build/link_a.c tests/build/link_b.c -o "$sb_dir/link_c"
[ -x "$sb_dir/link_c" ] && run_prog link_c "$sb_dir/link_c" c_impl_c_user
if sb_have g++; then
   build link_cxx_impl_c_user sh -c "g++ -x c++ -std=c++11 $sb_opt $WARN -I. -Itests -c tests/build/link_a.c -o $sb_dir/link_a_cxx.o &&
      $CC -std=c99 $sb_opt $WARN -I. -Itests tests/build/link_b.c $sb_dir/link_a_cxx.o -o $sb_dir/link_mixed"
   [ -x "$sb_dir/link_mixed" ] && run_prog link_mixed "$sb_dir/link_mixed" cxx_impl_c_user
else
   say "SKIP link_cxx_impl_c_user: g++ not found"
fi
build static_two_tus "$CC" -std=c99 $sb_opt $WARN -I. -Itests tests/build/static_a.c tests/build/static_b.c -o "$sb_dir/static_ab"
# a user's project around the header: DROPOUTDEF for a shared library (a definition of the
# link-check symbol in every file once, with -fno-common), macros common in user code and
# in <windows.h> (E, P, near: locals of the header's once), and -Wdouble-promotion (Cortex-M
# projects; clang warned on the header's float constants)
sb_hostile="-fno-common -DDROPOUTDEF=__attribute__((visibility(\"default\"))) -DE=2.718 -DP=3 -Dnear= -Dfar= -Wdouble-promotion"
for sb_cc in "$CC" clang; do
   sb_have "$sb_cc" || { say "SKIP link_user_macros_$sb_cc: $sb_cc not found"; continue; }
   # shellcheck disable=SC2086
   build "link_user_macros_$sb_cc" "$sb_cc" -std=c99 $sb_opt $WARN $sb_hostile -I. -Itests tests/build/link_a.c tests/build/link_b.c -o "$sb_dir/link_user_$sb_cc"
done
[ -x "$sb_dir/static_ab" ] && run_prog static_ab "$sb_dir/static_ab"

# link errors that name the fix: without DROPOUT_IMPLEMENTATION, and with it in two files,
# the linker names dropout_h_needs_DROPOUT_IMPLEMENTATION_in_exactly_one_file
sb_sym=dropout_h_needs_DROPOUT_IMPLEMENTATION_in_exactly_one_file
printf '#include "dropout.h"\nint main(void) { dropout_rule r; return dropout_rule_init(&r, 0.5, DROPOUT_BITS_8); }\n' >"$sb_dir/link_none.c"
printf '#define DROPOUT_IMPLEMENTATION\n#include "dropout.h"\nint other(void);\nint other(void) { return 0; }\n' >"$sb_dir/link_twice.c"
if $CC -std=c99 -I. "$sb_dir/link_none.c" -o "$sb_dir/link_none" >"$sb_dir/link_none.log" 2>&1; then
   say "FAIL link_error_names_fix: a program without DROPOUT_IMPLEMENTATION linked"
elif grep -q "undefined reference to .$sb_sym" "$sb_dir/link_none.log" || grep -q "$sb_sym" "$sb_dir/link_none.log"; then
   say "PASS link_error_names_fix: without DROPOUT_IMPLEMENTATION the linker names $sb_sym"
else
   say "FAIL link_error_names_fix: the link failed without naming $sb_sym: $(head -c 300 "$sb_dir/link_none.log" | tr '\n' ' ')"
fi
if $CC -std=c99 -I. -Itests tests/build/link_a.c "$sb_dir/link_twice.c" -o "$sb_dir/link_twice" >"$sb_dir/link_twice.log" 2>&1; then
   say "FAIL link_error_names_fix: DROPOUT_IMPLEMENTATION in two files linked"
elif grep -q "multiple definition of .$sb_sym" "$sb_dir/link_twice.log"; then
   say "PASS link_error_names_fix: DROPOUT_IMPLEMENTATION in two files: the linker names $sb_sym"
else
   say "FAIL link_error_names_fix: two implementations failed without naming $sb_sym: $(head -c 300 "$sb_dir/link_twice.log" | tr '\n' ' ')"
fi
# an unchecked dropout_plan_at under DROPOUT_STATIC and -flto, -Werror (gcc sees through the
# call): no maybe-uninitialized; the refused plan runs as an empty one (DROPOUT_ERR_COUNT)
for sb_v in "-DDROPOUT_STATIC" "-flto"; do
   sb_t=lto_plan$(echo "$sb_v" | tr -d ' =-')
   build "$sb_t" "$CC" -std=c99 -O2 $sb_v $WARN -I. tests/build/lto_plan.c -o "$sb_dir/$sb_t"
   if [ -x "$sb_dir/$sb_t" ]; then
      sb_out=$("$sb_dir/$sb_t" a b c d)
      if [ "$sb_out" = "-27 0" ]; then say "PASS $sb_t: an unchecked refused plan_at leaves an empty plan ($sb_out)"
      else say "FAIL $sb_t: printed '$sb_out', want '-27 0'"; fi
   fi
done

# ---- the benchmarks that read the header's private functions (dropout__*) must follow
# them: checked, not run (speed is not tested), on each x86 path that has its own code
# there. The AVX2 build is built in full and run once below; the AVX-512 and SSE2 ones go
# through the front end only (-fsyntax-only: names, types and every front-end warning), as
# their code is the AVX2 one's and the header's paths are built in full by the SIMD
# matrix (an AVX-512 build of the header takes 15 s of CPU)
if [ "$(uname -m)" = x86_64 ]; then
   for sb_l in x86-64-v4 x86-64-v3 x86-64; do
      sb_how="-o $sb_dir/overlap_ceiling_$sb_l"; [ "$sb_l" = x86-64-v3 ] || sb_how=-fsyntax-only
      # shellcheck disable=SC2086 # sb_how is two words or one on purpose
      build "bench_overlap_ceiling_$sb_l" "$CC" -std=c99 -O2 -march=$sb_l $WARN -I. bench/overlap_ceiling.c $sb_how
      sb_how="-o $sb_dir/ops_ceiling_$sb_l"; [ "$sb_l" = x86-64-v3 ] || sb_how=-fsyntax-only
      # shellcheck disable=SC2086
      build "bench_ops_ceiling_$sb_l" "$CC" -std=c99 -O2 -march=$sb_l $WARN -I. bench/ops_ceiling.c $sb_how
   done
   build bench_philox_clock "$CC" -std=c99 -O2 $WARN -I. bench/philox_clock.c -o "$sb_dir/philox_clock"
   # make bench-ab's program, both of its versions from this header (it takes a revision's as A)
   build bench_ab sh -c "$CC -std=c99 -O2 $WARN -DVNAME=A -I. -c bench/ab/variant.c -o $sb_dir/ab_a.o &&
      $CC -std=c99 -O2 $WARN -DVNAME=B -I. -c bench/ab/variant.c -o $sb_dir/ab_b.o &&
      objcopy -w --keep-global-symbol='ab_*' $sb_dir/ab_a.o && objcopy -w --keep-global-symbol='ab_*' $sb_dir/ab_b.o &&
      $CC -std=c99 -O2 $WARN bench/ab/main.c $sb_dir/ab_a.o $sb_dir/ab_b.o -o $sb_dir/ab_main"
   # and run once, one round each: a benchmark whose plan the library refuses (p = 0.1 at
   # 8 bits, say) must stop with an error, not time calls that do nothing
   if grep -q '^flags.* avx2' /proc/cpuinfo 2>/dev/null && [ -x "$sb_dir/overlap_ceiling_x86-64-v3" ]; then
      if "$sb_dir/overlap_ceiling_x86-64-v3" 1 >"$sb_dir/overlap_ceiling.out" 2>&1; then
         say "PASS bench_overlap_ceiling runs (AVX2 build, one round: every row's plan made)"
      else say "FAIL bench_overlap_ceiling: $(tail -n 2 "$sb_dir/overlap_ceiling.out" | tr '\n' ' ')"; fi
   else
      say "SKIP bench_overlap_ceiling run: this CPU has no AVX2 (the path with the overlap)"
   fi
   if [ -x "$sb_dir/ab_main" ]; then
      if "$sb_dir/ab_main" 10 1 >"$sb_dir/ab_main.out" 2>&1; then
         say "PASS bench_ab runs (2^10 elements, one round: every width's plan made)"
      else say "FAIL bench_ab: $(tail -n 2 "$sb_dir/ab_main.out" | tr '\n' ' ')"; fi
   fi
else
   say "SKIP bench builds: x86-64 benchmarks, this host is $(uname -m)"
fi

# ---- no libm: the links above had no -lm; here the implementation's undefined symbols
# are checked against what libm defines (at -O0 and -O2: inlining must not matter).
sb_libm=$($CC -print-file-name=libm.so.6 2>/dev/null)
if sb_have nm && [ -f "$sb_libm" ]; then
   nm -D --defined-only "$sb_libm" 2>/dev/null | awk '{print $NF}' | sed 's/@.*//' | sort -u >"$sb_dir/libm.syms"
   sb_bad=""
   for sb_o in -O0 -O2; do
      $CC -std=c99 $sb_o $WARN -I. -Itests -c tests/build/link_a.c -o "$sb_dir/impl$sb_o.o" 2>"$sb_dir/impl.log" ||
         sb_bad="$sb_bad (compile $sb_o failed)"
      nm -u "$sb_dir/impl$sb_o.o" | awk '{print $NF}' | sort -u >"$sb_dir/impl$sb_o.undef"
      sb_bad="$sb_bad$(comm -12 "$sb_dir/libm.syms" "$sb_dir/impl$sb_o.undef" | tr '\n' ' ')"
   done
   if [ -z "$sb_bad" ] && [ -s "$sb_dir/libm.syms" ]; then say "PASS no_libm (implementation needs no libm symbol, -O0 and -O2)"
   else say "FAIL no_libm: libm symbols used: $sb_bad"; fi
else
   say "SKIP no_libm: nm or libm.so.6 not found"
fi

# ---- cuRAND's host generator as a peer
if [ -f "$sb_cuda/include/curand.h" ] && ls "$sb_cuda"/lib64/libcurand.so* >/dev/null 2>&1; then
   rm -f "$sb_dir/peer_curand"
   build peer_curand "$CC" -std=c99 -O2 $WARN -I. -Itests -isystem "$sb_cuda/include" tests/build/peer_curand.c \
      -L"$sb_cuda/lib64" -lcurand -Wl,-rpath,"$sb_cuda/lib64" -o "$sb_dir/peer_curand"
   [ -x "$sb_dir/peer_curand" ] && run_prog peer_curand "$sb_dir/peer_curand"
else
   say "SKIP stream_vs_curand_host: no curand.h / libcurand under $sb_cuda"
fi

# ---- sanitizers (compiled in the background above)
if [ -n "$sb_san" ]; then
   for sb_t in test_dropout test_stream; do
      sb_wait "asan_ubsan_$sb_t"
      [ -x "$sb_dir/san_$sb_t" ] && sb_prefixed "san_$sb_t" "asan+ubsan" "$sb_dir/san_$sb_t" --quick
   done
else
   say "SKIP asan_ubsan: no compiler here links -fsanitize=address,undefined"
fi

# ---- nvcc (compiled in the background above)
if [ -z "$sb_nvcc_skip" ]; then
   sb_wait nvcc_sm75_sm90
   [ -x "$sb_dir/nvcc_smoke" ] && run_prog nvcc_smoke "$sb_dir/nvcc_smoke" nvcc_smoke
else
   say "SKIP nvcc: $sb_nvcc_skip"
fi
