# The 1.0 interface (dropout.h 0.9.0): the new calls against the 0.1.0 ones, strided views, errors, rules, FPU modes, guards.
# Oracle: byte equality with the 0.1.0 calls (DROPOUT_V0_API) and with contiguous copies; exhaustive integer-vs-double rules; canaries; compiler exit codes and messages.
# Needs: $CC; optional g++/clang++ (strict C++ flags), gcc/clang (-ffast-math guards), aarch64-linux-gnu-gcc + qemu-aarch64 (FPCR test), clang or gcc with ThreadSanitizer (the shared backward descriptor).
ABUILD=$BUILD/api
mkdir -p "$ABUILD"

# tests/api/test_*.c (strided views, errors, rules, the FPU mode) are built and run by the
# runner; here: the 1.0 calls against the 0.1.0 ones, two translation units (v0_side.c is
# compiled with DROPOUT_V0_API and holds the implementation)
if $CC $CFLAGS_TEST -I. -Itests tests/api/v0_equal.c tests/api/v0_side.c -o "$ABUILD/v0_equal" 2>"$ABUILD/v0_equal.build.log"; then
   run_prog api_v0_equal "$ABUILD/v0_equal"
else
   say "FAIL build api v0_equal: $(head -c 600 "$ABUILD/v0_equal.build.log" | tr '\n' ' ')"
fi

# a user file built with -fshort-enums, the implementation without: the same layout of
# every public struct, and a job from dropout_lower exactly as large as the file thinks
# (under ASan where clang has it: the old layout wrote 8 bytes past it)
api_se_cc=$CC; api_se_san=""
if command -v clang >/dev/null 2>&1 && printf 'int main(void){return 0;}\n' >"$ABUILD/se_san.c" &&
      clang -fsanitize=address "$ABUILD/se_san.c" -o "$ABUILD/se_san" 2>/dev/null; then
   api_se_cc=clang; api_se_san=-fsanitize=address
fi
if $api_se_cc -std=c99 -O1 $WARN -I. -Itests/api -c tests/api/short_enums_impl.c -o "$ABUILD/short_enums_impl.o" 2>"$ABUILD/short_enums.build.log" &&
      $api_se_cc -std=c99 -O1 -g $api_se_san -fshort-enums $WARN -I. -Itests/api tests/api/short_enums_user.c \
         "$ABUILD/short_enums_impl.o" -o "$ABUILD/short_enums" -lm 2>>"$ABUILD/short_enums.build.log"; then
   run_prog api_short_enums "$ABUILD/short_enums"
else
   say "FAIL build api short_enums: $(head -c 600 "$ABUILD/short_enums.build.log" | tr '\n' ' ')"
fi

# the descriptor's walker under ASan and UBSan (negative strides, broadcast, accumulate,
# every error path): any report stops the program (-fno-sanitize-recover), which fails it.
# DROPOUT_STATIC: a sanitizer sees the code that runs alone, so what the test never calls
# need not be built (9 s of CPU instead of 14 for the three)
if command -v clang >/dev/null 2>&1 && printf 'int main(void){return 0;}\n' >"$ABUILD/san.c" &&
      clang -fsanitize=address,undefined "$ABUILD/san.c" -o "$ABUILD/san" 2>/dev/null; then
   for api_t in test_strided test_errors test_plan; do
      if clang -std=c99 -O1 -g1 -fsanitize=address,undefined -fno-sanitize-recover=all -DDROPOUT_STATIC -I. -Itests tests/api/$api_t.c \
            -o "$ABUILD/san_$api_t" 2>"$ABUILD/san_$api_t.build.log"; then
         "$ABUILD/san_$api_t" >"$ABUILD/san_$api_t.out" 2>&1
         if [ $? -eq 0 ] && ! grep -q '^FAIL' "$ABUILD/san_$api_t.out"; then say "PASS api sanitizers [$api_t]: ASan + UBSan quiet, every case passes"
         else say "FAIL api sanitizers [$api_t]: $(grep -m1 -E 'ERROR|runtime error|^FAIL' "$ABUILD/san_$api_t.out" | head -c 300)"; fi
      else
         say "FAIL build api sanitizers $api_t: $(head -c 300 "$ABUILD/san_$api_t.build.log" | tr '\n' ' ')"
      fi
   done
else
   say "SKIP api sanitizers: clang with the ASan/UBSan runtime not found (apt-get install clang)"
fi

# one backward descriptor run by two threads at once (docs/API.md "Threads": allowed) under
# ThreadSanitizer: a run that stores into the shared descriptor is a report, and fails it
api_tsan=""
for api_cc in clang gcc; do
   command -v $api_cc >/dev/null 2>&1 || continue
   printf 'int main(void){return 0;}\n' >"$ABUILD/tsan.c"
   if $api_cc -fsanitize=thread -pthread "$ABUILD/tsan.c" -o "$ABUILD/tsan" 2>/dev/null && "$ABUILD/tsan" 2>/dev/null; then
      api_tsan=$api_cc; break
   fi
done
if [ -n "$api_tsan" ]; then
   if $api_tsan -std=c99 -O1 -g -fsanitize=thread -pthread $WARN -I. -Itests tests/api/desc_threads.c -o "$ABUILD/desc_threads" \
         2>"$ABUILD/desc_threads.build.log"; then
      TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$ABUILD/desc_threads" >"$ABUILD/desc_threads.out" 2>&1
      api_rc=$?
      if [ $api_rc -eq 0 ] && grep -q '^PASS' "$ABUILD/desc_threads.out"; then
         say "$(grep -m1 '^PASS' "$ABUILD/desc_threads.out") (ThreadSanitizer quiet, $api_tsan)"
      else
         say "FAIL api threads (ThreadSanitizer, $api_tsan, exit $api_rc): $(grep -m1 -E 'WARNING|^FAIL' "$ABUILD/desc_threads.out" | head -c 300)"
      fi
   else
      say "FAIL build api desc_threads: $(head -c 300 "$ABUILD/desc_threads.build.log" | tr '\n' ' ')"
   fi
else
   say "SKIP api threads: no compiler here runs -fsanitize=thread programs (clang or gcc with libtsan)"
fi

# the FPCR half of the FPU test, on AArch64 under qemu
if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 && command -v qemu-aarch64 >/dev/null 2>&1; then
   if aarch64-linux-gnu-gcc -static -std=c99 -O2 $WARN -I. -Itests tests/api/test_fpu.c -o "$ABUILD/fpu_a64" \
         2>"$ABUILD/fpu_a64.build.log"; then
      run_prog api_fpu_a64 qemu-aarch64 "$ABUILD/fpu_a64"
   else
      say "FAIL build api fpu aarch64: $(head -c 400 "$ABUILD/fpu_a64.build.log" | tr '\n' ' ')"
   fi
else
   say "SKIP api fpu aarch64: no aarch64-linux-gnu-gcc or qemu-aarch64 (apt-get install gcc-aarch64-linux-gnu qemu-user)"
fi

# -ffast-math at link time alone: crtfastmath.o sets MXCSR FTZ/DAZ for the whole process
# before main, in code that never saw dropout.h; every call sets the mode it needs for
# itself and gives the caller's back: the same bits as a plain program, FTZ/DAZ still on
# after (the program prints its output's digest and the MXCSR bits it finds after the call;
# its subnormal inputs are made from bits, since its own float arithmetic would flush)
printf '#define DROPOUT_IMPLEMENTATION\n#include "dropout.h"\n#include <stdio.h>\n#include <xmmintrin.h>\nint main(void) { static float x[1000], y[1000]; unsigned long long h = 1469598103934665603ull; unsigned u; int i, e; dropout_rule r; dropout_plan p; dropout_gen g;\n dropout_gen_init(&g, dropout_key_make(1, 2));\n for (i = 0; i < 1000; ++i) { u = (unsigned)(i %% 7) * 1000003u; if (i %% 3) u = 0x3F800000u + (unsigned)i; memcpy(&x[i], &u, 4); }\n dropout_rule_init(&r, 0.5, DROPOUT_BITS_8); e = dropout_forward_f32(&g, &r, &p, 1000, y, NULL, x);\n for (i = 0; i < 1000; ++i) { memcpy(&u, &y[i], 4); h = (h ^ u) * 1099511628211ull; }\n printf("%%d %%016llx %%x\\n", e, h, _mm_getcsr() & 0x8040u); return 0; }\n' | sed 's/#include <stdio.h>/#include <stdio.h>\n#include <string.h>/' >"$ABUILD/crtfastmath.c"
case $(uname -m) in
x86_64|i?86)
   if gcc -std=c99 -O2 -I. -c "$ABUILD/crtfastmath.c" -o "$ABUILD/crtfastmath.o" 2>"$ABUILD/crtfastmath.log" &&
      gcc -ffast-math "$ABUILD/crtfastmath.o" -o "$ABUILD/crtfastmath" 2>>"$ABUILD/crtfastmath.log" &&
      gcc "$ABUILD/crtfastmath.o" -o "$ABUILD/crtfastmath_plain" 2>>"$ABUILD/crtfastmath.log"; then
      api_out=$("$ABUILD/crtfastmath"); api_ref=$("$ABUILD/crtfastmath_plain")
      if [ "${api_out% *}" = "${api_ref% *}" ] && [ "${api_out##* }" = 8040 ] && [ "${api_ref##* }" = 0 ]; then
         say "PASS api fpu: a program linked with -ffast-math (crtfastmath.o: FTZ/DAZ) gets the plain program's bits (${api_out% *}), its FTZ/DAZ given back"
      else say "FAIL api fpu: linked with -ffast-math: '$api_out', plain: '$api_ref' (want the same code and digest, then 8040 and 0)"; fi
   else
      say "FAIL build api crtfastmath: $(head -c 400 "$ABUILD/crtfastmath.log" | tr '\n' ' ')"
   fi ;;
*) say "SKIP api fpu crtfastmath: not x86" ;;
esac

# the compile-time guards: each option that lets the compiler change float results stops
# the file that compiles the implementation at an #error that names the fix (gcc and clang
# define a macro for each of these; MSVC's /fp:fast defines _M_FP_FAST, given here by hand);
# a file with the declarations alone builds with them
printf '#define DROPOUT_IMPLEMENTATION\n#include "dropout.h"\nint main(void) { return 0; }\n' >"$ABUILD/plain.c"
printf '#include "dropout.h"\nint user(dropout_gen *g, const dropout_rule *r, dropout_plan *p, size_t n, float *y, const float *x);\nint user(dropout_gen *g, const dropout_rule *r, dropout_plan *p, size_t n, float *y, const float *x) { return dropout_forward_f32(g, r, p, n, y, NULL, x); }\n' >"$ABUILD/decls.c"
for api_g in "gcc -ffast-math|-ffast-math" "gcc -Ofast|-ffast-math" "gcc -ffinite-math-only|-ffinite-math-only" \
             "gcc -fno-signed-zeros|-fno-signed-zeros" "gcc -freciprocal-math|-freciprocal-math" \
             "gcc -funsafe-math-optimizations|-fno-" "clang -ffast-math|-ffast-math" "clang -ffinite-math-only|-ffinite-math-only" \
             "g++ -x c++ -ffast-math|-ffast-math" "gcc -D_M_FP_FAST|/fp:fast"; do
   api_cmd=${api_g%%|*}; api_want=${api_g#*|}; api_cc=${api_cmd%% *}
   if ! command -v "$api_cc" >/dev/null 2>&1; then say "SKIP api guard [$api_cmd]: no $api_cc"; continue; fi
   if $api_cmd -I. -fsyntax-only "$ABUILD/plain.c" >"$ABUILD/guard.log" 2>&1; then
      say "FAIL api guard [$api_cmd]: the implementation built"
   elif grep -q '#error' "$ABUILD/guard.log" && grep -q -- "$api_want" "$ABUILD/guard.log"; then
      say "PASS api guard [$api_cmd]: the implementation is refused by an #error that names the fix"
   else
      say "FAIL api guard [$api_cmd]: failed without the #error: $(head -c 300 "$ABUILD/guard.log" | tr '\n' ' ')"
   fi
   if $api_cmd -std=c99 -Wall -Wextra -Werror -I. -c "$ABUILD/decls.c" -o "$ABUILD/decls.o" >"$ABUILD/guard.log" 2>&1 ||
      { [ "$api_cc" = g++ ] && $api_cmd -std=c++11 -Wall -Wextra -Werror -I. -c "$ABUILD/decls.c" -o "$ABUILD/decls.o" >"$ABUILD/guard.log" 2>&1; }; then
      say "PASS api guard [$api_cmd]: a file with the declarations alone builds"
   else
      say "FAIL api guard [$api_cmd]: a file with the declarations alone is refused: $(head -c 300 "$ABUILD/guard.log" | tr '\n' ' ')"
   fi
done

# -fsingle-precision-constant (no macro: every unsuffixed constant a float; the normals'
# bits changed) stops the implementation at the array of negative size that names it
if command -v gcc >/dev/null 2>&1; then
   if gcc -fsingle-precision-constant -I. -fsyntax-only "$ABUILD/plain.c" >"$ABUILD/guard.log" 2>&1; then
      say "FAIL api guard [gcc -fsingle-precision-constant]: the implementation built"
   elif grep -q 'dropout__build_the_implementation_without_fsingle_precision_constant' "$ABUILD/guard.log"; then
      say "PASS api guard [gcc -fsingle-precision-constant]: the implementation is refused, at a name that says why"
   else
      say "FAIL api guard [gcc -fsingle-precision-constant]: failed otherwise: $(head -c 300 "$ABUILD/guard.log" | tr '\n' ' ')"
   fi
else
   say "SKIP api guard [gcc -fsingle-precision-constant]: no gcc"
fi

# DROPOUT_ROW_CHUNK (the walker's chunk, for small stacks) changes no bit: rows of 1001
# elements through every chunked path, at the default 256 and at 64 (-O1: two builds of
# the implementation, kept short)
api_rc_flags="-std=c99 -O1 $WARN"
if $CC $api_rc_flags -I. tests/api/row_chunk.c -o "$ABUILD/row_chunk" -lm 2>"$ABUILD/row_chunk.build.log" &&
      "$ABUILD/row_chunk" >"$ABUILD/row_chunk.256" 2>&1; then
   api_rc_ok=1
   for api_ch in 64; do
      if $CC $api_rc_flags -DDROPOUT_ROW_CHUNK=$api_ch -I. tests/api/row_chunk.c -o "$ABUILD/row_chunk_$api_ch" -lm \
            2>>"$ABUILD/row_chunk.build.log" && "$ABUILD/row_chunk_$api_ch" >"$ABUILD/row_chunk.$api_ch" 2>&1 &&
         cmp -s "$ABUILD/row_chunk.256" "$ABUILD/row_chunk.$api_ch"; then :
      else
         api_rc_ok=0
         say "FAIL api DROPOUT_ROW_CHUNK=$api_ch: other bits than the default's: $(diff "$ABUILD/row_chunk.256" "$ABUILD/row_chunk.$api_ch" 2>&1 | head -3 | tr '\n' ' ')"
      fi
   done
   if [ $api_rc_ok = 1 ] && ! grep -v ': rc 0 ' "$ABUILD/row_chunk.256" | grep -vq '^cases '; then
      say "PASS api DROPOUT_ROW_CHUNK: 64 gives the default's bits, $(tail -1 "$ABUILD/row_chunk.256") of rows longer than a chunk"
   elif [ $api_rc_ok = 1 ]; then
      say "FAIL api DROPOUT_ROW_CHUNK: a case returned an error: $(grep -v ': rc 0 ' "$ABUILD/row_chunk.256" | head -2 | tr '\n' ' ')"
   fi
else
   say "FAIL build api row_chunk: $(head -c 600 "$ABUILD/row_chunk.build.log" | tr '\n' ' ')"
fi

# -fpack-struct or #pragma pack(1) around the include, in any file: the public structs would
# be shorter than the implementation's (dropout_desc_init wrote past a descriptor), so the
# file stops at the typedef that names the flag
printf '#include "dropout.h"\nint f(void);\nint f(void) { return 0; }\n' >"$ABUILD/pack.c"
printf '#pragma pack(push, 1)\n#include "dropout.h"\n#pragma pack(pop)\n' >"$ABUILD/pack_pragma.c"
for api_g in "gcc -fpack-struct|pack.c" "clang -fpack-struct|pack.c" "g++ -x c++ -std=c++11 -fpack-struct|pack.c" "gcc|pack_pragma.c" "clang|pack_pragma.c"; do
   api_cmd=${api_g%%|*}; api_file=${api_g#*|}; api_cc=${api_cmd%% *}
   if ! command -v "$api_cc" >/dev/null 2>&1; then say "SKIP api guard [$api_cmd $api_file]: no $api_cc"; continue; fi
   # shellcheck disable=SC2086 # api_cmd is a command and its flags
   if $api_cmd -I. -fsyntax-only "$ABUILD/$api_file" >"$ABUILD/pack.log" 2>&1; then
      say "FAIL api guard [$api_cmd $api_file]: a packed file built"
   elif grep -q 'dropout__every_file_needs_the_natural_struct_layout_not_fpack_struct' "$ABUILD/pack.log"; then
      say "PASS api guard [$api_cmd $api_file]: refused, at a name that says why"
   else
      say "FAIL api guard [$api_cmd $api_file]: failed otherwise: $(head -c 300 "$ABUILD/pack.log" | tr '\n' ' ')"
   fi
done

# -fsingle-precision-constant in a user's file (the implementation refuses it): the inline
# building blocks compiled there give a plain file's bits (their double constants are
# integers divided exactly); before, the alpha rule and some normals changed
if command -v gcc >/dev/null 2>&1; then
   if gcc -std=c99 -O1 -I. -Itests/api -c tests/api/spc_ref.c -o "$ABUILD/spc_ref.o" 2>"$ABUILD/spc.build.log" &&
         gcc -std=c99 -O1 -fsingle-precision-constant -I. -Itests/api tests/api/spc_user.c "$ABUILD/spc_ref.o" \
            -o "$ABUILD/spc_user" -lm 2>>"$ABUILD/spc.build.log"; then
      run_prog api_spc_user "$ABUILD/spc_user"
   else
      say "FAIL build api spc_user: $(head -c 600 "$ABUILD/spc.build.log" | tr '\n' ' ')"
   fi
else
   say "SKIP api -fsingle-precision-constant user file: no gcc"
fi

# clang's fast-math parts that define no macro (-ffast-math -fno-finite-math-only has them
# all; -funsafe-math-optimizations): the header's code is in clang's precise mode, so the
# implementation built with them (its 0.1 calls too) gives tests/xarch/digest.c's hashes of
# a plain build, the rest of digest.c built plain in a file of its own (under those flags
# digest.c's own float loops would change: that is the user's code). The header before
# the precise mode changed the alpha and fused hashes here.
if command -v clang >/dev/null 2>&1; then
   printf '#define DROPOUT_V0_API\n#define DROPOUT_DISABLE_DEPRECATE_WARNINGS\n#define DROPOUT_IMPLEMENTATION\n#include "dropout.h"\n' >"$ABUILD/xd_impl.c"
   if clang -std=c99 -O1 -I. -DXD_IMPLEMENTATION_ELSEWHERE -c tests/xarch/digest.c -o "$ABUILD/xd_user.o" 2>"$ABUILD/xd.log" &&
      clang -std=c99 -O1 -I. -c "$ABUILD/xd_impl.c" -o "$ABUILD/xd_impl.o" 2>>"$ABUILD/xd.log" &&
      clang "$ABUILD/xd_user.o" "$ABUILD/xd_impl.o" -o "$ABUILD/xd_plain" -lm 2>>"$ABUILD/xd.log"; then
      api_ref=$("$ABUILD/xd_plain" | tr '\n' ' ')
      for api_f in "-ffast-math -fno-finite-math-only" "-funsafe-math-optimizations"; do
         # shellcheck disable=SC2086 # api_f is a flag list
         if clang -std=c99 -O1 $api_f -I. -c "$ABUILD/xd_impl.c" -o "$ABUILD/xd_impl_f.o" 2>"$ABUILD/xd.log" &&
            clang "$ABUILD/xd_user.o" "$ABUILD/xd_impl_f.o" -o "$ABUILD/xd_fast" -lm 2>>"$ABUILD/xd.log"; then
            api_got=$("$ABUILD/xd_fast" | tr '\n' ' ')
            if [ "$api_got" = "$api_ref" ]; then
               say "PASS api guard [clang $api_f]: no macro to refuse, and the implementation built with it gives every hash of the plain build (${api_ref##*total })"
            else
               say "FAIL api guard [clang $api_f]: the implementation built with it gives other bits: $api_got (plain: $api_ref)"
            fi
         else
            say "FAIL api guard [clang $api_f]: the implementation does not build: $(head -c 300 "$ABUILD/xd.log" | tr '\n' ' ')"
         fi
      done
   else
      say "FAIL build api digest (clang, plain): $(head -c 300 "$ABUILD/xd.log" | tr '\n' ' ')"
   fi
else
   say "SKIP api guard [clang's fast-math parts]: no clang"
fi

# without DROPOUT_V0_API the 0.1.0 calls are gone (and with it they build: the tests/*.c)
printf '#include "dropout.h"\nint f(float *y, const float *x, size_t n) { return dropout_forward_f32(y, NULL, x, n, 0.1, 8, 1234, 0, 0); }\n' >"$ABUILD/v0_gone.c"
if $CC -std=c99 $WARN -I. -fsyntax-only "$ABUILD/v0_gone.c" >"$ABUILD/v0_gone.log" 2>&1; then
   say "FAIL api v0: a 0.1.0 call compiled without DROPOUT_V0_API"
else
   say "PASS api v0: a 0.1.0 call does not compile without DROPOUT_V0_API"
fi

# strict C++ users: the headers (declarations, and the implementations too) are clean under
# clang++ -Wold-style-cast -Wzero-as-null-pointer-constant (and, where clang has them,
# -Wreserved-identifier -Wreserved-macro-identifier: C++ reserves every name with "__",
# dropout__ ones too) and g++ -Wuseless-cast, -Werror; dropout_opencl.h too where the
# OpenCL headers are installed
printf '#define DROPOUT_IMPLEMENTATION\n#include "dropout.h"\nint main(void) { return 0; }\n' >"$ABUILD/impl.cpp"
printf '#include "dropout.h"\nint main(void) { return 0; }\n' >"$ABUILD/plain.cpp"
printf '#define DROPOUT_IMPLEMENTATION\n#define DROPOUT_OPENCL_IMPLEMENTATION\n#include "dropout_opencl.h"\nint main(void) { return 0; }\n' >"$ABUILD/ocl_impl.cpp"
printf '#include "dropout_opencl.h"\nint main(void) { return 0; }\n' >"$ABUILD/ocl_plain.cpp"
api_files="plain impl"
if printf '#include <CL/cl.h>\n' | ${CXX:-c++} -x c++ -fsyntax-only - >/dev/null 2>&1; then api_files="$api_files ocl_plain ocl_impl"
else say "SKIP api c++ strict [dropout_opencl.h]: no OpenCL headers (apt-get install opencl-c-headers)"; fi
api_reserved=""
if command -v clang++ >/dev/null 2>&1 &&
   printf 'int x;\n' | clang++ -x c++ -Wreserved-identifier -Wreserved-macro-identifier -Werror -fsyntax-only - >/dev/null 2>&1; then
   api_reserved=" -Wreserved-identifier -Wreserved-macro-identifier"
fi
for api_x in "clang++ -Wold-style-cast -Wzero-as-null-pointer-constant$api_reserved" "g++ -Wuseless-cast -Wold-style-cast -Wzero-as-null-pointer-constant"; do
   api_cc=${api_x%% *}
   if ! command -v "$api_cc" >/dev/null 2>&1; then say "SKIP api c++ strict [$api_x]: no $api_cc"; continue; fi
   for api_f in $api_files; do
      for api_v0 in "" "-DDROPOUT_V0_API"; do
         case $api_f-$api_v0 in ocl_*-?*) continue ;; esac   # (the 0.1 calls: dropout.h's alone)
         if $api_x -std=c++11 -Wall -Wextra -Wpedantic -Werror $api_v0 -I. -c "$ABUILD/$api_f.cpp" -o "$ABUILD/strict.o" \
               >"$ABUILD/strict.log" 2>&1; then
            say "PASS api c++ strict [$api_x $api_v0, $api_f]"
         else
            say "FAIL api c++ strict [$api_x $api_v0, $api_f]: $(grep -c 'error:' "$ABUILD/strict.log") errors: $(head -c 300 "$ABUILD/strict.log" | tr '\n' ' ')"
         fi
      done
   done
   # the warnings are off inside the headers only: a C cast of the user's own (and a name
   # of the user's with "__", where that warning is on) is still caught
   for api_h in dropout.h dropout_opencl.h; do
      case $api_h in dropout_opencl.h) case " $api_files " in *" ocl_plain "*) ;; *) continue ;; esac ;; esac
      printf '#include "%s"\nint user_cast(double d) { return (int)d; }\n' "$api_h" >"$ABUILD/after.cpp"
      if $api_x -std=c++11 -Werror -I. -c "$ABUILD/after.cpp" -o "$ABUILD/strict.o" >"$ABUILD/strict.log" 2>&1; then
         say "FAIL api c++ strict [$api_x]: the user's own old-style cast after $api_h was not reported"
      else
         say "PASS api c++ strict [$api_x]: the user's own old-style cast after $api_h is still reported"
      fi
   done
   case $api_x in *-Wreserved-identifier*)
      printf '#include "dropout.h"\nint user__count;\n' >"$ABUILD/after.cpp"
      if $api_x -std=c++11 -Werror -I. -c "$ABUILD/after.cpp" -o "$ABUILD/strict.o" >"$ABUILD/strict.log" 2>&1; then
         say "FAIL api c++ strict [$api_x]: the user's own reserved name (user__count) after the include was not reported"
      else
         say "PASS api c++ strict [$api_x]: the user's own reserved name (user__count) after the include is still reported"
      fi ;;
   esac
done
