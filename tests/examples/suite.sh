# covers: the examples (threads, checkpoint/resume, pictures) and docs/img/ against `make figures`; no code thrown away
# oracle: one library call (test_parallel.c); Python's zlib decoding the PNGs; the committed images
# needs: cc, sed, awk; optional -fopenmp, python3 (else SKIP)
# The examples that are not the demo trainer's reproducibility (tests/tutorial/suite.sh):
#  1. examples/dropout_parallel.h on real threads: tests/examples/test_parallel.c again with
#     -fopenmp (run.sh already ran it without), 1, 2 and 3 threads = the one-call result;
#  2. examples/train_loop.c: checkpoint + resume gives bit-identical weights;
#  3. examples/make_figures.c: the Philox picture's wiring run as Philox, the threshold
#     picture's decisions = dropout_mask; its PNGs (and png.h's self-test images) decoded
#     by Python's zlib and compared pixel for pixel (tests/examples/check_pictures.py);
#  4. docs/img/ equals what `make figures` makes now (so it cannot go stale), every
#     picture docs/TUTORIAL.md links exists, the demo's PNGs decode and shrink, and
#     loss.svg's title states what its curves do;
#  5. a lint: no example (examples/*.c, *.h, *.cu, and the page's web/*.c) and no C block of
#     docs/TUTORIAL.md or README.md calls an int-returning function of dropout.h, dropout_opencl.h or
#     dropout_cuda.cuh as a bare statement, its code thrown away.
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

# 5. No example, and no C block of docs/TUTORIAL.md or README.md, throws a library code away.
#    The names: every function dropout.h, dropout_opencl.h and dropout_cuda.cuh declare as
#    returning int (their `DROPOUTDEF int`, `DROPOUT_OPENCLDEF int`, `DROPOUT_CUDADEF int`
#    prototypes, read now). A call of one may not be a statement of its own: a refused call
#    writes nothing, and code that goes on prints zeros or stale buffers as results. A
#    statement starts after `;` (outside parentheses), `{`, `}`, `if (...)`, `for (...)`,
#    `while (...)`, `else`, `do` or `case ...:`; comments, strings and preprocessor lines are
#    skipped, so the second line of `if (a &&\n dropout_mask(...) == 0)` is a condition. A
#    cast, `(void)dropout_x(...);` with a comment saying why it cannot fail, is a discard said
#    out loud and passes. No name is exempt. A probe with every case checks the lint first.
ex_names=$ex_dir/int_functions.txt
sed -nE 's/^(DROPOUTDEF|DROPOUT_OPENCLDEF|DROPOUT_CUDADEF)[[:space:]]+int[[:space:]]+(dropout_[a-z0-9_]+)[[:space:]]*\(.*/\2/p' \
   dropout.h dropout_opencl.h dropout_cuda.cuh | sort -u >"$ex_names"
ex_lint='
function reset() { ss = 1; depth = 0; cond = -1; incase = 0; incom = 0; pp = 0; bn = 0 }
NR == FNR { names[$1] = 1; next }
FNR == 1 { reset(); md = FILENAME ~ /\.md$/; code = !md }
md && /^```/ { if (!code && /^```c( |$)/) { code = 1; reset() } else code = 0; next }
!code { next }
pp || (!incom && /^[ \t]*#/) { pp = /\\$/; next }
{
   # the line without comments and literals
   line = $0; s = ""; n = length(line)
   for (i = 1; i <= n; i++) {
      c = substr(line, i, 1)
      if (incom) { if (c == "*" && substr(line, i + 1, 1) == "/") { incom = 0; s = s " "; i++ } continue }
      if (c == "/" && substr(line, i + 1, 1) == "*") { incom = 1; i++; continue }
      if (c == "/" && substr(line, i + 1, 1) == "/") break
      if (c == "\"" || c == "\047") {
         for (i++; i <= n && substr(line, i, 1) != c; i++) if (substr(line, i, 1) == "\\") i++
         s = s " 0 "; continue
      }
      s = s c
   }
   # its tokens; ss: the next token starts a statement
   while (s != "") {
      if (match(s, /^[ \t]+/)) { s = substr(s, RLENGTH + 1); continue }
      if (match(s, /^[A-Za-z_][A-Za-z0-9_]*/)) {
         t = substr(s, 1, RLENGTH); s = substr(s, RLENGTH + 1)
         if (ss && (t in names)) { print FILENAME ":" FNR " " t; ss = 0 }
         else if (ss && (t == "else" || t == "do")) ss = 1
         else if (ss && (t == "if" || t == "for" || t == "while" || t == "switch")) { cond = depth; ss = 0 }
         else if (ss && (t == "case" || t == "default")) { incase = 1; ss = 0 }
         else ss = 0
         continue
      }
      t = substr(s, 1, 1); s = substr(s, 2)
      if (t == "(") { depth++; ss = 0 }
      else if (t == ")") { depth--; ss = cond >= 0 && depth == cond; if (ss) cond = -1 }
      else if (t == ";") ss = depth == 0
      else if (t == "{") { bn++; bd[bn] = depth; bc[bn] = cond; depth = 0; cond = -1; ss = 1 }
      else if (t == "}") { if (bn > 0) { depth = bd[bn]; cond = bc[bn]; bn-- } ss = 1 }
      else if (t == ":" && incase) { incase = 0; ss = 1 }
      else ss = 0
   }
}'
# the probe: the lines marked BARE must be flagged, and only they
cat >"$ex_dir/lint_probe.c" <<'EOF'
#include "dropout.h"   /* dropout_mask(p, n, m); in a comment */
#define MASK(p, n, m) \
   dropout_mask(p, n, m)
static int must(int err) { return err; }
static int f(const dropout_plan *p, uint8_t *m, size_t n)
{
   int err;
   dropout_mask(p, n, m);                     /* BARE */
   err = dropout_mask(p, n, m);
   if (!err) err = dropout_mask(p, n, m);
   if (err == 0 &&
       dropout_mask(p, n, m) == 0) err = 1;
   (void)dropout_mask(p, n, m);   /* the cast: not wanted, said out loud */
   if (err)
      dropout_mask(p, n, m);                  /* BARE */
   else dropout_mask(p, n, m);                /* BARE */
   { dropout_mask(p, n, m); }                 /* BARE */
   for (err = 0; err < 2; ++err) dropout_mask(p, n, m);   /* BARE */
   switch (err) { case 1: dropout_mask(p, n, m); break; }   /* BARE */
   printf("dropout_mask(p, n, m);\n");
   /* dropout_mask(p, n, m);
      dropout_mask(p, n, m); */
   return must(dropout_mask(p, n, m)) + dropout_mask(p, n, m);
}
EOF
cat >"$ex_dir/lint_probe.md" <<'EOF'
dropout_mask(p, n, m); as prose
```c
dropout_mask(p, n, m);   /* BARE */
```
```sh
dropout_mask(p, n, m)
```
EOF
ex_want=$(grep -n 'BARE' "$ex_dir/lint_probe.c" "$ex_dir/lint_probe.md" | cut -d: -f1,2 | tr '\n' ' ')
ex_got=$(awk "$ex_lint" "$ex_names" "$ex_dir/lint_probe.c" "$ex_dir/lint_probe.md" | cut -d' ' -f1 | tr '\n' ' ')
ex_absent=""
for ex_fn in dropout_mask dropout_gen_init dropout_fill_u32 dropout_opencl_run dropout_cuda_run; do
   grep -qx "$ex_fn" "$ex_names" || ex_absent="$ex_absent $ex_fn"
done
if [ -n "$ex_absent" ]; then
   say "FAIL lint: the int prototypes read from the headers miss$ex_absent (their form changed?)"
elif [ "$ex_got" != "$ex_want" ]; then
   say "FAIL lint: its probe flags [$ex_got] instead of [$ex_want]"
else
   ex_hits=$(awk "$ex_lint" "$ex_names" examples/*.c examples/*.h examples/*.cu web/*.c docs/TUTORIAL.md README.md | sed 's/$/;/' | tr '\n' ' ')
   ex_hits=${ex_hits%; }
   if [ -z "$ex_hits" ]; then
      say "PASS lint: no example (the page's C included), TUTORIAL.md or README.md C block calls one of the $(wc -l <"$ex_names" | tr -d ' ') int-returning library functions as a bare statement"
   else
      say "FAIL lint: a library call's code thrown away (a bare statement: check it, or cast it to (void) saying why it cannot fail): $ex_hits"
   fi
fi
