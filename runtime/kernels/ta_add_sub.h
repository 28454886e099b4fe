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

#include "../include/ta_params.h"

#include "ta_broadcast.h"

#define TA_ADD_PARAMS(FIELD, ARRAY, ARRAY_USED)        \
    TA_BROADCAST_PARAMS(FIELD, ARRAY, ARRAY_USED)      \
    TA_BINARY_RESCALE_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    TA_BINARY_OUTPUT_PARAMS(FIELD, ARRAY, ARRAY_USED)
typedef struct {
    TA_PARAM_MEMBERS(TA_ADD_PARAMS)
} ta_add_params_t;

int ta_add_s8(const ta_add_params_t *p, const int8_t *input1, const int8_t *input2, int8_t *output);
int ta_add_s16(const ta_add_params_t *p, const int16_t *input1, const int16_t *input2,
               int16_t *output);
/* output = input1 - input2 */
int ta_sub_s8(const ta_add_params_t *p, const int8_t *input1, const int8_t *input2, int8_t *output);
int ta_sub_s16(const ta_add_params_t *p, const int16_t *input1, const int16_t *input2,
               int16_t *output);

/* output = input1 + input2 over n same-shaped int8 elements (no
   broadcast: p's rank, dims and strides are not read); the bytes of
   ta_add_s8 on those elements. For a fused residual ADD (ta_conv_2d_add.c). */
void ta_add_same_s8(const ta_add_params_t *p, const int8_t *input1, const int8_t *input2,
                    int8_t *output, int32_t n);

#endif /* TA_ADD_SUB_H */
