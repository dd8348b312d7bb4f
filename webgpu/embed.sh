#!/bin/sh
# webgpu/embed.sh [--check]: write the WGSL program into dropout_webgpu.js, between its
# "BEGIN wgsl" and "END wgsl" lines, as one JavaScript string per line: webgpu/kernels.wgsl
# with each @DROPOUT_PHILOX_*@ replaced by the value of dropout.h's #define. Before writing,
# every "mirrors dropout.h NAME (cksum N)" line of the WGSL is checked against the cksum of
# dropout.h's function NAME (from its "DROPOUT_HD ... NAME(" line to the next "}" line):
# a function that changed since its WGSL mirror was compared stops this script, naming it.
# Run it (`make webgpu-embed`) after changing either file; --check only says whether
# dropout_webgpu.js is current (exit 1 when not), which tests/webgpu/ checks.
set -eu
cd "$(dirname "$0")/.."
out=dropout_webgpu.js
src=webgpu/kernels.wgsl
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.body"' EXIT

fn_cksum() {
   awk -v name="$1" 'index($0, "DROPOUT_HD ") == 1 && index($0, " " name "(") { on = 1 }
                     on { print } on && $0 == "}" { exit }' dropout.h | cksum | cut -d' ' -f1
}

stale=""
for pair in $(sed -n 's|^// mirrors dropout.h \([A-Za-z0-9_]*\) (cksum \([0-9]*\))$|\1:\2|p' "$src"); do
   name=${pair%%:*}
   want=${pair#*:}
   if ! grep -q "^DROPOUT_HD .* $name(" dropout.h; then
      stale="$stale $name (no longer in dropout.h)"
   elif [ "$(fn_cksum "$name")" != "$want" ]; then
      stale="$stale $name (cksum now $(fn_cksum "$name"))"
   fi
done
if [ -n "$stale" ]; then
   echo "$src: dropout.h changed under the WGSL mirrors of:$stale; compare them again and update their cksum lines"
   exit 1
fi

awk '
   FNR == NR { if ($1 == "#define" && $2 ~ /^DROPOUT_PHILOX_/) val[$2] = $3; next }
   {
      while (match($0, /@DROPOUT_PHILOX_[A-Z0-9]*@/)) {
         name = substr($0, RSTART + 1, RLENGTH - 2)
         if (!(name in val)) { print "no #define " name " in dropout.h" > "/dev/stderr"; exit 1 }
         $0 = substr($0, 1, RSTART - 1) val[name] substr($0, RSTART + RLENGTH)
      }
      s = $0; gsub(/\\/, "\\\\", s); gsub(/'\''/, "\\'\''", s)
      printf "    '\''%s'\'',\n", s
   }
' dropout.h "$src" >"$tmp.body"

awk -v body="$tmp.body" '
   /\/\* BEGIN wgsl/ { print; while ((getline l < body) > 0) print l; skip = 1; next }
   /\/\* END wgsl/ { skip = 0 }
   !skip { print }
' "$out" >"$tmp"

if [ "${1:-}" = "--check" ]; then
   if cmp -s "$tmp" "$out"; then echo "$out: WGSL current"; exit 0; fi
   echo "$out: WGSL out of date with dropout.h / $src (run make webgpu-embed)"; exit 1
fi
cp "$tmp" "$out"
echo "$out: WGSL written ($(grep -c '' "$tmp.body") lines)"
