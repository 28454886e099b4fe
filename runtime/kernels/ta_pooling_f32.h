/*
 * ta_pooling_f32.h - float32 AVERAGE_POOL_2D, MAX_POOL_2D and L2_POOL_2D,
 * as TFLite's reference_ops::AveragePool / MaxPool / L2Pool (float). For
 * every output pixel and channel, over the window clipped to the input:
 *   average: total = 0, count = 0; total += x, count += 1 in row order;
 *            output = clamp(total / count, activation_min, activation_max)
 *   max:     m = -FLT_MAX; m = (m < x) ? x : m (std::max);
 *            output = clamp(m, activation_min, activation_max)
 *   L2:      s = 0; s += x * x in row order;
 *            output = clamp(sqrtf(s / count), activation_min, activation_max)
 * (the reference's int count converts exactly: a window holds far fewer
 * than 2^24 elements). sqrtf is exactly rounded in every C library.
 * Built with -ffp-contract=off. NHWC input and output.
 */
#ifndef TA_POOLING_F32_H
#define TA_POOLING_F32_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_POOL_F32_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    TA_POOL_WINDOW_FIELDS(FIELD)                     \
    TA_ACTIVATION_FIELDS(FIELD, float)
typedef struct {
    TA_PARAM_MEMBERS(TA_POOL_F32_PARAMS)
} ta_pool_f32_params_t;

int ta_average_pool_f32(const ta_pool_f32_params_t *p, const float *input, float *output);
int ta_max_pool_f32(const ta_pool_f32_params_t *p, const float *input, float *output);
int ta_l2_pool_f32(const ta_pool_f32_params_t *p, const float *input, float *output);

#endif /* TA_POOLING_F32_H */
