/*
 * ta_conv_2d_mve.h - the int8 CONV_2D paths on Helium (MVE: Cortex-M55/M85)
 * (ta_conv_2d_mve.c), called by the dispatch of ta_conv_2d.c; all but
 * ta_conv_2d_put_columns_mve only with bias_sum, per-channel multipliers
 * and shifts. Not kernels: the lowerings call those.
 */
#ifndef TA_CONV_2D_MVE_H
#define TA_CONV_2D_MVE_H

#include <stddef.h>
#include <stdint.h>

#include "ta_conv_2d.h"
#include "ta_conv_2d_patch.h"

/* Bytes of each of the three patch pieces ta_conv_2d_long_triple_s8_mve
   takes a time: a 3x3 filter over 64 channels (576 bytes) in one piece,
   whose loop setup per pair of filters a second piece would pay again
   (7% fewer cycles than 512 on those, 2.3 KB of stack). */
enum { TA_CONV_2D_LONG_TRIPLE_PIECE = 768 };

/* `pixels` output pixels whose taps are each one run of n bytes, x_step
   apart, out_c outputs apart in out. */
void ta_conv_2d_run_s8_mve(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step,
                           int32_t pixels, int32_t n, const int8_t *weights, size_t block_bytes,
                           const int32_t *bias_sum, const int32_t *multipliers,
                           const int32_t *shifts, int8_t *out);

/* The same with three pixels sharing each weight load where the taps
   are whole chunks of at most TA_CONV_2D_TRIPLE_PATCH bytes, read in place
   (ta_conv_2d_s8_pointwise_triples's path): every group of output channels
   reads a triple's pixels again after the previous group's outputs are
   written. A run's last one or two pixels, and other taps, as
   ta_conv_2d_run_s8_mve. */
void ta_conv_2d_run_triples_s8_mve(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step,
                                   int32_t pixels, int32_t n, const int8_t *weights,
                                   size_t block_bytes, const int32_t *bias_sum,
                                   const int32_t *multipliers, const int32_t *shifts, int8_t *out);

/* The same for a channel count off four and filters of more than
   TA_CONV_2D_QUAD_FILTER taps (ta_conv_2d_s8_pointwise_off4's path): a
   last block of one or two channels sums only those filters, for two
   pixels at once where it can (ta_conv_2d_mve.c). */
void ta_conv_2d_run_off4_s8_mve(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step,
                                int32_t pixels, int32_t n, const int8_t *weights,
                                size_t block_bytes, const int32_t *bias_sum,
                                const int32_t *multipliers, const int32_t *shifts, int8_t *out);

/* The same for filters of at most TA_CONV_2D_LANES_FILTER taps (one
   chunk): whole runs of four pixels with the sums in vector lanes when the
   layer has right shifts only and the full int8 range (ta_conv_2d_mve.c,
   quads_in_lanes), the rest as ta_conv_2d_run_s8_mve. */
#define TA_CONV_2D_LANES_FILTER 16
void ta_conv_2d_run_short_s8_mve(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step,
                                 int32_t pixels, int32_t n, const int8_t *weights,
                                 size_t block_bytes, const int32_t *bias_sum,
                                 const int32_t *multipliers, const int32_t *shifts, int8_t *out);

/* Every output channel of `triples` runs of three consecutive output
   pixels in raster order from the first of image in_b (outputs out_c
   apart from out): their im2col patches (n bytes) gathered a triple at a
   time TA_CONV_2D_TRIPLE_PATCH bytes apart into `patches` (word-aligned;
   zeros past n to the end of the last chunk: the caller's). */
void ta_conv_2d_triples_s8_mve(const ta_conv_2d_params_t *p, const int8_t *in_b, int32_t triples,
                               int8_t *patches, int32_t n, const int8_t *weights,
                               size_t block_bytes, const int32_t *bias_sum,
                               const int32_t *multipliers, const int32_t *shifts, int8_t *out);

/* ta_conv_2d_triples_s8_mve for one-row undilated filters
   (ta_conv_2d_s8_one_row's path): the three windows of a triple in one
   output row are runs of input stride_width * filter_depth bytes apart,
   read in place where they lie in the image (and the third's last chunk
   too: the sweep reads whole chunks, the weights past the taps zero), else
   from the triple's columns gathered once into `patches`, padding
   included; a triple across two rows (or a filter whose triples' columns
   do not fit in the patches) has its patches gathered. Each group of
   output channels is written while the next still reads the windows. */
void ta_conv_2d_one_row_triples_s8_mve(const ta_conv_2d_params_t *p, const int8_t *in_b,
                                       int32_t triples, int8_t *patches, int32_t n,
                                       const int8_t *weights, size_t block_bytes,
                                       const int32_t *bias_sum, const int32_t *multipliers,
                                       const int32_t *shifts, int8_t *out);

/* Three pixels with a long filter (windows at (iy[k], ix[k]), outputs out_c
   apart); patches3 holds 3 * TA_CONV_2D_LONG_TRIPLE_PIECE bytes. */
void ta_conv_2d_long_triple_s8_mve(const ta_conv_2d_params_t *p, const int8_t *in_b,
                                   const int32_t iy[3], const int32_t ix[3], int8_t *patches3,
                                   const int8_t *weights, size_t block_bytes,
                                   const int32_t *bias_sum, const int32_t *multipliers,
                                   const int32_t *shifts, int8_t *out);

/* The 16 byte offsets of a column scatter (column_scatter_t.offsets):
   lane i at i / fd * column + i % fd, lanes from `valid` on 0; fd <= 16. */
void ta_conv_2d_scatter_offsets_mve(int32_t fd, int32_t column, int32_t valid, uint8_t offsets[16]);

/* `columns` input columns' bytes of one row (filter_depth each, contiguous
   at src; NULL: pad_value) to dst, a column apart, as `scatter` says. */
void ta_conv_2d_put_columns_mve(const ta_conv_2d_params_t *p, const column_scatter_t *scatter,
                                int8_t *dst, const int8_t *src, int32_t columns);

#endif /* TA_CONV_2D_MVE_H */
