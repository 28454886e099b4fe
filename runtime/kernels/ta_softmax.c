/* ta_softmax.c - integer SOFTMAX; see the header. */
#include "ta_softmax.h"

#include "../include/ta_fixedpoint.h"
#include "../include/ta_status.h"

#include <stddef.h>

enum { SCALED_DIFF_BITS = 5, ACCUM_BITS = 12 };

typedef struct {
    int8_t max;
    int32_t scale; /* reciprocal of the sum of exps, Q0.31 */
    int exponent;  /* final rounding shift */
} row_stats_t;

/* exp((x - max) * beta * input_scale) in Q0.31, for diff >= diff_min. */
static int32_t scaled_exp(const ta_softmax_params_t *p, int32_t diff)
{
    const int32_t scaled = ta_mul_by_quantized_multiplier_gt_one(diff, p->input_multiplier,
                                                                 (int)p->input_left_shift);
    return ta_fp_exp_on_negative_values(scaled, SCALED_DIFF_BITS);
}

static row_stats_t row_stats(const ta_softmax_params_t *p, const int8_t *in, int out_bits)
{
    row_stats_t st;
    st.max = INT8_MIN;
    for (int32_t c = 0; c < p->depth; c++)
        st.max = in[c] > st.max ? in[c] : st.max;

    int32_t sum = 0; /* Q12.19 */
    for (int32_t c = 0; c < p->depth; c++) {
        const int32_t diff = (int32_t)in[c] - st.max;
        if (diff >= p->diff_min)
            sum = ta_fp_add(sum, ta_fp_rescale(scaled_exp(p, diff), 0, ACCUM_BITS));
    }
    int bits_over_unit;
    st.scale = ta_fp_reciprocal(sum, ACCUM_BITS, &bits_over_unit);
    st.exponent = bits_over_unit + 31 - out_bits;
    return st;
}

/* The output of one element, offset so that 0.0 maps to out_min. */
static int32_t element(const ta_softmax_params_t *p, const row_stats_t *st, int8_t x,
                       int32_t out_min, int32_t out_max)
{
    const int32_t diff = (int32_t)x - st->max;
    if (diff < p->diff_min)
        return out_min;
    const int32_t unsat =
        ta_rounding_divide_by_pot(ta_fp_mul(st->scale, scaled_exp(p, diff)), st->exponent);
    return ta_clamp_i32(unsat + out_min, out_min, out_max);
}

int ta_softmax_s8(const ta_softmax_params_t *p, const int8_t *input, int8_t *output)
{
    for (int32_t i = 0; i < p->outer_size; i++) {
        const int8_t *in = input + (size_t)i * (size_t)p->depth;
        int8_t *out = output + (size_t)i * (size_t)p->depth;
        const row_stats_t st = row_stats(p, in, 8);
        if (st.exponent < 0 || st.exponent > 31)
            return TA_ERR_KERNEL;
        for (int32_t c = 0; c < p->depth; c++)
            out[c] = (int8_t)element(p, &st, in[c], INT8_MIN, INT8_MAX);
    }
    return TA_OK;
}

int ta_softmax_s8_s16(const ta_softmax_params_t *p, const int8_t *input, int16_t *output)
{
    for (int32_t i = 0; i < p->outer_size; i++) {
        const int8_t *in = input + (size_t)i * (size_t)p->depth;
        int16_t *out = output + (size_t)i * (size_t)p->depth;
        const row_stats_t st = row_stats(p, in, 16);
        if (st.exponent < 0 || st.exponent > 31)
            return TA_ERR_KERNEL;
        for (int32_t c = 0; c < p->depth; c++)
            out[c] = (int16_t)element(p, &st, in[c], INT16_MIN, INT16_MAX);
    }
    return TA_OK;
}
