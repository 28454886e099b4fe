/*
 * ta_depthwise_conv_2d_s4.h - DEPTHWISE_CONV_2D with int4 weights kept
 * packed (TFLite's INT4 type, weights.format auto): ta_depthwise_conv_2d.h's
 * arithmetic and parameters, each tap's output_depth channels one row
 * packed as ta_s4.h lays it out, read in place.
 *
 * Depth multiplier 1 on Helium and DSP (filters of up to TA_DW_S4_TAPS
 * taps): per output row, blocks of 16 (Helium) or 4 (DSP) channels, each
 * block's weights unpacked once for the row onto the stack
 * (ta_depthwise_conv_2d_s4_mve.h, _dsp.h); other multipliers and cores:
 * portable C, blocks of 32 channels per pixel.
 *
 * Order of writes: output rows in raster order; within a row, output
 * pixels in order one at a time, each written after its window is read
 * in place (portable), or every pixel of the row a block of channels at a
 * time, read in place (Helium and DSP, depth multiplier 1: the converter
 * declares the overlap for a row, src/lower/int4_packed.c); with
 * reverse_rows the output rows (of all images) from the last to the
 * first, each row as before.
 */
#ifndef TA_DEPTHWISE_CONV_2D_S4_H
#define TA_DEPTHWISE_CONV_2D_S4_H

#include <stdint.h>

#include "../include/ta_params.h"

/* The fields of ta_depthwise_conv_2d.h this kernel reads (the converter
   copies them from its lowering; a module with int4 weights links no int8
   kernel). */
#define TA_DEPTHWISE_CONV_2D_S4_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    TA_WINDOW_INPUT_FIELDS(FIELD)                                \
    FIELD(int32_t, depth_multiplier)                             \
    TA_WINDOW_OUTPUT_FIELDS(FIELD)                               \
    TA_WINDOW_STEP_FIELDS(FIELD)                                 \
    FIELD(int32_t, pad_value)                                    \
    TA_REQUANT_FIELDS(FIELD)                                     \
    TA_ACTIVATION_FIELDS(FIELD, int32_t)                         \
    FIELD(int32_t, right_shifts_only)                            \
    FIELD(int32_t, small_accumulators)                           \
    FIELD(int32_t, reverse_rows)
typedef struct {
    TA_PARAM_MEMBERS(TA_DEPTHWISE_CONV_2D_S4_PARAMS)
} ta_depthwise_conv_2d_s4_params_t;

/* int8 input and output; `weights` filter_height * filter_width rows of
   ta_s4_row_bytes(output_depth) bytes; `bias` the bias without the zero
   point folded in (as the int8 kernel's), which the Helium and DSP paths
   start border windows from. */
int ta_depthwise_conv_2d_s4(const ta_depthwise_conv_2d_s4_params_t *p, const int8_t *input,
                            const int8_t *weights, const int32_t *bias_sum, const int32_t *bias,
                            const int32_t *multipliers, const int32_t *shifts, int8_t *output);

#endif /* TA_DEPTHWISE_CONV_2D_S4_H */
