/* ta_leaky_relu.c - LEAKY_RELU; see the header. */
#include "ta_leaky_relu.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

static int32_t leaky_one(const ta_leaky_relu_params_t *p, int32_t x, int32_t lo, int32_t hi)
{
    const int32_t v = x - p->input_zero_point;
    int32_t out = p->output_zero_point;
    if (v >= 0) {
        out += ta_mul_by_quantized_multiplier(v, p->multiplier_identity, (int)p->shift_identity);
    } else {
        /* The converter rejects INT32_MIN, so the negation is defined. */
        const int negative = p->multiplier_alpha < 0;
        const int32_t m = negative ? -p->multiplier_alpha : p->multiplier_alpha;
        const int32_t scaled = ta_mul_by_quantized_multiplier(v, m, (int)p->shift_alpha);
        out += negative ? -scaled : scaled;
    }
    return ta_clamp_i32(out, lo, hi);
}

int ta_leaky_relu_s8(const ta_leaky_relu_params_t *p, const int8_t *input, int8_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int8_t)leaky_one(p, input[i], INT8_MIN, INT8_MAX);
    return TA_OK;
}

int ta_leaky_relu_s16(const ta_leaky_relu_params_t *p, const int16_t *input, int16_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int16_t)leaky_one(p, input[i], INT16_MIN, INT16_MAX);
    return TA_OK;
}
