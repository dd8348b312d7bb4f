# covers: docs/TUTORIAL.md: every C snippet, its quoted output, its picture; the trainer's claims
# oracle: the snippets' own checks and printed lines; the trainer's hashes compared run to run
# needs: cc; optional nvcc + g++ (else SKIP); the picture is tests/tutorial/test_tutorial_picture.c
# 1. Every ```c block of docs/TUTORIAL.md is a complete program, announced by a line
#    <!-- snippet: NAME --> just before it. Each is extracted, compiled with $WARN and run;
#    it must exit 0 (the snippets check their own claims and return 1 when one is false).
#    A ```c block without a marker is a FAIL: nothing in the tutorial goes untested.
#    The output quoted right after a snippet must be what it prints.
# 2. The trainer's reproducibility claims, in its quick mode with 3 threads.
# 3. The GPU trainer, where a GPU is (nvidia-smi answers): built with nvcc, warnings as
#    errors, and run. Without one, tests/cuda builds it (nvcc -Werror) and runs it to its
#    SKIP line: a second build here would take a minute of CPU to print the same line.

tut_dir=$BUILD/tutorial
rm -rf "$tut_dir"
mkdir -p "$tut_dir"

# 3.'s nvcc build (half a minute) starts first, in the background, under the snippets
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
tut_nv=""   # "": no nvcc; nogxx; nogpu; else the build's process id
if [ -x "$NVCC" ] || command -v "$NVCC" >/dev/null 2>&1; then
   if ! command -v g++ >/dev/null 2>&1; then tut_nv=nogxx
   elif ! nvidia-smi >/dev/null 2>&1; then tut_nv=nogpu
   else
      # (its own output: the cuda suite's build of the same program is tests/cuda/start.sh's)
      ( "$NVCC" -O2 -I. -Werror all-warnings -Xcompiler -Wall,-Wextra,-ffp-contract=off examples/train_mlp_cuda.cu \
           -o "$tut_dir/train_mlp_cuda" -lpthread >"$tut_dir/train_mlp_cuda.build.log" 2>&1
        echo $? >"$tut_dir/train_mlp_cuda.rc" ) &
      tut_nv=$!
   fi
fi

tut_blocks=$(grep -c '^```c$' docs/TUTORIAL.md)
tut_marked=$(awk '/^<!-- snippet: [a-z0-9_]+ -->$/ { m = 1; next }
                  /^```c$/ { if (m) n++; }
                  { m = 0 } END { print n + 0 }' docs/TUTORIAL.md)
if [ "$tut_blocks" -gt 0 ] && [ "$tut_blocks" -eq "$tut_marked" ]; then
   say "PASS tutorial: all $tut_blocks C snippets are marked runnable"
else
   say "FAIL tutorial: $tut_blocks C blocks but $tut_marked marked with <!-- snippet: name -->"
fi

awk -v dir="$tut_dir" '
   /^<!-- snippet: [a-z0-9_]+ -->$/ { name = $3; next }
   /^```c$/ && name != "" { out = dir "/" name ".c"; grab = 1; next }
   grab && /^```$/ { grab = 0; name = ""; close(out); next }
   grab { print > out; next }
   { name = "" }' docs/TUTORIAL.md

# -O1: each snippet compiles the whole library, and these check what a snippet prints, not
# how the library compiles (the digest matrix in tests/simd/ and tests/xarch/ builds that at
# -O2 on every path, and -O0); -O1 keeps gcc's flow warnings and halves the time (3.5 s to
# 1.8 s a snippet)
for src in "$tut_dir"/*.c; do
   [ -e "$src" ] || continue
   snip=$(basename "$src" .c)
   if $CC -std=c99 -O1 $WARN -I. "$src" -o "$tut_dir/$snip" >"$tut_dir/$snip.build.log" 2>&1; then
      if "$tut_dir/$snip" >"$tut_dir/$snip.out" 2>&1; then
         say "PASS tutorial snippet $snip"
      else
         say "FAIL tutorial snippet $snip: exit $?: $(tail -n 3 "$tut_dir/$snip.out" | tr '\n' ' ')"
      fi
   else
      say "FAIL tutorial snippet $snip: does not compile: $(head -c 400 "$tut_dir/$snip.build.log" | tr '\n' ' ')"
   fi
done

# A snippet's output quoted right after it (a blank line, then lines indented by 4 spaces)
# must be what it printed, line for line up to spacing; a quoted "..." stands for lines left
# out. So is a quote after one line of prose that ends with a colon (section 1's "It prints
# (...):"); a quote after a longer paragraph is not checked.
awk -v dir="$tut_dir" '
   /^<!-- snippet: [a-z0-9_]+ -->$/ { name = $3; next }
   /^```c$/ && name != "" { grab = 1; next }
   grab && /^```$/ { grab = 0; last = name; state = 1; quoted = 0; name = ""; next }
   grab { next }
   (state == 1 || state == 3) && /^$/ { state = 2; next }
   state == 2 && /^    / { print > (dir "/" last ".quoted"); quoted = 1; next }
   state == 2 && !quoted && /^[^ ].*:$/ { state = 3; next }
   { state = 0; name = "" }' docs/TUTORIAL.md
for q in "$tut_dir"/*.quoted; do
   [ -e "$q" ] || continue
   snip=$(basename "$q" .quoted)
   tut_norm() { sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e 's/[[:space:]][[:space:]]*/ /g' "$@"; }
   tut_norm "$tut_dir/$snip.out" >"$tut_dir/$snip.out.norm" 2>/dev/null
   tut_bad=$(tut_norm "$q" | grep -vx '\.\.\.' | while IFS= read -r line; do
      grep -qxF -e "$line" "$tut_dir/$snip.out.norm" || printf '[%s] ' "$line"; done)
   if [ -z "$tut_bad" ]; then say "PASS tutorial snippet $snip prints what the tutorial quotes"
   else say "FAIL tutorial snippet $snip: quoted but not printed: $tut_bad"; fi
done

# The trainer, built as `make demo` builds it, in quick mode (20 epochs, ~0.3 s).
build_trainer train_mlp "$BUILD/train_mlp"
if [ -x "$BUILD/train_mlp" ]; then
   "$BUILD/train_mlp" --quick --threads 3 >"$BUILD/train_mlp.out" 2>&1
   tm_rc=$?
   tm_check() {   # tm_check NAME PATTERN: one line of the output must match
      if grep -qE "$2" "$BUILD/train_mlp.out"; then say "PASS trainer: $1"
      else say "FAIL trainer: $1 (see $BUILD/train_mlp.out)"; fi
   }
   tm_check "same seed twice gives identical weights" '^  same seed, run again: +([0-9a-f]{16}) vs \1  max\|diff\| 0 +IDENTICAL  ok$'
   tm_check "1 thread and 3 threads give identical weights" '^  1 thread vs 3 threads: +([0-9a-f]{16}) vs \1  max\|diff\| 0 +IDENTICAL  ok$'
   tm_check "another seed gives different weights" '^  seed 1 vs seed 2: +[0-9a-f]{16} vs [0-9a-f]{16}  max\|diff\| [0-9.e+-]+ +DIFFERENT  ok$'
   if [ $tm_rc -eq 0 ] && grep -q '^  REPRODUCIBLE' "$BUILD/train_mlp.out"; then
      say "PASS trainer: --quick exits 0 and reports REPRODUCIBLE"
   else
      say "FAIL trainer: --quick exit $tm_rc"
   fi
fi

case $tut_nv in
   "") say "SKIP train_mlp_cuda: nvcc not found (set NVCC=...)" ;;
   nogxx) say "SKIP train_mlp_cuda: nvcc's host compiler g++ not found" ;;
   nogpu) say "SKIP train_mlp_cuda: no GPU here (nvidia-smi); tests/cuda builds it with nvcc -Werror and runs it to its SKIP" ;;
   *) wait "$tut_nv"
      if [ "$(cat "$tut_dir/train_mlp_cuda.rc" 2>/dev/null)" = 0 ] && [ -x "$tut_dir/train_mlp_cuda" ]; then
         say "BUILD ok train_mlp_cuda"
         run_prog train_mlp_cuda "$tut_dir/train_mlp_cuda" --epochs 30
      else
         say "FAIL build train_mlp_cuda: $(head -c 600 "$tut_dir/train_mlp_cuda.build.log" | tr '\n' ' ')"
      fi ;;
esac
