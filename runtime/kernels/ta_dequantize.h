/* ta_dequantize.h - DEQUANTIZE: out = (float)(scale * (in - zero_point)), in double as TFLite. */
#ifndef TA_DEQUANTIZE_H
#define TA_DEQUANTIZE_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_DEQUANTIZE_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, size)                               \
    FIELD(int32_t, zero_point)                         \
    FIELD(double, scale)
typedef struct {
    TA_PARAM_MEMBERS(TA_DEQUANTIZE_PARAMS)
} ta_dequantize_params_t;

int ta_dequantize_s8_f32(const ta_dequantize_params_t *p, const int8_t *input, float *output);
int ta_dequantize_s16_f32(const ta_dequantize_params_t *p, const int16_t *input, float *output);

#endif /* TA_DEQUANTIZE_H */
