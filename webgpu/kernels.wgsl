// dropout.h's building blocks in WGSL: Philox4x32-10, the draws, the keep rule, the f32
// scale and the f16 / bf16 conversions, and one kernel for forward (with or without the
// bit mask), backward, the mask alone and applying a stored mask (docs/SPEC.md sections
// 1-7; section 15 says what this asks of a WebGPU device).
//
// WGSL has no 64-bit integer and no mulhi, and lets an implementation flush subnormals
// and assume there are no NaNs or infinities. So nothing here is a float: buffers are
// array<u32>, every value is its IEEE bit pattern, and every operation whose result the
// spec fixes is done with u32 arithmetic, which WGSL defines exactly (wrapping). 64-bit
// counters and positions are (lo, hi) pairs.
//
// Each "mirrors" line names the dropout.h function the next WGSL function follows and the
// cksum of that function's text when the mirror was last compared with it. webgpu/embed.sh
// takes the Philox constants from dropout.h's #defines and refuses to write
// dropout_webgpu.js (and its --check fails) when one of those functions has changed since:
// compare the mirror again, then write the new cksum here. tests/webgpu/ compares the
// result with dropout.h bit for bit.

const PHILOX_M0: u32 = @DROPOUT_PHILOX_M0@;
const PHILOX_M1: u32 = @DROPOUT_PHILOX_M1@;
const PHILOX_W0: u32 = @DROPOUT_PHILOX_W0@;
const PHILOX_W1: u32 = @DROPOUT_PHILOX_W1@;

// Ops and dtypes, as dropout_webgpu.js sets them.
const OP_MASK: u32 = 0u;        // mask alone
const OP_FORWARD: u32 = 1u;     // forward, and backward (forward of dy without a mask)
const OP_APPLY_MASK: u32 = 2u;  // y = x scaled where a stored mask keeps, +0 elsewhere
const DT_F32: u32 = 0u;
const DT_F16: u32 = 1u;
const DT_BF16: u32 = 2u;
const FLAG_MASK_OUT: u32 = 1u;  // forward also writes the mask
const FLAG_IN_PLACE: u32 = 2u;  // the input is the output buffer (y == x)

struct Params {
   seed: vec2<u32>,         // (lo, hi)
   stream: vec2<u32>,
   pos: vec2<u32>,          // the plan's first position
   count: u32,              // elements of the call
   threshold: u32,          // t, when t < 2^bits
   all_dropped: u32,        // 1 when t == 2^bits (p = 1)
   bits: u32,               // 8, 16 or 32
   scale: u32,              // scale_f32's bits
   op: u32,
   dtype: u32,
   flags: u32,
   groups_x: u32,           // workgroups along x in this dispatch (the grid may be 2-D)
   pad: u32,
}

@group(0) @binding(0) var<uniform> prm: Params;
@group(0) @binding(1) var<storage, read_write> out_data: array<u32>;
@group(0) @binding(2) var<storage, read> in_data: array<u32>;
@group(0) @binding(3) var<storage, read_write> mask_data: array<u32>;

// mirrors dropout.h dropout__mulhilo (cksum 3129264625)
// The 32x32 -> 64-bit product from 16-bit pieces (each partial product fits in a u32).
fn mulhilo(a: u32, b: u32) -> vec2<u32> {
   let a0 = a & 0xFFFFu;
   let a1 = a >> 16u;
   let b0 = b & 0xFFFFu;
   let b1 = b >> 16u;
   let p00 = a0 * b0;
   let p01 = a0 * b1;
   let p10 = a1 * b0;
   let mid = (p00 >> 16u) + (p01 & 0xFFFFu) + (p10 & 0xFFFFu);   // < 3 * 2^16
   let hi = a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);
   return vec2<u32>(a * b, hi);                                   // (lo, hi)
}

// mirrors dropout.h dropout_philox4x32_rounds (cksum 2096487379)
fn philox4x32_10(ctr: vec4<u32>, key: vec2<u32>) -> vec4<u32> {
   var c = ctr;
   var k = key;
   for (var r = 0u; r < 10u; r = r + 1u) {
      let m0 = mulhilo(PHILOX_M0, c.x);
      let m1 = mulhilo(PHILOX_M1, c.z);
      c = vec4<u32>(m1.y ^ c.y ^ k.x, m1.x, m0.y ^ c.w ^ k.y, m0.x);
      k = k + vec2<u32>(PHILOX_W0, PHILOX_W1);   // the bump after the last round is never used
   }
   return c;
}

// mirrors dropout.h dropout_block (cksum 2920674399)
fn block_words(block: vec2<u32>) -> vec4<u32> {
   return philox4x32_10(vec4<u32>(block.x, block.y, prm.stream.x, prm.stream.y), prm.seed);
}

fn word_of(w: vec4<u32>, i: u32) -> u32 {
   return select(select(w.w, w.z, i == 2u), select(w.y, w.x, i == 0u), i < 2u);
}

// mirrors dropout.h dropout_draw (cksum 684258776)
fn draw(w: vec4<u32>, bits: u32, lane: u32) -> u32 {
   if (bits == 32u) { return word_of(w, lane); }
   if (bits == 16u) { return (word_of(w, lane >> 1u) >> ((lane & 1u) * 16u)) & 0xFFFFu; }
   return (word_of(w, lane >> 2u) >> ((lane & 3u) * 8u)) & 0xFFu;
}

// mirrors dropout.h dropout_keep (cksum 2647913068)
// t == 2^bits does not fit a u32 when bits = 32: all_dropped stands for it.
fn keep(d: u32) -> bool {
   return prm.all_dropped == 0u && d >= prm.threshold;
}

// mirrors dropout.h dropout_f16_to_f32 (cksum 1915186408)
fn f16_to_f32(h: u32) -> u32 {
   let sign = (h & 0x8000u) << 16u;
   let e = (h >> 10u) & 0x1Fu;
   var man = h & 0x3FFu;
   if (e == 0x1Fu) { return sign | 0x7F800000u | (man << 13u); }
   if (e != 0u) { return sign | ((e + 112u) << 23u) | (man << 13u); }
   if (man == 0u) { return sign; }
   var k = 0u;                        // subnormal: man * 2^-24, renormalise
   while ((man & 0x400u) == 0u) { man = man << 1u; k = k + 1u; }
   return sign | ((113u - k) << 23u) | ((man & 0x3FFu) << 13u);
}

// mirrors dropout.h dropout_f32_to_f16 (cksum 497233049)
fn f32_to_f16(x: u32) -> u32 {
   let sign = (x >> 16u) & 0x8000u;
   let ax = x & 0x7FFFFFFFu;
   if (ax > 0x7F800000u) { return sign | 0x7E00u | ((ax >> 13u) & 0x3FFu); }
   if (ax >= 0x477FF000u) { return sign | 0x7C00u; }          // >= 65520: Inf
   if (ax < 0x38800000u) {                                    // below 2^-14
      if (ax <= 0x33000000u) { return sign; }                 // <= 2^-25: zero
      let m = (ax & 0x7FFFFFu) | 0x800000u;
      let shift = 126u - (ax >> 23u);                         // 14 .. 24
      var r = m >> shift;
      let rem = m & ((1u << shift) - 1u);
      let halfway = 1u << (shift - 1u);
      if (rem > halfway || (rem == halfway && (r & 1u) != 0u)) { r = r + 1u; }
      return sign | r;
   }
   var r = (ax >> 13u) - (112u << 10u);
   let rem = ax & 0x1FFFu;
   if (rem > 0x1000u || (rem == 0x1000u && (r & 1u) != 0u)) { r = r + 1u; }   // a carry bumps the exponent
   return sign | r;
}

// mirrors dropout.h dropout_bf16_to_f32 (cksum 3931222578)
fn bf16_to_f32(h: u32) -> u32 {
   return h << 16u;
}

// mirrors dropout.h dropout_f32_to_bf16 (cksum 3868346697)
fn f32_to_bf16(x: u32) -> u32 {
   if ((x & 0x7FFFFFFFu) > 0x7F800000u) { return (x >> 16u) | 0x40u; }
   return (x + 0x7FFFu + ((x >> 16u) & 1u)) >> 16u;
}

// mirrors dropout.h dropout__scale_f32 (cksum 995042649)
// x * s, IEEE binary32 round to nearest even, subnormals, Inf and -0 included, on the bit
// patterns, for the one s this is called with: the scale, a positive normal in [1, 2^32]
// (1 / q for a realised keep probability q in [2^-32, 1)). A kept NaN keeps its sign and
// payload and gets its quiet bit, as on the CPU.
fn scale_f32(x: u32, s: u32) -> u32 {
   let sign = x & 0x80000000u;
   let ax = x & 0x7FFFFFFFu;
   if (ax > 0x7F800000u) { return x | 0x00400000u; }        // NaN
   if (ax == 0x7F800000u || ax == 0u) { return x; }          // Inf * s = Inf, 0 * s = 0
   // x = mx 2^(ex - 150), s = ms 2^(es - 150), with 24-bit ms and mx >= 1
   var ex = ax >> 23u;
   var mx = ax & 0x7FFFFFu;
   if (ex == 0u) { ex = 1u; } else { mx = mx | 0x800000u; }
   let es = s >> 23u;
   let ms = (s & 0x7FFFFFu) | 0x800000u;
   let p = mulhilo(mx, ms);                                  // exact: < 2^48, >= 2^23
   let e = i32(ex) + i32(es) - 300;                          // x s = p 2^e
   // l: p's leading bit (23 .. 47); q: p shifted so that it is at bit 31; sticky: a one
   // shifted out below q
   var l: i32;
   var q: u32;
   var sticky = false;
   if (p.y != 0u) {
      l = 63 - i32(countLeadingZeros(p.y));
      let d = u32(l - 31);                                   // 1 .. 16
      q = (p.x >> d) | (p.y << (32u - d));
      sticky = (p.x & ((1u << d) - 1u)) != 0u;
   } else {
      l = 31 - i32(countLeadingZeros(p.x));
      q = p.x << u32(31 - l);
   }
   // x s = q 2^(e + l - 31); its leading bit is 2^(e + l)
   if (e + l + 127 >= 255) { return sign | 0x7F800000u; }   // 2^128 or more: Inf
   // keep 24 bits (r = 8), or fewer where the result is subnormal (its unit is 2^-149)
   let r = max(8, -118 - e - l);
   if (r >= 33) { return sign; }                             // below half of 2^-149
   var m: u32;
   var rem: u32;
   if (r == 32) { m = 0u; rem = q; } else { m = q >> u32(r); rem = q & ((1u << u32(r)) - 1u); }
   let half = 1u << u32(r - 1);
   if (rem > half || (rem == half && (sticky || (m & 1u) != 0u))) { m = m + 1u; }
   // m 2^(e + l - 31 + r): biased exponent field (e + l + r + 118) for a normal m in
   // [2^23, 2^24) counting the implicit bit once, 0 for a subnormal; a carry out of the
   // rounding moves into the exponent (up to Inf) by itself
   return sign | ((u32(e + l + r + 118) << 23u) + m);
}

// mirrors dropout.h dropout_apply_f32 (cksum 2507257981)
// One element of forward (or backward: dy for x), as f32 bits; t = 0 copies x.
fn apply_f32(x: u32, k: bool) -> u32 {
   if (prm.threshold == 0u && prm.all_dropped == 0u) { return x; }
   return select(0u, scale_f32(x, prm.scale), k);
}

// mirrors dropout.h dropout_apply_f16 (cksum 3199379382)
fn apply_f16(x: u32, k: bool) -> u32 {
   if (prm.threshold == 0u && prm.all_dropped == 0u) { return x; }
   return select(0u, f32_to_f16(scale_f32(f16_to_f32(x), prm.scale)), k);
}

// mirrors dropout.h dropout_apply_bf16 (cksum 3699718457)
fn apply_bf16(x: u32, k: bool) -> u32 {
   if (prm.threshold == 0u && prm.all_dropped == 0u) { return x; }
   return select(0u, f32_to_bf16(scale_f32(bf16_to_f32(x), prm.scale)), k);
}

fn apply(x: u32, k: bool) -> u32 {
   if (prm.dtype == DT_F16) { return apply_f16(x, k); }
   if (prm.dtype == DT_BF16) { return apply_bf16(x, k); }
   return apply_f32(x, k);
}

fn load_in(i: u32) -> u32 {
   if ((prm.flags & FLAG_IN_PLACE) != 0u) { return out_data[i]; }
   return in_data[i];
}

// One invocation owns 32 consecutive elements: one u32 word of the mask, 32 words of f32
// or 16 words of f16 / bf16 (two elements a word, the lower first), so no two invocations
// write one word. Words past the call's last element are left as they were; so are the
// bytes of the last mask word past ceil(count / 8) (bits of the last byte past count are
// written 0, as dropout.h writes them).
@compute @workgroup_size(64)
fn dropout_main(@builtin(global_invocation_id) gid: vec3<u32>) {
   let chunk = gid.x + gid.y * prm.groups_x * 64u;          // below 2^28: no wrap
   if (chunk >= (prm.count >> 5u) + select(0u, 1u, (prm.count & 31u) != 0u)) { return; }
   let j0 = chunk * 32u;
   let n = min(32u, prm.count - j0);
   let log2_draws = select(select(4u, 3u, prm.bits == 16u), 2u, prm.bits == 32u);
   // first position of the chunk: pos + j0, a 64-bit add (the host checked pos + count <= 2^64)
   let lo0 = prm.pos.x + j0;
   let hi0 = prm.pos.y + select(0u, 1u, lo0 < j0);
   var stored = 0u;
   if (prm.op == OP_APPLY_MASK) { stored = mask_data[chunk]; }
   var have = false;
   var cur = vec2<u32>(0u, 0u);
   var w = vec4<u32>(0u);
   var bits_out = 0u;
   var pair = 0u;                    // f16 / bf16: the output word being built
   for (var i = 0u; i < n; i = i + 1u) {
      var k: bool;
      if (prm.op == OP_APPLY_MASK) {
         // a kept bit at t == 2^bits would scale by 0 (Inf * 0 is a NaN): +0 instead
         k = ((stored >> i) & 1u) != 0u && prm.all_dropped == 0u;
      } else {
         let lo = lo0 + i;
         let hi = hi0 + select(0u, 1u, lo < i);
         let blk = vec2<u32>((lo >> log2_draws) | (hi << (32u - log2_draws)), hi >> log2_draws);
         if (!have || blk.x != cur.x || blk.y != cur.y) { w = block_words(blk); cur = blk; have = true; }
         k = keep(draw(w, prm.bits, lo & ((1u << log2_draws) - 1u)));
      }
      bits_out = bits_out | (select(0u, 1u, k) << i);
      if (prm.op == OP_MASK) { continue; }
      let j = j0 + i;
      if (prm.dtype == DT_F32) {
         out_data[j] = apply_f32(load_in(j), k);
      } else {
         let x = (load_in(j >> 1u) >> ((j & 1u) * 16u)) & 0xFFFFu;
         let y = apply(x, k);
         if ((j & 1u) == 0u) {
            pair = y;
            if (i + 1u == n) {       // the last element, in the lower half: keep the upper
               out_data[j >> 1u] = (out_data[j >> 1u] & 0xFFFF0000u) | pair;
            }
         } else {
            out_data[j >> 1u] = pair | (y << 16u);
         }
      }
   }
   if (prm.op == OP_MASK || (prm.flags & FLAG_MASK_OUT) != 0u) {
      if (n == 32u) {
         mask_data[chunk] = bits_out;
      } else {
         let bytes = (n + 7u) / 8u;                              // 1 .. 4
         let mine = select(0xFFFFFFFFu, (1u << (bytes * 8u)) - 1u, bytes < 4u);
         mask_data[chunk] = (mask_data[chunk] & ~mine) | bits_out;
      }
   }
}

// ---- views: broadcast masks (docs/SPEC.md V.1) and strided tensors (section 13) --------
// The descriptor's lowering: tensor element (i_0 .. i_{r-1}) has the row-major logical
// index l; its mask index m = sum i_d mstride[d] (0 on broadcast dims) draws position
// pos + m; it reads x[x_off + sum i_d xstride[d]] and writes y[y_off + sum i_d ystride[d]]
// (element offsets and strides of any sign, as two's complement u32: the host checked
// that every address is inside its buffer). One invocation per tensor element. f16 / bf16
// share a u32 word between two elements that another invocation may own, so the output is
// written with atomics on the element's own 16 bits (the other half stays as it was).
// The mask output, when asked for, is the mask op over the positions (dropout_webgpu.js
// records it as a dispatch of its own).
struct View {
   dims: array<vec4<u32>, 2>,
   mstride: array<vec4<u32>, 2>,
   ystride: array<vec4<u32>, 2>,
   xstride: array<vec4<u32>, 2>,
   rank: u32,
   numel: u32,
   y_off: u32,
   x_off: u32,
}

@group(0) @binding(4) var<storage, read_write> out_atomic: array<atomic<u32>>;
@group(0) @binding(5) var<uniform> view: View;

fn load_view_in(xo: u32) -> u32 {
   if ((prm.flags & FLAG_IN_PLACE) != 0u) { return atomicLoad(&out_atomic[xo]); }
   return in_data[xo];
}

@compute @workgroup_size(64)
fn dropout_view(@builtin(global_invocation_id) gid: vec3<u32>) {
   let l = gid.x + gid.y * prm.groups_x * 64u;
   if (l >= view.numel) { return; }
   var rest = l;
   var m = 0u;
   var yo = view.y_off;
   var xo = view.x_off;
   for (var d = view.rank; d > 0u; d = d - 1u) {
      let v = (d - 1u) >> 2u;
      let c = (d - 1u) & 3u;
      let dim = view.dims[v][c];
      let i = rest % dim;
      rest = rest / dim;
      m = m + i * view.mstride[v][c];
      yo = yo + i * view.ystride[v][c];
      xo = xo + i * view.xstride[v][c];
   }
   var k: bool;
   if (prm.op == OP_APPLY_MASK) {
      k = ((mask_data[m >> 5u] >> (m & 31u)) & 1u) != 0u && prm.all_dropped == 0u;
   } else {
      let log2_draws = select(select(4u, 3u, prm.bits == 16u), 2u, prm.bits == 32u);
      let lo = prm.pos.x + m;
      let hi = prm.pos.y + select(0u, 1u, lo < m);
      let blk = vec2<u32>((lo >> log2_draws) | (hi << (32u - log2_draws)), hi >> log2_draws);
      k = keep(draw(block_words(blk), prm.bits, lo & ((1u << log2_draws) - 1u)));
   }
   if (prm.dtype == DT_F32) {
      atomicStore(&out_atomic[yo], apply_f32(load_view_in(xo), k));
   } else {
      let x = (load_view_in(xo >> 1u) >> ((xo & 1u) * 16u)) & 0xFFFFu;
      let sh = (yo & 1u) * 16u;
      let y = apply(x, k);
      atomicAnd(&out_atomic[yo >> 1u], ~(0xFFFFu << sh));
      atomicOr(&out_atomic[yo >> 1u], y << sh);
   }
}
