/* ta_depthwise_conv_2d.c - DEPTHWISE_CONV_2D kernels; see the header. */
#include "ta_depthwise_conv_2d.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include <stddef.h>

int ta_depthwise_conv_2d_s8(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                            const int8_t *weights, const int32_t *bias_sum,
                            const int32_t *multipliers, const int32_t *shifts, void *scratch,
                            int8_t *output)
{
    int32_t *acc = (int32_t *)scratch;
    const int32_t depth = p->output_depth, mult = p->depth_multiplier;
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in_b =
            input + (size_t)b * (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                for (int32_t o = 0; o < depth; o++)
                    acc[o] = bias_sum ? bias_sum[o] : 0;
                const int8_t *w = weights;
                for (int32_t ky = 0; ky < p->filter_height; ky++) {
                    const int32_t iy = iy0 + ky * p->dilation_height;
                    for (int32_t kx = 0; kx < p->filter_width; kx++, w += depth) {
                        const int32_t ix = ix0 + kx * p->dilation_width;
                        if (iy < 0 || iy >= p->input_height || ix < 0 || ix >= p->input_width) {
                            /* Undo the folded zero point for this tap. */
                            if (p->pad_value != 0)
                                for (int32_t o = 0; o < depth; o++)
                                    acc[o] += (int32_t)w[o] * p->pad_value;
                            continue;
                        }
                        const int8_t *x =
                            in_b + ((size_t)iy * (size_t)p->input_width + (size_t)ix) * (size_t)p->input_depth;
                        int32_t o = 0;
                        for (int32_t c = 0; c < p->input_depth; c++) {
                            const int32_t xv = x[c];
                            for (int32_t m = 0; m < mult; m++, o++)
                                acc[o] += (int32_t)w[o] * xv;
                        }
                    }
                }
                for (int32_t o = 0; o < depth; o++) {
                    const int32_t m = multipliers ? multipliers[o] : p->multiplier;
                    const int32_t s = shifts ? shifts[o] : p->shift;
                    int32_t v = ta_mul_by_quantized_multiplier(acc[o], m, (int)s) + p->output_offset;
                    *output++ = (int8_t)ta_clamp_i32(v, p->activation_min, p->activation_max);
                }
            }
        }
    }
    return TA_OK;
}

int ta_depthwise_conv_2d_s16(const ta_depthwise_conv_2d_params_t *p, const int16_t *input,
                             const int8_t *weights, const int64_t *bias,
                             const int32_t *multipliers, const int32_t *shifts, void *scratch,
                             int16_t *output)
{
    int64_t *acc = (int64_t *)scratch;
    const int32_t depth = p->output_depth, mult = p->depth_multiplier;
    for (int32_t b = 0; b < p->batches; b++) {
        const int16_t *in_b =
            input + (size_t)b * (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                for (int32_t o = 0; o < depth; o++)
                    acc[o] = bias ? bias[o] : 0;
                const int8_t *w = weights;
                for (int32_t ky = 0; ky < p->filter_height; ky++) {
                    const int32_t iy = iy0 + ky * p->dilation_height;
                    for (int32_t kx = 0; kx < p->filter_width; kx++, w += depth) {
                        const int32_t ix = ix0 + kx * p->dilation_width;
                        /* int16 zero points are 0: skipped taps add nothing. */
                        if (iy < 0 || iy >= p->input_height || ix < 0 || ix >= p->input_width)
                            continue;
                        const int16_t *x =
                            in_b + ((size_t)iy * (size_t)p->input_width + (size_t)ix) * (size_t)p->input_depth;
                        int32_t o = 0;
                        for (int32_t c = 0; c < p->input_depth; c++) {
                            const int32_t xv = x[c];
                            for (int32_t m = 0; m < mult; m++, o++)
                                acc[o] += (int64_t)((int32_t)w[o] * xv);
                        }
                    }
                }
                for (int32_t o = 0; o < depth; o++) {
                    const int32_t m = multipliers ? multipliers[o] : p->multiplier;
                    const int32_t s = shifts ? shifts[o] : p->shift;
                    int32_t v = ta_mul_by_quantized_multiplier_64(acc[o], m, (int)s) + p->output_offset;
                    *output++ = (int16_t)ta_clamp_i32(v, p->activation_min, p->activation_max);
                }
            }
        }
    }
    return TA_OK;
}
