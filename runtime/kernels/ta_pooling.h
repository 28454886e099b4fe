/*
 * ta_pooling.h - AVERAGE_POOL_2D and MAX_POOL_2D on NHWC tensors.
 *
 * The output has the input's quantization (TFLite requires it), so there
 * is no requantization: a window's maximum, or its sum divided by the
 * number of window positions that fall inside the input (padding is not
 * counted) and rounded half away from zero, is clamped to the fused
 * activation's range.
 *
 * Order of writes (what lets the output overlap the input, see
 * src/lower/common/stream_lead.h): output pixels in raster order, each
 * block of channels stored after reading only those channels of the
 * pixel's window (vector tails under a predicate).
 */
#ifndef TA_POOLING_H
#define TA_POOLING_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_POOL_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    TA_POOL_WINDOW_FIELDS(FIELD)                 \
    TA_ACTIVATION_FIELDS(FIELD, int32_t)
typedef struct {
    TA_PARAM_MEMBERS(TA_POOL_PARAMS)
} ta_pool_params_t;

int ta_average_pool_s8(const ta_pool_params_t *p, const int8_t *input, int8_t *output);
int ta_average_pool_s16(const ta_pool_params_t *p, const int16_t *input, int16_t *output);
int ta_max_pool_s8(const ta_pool_params_t *p, const int8_t *input, int8_t *output);
int ta_max_pool_s16(const ta_pool_params_t *p, const int16_t *input, int16_t *output);

/* Row streaming (docs/row-streaming.md): an int8 average pool whose one
   output row's window spans every input row, a band of rows at a time.
   ta_average_pool_rows_s8 adds each of the band's input_height rows'
   window sums (the pool's columns: filter_width, stride_width, pad_width)
   to sums[output_width * depth]; output_height 1 marks the first band,
   which starts the sums from zero (0: the band adds to them).
   ta_average_pool_finish_s8 then writes the output row from the sums,
   each divided by its window's pixel count (input_height the whole
   input's) and rounded as ta_average_pool_s8 does: integer sums in any
   order, so the same bytes. */
int ta_average_pool_rows_s8(const ta_pool_params_t *p, const int8_t *input, int32_t *sums);
int ta_average_pool_finish_s8(const ta_pool_params_t *p, const int32_t *sums, int8_t *output);

#endif /* TA_POOLING_H */
