# dropout.h - everything here is optional: the library is the one header.
#   make demo    the main example (no dependency beyond a C compiler)
#   make example the one-page API example, examples/basic.c
#   make test    every test and build check; ends with "N passed, M failed, K skipped"
CC ?= cc
WARN = -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror
CFLAGS ?= -std=c99 -O2 $(WARN)

.PHONY: demo example test clean

demo: example

example: build/basic
	./build/basic

build/basic: examples/basic.c dropout.h
	@mkdir -p build
	$(CC) $(CFLAGS) -I. examples/basic.c -o $@

test:
	@sh tests/run.sh

clean:
	rm -rf build
