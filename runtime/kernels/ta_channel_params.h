/*
 * ta_channel_params.h - the per-channel parameters of a layer whose
 * weights are decoded at run time (ta_weight_table.h, ta_weight_huffman.h),
 * rebuilt into scratch from a compact form right after the weights, so
 * that the constants hold little more than the compressed model's:
 *
 *   shifts  stored one byte a channel (a requantization shift is -31 to
 *           31), widened to the int32 the kernels read; NULL for none;
 *   bias    DEPTHWISE_CONV_2D's unfolded bias, which its SIMD paths start
 *           border pixels from: the folded one (bias - zero_point * the
 *           sum of the channel's taps) plus zero_point times the sum of
 *           the decoded taps, modulo 2^32; `taps` 0 for none.
 *
 * `weights` are the decoded weights, `taps` rows of `channels` values
 * (the DEPTHWISE_CONV_2D filter's layout).
 */
#ifndef TA_CHANNEL_PARAMS_H
#define TA_CHANNEL_PARAMS_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_CHANNEL_PARAMS_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, channels)                               \
    FIELD(int32_t, taps)                                   \
    FIELD(int32_t, zero_point)
typedef struct {
    TA_PARAM_MEMBERS(TA_CHANNEL_PARAMS_PARAMS)
} ta_channel_params_params_t;

int ta_channel_params(const ta_channel_params_params_t *p, const int8_t *shifts_s8,
                      const int32_t *bias_sum, const int8_t *weights, int32_t *shifts,
                      int32_t *bias);

#endif /* TA_CHANNEL_PARAMS_H */
