/* ta_transpose_conv_f32.c - float32 TRANSPOSE_CONV; see the header. */
#include "ta_transpose_conv_f32.h"

#include "../include/ta_float.h"
#include "../include/ta_status.h"

#include <stddef.h>

/* Adds one input pixel's products to the output taps it reaches. */
static void scatter_pixel(const ta_transpose_conv_f32_params_t *p, const float *pixel,
                          const float *filter, float *image, int32_t out_y0, int32_t out_x0)
{
    const size_t in_c = (size_t)p->input_depth, out_c = (size_t)p->output_depth;
    const size_t filter_size = (size_t)p->filter_height * (size_t)p->filter_width * in_c;
    for (size_t c = 0; c < in_c; c++)
        for (int32_t ky = 0; ky < p->filter_height; ky++) {
            const int32_t y = out_y0 + ky;
            for (int32_t kx = 0; kx < p->filter_width; kx++) {
                const int32_t x = out_x0 + kx;
                if (y < 0 || y >= p->output_height || x < 0 || x >= p->output_width)
                    continue;
                float *out = image + ((size_t)y * (size_t)p->output_width + (size_t)x) * out_c;
                const float *w = filter +
                                 ((size_t)ky * (size_t)p->filter_width + (size_t)kx) * in_c + c;
                for (size_t o = 0; o < out_c; o++)
                    out[o] += pixel[c] * w[o * filter_size];
            }
        }
}

int ta_transpose_conv_f32(const ta_transpose_conv_f32_params_t *p, const float *input,
                          const float *filter, const float *bias, float *output)
{
    const size_t in_image = (size_t)p->input_height * (size_t)p->input_width *
                            (size_t)p->input_depth;
    const size_t out_pixels = (size_t)p->output_height * (size_t)p->output_width;
    const size_t out_c = (size_t)p->output_depth;
    const size_t total = (size_t)p->batches * out_pixels * out_c;
    for (size_t i = 0; i < total; i++)
        output[i] = 0.0f;
    for (int32_t b = 0; b < p->batches; b++) {
        float *image = output + (size_t)b * out_pixels * out_c;
        for (int32_t y = 0; y < p->input_height; y++)
            for (int32_t x = 0; x < p->input_width; x++) {
                const float *pixel = input + (size_t)b * in_image +
                                     ((size_t)y * (size_t)p->input_width + (size_t)x) *
                                         (size_t)p->input_depth;
                scatter_pixel(p, pixel, filter, image, y * p->stride_height - p->pad_top,
                              x * p->stride_width - p->pad_left);
            }
    }
    if (bias)
        for (size_t i = 0; i < total; i++)
            output[i] += bias[i % out_c];
    for (size_t i = 0; i < total; i++)
        output[i] = ta_activation_f32(output[i], p->activation_min, p->activation_max);
    return TA_OK;
}
