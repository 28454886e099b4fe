/*
 * ta_conv_2d_patch.c - the im2col gathers every int8 CONV_2D path shares
 * (see ta_conv_2d_patch.h): once in the module, out of line as they were
 * in one file.
 */
#include "ta_conv_2d_patch.h"

#include "../include/ta_simd.h"

#include <stddef.h>

/* The input values one output pixel's filter sees, in weight order, with
   the zero point (pad_value) for taps outside the image: the converter
   folded -zero_point * sum(weights) into bias_sum, so a padded tap then
   contributes exactly nothing, as in TFLite. Ungrouped filters only. */
void ta_conv_2d_gather_patch(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t iy0,
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
    const int32_t dw = p->dilation_width;
    if (dw > 1 && iy0 >= 0 && ix0 >= 0 &&
        iy0 + (p->filter_height - 1) * p->dilation_height < p->input_height &&
        ix0 + (fw - 1) * dw < p->input_width) {
        /* A dilated window inside the image: a copy per tap, without
           bounds tests. */
        const int8_t *src = in_b + (size_t)iy0 * row_size + (size_t)ix0 * (size_t)fd;
        const size_t step = (size_t)p->dilation_height * row_size;
        for (int32_t ky = 0; ky < p->filter_height; ky++, src += step)
            for (int32_t kx = 0; kx < fw; kx++, patch += fd)
                ta_copy_s8(patch, src + (size_t)kx * (size_t)dw * (size_t)fd, fd);
        return;
    }
    for (int32_t ky = 0; ky < p->filter_height; ky++, patch += filter_row) {
        const int32_t iy = iy0 + ky * p->dilation_height;
        if (iy < 0 || iy >= p->input_height) {
            ta_fill_s8(patch, (int8_t)p->pad_value, filter_row);
            continue;
        }
        const int8_t *row = in_b + (size_t)iy * row_size;
        if (p->dilation_width == 1) {
            /* The taps inside the image are one run of input. */
            const int32_t lo = ix0 < 0 ? (-ix0 < fw ? -ix0 : fw) : 0;
            int32_t hi = p->input_width - ix0;
            hi = hi > fw ? fw : (hi < lo ? lo : hi);
            if (lo > 0)
                ta_fill_s8(patch, (int8_t)p->pad_value, lo * fd);
            if (hi > lo)
                ta_copy_s8(patch + lo * fd, row + (size_t)(ix0 + lo) * (size_t)fd, (hi - lo) * fd);
            if (hi < fw)
                ta_fill_s8(patch + hi * fd, (int8_t)p->pad_value, (fw - hi) * fd);
            continue;
        }
        for (int32_t kx = 0; kx < fw; kx++) {
            const int32_t ix = ix0 + kx * p->dilation_width;
            if (ix < 0 || ix >= p->input_width)
                ta_fill_s8(patch + kx * fd, (int8_t)p->pad_value, fd);
            else
                ta_copy_s8(patch + kx * fd, row + (size_t)ix * (size_t)fd, fd);
        }
    }
}

#if defined(TA_HAVE_MVE) /* the three-pixel patch loops' (ta_conv_2d_mve.c) */
void ta_conv_2d_gather_columns(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t iy,
                               int32_t ix0, int32_t cols, int8_t *dst)
{
    const int32_t fd = p->filter_depth;
    const int8_t pad = (int8_t)p->pad_value;
    if (iy < 0 || iy >= p->input_height) {
        ta_fill_s8(dst, pad, cols * fd);
        return;
    }
    /* The columns inside the image are one run of input (as in
       ta_conv_2d_gather_patch, whose copy stays inline there). */
    const int8_t *row = in_b + (size_t)iy * (size_t)p->input_width * (size_t)p->input_depth;
    const int32_t lo = ix0 < 0 ? (-ix0 < cols ? -ix0 : cols) : 0;
    int32_t hi = p->input_width - ix0;
    hi = hi > cols ? cols : (hi < lo ? lo : hi);
    if (lo > 0)
        ta_fill_s8(dst, pad, lo * fd);
    if (hi > lo)
        ta_copy_s8(dst + lo * fd, row + (size_t)(ix0 + lo) * (size_t)fd, (hi - lo) * fd);
    if (hi < cols)
        ta_fill_s8(dst + hi * fd, pad, (cols - hi) * fd);
}

/* The patches of three consecutive output pixels in raster order from
   (oy, ox), TA_CONV_2D_TRIPLE_PATCH bytes apart: in one row with windows
   all inside the image (the usual case) a filter row of the three a
   tail-predicated loop, a chunk of each a pass, without a call and the
   bounds tests per pixel; else pixel by pixel. */
void ta_conv_2d_gather_patches3(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t oy,
                                int32_t ox, int8_t *patches)
{
    const int32_t fd = p->filter_depth, sw = p->stride_width;
    const int32_t iy0 = oy * p->stride_height - p->pad_top, ix0 = ox * sw - p->pad_left;
    if (!(ox + 3 <= p->output_width && p->dilation_width == 1 && ix0 >= 0 &&
          ix0 + 2 * sw + p->filter_width <= p->input_width)) {
        const int32_t width = p->output_width, left = -p->pad_left, sh = p->stride_height;
        for (int32_t k = 0, iy = iy0, ix = ix0; k < 3; k++, patches += TA_CONV_2D_TRIPLE_PATCH) {
            ta_conv_2d_gather_patch(p, in_b, iy, ix, patches);
            ix += sw;
            if (++ox == width) /* the next row's first window */
                ox = 0, ix = left, iy += sh;
        }
        return;
    }
    const int32_t filter_row = p->filter_width * fd;
    const size_t row_size = (size_t)p->input_width * (size_t)p->input_depth;
    const int8_t *const left = in_b + (size_t)ix0 * (size_t)fd; /* the first window's column */
    for (int32_t ky = 0, iy = iy0; ky < p->filter_height;
         ky++, patches += filter_row, iy += p->dilation_height) {
        int8_t *d0 = patches, *d1 = patches + TA_CONV_2D_TRIPLE_PATCH;
        int8_t *d2 = patches + 2 * TA_CONV_2D_TRIPLE_PATCH;
        /* A row above or below the image: the first patch's filled, then
           copied to the other two. */
        const int8_t *s0 = d0;
        size_t gap = 0;
        if (iy < 0 || iy >= p->input_height) {
            ta_fill_s8(d0, (int8_t)p->pad_value, filter_row);
        } else {
            s0 = left + (size_t)iy * row_size;
            gap = (size_t)(sw * fd);
        }
        const int8_t *s1 = s0 + gap, *s2 = s0 + 2 * gap;
        /* clang-format off */
        __asm volatile("   wlstp.8     lr, %[n], 2f\n"
                       "1: vldrb.8     q0, [%[s0]], #16\n"
                       "   vldrb.8     q1, [%[s1]], #16\n"
                       "   vstrb.8     q0, [%[d0]], #16\n"
                       "   vldrb.8     q0, [%[s2]], #16\n"
                       "   vstrb.8     q1, [%[d1]], #16\n"
                       "   vstrb.8     q0, [%[d2]], #16\n"
                       "   letp        lr, 1b\n"
                       "2:\n"
                       : [s0] "+r"(s0), [s1] "+r"(s1), [s2] "+r"(s2), [d0] "+r"(d0), [d1] "+r"(d1),
                         [d2] "+r"(d2)
                       : [n] "r"(filter_row)
                       : "q0", "q1", "lr", "memory");
        /* clang-format on */
    }
}
#endif

/* Long filters (an im2col patch of more than MAX_PATCH bytes): the patch
   is gathered a piece at a time (whole chunks of the interleaved layout),
   and the sums of up to LONG_GROUP channels stay in memory across the
   pieces. */

/* ta_conv_2d_gather_taps for dilated columns: tap by tap from r0's, one
   division a filter row, not a tap; whole taps all inside the image (the
   usual case) without tests. Out of line: the undilated rows keep their
   registers. */
TA_NOINLINE static void gather_dilated(const ta_conv_2d_params_t *p, const int8_t *in_b,
                                       int32_t iy0, int32_t ix0, int32_t t0, int32_t len,
                                       int8_t *dst)
{
    const int32_t fd = p->filter_depth, row_bytes = p->filter_width * fd;
    const int32_t dw = p->dilation_width, width = p->input_width;
    const size_t row_size = (size_t)width * (size_t)fd, step = (size_t)dw * (size_t)fd;
    const int8_t pad = (int8_t)p->pad_value;
    for (int32_t ky = t0 / row_bytes, r0 = t0 % row_bytes; len > 0; ky++, r0 = 0) {
        const int32_t r1 = r0 + len < row_bytes ? r0 + len : row_bytes, taps = (r1 - r0) / fd;
        const int32_t iy = iy0 + ky * p->dilation_height;
        const int8_t *row = in_b + (size_t)iy * row_size;
        int32_t c = r0 % fd, ix = ix0 + r0 / fd * dw;
        int8_t *d = dst;
        if (iy < 0 || iy >= p->input_height) {
            ta_fill_s8(dst, pad, r1 - r0);
        } else if (c == 0 && taps * fd == r1 - r0 && ix >= 0 && ix + (taps - 1) * dw < width) {
            const int8_t *src = row + (size_t)ix * (size_t)fd;
            for (int32_t k = 0; k < taps; k++, d += fd, src += step)
                ta_copy_s8(d, src, fd);
        } else {
            for (int32_t left = r1 - r0, n; left > 0; left -= n, d += n, c = 0, ix += dw) {
                n = fd - c < left ? fd - c : left;
                if (ix < 0 || ix >= width)
                    ta_fill_s8(d, pad, n);
                else
                    ta_copy_s8(d, row + (size_t)ix * (size_t)fd + (size_t)c, n);
            }
        }
        dst += r1 - r0;
        len -= r1 - r0;
    }
}

/* Bytes [t0, t0 + len) of one pixel's im2col patch (taps in (ky, kx, c)
   order, pad_value outside the image) to dst. */
void ta_conv_2d_gather_taps(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t iy0,
                            int32_t ix0, int32_t t0, int32_t len, int8_t *dst)
{
    if (p->dilation_width != 1) {
        gather_dilated(p, in_b, iy0, ix0, t0, len, dst);
        return;
    }
    const int32_t fd = p->filter_depth, fw = p->filter_width, row_bytes = fw * fd;
    const size_t row_size = (size_t)p->input_width * (size_t)fd;
    const int8_t pad = (int8_t)p->pad_value;
    /* The filter row's taps inside the image: bytes [lo, hi). */
    const int32_t lo = (ix0 < 0 ? (-ix0 < fw ? -ix0 : fw) : 0) * fd;
    int32_t hi = (p->input_width - ix0) * fd;
    hi = hi > row_bytes ? row_bytes : (hi < lo ? lo : hi);
    for (int32_t ky = t0 / row_bytes, r0 = t0 % row_bytes; len > 0; ky++, r0 = 0) {
        const int32_t r1 = r0 + len < row_bytes ? r0 + len : row_bytes;
        const int32_t iy = iy0 + ky * p->dilation_height;
        const int8_t *row = in_b + (size_t)iy * row_size;
        if (iy < 0 || iy >= p->input_height) {
            ta_fill_s8(dst, pad, r1 - r0);
        } else {
            const int32_t a = lo < r0 ? r0 : (lo > r1 ? r1 : lo);
            const int32_t b = hi < a ? a : (hi > r1 ? r1 : hi);
            /* Inside the image (the usual case) no padding: no fill calls
               (a library call on cores without Helium). */
            if (a > r0)
                ta_fill_s8(dst, pad, a - r0);
            ta_copy_s8(dst + (a - r0), row + (ix0 * fd + a), b - a);
            if (r1 > b)
                ta_fill_s8(dst + (b - r0), pad, r1 - b);
        }
        dst += r1 - r0;
        len -= r1 - r0;
    }
}
