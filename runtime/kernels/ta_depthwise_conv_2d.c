/*
 * ta_depthwise_conv_2d.c - DEPTHWISE_CONV_2D kernels; see the header. The
 * portable path and the dispatch: on Helium cores the int8 kernels (and
 * int16 with depth multiplier 1) run ta_depthwise_conv_2d_mve.c, with the
 * DSP extension the int8 ones run ta_depthwise_conv_2d_dsp.c.
 *
 * Portable path: per output pixel, output channels are taken in blocks of
 * BLOCK whose accumulators live on the stack, every tap adds its weights
 * and inputs for the block, then the block is requantized.
 *
 * No working memory is needed, so the planner reserves none.
 */
#include "ta_depthwise_conv_2d.h"

#include "ta_depthwise_conv_2d_dsp.h"
#include "ta_depthwise_conv_2d_mve.h"
#include "ta_depthwise_conv_2d_window.h"

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

/* Element i of the int8 (wide 0) or int16 (wide 1) tensor at base. */
static inline int32_t dw_element(const void *base, size_t i, int wide)
{
    return wide ? (int32_t)((const int16_t *)base)[i] : (int32_t)((const int8_t *)base)[i];
}

/* The portable kernel for both element types, written once; `wide` is a
   constant in each caller, so each keeps only its own accumulators: int8
   sums in int32 (TFLite's arithmetic, with the zero point folded into
   bias_sum), int16 in int64 from the int64 bias. Per output pixel, blocks
   of BLOCK output channels. */
static inline void dw_portable(const ta_depthwise_conv_2d_params_t *p, const void *input,
                               const int8_t *weights, const void *bias, const int32_t *multipliers,
                               const int32_t *shifts, void *output, int wide)
{
    const int32_t depth = p->output_depth, mult = p->depth_multiplier;
    const size_t row = (size_t)p->input_width * (size_t)p->input_depth;
    const size_t image = (size_t)p->input_height * row;
    for (int32_t bi = 0; bi < p->batches; bi++) {
        const int32_t b = dw_walk(p->reverse_rows, bi, p->batches);
        const size_t in_b = (size_t)b * image;
        for (int32_t oi = 0; oi < p->output_height; oi++) {
            const int32_t oy = dw_walk(p->reverse_rows, oi, p->output_height);
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            /* the first output element of the pixel */
            size_t o_at = ((size_t)b * (size_t)p->output_height + (size_t)oy) *
                          (size_t)p->output_width * (size_t)depth;
            for (int32_t ox = 0; ox < p->output_width; ox++, o_at += (size_t)depth) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                for (int32_t o0 = 0; o0 < depth; o0 += BLOCK) {
                    const int32_t n = depth - o0 < BLOCK ? depth - o0 : BLOCK;
                    int32_t acc[BLOCK];
                    int64_t acc_wide[BLOCK];
                    for (int32_t k = 0; k < n; k++) {
                        if (wide)
                            acc_wide[k] = bias ? ((const int64_t *)bias)[o0 + k] : 0;
                        else
                            acc[k] = bias ? ((const int32_t *)bias)[o0 + k] : 0;
                    }
                    const int8_t *w = weights + o0;
                    for (int32_t ky = 0; ky < p->filter_height; ky++) {
                        const int32_t iy = iy0 + ky * p->dilation_height;
                        for (int32_t kx = 0; kx < p->filter_width; kx++, w += depth) {
                            const int32_t ix = ix0 + kx * p->dilation_width;
                            if (outside(p, iy, ix)) {
                                /* The converter folded the int8 zero point into
                                   bias_sum for every tap; a padded tap reads that
                                   zero point, which gives back what was folded
                                   (int16 zero points are 0: nothing to add). */
                                if (!wide && p->pad_value != 0)
                                    for (int32_t k = 0; k < n; k++)
                                        acc[k] += (int32_t)w[k] * p->pad_value;
                                continue;
                            }
                            const size_t x = in_b + (size_t)iy * row +
                                             (size_t)ix * (size_t)p->input_depth;
                            for (int32_t k = 0; k < n; k++) {
                                const size_t c = mult == 1 ? (size_t)(o0 + k)
                                                           : (size_t)((o0 + k) / mult);
                                const int32_t product = (int32_t)w[k] *
                                                        dw_element(input, x + c, wide);
                                if (wide)
                                    acc_wide[k] += product;
                                else
                                    acc[k] += product;
                            }
                        }
                    }
                    if (!wide) {
                        ta_requantize_s8(acc, n, multipliers ? multipliers + o0 : NULL,
                                         shifts ? shifts + o0 : NULL, p->multiplier, p->shift,
                                         p->output_offset, p->activation_min, p->activation_max,
                                         (int8_t *)output + o_at + o0);
                        continue;
                    }
                    for (int32_t k = 0; k < n; k++) {
                        const int32_t o = o0 + k;
                        const int32_t m = multipliers ? multipliers[o] : p->multiplier;
                        const int32_t sh = shifts ? shifts[o] : p->shift;
                        const int32_t v = ta_mul_by_quantized_multiplier_64(acc_wide[k], m,
                                                                            (int)sh) +
                                          p->output_offset;
                        ((int16_t *)output)[o_at + (size_t)o] = (int16_t)ta_clamp_i32(
                            v, p->activation_min, p->activation_max);
                    }
                }
            }
        }
    }
}

int ta_depthwise_conv_2d_s8(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                            const int8_t *weights, const int32_t *bias_sum, const int32_t *bias,
                            const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
#if defined(TA_HAVE_MVE)
    if (p->depth_multiplier == 1)
        ta_depthwise_conv_2d_s8_m1_mve(p, input, weights, bias_sum, bias, multipliers, shifts,
                                       output);
    else
        ta_depthwise_conv_2d_s8_multiplier_mve(p, input, weights, bias, multipliers, shifts,
                                               output);
    return TA_OK;
#elif defined(TA_HAVE_DSP)
    if (p->depth_multiplier == 1)
        ta_depthwise_conv_2d_s8_m1_dsp(p, input, weights, bias_sum, bias, multipliers, shifts,
                                       output);
    else
        ta_depthwise_conv_2d_s8_multiplier_dsp(p, input, weights, bias, multipliers, shifts,
                                               output);
    return TA_OK;
#else
    (void)bias;
#endif
    dw_portable(p, input, weights, bias_sum, multipliers, shifts, output, 0);
    return TA_OK;
}

/* The layers ta_depthwise_conv_2d_s8_m1_fast accepts (see the header). */
static int m1_fast_layer(const ta_depthwise_conv_2d_params_t *p, const int32_t *multipliers,
                         const int32_t *shifts)
{
    return p->depth_multiplier == 1 && multipliers && shifts && p->right_shifts_only &&
           p->small_accumulators && p->activation_min == INT8_MIN &&
           p->activation_max == INT8_MAX && p->output_depth % 8 == 0;
}

void ta_depthwise_conv_2d_s8_m1_fast_rows(const ta_depthwise_conv_2d_params_t *p,
                                          const int8_t *input, const int8_t *weights,
                                          const int32_t *bias_sum, const int32_t *bias,
                                          const int32_t *multipliers, const int32_t *shifts,
                                          int8_t *output)
{
#if defined(TA_HAVE_MVE)
    ta_depthwise_conv_2d_s8_m1_fast_mve(p, input, weights, bias_sum, bias, multipliers, shifts,
                                        output);
#elif defined(TA_HAVE_DSP)
    ta_depthwise_conv_2d_s8_m1_fast_dsp(p, input, weights, bias_sum, bias, multipliers, shifts,
                                        output);
#else
    (void)ta_depthwise_conv_2d_s8(p, input, weights, bias_sum, bias, multipliers, shifts, output);
#endif
}

int ta_depthwise_conv_2d_s8_m1_fast(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                                    const int8_t *weights, const int32_t *bias_sum,
                                    const int32_t *bias, const int32_t *multipliers,
                                    const int32_t *shifts, int8_t *output)
{
    if (!m1_fast_layer(p, multipliers, shifts))
        return TA_ERR_KERNEL;
#if defined(TA_HAVE_MVE) || defined(TA_HAVE_DSP)
    ta_depthwise_conv_2d_s8_m1_fast_rows(p, input, weights, bias_sum, bias, multipliers, shifts,
                                         output);
    return TA_OK;
#else
    return ta_depthwise_conv_2d_s8(p, input, weights, bias_sum, bias, multipliers, shifts, output);
#endif
}

/* int16 on the portable path, out of line: on Helium cores the kernel
   runs this or ta_depthwise_conv_2d_s16_m1_mve, and inlined, its
   accumulators would stay on the stack under the Helium path. */
static TA_NOINLINE void dw_portable_s16(const ta_depthwise_conv_2d_params_t *p,
                                        const int16_t *input, const int8_t *weights,
                                        const int64_t *bias, const int32_t *multipliers,
                                        const int32_t *shifts, int16_t *output)
{
    dw_portable(p, input, weights, bias, multipliers, shifts, output, 1);
}

int ta_depthwise_conv_2d_s16(const ta_depthwise_conv_2d_params_t *p, const int16_t *input,
                             const int8_t *weights, const int64_t *bias, const int32_t *multipliers,
                             const int32_t *shifts, int16_t *output)
{
#if defined(TA_HAVE_MVE)
    /* |x * w| <= 2^22: int32 partial sums are exact below 512 taps. */
    if (p->depth_multiplier == 1 && p->filter_height * p->filter_width < 512) {
        ta_depthwise_conv_2d_s16_m1_mve(p, input, weights, bias, multipliers, shifts, output);
        return TA_OK;
    }
#endif
    dw_portable_s16(p, input, weights, bias, multipliers, shifts, output);
    return TA_OK;
}
