/* ta_conv_2d_s4.c - CONV_2D, packed int4 weights; see the header. */
#include "ta_conv_2d_s4.h"

#include "ta_conv_2d_s4_simd.h"

#include "../include/ta_matmul_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_s4.h"
#include "../include/ta_status.h"

#include <string.h>

/* Pixels that share each weight load. */
enum { PIXELS = TA_CONV_2D_S4_PIXELS, GROUP = TA_CONV_2D_S4_GROUP };

/* n bytes from src to dst: rows of a window are short (a few taps of a
   few channels), where a vector copy beats a call of memcpy. */
static inline void copy_run(int8_t *dst, const int8_t *src, int32_t n)
{
#if defined(TA_S4_MVE)
    for (int32_t i = 0; i < n; i += 16) {
        const mve_pred16_t lanes = vctp8q((uint32_t)(n - i));
        vstrbq_p_s8(dst + i, vldrbq_z_s8(src + i, lanes), lanes);
    }
#else
    memcpy(dst, src, (size_t)n);
#endif
}

/* The window of one output pixel in the filter's (ky, kx, c) order,
   out-of-image taps as pad_value; a row of taps inside is one copy. */
static void gather_patch(const ta_conv_2d_s4_params_t *p, const int8_t *in_b, int32_t y0,
                         int32_t x0, int8_t *patch)
{
    const int32_t fd = p->filter_depth;
    const size_t pixel = (size_t)p->input_depth;
    for (int32_t ky = 0; ky < p->filter_height; ky++) {
        const int32_t iy = y0 + ky * p->dilation_height;
        const int32_t last_x = x0 + (p->filter_width - 1) * p->dilation_width;
        const int row_inside = iy >= 0 && iy < p->input_height;
        const int8_t *row = in_b + (size_t)(row_inside ? iy : 0) * (size_t)p->input_width * pixel;
        if (row_inside && x0 >= 0 && last_x < p->input_width &&
            (p->dilation_width == 1 || p->filter_width == 1) && (size_t)fd == pixel) {
            copy_run(patch, row + (size_t)x0 * pixel, p->filter_width * fd);
            patch += p->filter_width * fd;
            continue;
        }
        for (int32_t kx = 0; kx < p->filter_width; kx++, patch += fd) {
            const int32_t ix = x0 + kx * p->dilation_width;
            if (row_inside && ix >= 0 && ix < p->input_width)
                copy_run(patch, row + (size_t)ix * pixel, fd);
            else
                memset(patch, p->pad_value, (size_t)fd);
        }
    }
}

/* Every output channel of the pixels whose windows px holds; out[k]
   receives pixel k's channels, NULL: a repeated pixel. */
static void pixels_out(const ta_conv_2d_s4_params_t *p, const ta_conv_2d_s4_out_t *q,
                       ta_conv_2d_s4_pixels_t *px, const uint8_t *weights,
                       int8_t *const out[PIXELS])
{
    const int32_t steps = ta_conv_2d_s4_steps(px->n), out_c = p->output_depth;
    ta_conv_2d_s4_prepare(px);
    for (int32_t o = 0; o < out_c; o += GROUP) {
        int32_t acc[PIXELS][GROUP];
        const int32_t count = out_c - o < GROUP ? out_c - o : GROUP;
        ta_conv_2d_s4_group_sums(px, weights + (size_t)(o / 4) * (size_t)steps * 64u, steps,
                                 (count + 3) / 4 * 4, acc);
        ta_conv_2d_s4_group_out(q, px, acc, o, count, out);
    }
}

/* Grouped filters, or windows too long for a patch: one value at a time. */
static void pixel_by_value(const ta_conv_2d_s4_params_t *p, const ta_s4_requant_t *q,
                           const int8_t *in_b, const uint8_t *weights, const int32_t *bias_sum,
                           int32_t y0, int32_t x0, int8_t *out)
{
    const int32_t fd = p->filter_depth;
    const int32_t steps = ta_conv_2d_s4_steps(p->filter_height * p->filter_width * fd);
    for (int32_t o = 0; o < p->output_depth; o++) {
        const int32_t channel0 = o / p->filters_per_group * fd;
        int32_t acc = bias_sum ? bias_sum[o] : 0, i = 0;
        for (int32_t ky = 0; ky < p->filter_height; ky++) {
            const int32_t iy = y0 + ky * p->dilation_height;
            for (int32_t kx = 0; kx < p->filter_width; kx++) {
                const int32_t ix = x0 + kx * p->dilation_width;
                const int inside = iy >= 0 && iy < p->input_height && ix >= 0 &&
                                   ix < p->input_width;
                const int8_t *px = in_b +
                                   ((size_t)(inside ? iy : 0) * (size_t)p->input_width +
                                    (size_t)(inside ? ix : 0)) *
                                       (size_t)p->input_depth +
                                   (size_t)channel0;
                for (int32_t c = 0; c < fd; c++, i++) {
                    const int32_t v = inside ? px[c] : p->pad_value;
                    acc = (int32_t)((uint32_t)acc +
                                    (uint32_t)(v * ta_conv_2d_s4_at(weights, steps, o, i)));
                }
            }
        }
        out[o] = ta_s4_requantize(q, o, acc);
    }
}

/* Where output pixel `index` (raster order over the batch) reads and writes. */
typedef struct {
    int32_t b, y0, x0;
    int8_t *out;
} pixel_at_t;

static pixel_at_t locate(const ta_conv_2d_s4_params_t *p, int32_t index, int8_t *output)
{
    const int32_t per_image = p->output_height * p->output_width;
    const int32_t b = index / per_image, yx = index % per_image;
    const pixel_at_t at = {b, yx / p->output_width * p->stride_height - p->pad_top,
                           yx % p->output_width * p->stride_width - p->pad_left,
                           output + (size_t)index * (size_t)p->output_depth};
    return at;
}

int ta_conv_2d_s4(const ta_conv_2d_s4_params_t *p, const int8_t *input, const int8_t *weights,
                  const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                  int8_t *output)
{
    const int32_t n = p->filter_height * p->filter_width * p->filter_depth;
    const uint8_t *w = (const uint8_t *)weights;
    const ta_s4_requant_t q = {multipliers,      shifts,           p->multiplier,
                               p->shift,         p->output_offset, p->activation_min,
                               p->activation_max};
    const size_t image = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
    const int32_t pixels = p->batches * p->output_height * p->output_width;
    const int grouped = p->filters_per_group != p->output_depth;
    const int in_place = p->filter_height == 1 && p->filter_width == 1 && !grouped;
    if (grouped || (!in_place && n > TA_CONV_2D_S4_MAX_PATCH)) {
        for (int32_t i = 0; i < pixels; i++) {
            const pixel_at_t at = locate(p, i, output);
            pixel_by_value(p, &q, input + (size_t)at.b * image, w, bias_sum, at.y0, at.x0, at.out);
        }
        return TA_OK;
    }
    const ta_conv_2d_s4_out_t group_q = {bias_sum,          multipliers,      shifts,
                                         p->multiplier,     p->shift,         p->output_offset,
                                         p->activation_min, p->activation_max};
    /* gather_patch writes every byte a window reads: zeroed for the analyser */
    int8_t patches[PIXELS][TA_CONV_2D_S4_MAX_PATCH] = {{0}};
    ta_conv_2d_s4_pixels_t px;
    px.n = n;
    for (int32_t i = 0; i < pixels; i += PIXELS) {
        int8_t *out[PIXELS];
        for (int k = 0; k < PIXELS; k++) {
            /* Past the last pixel: the last one again, its outputs dropped. */
            const pixel_at_t at = locate(p, i + k < pixels ? i + k : pixels - 1, output);
            const int8_t *in_b = input + (size_t)at.b * image;
            out[k] = i + k < pixels ? at.out : NULL;
            if (in_place) {
                px.x[k] = in_b + ((size_t)at.y0 * (size_t)p->input_width + (size_t)at.x0) *
                                     (size_t)p->input_depth;
                continue;
            }
            gather_patch(p, in_b, at.y0, at.x0, patches[k]);
            px.x[k] = patches[k];
        }
        pixels_out(p, &group_q, &px, w, out);
    }
    return TA_OK;
}
