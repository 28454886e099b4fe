/*
 * ta_conv_2d_patch.h - what the int8 CONV_2D paths share (the portable one
 * and the dispatch in ta_conv_2d.c, Helium in ta_conv_2d_mve.c, DSP in
 * ta_conv_2d_dsp.c): a pixel's taps as segments or as an im2col patch (or a
 * piece of one), the interleaved blocks' sums over segments, the portable
 * requantization and the sizes of the working buffers.
 */
#ifndef TA_CONV_2D_PATCH_H
#define TA_CONV_2D_PATCH_H

#include "ta_conv_2d.h"

#include "../include/ta_compiler.h"
#include "../include/ta_quant.h"
#include "../include/ta_simd.h"

#include <stddef.h>
#include <string.h>

/* The helpers below, static as they were in one file (static inline would
   let gcc inline them into every pixel loop); unused where a file needs
   only some of them. */
#define CONV_SHARED static __attribute__((unused))

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
CONV_SHARED void add_segment(segments_t *s, int32_t pad_value, const int8_t *x, int32_t w_offset,
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
CONV_SHARED int32_t build_segments(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t iy0,
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
CONV_SHARED void gather_patch(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t iy0,
                              int32_t ix0, int8_t *patch)
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

/* Long filters (an im2col patch of more than MAX_PATCH bytes): the patch
   is gathered a piece at a time (whole chunks of the interleaved layout),
   and the sums of up to LONG_GROUP channels stay in memory across the
   pieces. */

/* Bytes [t0, t0 + len) of one pixel's im2col patch (taps in (ky, kx, c)
   order, pad_value outside the image) to dst. */
CONV_SHARED void gather_taps(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t iy0,
                             int32_t ix0, int32_t t0, int32_t len, int8_t *dst)
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

/* Sums of up to LONG_GROUP channels of several pixels kept in memory (long
   filters: across the pieces of their patches). */
enum { LONG_GROUP = 64 };

/* Bytes of the column buffer: at least one patch, its vector tail, and
   room for the columns of many pixels. */
enum { COLUMN_BUFFER = 2 * MAX_PATCH, COLUMN_TAIL = 16 };

/* How the Helium path scatters input rows into columns: per_vector whole
   columns' bytes a vector, lane i to byte offsets[i]. */
typedef struct {
    int32_t per_vector;
    uint8_t offsets[16];
} column_scatter_t;

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
#endif

#endif /* TA_CONV_2D_PATCH_H */
