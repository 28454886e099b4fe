/* ta_depthwise_conv_2d_s4.c - DEPTHWISE_CONV_2D, packed int4 weights; see the header. */
#include "ta_depthwise_conv_2d_s4.h"

#include "ta_depthwise_conv_2d_s4_dsp.h"
#include "ta_depthwise_conv_2d_s4_mve.h"

#include "../include/ta_quant.h"
#include "../include/ta_s4.h"
#include "../include/ta_status.h"

#include <stddef.h>
#include <string.h>

/* Channels per block: accumulators kept on the stack while the taps are walked. */
#define TA_DW_S4_BLOCK 32

/* acc[j] += x[j] * w[j] for the n channels of a block starting a group:
   eight values from four bytes (byte k: value k low, value k + 4 high). */
static void tap_block(int32_t *acc, const int8_t *x, const int8_t *row, int32_t n)
{
    int32_t j = 0;
    for (; j + 8 <= n; j += 8, row += 4)
        for (int k = 0; k < 4; k++) {
            const int32_t b = row[k];
            const int32_t lo = (int32_t)(int8_t)(uint8_t)((uint32_t)b << 4) >> 4;
            acc[j + k] += x[j + k] * lo;
            acc[j + k + 4] += x[j + k + 4] * (b >> 4);
        }
    for (; j < n; j++)
        acc[j] += x[j] * ta_s4_at(row, j % 8); /* row: the tail's group */
}

/* The block of n output channels from o0 at the pixel whose window starts
   at (y0, x0). */
static void block_sums(const ta_depthwise_conv_2d_s4_params_t *p, const int8_t *in_b,
                       const int8_t *weights, size_t stride, int32_t *acc, int32_t y0, int32_t x0,
                       int32_t o0, int32_t n)
{
    const int8_t *row = weights;
    for (int32_t ky = 0; ky < p->filter_height; ky++) {
        const int32_t iy = y0 + ky * p->dilation_height;
        for (int32_t kx = 0; kx < p->filter_width; kx++, row += stride) {
            const int32_t ix = x0 + kx * p->dilation_width;
            const int inside = iy >= 0 && iy < p->input_height && ix >= 0 && ix < p->input_width;
            const int8_t *px = in_b + ((size_t)(inside ? iy : 0) * (size_t)p->input_width +
                                       (size_t)(inside ? ix : 0)) *
                                          (size_t)p->input_depth;
            if (inside && p->depth_multiplier == 1) {
                tap_block(acc, px + o0, row + o0 / 2, n);
                continue;
            }
            for (int32_t j = 0; j < n; j++) {
                const int32_t x = inside ? px[(o0 + j) / p->depth_multiplier] : p->pad_value;
                acc[j] += x * ta_s4_at(row, o0 + j);
            }
        }
    }
}

static void output_row(const ta_depthwise_conv_2d_s4_params_t *p, const int8_t *in_b,
                       const int8_t *weights, const int32_t *bias_sum, const int32_t *multipliers,
                       const int32_t *shifts, int32_t y, int8_t *out)
{
    const size_t stride = (size_t)ta_s4_row_bytes(p->output_depth);
    const int32_t y0 = y * p->stride_height - p->pad_top;
    for (int32_t x = 0; x < p->output_width; x++, out += p->output_depth) {
        const int32_t x0 = x * p->stride_width - p->pad_left;
        for (int32_t o0 = 0; o0 < p->output_depth; o0 += TA_DW_S4_BLOCK) {
            const int32_t left = p->output_depth - o0;
            const int32_t n = left < TA_DW_S4_BLOCK ? left : TA_DW_S4_BLOCK;
            int32_t acc[TA_DW_S4_BLOCK];
            for (int32_t j = 0; j < n; j++)
                acc[j] = bias_sum ? bias_sum[o0 + j] : 0;
            block_sums(p, in_b, weights, stride, acc, y0, x0, o0, n);
            for (int32_t j = 0; j < n; j++) {
                const int32_t o = o0 + j;
                const int32_t m = multipliers ? multipliers[o] : p->multiplier;
                const int32_t s = shifts ? shifts[o] : p->shift;
                const int32_t v = ta_mul_by_quantized_multiplier(acc[j], m, s) + p->output_offset;
                out[o] = (int8_t)ta_clamp_i32(v, p->activation_min, p->activation_max);
            }
        }
    }
}

#if defined(TA_DW_S4_LANES)
/* Depth multiplier 1 on Helium or DSP: one output row, TA_DW_S4_LANES
   channels at a time outside, their weights unpacked once for the row's
   pixels (ta_depthwise_conv_2d_s4_mve.h, _dsp.h). */
static void m1_row(const ta_depthwise_conv_2d_s4_params_t *p, const int8_t *in_b,
                   const int8_t *weights, const int32_t *bias_sum, const int32_t *multipliers,
                   const int32_t *shifts, int32_t y, int8_t *out)
{
    const ta_s4_requant_t q = {multipliers, shifts,          p->multiplier,  p->shift,
                               p->output_offset, p->activation_min, p->activation_max};
    const int32_t kh = p->filter_height, kw = p->filter_width, taps = kh * kw;
    const int32_t depth = p->output_depth, in_w = p->input_width;
    const size_t stride = (size_t)ta_s4_row_bytes(depth);
    const int32_t y0 = y * p->stride_height - p->pad_top;
    int8_t pad[TA_DW_S4_LANES];
    memset(pad, p->pad_value, sizeof pad);
    /* an interior pixel's taps: offsets from its window's first tap */
    ptrdiff_t off[TA_DW_S4_TAPS];
    int rows_inside = 1;
    for (int32_t ky = 0, t = 0; ky < kh; ky++) {
        const int32_t iy = y0 + ky * p->dilation_height;
        rows_inside &= iy >= 0 && iy < p->input_height;
        for (int32_t kx = 0; kx < kw; kx++, t++)
            off[t] = ((ptrdiff_t)ky * p->dilation_height * in_w + (ptrdiff_t)kx * p->dilation_width) *
                     depth;
    }
    const int32_t span = (kw - 1) * p->dilation_width;
    for (int32_t c0 = 0; c0 < depth; c0 += TA_DW_S4_LANES) {
        const int32_t n = depth - c0 < TA_DW_S4_LANES ? depth - c0 : TA_DW_S4_LANES;
        ta_dw_s4_block_t blk;
        ta_dw_s4_prepare(&blk, weights, stride, taps, &q, bias_sum, c0, n);
        for (int32_t x = 0; x < p->output_width; x++) {
            const int32_t x0 = x * p->stride_width - p->pad_left;
            int8_t *o = out + (size_t)x * (size_t)depth;
            if (rows_inside && x0 >= 0 && x0 + span < in_w) {
                const int8_t *base = in_b + ((ptrdiff_t)y0 * in_w + x0) * depth + c0;
                ta_dw_s4_pixel(&blk, &q, NULL, base, off, taps, o);
                continue;
            }
            const int8_t *x_at[TA_DW_S4_TAPS];
            for (int32_t ky = 0, t = 0; ky < kh; ky++) {
                const int32_t iy = y0 + ky * p->dilation_height;
                for (int32_t kx = 0; kx < kw; kx++, t++) {
                    const int32_t ix = x0 + kx * p->dilation_width;
                    x_at[t] = iy >= 0 && iy < p->input_height && ix >= 0 && ix < in_w
                                  ? in_b + ((ptrdiff_t)iy * in_w + ix) * depth + c0
                                  : pad;
                }
            }
            ta_dw_s4_pixel(&blk, &q, x_at, NULL, off, taps, o);
        }
    }
}
#endif

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
#if defined(TA_DW_S4_LANES)
        if (p->depth_multiplier == 1 && p->filter_height * p->filter_width <= TA_DW_S4_TAPS) {
            m1_row(p, input + (size_t)b * image, weights, bias_sum, multipliers, shifts, y,
                   output + (size_t)row * out_row);
            continue;
        }
#endif
        output_row(p, input + (size_t)b * image, weights, bias_sum, multipliers, shifts, y,
                   output + (size_t)row * out_row);
    }
    return TA_OK;
}
