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

#include "../include/ta_params.h"

#include "ta_broadcast.h"

/* activation_min/max: the output dtype's range. */
#define TA_SQUARED_DIFFERENCE_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    TA_BROADCAST_PARAMS(FIELD, ARRAY, ARRAY_USED)              \
    TA_BINARY_RESCALE_PARAMS(FIELD, ARRAY, ARRAY_USED)         \
    TA_BINARY_OUTPUT_PARAMS(FIELD, ARRAY, ARRAY_USED)
typedef struct {
    TA_PARAM_MEMBERS(TA_SQUARED_DIFFERENCE_PARAMS)
} ta_squared_difference_params_t;

int ta_squared_difference_s8(const ta_squared_difference_params_t *p, const int8_t *input1,
                             const int8_t *input2, int8_t *output);
/* int16 with zero points 0 (TFLite Micro requires them). */
int ta_squared_difference_s16(const ta_squared_difference_params_t *p, const int16_t *input1,
                              const int16_t *input2, int16_t *output);

#endif /* TA_SQUARED_DIFFERENCE_H */
