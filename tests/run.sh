#!/bin/sh
# tests/run.sh - the test runner behind `make test` (the layout: tests/README.md).
#   sh tests/run.sh            every area
#   sh tests/run.sh NAME...    only these: an area (a folder tests/NAME/: all of it) or a
#                              test (a file tests/*/test_NAME.c: that file alone);
#                              `make test T="NAME..."` is the same
# The rule: for each area, in name order, every tests/<area>/test_*.c is built with
# `$CC $CFLAGS_TEST -I. -Itests` and run; then tests/<area>/suite.sh, if there is one, is
# sourced (with tests/lib.sh's say, build, run_prog, $CC, $BUILD, $WARN, $CFLAGS_TEST) and
# runs everything else of the area. tests/layout/suite.sh fails on a file that looks like a
# test (test_*, *_test.*) that neither way runs.
# Checks print PASS / FAIL / SKIP lines, builds "BUILD ok" lines, counted apart; the last
# line is "N passed, M failed, K skipped". Exit status: 0 only when nothing failed.
set -u
cd "$(dirname "$0")/.." || exit 1
. ./tests/lib.sh

# what to run: areas (every test_*.c and the suite) and single tests (one test_*.c).
# Names here start with run_: the suites are sourced into this shell.
run_areas=""; run_tests=""
if [ $# -eq 0 ]; then
   for run_d in tests/*/; do run_d=${run_d%/}; run_areas="$run_areas ${run_d#tests/}"; done
fi
for run_arg in "$@"; do
   case $run_arg in
      ''|*/*|*' '*) say "FAIL run.sh '$run_arg': a name is an area or a test, not a path" ;;
      *) if [ -d "tests/$run_arg" ]; then run_areas="$run_areas $run_arg"
         elif ls tests/*/"test_$run_arg.c" >/dev/null 2>&1; then run_tests="$run_tests $(ls tests/*/"test_$run_arg.c")"
         else say "FAIL run.sh $run_arg: no area tests/$run_arg/ and no test tests/*/test_$run_arg.c"; fi ;;
   esac
done
run_has() { case " $run_areas " in *" $1 "*) true;; *) false;; esac; }

# run_c_test FILE: the rule's one build and run of a tests/<area>/test_*.c
run_c_test() {
   run_t=$(basename "$1" .c)
   mkdir -p "$BUILD/$2"
   # shellcheck disable=SC2086 # $CFLAGS_TEST is a flag list
   if $CC $CFLAGS_TEST -I. -Itests "$1" -o "$BUILD/$2/$run_t" >"$BUILD/$2/$run_t.build.log" 2>&1; then
      say "BUILD ok $run_t"
      run_prog "$run_t" "$BUILD/$2/$run_t"
   else
      say "FAIL build $run_t: $(head -c 600 "$BUILD/$2/$run_t.build.log" | tr '\n' ' ')"
   fi
}

# the cross-architecture and x86-matrix builds start now, in the background: they fill the
# core that the one-at-a-time builds below leave idle (the xarch and simd suites wait)
if run_has xarch || run_has simd; then . ./tests/xarch/start.sh; fi
# and nvcc's builds (tests/cuda/start.sh), niced, for the cuda suite to collect
if run_has cuda; then . ./tests/cuda/start.sh; fi

for run_src in $run_tests; do
   run_a=${run_src#tests/}; run_c_test "$run_src" "${run_a%%/*}"
done
for run_area in $run_areas; do
   run_t0=$(date +%s)
   for run_src in tests/"$run_area"/test_*.c; do
      [ -e "$run_src" ] && run_c_test "$run_src" "$run_area"
   done
   if [ -f "tests/$run_area/suite.sh" ]; then . "./tests/$run_area/suite.sh"; fi
   # (so that a slow area shows in CI's log: make test should stay under ten minutes)
   echo "    ($run_area: $(($(date +%s) - run_t0)) s)"
done

tally
