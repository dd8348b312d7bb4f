#!/bin/sh
# The test runner behind `make test`. It builds and runs every tests/test_*.c with the
# default compiler, then sources each tests/suite_*.sh (build matrices, SIMD builds, nvcc,
# tutorial snippets ...). Every check prints PASS/FAIL/SKIP lines; this script counts them
# and ends with "N passed, M failed, K skipped". Exit status: 0 only when nothing failed.
set -u
cd "$(dirname "$0")/.." || exit 1

CC=${CC:-cc}
BUILD=${BUILD:-build/tests}
WARN="-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror"
CFLAGS_TEST=${CFLAGS_TEST:-"-std=c99 -O2 $WARN"}
LOG=$BUILD/run.log
mkdir -p "$BUILD"
: >"$LOG"

# say LINE: print a result line and keep it for the count
say() { echo "$1"; echo "$1" >>"$LOG"; }

# run_prog NAME CMD...: run a test program, pass its lines through, and turn a crash or a
# non-zero exit without any FAIL line into a FAIL of its own.
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

# build NAME CMD...: a compile that is itself a check
build() {
   name=$1; shift
   if "$@" >"$BUILD/$name.build.log" 2>&1; then say "PASS build $name"
   else say "FAIL build $name: $(head -c 600 "$BUILD/$name.build.log" | tr '\n' ' ')"; fi
}

# sh tests/run.sh NAME...: only the suites (tests/suite_NAME.sh, tests/NAME/suite.sh) and
# tests (tests/test_NAME.c) named; no names = everything
ONLY=" $* "
want() { [ "$ONLY" = "  " ] || case "$ONLY" in *" $1 "*) true;; *) false;; esac; }

# the cross-architecture and x86-matrix builds start now, in the background: they fill the
# core that the one-at-a-time builds below leave idle (suite_xarch.sh, suite_simd.sh wait)
if want xarch || want simd; then . ./tests/xarch/start.sh; fi

for src in tests/test_*.c; do
   [ -e "$src" ] || continue
   want "$(basename "$src" .c | sed 's/^test_//')" || continue
   t=$(basename "$src" .c)
   if $CC $CFLAGS_TEST -I. "$src" -o "$BUILD/$t" 2>"$BUILD/$t.build.log"; then
      run_prog "$t" "$BUILD/$t"
   else
      say "FAIL build $t: $(head -c 600 "$BUILD/$t.build.log" | tr '\n' ' ')"
   fi
done

for suite in tests/suite_*.sh tests/*/suite.sh; do
   [ -e "$suite" ] || continue
   case $suite in tests/suite_*) sn=$(basename "$suite" .sh | sed 's/^suite_//');; *) sn=$(basename "$(dirname "$suite")");; esac
   want "$sn" || continue
   . "./$suite"
done

pass=$(grep -c '^PASS ' "$LOG")
fail=$(grep -c '^FAIL ' "$LOG")
skip=$(grep -c '^SKIP ' "$LOG")
if [ "$fail" -gt 0 ]; then
   echo; echo "failures:"; grep '^FAIL ' "$LOG"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
