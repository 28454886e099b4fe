/* ta_quantize.c - QUANTIZE kernels; see the header. */
#include "ta_quantize.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include <math.h>

/* round(x / scale) + zero_point, saturated to [lo, hi]. The division is in
   float and rounds half away from zero, as TFLite's AffineQuantize. */
static int32_t quantize_one(float x, float scale, int32_t zero_point, int32_t lo, int32_t hi)
{
    const float q = roundf(x / scale);
    /* Saturate before converting: converting an out-of-range float to an
       integer is undefined in C. */
    if (!(q > -2147483648.0f))
        return lo;
    if (q >= 2147483648.0f)
        return hi;
    int64_t v = (int64_t)(int32_t)q + zero_point;
    return v < lo ? lo : (v > hi ? hi : (int32_t)v);
}

int ta_quantize_f32_s8(const ta_quantize_params_t *p, const float *input, int8_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int8_t)quantize_one(input[i], p->scale, p->output_zero_point, INT8_MIN,
                                         INT8_MAX);
    return TA_OK;
}

int ta_quantize_f32_s16(const ta_quantize_params_t *p, const float *input, int16_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int16_t)quantize_one(input[i], p->scale, p->output_zero_point, INT16_MIN,
                                          INT16_MAX);
    return TA_OK;
}

static int32_t requantize_one(const ta_quantize_params_t *p, int32_t x, int32_t lo, int32_t hi)
{
    const int32_t out = ta_mul_by_quantized_multiplier(x - p->input_zero_point, p->multiplier,
                                                       (int)p->shift) +
                        p->output_zero_point;
    return ta_clamp_i32(out, lo, hi);
}

#define DEFINE_REQUANTIZE(name, in_t, out_t, lo, hi)                          \
    int name(const ta_quantize_params_t *p, const in_t *input, out_t *output) \
    {                                                                         \
        for (int32_t i = 0; i < p->size; i++)                                 \
            output[i] = (out_t)requantize_one(p, input[i], lo, hi);           \
        return TA_OK;                                                         \
    }

DEFINE_REQUANTIZE(ta_requantize_s8_s8, int8_t, int8_t, INT8_MIN, INT8_MAX)
DEFINE_REQUANTIZE(ta_requantize_s8_s16, int8_t, int16_t, INT16_MIN, INT16_MAX)
DEFINE_REQUANTIZE(ta_requantize_s16_s8, int16_t, int8_t, INT8_MIN, INT8_MAX)
DEFINE_REQUANTIZE(ta_requantize_s16_s16, int16_t, int16_t, INT16_MIN, INT16_MAX)
DEFINE_REQUANTIZE(ta_requantize_s8_s32, int8_t, int32_t, INT32_MIN, INT32_MAX)
DEFINE_REQUANTIZE(ta_requantize_s16_s32, int16_t, int32_t, INT32_MIN, INT32_MAX)
