/*
 * ta_fixedpoint.h - Q-format fixed-point helpers (int32 raw values), with
 * the same results as the gemmlowp fixed-point library TFLite's integer
 * softmax, logistic and tanh kernels are built on.
 *
 * A value with I integer bits is raw / 2^(31 - I). Products of values
 * with I and J integer bits have I + J integer bits and are computed with
 * ta_sat_rounding_doubling_high_mul. Sums wrap, as the reference does.
 */
#ifndef TA_FIXEDPOINT_H
#define TA_FIXEDPOINT_H

#include "ta_quant.h"

static inline int32_t ta_fp_add(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a + (uint32_t)b);
}

static inline int32_t ta_fp_sub(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a - (uint32_t)b);
}

static inline int32_t ta_fp_mul(int32_t a, int32_t b)
{
    return ta_sat_rounding_doubling_high_mul(a, b);
}

/* x * 2^exponent: saturating for exponent > 0, rounding for exponent < 0. */
static inline int32_t ta_fp_mul_pot(int32_t x, int exponent)
{
    if (exponent < 0)
        return ta_rounding_divide_by_pot(x, -exponent);
    if (exponent == 0)
        return x;
    const int32_t threshold = (int32_t)(((int64_t)1 << (31 - exponent)) - 1);
    if (x > threshold)
        return INT32_MAX;
    if (x < -threshold)
        return INT32_MIN;
    return ta_shift_left_wrap(x, exponent);
}

/* Changes a value from `src_bits` to `dst_bits` integer bits. */
static inline int32_t ta_fp_rescale(int32_t x, int src_bits, int dst_bits)
{
    return ta_fp_mul_pot(x, src_bits - dst_bits);
}

/* (a + b) / 2 rounded to nearest. */
static inline int32_t ta_fp_rounding_half_sum(int32_t a, int32_t b)
{
    int64_t sum = (int64_t)a + (int64_t)b;
    int64_t sign = sum >= 0 ? 1 : -1;
    return (int32_t)((sum + sign) / 2);
}

/* exp(a) for a in [-1/4, 0), a and the result with 0 integer bits. */
static inline int32_t ta_fp_exp_on_quarter_interval(int32_t a)
{
    const int32_t exp_minus_one_eighth = 1895147668; /* exp(-1/8) in Q0.31 */
    const int32_t one_third = 715827883;             /* 1/3 in Q0.31 */
    /* A Taylor expansion around -1/8: x = a + 1/8. */
    const int32_t x = ta_fp_add(a, 1 << 28);
    const int32_t x2 = ta_fp_mul(x, x);
    const int32_t x3 = ta_fp_mul(x2, x);
    const int32_t x4 = ta_fp_mul(x2, x2);
    const int32_t x4_over_4 = ta_fp_mul_pot(x4, -2);
    const int32_t poly = ta_fp_mul_pot(
        ta_fp_add(ta_fp_mul(ta_fp_add(x4_over_4, x3), one_third), x2), -1);
    return ta_fp_add(exp_minus_one_eighth, ta_fp_mul(exp_minus_one_eighth, ta_fp_add(x, poly)));
}

/* exp(a) for a <= 0 with `integer_bits` integer bits; result in Q0.31. */
static inline int32_t ta_fp_exp_on_negative_values(int32_t a, int integer_bits)
{
    /* exp(-2^k) for k = -2 .. 4, in Q0.31. */
    static const int32_t exp_of_minus_pow2[7] = {1672461947, 1302514674, 790015084, 290630308,
                                                 39332535,   720401,     242};
    const int fractional_bits = 31 - integer_bits;
    const int32_t one_quarter = (int32_t)1 << (fractional_bits - 2);
    const int32_t mask = one_quarter - 1;
    const int32_t a_mod_quarter_minus_quarter = ta_fp_sub(a & mask, one_quarter);
    int32_t result = ta_fp_exp_on_quarter_interval(
        ta_fp_rescale(a_mod_quarter_minus_quarter, integer_bits, 0));
    const int32_t remainder = ta_fp_sub(a_mod_quarter_minus_quarter, a);
    for (int k = -2; k <= 4; k++) {
        if (integer_bits > k) {
            const int shift = fractional_bits + k;
            if (remainder & (int32_t)((uint32_t)1 << shift))
                result = ta_fp_mul(result, exp_of_minus_pow2[k + 2]);
        }
    }
    if (integer_bits > 5) {
        const int32_t clamp = -(int32_t)((uint32_t)1 << (36 - integer_bits)); /* -32.0 */
        if (a < clamp)
            result = 0;
    }
    return a == 0 ? INT32_MAX : result;
}

/* 1 / (1 + a) for a in [0, 1), in Q0.31, by three Newton-Raphson steps. */
static inline int32_t ta_fp_one_over_one_plus_x(int32_t a)
{
    const int32_t half_denominator = ta_fp_rounding_half_sum(a, INT32_MAX);
    const int32_t c48_over_17 = 1515870810;     /* Q2.29 */
    const int32_t cneg32_over_17 = -1010580540; /* Q2.29 */
    const int32_t one_q2 = 1 << 29;
    int32_t x = ta_fp_add(c48_over_17, ta_fp_mul(half_denominator, cneg32_over_17));
    for (int i = 0; i < 3; i++) {
        const int32_t half_denominator_times_x = ta_fp_mul(half_denominator, x);
        const int32_t one_minus = ta_fp_sub(one_q2, half_denominator_times_x);
        x = ta_fp_add(x, ta_fp_rescale(ta_fp_mul(x, one_minus), 4, 2));
    }
    return ta_fp_rescale(x >> 1, 2, 0);
}

/* (1 - a) / (1 + a) for a in [0, 1), in Q0.31 (used by tanh). */
static inline int32_t ta_fp_one_minus_x_over_one_plus_x(int32_t a)
{
    const int32_t half_denominator = ta_fp_rounding_half_sum(a, INT32_MAX);
    const int32_t c48_over_17 = 1515870810;
    const int32_t cneg32_over_17 = -1010580540;
    const int32_t one_q2 = 1 << 29;
    int32_t x = ta_fp_add(c48_over_17, ta_fp_mul(half_denominator, cneg32_over_17));
    for (int i = 0; i < 3; i++) {
        const int32_t half_denominator_times_x = ta_fp_mul(half_denominator, x);
        const int32_t one_minus = ta_fp_sub(one_q2, half_denominator_times_x);
        x = ta_fp_add(x, ta_fp_rescale(ta_fp_mul(x, one_minus), 4, 2));
    }
    return ta_fp_rescale(ta_fp_sub(x, one_q2), 2, 0);
}

/* 1 / x for a positive x with `integer_bits` integer bits: returns the
   reciprocal in Q0.31 scaled by 2^-num_bits_over_unit. */
static inline int32_t ta_fp_reciprocal(int32_t x, int integer_bits, int *num_bits_over_unit)
{
    int headroom_plus_one = 0;
    uint32_t ux = (uint32_t)x;
    while (headroom_plus_one < 32 && !(ux & 0x80000000u)) {
        ux <<= 1;
        headroom_plus_one++;
    }
    *num_bits_over_unit = integer_bits - headroom_plus_one;
    if (headroom_plus_one >= 32) /* x == 0: no reciprocal; callers never pass it */
        return INT32_MAX;
    const int32_t shifted_minus_one = (int32_t)(((uint32_t)x << headroom_plus_one) - 0x80000000u);
    return ta_fp_one_over_one_plus_x(shifted_minus_one);
}

#endif /* TA_FIXEDPOINT_H */
