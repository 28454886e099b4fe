/*
 * ta_resize_f32.h - float32 RESIZE_BILINEAR on NHWC tensors, as TFLite's
 * reference ResizeBilinear<float>. Per output row y (and likewise per
 * column x with the width scale):
 *   pos = half_pixel_centers ? ((float)y + 0.5f) * scale - 0.5f
 *                            : (float)y * scale
 *   y0 = max((int)floorf(pos), 0), y1 = min((int)ceilf(pos), height - 1)
 *   dy = pos - (float)y0
 * and each channel is
 *   ((v00 * (1 - dy) * (1 - dx) + v10 * dy * (1 - dx))
 *     + v01 * (1 - dy) * dx) + v11 * dy * dx + 0.0f
 * with every product and sum in that order (the final + 0.0f turns -0.0
 * into +0.0, as there). Built with -ffp-contract=off.
 */
#ifndef TA_RESIZE_F32_H
#define TA_RESIZE_F32_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_RESIZE_BILINEAR_F32_PARAMS(FIELD, ARRAY, ARRAY_USED)                    \
    FIELD(int32_t, batches)                                                        \
    FIELD(int32_t, input_height)                                                   \
    FIELD(int32_t, input_width)                                                    \
    FIELD(int32_t, depth)                                                          \
    FIELD(int32_t, out_height)                                                     \
    FIELD(int32_t, out_width)                                                      \
    FIELD(float, height_scale) /* input / output size (or (in - 1) / (out - 1)) */ \
    FIELD(float, width_scale)                                                      \
    FIELD(int32_t, half_pixel_centers) /* 0 or 1 */
typedef struct {
    TA_PARAM_MEMBERS(TA_RESIZE_BILINEAR_F32_PARAMS)
} ta_resize_bilinear_f32_params_t;

int ta_resize_bilinear_f32(const ta_resize_bilinear_f32_params_t *p, const float *input,
                           float *output);

#endif /* TA_RESIZE_F32_H */
