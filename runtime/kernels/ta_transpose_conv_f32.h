/*
 * ta_transpose_conv_f32.h - float32 TRANSPOSE_CONV, as TFLite's
 * reference_ops::TransposeConv (float), which scatters: the output is
 * zeroed, then for each input pixel (y, x), input channel c, tap (ky, kx)
 * and output channel o, in that order,
 *   output[y * stride - pad + ky][x * stride - pad + kx][o] +=
 *       input[y][x][c] * filter[o][ky][kx][c]     (taps inside the output);
 * then bias[o] is added to every output pixel, and the result clamped to
 * [activation_min, activation_max]. Each output sums its products in
 * exactly that order; built with -ffp-contract=off. The output is the
 * accumulator, so it must not overlap the input.
 * NHWC input/output, OHWI filter; bias may be NULL.
 */
#ifndef TA_TRANSPOSE_CONV_F32_H
#define TA_TRANSPOSE_CONV_F32_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_TRANSPOSE_CONV_F32_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    TA_WINDOW_INPUT_FIELDS(FIELD)                              \
    TA_WINDOW_OUTPUT_FIELDS(FIELD)                             \
    FIELD(int32_t, stride_height)                              \
    FIELD(int32_t, stride_width)                               \
    FIELD(int32_t, pad_top)                                    \
    FIELD(int32_t, pad_left)                                   \
    TA_ACTIVATION_FIELDS(FIELD, float)
typedef struct {
    TA_PARAM_MEMBERS(TA_TRANSPOSE_CONV_F32_PARAMS)
} ta_transpose_conv_f32_params_t;

int ta_transpose_conv_f32(const ta_transpose_conv_f32_params_t *p, const float *input,
                          const float *filter, const float *bias, float *output);

#endif /* TA_TRANSPOSE_CONV_F32_H */
