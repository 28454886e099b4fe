/*
 * ta_conv_2d_s4.h - CONV_2D with int4 weights kept packed (TFLite's INT4
 * type, weights.format auto): ta_conv_2d.h's arithmetic and parameters,
 * the filters in the layout below (half the bytes of int8), read in place.
 *
 * Layout (the converter writes it, src/lower/int4_packed.c): each filter's
 * n = filter_height * filter_width * filter_depth values (OHWI order) are
 * cut into steps of 32; output channels go in blocks of four, and the four
 * filters' 16-byte pieces of one step lie next to each other:
 *
 *   byte ((o / 4) * steps + k) * 64 + (o % 4) * 16 + j, j < 16, holds
 *     low nibble:  weights[o][32 k + j] + 8
 *     high nibble: weights[o][32 k + 16 + j] + 8
 *
 * steps = ceil(n / 32); past the filter's end or the last channel the
 * nibbles are 8 (a zero weight). Nibbles are offset by 8 (0..15), so one
 * AND (or a shift) gives a weight plus 8 with no sign extension: a kernel
 * sums x * (w + 8) and takes 8 * (the sum of the window's inputs) off once
 * per pixel, shared by every output channel. Helium: one 16-byte load,
 * AND 0x0F and a right shift by 4 give the 32 weights that meet two
 * contiguous 16-byte input loads (VMLADAV). DSP: (word >> 4s) & 0x000F000F
 * gives the halfword pairs (j, j + 2) and (j + 1, j + 3) of a word's low
 * nibbles (s = 0, 2) and of its high ones (s = 1, 3), the pairs SXTB16
 * makes of four input bytes, for SMLAD.
 *
 * Order of writes: output pixels in raster order, up to three at a time,
 * each group written after its windows are read (1x1 filters read the
 * input in place; others are gathered into patches first). Grouped
 * filters and windows over TA_CONV_2D_S4_MAX_PATCH values run one value at
 * a time, a pixel at a time.
 */
#ifndef TA_CONV_2D_S4_H
#define TA_CONV_2D_S4_H

#include <stddef.h>
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

/* The longest window gathered into a patch (values). */
#define TA_CONV_2D_S4_MAX_PATCH 288

/* Steps of 32 values of a filter of n values. */
static inline int32_t ta_conv_2d_s4_steps(int32_t n)
{
    return (n + 31) / 32;
}

/* Bytes of the packed filters of `filters` channels of n values. */
static inline size_t ta_conv_2d_s4_bytes(int32_t filters, int32_t n)
{
    return (size_t)((filters + 3) / 4) * (size_t)ta_conv_2d_s4_steps(n) * 64u;
}

/* Where value i of filter o lies: its byte, and 4 for the high nibble. */
static inline size_t ta_conv_2d_s4_byte(int32_t steps, int32_t o, int32_t i, int *shift)
{
    *shift = (i % 32) >= 16 ? 4 : 0;
    return ((size_t)(o / 4) * (size_t)steps + (size_t)(i / 32)) * 64u + (size_t)(o % 4) * 16u +
           (size_t)(i % 16);
}

/* Value i of filter o. */
static inline int32_t ta_conv_2d_s4_at(const uint8_t *weights, int32_t steps, int32_t o, int32_t i)
{
    int shift;
    const size_t at = ta_conv_2d_s4_byte(steps, o, i, &shift);
    return (int32_t)((weights[at] >> shift) & 0xFu) - 8;
}

/* int8 input and output; `weights` in the layout above. */
int ta_conv_2d_s4(const ta_conv_2d_s4_params_t *p, const int8_t *input, const int8_t *weights,
                  const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                  int8_t *output);

#endif /* TA_CONV_2D_S4_H */
