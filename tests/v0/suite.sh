# covers: the way across for 0.1 code: 0.1.0 programs built unchanged with DROPOUT_V0_API, and not without it
# oracle: their output under 0.1.0, frozen in tests/v0/*.expected (a hash of every output)
# needs: $CC only; tests/v0/api-0.1.0.txt lists the 0.1 functions that CHANGELOG must move
#
# tests/v0/basic.c and train_loop.c are examples/basic.c and examples/train_loop.c as they
# were in 0.1.0, byte for byte; calls.c makes one call of every 0.1 kind. Each must compile
# unchanged with DROPOUT_V0_API defined (here on the command line, so the files stay as
# 0.1 wrote them) and print exactly what it printed with 0.1.0. Without DROPOUT_V0_API the
# 0.1 calls are gone: the same program must not compile.

v0_dir=$BUILD/v0
rm -rf "$v0_dir"
mkdir -p "$v0_dir"
for v0_prog in basic calls train_loop; do
   v0_src=tests/v0/$v0_prog.c
   v0_args=""
   [ $v0_prog = train_loop ] && v0_args="--check --ckpt $v0_dir/train_loop.ckpt"
   if ! $CC -std=c99 -O2 $WARN -ffp-contract=off -DDROPOUT_V0_API -I. "$v0_src" -o "$v0_dir/$v0_prog" \
         >"$v0_dir/$v0_prog.build.log" 2>&1; then
      say "FAIL v0 $v0_prog: a 0.1 program does not compile with DROPOUT_V0_API: $(head -c 500 "$v0_dir/$v0_prog.build.log" | tr '\n' ' ')"
      continue
   fi
   # the program's own PASS lines are part of its output, not results of this suite
   "$v0_dir/$v0_prog" $v0_args >"$v0_dir/$v0_prog.out" 2>&1
   v0_rc=$?
   if [ $v0_rc -eq 0 ] && cmp -s "tests/v0/$v0_prog.expected" "$v0_dir/$v0_prog.out"; then
      say "PASS v0 $v0_prog: 0.1 code compiles with DROPOUT_V0_API and prints what 0.1.0 printed ($(wc -l <"$v0_dir/$v0_prog.out") lines)"
   else
      say "FAIL v0 $v0_prog: exit $v0_rc; output differs from 0.1.0 (diff tests/v0/$v0_prog.expected $v0_dir/$v0_prog.out): $(diff "tests/v0/$v0_prog.expected" "$v0_dir/$v0_prog.out" | head -n 4 | tr '\n' ' ')"
   fi
done

# without the define, the 0.1 spelling (seed, stream and offset as loose integers) is gone
if $CC -std=c99 -O2 $WARN -I. tests/v0/calls.c -o "$v0_dir/calls_new" >"$v0_dir/calls_new.build.log" 2>&1; then
   say "FAIL v0: tests/v0/calls.c (0.1 calls) compiles without DROPOUT_V0_API: the old spelling is not gone"
else
   say "PASS v0: without DROPOUT_V0_API the 0.1 calls do not compile ($(grep -c 'error' "$v0_dir/calls_new.build.log") errors)"
fi

# CHANGELOG's 0.9.0 table names every 0.1 public function (tests/v0/api-0.1.0.txt), by name
# or as its dtype family (dropout_forward_T for dropout_forward_f32 ...)
v0_cl=$v0_dir/changelog-0.9.0.md
sed -n '/^## 0\.9\.0/,/^### Also in 0\.9\.0/p' CHANGELOG.md >"$v0_cl"
v0_missing=""
v0_count=0
for v0_name in $(grep -v '^#' tests/v0/api-0.1.0.txt); do
   v0_count=$((v0_count + 1))
   v0_family=$(echo "$v0_name" | sed -E 's/_(f32|f64|f16|bf16)(_state)?$/_T\2/')
   grep -q -e "\`$v0_name[\`(]" -e "\`$v0_family[\`(]" -e "\`$v0_name\`" "$v0_cl" || v0_missing="$v0_missing $v0_name"
done
if [ ! -s "$v0_cl" ]; then
   say "FAIL v0: CHANGELOG.md has no '## 0.9.0' section"
elif [ -z "$v0_missing" ]; then
   say "PASS v0: CHANGELOG's 0.9.0 table says how to move each of the $v0_count public 0.1 functions"
else
   say "FAIL v0: CHANGELOG's 0.9.0 table lacks these 0.1 functions:$v0_missing"
fi
