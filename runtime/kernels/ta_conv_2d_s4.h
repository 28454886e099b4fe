/*
 * ta_conv_2d_s4.h - CONV_2D with int4 weights kept packed (TFLite's INT4
 * type, weights.format auto): ta_conv_2d.h's arithmetic and parameters,
 * each filter (OHWI: taps
 * then channels) one row packed as ta_s4.h lays it out, read in place.
 *
 * Order of writes: output pixels in raster order, one at a time, each
 * written after its window is read: in place when the filter depth is a
 * multiple of 8 (each tap's channels are whole groups), else copied into a
 * patch of the window first (up to 512 values; value by value beyond, or
 * grouped). Four output channels share each input load.
 */
#ifndef TA_CONV_2D_S4_H
#define TA_CONV_2D_S4_H

#include <stdint.h>

#include "../include/ta_params.h"

/* The fields of ta_conv_2d.h this kernel reads (the converter copies them
   from its lowering; a module with int4 weights links no int8 kernel). */
#define TA_CONV_2D_S4_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    TA_WINDOW_INPUT_FIELDS(FIELD)                      \
    FIELD(int32_t, filter_depth)                       \
    FIELD(int32_t, filters_per_group)                  \
    TA_WINDOW_OUTPUT_FIELDS(FIELD)                     \
    TA_WINDOW_STEP_FIELDS(FIELD)                       \
    FIELD(int32_t, pad_value)                          \
    TA_REQUANT_FIELDS(FIELD)                           \
    TA_ACTIVATION_FIELDS(FIELD, int32_t)
typedef struct {
    TA_PARAM_MEMBERS(TA_CONV_2D_S4_PARAMS)
} ta_conv_2d_s4_params_t;

/* int8 input and output; `weights` output_depth rows of
   ta_s4_row_bytes(filter_height * filter_width * filter_depth) bytes. */
int ta_conv_2d_s4(const ta_conv_2d_s4_params_t *p, const int8_t *input, const int8_t *weights,
                  const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                  int8_t *output);

#endif /* TA_CONV_2D_S4_H */
