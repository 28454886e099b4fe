/* ta_dequantize.h - DEQUANTIZE: out = (float)(scale * (in - zero_point)), in double as TFLite. */
#ifndef TA_DEQUANTIZE_H
#define TA_DEQUANTIZE_H

#include <stdint.h>

typedef struct {
    int32_t size;
    int32_t zero_point;
    double scale;
} ta_dequantize_params_t;

int ta_dequantize_s8_f32(const ta_dequantize_params_t *p, const int8_t *input, float *output);
int ta_dequantize_s16_f32(const ta_dequantize_params_t *p, const int16_t *input, float *output);

#endif /* TA_DEQUANTIZE_H */
