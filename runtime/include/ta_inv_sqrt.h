/*
 * ta_inv_sqrt.h - 1 / sqrt(x) of an int32 as a quantized multiplier, as
 * TFLite's GetInvSqrtQuantizedMultiplierExp (reverse_shift -1), and the
 * quantized RSQRT element built on it. Shared by the converter (the int8
 * RSQRT table) and the kernels that need it per row or per element
 * (L2_NORMALIZATION, int16 RSQRT).
 */
#ifndef TA_INV_SQRT_H
#define TA_INV_SQRT_H

#include "ta_fixedpoint.h"

/* x scaled to [2^27, 2^29) by pairs of bits, five Newton-Raphson steps in
   Q3 fixed point from 1, times sqrt(2)/2; x <= 1 counts as 1. The result
   is multiplier * 2^(shift - 31). */
static inline void ta_inv_sqrt_multiplier(int32_t x, int32_t *multiplier, int *shift)
{
    if (x <= 1) {
        *multiplier = INT32_MAX;
        *shift = 0;
        return;
    }
    int right_shift = 11;
    while (x >= (1 << 29)) {
        x /= 4;
        right_shift++;
    }
    int leading_zeros = 0;
    while (!((uint32_t)x & (0x80000000u >> leading_zeros)))
        leading_zeros++;
    const int pairs = (leading_zeros - 1) / 2 - 1;
    right_shift -= pairs;
    x <<= 2 * pairs;
    const int32_t half_x = ta_fp_mul_pot(x >> 1, -1);
    const int32_t three_halves = (1 << 28) + (1 << 27); /* 1.5 in Q3 */
    int32_t r = 1 << 28;                                /* 1 in Q3 */
    for (int i = 0; i < 5; i++) {
        const int32_t r3 = ta_fp_rescale(ta_fp_mul(ta_fp_mul(r, r), r), 9, 3);
        r = ta_fp_rescale(ta_fp_sub(ta_fp_mul(three_halves, r), ta_fp_mul(half_x, r3)), 6, 3);
    }
    r = ta_fp_mul(r, 1518500250); /* sqrt(2)/2 in Q0 */
    if (right_shift < 0) {
        r = ta_shift_left_wrap(r, -right_shift);
        right_shift = 0;
    }
    *multiplier = r;
    *shift = -right_shift;
}

/* TFLite Micro's RsqrtEvalQuantized for value = input - input zero point
   (>= 0): (1 / sqrt(value)) times (multiplier, shift), plus the output
   zero point, clamped to [lo, hi]; value 0 gives hi. */
static inline int32_t ta_rsqrt_quantized(int32_t value, int32_t multiplier, int shift,
                                         int32_t output_zero_point, int32_t lo, int32_t hi)
{
    enum { KEEP_INTEGER = 20 }; /* TFLite's kShift */
    if (value == 0)
        return hi;
    int32_t inv_m;
    int inv_s;
    ta_inv_sqrt_multiplier(value, &inv_m, &inv_s);
    const int32_t data = ta_mul_by_quantized_multiplier(1, inv_m, inv_s + KEEP_INTEGER);
    const int32_t out = ta_mul_by_quantized_multiplier(data, multiplier, shift - KEEP_INTEGER) +
                        output_zero_point;
    return ta_clamp_i32(out, lo, hi);
}

#endif /* TA_INV_SQRT_H */
