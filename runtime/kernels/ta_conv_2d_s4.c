/* ta_conv_2d_s4.c - CONV_2D, packed int4 weights; see the header. */
#include "ta_conv_2d_s4.h"

#include "../include/ta_s4.h"
#include "../include/ta_status.h"

#include <stddef.h>
#include <string.h>

/* One tap's channels [first, first + n) of a filter row against `in`
   (NULL: outside the image, every channel reads pad_value). */
static int32_t tap_sum(int32_t acc, const int8_t *in, const int8_t *row, int32_t first, int32_t n,
                       int32_t pad_value)
{
    if (in && first % 8 == 0 && n % 8 == 0)
        return ta_dot_s4(acc, in, row + first / 2, n);
    for (int32_t c = 0; c < n; c++) {
        const int32_t x = in ? in[c] : pad_value;
        acc = (int32_t)((uint32_t)acc + (uint32_t)(x * ta_s4_at(row, first + c)));
    }
    return acc;
}

/* Where tap (iy, ix)'s channels start at channel0, NULL outside the image. */
static const int8_t *tap_source(const ta_conv_2d_s4_params_t *p, const int8_t *in_b, int32_t iy,
                                int32_t ix, int32_t channel0)
{
    if (iy < 0 || iy >= p->input_height || ix < 0 || ix >= p->input_width)
        return NULL;
    return in_b + ((size_t)iy * (size_t)p->input_width + (size_t)ix) * (size_t)p->input_depth +
           (size_t)channel0;
}

/* The sum of one output channel at one output pixel. */
static int32_t pixel_sum(const ta_conv_2d_s4_params_t *p, const int8_t *in_b, const int8_t *row,
                         int32_t acc, int32_t y0, int32_t x0, int32_t channel0)
{
    const int32_t fd = p->filter_depth;
    int32_t tap = 0;
    for (int32_t ky = 0; ky < p->filter_height; ky++) {
        const int32_t iy = y0 + ky * p->dilation_height;
        for (int32_t kx = 0; kx < p->filter_width; kx++, tap++) {
            const int8_t *src = tap_source(p, in_b, iy, x0 + kx * p->dilation_width, channel0);
            acc = tap_sum(acc, src, row, tap * fd, fd, p->pad_value);
        }
    }
    return acc;
}

/* pixel_sum for four output channels (one group) whose rows lie `stride`
   bytes apart: each input load serves the four. */
static void pixel_sum4(const ta_conv_2d_s4_params_t *p, const int8_t *in_b, const int8_t *rows,
                       size_t stride, int32_t acc[4], int32_t y0, int32_t x0, int32_t channel0)
{
    const int32_t fd = p->filter_depth;
    int32_t tap = 0;
    for (int32_t ky = 0; ky < p->filter_height; ky++) {
        const int32_t iy = y0 + ky * p->dilation_height;
        for (int32_t kx = 0; kx < p->filter_width; kx++, tap++) {
            const int8_t *src = tap_source(p, in_b, iy, x0 + kx * p->dilation_width, channel0);
            if (src && fd % 8 == 0) {
                ta_dot4_s4(acc, src, rows + (size_t)(tap * fd / 2), stride, fd);
                continue;
            }
            for (int r = 0; r < 4; r++)
                acc[r] = tap_sum(acc[r], src, rows + (size_t)r * stride, tap * fd, fd,
                                 p->pad_value);
        }
    }
}

/* Filters of few channels per tap (fd not a multiple of 8) up to this
   many values are gathered into a patch first, so that every filter is
   one dot product over whole groups. */
#define TA_CONV_S4_MAX_PATCH 512

/* The window of one output pixel in the filter's (ky, kx, c) order,
   out-of-image taps as pad_value. */
static void gather_patch(const ta_conv_2d_s4_params_t *p, const int8_t *in_b, int32_t y0,
                         int32_t x0, int8_t *patch)
{
    const int32_t fd = p->filter_depth;
    for (int32_t ky = 0; ky < p->filter_height; ky++) {
        const int32_t iy = y0 + ky * p->dilation_height;
        for (int32_t kx = 0; kx < p->filter_width; kx++, patch += fd) {
            const int32_t ix = x0 + kx * p->dilation_width;
            if (iy >= 0 && iy < p->input_height && ix >= 0 && ix < p->input_width)
                memcpy(patch,
                       in_b + ((size_t)iy * (size_t)p->input_width + (size_t)ix) *
                                  (size_t)p->input_depth,
                       (size_t)fd);
            else
                memset(patch, p->pad_value, (size_t)fd);
        }
    }
}

/* An output pixel of an ungrouped filter from its gathered patch. */
static void patch_pixel(const ta_conv_2d_s4_params_t *p, const ta_s4_requant_t *q,
                        const int8_t *patch, int32_t size, const int8_t *weights, size_t stride,
                        const int32_t *bias_sum, int8_t *out)
{
    int32_t o = 0;
    for (; o + 4 <= p->output_depth; o += 4) {
        int32_t acc[4];
        for (int r = 0; r < 4; r++)
            acc[r] = bias_sum ? bias_sum[o + r] : 0;
        ta_dot4_s4(acc, patch, weights + (size_t)o * stride, stride, size);
        ta_s4_requantize4(q, o, acc, out);
    }
    for (; o < p->output_depth; o++)
        out[o] = ta_s4_requantize(
            q, o, ta_dot_s4(bias_sum ? bias_sum[o] : 0, patch, weights + (size_t)o * stride, size));
}

/* One output pixel, every channel: four at a time within a group. */
static void output_pixel(const ta_conv_2d_s4_params_t *p, const ta_s4_requant_t *q,
                         const int8_t *in_b, const int8_t *weights, size_t stride,
                         const int32_t *bias_sum, int32_t y0, int32_t x0, int8_t *out)
{
    for (int32_t o = 0; o < p->output_depth;) {
        const int32_t group = o / p->filters_per_group;
        const int32_t channel0 = group * p->filter_depth;
        if (o + 4 <= (group + 1) * p->filters_per_group) {
            int32_t acc[4];
            for (int r = 0; r < 4; r++)
                acc[r] = bias_sum ? bias_sum[o + r] : 0;
            pixel_sum4(p, in_b, weights + (size_t)o * stride, stride, acc, y0, x0, channel0);
            ta_s4_requantize4(q, o, acc, out);
            o += 4;
            continue;
        }
        const int32_t acc = pixel_sum(p, in_b, weights + (size_t)o * stride,
                                      bias_sum ? bias_sum[o] : 0, y0, x0, channel0);
        out[o] = ta_s4_requantize(q, o, acc);
        o++;
    }
}

int ta_conv_2d_s4(const ta_conv_2d_s4_params_t *p, const int8_t *input, const int8_t *weights,
                  const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                  int8_t *output)
{
    const int32_t size = p->filter_height * p->filter_width * p->filter_depth;
    const size_t stride = (size_t)ta_s4_row_bytes(size);
    const ta_s4_requant_t q = {multipliers,      shifts,           p->multiplier,
                               p->shift,         p->output_offset, p->activation_min,
                               p->activation_max};
    /* An ungrouped filter whose taps are not whole groups: one patch. */
    const int use_patch = p->filters_per_group == p->output_depth && p->filter_depth % 8 != 0 &&
                          size <= TA_CONV_S4_MAX_PATCH;
    /* The patch's tail up to whole groups stays 0 (the rows' padding
       nibbles are 0 too): every dot product runs over whole groups. */
    int8_t patch[TA_CONV_S4_MAX_PATCH];
    const int32_t patch_size = ta_s4_row_bytes(size) * 2;
    if (use_patch)
        memset(patch, 0, (size_t)patch_size);
    const size_t image = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
    int8_t *out = output;
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (size_t)b * image;
        for (int32_t y = 0; y < p->output_height; y++) {
            const int32_t y0 = y * p->stride_height - p->pad_top;
            for (int32_t x = 0; x < p->output_width; x++, out += p->output_depth) {
                const int32_t x0 = x * p->stride_width - p->pad_left;
                if (use_patch) {
                    gather_patch(p, in_b, y0, x0, patch);
                    patch_pixel(p, &q, patch, patch_size, weights, stride, bias_sum, out);
                } else {
                    output_pixel(p, &q, in_b, weights, stride, bias_sum, y0, x0, out);
                }
            }
        }
    }
    return TA_OK;
}
