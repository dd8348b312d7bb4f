// run_trainer.js TRAINER.wasm - runs the page's trainer module (web/trainer_wasm.c) under
// node with the page's schedule (both runs, 300 epochs, an evaluation every 5) and prints
// the dropout run's weights hash. A module that imports anything fails to instantiate.
'use strict';
const fs = require('fs');
const T = new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync(process.argv[2])), {}).exports;
const hex8 = (v) => (v >>> 0).toString(16).padStart(8, '0');
for (const which of [0, 1]) {
  if (T.tw_init(which, which ? 0.3 : 0, 16, 1n) < 0) throw new Error('tw_init failed');
}
for (let epoch = 1; epoch <= 300; ++epoch) {
  for (const which of [0, 1]) {
    if (T.tw_epoch(which) !== epoch) throw new Error(`tw_epoch failed at epoch ${epoch}`);
    if (epoch % 5 === 0 || epoch === 1) T.tw_eval(which);
  }
}
T.tw_hash_params(1);
const h = new Uint32Array(T.memory.buffer, T.tw_hash(), 2);
console.log(hex8(h[1]) + hex8(h[0]));
