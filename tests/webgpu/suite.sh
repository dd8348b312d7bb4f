# covers: dropout_webgpu.js - its generator's positions (dropout_gen_plan's); forward (with and without the mask), backward, mask, apply_mask in f32, f16, bf16 at every draw width, odd positions and the last before 2^64, sizes around the workgroup, NaN/Inf/-0/subnormal inputs, in place; its refusals (a mapped buffer, and keys an op does not take, among them) and dw.submit (a command buffer WebGPU refuses); its WGSL is current with dropout.h; the teaching page's WebGPU section
# oracle: tests/webgpu/native_grid.c, the same calls through a native build of dropout.h, byte for byte (canary bytes past each call included); the same for docs/WEBGPU.md's usage snippet and the page's digest
# needs: node; chromium with a WebGPU adapter (Debian's 156 exposes SwiftShader with --enable-unsafe-webgpu) and puppeteer-core in build/web-test/; optionally the npm package webgpu (Dawn) with a Vulkan driver; each missing piece is a SKIP
# Sourced by tests/run.sh (say, build, $CC, $BUILD, $CFLAGS_TEST). Names start with wg_.

wg_dir=$BUILD/webgpu
mkdir -p "$wg_dir"
rm -f "$wg_dir/chromium.out" "$wg_dir/dawn.out"   # (the docs check below reads this run's)
wg_have() { command -v "$1" >/dev/null 2>&1; }

# ---- one source of truth: the WGSL in dropout_webgpu.js is webgpu/kernels.wgsl with
# dropout.h's constants, and no mirrored dropout.h function changed since it was compared
if sh webgpu/embed.sh --check >"$wg_dir/embed.log" 2>&1; then
   say "PASS webgpu embedded program: dropout_webgpu.js holds webgpu/kernels.wgsl with dropout.h's constants; its $(grep -c '^// mirrors dropout.h' webgpu/kernels.wgsl) mirrored functions are unchanged in dropout.h"
else
   say "FAIL webgpu embedded program: $(cat "$wg_dir/embed.log")"
fi

# ---- the native oracle: the grid's inputs and dropout.h's bytes
# shellcheck disable=SC2086
build webgpu-native-grid $CC $CFLAGS_TEST -I. tests/webgpu/native_grid.c -o "$wg_dir/native_grid"
wg_grid=""
if [ -x "$wg_dir/native_grid" ]; then
   rm -rf "$wg_dir/grid"
   mkdir -p "$wg_dir/grid"
   if "$wg_dir/native_grid" "$wg_dir/grid" >"$wg_dir/grid.log" 2>&1; then
      wg_grid=$wg_dir/grid
   else
      say "FAIL webgpu[grid]: native_grid: $(head -c 400 "$wg_dir/grid.log")"
   fi
fi

# ---- the host side: dropoutWebGPU.rule against dropout_rule_init, and .generator against
# dropout_gen_plan (node only)
if [ -n "$wg_grid" ] && wg_have node; then
   "$wg_dir/native_grid" --rules >"$wg_dir/rules.txt"
   node tests/webgpu/check_rules.js "$wg_dir/rules.txt" >"$wg_dir/rules.out" 2>&1
   grep -E '^(PASS|FAIL|SKIP) ' "$wg_dir/rules.out" | while IFS= read -r wg_line; do say "$wg_line"; done
   grep -qE '^(PASS|FAIL) ' "$wg_dir/rules.out" || say "FAIL webgpu[rule]: $(head -c 400 "$wg_dir/rules.out")"
   "$wg_dir/native_grid" --gen >"$wg_dir/gen.txt"
   node tests/webgpu/check_gen.js "$wg_dir/gen.txt" >"$wg_dir/gen.out" 2>&1
   grep -E '^(PASS|FAIL|SKIP) ' "$wg_dir/gen.out" | while IFS= read -r wg_line; do say "$wg_line"; done
   grep -qE '^(PASS|FAIL) ' "$wg_dir/gen.out" || say "FAIL webgpu[generator]: $(head -c 400 "$wg_dir/gen.out")"
fi

wg_chromium=""
for wg_c in chromium chromium-browser google-chrome; do
   if wg_have "$wg_c"; then wg_chromium=$(command -v "$wg_c"); break; fi
done
if [ -z "$wg_grid" ]; then
   :
elif ! wg_have node; then
   say "SKIP webgpu[chromium]: node not installed (apt-get install nodejs)"
   say "SKIP webgpu[dawn]: node not installed (apt-get install nodejs)"
else
   # ---- in chromium, on a page served from 127.0.0.1 (navigator.gpu needs a secure context)
   if [ -z "$wg_chromium" ]; then
      say "SKIP webgpu[chromium]: chromium not installed (apt-get install chromium)"
   elif [ ! -d build/web-test/node_modules/puppeteer-core ]; then
      say "SKIP webgpu[chromium]: puppeteer-core missing (npm install --prefix build/web-test puppeteer-core; .ci/run does)"
   elif ! wg_have python3; then
      say "SKIP webgpu[chromium]: python3 needed to serve the page"
   else
      wg_site=$wg_dir/site
      rm -rf "$wg_site"
      mkdir -p "$wg_site"
      cp dropout_webgpu.js tests/webgpu/grid.html tests/webgpu/grid_case.js "$wg_site/"
      # docs/WEBGPU.md's usage snippet, as the page a reader would make of it
      awk '/^<!-- webgpu snippet: usage/ { m = 1; next } m == 1 && /^```html/ { m = 2; next }
           m == 2 && /^```/ { exit } m == 2 { print }' docs/WEBGPU.md >"$wg_site/usage.html"
      wg_usage=$("$wg_dir/native_grid" --usage)
      # the teaching page too (make web: clang and wasm-ld), for its section 5: the page's
      # default inputs, and an 8-bit call ending 3 positions before 2^64
      wg_pages=""
      if ! wg_have "${WEB_CC:-clang}" || ! wg_have wasm-ld; then
         say "SKIP webgpu[page section 5]: clang and wasm-ld needed for make web (apt-get install clang lld)"
      elif make -s web >"$wg_dir/make-web.log" 2>&1; then
         cp -r build/web "$wg_site/web"
         for wg_q in "1234 0 0 0.3 16" "18446744073709551557 7 18446744073709486077 0.3 8"; do
            # shellcheck disable=SC2086
            set -- $wg_q
            wg_pages="$wg_pages seed=$1&stream=$2&pos=$3&p=$4&bits=$5=$("$wg_dir/native_grid" --page "$@")"
         done
         # and two it must not run: an empty seed, and a position the page's pictures take
         # (2^64 - 4096) whose 65536 elements here would pass 2^64
         wg_pages="$wg_pages seed=&stream=0&pos=0&p=0.3&bits=16=refused:seed"
         wg_pages="$wg_pages seed=1&stream=0&pos=18446744073709547520&p=0.3&bits=16=refused:position"
      else
         say "FAIL webgpu[page section 5]: make web: $(tail -c 400 "$wg_dir/make-web.log" | tr '\n' ' ')"
      fi
      # (the old log goes first: the background shell truncates it only when it gets to it,
      # and the loop below must not read the previous run's port)
      rm -f "$wg_dir/server.log"
      python3 -u -m http.server --bind 127.0.0.1 --directory "$wg_site" 0 >"$wg_dir/server.log" 2>&1 &
      wg_srv=$!
      wg_port=""
      for _ in 1 2 3 4 5 6 7 8 9 10; do
         wg_port=$(sed -n 's/.* port \([0-9][0-9]*\).*/\1/p' "$wg_dir/server.log" | head -n 1)
         [ -n "$wg_port" ] && break
         sleep 0.5
      done
      if [ -z "$wg_port" ]; then
         say "FAIL webgpu[serve]: python3 -m http.server did not start: $(head -c 300 "$wg_dir/server.log")"
      else
         # shellcheck disable=SC2086
         NODE_PATH=build/web-test/node_modules timeout 600 node tests/webgpu/run_grid.js \
            "$wg_grid" browser "http://127.0.0.1:$wg_port/" "$wg_chromium" "$wg_dir" "usage:$wg_usage" $wg_pages >"$wg_dir/chromium.out" 2>&1
         wg_rc=$?
         grep -E '^adapter' "$wg_dir/chromium.out" | sed 's/^/    /'
         grep -E '^(PASS|FAIL|SKIP) ' "$wg_dir/chromium.out" | while IFS= read -r wg_line; do say "$wg_line"; done
         if [ $wg_rc -ne 0 ] && ! grep -q '^FAIL ' "$wg_dir/chromium.out"; then
            say "FAIL webgpu[chromium]: exit $wg_rc: $(tail -c 400 "$wg_dir/chromium.out" | tr '\n' ' ')"
         fi
      fi
      kill "$wg_srv" 2>/dev/null
      wait "$wg_srv" 2>/dev/null
   fi

   # ---- a second implementation: Dawn under node (the npm package webgpu), on the
   # machine's Vulkan driver (Mesa's lavapipe on a machine without a GPU)
   if [ ! -d build/web-test/node_modules/webgpu ]; then
      say "SKIP webgpu[dawn]: the npm package webgpu is not in build/web-test (npm install --prefix build/web-test webgpu; .ci/run does)"
   else
      # EGL without a display, for Dawn's OpenGL ES backend on Mesa's llvmpipe
      EGL_PLATFORM=surfaceless XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$wg_dir} NODE_PATH=build/web-test/node_modules \
         timeout 600 node tests/webgpu/run_grid.js "$wg_grid" dawn >"$wg_dir/dawn.out" 2>&1
      wg_rc=$?
      grep -E '^adapter' "$wg_dir/dawn.out" | sed 's/^/    /'
      grep -E '^(PASS|FAIL|SKIP) ' "$wg_dir/dawn.out" | while IFS= read -r wg_line; do say "$wg_line"; done
      if [ $wg_rc -ne 0 ] && ! grep -q '^FAIL ' "$wg_dir/dawn.out"; then
         say "FAIL webgpu[dawn]: exit $wg_rc: $(tail -c 400 "$wg_dir/dawn.out" | tr '\n' ' ')"
      fi
   fi
fi

# ---- docs/WEBGPU.md's "Tested on" counts are this run's (its refusal count had stayed at 56
# while the grid grew to 61)
wg_said=$(grep -ohE '[0-9]+ bad calls throw' "$wg_dir/chromium.out" "$wg_dir/dawn.out" 2>/dev/null | head -n 1 | cut -d' ' -f1)
if [ -n "$wg_said" ]; then
   wg_doc=$(tr '\n' ' ' <docs/WEBGPU.md | grep -oE '[0-9]+ refusals' | head -n 1 | cut -d' ' -f1)
   if [ "$wg_doc" = "$wg_said" ]; then say "PASS webgpu[docs]: docs/WEBGPU.md's $wg_doc refusals are the ones this run made"
   else say "FAIL webgpu[docs]: docs/WEBGPU.md says ${wg_doc:-no count of} refusals, this run made $wg_said (update its \"Tested on\")"; fi
fi
