#!/bin/sh
# opencl/embed.sh [--check]: write the OpenCL C program into dropout_opencl.h, between
# its "BEGIN program" and "END program" lines, as one string literal per line (so no
# literal passes C99's 4095-character minimum): opencl/kernels.cl, with its line
# `#include "dropout.h"` replaced by dropout.h's declarations part (up to the line
# `#endif /* DROPOUT_H_INCLUDED */`), the building blocks the kernels are made of.
# Run it (`make opencl-embed`) after changing either file; --check only says whether
# dropout_opencl.h is current (exit 1 when not), which the OpenCL tests check.
set -eu
cd "$(dirname "$0")/.."
hdr=dropout_opencl.h
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.body"' EXIT

awk '
   function emit(s) {
      gsub(/\\/, "&&", s); gsub(/"/, "\\\"", s); gsub(/\?/, "\\?", s)
      printf "   \"%s\\n\",\n", s
   }
   FNR == NR { if (!done) { hdr[++nh] = $0; if ($0 ~ /^#endif \/\* DROPOUT_H_INCLUDED \*\//) done = 1 }; next }
   $0 == "#include \"dropout.h\"" { for (i = 1; i <= nh; ++i) emit(hdr[i]); next }
   { emit($0) }
' dropout.h opencl/kernels.cl >"$tmp.body"

awk -v body="$tmp.body" '
   /^\/\* BEGIN program/ { print; while ((getline l < body) > 0) print l; skip = 1; next }
   /^\/\* END program/ { skip = 0 }
   !skip { print }
' "$hdr" >"$tmp"

if [ "${1:-}" = "--check" ]; then
   if cmp -s "$tmp" "$hdr"; then echo "dropout_opencl.h: program current"; exit 0; fi
   echo "dropout_opencl.h: program out of date with dropout.h / opencl/kernels.cl (run make opencl-embed)"; exit 1
fi
cp "$tmp" "$hdr"
echo "dropout_opencl.h: program written ($(grep -c '' "$tmp.body") lines)"
