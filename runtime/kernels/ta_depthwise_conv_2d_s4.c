/* ta_depthwise_conv_2d_s4.c - DEPTHWISE_CONV_2D, packed int4 weights; see the header. */
#include "ta_depthwise_conv_2d_s4.h"

#include "../include/ta_quant.h"
#include "../include/ta_s4.h"
#include "../include/ta_status.h"

#include <stddef.h>

/* The sum of output channel o at the pixel whose window starts at (y0, x0). */
static int32_t channel_sum(const ta_depthwise_conv_2d_s4_params_t *p, const int8_t *in_b,
                           const int8_t *weights, size_t stride, int32_t acc, int32_t y0,
                           int32_t x0, int32_t o)
{
    const int32_t c = o / p->depth_multiplier;
    const int8_t *row = weights;
    for (int32_t ky = 0; ky < p->filter_height; ky++) {
        const int32_t iy = y0 + ky * p->dilation_height;
        for (int32_t kx = 0; kx < p->filter_width; kx++, row += stride) {
            const int32_t ix = x0 + kx * p->dilation_width;
            const int inside = iy >= 0 && iy < p->input_height && ix >= 0 && ix < p->input_width;
            const int32_t x =
                inside ? in_b[((size_t)iy * (size_t)p->input_width + (size_t)ix) *
                                  (size_t)p->input_depth +
                              (size_t)c]
                       : p->pad_value;
            acc = (int32_t)((uint32_t)acc + (uint32_t)(x * ta_s4_at(row, o)));
        }
    }
    return acc;
}

static void output_row(const ta_depthwise_conv_2d_s4_params_t *p, const int8_t *in_b,
                       const int8_t *weights, const int32_t *bias_sum, const int32_t *multipliers,
                       const int32_t *shifts, int32_t y, int8_t *out)
{
    const size_t stride = (size_t)ta_s4_row_bytes(p->output_depth);
    const int32_t y0 = y * p->stride_height - p->pad_top;
    for (int32_t x = 0; x < p->output_width; x++, out += p->output_depth) {
        const int32_t x0 = x * p->stride_width - p->pad_left;
        for (int32_t o = 0; o < p->output_depth; o++) {
            const int32_t acc = channel_sum(p, in_b, weights, stride, bias_sum ? bias_sum[o] : 0,
                                            y0, x0, o);
            const int32_t m = multipliers ? multipliers[o] : p->multiplier;
            const int32_t s = shifts ? shifts[o] : p->shift;
            const int32_t v = ta_mul_by_quantized_multiplier(acc, m, s) + p->output_offset;
            out[o] = (int8_t)ta_clamp_i32(v, p->activation_min, p->activation_max);
        }
    }
}

int ta_depthwise_conv_2d_s4(const ta_depthwise_conv_2d_s4_params_t *p, const int8_t *input,
                            const int8_t *weights, const int32_t *bias_sum, const int32_t *bias,
                            const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    (void)bias;
    const size_t image = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
    const size_t out_row = (size_t)p->output_width * (size_t)p->output_depth;
    const int32_t rows = p->batches * p->output_height;
    for (int32_t r = 0; r < rows; r++) {
        const int32_t row = p->reverse_rows ? rows - 1 - r : r;
        const int32_t b = row / p->output_height, y = row % p->output_height;
        output_row(p, input + (size_t)b * image, weights, bias_sum, multipliers, shifts, y,
                   output + (size_t)row * out_row);
    }
    return TA_OK;
}
