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

/* TFLite's Requantize. Offsets are subtracted and added with wrap-around:
   with int32 inputs or outputs they can overflow, and TFLite's int32
   arithmetic wraps there. (int8 <-> uint8 with one scale and zero points
   128 apart, TFLite's "flip the top bit" shortcut, gives these same
   values.) */
static int32_t requantize_one(const ta_quantize_params_t *p, int32_t x, int32_t lo, int32_t hi)
{
    const int32_t offset_x = (int32_t)((uint32_t)x - (uint32_t)p->input_zero_point);
    const int32_t scaled = ta_mul_by_quantized_multiplier(offset_x, p->multiplier, (int)p->shift);
    return ta_clamp_i32((int32_t)((uint32_t)scaled + (uint32_t)p->output_zero_point), lo, hi);
}

int ta_requantize_s8_s8(const ta_quantize_params_t *p, const int8_t *input, int8_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int8_t)requantize_one(p, input[i], INT8_MIN, INT8_MAX);
    return TA_OK;
}

int ta_requantize_s8_s16(const ta_quantize_params_t *p, const int8_t *input, int16_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int16_t)requantize_one(p, input[i], INT16_MIN, INT16_MAX);
    return TA_OK;
}

int ta_requantize_s8_s32(const ta_quantize_params_t *p, const int8_t *input, int32_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = requantize_one(p, input[i], INT32_MIN, INT32_MAX);
    return TA_OK;
}

int ta_requantize_s8_u8(const ta_quantize_params_t *p, const int8_t *input, uint8_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (uint8_t)requantize_one(p, input[i], 0, UINT8_MAX);
    return TA_OK;
}

int ta_requantize_u8_s8(const ta_quantize_params_t *p, const uint8_t *input, int8_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int8_t)requantize_one(p, input[i], INT8_MIN, INT8_MAX);
    return TA_OK;
}

int ta_requantize_s16_s8(const ta_quantize_params_t *p, const int16_t *input, int8_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int8_t)requantize_one(p, input[i], INT8_MIN, INT8_MAX);
    return TA_OK;
}

int ta_requantize_s16_s16(const ta_quantize_params_t *p, const int16_t *input, int16_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int16_t)requantize_one(p, input[i], INT16_MIN, INT16_MAX);
    return TA_OK;
}

int ta_requantize_s16_s32(const ta_quantize_params_t *p, const int16_t *input, int32_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = requantize_one(p, input[i], INT32_MIN, INT32_MAX);
    return TA_OK;
}

int ta_requantize_s32_s8(const ta_quantize_params_t *p, const int32_t *input, int8_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int8_t)requantize_one(p, input[i], INT8_MIN, INT8_MAX);
    return TA_OK;
}

int ta_requantize_s32_s16(const ta_quantize_params_t *p, const int32_t *input, int16_t *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (int16_t)requantize_one(p, input[i], INT16_MIN, INT16_MAX);
    return TA_OK;
}
