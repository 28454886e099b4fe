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

#include "ta_broadcast.h"

typedef struct {
    int32_t rank; /* collapsed broadcast shape: see ta_broadcast.h */
    int32_t dims[TA_BROADCAST_MAX_DIMS];
    int32_t stride1[TA_BROADCAST_MAX_DIMS];
    int32_t stride2[TA_BROADCAST_MAX_DIMS];
    int32_t input1_offset; /* -zero point */
    int32_t input2_offset;
    int32_t output_offset; /* +zero point */
    int32_t output_multiplier;
    int32_t output_shift;
    int32_t activation_min;
    int32_t activation_max;
} ta_mul_params_t;

int ta_mul_s8(const ta_mul_params_t *p, const int8_t *input1, const int8_t *input2,
              int8_t *output);
/* int16 with zero points 0 (TFLite Micro requires them). */
int ta_mul_s16(const ta_mul_params_t *p, const int16_t *input1, const int16_t *input2,
               int16_t *output);

#endif /* TA_MUL_H */
