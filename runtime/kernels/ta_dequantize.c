/* ta_dequantize.c - DEQUANTIZE kernels; see the header. */
#include "ta_dequantize.h"

#include "../include/ta_status.h"

int ta_dequantize_s8_f32(const ta_dequantize_params_t *p, const int8_t *input, float *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (float)(p->scale * (double)((int32_t)input[i] - p->zero_point));
    return TA_OK;
}

int ta_dequantize_s16_f32(const ta_dequantize_params_t *p, const int16_t *input, float *output)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = (float)(p->scale * (double)((int32_t)input[i] - p->zero_point));
    return TA_OK;
}
