/*
 * ta_sigmoid_s8.h - TFLite Micro's int8 LOGISTIC and TANH arithmetic for
 * one element (gemmlowp-style fixed point). An int8 input has 256 values,
 * so the converter evaluates these for each into the table the int8
 * kernels look up (ta_lookup.h); no kernel runs them.
 */
#ifndef TA_SIGMOID_S8_H
#define TA_SIGMOID_S8_H

#include <stdint.h>

#include "../include/ta_fixedpoint.h"

/* The input, minus its zero point, is scaled into Q4.27. */
enum { TA_SIGMOID_S8_INPUT_BITS = 4 };

/* logistic(a) for a in Q4.27, in Q0.31. */
static inline int32_t ta_sigmoid_s8_fp_logistic(int32_t a)
{
    if (a == 0)
        return 1 << 30; /* 0.5 */
    /* 1 / (1 + exp(-|a|)), mirrored for negative a. */
    const int32_t abs_a = a > 0 ? a : -a;
    const int32_t positive = ta_fp_one_over_one_plus_x(
        ta_fp_exp_on_negative_values(-abs_a, TA_SIGMOID_S8_INPUT_BITS));
    return a > 0 ? positive : INT32_MAX - positive;
}

/* tanh(a) for a in Q4.27, in Q0.31. */
static inline int32_t ta_sigmoid_s8_fp_tanh(int32_t a)
{
    if (a == 0)
        return 0;
    /* tanh(|a|) = (1 - exp(-2|a|)) / (1 + exp(-2|a|)); -|a| read with one
       more integer bit is -2|a|. */
    const int32_t neg_abs = a < 0 ? a : -a;
    const int32_t t = ta_fp_one_minus_x_over_one_plus_x(
        ta_fp_exp_on_negative_values(neg_abs, TA_SIGMOID_S8_INPUT_BITS + 1));
    return a < 0 ? -t : t;
}

/* One int8 LOGISTIC (tanh 0; output 1/256, -128) or TANH (tanh 1; output
   1/128, 0) output: inputs beyond the radius saturate. */
static inline int8_t ta_sigmoid_s8_element(int tanh, int32_t input_zero_point,
                                           int32_t input_range_radius, int32_t input_multiplier,
                                           int32_t input_left_shift, int8_t q)
{
    const int32_t x = (int32_t)q - input_zero_point;
    if (x <= -input_range_radius)
        return INT8_MIN;
    if (x >= input_range_radius)
        return INT8_MAX;
    const int32_t q4 = ta_mul_by_quantized_multiplier(x, input_multiplier, (int)input_left_shift);
    const int32_t out = tanh ? ta_rounding_divide_by_pot(ta_sigmoid_s8_fp_tanh(q4), 31 - 7)
                             : ta_rounding_divide_by_pot(ta_sigmoid_s8_fp_logistic(q4), 31 - 8) -
                                   128;
    return (int8_t)ta_clamp_i32(out, INT8_MIN, INT8_MAX);
}

#endif /* TA_SIGMOID_S8_H */
