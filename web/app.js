// app.js - the page's logic. Every number it shows comes from dropout.h compiled to
// WebAssembly (web/dropout_wasm.c, web/trainer_wasm.c); this file only reads inputs,
// formats answers and draws. Elements with a data-check name hold the values that
// tests/web/suite.sh compares with a native build (tests/web/stages.c).
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  const N = 4096, SIDE = 64;                 // the mask pictures: 64 x 64 elements
  const TR = { CTR: 0, KEY: 4, ROUNDS: 6, WORDS: 46, LANE: 50, DRAW: 51, T_LO: 52, T_HI: 53,
               KEEP: 54, BLOCK_LO: 55, BLOCK_HI: 56 };   // web/dropout_wasm.c, wd_trace
  const params = new URLSearchParams(location.search);
  let W = null;                              // the dropout module's exports
  let T = null;                              // the trainer module's exports (if built)

  // ---- loading: the modules are embedded as base64 (build/web/modules.js), so the page
  // works from any static host and even from file://; no network at run time.
  function bytesOf(b64) {
    const s = atob(b64), out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; ++i) out[i] = s.charCodeAt(i);
    return out;
  }
  async function load(name) {
    const b64 = window.DROPOUT_MODULES && window.DROPOUT_MODULES[name];
    if (!b64) return null;
    const { instance } = await WebAssembly.instantiate(bytesOf(b64), {});
    return instance.exports;
  }
  function text() {                          // the module's NUL-terminated message buffer
    const m = new Uint8Array(W.memory.buffer, W.wd_text(), 256);
    let n = 0;
    while (n < 256 && m[n]) ++n;
    return new TextDecoder().decode(m.subarray(0, n));
  }

  // ---- formatting
  const hex8 = (v) => (v >>> 0).toString(16).padStart(8, '0');
  const hex64 = (lo, hi) => hex8(hi) + hex8(lo);
  const u64 = (lo, hi) => (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
  const num = (x) => String(x);              // shortest form that reads back as the same double
  function setCheck(name, value) {
    document.querySelectorAll(`[data-check="${name}"]`).forEach((el) => { el.textContent = value; });
  }
  function parseU64(s, what) {
    s = s.trim().replace(/_/g, '');
    if (!/^(0x[0-9a-f]+|[0-9]+)$/i.test(s)) throw new Error(`${what}: write a whole number (decimal, or hex after 0x)`);
    const v = BigInt(s);
    if (v >= (1n << 64n)) throw new Error(`${what}: must be below 2^64 = 18446744073709551616`);
    return v;
  }

  // ---- inputs
  function readInputs() {
    const seed = parseU64($('seed').value, 'seed');
    const stream = parseU64($('stream').value, 'stream');
    const pos = parseU64($('pos').value, 'position');
    const p = Number($('p').value);
    if ($('p').value.trim() === '' || !(p >= 0 && p <= 1)) throw new Error('p: a number from 0 to 1');
    if (pos + BigInt(N) > (1n << 64n)) throw new Error(`position: the ${N}-element mask must end before 2^64`);
    return { seed, stream, pos, bits: chosen('bits', 'draw width'), p, k: chosen('k', 'chunks k') };
  }
  // A select's value, one of its options: a value from the address that it does not offer
  // (?bits=12) leaves the select blank, whose Number('') would be 0 draws or chunks.
  function chosen(id, what) {
    const el = $(id), offered = Array.from(el.options, (o) => o.value);
    if (!offered.includes(el.value)) {
      const asked = params.has(id) ? ` (the address asked for ${JSON.stringify(params.get(id))})` : '';
      throw new Error(`${what}: one of ${offered.join(', ')}${asked}`);
    }
    return Number(el.value);
  }
  function applyParams() {
    for (const id of ['seed', 'stream', 'pos', 'p', 'bits', 'k']) {
      if (params.has(id)) $(id).value = params.get(id);
    }
    $('p-range').value = $('p').value;
  }
  // section 5 (webgpu.js) reads the same inputs through the same checks
  window.DropoutPage = { readInputs };

  // ---- 1. the contract, one position
  function showTrace(v) {
    // a refused p (dropout_rule_init) still has every stage up to the threshold
    const code = W.wd_trace(v.seed, v.stream, v.pos, v.bits, v.p);
    const refused = code < 0 ? text() : '';
    const u = new Uint32Array(W.memory.buffer, W.wd_u32(), 64);
    const rk = new Uint32Array(W.memory.buffer, W.wd_round_keys(), 20);
    const per = 128 / v.bits, lane = u[TR.LANE];
    document.querySelectorAll('.bitsw').forEach((el) => { el.textContent = String(v.bits); });
    $('per').textContent = String(per);
    $('pos-echo').textContent = v.pos.toString();
    document.querySelectorAll('.lane-echo').forEach((el) => { el.textContent = String(lane); });
    setCheck('lane', String(lane));
    setCheck('block', u64(u[TR.BLOCK_LO], u[TR.BLOCK_HI]).toString());
    setCheck('counter', [0, 1, 2, 3].map((i) => hex8(u[TR.CTR + i])).join(' '));
    setCheck('key', hex8(u[TR.KEY]) + ' ' + hex8(u[TR.KEY + 1]));
    const body = $('rounds');
    body.textContent = '';
    for (let r = 0; r < 10; ++r) {
      const tr = document.createElement('tr');
      tr.dataset.check = 'round' + (r + 1);
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = String(r + 1);
      tr.appendChild(th);
      const key = document.createElement('td');
      key.dataset.check = 'rkey' + (r + 1);
      key.className = 'rkey';
      key.textContent = hex8(rk[2 * r]) + ' ' + hex8(rk[2 * r + 1]);
      tr.appendChild(key);
      for (let j = 0; j < 4; ++j) {
        const td = document.createElement('td');
        td.className = 'v';
        td.textContent = hex8(u[TR.ROUNDS + 4 * r + j]);
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    const words = [0, 1, 2, 3].map((i) => u[TR.WORDS + i]);
    setCheck('words', words.map(hex8).join(' '));
    // the block as 32-, 16- and 8-bit draws, lowest bits first
    const sl = $('slices');
    sl.textContent = '';
    for (const b of [32, 16, 8]) {
      const row = document.createElement('div');
      row.className = 'slice-row';
      const label = document.createElement('span');
      label.className = 'slice-label';
      label.textContent = `${b}-bit`;
      row.appendChild(label);
      const cells = document.createElement('div');
      cells.className = 'cells c' + b;
      for (let l = 0; l < 128 / b; ++l) {
        const w = words[Math.floor((l * b) / 32)];
        const d = b === 32 ? w : (w >>> ((l * b) % 32)) & ((1 << b) - 1);
        const c = document.createElement('span');
        c.textContent = b === 32 ? String(d >>> 0) : String(d);
        c.title = `lane ${l}`;
        if (b === v.bits && l === lane) { c.className = 'hit'; c.setAttribute('aria-label', `lane ${l}, this position's draw: ${d >>> 0}`); }
        cells.appendChild(c);
      }
      row.appendChild(cells);
      sl.appendChild(row);
    }
    const draw = u[TR.DRAW] >>> 0, t = u64(u[TR.T_LO], u[TR.T_HI]);
    setCheck('draw', String(draw));
    setCheck('threshold', t.toString());
    setCheck('keep', refused ? '\u2013' : String(u[TR.KEEP]));
    setCheck('rule_error', refused);
    const keep = BigInt(draw) >= t;
    const dec = $('decision');
    if (refused) {
      dec.className = 'decision refused';
      dec.textContent = `No decision: dropout_rule_init refuses p = ${v.p} with ${v.bits}-bit draws (section 2).`;
      return;
    }
    dec.className = 'decision ' + (keep ? 'kept' : 'dropped');
    dec.textContent = `${draw} ${keep ? '\u2265' : '<'} ${t}: ${keep ? 'KEPT (y = x \u00b7 1/q)' : 'DROPPED (y = 0)'}`;
  }

  // ---- 2. the rule, the quantisation of p, the mask
  // (p, bits) as dropout_rule_init takes it: code < 0 and its message where it refuses;
  // the threshold and scales are what p rounds to either way (p and bits valid here)
  function rule(p, bits) {
    const code = W.wd_rule(p, bits);
    const u = new Uint32Array(W.memory.buffer, W.wd_u32(), 4);
    const d = new Float64Array(W.memory.buffer, W.wd_f64(), 4);
    return { code, msg: code < 0 ? text() : '', t: u64(u[0], u[1]), p: d[0], q: d[1], s64: d[2], s32: d[3] };
  }
  // What p becomes where the width cannot realise it: dropout_rule_init's refusal, in its
  // own words (they name the width that would serve), and what the threshold would be.
  function quantMessage(p, bits) {
    const r = rule(p, bits);
    if (r.code >= 0) return '';
    const serve = [16, 32].find((b) => b > bits && rule(p, b).code >= 0);
    // the two refusals: t rounds to 0 or 2^bits (p would become 0 or 1), or the realised p
    // (or 1 - p) is more than 1% off
    const off = Math.abs(r.p - p) / Math.min(p, 1 - p);
    const becomes = r.t === 0n ? 'p = 0: nothing would ever be dropped'
      : r.t === 1n << BigInt(bits) ? 'p = 1: everything would be dropped'
        : `p = ${r.p.toPrecision(6)}, ${(100 * off).toPrecision(3)}% off the p asked for (more than 1%)`;
    const fix = serve ? `${serve}-bit draws (DROPOUT_BITS_${serve}) realise it as t = ${rule(p, serve).t} (p = ${rule(p, serve).p.toPrecision(6)})`
                      : 'even 32-bit draws realise it more than 1% off; use p = 0 or 1 itself';
    return `dropout_rule_init(&rule, ${p}, DROPOUT_BITS_${bits}) returns ${r.code}: \u201c${r.msg}\u201d. ` +
      `With ${bits}-bit draws t = round(p \u00b7 2^${bits}) = ${r.t}, i.e. ${becomes}, so the library refuses it; ${fix}.`;
  }
  function showRule(v) {
    const r = rule(v.p, v.bits);
    $('rule-t').textContent = `${r.t} of ${1n << BigInt(v.bits)}`;
    setCheck('p_realised', num(r.p));
    setCheck('q', num(r.q));
    setCheck('scale_f64', num(r.s64));
    setCheck('scale_f32', num(r.s32));
    const qb = $('quant');
    qb.textContent = '';
    for (const b of [8, 16, 32]) {
      const x = rule(v.p, b), tr = document.createElement('tr');
      const off = v.p === 0 ? 0 : (x.p - v.p) / v.p;
      const bad = x.code < 0;   /* refused at this width */
      if (b === v.bits) tr.className = 'current';
      if (bad) tr.classList.add('bad');
      for (const s of [`${b}-bit`, x.t.toString(), x.p.toPrecision(8), bad ? 'refused' : off === 0 ? 'exact' : `${off > 0 ? '+' : '\u2212'}${Math.abs(100 * off).toPrecision(2)} %`]) {
        const td = document.createElement('td');
        td.textContent = s;
        tr.appendChild(td);
      }
      qb.appendChild(tr);
    }
    const msg = quantMessage(v.p, v.bits);
    $('quant-msg').textContent = msg;
    $('quant-msg').className = msg ? 'msg error' : 'msg';
    return r;
  }

  function maskBytes(ptrName) {
    return new Uint8Array(W.memory.buffer, W[ptrName](), N / 8);
  }
  // draw a 64 x 64 mask; tint(i) gives [kept rgb, dropped rgb] for element i
  function drawMask(canvas, bytes, tint) {
    const ctx = canvas.getContext('2d');
    const img = ctx.createImageData(SIDE, SIDE);
    for (let i = 0; i < N; ++i) {
      const kept = (bytes[i >> 3] >> (i & 7)) & 1;
      const rgb = tint ? tint(i)[kept ? 0 : 1] : (kept ? [255, 255, 255] : [0, 0, 0]);
      img.data.set([rgb[0], rgb[1], rgb[2], 255], 4 * i);
    }
    // scale up without smoothing: draw at 1:1 on a scratch canvas, then enlarge
    const tmp = document.createElement('canvas');
    tmp.width = SIDE; tmp.height = SIDE;
    tmp.getContext('2d').putImageData(img, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(tmp, 0, 0, canvas.width, canvas.height);
  }
  // the central 99.9 % of Binomial(n, q), exactly (log pmf by recurrence)
  function binomialRange(n, q) {
    if (q <= 0) return [0, 0];
    if (q >= 1) return [n, n];
    const lp = new Float64Array(n + 1);
    lp[0] = n * Math.log1p(-q);
    const odds = Math.log(q) - Math.log1p(-q);
    let m = lp[0];
    for (let k = 0; k < n; ++k) { lp[k + 1] = lp[k] + Math.log((n - k) / (k + 1)) + odds; m = Math.max(m, lp[k + 1]); }
    let total = 0;
    for (let k = 0; k <= n; ++k) total += Math.exp(lp[k] - m);
    let acc = 0, lo = 0, hi = n;
    for (let k = 0; k <= n; ++k) { acc += Math.exp(lp[k] - m) / total; if (acc > 0.0005) { lo = k; break; } }
    acc = 0;
    for (let k = n; k >= 0; --k) { acc += Math.exp(lp[k] - m) / total; if (acc > 0.0005) { hi = k; break; } }
    return [lo, hi];
  }
  // a refused rule has no mask: the pictures say so
  function noMask(canvas) {
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ddd';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#333';
    ctx.font = '20px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.fillText('no mask: p refused', canvas.width / 2, canvas.height / 2);
  }
  function showMask(v, r) {
    const code = W.wd_mask(N, v.p, v.bits, v.seed, v.stream, v.pos);
    if (code < 0) {
      for (const name of ['kept', 'digest_one']) setCheck(name, '\u2013');
      $('dig-one').textContent = '\u2013';
      noMask($('mask'));
      noMask($('mask-one'));
      $('binom').textContent = `No mask: ${text()}`;
      $('bar-range').style.width = '0';
      $('bar-mark').style.left = '0';
      return null;
    }
    const u = new Uint32Array(W.memory.buffer, W.wd_u32(), 4);
    const kept = u[0], digest = hex64(u[1], u[2]);
    setCheck('kept', String(kept));
    setCheck('digest_one', digest);
    $('dig-one').textContent = digest;
    drawMask($('mask'), maskBytes('wd_mask_one'));
    drawMask($('mask-one'), maskBytes('wd_mask_one'));
    const [lo, hi] = binomialRange(N, r.q);
    const inside = kept >= lo && kept <= hi;
    $('binom').innerHTML = '';
    $('binom').append(`Expected n\u00b7q = ${(N * r.q).toFixed(1)}; 99.9 % of masks keep between ${lo} and ${hi} ` +
      `(Binomial(${N}, q)). `);
    const verdict = document.createElement('b');
    verdict.textContent = inside ? 'Inside the range.' : 'Outside the range.';
    verdict.className = inside ? 'ok' : 'bad';
    $('binom').append(verdict);
    $('bar-range').style.left = `${(100 * lo) / N}%`;
    $('bar-range').style.width = `${Math.max(0.5, (100 * (hi - lo)) / N)}%`;
    $('bar-mark').style.left = `${(100 * kept) / N}%`;
    return digest;
  }

  // ---- 3. chunks
  const TINTS = [[[255, 225, 160], [120, 60, 0]], [[170, 215, 255], [0, 50, 120]], [[190, 240, 180], [20, 90, 20]],
                 [[240, 190, 240], [100, 20, 100]]];
  function showChunks(v, digestOne) {
    const code = W.wd_mask_chunks(N, v.k, v.p, v.bits, v.seed, v.stream, v.pos);
    if (code < 0) {
      for (const name of ['kept_chunked', 'digest_chunked']) setCheck(name, '\u2013');
      noMask($('mask-chunked'));
      $('chunk-verdict').className = 'decision refused';
      $('chunk-verdict').textContent = `No mask to cut: ${text()}`;
      $('chunk-list').textContent = '';
      return;
    }
    const u = new Uint32Array(W.memory.buffer, W.wd_u32(), 64);
    const kept = u[0], digest = hex64(u[1], u[2]);
    const starts = Array.from(u.subarray(3, 3 + v.k + 1));
    const chunkOf = (i) => { let c = 0; while (c + 1 < v.k && i >= starts[c + 1]) ++c; return c; };
    setCheck('kept_chunked', String(kept));
    setCheck('digest_chunked', digest);
    $('k-echo').textContent = String(v.k);
    drawMask($('mask-chunked'), maskBytes('wd_mask_chunked'), (i) => TINTS[chunkOf(i) % TINTS.length]);
    const a = maskBytes('wd_mask_one'), b = maskBytes('wd_mask_chunked');
    let same = true;
    for (let i = 0; i < N / 8; ++i) if (a[i] !== b[i]) { same = false; break; }
    const el = $('chunk-verdict');
    el.className = 'decision ' + (same && digest === digestOne ? 'kept' : 'dropped');
    el.textContent = same && digest === digestOne
      ? `Identical: all ${N} bits equal, digest ${digest} both ways.`
      : `DIFFERENT: ${digestOne} vs ${digest}`;
    const parts = [];
    for (let c = 0; c < v.k; ++c) {
      parts.push(`chunk ${c + 1}: elements ${starts[c]}\u2026${starts[c + 1] - 1} at position ${v.pos + BigInt(starts[c])}`);
    }
    $('chunk-list').textContent = parts.join('; ') + '. Chunks start on multiples of 8 elements (a mask byte holds 8).';
  }

  let pending = false;
  function update() {
    if (!W || pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      const err = $('input-error');
      try {
        const v = readInputs();
        for (const id of ['seed', 'stream', 'pos', 'p', 'bits', 'k']) $(id).removeAttribute('aria-invalid');
        err.textContent = '';
        showTrace(v);
        const r = showRule(v);
        const d = showMask(v, r);
        showChunks(v, d);
        delete document.body.dataset.stale;
        document.body.dataset.ready = '1';
      } catch (e) {
        // the sections below still hold the last valid inputs' results: say so, and grey them
        const shown = document.body.dataset.ready ? ' The sections below still show the last valid inputs.' : '';
        err.textContent = e.message + (shown ? '.' + shown : '');
        if (shown) document.body.dataset.stale = '1';
        const id = { seed: 'seed', stream: 'stream', position: 'pos', p: 'p', 'draw width': 'bits', 'chunks k': 'k' }[e.message.split(':')[0]];
        if (id) $(id).setAttribute('aria-invalid', 'true');
      }
    });
  }

  function wire() {
    for (const id of ['seed', 'stream', 'pos', 'bits', 'k']) $(id).addEventListener('input', update);
    $('p-range').addEventListener('input', () => { $('p').value = $('p-range').value; update(); });
    $('p').addEventListener('input', () => { $('p-range').value = $('p').value; update(); });
    const step = (d) => {
      let v;
      try { v = parseU64($('pos').value, 'position'); } catch (e) { return; }
      v += BigInt(d);
      if (v < 0n || v + BigInt(N) > (1n << 64n)) return;
      $('pos').value = v.toString();
      update();
    };
    $('pos-prev').addEventListener('click', () => step(-1));
    $('pos-next').addEventListener('click', () => step(1));
    $('try-small').addEventListener('click', () => {
      $('p').value = '0.001'; $('p-range').value = '0.001'; $('bits').value = '8'; update();
      $('quant-msg').focus();
    });
  }

  // ---- 4. the trainer (web/trainer_wasm.c): runs a few epochs per animation frame
  const Trainer = window.DropoutTrainer;

  async function main() {
    applyParams();
    wire();
    try {
      W = await load('dropout');
      if (!W) throw new Error('build/web/modules.js has no dropout module: run make web');
      W.wd_version();
      $('status').textContent = `dropout.h ${text()}, compiled to WebAssembly, is running in this page.`;
      update();
    } catch (e) {
      $('status').textContent = 'Could not start the WebAssembly module: ' + e.message;
      $('status').className = 'status error';
      return;
    }
    try {
      T = await load('trainer');
    } catch (e) {
      T = null;
    }
    if (Trainer) Trainer.start(T, params.has('train'));
  }
  main();
})();
