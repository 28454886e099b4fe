/* ta_hard_swish.c - HARD_SWISH; see the header. */
#include "ta_hard_swish.h"

#include "../include/ta_status.h"

/* An int value reduced to int16 with two's complement wrap-around. */
static int16_t wrap16(int32_t v)
{
    return (int16_t)(((v + 32768) & 0xFFFF) - 32768);
}

/* round(a * b / 2^15), saturating the single overflow case. */
static int16_t rounding_doubling_high_mul16(int16_t a, int16_t b)
{
    if (a == INT16_MIN && b == INT16_MIN)
        return INT16_MAX;
    const int32_t ab = (int32_t)a * b;
    const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
    return (int16_t)((ab + nudge) / (1 << 15));
}

/* a * b / 2^15 truncated toward zero (no rounding nudge). */
static int16_t doubling_high_mul16(int16_t a, int16_t b)
{
    if (a == INT16_MIN && b == INT16_MIN)
        return INT16_MAX;
    return (int16_t)(((int32_t)a * b) / (1 << 15));
}

static int16_t saturating_left_shift16(int16_t x, int amount)
{
    const int64_t v = (int64_t)x * ((int64_t)1 << amount);
    return (int16_t)(v > INT16_MAX ? INT16_MAX : (v < INT16_MIN ? INT16_MIN : v));
}

/* Rounding right shift on int16 values, 0 <= exponent <= 31. TFLite's
   16-bit version builds its mask in int16, so from exponent 16 on the mask
   is all ones; this reproduces that. */
static int16_t rounding_divide_by_pot16(int16_t x, int exponent)
{
    const int32_t mask = exponent >= 16 ? -1 : (int32_t)((1 << exponent) - 1);
    const int32_t remainder = x & mask;
    const int32_t threshold = (exponent >= 16 ? -1 : (mask >> 1)) + (x < 0 ? 1 : 0);
    const int32_t shifted = exponent >= 16 ? (x < 0 ? -1 : 0) : (x >> exponent);
    return (int16_t)(shifted + (remainder > threshold ? 1 : 0));
}

int ta_hard_swish_s8(const ta_hard_swish_params_t *p, const int8_t *input, int8_t *output)
{
    const int16_t reluish_mult = (int16_t)p->reluish_multiplier;
    const int16_t output_mult = (int16_t)p->output_multiplier;
    const int rexp = (int)p->reluish_exponent;
    for (int32_t i = 0; i < p->size; i++) {
        const int16_t x = wrap16(input[i] - p->input_zero_point);
        const int16_t hires = wrap16(x * 128);
        const int16_t preshift_out = rounding_doubling_high_mul16(hires, output_mult);
        /* Rescale to the relu-ish scale, saturating: shift left by all but
           one bit first, so that only the last shift can saturate. */
        int16_t reluish = hires;
        if (rexp > 0)
            reluish = saturating_left_shift16(reluish, rexp - 1);
        reluish = rounding_doubling_high_mul16(reluish, reluish_mult);
        if (rexp > 0)
            reluish = saturating_left_shift16(reluish, 1);
        if (rexp < 0)
            reluish = rounding_divide_by_pot16(reluish, -rexp);
        /* [-1, 1] -> [0, 1] */
        reluish = (int16_t)((reluish + (1 << 15)) >> 1);
        const int16_t pre = doubling_high_mul16(reluish, preshift_out);
        int16_t out = rounding_divide_by_pot16(pre, -(int)p->output_exponent);
        out = wrap16(out + p->output_zero_point);
        output[i] = (int8_t)(out > INT8_MAX ? INT8_MAX : (out < INT8_MIN ? INT8_MIN : out));
    }
    return TA_OK;
}
