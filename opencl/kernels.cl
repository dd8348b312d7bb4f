/* The OpenCL C program of dropout_opencl.h (OpenCL C 1.2 and later).

   Every random draw and every per-element operation is one of dropout.h's inline
   building blocks, compiled here as OpenCL C: the line `#include "dropout.h"` below is
   replaced by that header's declarations part when opencl/embed.sh writes this file into
   dropout_opencl.h. This file adds only the indexing (which work-item computes which
   elements) and the two formulas dropout.h keeps in its implementation: the uniforms.

   Float traps (docs/SPEC.md, "OpenCL devices"): contraction is off for the whole
   program; no kernel divides a float (scales come from the host's rule; the only division
   is the double one inside the normal generator, which OpenCL C rounds correctly); f16
   and bf16 are 16-bit patterns converted by the header's integer code; the host refuses
   an op whose arithmetic the device's float configuration cannot do exactly. */
#pragma OPENCL FP_CONTRACT OFF
#ifdef DROPOUT_OPENCL_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#else
/* No double on this device: the header's double building blocks still have to parse, and
   do as float. No kernel built without DROPOUT_OPENCL_FP64 calls one of them (the f64 and
   normal kernels below are compiled only with it, and the host refuses those ops). */
#define double float
#endif
#define DROPOUTDEF
#include "dropout.h"
#ifndef DROPOUT_OPENCL_FP64
/* Those double building blocks computed in float, not as the header specifies: a kernel
   appended to this program (dropout_opencl_source) that calls one fails to build instead
   (an undeclared function), and double is an error again, as on any device without
   cl_khr_fp64. The kernels below call none of them without DROPOUT_OPENCL_FP64. */
#undef double
#define dropout_rule_make dropout_rule_make_needs_DROPOUT_OPENCL_FP64
#define dropout_apply_f64 dropout_apply_f64_needs_DROPOUT_OPENCL_FP64
#define dropout_accumulate_f64 dropout_accumulate_f64_needs_DROPOUT_OPENCL_FP64
#define dropout_bias_dropout_add_one_f64 dropout_bias_dropout_add_one_f64_needs_DROPOUT_OPENCL_FP64
#define dropout_alpha_rule_of dropout_alpha_rule_of_needs_DROPOUT_OPENCL_FP64
#define dropout_alpha_rule_make dropout_alpha_rule_make_needs_DROPOUT_OPENCL_FP64
#define dropout_alpha_apply_f64 dropout_alpha_apply_f64_needs_DROPOUT_OPENCL_FP64
#define dropout_alpha_grad_f64 dropout_alpha_grad_f64_needs_DROPOUT_OPENCL_FP64
#define dropout_normal_from_words dropout_normal_from_words_needs_DROPOUT_OPENCL_FP64
#define dropout_normal_at dropout_normal_at_needs_DROPOUT_OPENCL_FP64
#define dropout_gaussian_mult dropout_gaussian_mult_needs_DROPOUT_OPENCL_FP64
#define dropout_noise_add_f32 dropout_noise_add_f32_needs_DROPOUT_OPENCL_FP64
#define dropout_noise_add_f64 dropout_noise_add_f64_needs_DROPOUT_OPENCL_FP64
#endif

/* Ops of the kernels (the host maps dropout_op onto these). */
#define DROPOUT_OCL_DROP 0        /* forward / backward; optional mask out */
#define DROPOUT_OCL_APPLY_MASK 1  /* keep bits from a stored mask */
#define DROPOUT_OCL_MASK 2        /* the mask alone */
#define DROPOUT_OCL_FUSED 3       /* y = residual + dropout(x + bias) */
#define DROPOUT_OCL_ALPHA 4       /* element path only */
#define DROPOUT_OCL_ALPHA_GRAD 5
#define DROPOUT_OCL_GAUSS 6
#define DROPOUT_OCL_NOISE 7

typedef __global uchar *dropout_ocl_gp;
typedef __global const uchar *dropout_ocl_gcp;

static inline dropout_rule dropout_ocl_rule(ulong thr, uint bits, float s32, ulong s64)
{
   dropout_rule r;
   r.threshold = thr;
   r.bits = (int)bits;
   r.scale_f32 = s32;
#ifdef DROPOUT_OPENCL_FP64
   r.scale_f64 = as_double(s64);
#else
   r.scale_f64 = 0.0f;
   (void)s64;
#endif
   return r;
}

/* Keep bits of one Philox block: bit l = draw l kept (4, 8 or 16 bits), each one
   dropout_keep(dropout_draw(...)); the loops have constant bounds per width, so they
   unroll and the draws stay in registers. */
static inline uint dropout_ocl_block_keep(const uint w[4], dropout_rule r)
{
   uint k = 0, l;
   if (r.bits == 32) {
      for (l = 0; l < 4u; ++l) k |= (uint)dropout_keep(dropout_draw(w, 32, l), r) << l;
   } else if (r.bits == 16) {
      for (l = 0; l < 8u; ++l) k |= (uint)dropout_keep(dropout_draw(w, 16, l), r) << l;
   } else {
      for (l = 0; l < 16u; ++l) k |= (uint)dropout_keep(dropout_draw(w, 8, l), r) << l;
   }
   return k;
}

/* Keep bits of positions pos .. pos + count - 1 (count <= 32), bit i = position pos + i:
   the blocks that hold them, their bits side by side, shifted by the first one's lane.
   Blocks are generated only for wanted positions: nothing past 2^64 - 1 is touched. */
static inline uint dropout_ocl_keep_bits(ulong seed, ulong stream, dropout_rule r, ulong pos, uint count)
{
   uint log2d = r.bits == 32 ? 2u : r.bits == 16 ? 3u : 4u;
   uint lanes = 1u << log2d, lane0 = (uint)(pos & (lanes - 1u));
   uint nb = (lane0 + count + lanes - 1u) >> log2d, k;   /* <= 9 blocks, <= 48 bits */
   ulong b0 = pos >> log2d, acc = 0;
   for (k = 0; k < nb; ++k) {
      uint w[4];
      dropout_block(seed, stream, b0 + k, w);
      acc |= (ulong)dropout_ocl_block_keep(w, r) << (k << log2d);
   }
   acc >>= lane0;
   return count == 32u ? (uint)acc : (uint)acc & ((1u << count) - 1u);
}

/* The element loops of the contiguous ops, one loop per case (the op's branch hoisted out
   of the loop: apply_mask ran 3x faster on PoCL than with one loop branching per element).
   FOR(j, keep) is the kernel's loop header: it declares element j and its keep bit, and
   STEP advances the fused op's column. */
#define DROPOUT_OCL_ELEMS(T, APPLY, FUSED_ONE, ACC, FOR, COL0, STEP)                          \
   {                                                                                     \
      __global T *yp = (__global T *)(y + y_off);                                         \
      __global const T *xp = (__global const T *)(x + x_off);                             \
      if (op == DROPOUT_OCL_FUSED) {                                                     \
         __global const T *bp = (__global const T *)(bias + b_off);                       \
         __global const T *rp = (__global const T *)(res + r_off);                        \
         col = COL0;                                                                     \
         FOR { yp[j] = FUSED_ONE(xp[j], bp[col], rp[j], keep, r); STEP }                 \
      } else if (acc) {                                                                  \
         FOR { yp[j] = ACC(yp[j], APPLY(xp[j], keep, r)); }                              \
      } else {                                                                           \
         FOR { yp[j] = APPLY(xp[j], keep, r); }                                          \
      }                                                                                  \
   }

/* The contiguous kernel: forward, backward, apply_mask, mask, fused. Units of 32
   consecutive elements (one uint of keep bits, 4 mask bytes of their own); a work-group
   takes a span of L units at a time (L = its size), keeps their bits in local memory and
   then moves the span's elements with consecutive work-items on consecutive elements.
   Spans go round the groups (group-stride), so the bits do not depend on the launch. */
#define DROPOUT_OCL_STAGED_FOR                                                           \
   for (e = lid; e < elems; e += L)                                                      \
      for (j = e0 + e, keep = (int)((kl[e >> 5] >> (e & 31u)) & 1u), once = 1; once; once = 0)
#define DROPOUT_OCL_STAGED_STEP col += l_step; if (col >= bias_len) col -= bias_len;

#define DROPOUT_OCL_UNIT_KERNEL(NAME, T, APPLY, FUSED_ONE, ACC)                               \
__kernel void NAME(dropout_ocl_gp y, ulong y_off, dropout_ocl_gp mask_out, ulong mo_off,      \
                   dropout_ocl_gcp x, ulong x_off, dropout_ocl_gcp mask_in, ulong mi_off,     \
                   dropout_ocl_gcp bias, ulong b_off, dropout_ocl_gcp res, ulong r_off,      \
                   ulong n, ulong bias_len, ulong seed, ulong stream, ulong pos,             \
                   ulong thr, uint bits, float s32, ulong s64, int op, int acc,              \
                   __local uint *kl)                                                     \
{                                                                                        \
   dropout_rule r = dropout_ocl_rule(thr, bits, s32, s64);                               \
   ulong L = get_local_size(0), lid = get_local_id(0), col, l_step = L % bias_len;       \
   ulong units = n / 32u + (n % 32u != 0), spans = (units + L - 1u) / L, s;              \
   int none = op == DROPOUT_OCL_APPLY_MASK && (thr >> bits) != 0;  /* p = 1: keep none */ \
   for (s = get_group_id(0); s < spans; s += get_num_groups(0)) {                        \
      ulong u = s * L + lid, e0 = s * L * 32u, elems, e, j;                               \
      uint kb = 0;                                                                       \
      int keep, once;                                                                    \
      if (u < units) {                                                                   \
         uint count = n - u * 32u < 32u ? (uint)(n - u * 32u) : 32u, i;                  \
         if (op == DROPOUT_OCL_APPLY_MASK) {                                             \
            if (!none)                                                                   \
               for (i = 0; i < (count + 7u) / 8u; ++i) kb |= (uint)mask_in[mi_off + u * 4u + i] << (8u * i); \
            if (count < 32u) kb &= (1u << count) - 1u;                                   \
         } else {                                                                        \
            kb = dropout_ocl_keep_bits(seed, stream, r, pos + u * 32u, count);           \
         }                                                                               \
         if (mask_out)                                                                   \
            for (i = 0; i < (count + 7u) / 8u; ++i) mask_out[mo_off + u * 4u + i] = (uchar)(kb >> (8u * i)); \
      }                                                                                  \
      if (op == DROPOUT_OCL_MASK) continue;                                              \
      kl[lid] = kb;                                                                      \
      barrier(CLK_LOCAL_MEM_FENCE);                                                      \
      elems = n - e0 < L * 32u ? n - e0 : L * 32u;                                       \
      DROPOUT_OCL_ELEMS(T, APPLY, FUSED_ONE, ACC, DROPOUT_OCL_STAGED_FOR, (e0 + lid) % bias_len, DROPOUT_OCL_STAGED_STEP) \
      barrier(CLK_LOCAL_MEM_FENCE);                                                      \
   }                                                                                     \
}

/* The same units, each work-item moving its own 32 elements straight from global memory
   (no local memory, no barrier): the better layout where a work-item is a CPU thread's
   loop (PoCL and other CPU devices), the worse one on a GPU (uncoalesced). Same bits. */
#define DROPOUT_OCL_DIRECT_FOR                                                           \
   for (i = 0; i < count; ++i)                                                           \
      for (j = u * 32u + i, keep = (int)((kb >> i) & 1u), once = 1; once; once = 0)
#define DROPOUT_OCL_DIRECT_STEP if (++col == bias_len) col = 0;

#define DROPOUT_OCL_DIRECT_KERNEL(NAME, T, APPLY, FUSED_ONE, ACC)                             \
__kernel void NAME(dropout_ocl_gp y, ulong y_off, dropout_ocl_gp mask_out, ulong mo_off,      \
                   dropout_ocl_gcp x, ulong x_off, dropout_ocl_gcp mask_in, ulong mi_off,     \
                   dropout_ocl_gcp bias, ulong b_off, dropout_ocl_gcp res, ulong r_off,      \
                   ulong n, ulong bias_len, ulong seed, ulong stream, ulong pos,             \
                   ulong thr, uint bits, float s32, ulong s64, int op, int acc,              \
                   __local uint *kl)                                                     \
{                                                                                        \
   dropout_rule r = dropout_ocl_rule(thr, bits, s32, s64);                               \
   ulong units = n / 32u + (n % 32u != 0), u, col, j;                                    \
   int none = op == DROPOUT_OCL_APPLY_MASK && (thr >> bits) != 0;  /* p = 1: keep none */ \
   (void)kl;                                                                             \
   for (u = get_global_id(0); u < units; u += get_global_size(0)) {                      \
      uint count = n - u * 32u < 32u ? (uint)(n - u * 32u) : 32u, i, kb = 0;             \
      int keep, once;                                                                    \
      if (op == DROPOUT_OCL_APPLY_MASK) {                                                \
         if (!none)                                                                      \
            for (i = 0; i < (count + 7u) / 8u; ++i) kb |= (uint)mask_in[mi_off + u * 4u + i] << (8u * i); \
         if (count < 32u) kb &= (1u << count) - 1u;                                      \
      } else {                                                                           \
         kb = dropout_ocl_keep_bits(seed, stream, r, pos + u * 32u, count);              \
      }                                                                                  \
      if (mask_out)                                                                      \
         for (i = 0; i < (count + 7u) / 8u; ++i) mask_out[mo_off + u * 4u + i] = (uchar)(kb >> (8u * i)); \
      if (op == DROPOUT_OCL_MASK) continue;                                              \
      DROPOUT_OCL_ELEMS(T, APPLY, FUSED_ONE, ACC, DROPOUT_OCL_DIRECT_FOR, (u * 32u) % bias_len, DROPOUT_OCL_DIRECT_STEP) \
   }                                                                                     \
}

/* ---- The element path: strided views, broadcast masks and the variants ---------------
   One element per work-item step (grid-stride). Element i (row-major logical index) has
   the multi-index (i0 .. ik); operand w sits at base_w[sum i_d * stride_w[d]] and the
   element draws position pos + sum i_d * mstride[d] (0 on broadcast dims), the row-major
   index of its mask element. */
typedef struct dropout_ocl_where { long oy, ox, orr; ulong m, last; } dropout_ocl_where;

static inline dropout_ocl_where dropout_ocl_locate(ulong i, int rank, ulong8 dims, long8 sy, long8 sx,
                                                   long8 sr, ulong8 ms)
{
   ulong dd[8], md[8];
   long ys[8], xs[8], rs[8];
   dropout_ocl_where w;
   int d;
   vstore8(dims, 0, dd); vstore8(ms, 0, md);
   vstore8(sy, 0, ys); vstore8(sx, 0, xs); vstore8(sr, 0, rs);
   w.oy = w.ox = w.orr = 0; w.m = 0; w.last = 0;
   for (d = rank - 1; d >= 0; --d) {
      ulong id = i % dd[d];
      i /= dd[d];
      if (d == rank - 1) w.last = id;
      w.oy += (long)id * ys[d]; w.ox += (long)id * xs[d]; w.orr += (long)id * rs[d];
      w.m += id * md[d];
   }
   return w;
}

#define DROPOUT_OCL_ELEM_KERNEL_HEAD(NAME)                                                   \
__kernel void NAME(dropout_ocl_gp y, ulong y_off, dropout_ocl_gcp x, ulong x_off,            \
                   dropout_ocl_gcp mask_in, ulong mi_off, dropout_ocl_gcp bias, ulong b_off, \
                   dropout_ocl_gcp res, ulong r_off, ulong numel, int rank, ulong8 dims,     \
                   long8 sy, long8 sx, long8 sr, ulong8 ms, ulong seed, ulong stream,         \
                   ulong pos, ulong thr, uint bits, float s32, ulong s64, int op, int acc,   \
                   float a32, float c32, float drop32, ulong a64, ulong c64, ulong drop64,   \
                   float sigma, int copy)                                                \
{                                                                                        \
   dropout_rule r = dropout_ocl_rule(thr, bits, s32, s64);                               \
   ulong i;                                                                              \
   for (i = get_global_id(0); i < numel; i += get_global_size(0)) {                      \
      dropout_ocl_where w = dropout_ocl_locate(i, rank, dims, sy, sx, sr, ms);           \
      int keep = 0;                                                                      \
      if (op == DROPOUT_OCL_APPLY_MASK)                                                  \
         keep = (thr >> bits) == 0 && ((mask_in[mi_off + (w.m >> 3)] >> (w.m & 7u)) & 1u); \
      else if (op < DROPOUT_OCL_GAUSS)                                                   \
         keep = dropout_keep_at(seed, stream, pos + w.m, r);

/* alpha rule of the kernel arguments (the host made it with dropout_alpha_rule_make) */
static inline dropout_alpha_rule dropout_ocl_alpha(dropout_rule r, float a32, float c32, float drop32,
                                                    ulong a64, ulong c64, ulong drop64)
{
   dropout_alpha_rule a;
   a.base = r;
   a.a_f32 = a32; a.c_f32 = c32; a.drop_f32 = drop32;
#ifdef DROPOUT_OPENCL_FP64
   a.a = as_double(a64); a.c = as_double(c64); a.drop = as_double(drop64);
#else
   a.a = a.c = a.drop = 0.0f;
   (void)a64; (void)c64; (void)drop64;
#endif
   return a;
}

/* f32, f16 and bf16: the element in float (f16 / bf16 widened and narrowed by the
   header's converters), the same operations as dropout.h's element functions. */
#define DROPOUT_OCL_ELEM_16_32(NAME, T, TO32, FROM32, APPLY, ALPHA_APPLY, ALPHA_GRAD, FUSED_ONE, ACC) \
DROPOUT_OCL_ELEM_KERNEL_HEAD(NAME)                                                           \
      {                                                                                  \
         __global T *yp = (__global T *)(y + y_off) + w.oy;                              \
         T xv = ((__global const T *)(x + x_off))[w.ox], v;                              \
         dropout_alpha_rule ar = dropout_ocl_alpha(r, a32, c32, drop32, a64, c64, drop64); \
         if (op == DROPOUT_OCL_DROP || op == DROPOUT_OCL_APPLY_MASK) v = APPLY(xv, keep, r); \
         else if (op == DROPOUT_OCL_ALPHA) v = ALPHA_APPLY(xv, keep, ar);                \
         else if (op == DROPOUT_OCL_ALPHA_GRAD) v = ALPHA_GRAD(xv, keep, ar);            \
         else if (op == DROPOUT_OCL_FUSED)                                               \
            v = FUSED_ONE(xv, ((__global const T *)(bias + b_off))[w.last],              \
                          ((__global const T *)(res + r_off))[w.orr], keep, r);          \
         else DROPOUT_OCL_NORMAL_OP(T, TO32, FROM32)                                     \
         if (acc) v = ACC(*yp, v);                                                       \
         *yp = v;                                                                        \
      }                                                                                  \
   }                                                                                     \
}

#define DROPOUT_OCL_ID(v) (v)
#ifdef DROPOUT_OPENCL_FP64
/* Gaussian dropout y = x * (float)(1 + sigma z), noise y = x + sigma z (dropout.h's
   dropout_gaussian_mult, dropout_noise_add_f32); the normal needs double. */
#define DROPOUT_OCL_NORMAL_OP(T, TO32, FROM32)                                           \
         {                                                                               \
            if (copy) v = xv;                                                            \
            else {                                                                       \
               float z = dropout_normal_at(seed, stream, pos + w.m), xf = TO32(xv);      \
               v = FROM32(op == DROPOUT_OCL_GAUSS ? xf * dropout_gaussian_mult(z, sigma)  \
                                                  : dropout_noise_add_f32(xf, z, sigma)); \
            }                                                                            \
         }
#else
#define DROPOUT_OCL_NORMAL_OP(T, TO32, FROM32) v = xv;   /* refused by the host */
#endif

/* f64: the element in double (built only with DROPOUT_OPENCL_FP64). */
#define DROPOUT_OCL_ELEM_64(NAME, T, sfx)                                                    \
DROPOUT_OCL_ELEM_KERNEL_HEAD(NAME)                                                           \
      {                                                                                  \
         __global T *yp = (__global T *)(y + y_off) + w.oy;                              \
         T xv = ((__global const T *)(x + x_off))[w.ox], v;                              \
         dropout_alpha_rule ar = dropout_ocl_alpha(r, a32, c32, drop32, a64, c64, drop64); \
         if (op == DROPOUT_OCL_DROP || op == DROPOUT_OCL_APPLY_MASK) v = dropout_apply_##sfx(xv, keep, r); \
         else if (op == DROPOUT_OCL_ALPHA) v = dropout_alpha_apply_##sfx(xv, keep, ar);  \
         else if (op == DROPOUT_OCL_ALPHA_GRAD) v = dropout_alpha_grad_##sfx(xv, keep, ar); \
         else if (op == DROPOUT_OCL_FUSED)                                               \
            v = dropout_bias_dropout_add_one_##sfx(xv, ((__global const T *)(bias + b_off))[w.last], \
                                                   ((__global const T *)(res + r_off))[w.orr], keep, r); \
         else if (copy) v = xv;                                                          \
         else {                                                                          \
            float z = dropout_normal_at(seed, stream, pos + w.m);                        \
            v = op == DROPOUT_OCL_GAUSS ? xv * (T)dropout_gaussian_mult(z, sigma)        \
                                        : dropout_noise_add_##sfx(xv, z, sigma);         \
         }                                                                               \
         if (acc) v = dropout_accumulate_##sfx(*yp, v);                                  \
         *yp = v;                                                                        \
      }                                                                                  \
   }                                                                                     \
}

/* ---- The kernels of every dtype -------------------------------------------------------
   From its row of dropout.h's DROPOUT__DTYPES, by the row's K column: F computed in
   float, H a 16-bit pattern (ushort) computed in float through dropout_<sfx>_to_f32 and
   dropout_f32_to_<sfx>, D double (only with DROPOUT_OPENCL_FP64; the host creates those
   kernels only then). Each dtype gets dropout_ocl_direct_<sfx>, dropout_ocl_unit_<sfx>
   and dropout_ocl_elem_<sfx>, the names dropout_opencl.h creates from the same rows. */
#define DROPOUT_OCL_CONTIGUOUS(T, sfx)                                                        \
   DROPOUT_OCL_DIRECT_KERNEL(dropout_ocl_direct_##sfx, T, dropout_apply_##sfx,                \
                             dropout_bias_dropout_add_one_##sfx, dropout_accumulate_##sfx)    \
   DROPOUT_OCL_UNIT_KERNEL(dropout_ocl_unit_##sfx, T, dropout_apply_##sfx,                    \
                           dropout_bias_dropout_add_one_##sfx, dropout_accumulate_##sfx)
#define DROPOUT_OCL_KERNELS_F(sfx)                                                            \
   DROPOUT_OCL_CONTIGUOUS(float, sfx)                                                         \
   DROPOUT_OCL_ELEM_16_32(dropout_ocl_elem_##sfx, float, DROPOUT_OCL_ID, DROPOUT_OCL_ID, dropout_apply_##sfx, \
                          dropout_alpha_apply_##sfx, dropout_alpha_grad_##sfx,                \
                          dropout_bias_dropout_add_one_##sfx, dropout_accumulate_##sfx)
#define DROPOUT_OCL_KERNELS_H(sfx)                                                            \
   DROPOUT_OCL_CONTIGUOUS(ushort, sfx)                                                        \
   DROPOUT_OCL_ELEM_16_32(dropout_ocl_elem_##sfx, ushort, dropout_##sfx##_to_f32, dropout_f32_to_##sfx, \
                          dropout_apply_##sfx, dropout_alpha_apply_##sfx, dropout_alpha_grad_##sfx, \
                          dropout_bias_dropout_add_one_##sfx, dropout_accumulate_##sfx)
#ifdef DROPOUT_OPENCL_FP64
#define DROPOUT_OCL_KERNELS_D(sfx)                                                            \
   DROPOUT_OCL_CONTIGUOUS(double, sfx)                                                        \
   DROPOUT_OCL_ELEM_64(dropout_ocl_elem_##sfx, double, sfx)
#else
#define DROPOUT_OCL_KERNELS_D(sfx)
#endif
#define DROPOUT_OCL_KERNELS(NAME, value, sfx, T, size, CUDA_T, K) DROPOUT_OCL_KERNELS_##K(sfx)
DROPOUT__DTYPES(DROPOUT_OCL_KERNELS)

/* ---- The raw stream -------------------------------------------------------------------
   One Philox block per work-item step: words 4b .. 4b + 3 of the stream. kind 0: the
   words (u32); 1: uniform floats (w >> 8) 2^-24; 2: uniform doubles, double q = words
   2q, 2q + 1 as ((w(2q+1) << 32 | w(2q)) >> 11) 2^-53; 3: normals (float), normal q
   from block q / 4. Output element e is stream element first + e. */
__kernel void dropout_ocl_fill(dropout_ocl_gp out, ulong o_off, ulong n, ulong seed, ulong stream,
                               ulong first, int kind)
{
   uint per = kind == 2 ? 2u : 4u;          /* stream elements per block */
   ulong b0 = first / per, nb = (first + (n - 1u)) / per - b0 + 1u, k;
   for (k = get_global_id(0); k < nb; k += get_global_size(0)) {
      uint w[4], l;
      ulong b = b0 + k;
      dropout_block(seed, stream, b, w);
      for (l = 0; l < per; ++l) {
         ulong q = b * per + l, e;
         if (q < first || q - first >= n) continue;
         e = q - first;
         if (kind == 0) ((__global uint *)(out + o_off))[e] = w[l];
         else if (kind == 1) ((__global float *)(out + o_off))[e] = (float)(w[l] >> 8) * 5.9604644775390625e-8f;
#ifdef DROPOUT_OPENCL_FP64
         else if (kind == 2) {
            ulong u = (ulong)w[2u * l + 1u] << 32 | w[2u * l];
            ((__global double *)(out + o_off))[e] = (double)(u >> 11) * 1.1102230246251565404236316680908203125e-16;
         } else ((__global float *)(out + o_off))[e] = dropout_normal_from_words(w[l & 2u], w[(l & 2u) + 1u], (int)(l & 1u));
#endif
      }
   }
}

/* ---- The build's float check ------------------------------------------------------------
   dropout_opencl_init runs this once: a device that says it keeps subnormals may still
   build this program to flush them (a driver's own build flags: PoCL's
   POCL_EXTRA_BUILD_FLAGS=-cl-denorms-are-zero flushed 947 of 4096 f32 forward outputs, and
   no macro says so). io[0] * io[1] as floats into io[2], as doubles (io[3..4] * io[5..6],
   low word first) into io[7..8]: the host gives a subnormal times 2 and checks the exact
   subnormal product. */
__kernel void dropout_ocl_probe(__global uint *io)
{
   if (get_global_id(0) != 0) return;
   io[2] = as_uint(as_float(io[0]) * as_float(io[1]));
#ifdef DROPOUT_OPENCL_FP64
   {
      ulong r = as_ulong(as_double((ulong)io[4] << 32 | io[3]) * as_double((ulong)io[6] << 32 | io[5]));
      io[7] = (uint)r;
      io[8] = (uint)(r >> 32);
   }
#endif
}
