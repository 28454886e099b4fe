/*
 * ta_conv_2d.c - CONV_2D kernels; see the header. The portable path and the
 * dispatch: on Helium cores the requantized int8 paths run
 * ta_conv_2d_mve.c, with the DSP extension ta_conv_2d_dsp.c; what they
 * share (segments, patches, the buffers' sizes) is ta_conv_2d_patch.h.
 */
#include "ta_conv_2d.h"

#include "ta_conv_2d_dsp.h"
#include "ta_conv_2d_mve.h"
#include "ta_conv_2d_patch.h"

#include "../include/ta_compiler.h"
#include "../include/ta_quant.h"
#include "../include/ta_simd.h"
#include "../include/ta_status.h"

#include <stddef.h>
#include <string.h>

/* Inlined into each caller whatever the compiler's size estimate: on
   Helium cores the 1x1 loop, whose two entries pass their own runs, so that
   each run (a constant) is a direct call. */
#if defined(__GNUC__) && defined(TA_HAVE_MVE)
#define INLINE_INTO_ENTRY static inline __attribute__((always_inline))
#else
#define INLINE_INTO_ENTRY static
#endif

/* Output channels a pixel of the portable kernel sums at a time when its
   segments are more than one list holds. */
enum { BLOCK = 16 };

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

#if !defined(TA_HAVE_MVE) && !defined(TA_HAVE_DSP)
/* run_pixels_interleaved without SIMD: four channels a pass through each
   pixel's run. */
static void run_requantized(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step,
                            int32_t pixels, int32_t n, const int8_t *weights, size_t block_bytes,
                            const int32_t *bias_sum, const int32_t *multipliers,
                            const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth, offset = p->output_offset;
    const int32_t lo = p->activation_min, hi = p->activation_max;
    for (int32_t i = 0; i < pixels; i++, x += x_step, out += out_c) {
        const int8_t *w = weights;
        for (int32_t o = 0; o < out_c; o += 4, w += block_bytes) {
            const int32_t valid = out_c - o < 4 ? out_c - o : 4;
            int32_t acc[4] = {bias_sum[o], bias_sum[o + 1], bias_sum[o + 2], bias_sum[o + 3]};
            ta_dot4_interleaved_s8(acc, w, x, n);
            for (int32_t j = 0; j < valid; j++) {
                const int32_t v = requantize_nonnegative(acc[j], multipliers[o + j], shifts[o + j]);
                out[o + j] = (int8_t)ta_clamp_i32(v + offset, lo, hi);
            }
        }
    }
}
#endif

/* `pixels` output pixels in a row whose taps are each one run of n bytes,
   x_step apart (a 1x1 filter reads its input pixel in place; a gathered
   patch is a run of one pixel), out_c outputs apart in out. `wide`
   (TA_CONV_2D_WIDE_WORDS, the caller's, so that one buffer serves all of a
   kernel's paths) is the DSP pair loop's. */
TA_NOINLINE static void run_pixels_interleaved(const ta_conv_2d_params_t *p, const int8_t *x,
                                               size_t x_step, int32_t pixels, int32_t n,
                                               const int8_t *weights, size_t block_bytes,
                                               const int32_t *bias_sum, const int32_t *multipliers,
                                               const int32_t *shifts, uint32_t *wide, int8_t *out)
{
#if defined(TA_HAVE_MVE)
    (void)wide;
    if (n <= TA_CONV_2D_LANES_FILTER)
        ta_conv_2d_run_short_s8_mve(p, x, x_step, pixels, n, weights, block_bytes, bias_sum,
                                    multipliers, shifts, out);
    else
        ta_conv_2d_run_s8_mve(p, x, x_step, pixels, n, weights, block_bytes, bias_sum, multipliers,
                              shifts, out);
#elif defined(TA_HAVE_DSP)
    ta_conv_2d_run_s8_dsp(p, x, x_step, pixels, n, weights, block_bytes, bias_sum, multipliers,
                          shifts, wide, out);
#else
    (void)wide;
    run_requantized(p, x, x_step, pixels, n, weights, block_bytes, bias_sum, multipliers, shifts,
                    out);
#endif
}

/* run_pixels_interleaved's signature: the runs a 1x1 layer's entry takes. */
typedef void (*run_pixels_t)(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step,
                             int32_t pixels, int32_t n, const int8_t *weights, size_t block_bytes,
                             const int32_t *bias_sum, const int32_t *multipliers,
                             const int32_t *shifts, uint32_t *wide, int8_t *out);

#if defined(TA_HAVE_MVE)
/* run_pixels_interleaved for a channel count off four: filters too long
   for the four-pixel loops sum a last block of one or two channels without
   the padded filters (ta_conv_2d_run_off4_s8_mve); linked only by
   ta_conv_2d_s8_pointwise_off4. */
static inline void run_pixels_off4(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step,
                                   int32_t pixels, int32_t n, const int8_t *weights,
                                   size_t block_bytes, const int32_t *bias_sum,
                                   const int32_t *multipliers, const int32_t *shifts,
                                   uint32_t *wide, int8_t *out)
{
    if (n > TA_CONV_2D_QUAD_FILTER)
        ta_conv_2d_run_off4_s8_mve(p, x, x_step, pixels, n, weights, block_bytes, bias_sum,
                                   multipliers, shifts, out);
    else
        run_pixels_interleaved(p, x, x_step, pixels, n, weights, block_bytes, bias_sum, multipliers,
                               shifts, wide, out);
}
#endif

/* Every output channel of one pixel with a long filter; `patch` holds
   MAX_PATCH bytes. Out of line on DSP cores: inlined into long_image, its
   frame would add to the DSP triples' on the stack. */
#if defined(TA_HAVE_DSP) && !defined(TA_HAVE_MVE)
TA_NOINLINE
#endif
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
            ta_conv_2d_gather_taps(p, in_b, iy0, ix0, t0, len, patch);
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

/* Every pixel of one image (input in_b, outputs from out) with a long
   filter: on DSP and Helium cores pixels in threes (across rows) where
   the layer allows, else one at a time. */
TA_NOINLINE static void long_image(const ta_conv_2d_params_t *p, const int8_t *in_b, int8_t *patch,
                                   uint32_t *wide, const int8_t *weights, size_t block_bytes,
                                   const int32_t *bias_sum, const int32_t *multipliers,
                                   const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth, total = p->output_height * p->output_width;
    int32_t i = 0;
#if defined(TA_HAVE_DSP) && !defined(TA_HAVE_MVE)
    if (multipliers && shifts) {
        i = ta_conv_2d_long_triples_s8_dsp(p, in_b, patch, wide, weights, block_bytes, bias_sum,
                                           multipliers, shifts, out);
        out += (size_t)i * (size_t)out_c;
    }
#else
    (void)wide;
#endif
#if defined(TA_HAVE_MVE)
    int8_t patches3[3 * TA_CONV_2D_LONG_TRIPLE_PIECE];
    if (multipliers && shifts)
        for (; i + 3 <= total; i += 3, out += 3 * (size_t)out_c) {
            int32_t iy[3], ix[3];
            for (int32_t k = 0; k < 3; k++) {
                iy[k] = (i + k) / p->output_width * p->stride_height - p->pad_top;
                ix[k] = (i + k) % p->output_width * p->stride_width - p->pad_left;
            }
            ta_conv_2d_long_triple_s8_mve(p, in_b, iy, ix, patches3, weights, block_bytes, bias_sum,
                                          multipliers, shifts, out);
        }
#endif
    for (; i < total; i++, out += out_c)
        long_pixel(p, in_b, i / p->output_width * p->stride_height - p->pad_top,
                   i % p->output_width * p->stride_width - p->pad_left, patch, weights, block_bytes,
                   bias_sum, multipliers, shifts, out);
}

#if defined(TA_HAVE_MVE) && TA_CONV_2D_TRIPLE_PATCH < TA_CONV_2D_MAX_PATCH
#error "conv_s8_interleaved gathers a single pixel's patch into the first triple slot"
#endif

/* The bytes of a block of four interleaved 1x1 filters (whole chunks). */
static inline size_t pointwise_block_bytes(const ta_conv_2d_params_t *p)
{
    return ((size_t)p->filter_depth + 15) / 16 * 64;
}

/* The interleaved kernel's 1x1 filters: every window inside the image
   (the entry checks), every pixel read in place, a row at a time; on DSP
   cores an unpadded image of stride 1 as one run, so that the pairs go on
   across rows of odd width. `run` is the entry's. */
INLINE_INTO_ENTRY void conv_s8_pointwise(const ta_conv_2d_params_t *p, const int8_t *input,
                                         const int8_t *weights, const int32_t *bias_sum,
                                         const int32_t *multipliers, const int32_t *shifts,
                                         run_pixels_t run, int8_t *output)
{
    const size_t block_bytes = pointwise_block_bytes(p);
    const size_t in_c = (size_t)p->input_depth;
    const size_t image_size = (size_t)p->input_height * (size_t)p->input_width * in_c;
    const size_t row_outputs = (size_t)p->output_width * (size_t)p->output_depth;
#if defined(TA_HAVE_DSP) && !defined(TA_HAVE_MVE)
    uint32_t wide[TA_CONV_2D_WIDE_WORDS];
#else
    uint32_t *const wide = NULL; /* the DSP pair loops' */
#endif
#if defined(TA_HAVE_DSP) || defined(TA_HAVE_MVE)
    /* The whole image one run of pixels: the pairs and quads go on across
       rows, and the run's setup comes once. */
    const int whole_image = p->stride_height == 1 && p->stride_width == 1 && p->pad_top == 0 &&
                            p->pad_left == 0 && p->output_height == p->input_height &&
                            p->output_width == p->input_width;
#else
    const int whole_image = 0;
#endif
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (size_t)b * image_size;
        if (whole_image) {
            run(p, in_b, in_c, p->output_height * p->output_width, p->filter_depth, weights,
                block_bytes, bias_sum, multipliers, shifts, wide, output);
            output += (size_t)p->output_height * row_outputs;
            continue;
        }
        for (int32_t oy = 0; oy < p->output_height; oy++, output += row_outputs) {
            const size_t iy0 = (size_t)(oy * p->stride_height - p->pad_top);
            const size_t ix0 = (size_t)-p->pad_left;
            run(p, in_b + (iy0 * (size_t)p->input_width + ix0) * in_c,
                (size_t)p->stride_width * in_c, p->output_width, p->filter_depth, weights,
                block_bytes, bias_sum, multipliers, shifts, wide, output);
        }
    }
}

#if defined(TA_HAVE_MVE)
/* Helium's loop over an image's triples of pixels (ta_conv_2d_mve.h): an
   entry's choice, so that a module links only the loops it runs. */
typedef void (*patch_triples_t)(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t triples,
                                int8_t *patches, int32_t n, const int8_t *weights,
                                size_t block_bytes, const int32_t *bias_sum,
                                const int32_t *multipliers, const int32_t *shifts, int8_t *out);
static const patch_triples_t gathered_triples = ta_conv_2d_triples_s8_mve;
static const patch_triples_t one_row_triples = ta_conv_2d_one_row_triples_s8_mve;
#else
typedef const void *patch_triples_t; /* no triples */
static const patch_triples_t gathered_triples = NULL, one_row_triples = NULL;
#endif

/* The interleaved kernel's larger filters: each pixel's taps gathered into
   an im2col patch of at most MAX_PATCH bytes; on Helium cores three
   pixels a pass (`triples`), on DSP cores two. */
static void conv_s8_patches(const ta_conv_2d_params_t *p, const int8_t *input,
                            const int8_t *weights, size_t block_bytes, const int32_t *bias_sum,
                            const int32_t *multipliers, const int32_t *shifts,
                            patch_triples_t triples, int8_t *output)
{
#if !defined(TA_HAVE_MVE)
    (void)triples;
#endif
    const int32_t out_c = p->output_depth;
    const size_t filter_size = (size_t)p->filter_height * (size_t)p->filter_width *
                               (size_t)p->filter_depth;
    const size_t image_size = (size_t)p->input_height * (size_t)p->input_width *
                              (size_t)p->input_depth;
#if defined(TA_HAVE_MVE)
    const int32_t patch_length = (int32_t)filter_size; /* tail-predicated loops */
    /* Patches three pixels at a time; a single pixel's patch is the first
       of them (gathered over the same filter_size bytes, so the zeros past
       it stay). The loop reads each patch to the end of its last chunk. */
    enum { TRIPLE_STRIDE = TA_CONV_2D_TRIPLE_PATCH };
    int32_t patch_words[3 * TRIPLE_STRIDE / 4]; /* word-aligned: the triple loop's loads */
    int8_t *const patches3 = (int8_t *)patch_words;
    int8_t *const patch = patches3;
    for (int32_t k = 0; k < 3; k++)
        memset(patches3 + (size_t)k * TRIPLE_STRIDE + filter_size, 0,
               (filter_size + 15) / 16 * 16 - filter_size);
#elif defined(TA_HAVE_DSP)
    uint32_t wide[TA_CONV_2D_WIDE_WORDS];
    int8_t patch[MAX_PATCH];
    /* The pair loop reads the patch in whole chunks, or whole words when
       it is shorter than a chunk: zeros to the end of the last (MAX_PATCH
       is whole chunks). */
    const int32_t pair_words = filter_size <= 12 ? (int32_t)(filter_size + 3) / 4
                                                 : (int32_t)(filter_size + 15) / 16 * 4;
    memset(patch + filter_size, 0, (size_t)pair_words * 4 - filter_size);
    const size_t image_outputs = (size_t)p->output_height * (size_t)p->output_width * (size_t)out_c;
#else
    int8_t patch[MAX_PATCH];
    /* The patch runs to whole words: the interleaved weights past the
       filter are zero, so zeroed taps there add nothing (MAX_PATCH is
       whole words). */
    const int32_t patch_length = (int32_t)(filter_size + 3) / 4 * 4;
    memset(patch + filter_size, 0, (size_t)patch_length - filter_size);
#endif
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (size_t)b * image_size;
#if defined(TA_HAVE_DSP) && !defined(TA_HAVE_MVE)
        ta_conv_2d_patch_pairs_s8_dsp(p, in_b, patch, wide, pair_words, weights, block_bytes,
                                      bias_sum, multipliers, shifts, output);
        output += image_outputs;
#else
        const int32_t total = p->output_height * p->output_width;
        int32_t done = 0, oy = 0, ox = 0;
#if defined(TA_HAVE_MVE)
        /* Three pixels' patches at a time, each weight load shared: across
           rows (raster order), so that narrow images have triples too. */
        done = total / 3 * 3;
        triples(p, in_b, total / 3, patches3, (int32_t)filter_size, weights, block_bytes, bias_sum,
                multipliers, shifts, output);
        output += (size_t)done * (size_t)out_c;
        oy = done / p->output_width;
        ox = done - oy * p->output_width;
#endif
        for (; done < total; done++, output += out_c) {
            ta_conv_2d_gather_patch(p, in_b, oy * p->stride_height - p->pad_top,
                                    ox * p->stride_width - p->pad_left, patch);
            if (++ox == p->output_width)
                ox = 0, oy++;
#if defined(TA_HAVE_MVE)
            /* a single pixel: no quads to try */
            ta_conv_2d_run_s8_mve(p, patch, 0, 1, patch_length, weights, block_bytes, bias_sum,
                                  multipliers, shifts, output);
#else
            run_pixels_interleaved(p, patch, 0, 1, patch_length, weights, block_bytes, bias_sum,
                                   multipliers, shifts, NULL, output);
#endif
        }
#endif
    }
}

/* The bytes of a block of four interleaved filters (whole chunks). */
static size_t interleaved_block_bytes(const ta_conv_2d_params_t *p)
{
    return ((size_t)p->filter_height * (size_t)p->filter_width * (size_t)p->filter_depth + 15) /
           16 * 64;
}

/* The kernel for interleaved weights (see the header): four output
   channels per pass through each pixel's taps, requantized as a vector. */
static void conv_s8_interleaved(const ta_conv_2d_params_t *p, const int8_t *input,
                                const int8_t *weights, const int32_t *bias_sum,
                                const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    if (p->filter_height * p->filter_width == 1)
        conv_s8_pointwise(p, input, weights, bias_sum, multipliers, shifts, run_pixels_interleaved,
                          output);
    else
        conv_s8_patches(p, input, weights, interleaved_block_bytes(p), bias_sum, multipliers,
                        shifts, gathered_triples, output);
}

/* Only Helium's put_columns reads it: not worked out elsewhere (a row
   chain calls the kernel once a row). */
static void column_scatter(const ta_conv_2d_params_t *p, column_scatter_t *s)
{
#if defined(TA_HAVE_MVE)
    const int32_t fd = p->filter_depth, column = p->filter_height * fd;
    /* Byte offsets below 256; fd <= TA_CONV_2D_MAX_COLUMN_DEPTH (16). */
    int32_t per_vector = 16 / fd;
    if ((per_vector - 1) * column + fd > 256)
        per_vector = (256 - fd) / column + 1;
    s->per_vector = per_vector;
    ta_conv_2d_scatter_offsets_mve(fd, column, per_vector * fd, s->offsets);
#else
    (void)p;
    s->per_vector = 0;
#endif
}

/* `columns` input columns' bytes of one row (fd each, contiguous at src)
   to dst, column bytes apart; src NULL: pad_value (the image's border). */
static void put_columns(const ta_conv_2d_params_t *p, const column_scatter_t *scatter, int8_t *dst,
                        const int8_t *src, int32_t columns)
{
#if defined(TA_HAVE_MVE)
    ta_conv_2d_put_columns_mve(p, scatter, dst, src, columns);
#else
    const int32_t fd = p->filter_depth, column = p->filter_height * fd;
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
#if defined(TA_HAVE_DSP) && !defined(TA_HAVE_MVE)
    uint32_t wide[TA_CONV_2D_WIDE_WORDS];
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
                const int32_t count = (pixels - 1) * sw + fw;
                gather_columns(p, &scatter, in_b, iy0, ox * sw - p->pad_left, count, cols);
                /* The dot loops read up to a vector past the last patch
                   (against zero weights): zeros there, not the whole
                   buffer a call (a row chain calls once a row). */
                memset(cols + (size_t)count * (size_t)column, 0, COLUMN_TAIL);
                run_pixels_interleaved(p, cols, (size_t)sw * (size_t)column, pixels, length,
                                       weights, block_bytes, bias_sum, multipliers, shifts, wide,
                                       output);
                output += (size_t)pixels * (size_t)out_c;
            }
        }
    }
}

/* 1 when a window of a 1x1 filter lies past the image (TFLite's padding
   never puts one there): the 1x1 path reads pixels in place. */
static inline int window_past_image(const ta_conv_2d_params_t *p)
{
    return p->pad_top > 0 || p->pad_left > 0 ||
           (p->output_height - 1) * p->stride_height - p->pad_top >= p->input_height ||
           (p->output_width - 1) * p->stride_width - p->pad_left >= p->input_width;
}

int ta_conv_2d_s8_interleaved(const ta_conv_2d_params_t *p, const int8_t *input,
                              const int8_t *weights, const int32_t *bias_sum,
                              const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    if (!p->weights_interleaved || p->taps_by_column || !bias_sum || !multipliers || !shifts)
        return TA_ERR_BAD_ARGUMENT;
    if (p->filter_height * p->filter_width == 1
            ? window_past_image(p)
            : (size_t)p->filter_height * (size_t)p->filter_width * (size_t)p->filter_depth >
                  MAX_PATCH)
        return TA_ERR_BAD_ARGUMENT; /* a window past the image, or a long patch */
    conv_s8_interleaved(p, input, weights, bias_sum, multipliers, shifts, output);
    return TA_OK;
}

int ta_conv_2d_s8_one_row(const ta_conv_2d_params_t *p, const int8_t *input, const int8_t *weights,
                          const int32_t *bias_sum, const int32_t *multipliers,
                          const int32_t *shifts, int8_t *output)
{
    if (!p->weights_interleaved || p->taps_by_column || !bias_sum || !multipliers || !shifts ||
        p->filter_height != 1 || p->filter_width < 2 ||
        (size_t)p->filter_width * (size_t)p->filter_depth > MAX_PATCH)
        return TA_ERR_BAD_ARGUMENT;
    conv_s8_patches(p, input, weights, interleaved_block_bytes(p), bias_sum, multipliers, shifts,
                    one_row_triples, output);
    return TA_OK;
}

/* ta_conv_2d_s8_pointwise_rows through `run`. */
INLINE_INTO_ENTRY void pointwise_rows(const ta_conv_2d_params_t *p, int32_t rows,
                                      const int8_t *input, const int8_t *weights,
                                      const int32_t *bias_sum, const int32_t *multipliers,
                                      const int32_t *shifts, run_pixels_t run, int8_t *output)
{
#if defined(TA_HAVE_DSP) && !defined(TA_HAVE_MVE)
    uint32_t wide[TA_CONV_2D_WIDE_WORDS];
#else
    uint32_t *const wide = NULL; /* the DSP pair loops' */
#endif
    run(p, input, (size_t)p->input_depth, rows * p->output_width, p->filter_depth, weights,
        pointwise_block_bytes(p), bias_sum, multipliers, shifts, wide, output);
}

void ta_conv_2d_s8_pointwise_rows(const ta_conv_2d_params_t *p, int32_t rows, const int8_t *input,
                                  const int8_t *weights, const int32_t *bias_sum,
                                  const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    pointwise_rows(p, rows, input, weights, bias_sum, multipliers, shifts, run_pixels_interleaved,
                   output);
}

#if defined(TA_HAVE_MVE)
/* run_pixels_interleaved with three pixels sharing each weight load
   (ta_conv_2d_run_triples_s8_mve): the pointwise triples' runs. */
static void run_pixels_triples(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step,
                               int32_t pixels, int32_t n, const int8_t *weights, size_t block_bytes,
                               const int32_t *bias_sum, const int32_t *multipliers,
                               const int32_t *shifts, uint32_t *wide, int8_t *out)
{
    (void)wide;
    ta_conv_2d_run_triples_s8_mve(p, x, x_step, pixels, n, weights, block_bytes, bias_sum,
                                  multipliers, shifts, out);
}
#endif

void ta_conv_2d_s8_pointwise_triples_rows(const ta_conv_2d_params_t *p, int32_t rows,
                                          const int8_t *input, const int8_t *weights,
                                          const int32_t *bias_sum, const int32_t *multipliers,
                                          const int32_t *shifts, int8_t *output)
{
#if defined(TA_HAVE_MVE)
    pointwise_rows(p, rows, input, weights, bias_sum, multipliers, shifts, run_pixels_triples,
                   output);
#else
    ta_conv_2d_s8_pointwise_rows(p, rows, input, weights, bias_sum, multipliers, shifts, output);
#endif
}

/* Whether a layer is one the 1x1 entries take: interleaved weights by
   tap, the per-channel arrays, a 1x1 filter whose every window lies inside
   the image. */
static int pointwise_takes(const ta_conv_2d_params_t *p, const int32_t *bias_sum,
                           const int32_t *multipliers, const int32_t *shifts)
{
    return p->weights_interleaved && !p->taps_by_column && bias_sum && multipliers && shifts &&
           p->filter_height * p->filter_width == 1 && !window_past_image(p);
}

int ta_conv_2d_s8_pointwise_triples(const ta_conv_2d_params_t *p, const int8_t *input,
                                    const int8_t *weights, const int32_t *bias_sum,
                                    const int32_t *multipliers, const int32_t *shifts,
                                    int8_t *output)
{
    if (!pointwise_takes(p, bias_sum, multipliers, shifts))
        return TA_ERR_BAD_ARGUMENT;
#if defined(TA_HAVE_MVE)
    conv_s8_pointwise(p, input, weights, bias_sum, multipliers, shifts, run_pixels_triples, output);
    return TA_OK;
#else
    /* the interleaved entry's 1x1 path (a third caller of
       conv_s8_pointwise would change how gcc inlines it for the others) */
    return ta_conv_2d_s8_interleaved(p, input, weights, bias_sum, multipliers, shifts, output);
#endif
}

int ta_conv_2d_s8_pointwise_off4(const ta_conv_2d_params_t *p, const int8_t *input,
                                 const int8_t *weights, const int32_t *bias_sum,
                                 const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    if (!pointwise_takes(p, bias_sum, multipliers, shifts) || p->output_depth % 4 == 0)
        return TA_ERR_BAD_ARGUMENT;
#if defined(TA_HAVE_MVE)
    conv_s8_pointwise(p, input, weights, bias_sum, multipliers, shifts, run_pixels_off4, output);
#else
    /* No run of its own: the DSP pair loop and the portable one already sum
       a last block of one or two channels as one filter pair. */
    conv_s8_pointwise(p, input, weights, bias_sum, multipliers, shifts, run_pixels_interleaved,
                      output);
#endif
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
    uint32_t wide[TA_CONV_2D_WIDE_WORDS];
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
    if (!p->weights_interleaved || !p->taps_by_column || !bias_sum || !multipliers || !shifts)
        return TA_ERR_BAD_ARGUMENT;
    conv_s8_columns(p, input, weights, bias_sum, multipliers, shifts, output);
    return TA_OK;
}

int ta_conv_2d_s8(const ta_conv_2d_params_t *p, const int8_t *input, const int8_t *weights,
                  const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                  int8_t *output)
{
    if (p->weights_interleaved && p->taps_by_column)
        return ta_conv_2d_s8_columns(p, input, weights, bias_sum, multipliers, shifts, output);
    if (p->weights_interleaved && p->filter_height * p->filter_width > 1 &&
        (size_t)p->filter_height * (size_t)p->filter_width * (size_t)p->filter_depth > MAX_PATCH)
        return ta_conv_2d_s8_long(p, input, weights, bias_sum, multipliers, shifts, output);
    if (p->weights_interleaved)
        return ta_conv_2d_s8_interleaved(p, input, weights, bias_sum, multipliers, shifts, output);
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
                    ta_conv_2d_gather_patch(p, in_b, iy0, ix0, patch);
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
