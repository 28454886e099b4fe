/*
 * ta_abs.h - ABS on int8 and int16, as TFLite Micro's elementwise kernel:
 *
 *   quantized:    v = |in - input_zero_point|, then v + output_zero_point
 *                 (rescale 0: equal scales) or requant(v) + output_zero_point
 *                 (rescale 1), clamped to the dtype;
 *   plain int16:  |in| in int arithmetic stored back in 16 bits, so
 *                 |-32768| wraps to -32768 as in TFLite's unquantized path.
 *
 * Per element: safe to run with output == input.
 */
#ifndef TA_ABS_H
#define TA_ABS_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_ABS_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, size)                        \
    FIELD(int32_t, input_zero_point)            \
    FIELD(int32_t, output_zero_point)           \
    FIELD(int32_t, rescale) /* 0 or 1 */        \
    FIELD(int32_t, multiplier)                  \
    FIELD(int32_t, shift)
typedef struct {
    TA_PARAM_MEMBERS(TA_ABS_PARAMS)
} ta_abs_params_t;

int ta_abs_s8(const ta_abs_params_t *p, const int8_t *input, int8_t *output);
int ta_abs_s16(const ta_abs_params_t *p, const int16_t *input, int16_t *output);
int ta_abs_i16(const ta_abs_params_t *p, const int16_t *input, int16_t *output);

#endif /* TA_ABS_H */
