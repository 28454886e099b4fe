/*
 * ta_softmax_f32.h - float32 SOFTMAX over the last dimension, as TFLite's
 * float reference, row by row:
 *   max = -FLT_MAX; max = max < x ? x : max           (std::max)
 *   e_c = expf((x_c - max) * beta); sum = 0.0f; sum += e_c in order
 *   y_c = e_c / sum
 * expf is the C library's (docs/float32-libm.md: the bits depend on it).
 * Each element is read before its place is written: output == input is
 * safe. Built with -ffp-contract=off.
 */
#ifndef TA_SOFTMAX_F32_H
#define TA_SOFTMAX_F32_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_SOFTMAX_F32_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, outer_size) /* rows */               \
    FIELD(int32_t, depth)      /* last dimension */     \
    FIELD(float, beta)
typedef struct {
    TA_PARAM_MEMBERS(TA_SOFTMAX_F32_PARAMS)
} ta_softmax_f32_params_t;

int ta_softmax_f32(const ta_softmax_f32_params_t *p, const float *input, float *output);

#endif /* TA_SOFTMAX_F32_H */
