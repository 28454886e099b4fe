/* ta_transpose_conv.c - TRANSPOSE_CONV kernels; see the header. */
#include "ta_transpose_conv.h"

#include "../include/ta_element.h"
#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include <stdbool.h>
#include <stddef.h>

/* int8 activations (wide false: int32 accumulator, input offset, int32
   bias) or int16 ones (wide true: int64 accumulator and bias, zero points
   0), int8 weights either way, as the reference's two kernels. */
TA_ALWAYS_INLINE int transpose_conv(const ta_transpose_conv_params_t *p, const void *input,
                                    const int8_t *weights, const void *bias,
                                    const int32_t *multipliers, const int32_t *shifts, void *output,
                                    bool wide)
{
    const int32_t ic = p->input_depth, sh = p->stride_height, sw = p->stride_width;
    const size_t filter_size = (size_t)p->filter_height * (size_t)p->filter_width * (size_t)ic;
    const size_t image = (size_t)p->input_height * (size_t)p->input_width * (size_t)ic;
    size_t k = 0;
    for (int32_t b = 0; b < p->batches; b++) {
        const size_t in_b = (size_t)b * image;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t ny = oy + p->pad_top; /* >= 0 */
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const int32_t nx = ox + p->pad_left;
                for (int32_t o = 0; o < p->output_depth; o++) {
                    const int8_t *w_o = weights + (size_t)o * filter_size;
                    int32_t acc = 0;
                    int64_t acc64 = 0;
                    if (bias && wide)
                        acc64 = ((const int64_t *)bias)[o];
                    else if (bias)
                        acc = ((const int32_t *)bias)[o];
                    /* Taps with ny - ky a multiple of the stride; iy falls as ky rises. */
                    for (int32_t ky = ny % sh; ky < p->filter_height && ky <= ny; ky += sh) {
                        const int32_t iy = (ny - ky) / sh;
                        if (iy >= p->input_height)
                            continue;
                        for (int32_t kx = nx % sw; kx < p->filter_width && kx <= nx; kx += sw) {
                            const int32_t ix = (nx - kx) / sw;
                            if (ix >= p->input_width)
                                continue;
                            const int8_t *w = w_o +
                                              ((size_t)ky * (size_t)p->filter_width + (size_t)kx) *
                                                  (size_t)ic;
                            const size_t x = in_b +
                                             ((size_t)iy * (size_t)p->input_width + (size_t)ix) *
                                                 (size_t)ic;
                            if (wide) {
                                const int16_t *xs = (const int16_t *)input + x;
                                for (int32_t c = 0; c < ic; c++)
                                    acc64 += (int64_t)((int32_t)w[c] * (int32_t)xs[c]);
                            } else {
                                const int8_t *xs = (const int8_t *)input + x;
                                for (int32_t c = 0; c < ic; c++)
                                    acc += (int32_t)w[c] * ((int32_t)xs[c] + p->input_offset);
                            }
                        }
                    }
                    const int32_t m = multipliers ? multipliers[o] : p->multiplier;
                    const int32_t s = shifts ? shifts[o] : p->shift;
                    const int32_t v = (wide ? ta_mul_by_quantized_multiplier_64(acc64, m, (int)s)
                                            : ta_mul_by_quantized_multiplier(acc, m, (int)s)) +
                                      p->output_offset;
                    const int32_t clamped = ta_clamp_i32(v, p->activation_min, p->activation_max);
                    ta_store_element(output, k++, clamped, wide);
                }
            }
        }
    }
    return TA_OK;
}

int ta_transpose_conv_s8(const ta_transpose_conv_params_t *p, const int8_t *input,
                         const int8_t *weights, const int32_t *bias, const int32_t *multipliers,
                         const int32_t *shifts, int8_t *output)
{
    return transpose_conv(p, input, weights, bias, multipliers, shifts, output, false);
}

int ta_transpose_conv_s16(const ta_transpose_conv_params_t *p, const int16_t *input,
                          const int8_t *weights, const int64_t *bias, const int32_t *multipliers,
                          const int32_t *shifts, int16_t *output)
{
    return transpose_conv(p, input, weights, bias, multipliers, shifts, output, true);
}
