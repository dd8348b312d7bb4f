# covers: the descriptor (dropout_desc, dropout_run) under coverage-guided fuzzing; the kept inputs replayed
# oracle: an error with nothing written (canaries), or a per-element scalar reference's bits and the contiguous call's
# needs: clang with libFuzzer (Debian: clang, libclang-rt-14-dev) to fuzz (else SKIP); the replay needs only $CC
#
# 1. replay: every input kept in tests/fuzz/corpus/ (the regression cases: the seeds and
#    what the fuzzer found worth keeping, one input per new coverage edge) through
#    tests/fuzz/fuzz_desc.c built with $CC (with AddressSanitizer where $CC has it);
# 2. fuzz: clang -fsanitize=fuzzer,address,undefined, FUZZ_SECONDS (default 15) seconds
#    from that corpus, new inputs into $BUILD/fuzz/new (`make fuzz` runs longer and keeps
#    them). A crash, a leak or a FAIL line is a FAIL; the input is in $BUILD/fuzz/.

fz_dir=$BUILD/fuzz
rm -rf "$fz_dir"
mkdir -p "$fz_dir/new"
fz_src=tests/fuzz/fuzz_desc.c
fz_corpus=tests/fuzz/corpus
fz_root=$(pwd)

# 1. replay with the default compiler, under AddressSanitizer where it has one (UBSan runs in
#    the clang build below: gcc's -fsanitize=undefined instrumentation raises -Wsign-conversion
#    warnings of its own)
fz_san="-fsanitize=address"
if ! echo 'int main(void){return 0;}' | $CC $fz_san -x c - -o "$fz_dir/probe" >/dev/null 2>&1; then fz_san=""; fi
if $CC -std=c99 -O1 -g1 $WARN $fz_san -DFUZZ_MAIN -I. "$fz_src" -o "$fz_dir/replay" >"$fz_dir/replay.build.log" 2>&1; then
   run_prog fuzz_replay "$fz_dir/replay" "$fz_corpus"/*
else
   say "FAIL build fuzz replay: $(head -c 600 "$fz_dir/replay.build.log" | tr '\n' ' ')"
fi

# the replay can fail: with one bit of the reference flipped, the corpus must be caught
if $CC -std=c99 -O1 $WARN -DFUZZ_MAIN -DFUZZ_BREAK_REFERENCE -I. "$fz_src" -o "$fz_dir/replay_broken" >"$fz_dir/replay_broken.build.log" 2>&1; then
   if "$fz_dir/replay_broken" "$fz_corpus"/* >"$fz_dir/replay_broken.out" 2>&1; then
      say "FAIL fuzz replay: a reference with one wrong bit passes the corpus: the corpus checks nothing"
   elif grep -q "differs from the scalar reference" "$fz_dir/replay_broken.out"; then
      say "PASS fuzz replay: a reference with one wrong bit is caught by the corpus"
   else
      say "FAIL fuzz replay: the broken reference failed for another reason: $(grep -m1 FAIL "$fz_dir/replay_broken.out")"
   fi
else
   say "FAIL build fuzz replay (broken reference): $(head -c 400 "$fz_dir/replay_broken.build.log" | tr '\n' ' ')"
fi

# 2. coverage-guided, bounded in time
FUZZ_CLANG=${FUZZ_CLANG:-clang}
if ! command -v "$FUZZ_CLANG" >/dev/null 2>&1; then
   say "SKIP fuzz: clang not found (apt-get install clang libclang-rt-14-dev)"
elif ! echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n){(void)d;(void)n;return 0;}' |
      "$FUZZ_CLANG" -fsanitize=fuzzer -x c - -o "$fz_dir/probe_fuzzer" >/dev/null 2>&1; then
   say "SKIP fuzz: $FUZZ_CLANG has no libFuzzer runtime (Debian: libclang-rt-14-dev)"
elif ! "$FUZZ_CLANG" -std=c99 -O1 -g1 $WARN -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
      -I. "$fz_src" -o "$fz_dir/fuzz_desc" >"$fz_dir/fuzz.build.log" 2>&1; then
   say "FAIL build fuzz: $(head -c 600 "$fz_dir/fuzz.build.log" | tr '\n' ' ')"
else
   fz_secs=${FUZZ_SECONDS:-15}
   (cd "$fz_dir" && ./fuzz_desc -max_total_time="$fz_secs" -seed=1 -timeout=10 -rss_limit_mb=1024 \
      -print_final_stats=1 new "$fz_root/$fz_corpus" >fuzz.log 2>&1)
   fz_rc=$?
   fz_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$fz_dir/fuzz.log")
   fz_cov=$(grep -o 'cov: [0-9]*' "$fz_dir/fuzz.log" | tail -n 1)
   if [ $fz_rc -eq 0 ]; then
      say "PASS fuzz: ${fz_runs:-?} descriptor calls in ${fz_secs} s ($fz_cov), each an error with nothing written or the reference's bits"
   else
      say "FAIL fuzz: exit $fz_rc after ${fz_runs:-?} runs: $(grep -m1 -E 'FAIL fuzz_desc|ERROR: |runtime error' "$fz_dir/fuzz.log" | cut -c1-300); input: $(ls "$fz_dir"/crash-* "$fz_dir"/leak-* "$fz_dir"/timeout-* 2>/dev/null | head -n 1)"
   fi
fi
