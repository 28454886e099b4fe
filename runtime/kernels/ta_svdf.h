/*
 * ta_svdf.h - SVDF (singular value decomposition filter) with int8 input
 * and output and a state that persists between runs.
 *
 * The state holds, per batch and filter, the last `memory` feature
 * values, oldest first. Each run, as TFLite Micro's integer SVDF:
 *   1. every state row drops its oldest value;
 *   2. feature: x = requant1(sum_c weights_feature[f][c] * (input[c] - input_zp)),
 *      clamped to the state type, stored as state_zp + x (for int8 the
 *      sum wraps around like TFLite's int8 store);
 *   3. time: t[f] = sum_m weights_time[f][m] * (state[f][m] - state_zp);
 *   4. output[u] = clamp8(requant2(bias[u] + sum over the rank filters of
 *      unit u of t[f]) + output_zp).
 * TFLite Micro's integer SVDF applies no fused activation: neither does
 * this. Sums wrap modulo 2^32 as TFLite's int32 sums do in practice.
 */
#ifndef TA_SVDF_H
#define TA_SVDF_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_SVDF_PARAMS(FIELD, ARRAY, ARRAY_USED)                              \
    FIELD(int32_t, batches)                                                   \
    FIELD(int32_t, input_size)                                                \
    FIELD(int32_t, filters) /* units * rank */                                \
    FIELD(int32_t, rank)                                                      \
    FIELD(int32_t, memory)                                                    \
    FIELD(int32_t, input_zero_point)                                          \
    FIELD(int32_t, state_zero_point)                                          \
    FIELD(int32_t, output_zero_point)                                         \
    FIELD(int32_t, feature_multiplier) /* input * weights_feature -> state */ \
    FIELD(int32_t, feature_shift)                                             \
    FIELD(int32_t, output_multiplier) /* state * weights_time -> output */    \
    FIELD(int32_t, output_shift)
typedef struct {
    TA_PARAM_MEMBERS(TA_SVDF_PARAMS)
} ta_svdf_params_t;

/* int8 weights_time and state. `state` is [batches][filters][memory]. The
   converter folds the zero points into biases, so the inner loops are
   plain dot products: feature_biases [filters] = -input_zp * row sums of
   weights_feature, output_biases [units] = bias - state_zp * the sums of
   weights_time over the unit's rank filters (int32, wrapping). */
int ta_svdf_s8(const ta_svdf_params_t *p, const int8_t *input, const int8_t *weights_feature,
               const int8_t *weights_time, const int32_t *feature_biases,
               const int32_t *output_biases, int8_t *state, int8_t *output);

/* int16 weights_time and state. */
int ta_svdf_s16(const ta_svdf_params_t *p, const int8_t *input, const int8_t *weights_feature,
                const int16_t *weights_time, const int32_t *feature_biases,
                const int32_t *output_biases, int16_t *state, int8_t *output);

#endif /* TA_SVDF_H */
