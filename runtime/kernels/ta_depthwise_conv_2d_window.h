/*
 * ta_depthwise_conv_2d_window.h - what the int8 depthwise paths share (the
 * portable one in ta_depthwise_conv_2d.c, Helium in
 * ta_depthwise_conv_2d_mve.c, DSP in ta_depthwise_conv_2d_dsp.c): the walk
 * over images and rows, and for the SIMD paths the interior ranges, the
 * taps of a border window and the per-call context.
 */
#ifndef TA_DEPTHWISE_CONV_2D_WINDOW_H
#define TA_DEPTHWISE_CONV_2D_WINDOW_H

#include "ta_depthwise_conv_2d.h"

#include "../include/ta_simd.h"

#include <stddef.h>

/* Step i of a walk over n images or rows: backwards when `reverse` (the
   header's reverse_rows), so the output may sit above its input. */
static inline int32_t dw_walk(int32_t reverse, int32_t i, int32_t n)
{
    return reverse ? n - 1 - i : i;
}

#if defined(TA_HAVE_MVE) || defined(TA_HAVE_DSP)
#define DW_INLINE static inline __attribute__((always_inline))
/* One function per block shape: inlining them all into the pixel loop
   only grows the code. */
#define DW_NOINLINE static __attribute__((noinline))
/* The helpers below, static as they were in one file (static inline would
   make gcc inline dw_window_init into every pixel loop, a bigger loop);
   unused where a file needs only some of them. */
#define DW_SHARED static __attribute__((unused))

/* The output positions along one axis whose whole (dilated) window lies
   inside the input: [*lo, *hi). */
DW_SHARED void inside_range(int32_t in, int32_t out, int32_t k, int32_t stride, int32_t dilation,
                            int32_t pad, int32_t *lo, int32_t *hi)
{
    const int32_t last = in - 1 - (k - 1) * dilation + pad;
    const int32_t l = (pad + stride - 1) / stride;
    int32_t h = last < 0 ? 0 : last / stride + 1;
    h = h > out ? out : h;
    *lo = l > h ? h : l;
    *hi = h;
}

/* The taps [*lo, *hi) of a window starting at i0 that lie inside [0, in). */
DW_SHARED void tap_range(int32_t i0, int32_t in, int32_t k, int32_t dilation, int32_t *lo,
                         int32_t *hi)
{
    int32_t l = i0 < 0 ? (dilation - 1 - i0) / dilation : 0;
    int32_t h = in - 1 - i0 < 0 ? 0 : (in - 1 - i0) / dilation + 1;
    h = h > k ? k : h;
    *lo = l > h ? h : l;
    *hi = h;
}

/* What the multiplier-1 paths share for one call. */
typedef struct {
    const ta_depthwise_conv_2d_params_t *p;
    const int8_t *weights;
    const int32_t *bias_sum, *bias, *multipliers, *shifts;
    int32_t depth;              /* output channels */
    int32_t in_depth;           /* input channels (depth / depth multiplier) */
    ptrdiff_t tap_row, tap_col; /* input bytes between vertically, horizontally adjacent taps */
} dw_ctx;

/* The taps of one border pixel that lie inside the input: rows [0, rows)
   and columns [0, cols) of the window from `x` on, whose first weight is
   `w` (channel 0). */
typedef struct {
    const int8_t *x, *w;
    int32_t rows, cols;
} dw_window;

DW_SHARED void dw_ctx_init(dw_ctx *c, const ta_depthwise_conv_2d_params_t *p, const int8_t *weights,
                           const int32_t *bias_sum, const int32_t *bias, const int32_t *multipliers,
                           const int32_t *shifts)
{
    c->p = p;
    c->weights = weights;
    c->bias_sum = bias_sum;
    c->bias = bias;
    c->multipliers = multipliers;
    c->shifts = shifts;
    c->depth = p->output_depth;
    c->in_depth = p->input_depth;
    c->tap_row = (ptrdiff_t)p->dilation_height * p->input_width * p->input_depth;
    c->tap_col = (ptrdiff_t)p->dilation_width * p->input_depth;
}

DW_SHARED void dw_window_init(const dw_ctx *c, const int8_t *in_b, int32_t iy0, int32_t ix0,
                              dw_window *win)
{
    const ta_depthwise_conv_2d_params_t *p = c->p;
    int32_t ky0, ky1, kx0, kx1;
    tap_range(iy0, p->input_height, p->filter_height, p->dilation_height, &ky0, &ky1);
    tap_range(ix0, p->input_width, p->filter_width, p->dilation_width, &kx0, &kx1);
    win->rows = ky1 - ky0;
    win->cols = kx1 - kx0;
    win->x = in_b;
    win->w = c->weights;
    if (win->rows > 0 && win->cols > 0) {
        const int32_t iy = iy0 + ky0 * p->dilation_height, ix = ix0 + kx0 * p->dilation_width;
        win->x = in_b + ((ptrdiff_t)iy * p->input_width + ix) * c->in_depth;
        win->w = c->weights + ((ptrdiff_t)ky0 * p->filter_width + kx0) * c->depth;
    }
}
#endif

#endif /* TA_DEPTHWISE_CONV_2D_WINDOW_H */
