/*
 * ta_prelu.h - PRELU, int8 and int16 (with int8 alpha): out = x for
 * x >= 0, alpha * x otherwise, with alpha broadcast against the input.
 *
 * The converter folds the broadcast into `rank` collapsed dimensions and
 * element strides (0 along broadcast dimensions) for the input and alpha;
 * the output is dense. Safe with output == input when the input is not
 * broadcast (input shape = output shape).
 */
#ifndef TA_PRELU_H
#define TA_PRELU_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_PRELU_MAX_RANK 8

#define TA_PRELU_PARAMS(FIELD, ARRAY, ARRAY_USED)                        \
    FIELD(int32_t, rank) /* 1 .. TA_PRELU_MAX_RANK */                    \
    ARRAY_USED(int32_t, dims, TA_PRELU_MAX_RANK, rank)                   \
    ARRAY_USED(int32_t, input_strides, TA_PRELU_MAX_RANK, rank)          \
    ARRAY_USED(int32_t, alpha_strides, TA_PRELU_MAX_RANK, rank)          \
    FIELD(int32_t, input_offset)        /* -input zero point */          \
    FIELD(int32_t, alpha_offset)        /* -alpha zero point */          \
    FIELD(int32_t, output_offset)       /* output zero point */          \
    FIELD(int32_t, multiplier_identity) /* input_scale / output_scale */ \
    FIELD(int32_t, shift_identity)                                       \
    /* input_scale * alpha_scale / output_scale */                       \
    FIELD(int32_t, multiplier_alpha)                                     \
    FIELD(int32_t, shift_alpha)
typedef struct {
    TA_PARAM_MEMBERS(TA_PRELU_PARAMS)
} ta_prelu_params_t;

int ta_prelu_s8(const ta_prelu_params_t *p, const int8_t *input, const int8_t *alpha,
                int8_t *output);
int ta_prelu_s16(const ta_prelu_params_t *p, const int16_t *input, const int8_t *alpha,
                 int16_t *output);

#endif /* TA_PRELU_H */
