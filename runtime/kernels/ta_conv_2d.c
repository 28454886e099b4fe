/* ta_conv_2d.c - CONV_2D kernels; see the header. */
#include "ta_conv_2d.h"

#include "../include/ta_compiler.h"
#include "../include/ta_quant.h"
#include "../include/ta_simd.h"
#include "../include/ta_status.h"

#include <stddef.h>
#include <string.h>

/*
 * A pixel's taps as segments: runs of weights (at w_offset in every filter)
 * that meet one contiguous run of input `x`, or, for x == NULL, taps
 * outside the image. Those give back the zero point the converter folded
 * into bias_sum: pad_value * their weights. Four output channels then share
 * each load of the input through every segment, at the border as inside.
 */
typedef struct {
    const int8_t *x;
    int32_t w_offset;
    int32_t length;
} segment_t;

enum { BLOCK = 16, MAX_PATCH = TA_CONV_2D_MAX_PATCH, MAX_SEGMENTS = 16 };

typedef struct {
    segment_t seg[MAX_SEGMENTS];
    int32_t count;
} segments_t;

/* Appends taps [w_offset, w_offset + length) reading x (NULL: padded),
   merging with the previous segment when both runs continue it. */
static void add_segment(segments_t *s, int32_t pad_value, const int8_t *x, int32_t w_offset,
                        int32_t length)
{
    if (length <= 0 || (x == NULL && pad_value == 0))
        return;
    if (s->count > 0) {
        segment_t *last = &s->seg[s->count - 1];
        if (last->w_offset + last->length == w_offset &&
            (x == NULL ? last->x == NULL : last->x != NULL && last->x + last->length == x)) {
            last->length += length;
            return;
        }
    }
    s->seg[s->count].x = x;
    s->seg[s->count].w_offset = w_offset;
    s->seg[s->count].length = length;
    s->count++;
}

/* The segments of taps tap0.. (tap = ky * filter_width + kx) at the pixel
   whose window starts at (iy0, ix0), until they are done or the list is
   full; returns the first tap not covered. Input pointers are those of
   group 0. */
static int32_t build_segments(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t iy0,
                              int32_t ix0, int32_t tap0, segments_t *s)
{
    const int32_t fd = p->filter_depth, fw = p->filter_width, fh = p->filter_height;
    const size_t row_size = (size_t)p->input_width * (size_t)p->input_depth;
    const int rows_contiguous = fd == p->input_depth && p->dilation_width == 1;
    int32_t tap = tap0;
    s->count = 0;
    if (tap0 == 0 && rows_contiguous && fh <= MAX_SEGMENTS && iy0 >= 0 && ix0 >= 0 &&
        iy0 + (fh - 1) * p->dilation_height < p->input_height && ix0 + fw <= p->input_width) {
        /* Inside the image: one run per filter row (one for a 1x1 filter). */
        const int8_t *x = in_b + (size_t)iy0 * row_size + (size_t)ix0 * (size_t)fd;
        const size_t row_step = (size_t)p->dilation_height * row_size;
        for (int32_t ky = 0; ky < fh; ky++, x += row_step) {
            s->seg[ky].x = x;
            s->seg[ky].w_offset = ky * fw * fd;
            s->seg[ky].length = fw * fd;
        }
        s->count = fh;
        return fh * fw;
    }
    while (tap < fh * fw) {
        const int32_t ky = tap / fw, kx = tap % fw;
        const int32_t iy = iy0 + ky * p->dilation_height;
        const int row_inside = iy >= 0 && iy < p->input_height;
        const int8_t *row = in_b + (row_inside ? (size_t)iy * row_size : 0);
        if (rows_contiguous && kx == 0) {
            /* A whole filter row: padded taps left, one run inside, padded right. */
            if (s->count + 3 > MAX_SEGMENTS)
                break;
            int32_t lo = 0, hi = 0;
            if (row_inside) {
                lo = ix0 < 0 ? (-ix0 < fw ? -ix0 : fw) : 0;
                hi = p->input_width - ix0;
                hi = hi > fw ? fw : (hi < lo ? lo : hi);
            }
            const int32_t w_row = ky * fw * fd;
            add_segment(s, p->pad_value, NULL, w_row, lo * fd);
            if (hi > lo)
                add_segment(s, p->pad_value, row + (size_t)(ix0 + lo) * (size_t)fd, w_row + lo * fd,
                            (hi - lo) * fd);
            add_segment(s, p->pad_value, NULL, w_row + hi * fd, (fw - hi) * fd);
            tap += fw;
            continue;
        }
        if (s->count + 1 > MAX_SEGMENTS)
            break;
        const int32_t ix = ix0 + kx * p->dilation_width;
        const int inside = row_inside && ix >= 0 && ix < p->input_width;
        add_segment(s, p->pad_value, inside ? row + (size_t)ix * (size_t)p->input_depth : NULL,
                    tap * fd, fd);
        tap++;
    }
    return tap;
}

/* The input values one output pixel's filter sees, in weight order, with
   the zero point (pad_value) for taps outside the image: the converter
   folded -zero_point * sum(weights) into bias_sum, so a padded tap then
   contributes exactly nothing, as in TFLite. Ungrouped filters only. */
static void gather_patch(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t iy0, int32_t ix0,
                         int8_t *patch)
{
    const int32_t fd = p->filter_depth, fw = p->filter_width;
    const size_t row_size = (size_t)p->input_width * (size_t)p->input_depth;
    const int32_t filter_row = fw * fd;
    if (p->dilation_width == 1 && iy0 >= 0 && ix0 >= 0 &&
        iy0 + (p->filter_height - 1) * p->dilation_height < p->input_height &&
        ix0 + fw <= p->input_width) {
        /* Inside the image: one copy per filter row. */
        const int8_t *src = in_b + (size_t)iy0 * row_size + (size_t)ix0 * (size_t)fd;
        const size_t step = (size_t)p->dilation_height * row_size;
        for (int32_t ky = 0; ky < p->filter_height; ky++, patch += filter_row, src += step)
            ta_copy_s8(patch, src, filter_row);
        return;
    }
    for (int32_t ky = 0; ky < p->filter_height; ky++, patch += filter_row) {
        const int32_t iy = iy0 + ky * p->dilation_height;
        if (iy < 0 || iy >= p->input_height) {
            memset(patch, (int8_t)p->pad_value, (size_t)filter_row);
            continue;
        }
        const int8_t *row = in_b + (size_t)iy * row_size;
        if (p->dilation_width == 1) {
            /* The taps inside the image are one run of input. */
            const int32_t lo = ix0 < 0 ? (-ix0 < fw ? -ix0 : fw) : 0;
            int32_t hi = p->input_width - ix0;
            hi = hi > fw ? fw : (hi < lo ? lo : hi);
            if (lo > 0)
                memset(patch, (int8_t)p->pad_value, (size_t)(lo * fd));
            if (hi > lo)
                ta_copy_s8(patch + lo * fd, row + (size_t)(ix0 + lo) * (size_t)fd, (hi - lo) * fd);
            if (hi < fw)
                memset(patch + hi * fd, (int8_t)p->pad_value, (size_t)((fw - hi) * fd));
            continue;
        }
        for (int32_t kx = 0; kx < fw; kx++) {
            const int32_t ix = ix0 + kx * p->dilation_width;
            if (ix < 0 || ix >= p->input_width)
                memset(patch + kx * fd, (int8_t)p->pad_value, (size_t)fd);
            else
                ta_copy_s8(patch + kx * fd, row + (size_t)ix * (size_t)fd, fd);
        }
    }
}

/* acc[0..3] = init[0..3] plus the four filters at w (filter_size apart)
   over the segments; x is offset by the group's first input channel. */
static inline void accumulate4(const ta_conv_2d_params_t *p, const segments_t *s,
                               const int32_t *init, const int8_t *w, size_t filter_size,
                               size_t group_offset, int32_t *acc)
{
    for (int32_t i = 0; i < s->count; i++) {
        const segment_t *g = &s->seg[i];
        const int8_t *wg = w + g->w_offset;
        if (g->x != NULL) {
            ta_dot4_s8_from(acc, init, wg, wg + filter_size, wg + 2 * filter_size,
                            wg + 3 * filter_size, g->x + group_offset, g->length);
        } else {
            for (int32_t j = 0; j < 4; j++)
                acc[j] = init[j] +
                         ta_sum_s8(0, wg + (size_t)j * filter_size, g->length) * p->pad_value;
        }
        init = acc;
    }
    if (init != acc) /* no segments: every tap padded with a zero point of 0 */
        for (int32_t j = 0; j < 4; j++)
            acc[j] = init[j];
}

/* The same for one output channel. */
static inline int32_t accumulate1(const ta_conv_2d_params_t *p, const segments_t *s, int32_t acc,
                                  const int8_t *w, size_t group_offset)
{
    for (int32_t i = 0; i < s->count; i++) {
        const segment_t *g = &s->seg[i];
        if (g->x != NULL)
            acc = ta_dot_s8(acc, w + g->w_offset, g->x + group_offset, g->length);
        else
            acc += ta_sum_s8(0, w + g->w_offset, g->length) * p->pad_value;
    }
    return acc;
}

static const int32_t zeros4[4] = {0, 0, 0, 0};

/* Output channels [o0, o0 + n) of one pixel, all in one group, into acc,
   when the segment list was too short for every tap: rebuilt a list at a
   time for each block of four channels. */
static void accumulate_block_partial(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t iy0,
                                     int32_t ix0, const int8_t *weights, const int32_t *bias_sum,
                                     int32_t o0, int32_t n, int32_t *acc)
{
    const size_t filter_size = (size_t)p->filter_height * (size_t)p->filter_width *
                               (size_t)p->filter_depth;
    const size_t group_offset = (size_t)(o0 / p->filters_per_group) * (size_t)p->filter_depth;
    const int32_t taps = p->filter_height * p->filter_width;
    segments_t part;
    int32_t k = 0;
    for (; k + 4 <= n; k += 4) {
        const int8_t *w = weights + (size_t)(o0 + k) * filter_size;
        const int32_t *init = bias_sum ? bias_sum + o0 + k : zeros4;
        for (int32_t j = 0; j < 4; j++) /* set even if there were no taps */
            acc[k + j] = init[j];
        for (int32_t tap = 0; tap < taps;) {
            tap = build_segments(p, in_b, iy0, ix0, tap, &part);
            accumulate4(p, &part, acc + k, w, filter_size, group_offset, acc + k);
        }
    }
    for (; k < n; k++) {
        const int8_t *w = weights + (size_t)(o0 + k) * filter_size;
        int32_t a = bias_sum ? bias_sum[o0 + k] : 0;
        for (int32_t tap = 0; tap < taps;) {
            tap = build_segments(p, in_b, iy0, ix0, tap, &part);
            a = accumulate1(p, &part, a, w, group_offset);
        }
        acc[k] = a;
    }
}

/* Every output channel of one pixel, with `s` covering every tap: four
   channels at a time share each input load, then are requantized. */
static void pixel_s8(const ta_conv_2d_params_t *p, const segments_t *s, const int8_t *weights,
                     const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                     int8_t *out)
{
    const size_t filter_size = (size_t)p->filter_height * (size_t)p->filter_width *
                               (size_t)p->filter_depth;
    const int32_t per_group = p->filters_per_group;
    const int8_t *w = weights;
    for (int32_t o0 = 0; o0 < p->output_depth; o0 += per_group) {
        const size_t group_offset = (size_t)(o0 / per_group) * (size_t)p->filter_depth;
        const int32_t end = o0 + per_group;
        int32_t o = o0;
        for (; o + 4 <= end; o += 4, w += 4 * filter_size) {
            int32_t acc[4];
            accumulate4(p, s, bias_sum ? bias_sum + o : zeros4, w, filter_size, group_offset, acc);
            ta_requantize_s8(acc, 4, multipliers ? multipliers + o : NULL,
                             shifts ? shifts + o : NULL, p->multiplier, p->shift, p->output_offset,
                             p->activation_min, p->activation_max, out + o);
        }
        for (; o < end; o++, w += filter_size) {
            const int32_t acc = accumulate1(p, s, bias_sum ? bias_sum[o] : 0, w, group_offset);
            ta_requantize_s8(&acc, 1, multipliers ? multipliers + o : NULL,
                             shifts ? shifts + o : NULL, p->multiplier, p->shift, p->output_offset,
                             p->activation_min, p->activation_max, out + o);
        }
    }
}

#if !defined(TA_HAVE_MVE)
/* ta_mul_by_quantized_multiplier for a multiplier >= 0 (the converter
   rejects negative scales, so CONV_2D's multipliers are never negative):
   the doubling high multiply then cannot saturate. For a right shift r
   (shift = -r < 0, so no left shift) its rounding and the shift's fold
   into one floor, floor(floor(a / 2^31) / 2^r) = floor(a / 2^(31 + r)),
   of a = acc * multiplier + 2^30 + (2^(r-1) - neg) * 2^31, where neg (the
   ties-away-from-zero step) is 1 for a negative acc: it matters only when
   the first rounding is non-zero, and then has the product's sign. One
   multiply-accumulate onto a 64-bit constant (SMLAL) and a shift of its
   high word: the same value as TFLite's two roundings. */
static inline int32_t requantize_nonnegative(int32_t acc, int32_t multiplier, int32_t shift)
{
    if (!TA_LIKELY(shift < 0)) /* scales above 1/2: rare in convolutions */
        return (int32_t)(((int64_t)ta_shift_left_wrap(acc, (int)shift) * multiplier +
                          ((int64_t)1 << 30)) >>
                         31);
    const int32_t r1 = -shift - 1;
    const uint32_t half_less_neg = ((uint32_t)1 << r1) - ((uint32_t)acc >> 31);
    const int64_t sum = (int64_t)(((uint64_t)half_less_neg << 31) | 0x40000000u) +
                        (int64_t)acc * multiplier;
    return (int32_t)(sum >> 32) >> r1;
}

#if defined(TA_HAVE_DSP)
enum { MAX_WORD_PIXELS = 2 }; /* pixels per call of requantize4_words */

/* requantize_nonnegative for a right shift, with the channel's part
   (r1 = -shift - 1 and 2^r1) worked out once for all its outputs. */
static inline int32_t requantize_right(int32_t acc, int32_t multiplier, int32_t r1, uint32_t pow_r1)
{
    const uint32_t half_less_neg = pow_r1 - ((uint32_t)acc >> 31);
    const int64_t sum = (int64_t)(((uint64_t)half_less_neg << 31) | 0x40000000u) +
                        (int64_t)acc * multiplier;
    return (int32_t)(sum >> 32) >> r1;
}

/* Channels o..o+3 (multipliers and shifts point at o) of `pixels` pixels
   (at most MAX_WORD_PIXELS), acc[4 * i + j] for pixel i and channel o + j,
   requantized into out + i * out_step + j for the first `valid` (1-4)
   channels (the last block of a channel count off four: its padded lanes
   are not stored). With four right shifts (the usual case): the channels'
   constants worked out once for all pixels, saturated to int8, clamped
   four bytes at a time and stored as one word a pixel; else output by
   output. One copy for all the DSP loops. */
TA_NOINLINE static void requantize4_words(const ta_conv_2d_params_t *p, const int32_t *acc,
                                          int32_t pixels, const int32_t *multipliers,
                                          const int32_t *shifts, int8_t *out, size_t out_step,
                                          int32_t valid)
{
    const int32_t offset = p->output_offset, lo = p->activation_min, hi = p->activation_max;
    const int32_t s0 = shifts[0], s1 = shifts[1], s2 = shifts[2], s3 = shifts[3];
    if (!TA_LIKELY((s0 & s1 & s2 & s3) < 0)) {
        for (int32_t i = 0; i < pixels; i++, acc += 4, out += out_step)
            for (int32_t j = 0; j < valid; j++) {
                const int32_t v = requantize_nonnegative(acc[j], multipliers[j], shifts[j]);
                out[j] = (int8_t)ta_clamp_i32(v + offset, lo, hi);
            }
        return;
    }
    const uint32_t lo4 = ta_splat4_s8(lo), hi4 = ta_splat4_s8(hi);
    const int32_t m0 = multipliers[0], m1 = multipliers[1], m2 = multipliers[2],
                  m3 = multipliers[3];
    const int32_t r0 = -s0 - 1, r1 = -s1 - 1, r2 = -s2 - 1, r3 = -s3 - 1;
    const uint32_t p0 = 1u << r0, p1 = 1u << r1, p2 = 1u << r2, p3 = 1u << r3;
    uint32_t words[MAX_WORD_PIXELS];
    for (int32_t i = 0; i < pixels; i++, acc += 4) {
        const int32_t v0 = __ssat(requantize_right(acc[0], m0, r0, p0) + offset, 8);
        const int32_t v1 = __ssat(requantize_right(acc[1], m1, r1, p1) + offset, 8);
        const int32_t v2 = __ssat(requantize_right(acc[2], m2, r2, p2) + offset, 8);
        const int32_t v3 = __ssat(requantize_right(acc[3], m3, r3, p3) + offset, 8);
        words[i] = ta_clamp4_s8(ta_pack4_s8(v0, v1, v2, v3), lo4, hi4);
    }
    if (TA_LIKELY(valid == 4)) {
        for (int32_t i = 0; i < pixels; i++, out += out_step)
            memcpy(out, &words[i], 4);
        return;
    }
    for (int32_t i = 0; i < pixels; i++, out += out_step)
        memcpy(out, &words[i], (size_t)valid);
}
#endif
#endif

/* acc[0..3] += the four interleaved filters of one block (at block) over
   the segments, whose weight offsets are whole chunks. */
static inline void segments4_interleaved(const ta_conv_2d_params_t *p, const segments_t *s,
                                         const int8_t *block, int32_t acc[4])
{
    for (int32_t i = 0; i < s->count; i++) {
        const segment_t *g = &s->seg[i];
        const int8_t *w = block + (size_t)g->w_offset * 4; /* chunk w_offset / 16 */
        if (g->x != NULL) {
            ta_dot4_interleaved_s8(acc, w, g->x, g->length);
        } else {
            int32_t sum[4] = {0, 0, 0, 0};
            ta_sum4_interleaved_s8(sum, w, g->length);
            for (int32_t j = 0; j < 4; j++)
                acc[j] += sum[j] * p->pad_value;
        }
    }
}

/* Four output channels of one pixel: the block's sums over the segments,
   requantized into out[0..n), n <= 4. */
static inline void block4_interleaved(const ta_conv_2d_params_t *p, const segments_t *s,
                                      const int8_t *block, const int32_t *bias_sum,
                                      const int32_t *multipliers, const int32_t *shifts, int32_t n,
                                      int8_t *out)
{
    int32_t acc[4] = {0, 0, 0, 0};
    for (int32_t j = 0; bias_sum && j < n; j++)
        acc[j] = bias_sum[j];
    segments4_interleaved(p, s, block, acc);
    if (n == 4)
        ta_requantize4_s8(acc, multipliers, shifts, p->multiplier, p->shift, p->output_offset,
                          p->activation_min, p->activation_max, out);
    else
        ta_requantize_s8(acc, n, multipliers, shifts, p->multiplier, p->shift, p->output_offset,
                         p->activation_min, p->activation_max, out);
}

#if defined(TA_HAVE_MVE)
TA_NOINLINE static void run_pixels_interleaved(const ta_conv_2d_params_t *p, const int8_t *x,
                                               size_t x_step, int32_t pixels, int32_t n,
                                               const int8_t *weights, size_t block_bytes,
                                               const int32_t *bias_sum, const int32_t *multipliers,
                                               const int32_t *shifts, uint32_t *wide, int8_t *out);
#endif

/* Every output channel of one pixel whose taps the segments cover. */
TA_NOINLINE static void pixel_interleaved(const ta_conv_2d_params_t *p, const segments_t *s,
                                          const int8_t *weights, size_t block_bytes,
                                          const int32_t *bias_sum, const int32_t *multipliers,
                                          const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth;
    int32_t o = 0;
#if defined(TA_HAVE_MVE)
    if (bias_sum && multipliers && shifts) {
        /* The usual case, without tests per block: sums, requantization and
           store of four channels in vector registers. */
        /* Whole blocks (bias_sum, multipliers and shifts are padded to
           them), the last one stored predicated. */
        const int32_t offset = p->output_offset, count = s->count;
        const int32x4_t lov = vdupq_n_s32(p->activation_min), hiv = vdupq_n_s32(p->activation_max);
        if (count == 1 && s->seg[0].x != NULL) {
            /* One run of taps (a patch, or a pixel whose padded taps a zero
               point of 0 dropped, so that the run may start past the
               filter's first chunk): the row kernel's channel loop from
               the run's chunk of every block. */
            const int8_t *run_weights = weights + (size_t)s->seg[0].w_offset * 4;
            run_pixels_interleaved(p, s->seg[0].x, 0, 1, s->seg[0].length, run_weights, block_bytes,
                                   bias_sum, multipliers, shifts, NULL, out);
            return;
        }
        for (; o < out_c; o += 4, weights += block_bytes) {
            int32_t acc[4] = {bias_sum[o], bias_sum[o + 1], bias_sum[o + 2], bias_sum[o + 3]};
            segments4_interleaved(p, s, weights, acc);
            const int32x4_t v = ta_mul_by_quantized_multiplier_mve(
                vldrwq_s32(acc), vldrwq_s32(multipliers + o), vldrwq_s32(shifts + o));
            const int32x4_t r = vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lov), hiv);
            if (TA_LIKELY(out_c - o >= 4))
                vstrbq_s32(out + o, r);
            else
                vstrbq_p_s32(out + o, r, vctp32q((uint32_t)(out_c - o)));
        }
    }
#else
    if (bias_sum && multipliers && shifts) {
        /* The usual case, without tests per block or the partial block's
           copies: whole blocks (the arrays are padded to them), only the
           valid channels of the last stored. */
#if !defined(TA_HAVE_DSP)
        const int32_t offset = p->output_offset;
        const int32_t lo = p->activation_min, hi = p->activation_max;
#endif
        for (; o < out_c; o += 4, weights += block_bytes) {
            const int32_t valid = out_c - o < 4 ? out_c - o : 4;
            int32_t acc[4];
            acc[0] = bias_sum[o];
            acc[1] = bias_sum[o + 1];
            acc[2] = bias_sum[o + 2];
            acc[3] = bias_sum[o + 3];
            segments4_interleaved(p, s, weights, acc);
#if defined(TA_HAVE_DSP)
            requantize4_words(p, acc, 1, multipliers + o, shifts + o, out + o, 0, valid);
#else
            for (int32_t j = 0; j < valid; j++) {
                const int32_t v = requantize_nonnegative(acc[j], multipliers[o + j], shifts[o + j]);
                out[o + j] = (int8_t)ta_clamp_i32(v + offset, lo, hi);
            }
#endif
        }
    }
#endif
    for (; o < out_c; o += 4, weights += block_bytes)
        block4_interleaved(p, s, weights, bias_sum ? bias_sum + o : NULL,
                           multipliers ? multipliers + o : NULL, shifts ? shifts + o : NULL,
                           out_c - o < 4 ? out_c - o : 4, out + o);
}

#if defined(TA_HAVE_DSP) && !defined(TA_HAVE_MVE)
/* The longest filter (bytes, whole chunks) of the pair loops: an im2col
   patch or a 1x1 filter's depth. */
enum { PAIR_FILTER = MAX_PATCH };
/* Bytes from one pixel's widened input to the next's: the 512 in
   dot2x2_widened. */
enum { WIDE_GAP = 2 * PAIR_FILTER };

/* One input word (k: its byte offset in the chunk, xk: the offset of its
   widened pair) of two filters by two pixels, for the pair loops below. */
/* clang-format off */
#define TA_WIDE_WORD(k, xk)                                                                        \
    "   ldrd     %[x0e], %[x0o], [%[x], #" #xk "]\n"                                               \
    "   ldrd     %[x1e], %[x1o], [%[x], #512 + " #xk "]\n"                                         \
    "   ldr      %[v], [%[w], #" #k "]\n"                                                         \
    "   sxtb16   %[t], %[v]\n"                                                                    \
    "   smlad    %[a0], %[t], %[x0e], %[a0]\n"                                                    \
    "   smlad    %[a2], %[t], %[x1e], %[a2]\n"                                                    \
    "   sxtb16   %[t], %[v], ror #8\n"                                                            \
    "   smlad    %[a0], %[t], %[x0o], %[a0]\n"                                                    \
    "   smlad    %[a2], %[t], %[x1o], %[a2]\n"                                                    \
    "   ldr      %[v], [%[w], #16 + " #k "]\n"                                                    \
    "   sxtb16   %[t], %[v]\n"                                                                    \
    "   smlad    %[a1], %[t], %[x0e], %[a1]\n"                                                    \
    "   smlad    %[a3], %[t], %[x1e], %[a3]\n"                                                    \
    "   sxtb16   %[t], %[v], ror #8\n"                                                            \
    "   smlad    %[a1], %[t], %[x0o], %[a1]\n"                                                    \
    "   smlad    %[a3], %[t], %[x1o], %[a3]\n"
/* clang-format on */

/* The pair loops' input: two pixels widened to halfword pairs
   (ta_widen_s8_pairs), WIDE_GAP bytes apart, and their length. */
typedef struct {
    const uint32_t *wide;
    int32_t count; /* whole chunks (dot2x2_widened) or words (dot2x2_widened_words) */
} pair_input_t;

/* Two filters (f, at w and w + 16 in the interleaved layout) by two pixels
   over in->count whole 16-byte chunks, the pixels' input widened to
   halfword pairs at in->wide and WIDE_GAP bytes further: acc[0] += f0 x0,
   acc[1] += f1 x0, acc[4] += f0 x1, acc[5] += f1 x1, the layout
   requantize4_words reads (four channels a pixel; the other filter pair
   adds to acc[2, 3, 6, 7]). Each weight word, loaded and widened once,
   feeds both pixels' SMLADs, and each input word is one LDRD: 68
   instructions per 64 MACs. The sums start in acc, not from a bias
   pointer: with that fifth pointer, or two tied operands that start out
   equal, clang (r7 its frame pointer) finds no registers for the loop. */
TA_NOINLINE static void dot2x2_widened(int32_t *acc, const int8_t *w, const pair_input_t *in)
{
    const uint32_t *xw = in->wide;
    int32_t chunks = in->count;
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[4], a3 = acc[5];
    uint32_t x0e, x0o, x1e, x1o, v, t;
    /* clang-format off */
    __asm volatile(
        "1:\n" TA_WIDE_WORD(0, 0) TA_WIDE_WORD(4, 8) TA_WIDE_WORD(8, 16) TA_WIDE_WORD(12, 24)
        "   adds     %[x], %[x], #32\n"
        "   adds     %[w], %[w], #64\n"
        "   subs     %[c], %[c], #1\n"
        "   bne      1b\n"
        : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [x] "+r"(xw), [w] "+r"(w),
          [c] "+r"(chunks), [x0e] "=&r"(x0e), [x0o] "=&r"(x0o), [x1e] "=&r"(x1e),
          [x1o] "=&r"(x1o), [v] "=&r"(v), [t] "=&r"(t)
        :
        : "cc", "memory");
    /* clang-format on */
    acc[0] = a0;
    acc[1] = a1;
    acc[4] = a2;
    acc[5] = a3;
}

/* The same over the first in->count (1-3) words of one chunk: filters of
   fewer than 16 taps. */
TA_NOINLINE static void dot2x2_widened_words(int32_t *acc, const int8_t *w, const pair_input_t *in)
{
    const uint32_t *xw = in->wide;
    int32_t words = in->count;
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[4], a3 = acc[5];
    uint32_t x0e, x0o, x1e, x1o, v, t;
    /* clang-format off */
    __asm volatile(
        "1:\n" TA_WIDE_WORD(0, 0)
        "   adds     %[x], %[x], #8\n"
        "   adds     %[w], %[w], #4\n"
        "   subs     %[c], %[c], #1\n"
        "   bne      1b\n"
        : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [x] "+r"(xw), [w] "+r"(w),
          [c] "+r"(words), [x0e] "=&r"(x0e), [x0o] "=&r"(x0o), [x1e] "=&r"(x1e),
          [x1o] "=&r"(x1o), [v] "=&r"(v), [t] "=&r"(t)
        :
        : "cc", "memory");
    /* clang-format on */
    acc[0] = a0;
    acc[1] = a1;
    acc[4] = a2;
    acc[5] = a3;
}
#undef TA_WIDE_WORD

/* n bytes at x widened to halfword pairs (ta_widen_s8_pairs), a last
   partial word read byte by byte and zero-extended. */
static void widen_bytes(uint32_t *wide, const int8_t *x, int32_t n)
{
    const int32_t whole = n & ~3;
    ta_widen_s8_pairs(wide, x, whole);
    if (whole < n) {
        uint32_t v = 0;
        memcpy(&v, x + whole, (size_t)(n - whole)); /* little-endian: the low bytes */
        wide[whole / 2] = __sxtb16(v);
        wide[whole / 2 + 1] = ta_sxtb16_ror8(v);
    }
}

/* Every output channel (per-channel requantization; the last block's
   padded channels computed, not stored) of two pixels whose inputs,
   `words` words each (whole 16-byte chunks, or fewer than four words), are
   widened at wide and wide + WIDE_GAP bytes; the second pixel's outputs at
   out + out_c. */
static void pair_blocks(const ta_conv_2d_params_t *p, const uint32_t *wide, int32_t words,
                        const int8_t *weights, size_t block_bytes, const int32_t *bias_sum,
                        const int32_t *multipliers, const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth;
    const pair_input_t in = {wide, words >= 4 ? words / 4 : words};
    for (int32_t o = 0; o < out_c; o += 4, weights += block_bytes) {
        int32_t acc[8];
        for (int32_t j = 0; j < 4; j++)
            acc[j] = acc[4 + j] = bias_sum[o + j];
        /* A last block of one or two channels: its first filter pair only. */
        const int pair2 = out_c - o > 2;
        if (words >= 4) {
            dot2x2_widened(acc, weights, &in);
            if (pair2)
                dot2x2_widened(acc + 2, weights + 32, &in);
        } else {
            dot2x2_widened_words(acc, weights, &in);
            if (pair2)
                dot2x2_widened_words(acc + 2, weights + 32, &in);
        }
        requantize4_words(p, acc, 2, multipliers + o, shifts + o, out + o, (size_t)out_c,
                          out_c - o < 4 ? out_c - o : 4);
    }
}

#endif

#if defined(TA_HAVE_MVE)
/* Output channels summed for several pixels before they are requantized:
   the pixels' inputs stay in vector registers while four blocks of
   filters pass, so each weight load serves every pixel. */
enum { MVE_GROUP = 16, MVE_PIXELS = 4 };

/* acc[k][f] = filter f . pixel k (x + k * x_step) for `filters` filters
   (a multiple of 4) of one 16-byte chunk at most (n <= 16), four pixels. */
TA_NOINLINE static void sums_one_chunk_4(const int8_t *w, int32_t filters, const int8_t *x,
                                         size_t x_step, int32_t n,
                                         int32_t acc[MVE_PIXELS][MVE_GROUP])
{
    /* Zeroing loads: nothing read past the taps, and zero lanes past them. */
    const mve_pred16_t tail = vctp8q((uint32_t)n);
    const int8x16_t x0 = vldrbq_z_s8(x, tail), x1 = vldrbq_z_s8(x + x_step, tail);
    const int8x16_t x2 = vldrbq_z_s8(x + 2 * x_step, tail);
    const int8x16_t x3 = vldrbq_z_s8(x + 3 * x_step, tail);
    for (int32_t f = 0; f < filters; f++, w += 16) { /* one chunk: filters are 16 bytes apart */
        const int8x16_t wf = vldrbq_s8(w);
        acc[0][f] = vmladavq_s8(wf, x0);
        acc[1][f] = vmladavq_s8(wf, x1);
        acc[2][f] = vmladavq_s8(wf, x2);
        acc[3][f] = vmladavq_s8(wf, x3);
    }
}

/* One filter (chunks at w and w + 64) by two pixels of two chunks each. */
static inline void two_chunks_filter(const int8_t *w, int8x16_t x0a, int8x16_t x0b, int8x16_t x1a,
                                     int8x16_t x1b, int32_t *acc0, int32_t *acc1)
{
    const int8x16_t wa = vldrbq_s8(w), wb = vldrbq_s8(w + 64);
    *acc0 = vmladavaq_s8(vmladavq_s8(wa, x0a), wb, x0b);
    *acc1 = vmladavaq_s8(vmladavq_s8(wa, x1a), wb, x1b);
}

/* The same for two chunks (16 < n <= 32) and two pixels, into acc[0..1]. */
TA_NOINLINE static void sums_two_chunks_2(const int8_t *w, int32_t filters, const int8_t *x,
                                          size_t x_step, int32_t n, int32_t (*acc)[MVE_GROUP])
{
    const mve_pred16_t tail = vctp8q((uint32_t)(n - 16));
    const int8x16_t x0a = vldrbq_s8(x), x0b = vldrbq_z_s8(x + 16, tail);
    const int8x16_t x1a = vldrbq_s8(x + x_step), x1b = vldrbq_z_s8(x + x_step + 16, tail);
    int32_t *a0 = acc[0], *a1 = acc[1];
    /* A block: the four first chunks, then the four second ones; unrolled,
       the weight loads take immediate offsets. */
    for (int32_t f = 0; f < filters; f += 4, w += 128, a0 += 4, a1 += 4) {
        two_chunks_filter(w, x0a, x0b, x1a, x1b, &a0[0], &a1[0]);
        two_chunks_filter(w + 16, x0a, x0b, x1a, x1b, &a0[1], &a1[1]);
        two_chunks_filter(w + 32, x0a, x0b, x1a, x1b, &a0[2], &a1[2]);
        two_chunks_filter(w + 48, x0a, x0b, x1a, x1b, &a0[3], &a1[3]);
    }
}

/* bias_sum and requantization of four channels of one pixel. */
static inline int32x4_t requantize4_split(int32x4_t acc, int32x4_t bias, int32x4_t m,
                                          int32x4_t left, int32x4_t neg_right, int32_t offset,
                                          int32x4_t lov, int32x4_t hiv)
{
    const int32x4_t v = ta_mul_by_quantized_multiplier_split_mve(vaddq_s32(acc, bias), m, left,
                                                                 neg_right);
    return vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lov), hiv);
}

/* bias, requantization and store of acc[k][0..valid) for `pixels` (2 to
   4) pixels, out_c outputs apart: whole blocks of four filters computed
   (the arrays padded to them), the last stored predicated. */
TA_NOINLINE static void requantize_group(const int32_t acc[MVE_PIXELS][MVE_GROUP], int32_t pixels,
                                         int32_t valid, const int32_t *bias_sum,
                                         const int32_t *multipliers, const int32_t *shifts,
                                         const ta_conv_2d_params_t *p, int8_t *out)
{
    const int32_t offset = p->output_offset;
    const size_t out_c = (size_t)p->output_depth;
    const int32x4_t lov = vdupq_n_s32(p->activation_min), hiv = vdupq_n_s32(p->activation_max);
    for (int32_t f = 0; f < valid; f += 4, out += 4) {
        const int32x4_t bias = vldrwq_s32(bias_sum + f), m = vldrwq_s32(multipliers + f);
        const int32x4_t s = vldrwq_s32(shifts + f), zero = vdupq_n_s32(0);
        const int32x4_t left = vmaxq_s32(s, zero), neg_right = vminq_s32(s, zero);
        if (TA_LIKELY(valid - f >= 4)) {
            for (int32_t k = 0; k < pixels; k++)
                vstrbq_s32(out + (size_t)k * out_c,
                           requantize4_split(vldrwq_s32(&acc[k][f]), bias, m, left, neg_right,
                                             offset, lov, hiv));
            continue;
        }
        const mve_pred16_t lanes = vctp32q((uint32_t)(valid - f));
        for (int32_t k = 0; k < pixels; k++)
            vstrbq_p_s32(out + (size_t)k * out_c,
                         requantize4_split(vldrwq_s32(&acc[k][f]), bias, m, left, neg_right, offset,
                                           lov, hiv),
                         lanes);
    }
}
#endif

/* Sums of up to LONG_GROUP channels of several pixels kept in memory (long
   filters: across the pieces of their patches). */
enum { LONG_GROUP = 64 };

#if defined(TA_HAVE_MVE)
/* acc[k * stride + j] += filter j . x_k (from_zero: =) for two interleaved filters
   (j = 0 at w, 1 at w + 16) and three pixels' pieces of `chunks` whole
   chunks. Per chunk three input and two weight loads for six
   multiply-accumulates. Each holds its pipe for two cycles on the M55,
   so loads and MACs alternate: the last MAC of a chunk runs in the next
   one, after its first load (whole chunks, no tail predication that would
   mask it). */
static inline void dot2x3_accumulate_mve(const int8_t *w, const int8_t *x0, const int8_t *x1,
                                         const int8_t *x2, int32_t chunks, int32_t *acc,
                                         size_t stride, int from_zero)
{
    int32_t a0 = 0, a1 = 0, a2 = 0, b0 = 0, b1 = 0, b2 = 0;
    if (!from_zero) {
        a0 = acc[0], a1 = acc[stride], a2 = acc[2 * stride];
        b0 = acc[1], b1 = acc[stride + 1], b2 = acc[2 * stride + 1];
    }
    /* clang-format off */
    __asm volatile("   vmov.i32    q2, #0\n"
                   "   vmov.i32    q3, #0\n"
                   "   dls         lr, %[c]\n"
                   "1: vldrb.8     q0, [%[x0]], #16\n"
                   "   vmladava.s8 %[a2], q3, q2\n"
                   "   vldrb.8     q3, [%[w], #16]\n"
                   "   vmladava.s8 %[b0], q3, q0\n"
                   "   vldrb.8     q1, [%[x1]], #16\n"
                   "   vmladava.s8 %[b1], q3, q1\n"
                   "   vldrb.8     q2, [%[x2]], #16\n"
                   "   vmladava.s8 %[b2], q3, q2\n"
                   "   vldrb.8     q3, [%[w]], #64\n"
                   "   vmladava.s8 %[a0], q3, q0\n"
                   "   vmladava.s8 %[a1], q3, q1\n"
                   "   le          lr, 1b\n"
                   "   vmladava.s8 %[a2], q3, q2\n"
                   : [a0] "+Te"(a0), [a1] "+Te"(a1), [a2] "+Te"(a2), [b0] "+Te"(b0),
                     [b1] "+Te"(b1), [b2] "+Te"(b2), [x0] "+r"(x0), [x1] "+r"(x1),
                     [x2] "+r"(x2), [w] "+r"(w)
                   : [c] "r"(chunks)
                   : "q0", "q1", "q2", "q3", "lr", "memory");
    /* clang-format on */
    acc[0] = a0;
    acc[1] = b0;
    acc[stride] = a1;
    acc[stride + 1] = b1;
    acc[2 * stride] = a2;
    acc[2 * stride + 1] = b2;
}

/* The sums of `whole` filters (blocks of four from w, block_bytes apart)
   over three pixels' runs of `chunks` whole chunks, added to acc[k *
   LONG_GROUP + f]. */
static void triple_block_sums(const int8_t *w, size_t block_bytes, int32_t whole, const int8_t *x0,
                              const int8_t *x1, const int8_t *x2, int32_t chunks, int32_t *acc)
{
    for (int32_t f = 0; f < whole; f += 4, w += block_bytes) {
        dot2x3_accumulate_mve(w, x0, x1, x2, chunks, acc + f, LONG_GROUP, 0);
        dot2x3_accumulate_mve(w + 32, x0, x1, x2, chunks, acc + f + 2, LONG_GROUP, 0);
    }
}

/* Channels o0 .. o0 + n of three pixels (out_c outputs apart from out),
   from sums that hold their bias: requantized four at a time, the last
   block stored predicated. */
static void triple_requantize(const ta_conv_2d_params_t *p, const int32_t *acc, int32_t o0,
                              int32_t n, const int32_t *multipliers, const int32_t *shifts,
                              int8_t *out)
{
    const int32_t out_c = p->output_depth, offset = p->output_offset;
    const int32x4_t lov = vdupq_n_s32(p->activation_min), hiv = vdupq_n_s32(p->activation_max);
    for (int32_t f = 0; f < n; f += 4) {
        const int32x4_t m = vldrwq_s32(multipliers + o0 + f), sh = vldrwq_s32(shifts + o0 + f);
        const mve_pred16_t lanes = vctp32q((uint32_t)(n - f));
        for (int32_t k = 0; k < 3; k++) {
            const int32x4_t v = ta_mul_by_quantized_multiplier_mve(
                vldrwq_s32(acc + k * LONG_GROUP + f), m, sh);
            vstrbq_p_s32(out + (size_t)k * (size_t)out_c + (size_t)(o0 + f),
                         vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lov), hiv), lanes);
        }
    }
}

/* Every output channel of three pixels whose im2col patches (n bytes, then
   anything finite to the end of the last chunk: zero weights there) lie
   `stride` apart in patches, out_c outputs apart in out: each weight load
   serves the three pixels (dot2x3_accumulate_mve). */
TA_NOINLINE static void patches3_interleaved(const ta_conv_2d_params_t *p, const int8_t *patches,
                                             size_t stride, int32_t n, const int8_t *weights,
                                             size_t block_bytes, const int32_t *bias_sum,
                                             const int32_t *multipliers, const int32_t *shifts,
                                             int8_t *out)
{
    const int32_t out_c = p->output_depth;
    const int32_t chunks = (n + 15) / 16;
    int32_t acc[MVE_PIXELS][MVE_GROUP];
    for (int32_t o = 0; o < out_c; o += MVE_GROUP) {
        const int32_t filters = out_c - o < MVE_GROUP ? out_c - o : MVE_GROUP;
        const int8_t *w = weights + (size_t)(o / 4) * block_bytes;
        /* whole blocks: the last one's padded filters are zeros */
        const int32_t whole = (filters + 3) / 4 * 4;
        for (int32_t f = 0; f < whole; f += 2, w += (f % 4 == 0 ? block_bytes - 32 : 32))
            dot2x3_accumulate_mve(w, patches, patches + stride, patches + 2 * stride, chunks,
                                  &acc[0][f], MVE_GROUP, 1);
        requantize_group(acc, 3, filters, bias_sum + o, multipliers + o, shifts + o, p, out + o);
    }
}
#endif

/* `pixels` output pixels in a row whose taps are each one run of n bytes,
   x_step apart (a 1x1 filter reads its input pixel in place), out_c
   outputs apart in out. `wide` (2 * WIDE_GAP bytes, the caller's, so that
   one buffer serves all of a kernel's paths) is the DSP pair loop's. */
TA_NOINLINE static void run_pixels_interleaved(const ta_conv_2d_params_t *p, const int8_t *x,
                                               size_t x_step, int32_t pixels, int32_t n,
                                               const int8_t *weights, size_t block_bytes,
                                               const int32_t *bias_sum, const int32_t *multipliers,
                                               const int32_t *shifts, uint32_t *wide, int8_t *out)
{
#if !defined(TA_HAVE_DSP) || defined(TA_HAVE_MVE)
    (void)wide;
#endif
    const int32_t out_c = p->output_depth;
#if defined(TA_HAVE_MVE)
    if (bias_sum && multipliers && shifts) {
        /* Setup once per row, then per pixel only the channel loop; whole
           blocks of four channels (the arrays padded to them), the last
           stored predicated. */
        const int32_t offset = p->output_offset;
        const int32x4_t lov = vdupq_n_s32(p->activation_min), hiv = vdupq_n_s32(p->activation_max);
        int32_t i = 0;
        if (n > 0 && n <= TA_CONV_2D_QUAD_FILTER) {
            /* Short filters: several pixels share each weight load, four
               pixels one requantization pass. */
            int32_t acc[MVE_PIXELS][MVE_GROUP];
            for (; i + 4 <= pixels; i += 4, x += 4 * x_step, out += 4 * (size_t)out_c) {
                for (int32_t o = 0; o < out_c; o += MVE_GROUP) {
                    const int32_t filters = out_c - o < MVE_GROUP ? out_c - o : MVE_GROUP;
                    const int32_t whole = (filters + 3) / 4 * 4;
                    const int8_t *w = weights + (size_t)(o / 4) * block_bytes;
                    if (n <= 16) {
                        sums_one_chunk_4(w, whole, x, x_step, n, acc);
                    } else {
                        sums_two_chunks_2(w, whole, x, x_step, n, acc);
                        sums_two_chunks_2(w, whole, x + 2 * x_step, x_step, n, acc + 2);
                    }
                    requantize_group(acc, 4, filters, bias_sum + o, multipliers + o, shifts + o, p,
                                     out + o);
                }
            }
        }
        if (out_c % 4 == 0) {
            for (; i < pixels; i++, x += x_step, out += out_c) {
                const int8_t *w = weights;
                for (int32_t o = 0; o < out_c; o += 4, w += block_bytes) {
                    int32x4_t v = ta_dot4_interleaved_mve(bias_sum + o, w, x, n);
                    v = ta_mul_by_quantized_multiplier_mve(v, vldrwq_s32(multipliers + o),
                                                           vldrwq_s32(shifts + o));
                    vstrbq_s32(out + o, vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lov), hiv));
                }
            }
            return;
        }
        /* A channel count off four: the last block stored predicated. */
        for (; i < pixels; i++, x += x_step, out += out_c) {
            const int8_t *w = weights;
            for (int32_t o = 0; o < out_c; o += 4, w += block_bytes) {
                int32x4_t v = ta_dot4_interleaved_mve(bias_sum + o, w, x, n);
                v = ta_mul_by_quantized_multiplier_mve(v, vldrwq_s32(multipliers + o),
                                                       vldrwq_s32(shifts + o));
                vstrbq_p_s32(out + o, vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lov), hiv),
                             vctp32q((uint32_t)(out_c - o)));
            }
        }
        return;
    }
#else
    if (bias_sum && multipliers && shifts) {
        int32_t i = 0;
#if defined(TA_HAVE_DSP)
        if (n > 0 && n <= PAIR_FILTER) {
            /* Pixels in pairs, widened WIDE_GAP apart so that one pointer
               reaches both: every weight load serves two pixels. The pair
               loops read whole chunks (whole words under 16 bytes): zeros
               widened past the n bytes, against zero weights. */
            const int32_t words = n < 16 ? (n + 3) / 4 : (n + 15) / 16 * 4;
            const int32_t widened = (n + 3) / 4 * 2; /* words widen_bytes writes */
            if (words * 2 > widened) {
                memset(wide + widened, 0, (size_t)(words * 2 - widened) * 4);
                memset(wide + WIDE_GAP / 4 + widened, 0, (size_t)(words * 2 - widened) * 4);
            }
            for (; i + 2 <= pixels; i += 2, x += 2 * x_step, out += 2 * out_c) {
                widen_bytes(wide, x, n);
                widen_bytes(wide + WIDE_GAP / 4, x + x_step, n);
                pair_blocks(p, wide, words, weights, block_bytes, bias_sum, multipliers, shifts,
                            out);
            }
        }
#else
        const int32_t offset = p->output_offset;
        const int32_t lo = p->activation_min, hi = p->activation_max;
#endif
        for (; i < pixels; i++, x += x_step, out += out_c) {
            const int8_t *w = weights;
            for (int32_t o = 0; o < out_c; o += 4, w += block_bytes) {
                const int32_t valid = out_c - o < 4 ? out_c - o : 4;
                int32_t acc[4] = {bias_sum[o], bias_sum[o + 1], bias_sum[o + 2], bias_sum[o + 3]};
                ta_dot4_interleaved_s8(acc, w, x, n);
#if defined(TA_HAVE_DSP)
                requantize4_words(p, acc, 1, multipliers + o, shifts + o, out + o, 0, valid);
#else
                for (int32_t j = 0; j < valid; j++) {
                    const int32_t v = requantize_nonnegative(acc[j], multipliers[o + j],
                                                             shifts[o + j]);
                    out[o + j] = (int8_t)ta_clamp_i32(v + offset, lo, hi);
                }
#endif
            }
        }
        return;
    }
#endif
    segments_t s;
    s.count = 1;
    s.seg[0].w_offset = 0;
    s.seg[0].length = n;
    for (int32_t i = 0; i < pixels; i++, x += x_step, out += out_c) {
        s.seg[0].x = x;
        pixel_interleaved(p, &s, weights, block_bytes, bias_sum, multipliers, shifts, out);
    }
}

#if defined(TA_HAVE_DSP) && !defined(TA_HAVE_MVE)
/* Every pixel of one image (input in_b, outputs from out) for im2col
   patches of `words` words (whole chunks, or fewer than four words), with
   zeros past the filter in `patch`: pixels in pairs, across rows too (odd
   row widths), each patch widened once into `wide` for every block of
   filters; an odd last pixel alone. Needs out_c a multiple of four and
   per-channel requantization. */
static void patch_pairs(const ta_conv_2d_params_t *p, const int8_t *in_b, int8_t *patch,
                        uint32_t *wide, int32_t words, const int8_t *weights, size_t block_bytes,
                        const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                        int8_t *out)
{
    const int32_t out_c = p->output_depth, total = p->output_height * p->output_width;
    int32_t oy = 0, ox = 0, i = 0;
    for (; i + 2 <= total; i += 2, out += 2 * (size_t)out_c) {
        for (int32_t k = 0; k < 2; k++) {
            gather_patch(p, in_b, oy * p->stride_height - p->pad_top,
                         ox * p->stride_width - p->pad_left, patch);
            ta_widen_s8_pairs(wide + k * (WIDE_GAP / 4), patch, words * 4);
            if (++ox == p->output_width) {
                ox = 0;
                oy++;
            }
        }
        pair_blocks(p, wide, words, weights, block_bytes, bias_sum, multipliers, shifts, out);
    }
    if (i < total) {
        gather_patch(p, in_b, oy * p->stride_height - p->pad_top,
                     ox * p->stride_width - p->pad_left, patch);
        segments_t s;
        s.seg[0].x = patch;
        s.seg[0].w_offset = 0;
        s.seg[0].length = words * 4;
        s.count = 1;
        pixel_interleaved(p, &s, weights, block_bytes, bias_sum, multipliers, shifts, out);
    }
}
#endif

/* The same when the segments are more than one list holds: the list is
   rebuilt a part at a time for each block of four channels. */
static void pixel_interleaved_partial(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t iy0,
                                      int32_t ix0, const int8_t *weights, size_t block_bytes,
                                      const int32_t *bias_sum, const int32_t *multipliers,
                                      const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth, taps = p->filter_height * p->filter_width;
    segments_t part;
    for (int32_t o = 0; o < out_c; o += 4, weights += block_bytes) {
        const int32_t n = out_c - o < 4 ? out_c - o : 4;
        int32_t acc[4] = {0, 0, 0, 0};
        for (int32_t j = 0; bias_sum && j < n; j++)
            acc[j] = bias_sum[o + j];
        for (int32_t tap = 0; tap < taps;) {
            tap = build_segments(p, in_b, iy0, ix0, tap, &part);
            segments4_interleaved(p, &part, weights, acc);
        }
        ta_requantize_s8(acc, n, multipliers ? multipliers + o : NULL, shifts ? shifts + o : NULL,
                         p->multiplier, p->shift, p->output_offset, p->activation_min,
                         p->activation_max, out + o);
    }
}

/* Long filters (an im2col patch of more than MAX_PATCH bytes): the patch
   is gathered a piece at a time (whole chunks of the interleaved layout),
   and the sums of up to LONG_GROUP channels stay in memory across the
   pieces. */

/* Bytes [t0, t0 + len) of one pixel's im2col patch (taps in (ky, kx, c)
   order, pad_value outside the image) to dst. */
static void gather_taps(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t iy0, int32_t ix0,
                        int32_t t0, int32_t len, int8_t *dst)
{
    const int32_t fd = p->filter_depth, fw = p->filter_width, row_bytes = fw * fd;
    const size_t row_size = (size_t)p->input_width * (size_t)fd;
    const int8_t pad = (int8_t)p->pad_value;
    /* The filter row's taps inside the image (undilated): bytes [lo, hi). */
    const int32_t lo = (ix0 < 0 ? (-ix0 < fw ? -ix0 : fw) : 0) * fd;
    int32_t hi = (p->input_width - ix0) * fd;
    hi = hi > row_bytes ? row_bytes : (hi < lo ? lo : hi);
    for (int32_t ky = t0 / row_bytes, r0 = t0 % row_bytes; len > 0; ky++, r0 = 0) {
        const int32_t r1 = r0 + len < row_bytes ? r0 + len : row_bytes;
        const int32_t iy = iy0 + ky * p->dilation_height;
        const int8_t *row = in_b + (size_t)iy * row_size;
        if (iy < 0 || iy >= p->input_height) {
            memset(dst, pad, (size_t)(r1 - r0));
        } else if (p->dilation_width == 1) {
            const int32_t a = lo < r0 ? r0 : (lo > r1 ? r1 : lo);
            const int32_t b = hi < a ? a : (hi > r1 ? r1 : hi);
            memset(dst, pad, (size_t)(a - r0));
            ta_copy_s8(dst + (a - r0), row + (ix0 * fd + a), b - a);
            memset(dst + (b - r0), pad, (size_t)(r1 - b));
        } else {
            for (int32_t r = r0, n; r < r1; r += n) {
                const int32_t kx = r / fd, c = r % fd, ix = ix0 + kx * p->dilation_width;
                n = fd - c < r1 - r ? fd - c : r1 - r;
                if (ix < 0 || ix >= p->input_width)
                    memset(dst + (r - r0), pad, (size_t)n);
                else
                    ta_copy_s8(dst + (r - r0), row + (size_t)ix * (size_t)fd + (size_t)c, n);
            }
        }
        dst += r1 - r0;
        len -= r1 - r0;
    }
}

/* Every output channel of one pixel with a long filter; `patch` holds
   MAX_PATCH bytes. */
static void long_pixel(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t iy0, int32_t ix0,
                       int8_t *patch, const int8_t *weights, size_t block_bytes,
                       const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                       int8_t *out)
{
    const int32_t out_c = p->output_depth;
    const int32_t filter_size = p->filter_height * p->filter_width * p->filter_depth;
    for (int32_t o0 = 0; o0 < out_c; o0 += LONG_GROUP) {
        const int32_t n = out_c - o0 < LONG_GROUP ? out_c - o0 : LONG_GROUP;
        const int32_t whole = (n + 3) / 4 * 4; /* bias_sum is padded to blocks */
        int32_t acc[LONG_GROUP];
        memcpy(acc, bias_sum + o0, (size_t)whole * sizeof(int32_t));
        for (int32_t t0 = 0; t0 < filter_size; t0 += MAX_PATCH) {
            const int32_t len = filter_size - t0 < MAX_PATCH ? filter_size - t0 : MAX_PATCH;
            gather_taps(p, in_b, iy0, ix0, t0, len, patch);
#if defined(TA_HAVE_MVE)
            const int32_t run = len; /* tail-predicated */
#else
            /* whole words, against zero weights past the filter */
            const int32_t run = (len + 3) / 4 * 4;
            memset(patch + len, 0, (size_t)(run - len));
#endif
            const int8_t *w = weights + (size_t)(o0 / 4) * block_bytes + (size_t)t0 * 4;
            for (int32_t o = 0; o < whole; o += 4, w += block_bytes)
                ta_dot4_interleaved_s8(acc + o, w, patch, run);
        }
        ta_requantize_s8(acc, n, multipliers ? multipliers + o0 : NULL, shifts ? shifts + o0 : NULL,
                         p->multiplier, p->shift, p->output_offset, p->activation_min,
                         p->activation_max, out + o0);
    }
}

#if defined(TA_HAVE_DSP) && !defined(TA_HAVE_MVE)
/* Two pixels (windows at (iy[k], ix[k]), outputs at out and out + out_c)
   with a long filter: each piece of both patches widened once into `wide`
   for every block of filters, as the pair loops. Needs per-channel
   requantization. */
static void long_pair(const ta_conv_2d_params_t *p, const int8_t *in_b, const int32_t iy[2],
                      const int32_t ix[2], int8_t *patch, uint32_t *wide, const int8_t *weights,
                      size_t block_bytes, const int32_t *bias_sum, const int32_t *multipliers,
                      const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth;
    const int32_t filter_size = p->filter_height * p->filter_width * p->filter_depth;
    for (int32_t o0 = 0; o0 < out_c; o0 += LONG_GROUP) {
        const int32_t n = out_c - o0 < LONG_GROUP ? out_c - o0 : LONG_GROUP;
        const int32_t blocks = (n + 3) / 4;
        int32_t acc[2 * LONG_GROUP]; /* per block: four channels of pixel 0, then of pixel 1 */
        for (int32_t b = 0; b < blocks; b++)
            for (int32_t j = 0; j < 4; j++)
                acc[8 * b + j] = acc[8 * b + 4 + j] = bias_sum[o0 + 4 * b + j];
        for (int32_t t0 = 0; t0 < filter_size; t0 += MAX_PATCH) {
            const int32_t len = filter_size - t0 < MAX_PATCH ? filter_size - t0 : MAX_PATCH;
            const int32_t chunks = (len + 15) / 16;
            for (int32_t k = 0; k < 2; k++) {
                gather_taps(p, in_b, iy[k], ix[k], t0, len, patch);
                memset(patch + len, 0, (size_t)(chunks * 16 - len));
                ta_widen_s8_pairs(wide + k * (WIDE_GAP / 4), patch, chunks * 16);
            }
            const pair_input_t in = {wide, chunks};
            const int8_t *w = weights + (size_t)(o0 / 4) * block_bytes + (size_t)t0 * 4;
            for (int32_t b = 0; b < blocks; b++, w += block_bytes) {
                dot2x2_widened(acc + 8 * b, w, &in);
                if (o0 + 4 * b + 2 < out_c) /* not a last block of one or two */
                    dot2x2_widened(acc + 8 * b + 2, w + 32, &in);
            }
        }
        for (int32_t b = 0; b < blocks; b++) {
            const int32_t o = o0 + 4 * b;
            requantize4_words(p, acc + 8 * b, 2, multipliers + o, shifts + o, out + o,
                              (size_t)out_c, out_c - o < 4 ? out_c - o : 4);
        }
    }
}
#endif

#if defined(TA_HAVE_MVE)
/* Pieces of three pixels' patches at a time (whole chunks): long enough
   that the loop's setup per pair of filters is small beside it. */
enum { LONG_TRIPLE_PIECE = 512 };

/* Three pixels (windows at (iy[k], ix[k]), outputs out_c apart from out)
   with a long filter: each weight load serves the three. patches3 holds
   3 * LONG_TRIPLE_PIECE bytes. */
TA_NOINLINE static void long_triple(const ta_conv_2d_params_t *p, const int8_t *in_b,
                                    const int32_t iy[3], const int32_t ix[3], int8_t *patches3,
                                    const int8_t *weights, size_t block_bytes,
                                    const int32_t *bias_sum, const int32_t *multipliers,
                                    const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth;
    const int32_t filter_size = p->filter_height * p->filter_width * p->filter_depth;
    const size_t stride = LONG_TRIPLE_PIECE;
    for (int32_t o0 = 0; o0 < out_c; o0 += LONG_GROUP) {
        const int32_t n = out_c - o0 < LONG_GROUP ? out_c - o0 : LONG_GROUP;
        const int32_t whole = (n + 3) / 4 * 4;
        int32_t acc[3 * LONG_GROUP];
        for (int32_t k = 0; k < 3; k++)
            memcpy(acc + k * LONG_GROUP, bias_sum + o0, (size_t)whole * sizeof(int32_t));
        for (int32_t t0 = 0; t0 < filter_size; t0 += LONG_TRIPLE_PIECE) {
            const int32_t len = filter_size - t0 < LONG_TRIPLE_PIECE ? filter_size - t0
                                                                     : LONG_TRIPLE_PIECE;
            const int32_t chunks = (len + 15) / 16; /* zeros past the filter */
            for (int32_t k = 0; k < 3; k++) {
                int8_t *x = patches3 + (size_t)k * stride;
                gather_taps(p, in_b, iy[k], ix[k], t0, len, x);
                memset(x + len, 0, (size_t)(chunks * 16 - len));
            }
            triple_block_sums(weights + (size_t)(o0 / 4) * block_bytes + (size_t)t0 * 4,
                              block_bytes, whole, patches3, patches3 + stride,
                              patches3 + 2 * stride, chunks, acc);
        }
        triple_requantize(p, acc, o0, n, multipliers, shifts, out);
    }
}
#endif

/* Every pixel of one image (input in_b, outputs from out) with a long
   filter: on DSP cores pixels in pairs (across rows), else one at a time. */
TA_NOINLINE static void long_image(const ta_conv_2d_params_t *p, const int8_t *in_b, int8_t *patch,
                                   uint32_t *wide, const int8_t *weights, size_t block_bytes,
                                   const int32_t *bias_sum, const int32_t *multipliers,
                                   const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth, total = p->output_height * p->output_width;
    int32_t i = 0;
#if defined(TA_HAVE_DSP) && !defined(TA_HAVE_MVE)
    if (multipliers && shifts)
        for (; i + 2 <= total; i += 2, out += 2 * (size_t)out_c) {
            int32_t iy[2], ix[2];
            for (int32_t k = 0; k < 2; k++) {
                iy[k] = (i + k) / p->output_width * p->stride_height - p->pad_top;
                ix[k] = (i + k) % p->output_width * p->stride_width - p->pad_left;
            }
            long_pair(p, in_b, iy, ix, patch, wide, weights, block_bytes, bias_sum, multipliers,
                      shifts, out);
        }
#else
    (void)wide;
#endif
#if defined(TA_HAVE_MVE)
    int8_t patches3[3 * LONG_TRIPLE_PIECE];
    if (multipliers && shifts)
        for (; i + 3 <= total; i += 3, out += 3 * (size_t)out_c) {
            int32_t iy[3], ix[3];
            for (int32_t k = 0; k < 3; k++) {
                iy[k] = (i + k) / p->output_width * p->stride_height - p->pad_top;
                ix[k] = (i + k) % p->output_width * p->stride_width - p->pad_left;
            }
            long_triple(p, in_b, iy, ix, patches3, weights, block_bytes, bias_sum, multipliers,
                        shifts, out);
        }
#endif
    for (; i < total; i++, out += out_c)
        long_pixel(p, in_b, i / p->output_width * p->stride_height - p->pad_top,
                   i % p->output_width * p->stride_width - p->pad_left, patch, weights, block_bytes,
                   bias_sum, multipliers, shifts, out);
}

/* The kernel for interleaved weights (see the header): per pixel its taps
   as one im2col patch (small filters) or as segments in place, then four
   output channels per pass through them, requantized as a vector. */
static void conv_s8_interleaved(const ta_conv_2d_params_t *p, const int8_t *input,
                                const int8_t *weights, const int32_t *bias_sum,
                                const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    const int32_t fh = p->filter_height, fw = p->filter_width, out_c = p->output_depth;
    const size_t filter_size = (size_t)fh * (size_t)fw * (size_t)p->filter_depth;
    const size_t block_bytes = (filter_size + 15) / 16 * 64;
    const size_t image_size = (size_t)p->input_height * (size_t)p->input_width *
                              (size_t)p->input_depth;
    const int use_patch = fh * fw > 1 && filter_size <= MAX_PATCH;
    int8_t patch[MAX_PATCH];
#if defined(TA_HAVE_DSP) && !defined(TA_HAVE_MVE)
    uint32_t wide[2 * WIDE_GAP / 4];
#else
    uint32_t *const wide = NULL; /* the DSP pair loops' */
#endif
#if defined(TA_HAVE_MVE)
    const int32_t patch_length = (int32_t)filter_size; /* tail-predicated loops */
    /* Patches of up to TRIPLE_STRIDE bytes three pixels at a time. */
    enum { TRIPLE_STRIDE = TA_CONV_2D_TRIPLE_PATCH };
    int8_t patches3[3 * TRIPLE_STRIDE];
    const int triples = use_patch && filter_size <= TRIPLE_STRIDE && bias_sum && multipliers &&
                        shifts;
    if (triples) /* the loop reads each patch to the end of its last chunk */
        for (int32_t k = 0; k < 3; k++)
            memset(patches3 + (size_t)k * TRIPLE_STRIDE + filter_size, 0,
                   (filter_size + 15) / 16 * 16 - filter_size);
#else
    /* The patch runs to whole words: the interleaved weights past the
       filter are zero, so zeroed taps there add nothing, and the DSP dot
       loop skips its byte tail (MAX_PATCH is whole words). */
    const int32_t patch_length = (int32_t)(filter_size + 3) / 4 * 4;
    if (use_patch)
        memset(patch + filter_size, 0, (size_t)patch_length - filter_size);
#if defined(TA_HAVE_DSP)
    /* The pair loop reads the patch in whole chunks, or whole words when
       it is shorter than a chunk: zeros to the end of the last (MAX_PATCH
       is whole chunks). */
    const int32_t pair_words = filter_size <= 12 ? (int32_t)(filter_size + 3) / 4
                                                 : (int32_t)(filter_size + 15) / 16 * 4;
    if (use_patch)
        memset(patch + filter_size, 0, (size_t)pair_words * 4 - filter_size);
#endif
#endif
    segments_t s;
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (size_t)b * image_size;
#if defined(TA_HAVE_DSP) && !defined(TA_HAVE_MVE)
        const size_t image_outputs = (size_t)p->output_height * (size_t)p->output_width *
                                     (size_t)out_c;
        if (bias_sum && multipliers && shifts) {
            if (fh * fw == 1 && p->stride_height == 1 && p->stride_width == 1 && p->pad_top == 0 &&
                p->pad_left == 0 && p->output_height == p->input_height &&
                p->output_width == p->input_width) {
                /* A 1x1 filter over the whole image: one run of pixels, so
                   that the pairs go on across rows of odd width. */
                run_pixels_interleaved(p, in_b, (size_t)p->input_depth,
                                       p->output_height * p->output_width, p->filter_depth, weights,
                                       block_bytes, bias_sum, multipliers, shifts, wide, output);
                output += image_outputs;
                continue;
            }
            if (use_patch) {
                patch_pairs(p, in_b, patch, wide, pair_words, weights, block_bytes, bias_sum,
                            multipliers, shifts, output);
                output += image_outputs;
                continue;
            }
        }
#endif
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            const int32_t last_ix = (p->output_width - 1) * p->stride_width - p->pad_left;
            if (fh * fw == 1 && iy0 >= 0 && iy0 < p->input_height && p->pad_left == 0 &&
                last_ix < p->input_width) {
                /* A 1x1 filter, the whole row inside: every pixel in place. */
                const size_t in_c = (size_t)p->input_depth;
                run_pixels_interleaved(p, in_b + (size_t)iy0 * (size_t)p->input_width * in_c,
                                       (size_t)p->stride_width * in_c, p->output_width,
                                       p->filter_depth, weights, block_bytes, bias_sum, multipliers,
                                       shifts, wide, output);
                output += (size_t)p->output_width * (size_t)out_c;
                continue;
            }
            int32_t ox = 0;
#if defined(TA_HAVE_MVE)
            if (use_patch && triples) {
                /* Three pixels' patches at a time, each weight load shared. */
                for (; ox + 3 <= p->output_width; ox += 3, output += 3 * out_c) {
                    for (int32_t k = 0; k < 3; k++)
                        gather_patch(p, in_b, iy0, (ox + k) * p->stride_width - p->pad_left,
                                     patches3 + (size_t)k * TRIPLE_STRIDE);
                    patches3_interleaved(p, patches3, TRIPLE_STRIDE, (int32_t)filter_size, weights,
                                         block_bytes, bias_sum, multipliers, shifts, output);
                }
            }
#endif
            for (; ox < p->output_width; ox++, output += out_c) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                if (use_patch) {
                    gather_patch(p, in_b, iy0, ix0, patch);
                    s.seg[0].x = patch;
                    s.seg[0].w_offset = 0;
                    s.seg[0].length = patch_length;
                    s.count = 1;
                } else if (build_segments(p, in_b, iy0, ix0, 0, &s) < fh * fw) {
                    pixel_interleaved_partial(p, in_b, iy0, ix0, weights, block_bytes, bias_sum,
                                              multipliers, shifts, output);
                    continue;
                }
                pixel_interleaved(p, &s, weights, block_bytes, bias_sum, multipliers, shifts,
                                  output);
            }
        }
    }
}

/* Bytes of the column buffer: at least one patch, its vector tail, and
   room for the columns of many pixels. */
enum { COLUMN_BUFFER = 2 * MAX_PATCH, COLUMN_TAIL = 16 };

/* How the Helium path scatters input rows into columns: per_vector whole
   columns' bytes a vector, lane i to byte offsets[i]. */
typedef struct {
    int32_t per_vector;
    uint8_t offsets[16];
} column_scatter_t;

static void column_scatter(const ta_conv_2d_params_t *p, column_scatter_t *s)
{
    const int32_t fd = p->filter_depth, column = p->filter_height * fd;
    /* Byte offsets below 256; fd <= TA_CONV_2D_MAX_COLUMN_DEPTH (16). */
    int32_t per_vector = 16 / fd;
    if ((per_vector - 1) * column + fd > 256)
        per_vector = (256 - fd) / column + 1;
    s->per_vector = per_vector;
    for (int32_t i = 0; i < 16; i++)
        s->offsets[i] = i < per_vector * fd ? (uint8_t)(i / fd * column + i % fd) : 0;
}

/* `columns` input columns' bytes of one row (fd each, contiguous at src)
   to dst, column bytes apart; src NULL: pad_value (the image's border). */
#if defined(TA_HAVE_MVE)
TA_NOINLINE
#endif
static void put_columns(const ta_conv_2d_params_t *p, const column_scatter_t *scatter, int8_t *dst,
                        const int8_t *src, int32_t columns)
{
    const int32_t fd = p->filter_depth, column = p->filter_height * fd;
#if defined(TA_HAVE_MVE)
    /* Whole columns a vector, scattered; predicated at the end. */
    const uint8x16_t lane_offsets = vldrbq_u8(scatter->offsets);
    const int8x16_t pad = vdupq_n_s8((int8_t)p->pad_value);
    const int32_t step = scatter->per_vector * fd;
    for (int32_t bytes = columns * fd; bytes > 0; bytes -= step) {
        const mve_pred16_t lanes = vctp8q((uint32_t)(bytes < step ? bytes : step));
        vstrbq_scatter_offset_p_s8(dst, lane_offsets, src ? vldrbq_z_s8(src, lanes) : pad, lanes);
        src = src ? src + step : NULL;
        dst += (size_t)scatter->per_vector * (size_t)column;
    }
#else
    (void)scatter;
    if (src == NULL) {
        for (int32_t k = 0; k < columns; k++, dst += column)
            memset(dst, (int8_t)p->pad_value, (size_t)fd);
    } else if (fd == 1) {
        for (int32_t k = 0; k < columns; k++, dst += column)
            *dst = *src++;
    } else if (fd == 3) {
        for (int32_t k = 0; k < columns; k++, dst += column, src += 3) {
            dst[0] = src[0];
            dst[1] = src[1];
            dst[2] = src[2];
        }
    } else {
        for (int32_t k = 0; k < columns; k++, dst += column, src += fd)
            memcpy(dst, src, (size_t)fd);
    }
#endif
}

/* Input columns ix0 .. ix0 + count of the rows iy0 + ky * dilation_height
   into cols, column after column: (ky, c) within each, pad_value outside
   the image. */
static void gather_columns(const ta_conv_2d_params_t *p, const column_scatter_t *scatter,
                           const int8_t *in_b, int32_t iy0, int32_t ix0, int32_t count,
                           int8_t *cols)
{
    const int32_t fd = p->filter_depth;
    const size_t column = (size_t)p->filter_height * (size_t)fd;
    const size_t row_size = (size_t)p->input_width * (size_t)fd;
    /* The columns inside the image: [lo, hi). */
    const int32_t lo = ix0 < 0 ? (-ix0 < count ? -ix0 : count) : 0;
    int32_t hi = p->input_width - ix0;
    hi = hi > count ? count : (hi < lo ? lo : hi);
    for (int32_t ky = 0; ky < p->filter_height; ky++) {
        const int32_t iy = iy0 + ky * p->dilation_height;
        int8_t *row = cols + ky * fd;
        if (iy < 0 || iy >= p->input_height) {
            put_columns(p, scatter, row, NULL, count);
            continue;
        }
        put_columns(p, scatter, row, NULL, lo);
        put_columns(p, scatter, row + (size_t)lo * column,
                    in_b + (size_t)iy * row_size + (size_t)(ix0 + lo) * (size_t)fd, hi - lo);
        put_columns(p, scatter, row + (size_t)hi * column, NULL, count - hi);
    }
}

/* The kernel for taps by column (see the header): a run of output pixels
   at a time, their input columns gathered once, then every pixel's taps
   read in place. */
static void conv_s8_columns(const ta_conv_2d_params_t *p, const int8_t *input,
                            const int8_t *weights, const int32_t *bias_sum,
                            const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    const int32_t fw = p->filter_width, sw = p->stride_width, out_c = p->output_depth;
    const int32_t column = p->filter_height * p->filter_depth;
    const int32_t filter_size = fw * column;
    const size_t block_bytes = ((size_t)filter_size + 15) / 16 * 64;
    const size_t image_size = (size_t)p->input_height * (size_t)p->input_width *
                              (size_t)p->input_depth;
    /* Pixels per run: their columns and a vector tail past the last patch
       (read against zero weights) fit the buffer. */
    const int32_t max_columns = (COLUMN_BUFFER - COLUMN_TAIL) / column;
    const int32_t run = (max_columns - fw) / sw + 1;
#if defined(TA_HAVE_DSP)
    /* Whole words: the DSP dot loop then skips its byte tail. */
    const int32_t length = (filter_size + 3) / 4 * 4;
#else
    const int32_t length = filter_size;
#endif
    int8_t cols[COLUMN_BUFFER];
    memset(cols, 0, sizeof cols); /* the tail past the last column is read */
#if defined(TA_HAVE_DSP) && !defined(TA_HAVE_MVE)
    uint32_t wide[2 * WIDE_GAP / 4];
#else
    uint32_t *const wide = NULL; /* the DSP pair loops' */
#endif
    column_scatter_t scatter;
    column_scatter(p, &scatter);
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (size_t)b * image_size;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            for (int32_t ox = 0; ox < p->output_width; ox += run) {
                const int32_t pixels = p->output_width - ox < run ? p->output_width - ox : run;
                gather_columns(p, &scatter, in_b, iy0, ox * sw - p->pad_left,
                               (pixels - 1) * sw + fw, cols);
                run_pixels_interleaved(p, cols, (size_t)sw * (size_t)column, pixels, length,
                                       weights, block_bytes, bias_sum, multipliers, shifts, wide,
                                       output);
                output += (size_t)pixels * (size_t)out_c;
            }
        }
    }
}

int ta_conv_2d_s8_interleaved(const ta_conv_2d_params_t *p, const int8_t *input,
                              const int8_t *weights, const int32_t *bias_sum,
                              const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    if (!p->weights_interleaved || p->taps_by_column || !bias_sum)
        return TA_ERR_BAD_ARGUMENT;
    conv_s8_interleaved(p, input, weights, bias_sum, multipliers, shifts, output);
    return TA_OK;
}

/* The kernel for long patches (see the header): every image a piece of
   its pixels' patches at a time. */
static void conv_s8_long(const ta_conv_2d_params_t *p, const int8_t *input, const int8_t *weights,
                         const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                         int8_t *output)
{
    const size_t filter_size = (size_t)p->filter_height * (size_t)p->filter_width *
                               (size_t)p->filter_depth;
    const size_t block_bytes = (filter_size + 15) / 16 * 64;
    const size_t image_size = (size_t)p->input_height * (size_t)p->input_width *
                              (size_t)p->input_depth;
    const size_t image_outputs = (size_t)p->output_height * (size_t)p->output_width *
                                 (size_t)p->output_depth;
    int8_t patch[MAX_PATCH];
    memset(patch, 0, sizeof patch); /* once a call: every byte a dot loop reads is set */
#if defined(TA_HAVE_DSP) && !defined(TA_HAVE_MVE)
    uint32_t wide[2 * WIDE_GAP / 4];
#else
    uint32_t *const wide = NULL; /* the DSP pair loops' */
#endif
    for (int32_t b = 0; b < p->batches; b++, output += image_outputs)
        long_image(p, input + (size_t)b * image_size, patch, wide, weights, block_bytes, bias_sum,
                   multipliers, shifts, output);
}

int ta_conv_2d_s8_long(const ta_conv_2d_params_t *p, const int8_t *input, const int8_t *weights,
                       const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                       int8_t *output)
{
    if (!p->weights_interleaved || p->taps_by_column || !bias_sum ||
        (size_t)p->filter_height * (size_t)p->filter_width * (size_t)p->filter_depth <= MAX_PATCH)
        return TA_ERR_BAD_ARGUMENT;
    conv_s8_long(p, input, weights, bias_sum, multipliers, shifts, output);
    return TA_OK;
}

int ta_conv_2d_s8_columns(const ta_conv_2d_params_t *p, const int8_t *input, const int8_t *weights,
                          const int32_t *bias_sum, const int32_t *multipliers,
                          const int32_t *shifts, int8_t *output)
{
    if (!p->weights_interleaved || !p->taps_by_column || !bias_sum)
        return TA_ERR_BAD_ARGUMENT;
    conv_s8_columns(p, input, weights, bias_sum, multipliers, shifts, output);
    return TA_OK;
}

int ta_conv_2d_s8(const ta_conv_2d_params_t *p, const int8_t *input, const int8_t *weights,
                  const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                  int8_t *output)
{
    if (p->weights_interleaved && !bias_sum)
        return TA_ERR_BAD_ARGUMENT;
    if (p->weights_interleaved && p->taps_by_column) {
        conv_s8_columns(p, input, weights, bias_sum, multipliers, shifts, output);
        return TA_OK;
    }
    if (p->weights_interleaved && p->filter_height * p->filter_width > 1 &&
        (size_t)p->filter_height * (size_t)p->filter_width * (size_t)p->filter_depth > MAX_PATCH) {
        conv_s8_long(p, input, weights, bias_sum, multipliers, shifts, output);
        return TA_OK;
    }
    if (p->weights_interleaved) {
        conv_s8_interleaved(p, input, weights, bias_sum, multipliers, shifts, output);
        return TA_OK;
    }
    const int32_t fd = p->filter_depth, fw = p->filter_width, fh = p->filter_height;
    const size_t filter_size = (size_t)fh * (size_t)fw * (size_t)fd;
    const size_t image_size = (size_t)p->input_height * (size_t)p->input_width *
                              (size_t)p->input_depth;
    const int32_t groups = p->input_depth / fd;
    /* Filters with short rows of taps (few input channels) would waste
       vector lanes segment by segment: lay the taps out as one vector. */
    const int use_patch = groups == 1 && filter_size <= MAX_PATCH && fw * fd < 64 &&
                          !(fh == 1 && fw == 1);
    int8_t patch[MAX_PATCH];
    segments_t s;
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (size_t)b * image_size;
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                int complete;
                if (use_patch) {
                    gather_patch(p, in_b, iy0, ix0, patch);
                    s.seg[0].x = patch;
                    s.seg[0].w_offset = 0;
                    s.seg[0].length = (int32_t)filter_size;
                    s.count = 1;
                    complete = 1;
                } else {
                    complete = build_segments(p, in_b, iy0, ix0, 0, &s) == fh * fw;
                }
                if (complete) {
                    pixel_s8(p, &s, weights, bias_sum, multipliers, shifts, output);
                    output += p->output_depth;
                    continue;
                }
                /* Too many segments for one list: blocks of channels inside one group. */
                for (int32_t o0 = 0, n; o0 < p->output_depth; o0 += n) {
                    const int32_t group_end = (o0 / p->filters_per_group + 1) *
                                              p->filters_per_group;
                    n = group_end - o0 < BLOCK ? group_end - o0 : BLOCK;
                    int32_t acc[BLOCK];
                    accumulate_block_partial(p, in_b, iy0, ix0, weights, bias_sum, o0, n, acc);
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
        const int16_t *in_b = input + (size_t)b * (size_t)p->input_height * (size_t)p->input_width *
                                          (size_t)p->input_depth;
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
                        out = ta_mul_by_quantized_multiplier((int32_t)(uint32_t)(uint64_t)acc, m,
                                                             (int)s);
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
