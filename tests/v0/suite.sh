# covers: the way across for 0.1 code: 0.1.0 programs built unchanged with DROPOUT_V0_API (dropout_v0.h),
#         and not without it; every 0.1 call over a grid of arguments; the deprecation warnings
# oracle: their output under 0.1.0, frozen in tests/v0/*.expected (a hash of every output); grid.expected
#         frozen from the header that held the 0.1 calls inside it; the compiler's own warning text
# needs: $CC only; tests/v0/api-0.1.0.txt lists the 0.1 functions that CHANGELOG must move
#
# tests/v0/basic.c and train_loop.c are examples/basic.c and examples/train_loop.c as they
# were in 0.1.0, byte for byte; calls.c makes one call of every 0.1 kind. Each must compile
# unchanged with DROPOUT_V0_API defined (here on the command line, so the files stay as
# 0.1 wrote them) and print exactly what it printed with 0.1.0. Without DROPOUT_V0_API the
# 0.1 calls are gone: the same program must not compile. The 0.1 calls are deprecated:
# these builds silence that on the command line (DROPOUT_DISABLE_DEPRECATE_WARNINGS), and
# the end of this file checks that without it the compiler names the 1.0 call to use.
# grid.c (not a 0.1.0 program: it names the dropout_v0_ functions) hashes every 0.1 call
# over edge cases (NaN p, the stream's end, empty shapes, NULLs), codes included. codes.c:
# where the 1.0 calls underneath name a mistake more closely (overlap, a count no buffer
# holds), the 0.1 calls still return 0.1.0's DROPOUT_ERR_ARG, and write nothing.

v0_dir=$BUILD/v0
rm -rf "$v0_dir"
mkdir -p "$v0_dir"
for v0_prog in basic calls train_loop grid codes; do
   v0_src=tests/v0/$v0_prog.c
   v0_args=""
   [ $v0_prog = train_loop ] && v0_args="--check --ckpt $v0_dir/train_loop.ckpt"
   if ! $CC -std=c99 -O2 $WARN -ffp-contract=off -DDROPOUT_V0_API -DDROPOUT_DISABLE_DEPRECATE_WARNINGS -I. "$v0_src" -o "$v0_dir/$v0_prog" \
         >"$v0_dir/$v0_prog.build.log" 2>&1; then
      say "FAIL v0 $v0_prog: a 0.1 program does not compile with DROPOUT_V0_API: $(head -c 500 "$v0_dir/$v0_prog.build.log" | tr '\n' ' ')"
      continue
   fi
   # the program's own PASS lines are part of its output, not results of this suite
   "$v0_dir/$v0_prog" $v0_args >"$v0_dir/$v0_prog.out" 2>&1
   v0_rc=$?
   if [ $v0_rc -eq 0 ] && cmp -s "tests/v0/$v0_prog.expected" "$v0_dir/$v0_prog.out"; then
      say "PASS v0 $v0_prog: 0.1 code compiles with DROPOUT_V0_API and prints what 0.1.0 printed ($(wc -l <"$v0_dir/$v0_prog.out") lines)"
   else
      say "FAIL v0 $v0_prog: exit $v0_rc; output differs from 0.1.0 (diff tests/v0/$v0_prog.expected $v0_dir/$v0_prog.out): $(diff "tests/v0/$v0_prog.expected" "$v0_dir/$v0_prog.out" | head -n 4 | tr '\n' ' ')"
   fi
done

# the header included twice, the declarations first and the implementation later (a
# project header that includes dropout.h, then the implementation file): the 0.1 names
# must not rename the 1.0 definitions, and the 0.1 calls still give 0.1.0's bits
printf '#include "dropout.h"\n#include "tests/v0/calls.c"\n' >"$v0_dir/twice.c"
if $CC -std=c99 -O2 $WARN -ffp-contract=off -DDROPOUT_V0_API -DDROPOUT_DISABLE_DEPRECATE_WARNINGS -I. "$v0_dir/twice.c" \
      -o "$v0_dir/twice" >"$v0_dir/twice.build.log" 2>&1 && "$v0_dir/twice" >"$v0_dir/twice.out" 2>&1 &&
   cmp -s tests/v0/calls.expected "$v0_dir/twice.out"; then
   say "PASS v0 calls, declarations then implementation: the 1.0 definitions keep their names, 0.1.0's output"
else
   say "FAIL v0 calls, declarations then implementation: $(head -c 400 "$v0_dir/twice.build.log" | tr '\n' ' ')"
fi

# without the define, the 0.1 spelling (seed, stream and offset as loose integers) is gone
if $CC -std=c99 -O2 $WARN -I. tests/v0/calls.c -o "$v0_dir/calls_new" >"$v0_dir/calls_new.build.log" 2>&1; then
   say "FAIL v0: tests/v0/calls.c (0.1 calls) compiles without DROPOUT_V0_API: the old spelling is not gone"
else
   say "PASS v0: without DROPOUT_V0_API the 0.1 calls do not compile ($(grep -c 'error' "$v0_dir/calls_new.build.log") errors)"
fi

# CHANGELOG's 0.9.0 table names every 0.1 public function (tests/v0/api-0.1.0.txt), by name
# or as its dtype family (dropout_forward_T for dropout_forward_f32 ...)
v0_cl=$v0_dir/changelog-0.9.0.md
sed -n '/^## 0\.9\.0/,/^### Also in 0\.9\.0/p' CHANGELOG.md >"$v0_cl"
v0_missing=""
v0_count=0
for v0_name in $(grep -v '^#' tests/v0/api-0.1.0.txt); do
   v0_count=$((v0_count + 1))
   v0_family=$(echo "$v0_name" | sed -E 's/_(f32|f64|f16|bf16)(_state)?$/_T\2/')
   grep -q -e "\`$v0_name[\`(]" -e "\`$v0_family[\`(]" -e "\`$v0_name\`" "$v0_cl" || v0_missing="$v0_missing $v0_name"
done
if [ ! -s "$v0_cl" ]; then
   say "FAIL v0: CHANGELOG.md has no '## 0.9.0' section"
elif [ -z "$v0_missing" ]; then
   say "PASS v0: CHANGELOG's 0.9.0 table says how to move each of the $v0_count public 0.1 functions"
else
   say "FAIL v0: CHANGELOG's 0.9.0 table lacks these 0.1 functions:$v0_missing"
fi

# the 0.1 calls are deprecated, each naming its 1.0 call: a use warns (gcc and clang, C and
# C++), the message names the replacement, and DROPOUT_DISABLE_DEPRECATE_WARNINGS silences it
printf '#define DROPOUT_V0_API\n#include "dropout.h"\nint f(float *y, const float *x, size_t n) { return dropout_forward_f32(y, NULL, x, n, 0.1, 8, 1234, 0, 0); }\nint g(uint16_t *y, const uint16_t *x, size_t n) { return dropout_gaussian_forward_f16(y, x, n, 0.1, 1, 2, 3); }\n' >"$v0_dir/deprecated.c"
cp "$v0_dir/deprecated.c" "$v0_dir/deprecated.cpp"
for v0_cc in gcc clang g++ clang++; do
   if ! command -v $v0_cc >/dev/null 2>&1; then say "SKIP v0 deprecated [$v0_cc]: not installed"; continue; fi
   case $v0_cc in *++) v0_std="-std=c++11"; v0_f=deprecated.cpp ;; *) v0_std="-std=c99"; v0_f=deprecated.c ;; esac
   $v0_cc $v0_std -Wall -Wextra -Wpedantic -I. -fsyntax-only "$v0_dir/$v0_f" >"$v0_dir/deprecated.$v0_cc.log" 2>&1
   v0_quiet=$($v0_cc $v0_std -Wall -Wextra -Wpedantic -Werror -DDROPOUT_DISABLE_DEPRECATE_WARNINGS -I. -fsyntax-only "$v0_dir/$v0_f" 2>&1 && echo ok)
   if grep -q "dropout_v0_forward_f32.*deprecated.*use dropout_forward_f32(&g, &rule, &plan, n, y, mask, x)" "$v0_dir/deprecated.$v0_cc.log" &&
      grep -q "dropout_gaussian_forward_f16.*deprecated.*use dropout_run with DROPOUT_OP_GAUSSIAN" "$v0_dir/deprecated.$v0_cc.log" &&
      [ "$v0_quiet" = ok ]; then
      say "PASS v0 deprecated [$v0_cc]: a 0.1 call warns and names its 1.0 call; DROPOUT_DISABLE_DEPRECATE_WARNINGS silences it"
   else
      say "FAIL v0 deprecated [$v0_cc]: no warning naming the 1.0 call, or not silenced: $(head -c 400 "$v0_dir/deprecated.$v0_cc.log" | tr '\n' ' ') $v0_quiet"
   fi
done

# without dropout_v0.h beside dropout.h, DROPOUT_V0_API stops at an error that names it
mkdir -p "$v0_dir/alone"
cp dropout.h "$v0_dir/alone/"
if $CC -std=c99 -DDROPOUT_V0_API -I"$v0_dir/alone" -fsyntax-only "$v0_dir/deprecated.c" >"$v0_dir/alone.log" 2>&1; then
   say "FAIL v0: DROPOUT_V0_API compiled without dropout_v0.h"
elif grep -q "dropout_v0.h" "$v0_dir/alone.log"; then
   say "PASS v0: DROPOUT_V0_API without dropout_v0.h stops at an error naming it"
else
   say "FAIL v0: DROPOUT_V0_API without dropout_v0.h: the error does not name the file: $(head -c 300 "$v0_dir/alone.log" | tr '\n' ' ')"
fi

# the 0.1 files are written on the public calls: no private name of the headers in them
v0_private=$(grep -n -e 'dropout__' -e 'DROPOUT__' -e 'dropout_cuda__' -e 'DROPOUT_CUDA__' dropout_v0.h dropout_cuda_v0.cuh)
if [ -z "$v0_private" ]; then
   say "PASS v0: dropout_v0.h and dropout_cuda_v0.cuh name no private function, field or macro of the headers"
else
   say "FAIL v0: the 0.1 files use private names: $(echo "$v0_private" | head -n 3 | tr '\n' ' ')"
fi
