// grid_case.js - one case of tests/webgpu/'s grid on a WebGPU device, through
// dropout_webgpu.js, the way a user's code calls it; the same code runs in the browser
// (run_grid.js loads it into the page) and under node with Dawn (dawn_grid.js).
//
//   runCase(device, dw, c, bytes) -> { y, m }: the output and mask buffers after the call
//     c      a line of native_grid.c's grid.txt, parsed by parseCase
//     bytes  { x, y0, m0 }: the buffers before the call (Uint8Array), as native_grid wrote
//   refusals(device, dw) -> { n, bad }: calls that must throw, and leave the buffers as they were
//   submits(device, dw, newDevice, create) -> { n, bad }: dw.submit resolves for a good command
//     buffer and rejects with a DropoutWebGPUError for one WebGPU refuses (a destroyed buffer
//     record() cannot see) and for one on a lost device (newDevice()'s, destroyed)
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.gridCase = factory();
}(typeof globalThis !== 'undefined' ? globalThis : this, function () {
  'use strict';
  const MAP_READ = 0x1, COPY_SRC = 0x4, COPY_DST = 0x8, STORAGE = 0x80;

  function parseCase(line) {
    const f = line.trim().split(/\s+/);
    return {
      id: f[0], op: f[1], dtype: f[2], bits: Number(f[3]), p: Number(f[4]),
      seed: f[5], stream: f[6], pos: f[7], count: Number(f[8]),
      inPlace: f[9] === '1', withMask: f[10] === '1', dataBytes: Number(f[11]), maskBytes: Number(f[12]),
      view: f[13] && f[13] !== '-' ? parseView(f[13]) : null,
    };
  }

  function parseView(v) {
    const [shape, bc, ys, xs, yoff, xoff, ps] = v.split(':');
    const nums = (t) => t.split(',').map(Number);
    return { shape: nums(shape), broadcast: Number(bc), strides: { y: nums(ys), x: nums(xs) }, offsets: { y: Number(yoff), x: Number(xoff) },
      positionStrides: ps && ps !== '-' ? nums(ps) : undefined };
  }

  // a view's strides and offsets under the names the op takes (dropout_webgpu.js refuses
  // others): dx, dy for backward; none for the mask op, whose mask is packed
  function viewFor(op, v) {
    const names = op === 'backward' ? ['dx', 'dy'] : op === 'mask' ? null : ['y', 'x'];
    const rename = (o) => (names ? { [names[0]]: o.y, [names[1]]: o.x } : undefined);
    return { shape: v.shape, broadcast: v.broadcast, positionStrides: v.positionStrides, strides: rename(v.strides), offsets: rename(v.offsets) };
  }

  async function runCase(device, dw, c, bytes) {
    const made = [];
    const buffer = (init) => {
      const b = device.createBuffer({ size: init.length, usage: STORAGE | COPY_SRC | COPY_DST });
      device.queue.writeBuffer(b, 0, init);
      made.push(b);
      return b;
    };
    const y = c.dataBytes ? buffer(bytes.y0) : undefined;
    const x = c.dataBytes ? (c.inPlace ? y : buffer(bytes.x)) : undefined;
    const mask = c.maskBytes ? buffer(bytes.m0) : undefined;
    const enc = device.createCommandEncoder();
    const call = {
      op: c.op, dtype: c.dtype, p: c.p, bits: c.bits, quantised: true, seed: BigInt(c.seed), stream: BigInt(c.stream),
      pos: BigInt(c.pos), count: c.count,
    };
    if (c.op === 'backward') { call.dx = y; call.dy = x; } else { call.y = y; call.x = x; }
    if (c.view) Object.assign(call, viewFor(c.op, c.view));
    if (c.op !== 'forward' || c.withMask) call.mask = mask;
    dw.record(enc, call);
    const back = [];
    for (const b of [y, mask]) {
      if (!b) { back.push(null); continue; }
      const r = device.createBuffer({ size: b.size, usage: MAP_READ | COPY_DST });
      enc.copyBufferToBuffer(b, 0, r, 0, b.size);
      made.push(r);
      back.push(r);
    }
    device.queue.submit([enc.finish()]);
    const out = [];
    for (const r of back) {
      if (!r) { out.push(null); continue; }
      await r.mapAsync(MAP_READ);
      out.push(new Uint8Array(r.getMappedRange()).slice());
      r.unmap();
    }
    made.forEach((b) => b.destroy());
    return { y: out[0], m: out[1] };
  }

  // Each bad call must throw a DropoutWebGPUError with the dropout.h code, naming the argument.
  async function refusals(device, dw) {
    const b = (size) => device.createBuffer({ size, usage: STORAGE | COPY_DST | COPY_SRC });
    const x = b(256), y = b(256), m = b(64), small = b(16);
    // mapped at creation (a storage buffer cannot be mapped otherwise): WebGPU would refuse
    // the whole command buffer at submit, so record() refuses it
    const mapped = (size) => device.createBuffer({ size, usage: STORAGE | COPY_DST, mappedAtCreation: true });
    const ym = mapped(256), xm = mapped(256), mm = mapped(64);
    const canary = new Uint8Array(256).fill(0xA5);
    device.queue.writeBuffer(y, 0, canary);
    device.queue.writeBuffer(m, 0, canary, 0, 64);
    const ok = { op: 'forward', dtype: 'f32', p: 0.5, bits: 8, seed: 1n, stream: 2n, pos: 0n, count: 16, y, x, mask: m };
    const cases = [
      ['p = 0.001 at 8 bits', { p: 0.001 }, 'DROPOUT_ERR_P_NEEDS_16', 'p'],
      ['p = 0.1 at 8 bits (1.6% off)', { p: 0.1 }, 'DROPOUT_ERR_P_NEEDS_16', 'p'],
      ['p = 1e-7 at 8 bits', { p: 1e-7 }, 'DROPOUT_ERR_P_NEEDS_32', 'p'],
      ['p = 1e-12 at 32 bits', { p: 1e-12, bits: 32 }, 'DROPOUT_ERR_P_UNREALISABLE', 'p'],
      ['p = NaN', { p: NaN }, 'DROPOUT_ERR_P', 'p'],
      ['bits = 12', { bits: 12 }, 'DROPOUT_ERR_BITS', 'bits'],
      ['positions past 2^64', { pos: (1n << 64n) - 15n }, 'DROPOUT_ERR_RANGE', 'pos + count'],
      ['pos left out (no default: the same mask every step)', { pos: undefined }, 'DROPOUT_ERR_ARG', 'pos'],
      ['dtype f64', { dtype: 'f64' }, 'DROPOUT_ERR_DTYPE', 'dtype'],
      ['x too small', { x: small }, 'DROPOUT_ERR_ARG', 'x'],
      ['mask too small', { count: 40, mask: b(4) }, 'DROPOUT_ERR_ARG', 'mask'],
      ['mask = y', { mask: y }, 'DROPOUT_ERR_OVERLAP', 'mask'],
      // a missing buffer: dropout.h's code for that operand
      ['no y', { y: undefined }, 'DROPOUT_ERR_NULL_OUTPUT', 'y'],
      ['no x', { x: undefined }, 'DROPOUT_ERR_NULL_INPUT', 'x'],
      ['no dx', { op: 'backward', mask: undefined, y: undefined, x: undefined, dy: x }, 'DROPOUT_ERR_NULL_OUTPUT', 'dx'],
      ['no mask for the mask op', { op: 'mask', y: undefined, x: undefined, mask: undefined }, 'DROPOUT_ERR_NULL_MASK', 'mask'],
      ['no mask for the mask op, on a view of no element', { op: 'mask', y: undefined, x: undefined, mask: undefined, shape: [0, 4], broadcast: 1, count: 4 },
        'DROPOUT_ERR_NULL_MASK', 'mask'],
      ['op dropout', { op: 'dropout' }, 'DROPOUT_ERR_OP', 'op'],
      // names every JavaScript object inherits are no op and no dtype (`'constructor' in {}`)
      ['op constructor', { op: 'constructor' }, 'DROPOUT_ERR_OP', 'op'],
      ['op toString', { op: 'toString' }, 'DROPOUT_ERR_OP', 'op'],
      ['dtype constructor', { dtype: 'constructor', count: 1000, y: small, x: small }, 'DROPOUT_ERR_DTYPE', 'dtype'],
      ['dtype __proto__', { dtype: '__proto__' }, 'DROPOUT_ERR_DTYPE', 'dtype'],
      // a buffer WebGPU would refuse to bind at submit: its size in bytes, not words; over the limit
      ['x of 66 bytes', { x: b(66) }, 'DROPOUT_ERR_ARG', 'x'],
      ['y over maxStorageBufferBindingSize', { y: { size: device.limits.maxStorageBufferBindingSize + 4, usage: STORAGE, getMappedRange() {} } },
        'DROPOUT_ERR_ARG', 'y', 'maxStorageBufferBindingSize'],
      // WebGPU's binding form has a size too, and failed only at the bind group, on a view
      // with a compute pass left open: the caller's whole command buffer then did not run
      ['x as a {buffer, offset, size} binding', { x: { buffer: x, offset: 0, size: 256 } }, 'DROPOUT_ERR_ARG', 'x', 'binding'],
      ['x as a binding, on a view', { shape: [16], x: { buffer: x, offset: 0, size: 256 } }, 'DROPOUT_ERR_ARG', 'x', 'binding'],
      ['seed -1', { seed: -1n }, 'DROPOUT_ERR_ARG', 'seed'],
      // views
      ['count other than the shape draws', { shape: [4, 4], broadcast: 1 }, 'DROPOUT_ERR_SHAPE_COUNT', 'count'],
      ['rank 9', { shape: [1, 1, 1, 1, 1, 1, 1, 1, 16] }, 'DROPOUT_ERR_RANK', 'shape'],
      ['broadcast past the rank', { shape: [16], broadcast: 2 }, 'DROPOUT_ERR_BROADCAST', 'broadcast'],
      ['broadcast 2^32 + 1 (not its low 32 bits)', { shape: [4, 4], count: 4, broadcast: 2 ** 32 + 1 }, 'DROPOUT_ERR_BROADCAST', 'broadcast'],
      ['broadcast 2^32', { shape: [16], broadcast: 2 ** 32 }, 'DROPOUT_ERR_BROADCAST', 'broadcast'],
      ['position strides sharing a position', { shape: [4, 4], positionStrides: [1, 1] }, 'DROPOUT_ERR_POSITION_STRIDES', 'positionStrides'],
      ['position strides: rank 8, all dims 2, the last stepping 2', { shape: [2, 2, 2, 2, 2, 2, 2, 2], count: 256, positionStrides: [1, 4, 8, 16, 32, 64, 128, 2] },
        'DROPOUT_ERR_POSITION_STRIDES', 'positionStrides', 'rank-8'],
      ['position strides with a broadcast', { shape: [4, 4], count: 4, broadcast: 1, positionStrides: [0, 1] }, 'DROPOUT_ERR_BROADCAST', 'broadcast', 'positionStrides'],
      ['position strides: count other than their span', { shape: [4, 4], positionStrides: [10, 1] }, 'DROPOUT_ERR_SHAPE_COUNT', 'count', 'span'],
      ['position stride 2^32 of a dim of 4', { shape: [4, 4], positionStrides: [2 ** 32, 1] }, 'DROPOUT_ERR_POSITION_STRIDES', 'positionStrides', 'below 2^32'],
      // a dim of no element with a stride: no positions (dropout.h's count), not the span of the others
      ['position strides on an empty dim', { shape: [2, 0], count: 2, positionStrides: [1, 1] }, 'DROPOUT_ERR_SHAPE_COUNT', 'count', 'span 0'],
      ['zero output stride', { shape: [4, 4], strides: { y: [0, 1] } }, 'DROPOUT_ERR_STRIDE', 'strides.y'],
      ['output elements sharing memory', { shape: [4, 4], strides: { y: [2, 1] } }, 'DROPOUT_ERR_OVERLAP', 'strides.y'],
      ['a view past the buffer', { shape: [4, 4], strides: { x: [40, 1] } }, 'DROPOUT_ERR_STRIDE', 'x'],
      ['a flip that starts at the buffer', { shape: [4, 4], strides: { x: [-4, 1] } }, 'DROPOUT_ERR_STRIDE', 'x'],
      ['in place with other strides', { shape: [4, 4], x: y, strides: { x: [1, 4] } }, 'DROPOUT_ERR_OVERLAP', 'x'],
      // a key the op does not read is refused, not dropped: each of these, dropped, leaves the
      // call contiguous (or at element 0) and writes other elements than meant with no error
      // (the 5th entry: what the message must say is accepted)
      ['offset (offsets misspelt)', { offset: { x: 4 } }, 'DROPOUT_ERR_ARG', 'offset', 'offsets'],
      ['an unknown key', { seeds: 3n }, 'DROPOUT_ERR_ARG', 'seeds', 'stream'],
      ['offsets.X (x misspelt)', { shape: [16], offsets: { X: 8 } }, 'DROPOUT_ERR_ARG', 'offsets.X', 'y, x'],
      ['strides.in', { shape: [16], strides: { in: [2] } }, 'DROPOUT_ERR_ARG', 'strides.in', 'y, x'],
      ['strides.dy on a forward', { shape: [16], strides: { dy: [2] } }, 'DROPOUT_ERR_ARG', 'strides.dy', 'y, x'],
      ['offsets.dx on a forward', { offsets: { dx: 4 } }, 'DROPOUT_ERR_ARG', 'offsets.dx', 'y, x'],
      ['dx on a forward', { dx: x }, 'DROPOUT_ERR_ARG', 'dx', 'y, x, mask'],
      ['y and x on a backward (it takes dx, dy)', { op: 'backward', mask: undefined }, 'DROPOUT_ERR_ARG', 'y', 'dx, dy'],
      ['strides.y on a backward', { op: 'backward', mask: undefined, y: undefined, x: undefined, dx: y, dy: x, shape: [16], strides: { y: [2] } },
        'DROPOUT_ERR_ARG', 'strides.y', 'dx, dy'],
      ['a mask on a backward', { op: 'backward', y: undefined, x: undefined, dx: y, dy: x }, 'DROPOUT_ERR_ARG', 'mask', 'dx, dy'],
      ['y on the mask op', { op: 'mask', x: undefined }, 'DROPOUT_ERR_ARG', 'y', 'mask'],
      ['strides on the mask op', { op: 'mask', y: undefined, x: undefined, shape: [16], strides: { y: [2] } }, 'DROPOUT_ERR_ARG', 'strides.y'],
      ['strides an array', { shape: [16], strides: [[2]] }, 'DROPOUT_ERR_STRIDE', 'strides', '{ y'],
      ['offsets a number', { offsets: 4 }, 'DROPOUT_ERR_STRIDE', 'offsets', '{ y'],
      ['quantised 1 (not a boolean)', { quantised: 1 }, 'DROPOUT_ERR_ARG', 'quantised'],
      // the message says what was given (1n and '1' printed as 1, an absent p as "a undefined",
      // and a Symbol threw a bare TypeError while the message was built)
      ['broadcast 1n', { shape: [4, 4], count: 4, broadcast: 1n }, 'DROPOUT_ERR_BROADCAST', 'broadcast', 'BigInt'],
      ["broadcast '1'", { shape: [4, 4], count: 4, broadcast: '1' }, 'DROPOUT_ERR_BROADCAST', 'broadcast', 'string'],
      ['broadcast a Symbol', { shape: [4, 4], count: 4, broadcast: Symbol('b') }, 'DROPOUT_ERR_BROADCAST', 'broadcast', 'symbol'],
      ['dtype a Symbol', { dtype: Symbol('f32') }, 'DROPOUT_ERR_DTYPE', 'dtype', 'symbol'],
      ['quantised a Symbol', { quantised: Symbol('q') }, 'DROPOUT_ERR_ARG', 'quantised', 'symbol'],
      ['p left out', { p: undefined }, 'DROPOUT_ERR_P', 'p', 'not given'],
      // a buffer still mapped (the 5th entry: words the message must hold)
      ['y mapped', { y: ym }, 'DROPOUT_ERR_ARG', 'y', 'mapped'],
      ['x mapped', { x: xm }, 'DROPOUT_ERR_ARG', 'x', 'mapped'],
      ['mask mapped', { mask: mm }, 'DROPOUT_ERR_ARG', 'mask', 'mapped'],
    ];
    const enc = device.createCommandEncoder();
    const bad = [];
    for (const [what, change, code, arg, words] of cases) {
      try {
        dw.record(enc, Object.assign({}, ok, change));
        bad.push(`${what}: no error`);
      } catch (e) {
        if (e.code !== code || !e.message.includes(arg + ':') || (words && !e.message.includes(words))) bad.push(`${what}: ${e.code} "${e.message}"`);
      }
    }
    // no encoder, or a compute pass in its place: refused by name (was a bare TypeError)
    for (const [what, e] of [['no encoder', undefined], ['a compute pass as the encoder', enc.beginComputePass()]]) {
      try {
        dw.record(e, ok);
        bad.push(`${what}: no error`);
      } catch (err) {
        if (err.code !== 'DROPOUT_ERR_NULL' || !err.message.includes('encoder:')) bad.push(`${what}: ${err.code} "${err.message}"`);
      }
      if (e) e.end();
    }
    // a key set to null asks for nothing, as undefined does (an encoder of its own, not submitted)
    try {
      dw.record(device.createCommandEncoder(), Object.assign({}, ok, {
        shape: null, broadcast: null, positionStrides: null, strides: null, offsets: { x: null }, quantised: null, mask: null }));
    } catch (e) {
      bad.push(`keys set to null: ${e.code} "${e.message}"`);
    }
    // an empty view takes buffers of 0 bytes, as the contiguous call and dropout.h do; a call
    // of no element takes no buffer at all (dropout.h takes NULL there), on every op; a dim
    // of one element never steps, so its position stride may be any (dropout.h's too)
    const e0 = b(0), e1 = b(0);
    const none = { y: undefined, x: undefined, mask: undefined };
    const takes = [
      ['an empty view with 0-byte buffers', { count: 0, shape: [4, 0], mask: undefined, y: e0, x: e1 }],
      ['a forward of count 0 without buffers', { count: 0, ...none }],
      ['a forward of count 0 without buffers, with a mask', { count: 0, y: undefined, x: undefined }],
      ['an empty view without buffers', { count: 0, shape: [0, 3], ...none }],
      ['a backward of count 0 without buffers', { op: 'backward', count: 0, ...none }],
      ['the mask op of count 0 without a buffer', { op: 'mask', count: 0, ...none }],
      ['apply_mask of count 0 without buffers', { op: 'apply_mask', count: 0, ...none }],
      ['position stride 2^40 of a dim of 1', { shape: [1, 4], count: 4, positionStrides: [2 ** 40, 1] }],
      ['position stride 2^32 of a dim of 0', { shape: [0, 4], count: 0, positionStrides: [2 ** 32, 1], ...none }],
      // a view of no element that draws positions (a broadcast dim of 0): its mask only
      ['an empty view drawing a mask', { shape: [0, 4], broadcast: 1, count: 4, y: undefined, x: undefined }],
    ];
    for (const [what, change] of takes) {
      try {   // (one that draws goes to an encoder of its own, not submitted)
        dw.record(change.count === 0 ? enc : device.createCommandEncoder(), Object.assign({}, ok, change));
      } catch (e) {
        bad.push(`${what}: ${e.code} "${e.message}"`);
      }
    }
    // nothing was recorded: the encoder, submitted, leaves y and the mask as they were
    const ry = device.createBuffer({ size: 256, usage: MAP_READ | COPY_DST });
    const rm = device.createBuffer({ size: 64, usage: MAP_READ | COPY_DST });
    enc.copyBufferToBuffer(y, 0, ry, 0, 256);
    enc.copyBufferToBuffer(m, 0, rm, 0, 64);
    device.queue.submit([enc.finish()]);
    await Promise.all([ry.mapAsync(MAP_READ), rm.mapAsync(MAP_READ)]);
    const touched = [...new Uint8Array(ry.getMappedRange()), ...new Uint8Array(rm.getMappedRange())].some((v) => v !== 0xA5);
    if (touched) bad.push('the refused calls changed y or the mask');
    [x, y, m, small, ry, rm, e0, e1, ym, xm, mm].forEach((buf) => buf.destroy());
    return { n: cases.length, bad };
  }

  // dw.submit: a good command buffer runs (y changes, and the promise resolves); one that uses
  // a destroyed buffer (record() cannot see it) rejects with a DropoutWebGPUError naming
  // submit, and none of it runs (a copy in the same encoder leaves its target as it was);
  // the device takes good submits after it, with no error left over for uncapturederror
  async function submits(device, dw, newDevice, create) {
    const b = (size) => device.createBuffer({ size, usage: STORAGE | COPY_DST | COPY_SRC });
    const x = b(256), y = b(256), gone = b(256), other = b(256);
    const canary = new Uint8Array(256).fill(0xA5);
    device.queue.writeBuffer(x, 0, new Float32Array(64).fill(1.5));
    device.queue.writeBuffer(y, 0, canary);
    device.queue.writeBuffer(other, 0, canary);
    const call = { op: 'forward', dtype: 'f32', p: 0.5, bits: 8, seed: 1n, stream: 2n, pos: 0n, count: 64, y, x };
    const readBack = async (buf, dev = device) => {
      const r = dev.createBuffer({ size: buf.size, usage: MAP_READ | COPY_DST });
      const e = dev.createCommandEncoder();
      e.copyBufferToBuffer(buf, 0, r, 0, buf.size);
      dev.queue.submit([e.finish()]);
      await r.mapAsync(MAP_READ);
      const a = new Uint8Array(r.getMappedRange()).slice();
      r.unmap(); r.destroy();
      return a;
    };
    const bad = [];
    const trySubmit = async (what, make, wantError) => {
      try {
        const enc = device.createCommandEncoder();
        make(enc);
        await dw.submit([enc.finish()]);
        if (wantError) bad.push(`${what}: resolved`);
      } catch (e) {
        if (!wantError) bad.push(`${what}: ${e.code} "${e.message}"`);
        else if (e.name !== 'DropoutWebGPUError' || e.code !== 'DROPOUT_ERR_ARG' || !e.message.includes('submit:')) {
          bad.push(`${what}: ${e.name} ${e.code} "${e.message}"`);
        }
      }
    };
    await trySubmit('a good forward', (enc) => dw.record(enc, call), false);
    if ((await readBack(y)).every((v) => v === 0xA5)) bad.push('a good forward through dw.submit left y as it was');
    gone.destroy();
    await trySubmit('a forward into a destroyed buffer', (enc) => {
      dw.record(enc, Object.assign({}, call, { y: gone }));
      enc.copyBufferToBuffer(x, 0, other, 0, 256);
    }, true);
    if ((await readBack(other)).some((v) => v !== 0xA5)) bad.push('a refused command buffer ran its copy');
    await trySubmit('a good forward after a refused one', (enc) => dw.record(enc, Object.assign({}, call, { pos: 64n })), false);
    // recorded into an encoder already finished: WebGPU refuses it as it is recorded (the
    // call never runs); the next dw.submit rejects, naming record, and submits nothing; the
    // error goes on to the device's uncapturederror listeners (where the platform has
    // GPUUncapturedErrorEvent). On a device of its own: the harness fails on any error seen
    // by its own device's listener.
    {
      const dev = await newDevice(), dwf = create(dev);
      const fb = (size) => dev.createBuffer({ size, usage: STORAGE | COPY_DST | COPY_SRC });
      const fx = fb(256), fy = fb(256), fother = fb(256);
      let heard = 0;
      dev.addEventListener('uncapturederror', () => { ++heard; });
      dev.queue.writeBuffer(fx, 0, new Float32Array(64).fill(1.5));
      dev.queue.writeBuffer(fy, 0, canary);
      dev.queue.writeBuffer(fother, 0, canary);
      const enc = dev.createCommandEncoder();
      enc.copyBufferToBuffer(fx, 0, fother, 0, 256);
      const cb = enc.finish();
      dwf.record(enc, Object.assign({}, call, { x: fx, y: fy }));
      try {
        await dwf.submit([cb]);
        bad.push('a forward recorded into a finished encoder: dw.submit resolved');
      } catch (e) {
        if (e.name !== 'DropoutWebGPUError' || !e.message.includes('record:')) bad.push(`a forward recorded into a finished encoder: ${e.name} ${e.code} "${e.message}"`);
      }
      if ((await readBack(fy, dev)).some((v) => v !== 0xA5)) bad.push('a forward recorded into a finished encoder wrote y');
      if ((await readBack(fother, dev)).some((v) => v !== 0xA5)) bad.push('the refused submit ran its command buffer');
      if (typeof GPUUncapturedErrorEvent === 'function' && heard === 0) bad.push('the record error did not reach uncapturederror');
      const enc2 = dev.createCommandEncoder();
      dwf.record(enc2, Object.assign({}, call, { x: fx, y: fy, pos: 64n }));
      try { await dwf.submit([enc2.finish()]); } catch (e) { bad.push(`a good forward after a refused record: ${e.code} "${e.message}"`); }
      const good = await readBack(fy, dev);
      // x a buffer of another device: WebGPU refuses it as it is recorded (not at submit), and
      // the message names that cause rather than guessing at others
      const enc3 = dev.createCommandEncoder();
      dwf.record(enc3, Object.assign({}, call, { x, y: fy, pos: 128n }));
      try {
        await dwf.submit([enc3.finish()]);
        bad.push('a forward reading a buffer of another device: dw.submit resolved');
      } catch (e) {
        if (e.name !== 'DropoutWebGPUError' || !e.message.includes('record:') || !e.message.includes('another device')) {
          bad.push(`a forward reading a buffer of another device: ${e.name} ${e.code} "${e.message}"`);
        }
      }
      // recorded while a pass of the caller's is open: WebGPU marks the encoder invalid and
      // says so at finish(), outside record()'s scope; dw.submit rejects the command buffer
      const enc4 = dev.createCommandEncoder();
      const open = enc4.beginComputePass();
      dwf.record(enc4, Object.assign({}, call, { x: fx, y: fy, pos: 192n }));
      open.end();
      try {
        await dwf.submit([enc4.finish()]);
        bad.push('a forward recorded while a pass was open: dw.submit resolved');
      } catch (e) {
        if (e.name !== 'DropoutWebGPUError' || !e.message.includes('submit:')) bad.push(`a forward recorded while a pass was open: ${e.name} ${e.code} "${e.message}"`);
      }
      const after = await readBack(fy, dev);
      if (after.some((v, k) => v !== good[k])) bad.push('a refused forward (another device\'s buffer, or an open pass) wrote y');
      dev.destroy();
    }
    // a grid width that is not a whole number (2.5 left the last elements unwritten)
    try {
      create(device, { gridWidth: 2.5 });
      bad.push('gridWidth 2.5: no error');
    } catch (e) {
      if (e.code !== 'DROPOUT_ERR_ARG' || !e.message.includes('gridWidth:')) bad.push(`gridWidth 2.5: ${e.code} "${e.message}"`);
    }
    [x, y, other].forEach((buf) => buf.destroy());
    // a lost device (destroyed here; a GPU reset or a driver crash in a browser) reports no
    // validation error: dw.submit must still say that nothing ran
    const lost = await newDevice();
    const dwLost = create(lost);
    const lb = (size) => lost.createBuffer({ size, usage: STORAGE | COPY_DST | COPY_SRC });
    const lx = lb(256), ly = lb(256);
    lost.destroy();
    try {
      const enc = lost.createCommandEncoder();
      dwLost.record(enc, Object.assign({}, call, { x: lx, y: ly }));
      await dwLost.submit([enc.finish()]);
      bad.push('a forward on a lost device: dw.submit resolved');
    } catch (e) {
      if (e.name !== 'DropoutWebGPUError' || !e.message.includes('submit:') || !e.message.includes('lost')) {
        bad.push(`a forward on a lost device: ${e.name} ${e.code} "${e.message}"`);
      }
    }
    return { n: 9, bad };
  }

  return { parseCase, runCase, refusals, submits };
}));
