/*
 * ta_binary_f32.h - ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM,
 * SQUARED_DIFFERENCE and PRELU on float32 tensors, with broadcasting, as TFLite
 * Micro's float reference kernels compute each element:
 *   ADD, SUB, MUL, DIV: one float operation, then the fused activation's
 *     clamp (ta_activation_f32); DIV by zero gives IEEE inf/NaN as there;
 *   MAXIMUM, MINIMUM: std::max / std::min (the comparison's order decides
 *     which operand a NaN or a signed zero comes from), no clamp;
 *   SQUARED_DIFFERENCE: d = x - y, then d * d, no clamp;
 *   PRELU (input 2 the alpha): x >= 0 ? x : x * alpha, no clamp.
 * Modules are built with -ffp-contract=off, so d * d is never fused.
 */
#ifndef TA_BINARY_F32_H
#define TA_BINARY_F32_H

#include <stdint.h>

#include "../include/ta_params.h"

#include "ta_broadcast.h"

#define TA_BINARY_F32_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    TA_BROADCAST_PARAMS(FIELD, ARRAY, ARRAY_USED)      \
    FIELD(float, activation_min)                       \
    FIELD(float, activation_max)
typedef struct {
    TA_PARAM_MEMBERS(TA_BINARY_F32_PARAMS)
} ta_binary_f32_params_t;

int ta_add_f32(const ta_binary_f32_params_t *p, const float *input1, const float *input2,
               float *output);
int ta_sub_f32(const ta_binary_f32_params_t *p, const float *input1, const float *input2,
               float *output);
int ta_mul_f32(const ta_binary_f32_params_t *p, const float *input1, const float *input2,
               float *output);
int ta_div_f32(const ta_binary_f32_params_t *p, const float *input1, const float *input2,
               float *output);
int ta_maximum_f32(const ta_binary_f32_params_t *p, const float *input1, const float *input2,
                   float *output);
int ta_minimum_f32(const ta_binary_f32_params_t *p, const float *input1, const float *input2,
                   float *output);
int ta_squared_difference_f32(const ta_binary_f32_params_t *p, const float *input1,
                              const float *input2, float *output);

int ta_prelu_f32(const ta_binary_f32_params_t *p, const float *input1, const float *input2,
                 float *output);

#endif /* TA_BINARY_F32_H */
