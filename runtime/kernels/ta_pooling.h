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

#endif /* TA_POOLING_H */
