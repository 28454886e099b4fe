/* ta_tanh.c - integer TANH; see the header. */
#include "ta_tanh.h"

#include "../include/ta_fixedpoint.h"
#include "../include/ta_status.h"
#include "ta_sigmoid_table.h"

enum { INPUT_INTEGER_BITS = 4 };

/* tanh(a) for a with 4 integer bits, in Q0.31 (gemmlowp's tanh). */
static int32_t fp_tanh(int32_t a)
{
    if (a == 0)
        return 0;
    /* tanh(|a|) = (1 - exp(-2|a|)) / (1 + exp(-2|a|)); -|a| read with one
       more integer bit is -2|a|. */
    const int32_t neg_abs = a < 0 ? a : -a;
    const int32_t t = ta_fp_one_minus_x_over_one_plus_x(
        ta_fp_exp_on_negative_values(neg_abs, INPUT_INTEGER_BITS + 1));
    return a < 0 ? -t : t;
}

int ta_tanh_s8(const ta_tanh_params_t *p, const int8_t *input, int8_t *output)
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
            /* Q0.31 -> 1/128 steps. */
            const int32_t out = ta_rounding_divide_by_pot(fp_tanh(q4), 31 - 7);
            output[i] = (int8_t)ta_clamp_i32(out, INT8_MIN, INT8_MAX);
        }
    }
    return TA_OK;
}

int ta_tanh_s16(const ta_tanh_params_t *p, const int16_t *input, int16_t *output)
{
    const int shift = (int)p->input_left_shift;
    const int32_t round = shift > 0 ? (int32_t)1 << (shift - 1) : 0;
    for (int32_t i = 0; i < p->size; i++) {
        /* The converter bounds multiplier and shift so this cannot overflow. */
        const int32_t x = ((int32_t)input[i] * p->input_multiplier + round) >> shift;
        const uint32_t ax = (uint32_t)(x < 0 ? -x : x);
        /* 8 fraction bits between table entries: the table is read at 2x. */
        const uint32_t index = ax >> 8;
        int32_t r;
        if (index >= 255) {
            r = 0xFFFF << 8;
        } else {
            const uint32_t a = ta_sigmoid_table_u16[index];
            const uint32_t b = ta_sigmoid_table_u16[index + 1];
            r = (int32_t)((a << 8) + (ax & 0xFF) * (b - a));
        }
        /* 2 * sigmoid - 1, mirrored for negative x, rounded as TFLite. */
        r = x >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
        output[i] = (int16_t)(r >> 8);
    }
    return TA_OK;
}
