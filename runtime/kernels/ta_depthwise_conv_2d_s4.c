/* ta_depthwise_conv_2d_s4.c - DEPTHWISE_CONV_2D, packed int4 weights; see the header. */
#include "ta_depthwise_conv_2d_s4.h"

#include "ta_depthwise_conv_2d_s4_dsp.h"
#include "ta_depthwise_conv_2d_s4_mve.h"

#include "../include/ta_quant.h"
#include "../include/ta_s4.h"
#include "../include/ta_status.h"

#include <stddef.h>

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

/* Out of line, so that its stack and m1_row's do not add up in the entry. */
__attribute__((noinline)) static void output_row(const ta_depthwise_conv_2d_s4_params_t *p,
                                                 const int8_t *in_b, const int8_t *weights,
                                                 const int32_t *bias_sum,
                                                 const int32_t *multipliers, const int32_t *shifts,
                                                 int32_t y, int8_t *out)
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
/* The taps [*lo, *hi) of a window dimension (k taps, d apart, from
   `start`) that fall inside 0..size - 1. */
static void taps_inside(int32_t start, int32_t k, int32_t d, int32_t size, int32_t *lo, int32_t *hi)
{
    int32_t a = 0, b = k;
    while (a < k && start + a * d < 0)
        a++;
    while (b > a && start + (b - 1) * d >= size)
        b--;
    *lo = a;
    *hi = b;
}

/* Depth multiplier 1 on Helium or DSP: one output row, TA_DW_S4_LANES
   channels at a time outside, their weights unpacked once for the row's
   pixels (ta_depthwise_conv_2d_s4_mve.h, _dsp.h). A window inside the
   input starts from bias_sum; a border window walks only its taps inside
   and starts from the plain bias, on x - zero point (as the int8 SIMD
   paths do). */
static void m1_row(const ta_depthwise_conv_2d_s4_params_t *p, const int8_t *in_b,
                   const int8_t *weights, const int32_t *bias_sum, const int32_t *bias,
                   const int32_t *multipliers, const int32_t *shifts, int32_t y, int8_t *out)
{
    const ta_s4_requant_t q = {multipliers,      shifts,           p->multiplier,
                               p->shift,         p->output_offset, p->activation_min,
                               p->activation_max};
    const int32_t kh = p->filter_height, kw = p->filter_width;
    const int32_t depth = p->output_depth, in_w = p->input_width;
    const size_t stride = (size_t)ta_s4_row_bytes(depth);
    const int32_t y0 = y * p->stride_height - p->pad_top;
    int32_t ky0, ky1;
    taps_inside(y0, kh, p->dilation_height, p->input_height, &ky0, &ky1);
    const ta_dw_s4_walk_t walk = {(ptrdiff_t)p->dilation_height * in_w * depth,
                                  (ptrdiff_t)p->dilation_width * depth, kw, p->pad_value, bias};
    /* the pixels [in_lo, in_hi) whose windows lie inside the input */
    const int32_t sw = p->stride_width, span = (kw - 1) * p->dilation_width;
    int32_t in_lo = 0, in_hi = p->output_width;
    if (ky0 > 0 || ky1 < kh)
        in_hi = 0;
    while (in_lo < in_hi && in_lo * sw - p->pad_left < 0)
        in_lo++;
    while (in_hi > in_lo && (in_hi - 1) * sw - p->pad_left + span >= in_w)
        in_hi--;
    for (int32_t c0 = 0; c0 < depth; c0 += TA_DW_S4_LANES) {
        const int32_t n = depth - c0 < TA_DW_S4_LANES ? depth - c0 : TA_DW_S4_LANES;
        ta_dw_s4_block_t blk;
        ta_dw_s4_prepare(&blk, p, weights, stride, kh * kw, &q, bias_sum, bias, c0, n);
        for (int32_t x = 0; x < p->output_width; x++) {
            const int32_t x0 = x * sw - p->pad_left;
            if (x == in_lo && in_lo < in_hi) {
                ta_dw_s4_run(&blk, &q, &walk, in_b + ((ptrdiff_t)y0 * in_w + x0) * depth + c0,
                             (ptrdiff_t)sw * depth, in_hi - in_lo, kh,
                             out + (size_t)x * (size_t)depth, depth);
                x = in_hi - 1;
                continue;
            }
            int32_t kx0, kx1;
            taps_inside(x0, kw, p->dilation_width, in_w, &kx0, &kx1);
            const int some = ky0 < ky1 && kx0 < kx1;
            const int8_t *first = some ? in_b +
                                             ((ptrdiff_t)(y0 + ky0 * p->dilation_height) * in_w +
                                              x0 + (ptrdiff_t)kx0 * p->dilation_width) *
                                                 depth +
                                             c0
                                       : in_b;
            const int border = ky0 > 0 || ky1 < kh || kx0 > 0 || kx1 < kw;
            ta_dw_s4_pixel(&blk, &q, &walk, first, ky0, some ? ky1 - ky0 : 0, kx0, kx1 - kx0,
                           border, out + (size_t)x * (size_t)depth);
        }
    }
}
#endif

int ta_depthwise_conv_2d_s4(const ta_depthwise_conv_2d_s4_params_t *p, const int8_t *input,
                            const int8_t *weights, const int32_t *bias_sum, const int32_t *bias,
                            const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    (void)bias; /* the SIMD paths' border windows only */
    const size_t image = (size_t)p->input_height * (size_t)p->input_width * (size_t)p->input_depth;
    const size_t out_row = (size_t)p->output_width * (size_t)p->output_depth;
    const int32_t rows = p->batches * p->output_height;
    for (int32_t r = 0; r < rows; r++) {
        const int32_t row = p->reverse_rows ? rows - 1 - r : r;
        const int32_t b = row / p->output_height, y = row % p->output_height;
#if defined(TA_DW_S4_LANES)
        if (p->depth_multiplier == 1 && p->filter_height * p->filter_width <= TA_DW_S4_TAPS) {
            m1_row(p, input + (size_t)b * image, weights, bias_sum, bias, multipliers, shifts, y,
                   output + (size_t)row * out_row);
            continue;
        }
#endif
        output_row(p, input + (size_t)b * image, weights, bias_sum, multipliers, shifts, y,
                   output + (size_t)row * out_row);
    }
    return TA_OK;
}
