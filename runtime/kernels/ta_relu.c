/* ta_relu.c - RELU and RELU6; see the header. */
#include "ta_relu.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

static int32_t relu_one(const ta_relu_params_t *p, int32_t x)
{
    const int32_t scaled = p->output_zero_point +
                           ta_mul_by_quantized_multiplier(x - p->input_zero_point, p->multiplier,
                                                          (int)p->shift);
    return ta_clamp_i32(scaled, p->activation_min, p->activation_max);
}

int ta_relu_s8(const ta_relu_params_t *p, const int8_t *input, int8_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int8_t)relu_one(p, input[i]);
    return TA_OK;
}

int ta_relu_s16(const ta_relu_params_t *p, const int16_t *input, int16_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int16_t)relu_one(p, input[i]);
    return TA_OK;
}

/* TFLite's order: the upper bound is tested first. */
static int32_t relu6_one(const ta_relu6_params_t *p, int32_t x)
{
    return x > p->upper ? p->upper : (x < p->lower ? p->lower : x);
}

int ta_relu6_s8(const ta_relu6_params_t *p, const int8_t *input, int8_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int8_t)relu6_one(p, input[i]);
    return TA_OK;
}

int ta_relu6_s16(const ta_relu6_params_t *p, const int16_t *input, int16_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int16_t)relu6_one(p, input[i]);
    return TA_OK;
}
