/*
 * ta_mul.h - quantized MUL with broadcasting, as TFLite Micro's reference:
 *
 *   out = clamp(output_offset + requant((in1 + input1_offset) *
 *                                       (in2 + input2_offset)))
 *
 * requant() multiplies by s1 * s2 / s_out, which may exceed 1.
 */
#ifndef TA_MUL_H
#define TA_MUL_H

#include <stdint.h>

#include "../include/ta_params.h"

#include "ta_broadcast.h"

#define TA_MUL_PARAMS(FIELD, ARRAY, ARRAY_USED)     \
    TA_BROADCAST_PARAMS(FIELD, ARRAY, ARRAY_USED)   \
    FIELD(int32_t, input1_offset) /* -zero point */ \
    FIELD(int32_t, input2_offset)                   \
    TA_BINARY_OUTPUT_PARAMS(FIELD, ARRAY, ARRAY_USED)
typedef struct {
    TA_PARAM_MEMBERS(TA_MUL_PARAMS)
} ta_mul_params_t;

int ta_mul_s8(const ta_mul_params_t *p, const int8_t *input1, const int8_t *input2, int8_t *output);
/* int16 with zero points 0 (TFLite Micro requires them). */
int ta_mul_s16(const ta_mul_params_t *p, const int16_t *input1, const int16_t *input2,
               int16_t *output);

#endif /* TA_MUL_H */
