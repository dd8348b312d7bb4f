# covers: the mistakes of issue 18's table: each snippet fails to compile (C99, C++11), or fails at run time
# oracle: the snippet's right spelling compiles; its mistake fails with the compiler words it names
# needs: gcc, clang, g++, clang++ (each missing one SKIPs); $CC for the run-time half
#
# Every tests/compile_fail/*.c but runtime.c is a snippet whose first comment says:
#   expect: ERE          every compiler's messages must match it (grep -Ei); any number of lines
#   expect-c: / expect-c++: / expect-gcc: / expect-clang: / expect-g++: / expect-clang++:
#                        the same, for C compilers, C++ compilers, or one compiler only
#   flags: FLAGS         the mistake is a build flag: built without it the snippet compiles,
#                        with it the build must fail (else: built with -DRIGHT, the right
#                        spelling, it compiles; built as is, the mistake, it must fail)
#   lang: c              C only (designated initialisers are not C++11)
#   compilers: LIST      only these compilers
# A snippet whose mistake fails for another reason (other words) is a FAIL, and so is one
# whose right spelling does not compile. control.c has no mistake: it must compile everywhere.
# runtime.c: the mistakes that are run-time errors (p a draw width cannot realise, NaN p, a
# bias length that does not divide the count, a flushing FPU), nothing written.

cf_dir=$BUILD/compile_fail
rm -rf "$cf_dir"
mkdir -p "$cf_dir"
cf_warn="-Wall -Wextra -Wpedantic -Werror"

# cf_cmd COMPILER: the command line that compiles one snippet (syntax and semantics only)
cf_cmd() {
   case $1 in
      gcc) echo "gcc -std=c99 -x c";;
      clang) echo "clang -std=c99 -x c";;
      g++) echo "g++ -std=c++11 -x c++";;
      clang++) echo "clang++ -std=c++11 -x c++";;
   esac
}
# cf_meta FILE KEY: the values of "KEY:" lines in the snippet's first comment, one a line
cf_meta() { awk -v k="$2:" '{ sub(/^\/\*[ ]*/, ""); sub(/^[ ]+/, "") } index($0, k) == 1 { v = substr($0, length(k) + 1); sub(/^[ ]+/, "", v); sub(/[ ]*\*\/$/, "", v); print v } /\*\// { exit }' "$1"; }

for cf_cc in gcc clang g++ clang++; do
   if ! command -v $cf_cc >/dev/null 2>&1; then
      say "SKIP compile_fail $cf_cc: $cf_cc not found"
      continue
   fi
   case $cf_cc in *++) cf_lang=c++;; *) cf_lang=c;; esac
   for cf_src in tests/compile_fail/*.c; do
      cf_name=$(basename "$cf_src" .c)
      [ "$cf_name" = runtime ] && continue
      cf_only=$(cf_meta "$cf_src" lang)
      [ -n "$cf_only" ] && [ "$cf_only" != "$cf_lang" ] && continue
      cf_list=$(cf_meta "$cf_src" compilers)
      if [ -n "$cf_list" ]; then
         case " $cf_list " in *" $cf_cc "*) ;; *) say "SKIP compile_fail $cf_name ($cf_cc): $cf_cc gives no macro for this flag (the header compiles its own code in clang's precise mode instead: tests/api checks the bits); checked with $cf_list"; continue;; esac
      fi
      cf_flags=$(cf_meta "$cf_src" flags)
      cf_log=$cf_dir/$cf_name.$cf_cc
      cf_base="$(cf_cmd $cf_cc) $cf_warn -fsyntax-only -I."
      # 1. the right spelling (or the snippet without the bad flag) compiles
      if [ "$cf_name" = control ] || [ -n "$cf_flags" ]; then cf_right=""; else cf_right="-DRIGHT"; fi
      if ! $cf_base $cf_right "$cf_src" >"$cf_log.right.log" 2>&1; then
         say "FAIL compile_fail $cf_name ($cf_cc): the right spelling does not compile, so the check proves nothing: $(head -c 300 "$cf_log.right.log" | tr '\n' ' ')"
         continue
      fi
      if [ "$cf_name" = control ]; then
         say "PASS compile_fail control ($cf_cc): every short call spelled right compiles with -Werror"
         continue
      fi
      # 2. the mistake does not compile, and the messages say why
      if $cf_base $cf_flags "$cf_src" >"$cf_log.log" 2>&1; then
         say "FAIL compile_fail $cf_name ($cf_cc): the mistake compiles"
         continue
      fi
      cf_missing=""
      cf_pats=$( { cf_meta "$cf_src" expect; cf_meta "$cf_src" expect-$cf_lang; cf_meta "$cf_src" expect-$cf_cc; } )
      cf_n=0
      while IFS= read -r cf_pat; do
         [ -z "$cf_pat" ] && continue
         cf_n=$((cf_n + 1))
         grep -Eiq -e "$cf_pat" "$cf_log.log" || cf_missing="$cf_missing [$cf_pat]"
      done <<CF_EOF
$cf_pats
CF_EOF
      if [ $cf_n -eq 0 ]; then
         say "FAIL compile_fail $cf_name ($cf_cc): the snippet names no expected words"
      elif [ -z "$cf_missing" ]; then
         say "PASS compile_fail $cf_name ($cf_cc): $(grep -m1 -Ei 'error' "$cf_log.log" | sed 's/^[^ ]* //' | cut -c1-110)"
      else
         say "FAIL compile_fail $cf_name ($cf_cc): fails, but not for the reason named (no$cf_missing): $(grep -m1 -Ei 'error' "$cf_log.log" | cut -c1-200)"
      fi
   done
done

# the run-time half: built as a test program with the default compiler
if $CC -std=c99 -O2 $WARN -I. tests/compile_fail/runtime.c -o "$cf_dir/runtime" >"$cf_dir/runtime.build.log" 2>&1; then
   run_prog compile_fail_runtime "$cf_dir/runtime"
else
   say "FAIL build compile_fail/runtime.c: $(head -c 600 "$cf_dir/runtime.build.log" | tr '\n' ' ')"
fi

# A program whose code is built without -ffast-math but linked with it: gcc and clang link
# crtfastmath.o, which sets FTZ/DAZ for the whole process before main: the calls give the same bits.
if $CC -std=c99 -O2 $WARN -I. -c tests/compile_fail/runtime.c -o "$cf_dir/runtime.o" >"$cf_dir/runtime_ffm.build.log" 2>&1 &&
   $CC -ffast-math "$cf_dir/runtime.o" -o "$cf_dir/runtime_ffm" >>"$cf_dir/runtime_ffm.build.log" 2>&1; then
   run_prog compile_fail_runtime_flushed "$cf_dir/runtime_ffm" --flushed
else
   say "FAIL build compile_fail runtime linked with -ffast-math: $(head -c 600 "$cf_dir/runtime_ffm.build.log" | tr '\n' ' ')"
fi
