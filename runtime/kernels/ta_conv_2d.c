/* ta_conv_2d.c - CONV_2D kernels; see the header. */
#include "ta_conv_2d.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include <stddef.h>

int ta_conv_2d_s8(const ta_conv_2d_params_t *p, const int8_t *input, const int8_t *weights,
                  const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                  int8_t *output)
{
    const int32_t fd = p->filter_depth;
    const size_t filter_size = (size_t)p->filter_height * (size_t)p->filter_width * (size_t)fd;
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in_b =
            input + (size_t)b * (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                for (int32_t o = 0; o < p->output_depth; o++) {
                    const int32_t group_offset = (o / p->filters_per_group) * fd;
                    const int8_t *w = weights + (size_t)o * filter_size;
                    int32_t acc = bias_sum ? bias_sum[o] : 0;
                    for (int32_t ky = 0; ky < p->filter_height; ky++) {
                        const int32_t iy = iy0 + ky * p->dilation_height;
                        for (int32_t kx = 0; kx < p->filter_width; kx++, w += fd) {
                            const int32_t ix = ix0 + kx * p->dilation_width;
                            if (iy < 0 || iy >= p->input_height || ix < 0 || ix >= p->input_width) {
                                /* Undo the folded zero point for this tap. */
                                if (p->pad_value != 0)
                                    for (int32_t c = 0; c < fd; c++)
                                        acc += (int32_t)w[c] * p->pad_value;
                                continue;
                            }
                            const int8_t *x = in_b +
                                              ((size_t)iy * (size_t)p->input_width + (size_t)ix) *
                                                  (size_t)p->input_depth +
                                              (size_t)group_offset;
                            for (int32_t c = 0; c < fd; c++)
                                acc += (int32_t)w[c] * (int32_t)x[c];
                        }
                    }
                    const int32_t m = multipliers ? multipliers[o] : p->multiplier;
                    const int32_t s = shifts ? shifts[o] : p->shift;
                    int32_t out = ta_mul_by_quantized_multiplier(acc, m, (int)s) + p->output_offset;
                    *output++ = (int8_t)ta_clamp_i32(out, p->activation_min, p->activation_max);
                }
            }
        }
    }
    return TA_OK;
}

int ta_conv_2d_s16(const ta_conv_2d_params_t *p, const int16_t *input, const int8_t *weights,
                   const int64_t *bias, const int32_t *multipliers, const int32_t *shifts,
                   int16_t *output)
{
    const int32_t fd = p->filter_depth;
    const size_t filter_size = (size_t)p->filter_height * (size_t)p->filter_width * (size_t)fd;
    for (int32_t b = 0; b < p->batches; b++) {
        const int16_t *in_b =
            input + (size_t)b * (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                for (int32_t o = 0; o < p->output_depth; o++) {
                    const int32_t group_offset = (o / p->filters_per_group) * fd;
                    const int8_t *w = weights + (size_t)o * filter_size;
                    int64_t acc = bias ? bias[o] : 0;
                    for (int32_t ky = 0; ky < p->filter_height; ky++) {
                        const int32_t iy = iy0 + ky * p->dilation_height;
                        for (int32_t kx = 0; kx < p->filter_width; kx++, w += fd) {
                            const int32_t ix = ix0 + kx * p->dilation_width;
                            /* int16 zero points are 0: skipped taps add nothing. */
                            if (iy < 0 || iy >= p->input_height || ix < 0 || ix >= p->input_width)
                                continue;
                            const int16_t *x = in_b +
                                               ((size_t)iy * (size_t)p->input_width + (size_t)ix) *
                                                   (size_t)p->input_depth +
                                               (size_t)group_offset;
                            for (int32_t c = 0; c < fd; c++)
                                acc += (int64_t)((int32_t)w[c] * (int32_t)x[c]);
                        }
                    }
                    const int32_t m = multipliers ? multipliers[o] : p->multiplier;
                    const int32_t s = shifts ? shifts[o] : p->shift;
                    int32_t out;
                    if (p->accumulator_bits == 32) /* TFLite's int32 path wraps modulo 2^32 */
                        out = ta_mul_by_quantized_multiplier((int32_t)(uint32_t)(uint64_t)acc, m, (int)s);
                    else
                        out = ta_mul_by_quantized_multiplier_64(acc, m, (int)s);
                    out += p->output_offset;
                    *output++ = (int16_t)ta_clamp_i32(out, p->activation_min, p->activation_max);
                }
            }
        }
    }
    return TA_OK;
}
