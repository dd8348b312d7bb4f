# dropout.h - everything here is optional: the library is the one header.
#   make demo    the main example: trains a small MLP with and without dropout, checks that
#                the weights are bit-reproducible, writes pictures to build/demo/
#   make example the minimal usage example (examples/basic.c)
#   make test    every test and build check; ends with "N passed, M failed, K skipped"
CC ?= cc
WARN = -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror
CFLAGS ?= -std=c99 -O2 $(WARN)

.PHONY: demo example test clean

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

clean:
	rm -rf build
