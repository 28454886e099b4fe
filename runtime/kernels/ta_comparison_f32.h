/*
 * ta_comparison_f32.h - LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, EQUAL and
 * NOT_EQUAL on float32 with broadcasting, bool output, as TFLite Micro's
 * float comparisons (one C comparison per element, no rescaling).
 *
 * `mask` is the integer kernel's (ta_comparison.h): bit 0 gives the
 * output when x1 < x2, bit 1 when x1 == x2, bit 2 when x1 > x2. When
 * neither holds (a NaN operand) every comparison is false but NOT_EQUAL
 * (mask 5), which is true, as the IEEE comparisons the reference makes.
 */
#ifndef TA_COMPARISON_F32_H
#define TA_COMPARISON_F32_H

#include <stdbool.h>
#include <stdint.h>

#include "../include/ta_params.h"

#include "ta_broadcast.h"

#define TA_COMPARISON_F32_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    TA_BROADCAST_PARAMS(FIELD, ARRAY, ARRAY_USED)          \
    FIELD(int32_t, mask)
typedef struct {
    TA_PARAM_MEMBERS(TA_COMPARISON_F32_PARAMS)
} ta_comparison_f32_params_t;

int ta_comparison_f32(const ta_comparison_f32_params_t *p, const float *input1, const float *input2,
                      bool *output);

#endif /* TA_COMPARISON_F32_H */
