#!/bin/sh
# recheck.sh TABLE GRID [COPIES]: the cells that `make bench-ab` flagged in TABLE (B/A above
# 1.05 and above the spread), timed again by fresh copies of the grid binary GRID.
#
# Why copies: on the 2-core Zen 5 VM, byte-identical copies of one ab_grid binary read
# B/A 1.00 to 1.50 for the same streamed cell (the same A and B objects at the same
# addresses; only the file, and so the memory pages that hold its code, differed). A
# cell that reads above 1.05 from every copy is the code; one that reads 1.0 from some
# copy is where the binary happened to land. Prints, per flagged cell, each copy's B/A,
# A'/A and B'/B; appends nothing to TABLE (the caller does, if it wants to).
set -eu
table=$1
grid=$2
copies=${3:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

section=""
found=0
while IFS= read -r line; do
   case "$line" in
   "### "*)
      section=$line ;;
   "B/A above 1.05 and above the spread: none"*) ;;
   "B/A above 1.05 and above the spread: "*)
      case "$section" in *"in L2"*) s=l2 ;; *) s=mem ;; esac
      case "$section" in *"2 threads"*) t=2 ;; *) t=1 ;; esac
      # "cell (1.234), cell (1.056)" -> one cell name a line
      echo "${line#B/A above 1.05 and above the spread: }" | tr ',' '\n' | sed 's/ ([0-9.]*)$//; s/^ *//' >"$tmp/cells"
      while IFS= read -r cell; do
         [ -n "$cell" ] || continue
         found=1
         printf '| %s | %s, %s thread(s) |' "$cell" "$s" "$t"
         i=1
         while [ "$i" -le "$copies" ]; do
            cp "$grid" "$tmp/grid$i"
            # the cell's own row: B/A, A'/A and B'/B (columns 5, 6 and 7)
            r=$("$tmp/grid$i" -s "$s" -t "$t" -f "$cell" -R 15 2>/dev/null |
                awk -F'|' -v c="$cell" '{n=$2; gsub(/^ +| +$/, "", n)} n == c || n == c " (n words)" {gsub(/[* ]/, "", $5); gsub(/ /, "", $6); gsub(/ /, "", $7); print $5 " (" $6 ", " $7 ")"}')
            printf ' %s |' "${r:-?}"
            i=$((i + 1))
         done
         echo
      done <"$tmp/cells"
      ;;
   esac
done <"$table"
if [ "$found" = 0 ]; then
   echo "(no flagged cells)"
else
   echo
   echo "Each column: one fresh copy of the grid binary, the cell's B/A (A'/A, B'/B in brackets), 15 rounds streamed, the table's rounds in L2."
fi
