# covers: the examples (threads, checkpoint/resume, pictures) and docs/img/ against `make figures`
# oracle: one library call (test_parallel.c); Python's zlib decoding the PNGs; the committed images
# needs: cc; optional -fopenmp, python3 (else SKIP)
# The examples that are not the demo trainer's reproducibility (tests/tutorial/suite.sh):
#  1. examples/dropout_parallel.h on real threads: tests/examples/test_parallel.c again with
#     -fopenmp (run.sh already ran it without), 1, 2 and 3 threads = the one-call result;
#  2. examples/train_loop.c: checkpoint + resume gives bit-identical weights;
#  3. examples/make_figures.c: the Philox picture's wiring run as Philox, the threshold
#     picture's decisions = dropout_mask; its PNGs (and png.h's self-test images) decoded
#     by Python's zlib and compared pixel for pixel (tests/examples/check_pictures.py);
#  4. docs/img/ equals what `make figures` makes now (so it cannot go stale), every
#     picture docs/TUTORIAL.md links exists, the demo's PNGs decode and shrink, and
#     loss.svg's title states what its curves do.
# Names start with ex_ because this file is sourced into run.sh's shell.

ex_dir=$BUILD/examples
rm -rf "$ex_dir"
mkdir -p "$ex_dir/figures" "$ex_dir/selftest"

# the demo at full length (about 4 s) runs in the background while the rest goes on
build_trainer ex_train_mlp "$ex_dir/train_mlp"
ex_demo_pid=""
if [ -x "$ex_dir/train_mlp" ]; then
   "$ex_dir/train_mlp" --threads 2 --out "$ex_dir/figures" >"$ex_dir/train_mlp.out" 2>&1 &
   ex_demo_pid=$!
fi

# 1. dropout_parallel.h with OpenMP
if echo 'int main(void){return 0;}' | $CC -fopenmp -x c - -o "$ex_dir/omp_probe" 2>/dev/null; then
   build test_parallel_openmp $CC -std=c99 -O2 $WARN -fopenmp -I. -Itests tests/examples/test_parallel.c -o "$ex_dir/test_parallel_omp"
   # passive waiting: spinning threads on a busy 2-core machine cost seconds, not bits
   [ -x "$ex_dir/test_parallel_omp" ] && run_prog test_parallel_omp env OMP_WAIT_POLICY=passive sh -c \
      '"$0" >"$0.raw" 2>&1; r=$?; sed -E "s/^(PASS|FAIL|SKIP) /\1 openmp: /" "$0.raw"; exit $r' "$ex_dir/test_parallel_omp"
else
   say "SKIP test_parallel_openmp: $CC does not link -fopenmp (the chunking alone was tested)"
fi

# 2. train_loop.c, built as `make example` builds it
build train_loop $CC -std=c99 -O2 $WARN -ffp-contract=off -I. examples/train_loop.c -o "$ex_dir/train_loop"
[ -x "$ex_dir/train_loop" ] && run_prog train_loop "$ex_dir/train_loop" --check --ckpt "$ex_dir/train_loop.ckpt"

# 3. make_figures: its own checks, then its PNGs read back by Python
build make_figures $CC -std=c99 -O2 $WARN -I. examples/make_figures.c -o "$ex_dir/make_figures"
ex_py=$(command -v python3 || true)
if [ -x "$ex_dir/make_figures" ]; then
   run_prog make_figures_check "$ex_dir/make_figures" "$ex_dir/selftest" --raw --check
   if [ -n "$ex_py" ]; then
      run_prog png_decode "$ex_py" tests/examples/check_pictures.py png "$ex_dir"/selftest/*.png
   else
      say "SKIP png_decode: no python3 (the independent decoder is Python's zlib)"
   fi
   "$ex_dir/make_figures" "$ex_dir/figures" >"$ex_dir/make_figures.out" 2>&1 ||
      say "FAIL make_figures: $(tail -n 2 "$ex_dir/make_figures.out" | tr '\n' ' ')"
fi

# 4. docs/img/ against what make figures makes now
if [ -n "$ex_demo_pid" ]; then
   if wait "$ex_demo_pid"; then say "PASS demo: full run with 2 threads exits 0 (pictures for docs/img)"
   else say "FAIL demo: full run exited non-zero: $(tail -n 3 "$ex_dir/train_mlp.out" | tr '\n' ' ')"; fi
   if grep -q '^  same seed, run again: *e950157a793eac0e vs e950157a793eac0e' "$ex_dir/train_mlp.out"; then
      say "PASS demo: dropout run's weights hash e950157a793eac0e (the H100 run's)"
   else
      say "FAIL demo: the dropout run's weights hash is not e950157a793eac0e (training arithmetic changed?)"
   fi
fi
ex_n=0
ex_stale=""
for ex_f in docs/img/*; do
   [ -e "$ex_f" ] || continue
   ex_n=$((ex_n + 1))
   cmp -s "$ex_f" "$ex_dir/figures/$(basename "$ex_f")" || ex_stale="$ex_stale $(basename "$ex_f")"
done
if [ "$ex_n" -eq 0 ]; then
   say "FAIL docs/img: no pictures committed"
elif [ -z "$ex_stale" ]; then
   say "PASS docs/img: all $ex_n files equal what make figures makes now"
else
   say "FAIL docs/img: differs from what make figures makes now:$ex_stale (run make figures)"
fi
ex_missing=""
for ex_l in $(grep -o '](img/[^)]*)' docs/TUTORIAL.md | sed 's/^](//; s/)$//'); do
   [ -f "docs/$ex_l" ] || ex_missing="$ex_missing $ex_l"
done
if [ -z "$ex_missing" ] && grep -q '](img/' docs/TUTORIAL.md; then say "PASS docs/TUTORIAL.md: every picture it links is in docs/img"
else say "FAIL docs/TUTORIAL.md: links missing pictures:${ex_missing:- none linked}"; fi
if [ -n "$ex_py" ]; then
   run_prog demo_png "$ex_py" tests/examples/check_pictures.py png "$ex_dir"/figures/*.png
   run_prog demo_loss_title "$ex_py" tests/examples/check_pictures.py loss "$ex_dir/figures"
else
   say "SKIP demo_pictures: no python3 (decoding the PNGs and reading loss.csv)"
fi
