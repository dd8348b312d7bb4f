// run_wasm.js MODULE.wasm - runs tests/xarch/digest.c built for wasm32 (no libc, no WASI)
// under node. The module imports one function, env.xd_write(pointer, length), which
// prints bytes from its memory; any other import makes instantiation fail.
'use strict';
const fs = require('fs');
let memory = null;
const env = {
  xd_write(ptr, len) {
    process.stdout.write(Buffer.from(memory.buffer, ptr, len));
  },
};
WebAssembly.instantiate(fs.readFileSync(process.argv[2]), { env }).then(({ instance }) => {
  memory = instance.exports.memory;
  process.exitCode = instance.exports.main() === 0 ? 0 : 1;
}).catch((e) => { console.error(String(e)); process.exitCode = 2; });
