#!/bin/sh
# same_code.sh [REV] - does the working tree's dropout.h compile to the same code as REV's?
#
# The check for code motion (a restructuring that must move no bit and no nanosecond):
# bench/ab/grid_variant.c is built against REV:dropout.h (default HEAD) and against the
# working tree's, for each instruction set and compiler at hand, and `objdump -d` of the
# two is compared function by function, addresses stripped. The same instructions in
# every function: nothing to measure. One line per build, with the functions that differ;
# exit status 1 if any build differs. Run from the repository root.
set -u
rev=${1:-HEAD}
dir=build/same_code
rm -rf "$dir"; mkdir -p "$dir/base"
git show "$rev:dropout.h" >"$dir/base/dropout.h" || exit 2
git show "$rev:dropout_v0.h" >"$dir/base/dropout_v0.h" 2>/dev/null || rm -f "$dir/base/dropout_v0.h"
# both sides through the 1.0 calls when REV has them (grid_variant.c), else the 0.1 ones
api=""; grep -q "define DROPOUT_RULE_THRESHOLD" "$dir/base/dropout.h" && api=-DAB_API_1

# objdump's listing as "function<TAB>instruction", addresses stripped, by function name
norm() {
   "$1" -d --no-show-raw-insn "$2" | awk '
      /^[0-9a-f]+ <.*>:$/ { f = $2; n = 0; next }
      /^ +[0-9a-f]+:\t/ { sub(/^ +[0-9a-f]+:\t */, ""); gsub(/[0-9a-f]+ </, "<"); printf "%s\t%06d\t%s\n", f, n++, $0 }' |
      sort -t "$(printf '\t')" -k1,1 -k2,2 | cut -f1,3
}

differ=0
# name|compiler|objdump|flags
builds="native-gcc|gcc|objdump|-O3 -march=native
avx2-f16c-gcc|gcc|objdump|-O3 -mavx2 -mfma -mf16c
avx2-gcc|gcc|objdump|-O3 -mavx2
sse2-gcc|gcc|objdump|-O2
sse4.1-gcc|gcc|objdump|-O3 -msse4.1
native-clang|clang|objdump|-O3 -march=native
avx2-f16c-clang|clang|objdump|-O3 -mavx2 -mfma -mf16c
avx2-clang|clang|objdump|-O3 -mavx2
sse2-clang|clang|objdump|-O2
sse4.1-clang|clang|objdump|-O3 -msse4.1
neon-gcc|aarch64-linux-gnu-gcc|aarch64-linux-gnu-objdump|-O3"
old_ifs=$IFS
IFS='
'
for b in $builds; do
   IFS='|' read -r name cc od flags <<EOF2
$b
EOF2
   IFS=$old_ifs
   if ! command -v "$cc" >/dev/null 2>&1 || ! command -v "$od" >/dev/null 2>&1; then
      echo "SKIP $name: no $cc or $od"; IFS='
'; continue
   fi
   ok=1
   for side in base new; do
      inc=.; [ $side = base ] && inc=$dir/base
      # shellcheck disable=SC2086 # flag lists are split on purpose
      if ! $cc -std=c99 $flags $api -DVNAME=B -I"$inc" -c bench/ab/grid_variant.c -o "$dir/$name-$side.o" 2>"$dir/$name-$side.log"; then
         echo "FAIL $name: the $side build failed ($dir/$name-$side.log)"; ok=0; differ=1
      fi
   done
   if [ $ok = 1 ]; then
      norm "$od" "$dir/$name-base.o" >"$dir/$name-base.s"
      norm "$od" "$dir/$name-new.o" >"$dir/$name-new.s"
      if cmp -s "$dir/$name-base.s" "$dir/$name-new.s"; then
         echo "same $name ($cc $flags): $(cut -f1 "$dir/$name-new.s" | uniq | wc -l) functions"
      else
         differ=1
         echo "DIFF $name ($cc $flags):" $(diff "$dir/$name-base.s" "$dir/$name-new.s" | sed -n 's/^[<>] \([^	]*\)	.*/\1/p' | sort -u)
      fi
   fi
   IFS='
'
done
IFS=$old_ifs
exit $differ
