/* dropout_webgpu.js - dropout.h's masks on any WebGPU device (a browser's GPU, or Dawn /
   wgpu natively, over Direct3D 12, Metal or Vulkan), bit for bit the CPU library's.

   The WGSL program below (generated from webgpu/kernels.wgsl by webgpu/embed.sh) is
   dropout.h's building blocks in integer arithmetic: WGSL has no 64-bit integers, and lets
   a device flush subnormals and assume no NaN or Inf, so every value is handled as its bit
   pattern. docs/WEBGPU.md shows the use; docs/SPEC.md section 15 what it asks of a device.

     const dw = dropoutWebGPU.create(device);          // compiles the program once
     const enc = device.createCommandEncoder();
     dw.record(enc, { op: 'forward', dtype: 'f32', p: 0.1, bits: 16,
                      seed: 1234n, stream: 0n, pos: 0n, count: n,
                      y: yBuffer, x: xBuffer, mask: maskBuffer });   // mask optional
     device.queue.submit([enc.finish()]);

   Ops: 'forward' (y, x, optional mask), 'backward' (dx, dy: the same mask rebuilt from the
   plan), 'mask' (mask), 'apply_mask' (y, mask, x: a stored mask, forward or backward).
   dtypes: 'f32', 'f16', 'bf16' (16-bit patterns, two per u32 word, the lower first).
   Every argument is checked before anything is recorded; a bad one, or a key the op does
   not take (a misspelt one), throws a DropoutWebGPUError whose .code is the dropout.h
   error name and whose message names the argument. Works as a classic <script> (global
   dropoutWebGPU) and under require().
   Public domain or MIT, as dropout.h. */
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.dropoutWebGPU = factory();
}(typeof globalThis !== 'undefined' ? globalThis : this, function () {
  'use strict';

  const WGSL = [
    /* BEGIN wgsl (webgpu/embed.sh writes the lines up to END) */
    '// dropout.h\'s building blocks in WGSL: Philox4x32-10, the draws, the keep rule, the f32',
    '// scale and the f16 / bf16 conversions, and one kernel for forward (with or without the',
    '// bit mask), backward, the mask alone and applying a stored mask (docs/SPEC.md sections',
    '// 1-7; section 15 says what this asks of a WebGPU device).',
    '//',
    '// WGSL has no 64-bit integer and no mulhi, and lets an implementation flush subnormals',
    '// and assume there are no NaNs or infinities. So nothing here is a float: buffers are',
    '// array<u32>, every value is its IEEE bit pattern, and every operation whose result the',
    '// spec fixes is done with u32 arithmetic, which WGSL defines exactly (wrapping). 64-bit',
    '// counters and positions are (lo, hi) pairs.',
    '//',
    '// Each "mirrors" line names the dropout.h function the next WGSL function follows and the',
    '// cksum of that function\'s text when the mirror was last compared with it. webgpu/embed.sh',
    '// takes the Philox constants from dropout.h\'s #defines and refuses to write',
    '// dropout_webgpu.js (and its --check fails) when one of those functions has changed since:',
    '// compare the mirror again, then write the new cksum here. tests/webgpu/ compares the',
    '// result with dropout.h bit for bit.',
    '',
    'const PHILOX_M0: u32 = 0xD2511F53u;',
    'const PHILOX_M1: u32 = 0xCD9E8D57u;',
    'const PHILOX_W0: u32 = 0x9E3779B9u;',
    'const PHILOX_W1: u32 = 0xBB67AE85u;',
    '',
    '// Ops and dtypes, as dropout_webgpu.js sets them.',
    'const OP_MASK: u32 = 0u;        // mask alone',
    'const OP_FORWARD: u32 = 1u;     // forward, and backward (forward of dy without a mask)',
    'const OP_APPLY_MASK: u32 = 2u;  // y = x scaled where a stored mask keeps, +0 elsewhere',
    'const DT_F32: u32 = 0u;',
    'const DT_F16: u32 = 1u;',
    'const DT_BF16: u32 = 2u;',
    'const FLAG_MASK_OUT: u32 = 1u;  // forward also writes the mask',
    'const FLAG_IN_PLACE: u32 = 2u;  // the input is the output buffer (y == x)',
    '',
    'struct Params {',
    '   seed: vec2<u32>,         // (lo, hi)',
    '   stream: vec2<u32>,',
    '   pos: vec2<u32>,          // the plan\'s first position',
    '   count: u32,              // elements of the call',
    '   threshold: u32,          // t, when t < 2^bits',
    '   all_dropped: u32,        // 1 when t == 2^bits (p = 1)',
    '   bits: u32,               // 8, 16 or 32',
    '   scale: u32,              // scale_f32\'s bits',
    '   op: u32,',
    '   dtype: u32,',
    '   flags: u32,',
    '   groups_x: u32,           // workgroups along x in this dispatch (the grid may be 2-D)',
    '   pad: u32,',
    '}',
    '',
    '@group(0) @binding(0) var<uniform> prm: Params;',
    '@group(0) @binding(1) var<storage, read_write> out_data: array<u32>;',
    '@group(0) @binding(2) var<storage, read> in_data: array<u32>;',
    '@group(0) @binding(3) var<storage, read_write> mask_data: array<u32>;',
    '',
    '// mirrors dropout.h dropout__mulhilo (cksum 3129264625)',
    '// The 32x32 -> 64-bit product from 16-bit pieces (each partial product fits in a u32).',
    'fn mulhilo(a: u32, b: u32) -> vec2<u32> {',
    '   let a0 = a & 0xFFFFu;',
    '   let a1 = a >> 16u;',
    '   let b0 = b & 0xFFFFu;',
    '   let b1 = b >> 16u;',
    '   let p00 = a0 * b0;',
    '   let p01 = a0 * b1;',
    '   let p10 = a1 * b0;',
    '   let mid = (p00 >> 16u) + (p01 & 0xFFFFu) + (p10 & 0xFFFFu);   // < 3 * 2^16',
    '   let hi = a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);',
    '   return vec2<u32>(a * b, hi);                                   // (lo, hi)',
    '}',
    '',
    '// mirrors dropout.h dropout_philox4x32_rounds (cksum 2096487379)',
    'fn philox4x32_10(ctr: vec4<u32>, key: vec2<u32>) -> vec4<u32> {',
    '   var c = ctr;',
    '   var k = key;',
    '   for (var r = 0u; r < 10u; r = r + 1u) {',
    '      let m0 = mulhilo(PHILOX_M0, c.x);',
    '      let m1 = mulhilo(PHILOX_M1, c.z);',
    '      c = vec4<u32>(m1.y ^ c.y ^ k.x, m1.x, m0.y ^ c.w ^ k.y, m0.x);',
    '      k = k + vec2<u32>(PHILOX_W0, PHILOX_W1);   // the bump after the last round is never used',
    '   }',
    '   return c;',
    '}',
    '',
    '// mirrors dropout.h dropout_block (cksum 2920674399)',
    'fn block_words(block: vec2<u32>) -> vec4<u32> {',
    '   return philox4x32_10(vec4<u32>(block.x, block.y, prm.stream.x, prm.stream.y), prm.seed);',
    '}',
    '',
    'fn word_of(w: vec4<u32>, i: u32) -> u32 {',
    '   return select(select(w.w, w.z, i == 2u), select(w.y, w.x, i == 0u), i < 2u);',
    '}',
    '',
    '// mirrors dropout.h dropout_draw (cksum 684258776)',
    'fn draw(w: vec4<u32>, bits: u32, lane: u32) -> u32 {',
    '   if (bits == 32u) { return word_of(w, lane); }',
    '   if (bits == 16u) { return (word_of(w, lane >> 1u) >> ((lane & 1u) * 16u)) & 0xFFFFu; }',
    '   return (word_of(w, lane >> 2u) >> ((lane & 3u) * 8u)) & 0xFFu;',
    '}',
    '',
    '// mirrors dropout.h dropout_keep (cksum 2647913068)',
    '// t == 2^bits does not fit a u32 when bits = 32: all_dropped stands for it.',
    'fn keep(d: u32) -> bool {',
    '   return prm.all_dropped == 0u && d >= prm.threshold;',
    '}',
    '',
    '// mirrors dropout.h dropout_f16_to_f32 (cksum 1915186408)',
    'fn f16_to_f32(h: u32) -> u32 {',
    '   let sign = (h & 0x8000u) << 16u;',
    '   let e = (h >> 10u) & 0x1Fu;',
    '   var man = h & 0x3FFu;',
    '   if (e == 0x1Fu) { return sign | 0x7F800000u | (man << 13u); }',
    '   if (e != 0u) { return sign | ((e + 112u) << 23u) | (man << 13u); }',
    '   if (man == 0u) { return sign; }',
    '   var k = 0u;                        // subnormal: man * 2^-24, renormalise',
    '   while ((man & 0x400u) == 0u) { man = man << 1u; k = k + 1u; }',
    '   return sign | ((113u - k) << 23u) | ((man & 0x3FFu) << 13u);',
    '}',
    '',
    '// mirrors dropout.h dropout_f32_to_f16 (cksum 497233049)',
    'fn f32_to_f16(x: u32) -> u32 {',
    '   let sign = (x >> 16u) & 0x8000u;',
    '   let ax = x & 0x7FFFFFFFu;',
    '   if (ax > 0x7F800000u) { return sign | 0x7E00u | ((ax >> 13u) & 0x3FFu); }',
    '   if (ax >= 0x477FF000u) { return sign | 0x7C00u; }          // >= 65520: Inf',
    '   if (ax < 0x38800000u) {                                    // below 2^-14',
    '      if (ax <= 0x33000000u) { return sign; }                 // <= 2^-25: zero',
    '      let m = (ax & 0x7FFFFFu) | 0x800000u;',
    '      let shift = 126u - (ax >> 23u);                         // 14 .. 24',
    '      var r = m >> shift;',
    '      let rem = m & ((1u << shift) - 1u);',
    '      let halfway = 1u << (shift - 1u);',
    '      if (rem > halfway || (rem == halfway && (r & 1u) != 0u)) { r = r + 1u; }',
    '      return sign | r;',
    '   }',
    '   var r = (ax >> 13u) - (112u << 10u);',
    '   let rem = ax & 0x1FFFu;',
    '   if (rem > 0x1000u || (rem == 0x1000u && (r & 1u) != 0u)) { r = r + 1u; }   // a carry bumps the exponent',
    '   return sign | r;',
    '}',
    '',
    '// mirrors dropout.h dropout_bf16_to_f32 (cksum 3931222578)',
    'fn bf16_to_f32(h: u32) -> u32 {',
    '   return h << 16u;',
    '}',
    '',
    '// mirrors dropout.h dropout_f32_to_bf16 (cksum 3868346697)',
    'fn f32_to_bf16(x: u32) -> u32 {',
    '   if ((x & 0x7FFFFFFFu) > 0x7F800000u) { return (x >> 16u) | 0x40u; }',
    '   return (x + 0x7FFFu + ((x >> 16u) & 1u)) >> 16u;',
    '}',
    '',
    '// mirrors dropout.h dropout__scale_f32 (cksum 995042649)',
    '// x * s, IEEE binary32 round to nearest even, subnormals, Inf and -0 included, on the bit',
    '// patterns, for the one s this is called with: the scale, a positive normal in [1, 2^32]',
    '// (1 / q for a realised keep probability q in [2^-32, 1)). A kept NaN keeps its sign and',
    '// payload and gets its quiet bit, as on the CPU.',
    'fn scale_f32(x: u32, s: u32) -> u32 {',
    '   let sign = x & 0x80000000u;',
    '   let ax = x & 0x7FFFFFFFu;',
    '   if (ax > 0x7F800000u) { return x | 0x00400000u; }        // NaN',
    '   if (ax == 0x7F800000u || ax == 0u) { return x; }          // Inf * s = Inf, 0 * s = 0',
    '   // x = mx 2^(ex - 150), s = ms 2^(es - 150), with 24-bit ms and mx >= 1',
    '   var ex = ax >> 23u;',
    '   var mx = ax & 0x7FFFFFu;',
    '   if (ex == 0u) { ex = 1u; } else { mx = mx | 0x800000u; }',
    '   let es = s >> 23u;',
    '   let ms = (s & 0x7FFFFFu) | 0x800000u;',
    '   let p = mulhilo(mx, ms);                                  // exact: < 2^48, >= 2^23',
    '   let e = i32(ex) + i32(es) - 300;                          // x s = p 2^e',
    '   // l: p\'s leading bit (23 .. 47); q: p shifted so that it is at bit 31; sticky: a one',
    '   // shifted out below q',
    '   var l: i32;',
    '   var q: u32;',
    '   var sticky = false;',
    '   if (p.y != 0u) {',
    '      l = 63 - i32(countLeadingZeros(p.y));',
    '      let d = u32(l - 31);                                   // 1 .. 16',
    '      q = (p.x >> d) | (p.y << (32u - d));',
    '      sticky = (p.x & ((1u << d) - 1u)) != 0u;',
    '   } else {',
    '      l = 31 - i32(countLeadingZeros(p.x));',
    '      q = p.x << u32(31 - l);',
    '   }',
    '   // x s = q 2^(e + l - 31); its leading bit is 2^(e + l)',
    '   if (e + l + 127 >= 255) { return sign | 0x7F800000u; }   // 2^128 or more: Inf',
    '   // keep 24 bits (r = 8), or fewer where the result is subnormal (its unit is 2^-149)',
    '   let r = max(8, -118 - e - l);',
    '   if (r >= 33) { return sign; }                             // below half of 2^-149',
    '   var m: u32;',
    '   var rem: u32;',
    '   if (r == 32) { m = 0u; rem = q; } else { m = q >> u32(r); rem = q & ((1u << u32(r)) - 1u); }',
    '   let half = 1u << u32(r - 1);',
    '   if (rem > half || (rem == half && (sticky || (m & 1u) != 0u))) { m = m + 1u; }',
    '   // m 2^(e + l - 31 + r): biased exponent field (e + l + r + 118) for a normal m in',
    '   // [2^23, 2^24) counting the implicit bit once, 0 for a subnormal; a carry out of the',
    '   // rounding moves into the exponent (up to Inf) by itself',
    '   return sign | ((u32(e + l + r + 118) << 23u) + m);',
    '}',
    '',
    '// mirrors dropout.h dropout_apply_f32 (cksum 2507257981)',
    '// One element of forward (or backward: dy for x), as f32 bits; t = 0 copies x.',
    'fn apply_f32(x: u32, k: bool) -> u32 {',
    '   if (prm.threshold == 0u && prm.all_dropped == 0u) { return x; }',
    '   return select(0u, scale_f32(x, prm.scale), k);',
    '}',
    '',
    '// mirrors dropout.h dropout_apply_f16 (cksum 3199379382)',
    'fn apply_f16(x: u32, k: bool) -> u32 {',
    '   if (prm.threshold == 0u && prm.all_dropped == 0u) { return x; }',
    '   return select(0u, f32_to_f16(scale_f32(f16_to_f32(x), prm.scale)), k);',
    '}',
    '',
    '// mirrors dropout.h dropout_apply_bf16 (cksum 3699718457)',
    'fn apply_bf16(x: u32, k: bool) -> u32 {',
    '   if (prm.threshold == 0u && prm.all_dropped == 0u) { return x; }',
    '   return select(0u, f32_to_bf16(scale_f32(bf16_to_f32(x), prm.scale)), k);',
    '}',
    '',
    'fn apply(x: u32, k: bool) -> u32 {',
    '   if (prm.dtype == DT_F16) { return apply_f16(x, k); }',
    '   if (prm.dtype == DT_BF16) { return apply_bf16(x, k); }',
    '   return apply_f32(x, k);',
    '}',
    '',
    'fn load_in(i: u32) -> u32 {',
    '   if ((prm.flags & FLAG_IN_PLACE) != 0u) { return out_data[i]; }',
    '   return in_data[i];',
    '}',
    '',
    '// One invocation owns 32 consecutive elements: one u32 word of the mask, 32 words of f32',
    '// or 16 words of f16 / bf16 (two elements a word, the lower first), so no two invocations',
    '// write one word. Words past the call\'s last element are left as they were; so are the',
    '// bytes of the last mask word past ceil(count / 8) (bits of the last byte past count are',
    '// written 0, as dropout.h writes them).',
    '@compute @workgroup_size(64)',
    'fn dropout_main(@builtin(global_invocation_id) gid: vec3<u32>) {',
    '   let chunk = gid.x + gid.y * prm.groups_x * 64u;          // below 2^28: no wrap',
    '   if (chunk >= (prm.count >> 5u) + select(0u, 1u, (prm.count & 31u) != 0u)) { return; }',
    '   let j0 = chunk * 32u;',
    '   let n = min(32u, prm.count - j0);',
    '   let log2_draws = select(select(4u, 3u, prm.bits == 16u), 2u, prm.bits == 32u);',
    '   // first position of the chunk: pos + j0, a 64-bit add (the host checked pos + count <= 2^64)',
    '   let lo0 = prm.pos.x + j0;',
    '   let hi0 = prm.pos.y + select(0u, 1u, lo0 < j0);',
    '   var stored = 0u;',
    '   if (prm.op == OP_APPLY_MASK) { stored = mask_data[chunk]; }',
    '   var have = false;',
    '   var cur = vec2<u32>(0u, 0u);',
    '   var w = vec4<u32>(0u);',
    '   var bits_out = 0u;',
    '   var pair = 0u;                    // f16 / bf16: the output word being built',
    '   for (var i = 0u; i < n; i = i + 1u) {',
    '      var k: bool;',
    '      if (prm.op == OP_APPLY_MASK) {',
    '         // a kept bit at t == 2^bits would scale by 0 (Inf * 0 is a NaN): +0 instead',
    '         k = ((stored >> i) & 1u) != 0u && prm.all_dropped == 0u;',
    '      } else {',
    '         let lo = lo0 + i;',
    '         let hi = hi0 + select(0u, 1u, lo < i);',
    '         let blk = vec2<u32>((lo >> log2_draws) | (hi << (32u - log2_draws)), hi >> log2_draws);',
    '         if (!have || blk.x != cur.x || blk.y != cur.y) { w = block_words(blk); cur = blk; have = true; }',
    '         k = keep(draw(w, prm.bits, lo & ((1u << log2_draws) - 1u)));',
    '      }',
    '      bits_out = bits_out | (select(0u, 1u, k) << i);',
    '      if (prm.op == OP_MASK) { continue; }',
    '      let j = j0 + i;',
    '      if (prm.dtype == DT_F32) {',
    '         out_data[j] = apply_f32(load_in(j), k);',
    '      } else {',
    '         let x = (load_in(j >> 1u) >> ((j & 1u) * 16u)) & 0xFFFFu;',
    '         let y = apply(x, k);',
    '         if ((j & 1u) == 0u) {',
    '            pair = y;',
    '            if (i + 1u == n) {       // the last element, in the lower half: keep the upper',
    '               out_data[j >> 1u] = (out_data[j >> 1u] & 0xFFFF0000u) | pair;',
    '            }',
    '         } else {',
    '            out_data[j >> 1u] = pair | (y << 16u);',
    '         }',
    '      }',
    '   }',
    '   if (prm.op == OP_MASK || (prm.flags & FLAG_MASK_OUT) != 0u) {',
    '      if (n == 32u) {',
    '         mask_data[chunk] = bits_out;',
    '      } else {',
    '         let bytes = (n + 7u) / 8u;                              // 1 .. 4',
    '         let mine = select(0xFFFFFFFFu, (1u << (bytes * 8u)) - 1u, bytes < 4u);',
    '         mask_data[chunk] = (mask_data[chunk] & ~mine) | bits_out;',
    '      }',
    '   }',
    '}',
    '',
    '// ---- views: broadcast masks (docs/SPEC.md V.1) and strided tensors (section 13) --------',
    '// The descriptor\'s lowering: tensor element (i_0 .. i_{r-1}) has the row-major logical',
    '// index l; its mask index m = sum i_d mstride[d] (0 on broadcast dims) draws position',
    '// pos + m; it reads x[x_off + sum i_d xstride[d]] and writes y[y_off + sum i_d ystride[d]]',
    '// (element offsets and strides of any sign, as two\'s complement u32: the host checked',
    '// that every address is inside its buffer). One invocation per tensor element. f16 / bf16',
    '// share a u32 word between two elements that another invocation may own, so the output is',
    '// written with atomics on the element\'s own 16 bits (the other half stays as it was).',
    '// The mask output, when asked for, is the mask op over the positions (dropout_webgpu.js',
    '// records it as a dispatch of its own).',
    'struct View {',
    '   dims: array<vec4<u32>, 2>,',
    '   mstride: array<vec4<u32>, 2>,',
    '   ystride: array<vec4<u32>, 2>,',
    '   xstride: array<vec4<u32>, 2>,',
    '   rank: u32,',
    '   numel: u32,',
    '   y_off: u32,',
    '   x_off: u32,',
    '}',
    '',
    '@group(0) @binding(4) var<storage, read_write> out_atomic: array<atomic<u32>>;',
    '@group(0) @binding(5) var<uniform> view: View;',
    '',
    'fn load_view_in(xo: u32) -> u32 {',
    '   if ((prm.flags & FLAG_IN_PLACE) != 0u) { return atomicLoad(&out_atomic[xo]); }',
    '   return in_data[xo];',
    '}',
    '',
    '@compute @workgroup_size(64)',
    'fn dropout_view(@builtin(global_invocation_id) gid: vec3<u32>) {',
    '   let l = gid.x + gid.y * prm.groups_x * 64u;',
    '   if (l >= view.numel) { return; }',
    '   var rest = l;',
    '   var m = 0u;',
    '   var yo = view.y_off;',
    '   var xo = view.x_off;',
    '   for (var d = view.rank; d > 0u; d = d - 1u) {',
    '      let v = (d - 1u) >> 2u;',
    '      let c = (d - 1u) & 3u;',
    '      let dim = view.dims[v][c];',
    '      let i = rest % dim;',
    '      rest = rest / dim;',
    '      m = m + i * view.mstride[v][c];',
    '      yo = yo + i * view.ystride[v][c];',
    '      xo = xo + i * view.xstride[v][c];',
    '   }',
    '   var k: bool;',
    '   if (prm.op == OP_APPLY_MASK) {',
    '      k = ((mask_data[m >> 5u] >> (m & 31u)) & 1u) != 0u && prm.all_dropped == 0u;',
    '   } else {',
    '      let log2_draws = select(select(4u, 3u, prm.bits == 16u), 2u, prm.bits == 32u);',
    '      let lo = prm.pos.x + m;',
    '      let hi = prm.pos.y + select(0u, 1u, lo < m);',
    '      let blk = vec2<u32>((lo >> log2_draws) | (hi << (32u - log2_draws)), hi >> log2_draws);',
    '      k = keep(draw(block_words(blk), prm.bits, lo & ((1u << log2_draws) - 1u)));',
    '   }',
    '   if (prm.dtype == DT_F32) {',
    '      atomicStore(&out_atomic[yo], apply_f32(load_view_in(xo), k));',
    '   } else {',
    '      let x = (load_view_in(xo >> 1u) >> ((xo & 1u) * 16u)) & 0xFFFFu;',
    '      let sh = (yo & 1u) * 16u;',
    '      let y = apply(x, k);',
    '      atomicAnd(&out_atomic[yo >> 1u], ~(0xFFFFu << sh));',
    '      atomicOr(&out_atomic[yo >> 1u], y << sh);',
    '   }',
    '}',
    /* END wgsl */
  ].join('\n');

  // tables without a prototype, read through own(): `'constructor' in {}` is true, and such a
  // name must not pass for an op or a dtype
  const table = (entries) => Object.freeze(Object.assign(Object.create(null), entries));
  const own = (t, key) => typeof key === 'string' && Object.prototype.hasOwnProperty.call(t, key);
  // a value as a message shows it, with its kind where that is the trouble (a Symbol in a
  // template literal throws; 5n and '5' would print as 5; 1.7e18 is an integer, past 2^53)
  const show = (v) => typeof v === 'bigint' ? `${v}n (a BigInt)`
    : typeof v === 'string' ? `${JSON.stringify(v)} (a string)`
    : typeof v === 'number' ? (Number.isInteger(v) && !Number.isSafeInteger(v) ? `${v} (a Number past 2^53, where not every integer is one: give a BigInt)` : `${v}`)
    : typeof v === 'symbol' || typeof v === 'function' ? `a ${typeof v}` : v === null ? 'null' : v === undefined ? 'undefined (not given)' : typeof v === 'object' ? `an ${Object.prototype.toString.call(v).slice(8, -1)}` : String(v);
  const OPS = table({ mask: 0, forward: 1, backward: 1, apply_mask: 2 });
  const DTYPES = table({ f32: 0, f16: 1, bf16: 2 });
  const BYTES = table({ f32: 4, f16: 2, bf16: 2 });
  const FLAG_MASK_OUT = 1, FLAG_IN_PLACE = 2;
  const CHUNK = 32, WORKGROUP = 64;   // elements per invocation, invocations per workgroup
  const TWO64 = 1n << 64n;
  const STORAGE = 0x80, UNIFORM = 0x40;   // GPUBufferUsage.STORAGE, .UNIFORM

  class DropoutWebGPUError extends Error {
    constructor(code, message) { super(message); this.name = 'DropoutWebGPUError'; this.code = code; }
  }
  const fail = (code, message) => { throw new DropoutWebGPUError(code, 'dropout_webgpu: ' + message); };

  /* dropout_rule_init: t = floor(p 2^b + 1/2) (exact in double), scale64 = 1 / (1 - t/2^b)
     (one double division), scale32 = scale64 rounded once to float. A p in (0, 1) that the
     width realises as 0 or 1, or with p or 1 - p more than 1% off (|t/2^b - p| > 0.01
     min(p, 1 - p), in doubles as dropout.h computes it), is refused with the code of the
     first wider width that honours it; { quantised: true } accepts the width's p as
     dropout_rule_init_quantised does (still refusing 0 or 1 for a p inside (0, 1)). */
  function rule(p, bits, options) {
    if (bits !== 8 && bits !== 16 && bits !== 32) fail('DROPOUT_ERR_BITS', `bits: ${show(bits)} is not 8, 16 or 32`);
    // (a boolean, as record() insists: { quantised: 'no' } would otherwise be the loose rule)
    if (options && options.quantised != null && typeof options.quantised !== 'boolean') fail('DROPOUT_ERR_ARG', `quantised: ${show(options.quantised)} is not true or false`);
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) fail('DROPOUT_ERR_P', `p: ${show(p)} is not a number in [0, 1]`);
    const strict = !(options && options.quantised);
    const tOf = (b) => Math.floor(p * 2 ** b + 0.5);
    const serves = (b) => {
      const tb = tOf(b), n = 2 ** b;
      if (tb === 0 || tb === n) return false;
      if (!strict) return true;
      const off = Math.abs(tb / n - p), near = p < 0.5 ? p : 1 - p;
      return off <= 0.01 * near;
    };
    const t = tOf(bits);
    if (p > 0 && p < 1 && !serves(bits)) {
      const how = t === 0 || t === 2 ** bits ? `as ${t === 0 ? 0 : 1}` : `as ${t / 2 ** bits}, more than 1% off`;
      for (let w = bits * 2; w <= 32; w *= 2) {
        if (serves(w)) {
          fail(w === 16 ? 'DROPOUT_ERR_P_NEEDS_16' : 'DROPOUT_ERR_P_NEEDS_32',
            `p: ${p} is realised ${how} by ${bits}-bit draws; ${w}-bit draws honour it`);
        }
      }
      fail('DROPOUT_ERR_P_UNREALISABLE', `p: ${p} is realised ${how} even by 32-bit draws`);
    }
    const all = t === 2 ** bits;
    const scale64 = all ? 0 : 1 / (1 - t / 2 ** bits);
    const scale32 = Math.fround(scale64);
    const u = new Uint32Array(new Float32Array([scale32]).buffer)[0];
    return { p: t / 2 ** bits, bits, threshold: t, scale64, scale32, scale32Bits: u };
  }

  function u64(name, v) {
    let b;
    if (typeof v === 'bigint') b = v;
    else if (Number.isSafeInteger(v)) b = BigInt(v);
    else fail('DROPOUT_ERR_ARG', `${name}: ${show(v)} is not an integer (a BigInt, or a Number below 2^53)`);
    if (b < 0n || b >= TWO64) fail('DROPOUT_ERR_ARG', `${name}: ${b} is outside [0, 2^64)`);
    return b;
  }

  /* A generator: positions for a training loop, as dropout_gen_plan hands them out in C. A
     position counts draws of its call's width (a 16-bit draw is half a stream word), so a
     loop that moves pos on by count itself reads words again when the width changes (a p
     that changes, or one counter for layers of different widths). plan(count, bits) gives
     the first of count fresh positions of that width: the next after the last plan's where
     the width is the same, else the first past every word handed out. Its seed, stream,
     position and bits are the state to save; generator(seed, stream, { position, bits })
     resumes it (a position past 0 comes with its width: what else would it count?). */
  function generator(seed, stream, options) {
    const key = { seed: u64('seed', seed), stream: u64('stream', stream) };
    const o = options == null ? {} : options;
    if (typeof o !== 'object') fail('DROPOUT_ERR_ARG', `options: ${show(o)} is not an object of position and bits`);
    let position = o.position == null ? 0n : u64('position', o.position);
    let width = o.bits == null ? null : o.bits;
    if (width !== null && width !== 8 && width !== 16 && width !== 32) fail('DROPOUT_ERR_BITS', `bits: ${show(width)} is not 8, 16 or 32`);
    if (position > 0n && width === null) fail('DROPOUT_ERR_ARG', `position: ${position} counts draws of a width: give the bits it counts too (the saved generator's bits)`);
    function plan(count, bits) {
      if (bits !== 8 && bits !== 16 && bits !== 32) fail('DROPOUT_ERR_BITS', `bits: ${show(bits)} is not 8, 16 or 32`);
      if (!Number.isSafeInteger(count) || count < 0 || count > 0xFFFFFFFF) fail('DROPOUT_ERR_ARG', `count: ${show(count)} is not a Number holding an integer in [0, 2^32)`);
      let at = position;
      if (width !== null && width !== bits) {
        const was = BigInt(32 / width), per = BigInt(32 / bits);   // draws a word
        at = (at + was - 1n) / was * per;                          // past every word handed out
      }
      if (at + BigInt(count) > TWO64 - 1n) fail('DROPOUT_ERR_RANGE', `the generator has no ${count} ${bits}-bit positions left (2^64 - 1 in all)`);
      position = at + BigInt(count);
      width = bits;
      return { seed: key.seed, stream: key.stream, pos: at, count, bits };
    }
    return {
      plan,
      get seed() { return key.seed; },
      get stream() { return key.stream; },
      get position() { return position; },
      get bits() { return width; },
    };
  }

  /* A buffer the call binds whole: checked here rather than refused by WebGPU at submit
     (which would reject the caller's whole command buffer): its usage, size, a size in
     4-byte words (a storage binding's rule) and the device's binding limit. A missing one
     gets dropout.h's code for that operand (the output: y or dx; the input: x or dy). */
  const NULL_CODE = table({ y: 'DROPOUT_ERR_NULL_OUTPUT', dx: 'DROPOUT_ERR_NULL_OUTPUT', x: 'DROPOUT_ERR_NULL_INPUT', dy: 'DROPOUT_ERR_NULL_INPUT', mask: 'DROPOUT_ERR_NULL_MASK' });
  function needBuffer(name, buf, bytes, usage, maxBinding) {
    if (!buf || typeof buf.size !== 'number') fail(NULL_CODE[name], `${name}: a GPUBuffer is required`);
    // WebGPU's binding form {buffer, offset, size} has a size too, and would fail only when
    // the bind group is made: the buffer itself is taken, and `offsets` says where in it
    if (buf.buffer !== undefined || typeof buf.getMappedRange !== 'function') {
      fail('DROPOUT_ERR_ARG', `${name}: a GPUBuffer itself is required${buf.buffer !== undefined ? ' (not a {buffer, offset, size} binding: give the buffer, and an element offset in offsets)' : ''}`);
    }
    if (buf.size < bytes) fail('DROPOUT_ERR_ARG', `${name}: ${buf.size} bytes, the call needs ${bytes}`);
    if (buf.size % 4) fail('DROPOUT_ERR_ARG', `${name}: ${buf.size} bytes, not a multiple of 4 (WebGPU binds storage in 4-byte words)`);
    if (buf.size > maxBinding) {
      fail('DROPOUT_ERR_ARG', `${name}: ${buf.size} bytes, over the device's maxStorageBufferBindingSize (${maxBinding}; request more when creating the device)`);
    }
    if (typeof buf.usage === 'number' && !(buf.usage & usage)) {
      fail('DROPOUT_ERR_ARG', `${name}: the buffer was not created with GPUBufferUsage.STORAGE`);
    }
    // a mapped (or mapping) buffer: WebGPU would refuse the whole command buffer at submit
    if (typeof buf.mapState === 'string' && buf.mapState !== 'unmapped') {
      fail('DROPOUT_ERR_ARG', `${name}: the buffer is ${buf.mapState} (unmap it first: WebGPU refuses a submit that uses a mapped buffer)`);
    }
  }

  const roundUp4 = (b) => Math.ceil(b / 4) * 4;

  /* The keys a call may have: the plan's and the view's, and each op's operands (dx, dy for
     backward; strides and offsets name the same operands but the mask, which is packed).
     Any other key is refused, not dropped: a misspelt `offset`, a `strides.X`, `dy` strides
     on a forward would otherwise leave the call contiguous, or at element 0, and read or
     write other elements than meant with no error. A key set to undefined (or null) asks
     for nothing, and passes (`{ ...call, mask: undefined }` is a call without a mask). */
  const KEYS = ['op', 'dtype', 'p', 'bits', 'quantised', 'seed', 'stream', 'pos', 'count', 'shape', 'broadcast', 'positionStrides', 'strides', 'offsets'];
  const OPERANDS = table({ forward: ['y', 'x', 'mask'], backward: ['dx', 'dy'], mask: ['mask'], apply_mask: ['y', 'x', 'mask'] });
  const viewOperands = (op) => OPERANDS[op].filter((k) => k !== 'mask');

  // (for...in, not Object.keys: a call made with Object.create(plan) reads the plan's keys too)
  function onlyKeys(obj, allowed, what) {
    for (const k in obj) {
      if (obj[k] != null && !allowed.includes(k)) fail('DROPOUT_ERR_ARG', what(k));
    }
  }

  function checkKeys(call, op) {
    const takes = KEYS.concat(OPERANDS[op]);
    onlyKeys(call, takes, (k) => `${k}: not an argument of ${op}, which takes ${takes.join(', ')}`);
    const names = viewOperands(op);
    for (const field of ['strides', 'offsets']) {
      const v = call[field];
      if (v == null) continue;
      const spell = names.length ? `{ ${names.map((k) => `${k}: ...`).join(', ')} }` : '{} (the mask is packed)';
      if (typeof v !== 'object' || Array.isArray(v)) fail('DROPOUT_ERR_STRIDE', `${field}: an object by operand is needed, ${spell}`);
      onlyKeys(v, names, (k) => `${field}.${k}: not an operand of ${op}, whose ${field} name ${names.length ? names.join(', ') : 'none (the mask is packed)'}`);
    }
  }

  /* positionStrides as dropout.h's dropout_desc_set_position_strides checks them: one per
     dim, whole numbers; not with a broadcast (a zero stride is one); not a rank-8 shape
     of dims all above 1 whose last dim steps more than 1 (dropout.h has no room for its
     rows of one element; refused here too, so that a call means the same on both); taken
     in increasing order over the dims of more than one element, each non-zero stride
     passes the span of the smaller ones (no two elements draw one position); the span
     fits the kernel's u32 mask index. Returns the kernel's mask strides and the positions
     they draw: the span + 1, or 0 where a dim of no element has a stride (dropout.h's). */
  function positionStridesOf(s, shape, bc) {
    const rank = shape.length;
    if (!Array.isArray(s) || s.length !== rank) fail('DROPOUT_ERR_POSITION_STRIDES', `positionStrides: ${rank} strides are needed, one per dim`);
    // (a dim of one element or none never steps: its stride is not used, and may be any
    // whole Number below 2^53; BigInts are not taken here)
    s.forEach((v, i) => {
      if (!Number.isSafeInteger(v) || v < 0) fail('DROPOUT_ERR_POSITION_STRIDES', `positionStrides: stride ${i} = ${show(v)} is not a whole Number below 2^53`);
      if (shape[i] > 1 && v > 0xFFFFFFFF) fail('DROPOUT_ERR_POSITION_STRIDES', `positionStrides: stride ${i} = ${v} of a dim of ${shape[i]} elements is not below 2^32 (this kernel's mask index is a u32)`);
    });
    if (bc) fail('DROPOUT_ERR_BROADCAST', 'broadcast: not with positionStrides (a zero position stride is the broadcast)');
    if (rank === 8 && shape.every((d) => d > 1) && s[7] > 1) fail('DROPOUT_ERR_POSITION_STRIDES', `positionStrides: a rank-8 shape of dims all above 1 whose last dim steps ${s[7]} positions (more than 1: dropout.h refuses it)`);
    const dims = [];
    for (let d = 0; d < rank; ++d) if (shape[d] > 1 && s[d] > 0) dims.push([s[d], shape[d]]);
    dims.sort((a, b) => a[0] - b[0]);
    let span = 0;
    for (const [v, n] of dims) {
      if (v <= span) fail('DROPOUT_ERR_POSITION_STRIDES', `positionStrides: two elements would draw one position (stride ${v} does not pass the span ${span} of the smaller ones)`);
      span += v * (n - 1);
      if (span >= 0xFFFFFFFF) fail('DROPOUT_ERR_POSITION_STRIDES', `positionStrides: they span more than 2^32 - 1 positions`);
    }
    const empty = shape.some((d, i) => d === 0 && s[i] !== 0);
    return { mstride: s.map((v, i) => (shape[i] > 1 ? v : 0)), positions: empty ? 0 : span + 1 };
  }

  /* A call's view (docs/SPEC.md V.1 and section 13): shape (rank 1 .. 8), broadcast (bit d:
     dim d shares one decision), strides { y, x } ({ dx, dy } for backward) in elements (any
     sign; 0 only for the input), offsets { y, x } (or dx, dy): the element (0, .., 0) in
     each buffer. count must be the positions the shape draws (the product of its
     non-broadcast dims). positionStrides (dropout_desc_set_position_strides): element
     (i_0, ..) draws pos + sum i_d * positionStrides[d] instead of its row-major index, and
     count is their span, 1 + sum (dim_d - 1) * positionStrides[d]: a tensor-parallel rank's
     (B, c1 - c0) block of a (B, W) activation is positionStrides [W, 1] from pos + c0 with
     count (B - 1) * W + c1 - c0. The keys were checked (checkKeys). */
  function viewOf(call, count) {
    const shape = call.shape === undefined ? [count] : call.shape;
    if (!Array.isArray(shape)) fail('DROPOUT_ERR_RANK', `shape: an array of 1 .. 8 dims is needed (got ${shape === null || typeof shape !== 'object' ? typeof shape : shape.constructor ? shape.constructor.name : 'an object'})`);
    if (shape.length < 1 || shape.length > 8) fail('DROPOUT_ERR_RANK', `shape: rank ${shape.length} is not 1 .. 8`);
    const rank = shape.length;
    shape.forEach((d, i) => { if (!Number.isSafeInteger(d) || d < 0) fail('DROPOUT_ERR_ARG', `shape: dim ${i} = ${show(d)} is not a whole number`); });
    const bc = call.broadcast === undefined ? 0 : call.broadcast;
    if (!Number.isInteger(bc) || bc < 0) fail('DROPOUT_ERR_BROADCAST', `broadcast: ${show(bc)} is not a bit set`);
    // (compared, not shifted: >> keeps a Number's low 32 bits, and 2^32 + 1 would pass as 1)
    if (bc >= 2 ** rank) fail('DROPOUT_ERR_BROADCAST', `broadcast: bit ${bc.toString(2).length - 1} is at or past the rank ${rank}`);
    const numel = shape.reduce((a, d) => a * d, 1);
    if (numel > 0xFFFFFFFF) fail('DROPOUT_ERR_SHAPE_OVERFLOW', `shape: ${numel} elements; this kernel indexes at most 2^32 - 1`);
    let mstride = new Array(rank);
    let positions = 1;
    for (let d = rank - 1; d >= 0; --d) {
      const b = (bc >> d) & 1;
      mstride[d] = b ? 0 : positions;
      if (!b) positions *= shape[d];
    }
    if (call.positionStrides != null) {
      ({ mstride, positions } = positionStridesOf(call.positionStrides, shape, bc));
      if (positions !== count) fail('DROPOUT_ERR_SHAPE_COUNT', `count: ${count}, but the position strides span ${positions} positions`);
    }
    if (positions !== count) fail('DROPOUT_ERR_SHAPE_COUNT', `count: ${count}, but the shape with this broadcast draws ${positions} positions`);
    const contiguous = new Array(rank);
    for (let d = rank - 1, acc = 1; d >= 0; --d) { contiguous[d] = acc; acc *= Math.max(1, shape[d]); }
    const strides = call.strides || {};
    const st = (name) => {
      const a = strides[name] === undefined ? contiguous : strides[name];
      if (!Array.isArray(a) || a.length !== rank) fail('DROPOUT_ERR_STRIDE', `strides.${name}: ${rank} strides are needed`);
      // a dim of one element never moves, so its stride is never used: dropout.h neither
      // limits it nor compares it (in place), and the kernel gets 0 for it
      a.forEach((v, i) => {
        if (!Number.isSafeInteger(v) || (shape[i] > 1 && Math.abs(v) >= 2 ** 31)) {
          fail('DROPOUT_ERR_STRIDE', `strides.${name}: stride ${i} = ${show(v)} is not an integer below 2^31 in magnitude (a dim of one element: below 2^53)`);
        }
      });
      return a.map((v, i) => (shape[i] > 1 ? v : 0));
    };
    // (the mask op has no y or x: checkKeys refused strides for them, these go unused)
    const [yName, xName] = viewOperands(call.op === 'mask' ? 'forward' : call.op);
    const ys = st(yName), xs = st(xName);
    // the output: no zero stride on a dim of 2 or more, and no two elements at one place
    // (sorted by |stride|, each must pass the reach of the smaller ones: dropout.h's test)
    const outDims = [];
    for (let d = 0; d < rank; ++d) {
      if (shape[d] <= 1) continue;
      if (ys[d] === 0) fail('DROPOUT_ERR_STRIDE', `strides.${yName}: stride ${d} is 0 for a dim of ${shape[d]} (two elements would be written to one place)`);
      outDims.push([Math.abs(ys[d]), shape[d]]);
    }
    outDims.sort((a, b) => a[0] - b[0]);
    let reach = 0;
    for (const [a, n] of outDims) {
      if (a <= reach) fail('DROPOUT_ERR_OVERLAP', `strides.${yName}: two output elements share memory`);
      reach += a * (n - 1);
    }
    const offsets = call.offsets || {};
    const off = (name) => {
      const v = offsets[name] === undefined ? 0 : offsets[name];
      if (!Number.isSafeInteger(v) || v < 0 || v > 0xFFFFFFFF) fail('DROPOUT_ERR_STRIDE', `offsets.${name}: ${show(v)} is not an element index below 2^32`);
      return v;
    };
    return {
      dims: shape, numel, mstride, ys, xs,
      yoff: off(yName), xoff: off(xName),
    };
  }

  /* A key set to null asks for nothing, as one set to undefined (or left out) does: a copy
     of the call without its null keys, and of its offsets and strides without theirs (the
     caller's objects are not changed; the prototype is kept, for calls built on one). */
  function withoutNulls(o) {
    const c = Object.assign(Object.create(Object.getPrototypeOf(o)), o);
    for (const k of Object.keys(c)) if (c[k] === null) delete c[k];
    for (const k of ['offsets', 'strides']) {
      if (c[k] && typeof c[k] === 'object' && !Array.isArray(c[k]) && Object.values(c[k]).includes(null)) {
        c[k] = Object.assign({}, c[k]);
        for (const n of Object.keys(c[k])) if (c[k][n] === null) delete c[k][n];
      }
    }
    return c;
  }

  /* options.gridWidth: at most this many workgroups along x (default: the device's limit);
     a larger call spreads over y. Tests set it small to run the 2-D grid on small calls. */
  function create(device, options) {
    if (!device || typeof device.createShaderModule !== 'function') fail('DROPOUT_ERR_NULL', 'device: a GPUDevice is required');
    const module = device.createShaderModule({ code: WGSL, label: 'dropout.h' });
    const layout = device.createBindGroupLayout({
      label: 'dropout.h',
      entries: [
        { binding: 0, visibility: 4, buffer: { type: 'uniform' } },             // GPUShaderStage.COMPUTE
        { binding: 1, visibility: 4, buffer: { type: 'storage' } },
        { binding: 2, visibility: 4, buffer: { type: 'read-only-storage' } },
        { binding: 3, visibility: 4, buffer: { type: 'storage' } },
      ],
    });
    const pipeline = device.createComputePipeline({
      label: 'dropout.h',
      layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
      compute: { module, entryPoint: 'dropout_main' },
    });
    // views (shape, broadcast, strides): one invocation per element, output through atomics
    const viewLayout = device.createBindGroupLayout({
      label: 'dropout.h view',
      entries: [
        { binding: 0, visibility: 4, buffer: { type: 'uniform' } },
        { binding: 2, visibility: 4, buffer: { type: 'read-only-storage' } },
        { binding: 3, visibility: 4, buffer: { type: 'storage' } },
        { binding: 4, visibility: 4, buffer: { type: 'storage' } },
        { binding: 5, visibility: 4, buffer: { type: 'uniform' } },
      ],
    });
    let viewPipeline = null;   // made on first use
    const viewPipe = () => viewPipeline || (viewPipeline = device.createComputePipeline({
      label: 'dropout.h view',
      layout: device.createPipelineLayout({ bindGroupLayouts: [viewLayout] }),
      compute: { module, entryPoint: 'dropout_view' },
    }));
    const maxGroups = device.limits.maxComputeWorkgroupsPerDimension;
    const maxBinding = device.limits.maxStorageBufferBindingSize;
    // (a whole number: 2.5 made the grid's rows from 2.5 and dispatched 2 a row, silently
    // leaving the last elements unwritten)
    const gw = options && options.gridWidth;
    if (gw != null && !(Number.isSafeInteger(gw) && gw >= 1)) fail('DROPOUT_ERR_ARG', `gridWidth: ${show(gw)} is not a whole number >= 1`);
    const width = Math.max(1, Math.min(maxGroups, gw || maxGroups));
    // small buffers bound where a call has no such operand: one per binding, since WebGPU
    // refuses one buffer bound twice where either binding is writable
    const spares = [];
    const spare = (i) => spares[i] || (spares[i] = device.createBuffer({ size: 16, usage: STORAGE, label: 'dropout.h unused' }));

    /* Check a call and return its uniform block and buffers, or throw; records nothing. */
    function prepare(call) {
      if (!call || typeof call !== 'object') fail('DROPOUT_ERR_NULL', 'call: an object of the call\'s parameters is required');
      call = withoutNulls(call);
      const op = call.op;
      if (!own(OPS, op)) fail('DROPOUT_ERR_OP', `op: ${show(op)} is not one of ${Object.keys(OPS).join(', ')}`);
      checkKeys(call, op);
      const dtype = call.dtype === undefined && op === 'mask' ? 'f32' : call.dtype;
      if (!own(DTYPES, dtype)) fail('DROPOUT_ERR_DTYPE', `dtype: ${show(dtype)} is not one of f32, f16, bf16 (WGSL has no f64)`);
      // (a boolean: `quantised: 'yes'` would otherwise be the strict rule, silently)
      if (call.quantised != null && typeof call.quantised !== 'boolean') fail('DROPOUT_ERR_ARG', `quantised: ${show(call.quantised)} is not true or false`);
      const r = rule(call.p, call.bits, { quantised: call.quantised === true });
      const seed = u64('seed', call.seed), stream = u64('stream', call.stream);
      // no default position: a loop that forgot to advance it would draw one mask every step
      if (call.pos === undefined) fail('DROPOUT_ERR_ARG', 'pos: required (the same pos twice is the same mask twice: advance it by count each step, or give each layer its own stream)');
      const pos = u64('pos', call.pos);
      const count = call.count;
      if (!Number.isSafeInteger(count) || count < 0 || count > 0xFFFFFFFF) fail('DROPOUT_ERR_ARG', `count: ${show(count)} is not a Number holding an integer in [0, 2^32)`);
      if (pos + BigInt(count) > TWO64) fail('DROPOUT_ERR_RANGE', `pos + count: positions ${pos} .. ${pos + BigInt(count) - 1n} run past 2^64 - 1`);
      const view = call.shape !== undefined || call.broadcast || call.positionStrides != null || call.strides || call.offsets ? viewOf(call, count) : null;
      // backward takes dx / dy (only: checkKeys refuses its y / x); they are y / x
      const y = op === 'backward' ? call.dx : call.y;
      const x = op === 'backward' ? call.dy : call.x;
      const yName = op === 'backward' ? 'dx' : 'y', xName = op === 'backward' ? 'dy' : 'x';
      const dataBytes = view ? (view.numel ? 4 : 0) : roundUp4(count * BYTES[dtype]);   // a view checks its own extents (an empty one: none)
      const maskBytes = roundUp4(Math.ceil(count / 8));
      const mask = call.mask;
      // a buffer is needed where the call reads or writes it, as dropout.h takes NULL
      // elsewhere (one given is checked all the same): the data where the call has
      // elements, a mask drawn where it draws positions, a mask read where it has elements
      const elems = view ? view.numel : count;
      const need = (name, buf, bytes, used) => { if (buf !== undefined || used) needBuffer(name, buf, bytes, STORAGE, maxBinding); };
      let flags = 0;
      if (op !== 'mask') {
        need(yName, y, dataBytes, elems > 0);
        need(xName, x, dataBytes, elems > 0);
      }
      if (op === 'mask' || op === 'apply_mask' || (op === 'forward' && mask)) {
        need('mask', mask, maskBytes, op === 'apply_mask' ? elems > 0 : count > 0);
        if (op === 'forward' && mask) flags |= FLAG_MASK_OUT;
      }
      if (op !== 'mask' && mask && (mask === y || mask === x)) fail('DROPOUT_ERR_OVERLAP', `mask: the same buffer as ${mask === y ? yName : xName}`);
      if (op !== 'mask' && x === y) flags |= FLAG_IN_PLACE;   // in place: read y, bind nothing as x
      if (view && op !== 'mask' && view.numel > 0) {
        const es = BYTES[dtype];
        for (const [name, buf, st, off] of [[yName, y, view.ys, view.yoff], [xName, x, view.xs, view.xoff]]) {
          let lo = off, hi = off;
          view.dims.forEach((d, i) => { if (d > 0) { const e = (d - 1) * st[i]; if (e < 0) lo += e; else hi += e; } });
          const have = Math.floor(buf.size / es);
          if (lo < 0 || hi >= have) {
            fail('DROPOUT_ERR_STRIDE', `${name}: the view reaches elements ${lo} .. ${hi}; the buffer holds 0 .. ${have - 1}`);
          }
        }
        if ((flags & FLAG_IN_PLACE) && (view.xoff !== view.yoff || view.xs.some((v, i) => v !== view.ys[i]))) {
          fail('DROPOUT_ERR_OVERLAP', `${xName}: the same buffer as ${yName} with other strides or offset (in place needs the same view)`);
        }
      }
      const chunks = Math.ceil(count / CHUNK);
      const groups = Math.ceil(chunks / WORKGROUP);
      const gx = Math.max(1, Math.min(groups, width));
      const gy = Math.ceil(groups / gx);
      if (gy > maxGroups) fail('DROPOUT_ERR_ARG', `count: ${count} needs more workgroups than the device allows`);
      const u = new Uint32Array(16);
      const lo = (b) => Number(b & 0xFFFFFFFFn), hi = (b) => Number(b >> 32n);
      u[0] = lo(seed); u[1] = hi(seed); u[2] = lo(stream); u[3] = hi(stream);
      u[4] = lo(pos); u[5] = hi(pos); u[6] = count;
      const all = r.threshold === 2 ** r.bits;
      u[7] = r.threshold % 2 ** 32;   // 2^32 (p = 1 with 32-bit draws) is u[8]'s to say
      u[8] = all ? 1 : 0;
      u[9] = r.bits; u[10] = r.scale32Bits; u[11] = OPS[op]; u[12] = DTYPES[dtype];
      u[13] = flags; u[14] = gx; u[15] = 0;
      if (view) {
        const vg = Math.ceil(view.numel / WORKGROUP);
        const vx = Math.max(1, Math.min(vg, width)), vy = Math.ceil(vg / vx);
        if (vy > maxGroups || vx * vy * WORKGROUP > 2 ** 32) fail('DROPOUT_ERR_ARG', `shape: ${view.numel} elements need more workgroups than the device allows, or than u32 invocation indices reach`);
        const v = new Uint32Array(36);
        for (let d = 0; d < view.dims.length; ++d) {
          v[d] = view.dims[d]; v[8 + d] = view.mstride[d];
          v[16 + d] = view.ys[d] >>> 0; v[24 + d] = view.xs[d] >>> 0;   // two's complement
        }
        v[32] = view.dims.length; v[33] = view.numel; v[34] = view.yoff; v[35] = view.xoff;
        view.uniforms = v;
        view.groups = [vx, vy];
        view.gx = vx;
      }
      return {
        uniforms: u, groups: [gx, gy], count, view, op, flags,
        out: op === 'mask' || !y ? spare(1) : y,
        inp: op === 'mask' || !x || (flags & FLAG_IN_PLACE) ? spare(2) : x,
        mask: mask || spare(3),
      };
    }

    /* Record the dispatch of one call into `encoder` (a GPUCommandEncoder). Each call gets
       its own 64-byte uniform buffer, so several calls can share an encoder. */
    const uniformBuffer = (data) => {
      const b = device.createBuffer({ size: data.byteLength, usage: UNIFORM, mappedAtCreation: true, label: 'dropout.h call' });
      new Uint32Array(b.getMappedRange()).set(data);
      b.unmap();
      return b;
    };

    /* What WebGPU refuses while a call is recorded (an encoder already finished, or with a
       pass of the caller's still open: nothing of the call would run) is an error of the
       device, not of record(): each record runs in a validation error scope, and the next
       dw.submit rejects, before it submits anything, if one reported an error. The error is
       also handed on as the device's uncapturederror event where the platform can make one
       (the scope caught it: without that, code that submits with device.queue.submit would
       see nothing at all). */
    let recorded = Promise.resolve(), recordError = null;
    function record(encoder, call) {
      if (!encoder || typeof encoder.beginComputePass !== 'function')
        fail('DROPOUT_ERR_NULL', `encoder: a GPUCommandEncoder is required (got ${show(encoder)})`);
      const c = prepare(call);
      if (c.view || c.count > 0) {
        device.pushErrorScope('validation');
        try {
          if (c.view) recordView(encoder, c, call.op);
          else recordPlain(encoder, c, call.op);
        } finally {
          const p = device.popErrorScope().then((e) => {
            if (!e) return;
            if (!recordError) recordError = e;
            if (typeof GPUUncapturedErrorEvent === 'function' && typeof device.dispatchEvent === 'function')
              device.dispatchEvent(new GPUUncapturedErrorEvent('uncapturederror', { error: e }));
          });
          // (.then: Promise.all's value holds the one before it, and so every record's, forever)
          recorded = Promise.all([recorded, p]).then(() => {});
        }
      }
    }

    function recordPlain(encoder, c, opName) {
      const ub = uniformBuffer(c.uniforms);
      const bind = device.createBindGroup({
        layout,
        entries: [
          { binding: 0, resource: { buffer: ub } },
          { binding: 1, resource: { buffer: c.out } },
          { binding: 2, resource: { buffer: c.inp } },
          { binding: 3, resource: { buffer: c.mask } },
        ],
      });
      const pass = encoder.beginComputePass({ label: 'dropout.h ' + opName });
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bind);
      pass.dispatchWorkgroups(c.groups[0], c.groups[1]);
      pass.end();
    }

    // A view: the mask (forward's optional output, or the mask op) is the contiguous mask
    // op over the positions; then one invocation per tensor element.
    function recordView(encoder, c, opName) {
      const v = c.view;
      // every bind group is made before a pass opens: a pass left open by a throw would
      // make the caller's whole command buffer invalid, their own work in it too
      let maskBind = null, mg = 0, mu = null;
      if ((c.op === 'mask' || (c.flags & FLAG_MASK_OUT)) && c.count > 0) {
        mu = c.uniforms.slice();
        mu[11] = OPS.mask; mu[13] = 0;
        mg = Math.ceil(Math.ceil(c.count / CHUNK) / WORKGROUP);
        mu[14] = Math.min(mg, width);
        maskBind = device.createBindGroup({
          layout,
          entries: [
            { binding: 0, resource: { buffer: uniformBuffer(mu) } },
            { binding: 1, resource: { buffer: spare(1) } },
            { binding: 2, resource: { buffer: spare(2) } },
            { binding: 3, resource: { buffer: c.mask } },
          ],
        });
      }
      let viewBind = null;
      if (c.op !== 'mask' && v.numel > 0) {
        const u = c.uniforms.slice();
        u[14] = v.gx;
        viewBind = device.createBindGroup({
          layout: viewLayout,
          entries: [
            { binding: 0, resource: { buffer: uniformBuffer(u) } },
            { binding: 2, resource: { buffer: c.inp } },
            { binding: 3, resource: { buffer: c.op === 'apply_mask' ? c.mask : spare(3) } },
            { binding: 4, resource: { buffer: c.out } },
            { binding: 5, resource: { buffer: uniformBuffer(v.uniforms) } },
          ],
        });
      }
      if (maskBind) {
        const pass = encoder.beginComputePass({ label: 'dropout.h mask' });
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, maskBind);
        pass.dispatchWorkgroups(mu[14], Math.ceil(mg / mu[14]));
        pass.end();
      }
      if (viewBind) {
        const pass = encoder.beginComputePass({ label: 'dropout.h ' + opName + ' view' });
        pass.setPipeline(viewPipe());
        pass.setBindGroup(0, viewBind);
        pass.dispatchWorkgroups(v.groups[0], v.groups[1]);
        pass.end();
      }
    }

    /* Submit command buffers and report WebGPU's refusal (a destroyed buffer, what record()
       cannot see; a call recorded while a pass of the caller's was open, which WebGPU reports
       at finish(), not in record()'s error scope) as a DropoutWebGPUError instead of only an
       uncapturederror event: nothing of a refused command buffer ran. */
    async function submit(commandBuffers) {
      await recorded;
      if (recordError) {
        const e = recordError;
        recordError = null;
        fail('DROPOUT_ERR_ARG', `record: WebGPU refused a call while it was recorded (a buffer of another device, or an encoder already finished), so it would not run; nothing was submitted: ${e.message.split('\n')[0]}`);
      }
      device.pushErrorScope('validation');
      device.queue.submit(commandBuffers);
      const e = await device.popErrorScope();
      if (e) fail('DROPOUT_ERR_ARG', `submit: WebGPU refused the command buffer, none of it ran: ${e.message.split('\n')[0]}`);
      // a lost device (destroyed, a GPU reset, a driver crash) reports no validation error:
      // nothing ran, and its device.lost has resolved (already-settled promises race in order)
      const lost = device.lost ? await Promise.race([device.lost, Promise.resolve(null)]) : null;
      if (lost) fail('DROPOUT_ERR_ARG', `submit: the device was lost (${lost.reason || 'unknown'}${lost.message ? ': ' + lost.message.split('\n')[0] : ''}), nothing ran`);
    }

    return { record, submit, device };
  }

  return { WGSL, create, rule, generator, DropoutWebGPUError, VERSION: '0.9.0' };
}));
