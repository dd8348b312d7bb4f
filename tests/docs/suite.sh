# covers: the documents' checkable claims: version, LICENSE, docs/API.md's names, README's code
# oracle: the headers themselves (macros, license text, declarations); the trainer's own output
# needs: cc, awk, python3 (the prototype check; SKIP without); the trainer runs 5 seeds in the background (about 2.5 s of CPU each)
# The documents' checkable claims, so that an edit to the code that makes one false fails:
#  1. the version: README.md, CHANGELOG.md and both headers' first lines state the version
#     that dropout.h's DROPOUT_VERSION_* macros define;
#  2. LICENSE is the license text at the end of dropout.h, byte for byte;
#  3. docs/API.md gives the full prototype of every public function of the two headers
#     (DROPOUTDEF, DROPOUT_CUDADEF and the inline DROPOUT_HD building blocks), each equal to
#     the header's once normalised, states every enum value (ops, dtypes, error codes) as
#     the header defines it, and names no dropout_* identifier the headers lack;
#  4. README.md's usage snippet compiles and runs; examples/basic.c prints the scale 1/q;
#  5. docs/TUTORIAL.md section 7: the demo's summary table and hashes for seed 1, and the
#     ranges over seeds 1 to 5, are what the trainer prints (five runs in the background,
#     about 2.5 s of CPU each).
# The Philox picture of docs/TUTORIAL.md is checked by tests/tutorial/test_tutorial_picture.c.

DOCS=$BUILD/docs
rm -rf "$DOCS"
mkdir -p "$DOCS"

# -- 5 starts first: the trainer runs while the quick checks below run --------------------
docs_demo=0
build_trainer docs_train_mlp "$DOCS/train_mlp"
if [ -x "$DOCS/train_mlp" ]; then
   docs_demo=1
   docs_pids=""
   # seed 1 in full (the summary, the reproducibility checks, the pictures); seeds 2 to 5
   # need only their summaries (--summary: two trainings of the five, about 2 s of CPU each)
   for s in 1 2 3 4 5; do
      docs_sum=--summary; [ $s = 1 ] && docs_sum=""
      "$DOCS/train_mlp" --seed $s --threads 1 $docs_sum --out "$DOCS/seed$s" >"$DOCS/seed$s.out" 2>&1 &
      docs_pids="$docs_pids $!"
   done
fi   # (a trainer that does not build is build_trainer's FAIL)

# -- 1. the version -------------------------------------------------------------------------
docs_macro() { sed -n "s/^#define DROPOUT_VERSION_$1 \\([0-9][0-9]*\\)\$/\\1/p" dropout.h; }
docs_ver="$(docs_macro MAJOR).$(docs_macro MINOR).$(docs_macro PATCH)"
docs_str=$(sed -n 's/^#define DROPOUT_VERSION_STRING "\(.*\)"$/\1/p' dropout.h)
if [ "$docs_ver" = "$docs_str" ] && [ -n "$docs_str" ]; then
   say "PASS docs: DROPOUT_VERSION_STRING \"$docs_str\" matches the MAJOR/MINOR/PATCH macros"
else
   say "FAIL docs: DROPOUT_VERSION_STRING \"$docs_str\" but the macros say $docs_ver"
fi
# README: the line "Version **X.Y.Z**" (the released version)
docs_readme=$(sed -n 's/^Version \*\*\([0-9][0-9.]*\)\*\*.*/\1/p' README.md | head -n 1)
if [ "$docs_readme" = "$docs_ver" ]; then say "PASS docs: README states version $docs_ver, as dropout.h"
else say "FAIL docs: README states version '${docs_readme}', dropout.h defines $docs_ver"; fi
docs_bad=""
head -n 1 dropout.h | grep -q " - v$docs_ver - " || docs_bad="$docs_bad dropout.h"
head -n 1 dropout_cuda.cuh | grep -q " - v$docs_ver - " || docs_bad="$docs_bad dropout_cuda.cuh"
grep -q "^## $docs_ver " CHANGELOG.md 2>/dev/null || docs_bad="$docs_bad CHANGELOG.md"
if [ -z "$docs_bad" ]; then say "PASS docs: both headers' first lines and CHANGELOG.md name version $docs_ver"
else say "FAIL docs: version $docs_ver missing from:$docs_bad"; fi

# -- 2. LICENSE -----------------------------------------------------------------------------
# the header's license is the last comment: from the line after "/*" that follows the
# implementation's end to the line before "*/"
awk '/^\/\*$/ { buf = ""; grab = 1; next }
     grab && /^\*\/$/ { grab = 0; last = buf; next }
     grab { buf = buf $0 "\n" }
     END { printf "%s", last }' dropout.h >"$DOCS/license_from_header"
if [ ! -f LICENSE ]; then
   say "FAIL docs: no LICENSE file"
elif [ -s "$DOCS/license_from_header" ] && cmp -s LICENSE "$DOCS/license_from_header"; then
   say "PASS docs: LICENSE is the license at the end of dropout.h"
else
   say "FAIL docs: LICENSE differs from the license at the end of dropout.h (diff LICENSE $DOCS/license_from_header)"
fi

# -- 3. docs/API.md: every public function's full prototype, and nothing that is not there --
# tests/docs/api_prototypes.py compares each prototype of API.md's ```c blocks with the headers'
# declarations and inline building blocks, normalised but whole (types, order, names)
if [ ! -f docs/API.md ]; then
   say "FAIL docs: no docs/API.md"
elif ! command -v python3 >/dev/null 2>&1; then
   say "SKIP docs: API.md prototypes: python3 not found"
else
   # dropout_opencl.h where this checkout has it (the OpenCL backend's own branch)
   docs_headers="dropout.h dropout_cuda.cuh"
   [ -f dropout_opencl.h ] && docs_headers="$docs_headers dropout_opencl.h"
   python3 tests/docs/api_prototypes.py docs/API.md $docs_headers >"$DOCS/api_prototypes.out" 2>&1
   docs_rc=$?
   grep -E '^(PASS|FAIL) ' "$DOCS/api_prototypes.out" | while IFS= read -r line; do say "$line"; done
   grep -vE '^(PASS|FAIL) ' "$DOCS/api_prototypes.out" | sed 's/^/    /'
   if [ $docs_rc -ne 0 ] && ! grep -q '^FAIL ' "$DOCS/api_prototypes.out"; then
      say "FAIL docs: tests/docs/api_prototypes.py exited $docs_rc: $(tail -n 2 "$DOCS/api_prototypes.out" | tr '\n' ' ')"
   fi
   # the check can fail: the same page with one prototype's parameters rotated must not pass
   sed '0,/^int dropout_replay_f32(const dropout_plan \*plan, size_t n, float \*y, uint8_t \*mask, const float \*x);$/s//int dropout_replay_f32(const dropout_plan *plan, size_t n, const float *x, uint8_t *mask, float *y);/' \
      docs/API.md >"$DOCS/API.mutated.md"
   if cmp -s docs/API.md "$DOCS/API.mutated.md"; then
      say "FAIL docs: API.md has no line 'int dropout_replay_f32(const dropout_plan *plan, size_t n, float *y, uint8_t *mask, const float *x);' for the self-check"
   elif python3 tests/docs/api_prototypes.py "$DOCS/API.mutated.md" dropout.h dropout_cuda.cuh >"$DOCS/api_prototypes.mutated.out" 2>&1; then
      say "FAIL docs: tests/docs/api_prototypes.py passes an API.md whose dropout_replay_f32 has y and x swapped"
   else
      say "PASS docs: tests/docs/api_prototypes.py fails an API.md whose dropout_replay_f32 has y and x swapped"
   fi
   # every dropout_* / DROPOUT_* name on the page is a word of a header (a prefix such as
   # dropout_forward_* is fine when some header word starts with it)
   # (the 0.1 files, dropout_v0.h and dropout_cuda_v0.cuh, count here: their prototypes are
   # CHANGELOG's table, not API.md's)
   docs_stale=""
   docs_words="$docs_headers dropout_v0.h dropout_cuda_v0.cuh"
   for w in $(grep -o '\(dropout\|DROPOUT\)_[A-Za-z0-9_]*' docs/API.md | sort -u); do
      grep -qw -e "$w" $docs_words && continue
      # a dtype or an op is a row X(NAME, value, ...) of dropout.h's DROPOUT__DTYPES or
      # DROPOUT__OPS, which makes DROPOUT_DTYPE_NAME or DROPOUT_OP_NAME
      case $w in DROPOUT_DTYPE_*) grep -q "^   X(${w#DROPOUT_DTYPE_}, " dropout.h && continue ;; esac
      case $w in DROPOUT_OP_*) grep -q "^   X(${w#DROPOUT_OP_}, " dropout.h && continue ;; esac
      case $w in *_) grep -q -e "$w" $docs_words && continue ;; esac
      case $w in dropout_opencl*|DROPOUT_ERR_OPENCL*|DROPOUT_OPENCL*) [ -f dropout_opencl.h ] || continue ;; esac
      docs_stale="$docs_stale $w"
   done
   if [ -z "$docs_stale" ]; then say "PASS docs: docs/API.md names no dropout_* / DROPOUT_* identifier that the headers lack"
   else say "FAIL docs: docs/API.md names what the headers do not have:$docs_stale"; fi
fi

# -- 4. README's usage snippet is a whole program that compiles warning-free and runs -------
awk '/^<!-- readme snippet: usage -->$/ { m = 1; next }
     m == 1 && /^```c$/ { m = 2; next }
     m == 2 && /^```$/ { exit }
     m == 2 { print }' README.md >"$DOCS/readme_usage.c"
if [ ! -s "$DOCS/readme_usage.c" ]; then
   say "FAIL docs: README has no C block after <!-- readme snippet: usage -->"
elif ! $CC -std=c99 -O2 $WARN -I. "$DOCS/readme_usage.c" -o "$DOCS/readme_usage" >"$DOCS/readme_usage.build.log" 2>&1; then
   say "FAIL docs: README's usage snippet does not compile: $(head -c 400 "$DOCS/readme_usage.build.log" | tr '\n' ' ')"
elif "$DOCS/readme_usage" >"$DOCS/readme_usage.out" 2>&1; then
   say "PASS docs: README's usage snippet compiles with -Werror and runs"
else
   say "FAIL docs: README's usage snippet exits $?: $(head -c 200 "$DOCS/readme_usage.out")"
fi

# -- examples/basic.c prints the scale the library uses: 1/q, q realised by the draws ------
if $CC -std=c99 -O2 $WARN -I. examples/basic.c -o "$DOCS/basic" >"$DOCS/basic.build.log" 2>&1 &&
   "$DOCS/basic" >"$DOCS/basic.out" 2>&1; then
   # recompute from the p and bits it prints: t = floor(p 2^b + 1/2), q = 1 - t / 2^b
   docs_basic=$(awk '/^p = .*-bit draws/ { p = $3 + 0; b = $4 + 0; sub(/,$/, "", $3)
                    t = int(p * 2 ^ b + 0.5); q = 1 - t / 2 ^ b
                    printf "q = %d/%d = %.6f;|scaled by 1/q = %.6f ", 2 ^ b - t, 2 ^ b, q, 1 / q }' "$DOCS/basic.out")
   docs_q=${docs_basic%%|*} docs_s=${docs_basic#*|}
   if [ -n "$docs_basic" ] && grep -qF "$docs_q" "$DOCS/basic.out" && grep -qF "$docs_s" "$DOCS/basic.out" &&
      grep -q '^same bits: yes$' "$DOCS/basic.out"; then
      say "PASS docs: examples/basic.c prints q and the scale 1/q the library uses, and the same bits"
   else
      say "FAIL docs: examples/basic.c output (see $DOCS/basic.out) lacks '$docs_q', '$docs_s' or 'same bits: yes'"
   fi
else
   say "FAIL docs: examples/basic.c does not build or run (see $DOCS/basic.build.log, $DOCS/basic.out)"
fi

# -- 5. the demo's figures in docs/TUTORIAL.md section 7 ---------------------------------------
if [ $docs_demo = 1 ]; then
   docs_fail=0
   for p in $docs_pids; do wait "$p" || docs_fail=1; done
   if [ $docs_fail = 0 ]; then
      say "PASS docs: the trainer runs seed 1 (REPRODUCIBLE) and seeds 2 to 5 (their summaries)"
   else
      say "FAIL docs: a trainer run for seeds 1 to 5 failed (see $DOCS/seed*.out)"
   fi
   # whitespace-normalised lines
   docs_norm() { sed -e 's/^[[:space:]]*//' -e 's/[[:space:]][[:space:]]*/ /g' "$@"; }
   docs_norm docs/TUTORIAL.md >"$DOCS/tutorial.norm"
   docs_norm "$DOCS/seed1.out" >"$DOCS/seed1.norm"
   docs_missing=""
   for pat in '^after [0-9]* epochs train acc' '^without dropout ' '^with dropout p=' \
              '^dropout raises held-out' '^same seed, run again:' '^seed 1 vs seed 2:'; do
      line=$(grep -m1 -e "$pat" "$DOCS/seed1.norm")
      if [ -z "$line" ] || ! grep -qxF -e "$line" "$DOCS/tutorial.norm"; then
         docs_missing="$docs_missing [$line]"
      fi
   done
   if [ -z "$docs_missing" ]; then
      say "PASS docs: TUTORIAL section 7 quotes the demo's summary and hashes as the trainer prints them"
   else
      say "FAIL docs: TUTORIAL section 7 does not quote these trainer lines for seed 1:$docs_missing"
   fi
   # held-out loss of the dropout run at the printed epochs: the lowest and the last
   docs_curve=$(awk '/^2\. with dropout/ { on = 1 } /^after / { on = 0 }
      on && /held-out loss/ { for (i = 1; i <= NF; ++i) { if ($i == "epoch") e = $(i + 1); if ($i == "held-out" && $(i + 1) == "loss") l = $(i + 2) }
                              if (min == "" || l + 0 < min + 0) { min = l; at = e } last = l }
      END { printf "epoch %d (%.2f), and it rises to %.2f by epoch", at, min, last }' "$DOCS/seed1.out")
   if grep -q "lowest at $docs_curve" "$DOCS/tutorial.norm" ||
      tr '\n' ' ' <docs/TUTORIAL.md | docs_norm | grep -q "lowest at $docs_curve"; then
      say "PASS docs: TUTORIAL's dropout held-out loss curve ($docs_curve ...) is the trainer's"
   else
      say "FAIL docs: the trainer's dropout held-out loss is lowest at $docs_curve ...; TUTORIAL section 7 says otherwise"
   fi
   # the ranges over seeds 1 to 5
   docs_gains="" docs_cuts=""
   for s in 1 2 3 4 5; do
      g=$(sed -n 's/.*held-out accuracy by \([-+][0-9.]*\) points.*/\1/p' "$DOCS/seed$s.out")
      c=$(sed -n 's/.*cuts held-out loss by \([0-9]*\)%.*/\1/p' "$DOCS/seed$s.out")
      docs_gains="$docs_gains $g"; docs_cuts="$docs_cuts $c"
   done
   docs_gmin=$(echo $docs_gains | tr ' ' '\n' | sort -g | head -n 1)
   docs_gmax=$(echo $docs_gains | tr ' ' '\n' | sort -g | tail -n 1)
   docs_cmin=$(echo $docs_cuts | tr ' ' '\n' | sort -n | head -n 1)
   docs_cmax=$(echo $docs_cuts | tr ' ' '\n' | sort -n | tail -n 1)
   docs_clist=$(echo $docs_cuts | sed -e 's/ /, /g' -e 's/, \([0-9]*\)$/ and \1/')
   docs_want="gain was between $docs_gmin and $docs_gmax points and the held-out loss was cut by $docs_cmin to $docs_cmax % ($docs_clist %)"
   if [ $(echo $docs_cuts | wc -w) = 5 ] && tr '\n' ' ' <docs/TUTORIAL.md | docs_norm | grep -qF "$docs_want"; then
      say "PASS docs: TUTORIAL's ranges over seeds 1 to 5 are the trainer's ($docs_gmin..$docs_gmax points, $docs_cmin..$docs_cmax %)"
   else
      say "FAIL docs: the trainer gives: '$docs_want'; TUTORIAL section 7 says otherwise"
   fi
fi
