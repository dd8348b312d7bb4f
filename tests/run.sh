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
# test (test_*, *_test.*) that neither way runs. The areas run on two workers (run_pool
# below); TEST_LANES=1 runs them in one, in name order.
# Checks print PASS / FAIL / SKIP lines, builds "BUILD ok" lines, counted apart; the last
# line is "N passed, M failed, K skipped". Exit status: 0 only when nothing failed.
set -u
cd "$(dirname "$0")/.." || exit 1
. ./tests/lib.sh
. ./tests/slots.sh   # at most TEST_SLOTS compilers at once (default: the CPU count + 1)
run_t_start=$(date +%s)

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
   echo "    ($run_area: $(($(date +%s) - run_t0)) s, ending $(($(date +%s) - run_t_start)) s into the run)"
}

# Two workers: this shell and a subshell beside it. The areas that wait for the background
# builds started above (cuda, simd and xarch: by process id, which only this shell can wait
# for) run here; every other area is taken by whichever worker is free, one at a time, each
# in a subshell of its own, into its own output and result files (shown here in
# run_pool's order as they finish). A claim is a mkdir, which one worker alone wins. With the
# areas split between two fixed lanes, one lane ran 80 s past the other, a core idle. No
# area in the pool writes what another reads (tests/lib.sh's build_trainer, which four of
# them share, takes a lock). TEST_LANES=1: every area in this shell, in name order.
run_pinned="simd xarch cuda"
# the pool, the longest areas first (the seconds each prints), so that the two workers end
# together; an area not named here joins at the end
run_longest="api python docs variants build opencl octave compile_fail web mpi tutorial webgpu examples fuzz v0 core layout"
run_pool=""; run_here=""
for run_area in $run_longest; do
   run_has "$run_area" && run_pool="$run_pool $run_area"
done
for run_area in $run_areas; do
   case " $run_pinned " in *" $run_area "*) run_here="$run_here $run_area"; continue ;; esac
   case " $run_longest " in *" $run_area "*) ;; *) run_pool="$run_pool $run_area" ;; esac
done
run_lanes=2
if [ "${TEST_LANES:-2}" = 1 ] || [ -z "${run_pool# }" ] || [ "$(echo $run_areas | wc -w)" -lt 2 ]; then run_lanes=1; fi
rm -rf "$BUILD/shared"   # what tests/lib.sh builds once a run (build_trainer)
run_lane_dir=$BUILD/lane
rm -rf "$run_lane_dir"; mkdir -p "$run_lane_dir"

# run_take AREA: claim it and run it in a subshell; .done says it ran to its end (a suite
# that exits does not), .over that it is over either way
run_take() {
   mkdir "$run_lane_dir/$1.claim" 2>/dev/null || return 0
   ( LOG=$run_lane_dir/$1.results; : >"$LOG"
     run_one_area "$1"
     : >"$run_lane_dir/$1.done" ) >"$run_lane_dir/$1.out" 2>&1 </dev/null
   : >"$run_lane_dir/$1.over"
}

run_shown=""
# run_show_pool [wait]: print the pool's finished areas, in its order, and count their
# results; with "wait", wait for each in turn
run_show_pool() {
   for run_a in $run_pool; do
      case " $run_shown " in *" $run_a "*) continue ;; esac
      if [ ! -e "$run_lane_dir/$run_a.over" ]; then
         [ "${1:-}" = wait ] || return 0
         while [ ! -e "$run_lane_dir/$run_a.over" ]; do sleep 1; done
      fi
      cat "$run_lane_dir/$run_a.out"; cat "$run_lane_dir/$run_a.results" >>"$LOG"
      [ -e "$run_lane_dir/$run_a.done" ] ||
         say "FAIL run.sh: area $run_a did not finish (a suite that exits?)"
      run_shown="$run_shown $run_a"
   done
}

for run_src in $run_tests; do
   run_a=${run_src#tests/}; run_c_test "$run_src" "${run_a%%/*}"
done
if [ $run_lanes = 1 ]; then
   for run_area in $run_areas; do run_one_area "$run_area"; done
   run_pool=""
else
   ( for run_area in $run_pool; do run_take "$run_area"; done ) &
   # here: areas of the pool until the run is 300 s old, then simd and xarch, then the pool
   # again, cuda among it once nvcc's builds (the longest of the background ones) are done,
   # or last if the pool runs out first (it waits for them). simd and xarch begin by waiting
   # for the builds started with the run (the x86 matrix, the cross targets), which take the
   # compile slots for the run's first minutes: this shell runs areas of the pool meanwhile
   run_early=""; run_cuda=""
   for run_area in $run_here; do [ "$run_area" = cuda ] && run_cuda=1 || run_early="$run_early $run_area"; done
   for run_area in $run_pool; do
      if [ -n "$run_early" ] && [ $(($(date +%s) - run_t_start)) -ge 300 ]; then
         for run_e in $run_early; do run_one_area "$run_e"; run_show_pool; done
         run_early=""
      fi
      # (cuda after the whole pool had run alone at the end, 15 s of one core's work)
      if [ -n "$run_cuda" ] && [ -z "$run_early" ] && nv_done; then
         run_one_area cuda; run_show_pool; run_cuda=""
      fi
      run_take "$run_area"
      run_show_pool
   done
   for run_e in $run_early; do run_one_area "$run_e"; run_show_pool; done
   [ -z "$run_cuda" ] || run_one_area cuda
fi
run_show_pool wait

tally
