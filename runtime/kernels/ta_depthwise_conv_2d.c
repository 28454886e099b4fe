/*
 * ta_depthwise_conv_2d.c - DEPTHWISE_CONV_2D kernels; see the header.
 *
 * Per output pixel, output channels are taken in blocks of BLOCK: the
 * block's accumulators live on the stack (in registers, mostly), every tap
 * adds its weights and inputs for the block, then the block is requantized.
 * No working memory beyond that is needed, so the planner reserves none.
 */
#include "ta_depthwise_conv_2d.h"

#include "../include/ta_dw_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_simd.h"
#include "../include/ta_status.h"

#include <stddef.h>
#include <string.h>

enum { BLOCK = 16 };

/* True when the tap (iy, ix) lies outside the input (padding). */
static int outside(const ta_depthwise_conv_2d_params_t *p, int32_t iy, int32_t ix)
{
    return iy < 0 || iy >= p->input_height || ix < 0 || ix >= p->input_width;
}

#if defined(TA_HAVE_MVE) || defined(TA_HAVE_DSP)
/* One per block shape: inlining them all into the pixel loop only grows
   the code. */
#define DW_NOINLINE static __attribute__((noinline))

/* The output positions along one axis whose whole (dilated) window lies
   inside the input: [*lo, *hi). */
static void inside_range(int32_t in, int32_t out, int32_t k, int32_t stride, int32_t dilation,
                         int32_t pad, int32_t *lo, int32_t *hi)
{
    const int32_t last = in - 1 - (k - 1) * dilation + pad;
    int32_t l = (pad + stride - 1) / stride;
    int32_t h = last < 0 ? 0 : last / stride + 1;
    h = h > out ? out : h;
    *lo = l > h ? h : l;
    *hi = h;
}

/* What the multiplier-1 fast paths share for one call. */
typedef struct {
    const ta_depthwise_conv_2d_params_t *p;
    const int8_t *weights;
    const int32_t *bias_sum, *multipliers, *shifts;
    int32_t depth;              /* input = output channels */
    ptrdiff_t tap_row, tap_col; /* input bytes between vertically, horizontally adjacent taps */
} dw_ctx;

static void dw_ctx_init(dw_ctx *c, const ta_depthwise_conv_2d_params_t *p, const int8_t *weights,
                        const int32_t *bias_sum, const int32_t *multipliers,
                        const int32_t *shifts)
{
    c->p = p;
    c->weights = weights;
    c->bias_sum = bias_sum;
    c->multipliers = multipliers;
    c->shifts = shifts;
    c->depth = p->output_depth;
    c->tap_row = (ptrdiff_t)p->dilation_height * p->input_width * p->input_depth;
    c->tap_col = (ptrdiff_t)p->dilation_width * p->input_depth;
}
#endif

#if defined(TA_HAVE_MVE)
#define DW_INLINE static inline __attribute__((always_inline))

/* Eight channels' products of one tap: VMULLB/VMULLT give the even and
   the odd channels as int32 lanes. */
DW_INLINE void mve_mac8(int32x4_t *even, int32x4_t *odd, int16x8_t x, int16x8_t w)
{
    *even = vaddq_s32(*even, vmullbq_int_s16(x, w));
    *odd = vaddq_s32(*odd, vmulltq_int_s16(x, w));
}

DW_INLINE int16x8_t mve_load8(const int8_t *v, int predicated, mve_pred16_t p)
{
    return predicated ? vldrbq_z_s16(v, p) : vldrbq_s16(v);
}

/* Requantizes and stores n <= 8 channels from c0 on. */
DW_INLINE void mve_store8(const dw_ctx *c, int32x4_t even, int32x4_t odd, int32_t c0, int32_t n,
                          int predicated, int8_t *out)
{
    const ta_depthwise_conv_2d_params_t *p = c->p;
    int32x4_t me, mo, se, so;
    if (c->multipliers) {
        ta_dw_load_even_odd(c->multipliers + c0, n, &me, &mo);
        ta_dw_load_even_odd(c->shifts + c0, n, &se, &so);
    } else {
        me = mo = vdupq_n_s32(p->multiplier);
        se = so = vdupq_n_s32(p->shift);
    }
    if (p->right_shifts_only) {
        even = ta_dw_mul_right_mve(even, me, se);
        odd = ta_dw_mul_right_mve(odd, mo, so);
    } else {
        even = ta_mul_by_quantized_multiplier_mve(even, me, se);
        odd = ta_mul_by_quantized_multiplier_mve(odd, mo, so);
    }
    const int16x8_t v =
        ta_dw_narrow_clamp_mve(even, odd, p->output_offset, vdupq_n_s16((int16_t)p->activation_min),
                               vdupq_n_s16((int16_t)p->activation_max));
    if (predicated)
        vstrbq_p_s16(out, v, vctp16q((uint32_t)n));
    else
        vstrbq_s16(out, v);
}

/* One output pixel's block of n channels from c0 on: 16 (halves = 2) or
   8 (halves = 1), or fewer than 8 (predicated). `interior`: every tap of
   the kh x kw window lies inside the input, so none is checked. */
DW_INLINE void mve_block(const dw_ctx *c, const int8_t *in_b, int32_t iy0, int32_t ix0, int32_t c0,
                         int32_t n, int halves, int predicated, int interior, int32_t kh,
                         int32_t kw, int8_t *out)
{
    const ta_depthwise_conv_2d_params_t *p = c->p;
    const mve_pred16_t pr = vctp16q((uint32_t)n);
    int32x4_t a0 = vdupq_n_s32(0), a1 = a0, a2 = a0, a3 = a0;
    if (c->bias_sum) {
        ta_dw_load_even_odd(c->bias_sum + c0, n, &a0, &a1);
        if (halves == 2)
            ta_dw_load_even_odd(c->bias_sum + c0 + 8, n - 8, &a2, &a3);
    }
    const int8_t *w = c->weights + c0;
    if (interior) {
        const int8_t *xr = in_b + ((ptrdiff_t)iy0 * p->input_width + ix0) * c->depth + c0;
        for (int32_t ky = 0; ky < kh; ky++, xr += c->tap_row) {
            const int8_t *x = xr;
            for (int32_t kx = 0; kx < kw; kx++, x += c->tap_col, w += c->depth) {
                mve_mac8(&a0, &a1, mve_load8(x, predicated, pr), mve_load8(w, predicated, pr));
                if (halves == 2)
                    mve_mac8(&a2, &a3, vldrbq_s16(x + 8), vldrbq_s16(w + 8));
            }
        }
    } else {
        /* A padded tap reads the input zero point, which gives back what
           the converter folded into bias_sum for it. */
        const int16x8_t zp = vdupq_n_s16((int16_t)p->pad_value);
        for (int32_t ky = 0; ky < kh; ky++) {
            const int32_t iy = iy0 + ky * p->dilation_height;
            const int row_inside = iy >= 0 && iy < p->input_height;
            for (int32_t kx = 0; kx < kw; kx++, w += c->depth) {
                const int32_t ix = ix0 + kx * p->dilation_width;
                if (row_inside && ix >= 0 && ix < p->input_width) {
                    const int8_t *x = in_b + ((ptrdiff_t)iy * p->input_width + ix) * c->depth + c0;
                    mve_mac8(&a0, &a1, mve_load8(x, predicated, pr),
                             mve_load8(w, predicated, pr));
                    if (halves == 2)
                        mve_mac8(&a2, &a3, vldrbq_s16(x + 8), vldrbq_s16(w + 8));
                } else if (p->pad_value != 0) {
                    mve_mac8(&a0, &a1, zp, mve_load8(w, predicated, pr));
                    if (halves == 2)
                        mve_mac8(&a2, &a3, zp, vldrbq_s16(w + 8));
                }
            }
        }
    }
    mve_store8(c, a0, a1, c0, halves == 2 ? 8 : n, predicated, out + c0);
    if (halves == 2)
        mve_store8(c, a2, a3, c0 + 8, 8, 0, out + c0 + 8);
}

DW_NOINLINE void mve_block16_3x3(const dw_ctx *c, const int8_t *in_b, int32_t iy0, int32_t ix0,
                            int32_t c0, int8_t *out)
{
    mve_block(c, in_b, iy0, ix0, c0, 16, 2, 0, 1, 3, 3, out);
}

DW_NOINLINE void mve_block16(const dw_ctx *c, const int8_t *in_b, int32_t iy0, int32_t ix0, int32_t c0,
                        int8_t *out)
{
    mve_block(c, in_b, iy0, ix0, c0, 16, 2, 0, 0, c->p->filter_height, c->p->filter_width, out);
}

DW_NOINLINE void mve_block8_3x3(const dw_ctx *c, const int8_t *in_b, int32_t iy0, int32_t ix0,
                           int32_t c0, int8_t *out)
{
    mve_block(c, in_b, iy0, ix0, c0, 8, 1, 0, 1, 3, 3, out);
}

DW_NOINLINE void mve_block8(const dw_ctx *c, const int8_t *in_b, int32_t iy0, int32_t ix0, int32_t c0,
                       int8_t *out)
{
    mve_block(c, in_b, iy0, ix0, c0, 8, 1, 0, 0, c->p->filter_height, c->p->filter_width, out);
}

DW_NOINLINE void mve_block_tail(const dw_ctx *c, const int8_t *in_b, int32_t iy0, int32_t ix0,
                           int32_t c0, int32_t n, int8_t *out)
{
    mve_block(c, in_b, iy0, ix0, c0, n, 1, 1, 0, c->p->filter_height, c->p->filter_width, out);
}

/* Depth multiplier 1 on Helium: 16 channels per block in four vectors of
   accumulators that stay in registers over all taps. */
static void dw_s8_m1_mve(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                         const int8_t *weights, const int32_t *bias_sum,
                         const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    dw_ctx c;
    dw_ctx_init(&c, p, weights, bias_sum, multipliers, shifts);
    const int32_t depth = c.depth;
    const int is_3x3 = p->filter_height == 3 && p->filter_width == 3;
    int32_t oy_lo, oy_hi, ox_lo, ox_hi;
    inside_range(p->input_height, p->output_height, p->filter_height, p->stride_height,
                 p->dilation_height, p->pad_top, &oy_lo, &oy_hi);
    inside_range(p->input_width, p->output_width, p->filter_width, p->stride_width,
                 p->dilation_width, p->pad_left, &ox_lo, &ox_hi);
    const size_t image = (size_t)p->input_height * (size_t)p->input_width * (size_t)depth;
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (size_t)b * image;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            const int row_inside = oy >= oy_lo && oy < oy_hi;
            for (int32_t ox = 0; ox < p->output_width; ox++, output += depth) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                const int fast = is_3x3 && row_inside && ox >= ox_lo && ox < ox_hi;
                int32_t c0 = 0;
                for (; c0 + 16 <= depth; c0 += 16) {
                    if (fast)
                        mve_block16_3x3(&c, in_b, iy0, ix0, c0, output);
                    else
                        mve_block16(&c, in_b, iy0, ix0, c0, output);
                }
                if (depth - c0 >= 8) {
                    if (fast)
                        mve_block8_3x3(&c, in_b, iy0, ix0, c0, output);
                    else
                        mve_block8(&c, in_b, iy0, ix0, c0, output);
                    c0 += 8;
                }
                if (depth > c0)
                    mve_block_tail(&c, in_b, iy0, ix0, c0, depth - c0, output);
            }
        }
    }
}
#undef DW_INLINE
#endif /* TA_HAVE_MVE */

#if defined(TA_HAVE_DSP)
#define DW_INLINE static inline __attribute__((always_inline))

DW_INLINE uint32_t dsp_load4(const int8_t *v)
{
    uint32_t word;
    memcpy(&word, v, 4);
    return word;
}

/* Requantizes one accumulator of channel o and clamps it. */
DW_INLINE int8_t dsp_output(const dw_ctx *c, int32_t acc, int32_t o)
{
    const ta_depthwise_conv_2d_params_t *p = c->p;
    const int32_t m = c->multipliers ? c->multipliers[o] : p->multiplier;
    const int32_t s = c->shifts ? c->shifts[o] : p->shift;
    return (int8_t)ta_clamp_i32(ta_dw_requantize(acc, m, s) + p->output_offset,
                                p->activation_min, p->activation_max);
}

/* One output pixel's four channels from c0 on. SXTB16 splits four input
   bytes into channels 0, 2 and 1, 3 as halfword pairs; SMLABB/SMLATT
   multiply-accumulate each channel into its own register. */
DW_INLINE void dsp_block4(const dw_ctx *c, const int8_t *in_b, int32_t iy0, int32_t ix0,
                          int32_t c0, int interior, int32_t kh, int32_t kw, int8_t *out)
{
    const ta_depthwise_conv_2d_params_t *p = c->p;
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    if (c->bias_sum) {
        a0 = c->bias_sum[c0];
        a1 = c->bias_sum[c0 + 1];
        a2 = c->bias_sum[c0 + 2];
        a3 = c->bias_sum[c0 + 3];
    }
    const int8_t *w = c->weights + c0;
    if (interior) {
        const int8_t *xr = in_b + ((ptrdiff_t)iy0 * p->input_width + ix0) * c->depth + c0;
        for (int32_t ky = 0; ky < kh; ky++, xr += c->tap_row) {
            const int8_t *x = xr;
            for (int32_t kx = 0; kx < kw; kx++, x += c->tap_col, w += c->depth) {
                const uint32_t xv = dsp_load4(x), wv = dsp_load4(w);
                const uint32_t x02 = __sxtb16(xv), x13 = ta_dw_sxtb16_ror8(xv);
                const uint32_t w02 = __sxtb16(wv), w13 = ta_dw_sxtb16_ror8(wv);
                a0 = __smlabb((int32_t)x02, (int32_t)w02, a0);
                a2 = __smlatt((int32_t)x02, (int32_t)w02, a2);
                a1 = __smlabb((int32_t)x13, (int32_t)w13, a1);
                a3 = __smlatt((int32_t)x13, (int32_t)w13, a3);
            }
        }
    } else {
        /* A padded tap reads the input zero point (see bias_sum). */
        const uint32_t zp = ((uint32_t)p->pad_value & 0xFFFFu) * 0x10001u;
        for (int32_t ky = 0; ky < kh; ky++) {
            const int32_t iy = iy0 + ky * p->dilation_height;
            const int row_inside = iy >= 0 && iy < p->input_height;
            for (int32_t kx = 0; kx < kw; kx++, w += c->depth) {
                const int32_t ix = ix0 + kx * p->dilation_width;
                uint32_t x02 = zp, x13 = zp;
                if (row_inside && ix >= 0 && ix < p->input_width) {
                    const uint32_t xv = dsp_load4(in_b + ((ptrdiff_t)iy * p->input_width + ix) *
                                                             c->depth + c0);
                    x02 = __sxtb16(xv);
                    x13 = ta_dw_sxtb16_ror8(xv);
                } else if (p->pad_value == 0) {
                    continue;
                }
                const uint32_t wv = dsp_load4(w);
                const uint32_t w02 = __sxtb16(wv), w13 = ta_dw_sxtb16_ror8(wv);
                a0 = __smlabb((int32_t)x02, (int32_t)w02, a0);
                a2 = __smlatt((int32_t)x02, (int32_t)w02, a2);
                a1 = __smlabb((int32_t)x13, (int32_t)w13, a1);
                a3 = __smlatt((int32_t)x13, (int32_t)w13, a3);
            }
        }
    }
    out[c0] = dsp_output(c, a0, c0);
    out[c0 + 1] = dsp_output(c, a1, c0 + 1);
    out[c0 + 2] = dsp_output(c, a2, c0 + 2);
    out[c0 + 3] = dsp_output(c, a3, c0 + 3);
}

DW_NOINLINE void dsp_block4_3x3(const dw_ctx *c, const int8_t *in_b, int32_t iy0, int32_t ix0,
                           int32_t c0, int8_t *out)
{
    dsp_block4(c, in_b, iy0, ix0, c0, 1, 3, 3, out);
}

DW_NOINLINE void dsp_block4_any(const dw_ctx *c, const int8_t *in_b, int32_t iy0, int32_t ix0,
                           int32_t c0, int8_t *out)
{
    dsp_block4(c, in_b, iy0, ix0, c0, 0, c->p->filter_height, c->p->filter_width, out);
}

/* One channel of one output pixel, every tap checked (the last depth % 4
   channels). */
DW_NOINLINE void dsp_channel(const dw_ctx *c, const int8_t *in_b, int32_t iy0, int32_t ix0, int32_t o,
                        int8_t *out)
{
    const ta_depthwise_conv_2d_params_t *p = c->p;
    int32_t acc = c->bias_sum ? c->bias_sum[o] : 0;
    const int8_t *w = c->weights + o;
    for (int32_t ky = 0; ky < p->filter_height; ky++) {
        const int32_t iy = iy0 + ky * p->dilation_height;
        for (int32_t kx = 0; kx < p->filter_width; kx++, w += c->depth) {
            const int32_t ix = ix0 + kx * p->dilation_width;
            if (iy >= 0 && iy < p->input_height && ix >= 0 && ix < p->input_width)
                acc += (int32_t)*w *
                       (int32_t)in_b[((ptrdiff_t)iy * p->input_width + ix) * c->depth + o];
            else
                acc += (int32_t)*w * p->pad_value;
        }
    }
    out[o] = dsp_output(c, acc, o);
}

/* Depth multiplier 1 with the DSP extension: four channels per block. */
static void dw_s8_m1_dsp(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                         const int8_t *weights, const int32_t *bias_sum,
                         const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    dw_ctx c;
    dw_ctx_init(&c, p, weights, bias_sum, multipliers, shifts);
    const int32_t depth = c.depth;
    const int is_3x3 = p->filter_height == 3 && p->filter_width == 3;
    int32_t oy_lo, oy_hi, ox_lo, ox_hi;
    inside_range(p->input_height, p->output_height, p->filter_height, p->stride_height,
                 p->dilation_height, p->pad_top, &oy_lo, &oy_hi);
    inside_range(p->input_width, p->output_width, p->filter_width, p->stride_width,
                 p->dilation_width, p->pad_left, &ox_lo, &ox_hi);
    const size_t image = (size_t)p->input_height * (size_t)p->input_width * (size_t)depth;
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (size_t)b * image;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            const int row_inside = oy >= oy_lo && oy < oy_hi;
            for (int32_t ox = 0; ox < p->output_width; ox++, output += depth) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                const int fast = is_3x3 && row_inside && ox >= ox_lo && ox < ox_hi;
                int32_t c0 = 0;
                for (; c0 + 4 <= depth; c0 += 4) {
                    if (fast)
                        dsp_block4_3x3(&c, in_b, iy0, ix0, c0, output);
                    else
                        dsp_block4_any(&c, in_b, iy0, ix0, c0, output);
                }
                for (; c0 < depth; c0++)
                    dsp_channel(&c, in_b, iy0, ix0, c0, output);
            }
        }
    }
}
#undef DW_INLINE
#endif /* TA_HAVE_DSP */
int ta_depthwise_conv_2d_s8(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                            const int8_t *weights, const int32_t *bias_sum,
                            const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    const int32_t depth = p->output_depth, mult = p->depth_multiplier;
#if defined(TA_HAVE_MVE)
    if (mult == 1) {
        dw_s8_m1_mve(p, input, weights, bias_sum, multipliers, shifts, output);
        return TA_OK;
    }
#elif defined(TA_HAVE_DSP)
    if (mult == 1) {
        dw_s8_m1_dsp(p, input, weights, bias_sum, multipliers, shifts, output);
        return TA_OK;
    }
#endif
    const size_t row = (size_t)p->input_width * (size_t)p->input_depth;
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (size_t)b * (size_t)p->input_height * row;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                for (int32_t o0 = 0; o0 < depth; o0 += BLOCK) {
                    const int32_t n = depth - o0 < BLOCK ? depth - o0 : BLOCK;
                    int32_t acc[BLOCK];
                    for (int32_t k = 0; k < n; k++)
                        acc[k] = bias_sum ? bias_sum[o0 + k] : 0;
                    const int8_t *w = weights + o0;
                    for (int32_t ky = 0; ky < p->filter_height; ky++) {
                        const int32_t iy = iy0 + ky * p->dilation_height;
                        for (int32_t kx = 0; kx < p->filter_width; kx++, w += depth) {
                            const int32_t ix = ix0 + kx * p->dilation_width;
                            if (outside(p, iy, ix)) {
                                /* The converter folded the zero point into bias_sum
                                   for every tap; a padded tap reads that zero point,
                                   which gives back what was folded. */
                                if (p->pad_value != 0)
                                    for (int32_t k = 0; k < n; k++)
                                        acc[k] += (int32_t)w[k] * p->pad_value;
                                continue;
                            }
                            const int8_t *x = in_b + (size_t)iy * row +
                                              (size_t)ix * (size_t)p->input_depth;
                            if (mult == 1) {
                                x += o0;
                                for (int32_t k = 0; k < n; k++)
                                    acc[k] += (int32_t)w[k] * (int32_t)x[k];
                            } else {
                                for (int32_t k = 0; k < n; k++)
                                    acc[k] += (int32_t)w[k] * (int32_t)x[(o0 + k) / mult];
                            }
                        }
                    }
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

int ta_depthwise_conv_2d_s16(const ta_depthwise_conv_2d_params_t *p, const int16_t *input,
                             const int8_t *weights, const int64_t *bias,
                             const int32_t *multipliers, const int32_t *shifts, int16_t *output)
{
    const int32_t depth = p->output_depth, mult = p->depth_multiplier;
    const size_t row = (size_t)p->input_width * (size_t)p->input_depth;
    for (int32_t b = 0; b < p->batches; b++) {
        const int16_t *in_b = input + (size_t)b * (size_t)p->input_height * row;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                for (int32_t o0 = 0; o0 < depth; o0 += BLOCK) {
                    const int32_t n = depth - o0 < BLOCK ? depth - o0 : BLOCK;
                    int64_t acc[BLOCK];
                    for (int32_t k = 0; k < n; k++)
                        acc[k] = bias ? bias[o0 + k] : 0;
                    const int8_t *w = weights + o0;
                    for (int32_t ky = 0; ky < p->filter_height; ky++) {
                        const int32_t iy = iy0 + ky * p->dilation_height;
                        for (int32_t kx = 0; kx < p->filter_width; kx++, w += depth) {
                            const int32_t ix = ix0 + kx * p->dilation_width;
                            /* int16 zero points are 0: padded taps add nothing. */
                            if (outside(p, iy, ix))
                                continue;
                            const int16_t *x = in_b + (size_t)iy * row +
                                               (size_t)ix * (size_t)p->input_depth;
                            for (int32_t k = 0; k < n; k++)
                                acc[k] += (int64_t)((int32_t)w[k] * (int32_t)x[(o0 + k) / mult]);
                        }
                    }
                    for (int32_t k = 0; k < n; k++) {
                        const int32_t o = o0 + k;
                        const int32_t m = multipliers ? multipliers[o] : p->multiplier;
                        const int32_t s = shifts ? shifts[o] : p->shift;
                        int32_t v = ta_mul_by_quantized_multiplier_64(acc[k], m, (int)s) +
                                    p->output_offset;
                        *output++ = (int16_t)ta_clamp_i32(v, p->activation_min, p->activation_max);
                    }
                }
            }
        }
    }
    return TA_OK;
}
