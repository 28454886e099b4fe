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
#include "../include/ta_simd.h"
#include "../include/ta_status.h"

#include <stddef.h>

enum { BLOCK = 16 };

/* True when the tap (iy, ix) lies outside the input (padding). */
static int outside(const ta_depthwise_conv_2d_params_t *p, int32_t iy, int32_t ix)
{
    return iy < 0 || iy >= p->input_height || ix < 0 || ix >= p->input_width;
}

#if defined(TA_HAVE_MVE)
/* The taps of one output pixel for a block of n <= BLOCK channels with depth
   multiplier 1, in four Helium vectors of int32 accumulators (lanes past n
   load zeros and stay unused). */
static void block_taps_mve(const ta_depthwise_conv_2d_params_t *p, int32_t *acc, int32_t n,
                           const int8_t *in_b, size_t row, int32_t iy0, int32_t ix0,
                           const int8_t *w, int32_t o0)
{
    int32x4_t v[BLOCK / 4];
    mve_pred16_t pr[BLOCK / 4];
    for (int32_t j = 0; j < BLOCK / 4; j++) {
        const int32_t left = n - 4 * j;
        pr[j] = vctp32q((uint32_t)(left > 0 ? left : 0));
        v[j] = vldrwq_z_s32(acc + 4 * j, pr[j]);
    }
    for (int32_t ky = 0; ky < p->filter_height; ky++) {
        const int32_t iy = iy0 + ky * p->dilation_height;
        for (int32_t kx = 0; kx < p->filter_width; kx++, w += p->output_depth) {
            const int32_t ix = ix0 + kx * p->dilation_width;
            if (outside(p, iy, ix)) {
                if (p->pad_value != 0)
                    for (int32_t j = 0; j < BLOCK / 4; j++)
                        v[j] = vmlaq_n_s32(v[j], vldrbq_z_s32(w + 4 * j, pr[j]), p->pad_value);
                continue;
            }
            const int8_t *x = in_b + (size_t)iy * row + (size_t)ix * (size_t)p->input_depth + o0;
            for (int32_t j = 0; j < BLOCK / 4; j++)
                v[j] = vaddq_s32(v[j], vmulq_s32(vldrbq_z_s32(w + 4 * j, pr[j]),
                                                 vldrbq_z_s32(x + 4 * j, pr[j])));
        }
    }
    for (int32_t j = 0; j < BLOCK / 4; j++)
        vstrwq_p_s32(acc + 4 * j, v[j], pr[j]);
}
#endif

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
#if defined(TA_HAVE_MVE)
                    if (mult == 1) {
                        block_taps_mve(p, acc, n, in_b, row, iy0, ix0, w, o0);
                        goto requantize;
                    }
#endif
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
#if defined(TA_HAVE_MVE)
                requantize:
#endif
                    ta_requantize_s8(acc, n, multipliers ? multipliers + o0 : NULL,
                                     shifts ? shifts + o0 : NULL, p->multiplier, p->shift,
                                     p->output_offset, p->activation_min, p->activation_max,
                                     output);
                    output += n;
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
