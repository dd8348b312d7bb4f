#!/bin/sh
# places.sh [REV] [grid options...] - REV's dropout.h and the working tree's, each at 12
# places of its code.
#
# The same object code can run at different speeds where it lands: a core's predictors
# are indexed by instruction addresses, so one build of a program can be fast and the
# next, with a function added elsewhere, slow (on Zen 5 the AVX2 build's f32 forwards out
# of cache read 1.4-2x apart). make bench-ab sees two places of each header (A, A'); this
# sees 12. REV's header (default HEAD) and the working tree's are built as bench/ab's grid
# variant, each twice, every copy after its own run of padding (AB_MOVE_BYTES), and the
# four copies linked into one grid binary (A and A' REV's, B and B' the working tree's),
# six times over with other paddings: both sides meet the same memory in each binary. For
# each cell and side: the fastest and slowest place and the median, in ns per 64
# elements. A copy that is slow by its place is slow when timed alone too (checked on
# Zen 5), so this is the spread a user's build can meet, not an artifact of four copies
# in one process. Run from the repository root (make bench-places).
set -eu
rev=${1:-HEAD}
[ $# -gt 0 ] && shift
dir=build/ab/places
mkdir -p "$dir/base"
git show "$rev:dropout.h" >"$dir/base/dropout.h"
git show "$rev:dropout_v0.h" >"$dir/base/dropout_v0.h" 2>/dev/null || rm -f "$dir/base/dropout_v0.h"
api=""; grep -q "define DROPOUT_RULE_THRESHOLD" "$dir/base/dropout.h" && api=-DAB_API_1
CC=${CC:-cc}
WARN=${WARN:--Wall -Wextra -Wpedantic -Werror}
ARCH=${BENCH_ARCH:--march=native}
: >"$dir/all.txt"
bin=0
# four paddings a binary (bytes of code before each copy's header), six binaries
for pads in "200 200 200 200" "100 300 500 700" "8 24 40 56" "1000 2000 3000 4000" "4 16 32 48" "72 136 264 520"; do
   i=0; bin=$((bin + 1))
   for v in A B C D; do
      i=$((i + 1)); pad=$(echo "$pads" | cut -d' ' -f$i)
      case $v in A | C) inc=$dir/base; vapi=$api ;; *) inc=.; vapi=-DAB_API_1 ;; esac
      # shellcheck disable=SC2086
      $CC -std=c99 -O3 $ARCH $WARN -DVNAME=$v -DAB_MOVE -DAB_MOVE_BYTES=$pad $vapi -I"$inc" \
         -c bench/ab/grid_variant.c -o "$dir/grid_$v.o"
      objcopy -w --keep-global-symbol='ab_grid_*' "$dir/grid_$v.o"
   done
   # shellcheck disable=SC2086
   $CC -std=c99 -O3 $ARCH -fopenmp $WARN bench/ab/grid.c "$dir/grid_A.o" "$dir/grid_B.o" "$dir/grid_C.o" \
      "$dir/grid_D.o" -o "$dir/ab_grid"
   # each table row: cell | A | B | B/A | A'/A | B'/B | share: the four places' ns per 64
   "$dir/ab_grid" "$@" | awk -F'|' -v bin=$bin '
      /^### / { sect = $0; sub(/^### /, "", sect); sub(/, best of.*/, "", sect) }
      /^\| (fwd|bwd|mask|fused|fill)/ {
         gsub(/\*/, "", $4); c = $2; gsub(/^ +| +$/, "", c)
         printf "%s|%s|A|%.3f|%d\n%s|%s|B|%.3f|%d\n%s|%s|A|%.3f|%d\n%s|%s|B|%.3f|%d\n", sect, c, $3, bin,
                sect, c, $4, bin, sect, c, $3 * $6, bin, sect, c, $4 * $7, bin
      }' >>"$dir/all.txt"
done
echo "# $(basename "$0"): $rev ($(git rev-parse --short "$rev"))'s dropout.h (A) and the working tree's (B), 12 places each; $CC -O3 $ARCH; grid options: $*"
echo
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) (${BENCH_MODEL:-unknown}), $(nproc) cores"
echo "- B = $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- dropout.h || echo ' + changes')"
echo
echo "ns per 64 elements: the fastest place, the median, the slowest; slow/fast = slowest over fastest."
echo
echo "| block | cell | A fastest | A median | A slowest | A slow/fast | B fastest | B median | B slowest | B slow/fast | B/A median | **B/A slowest** |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
# per (block, cell, side): sort the 12 figures
awk -F'|' '{ k = $1 "|" $2; if (!(k in seen)) { seen[k] = 1; order[++m] = k } kk = k "|" $3; v[kk, ++n[kk]] = $4 }
   function stats(key,   c, a, b, t) {
      c = n[key]
      for (a = 1; a <= c; ++a) s[a] = v[key, a]
      for (a = 2; a <= c; ++a) { t = s[a]; b = a - 1; while (b >= 1 && s[b] > t) { s[b + 1] = s[b]; --b } s[b + 1] = t }
      lo = s[1]; hi = s[c]; med = (s[int((c + 1) / 2)] + s[int(c / 2) + 1]) / 2
   }
   END {
      for (j = 1; j <= m; ++j) {
         k = order[j]; split(k, name, "|")
         stats(k "|A"); alo = lo; amed = med; ahi = hi
         stats(k "|B")
         printf "| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | **%.2f** |\n", name[1], name[2],
                alo, amed, ahi, ahi / alo, lo, med, hi, hi / lo, med / amed, hi / ahi
      }
   }' "$dir/all.txt"
echo
echo "Each binary's four places (A, B, A', B': the same memory, timed in turn): a place slow by"
echo "its code shows against the others of its binary; a binary slow in all four met slower memory."
echo
echo "| block | cell | binary | A | B | A' | B' |"
echo "|---|---|---:|---:|---:|---:|---:|"
awk -F'|' '{ k = $1 "|" $2 "|" $5; if (!(k in n)) order[++m] = k; v[k, ++n[k]] = $4 }
   END { for (j = 1; j <= m; ++j) { k = order[j]; split(k, name, "|")
      printf "| %s | %s | %s | %.2f | %.2f | %.2f | %.2f |\n", name[1], name[2], name[3], v[k, 1], v[k, 2], v[k, 3], v[k, 4] } }' \
   "$dir/all.txt" | sort -s -t'|' -k2,2 -k3,3
