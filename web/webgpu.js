// webgpu.js - section 5 of the page: the same forward (output and mask) on this device's
// GPU through WebGPU (dropout_webgpu.js) and in WebAssembly (dropout.h compiled for
// wasm32), compared byte for byte. Where the browser has no WebGPU, the section says so
// and the rest of the page is unchanged. Nothing is fetched: the WebAssembly module comes
// from modules.js, the WGSL from dropout_webgpu.js.
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  const N = 1 << 16;                       // elements: the WebAssembly build's largest mask
  const params = new URLSearchParams(location.search);

  // The input x, element i, as f32 bits: first the values where float arithmetic is
  // loosest (NaN with a payload, infinities, -0, subnormals, the largest finite, values
  // whose product with the scale overflows), then hashed patterns: 1 in 8 raw (any NaN,
  // Inf or subnormal), the rest between 0.5 and 8 in magnitude. tests/webgpu/native_grid.c
  // builds the same x.
  const SPECIAL = [0x7FC00000, 0xFFA00001, 0x7F800000, 0xFF800000, 0x80000000, 0x00000000,
    0x00000001, 0x807FFFFF, 0x00400000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F400000];
  function inputBits(i) {
    if (i < SPECIAL.length) return SPECIAL[i] >>> 0;
    let h = i >>> 0;                       // lowbias32
    h ^= h >>> 16; h = Math.imul(h, 0x7feb352d); h ^= h >>> 15; h = Math.imul(h, 0x846ca68b); h ^= h >>> 16;
    h >>>= 0;
    if ((h & 7) === 0) return h;
    return ((h & 0x807FFFFF) | ((126 + ((h >>> 24) & 3)) << 23)) >>> 0;
  }

  function fnv(parts) {                     // FNV-1a 64 over the bytes of each part in turn
    let lo = 0x84222325, hi = 0xcbf29ce4;
    for (const b of parts) {
      for (let i = 0; i < b.length; ++i) {
        lo = (lo ^ b[i]) >>> 0;
        // (hi:lo) * 0x100000001b3 mod 2^64: lo * 0x1b3, and hi * 0x1b3 + lo << 8 (<< 40)
        const l = lo * 0x1b3, carry = Math.floor(l / 0x100000000);
        hi = (Math.imul(hi, 0x1b3) + Math.imul(lo, 0x100) + carry) >>> 0;
        lo = l >>> 0;
      }
    }
    return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
  }

  // The page's inputs (section "Inputs"), through app.js's own checks: a field the page
  // refuses is refused here too, never read as 0. This section's call is N elements, more
  // than the page's pictures, so a position the page takes may end past 2^64 here: refused,
  // not moved.
  function inputs() {
    if (!window.DropoutPage) throw new Error('app.js did not load');
    const v = window.DropoutPage.readInputs();
    if (v.pos + BigInt(N) > 1n << 64n) {
      throw new Error(`position: this section's ${N}-element call must end before 2^64 (position at most ${(1n << 64n) - BigInt(N)})`);
    }
    return v;
  }

  const say = (id, text, cls) => { const el = $(id); el.textContent = text; if (cls !== undefined) el.className = cls; };

  let wasm = null, device = null, dw = null, adapterText = '';

  async function setUp() {
    if (!window.DROPOUT_MODULES || !window.DROPOUT_MODULES.dropout) throw new Error('modules.js has no dropout module');
    const s = atob(window.DROPOUT_MODULES.dropout), bytes = new Uint8Array(s.length);
    for (let i = 0; i < s.length; ++i) bytes[i] = s.charCodeAt(i);
    wasm = (await WebAssembly.instantiate(bytes, {})).instance.exports;
    if (!navigator.gpu) return 'This browser offers no WebGPU (navigator.gpu is absent; it also needs https or localhost).';
    const adapter = await navigator.gpu.requestAdapter();
    if (!adapter) return 'This browser has WebGPU but gave no adapter (no usable GPU, or WebGPU switched off).';
    const i = adapter.info || {};
    const software = /swiftshader|llvmpipe|lavapipe|warp/i.test([i.architecture, i.device, i.description].join(' ')) || i.isFallbackAdapter;
    adapterText = [i.vendor, i.architecture, i.device, i.description].filter(Boolean).join(' / ') || 'an adapter that does not name itself';
    if (software) adapterText += ' \u2014 a software adapter: it runs on the CPU';
    device = await adapter.requestDevice();
    dw = window.dropoutWebGPU.create(device);
    return null;
  }

  async function timeIt(rec) {              // best of 5, from submit to the queue's done
    let best = Infinity;
    for (let r = 0; r < 5; ++r) {
      const enc = device.createCommandEncoder();
      rec(enc);
      const t0 = performance.now();
      device.queue.submit([enc.finish()]);
      await device.queue.onSubmittedWorkDone();
      best = Math.min(best, performance.now() - t0);
    }
    return best;
  }

  async function run(v) {
    const U = GPUBufferUsage;
    // WebAssembly: dropout.h's forward with its mask
    const fx = new Uint32Array(wasm.memory.buffer, wasm.wd_fx(), N);
    for (let i = 0; i < N; ++i) fx[i] = inputBits(i);
    const err = wasm.wd_forward_f32(N, v.p, v.bits, v.seed, v.stream, v.pos);
    if (err < 0) {
      say('gpu-verdict', `p = ${v.p} with ${v.bits}-bit draws is refused (see section 2): nothing to compare.`, 'decision refused');
      return;
    }
    const wy = new Uint8Array(wasm.memory.buffer, wasm.wd_fy(), 4 * N).slice();
    const wm = new Uint8Array(wasm.memory.buffer, wasm.wd_mask_one(), N / 8).slice();
    // WebGPU: the same call through dropout_webgpu.js
    const x = device.createBuffer({ size: 4 * N, usage: U.STORAGE | U.COPY_DST | U.COPY_SRC });
    const y = device.createBuffer({ size: 4 * N, usage: U.STORAGE | U.COPY_SRC | U.COPY_DST });
    const m = device.createBuffer({ size: N / 8, usage: U.STORAGE | U.COPY_SRC });
    const ry = device.createBuffer({ size: 4 * N, usage: U.MAP_READ | U.COPY_DST });
    const rm = device.createBuffer({ size: N / 8, usage: U.MAP_READ | U.COPY_DST });
    device.queue.writeBuffer(x, 0, new Uint32Array(fx));
    const call = { op: 'forward', dtype: 'f32', p: v.p, bits: v.bits, seed: v.seed, stream: v.stream, pos: v.pos, count: N, y, x, mask: m };
    const enc = device.createCommandEncoder();
    dw.record(enc, call);
    enc.copyBufferToBuffer(y, 0, ry, 0, 4 * N);
    enc.copyBufferToBuffer(m, 0, rm, 0, N / 8);
    device.queue.submit([enc.finish()]);
    await Promise.all([ry.mapAsync(GPUMapMode.READ), rm.mapAsync(GPUMapMode.READ)]);
    const gy = new Uint8Array(ry.getMappedRange()).slice(), gm = new Uint8Array(rm.getMappedRange()).slice();
    ry.unmap(); rm.unmap();
    // compare, element by element
    let firstY = -1, firstM = -1, diffs = 0;
    for (let i = 0; i < N; ++i) {
      const a = (wm[i >> 3] >> (i & 7)) & 1, b = (gm[i >> 3] >> (i & 7)) & 1;
      let same = a === b;
      for (let k = 0; k < 4; ++k) if (wy[4 * i + k] !== gy[4 * i + k]) same = false;
      if (!same) { ++diffs; if (a !== b && firstM < 0) firstM = i; if (firstY < 0) firstY = i; }
    }
    const dWasm = fnv([wm, wy]), dGpu = fnv([gm, gy]);
    const hx = (b, i) => Array.from(b.slice(4 * i, 4 * i + 4)).reverse().map((c) => c.toString(16).padStart(2, '0')).join('');
    if (diffs === 0 && dWasm === dGpu) {
      say('gpu-verdict', `WebGPU vs WebAssembly: IDENTICAL (digest ${dGpu})`, 'decision kept');
    } else {
      say('gpu-verdict', `WebGPU vs WebAssembly: DIFFERENT in ${diffs} of ${N} elements; first at element ${firstY}: ` +
        `x ${inputBits(firstY).toString(16).padStart(8, '0')}, WebAssembly y ${hx(wy, firstY)}, WebGPU y ${hx(gy, firstY)}` +
        (firstM >= 0 ? `; first mask bit that differs: element ${firstM}` : '') + ` (digests ${dWasm} / ${dGpu})`, 'decision dropped');
    }
    let kept = 0;
    for (let i = 0; i < N; ++i) kept += (gm[i >> 3] >> (i & 7)) & 1;
    say('gpu-detail', `${N} elements at seed ${v.seed}, stream ${v.stream}, position ${v.pos}, p = ${v.p}, ${v.bits}-bit draws: ` +
      `${kept} kept. The inputs include NaN, \u00b1Inf, \u22120, subnormals and values whose scaled product overflows.`);
    // speed: the dispatch against a buffer copy of the same bytes, on this adapter
    const tk = await timeIt((e) => dw.record(e, call));
    const tc = await timeIt((e) => e.copyBufferToBuffer(x, 0, y, 0, 4 * N));
    say('gpu-speed', `On this adapter the forward took ${tk.toFixed(2)} ms, a buffer copy of the same bytes ${tc.toFixed(2)} ms ` +
      `(best of 5, from submit to done; a software adapter's figures say little about a GPU).`);
    [x, y, m, ry, rm].forEach((b) => b.destroy());
  }

  async function main() {
    let why;
    try {
      why = await setUp();
    } catch (e) {
      why = 'WebGPU could not start: ' + e.message;
    }
    if (why) {
      say('gpu-adapter', why);
      say('gpu-verdict', 'No WebGPU here: the sections above are unaffected.', 'decision refused');
      $('gpu-go').disabled = true;
      document.body.dataset.webgpu = 'none';
      return;
    }
    say('gpu-adapter', `Adapter: ${adapterText}`);
    const go = async () => {
      $('gpu-go').disabled = true;
      say('gpu-verdict', 'Running\u2026', 'decision');
      say('gpu-detail', '');                  // no line of an earlier run stays beside this one's verdict
      say('gpu-speed', '');
      let v;
      try {
        v = inputs();
      } catch (e) {
        say('gpu-verdict', `Not run: ${e.message}.`, 'decision refused');
      }
      try {
        if (v) await run(v);
      } catch (e) {
        say('gpu-verdict', 'WebGPU failed: ' + e.message, 'decision dropped');
      }
      $('gpu-go').disabled = false;
      document.body.dataset.webgpu = 'done';
    };
    $('gpu-go').addEventListener('click', go);
    if (!params.has('nogpu')) go();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', main);
  else main();
})();
