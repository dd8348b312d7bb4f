# dropout.h - everything here is optional: the library is the one header.
#   make demo    the main example: trains a small MLP with and without dropout, checks that
#                the weights are bit-reproducible, writes pictures to build/demo/
#   make example the one-page API example, examples/basic.c, and examples/train_loop.c
#                (dropout in your own training loop, with a checkpoint that resumes it)
#   make figures the tutorial's pictures in docs/img/ (examples/make_figures.c and the demo)
#   make test    every test and build check; ends with "N passed, M failed, K skipped"
#   make fuzz    the descriptor fuzz target (clang libFuzzer + ASan + UBSan) for FUZZ_SECONDS
#                (default 600); new inputs that add coverage are merged into tests/fuzz/corpus/
#   make check   the quick subset (known answers, the contract, one SIMD build), same last line
#   make test T="NAME..."  only those areas or tests (tests/README.md)
#   make bench   CPU speed against the memory wall and peers; writes build/bench/cpu-*.md
#   make bench-isa  where the time goes and the overlap tables on each x86 SIMD path;
#                   writes build/bench/isa-*.md
#   make bench-ab   this dropout.h against a revision's (REV=7bc1106, pinned) over the whole
#                   grid, in one process, beside A against itself built again (the guard)
#   make bench-ab-all  the same on every build this CPU runs (native, AVX2, SSE2 on x86-64)
#   make bench-ab-wasm  the same grid as WebAssembly (SIMD128) under node
#   make bench-ab-calls  the calls at one size against max(wall, Philox alone), REV=HEAD
#   make same-code  REV's dropout.h (default HEAD) against this one: the same code? (builds only)
#   make bench-ceiling  the in-cache forward's own instructions with its data in L1: how
#                   close the overlap could get to Philox alone if memory cost nothing
#                   (CEILING_LOG2=15: 2^15 elements instead of 2^16, for a 512 KiB L2)
#   PUBLISH=1    the bench targets write to bench/results/ instead (the files README cites)
#   make web     the teaching page (web/): a static site in build/web/, the header built for
#                WebAssembly; make serve serves it on 127.0.0.1 (PORT=8000)
#   make demo-opencl / bench-opencl / opencl-embed   dropout_opencl.h (see its section below)
#   make bench-fpu-check  what the per-call FPU mode check costs; writes build/fpu_check.txt
#   make octave / demo-octave   the MATLAB/Octave binding, matlab/ (see its section below)
CC ?= cc
WARN = -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror
CFLAGS ?= -std=c99 -O2 $(WARN)

.PHONY: demo example figures web serve test check bench bench-isa bench-ab bench-ab-all bench-ab-wasm bench-ceiling clean python python-cuda test-cuda bench-cuda bench-cuda-ab bench-cuda-ab-bases gpu gpu-info gpu-peers test-cuda-run sanitize-cuda demo-cuda profile-cuda bench-matmul-cuda fuzz demo-ddp bench-fpu-check

# -ffp-contract=off: GCC's GNU-mode default fuses a*b+c into FMA across statements, which
# would make the weights depend on the CPU (docs/TUTORIAL.md, reproducibility traps).
demo: build/train_mlp
	./build/train_mlp

build/train_mlp: examples/train_mlp.c examples/mlp_model.h examples/mlp_run.h examples/mlp_math.h examples/plot.h examples/png.h dropout.h
	@mkdir -p build
	$(CC) $(CFLAGS) -ffp-contract=off -I. examples/train_mlp.c -o $@ -lpthread -lm

example: build/basic build/train_loop
	./build/basic
	./build/train_loop

build/basic: examples/basic.c dropout.h
	@mkdir -p build
	$(CC) $(CFLAGS) -I. examples/basic.c -o $@

build/train_loop: examples/train_loop.c dropout.h
	@mkdir -p build
	$(CC) $(CFLAGS) -ffp-contract=off -I. examples/train_loop.c -o $@

# docs/img/ is committed; tests/examples/suite.sh fails when it differs from what this
# makes now. The demo runs with 2 threads so that weight_diff.svg's labels do not depend
# on the machine's core count.
figures: build/make_figures build/train_mlp
	@mkdir -p docs/img
	./build/make_figures docs/img
	./build/train_mlp --threads 2 --out docs/img

build/make_figures: examples/make_figures.c examples/plot.h examples/png.h dropout.h
	@mkdir -p build
	$(CC) $(CFLAGS) -I. examples/make_figures.c -o $@

# --- the teaching page: web/ -> build/web/ (static files, no network at run time) -------
# The header and the trainer are built with Debian's clang for wasm32 with no libc; the
# modules go into modules.js as base64, so the page also opens from file://.
WEB_CC ?= clang
WEB_CFLAGS = --target=wasm32 -nostdlib -std=c99 -O2 $(WARN) -ffp-contract=off -I. -Wl,--no-entry
WEB_FILES = build/web/index.html build/web/app.js build/web/trainer.js build/web/style.css
PORT ?= 8000

web: $(WEB_FILES) build/web/modules.js
	@echo "built build/web/ (open it with: make serve)"

build/web/dropout.wasm: web/dropout_wasm.c web/wasm_libc.h dropout.h
	@mkdir -p build/web
	$(WEB_CC) $(WEB_CFLAGS) web/dropout_wasm.c -o $@

# the demo trainer: examples/mlp_model.h, which builds freestanding
build/web/trainer.wasm: web/trainer_wasm.c web/wasm_libc.h examples/mlp_model.h examples/mlp_math.h dropout.h
	@mkdir -p build/web
	$(WEB_CC) $(WEB_CFLAGS) web/trainer_wasm.c -o $@

build/web/modules.js: build/web/dropout.wasm build/web/trainer.wasm
	{ printf 'window.DROPOUT_MODULES = {\n'; \
	  for m in $^; do printf '  %s: "%s",\n' "$$(basename $$m .wasm)" "$$(base64 <$$m | tr -d '\n')"; done; \
	  printf '};\n'; } >$@

build/web/%: web/%
	@mkdir -p build/web
	cp $< $@

serve: web
	@echo "serving build/web/ at http://127.0.0.1:$(PORT)/  (Ctrl-C stops)"
	cd build/web && python3 -m http.server --bind 127.0.0.1 $(PORT)

test:
	@sh tests/run.sh $(T)

check:
	@sh tests/check.sh

# `make test` fuzzes for 25 s (tests/fuzz/suite.sh); this runs longer and keeps what it finds:
# libFuzzer's -merge=1 -use_counters=0 adds to tests/fuzz/corpus/ only the inputs that reach
# new coverage edges (one input per edge keeps the corpus small).
FUZZ_SECONDS ?= 600
FUZZ_CLANG ?= clang
build/fuzz/fuzz_desc: tests/fuzz/fuzz_desc.c dropout.h
	@mkdir -p build/fuzz/new
	$(FUZZ_CLANG) -std=c99 -O1 -g $(WARN) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I. $< -o $@

fuzz: build/fuzz/fuzz_desc
	cd build/fuzz && ./fuzz_desc -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=1024 -print_final_stats=1 new ../../tests/fuzz/corpus
	./build/fuzz/fuzz_desc -merge=1 -use_counters=0 tests/fuzz/corpus build/fuzz/new

# Results go to build/bench/ (a run leaves the checkout clean); PUBLISH=1 writes them to
# bench/results/, the tracked files the README cites.
BENCH_OUT = $(if $(PUBLISH),bench/results,build/bench)

# The bench is built for this CPU (BENCH_ARCH, default -march=native; -mavx2 measures the
# AVX2 path on an AVX-512 machine) and with OpenMP when the compiler has it. cuRAND's host
# generator is a peer where the CUDA toolkit's libcurand is. One results file per CPU model
# and SIMD path: $(BENCH_OUT)/cpu-<model>-f<family>m<model number>-<path>.md (the
# family and model tell apart CPUs that share a name, such as "AMD EPYC"; the history is in git).
BENCH_ARCH ?= -march=native
BENCH_CFLAGS = -std=c99 -O3 $(BENCH_ARCH) $(BENCH_OMP)
BENCH_OMP := $(shell echo 'int main(void){return 0;}' | $(CC) -fopenmp -x c - -o /dev/null 2>/dev/null && echo -fopenmp)
CUDA_HOME ?= /usr/local/cuda
BENCH_CURAND := $(shell [ -f $(CUDA_HOME)/include/curand.h ] && ls $(CUDA_HOME)/lib64/libcurand.so >/dev/null 2>&1 && \
   echo "-DHAVE_CURAND -isystem $(CUDA_HOME)/include -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcurand")
BENCH_MODEL := $(shell grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | tr 'A-Z' 'a-z' | \
   sed -e 's/(r)//g; s/(tm)//g' -e 's/ processor//; s/ cpu @.*//; s/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$$//')$(shell \
   awk -F': *' '/^cpu family/{f=$$2} /^model[ \t]*:/{m=$$2} END{if (f != "") printf "-f%sm%s", f, m}' /proc/cpuinfo 2>/dev/null)

bench: build/bench_cpu
	@mkdir -p $(BENCH_OUT); path=$$(./build/bench_cpu --path); out=$(BENCH_OUT)/cpu-$(or $(BENCH_MODEL),unknown)-$$path.md; \
	   ./build/bench_cpu $$out && echo "saved $$out"

# the library twice more, streaming from 0 bytes and never, for the threshold table
build/bench_variant_%.o: bench/stream_variant.c dropout.h
	@mkdir -p build
	$(CC) $(BENCH_CFLAGS) $(WARN) -DVARIANT=$* -DDROPOUT_STREAM_STORE_BYTES=$(if $(filter nt,$*),0,SIZE_MAX) -I. -c $< -o $@

build/bench_cpu: bench/bench_cpu.c dropout.h build/bench_variant_nt.o build/bench_variant_cached.o
	@mkdir -p build
	$(CC) $(BENCH_CFLAGS) $(WARN) -Wno-error -DBENCH_FLAGS='"$(CC) $(BENCH_CFLAGS)"' -I. bench/bench_cpu.c \
	   build/bench_variant_nt.o build/bench_variant_cached.o -o $@ $(BENCH_CURAND)

bench-fpu-check:
	@mkdir -p build; $(CC) -std=c99 -O2 $(WARN) -I. bench/fpu_check.c -o build/fpu_check && ./build/fpu_check | tee build/fpu_check.txt

# Where the time goes, and the overlap tables, on every x86 path this CPU runs (reference,
# SSE2, SSE4.1, AVX2, AVX-512), one build each at the x86-64 micro-architecture levels,
# into one file:
# $(BENCH_OUT)/isa-<model>.md
ISA_LEVELS = reference:-march=x86-64:-DDROPOUT_NO_SIMD sse2:-march=x86-64: sse4.1:-march=x86-64-v2:sse4_1 \
   avx2:-march=x86-64-v3:avx2 avx512:-march=x86-64-v4:avx512bw avx512-bf16:-march=cooperlake:avx512_bf16
bench-isa:
	@mkdir -p build/isa $(BENCH_OUT); out=$(BENCH_OUT)/isa-$(or $(BENCH_MODEL),unknown).md; \
	{ echo "# Where the time goes, and the Philox/data overlap, by SIMD path"; echo; \
	  echo "- date: $$(date -u '+%Y-%m-%d %H:%M UTC'); CPU: $$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) ($(BENCH_MODEL))"; \
	  echo "- $(CC) -std=c99 -O3 at each x86-64 level (and -march=cooperlake: AVX-512 with AVX512_BF16); one thread, ns per 64 elements"; echo; } >$$out; \
	for l in $(ISA_LEVELS); do name=$${l%%:*}; rest=$${l#*:}; march=$${rest%%:*}; flag=$${rest#*:}; \
	   def=""; case $$flag in -D*) def=$$flag; flag="";; esac; \
	   if [ -n "$$flag" ] && ! grep -qw "$$flag" /proc/cpuinfo; then echo "### $$name: not run (this CPU has no $$flag)" >>$$out; echo >>$$out; continue; fi; \
	   f="-std=c99 -O3 $$march $$def"; \
	   $(CC) $$f -DVARIANT=nt -DDROPOUT_STREAM_STORE_BYTES=0 -I. -c bench/stream_variant.c -o build/isa/nt.o && \
	   $(CC) $$f -DVARIANT=cached -DDROPOUT_STREAM_STORE_BYTES=SIZE_MAX -I. -c bench/stream_variant.c -o build/isa/cached.o && \
	   $(CC) $$f -DBENCH_FLAGS="\"$(CC) $$f\"" -I. bench/bench_cpu.c build/isa/nt.o build/isa/cached.o -o build/isa/bench_$$name && \
	   ./build/isa/bench_$$name --cycles $$out >/dev/null && ./build/isa/bench_$$name --overlap $$out >/dev/null || exit 1; \
	done; cat $$out; echo "saved $$out"

# make bench-ab [REV=7bc1106] [POS=0] [AB_ARGS=...]: the guard. The working tree's dropout.h
# (B) against REV's (A; default the pinned baseline, 0.1.0's CPU code) over the whole grid
# in one process (bench/ab/grid.c): draw widths 8/16/32; forward with and without the mask,
# the mask alone, both backwards, the fused op; f32, bf16, f16; in L2 and streamed; 1 and 2
# threads. Per cell the ratio B/A, and A'/A and B'/B: each header built again at other
# addresses (the spreads to read B/A against: the moment's noise and placement). Any
# revision from 0.1.0 on can be A (the grid uses the 0.1.0 calls). AB_ARGS: grid.c's
# options (-s l2|mem, -t 1|2, -f cell, -r/-R rounds, -L log2 n streamed, -a 16: arrays as
# malloc aligns them); the streamed block is 2^24 elements, or up to 2^26 where f32 x and y
# would be under four times the CPU's last-level cache (the table says which). Writes
# $(BENCH_OUT)/ab-<model>-<path><AB_TAG>-vs-<rev>.md (PUBLISH=1: bench/results/). The cells it flags
# are timed again from three fresh copies of the binary and appended (bench/ab/recheck.sh:
# on a VM, byte-identical copies read one streamed cell 1.00 to 1.50 apart); AB_RECHECK=0
# leaves that out. AB_B_CFLAGS: flags for B alone, to time a setting against the header
# as it is (REV=HEAD AB_B_CFLAGS=-DDROPOUT_STREAM_STORE_BYTES=SIZE_MAX: plain stores
# at every size against the default policy).
AB_BASE = 7bc1106
AB_B_CFLAGS ?=
POS ?= 0
AB_ARGS ?=
bench-ab:
	@mkdir -p build/ab/base $(BENCH_OUT) && git show $(or $(REV),$(AB_BASE)):dropout.h >build/ab/base/dropout.h
	@# a revision with the 0.1 calls in dropout_v0.h (after 0.9.0) needs it beside its dropout.h
	@git show $(or $(REV),$(AB_BASE)):dropout_v0.h >build/ab/base/dropout_v0.h 2>/dev/null || rm -f build/ab/base/dropout_v0.h
	$(CC) -std=c99 -O3 $(BENCH_ARCH) $(WARN) -DVNAME=A $$(grep -q "define DROPOUT_RULE_THRESHOLD" build/ab/base/dropout.h && echo -DAB_API_1) -Ibuild/ab/base -c bench/ab/grid_variant.c -o build/ab/grid_a.o
	$(CC) -std=c99 -O3 $(BENCH_ARCH) $(WARN) -DVNAME=B -DAB_API_1 $(AB_B_CFLAGS) -I. -c bench/ab/grid_variant.c -o build/ab/grid_b.o
	$(CC) -std=c99 -O3 $(BENCH_ARCH) $(WARN) -DVNAME=C -DAB_MOVE $$(grep -q "define DROPOUT_RULE_THRESHOLD" build/ab/base/dropout.h && echo -DAB_API_1) -Ibuild/ab/base -c bench/ab/grid_variant.c -o build/ab/grid_c.o
	$(CC) -std=c99 -O3 $(BENCH_ARCH) $(WARN) -DVNAME=D -DAB_MOVE -DAB_API_1 $(AB_B_CFLAGS) -I. -c bench/ab/grid_variant.c -o build/ab/grid_d.o
	for v in a b c d; do objcopy -w --keep-global-symbol='ab_grid_*' build/ab/grid_$$v.o || exit 1; done
	$(CC) -std=c99 -O3 $(BENCH_ARCH) $(BENCH_OMP) $(WARN) bench/ab/grid.c build/ab/grid_a.o build/ab/grid_b.o build/ab/grid_c.o build/ab/grid_d.o -o build/ab/ab_grid
	@rev=$$(git rev-parse --short $(or $(REV),$(AB_BASE))); out=$(BENCH_OUT)/ab-$(or $(BENCH_MODEL),unknown)-$$(./build/ab/ab_grid --path)$(AB_TAG)-vs-$$rev.md; \
	{ echo "# make bench-ab: $(or $(REV),$(AB_BASE)) ($$rev) against the working tree"; echo; \
	  echo "- date: $$(date -u '+%Y-%m-%d %H:%M UTC'); CPU: $$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) ($(BENCH_MODEL)), $$(nproc) cores"; \
	  echo "- A = $(or $(REV),$(AB_BASE)):dropout.h, B = the working tree's ($$(git rev-parse --short HEAD)$$(git diff --quiet HEAD -- dropout.h || echo ' + changes')); $(CC) -std=c99 -O3 $(BENCH_ARCH) $(BENCH_OMP); grid options: $(AB_ARGS)$(if $(AB_B_CFLAGS),; B built with $(AB_B_CFLAGS))"; echo; \
	  ./build/ab/ab_grid -p $(POS) $(AB_ARGS); } | tee $$out; \
	if [ "$(AB_RECHECK)" != 0 ] && grep -q 'above the spread: [^n]' $$out; then \
	  { echo; echo "### The flagged cells again, from fresh copies of the grid binary (bench/ab/recheck.sh)"; echo; \
	    sh bench/ab/recheck.sh $$out build/ab/ab_grid 3; } | tee -a $$out; fi; echo "saved $$out"

# make bench-ab-all REV=<rev>: make bench-ab on each build this CPU runs: -march=native,
# then on x86-64 also x86-64-v3 (AVX2) and x86-64 (SSE2), each with its recheck: the
# "every machine a session gets" run, one table per CPU model and path.
.PHONY: bench-ab-all
bench-ab-all:
	@# a CPU whose native path is AVX2 (no AVX-512BW) runs two AVX2 builds: the native one,
	@# tuned for this core, is then saved as -avx2-native- so the generic one does not replace it
	$(MAKE) --no-print-directory bench-ab BENCH_ARCH=-march=native \
	   $$([ "$$(uname -m)" = x86_64 ] && ! grep -qw avx512bw /proc/cpuinfo && echo AB_TAG=-native)
	@if [ "$$(uname -m)" = x86_64 ]; then \
	   $(MAKE) --no-print-directory bench-ab BENCH_ARCH=-march=x86-64-v3 && \
	   $(MAKE) --no-print-directory bench-ab BENCH_ARCH=-march=x86-64; fi

# make bench-ab-wasm [REV=HEAD] [AB_ARGS=...]: the grid of make bench-ab as WebAssembly under
# node (V8), one thread: REV's dropout.h (A) against the working tree's (B), both built by
# clang --target=wasm32-wasi -O3 -msimd128 (a header without the SIMD128 path runs its
# scalar code there), A' = A built again; 2^16 elements and 2^24 (plain stores: WebAssembly
# has no streaming ones). Needs clang, wasi-libc, compiler-rt for wasm32 and node (.ci/run's
# list). Writes $(BENCH_OUT)/ab-wasm-node<version>-on-<model>-vs-<rev>.md.
WASI_CC = clang --target=wasm32-wasi -std=c99 -O3 -msimd128 $(WARN)
.PHONY: bench-ab-wasm
bench-ab-wasm:
	@mkdir -p build/ab/wasm/base $(BENCH_OUT) && git show $(or $(REV),HEAD):dropout.h >build/ab/wasm/base/dropout.h
	@git show $(or $(REV),HEAD):dropout_v0.h >build/ab/wasm/base/dropout_v0.h 2>/dev/null || rm -f build/ab/wasm/base/dropout_v0.h
	@api=$$(grep -q "define DROPOUT_RULE_THRESHOLD" build/ab/wasm/base/dropout.h && echo -DAB_API_1); set -e; \
	$(WASI_CC) -DVNAME=A $$api -DDROPOUT_STATIC -Ibuild/ab/wasm/base -c bench/ab/grid_variant.c -o build/ab/wasm/a.o; \
	$(WASI_CC) -DVNAME=B -DAB_API_1 -DDROPOUT_STATIC -I. -c bench/ab/grid_variant.c -o build/ab/wasm/b.o; \
	$(WASI_CC) -DVNAME=C $$api -DDROPOUT_STATIC -Ibuild/ab/wasm/base -c bench/ab/grid_variant.c -o build/ab/wasm/c.o; \
	$(WASI_CC) -DVNAME=D -DAB_API_1 -DDROPOUT_STATIC -I. -c bench/ab/grid_variant.c -o build/ab/wasm/d.o; \
	$(WASI_CC) bench/ab/grid.c build/ab/wasm/a.o build/ab/wasm/b.o build/ab/wasm/c.o build/ab/wasm/d.o -o build/ab/wasm/grid.wasm
	@rev=$$(git rev-parse --short $(or $(REV),HEAD)); out=$(BENCH_OUT)/ab-wasm-node$$(node --version | tr -d v | cut -d. -f1)-on-$(or $(BENCH_MODEL),unknown)-vs-$$rev.md; \
	{ echo "# make bench-ab-wasm: $(or $(REV),HEAD) ($$rev) against the working tree, as WebAssembly"; echo; \
	  echo "- date: $$(date -u '+%Y-%m-%d %H:%M UTC'); node $$(node --version) (V8 $$(node -p process.versions.v8)); CPU: $$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) ($(BENCH_MODEL))"; \
	  echo "- A = $(or $(REV),HEAD):dropout.h, B = the working tree's ($$(git rev-parse --short HEAD)$$(git diff --quiet HEAD -- dropout.h || echo ' + changes')); $(WASI_CC); grid options: -t 1 $(AB_ARGS)"; \
	  echo "- one thread (no threads in this build); the large block: plain stores, WebAssembly has no streaming ones"; echo; \
	  node --no-warnings tests/simd/run_wasi.js build/ab/wasm/grid.wasm -t 1 $(AB_ARGS); } | tee $$out; echo "saved $$out"

# make bench-places [REV=HEAD] [BENCH_ARCH=...] [AB_ARGS=...]: REV's dropout.h and the working
# tree's, each at 12 places of its code (bench/ab/places.sh: the fastest, median and slowest
# place of each cell, both sides in the same six binaries). The same code can run 1.4-2x
# apart where it lands (Zen 5), and make bench-ab sees two places of each side. Writes
# $(BENCH_OUT)/places-<model>-<arch>-vs-<rev>.md.
.PHONY: bench-places
bench-places:
	@mkdir -p $(BENCH_OUT) build/ab/places
	@rev=$$(git rev-parse --short $(or $(REV),HEAD)); \
	 out=$(BENCH_OUT)/places-$(or $(BENCH_MODEL),unknown)-$(subst -march=,,$(or $(BENCH_ARCH),native))-vs-$$rev.md; \
	 CC="$(CC)" WARN="$(WARN)" BENCH_ARCH="$(BENCH_ARCH)" BENCH_MODEL="$(BENCH_MODEL)" sh bench/ab/places.sh $(or $(REV),HEAD) $(AB_ARGS) | tee $$out; \
	 echo "saved $$out"

# make same-code [REV=HEAD]: does the working tree's dropout.h compile to REV's code, function
# for function (bench/ab/same_code.sh: gcc and clang, each SIMD path)? The check for code
# motion, which must move no bit and no nanosecond. Builds only; no timing.
.PHONY: same-code
same-code:
	sh bench/ab/same_code.sh $(or $(REV),HEAD)

# make bench-ab-short [REV=70982b4] [SHORT_FLAGS=-O2]: the f32 short call of REV's header
# (0.9: forward(plan)) against the working tree's (1.0: replay(plan, n)), 1 to 65536
# elements, with the library's default flags (-O2, the SSE2 path) unless SHORT_FLAGS says.
# Both objects start their functions at 64-byte boundaries: with gcc's 16, where the second
# object's code fell decided the figure (the same header read 1.27x slower as B than as A,
# on Zen 5), which is the link's luck and not the header's.
SHORT_FLAGS ?= -O2
SHORT_ALIGN = -falign-functions=64
.PHONY: bench-ab-short
bench-ab-short:
	@mkdir -p build/ab/short_base && git show $(or $(REV),70982b4):dropout.h >build/ab/short_base/dropout.h
	$(CC) -std=c99 $(SHORT_FLAGS) $(SHORT_ALIGN) $(WARN) -DVNAME=A -Ibuild/ab/short_base -c bench/ab/short_call_variant.c -o build/ab/short_a.o
	$(CC) -std=c99 $(SHORT_FLAGS) $(SHORT_ALIGN) $(WARN) -DVNAME=B -I. -c bench/ab/short_call_variant.c -o build/ab/short_b.o
	objcopy -w --keep-global-symbol='sc_*' build/ab/short_a.o && objcopy -w --keep-global-symbol='sc_*' build/ab/short_b.o
	$(CC) -std=c99 $(SHORT_FLAGS) $(WARN) bench/ab/short_call.c build/ab/short_a.o build/ab/short_b.o -o build/ab/short_call
	@echo "A = $(or $(REV),70982b4):dropout.h, B = the working tree's; $(CC) -std=c99 $(SHORT_FLAGS) $(SHORT_ALIGN)"; ./build/ab/short_call

# make bench-ab-calls [REV=HEAD] [LG=16] [REPS=300] [POS=0]: the f32/bf16/f16 calls at one
# size against max(wall, each version's Philox alone), REV's dropout.h (A, a revision with
# the 0.9 interface) and the working tree's (B), in alternation (bench/ab/main.c).
LG ?= 16
REPS ?= 300
.PHONY: bench-ab-calls
bench-ab-calls:
	@mkdir -p build/ab/base && git show $(or $(REV),HEAD):dropout.h >build/ab/base/dropout.h
	$(CC) -std=c99 -O3 $(BENCH_ARCH) $(WARN) -DVNAME=A -DAB_POS=$(POS) -Ibuild/ab/base -c bench/ab/variant.c -o build/ab/a.o
	$(CC) -std=c99 -O3 $(BENCH_ARCH) $(WARN) -DVNAME=B -DAB_POS=$(POS) -I. -c bench/ab/variant.c -o build/ab/b.o
	objcopy -w --keep-global-symbol='ab_*' build/ab/a.o && objcopy -w --keep-global-symbol='ab_*' build/ab/b.o
	$(CC) -std=c99 -O3 $(BENCH_ARCH) $(WARN) bench/ab/main.c build/ab/a.o build/ab/b.o -o build/ab/ab_main
	@echo "A = $(or $(REV),HEAD):dropout.h, B = the working tree's; $(CC) -std=c99 -O3 $(BENCH_ARCH); first position $(POS)"; ./build/ab/ab_main $(LG) $(REPS)

# make bench-ceiling [BENCH_ARCH=...]: bench/overlap_ceiling.c, the steps of the in-cache
# overlap run from the header's own functions on 8 chunks that stay in L1, beside Philox
# alone and the library's real forward in L2, in one process; then bench/ops_ceiling.c, the
# same for the mask alone, both backwards and the fused op. Prints two tables.
CEILING_LOG2 ?= 16
bench-ceiling:
	@mkdir -p build
	$(CC) -std=c99 -O3 $(BENCH_ARCH) $(WARN) -I. bench/overlap_ceiling.c -o build/overlap_ceiling
	$(CC) -std=c99 -O3 $(BENCH_ARCH) $(WARN) -I. bench/ops_ceiling.c -o build/ops_ceiling
	./build/overlap_ceiling 2000 $(CEILING_LOG2)
	./build/ops_ceiling 1000 $(CEILING_LOG2)

# --- GPU (dropout_cuda.cuh); need nvcc and a CUDA device ---------------------------------
#   make gpu        the whole GPU session in one command: prints date, device and driver;
#                   builds the seven programs in parallel; runs the tests, the trainer
#                   (CPU vs GPU weights), the matmul cost, the benchmark + report, the
#                   Python package's CUDA tests and the OpenCL tests on the GPU's driver
#                   (make gpu-peers, tests/gpu_peers.sh), then the sanitizers (each
#                   capped by SANITIZER_TIMEOUT seconds, last so that a slow one cannot
#                   cost the numbers). Log and report go to $$OUT when set (gpu.log,
#                   bench_cuda.md, bench_cuda.csv, bench_cuda_splits.md (the warp path's
#                   lanes a unit against call size), bench_opencl.md); about 6 minutes on an H100.
#   make test-cuda / demo-cuda / bench-cuda / bench-matmul-cuda / sanitize-cuda /
#        profile-cuda (Nsight Compute counters)   the pieces
#   make bench-cuda-ab REV="<rev> ..."   the working tree's kernels against each REV's, cell by cell
#   REPORT=path     where the report goes (default $$OUT/bench_cuda.md, else build/bench/,
#                   or bench/results/ with PUBLISH=1)
NVCC ?= $(shell command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)
# (not NVARCH: CUDA container images export NVARCH=x86_64)
NVCC_ARCH ?= -arch=native
NVFLAGS = -std=c++14 -O2 -Werror all-warnings -Xcompiler -Wall,-Wextra -I. $(NVCC_ARCH)
SANITIZER ?= $(shell command -v compute-sanitizer 2>/dev/null || echo /usr/local/cuda/bin/compute-sanitizer)
SANITIZER_TIMEOUT ?= 150
REPORT ?= $(if $(OUT),$(OUT)/bench_cuda.md,$(BENCH_OUT)/cuda-$(shell date +%Y%m%d-%H%M%S).md)
GPU_LOG = $(if $(OUT),$(OUT)/gpu.log,build/cuda/gpu.log)
CUDA_BINS = build/cuda/test_cuda build/cuda/test_cuda_run build/cuda/test_cuda_run_fastmath build/cuda/test_cuda_v0 build/cuda/variants_cuda build/cuda/bench_cuda build/cuda/train_mlp_cuda build/cuda/matmul_cost_cuda

build/cuda/test_cuda: tests/cuda/test_cuda.cu dropout_cuda.cuh dropout.h
	@mkdir -p build/cuda
	$(NVCC) $(NVFLAGS) -Itests tests/cuda/test_cuda.cu -o $@

# dropout_cuda_run on strided views, every op, device coordinates, graphs (== dropout_run)
build/cuda/test_cuda_run: tests/cuda/test_cuda_run.cu tests/cuda/views.h tests/check.h dropout_cuda.cuh dropout.h
	@mkdir -p build/cuda
	$(NVCC) $(NVFLAGS) -Itests tests/cuda/test_cuda_run.cu -o $@

# the same built with --use_fast_math (-ftz=true, -prec-div=false, ...), as many CUDA projects
# build everything: the kernels' float operations are written so that no flag changes a bit
build/cuda/test_cuda_run_fastmath: tests/cuda/test_cuda_run.cu tests/cuda/views.h tests/check.h dropout_cuda.cuh dropout.h
	@mkdir -p build/cuda
	$(NVCC) $(NVFLAGS) --use_fast_math -Itests tests/cuda/test_cuda_run.cu -o $@

# a 0.1.0 CUDA program built unchanged with DROPOUT_V0_API (== the 0.1.0 CPU calls)
build/cuda/test_cuda_v0: tests/cuda/test_cuda_v0.cu tests/check.h dropout_cuda.cuh dropout.h
	@mkdir -p build/cuda
	$(NVCC) $(NVFLAGS) -Itests tests/cuda/test_cuda_v0.cu -o $@

build/cuda/variants_cuda: tests/cuda/variants_cuda.cu dropout_cuda.cuh dropout.h tests/check.h
	@mkdir -p build/cuda
	$(NVCC) $(NVFLAGS) -Itests tests/cuda/variants_cuda.cu -o $@

build/cuda/bench_cuda: bench/bench_cuda.cu dropout_cuda.cuh dropout.h
	@mkdir -p build/cuda
	$(NVCC) $(NVFLAGS) bench/bench_cuda.cu -o $@

# -ffp-contract=off for the host half: the CPU run must not fuse either (see demo)
build/cuda/train_mlp_cuda: examples/train_mlp_cuda.cu examples/mlp_model.h examples/mlp_run.h examples/mlp_math.h examples/plot.h dropout_cuda.cuh dropout.h
	@mkdir -p build/cuda
	$(NVCC) $(NVFLAGS) -Xcompiler -ffp-contract=off examples/train_mlp_cuda.cu -o $@ -lpthread

build/cuda/matmul_cost_cuda: bench/matmul_cost_cuda.cu
	@mkdir -p build/cuda
	$(NVCC) $(NVFLAGS) -Xcompiler -ffp-contract=off bench/matmul_cost_cuda.cu -o $@ -lcublas

gpu-info:
	@echo "date:   $$(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	@echo "device: $$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || echo 'nvidia-smi unavailable')"
	@echo "nvcc:   $$($(NVCC) --version 2>/dev/null | tail -n 2 | head -n 1)"
	@echo "cpu:    $$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2-)"
	@echo "host:   $$(hostname) $$(git rev-parse --short HEAD 2>/dev/null)"

# each program runs whatever the one before it did (a failing test_cuda hid the other four
# on a GPU lent for minutes); the target fails if any did
CUDA_TEST_PROGS = test_cuda test_cuda_run test_cuda_run_fastmath test_cuda_v0 variants_cuda
test-cuda-run: $(addprefix build/cuda/,$(CUDA_TEST_PROGS))
	@rc=0; for t in $(CUDA_TEST_PROGS); do echo "./build/cuda/$$t"; \
	   ./build/cuda/$$t || { echo "FAIL $$t: exit $$?"; rc=1; }; done; exit $$rc

# the demo's dropout run on the CPU and on the GPU, weights compared byte for byte
demo-cuda: build/cuda/train_mlp_cuda
	./build/cuda/train_mlp_cuda

# memcheck (out-of-bounds, misaligned accesses, API errors), racecheck (shared memory; the
# kernels use none, so it must stay empty), synccheck (__shfl_sync on diverged lanes), on
# the reduced test run; each prints the sanitizer's own report lines
sanitize-cuda: build/cuda/test_cuda
	@if [ -x "$(SANITIZER)" ]; then rc=0; \
	   for tool in memcheck racecheck synccheck; do \
	      echo "compute-sanitizer --tool $$tool ./build/cuda/test_cuda small:"; \
	      timeout $(SANITIZER_TIMEOUT) $(SANITIZER) --tool $$tool --error-exitcode 1 ./build/cuda/test_cuda small \
	         >build/cuda/sanitize-$$tool.log 2>&1; r=$$?; \
	      grep -E '^=+ ' build/cuda/sanitize-$$tool.log | head -n 30; tail -n 1 build/cuda/sanitize-$$tool.log | grep -vE '^=+ '; \
	      [ $$r = 0 ] || { echo "  -> $$tool exit $$r (124: timed out)"; rc=1; }; \
	   done; exit $$rc; \
	else echo "SKIP sanitizers: compute-sanitizer not found (set SANITIZER=...)"; fi

# Nsight Compute counters for the benchmark's kernels at one size (2^PROFILE_LOG2), one
# launch per case and path: time, DRAM bytes and throughput, SM and issue utilisation,
# registers, achieved occupancy. Needs ncu (works under Firecracker, not gVisor).
NCU ?= $(shell command -v ncu 2>/dev/null || echo ncu)
PROFILE_LOG2 ?= 26
NCU_METRICS = gpu__time_duration.sum,dram__bytes.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
profile-cuda: build/cuda/bench_cuda
	DROPOUT_BENCH_MIN_LOG2=$(PROFILE_LOG2) DROPOUT_BENCH_MAX_LOG2=$(PROFILE_LOG2) DROPOUT_BENCH_REPS=1 DROPOUT_BENCH_WARMUPS=0 \
	   $(NCU) --clock-control none -k regex:dropout_cuda__kernel --launch-count 200 --csv \
	   --metrics $(NCU_METRICS) ./build/cuda/bench_cuda >build/cuda/ncu.csv 2>build/cuda/ncu.err || { tail -5 build/cuda/ncu.err; exit 1; }
	@if [ -n "$(OUT)" ]; then cp build/cuda/ncu.csv "$(OUT)/"; fi
	@echo "ncu counters in build/cuda/ncu.csv"

# what the trainer's fixed summation order costs against cuBLAS (docs/TUTORIAL.md)
bench-matmul-cuda: build/cuda/matmul_cost_cuda
	./build/cuda/matmul_cost_cuda

test-cuda: test-cuda-run sanitize-cuda

bench-cuda: build/cuda/bench_cuda
	DROPOUT_BENCH_SPLITS=build/cuda/bench_cuda_splits.md ./build/cuda/bench_cuda build/cuda/bench_cuda.csv
	@mkdir -p $(dir $(REPORT))
	python3 bench/torch_cuda.py --ours build/cuda/bench_cuda.csv --out $(REPORT)
	@if [ -n "$(OUT)" ]; then cp build/cuda/bench_cuda.csv build/cuda/bench_cuda_splits.md "$(OUT)/"; fi

# make bench-cuda-ab REV="<rev> ..." [AB_RUNS=3]: the speed guard on a GPU: bench_cuda built
# from each REV's dropout.h, dropout_cuda.cuh and bench_cuda.cu (REV at or after 232e3b5)
# against the working tree's, with the same flags, AB_RUNS rounds of every base and then the
# working tree's, in rotation, from 2^16 elements (DROPOUT_BENCH_MIN_LOG2 and _MAX_LOG2 change
# the sizes), compared cell by cell with each base's own spread (bench/cuda_ab.py); a report
# per REV to $$OUT, else $(BENCH_OUT), as cuda-ab-vs-<rev>.md. Several revisions place a step
# in one run (a GPU is lent for minutes). The bases are kept in build/cuda/ab/<rev>/ and
# built once (in parallel): `make bench-cuda-ab-bases REV=... NVCC_ARCH=-arch=sm_90` builds
# them on a machine without a GPU, to carry over; rm -rf build/cuda/ab builds them again.
AB_RUNS ?= 3
AB_DIR = build/cuda/ab
AB_FILES = dropout.h dropout_v0.h dropout_cuda.cuh dropout_cuda_v0.cuh bench/bench_cuda.cu
.PHONY: bench-cuda-ab bench-cuda-ab-bases
bench-cuda-ab-bases:
	@mkdir -p $(AB_DIR); pids=""; \
	for rev in $(or $(REV),HEAD); do \
	   sha=$$(git rev-parse --short "$$rev") || exit 1; d=$(AB_DIR)/$$sha; \
	   [ -x $$d/bench_cuda_base ] && continue; mkdir -p $$d; \
	   for f in $(AB_FILES); do git show $$sha:$$f >$$d/$$(basename $$f) 2>/dev/null || rm -f $$d/$$(basename $$f); done; \
	   echo "$(NVCC) $(NVFLAGS) $$d/bench_cuda.cu -o $$d/bench_cuda_base"; \
	   $(NVCC) $(NVFLAGS) $$d/bench_cuda.cu -o $$d/bench_cuda_base & pids="$$pids $$!"; \
	done; rc=0; for p in $$pids; do wait $$p || rc=1; done; exit $$rc

bench-cuda-ab: build/cuda/bench_cuda bench-cuda-ab-bases
	@mkdir -p $(if $(OUT),$(OUT),$(BENCH_OUT)); \
	if ./build/cuda/bench_cuda /dev/null 2>&1 | grep -q '^SKIP'; then echo "SKIP bench-cuda-ab: no CUDA device"; exit 0; fi; \
	shas=""; for rev in $(or $(REV),HEAD); do shas="$$shas $$(git rev-parse --short "$$rev")"; done; \
	rm -f $(AB_DIR)/new*.csv; for sha in $$shas; do rm -f $(AB_DIR)/$$sha/run*.csv; done; \
	for r in $$(seq $(AB_RUNS)); do \
	   for sha in $$shas; do \
	      DROPOUT_BENCH_MIN_LOG2=$${DROPOUT_BENCH_MIN_LOG2:-16} ./$(AB_DIR)/$$sha/bench_cuda_base $(AB_DIR)/$$sha/run$$r.csv >/dev/null || exit 1; \
	   done; \
	   DROPOUT_BENCH_MIN_LOG2=$${DROPOUT_BENCH_MIN_LOG2:-16} ./build/cuda/bench_cuda $(AB_DIR)/new$$r.csv >/dev/null || exit 1; \
	done; \
	for sha in $$shas; do out=$(if $(OUT),$(OUT),$(BENCH_OUT))/cuda-ab-vs-$$sha.md; \
	{ echo "- date: $$(date -u '+%Y-%m-%d %H:%M UTC'); device: $$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"; \
	  echo "- A = $$sha, B = the working tree ($$(git rev-parse --short HEAD)$$(git diff --quiet HEAD -- dropout.h dropout_cuda.cuh || echo ' + changes')); $(NVCC) $(NVFLAGS); in rotation:$$shas, then B"; echo; \
	  python3 bench/cuda_ab.py --rev $$sha --base $(AB_DIR)/$$sha/run*.csv --new $(AB_DIR)/new*.csv; } | tee $$out; \
	echo "saved $$out"; done

# the Python package's CUDA half and dropout_opencl.h on the GPU's OpenCL driver (tests/gpu_peers.sh)
gpu-peers:
	sh tests/gpu_peers.sh

gpu:
	@mkdir -p build/cuda $(if $(OUT),$(OUT))
	@{ rc=0; \
	  $(MAKE) --no-print-directory gpu-info; \
	  if $(MAKE) --no-print-directory -j4 $(CUDA_BINS); then \
	     $(MAKE) --no-print-directory test-cuda-run || rc=1; \
	     $(MAKE) --no-print-directory demo-cuda || rc=1; \
	     $(MAKE) --no-print-directory bench-matmul-cuda || rc=1; \
	     $(MAKE) --no-print-directory bench-cuda || rc=1; \
	     $(MAKE) --no-print-directory gpu-peers || rc=1; \
	     $(MAKE) --no-print-directory sanitize-cuda || rc=1; \
	  else rc=2; fi; \
	  echo $$rc >build/cuda/gpu.rc; \
	  echo "make gpu: $$( [ $$rc = 0 ] && echo ALL OK || echo SOMETHING FAILED, see above ); report $(REPORT); log $(GPU_LOG)"; \
	} 2>&1 | tee $(GPU_LOG); exit $$(cat build/cuda/gpu.rc)

# --- Python (the package python/dropouth, ctypes over these libraries; docs/PYTHON.md) ----
#   Install:  python3 -m pip install --no-build-isolation ./python   (in a venv made with
#             python3 -m venv --system-site-packages; docs/PYTHON.md). Without installing:
#   make python        build/python/libdropouth.so from python/dropouth_lib.c (checkout use)
#   make python-cuda   build/python/libdropouth_cuda.so from dropout_cuda.cuh (nvcc; the
#                      launchers need a GPU to run)
#   make demo-ddp      data parallel at 1, 2 and 3 processes (gloo, CPU; uneven interleaved
#                      shards): dropouth.Dropout(samples=) beside nn.Dropout, measured (python/demo_ddp.py)
PY_CFLAGS ?= -std=c99 -O2 $(WARN)
PYTHON ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)

python: build/python/libdropouth.so

.PHONY: demo-ddp
demo-ddp: build/python/libdropouth.so
	$(PYTHON) python/demo_ddp.py

build/python/libdropouth.so: python/dropouth_lib.c dropout.h
	@mkdir -p build/python
	$(CC) $(PY_CFLAGS) -shared -fPIC python/dropouth_lib.c -o $@

python-cuda: build/python/libdropouth_cuda.so

build/python/libdropouth_cuda.so: python/dropouth_cuda_lib.cu dropout_cuda.cuh dropout.h
	@mkdir -p build/python
	$(NVCC) $(NVFLAGS) -shared -Xcompiler -fPIC python/dropouth_cuda_lib.cu -o $@

clean:
	rm -rf build

# --- Open MPI (examples/train_mlp_mpi.c); needs mpicc and mpirun (openmpi-bin, libopenmpi-dev)
#   make demo-mpi   the demo MLP trained serially and data-parallel on 1, 2, 3 and 4 ranks:
#                   one weight hash per run, IDENTICAL when all are equal (examples/demo_mpi.sh)
#   make bench-mpi  epoch time against the rank count, fixed-order reduction vs MPI_Allreduce;
#                   writes build/bench/mpi-<cpu model>.md (bench/results/ with PUBLISH=1)
# `make test` runs the MPI tests (tests/mpi/suite.sh). Open MPI refuses to run as root without
# the two OMPI_ALLOW_* variables; --oversubscribe lets 3 and 4 ranks share 2 cores;
# MPIRUN_FLAGS are explained in examples/demo_mpi.sh.
MPICC ?= mpicc
MPIRUN ?= mpirun
MPIRUN_FLAGS ?= --oversubscribe --bind-to none --mca mpi_yield_when_idle 1 --mca btl self,vader --mca btl_vader_single_copy_mechanism none
MPI_ENV = OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 MPIRUN='$(MPIRUN)' MPIRUN_FLAGS='$(MPIRUN_FLAGS)'

.PHONY: demo-mpi bench-mpi

demo-mpi: build/train_mlp_mpi build/train_mlp
	$(MPI_ENV) TRAINER=build/train_mlp_mpi TRAIN_MLP=build/train_mlp sh examples/demo_mpi.sh

build/train_mlp_mpi: examples/train_mlp_mpi.c examples/mlp_model.h examples/mlp_run.h examples/mlp_math.h dropout.h
	@mkdir -p build
	$(MPICC) $(CFLAGS) -ffp-contract=off -I. examples/train_mlp_mpi.c -o $@ -lpthread -lm

bench-mpi: build/train_mlp_mpi
	@mkdir -p $(BENCH_OUT)
	$(MPI_ENV) TRAINER=build/train_mlp_mpi sh bench/mpi_bench.sh $(BENCH_OUT)/mpi-$(or $(BENCH_MODEL),unknown).md

# --- OpenCL (dropout_opencl.h); needs libOpenCL, CL/cl.h and an ICD (Debian: ocl-icd-opencl-dev
# opencl-c-headers pocl-opencl-icd; PoCL runs OpenCL on the CPU)
#   make demo-opencl   the demo MLP with its dropout on the first OpenCL device, weights
#                      compared with the CPU's byte for byte (CPU vs OpenCL weights: IDENTICAL)
#   make bench-opencl  each op against clEnqueueCopyBuffer of the same bytes, in one run;
#                      writes $(BENCH_OUT)/opencl-<cpu model>.md (on PoCL: CPU figures, it says so)
#   make opencl-embed  rewrite the program text in dropout_opencl.h from dropout.h and
#                      opencl/kernels.cl (after changing either; the tests check it is current)
# `make test T=opencl` runs the OpenCL tests alone (tests/opencl/suite.sh).
OPENCL_LIBS ?= -lOpenCL

.PHONY: demo-opencl bench-opencl opencl-embed

demo-opencl: build/opencl/train_mlp_opencl
	./build/opencl/train_mlp_opencl

build/opencl/train_mlp_opencl: examples/train_mlp_opencl.c examples/mlp_model.h examples/mlp_run.h examples/mlp_math.h dropout_opencl.h dropout.h
	@mkdir -p build/opencl
	$(CC) $(CFLAGS) -ffp-contract=off -I. examples/train_mlp_opencl.c -o $@ $(OPENCL_LIBS) -lpthread -lm

bench-opencl: build/opencl/bench_opencl
	@mkdir -p $(BENCH_OUT)
	./build/opencl/bench_opencl $(BENCH_OUT)/opencl-$(or $(BENCH_MODEL),unknown).md

build/opencl/bench_opencl: bench/bench_opencl.c dropout_opencl.h dropout.h
	@mkdir -p build/opencl
	$(CC) -std=c99 -O2 $(WARN) -I. bench/bench_opencl.c -o $@ $(OPENCL_LIBS)

opencl-embed:
	sh opencl/embed.sh

# --- MATLAB and GNU Octave (matlab/, docs/MATLAB.md); needs octave and liboctave-dev, and for
# the example's PNG gnuplot-nox and fonts-freefont-otf (Debian)
#   make octave        the MEX gateway of the +dropouth package: build/octave/dropouth_mex.mex
#   make demo-octave   examples/octave/train_twice.m: a small network trained twice with the
#                      same seeds, isequal(learnables1, learnables2) = 1, beside rand-based
#                      dropout; the bar plot in build/demo-octave/learnables_diff.png
# `make test T=octave` runs the binding's tests (tests/octave/suite.sh).
OCTAVE ?= octave-cli

.PHONY: octave demo-octave

octave: build/octave/dropouth_mex.mex

build/octave/dropouth_mex.mex: matlab/dropouth_mex.c dropout.h
	@mkdir -p build/octave
	mkoctfile --mex -I. matlab/dropouth_mex.c -o $@

demo-octave: build/octave/dropouth_mex.mex
	$(OCTAVE) --norc --no-history --quiet --eval "addpath('build/octave', 'matlab', 'examples/octave'); train_twice('build/demo-octave')"

# --- dropout_webgpu.js: dropout.h on WebGPU (WGSL) ---------------------------------------
#   make webgpu-embed  rewrite the WGSL in dropout_webgpu.js from webgpu/kernels.wgsl and
#                      dropout.h's constants (after changing either; the tests check it is
#                      current, and it stops when a mirrored dropout.h function changed)
#   make bench-webgpu  the forward against a WebGPU buffer copy of the same bytes, in
#                      headless chromium; writes $(BENCH_OUT)/webgpu-<adapter>.md
# `make test T=webgpu` runs its tests (tests/webgpu/suite.sh); the page's section 5 uses it.
.PHONY: webgpu-embed bench-webgpu

webgpu-embed:
	sh webgpu/embed.sh

web: build/web/webgpu.js build/web/dropout_webgpu.js

build/web/dropout_webgpu.js: dropout_webgpu.js
	@mkdir -p build/web
	cp $< $@

bench-webgpu:
	@mkdir -p $(BENCH_OUT)
	sh bench/bench_webgpu.sh $(BENCH_OUT)
