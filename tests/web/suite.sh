# covers: the teaching page (make web -> build/web/): its wasm32 builds of dropout.h and of the demo trainer, every stage value and mask digest it shows, the trainer's weights, keyboard and labels, no console errors; screenshots at desktop and phone sizes in build/web/
# oracle: tests/web/stages.c, the same inputs through a native build of dropout.h, line by line; the demo's pinned weights hash e950157a793eac0e (tests/examples/suite.sh checks make demo prints it)
# needs: clang + wasm-ld (wasm32), node; for the browser checks chromium and puppeteer-core in build/web-test/ (.ci/run installs them); each missing piece is a SKIP
# Sourced by tests/run.sh (say, build, $CC, $BUILD, $CFLAGS_TEST). Names start with wb_.

wb_dir=$BUILD/web
mkdir -p "$wb_dir"
wb_have() { command -v "$1" >/dev/null 2>&1; }
WEB_DEMO_HASH=e950157a793eac0e

# ---- the native oracle
# shellcheck disable=SC2086
build web-stages $CC $CFLAGS_TEST -I. tests/web/stages.c -o "$wb_dir/stages"

# ---- the site: make web, the way a reader builds it
wb_site=""
if ! wb_have "${WEB_CC:-clang}" || ! wb_have wasm-ld; then
   say "SKIP web[build]: clang and wasm-ld needed for wasm32 (apt-get install clang lld)"
elif make -s web >"$wb_dir/make-web.log" 2>&1; then
   wb_site=build/web
   say "PASS web[build]: make web built build/web/ ($(wc -c <build/web/dropout.wasm | tr -d ' ') + $(wc -c <build/web/trainer.wasm | tr -d ' ') bytes of wasm)"
else
   say "FAIL web[build]: make web: $(tail -c 600 "$wb_dir/make-web.log" | tr '\n' ' ')"
fi

# ---- without a browser: the modules import nothing, and the trainer gives the demo's weights
if [ -n "$wb_site" ]; then
   if ! wb_have node; then
      say "SKIP web[node]: node not installed (apt-get install nodejs)"
   else
      wb_h=$(node tests/web/run_trainer.js build/web/trainer.wasm 2>&1)
      if [ "$wb_h" = "$WEB_DEMO_HASH" ]; then
         say "PASS web[trainer under node]: no imports, weights hash $wb_h = make demo's"
      else
         say "FAIL web[trainer under node]: $wb_h (make demo: $WEB_DEMO_HASH)"
      fi
   fi
fi

# ---- in a real browser
wb_chromium=""
for wb_c in chromium chromium-browser google-chrome; do
   if wb_have "$wb_c"; then wb_chromium=$(command -v "$wb_c"); break; fi
done
if [ -z "$wb_site" ]; then
   :
elif ! wb_have node; then
   say "SKIP web[browser]: node not installed (apt-get install nodejs)"
elif [ -z "$wb_chromium" ]; then
   say "SKIP web[browser]: chromium not installed (apt-get install chromium)"
elif [ ! -d build/web-test/node_modules/puppeteer-core ]; then
   say "SKIP web[browser]: puppeteer-core missing (npm install --prefix build/web-test puppeteer-core; .ci/run does)"
elif ! wb_have python3; then
   say "SKIP web[browser]: python3 needed to serve the page"
else
   # cases: seed stream position p bits chunks (a 64-bit seed in decimal and in hex, the last
   # positions of a stream, every width, a p that 8-bit draws cannot realise)
   wb_args=""
   wb_i=0
   # wb_case SEED STREAM POS P BITS K: the C program's answer, and the page's query
   wb_case() {
      wb_i=$((wb_i + 1))
      "$wb_dir/stages" "$1" "$2" "$3" "$4" "$5" 4096 "$6" >"$wb_dir/case$wb_i.txt" 2>&1
      wb_args="$wb_args seed=$1&stream=$2&pos=$3&p=$4&bits=$5&k=$6=$wb_dir/case$wb_i.txt"
   }
   for wb_c in "18446744073709551557 7 1000003 0.3 16 3" \
                  "0 18446744073709551615 18446744073709547520 0.1 8 5" \
                  "0xdeadbeefcafef00d 3 12345678901 0.5 32 16" \
                  "42 0 9 0.001 8 2"; do
      # shellcheck disable=SC2086
      wb_case $wb_c
   done
   rm -f "$wb_dir/server.log"   # else the loop below may read the previous run's port
   python3 -u -m http.server --bind 127.0.0.1 --directory build/web 0 >"$wb_dir/server.log" 2>&1 &
   wb_srv=$!
   wb_port=""
   for _ in 1 2 3 4 5 6 7 8 9 10; do
      wb_port=$(sed -n 's/.* port \([0-9][0-9]*\).*/\1/p' "$wb_dir/server.log" | head -n 1)
      [ -n "$wb_port" ] && break
      sleep 0.5
   done
   if [ -z "$wb_port" ]; then
      say "FAIL web[serve]: python3 -m http.server did not start: $(head -c 300 "$wb_dir/server.log")"
   else
      # shellcheck disable=SC2086
      NODE_PATH=build/web-test/node_modules timeout 600 node tests/web/check_page.js \
         "http://127.0.0.1:$wb_port/" "$wb_chromium" build/web $wb_args --train "$WEB_DEMO_HASH" \
         >"$wb_dir/browser.out" 2>&1
      wb_rc=$?
      grep -E '^(PASS|FAIL|SKIP) ' "$wb_dir/browser.out" | while IFS= read -r wb_line; do say "$wb_line"; done
      if [ $wb_rc -ne 0 ] && ! grep -q '^FAIL ' "$wb_dir/browser.out"; then
         say "FAIL web[browser]: exit $wb_rc: $(tail -c 400 "$wb_dir/browser.out" | tr '\n' ' ')"
      fi
   fi
   kill "$wb_srv" 2>/dev/null
   wait "$wb_srv" 2>/dev/null
fi
