/* mlp_math.h - the float arithmetic of examples/train_mlp.c, shared with the GPU trainer.

   Every rounding the trainer performs is written as one call below, so the CPU and the
   GPU do the same IEEE-754 operations in the same order:

      mul_rn(a, b)  one float multiply, round to nearest even
      add_rn(a, b)  one float add (sub_rn, div_rn, sqrt_rn likewise)

   On the GPU they are the __fmul_rn / __fadd_rn intrinsics, which nvcc never fuses into
   an FMA. On the CPU they are plain operators; C allows a compiler to fuse a*b+c only
   inside one expression (C99 6.5p8), and these are separate calls, but GCC's GNU-mode
   default (-ffp-contract=fast) fuses across statements anyway, so the trainer is also
   built with -ffp-contract=off (docs/TUTORIAL.md, "reproducibility traps").

   exp, log and sin are written here from those operations instead of taken from libm:
   libm's expf differs between glibc versions and from CUDA's expf, so a softmax built on
   it would not give the same bits on every machine. These are accurate to a few ulps,
   which is plenty for training; what matters is that they are the same everywhere. */
#ifndef MLP_MATH_H
#define MLP_MATH_H

#include <stdint.h>

#if defined(__CUDACC__)
#define MLP_HD static __host__ __device__ __forceinline__
#else
#define MLP_HD static inline
#endif

MLP_HD float mul_rn(float a, float b)
{
#if defined(__CUDA_ARCH__)
   return __fmul_rn(a, b);
#else
   return a * b;
#endif
}

MLP_HD float add_rn(float a, float b)
{
#if defined(__CUDA_ARCH__)
   return __fadd_rn(a, b);
#else
   return a + b;
#endif
}

MLP_HD float sub_rn(float a, float b)
{
#if defined(__CUDA_ARCH__)
   return __fsub_rn(a, b);
#else
   return a - b;
#endif
}

MLP_HD float div_rn(float a, float b)
{
#if defined(__CUDA_ARCH__)
   return __fdiv_rn(a, b);
#else
   return a / b;
#endif
}

/* IEEE square root is correctly rounded on every conforming CPU and in __fsqrt_rn. */
MLP_HD float sqrt_rn(float a)
{
#if defined(__CUDA_ARCH__)
   return __fsqrt_rn(a);
#else
   return __builtin_sqrtf(a);
#endif
}

MLP_HD float mlp_bits_to_float(uint32_t u)
{
   union { uint32_t u; float f; } v;
   v.u = u;
   return v.f;
}

MLP_HD uint32_t mlp_float_to_bits(float f)
{
   union { float f; uint32_t u; } v;
   v.f = f;
   return v.u;
}

/* Round to the nearest integer, ties away from zero, for |x| < 2^30. */
MLP_HD int mlp_round(float x)
{
   return x >= 0.0f ? (int)add_rn(x, 0.5f) : -(int)add_rn(-x, 0.5f);
}

/* e^x for x in [-87, 88] (clamped there): x = k ln2 + r, |r| <= ln2/2, e^r by Taylor. */
MLP_HD float exp_rn(float x)
{
   const float ln2_hi = 0.693145752f, ln2_lo = 1.42860677e-6f;   /* ln2_hi has 16 bits */
   float kf, r, p;
   int k;
   if (x < -87.0f) x = -87.0f;
   if (x > 88.0f) x = 88.0f;
   k = mlp_round(mul_rn(x, 1.44269504f));
   kf = (float)k;
   r = sub_rn(x, mul_rn(kf, ln2_hi));            /* exact: kf * ln2_hi has few bits */
   r = sub_rn(r, mul_rn(kf, ln2_lo));
   p = 1.0f / 5040.0f;                            /* Horner: sum r^n / n!, n <= 7 */
   p = add_rn(mul_rn(p, r), 1.0f / 720.0f);
   p = add_rn(mul_rn(p, r), 1.0f / 120.0f);
   p = add_rn(mul_rn(p, r), 1.0f / 24.0f);
   p = add_rn(mul_rn(p, r), 1.0f / 6.0f);
   p = add_rn(mul_rn(p, r), 0.5f);
   p = add_rn(mul_rn(p, r), 1.0f);
   p = add_rn(mul_rn(p, r), 1.0f);
   /* times 2^k in two steps so that k = -126 .. 127 never builds a denormal factor */
   if (k < -100) { p = mul_rn(p, 7.88860905e-31f); k += 100; }   /* 2^-100 */
   return mul_rn(p, mlp_bits_to_float((uint32_t)(k + 127) << 23));
}

/* log x for a positive normal x: x = 2^e m, m in [sqrt(1/2), sqrt(2)), and
   log m = 2 atanh(f) with f = (m - 1) / (m + 1), |f| < 0.172. */
MLP_HD float log_rn(float x)
{
   uint32_t u = mlp_float_to_bits(x);
   int e = (int)(u >> 23) - 127;
   float m = mlp_bits_to_float((u & 0x7FFFFFu) | 0x3F800000u);   /* [1, 2) */
   float f, s, p;
   if (m > 1.41421356f) { m = mul_rn(m, 0.5f); ++e; }
   f = div_rn(sub_rn(m, 1.0f), add_rn(m, 1.0f));
   s = mul_rn(f, f);
   p = 1.0f / 11.0f;
   p = add_rn(mul_rn(p, s), 1.0f / 9.0f);
   p = add_rn(mul_rn(p, s), 1.0f / 7.0f);
   p = add_rn(mul_rn(p, s), 1.0f / 5.0f);
   p = add_rn(mul_rn(p, s), 1.0f / 3.0f);
   p = add_rn(mul_rn(p, s), 1.0f);
   p = mul_rn(mul_rn(p, f), 2.0f);
   return add_rn(mul_rn((float)e, 0.693147182f), p);
}

/* sin x for |x| < 1000: reduce to [-pi, pi], then to [-pi/2, pi/2], then Taylor. */
MLP_HD float sin_rn(float x)
{
   const float two_pi = 6.28318548f, pi = 3.14159274f, half_pi = 1.57079637f;
   float r = sub_rn(x, mul_rn((float)mlp_round(div_rn(x, two_pi)), two_pi));
   float s, p;
   if (r > half_pi) r = sub_rn(pi, r);
   if (r < -half_pi) r = sub_rn(-pi, r);
   s = mul_rn(r, r);
   p = -1.0f / 39916800.0f;                       /* sum (-1)^n r^(2n+1) / (2n+1)!, n <= 5 */
   p = add_rn(mul_rn(p, s), 1.0f / 362880.0f);
   p = add_rn(mul_rn(p, s), -1.0f / 5040.0f);
   p = add_rn(mul_rn(p, s), 1.0f / 120.0f);
   p = add_rn(mul_rn(p, s), -1.0f / 6.0f);
   p = add_rn(mul_rn(p, s), 1.0f);
   return mul_rn(p, r);
}

MLP_HD float cos_rn(float x) { return sin_rn(add_rn(x, 1.57079637f)); }

#endif
