/*
 * ta_squared_difference.h - quantized SQUARED_DIFFERENCE with
 * broadcasting, as TFLite Micro's reference:
 *
 *   x1 = rescale(in1 + input1_offset), x2 = rescale(in2 + input2_offset)
 *   out = clamp(requant((x1 - x2)^2) + output_offset) to the dtype's range
 *
 * rescale() shifts left by left_shift (7 for int8, 0 for int16) and
 * multiplies by the input's multiplier (< 1) to a common scale of twice
 * the larger input scale; requant() may multiply by more than 1.
 */
#ifndef TA_SQUARED_DIFFERENCE_H
#define TA_SQUARED_DIFFERENCE_H

#include <stdint.h>

#include "ta_broadcast.h"

typedef struct {
    int32_t rank; /* collapsed broadcast shape: see ta_broadcast.h */
    int32_t dims[TA_BROADCAST_MAX_DIMS];
    int32_t stride1[TA_BROADCAST_MAX_DIMS];
    int32_t stride2[TA_BROADCAST_MAX_DIMS];
    int32_t left_shift;
    int32_t input1_offset; /* -zero point */
    int32_t input1_multiplier;
    int32_t input1_shift; /* <= 0 */
    int32_t input2_offset;
    int32_t input2_multiplier;
    int32_t input2_shift;
    int32_t output_offset; /* +zero point */
    int32_t output_multiplier;
    int32_t output_shift;
    int32_t activation_min; /* the output dtype's range */
    int32_t activation_max;
} ta_squared_difference_params_t;

int ta_squared_difference_s8(const ta_squared_difference_params_t *p, const int8_t *input1,
                             const int8_t *input2, int8_t *output);
/* int16 with zero points 0 (TFLite Micro requires them). */
int ta_squared_difference_s16(const ta_squared_difference_params_t *p, const int16_t *input1,
                              const int16_t *input2, int16_t *output);

#endif /* TA_SQUARED_DIFFERENCE_H */
