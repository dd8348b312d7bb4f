# dropout.h - everything here is optional: the library is the one header.
#   make demo    the main example: trains a small MLP with and without dropout, checks that
#                the weights are bit-reproducible, writes pictures to build/demo/
#   make example the one-page API example, examples/basic.c
#   make test    every test and build check; ends with "N passed, M failed, K skipped"
#   make bench   CPU speed against the memory wall and peers; saves bench/results/cpu-*.md
CC ?= cc
WARN = -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror
CFLAGS ?= -std=c99 -O2 $(WARN)

.PHONY: demo example test bench clean

# -ffp-contract=off: GCC's GNU-mode default fuses a*b+c into FMA across statements, which
# would make the weights depend on the CPU (docs/TUTORIAL.md, reproducibility traps).
demo: build/train_mlp
	./build/train_mlp

build/train_mlp: examples/train_mlp.c examples/mlp_math.h examples/plot.h dropout.h
	@mkdir -p build
	$(CC) $(CFLAGS) -ffp-contract=off -I. examples/train_mlp.c -o $@ -lpthread -lm

example: build/basic
	./build/basic

build/basic: examples/basic.c dropout.h
	@mkdir -p build
	$(CC) $(CFLAGS) -I. examples/basic.c -o $@

test:
	@sh tests/run.sh

# the bench is built for this CPU (-O3 -march=native) and with OpenMP when the compiler has it
BENCH_CFLAGS = -std=c99 -O3 -march=native $(BENCH_OMP)
BENCH_OMP := $(shell echo 'int main(void){return 0;}' | $(CC) -fopenmp -x c - -o /dev/null 2>/dev/null && echo -fopenmp)
BENCH_OUT = bench/results/cpu-$(shell hostname 2>/dev/null || echo host)-$(shell date +%Y%m%d-%H%M).md

bench: build/bench_cpu
	./build/bench_cpu $(BENCH_OUT)
	@echo "saved $(BENCH_OUT)"

build/bench_cpu: bench/bench_cpu.c dropout.h examples/dropout_parallel.h
	@mkdir -p build
	$(CC) $(BENCH_CFLAGS) $(WARN) -Wno-error -DBENCH_FLAGS='"$(CC) $(BENCH_CFLAGS)"' -I. bench/bench_cpu.c -o $@

clean:
	rm -rf build
