/* ta_abs.c - ABS; see the header. */
#include "ta_abs.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

static int32_t abs_quantized(const ta_abs_params_t *p, int32_t x, int32_t lo, int32_t hi)
{
    const int32_t d = x - p->input_zero_point;
    const int32_t v = d < 0 ? -d : d; /* <= 65535: no overflow */
    const int32_t scaled = p->rescale
                               ? ta_mul_by_quantized_multiplier(v, p->multiplier, (int)p->shift)
                               : v;
    return ta_clamp_i32(scaled + p->output_zero_point, lo, hi);
}

int ta_abs_s8(const ta_abs_params_t *p, const int8_t *input, int8_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int8_t)abs_quantized(p, input[i], INT8_MIN, INT8_MAX);
    return TA_OK;
}

int ta_abs_s16(const ta_abs_params_t *p, const int16_t *input, int16_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int16_t)abs_quantized(p, input[i], INT16_MIN, INT16_MAX);
    return TA_OK;
}

int ta_abs_i16(const ta_abs_params_t *p, const int16_t *input, int16_t *output)
{
    for (int32_t i = 0; i < p->size; i++) {
        /* |-32768| does not fit: TFLite's 16-bit store leaves -32768. */
        const int16_t x = input[i];
        output[i] = x == INT16_MIN ? INT16_MIN : (int16_t)(x < 0 ? -x : x);
    }
    return TA_OK;
}
