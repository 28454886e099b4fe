/*
 * ta_fully_connected_f32.h - float32 FULLY_CONNECTED, as TFLite's
 * reference_ops::FullyConnected (float): for each batch row b and output o,
 *   total = 0; for d in order: total += input[b][d] * weights[o][d];
 *   output[b][o] = clamp(total + bias[o], activation_min, activation_max).
 * The sum runs in this order in float, the bias is added last, and the
 * module is built with -ffp-contract=off: every rounding is TFLite's.
 * Weights are [output_depth][accum_depth], row-major; bias may be NULL.
 */
#ifndef TA_FULLY_CONNECTED_F32_H
#define TA_FULLY_CONNECTED_F32_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_FULLY_CONNECTED_F32_PARAMS(FIELD, ARRAY, ARRAY_USED)       \
    FIELD(int32_t, batches)      /* output elements / output_depth */ \
    FIELD(int32_t, accum_depth)  /* weights' last dimension */        \
    FIELD(int32_t, output_depth) /* weights' rows */                  \
    TA_ACTIVATION_FIELDS(FIELD, float)
typedef struct {
    TA_PARAM_MEMBERS(TA_FULLY_CONNECTED_F32_PARAMS)
} ta_fully_connected_f32_params_t;

int ta_fully_connected_f32(const ta_fully_connected_f32_params_t *p, const float *input,
                           const float *weights, const float *bias, float *output);

#endif /* TA_FULLY_CONNECTED_F32_H */
