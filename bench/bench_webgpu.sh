#!/bin/sh
# bench/bench_webgpu.sh OUT_DIR: dropout_webgpu.js against a WebGPU buffer copy of the same
# bytes, in headless chromium (make bench-webgpu). Writes OUT_DIR/webgpu-<adapter>.md.
# Needs chromium, node and puppeteer-core in build/web-test/ (.ci/run installs them).
# LOG2N (default 20) and REPS (default 7) in the environment change the size and the runs.
set -eu
cd "$(dirname "$0")/.."
out_dir=$1
site=$(pwd)/build/bench-webgpu
rm -rf "$site"
mkdir -p "$site" "$out_dir"
cp dropout_webgpu.js bench/webgpu_speed.html "$site/"
chromium=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$chromium" ] || { echo "bench-webgpu: chromium not installed"; exit 1; }
python3 -u -m http.server --bind 127.0.0.1 --directory "$site" 0 >"$site/server.log" 2>&1 &
srv=$!
trap 'kill $srv 2>/dev/null' EXIT
port=""
for _ in 1 2 3 4 5 6 7 8 9 10; do
   port=$(sed -n 's/.* port \([0-9][0-9]*\).*/\1/p' "$site/server.log" | head -n 1)
   [ -n "$port" ] && break
   sleep 0.5
done
[ -n "$port" ] || { echo "bench-webgpu: the local server did not start"; exit 1; }
cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//') (family $(awk -F': *' '/^cpu family/{print $2; exit}' /proc/cpuinfo), model $(awk -F': *' '/^model[ \t]*:/{print $2; exit}' /proc/cpuinfo)), $(nproc) cores"
NODE_PATH=build/web-test/node_modules node bench/bench_webgpu.js "http://127.0.0.1:$port/" "$chromium" \
   "$site/result.md" "${LOG2N:-20}" "${REPS:-7}" "$cpu"
adapter=$(sed -n '1s/^# dropout_webgpu.js on //p' "$site/result.md" | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//')
cp "$site/result.md" "$out_dir/webgpu-${adapter:-unknown}.md"
echo "written: $out_dir/webgpu-${adapter:-unknown}.md"
