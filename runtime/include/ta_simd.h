/*
 * ta_simd.h - dot products, the inner loop of FULLY_CONNECTED and the
 * convolutions, with a Helium (MVE) path for Cortex-M55/M85, a DSP (SIMD32)
 * path for Cortex-M4/M7/M33, and a portable one. Integer sums are exact, so
 * every path returns the same value; the tests run all three.
 */
#ifndef TA_SIMD_H
#define TA_SIMD_H

#include <stdint.h>
#include <string.h>

#include "ta_quant.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(TA_NO_SIMD)
#define TA_HAVE_MVE 1
#include <arm_mve.h>
#elif defined(__ARM_FEATURE_DSP) && !defined(TA_NO_SIMD)
#define TA_HAVE_DSP 1
#include <arm_acle.h>
#endif

#if defined(TA_HAVE_DSP)
/* Four bytes from any address (Cortex-M4/M7/M33 load unaligned words). */
static inline uint32_t ta_load_u32(const int8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* SXTB16 with its built-in rotation (bytes 1 and 3 as two halfwords): gcc
   does not fold a separate rotate into the instruction. */
static inline uint32_t ta_sxtb16_ror8(uint32_t v)
{
    uint32_t r;
    __asm("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
    return r;
}

/* SXTAB16 of bytes 1 and 3 of w added to acc's halves (the same). */
static inline uint32_t ta_sxtab16_ror8(uint32_t acc, uint32_t w)
{
    uint32_t r;
    __asm("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(acc), "r"(w));
    return r;
}
#endif

/* Keeps a kernel's hot loop in a function of its own: inlined into a big
   caller it would share the caller's registers and spill. */
#ifndef TA_NOINLINE
#if defined(__GNUC__)
#define TA_NOINLINE __attribute__((noinline))
#else
#define TA_NOINLINE
#endif
#endif

/* sum of a[i] * b[i] for i < n, int8 by int8, added to acc. */
static inline int32_t ta_dot_s8(int32_t acc, const int8_t *a, const int8_t *b, int32_t n)
{
#if defined(TA_HAVE_MVE)
    /* A tail-predicated low-overhead loop: the last, partial vector is
       predicated by the loop itself, so the body is two loads and one
       multiply-accumulate across lanes. */
    /* clang-format off */
    __asm volatile("   wlstp.8     lr, %[n], 2f\n"
                   "1: vldrb.8     q0, [%[a]], #16\n"
                   "   vldrb.8     q1, [%[b]], #16\n"
                   "   vmladava.s8 %[acc], q0, q1\n"
                   "   letp        lr, 1b\n"
                   "2:\n"
                   : [acc] "+Te"(acc), [a] "+r"(a), [b] "+r"(b)
                   : [n] "r"(n)
                   : "q0", "q1", "lr", "memory");
    /* clang-format on */
    return acc;
#elif defined(TA_HAVE_DSP)
    /* Four products per iteration: sign-extend bytes 0,2 and 1,3 into
       halfword pairs and multiply-accumulate them two at a time. */
    for (; n >= 4; n -= 4, a += 4, b += 4) {
        const uint32_t wa = ta_load_u32(a), wb = ta_load_u32(b);
        acc = __smlad(__sxtb16(wa), __sxtb16(wb), acc);
        acc = __smlad(ta_sxtb16_ror8(wa), ta_sxtb16_ror8(wb), acc);
    }
    for (; n > 0; n--)
        acc += (int32_t)*a++ * (int32_t)*b++;
    return acc;
#else
    for (int32_t i = 0; i < n; i++)
        acc += (int32_t)a[i] * (int32_t)b[i];
    return acc;
#endif
}

/* Copies n bytes; short copies (a row of an im2col patch) are where a
   library memcpy's call and dispatch cost more than the copy. */
static inline void ta_copy_s8(int8_t *dst, const int8_t *src, int32_t n)
{
#if defined(TA_HAVE_MVE)
    /* clang-format off */
    __asm volatile("   wlstp.8     lr, %[n], 2f\n"
                   "1: vldrb.8     q0, [%[src]], #16\n"
                   "   vstrb.8     q0, [%[dst]], #16\n"
                   "   letp        lr, 1b\n"
                   "2:\n"
                   : [dst] "+r"(dst), [src] "+r"(src)
                   : [n] "r"(n)
                   : "q0", "lr", "memory");
    /* clang-format on */
#elif defined(TA_HAVE_DSP)
    /* Words at any alignment, then the bytes left. */
    int32_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const uint32_t a = ta_load_u32(src + i), b = ta_load_u32(src + i + 4);
        memcpy(dst + i, &a, 4);
        memcpy(dst + i + 4, &b, 4);
    }
    if (i + 4 <= n) {
        const uint32_t a = ta_load_u32(src + i);
        memcpy(dst + i, &a, 4);
        i += 4;
    }
    for (; i < n; i++)
        dst[i] = src[i];
#else
    for (int32_t i = 0; i < n; i++)
        dst[i] = src[i];
#endif
}

/* Sets n bytes to v: on Helium a tail-predicated vector loop, where a
   library memset of a patch's padding (tens of bytes) costs more in its
   call and byte loop than the stores. */
static inline void ta_fill_s8(int8_t *dst, int8_t v, int32_t n)
{
#if defined(TA_HAVE_MVE)
    const int8x16_t vv = vdupq_n_s8(v);
    /* clang-format off */
    __asm volatile("   wlstp.8     lr, %[n], 2f\n"
                   "1: vstrb.8     %q[v], [%[dst]], #16\n"
                   "   letp        lr, 1b\n"
                   "2:\n"
                   : [dst] "+r"(dst)
                   : [n] "r"(n), [v] "w"(vv)
                   : "lr", "memory");
    /* clang-format on */
#else
    memset(dst, v, (size_t)n);
#endif
}

/* sum of a[i] for i < n, added to acc. */
static inline int32_t ta_sum_s8(int32_t acc, const int8_t *a, int32_t n)
{
#if defined(TA_HAVE_MVE)
    while (n > 0) {
        mve_pred16_t p = vctp8q((uint32_t)n);
        acc = vaddvaq_p_s8(acc, vldrbq_z_s8(a, p), p);
        a += 16;
        n -= 16;
    }
    return acc;
#else
    for (int32_t i = 0; i < n; i++)
        acc += a[i];
    return acc;
#endif
}

/* sum of a[i] * w[i], int16 activations by int8 weights, into an int64. */
static inline int64_t ta_dot_s16_s8(int64_t acc, const int16_t *a, const int8_t *w, int32_t n)
{
#if defined(TA_HAVE_MVE)
    while (n > 0) {
        mve_pred16_t p = vctp16q((uint32_t)n);
        acc = vmlaldavaq_p_s16(acc, vldrhq_z_s16(a, p), vldrbq_z_s16(w, p), p);
        a += 8;
        w += 8;
        n -= 8;
    }
    return acc;
#else
    for (int32_t i = 0; i < n; i++)
        acc += (int64_t)((int32_t)a[i] * (int32_t)w[i]);
    return acc;
#endif
}

/* The same with an int32 accumulator (16x8 kernels with int32 biases). */
static inline int32_t ta_dot_s16_s8_32(int32_t acc, const int16_t *a, const int8_t *w, int32_t n)
{
#if defined(TA_HAVE_MVE)
    while (n > 0) {
        mve_pred16_t p = vctp16q((uint32_t)n);
        acc = vmladavaq_p_s16(acc, vldrhq_z_s16(a, p), vldrbq_z_s16(w, p), p);
        a += 8;
        w += 8;
        n -= 8;
    }
    return acc;
#else
    for (int32_t i = 0; i < n; i++)
        acc += (int32_t)a[i] * (int32_t)w[i];
    return acc;
#endif
}

/* Four dot products of length n sharing one input: out[j] = init[j] +
   wj . x (out may be init). */
static inline void ta_dot4_s8_from(int32_t out[4], const int32_t init[4], const int8_t *w0,
                                   const int8_t *w1, const int8_t *w2, const int8_t *w3,
                                   const int8_t *x, int32_t n)
{
#if defined(TA_HAVE_MVE)
    /* Tail-predicated low-overhead loop: per 16 bytes five post-increment
       loads and four multiply-accumulates across lanes (VMLADAVA needs
       even-numbered accumulator registers: constraint "Te"). */
    int32_t a0 = init[0], a1 = init[1], a2 = init[2], a3 = init[3];
    /* clang-format off */
    __asm volatile("   wlstp.8     lr, %[n], 2f\n"
                   "1: vldrb.8     q0, [%[x]], #16\n"
                   "   vldrb.8     q1, [%[w0]], #16\n"
                   "   vmladava.s8 %[a0], q1, q0\n"
                   "   vldrb.8     q2, [%[w1]], #16\n"
                   "   vmladava.s8 %[a1], q2, q0\n"
                   "   vldrb.8     q1, [%[w2]], #16\n"
                   "   vmladava.s8 %[a2], q1, q0\n"
                   "   vldrb.8     q2, [%[w3]], #16\n"
                   "   vmladava.s8 %[a3], q2, q0\n"
                   "   letp        lr, 1b\n"
                   "2:\n"
                   : [a0] "+Te"(a0), [a1] "+Te"(a1), [a2] "+Te"(a2), [a3] "+Te"(a3),
                     [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1), [w2] "+r"(w2), [w3] "+r"(w3)
                   : [n] "r"(n)
                   : "q0", "q1", "q2", "lr", "memory");
    /* clang-format on */
    out[0] = a0;
    out[1] = a1;
    out[2] = a2;
    out[3] = a3;
#elif defined(TA_HAVE_DSP)
    /* The input word is sign-extended once for all four rows. */
    int32_t a0 = init[0], a1 = init[1], a2 = init[2], a3 = init[3];
    for (; n >= 4; n -= 4, x += 4, w0 += 4, w1 += 4, w2 += 4, w3 += 4) {
        const uint32_t xw = ta_load_u32(x);
        const uint32_t xe = __sxtb16(xw), xo = ta_sxtb16_ror8(xw);
        uint32_t v = ta_load_u32(w0);
        a0 = __smlad(__sxtb16(v), xe, a0);
        a0 = __smlad(ta_sxtb16_ror8(v), xo, a0);
        v = ta_load_u32(w1);
        a1 = __smlad(__sxtb16(v), xe, a1);
        a1 = __smlad(ta_sxtb16_ror8(v), xo, a1);
        v = ta_load_u32(w2);
        a2 = __smlad(__sxtb16(v), xe, a2);
        a2 = __smlad(ta_sxtb16_ror8(v), xo, a2);
        v = ta_load_u32(w3);
        a3 = __smlad(__sxtb16(v), xe, a3);
        a3 = __smlad(ta_sxtb16_ror8(v), xo, a3);
    }
    for (int32_t i = 0; i < n; i++) {
        const int32_t xi = x[i];
        a0 += w0[i] * xi;
        a1 += w1[i] * xi;
        a2 += w2[i] * xi;
        a3 += w3[i] * xi;
    }
    out[0] = a0;
    out[1] = a1;
    out[2] = a2;
    out[3] = a3;
#else
    out[0] = ta_dot_s8(init[0], w0, x, n);
    out[1] = ta_dot_s8(init[1], w1, x, n);
    out[2] = ta_dot_s8(init[2], w2, x, n);
    out[3] = ta_dot_s8(init[3], w3, x, n);
#endif
}

/* Four dot products of length n sharing one input, added to acc. */
static inline void ta_dot4_s8(int32_t acc[4], const int8_t *w0, const int8_t *w1, const int8_t *w2,
                              const int8_t *w3, const int8_t *x, int32_t n)
{
    ta_dot4_s8_from(acc, acc, w0, w1, w2, w3, x, n);
}

#if defined(TA_HAVE_DSP)
/* ta_dot4_interleaved_s8's DSP loop, out of line in ta_conv_2d_dsp.c:
   too long for gcc to inline, it would otherwise be a static copy (632
   bytes) in every file of the convolution that calls it. */
void ta_dot4_interleaved_dsp(int32_t acc[4], const int8_t *w, const int8_t *x, int32_t n);
#endif

/* Four dot products sharing input x (n bytes) with weights interleaved
   in 16-byte chunks: chunk c of filter j at w[64 * c + 16 * j]. Every
   chunk but the last is whole; acc[j] += filter j . x. */
static inline void ta_dot4_interleaved_s8(int32_t acc[4], const int8_t *w, const int8_t *x,
                                          int32_t n)
{
#if defined(TA_HAVE_MVE)
    /* Tail-predicated low-overhead loop: per chunk one input load and four
       weight loads through one post-incremented pointer, four
       multiply-accumulates across lanes (VMLADAVA needs even-numbered
       accumulator registers: constraint "Te"). The predicated loads of the
       last iteration still step the pointers by 16. */
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    /* clang-format off */
    __asm volatile("   wlstp.8     lr, %[n], 2f\n"
                   "1: vldrb.8     q0, [%[x]], #16\n"
                   "   vldrb.8     q1, [%[w]], #16\n"
                   "   vmladava.s8 %[a0], q1, q0\n"
                   "   vldrb.8     q2, [%[w]], #16\n"
                   "   vmladava.s8 %[a1], q2, q0\n"
                   "   vldrb.8     q1, [%[w]], #16\n"
                   "   vmladava.s8 %[a2], q1, q0\n"
                   "   vldrb.8     q2, [%[w]], #16\n"
                   "   vmladava.s8 %[a3], q2, q0\n"
                   "   letp        lr, 1b\n"
                   "2:\n"
                   : [a0] "+Te"(a0), [a1] "+Te"(a1), [a2] "+Te"(a2), [a3] "+Te"(a3),
                     [x] "+r"(x), [w] "+r"(w)
                   : [n] "r"(n)
                   : "q0", "q1", "q2", "lr", "memory");
    /* clang-format on */
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
#elif defined(TA_HAVE_DSP)
    ta_dot4_interleaved_dsp(acc, w, x, n);
#else
    for (; n > 0; n -= 16, x += 16, w += 64)
        for (int32_t i = 0; i < (n < 16 ? n : 16); i++)
            for (int32_t j = 0; j < 4; j++)
                acc[j] += w[16 * j + i] * x[i];
#endif
}

#if defined(TA_HAVE_MVE)
/* ta_dot4_interleaved_s8 from init[0..3] into a vector: lane j is filter
   j's sum, so a requantization can follow in registers. One register for
   every weight vector leaves the compiler more for the code around it.
   (The lanes are set one at a time: QEMU 7.2 and the assembler disagree on
   the lane order of the two-lane VMOV.) */
static inline int32x4_t ta_dot4_interleaved_mve(const int32_t *init, const int8_t *w,
                                                const int8_t *x, int32_t n)
{
    int32_t a0 = init[0], a1 = init[1], a2 = init[2], a3 = init[3];
    /* clang-format off */
    __asm volatile("   wlstp.8     lr, %[n], 2f\n"
                   "1: vldrb.8     q0, [%[x]], #16\n"
                   "   vldrb.8     q1, [%[w]], #16\n"
                   "   vmladava.s8 %[a0], q1, q0\n"
                   "   vldrb.8     q1, [%[w]], #16\n"
                   "   vmladava.s8 %[a1], q1, q0\n"
                   "   vldrb.8     q1, [%[w]], #16\n"
                   "   vmladava.s8 %[a2], q1, q0\n"
                   "   vldrb.8     q1, [%[w]], #16\n"
                   "   vmladava.s8 %[a3], q1, q0\n"
                   "   letp        lr, 1b\n"
                   "2:\n"
                   : [a0] "+Te"(a0), [a1] "+Te"(a1), [a2] "+Te"(a2), [a3] "+Te"(a3),
                     [x] "+r"(x), [w] "+r"(w)
                   : [n] "r"(n)
                   : "q0", "q1", "lr", "memory");
    /* clang-format on */
    int32x4_t sums = vdupq_n_s32(a0);
    sums = vsetq_lane_s32(a1, sums, 1);
    sums = vsetq_lane_s32(a2, sums, 2);
    return vsetq_lane_s32(a3, sums, 3);
}
#endif

/* Sums of four interleaved filters over the ceil(n / 16) chunks from w
   (as above): whole chunks, so n must end at a chunk or at the filter's
   end, where the layout pads with zeros. */
static inline void ta_sum4_interleaved_s8(int32_t sum[4], const int8_t *w, int32_t n)
{
#if defined(TA_HAVE_MVE)
    for (; n > 0; n -= 16, w += 64)
        for (int32_t j = 0; j < 4; j++)
            sum[j] = vaddvaq_s8(sum[j], vldrbq_s8(w + 16 * j));
#elif defined(TA_HAVE_DSP)
    /* USADA8 against zero adds four unsigned bytes; flipping the sign bits
       makes them b + 128, taken back once at the end. */
    const int32_t bias = ((n + 15) / 16) * 16 * 128;
    uint32_t u[4] = {0, 0, 0, 0};
    for (; n > 0; n -= 16, w += 64)
        for (int32_t j = 0; j < 4; j++)
            for (int32_t i = 0; i < 16; i += 4)
                u[j] = __usada8(ta_load_u32(w + 16 * j + i) ^ 0x80808080u, 0, u[j]);
    for (int32_t j = 0; j < 4; j++)
        sum[j] += (int32_t)u[j] - bias;
#else
    for (; n > 0; n -= 16, w += 64)
        for (int32_t j = 0; j < 4; j++)
            for (int32_t i = 0; i < 16; i++)
                sum[j] += w[16 * j + i];
#endif
}

#if defined(TA_HAVE_MVE)
/* Lanes x made ready for a rounding right shift by VRSHL (by at least
   one): VRSHL rounds ties up, TFLite's rounding divide away from zero, so
   negative lanes step down by one first (saturating, which leaves
   INT32_MIN exact). */
static inline int32x4_t ta_ties_away_mve(int32x4_t x)
{
    return vqaddq_s32(x, vshrq_n_s32(x, 31));
}

/* ta_mul_by_quantized_multiplier on four lanes. The left shift wraps as
   the scalar form does; VQRDMULH is exactly the saturating rounding
   doubling high multiply TFLite uses; VRSHL by -e rounds ties up, so a
   negative lane shifted by e > 0 first steps down by one (saturating,
   which leaves INT32_MIN exact): the sign bit of x & -e says exactly when.
   The shift comes split, so that many vectors of the same channels split
   it once: left = max(shift, 0), neg_right = min(shift, 0). */
static inline int32x4_t ta_mul_by_quantized_multiplier_split_mve(int32x4_t x, int32x4_t m,
                                                                 int32x4_t left,
                                                                 int32x4_t neg_right)
{
    x = vqrdmulhq_s32(vshlq_s32(x, left), m);
    x = vqaddq_s32(x, vshrq_n_s32(vandq_s32(x, neg_right), 31));
    return vrshlq_s32(x, neg_right);
}

/* The same with the shift s as one vector. */
static inline int32x4_t ta_mul_by_quantized_multiplier_mve(int32x4_t x, int32x4_t m, int32x4_t s)
{
    const int32x4_t zero = vdupq_n_s32(0);
    return ta_mul_by_quantized_multiplier_split_mve(x, m, vmaxq_s32(s, zero), vminq_s32(s, zero));
}
#endif

/* The same for exactly four channels, small enough to inline in a
   kernel's channel loop. */
static inline void ta_requantize4_s8(const int32_t acc[4], const int32_t *multipliers,
                                     const int32_t *shifts, int32_t m, int32_t s, int32_t offset,
                                     int32_t lo, int32_t hi, int8_t *out)
{
#if defined(TA_HAVE_MVE)
    const int32x4_t mv = multipliers ? vldrwq_s32(multipliers) : vdupq_n_s32(m);
    const int32x4_t sv = shifts ? vldrwq_s32(shifts) : vdupq_n_s32(s);
    int32x4_t v = ta_mul_by_quantized_multiplier_mve(vldrwq_s32(acc), mv, sv);
    v = vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), vdupq_n_s32(lo)), vdupq_n_s32(hi));
    vstrbq_s32(out, v);
#else
    for (int32_t k = 0; k < 4; k++) {
        const int32_t mk = multipliers ? multipliers[k] : m;
        const int32_t sk = shifts ? shifts[k] : s;
        const int32_t v = ta_mul_by_quantized_multiplier(acc[k], mk, (int)sk) + offset;
        out[k] = (int8_t)ta_clamp_i32(v, lo, hi);
    }
#endif
}

/* Requantizes n int32 accumulators of consecutive output channels into
   int8: per-channel (multipliers and shifts) or per-tensor (m, s). */
static inline void ta_requantize_s8(const int32_t *acc, int32_t n, const int32_t *multipliers,
                                    const int32_t *shifts, int32_t m, int32_t s, int32_t offset,
                                    int32_t lo, int32_t hi, int8_t *out)
{
    int32_t k = 0;
#if defined(TA_HAVE_MVE)
    /* Whole vectors; the per-tensor or per-channel choice outside the loop. */
    const int32x4_t lov = vdupq_n_s32(lo), hiv = vdupq_n_s32(hi);
    if (multipliers && shifts) {
        for (; k + 4 <= n; k += 4) {
            int32x4_t v = ta_mul_by_quantized_multiplier_mve(
                vldrwq_s32(acc + k), vldrwq_s32(multipliers + k), vldrwq_s32(shifts + k));
            v = vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lov), hiv);
            vstrbq_s32(out + k, v);
        }
    } else if (!multipliers && !shifts) {
        const int32x4_t mv = vdupq_n_s32(m), sv = vdupq_n_s32(s);
        for (; k + 4 <= n; k += 4) {
            int32x4_t v = ta_mul_by_quantized_multiplier_mve(vldrwq_s32(acc + k), mv, sv);
            v = vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lov), hiv);
            vstrbq_s32(out + k, v);
        }
    }
#endif
    for (; k < n; k++) {
        const int32_t mk = multipliers ? multipliers[k] : m;
        const int32_t sk = shifts ? shifts[k] : s;
        const int32_t v = ta_mul_by_quantized_multiplier(acc[k], mk, (int)sk) + offset;
        out[k] = (int8_t)ta_clamp_i32(v, lo, hi);
    }
}

#if defined(TA_HAVE_DSP) && !defined(TA_HAVE_MVE)
/* Four int8 values (each already in [-128, 127]) as the bytes of one
   word, the first lowest: one word store instead of four byte stores. */
static inline uint32_t ta_pack4_s8(int32_t v0, int32_t v1, int32_t v2, int32_t v3)
{
    uint32_t w = (uint32_t)v0 & 0xffu;
    /* clang-format off */
    __asm("bfi %0, %1, #8, #8\n\t"
          "bfi %0, %2, #16, #8\n\t"
          "bfi %0, %3, #24, #8"
          : "+&r"(w)
          : "r"(v1), "r"(v2), "r"(v3));
    /* clang-format on */
    return w;
}

/* Each byte of v clamped to [lo, hi] (both given in every byte of lo4 and
   hi4): SSUB8 sets the GE flag of a byte when its difference is >= 0, SEL
   picks by it; both in one statement, so nothing comes between them. */
static inline uint32_t ta_clamp4_s8(uint32_t v, uint32_t lo4, uint32_t hi4)
{
    uint32_t t;
    /* clang-format off */
    __asm("ssub8 %[t], %[v], %[lo]\n\t"
          "sel   %[v], %[v], %[lo]\n\t"
          "ssub8 %[t], %[v], %[hi]\n\t"
          "sel   %[v], %[hi], %[v]"
          : [v] "+r"(v), [t] "=&r"(t)
          : [lo] "r"(lo4), [hi] "r"(hi4)
          : "cc");
    /* clang-format on */
    return v;
}

/* The n bytes of x (n a multiple of four) as the halfword pairs SMLAD
   takes, widened once for many dot products: out[2k] holds bytes 0 and 2 of
   word k sign-extended, out[2k + 1] bytes 1 and 3. */
static inline void ta_widen_s8_pairs(uint32_t *out, const int8_t *x, int32_t n)
{
    for (int32_t k = 0; k < n / 4; k++) {
        const uint32_t v = ta_load_u32(x + 4 * k);
        out[2 * k] = __sxtb16(v);
        out[2 * k + 1] = ta_sxtb16_ror8(v);
    }
}

/* x (an int8 value) in every byte of a word. */
static inline uint32_t ta_splat4_s8(int32_t x)
{
    return ((uint32_t)x & 0xffu) * 0x01010101u;
}
#endif

#endif /* TA_SIMD_H */
