/*
 * ta_add_sub.h - quantized ADD and SUB with broadcasting, as TFLite
 * Micro's general integer path:
 *
 *   x1 = rescale(in1 + input1_offset), x2 = rescale(in2 + input2_offset)
 *   out = clamp(requant(x1 +/- x2) + output_offset)
 *
 * where rescale() shifts left by left_shift (20 for int8, 15 for int16) and
 * multiplies by the input's multiplier (< 1), bringing both inputs to a
 * common scale of twice the larger input scale; requant() multiplies by
 * the output multiplier (< 1). All multipliers come from the converter.
 */
#ifndef TA_ADD_SUB_H
#define TA_ADD_SUB_H

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
    int32_t activation_min;
    int32_t activation_max;
} ta_add_params_t;

int ta_add_s8(const ta_add_params_t *p, const int8_t *input1, const int8_t *input2,
              int8_t *output);
int ta_add_s16(const ta_add_params_t *p, const int16_t *input1, const int16_t *input2,
               int16_t *output);
/* output = input1 - input2 */
int ta_sub_s8(const ta_add_params_t *p, const int8_t *input1, const int8_t *input2,
              int8_t *output);
int ta_sub_s16(const ta_add_params_t *p, const int16_t *input1, const int16_t *input2,
               int16_t *output);

#endif /* TA_ADD_SUB_H */
