/*
 * ta_conv_2d.h - CONV_2D, NHWC input and output, OHWI weights, optionally
 * grouped (the filter holds input_depth / groups channels per output).
 *
 *   output[b][y][x][o] = act(requant(bias_sum[o]
 *       + sum_{ky,kx,c} weights[o][ky][kx][c] * in(b, y*sh - pad_top + ky*dh,
 *                                                   x*sw - pad_left + kx*dw,
 *                                                   group(o) * filter_depth + c)))
 *
 * The converter folds the input zero point into the bias: bias_sum[o] =
 * bias[o] - input_zero_point * sum(weights[o]). TFLite skips taps outside
 * the image; with the folded sum a skipped tap must contribute
 * weight * input_zero_point instead, so out-of-image taps read `pad_value`
 * (the input zero point). In exact integer arithmetic the result is the
 * one TFLite computes, while the inner loop stays a plain dot product.
 */
#ifndef TA_CONV_2D_H
#define TA_CONV_2D_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_CONV_2D_PARAMS(FIELD, ARRAY, ARRAY_USED)                                           \
    TA_WINDOW_INPUT_FIELDS(FIELD)                                                             \
    FIELD(int32_t, filter_depth)      /* input channels per group */                          \
    FIELD(int32_t, filters_per_group) /* output channels per group */                         \
    TA_WINDOW_OUTPUT_FIELDS(FIELD)                                                            \
    TA_WINDOW_STEP_FIELDS(FIELD)                                                              \
    FIELD(int32_t, pad_value) /* input zero point; 0 for int16 */                             \
    TA_REQUANT_FIELDS(FIELD)                                                                  \
    /* int16 kernel: 32 or 64, as TFLite picks from the bias type */                          \
    FIELD(int32_t, accumulator_bits)                                                          \
    TA_ACTIVATION_FIELDS(FIELD, int32_t)                                                      \
    FIELD(int32_t, weights_interleaved) /* int8: 1 if the weights come in the layout below */ \
    FIELD(int32_t, taps_by_column)      /* int8 interleaved: taps in (kx, ky, c) order, below */
typedef struct {
    TA_PARAM_MEMBERS(TA_CONV_2D_PARAMS)
} ta_conv_2d_params_t;

/* The largest im2col patch (bytes, on the stack) gathered whole; longer
   ones take ta_conv_2d_s8_long, a piece at a time. */
#define TA_CONV_2D_MAX_PATCH 256
/* Order of writes (what lets the output overlap the input, see
   src/lower/common/stream_lead.h): output pixels in raster order, each
   group written after its taps are read; Helium runs pixels four at a
   time for filters of at most TA_CONV_2D_QUAD_FILTER taps read in place
   and im2col patches three at a time up to TA_CONV_2D_TRIPLE_PATCH bytes;
   DSP runs pixel pairs; the column entry copies the input columns of a
   run of pixels (within one row, as many as its buffer holds) before it
   writes any of them. */
#define TA_CONV_2D_QUAD_FILTER 32
/* Every gathered patch: one pixel at a time the Helium dot loop issues five
   loads per four MACs, and each load holds the M55's load pipe for two
   cycles; three pixels issue five per six (10-17% fewer cycles on patches
   of 177-256 bytes by ../shared/tools/cycles). */
#define TA_CONV_2D_TRIPLE_PATCH 256
/* Long patches (over TA_CONV_2D_MAX_PATCH bytes) are gathered a piece at a
   time, and again for every group of 64 output channels, while the
   outputs of up to this many consecutive pixels (Helium three, DSP two,
   portable one; across rows) are written: read in place for that batch. */
#define TA_CONV_2D_LONG_PIXELS 3
/* The largest input column (filter_height * filter_depth bytes) and
   filter depth the converter lays taps by column for: a vector then holds
   whole columns of a row. */
#define TA_CONV_2D_MAX_COLUMN 32
#define TA_CONV_2D_MAX_COLUMN_DEPTH 16

/*
 * Interleaved int8 weights (weights_interleaved = 1, every ungrouped
 * filter): output channels in blocks of four, each filter cut
 * into 16-byte chunks, the four filters' chunks next to each other:
 *
 *   interleaved[((o / 4) * chunks + i / 16) * 64 + (o % 4) * 16 + i % 16]
 *       = weights[o][i],  i < filter_size, chunks = ceil(filter_size / 16)
 *
 * and zeros where o or i is past the end. One pointer walks all four filters
 * of a block, and four channels share each load of the input.
 *
 * Kernel choice (the converter picks the entry, each path keeps every
 * output channel count in its vector loops: whole blocks of four computed,
 * the last stored in part):
 *  - 1x1 filters: the input read in place (at stride 1 without padding the
 *    whole image one run of pixels); Helium four pixels a weight load
 *    up to TA_CONV_2D_QUAD_FILTER taps, else one (a last block of one or
 *    two channels of longer filters over more than one pixel two pixels
 *    at a time: ta_conv_2d_s8_pointwise_off4); DSP pixel pairs widened
 *    to halfwords for any depth up to 256 (zeros past it), a last block of
 *    one or two channels computing one filter pair.
 *  - few input channels (taps_by_column, below): ta_conv_2d_s8_columns.
 *  - im2col patches up to TA_CONV_2D_MAX_PATCH bytes: Helium three pixels
 *    (up to TA_CONV_2D_TRIPLE_PATCH, raster order across rows), DSP two,
 *    sharing each weight load; on Helium one-row filters' windows read in
 *    place instead (ta_conv_2d_s8_one_row).
 *  - longer patches, any depth: ta_conv_2d_s8_long, the patch a piece at a
 *    time (Helium 768-byte pieces of three pixels, loads and MACs
 *    alternating; DSP 256-byte pieces of pixel pairs; portable one pixel),
 *    the sums of up to 64 channels kept across the pieces.
 *  - grouped filters: ta_conv_2d_s8, a pixel at a time.
 */

/*
 * Taps by column (taps_by_column = 1, with weights_interleaved = 1, an
 * ungrouped filter of more than one tap and at most TA_CONV_2D_MAX_PATCH,
 * dilation_width 1, filter_depth <= TA_CONV_2D_MAX_COLUMN_DEPTH): the
 * filter index i above runs over (kx, ky, c) instead of (ky, kx, c). The
 * kernel lays a row of output pixels' input out column by column
 * (filter_height * filter_depth bytes per input column),
 * so every pixel's taps are one contiguous run there, stride_width columns
 * after its neighbour's: no im2col copy per pixel. Worth it for few input
 * channels, where the patch copies cost as much as the dot products.
 */

/* int8 input and output, int8 weights, int32 accumulator. `multipliers`
   and `shifts` are per output channel, or NULL for per-tensor. */
int ta_conv_2d_s8(const ta_conv_2d_params_t *p, const int8_t *input, const int8_t *weights,
                  const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                  int8_t *output);

/* The same for one weight layout each: interleaved in tap order
   (weights_interleaved = 1, taps_by_column = 0) and by column (both 1).
   ta_conv_2d_s8 takes every layout; a module calls the entry of its layout,
   so that it links only that path (each is several KB of code). With
   interleaved weights, bias_sum, multipliers and shifts must be given (the
   converter repeats a per-tensor factor per channel: one requantization
   path linked) and hold whole blocks of four channels (the converter pads
   them): the vector loops compute the last block whole and store only its
   valid channels. ta_conv_2d_s8_interleaved takes 1x1 filters whose every
   window lies inside the image (as TFLite's padding gives them) and
   patches of at most TA_CONV_2D_MAX_PATCH bytes; anything else returns
   TA_ERR_BAD_ARGUMENT (no in-place segment path linked). */
int ta_conv_2d_s8_interleaved(const ta_conv_2d_params_t *p, const int8_t *input,
                              const int8_t *weights, const int32_t *bias_sum,
                              const int32_t *multipliers, const int32_t *shifts, int8_t *output);
/* The interleaved layout's 1x1 filters (every window inside the image)
   whose output depth is off four: on Helium cores filters of more than
   TA_CONV_2D_QUAD_FILTER taps sum a last block of one or two channels for
   two pixels at once (right shifts only), where ta_conv_2d_s8_interleaved
   sums it a pixel at a time; elsewhere that entry's 1x1 path. The
   converter sends it only such layers over more than one pixel, so that
   only models with one link its path. TA_ERR_BAD_ARGUMENT for any other
   layer (a depth of whole blocks, other filters, a window past the image,
   no per-channel arrays). */
int ta_conv_2d_s8_pointwise_off4(const ta_conv_2d_params_t *p, const int8_t *input,
                                 const int8_t *weights, const int32_t *bias_sum,
                                 const int32_t *multipliers, const int32_t *shifts, int8_t *output);
/* The interleaved layout's 1x1 filters (every window inside the image) of
   more than TA_CONV_2D_QUAD_FILTER taps, whole chunks of at most
   TA_CONV_2D_TRIPLE_PATCH: on Helium cores three pixels share each weight
   load, read in place (so a group of output channels is written before
   the next reads the three pixels again); elsewhere
   ta_conv_2d_s8_interleaved's 1x1 path. The converter sends it only such
   layers to whole blocks of at least 8 channels over three pixels or more
   on Helium, so that only models with one link its path. Other 1x1 layers
   run right (a pixel at a time, or four); TA_ERR_BAD_ARGUMENT for other
   filters, a window past the image, no per-channel arrays. */
int ta_conv_2d_s8_pointwise_triples(const ta_conv_2d_params_t *p, const int8_t *input,
                                    const int8_t *weights, const int32_t *bias_sum,
                                    const int32_t *multipliers, const int32_t *shifts,
                                    int8_t *output);
/* The interleaved layout's one-row filters of 2 to TA_CONV_2D_MAX_PATCH
   taps (filter_height 1): on Helium cores the triples of pixels in one
   output row read their undilated windows in place (a row's border
   triples from their columns gathered once), where
   ta_conv_2d_s8_interleaved gathers every triple's patches: each group of
   output channels is written while the next still reads the windows.
   Elsewhere that entry's path. The converter sends it only such layers on
   Helium, so that only models with one link its loop. TA_ERR_BAD_ARGUMENT
   for other filters or no per-channel arrays. */
int ta_conv_2d_s8_one_row(const ta_conv_2d_params_t *p, const int8_t *input, const int8_t *weights,
                          const int32_t *bias_sum, const int32_t *multipliers,
                          const int32_t *shifts, int8_t *output);
/* A row chain's band of a layer ta_conv_2d_s8_interleaved takes, of a 1x1
   filter, stride 1, no padding and one image: `rows` rows of pixels, one
   run. The converter checks the layer once (src/ir/row_band.c,
   ta_row_band_pointwise), so that every band skips the entry's checks and
   setup; this checks nothing and reads no row count of p (not a kernel of
   the executor's table: it returns nothing). */
void ta_conv_2d_s8_pointwise_rows(const ta_conv_2d_params_t *p, int32_t rows, const int8_t *input,
                                  const int8_t *weights, const int32_t *bias_sum,
                                  const int32_t *multipliers, const int32_t *shifts,
                                  int8_t *output);
/* The same for a layer ta_conv_2d_s8_pointwise_triples takes. */
void ta_conv_2d_s8_pointwise_triples_rows(const ta_conv_2d_params_t *p, int32_t rows,
                                          const int8_t *input, const int8_t *weights,
                                          const int32_t *bias_sum, const int32_t *multipliers,
                                          const int32_t *shifts, int8_t *output);
int ta_conv_2d_s8_columns(const ta_conv_2d_params_t *p, const int8_t *input, const int8_t *weights,
                          const int32_t *bias_sum, const int32_t *multipliers,
                          const int32_t *shifts, int8_t *output);
/* Interleaved weights (taps_by_column = 0) of a filter of more than one tap
   whose patch passes TA_CONV_2D_MAX_PATCH bytes: the patch gathered a piece
   at a time (whole chunks), the sums of up to 64 channels kept across the
   pieces; Helium three pixels and DSP two share each weight load (with
   per-channel arrays; without them a pixel at a time). */
int ta_conv_2d_s8_long(const ta_conv_2d_params_t *p, const int8_t *input, const int8_t *weights,
                       const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                       int8_t *output);

/* int16 input and output (zero points 0), int8 weights; the bias (int32
   or int64 in the model) comes as int64. With accumulator_bits 32 the sum
   is reduced modulo 2^32 and requantized as TFLite's int32 path does. */
int ta_conv_2d_s16(const ta_conv_2d_params_t *p, const int16_t *input, const int8_t *weights,
                   const int64_t *bias, const int32_t *multipliers, const int32_t *shifts,
                   int16_t *output);

#endif /* TA_CONV_2D_H */
