/* ta_conv_2d.c - CONV_2D kernels; see the header. */
#include "ta_conv_2d.h"

#include "../include/ta_quant.h"
#include "../include/ta_simd.h"
#include "../include/ta_status.h"

#include <stddef.h>
#include <string.h>

/* One filter row (ky) of output channel `o` at output column ix0, when its
   taps are contiguous in the input (no groups, no dilation): the taps inside
   the image are one dot product; each tap outside gives back the zero point
   the converter folded into bias_sum for it, i.e. pad_value * its weights. */
static int32_t contiguous_row_s8(const ta_conv_2d_params_t *p, int32_t acc, const int8_t *w,
                                 const int8_t *row, int32_t ix0)
{
    const int32_t fw = p->filter_width, fd = p->filter_depth;
    const int32_t lo = ix0 < 0 ? -ix0 : 0;
    const int32_t hi = ix0 + fw > p->input_width ? p->input_width - ix0 : fw;
    if (hi > lo)
        acc = ta_dot_s8(acc, w + (size_t)lo * (size_t)fd, row + (size_t)(ix0 + lo) * (size_t)fd,
                        (hi - lo) * fd);
    if (p->pad_value != 0 && (lo > 0 || hi < fw)) {
        const int32_t inside = hi > lo ? hi : lo;
        int32_t clipped = ta_sum_s8(0, w, lo * fd);
        clipped = ta_sum_s8(clipped, w + (size_t)inside * (size_t)fd, (fw - inside) * fd);
        acc += clipped * p->pad_value;
    }
    return acc;
}

/* The accumulator of output channel o at one output pixel: every tap,
   with padded taps giving back their folded zero points. */
static int32_t channel_s8(const ta_conv_2d_params_t *p, const int8_t *in_b, size_t row_size,
                          int32_t iy0, int32_t ix0, const int8_t *w, int32_t acc, int32_t o)
{
    const int32_t fd = p->filter_depth, fw = p->filter_width;
    const int32_t group_offset = (o / p->filters_per_group) * fd;
    const int contiguous = fd == p->input_depth && p->dilation_width == 1;
    for (int32_t ky = 0; ky < p->filter_height; ky++, w += (size_t)fw * (size_t)fd) {
        const int32_t iy = iy0 + ky * p->dilation_height;
        if (iy < 0 || iy >= p->input_height) {
            if (p->pad_value != 0)
                acc += ta_sum_s8(0, w, fw * fd) * p->pad_value;
            continue;
        }
        const int8_t *row = in_b + (size_t)iy * row_size;
        if (contiguous) {
            acc = contiguous_row_s8(p, acc, w, row, ix0);
            continue;
        }
        for (int32_t kx = 0; kx < fw; kx++) {
            const int8_t *wk = w + (size_t)kx * (size_t)fd;
            const int32_t ix = ix0 + kx * p->dilation_width;
            if (ix < 0 || ix >= p->input_width)
                acc += ta_sum_s8(0, wk, fd) * p->pad_value;
            else
                acc = ta_dot_s8(acc, wk,
                                row + (size_t)ix * (size_t)p->input_depth + (size_t)group_offset,
                                fd);
        }
    }
    return acc;
}

enum { BLOCK = 16, MAX_PATCH = 256 };

/* The input values one output pixel's filter sees, in weight order, with
   the zero point (pad_value) for taps outside the image: the converter
   folded -zero_point * sum(weights) into bias_sum, so a padded tap then
   contributes exactly nothing, as in TFLite. */
static void gather_patch(const ta_conv_2d_params_t *p, const int8_t *in_b, size_t row_size,
                         int32_t iy0, int32_t ix0, int8_t *patch)
{
    const int32_t fd = p->filter_depth, fw = p->filter_width;
    const size_t filter_row = (size_t)fw * (size_t)fd;
    for (int32_t ky = 0; ky < p->filter_height; ky++, patch += filter_row) {
        const int32_t iy = iy0 + ky * p->dilation_height;
        if (iy < 0 || iy >= p->input_height) {
            memset(patch, (int8_t)p->pad_value, filter_row);
            continue;
        }
        const int8_t *row = in_b + (size_t)iy * row_size;
        if (p->dilation_width == 1) {
            /* The taps inside the image are one run of input. */
            const int32_t lo = ix0 < 0 ? (-ix0 < fw ? -ix0 : fw) : 0;
            int32_t hi = p->input_width - ix0;
            hi = hi > fw ? fw : (hi < lo ? lo : hi);
            memset(patch, (int8_t)p->pad_value, (size_t)lo * (size_t)fd);
            memcpy(patch + (size_t)lo * (size_t)fd, row + (size_t)(ix0 + lo) * (size_t)fd,
                   (size_t)(hi - lo) * (size_t)fd);
            memset(patch + (size_t)hi * (size_t)fd, (int8_t)p->pad_value,
                   (size_t)(fw - hi) * (size_t)fd);
            continue;
        }
        for (int32_t kx = 0; kx < fw; kx++) {
            const int32_t ix = ix0 + kx * p->dilation_width;
            int8_t *dst = patch + (size_t)kx * (size_t)fd;
            if (ix < 0 || ix >= p->input_width)
                memset(dst, (int8_t)p->pad_value, (size_t)fd);
            else
                memcpy(dst, row + (size_t)ix * (size_t)fd, (size_t)fd);
        }
    }
}

int ta_conv_2d_s8(const ta_conv_2d_params_t *p, const int8_t *input, const int8_t *weights,
                  const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                  int8_t *output)
{
    const int32_t fd = p->filter_depth, fw = p->filter_width, fh = p->filter_height;
    const size_t filter_size = (size_t)fh * (size_t)fw * (size_t)fd;
    const size_t filter_row = (size_t)fw * (size_t)fd;
    const size_t row_size = (size_t)p->input_width * (size_t)p->input_depth;
    /* Ungrouped filters read every input channel: a row of taps without
       horizontal dilation is contiguous in the input, and one pixel's taps
       can be laid out as one vector. */
    const int ungrouped = fd == p->input_depth;
    const int rows_contiguous = ungrouped && p->dilation_width == 1;
    /* Short rows waste vector lanes: lay the taps out as one vector instead
       (a 1x1 filter inside the image reads the input pixel in place). */
    const int prefer_patch = filter_size <= MAX_PATCH && (filter_row < 64 || fh == 1);
    int8_t patch[MAX_PATCH];
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (size_t)b * (size_t)p->input_height * row_size;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            const int rows_inside = iy0 >= 0 && iy0 + (fh - 1) * p->dilation_height < p->input_height;
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                const int inside = rows_inside && ix0 >= 0 &&
                                   ix0 + (fw - 1) * p->dilation_width < p->input_width;
                /* x: the taps as one vector; rows: the taps row by row in place. */
                const int8_t *x = NULL;
                int rows = 0;
                if (inside && ungrouped && fh == 1 && fw == 1)
                    x = in_b + (size_t)iy0 * row_size + (size_t)ix0 * (size_t)p->input_depth;
                else if (inside && rows_contiguous && !prefer_patch)
                    rows = 1;
                else if (ungrouped && filter_size <= MAX_PATCH) {
                    gather_patch(p, in_b, row_size, iy0, ix0, patch);
                    x = patch;
                }
                for (int32_t o0 = 0; o0 < p->output_depth; o0 += BLOCK) {
                    const int32_t n = p->output_depth - o0 < BLOCK ? p->output_depth - o0 : BLOCK;
                    int32_t acc[BLOCK];
                    int32_t k = 0;
                    for (int32_t j = 0; j < n; j++)
                        acc[j] = bias_sum ? bias_sum[o0 + j] : 0;
                    /* Four output channels share each load of the taps. */
                    for (; (x || rows) && k + 4 <= n; k += 4) {
                        const int8_t *w = weights + (size_t)(o0 + k) * filter_size;
                        if (x) {
                            ta_dot4_s8(acc + k, w, w + filter_size, w + 2 * filter_size,
                                       w + 3 * filter_size, x, (int32_t)filter_size);
                            continue;
                        }
                        for (int32_t ky = 0; ky < fh; ky++, w += filter_row) {
                            const int8_t *xr = in_b +
                                               (size_t)(iy0 + ky * p->dilation_height) * row_size +
                                               (size_t)ix0 * (size_t)p->input_depth;
                            ta_dot4_s8(acc + k, w, w + filter_size, w + 2 * filter_size,
                                       w + 3 * filter_size, xr, (int32_t)filter_row);
                        }
                    }
                    for (; x && k < n; k++)
                        acc[k] = ta_dot_s8(acc[k], weights + (size_t)(o0 + k) * filter_size, x,
                                           (int32_t)filter_size);
                    for (; k < n; k++)
                        acc[k] = channel_s8(p, in_b, row_size, iy0, ix0,
                                            weights + (size_t)(o0 + k) * filter_size, acc[k],
                                            o0 + k);
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
                            acc = ta_dot_s16_s8(acc, x, w, fd);
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
