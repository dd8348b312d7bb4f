# covers: the MATLAB/Octave binding (matlab/): the MEX gateway built by mkoctfile --mex, every +dropouth function's bits, refusals, help; the Octave example
# oracle: dropout.h's C output byte for byte (expected.c: per element, the short calls, the descriptor); Random123's first word; the example's own isequal
# needs: octave-cli and mkoctfile (Debian: octave liboctave-dev), SKIP without; gnuplot-nox for the example's PNG; python3-numpy for the Python twins
# The grid (expected.c): 13 shapes (1-D to 5-D, empty) x 11 rules (p, width, the default
# width), 8 positions (to 2^64 - 1001, across 2^53), 4 seeds, 3 streams, single and double,
# forward, backward, mask, the raw stream and both uniforms. Octave writes each output's
# bytes (tests/octave/check_bits.m); cmp compares them with the C side's, so NaN payloads
# and -0 count. Two outputs that must differ (the row-major reading of a 3-D array, a call
# one position later) show that the comparison can fail.

OCT=$BUILD/octave
case $OCT in /*) oct_abs=$OCT ;; *) oct_abs=$PWD/$OCT ;; esac   # octave runs the checks by absolute paths
rm -rf "$OCT"
mkdir -p "$OCT/data/in" "$OCT/data/exp" "$OCT/data/got"

if ! command -v mkoctfile >/dev/null 2>&1 || ! command -v octave-cli >/dev/null 2>&1; then
   say "SKIP octave: mkoctfile or octave-cli not found (Debian: apt-get install octave liboctave-dev; .ci/run installs them)"
else
   oct_ok=1
   # the gateway as users build it, and once more under the project's warnings
   build octave_mex mkoctfile --mex -I. matlab/dropouth_mex.c -o "$OCT/dropouth_mex.mex"
   [ -f "$OCT/dropouth_mex.mex" ] || oct_ok=0
   # shellcheck disable=SC2046 # INCFLAGS is a flag list
   build octave_mex_werror $CC -std=c99 $WARN -fPIC -I. $(mkoctfile -p INCFLAGS) -c matlab/dropouth_mex.c -o "$OCT/dropouth_mex_werror.o"
   build octave_expected $CC $CFLAGS_TEST -I. tests/octave/expected.c -o "$OCT/expected"
   if [ -x "$OCT/expected" ]; then run_prog octave_expected "$OCT/expected" "$OCT/data"; else oct_ok=0; fi

   if [ $oct_ok = 1 ]; then
      oct_ver=$(sed -n 's/^#define DROPOUT_VERSION_STRING "\(.*\)"$/\1/p' dropout.h)
      # one Octave process for every check: its start-up is most of the time
      run_prog octave_checks env DROPOUT_VERSION="$oct_ver" octave-cli --norc --no-history --quiet --eval "
         addpath('$PWD/matlab'); addpath('$oct_abs'); addpath('$PWD/tests/octave'); addpath('$PWD/examples/octave');
         check_bits('$oct_abs/data');
         check_errors();
         f = dropouth_build('$oct_abs/data');
         if exist(f, 'file'), printf('PASS octave dropouth_build: matlab/dropouth_build.m builds %s\n', 'dropouth_mex.mex');
         else, printf('FAIL octave dropouth_build: no %s\n', f); end
         train_twice('$oct_abs/demo');"

      # byte for byte: every expected output against Octave's
      oct_n=0; oct_bad=""
      for oct_e in "$OCT"/data/exp/*.bin; do
         oct_b=$(basename "$oct_e")
         oct_n=$((oct_n + 1))
         cmp -s "$oct_e" "$OCT/data/got/$oct_b" || oct_bad="$oct_bad $oct_b"
      done
      oct_cases=$(wc -l <"$OCT/data/cases.txt")
      if [ "$oct_n" -lt 200 ]; then
         say "FAIL octave bits: only $oct_n expected outputs (expected.c writes about 250)"
      elif [ -z "$oct_bad" ]; then
         say "PASS octave bits: all $oct_n outputs of $oct_cases calls equal dropout.h's bytes (masks, y, dx, words, uniforms; 1-D to 5-D, column-major)"
      else
         say "FAIL octave bits: these differ from dropout.h's bytes:$(echo $oct_bad | cut -c1-400) (cmp $OCT/data/exp/NAME $OCT/data/got/NAME)"
      fi
      # the comparison can fail: a row-major reading and a shifted position must differ
      oct_mut=""
      for oct_m in mutant_rowmajor mutant_pos; do
         if [ ! -f "$OCT/data/got/$oct_m.y.bin" ] || cmp -s "$OCT/data/got/$oct_m.y.bin" "$OCT/data/exp/pos0d.y.bin"; then
            oct_mut="$oct_mut $oct_m"
         fi
      done
      if [ -z "$oct_mut" ]; then say "PASS octave bits: a row-major reading of a 5x4x3 array and the call one position later both differ from the expected bytes"
      else say "FAIL octave bits: these mutants were not told apart from the expected bytes (or are missing):$oct_mut"; fi

      # the Python package on the same coordinates: the default width and the transpose twin
      oct_py=${PYTHON:-/usr/bin/python3}
      if ! "$oct_py" -c 'import numpy' >/dev/null 2>&1; then
         say "SKIP octave python: $oct_py with numpy not found (Debian: python3-numpy)"
      else
         build octave_pylib $CC $CFLAGS_TEST -shared -fPIC python/dropouth_lib.c -o "$OCT/libdropouth.so"
         run_prog octave_python env PYTHONPATH=python DROPOUTH_LIB="$oct_abs/libdropouth.so" \
            "$oct_py" tests/octave/check_python.py "$OCT/data/got"
      fi

      # the example (make demo-octave): what it prints is what docs/MATLAB.md says, and the PNG
      oct_out=$BUILD/octave_checks.out
      oct_got=$(grep -o 'isequal(learnables1, learnables2) = [01]' "$oct_out" | sed 's/.* = //' | tr -d '\n')
      if [ "$oct_got" = 1110 ]; then
         say "PASS octave example: train_twice.m prints isequal = 1 for dropouth twice, rand after rng twice, dropouth with a rand-drawing monitor; 0 for rand with it"
      else
         say "FAIL octave example: train_twice.m's four isequal values are '$oct_got', expected 1110 in pairs 1 to 4 (see $oct_out)"
      fi
      oct_missing=""
      for oct_l in 'isequal(learnables1, learnables2) = 0   (the monitor moved' 'training accuracy: dropouth' "layer 1's first mask word"; do
         oct_line=$(grep -F -m1 -e "$oct_l" "$oct_out" | sed 's/^ *//')
         if [ -z "$oct_line" ] || ! grep -qF -e "$oct_line" docs/MATLAB.md; then oct_missing="$oct_missing [$oct_line]"; fi
      done
      if [ -z "$oct_missing" ]; then say "PASS octave example: docs/MATLAB.md quotes its output as it prints it"
      else say "FAIL octave example: docs/MATLAB.md does not quote these lines:$oct_missing"; fi
      if ! command -v gnuplot >/dev/null 2>&1; then
         say "SKIP octave example PNG: gnuplot not found (Debian: apt-get install gnuplot-nox fonts-freefont-otf)"
      elif [ "$(head -c 8 "$OCT/demo/learnables_diff.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
         say "PASS octave example PNG: $OCT/demo/learnables_diff.png is a PNG ($(wc -c <"$OCT/demo/learnables_diff.png") bytes)"
      else
         say "FAIL octave example PNG: no PNG at $OCT/demo/learnables_diff.png (see $oct_out)"
      fi

      # a gateway of another version on the path (0.9.0's calling convention, or another
      # protocol number): each package call is refused as a stale build, never served
      mkdir -p "$OCT/old" "$OCT/p2"
      build octave_old_gateway mkoctfile --mex tests/octave/old_gateway.c -o "$OCT/old/dropouth_mex.mex"
      build octave_p2_gateway mkoctfile --mex -DDH_PROTOCOL=2 -I. matlab/dropouth_mex.c -o "$OCT/p2/dropouth_mex.mex"
      for oct_g in old p2; do
         oct_got=$(octave-cli --norc --no-history --quiet --eval "addpath('$PWD/matlab'); addpath('$oct_abs/$oct_g');
            r = {};
            for f = {@() dropouth.forward(ones(3), 0.5, 'Seed', 1, 'Position', 0), @() dropouth.mask(3, 0.5, 'Seed', 1, 'Position', 0), @() dropouth.version()}
              try, f{1}(); r{end + 1} = 'served'; catch e, r{end + 1} = e.identifier; end
            end
            printf('%s\n', strjoin(r, ' '));" 2>&1 | tail -n 1)
         case $oct_g in old) oct_gw="0.9.0's gateway";; *) oct_gw="a gateway of protocol 2 (before next carried its width)";; esac
         if [ "$oct_got" = "dropouth:staleBuild dropouth:staleBuild dropouth:staleBuild" ]; then
            say "PASS octave stale gateway: $oct_gw on the path: forward, mask and version raise dropouth:staleBuild"
         else
            say "FAIL octave stale gateway: $oct_gw on the path: forward, mask, version gave: $oct_got"
         fi
      done
      # the refusal names the file that was called: a fresh build elsewhere on the path loses
      # to an old one found first, and "run make octave" alone then changed nothing
      oct_got=$(octave-cli --norc --no-history --quiet --eval "addpath('$PWD/matlab'); addpath('$oct_abs/p2');
         try, dropouth.mask(3, 0.5, 'Seed', 1, 'Position', 0); catch e, disp(e.message); end" 2>&1 | tail -n 1)
      case $oct_got in
         *"$oct_abs/p2/dropouth_mex.mex"*) say "PASS octave stale gateway: the refusal names the gateway called ($OCT/p2/dropouth_mex.mex)" ;;
         *) say "FAIL octave stale gateway: the refusal does not name $OCT/p2/dropouth_mex.mex: $oct_got" ;;
      esac
      # no gateway at all (the package on the path, never built): said, with the way to build it
      mkdir -p "$OCT/nogw"
      rm -rf "$OCT/nogw/+dropouth" && cp -r matlab/+dropouth matlab/dropouth_rethrow.m "$OCT/nogw/"
      oct_got=$(octave-cli --norc --no-history --quiet --eval "addpath('$oct_abs/nogw');
         try, dropouth.forward(ones(3), 0.5, 'Seed', 1, 'Position', 0); catch e, printf('%s %s\n', e.identifier, e.message); end" 2>&1 | tail -n 1)
      case $oct_got in
         "dropouth:notBuilt "*dropouth_build*) say "PASS octave not built: the package without its gateway raises dropouth:notBuilt, naming dropouth_build" ;;
         *) say "FAIL octave not built: the package without its gateway gave: $oct_got" ;;
      esac
   fi
fi
