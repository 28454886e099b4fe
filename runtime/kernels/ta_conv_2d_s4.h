/*
 * ta_conv_2d_s4.h - CONV_2D with int4 weights kept packed (TFLite's INT4
 * type, weights.format auto): ta_conv_2d.h's arithmetic and parameters
 * (weights_interleaved and taps_by_column are 0), each filter (OHWI: taps
 * then channels) one row packed as ta_s4.h lays it out, read in place.
 *
 * Order of writes: output pixels in raster order, one at a time, each
 * written after its window is read in place; with filter depths that are
 * a multiple of 8 each tap's channels are one run of whole groups (the
 * DSP dot product), otherwise value by value.
 */
#ifndef TA_CONV_2D_S4_H
#define TA_CONV_2D_S4_H

#include "ta_conv_2d.h"

/* int8 input and output; `weights` output_depth rows of
   ta_s4_row_bytes(filter_height * filter_width * filter_depth) bytes. */
int ta_conv_2d_s4(const ta_conv_2d_params_t *p, const int8_t *input, const int8_t *weights,
                  const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                  int8_t *output);

#endif /* TA_CONV_2D_S4_H */
