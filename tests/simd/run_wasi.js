// run_wasi.js MODULE.wasm [ARGS...] - runs a wasm32-wasi program (built against wasi-libc)
// under node's WASI: its stdout and stderr are the process's, its exit status the process's.
// tests/simd/suite.sh runs test_simd.c's WebAssembly SIMD128 build with it, and
// `make bench-ab-wasm` the grid.
'use strict';
const fs = require('fs');
const { WASI } = require('wasi');
const wasi = new WASI({ version: 'preview1', args: process.argv.slice(2), env: {} });
const module_ = new WebAssembly.Module(fs.readFileSync(process.argv[2]));
const instance = new WebAssembly.Instance(module_, { wasi_snapshot_preview1: wasi.wasiImport });
process.exitCode = wasi.start(instance);
