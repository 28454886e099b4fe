/*
 * ta_cumsum.h - CUMSUM along one axis, as TFLite Micro's reference.
 *
 * The input is [outer, depth, inner] (the dimensions before the axis, the
 * axis, those after it); each (outer, inner) line is summed along depth,
 * backwards with `reverse`, each output the sum before (`exclusive`) or
 * including its element.
 *
 * int8 (TFLite's arithmetic): every input, less its zero point, is shifted
 * left by 20 and scaled by one half (input_multiplier, input_shift); the
 * sums start at the scaled negated zero point (TFLite starts there, not
 * at 0) and wrap in int32; each output is the sum scaled by
 * (output_multiplier, output_shift) plus the output zero point, clamped.
 */
#ifndef TA_CUMSUM_H
#define TA_CUMSUM_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_CUMSUM_PARAMS(FIELD, ARRAY, ARRAY_USED)                               \
    FIELD(int32_t, outer)        /* product of the dimensions before the axis */ \
    FIELD(int32_t, depth)        /* the axis */                                  \
    FIELD(int32_t, inner)        /* product of the dimensions after it */        \
    FIELD(int32_t, exclusive)    /* 1: each output leaves its own element out */ \
    FIELD(int32_t, reverse)      /* 1: sum from the end of the axis */           \
    FIELD(int32_t, input_offset) /* int8: -input zero point */                   \
    FIELD(int32_t, input_multiplier)                                             \
    FIELD(int32_t, input_shift)                                                  \
    FIELD(int32_t, output_multiplier)                                            \
    FIELD(int32_t, output_shift)                                                 \
    FIELD(int32_t, output_zero_point)
typedef struct {
    TA_PARAM_MEMBERS(TA_CUMSUM_PARAMS)
} ta_cumsum_params_t;

int ta_cumsum_s8(const ta_cumsum_params_t *p, const int8_t *input, int8_t *output);

#endif /* TA_CUMSUM_H */
