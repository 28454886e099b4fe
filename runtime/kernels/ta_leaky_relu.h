/*
 * ta_leaky_relu.h - LEAKY_RELU: x >= 0 is rescaled by input/output scale,
 * x < 0 by alpha * input/output scale (a negative alpha is carried as a
 * negative multiplier and applied to |multiplier|, then negated, as
 * TFLite's QuantizeLeakyRelu).
 *
 * Per element: safe to run with output == input.
 */
#ifndef TA_LEAKY_RELU_H
#define TA_LEAKY_RELU_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_LEAKY_RELU_PARAMS(FIELD, ARRAY, ARRAY_USED)     \
    FIELD(int32_t, size)                                   \
    FIELD(int32_t, input_zero_point)                       \
    FIELD(int32_t, output_zero_point)                      \
    FIELD(int32_t, multiplier_identity)                    \
    FIELD(int32_t, shift_identity)                         \
    FIELD(int32_t, multiplier_alpha) /* may be negative */ \
    FIELD(int32_t, shift_alpha)
typedef struct {
    TA_PARAM_MEMBERS(TA_LEAKY_RELU_PARAMS)
} ta_leaky_relu_params_t;

int ta_leaky_relu_s8(const ta_leaky_relu_params_t *p, const int8_t *input, int8_t *output);
int ta_leaky_relu_s16(const ta_leaky_relu_params_t *p, const int16_t *input, int16_t *output);

#endif /* TA_LEAKY_RELU_H */
