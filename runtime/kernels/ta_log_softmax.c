/* ta_log_softmax.c - integer LOG_SOFTMAX; see the header. */
#include "ta_log_softmax.h"

#include "../include/ta_fixedpoint.h"
#include "../include/ta_status.h"

#include <stddef.h>

enum { SCALED_DIFF_BITS = 5, ACCUM_BITS = 12, OUTPUT_BITS = 4 };

static int32_t saturating_add(int32_t a, int32_t b)
{
    const int64_t s = (int64_t)a + b;
    return (int32_t)(s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : s));
}

static int32_t saturating_sub(int32_t a, int32_t b)
{
    const int64_t s = (int64_t)a - b;
    return (int32_t)(s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : s));
}

static int count_leading_zeros(uint32_t x)
{
    int n = 0;
    while (n < 32 && !(x & 0x80000000u)) {
        x <<= 1;
        n++;
    }
    return n;
}

/*
 * log(x) for x >= 1 with 12 integer bits, result with 5 integer bits, as
 * TFLite's log_x_for_x_greater_than_or_equal_to_1: x = 2^k * r with r
 * normalised around sqrt(sqrt(1/2)); log(r) from a rational approximation,
 * k * log(2) added in a 6-integer-bit accumulator.
 */
static int32_t log_x_q5(int32_t x)
{
    enum { IN_BITS = ACCUM_BITS, OUT_BITS = SCALED_DIFF_BITS, ACC = SCALED_DIFF_BITS + 1 };
    const int32_t log_2 = 1488522236; /* Q0.31 */
    const int32_t sqrt_sqrt_half = 1805811301;
    const int32_t sqrt_half = 1518500250;
    const int32_t one_quarter = 536870912;
    const int32_t alpha_n = 117049297;  /* 11/240 * 2^(1/4) */
    const int32_t alpha_d = 127690142;  /* 1/20 * 2^(1/4) */
    const int32_t alpha_i = 1057819769; /* 2 / 2^(1/4) - 2^(1/4) */
    const int32_t alpha_f = 638450708;  /* 1/4 * 2^(1/4) */
    const int32_t shifted_quarter = ta_fp_rescale(one_quarter, 0, ACC);

    /* Two normalisations, x and x * sqrt(1/2); the better one is kept. */
    const int a_headroom_plus_1 = count_leading_zeros((uint32_t)x);
    const int32_t r_a_tmp = ta_fp_mul_pot(x, a_headroom_plus_1 - 1);
    const int32_t r_a = ta_fp_mul_pot(ta_fp_mul(r_a_tmp, sqrt_half), 1);
    const int32_t a_pow2 = saturating_add(ta_fp_mul_pot(IN_BITS - a_headroom_plus_1, 31 - ACC),
                                          shifted_quarter);
    const int32_t z_b = ta_fp_mul(x, sqrt_half);
    const int b_headroom = count_leading_zeros((uint32_t)z_b) - 1;
    const int32_t r_b = ta_fp_mul_pot(x, b_headroom);
    const int32_t b_pow2 = saturating_sub(ta_fp_mul_pot(IN_BITS - b_headroom, 31 - ACC),
                                          shifted_quarter);
    const int32_t r = r_a < r_b ? r_a : r_b;
    const int32_t pow2 = a_pow2 > b_pow2 ? a_pow2 : b_pow2;

    const int32_t p = ta_fp_rounding_half_sum(r, sqrt_sqrt_half);
    int32_t q = ta_fp_sub(r, sqrt_sqrt_half);
    q = ta_fp_add(q, q);
    const int32_t q2 = ta_fp_mul(q, q);
    const int32_t num = ta_fp_add(ta_fp_mul(q, r), ta_fp_mul(ta_fp_mul(q, q2), alpha_n));
    const int32_t denom_minus_one = ta_fp_add(
        ta_fp_mul(p, ta_fp_add(ta_fp_add(alpha_i, q), ta_fp_mul(alpha_d, q2))),
        ta_fp_mul(alpha_f, q));
    const int32_t recip_denom = ta_fp_one_over_one_plus_x(denom_minus_one);
    const int32_t num_scaled = ta_fp_rescale(num, 0, ACC);
    return ta_fp_rescale(ta_fp_add(ta_fp_mul(pow2, log_2), ta_fp_mul(num_scaled, recip_denom)), ACC,
                         OUT_BITS);
}

int ta_log_softmax_s8(const ta_log_softmax_params_t *p, const int8_t *input, int8_t *output)
{
    const int shift = (int)p->input_left_shift;
    for (int32_t i = 0; i < p->outer_size; i++) {
        const int8_t *in = input + (size_t)i * (size_t)p->depth;
        int8_t *out = output + (size_t)i * (size_t)p->depth;
        int8_t max = INT8_MIN;
        for (int32_t c = 0; c < p->depth; c++)
            max = in[c] > max ? in[c] : max;

        int32_t sum = 0; /* Q12.19 */
        for (int32_t c = 0; c < p->depth; c++) {
            const int32_t diff = (int32_t)in[c] - max;
            if (diff >= p->diff_min) {
                const int32_t q5 = ta_mul_by_quantized_multiplier(diff, p->input_multiplier, shift);
                sum = ta_fp_add(sum,
                                ta_fp_rescale(ta_fp_exp_on_negative_values(q5, SCALED_DIFF_BITS), 0,
                                              ACCUM_BITS));
            }
        }
        const int32_t log_sum = log_x_q5(sum);

        /* The most negative Q5.26 value plus the log-sum, in input units. */
        const int32_t reversed = ta_mul_by_quantized_multiplier(
            ta_fp_add(log_sum, INT32_MIN), p->reverse_scaling_divisor,
            -(int)p->reverse_scaling_right_shift);
        const int32_t adjusted_diff_min = reversed > p->diff_min - 1 ? reversed : p->diff_min - 1;

        for (int32_t c = 0; c < p->depth; c++) {
            const int32_t diff = (int32_t)in[c] - max;
            if (diff > adjusted_diff_min) {
                const int32_t q5 = ta_mul_by_quantized_multiplier(diff, p->input_multiplier, shift);
                /* Q5.26 -> the output's 16/256 steps, offset by 127. */
                const int32_t o = ta_rounding_divide_by_pot(ta_fp_sub(q5, log_sum),
                                                            31 - SCALED_DIFF_BITS - OUTPUT_BITS) +
                                  INT8_MAX;
                out[c] = (int8_t)ta_clamp_i32(o, INT8_MIN, INT8_MAX);
            } else {
                out[c] = INT8_MIN;
            }
        }
    }
    return TA_OK;
}
