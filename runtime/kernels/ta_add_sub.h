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

#define TA_ADD_PARAMS(FIELD, ARRAY, ARRAY_USED)                                                   \
    /* collapsed broadcast shape: see ta_broadcast.h */                                           \
    FIELD(int32_t, rank)                                                                          \
    ARRAY_USED(int32_t, dims, TA_BROADCAST_MAX_DIMS, rank)                                        \
    ARRAY_USED(int32_t, stride1, TA_BROADCAST_MAX_DIMS, rank)                                     \
    ARRAY_USED(int32_t, stride2, TA_BROADCAST_MAX_DIMS, rank)                                     \
    FIELD(int32_t, left_shift)                                                                    \
    FIELD(int32_t, input1_offset)                             /* -zero point */                   \
    FIELD(int32_t, input1_multiplier)                                                             \
    FIELD(int32_t, input1_shift)                              /* <= 0 */                          \
    FIELD(int32_t, input2_offset)                                                                 \
    FIELD(int32_t, input2_multiplier)                                                             \
    FIELD(int32_t, input2_shift)                                                                  \
    FIELD(int32_t, output_offset)                             /* +zero point */                   \
    FIELD(int32_t, output_multiplier)                                                             \
    FIELD(int32_t, output_shift)                                                                  \
    FIELD(int32_t, activation_min)                                                                \
    FIELD(int32_t, activation_max)
typedef struct { TA_PARAM_MEMBERS(TA_ADD_PARAMS) } ta_add_params_t;

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
