// run_wasi.js MODULE.wasm [ARGS...] - runs a wasm32-wasi program (built against wasi-libc)
// under node's WASI: its stdout and stderr are the process's, its exit status the process's.
// tests/simd/suite.sh runs test_simd.c's WebAssembly SIMD128 build with it, and
// `make bench-ab-wasm` the grid.
'use strict';
// V8's fast API calls into node's WASI (node 20) break once the module's memory passes some
// tens of MiB: the WASI object was collected during an fd_write (abort in uvwasi_destroy)
// or the heap was corrupt at exit (SIGSEGV), with no message either way. The plain calls
// cost the grid nothing it can see (a WASI call a timed call or a line of output).
require('v8').setFlagsFromString('--no-turbo-fast-api-calls');
const fs = require('fs');
const { WASI } = require('wasi');
const wasi = new WASI({ version: 'preview1', args: process.argv.slice(2), env: {} });
const module_ = new WebAssembly.Module(fs.readFileSync(process.argv[2]));
const instance = new WebAssembly.Instance(module_, { wasi_snapshot_preview1: wasi.wasiImport });
process.exitCode = wasi.start(instance);
