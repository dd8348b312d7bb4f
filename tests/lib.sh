# tests/lib.sh - what tests/run.sh and tests/check.sh give every suite (sourced, not run).
#   say LINE              print a result line and keep it for the count: PASS name,
#                         FAIL name: why, SKIP name: why (a missing optional peer)
#   build NAME CMD...     a compile: "BUILD ok NAME" (counted apart from the checks) or
#                         "FAIL build NAME: its first errors"
#   run_prog NAME CMD...  run a test program: its PASS/FAIL/SKIP lines count, its other
#                         output is shown indented; a crash or a non-zero exit without a
#                         FAIL line is a FAIL of its own, and so is a program that prints
#                         no result
#   build_trainer NAME OUT  examples/train_mlp.c as `make demo` builds it (once a run)
#   tally                 the closing lines; the last is "N passed, M failed, K skipped"
#   $CC  $WARN  $CFLAGS_TEST (= -std=c99 -O2 $WARN)  $BUILD (outputs: $BUILD/<area>/)
# C tests include "dropout.h" and "check.h", built with -I. -Itests from the repository root.
# Tools' output is read in the C locale, whatever the user's: awk and printf write 0.5 and not
# 0,5, and compilers' messages are searched for their English words (under LANG=de_DE.UTF-8
# two docs checks had read "1,000000"). The C programs under test print the same in any
# locale: none calls setlocale.
LC_ALL=C; export LC_ALL
CC=${CC:-cc}
BUILD=${BUILD:-build/tests}
WARN="-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror"
CFLAGS_TEST=${CFLAGS_TEST:-"-std=c99 -O2 $WARN"}
LOG=$BUILD/run.log
mkdir -p "$BUILD"
: >"$LOG"

# A build is not a behaviour: "PASS build x" (the spelling before BUILD lines) becomes
# "BUILD ok x", so that the closing line counts checks alone.
say() {
   case $1 in "PASS build "*) set -- "BUILD ok ${1#PASS build }" ;; esac
   echo "$1"; echo "$1" >>"$LOG"
}

run_prog() {
   name=$1; shift
   out=$BUILD/$name.out
   "$@" >"$out" 2>&1
   rc=$?
   grep -E '^(PASS|FAIL|SKIP) ' "$out" >>"$LOG"
   grep -vE '^(PASS|FAIL|SKIP) ' "$out" | sed 's/^/    /'
   grep -E '^(PASS|FAIL|SKIP) ' "$out"
   if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$out"; then
      say "FAIL $name: exited with status $rc"
   fi
   if ! grep -qE '^(PASS|FAIL|SKIP) ' "$out" && [ $rc -eq 0 ]; then
      say "FAIL $name: printed no result"
   fi
}

build() {
   name=$1; shift
   if "$@" >"$BUILD/$name.build.log" 2>&1; then say "BUILD ok $name"
   else say "FAIL build $name: $(head -c 600 "$BUILD/$name.build.log" | tr '\n' ' ')"; fi
}

# build_trainer NAME OUT: examples/train_mlp.c built as `make demo` builds it, copied to OUT,
# said like build's NAME. Four areas run it (docs, examples, mpi, tutorial); the compile
# (about 5 s of CPU) is done once a run, in $BUILD/shared/ (emptied by tests/run.sh).
build_trainer() {
   mkdir -p "$BUILD/shared"
   # the areas that call it may run at once (tests/run.sh's two workers): the first builds,
   # the others wait for it (a mkdir lock)
   until mkdir "$BUILD/shared/train_mlp.lock" 2>/dev/null; do sleep 1; done
   if [ ! -e "$BUILD/shared/train_mlp.rc" ]; then
      $CC -std=c99 -O2 $WARN -ffp-contract=off -I. examples/train_mlp.c -o "$BUILD/shared/train_mlp" \
         -lpthread -lm >"$BUILD/shared/train_mlp.build.log" 2>&1
      echo $? >"$BUILD/shared/train_mlp.rc"
   fi
   rmdir "$BUILD/shared/train_mlp.lock"
   rm -f "$2"
   if [ "$(cat "$BUILD/shared/train_mlp.rc")" = 0 ] && cp "$BUILD/shared/train_mlp" "$2"; then say "BUILD ok $1"
   else say "FAIL build $1: $(head -c 600 "$BUILD/shared/train_mlp.build.log" | tr '\n' ' ')"; fi
}

tally() {
   pass=$(grep -c '^PASS ' "$LOG")
   fail=$(grep -c '^FAIL ' "$LOG")
   skip=$(grep -c '^SKIP ' "$LOG")
   builds=$(grep -c '^BUILD ok ' "$LOG")
   if [ "$fail" -gt 0 ]; then
      echo; echo "failures:"; grep '^FAIL ' "$LOG"
   fi
   echo "$builds builds ok (not counted below)"
   echo "$pass passed, $fail failed, $skip skipped"
   [ "$fail" -eq 0 ]
}
