#!/bin/sh
# bench/compile_time.sh - how long the file that holds the implementation takes to compile,
# per SIMD path and compiler: tests/xarch/digest.c (DROPOUT_IMPLEMENTATION and every call)
# compiled to an object, wall time, best and worst of RUNS runs each, optimised (-O2) and as
# a debug build (-O0). The AVX-512 path compiles its in-cache overlap once per dtype and
# store policy, so at -O2 it takes longest; at -O0 the library's bodies are called, not
# copied into each caller. The CPU need not run AVX-512 to compile it. Prints a markdown
# table with the CPU and the compilers; nothing is asserted.
# usage, from the repository root: sh bench/compile_time.sh [RUNS]   (default 3)
runs=${1:-3}
out=${TMPDIR:-/tmp}/dropout_compile_time.$$
mkdir -p "$out" || exit 1
now() { date +%s.%N; }
row() {   # row LABEL OPT CC FLAGS... (OPT: -O2 or -O0)
   label=$1; opt=$2; cc=$3; shift 3
   command -v "$cc" >/dev/null 2>&1 || { echo "| $label | \`$cc\` not found | | |"; return; }
   times=""; i=0
   while [ "$i" -lt "$runs" ]; do
      t0=$(now)
      "$cc" -std=c99 "$opt" "$@" -I. -Itests -c tests/xarch/digest.c -o "$out/d.o" || { echo "| $label | build failed | | |"; return; }
      times="$times $(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')"
      i=$((i + 1))
   done
   best=$(echo "$times" | awk '{ m = $1; for (i = 2; i <= NF; ++i) if ($i < m) m = $i; print m }')
   worst=$(echo "$times" | awk '{ m = $1; for (i = 2; i <= NF; ++i) if ($i > m) m = $i; print m }')
   printf '| %s | `%s -std=c99 %s%s` | %.1f | %.1f |\n' "$label" "$cc" "$opt" "${1+ $*}" "$best" "$worst"
}
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ') model $(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), $(nproc) cores"
echo "- $(gcc --version | head -n 1); $(clang --version 2>/dev/null | head -n 1)"
echo "- \`sh bench/compile_time.sh $runs\` at $(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet HEAD -- dropout.h 2>/dev/null || echo ' + changes'): tests/xarch/digest.c to an object, $runs runs each"
echo
echo "| path | command | best, s | worst, s |"
echo "|---|---|---:|---:|"
row "SSE2 (x86-64 default)" -O2 gcc
row "AVX2" -O2 gcc -march=x86-64-v3
row "AVX-512" -O2 gcc -mavx512f -mavx512bw
row "AVX-512 flags, DROPOUT_NO_AVX512 (the AVX2 path)" -O2 gcc -mavx512f -mavx512bw -DDROPOUT_NO_AVX512
row "AVX-512, clang" -O2 clang -mavx512f -mavx512bw
row "SSE2, clang" -O2 clang
row "debug: SSE2" -O0 gcc
row "debug: AVX2" -O0 gcc -march=x86-64-v3
row "debug: AVX-512" -O0 gcc -mavx512f -mavx512bw
row "debug: AVX-512, clang" -O0 clang -mavx512f -mavx512bw
rm -rf "$out"
