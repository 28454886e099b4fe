/* ta_transpose_conv.c - TRANSPOSE_CONV kernels; see the header. */
#include "ta_transpose_conv.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include <stddef.h>

int ta_transpose_conv_s8(const ta_transpose_conv_params_t *p, const int8_t *input,
                         const int8_t *weights, const int32_t *bias,
                         const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    const int32_t ic = p->input_depth, sh = p->stride_height, sw = p->stride_width;
    const size_t filter_size = (size_t)p->filter_height * (size_t)p->filter_width * (size_t)ic;
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in_b =
            input + (size_t)b * (size_t)p->input_height * (size_t)p->input_width * (size_t)ic;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t ny = oy + p->pad_top; /* >= 0 */
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const int32_t nx = ox + p->pad_left;
                for (int32_t o = 0; o < p->output_depth; o++) {
                    const int8_t *w_o = weights + (size_t)o * filter_size;
                    int32_t acc = bias ? bias[o] : 0;
                    /* Taps with ny - ky a multiple of the stride; iy falls as ky rises. */
                    for (int32_t ky = ny % sh; ky < p->filter_height && ky <= ny; ky += sh) {
                        const int32_t iy = (ny - ky) / sh;
                        if (iy >= p->input_height)
                            continue;
                        for (int32_t kx = nx % sw; kx < p->filter_width && kx <= nx; kx += sw) {
                            const int32_t ix = (nx - kx) / sw;
                            if (ix >= p->input_width)
                                continue;
                            const int8_t *w = w_o + ((size_t)ky * (size_t)p->filter_width + (size_t)kx) * (size_t)ic;
                            const int8_t *x = in_b + ((size_t)iy * (size_t)p->input_width + (size_t)ix) * (size_t)ic;
                            for (int32_t c = 0; c < ic; c++)
                                acc += (int32_t)w[c] * ((int32_t)x[c] + p->input_offset);
                        }
                    }
                    const int32_t m = multipliers ? multipliers[o] : p->multiplier;
                    const int32_t s = shifts ? shifts[o] : p->shift;
                    int32_t v = ta_mul_by_quantized_multiplier(acc, m, (int)s) + p->output_offset;
                    *output++ = (int8_t)ta_clamp_i32(v, p->activation_min, p->activation_max);
                }
            }
        }
    }
    return TA_OK;
}

int ta_transpose_conv_s16(const ta_transpose_conv_params_t *p, const int16_t *input,
                          const int8_t *weights, const int64_t *bias,
                          const int32_t *multipliers, const int32_t *shifts, int16_t *output)
{
    const int32_t ic = p->input_depth, sh = p->stride_height, sw = p->stride_width;
    const size_t filter_size = (size_t)p->filter_height * (size_t)p->filter_width * (size_t)ic;
    for (int32_t b = 0; b < p->batches; b++) {
        const int16_t *in_b =
            input + (size_t)b * (size_t)p->input_height * (size_t)p->input_width * (size_t)ic;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t ny = oy + p->pad_top;
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const int32_t nx = ox + p->pad_left;
                for (int32_t o = 0; o < p->output_depth; o++) {
                    const int8_t *w_o = weights + (size_t)o * filter_size;
                    int64_t acc = bias ? bias[o] : 0;
                    for (int32_t ky = ny % sh; ky < p->filter_height && ky <= ny; ky += sh) {
                        const int32_t iy = (ny - ky) / sh;
                        if (iy >= p->input_height)
                            continue;
                        for (int32_t kx = nx % sw; kx < p->filter_width && kx <= nx; kx += sw) {
                            const int32_t ix = (nx - kx) / sw;
                            if (ix >= p->input_width)
                                continue;
                            const int8_t *w = w_o + ((size_t)ky * (size_t)p->filter_width + (size_t)kx) * (size_t)ic;
                            const int16_t *x = in_b + ((size_t)iy * (size_t)p->input_width + (size_t)ix) * (size_t)ic;
                            for (int32_t c = 0; c < ic; c++)
                                acc += (int64_t)((int32_t)w[c] * (int32_t)x[c]);
                        }
                    }
                    const int32_t m = multipliers ? multipliers[o] : p->multiplier;
                    const int32_t s = shifts ? shifts[o] : p->shift;
                    int32_t v = ta_mul_by_quantized_multiplier_64(acc, m, (int)s) + p->output_offset;
                    *output++ = (int16_t)ta_clamp_i32(v, p->activation_min, p->activation_max);
                }
            }
        }
    }
    return TA_OK;
}
