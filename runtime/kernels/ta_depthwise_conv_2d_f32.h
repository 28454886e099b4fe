/*
 * ta_depthwise_conv_2d_f32.h - float32 DEPTHWISE_CONV_2D, as TFLite's
 * reference_ops::DepthwiseConv (float): for every output pixel, input
 * channel c and multiplier m (output channel o = c * depth_multiplier + m),
 *   total = 0; for ky, for kx (taps outside the input skipped):
 *     total += input[y][x][c] * filter[ky][kx][o];
 *   output = clamp(total + bias[o], activation_min, activation_max).
 * Summed in this order in float, bias last; built with -ffp-contract=off.
 * NHWC input/output, [1, kh, kw, out_depth] filter; bias may be NULL.
 */
#ifndef TA_DEPTHWISE_CONV_2D_F32_H
#define TA_DEPTHWISE_CONV_2D_F32_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_DEPTHWISE_CONV_2D_F32_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    TA_WINDOW_INPUT_FIELDS(FIELD)                                 \
    FIELD(int32_t, depth_multiplier)                              \
    FIELD(int32_t, output_height)                                 \
    FIELD(int32_t, output_width)                                  \
    TA_WINDOW_STEP_FIELDS(FIELD)                                  \
    TA_ACTIVATION_FIELDS(FIELD, float)
typedef struct {
    TA_PARAM_MEMBERS(TA_DEPTHWISE_CONV_2D_F32_PARAMS)
} ta_depthwise_conv_2d_f32_params_t;

int ta_depthwise_conv_2d_f32(const ta_depthwise_conv_2d_f32_params_t *p, const float *input,
                             const float *filter, const float *bias, float *output);

#endif /* TA_DEPTHWISE_CONV_2D_F32_H */
