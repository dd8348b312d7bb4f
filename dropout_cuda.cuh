/* dropout_cuda.cuh - v0.9.0 - dropout.h on CUDA GPUs - public domain or MIT

   The GPU side of dropout.h: the same masks and outputs, bit for bit, as the CPU
   functions, because every random draw and every per-element operation comes from
   dropout.h's own __host__ __device__ building blocks (dropout_block, dropout_draw,
   dropout_keep, dropout_apply_*, the f16/bf16 converters, the fused op's, the variants'
   and the accumulation's element functions), and every check is dropout.h's. This file
   adds only the indexing: which thread computes which elements.

   USAGE
      In *one* .cu file:
         #define DROPOUT_IMPLEMENTATION        // dropout.h's CPU functions (checks,
         #define DROPOUT_CUDA_IMPLEMENTATION   //   dropout_strerror), then the kernels
         #include "dropout_cuda.cuh"
      Every other .cu file just does #include "dropout_cuda.cuh".

         dropout_plan plan;                               // host memory, as on the CPU
         // a step's forward: n fresh positions of gen, and the plan its backward needs
         int rc = dropout_cuda_forward_f32(&gen, &rule, &plan, n, d_y, NULL, d_x, cs);
         ...
         rc = rc ? rc : dropout_cuda_backward_f32(&plan, n, d_dx, d_dy, cs);   // the same plan
         if (rc) fprintf(stderr, "%s\n", dropout_cuda_strerror(rc));

      The short calls are dropout.h's, the same arguments in the same order, with a
      dropout_cuda_ prefix, __half / __nv_bfloat16 buffers and the cudaStream_t last; the
      generator, plan, rule, descriptor and tensors structs are host memory read by the
      launcher, the buffers device memory. Everything else
      (strided views, broadcast, gradient accumulation, alpha dropout, Gaussian dropout
      and noise) is dropout_cuda_run(&desc, &tensors, cs) with dropout.h's descriptor:
      the same descriptor gives the same bits on the CPU (dropout_run) and here.
      Launchers return DROPOUT_OK or a code, check everything (dropout.h's checks, the
      same codes) before launching, and return DROPOUT_ERR_CUDA_BASE - (int)cudaError_t
      when a launch fails (cudaGetLastError right after it). They do not synchronise:
      data errors cannot happen after the checks, so there is nothing to wait for.
      Pointers are device pointers aligned to their element type (one that is not is
      refused, DROPOUT_ERR_ALIGN: its load would end the CUDA context). Beyond that, any
      alignment and any position (also a block start mid-Philox-block) give the same
      result; 16-byte aligned buffers move as 16-byte vectors (see DROPOUT_CUDA_WARP).

      f16 and bf16 are __half and __nv_bfloat16 in the interface and handled as their
      uint16_t bit patterns. On sm_80 and later two halves at a time go through the
      hardware's paired round-to-nearest conversion (cvt.rn.bf16x2.f32 / .f16x2), which
      rounds exactly as dropout.h's integer converters do; a word holding a NaN goes
      through those converters instead, because the hardware returns its canonical NaN
      where the spec keeps the payload. Older GPUs use the converters throughout.

   STRIDED VIEWS (dropout_cuda_run)
      Element (i0 .. ik) of a view gets exactly the bits of the contiguous call: its draw
      position is the plan's first position + its row-major index in the mask shape. The
      shape is reduced first (dims of 1 dropped, dims that every operand steps over as one
      merged): a view that reduces to one contiguous run with no broadcast and no
      accumulation runs on the contiguous kernels below, whatever its descriptor says;
      any other runs row by row, 32 elements of a row per thread step, rows contiguous in
      every operand moving as 16-byte vectors, other rows one element at a time. A mask
      to write is written first, by the contiguous mask kernel, in mask order.

   SPEED (H100 80GB HBM3 and H200, bench/results/cuda-h100.md, cuda-h200-2026-11-26.md;
   the contiguous kernels)
      Forward (with or without the bit mask), both backwards and the fused op run at the
      device-to-device copy's bandwidth for the bytes they move once the data is out of
      L2 (2^24 elements and up, H100: 0.95 - 1.06 of the copy, f32 and bf16, every draw
      width). The H200's faster memory outruns the Philox rounds of bf16 at 16- and 32-bit
      draws (0.82 and 0.69 of the copy at 2^28); f32, and bf16 at 8 bits, stay at the
      copy. Small calls split units among lanes (DROPOUT_CUDA_SPLIT) to have enough warps.
      At L2-resident sizes 32-bit draws cost more Philox rounds than the copy's speed
      leaves room for (bf16, 32-bit draws, H200: 0.82 of the copy at 2^20, 0.60 at 2^22).
      The strided path was not measured.

   CUDA GRAPHS
      A captured graph replays its kernel arguments unchanged, so a position passed by
      value would give the same mask on every replay. dropout_desc_set_device_coords(&d,
      dev_seed, dev_pos) makes the kernels read the seed and the first position from
      device memory when they run (like PyTorch's PhiloxCudaState; the plan's own
      coordinates are then ignored), and dropout_cuda_advance adds a count to that device
      position. Order, all in one stream (and so in the graph):
         dropout_cuda_run(&fw, &t, cs);                     // fw: device coords (dev_seed, d_pos)
         dropout_cuda_advance(d_pos, d_saved, count, cs);   // *d_saved = old, += count
         dropout_cuda_run(&bw, &tb, cs);                    // bw: device coords (dev_seed, d_saved)
      Advance after the kernels that use the position, never before: the kernels read it
      when they run. One d_saved per dropout layer. A device position counts one kind of
      draws, the op's (8-, 16- or 32-bit draws, or normals): give each kind its own d_pos
      (or its own key), since one advanced by two kinds' counts reads a later step's words
      of one kind as the other's (the host generator steps past them; a device counter
      cannot). A device position, like a generator, never hands out the last position,
      2^64 - 1: a run whose device position would take it there or past writes nothing
      (no code can come back from a kernel; APPLY_MASK, which reads no position, writes as
      ever), and dropout_cuda_advance leaves a position
      that would reach 2^64 at 2^64 - 1 rather than wrap to step 0's masks.
      A step's forward (dropout_cuda_forward_*, _bias_dropout_add_* with a generator) on
      a stream being captured is refused (DROPOUT_ERR_CAPTURE): its generator would move
      once, at capture. So is dropout_cuda_run of an op that draws a step's mask with the
      plan's own coordinates (no device coordinates): every replay would draw them again.
      The replay calls (dropout_cuda_replay_*, _mask) and the backward ops are accepted
      and, as they say, read the same positions at every replay of the graph.

   BUILD FLAGS
      Any: --use_fast_math, -ftz=true, -prec-div=false, -prec-sqrt=false and -fmad change
      no bit. Under -ftz=true every f32 instruction nvcc writes flushes subnormals
      (mul.ftz.f32), and nvcc defines no macro a header could test, so the kernels write
      their float operations in inline PTX that no flag changes (dropout.h,
      dropout__fmul: mul.rn.f32, add.rn.f32, fma.rn.f32, cvt); a product
      feeding an addition is exact, so contraction (-fmad) changes nothing either.
      make test builds the kernels with --use_fast_math and finds no flushing or
      approximate instruction in their PTX; make gpu runs test_cuda_run built so.

   DROPOUT_V0_API
      The 0.1.0 calls (dropout_cuda_forward_f32(y, mask, x, n, p, bits, seed, stream,
      offset, cs), the _state launchers, dropout_cuda_philox_advance, the variants'
      launchers, ...) compile unchanged and give the same bits when DROPOUT_V0_API is
      defined before the include, in the implementation file too: they are in
      dropout_cuda_v0.cuh (beside this file; dropout_v0.h beside dropout.h), deprecated,
      written on the calls below.

   OPTIONS
      DROPOUT_CUDA_IMPLEMENTATION  emit kernels and launchers (one .cu file only)
      DROPOUT_CUDA_STATIC          make the launchers static
      DROPOUT_CUDA_BLOCK           threads per block of the default launch (256; 128
                                   measured within 1%), at most 512
      DROPOUT_CUDA_WARP            1 (default): forward, backward, apply_mask and the fused
                                   op move each warp's 32 x 32 elements as coalesced
                                   16-byte chunks (single elements when a pointer is not
                                   16-byte aligned) held in registers, keep bits passed by
                                   warp shuffle; 0: every thread moves its own 32 elements
                                   (one warp instruction then touches 32 cache lines: 0.28
                                   to 0.75 of the copy on an H100). Same bits either way.
                                   Read at each launch, so it may name a variable. (A path
                                   staging spans through shared memory was measured too,
                                   and lost to the warp path in 107 of 120 cases; it is
                                   gone: bench/results/cuda-h100.md.)
      DROPOUT_CUDA_SPLIT           0 (default): on the warp path a small call gives each
                                   unit of 32 elements to up to 8 lanes, which draw its
                                   Philox blocks between them, so that it has as many
                                   warps as a large one (dropout_cuda__split_for); 1, 2,
                                   4, 8: that many lanes a unit. Same bits either way.
                                   Read at each launch, as DROPOUT_CUDA_WARP.

   WITHOUT NVCC
      Compiled by a plain C or C++ compiler this file declares only the kernel bodies
      (dropout_cuda__body, dropout_cuda__unit, dropout_cuda__warp_span,
      dropout_cuda__strided_body) and the launchers' decisions (dropout_cuda__prepare, from
      dropout.h's lowered job): tests/cuda/test_cuda_logic.c runs them over emulated grids
      and warps to check the indexing against the CPU library with no GPU.

   LICENSE: the same as dropout.h (MIT or public domain, your choice); see its end.
*/
#ifndef DROPOUT_CUDA_CUH_INCLUDED
#define DROPOUT_CUDA_CUH_INCLUDED

#include "dropout.h"

/* Under DROPOUT_V0_API, dropout_v0.h names 0.1's generator dropout_gen; the calls of this
   file take 1.0's. The name comes back for the 0.1 code at the end of this file. */
#if defined(DROPOUT_V0_API) && defined(dropout_gen)
#undef dropout_gen
#define DROPOUT_CUDA__V0_GEN_NAME
#endif

#include <string.h>   /* memcpy: the host emulation of 16-byte vector loads */

#ifdef __cplusplus
extern "C" {
#endif

/* ====================================================================================
   Part 1: the kernel bodies, portable (nvcc device code, C99, C++11)
   ==================================================================================== */

/* The dtypes (dropout.h's DROPOUT__DTYPES rows): DROPOUT_CUDA__F32 = 0 .., dtype - 1. */
#define DROPOUT_CUDA__DTYPE_INDEX(NAME, value, sfx, T, size, CUDA_T, K) DROPOUT_CUDA__##NAME = value - 1,
enum { DROPOUT__DTYPES(DROPOUT_CUDA__DTYPE_INDEX) };
#undef DROPOUT_CUDA__DTYPE_INDEX
enum {
   DROPOUT_CUDA__DROP,        /* forward and mask-free backward; mask_out optional */
   DROPOUT_CUDA__APPLY_MASK,  /* y = x under a stored mask: backward from a mask */
   DROPOUT_CUDA__MASK,        /* the mask alone */
   DROPOUT_CUDA__FUSED,       /* y = residual + dropout(x + bias); mask_out optional */
   DROPOUT_CUDA__FILL_U32,    /* raw stream words */
   DROPOUT_CUDA__FILL_UF32,   /* uniform floats in [0, 1) */
   DROPOUT_CUDA__FILL_UF64,   /* uniform doubles in [0, 1) */
   DROPOUT_CUDA__FILL_NORMAL, /* normals (f32) */
   /* the strided engine only (dropout_cuda__strided_body) */
   DROPOUT_CUDA__ALPHA,       /* alpha dropout forward */
   DROPOUT_CUDA__ALPHA_GRAD,  /* alpha dropout backward */
   DROPOUT_CUDA__GAUSS,       /* Gaussian dropout, forward == backward: y = x (1 + sigma z) */
   DROPOUT_CUDA__NOISE        /* Gaussian noise: y = x + sigma z */
};

/* A thread's unit of work: 32 consecutive elements of the call, so its keep decisions
   are one uint32_t and its mask bytes (4 of them, byte k = elements 8k..8k+7 of the
   call) belong to it alone: no two threads write the same byte, whatever the offset.
   Units are handed out by a grid-stride loop, so the result does not depend on the grid. */
#define DROPOUT_CUDA__UNIT 32u

#if defined(__CUDA_ARCH__)   /* the host compiler would warn about an unknown pragma */
#define DROPOUT_CUDA__UNROLL _Pragma("unroll")
#else
#define DROPOUT_CUDA__UNROLL
#endif

/* Everything a kernel needs; passed by value. */
typedef struct dropout_cuda__args {
   void *y;
   uint8_t *mask_out;             /* optional */
   const void *x;
   const uint8_t *mask_in;        /* APPLY_MASK */
   const void *bias;              /* FUSED: cols elements */
   const void *residual;          /* FUSED */
   uint64_t cols;                 /* FUSED */
   uint64_t n;
   dropout_rule rule;
   uint64_t seed, stream, offset; /* offset: first position (fills: first word / index) */
   const uint64_t *seed_ptr;      /* when not NULL, read at run time instead of seed */
   const uint64_t *offset_ptr;    /* when not NULL, read at run time instead of offset */
   int warp;                      /* whole warp spans take the warp path (DROPOUT_CUDA_WARP) */
   unsigned split;                /* warp path: lanes per unit, 1, 2, 4 or 8 (0: the launcher
                                     chooses; see dropout_cuda__split_for) */
} dropout_cuda__args;

typedef union dropout_cuda__vec {   /* 16 bytes, as one load/store */
   uint32_t u[4];
   float f[4];
   double d[2];
   uint16_t h[8];
} dropout_cuda__vec;

DROPOUT_HD unsigned dropout_cuda__esize(int dtype)
{
#define DROPOUT_CUDA__DTYPE_SIZE(NAME, value, sfx, T, size, CUDA_T, K) case DROPOUT_CUDA__##NAME: return size;
   switch (dtype) {
   DROPOUT__DTYPES(DROPOUT_CUDA__DTYPE_SIZE)
   default: return 0u;
   }
#undef DROPOUT_CUDA__DTYPE_SIZE
}

DROPOUT_HD void dropout_cuda__ld16(dropout_cuda__vec *v, const void *p)
{
#if defined(__CUDA_ARCH__)
   uint4 t = *(const uint4 *)p;
   v->u[0] = t.x; v->u[1] = t.y; v->u[2] = t.z; v->u[3] = t.w;
#else
   memcpy(v, p, 16);
#endif
}

DROPOUT_HD void dropout_cuda__st16(void *p, const dropout_cuda__vec *v)
{
#if defined(__CUDA_ARCH__)
   *(uint4 *)p = make_uint4(v->u[0], v->u[1], v->u[2], v->u[3]);
#else
   memcpy(p, v, 16);
#endif
}

/* A dtype's element in the kernels, by the K column of its DROPOUT__DTYPES row: its slot
   of a vec and the type it is stored as. The per-element dispatches below are generated
   from the rows: with DROPOUT_CUDA__EACH(sfx, L, S, K) defined for the one site,
   DROPOUT_CUDA__BY_DTYPE(otherwise) is `if (dtype == DROPOUT_CUDA__F32) { EACH(f32, f,
   float, F) } else if ... else { otherwise }`, which a kernel's constant dtype folds to one
   branch (otherwise: for a dtype no row has, which dropout.h's checks never let through). */
#define DROPOUT_CUDA__LANE_F f
#define DROPOUT_CUDA__LANE_D d
#define DROPOUT_CUDA__LANE_H h
#define DROPOUT_CUDA__STORE_F float
#define DROPOUT_CUDA__STORE_D double
#define DROPOUT_CUDA__STORE_H uint16_t
#define DROPOUT_CUDA__IF_DTYPE(NAME, value, sfx, T, size, CUDA_T, K) \
   if (dtype == DROPOUT_CUDA__##NAME) { DROPOUT_CUDA__EACH(sfx, DROPOUT_CUDA__LANE_##K, DROPOUT_CUDA__STORE_##K, K) } else
#define DROPOUT_CUDA__BY_DTYPE(otherwise) DROPOUT__DTYPES(DROPOUT_CUDA__IF_DTYPE) { otherwise }

/* element i of a typed array into slot 0 of a vec, and back */
DROPOUT_HD void dropout_cuda__ld1(dropout_cuda__vec *v, int dtype, const void *p, unsigned i)
{
#define DROPOUT_CUDA__EACH(sfx, L, S, K) v->L[0] = ((const S *)p)[i];
   DROPOUT_CUDA__BY_DTYPE(v->u[0] = v->u[1] = 0u;)
#undef DROPOUT_CUDA__EACH
}

DROPOUT_HD void dropout_cuda__st1(void *p, int dtype, unsigned i, const dropout_cuda__vec *v)
{
#define DROPOUT_CUDA__EACH(sfx, L, S, K) ((S *)p)[i] = v->L[0];
   DROPOUT_CUDA__BY_DTYPE(;)
#undef DROPOUT_CUDA__EACH
}

/* Keep bits of one Philox block: bit i = draw i kept (4, 8 or 16 bits), exactly
   draw >= t (dropout_keep). 8- and 16-bit draws are compared four or two at a time
   inside their word: for lanes of L bits with top bit h and t = th * 2^(L-1) + tl
   (0 < t < 2^L), s = (w | h) - tl leaves in each lane's top bit whether the lane's low
   L-1 bits are >= tl (no borrow crosses a lane: the lane stays in [1, 2^L - 1]); then
   x >= t is (x's top bit) OR that bit when th = 0, AND when th = 1. */
DROPOUT_HD uint32_t dropout_cuda__block_keep(const uint32_t w[4], dropout_rule r)
{
   const uint64_t t = r.threshold;
   uint32_t k = 0;
   unsigned i;
   if (r.bits == 32) {
      if (t > 0xFFFFFFFFu) return 0;                  /* t = 2^32: nothing kept */
      DROPOUT_CUDA__UNROLL
      for (i = 0; i < 4u; ++i) k |= (uint32_t)(w[i] >= (uint32_t)t) << i;
      return k;
   }
   if (t == 0) return r.bits == 16 ? 0xFFu : 0xFFFFu;   /* everything kept */
   if (t >= (uint64_t)1 << r.bits) return 0;            /* everything dropped */
   if (r.bits == 16) {
      const uint32_t h = 0x80008000u, tl = (uint32_t)(t & 0x7FFFu) * 0x00010001u;
      DROPOUT_CUDA__UNROLL
      for (i = 0; i < 4u; ++i) {
         uint32_t s = (w[i] | h) - tl, m = (t >> 15 ? w[i] & s : w[i] | s) & h;
         k |= ((m >> 15 | m >> 30) & 3u) << (2u * i);       /* lane bits 15, 31 -> 0, 1 */
      }
   } else {
      const uint32_t h = 0x80808080u, tl = (uint32_t)(t & 0x7Fu) * 0x01010101u;
      DROPOUT_CUDA__UNROLL
      for (i = 0; i < 4u; ++i) {
         uint32_t s = (w[i] | h) - tl, m = (t >> 7 ? w[i] & s : w[i] | s) & h;
         k |= (((m >> 7) * 0x01020408u) >> 24) << (4u * i);  /* lane bits 7, 15, 23, 31 -> 0..3 */
      }
   }
   return k;
}

/* Keep bits of nb whole blocks from block b0 (nb draws-per-block <= 32). With nb a
   constant the loop unrolls and the blocks' Philox rounds interleave. */
DROPOUT_HD uint32_t dropout_cuda__keep_blocks(uint64_t seed, uint64_t stream, dropout_rule r,
                                              uint64_t b0, unsigned nb, unsigned log2d)
{
   uint32_t acc = 0;
   unsigned k;
   DROPOUT_CUDA__UNROLL
   for (k = 0; k < nb; ++k) {
      uint32_t w[4];
      dropout_block(seed, stream, b0 + k, w);
      acc |= dropout_cuda__block_keep(w, r) << (k << log2d);
   }
   return acc;
}

/* Keep bits of positions pos .. pos + count - 1 (count <= 32). The first block may
   start before pos (lane0 > 0): its leading draws belong to the previous unit and are
   shifted out. Only blocks holding wanted positions are generated, so nothing is read
   past position 2^64 - 1. */
DROPOUT_HD uint32_t dropout_cuda__keep_bits(uint64_t seed, uint64_t stream, dropout_rule r,
                                            uint64_t pos, unsigned count)
{
   unsigned log2d = r.bits == 32 ? 2u : r.bits == 16 ? 3u : 4u;
   unsigned lane0 = (unsigned)(pos & ((1u << log2d) - 1u));
   unsigned nb = (lane0 + count + (1u << log2d) - 1u) >> log2d;
   uint64_t b0 = pos >> log2d, acc = 0;
   unsigned k;
   if (count == 32u && lane0 == 0) {   /* a whole unit on block boundaries: the usual case */
      if (r.bits == 8) return dropout_cuda__keep_blocks(seed, stream, r, b0, 2u, 4u);
      if (r.bits == 16) return dropout_cuda__keep_blocks(seed, stream, r, b0, 4u, 3u);
      return dropout_cuda__keep_blocks(seed, stream, r, b0, 8u, 2u);
   }
   for (k = 0; k < nb; ++k) {
      uint32_t w[4];
      dropout_block(seed, stream, b0 + k, w);
      acc |= (uint64_t)dropout_cuda__block_keep(w, r) << (k << log2d);   /* < 48 bits */
   }
   acc >>= lane0;
   return count == 32u ? (uint32_t)acc : (uint32_t)acc & ((1u << count) - 1u);
}

DROPOUT_HD uint32_t dropout_cuda__load_mask(const uint8_t *m, unsigned count)
{
   uint32_t k = 0;
   unsigned i;
#if defined(__CUDA_ARCH__)
   if (count == 32u && ((uintptr_t)m & 3u) == 0) return *(const uint32_t *)m;  /* LSB first */
#endif
   for (i = 0; i < (count + 7u) / 8u; ++i) k |= (uint32_t)m[i] << (8u * i);
   return count == 32u ? k : k & ((1u << count) - 1u);
}

DROPOUT_HD void dropout_cuda__store_mask(uint8_t *m, uint32_t keep, unsigned count)
{
   unsigned i;
#if defined(__CUDA_ARCH__)
   if (count == 32u && ((uintptr_t)m & 3u) == 0) { *(uint32_t *)m = keep; return; }
#endif
   for (i = 0; i < (count + 7u) / 8u; ++i) m[i] = (uint8_t)(keep >> (8u * i));
}

/* The element operation on slot e of v (res: the residual's vec, bias: its column). */
DROPOUT_HD void dropout_cuda__elem(int dtype, int op, dropout_cuda__vec *v, unsigned e,
                                   const dropout_cuda__vec *res, const void *bias, uint64_t col,
                                   int keep, dropout_rule r)
{
#define DROPOUT_CUDA__EACH(sfx, L, S, K)                                                                \
   if (op == DROPOUT_CUDA__FUSED)                                                                        \
      v->L[e] = dropout_bias_dropout_add_one_##sfx(v->L[e], ((const S *)bias)[col], res->L[e], keep, r); \
   else                                                                                                  \
      v->L[e] = dropout_apply_##sfx(v->L[e], keep, r);
   DROPOUT_CUDA__BY_DTYPE(;)
#undef DROPOUT_CUDA__EACH
}

/* The data of one unit: count elements read from xp (and rp), written to yp; col is the
   fused op's column of the first one. 16-byte vectors when the unit is whole and every
   pointer is 16-byte aligned, one element at a time otherwise. Each vector is loaded
   before it is stored, so y may equal x (or residual). */
DROPOUT_HD void dropout_cuda__data_unit(const dropout_cuda__args *a, int dtype, int op, char *yp,
                                        const char *xp, const char *rp, uint64_t col,
                                        unsigned count, uint32_t keep)
{
   unsigned es = dropout_cuda__esize(dtype), i;
   dropout_cuda__vec v, rv;
   rv.u[0] = rv.u[1] = rv.u[2] = rv.u[3] = 0;
   if (count == DROPOUT_CUDA__UNIT && (((uintptr_t)xp | (uintptr_t)yp | (uintptr_t)rp) & 15u) == 0) {
      unsigned per = 16u / es, g, e;
      DROPOUT_CUDA__UNROLL
      for (g = 0; g < DROPOUT_CUDA__UNIT / per; ++g) {
         dropout_cuda__ld16(&v, xp + 16u * g);
         if (op == DROPOUT_CUDA__FUSED) dropout_cuda__ld16(&rv, rp + 16u * g);
         DROPOUT_CUDA__UNROLL
         for (e = 0; e < per; ++e) {
            dropout_cuda__elem(dtype, op, &v, e, &rv, a->bias, col, (int)((keep >> (g * per + e)) & 1u), a->rule);
            if (op == DROPOUT_CUDA__FUSED && ++col == a->cols) col = 0;
         }
         dropout_cuda__st16(yp + 16u * g, &v);
      }
      return;
   }
   for (i = 0; i < count; ++i) {
      dropout_cuda__ld1(&v, dtype, xp, i);
      if (op == DROPOUT_CUDA__FUSED) dropout_cuda__ld1(&rv, dtype, rp, i);
      dropout_cuda__elem(dtype, op, &v, 0, &rv, a->bias, col, (int)((keep >> i) & 1u), a->rule);
      if (op == DROPOUT_CUDA__FUSED && ++col == a->cols) col = 0;
      dropout_cuda__st1(yp, dtype, i, &v);
   }
}

/* Raw stream, uniform floats and uniform doubles: exactly dropout_fill_* of dropout.h. */
DROPOUT_HD void dropout_cuda__fill_unit(const dropout_cuda__args *a, int op, uint64_t seed,
                                        uint64_t first, uint64_t j0, unsigned count)
{
   unsigned i;
   if (op == DROPOUT_CUDA__FILL_UF64) {
      double *out = (double *)a->y + j0;
      uint32_t w[4] = { 0, 0, 0, 0 };
      for (i = 0; i < count; ++i) {
         uint64_t q = first + j0 + i;   /* double q = words 2q (low half), 2q + 1 */
         uint64_t u;
         if (i == 0 || (q & 1u) == 0) dropout_block(seed, a->stream, q >> 1, w);
         u = (q & 1u) ? ((uint64_t)w[3] << 32 | w[2]) : ((uint64_t)w[1] << 32 | w[0]);
         out[i] = (double)(u >> 11) * 1.1102230246251565404236316680908203125e-16;  /* 2^-53 */
      }
   } else if (op == DROPOUT_CUDA__FILL_NORMAL) {
      float *out = (float *)a->y + j0;
      uint32_t w[4] = { 0, 0, 0, 0 };
      for (i = 0; i < count; ++i) {
         uint64_t q = first + j0 + i;   /* normal q = words 2(q & ~1), + 1 of block q / 4 */
         if (i == 0 || (q & 3u) == 0) dropout_block(seed, a->stream, q >> 2, w);
         out[i] = dropout_normal_from_words(w[q & 2u], w[(q & 2u) + 1u], (int)(q & 1u));
      }
   } else {
      uint64_t pos = first + j0;
      unsigned lane0 = (unsigned)(pos & 3u), nb = (lane0 + count + 3u) >> 2, k, l;
      for (k = 0; k < nb; ++k) {
         uint32_t w[4];
         dropout_block(seed, a->stream, (pos >> 2) + k, w);
         DROPOUT_CUDA__UNROLL
         for (l = 0; l < 4u; ++l) {
            unsigned at = 4u * k + l;    /* this word is element at - lane0 of the unit */
            if (at < lane0 || at - lane0 >= count) continue;
            if (op == DROPOUT_CUDA__FILL_U32) ((uint32_t *)a->y)[j0 + at - lane0] = w[l];
            else ((float *)a->y)[j0 + at - lane0] = dropout__fmul((float)(w[l] >> 8), 5.9604644775390625e-8f);
         }
      }
   }
}

/* The op a launch really runs. At p = 1 a stored mask keeps nothing (docs/SPEC.md
   section 7): a kept bit would scale by 0, and Inf * 0 is a NaN whose bits depend on the
   device. That is forward at t = 2^bits, which keeps nothing and writes +0, as dropout.h
   does on the CPU. */
DROPOUT_HD int dropout_cuda__launch_op(const dropout_cuda__args *a, int op)
{
   return op == DROPOUT_CUDA__APPLY_MASK && a->rule.threshold >> a->rule.bits ? DROPOUT_CUDA__DROP : op;
}

/* A device position (dropout_desc_set_device_coords) is a counter that no host code sees
   between graph replays, so it follows the host generator's rule: it never hands out the
   stream's last position, 2^64 - 1. That value is where dropout_cuda_advance parks a
   position that would wrap (dropout_cuda__advanced), and every run from there writes
   nothing: a wrapped counter would draw step 0's masks again. A plan's own coordinates
   were checked on the host (they may end at 2^64 - 1). n > 0. */
DROPOUT_HD int dropout_cuda__positions_ok(int device_position, uint64_t first, uint64_t n)
{
   return device_position ? n <= UINT64_MAX - first : n - 1u <= UINT64_MAX - first;
}

/* dropout_cuda_advance's new device position: pos + n, or 2^64 - 1 (parked: no run draws
   from there) where that would reach 2^64 */
DROPOUT_HD uint64_t dropout_cuda__advanced(uint64_t pos, uint64_t n)
{
   return n > UINT64_MAX - pos ? UINT64_MAX : pos + n;
}

/* Seed and offset of a launch (read through the pointers when given) and its number of
   units; 0 units when there is nothing to do, or when a run-time offset runs past what a
   device position may hand out (then nothing is written). */
DROPOUT_HD uint64_t dropout_cuda__prologue(const dropout_cuda__args *a,
                                           uint64_t *seed, uint64_t *offset)
{
   *seed = a->seed_ptr ? *a->seed_ptr : a->seed;
   *offset = a->offset_ptr ? *a->offset_ptr : a->offset;
   if (a->n == 0) return 0;
   if (!dropout_cuda__positions_ok(a->offset_ptr != NULL, *offset, a->n)) return 0;   /* only a run-time offset gets here: nothing written */
   return a->n / DROPOUT_CUDA__UNIT + (a->n % DROPOUT_CUDA__UNIT != 0);
}

/* The keep bits of unit u (count elements): drawn, or read from the stored mask; written
   to mask_out when there is one. */
DROPOUT_HD uint32_t dropout_cuda__unit_keep(const dropout_cuda__args *a, int op, uint64_t seed,
                                            uint64_t offset, uint64_t u, unsigned count)
{
   uint32_t keep = op == DROPOUT_CUDA__APPLY_MASK
                      ? dropout_cuda__load_mask(a->mask_in + u * 4u, count)
                      : dropout_cuda__keep_bits(seed, a->stream, a->rule, offset + u * DROPOUT_CUDA__UNIT, count);
   if (a->mask_out) dropout_cuda__store_mask(a->mask_out + u * 4u, keep, count);
   return keep;
}

/* Unit u of a call, as one thread: its keep bits, its 4 mask bytes, its 32 elements,
   straight from global memory (the direct path, and the tail of every call). */
DROPOUT_HD void dropout_cuda__unit(const dropout_cuda__args *a, int dtype, int op, uint64_t seed,
                                   uint64_t offset, uint64_t u)
{
   uint64_t j0 = u * DROPOUT_CUDA__UNIT;
   unsigned count = a->n - j0 < DROPOUT_CUDA__UNIT ? (unsigned)(a->n - j0) : DROPOUT_CUDA__UNIT;
   unsigned es = dropout_cuda__esize(dtype);
   uint32_t keep;
   if (op >= DROPOUT_CUDA__FILL_U32 && op <= DROPOUT_CUDA__FILL_NORMAL) {
      dropout_cuda__fill_unit(a, op, seed, offset, j0, count);
      return;
   }
   keep = dropout_cuda__unit_keep(a, op, seed, offset, u, count);
   if (op == DROPOUT_CUDA__MASK) return;
   dropout_cuda__data_unit(a, dtype, op, (char *)a->y + j0 * es, (const char *)a->x + j0 * es,
                           op == DROPOUT_CUDA__FUSED ? (const char *)a->residual + j0 * es : NULL,
                           op == DROPOUT_CUDA__FUSED ? j0 % a->cols : 0, count, keep);
}

/* The whole kernel, direct path, as thread `tid` of `nthreads`: a grid-stride loop over
   units, so the result does not depend on the grid. */
DROPOUT_HD void dropout_cuda__body(dropout_cuda__args a, int dtype, int op, uint64_t tid, uint64_t nthreads)
{
   uint64_t seed, offset, units = dropout_cuda__prologue(&a, &seed, &offset), u;
   for (u = tid; u < units; u += nthreads) dropout_cuda__unit(&a, dtype, op, seed, offset, u);
}

/* Whether the span at unit `base` is whole (32 / split full units) for an op that moves
   data. Warp-uniform. The tail span always takes the direct path. */
DROPOUT_HD int dropout_cuda__span_whole(const dropout_cuda__args *a, int op, uint64_t base, uint64_t units,
                                        unsigned split)
{
   const unsigned span = 32u / split;
   if (op != DROPOUT_CUDA__DROP && op != DROPOUT_CUDA__APPLY_MASK && op != DROPOUT_CUDA__FUSED) return 0;
   return base + span <= units && (base + span) * DROPOUT_CUDA__UNIT <= a->n;
}

/* Whether every data pointer is 16-byte aligned (then so is every unit and chunk: 32
   elements and 16-byte chunks are multiples of 16 bytes). */
DROPOUT_HD int dropout_cuda__aligned16(const dropout_cuda__args *a, int op)
{
   uintptr_t ptrs = (uintptr_t)a->x | (uintptr_t)a->y;
   if (op == DROPOUT_CUDA__FUSED) ptrs |= (uintptr_t)a->residual;
   return (ptrs & 15u) == 0;
}

/* ---- The warp path -------------------------------------------------------------------
   A warp's span is 32 / split consecutive units, split lanes to a unit (1, 2, 4 or 8):
   lane l serves unit base + l / split, draws its share of that unit's keep bits, and the
   unit's lanes OR their shares together by shuffles; the first of them writes the unit's
   mask bytes. With split 1 a span is 32 x 32 elements and each lane draws a whole unit
   (8 Philox blocks at 32-bit draws); a small call then has too few warps to keep the
   GPU's schedulers busy while the Philox rounds run, and a larger split gives it split
   times as many (dropout_cuda__split_for). Loaded directly, lane l would read 16 bytes at
   unit l: one warp instruction touching 32 cache lines. Instead the warp walks the span
   in chunks of `per` elements, 16 bytes when every data pointer is 16-byte aligned and
   one element otherwise; lane l takes chunks l, l + 32, l + 64, ..., so each warp
   instruction moves 32 consecutive chunks (512 contiguous bytes). Chunk c starts at
   element c * per of the span, whose keep bits sit in the word of unit (c * per) / 32,
   held by lane (c * per) / 32 * split: one shuffle per chunk fetches them. Every element
   goes through the same dropout_cuda__elem as on the other paths, so the bits cannot
   differ. A lane loads its chunks before it draws its keep bits, so the Philox rounds run
   while the loads are in flight. */
#define DROPOUT_CUDA__BATCH 8u   /* chunks per operand held in registers at once */

/* One chunk of `per` elements starting at column col (fused op), keep bits in kb, one
   element at a time through dropout_cuda__elem. */
DROPOUT_HD void dropout_cuda__chunk_generic(const dropout_cuda__args *a, int dtype, int op, dropout_cuda__vec *v,
                                            const dropout_cuda__vec *rv, uint64_t col, uint32_t kb, unsigned per)
{
   unsigned e;
   DROPOUT_CUDA__UNROLL
   for (e = 0; e < per; ++e) {
      dropout_cuda__elem(dtype, op, v, e, rv, a->bias, col, (int)((kb >> e) & 1u), a->rule);
      if (op == DROPOUT_CUDA__FUSED && ++col == a->cols) col = 0;
   }
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/* f16 / bf16 two at a time on sm_80 and later: the two halves of a word widen exactly to
   float, go through the same float operations as the element functions, and come back
   through the paired hardware conversion cvt.rn.{f16x2,bf16x2}.f32, which rounds to
   nearest even with overflow to Inf and subnormals kept: the header converters' rounding.
   Only NaN differs (the hardware makes its canonical NaN; the spec keeps the payload), so
   plain dropout sends a word holding a NaN through the portable element code. */
#define DROPOUT_CUDA__PAIRS 1

static __device__ __forceinline__ void dropout_cuda__widen2(int dtype, uint32_t w, float *lo, float *hi)
{
   if (dtype == DROPOUT_CUDA__BF16) {
      *lo = __uint_as_float(w << 16);
      *hi = __uint_as_float(w & 0xFFFF0000u);
   } else {
      asm("cvt.f32.f16 %0, %1;" : "=f"(*lo) : "h"((unsigned short)(w & 0xFFFFu)));
      asm("cvt.f32.f16 %0, %1;" : "=f"(*hi) : "h"((unsigned short)(w >> 16)));
   }
}

static __device__ __forceinline__ uint32_t dropout_cuda__narrow2(int dtype, float lo, float hi)
{
   uint32_t w;
   if (dtype == DROPOUT_CUDA__BF16) asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(w) : "f"(hi), "f"(lo));
   else asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(w) : "f"(hi), "f"(lo));
   return w;
}

/* whether either half of w is a NaN: (half & 0x7FFF) > Inf's pattern, as a carry into the top bit */
static __device__ __forceinline__ int dropout_cuda__has_nan2(int dtype, uint32_t w)
{
   uint32_t below_inf = dtype == DROPOUT_CUDA__BF16 ? 0x007F007Fu : 0x03FF03FFu;
   return (((w & 0x7FFF7FFFu) + below_inf) & 0x80008000u) != 0;
}

/* The chunk of 8 halves (per = 8) as 4 words; same bits as dropout_cuda__chunk_generic. */
static __device__ __forceinline__ void dropout_cuda__chunk_pairs(const dropout_cuda__args *a, int dtype, int op,
                                                                 dropout_cuda__vec *v, const dropout_cuda__vec *rv,
                                                                 const dropout_cuda__vec *bv, uint32_t kb)
{
   const float s = a->rule.scale_f32;
   unsigned i;
   DROPOUT_CUDA__UNROLL
   for (i = 0; i < 4u; ++i) {
      uint32_t k2 = (kb >> (2u * i)) & 3u, kept = ((k2 & 1u) | (k2 & 2u) << 15) * 0xFFFFu, x = v->u[i];
      float lo, hi;
      if (op == DROPOUT_CUDA__FUSED) {   /* kept: RN16(fma(x + bias, s, residual)); dropped: residual */
         float blo, bhi, rlo, rhi;
         dropout_cuda__widen2(dtype, x, &lo, &hi);
         dropout_cuda__widen2(dtype, bv->u[i], &blo, &bhi);
         dropout_cuda__widen2(dtype, rv->u[i], &rlo, &rhi);
         x = dropout_cuda__narrow2(dtype, dropout__ffma(dropout__fadd(lo, blo), s, rlo), dropout__ffma(dropout__fadd(hi, bhi), s, rhi));
         v->u[i] = (x & kept) | (rv->u[i] & ~kept);
      } else if (!dropout_cuda__has_nan2(dtype, x)) {   /* kept: RN16(x * s); dropped: +0 */
         dropout_cuda__widen2(dtype, x, &lo, &hi);
         v->u[i] = dropout_cuda__narrow2(dtype, dropout__fmul(lo, s), dropout__fmul(hi, s)) & kept;
      } else {
         v->h[2 * i] = dtype == DROPOUT_CUDA__BF16 ? dropout_apply_bf16(v->h[2 * i], (int)(k2 & 1u), a->rule)
                                                   : dropout_apply_f16(v->h[2 * i], (int)(k2 & 1u), a->rule);
         v->h[2 * i + 1] = dtype == DROPOUT_CUDA__BF16 ? dropout_apply_bf16(v->h[2 * i + 1], (int)(k2 >> 1), a->rule)
                                                       : dropout_apply_f16(v->h[2 * i + 1], (int)(k2 >> 1), a->rule);
      }
   }
}
#endif

/* Lane src's keep word. On the GPU a warp shuffle (every lane of the warp calls it with
   the same loop trip, so the warp is converged); in the host emulation, all[src] (every
   lane's word after the OR over its unit's lanes). */
DROPOUT_HD uint32_t dropout_cuda__shfl(uint32_t mine, unsigned src, const uint32_t *all)
{
#if defined(__CUDA_ARCH__)
   (void)all;
   return __shfl_sync(0xFFFFFFFFu, mine, (int)src);
#else
   (void)mine;
   return all[src];
#endif
}

/* Share `part` of `split` of a unit's nb whole blocks from block b0 (log2d: log2 of the
   draws per block): blocks part * bpl .. part * bpl + bpl - 1 in their places of the
   word, bpl = nb / split (at least 1; a part past the last block draws nothing). */
DROPOUT_HD uint32_t dropout_cuda__keep_share(uint64_t seed, uint64_t stream, dropout_rule r, uint64_t b0,
                                             unsigned part, unsigned nb, unsigned split, unsigned log2d)
{
   const unsigned bpl = nb / split ? nb / split : 1u, first = part * bpl;
   if (first >= nb) return 0;
   return dropout_cuda__keep_blocks(seed, stream, r, b0 + first, bpl, log2d) << (first << log2d);
}

/* Lane `lane`'s share of its unit's keep bits (unit base + lane / split): the OR of the
   unit's split shares is dropout_cuda__unit_keep's word. A stored mask, or a unit that
   does not start on a block boundary, gives every lane the whole word. */
DROPOUT_HD uint32_t dropout_cuda__lane_keep(const dropout_cuda__args *a, int op, uint64_t seed, uint64_t offset,
                                            uint64_t base, unsigned lane, unsigned split)
{
   const uint64_t u = base + lane / split, pos = offset + u * DROPOUT_CUDA__UNIT;
   const unsigned part = lane % split;
   const dropout_rule r = a->rule;
   if (op == DROPOUT_CUDA__APPLY_MASK) return dropout_cuda__load_mask(a->mask_in + u * 4u, DROPOUT_CUDA__UNIT);
   if (split > 1u) {
      if (r.bits == 8 && (pos & 15u) == 0) return dropout_cuda__keep_share(seed, a->stream, r, pos >> 4, part, 2u, split, 4u);
      if (r.bits == 16 && (pos & 7u) == 0) return dropout_cuda__keep_share(seed, a->stream, r, pos >> 3, part, 4u, split, 3u);
      if (r.bits == 32 && (pos & 3u) == 0) return dropout_cuda__keep_share(seed, a->stream, r, pos >> 2, part, 8u, split, 2u);
   }
   return dropout_cuda__keep_bits(seed, a->stream, r, pos, DROPOUT_CUDA__UNIT);
}

/* The whole keep word of lane `lane`'s unit, in every lane of the unit (the OR of their
   shares); the unit's first lane writes its mask bytes. all: the host emulation's words. */
DROPOUT_HD uint32_t dropout_cuda__span_keep(const dropout_cuda__args *a, int op, uint64_t seed, uint64_t offset,
                                            uint64_t base, unsigned lane, unsigned split, const uint32_t *all)
{
   uint32_t keep;
#if defined(__CUDA_ARCH__)
   unsigned m;
   (void)all;
   keep = dropout_cuda__lane_keep(a, op, seed, offset, base, lane, split);
   for (m = 1u; m < split; m <<= 1) keep |= __shfl_xor_sync(0xFFFFFFFFu, keep, (int)m);
#else
   (void)op; (void)seed; (void)offset;
   keep = all[lane];
#endif
   if (a->mask_out && lane % split == 0u)
      dropout_cuda__store_mask(a->mask_out + (base + lane / split) * 4u, keep, DROPOUT_CUDA__UNIT);
   return keep;
}

/* Chunk c (per elements) of p into v, and back: 16-byte vectors or single elements. */
DROPOUT_HD void dropout_cuda__ld_chunk(dropout_cuda__vec *v, int dtype, const char *p, unsigned per, unsigned c)
{
   if (per == 1u) dropout_cuda__ld1(v, dtype, p, c);
   else dropout_cuda__ld16(v, p + 16u * c);
}

DROPOUT_HD void dropout_cuda__st_chunk(char *p, int dtype, unsigned per, unsigned c, const dropout_cuda__vec *v)
{
   if (per == 1u) dropout_cuda__st1(p, dtype, c, v);
   else dropout_cuda__st16(p + 16u * c, v);
}

/* Lane `lane`'s part of the whole span at unit `base`, chunks of `per` elements, split
   lanes a unit (both compile-time constants in the kernel, so the loops unroll and v
   stays in registers; per * split <= 32). all: the 32 lanes' keep words after the OR
   over each unit's lanes, for the host emulation only (NULL on the GPU). */
DROPOUT_HD void dropout_cuda__warp_span(const dropout_cuda__args *a, int dtype, int op, uint64_t seed,
                                        uint64_t offset, uint64_t base, unsigned lane, unsigned per,
                                        unsigned split, const uint32_t *all)
{
   const unsigned es = dropout_cuda__esize(dtype), nchunk = DROPOUT_CUDA__UNIT / (per * split);
   /* the fused op holds two operands: half the chunks at a time keeps them in registers */
   const unsigned batch = op == DROPOUT_CUDA__FUSED && es >= 4u ? DROPOUT_CUDA__BATCH / 2u : DROPOUT_CUDA__BATCH;
   const unsigned nb = nchunk < batch ? nchunk : batch;
   const uint64_t e0 = base * DROPOUT_CUDA__UNIT;            /* the span's first element */
   const int fused = op == DROPOUT_CUDA__FUSED;
   char *y = (char *)a->y + e0 * es;
   const char *x = (const char *)a->x + e0 * es;
   const char *r = fused ? (const char *)a->residual + e0 * es : x;
   uint64_t col = 0, step = 0;   /* fused: column of this lane's next chunk, and the stride */
   uint32_t keep = 0;
   unsigned g, k;
#if defined(DROPOUT_CUDA__PAIRS)
   /* chunks never straddle a row end and their bias is one aligned vector */
   const int bias_vec = fused && per > 1u && a->cols % per == 0 && ((uintptr_t)a->bias & 15u) == 0;
   const int pairs = per == 8u && (fused ? bias_vec : a->rule.threshold != 0);
#endif
   if (fused) {
      col = (e0 + (uint64_t)lane * per) % a->cols;
      step = (uint64_t)(32u * per) < a->cols ? 32u * per : (uint64_t)(32u * per) % a->cols;
   }
   for (g = 0; g < nchunk; g += nb) {
      dropout_cuda__vec v[DROPOUT_CUDA__BATCH], rv[DROPOUT_CUDA__BATCH];
      DROPOUT_CUDA__UNROLL
      for (k = 0; k < nb; ++k) {
         dropout_cuda__ld_chunk(&v[k], dtype, x, per, lane + 32u * (g + k));
         if (fused) dropout_cuda__ld_chunk(&rv[k], dtype, r, per, lane + 32u * (g + k));
         else rv[k].u[0] = rv[k].u[1] = rv[k].u[2] = rv[k].u[3] = 0;
      }
      if (g == 0) keep = dropout_cuda__span_keep(a, op, seed, offset, base, lane, split, all);
      DROPOUT_CUDA__UNROLL
      for (k = 0; k < nb; ++k) {
         unsigned c = lane + 32u * (g + k), first = c * per;   /* first < 1024 / split */
         uint32_t kb = dropout_cuda__shfl(keep, (first >> 5) * split, all) >> (first & 31u);
#if defined(DROPOUT_CUDA__PAIRS)
         if (pairs) {
            dropout_cuda__vec bv;
            if (fused) dropout_cuda__ld16(&bv, (const char *)a->bias + col * es);
            dropout_cuda__chunk_pairs(a, dtype, op, &v[k], &rv[k], &bv, kb);
         } else
#endif
         dropout_cuda__chunk_generic(a, dtype, op, &v[k], &rv[k], col, kb, per);
         dropout_cuda__st_chunk(y, dtype, per, c, &v[k]);
         if (fused) { col += step; if (col >= a->cols) col -= a->cols; }
      }
   }
}

/* ---- The strided engine (dropout_cuda_run) -----------------------------------------
   Element (i0 .. ik) of a view gets exactly the bits of the contiguous call: its draw
   position is the plan's first position + its row-major index m in the mask shape (the
   shape with broadcast dims set to 1). The geometry is the lowered job's (dropout_lower:
   dims of 1 gone, a dim merged into its neighbour where every operand, the bias and the
   mask index step over both as over one), taken as it is. A work item is one unit of
   up to 32 consecutive elements of one row (the innermost dim): its keep bits come from
   whole Philox blocks as in the contiguous kernel, and when the row is contiguous in
   every operand its data moves through the same dropout_cuda__data_unit (16-byte
   vectors when aligned). Strided rows, accumulation and the variants go one element at
   a time through the same element functions. A mask to write is written by the
   contiguous mask kernel over the plan's positions (mask order), not here: items never
   share a mask byte. */
typedef struct dropout_cuda__geom {
   int rank;                                /* the job's reduced rank, >= 1 */
   uint64_t dim[DROPOUT_MAX_RANK];
   int64_t stride[3][DROPOUT_MAX_RANK];     /* elements; operands out, in, residual */
   uint64_t mstride[DROPOUT_MAX_RANK];      /* mask index step; 0 on broadcast dims */
   uint64_t numel;                          /* elements of the view */
   uint64_t upr;                            /* units per row: ceil(row length / 32) */
   uint64_t items;                          /* rows * upr; 0 when the view is empty */
} dropout_cuda__geom;

typedef struct dropout_cuda__sargs {
   dropout_cuda__args a;         /* pointers, rule, coordinates; a.n = the plan's count
                                    (positions), a.cols = bias_len (fused) */
   dropout_cuda__geom g;
   dropout_alpha_rule alpha;     /* ALPHA, ALPHA_GRAD */
   float sigma;                  /* GAUSS, NOISE: the float the element functions take */
   int copy;                     /* GAUSS, NOISE with p or sigma 0: y = x bit for bit */
   int accumulate;               /* out += result (gradients) */
} dropout_cuda__sargs;

/* count (<= 32) mask bits from bit `bit` of m, bit i of the result = bit + i * step
   (step 1, or 0 on a broadcast innermost dim); never reads a byte past the last bit */
DROPOUT_HD uint32_t dropout_cuda__mask_bits(const uint8_t *m, uint64_t bit, unsigned count, uint64_t step)
{
   uint64_t acc = 0;
   unsigned sh = (unsigned)(bit & 7u), nbytes = (sh + count + 7u) / 8u, k;
   const uint8_t *p = m + (bit >> 3);
   if (step == 0) return ((p[0] >> sh) & 1u) ? (count == 32u ? 0xFFFFFFFFu : (1u << count) - 1u) : 0u;
   for (k = 0; k < nbytes; ++k) acc |= (uint64_t)p[k] << (8u * k);
   acc >>= sh;
   return count == 32u ? (uint32_t)acc : (uint32_t)acc & ((1u << count) - 1u);
}

/* Gradient accumulation: out = old + new, dropout.h's rule (one rounding in the element
   type; f16 / bf16: both widened exactly to float, added, rounded once). */
DROPOUT_HD void dropout_cuda__accumulate(int dtype, dropout_cuda__vec *v, const dropout_cuda__vec *old)
{
#define DROPOUT_CUDA__EACH(sfx, L, S, K) v->L[0] = dropout_accumulate_##sfx(old->L[0], v->L[0]);
   DROPOUT_CUDA__BY_DTYPE(;)
#undef DROPOUT_CUDA__EACH
}

/* Gaussian dropout (gauss) or noise on an element x of class K, into y: dropout.h's
   dropout_gaussian_mult / dropout_noise_add_<sfx>; H widened to float and back. */
#define DROPOUT_CUDA__NORMAL_F(sfx, y, x) y = gauss ? dropout__fmul((x), dropout_gaussian_mult(z, sg)) : dropout_noise_add_##sfx((x), z, sg);
#define DROPOUT_CUDA__NORMAL_D(sfx, y, x) y = gauss ? (x) * dropout__f64_of(dropout_gaussian_mult(z, sg)) : dropout_noise_add_##sfx((x), z, sg);
#define DROPOUT_CUDA__NORMAL_H(sfx, y, x)                                                                    \
   {                                                                                                         \
      float f = dropout_##sfx##_to_f32(x);                                                                  \
      y = dropout_f32_to_##sfx(gauss ? dropout__fmul(f, dropout_gaussian_mult(z, sg)) : dropout_noise_add_f32(f, z, sg)); \
   }

/* One element of the strided engine, through the same element functions as the CPU. */
DROPOUT_HD void dropout_cuda__strided_elem(const dropout_cuda__sargs *s, int dtype, int op, char *yp,
                                           const char *xp, const char *rp, uint64_t col, int keep,
                                           uint64_t seed, uint64_t q)
{
   const dropout_cuda__args *a = &s->a;
   dropout_cuda__vec v, rv;
   rv.u[0] = rv.u[1] = rv.u[2] = rv.u[3] = 0;
   dropout_cuda__ld1(&v, dtype, xp, 0);
   if (op == DROPOUT_CUDA__ALPHA || op == DROPOUT_CUDA__ALPHA_GRAD) {
      int fw = op == DROPOUT_CUDA__ALPHA;
#define DROPOUT_CUDA__EACH(sfx, L, S, K) \
   v.L[0] = fw ? dropout_alpha_apply_##sfx(v.L[0], keep, s->alpha) : dropout_alpha_grad_##sfx(v.L[0], keep, s->alpha);
      DROPOUT_CUDA__BY_DTYPE(;)
#undef DROPOUT_CUDA__EACH
   } else if (op == DROPOUT_CUDA__GAUSS || op == DROPOUT_CUDA__NOISE) {
      if (!s->copy) {
         float z = dropout_normal_at(seed, a->stream, q), sg = s->sigma;
         int gauss = op == DROPOUT_CUDA__GAUSS;
#define DROPOUT_CUDA__EACH(sfx, L, S, K) DROPOUT_CUDA__NORMAL_##K(sfx, v.L[0], v.L[0])
         DROPOUT_CUDA__BY_DTYPE(;)
#undef DROPOUT_CUDA__EACH
      }
   } else {
      if (op == DROPOUT_CUDA__FUSED) dropout_cuda__ld1(&rv, dtype, rp, 0);
      dropout_cuda__elem(dtype, op, &v, 0, &rv, a->bias, col, keep, a->rule);
   }
   if (s->accumulate) {
      dropout_cuda__vec old;
      dropout_cuda__ld1(&old, dtype, yp, 0);
      dropout_cuda__accumulate(dtype, &v, &old);
   }
   dropout_cuda__st1(yp, dtype, 0, &v);
}

/* Work item w: unit (w mod upr) of row (w / upr). */
DROPOUT_HD void dropout_cuda__strided_item(const dropout_cuda__sargs *s, int dtype, int op, uint64_t seed,
                                           uint64_t pos, uint64_t w)
{
   const dropout_cuda__args *a = &s->a;
   const dropout_cuda__geom *g = &s->g;
   const int last = g->rank - 1, fused = op == DROPOUT_CUDA__FUSED;
   const uint64_t len = g->dim[last], j0 = (w % g->upr) * DROPOUT_CUDA__UNIT, mstep = g->mstride[last];
   const unsigned count = len - j0 < DROPOUT_CUDA__UNIT ? (unsigned)(len - j0) : DROPOUT_CUDA__UNIT;
   const int64_t es = (int64_t)dropout_cuda__esize(dtype);
   uint64_t row = w / g->upr, m = j0 * mstep, col = 0;
   int64_t off[3];
   uint32_t keep = 0;
   char *yp;
   const char *xp, *rp;
   unsigned i;
   int d, k;
   for (k = 0; k < 3; ++k) off[k] = (int64_t)j0 * g->stride[k][last];
   for (d = last - 1; d >= 0; --d) {        /* the row's multi-index, innermost first */
      uint64_t id = row % g->dim[d];
      row /= g->dim[d];
      m += id * g->mstride[d];
      for (k = 0; k < 3; ++k) off[k] += (int64_t)id * g->stride[k][d];
   }
   if (op == DROPOUT_CUDA__APPLY_MASK) keep = dropout_cuda__mask_bits(a->mask_in, m, count, mstep);
   else if (op <= DROPOUT_CUDA__FUSED || op == DROPOUT_CUDA__ALPHA || op == DROPOUT_CUDA__ALPHA_GRAD) {
      if (mstep) keep = dropout_cuda__keep_bits(seed, a->stream, a->rule, pos + m, count);
      else if (dropout_keep_at(seed, a->stream, pos + m, a->rule))
         keep = count == 32u ? 0xFFFFFFFFu : (1u << count) - 1u;
   }
   yp = (char *)a->y + off[0] * es;
   xp = (const char *)a->x + off[1] * es;
   rp = fused ? (const char *)a->residual + off[2] * es : NULL;
   /* the bias steps along the descriptor's last dim only, so the lowering merges no dim
      into it: the row is that dim (or, when it has one element, the index is 0) */
   if (fused) col = j0 % a->cols;
   if ((op == DROPOUT_CUDA__DROP || op == DROPOUT_CUDA__APPLY_MASK || fused) && !s->accumulate &&
       g->stride[0][last] == 1 && g->stride[1][last] == 1 && (!fused || g->stride[2][last] == 1)) {
      dropout_cuda__data_unit(a, dtype, op, yp, xp, rp, col, count, keep);
      return;
   }
   for (i = 0; i < count; ++i) {
      dropout_cuda__strided_elem(s, dtype, op, yp + (int64_t)i * g->stride[0][last] * es,
                                 xp + (int64_t)i * g->stride[1][last] * es,
                                 fused ? rp + (int64_t)i * g->stride[2][last] * es : NULL,
                                 col, (int)((keep >> i) & 1u), seed, pos + m + i * mstep);
      if (fused && ++col == a->cols) col = 0;
   }
}

/* Seed and first position of a strided launch (read through the pointers when given);
   0 items when a run-time position would run past what a device position may hand out
   (dropout_cuda__positions_ok; then nothing is written). */
DROPOUT_HD uint64_t dropout_cuda__strided_prologue(const dropout_cuda__sargs *s,
                                                   uint64_t *seed, uint64_t *pos)
{
   const dropout_cuda__args *a = &s->a;
   *seed = a->seed_ptr ? *a->seed_ptr : a->seed;
   *pos = a->offset_ptr ? *a->offset_ptr : a->offset;
   if (a->n > 0 && !dropout_cuda__positions_ok(a->offset_ptr != NULL, *pos, a->n)) return 0;   /* a run-time position: nothing written */
   return s->g.items;
}

/* The strided kernel as thread `tid` of `nthreads` (grid-stride over work items). */
DROPOUT_HD void dropout_cuda__strided_body(const dropout_cuda__sargs *s, int dtype, int op, uint64_t tid, uint64_t nthreads)
{
   uint64_t seed, pos, items = dropout_cuda__strided_prologue(s, &seed, &pos), w;
   for (w = tid; w < items; w += nthreads) dropout_cuda__strided_item(s, dtype, op, seed, pos, w);
}

/* ---- Jobs ---------------------------------------------------------------------------- */
/* Host-only helpers (the launchers' decisions), plain C so that the logic test runs them */
#define DROPOUT_CUDA__HOST static inline

/* The kernels' op for each dropout_op: the op list's CUDA column. */
DROPOUT_CUDA__HOST int dropout_cuda__op_of(dropout_op op)
{
   unsigned v = op;   /* any value: the enum's private member is no op (-Wswitch-enum) */
   switch (v) {
#define DROPOUT_CUDA__OP(N, V, S, IN, MOUT, MIN, GRAD, STEP, C, F64, CU, CL) case DROPOUT_OP_##N: return DROPOUT_CUDA__##CU;
   DROPOUT__OPS(DROPOUT_CUDA__OP)
#undef DROPOUT_CUDA__OP
   default: return -1;   /* no kernel: the launch refuses it (DROPOUT_ERR_OP) */
   }
}

DROPOUT_CUDA__HOST int dropout_cuda__dtype_of(dropout_dtype dtype)
{
   unsigned v = dtype;   /* any value, as dropout_cuda__op_of */
   switch (v) {
#define DROPOUT_CUDA__DTYPE_OF(NAME, value, sfx, T, size, CUDA_T, K) case DROPOUT_DTYPE_##NAME: return DROPOUT_CUDA__##NAME;
   DROPOUT__DTYPES(DROPOUT_CUDA__DTYPE_OF)
#undef DROPOUT_CUDA__DTYPE_OF
   default: return -1;   /* no kernel: the launch refuses it */
   }
}

/* The strided kernel's geometry: the lowered job's, as it is (no second reduction). */
DROPOUT_CUDA__HOST void dropout_cuda__geom_of(dropout_cuda__geom *g, const dropout_job *j)
{
   uint64_t rows = 1;
   int d, k;
   g->rank = j->rank;
   for (d = 0; d < DROPOUT_MAX_RANK; ++d) {
      g->dim[d] = j->dim[d];
      g->mstride[d] = j->mask_stride[d];
      for (k = 0; k < 3; ++k) g->stride[k][d] = (int64_t)j->stride[k][d];
   }
   g->numel = j->numel;
   for (d = 0; d + 1 < g->rank; ++d) rows *= g->dim[d];
   g->upr = (g->dim[g->rank - 1] + DROPOUT_CUDA__UNIT - 1u) / DROPOUT_CUDA__UNIT;
   g->items = g->numel == 0 ? 0 : rows * g->upr;   /* an empty view's other dims may be huge */
}

#ifndef DROPOUT_CUDA_SPLIT
#define DROPOUT_CUDA_SPLIT 0
#endif
/* The default split gives a call at least this many lanes (threads): 2^16, 2048 warps */
#ifndef DROPOUT_CUDA__SPLIT_LANES
#define DROPOUT_CUDA__SPLIT_LANES ((uint64_t)1 << 16)
#endif

/* Lanes per unit on the warp path (the kernel's a.split): a.split when the caller set
   one, else DROPOUT_CUDA_SPLIT when it is not 0, else the least that gives the call
   DROPOUT_CUDA__SPLIT_LANES lanes; at most 8 and 2 * element size (a lane moves at least
   one 16-byte chunk), 1 off the warp path, for ops that move no data, and when a data
   pointer is not 16-byte aligned. Any split gives the same bits. */
DROPOUT_CUDA__HOST unsigned dropout_cuda__split_for(const dropout_cuda__args *a, int dtype, int op, uint64_t units)
{
   unsigned most = 2u * dropout_cuda__esize(dtype), want = a->split ? a->split : (unsigned)(DROPOUT_CUDA_SPLIT), s;
   if (!a->warp || !dropout_cuda__aligned16(a, op) ||
       (op != DROPOUT_CUDA__DROP && op != DROPOUT_CUDA__APPLY_MASK && op != DROPOUT_CUDA__FUSED))
      return 1u;
   if (most > 8u) most = 8u;
   if (want == 0) for (want = 1u; want < most && units * want < DROPOUT_CUDA__SPLIT_LANES; want <<= 1) {}
   for (s = 1u; s < most && 2u * s <= want; s <<= 1) {}   /* a power of 2, <= want and most */
   return s;
}

/* The launches of a lowered job: returns 1 when the contiguous kernel runs it all (s->a,
   the mask written with the data: the job is one contiguous unbroadcast run and a plain
   or fused op, no accumulation; or the mask op), else 0: the strided kernel on s, after
   the contiguous mask kernel on *mask_args when mask_args->mask_out is set (the mask in
   its own shape, mask order). */
DROPOUT_CUDA__HOST int dropout_cuda__prepare(const dropout_job *j, dropout_cuda__sargs *s,
                                             dropout_cuda__args *mask_args)
{
   memset(s, 0, sizeof *s);
   s->a.rule = j->rule;
   s->a.warp = 1;   /* the launcher decides (DROPOUT_CUDA_WARP, whole-warp blocks) */
   s->a.y = j->out; s->a.x = j->in; s->a.mask_in = j->mask_in;
   s->a.bias = j->bias; s->a.residual = j->residual; s->a.cols = j->bias_len;
   s->a.n = j->positions;
   s->a.seed = j->seed; s->a.stream = j->stream; s->a.offset = j->pos;
   s->a.seed_ptr = j->dev_seed; s->a.offset_ptr = j->dev_pos;
   /* the backward from a stored mask reads no position, so none can run past the stream's
      end: its device coordinates are not read and it always writes (the guard below is for
      the ops that draw) */
   if (j->op == DROPOUT_OP_APPLY_MASK) { s->a.seed_ptr = NULL; s->a.offset_ptr = NULL; }
   s->alpha = j->alpha;
   s->sigma = j->sigma; s->copy = j->copy; s->accumulate = j->accumulate;
   dropout_cuda__geom_of(&s->g, j);
   *mask_args = s->a;
   mask_args->mask_out = NULL;
   if (j->op_class == DROPOUT_CLASS_MASK ||
       ((j->op_class == DROPOUT_CLASS_PLAIN || j->op_class == DROPOUT_CLASS_FUSED) && !j->accumulate && j->contiguous)) {
      s->a.mask_out = j->mask_out;
      return 1;
   }
   if (j->mask_out && j->positions > 0) {
      mask_args->mask_out = j->mask_out;
      mask_args->y = NULL; mask_args->x = NULL;
   }
   return 0;
}

#ifdef __cplusplus
}
#endif

/* ====================================================================================
   Part 2: the CUDA interface (nvcc only)
   ==================================================================================== */
#if defined(__CUDACC__)

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#ifndef DROPOUT_CUDADEF
#ifdef DROPOUT_CUDA_STATIC
#define DROPOUT_CUDADEF static
#else
#define DROPOUT_CUDADEF extern
#endif
#endif

#ifndef DROPOUT_CUDA_BLOCK
#define DROPOUT_CUDA_BLOCK 256
#endif

#ifndef DROPOUT_CUDA_WARP
#define DROPOUT_CUDA_WARP 1
#endif


/* The largest block a launch may use: __launch_bounds__ then lets a thread have up to
   128 registers (65536 / 512), room for 8 chunks of two operands in flight. */
#define DROPOUT_CUDA__MAX_BLOCK 512

extern "C" {

/* dropout_strerror, plus cudaGetErrorString for DROPOUT_ERR_CUDA_BASE - err codes. */
DROPOUT_CUDADEF const char *dropout_cuda_strerror(int code);

/* The short calls: dropout.h's, with the same arguments, on device pointers, and the
   stream to launch on last. The generator, the rule and the plan are host memory, read
   by the launcher. A step's forward takes the generator and reserves n fresh positions
   itself (g moves on only when the launch succeeds), so no step repeats another's mask;
   running a plan's mask again is dropout_cuda_replay_*. Every call takes n, the element
   count of its buffers, and refuses one that is not the plan's (DROPOUT_ERR_COUNT). */
DROPOUT_CUDADEF int dropout_cuda_forward_f32(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, float *y, uint8_t *mask, const float *x, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_forward_f64(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, double *y, uint8_t *mask, const double *x, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_forward_f16(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, __half *y, uint8_t *mask, const __half *x, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_forward_bf16(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, __nv_bfloat16 *y, uint8_t *mask, const __nv_bfloat16 *x, cudaStream_t cs);

/* mask-free backward: the plan rebuilds the forward's mask; overwrites dx */
DROPOUT_CUDADEF int dropout_cuda_backward_f32(const dropout_plan *plan, size_t n, float *dx, const float *dy, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_backward_f64(const dropout_plan *plan, size_t n, double *dx, const double *dy, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_backward_f16(const dropout_plan *plan, size_t n, __half *dx, const __half *dy, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_backward_bf16(const dropout_plan *plan, size_t n, __nv_bfloat16 *dx, const __nv_bfloat16 *dy, cudaStream_t cs);

/* the forward at a plan's positions, as given: checkpoint recomputation, chunks of a step
   (dropout_gen_plan, then dropout_plan_slice), coordinates made elsewhere */
DROPOUT_CUDADEF int dropout_cuda_replay_f32(const dropout_plan *plan, size_t n, float *y, uint8_t *mask, const float *x, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_replay_f64(const dropout_plan *plan, size_t n, double *y, uint8_t *mask, const double *x, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_replay_f16(const dropout_plan *plan, size_t n, __half *y, uint8_t *mask, const __half *x, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_replay_bf16(const dropout_plan *plan, size_t n, __nv_bfloat16 *y, uint8_t *mask, const __nv_bfloat16 *x, cudaStream_t cs);

DROPOUT_CUDADEF int dropout_cuda_mask(const dropout_plan *plan, size_t n, uint8_t *mask, cudaStream_t cs);

/* y = x under a stored mask, scaled by the rule (forward with a mask, and the backward
   from a stored mask alike); n elements */
DROPOUT_CUDADEF int dropout_cuda_apply_mask_f32(const dropout_rule *rule, size_t n, float *y, const uint8_t *mask, const float *x, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_apply_mask_f64(const dropout_rule *rule, size_t n, double *y, const uint8_t *mask, const double *x, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_apply_mask_f16(const dropout_rule *rule, size_t n, __half *y, const uint8_t *mask, const __half *x, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_apply_mask_bf16(const dropout_rule *rule, size_t n, __nv_bfloat16 *y, const uint8_t *mask, const __nv_bfloat16 *x, cudaStream_t cs);

/* y = residual + dropout(x + bias); x, y, residual: n / bias_len rows of bias_len;
   docs/SPEC.md "Fused bias-dropout-residual". A step (from g) and the replay of a plan. */
DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_f32(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, size_t bias_len, float *y, uint8_t *mask, const float *x, const float *bias, const float *residual, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_f64(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, size_t bias_len, double *y, uint8_t *mask, const double *x, const double *bias, const double *residual, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_f16(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, size_t bias_len, __half *y, uint8_t *mask, const __half *x, const __half *bias, const __half *residual, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_bf16(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, size_t n, size_t bias_len, __nv_bfloat16 *y, uint8_t *mask, const __nv_bfloat16 *x, const __nv_bfloat16 *bias, const __nv_bfloat16 *residual, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_replay_f32(const dropout_plan *plan, size_t n, size_t bias_len, float *y, uint8_t *mask, const float *x, const float *bias, const float *residual, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_replay_f64(const dropout_plan *plan, size_t n, size_t bias_len, double *y, uint8_t *mask, const double *x, const double *bias, const double *residual, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_replay_f16(const dropout_plan *plan, size_t n, size_t bias_len, __half *y, uint8_t *mask, const __half *x, const __half *bias, const __half *residual, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_replay_bf16(const dropout_plan *plan, size_t n, size_t bias_len, __nv_bfloat16 *y, uint8_t *mask, const __nv_bfloat16 *x, const __nv_bfloat16 *bias, const __nv_bfloat16 *residual, cudaStream_t cs);

/* the raw stream: dropout.h's fills (positions in 32-bit words, doubles, normals) */
DROPOUT_CUDADEF int dropout_cuda_fill_u32(dropout_key key, dropout_pos first, uint32_t *out, size_t n, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_fill_uniform_f32(dropout_key key, dropout_pos first, float *out, size_t n, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_fill_uniform_f64(dropout_key key, dropout_pos first, double *out, size_t n, cudaStream_t cs);
DROPOUT_CUDADEF int dropout_cuda_fill_normal_f32(dropout_key key, dropout_pos first, float *out, size_t n, cudaStream_t cs);

/* The extended entry: dropout_run's descriptor and tensors (device pointers), every op,
   shape, stride, broadcast and gradient mode, checked exactly as dropout_run checks them;
   an op that draws a step's mask spends d's plan as dropout_run does (DROPOUT_ERR_PLAN_RAN
   for the next until dropout_desc_new_step or _replay). With dropout_desc_set_device_coords
   the kernels read the seed and the first position from device memory when they run
   (CUDA graphs; see CUDA GRAPHS above). */
DROPOUT_CUDADEF int dropout_cuda_run(dropout_desc *d, const dropout_tensors *t, cudaStream_t cs);

/* One-thread kernel: if dev_saved, *dev_saved = *dev_pos; then *dev_pos += count. A
   position that would reach 2^64 stays at 2^64 - 1 instead of wrapping to step 0's
   positions, and a run from there writes nothing (a device position, like a generator,
   never hands out 2^64 - 1). */
DROPOUT_CUDADEF int dropout_cuda_advance(uint64_t *dev_pos, uint64_t *dev_saved, uint64_t count, cudaStream_t cs);

} /* extern "C" */


/* ------------------------------------------------------------------------------------ */
#ifdef DROPOUT_CUDA_IMPLEMENTATION
#ifndef DROPOUT_CUDA_IMPLEMENTATION_DONE
#define DROPOUT_CUDA_IMPLEMENTATION_DONE

/* One kernel per (dtype, op, split S = lanes per unit): the constants fold the body's
   branches away, and each split gets its own register budget (in one kernel the largest
   would set every split's occupancy). The loop is dropout_cuda__body's grid-stride loop,
   walked a warp at a time (with S = 1 lane l's unit is still tid, tid + nthreads, ...)
   so that a whole span can move as one. The launcher sets a.warp only when blocks are
   whole warps, and S > 1 only with a.warp and every data pointer 16-byte aligned. */
template <int DT, int OP, unsigned S>
static __global__ void __launch_bounds__(DROPOUT_CUDA__MAX_BLOCK) dropout_cuda__kernel(dropout_cuda__args a)
{
   const uint64_t tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, nthreads = (uint64_t)gridDim.x * blockDim.x;
   const unsigned lane = threadIdx.x & 31u, es = dropout_cuda__esize(DT);
   const int vec = S > 1u || dropout_cuda__aligned16(&a, OP);
   uint64_t seed, offset, units = dropout_cuda__prologue(&a, &seed, &offset), base;
   for (base = (tid - lane) / S; base < units; base += nthreads / S) {
      if (a.warp && dropout_cuda__span_whole(&a, OP, base, units, S)) {
         if (vec) dropout_cuda__warp_span(&a, DT, OP, seed, offset, base, lane, 16u / es, S, NULL);
         else dropout_cuda__warp_span(&a, DT, OP, seed, offset, base, lane, 1u, 1u, NULL);
      } else if (lane < 32u / S && base + lane < units) {
         dropout_cuda__unit(&a, DT, OP, seed, offset, base + lane);
      }
   }
}

/* The launch of dropout_cuda__kernel<DT, OP, a->split> (ops that move data); MAXS: the
   dtype's largest split (dropout_cuda__split_for: 4 for 2-byte elements, else 8), so that
   no kernel is built for a split that is never launched. */
template <int DT, int OP, unsigned MAXS>
static void dropout_cuda__launch_split(const dropout_cuda__args &a, unsigned grid, unsigned block, cudaStream_t cs)
{
   switch (a.split) {
   case 2u: dropout_cuda__kernel<DT, OP, 2u><<<grid, block, 0, cs>>>(a); break;
   case 4u: dropout_cuda__kernel<DT, OP, 4u><<<grid, block, 0, cs>>>(a); break;
   case 8u: dropout_cuda__kernel<DT, OP, MAXS><<<grid, block, 0, cs>>>(a); break;
   default: dropout_cuda__kernel<DT, OP, 1u><<<grid, block, 0, cs>>>(a); break;
   }
}

/* The strided engine: one kernel per (dtype, op), grid-stride over the work items. */
template <int DT, int OP>
static __global__ void __launch_bounds__(DROPOUT_CUDA__MAX_BLOCK) dropout_cuda__strided_kernel(dropout_cuda__sargs s)
{
   dropout_cuda__strided_body(&s, DT, OP, (uint64_t)blockIdx.x * blockDim.x + threadIdx.x,
                              (uint64_t)gridDim.x * blockDim.x);
}

static __global__ void dropout_cuda__advance_kernel(uint64_t *pos_ptr, uint64_t *saved_ptr, uint64_t n)
{
   uint64_t o = *pos_ptr;
   if (saved_ptr) *saved_ptr = o;
   *pos_ptr = dropout_cuda__advanced(o, n);
}

static dropout_cuda__args dropout_cuda__args_make(void)
{
   dropout_cuda__args a;
   memset(&a, 0, sizeof a);
   a.rule = dropout_rule_make(0.0, 32);
   a.warp = (DROPOUT_CUDA_WARP) != 0;
   return a;
}

static int dropout_cuda__launched(void)
{
   cudaError_t err = cudaGetLastError();
   return err == cudaSuccess ? DROPOUT_OK : DROPOUT_ERR_CUDA_BASE - (int)err;
}

/* An error an earlier CUDA call left pending (cudaGetLastError would hand it to the launch
   after this one): returned before anything is launched, and left pending for its owner,
   so that a call never writes and then reports someone else's error, nor writes its mask
   and then fails at its second launch for it. */
static int dropout_cuda__pending(void)
{
   cudaError_t err = cudaPeekAtLastError();
   return err == cudaSuccess ? DROPOUT_OK : DROPOUT_ERR_CUDA_BASE - (int)err;
}

/* grid 0 / block 0: the default launch. Any grid and block (up to
   DROPOUT_CUDA__MAX_BLOCK threads) give the same result; the warp path needs blocks of
   whole warps, other blocks run the direct path. */
static int dropout_cuda__launch(const dropout_cuda__args *a0, int dtype, int op,
                                unsigned grid, unsigned block, cudaStream_t cs)
{
   dropout_cuda__args a = *a0;
   uint64_t units = a.n / DROPOUT_CUDA__UNIT + (a.n % DROPOUT_CUDA__UNIT != 0);
   int err;
   if (a.n == 0) return DROPOUT_OK;
   if ((err = dropout_cuda__pending()) != DROPOUT_OK) return err;
   op = dropout_cuda__launch_op(&a, op);
   if (block == 0) block = DROPOUT_CUDA_BLOCK;   /* (may be a variable: checked here, not by the preprocessor) */
   if (block == 0 || block > DROPOUT_CUDA__MAX_BLOCK)   /* the kernels' __launch_bounds__; 0 would divide below */
      return DROPOUT_ERR_CUDA_BASE - (int)cudaErrorInvalidConfiguration;
   if (block % 32u != 0) a.warp = 0;
   a.split = dropout_cuda__split_for(&a, dtype, op, units);
   if (grid == 0) {
      uint64_t g = (units * a.split + block - 1u) / block;
      grid = g > 65536u ? 65536u : (unsigned)g;   /* the grid-stride loop does the rest */
   }
#define DROPOUT_CUDA__CASE(DT, OP) \
   case DT * 16 + OP: dropout_cuda__kernel<DT, OP, 1u><<<grid, block, 0, cs>>>(a); break;
#define DROPOUT_CUDA__SPLIT_CASE(DT, OP, MAXS) \
   case DT * 16 + OP: dropout_cuda__launch_split<DT, OP, MAXS>(a, grid, block, cs); break;
#define DROPOUT_CUDA__CASES(NAME, value, sfx, T, size, CUDA_T, K)                                     \
   DROPOUT_CUDA__SPLIT_CASE(DROPOUT_CUDA__##NAME, DROPOUT_CUDA__DROP, (size) < 4 ? 4u : 8u)         \
   DROPOUT_CUDA__SPLIT_CASE(DROPOUT_CUDA__##NAME, DROPOUT_CUDA__APPLY_MASK, (size) < 4 ? 4u : 8u)   \
   DROPOUT_CUDA__SPLIT_CASE(DROPOUT_CUDA__##NAME, DROPOUT_CUDA__FUSED, (size) < 4 ? 4u : 8u)
   switch (dtype * 16 + op) {
      DROPOUT__DTYPES(DROPOUT_CUDA__CASES)   /* every dtype: DROP, APPLY_MASK, FUSED */
      DROPOUT_CUDA__CASE(DROPOUT_CUDA__F32, DROPOUT_CUDA__MASK)
      DROPOUT_CUDA__CASE(DROPOUT_CUDA__F32, DROPOUT_CUDA__FILL_U32)
      DROPOUT_CUDA__CASE(DROPOUT_CUDA__F32, DROPOUT_CUDA__FILL_UF32)
      DROPOUT_CUDA__CASE(DROPOUT_CUDA__F64, DROPOUT_CUDA__FILL_UF64)
      DROPOUT_CUDA__CASE(DROPOUT_CUDA__F32, DROPOUT_CUDA__FILL_NORMAL)
   default: return DROPOUT_ERR_OP;
   }
#undef DROPOUT_CUDA__CASES
#undef DROPOUT_CUDA__SPLIT_CASE
#undef DROPOUT_CUDA__CASE
   return dropout_cuda__launched();
}

/* The strided kernel over s->g.items work items; grid 0 / block 0: the default launch
   (any grid and block give the same result). */
static int dropout_cuda__strided_launch(const dropout_cuda__sargs *s, int dtype, int op,
                                        unsigned grid, unsigned block, cudaStream_t cs)
{
   int err;
   if (s->g.items == 0) return DROPOUT_OK;
   if ((err = dropout_cuda__pending()) != DROPOUT_OK) return err;
   op = dropout_cuda__launch_op(&s->a, op);
   if (block == 0) block = DROPOUT_CUDA_BLOCK;   /* (may be a variable: checked here, not by the preprocessor) */
   if (block == 0 || block > DROPOUT_CUDA__MAX_BLOCK)   /* the kernels' __launch_bounds__; 0 would divide below */
      return DROPOUT_ERR_CUDA_BASE - (int)cudaErrorInvalidConfiguration;
   if (grid == 0) {
      uint64_t g = (s->g.items + block - 1u) / block;
      grid = g > 65536u ? 65536u : (unsigned)g;
   }
#define DROPOUT_CUDA__SCASE(DT, OP) \
   case DT * 16 + OP: dropout_cuda__strided_kernel<DT, OP><<<grid, block, 0, cs>>>(*s); break;
#define DROPOUT_CUDA__SCASES(NAME, value, sfx, T, size, CUDA_T, K)                                 \
   DROPOUT_CUDA__SCASE(DROPOUT_CUDA__##NAME, DROPOUT_CUDA__DROP)                                   \
   DROPOUT_CUDA__SCASE(DROPOUT_CUDA__##NAME, DROPOUT_CUDA__APPLY_MASK)                             \
   DROPOUT_CUDA__SCASE(DROPOUT_CUDA__##NAME, DROPOUT_CUDA__FUSED)                                  \
   DROPOUT_CUDA__SCASE(DROPOUT_CUDA__##NAME, DROPOUT_CUDA__ALPHA)                                  \
   DROPOUT_CUDA__SCASE(DROPOUT_CUDA__##NAME, DROPOUT_CUDA__ALPHA_GRAD)                             \
   DROPOUT_CUDA__SCASE(DROPOUT_CUDA__##NAME, DROPOUT_CUDA__GAUSS)                                  \
   DROPOUT_CUDA__SCASE(DROPOUT_CUDA__##NAME, DROPOUT_CUDA__NOISE)
   switch (dtype * 16 + op) {
      DROPOUT__DTYPES(DROPOUT_CUDA__SCASES)
   default: return DROPOUT_ERR_OP;
   }
#undef DROPOUT_CUDA__SCASES
#undef DROPOUT_CUDA__SCASE
   return dropout_cuda__launched();
}

/* Whether every tensor pointer of j is aligned to its element type: a misaligned load on
   the GPU is a sticky error that ends the CUDA context (the CPU's loads do not fault), so it
   is refused before anything is launched, as misaligned device coordinates are: checked
   where a job is lowered (dropout_cuda__short_job, dropout_cuda_run), before any query of
   the stream. */
static int dropout_cuda__aligned(const void *out, const void *in, const void *bias, const void *residual, size_t es)
{
   return (((uintptr_t)out | (uintptr_t)in | (uintptr_t)bias | (uintptr_t)residual) & (uintptr_t)(es - 1u)) == 0;
}

static int dropout_cuda__job_aligned(const dropout_job *j)
{
   return dropout_cuda__aligned(j->out, j->in, j->bias, j->residual, dropout__esize[(int)j->dtype - 1])
             ? DROPOUT_OK : DROPOUT_ERR_ALIGN;
}

/* The launches of a lowered job (dropout_cuda__prepare decides them). */
static int dropout_cuda__execute_job(const dropout_job *j, cudaStream_t cs)
{
   dropout_cuda__sargs s;
   dropout_cuda__args m;
   int op = dropout_cuda__op_of(j->op), dtype = dropout_cuda__dtype_of(j->dtype);
   int err, fast = dropout_cuda__prepare(j, &s, &m);
   s.a.warp = m.warp = (DROPOUT_CUDA_WARP) != 0;
   if (fast) return dropout_cuda__launch(&s.a, op == DROPOUT_CUDA__MASK ? DROPOUT_CUDA__F32 : dtype, op, 0, 0, cs);
   if (m.mask_out) {
      err = dropout_cuda__launch(&m, DROPOUT_CUDA__F32, DROPOUT_CUDA__MASK, 0, 0, cs);
      if (err) return err;
   }
   return dropout_cuda__strided_launch(&s, dtype, op, 0, 0, cs);
}

/* The raw-stream fills (contiguous, no rule): the checks of dropout.h's fills. */
static int dropout_cuda__fill(int op, void *out, size_t n, uint64_t seed, uint64_t stream,
                              uint64_t first, cudaStream_t cs)
{
   dropout_cuda__args a = dropout_cuda__args_make();
   /* as dropout.h's fills, in their order: a count no buffer holds (n bytes would wrap),
      the output, the range */
   if ((uint64_t)n > (uint64_t)PTRDIFF_MAX / (op == DROPOUT_CUDA__FILL_UF64 ? 8u : 4u)) return DROPOUT_ERR_SIZE;
   if (n > 0 && !out) return DROPOUT_ERR_NULL_OUTPUT;
   if (n > 0 && !dropout_cuda__aligned(out, NULL, NULL, NULL, op == DROPOUT_CUDA__FILL_UF64 ? 8u : 4u)) return DROPOUT_ERR_ALIGN;
   if (n > 0 && (uint64_t)(n - 1) > UINT64_MAX - first) return DROPOUT_ERR_RANGE;
   if (op == DROPOUT_CUDA__FILL_UF64 && n > 0 && first + (uint64_t)(n - 1) > (UINT64_MAX >> 1))
      return DROPOUT_ERR_RANGE;
   a.y = out; a.n = n; a.seed = seed; a.stream = stream; a.offset = first;
   return dropout_cuda__launch(&a, op == DROPOUT_CUDA__FILL_UF64 ? DROPOUT_CUDA__F64 : DROPOUT_CUDA__F32, op, 0, 0, cs);
}

/* A short call: its descriptor, built and checked by dropout.h, run on the GPU. n is the
   caller's count, checked against the plan as the CPU's short calls check it (a count no
   buffer of this dtype holds, then another count than the plan's) before anything else. */
static int dropout_cuda__short_job(dropout_op op, dropout_dtype dtype, const dropout_plan *plan, size_t n,
                                   size_t bias_len, void *out, uint8_t *mask, const void *in, const void *bias,
                                   const void *residual, dropout_job *j)
{
   dropout_desc d;
   dropout_tensors t;
   int err = dropout__plan_check_kind(plan, dropout__op_normals((int)op));
   if (!err) err = dropout__n_check(plan, n, op == DROPOUT_OP_MASK ? 1u : dropout__esize[(int)dtype - 1]);
   if (!err) err = dropout_desc_init(&d, op, dtype, plan);
   if (!err && op == DROPOUT_OP_BIAS_DROPOUT_ADD) err = dropout_desc_set_bias_len(&d, bias_len);
   if (err) return err;
   t.out = out; t.mask = mask; t.in = in; t.bias = bias; t.residual = residual;
   err = dropout_lower(&d, &t, j);
   return err ? err : dropout_cuda__job_aligned(j);
}

static int dropout_cuda__short(dropout_op op, dropout_dtype dtype, const dropout_plan *plan, size_t n, size_t bias_len,
                               void *out, uint8_t *mask, const void *in, const void *bias, const void *residual,
                               cudaStream_t cs)
{
   dropout_job j;
   int err = dropout_cuda__short_job(op, dtype, plan, n, bias_len, out, mask, in, bias, residual, &j);
   return err ? err : dropout_cuda__execute_job(&j, cs);
}

/* DROPOUT_ERR_CAPTURE when cs is being captured into a CUDA graph: a launch that takes
   a step's positions from the host would take the same ones at every replay of the graph.
   Someone else's pending error first (left for them); this query's own error is returned
   and cleared, not left for the next call. */
static int dropout_cuda__not_capturing(cudaStream_t cs)
{
   cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
   cudaError_t e;
   int err = dropout_cuda__pending();
   if (err) return err;
   e = cudaStreamIsCapturing(cs, &capture);
   if (e != cudaSuccess) {
      (void)cudaGetLastError();
      return DROPOUT_ERR_CUDA_BASE - (int)e;
   }
   return capture != cudaStreamCaptureStatusNone ? DROPOUT_ERR_CAPTURE : DROPOUT_OK;
}

/* A step: n fresh positions of g (the CPU's checks, in its order), the short call on
   them, and g moved on only when its launches succeed. Not on a stream being captured
   into a CUDA graph: g would move once, at capture, and every replay of the graph would
   draw the same positions again (the device-coordinate descriptor is the graph's way). */
static int dropout_cuda__step(dropout_op op, dropout_dtype dtype, dropout_gen *g, const dropout_rule *rule,
                              dropout_plan *plan, size_t n, size_t bias_len, void *out, uint8_t *mask,
                              const void *in, const void *bias, const void *residual, cudaStream_t cs)
{
   dropout_plan p;
   dropout_job j;
   int err = dropout__step_plan(g, rule, n, op == DROPOUT_OP_MASK ? 1u : dropout__esize[(int)dtype - 1], &p);
   if (!err) err = dropout_cuda__short_job(op, dtype, &p, n, bias_len, out, mask, in, bias, residual, &j);
   if (!err) err = dropout_cuda__not_capturing(cs);   /* the arguments' checks, then the stream's */
   if (!err) err = dropout_cuda__execute_job(&j, cs);
   if (err) return err;
   dropout__gen_take(g, p.rule.bits, p.pos, p.count);
   if (plan) *plan = p;
   return DROPOUT_OK;
}

/* apply_mask's plan: the rule over n positions (the coordinates are not used) */
static int dropout_cuda__apply_mask(dropout_dtype dtype, const dropout_rule *rule, size_t n, void *y,
                                    const uint8_t *mask, const void *x, cudaStream_t cs)
{
   dropout_plan plan;
   int err = dropout_plan_at(&plan, rule, dropout_key_make(0, 0), dropout_pos_make(0), (uint64_t)n);
   if (err) return err;
   /* dropout_apply_mask_*'s order: a count no buffer of this dtype holds, then the NULLs */
   if (!dropout__count_ok((uint64_t)n, dropout__esize[(int)dtype - 1])) return DROPOUT_ERR_SIZE;
   if (n > 0 && !y) return DROPOUT_ERR_NULL_OUTPUT;
   if (n > 0 && !mask) return DROPOUT_ERR_NULL_MASK;
   if (n > 0 && !x) return DROPOUT_ERR_NULL_INPUT;
   return dropout_cuda__short(DROPOUT_OP_APPLY_MASK, dtype, &plan, n, 0, y, (uint8_t *)mask, x, NULL, NULL, cs);
}

extern "C" {

DROPOUT_CUDADEF const char *dropout_cuda_strerror(int code)
{
   if (code <= DROPOUT_ERR_CUDA_BASE && code > -2000)   /* (dropout_opencl.h's: -901 .. -906, -2000 and below) */
      return cudaGetErrorString((cudaError_t)(DROPOUT_ERR_CUDA_BASE - code));
   return dropout_strerror(code);
}

DROPOUT_CUDADEF int dropout_cuda_run(dropout_desc *d, const dropout_tensors *t, cudaStream_t cs)
{
   dropout_job j;
   int err = dropout_lower(d, t, &j);
   if (!err) err = dropout_cuda__job_aligned(&j);
   /* a step's mask from the plan's own coordinates, captured into a CUDA graph, would be
      drawn again at every replay: last step's mask, with no error (the descriptor's rule is
      one draw a plan). Device coordinates are the graph's way (dropout_desc_set_device_coords) */
   if (!err && dropout__op_of(j.op).step && !j.dev_pos) err = dropout_cuda__not_capturing(cs);
   if (!err) err = dropout_cuda__execute_job(&j, cs);
   if (err) return err;
   (void)dropout_desc_ran(d);   /* launched: a step's mask is drawn (as dropout_run) */
   return DROPOUT_OK;
}

DROPOUT_CUDADEF int dropout_cuda_advance(uint64_t *dev_pos, uint64_t *dev_saved, uint64_t count, cudaStream_t cs)
{
   int err;
   if (!dev_pos) return DROPOUT_ERR_NULL;
   if (dev_saved == dev_pos) return DROPOUT_ERR_OVERLAP;   /* the saved copy would be the advanced one */
   if (((uintptr_t)dev_pos | (uintptr_t)dev_saved) & 7u) return DROPOUT_ERR_DEVICE_COORDS;   /* (a misaligned load ends the context) */
   if ((err = dropout_cuda__pending()) != DROPOUT_OK) return err;
   dropout_cuda__advance_kernel<<<1, 1, 0, cs>>>(dev_pos, dev_saved, count);
   return dropout_cuda__launched();
}

DROPOUT_CUDADEF int dropout_cuda_mask(const dropout_plan *plan, size_t n, uint8_t *mask, cudaStream_t cs)
{
   return dropout_cuda__short(DROPOUT_OP_MASK, DROPOUT_DTYPE_F32, plan, n, 0, NULL, mask, NULL, NULL, NULL, cs);
}

/* The short calls of every dtype, from its row of dropout.h's DROPOUT__DTYPES (CUDA_T the
   element type): dropout_cuda_forward_<sfx>, _replay_<sfx>, _backward_<sfx>,
   _apply_mask_<sfx>, _bias_dropout_add_<sfx>, _bias_dropout_add_replay_<sfx>; their
   prototypes are written out above. */
#define DROPOUT_CUDA__SHORT_CALLS(NAME, value, sfx, T, size, CUDA_T, K)                                      \
   DROPOUT_CUDADEF int dropout_cuda_forward_##sfx(dropout_gen *g, const dropout_rule *rule, dropout_plan *plan, \
                                                  size_t n, CUDA_T *y, uint8_t *mask, const CUDA_T *x,        \
                                                  cudaStream_t cs)                                            \
   {                                                                                                           \
      return dropout_cuda__step(DROPOUT_OP_FORWARD, DROPOUT_DTYPE_##NAME, g, rule, plan, n, 0, y, mask, x,   \
                                NULL, NULL, cs);                                                               \
   }                                                                                                           \
   DROPOUT_CUDADEF int dropout_cuda_replay_##sfx(const dropout_plan *plan, size_t n, CUDA_T *y, uint8_t *mask, \
                                                 const CUDA_T *x, cudaStream_t cs)                            \
   {                                                                                                           \
      return dropout_cuda__short(DROPOUT_OP_FORWARD, DROPOUT_DTYPE_##NAME, plan, n, 0, y, mask, x, NULL, NULL, cs); \
   }                                                                                                           \
   DROPOUT_CUDADEF int dropout_cuda_backward_##sfx(const dropout_plan *plan, size_t n, CUDA_T *dx,           \
                                                   const CUDA_T *dy, cudaStream_t cs)                         \
   {                                                                                                           \
      return dropout_cuda__short(DROPOUT_OP_BACKWARD, DROPOUT_DTYPE_##NAME, plan, n, 0, dx, NULL, dy, NULL, NULL, cs); \
   }                                                                                                           \
   DROPOUT_CUDADEF int dropout_cuda_apply_mask_##sfx(const dropout_rule *rule, size_t n, CUDA_T *y,           \
                                                     const uint8_t *mask, const CUDA_T *x, cudaStream_t cs)   \
   {                                                                                                           \
      return dropout_cuda__apply_mask(DROPOUT_DTYPE_##NAME, rule, n, y, mask, x, cs);                          \
   }                                                                                                           \
   DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_##sfx(dropout_gen *g, const dropout_rule *rule,          \
                                                           dropout_plan *plan, size_t n, size_t bias_len,     \
                                                           CUDA_T *y, uint8_t *mask, const CUDA_T *x,         \
                                                           const CUDA_T *bias, const CUDA_T *residual,        \
                                                           cudaStream_t cs)                                   \
   {                                                                                                           \
      return dropout_cuda__step(DROPOUT_OP_BIAS_DROPOUT_ADD, DROPOUT_DTYPE_##NAME, g, rule, plan, n, bias_len, \
                                y, mask, x, bias, residual, cs);                                               \
   }                                                                                                           \
   DROPOUT_CUDADEF int dropout_cuda_bias_dropout_add_replay_##sfx(const dropout_plan *plan, size_t n,         \
                                                                  size_t bias_len, CUDA_T *y, uint8_t *mask,  \
                                                                  const CUDA_T *x, const CUDA_T *bias,        \
                                                                  const CUDA_T *residual, cudaStream_t cs)    \
   {                                                                                                           \
      return dropout_cuda__short(DROPOUT_OP_BIAS_DROPOUT_ADD, DROPOUT_DTYPE_##NAME, plan, n, bias_len, y, mask, \
                                 x, bias, residual, cs);                                                       \
   }
DROPOUT__DTYPES(DROPOUT_CUDA__SHORT_CALLS)
#undef DROPOUT_CUDA__SHORT_CALLS

DROPOUT_CUDADEF int dropout_cuda_fill_u32(dropout_key key, dropout_pos first, uint32_t *out, size_t n, cudaStream_t cs)
{
   return dropout_cuda__fill(DROPOUT_CUDA__FILL_U32, out, n, key.seed, key.stream, first.index, cs);
}

DROPOUT_CUDADEF int dropout_cuda_fill_uniform_f32(dropout_key key, dropout_pos first, float *out, size_t n, cudaStream_t cs)
{
   return dropout_cuda__fill(DROPOUT_CUDA__FILL_UF32, out, n, key.seed, key.stream, first.index, cs);
}

DROPOUT_CUDADEF int dropout_cuda_fill_uniform_f64(dropout_key key, dropout_pos first, double *out, size_t n, cudaStream_t cs)
{
   return dropout_cuda__fill(DROPOUT_CUDA__FILL_UF64, out, n, key.seed, key.stream, first.index, cs);
}

DROPOUT_CUDADEF int dropout_cuda_fill_normal_f32(dropout_key key, dropout_pos first, float *out, size_t n, cudaStream_t cs)
{
   return dropout_cuda__fill(DROPOUT_CUDA__FILL_NORMAL, out, n, key.seed, key.stream, first.index, cs);
}

} /* extern "C" */


#endif /* DROPOUT_CUDA_IMPLEMENTATION_DONE */
#endif /* DROPOUT_CUDA_IMPLEMENTATION */

/* DROPOUT_V0_API: the 0.1.0 launchers, deprecated, live in dropout_cuda_v0.cuh beside this
   file (on the calls above, after them so that the 1.0 definitions keep their names). */
#ifdef DROPOUT_V0_API
#if defined(__has_include)
#if !__has_include("dropout_cuda_v0.cuh")
#error "DROPOUT_V0_API: the 0.1.0 CUDA calls live in dropout_cuda_v0.cuh; put it beside dropout_cuda.cuh (or move the calls to 1.0: CHANGELOG.md)"
#endif
#endif
#include "dropout_cuda_v0.cuh"
#endif

#endif /* __CUDACC__ */

#ifdef DROPOUT_CUDA__V0_GEN_NAME   /* 0.1's dropout_gen again, for the 0.1 code that follows */
#define dropout_gen dropout_v0_gen
#undef DROPOUT_CUDA__V0_GEN_NAME
#endif

#endif /* DROPOUT_CUDA_CUH_INCLUDED */
