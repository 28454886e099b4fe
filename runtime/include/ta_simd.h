/*
 * ta_simd.h - dot products, the inner loop of FULLY_CONNECTED and the
 * convolutions, with a Helium (MVE) path for Cortex-M55/M85, a DSP (SIMD32)
 * path for Cortex-M4/M7/M33, and a portable one. Integer sums are exact, so
 * every path returns the same value; the tests run all three.
 */
#ifndef TA_SIMD_H
#define TA_SIMD_H

#include <stdint.h>

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

#endif /* TA_SIMD_H */
