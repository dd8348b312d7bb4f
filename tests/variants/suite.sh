# covers: the variants (docs/SPEC.md "Variants"): accuracy, and the same bits under FMA contraction
# oracle: libm and long double (variants_ref.c); the text of docs/SPEC.md computed in Python (spec_oracle.py); one digest equal over compilers and flags
# needs: cc, libm; optional gcc, clang, g++, /usr/bin/python3 with numpy (else SKIP)
# tests/variants/test_variants.c is run by the runner (the rule); this suite adds:
#  1. tests/variants/variants_ref.c against libm/long double (needs -lm, so it is not a test_*.c).
#  2. tests/variants/variants_digest.c under several compilers and flag sets, FMA contraction
#     forced on (-ffp-contract=fast -march=native): every build must print the same digest.
# The variants' CUDA launchers live in dropout_cuda.cuh: tests/cuda/suite.sh builds
# tests/cuda/variants_cuda.cu with nvcc and emulates their kernel bodies on the CPU.
VBUILD=$BUILD/variants
mkdir -p "$VBUILD"

if $CC -std=c99 -O2 $WARN -I. -Itests tests/variants/variants_ref.c -o "$VBUILD/variants_ref" -lm \
      2>"$VBUILD/variants_ref.build.log"; then
   run_prog variants_ref "$VBUILD/variants_ref"
else
   say "FAIL build variants_ref: $(head -c 600 "$VBUILD/variants_ref.build.log" | tr '\n' ' ')"
fi

# 3. tests/variants/spec_oracle.py: sections 8 and 12, V.2, V.3 and V.4 computed from docs/SPEC.md's text
#    alone (Python, NumPy's IEEE conversions), against tests/variants/spec_oracle.c's library calls
if ! /usr/bin/python3 -c 'import numpy' >/dev/null 2>&1; then
   say "SKIP variants spec oracle: /usr/bin/python3 with numpy not found (Debian: python3-numpy)"
elif $CC -std=c99 -O2 $WARN -I. -Itests tests/variants/spec_oracle.c -o "$VBUILD/spec_oracle" \
      2>"$VBUILD/spec_oracle.build.log"; then
   /usr/bin/python3 tests/variants/spec_oracle.py "$VBUILD/spec_oracle" >"$VBUILD/spec_oracle.out" 2>&1
   spec_rc=$?
   grep -E '^(PASS|FAIL) ' "$VBUILD/spec_oracle.out" | while IFS= read -r spec_line; do say "$spec_line"; done
   if [ $spec_rc -ne 0 ] && ! grep -q '^FAIL ' "$VBUILD/spec_oracle.out"; then
      say "FAIL variants spec oracle: exit $spec_rc: $(tail -c 400 "$VBUILD/spec_oracle.out" | tr '\n' ' ')"
   fi
else
   say "FAIL build spec_oracle: $(head -c 600 "$VBUILD/spec_oracle.build.log" | tr '\n' ' ')"
fi

variants_digest_ref=""
variants_digest_bad=""
variants_digest_n=0
for flags in "$CC -std=c99 -O2" \
             "gcc -std=gnu11 -O2 -march=native -ffp-contract=fast" \
             "clang -std=c99 -O2 -march=native -ffp-contract=fast" \
             "g++ -std=c++11 -x c++ -O2 -march=native -ffp-contract=fast"; do
   cc1=${flags%% *}
   if ! command -v "$cc1" >/dev/null 2>&1; then say "SKIP variants digest [$flags]: no $cc1"; continue; fi
   if $flags $WARN -I. -Itests tests/variants/variants_digest.c -o "$VBUILD/digest" 2>"$VBUILD/digest.build.log"; then
      d=$("$VBUILD/digest")
      variants_digest_n=$((variants_digest_n + 1))
      if [ -z "$variants_digest_ref" ]; then variants_digest_ref=$d
      elif [ "$d" != "$variants_digest_ref" ]; then variants_digest_bad="$variants_digest_bad [$flags]=$d"; fi
   else
      say "FAIL build variants digest [$flags]: $(head -c 400 "$VBUILD/digest.build.log" | tr '\n' ' ')"
   fi
done
if [ -n "$variants_digest_bad" ]; then
   say "FAIL variants digest: baseline $variants_digest_ref, differs:$variants_digest_bad"
else
   say "PASS variants digest identical over $variants_digest_n compiler/flag sets (FMA contraction on)"
fi
