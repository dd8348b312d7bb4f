// check_gen.js - dropoutWebGPU.generator (the host side's training-loop positions) against
// dropout_gen_plan of a native build: the runs of (count, bits) that `native_grid --gen`
// printed, from 0 and from generators resumed near the stream's end, each position or
// refusal the same. A control checks that the comparison can fail: the same runs with the
// positions moved on by count alone (a loop's own pos += count) differ where the width
// changes. No GPU needed.
// usage: node check_gen.js GEN_FILE
'use strict';
const fs = require('fs');
const dw = require('../../dropout_webgpu.js');

const CODES = { DROPOUT_ERR_RANGE: -4 };
const lines = fs.readFileSync(process.argv[2], 'utf8').trim().split('\n').map((l) => l.split(' '));
const bad = [];
let gen = null, naive = null, start = null, naiveDiffers = 0;
for (const [s, sb, count, bits, verdict, code] of lines) {
  if (s + ' ' + sb !== start) {   // a new run: a generator resumed at its first state
    start = s + ' ' + sb;
    gen = dw.generator(7n, 3n, { position: BigInt(s), bits: Number(sb) || null });
    naive = BigInt(s);
  }
  let got;
  try {
    got = String(gen.plan(Number(count), Number(bits)).pos);
  } catch (e) {
    got = `err ${e.code in CODES ? CODES[e.code] : e.code}`;
  }
  const want = verdict === 'err' ? `err ${code}` : verdict;
  if (got !== want) bad.push(`from ${start}: ${count} ${bits}-bit: dropout_gen_plan ${want}, generator ${got}`);
  if (verdict !== 'err') {
    if (String(naive) !== verdict) naiveDiffers++;
    naive = BigInt(verdict) + BigInt(count);
  }
}
// refusals: a position past 0 without the width it counts, a width or count no call takes
const refusals = [
  [() => dw.generator(1, 0, { position: 5 }), 'DROPOUT_ERR_ARG', 'give the bits'],
  [() => dw.generator(1, 0, { bits: 12 }), 'DROPOUT_ERR_BITS', 'bits: 12'],
  [() => dw.generator(1, 0).plan(10, 4), 'DROPOUT_ERR_BITS', 'bits: 4'],
  [() => dw.generator(1, 0).plan(-1, 8), 'DROPOUT_ERR_ARG', 'count'],
  [() => dw.generator(-1, 0), 'DROPOUT_ERR_ARG', 'seed'],
];
for (const [f, code, word] of refusals) {
  try {
    f();
    bad.push(`${f} was not refused`);
  } catch (e) {
    if (e.code !== code || !e.message.includes(word)) bad.push(`${f}: ${e.code} ${e.message}`);
  }
}
if (naiveDiffers === 0) bad.push('the control: positions moved on by count alone gave dropout_gen_plan\'s every time (the runs never change width?)');
if (bad.length) {
  console.log(`FAIL webgpu[generator]: ${bad.length} differences from dropout_gen_plan: ${bad.slice(0, 3).join('; ')}`);
  process.exitCode = 1;
} else {
  console.log(`PASS webgpu[generator]: dropoutWebGPU.generator hands out dropout_gen_plan's positions and refusals for all ${lines.length} plans of 6 runs that change width (moving pos on by count alone would have differed at ${naiveDiffers}); its bad arguments are refused`);
}
