// check_rules.js - dropoutWebGPU.rule (the host side of dropout_webgpu.js: the threshold,
// the float scale and which p it refuses) against dropout_rule_init of a native build, for
// each (p, bits) that `native_grid --rules` printed. No GPU needed.
// usage: node check_rules.js RULES_FILE
'use strict';
const fs = require('fs');
const dw = require('../../dropout_webgpu.js');

const CODES = { DROPOUT_ERR_P: -1, DROPOUT_ERR_BITS: -3, DROPOUT_ERR_P_NEEDS_16: -6, DROPOUT_ERR_P_NEEDS_32: -7, DROPOUT_ERR_P_UNREALISABLE: -8 };
const lines = fs.readFileSync(process.argv[2], 'utf8').trim().split('\n');
const bad = [];
for (const line of lines) {
  const [p, bits, verdict, a, b] = line.split(' ');
  let got;
  try {
    const r = dw.rule(Number(p), Number(bits));
    got = `ok ${r.threshold} ${r.scale32Bits}`;
  } catch (e) {
    got = `err ${e.code in CODES ? CODES[e.code] : e.code}`;
  }
  const want = verdict === 'ok' ? `ok ${a} ${b}` : `err ${a}`;
  if (got !== want) bad.push(`p = ${p}, ${bits}-bit: dropout.h ${want}, dropout_webgpu.js ${got}`);
}
// options.quantised is a boolean, as a call's is: 'no' (truthy) took the width's p, silently
for (const q of ['no', 1, 'false']) {
  try {
    dw.rule(0.1, 8, { quantised: q });
    bad.push(`rule(0.1, 8, { quantised: ${JSON.stringify(q)} }) was not refused`);
  } catch (e) {
    if (e.code !== 'DROPOUT_ERR_ARG' || !e.message.includes('quantised:')) bad.push(`quantised ${JSON.stringify(q)}: ${e.code} ${e.message}`);
  }
}
if (bad.length) {
  console.log(`FAIL webgpu[rule]: ${bad.length} of ${lines.length} (p, bits) differ from dropout_rule_init: ${bad.slice(0, 3).join('; ')}`);
  process.exitCode = 1;
} else {
  console.log(`PASS webgpu[rule]: dropoutWebGPU.rule gives dropout_rule_init's threshold, float scale or refusal for all ${lines.length} (p, bits); a quantised option that is not a boolean is refused`);
}
