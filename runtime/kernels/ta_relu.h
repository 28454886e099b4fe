/*
 * ta_relu.h - RELU (with requantization to the output scale) and RELU6
 * (a clamp in the input's quantization, as TFLite Micro does).
 *
 * Each output element depends only on the same input element: safe to run
 * with output == input.
 */
#ifndef TA_RELU_H
#define TA_RELU_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_RELU_PARAMS(FIELD, ARRAY, ARRAY_USED)                          \
    FIELD(int32_t, size) /* elements */                                   \
    FIELD(int32_t, input_zero_point)                                      \
    FIELD(int32_t, output_zero_point)                                     \
    FIELD(int32_t, multiplier) /* input_scale / output_scale */           \
    FIELD(int32_t, shift)                                                 \
    FIELD(int32_t, activation_min) /* max(type min, output zero point) */ \
    FIELD(int32_t, activation_max)
typedef struct {
    TA_PARAM_MEMBERS(TA_RELU_PARAMS)
} ta_relu_params_t;

int ta_relu_s8(const ta_relu_params_t *p, const int8_t *input, int8_t *output);
int ta_relu_s16(const ta_relu_params_t *p, const int16_t *input, int16_t *output);

#define TA_RELU6_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, size)                          \
    FIELD(int32_t, lower) /* quantized 0 */       \
    FIELD(int32_t, upper) /* quantized 6, saturated to the type */
typedef struct {
    TA_PARAM_MEMBERS(TA_RELU6_PARAMS)
} ta_relu6_params_t;

int ta_relu6_s8(const ta_relu6_params_t *p, const int8_t *input, int8_t *output);
int ta_relu6_s16(const ta_relu6_params_t *p, const int16_t *input, int16_t *output);

#endif /* TA_RELU_H */
