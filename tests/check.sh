#!/bin/sh
# check.sh - `make check`: the quick subset of `make test` for fast feedback (well under
# 30 s cold on 2 cores): the known answers and the contract (tests/core/test_dropout.c), the
# stream against Random123's vectors (tests/core/test_stream.c), and one SIMD build: the
# whole-API digest (tests/xarch/digest.c) with the widest x86 path this CPU runs (or the
# compiler's default path elsewhere) equal to the DROPOUT_NO_SIMD build's.
# Same output as tests/run.sh (tests/lib.sh); the last line is "N passed, M failed, K skipped".
set -u
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build/check}
. ./tests/lib.sh

simd=""
for f in avx512bw:-mavx512f,-mavx512bw avx2:-mavx2 sse4_1:-msse4.1; do
   if [ "$(uname -m)" = x86_64 ] && grep -qw "${f%%:*}" /proc/cpuinfo 2>/dev/null; then
      simd=$(echo "${f#*:}" | tr , ' '); break
   fi
done

# all four compiles at once, then the runs in order
"$CC" -std=c99 -O2 $WARN -I. -Itests tests/core/test_dropout.c -o "$BUILD/test_dropout" >"$BUILD/test_dropout.log" 2>&1 & p1=$!
"$CC" -std=c99 -O2 $WARN -I. -Itests tests/core/test_stream.c -o "$BUILD/test_stream" >"$BUILD/test_stream.log" 2>&1 & p2=$!
"$CC" -std=c99 -O2 $WARN -DDROPOUT_NO_SIMD -I. -Itests tests/xarch/digest.c -o "$BUILD/digest_ref" >"$BUILD/digest_ref.log" 2>&1 & p3=$!
# shellcheck disable=SC2086 # $simd is a flag list
"$CC" -std=c99 -O2 $WARN $simd -I. -Itests tests/xarch/digest.c -o "$BUILD/digest_simd" >"$BUILD/digest_simd.log" 2>&1 & p4=$!

for t in test_dropout:$p1 test_stream:$p2; do
   name=${t%%:*}
   if wait "${t#*:}"; then
      say "BUILD ok $name"
      "$BUILD/$name" >"$BUILD/$name.out" 2>&1; rc=$?
      grep -E '^(PASS|FAIL|SKIP) ' "$BUILD/$name.out" | tee -a "$LOG"
      [ $rc -eq 0 ] || grep -q '^FAIL ' "$BUILD/$name.out" || say "FAIL $name: exited with status $rc"
   else
      say "FAIL build $name: $(head -c 600 "$BUILD/$name.log" | tr '\n' ' ')"
   fi
done
if wait $p3 && wait $p4; then
   say "BUILD ok digest_ref"; say "BUILD ok digest_simd"
   if "$BUILD/digest_ref" >"$BUILD/digest_ref.out" && "$BUILD/digest_simd" >"$BUILD/digest_simd.out" &&
      cmp -s "$BUILD/digest_ref.out" "$BUILD/digest_simd.out"; then
      say "PASS simd[${simd:-default}]: whole-API digest equals DROPOUT_NO_SIMD's ($(grep '^total' "$BUILD/digest_ref.out"))"
   else
      say "FAIL simd[${simd:-default}]: digest differs from DROPOUT_NO_SIMD's"
   fi
else
   say "FAIL build digest: $(cat "$BUILD/digest_ref.log" "$BUILD/digest_simd.log" | head -c 600 | tr '\n' ' ')"
fi

tally
