/*
 * ta_quant.h - integer requantization, bit for bit as TFLite computes it.
 *
 * A real multiplier M is carried as (multiplier, shift) with
 * M = multiplier * 2^(shift - 31), multiplier in [2^30, 2^31). The
 * converter computes both at conversion time; kernels only apply them.
 *
 * The functions follow TFLite's default ("double rounding") build: a
 * rounding doubling high multiply followed by a rounding right shift.
 * Right shifts of negative values are arithmetic, as on every compiler
 * this runtime targets (gcc, clang, armclang).
 */
#ifndef TA_QUANT_H
#define TA_QUANT_H

#include <stdint.h>

/* round(a * b / 2^31), saturating the single overflow case. TFLite's
   nudge (1 - 2^30 for negative products, then division toward zero)
   rounds ties toward +infinity, which is floor((ab + 2^30) / 2^31): one
   arithmetic shift instead of a 64-bit division. */
static inline int32_t ta_sat_rounding_doubling_high_mul(int32_t a, int32_t b)
{
    if (a == b && a == INT32_MIN)
        return INT32_MAX;
    const int64_t ab = (int64_t)a * (int64_t)b;
    return (int32_t)((ab + ((int64_t)1 << 30)) >> 31);
}

/* x / 2^exponent rounded to nearest, ties away from zero. 0 <= exponent <= 31. */
static inline int32_t ta_rounding_divide_by_pot(int32_t x, int exponent)
{
    const int32_t mask = (int32_t)(((int64_t)1 << exponent) - 1);
    const int32_t remainder = x & mask;
    const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
    return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/* x * 2^shift_left with two's complement wrap-around, as TFLite's kernels
   (which disable overflow checks there) behave. */
static inline int32_t ta_shift_left_wrap(int32_t x, int shift)
{
    return (int32_t)((uint32_t)x << shift);
}

/* x * M for M = multiplier * 2^(shift - 31); the int32 form. */
static inline int32_t ta_mul_by_quantized_multiplier(int32_t x, int32_t multiplier, int shift)
{
    const int left = shift > 0 ? shift : 0;
    const int right = shift > 0 ? 0 : -shift;
    return ta_rounding_divide_by_pot(
        ta_sat_rounding_doubling_high_mul(ta_shift_left_wrap(x, left), multiplier), right);
}

/* The int64-accumulator form TFLite uses with int64 biases (16x8 kernels):
   the multiplier is reduced to 16 bits and a single rounding shift applied. */
static inline int32_t ta_mul_by_quantized_multiplier_64(int64_t x, int32_t multiplier, int shift)
{
    const int32_t reduced = multiplier < 0x7FFF0000 ? ((multiplier + (1 << 15)) >> 16) : 0x7FFF;
    const int total_shift = 15 - shift;
    const int64_t rounded = x * (int64_t)reduced + ((int64_t)1 << (total_shift - 1));
    return (int32_t)(rounded >> total_shift);
}

/* x * M for M >= 1 (shift >= 0): TFLite's "greater than one" form. */
static inline int32_t ta_mul_by_quantized_multiplier_gt_one(int32_t x, int32_t multiplier,
                                                            int left_shift)
{
    return ta_sat_rounding_doubling_high_mul(ta_shift_left_wrap(x, left_shift), multiplier);
}

/* x * M for M < 1 (shift <= 0): TFLite's "smaller than one" form. */
static inline int32_t ta_mul_by_quantized_multiplier_lt_one(int32_t x, int32_t multiplier,
                                                            int shift)
{
    return ta_rounding_divide_by_pot(ta_sat_rounding_doubling_high_mul(x, multiplier), -shift);
}

/* max(x, lo) then min(.., hi): TFLite's order, which matters if lo > hi. */
static inline int32_t ta_clamp_i32(int32_t x, int32_t lo, int32_t hi)
{
    x = x < lo ? lo : x;
    return x > hi ? hi : x;
}

#endif /* TA_QUANT_H */
