/*
 * ta_depthwise_conv_2d.c - DEPTHWISE_CONV_2D kernels; see the header.
 *
 * Per output pixel, output channels are taken in blocks of BLOCK: the
 * block's accumulators live on the stack (in registers, mostly), every tap
 * adds its weights and inputs for the block, then the block is requantized.
 * No working memory beyond that is needed, so the planner reserves none.
 */
#include "ta_depthwise_conv_2d.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include <stddef.h>

enum { BLOCK = 16 };

/* True when the tap (iy, ix) lies outside the input (padding). */
static int outside(const ta_depthwise_conv_2d_params_t *p, int32_t iy, int32_t ix)
{
    return iy < 0 || iy >= p->input_height || ix < 0 || ix >= p->input_width;
}

int ta_depthwise_conv_2d_s8(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                            const int8_t *weights, const int32_t *bias_sum,
                            const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    const int32_t depth = p->output_depth, mult = p->depth_multiplier;
    const size_t row = (size_t)p->input_width * (size_t)p->input_depth;
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (size_t)b * (size_t)p->input_height * row;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                for (int32_t o0 = 0; o0 < depth; o0 += BLOCK) {
                    const int32_t n = depth - o0 < BLOCK ? depth - o0 : BLOCK;
                    int32_t acc[BLOCK];
                    for (int32_t k = 0; k < n; k++)
                        acc[k] = bias_sum ? bias_sum[o0 + k] : 0;
                    const int8_t *w = weights + o0;
                    for (int32_t ky = 0; ky < p->filter_height; ky++) {
                        const int32_t iy = iy0 + ky * p->dilation_height;
                        for (int32_t kx = 0; kx < p->filter_width; kx++, w += depth) {
                            const int32_t ix = ix0 + kx * p->dilation_width;
                            if (outside(p, iy, ix)) {
                                /* The converter folded the zero point into bias_sum
                                   for every tap; a padded tap reads that zero point,
                                   which gives back what was folded. */
                                if (p->pad_value != 0)
                                    for (int32_t k = 0; k < n; k++)
                                        acc[k] += (int32_t)w[k] * p->pad_value;
                                continue;
                            }
                            const int8_t *x = in_b + (size_t)iy * row +
                                              (size_t)ix * (size_t)p->input_depth;
                            if (mult == 1) {
                                x += o0;
                                for (int32_t k = 0; k < n; k++)
                                    acc[k] += (int32_t)w[k] * (int32_t)x[k];
                            } else {
                                for (int32_t k = 0; k < n; k++)
                                    acc[k] += (int32_t)w[k] * (int32_t)x[(o0 + k) / mult];
                            }
                        }
                    }
                    for (int32_t k = 0; k < n; k++) {
                        const int32_t o = o0 + k;
                        const int32_t m = multipliers ? multipliers[o] : p->multiplier;
                        const int32_t s = shifts ? shifts[o] : p->shift;
                        int32_t v = ta_mul_by_quantized_multiplier(acc[k], m, (int)s) +
                                    p->output_offset;
                        *output++ = (int8_t)ta_clamp_i32(v, p->activation_min, p->activation_max);
                    }
                }
            }
        }
    }
    return TA_OK;
}

int ta_depthwise_conv_2d_s16(const ta_depthwise_conv_2d_params_t *p, const int16_t *input,
                             const int8_t *weights, const int64_t *bias,
                             const int32_t *multipliers, const int32_t *shifts, int16_t *output)
{
    const int32_t depth = p->output_depth, mult = p->depth_multiplier;
    const size_t row = (size_t)p->input_width * (size_t)p->input_depth;
    for (int32_t b = 0; b < p->batches; b++) {
        const int16_t *in_b = input + (size_t)b * (size_t)p->input_height * row;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                for (int32_t o0 = 0; o0 < depth; o0 += BLOCK) {
                    const int32_t n = depth - o0 < BLOCK ? depth - o0 : BLOCK;
                    int64_t acc[BLOCK];
                    for (int32_t k = 0; k < n; k++)
                        acc[k] = bias ? bias[o0 + k] : 0;
                    const int8_t *w = weights + o0;
                    for (int32_t ky = 0; ky < p->filter_height; ky++) {
                        const int32_t iy = iy0 + ky * p->dilation_height;
                        for (int32_t kx = 0; kx < p->filter_width; kx++, w += depth) {
                            const int32_t ix = ix0 + kx * p->dilation_width;
                            /* int16 zero points are 0: padded taps add nothing. */
                            if (outside(p, iy, ix))
                                continue;
                            const int16_t *x = in_b + (size_t)iy * row +
                                               (size_t)ix * (size_t)p->input_depth;
                            for (int32_t k = 0; k < n; k++)
                                acc[k] += (int64_t)((int32_t)w[k] * (int32_t)x[(o0 + k) / mult]);
                        }
                    }
                    for (int32_t k = 0; k < n; k++) {
                        const int32_t o = o0 + k;
                        const int32_t m = multipliers ? multipliers[o] : p->multiplier;
                        const int32_t s = shifts ? shifts[o] : p->shift;
                        int32_t v = ta_mul_by_quantized_multiplier_64(acc[k], m, (int)s) +
                                    p->output_offset;
                        *output++ = (int16_t)ta_clamp_i32(v, p->activation_min, p->activation_max);
                    }
                }
            }
        }
    }
    return TA_OK;
}
