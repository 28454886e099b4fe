/*
 * ta_quantize.h - QUANTIZE: float to integer, and requantization between
 * integer scales (out = requant(in - input_zero_point) + output_zero_point)
 * for the pairs TFLite Micro runs: int8 to int8/uint8/int16/int32, uint8
 * to int8, int16 to int8/int16/int32, int32 to int8/int16.
 */
#ifndef TA_QUANTIZE_H
#define TA_QUANTIZE_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_QUANTIZE_PARAMS(FIELD, ARRAY, ARRAY_USED)                            \
    FIELD(int32_t, size) /* elements */                                         \
    FIELD(float, scale)  /* output scale (float input only) */                  \
    FIELD(int32_t, input_zero_point)                                            \
    FIELD(int32_t, output_zero_point)                                           \
    FIELD(int32_t, multiplier) /* input_scale / output_scale (integer input) */ \
    FIELD(int32_t, shift)
typedef struct {
    TA_PARAM_MEMBERS(TA_QUANTIZE_PARAMS)
} ta_quantize_params_t;

int ta_quantize_f32_s8(const ta_quantize_params_t *p, const float *input, int8_t *output);
int ta_quantize_f32_s16(const ta_quantize_params_t *p, const float *input, int16_t *output);
int ta_requantize_s8_s8(const ta_quantize_params_t *p, const int8_t *input, int8_t *output);
int ta_requantize_s8_s16(const ta_quantize_params_t *p, const int8_t *input, int16_t *output);
int ta_requantize_s8_s32(const ta_quantize_params_t *p, const int8_t *input, int32_t *output);
int ta_requantize_s8_u8(const ta_quantize_params_t *p, const int8_t *input, uint8_t *output);
int ta_requantize_u8_s8(const ta_quantize_params_t *p, const uint8_t *input, int8_t *output);
int ta_requantize_s16_s8(const ta_quantize_params_t *p, const int16_t *input, int8_t *output);
int ta_requantize_s16_s16(const ta_quantize_params_t *p, const int16_t *input, int16_t *output);
int ta_requantize_s16_s32(const ta_quantize_params_t *p, const int16_t *input, int32_t *output);
int ta_requantize_s32_s8(const ta_quantize_params_t *p, const int32_t *input, int8_t *output);
int ta_requantize_s32_s16(const ta_quantize_params_t *p, const int32_t *input, int16_t *output);

#endif /* TA_QUANTIZE_H */
