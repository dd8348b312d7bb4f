#!/bin/sh
# tests/run.sh - the test runner behind `make test` (the layout: tests/README.md).
#   sh tests/run.sh            every area
#   sh tests/run.sh NAME...    only these: an area (a folder tests/NAME/: all of it) or a
#                              test (a file tests/*/test_NAME.c: that file alone);
#                              `make test T="NAME..."` is the same
# The rule: for each area, every tests/<area>/test_*.c is built with
# `$CC $CFLAGS_TEST -I. -Itests` and run; then tests/<area>/suite.sh, if there is one, is
# sourced (with tests/lib.sh's say, build, run_prog, $CC, $BUILD, $WARN, $CFLAGS_TEST) and
# runs everything else of the area. tests/layout/suite.sh fails on a file that looks like a
# test (test_*, *_test.*) that neither way runs. The areas run on two lanes (run_side
# below); TEST_LANES=1 runs them in one, in name order.
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

# run_one_area AREA: the rule for one area: its test_*.c, then its suite, then its seconds
run_one_area() {
   run_area=$1; run_t0=$(date +%s)
   for run_src in tests/"$run_area"/test_*.c; do
      [ -e "$run_src" ] && run_c_test "$run_src" "$run_area"
   done
   if [ -f "tests/$run_area/suite.sh" ]; then . "./tests/$run_area/suite.sh"; fi
   # (so that a slow area shows in CI's log: make test should stay under ten minutes)
   echo "    ($run_area: $(($(date +%s) - run_t0)) s)"
}

# The second lane: these areas wait for none of the background builds started above (cuda,
# simd and xarch do, by process id, which only this shell can wait for), and none writes what
# another reads, so they run in a subshell beside the others: one at a time, each into its
# own output and result files, shown in order as they finish. On two cores one lane left a
# core idle for the last five minutes. variants runs in the first lane: with nvcc's builds
# about 55 s of CPU lighter, the second lane ran some 110 s past the first. TEST_LANES=1:
# every area in this shell, in name order.
run_side="docs examples fuzz mpi octave opencl python tutorial v0 web webgpu"
# cuda goes last in its lane: it waits for nvcc's builds, the longest of the background
# ones, and the areas after it would otherwise run with the second lane done and a core idle
run_main=""; run_lane=""; run_last=""
for run_area in $run_areas; do
   case " $run_side " in
      *" $run_area "*) run_lane="$run_lane $run_area" ;;
      *) if [ "$run_area" = cuda ]; then run_last=cuda; else run_main="$run_main $run_area"; fi ;;
   esac
done
run_main="$run_main $run_last"
if [ "${TEST_LANES:-2}" = 1 ] || [ -z "${run_main# }" ] || [ -z "$run_lane" ]; then
   run_main=$run_areas; run_lane=""
fi
rm -rf "$BUILD/shared"   # what tests/lib.sh builds once a run (build_trainer)
run_lane_dir=$BUILD/lane
rm -rf "$run_lane_dir"; mkdir -p "$run_lane_dir"
if [ -n "$run_lane" ]; then
   (
      trap ': >"$run_lane_dir/.end"' EXIT   # also when a suite exits
      for run_area in $run_lane; do
         LOG=$run_lane_dir/$run_area.results; : >"$LOG"
         run_one_area "$run_area" >"$run_lane_dir/$run_area.out" 2>&1 </dev/null
         : >"$run_lane_dir/$run_area.done"
      done
   ) &
fi
run_shown=""
# run_show_lane [wait]: print the second lane's finished areas, in its order, and count
# their results; with "wait", wait for each in turn
run_show_lane() {
   for run_a in $run_lane; do
      case " $run_shown " in *" $run_a "*) continue ;; esac
      if [ ! -e "$run_lane_dir/$run_a.done" ]; then
         [ "${1:-}" = wait ] || return 0
         while [ ! -e "$run_lane_dir/$run_a.done" ] && [ ! -e "$run_lane_dir/.end" ]; do sleep 1; done
      fi
      if [ ! -e "$run_lane_dir/$run_a.done" ]; then   # the lane ended inside this area
         cat "$run_lane_dir/$run_a.out" 2>/dev/null; cat "$run_lane_dir/$run_a.results" >>"$LOG" 2>/dev/null
         say "FAIL run.sh: area $run_a did not finish (its lane ended early: a suite that exits?)"
         run_shown="$run_shown $run_a"; continue
      fi
      cat "$run_lane_dir/$run_a.out"; cat "$run_lane_dir/$run_a.results" >>"$LOG"
      run_shown="$run_shown $run_a"
   done
}

for run_src in $run_tests; do
   run_a=${run_src#tests/}; run_c_test "$run_src" "${run_a%%/*}"
done
for run_area in $run_main; do
   run_one_area "$run_area"
   run_show_lane
done
run_show_lane wait

tally
