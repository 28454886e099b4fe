/*
 * ta_conv_2d_f32.h - float32 CONV_2D (grouped when the filter holds fewer
 * input channels than the input), as TFLite's reference_ops::Conv (float):
 * for every output pixel and channel o (group g = o / filters_per_group),
 *   total = 0; for ky, for kx (taps outside the input skipped), for c:
 *     total += input[y][x][g * filter_depth + c] * filter[o][ky][kx][c];
 *   output = clamp(total + bias[o], activation_min, activation_max).
 * Summed in this order in float, bias last; built with -ffp-contract=off.
 * NHWC input/output, OHWI filter; bias may be NULL.
 */
#ifndef TA_CONV_2D_F32_H
#define TA_CONV_2D_F32_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_CONV_2D_F32_PARAMS(FIELD, ARRAY, ARRAY_USED)         \
    TA_WINDOW_INPUT_FIELDS(FIELD)                               \
    FIELD(int32_t, filter_depth) /* input channels per group */ \
    FIELD(int32_t, filters_per_group)                           \
    TA_WINDOW_OUTPUT_FIELDS(FIELD)                              \
    TA_WINDOW_STEP_FIELDS(FIELD)                                \
    TA_ACTIVATION_FIELDS(FIELD, float)
typedef struct {
    TA_PARAM_MEMBERS(TA_CONV_2D_F32_PARAMS)
} ta_conv_2d_f32_params_t;

int ta_conv_2d_f32(const ta_conv_2d_f32_params_t *p, const float *input, const float *filter,
                   const float *bias, float *output);

#endif /* TA_CONV_2D_F32_H */
