/*
 * ta_log_softmax_f32.h - float32 LOG_SOFTMAX over the last dimension, as
 * TFLite's float reference, row by row:
 *   max = -FLT_MAX; max = max < x ? x : max           (std::max)
 *   sum = 0.0f; sum += expf(x_c - max) in order; log_sum = logf(sum)
 *   y_c = (x_c - max) - log_sum
 * expf and logf are the C library's (docs/float32-libm.md). Each row is
 * read fully before it is written: output == input is safe. Built with
 * -ffp-contract=off.
 */
#ifndef TA_LOG_SOFTMAX_F32_H
#define TA_LOG_SOFTMAX_F32_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_LOG_SOFTMAX_F32_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, outer_size) /* rows */                   \
    FIELD(int32_t, depth)      /* last dimension */
typedef struct {
    TA_PARAM_MEMBERS(TA_LOG_SOFTMAX_F32_PARAMS)
} ta_log_softmax_f32_params_t;

int ta_log_softmax_f32(const ta_log_softmax_f32_params_t *p, const float *input, float *output);

#endif /* TA_LOG_SOFTMAX_F32_H */
