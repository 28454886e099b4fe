/* ta_logistic.c - integer LOGISTIC; see the header. */
#include "ta_logistic.h"

#include "../include/ta_fixedpoint.h"
#include "../include/ta_status.h"
#include "ta_sigmoid_table.h"

enum { INPUT_INTEGER_BITS = 4 };

/* logistic(a) for a with 4 integer bits, in Q0.31 (gemmlowp's logistic). */
static int32_t fp_logistic(int32_t a)
{
    if (a == 0)
        return 1 << 30; /* 0.5 */
    /* 1 / (1 + exp(-|a|)), mirrored for negative a. */
    const int32_t abs_a = a > 0 ? a : -a;
    const int32_t positive =
        ta_fp_one_over_one_plus_x(ta_fp_exp_on_negative_values(-abs_a, INPUT_INTEGER_BITS));
    return a > 0 ? positive : INT32_MAX - positive;
}

int ta_logistic_s8(const ta_logistic_params_t *p, const int8_t *input, int8_t *output)
{
    for (int32_t i = 0; i < p->size; i++) {
        const int32_t x = (int32_t)input[i] - p->input_zero_point;
        if (x <= -p->input_range_radius) {
            output[i] = INT8_MIN;
        } else if (x >= p->input_range_radius) {
            output[i] = INT8_MAX;
        } else {
            const int32_t q4 = ta_mul_by_quantized_multiplier(x, p->input_multiplier,
                                                              (int)p->input_left_shift);
            /* Q0.31 -> 1/256 steps, offset by the zero point -128. */
            const int32_t out = ta_rounding_divide_by_pot(fp_logistic(q4), 31 - 8) - 128;
            output[i] = (int8_t)ta_clamp_i32(out, INT8_MIN, INT8_MAX);
        }
    }
    return TA_OK;
}

int ta_logistic_s16(const ta_logistic_params_t *p, const int16_t *input, int16_t *output)
{
    const int shift = (int)p->input_left_shift;
    const int32_t round = shift > 0 ? (int32_t)1 << (shift - 1) : 0;
    for (int32_t i = 0; i < p->size; i++) {
        /* The converter bounds multiplier and shift so this cannot overflow. */
        const int32_t x = ((int32_t)input[i] * p->input_multiplier + round) >> shift;
        const uint32_t ax = (uint32_t)(x < 0 ? -x : x);
        /* 9 fraction bits between table entries. */
        const uint32_t index = ax >> 9;
        uint32_t r;
        if (index >= 255) {
            r = (uint32_t)0x7FFF << 10;
        } else {
            const uint32_t a = ta_sigmoid_table_u16[index];
            const uint32_t b = ta_sigmoid_table_u16[index + 1];
            r = (a << 9) + (ax & 0x1FF) * (b - a);
        }
        /* sigmoid(-x) = 1 - sigmoid(x), rounded as TFLite does. */
        r = x >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1;
        output[i] = (int16_t)(r >> 10);
    }
    return TA_OK;
}
