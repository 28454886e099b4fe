/*
 * ta_simd.h - dot products, the inner loop of FULLY_CONNECTED and the
 * convolutions, with a Helium (MVE) path for Cortex-M55/M85, a DSP (SIMD32)
 * path for Cortex-M4/M7/M33, and a portable one. Integer sums are exact, so
 * every path returns the same value; the tests run all three.
 */
#ifndef TA_SIMD_H
#define TA_SIMD_H

#include <stdint.h>

#include "ta_quant.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(TA_NO_SIMD)
#define TA_HAVE_MVE 1
#include <arm_mve.h>
#elif defined(__ARM_FEATURE_DSP) && !defined(TA_NO_SIMD)
#define TA_HAVE_DSP 1
#include <arm_acle.h>
#include <string.h>
#endif

/* sum of a[i] * b[i] for i < n, int8 by int8, added to acc. */
static inline int32_t ta_dot_s8(int32_t acc, const int8_t *a, const int8_t *b, int32_t n)
{
#if defined(TA_HAVE_MVE)
    while (n > 0) {
        mve_pred16_t p = vctp8q((uint32_t)n);
        acc = vmladavaq_p_s8(acc, vldrbq_z_s8(a, p), vldrbq_z_s8(b, p), p);
        a += 16;
        b += 16;
        n -= 16;
    }
    return acc;
#elif defined(TA_HAVE_DSP)
    /* Four products per iteration: sign-extend bytes 0,2 and 1,3 into
       halfword pairs and multiply-accumulate them two at a time. */
    for (; n >= 4; n -= 4, a += 4, b += 4) {
        uint32_t wa, wb;
        memcpy(&wa, a, 4);
        memcpy(&wb, b, 4);
        acc = __smlad(__sxtb16(wa), __sxtb16(wb), acc);
        acc = __smlad(__sxtb16((wa >> 8) | (wa << 24)), __sxtb16((wb >> 8) | (wb << 24)), acc);
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

/* Four dot products of length n sharing one input: w0..w3 . x. */
static inline void ta_dot4_s8(int32_t acc[4], const int8_t *w0, const int8_t *w1,
                              const int8_t *w2, const int8_t *w3, const int8_t *x, int32_t n)
{
#if defined(TA_HAVE_MVE)
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    while (n > 0) {
        mve_pred16_t p = vctp8q((uint32_t)n);
        const int8x16_t xv = vldrbq_z_s8(x, p);
        a0 = vmladavaq_p_s8(a0, vldrbq_z_s8(w0, p), xv, p);
        a1 = vmladavaq_p_s8(a1, vldrbq_z_s8(w1, p), xv, p);
        a2 = vmladavaq_p_s8(a2, vldrbq_z_s8(w2, p), xv, p);
        a3 = vmladavaq_p_s8(a3, vldrbq_z_s8(w3, p), xv, p);
        x += 16;
        w0 += 16;
        w1 += 16;
        w2 += 16;
        w3 += 16;
        n -= 16;
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
#else
    acc[0] = ta_dot_s8(acc[0], w0, x, n);
    acc[1] = ta_dot_s8(acc[1], w1, x, n);
    acc[2] = ta_dot_s8(acc[2], w2, x, n);
    acc[3] = ta_dot_s8(acc[3], w3, x, n);
#endif
}

#if defined(TA_HAVE_MVE)
/* TFLite's rounding right shift (ties away from zero) of each lane by
   e >= 0: VRSHL rounds ties up, so negative lanes shifted by more than 0
   first step down by one (saturating, which leaves INT32_MIN exact). */
static inline int32x4_t ta_rounding_divide_by_pot_mve(int32x4_t x, int32x4_t e)
{
    const mve_pred16_t shifting = vcmpgtq_n_s32(e, 0);
    const int32x4_t fixup = vpselq_s32(vshrq_n_s32(x, 31), vdupq_n_s32(0), shifting);
    return vrshlq_s32(vqaddq_s32(x, fixup), vnegq_s32(e));
}

/* ta_mul_by_quantized_multiplier on four lanes: VQRDMULH is exactly the
   saturating rounding doubling high multiply TFLite uses. */
static inline int32x4_t ta_mul_by_quantized_multiplier_mve(int32x4_t x, int32x4_t m, int32x4_t s)
{
    const int32x4_t zero = vdupq_n_s32(0);
    const int32x4_t left = vmaxq_s32(s, zero);
    const int32x4_t right = vmaxq_s32(vnegq_s32(s), zero);
    return ta_rounding_divide_by_pot_mve(vqrdmulhq_s32(vshlq_s32(x, left), m), right);
}
#endif

/* Requantizes n int32 accumulators of consecutive output channels into
   int8: per-channel (multipliers/shifts) or per-tensor (m, s). */
static inline void ta_requantize_s8(const int32_t *acc, int32_t n, const int32_t *multipliers,
                                    const int32_t *shifts, int32_t m, int32_t s, int32_t offset,
                                    int32_t lo, int32_t hi, int8_t *out)
{
#if defined(TA_HAVE_MVE)
    for (; n > 0; n -= 4, acc += 4, out += 4) {
        mve_pred16_t p = vctp32q((uint32_t)n);
        int32x4_t mv = multipliers ? vldrwq_z_s32(multipliers, p) : vdupq_n_s32(m);
        int32x4_t sv = shifts ? vldrwq_z_s32(shifts, p) : vdupq_n_s32(s);
        int32x4_t v = ta_mul_by_quantized_multiplier_mve(vldrwq_z_s32(acc, p), mv, sv);
        v = vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), vdupq_n_s32(lo)), vdupq_n_s32(hi));
        vstrbq_p_s32(out, v, p);
        if (multipliers)
            multipliers += 4;
        if (shifts)
            shifts += 4;
    }
#else
    for (int32_t k = 0; k < n; k++) {
        const int32_t mk = multipliers ? multipliers[k] : m;
        const int32_t sk = shifts ? shifts[k] : s;
        const int32_t v = ta_mul_by_quantized_multiplier(acc[k], mk, (int)sk) + offset;
        out[k] = (int8_t)ta_clamp_i32(v, lo, hi);
    }
#endif
}

#endif /* TA_SIMD_H */
