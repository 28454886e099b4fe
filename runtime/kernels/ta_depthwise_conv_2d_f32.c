/* ta_depthwise_conv_2d_f32.c - float32 DEPTHWISE_CONV_2D; see the header. */
#include "ta_depthwise_conv_2d_f32.h"

#include "../include/ta_float.h"
#include "../include/ta_status.h"

#include <stddef.h>

/* One output channel's window sum at (in_y0, in_x0), in TFLite's order. */
static float window_sum(const ta_depthwise_conv_2d_f32_params_t *p, const float *image,
                        int32_t in_y0, int32_t in_x0, const float *filter, int32_t channel,
                        int32_t out_channel)
{
    const size_t in_depth = (size_t)p->input_depth;
    const size_t out_depth = in_depth * (size_t)p->depth_multiplier;
    float total = 0.0f;
    for (int32_t ky = 0; ky < p->filter_height; ky++) {
        const int32_t y = in_y0 + ky * p->dilation_height;
        for (int32_t kx = 0; kx < p->filter_width; kx++) {
            const int32_t x = in_x0 + kx * p->dilation_width;
            if (y < 0 || y >= p->input_height || x < 0 || x >= p->input_width)
                continue;
            const float in = image[((size_t)y * (size_t)p->input_width + (size_t)x) * in_depth +
                                   (size_t)channel];
            const float w = filter[((size_t)ky * (size_t)p->filter_width + (size_t)kx) * out_depth +
                                   (size_t)out_channel];
            total += in * w;
        }
    }
    return total;
}

int ta_depthwise_conv_2d_f32(const ta_depthwise_conv_2d_f32_params_t *p, const float *input,
                             const float *filter, const float *bias, float *output)
{
    const size_t image = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
    float *out = output;
    for (int32_t b = 0; b < p->batches; b++) {
        const float *in = input + (size_t)b * image;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t in_y0 = oy * p->stride_height - p->pad_top;
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const int32_t in_x0 = ox * p->stride_width - p->pad_left;
                for (int32_t c = 0; c < p->input_depth; c++)
                    for (int32_t m = 0; m < p->depth_multiplier; m++) {
                        const int32_t o = c * p->depth_multiplier + m;
                        const float total = window_sum(p, in, in_y0, in_x0, filter, c, o);
                        const float bias_value = bias ? bias[o] : 0.0f;
                        *out++ = ta_activation_f32(total + bias_value, p->activation_min,
                                                   p->activation_max);
                    }
            }
        }
    }
    return TA_OK;
}
