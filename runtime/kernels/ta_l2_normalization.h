/*
 * ta_l2_normalization.h - int8 L2_NORMALIZATION over the last dimension,
 * as TFLite's reference: per row, the int32 sum of squared differences
 * from the input zero point gives 1 / sqrt(sum) as a quantized multiplier
 * (ta_inv_sqrt.h); each output is the difference times it, in 1/128 steps
 * with zero point 0 (the output's own quantization is not read, as in
 * TFLite Micro), clamped to int8.
 */
#ifndef TA_L2_NORMALIZATION_H
#define TA_L2_NORMALIZATION_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_L2_NORMALIZATION_PARAMS(FIELD, ARRAY, ARRAY_USED)    \
    FIELD(int32_t, rows)  /* product of the other dimensions */ \
    FIELD(int32_t, depth) /* the last dimension */              \
    FIELD(int32_t, input_zero_point)
typedef struct {
    TA_PARAM_MEMBERS(TA_L2_NORMALIZATION_PARAMS)
} ta_l2_normalization_params_t;

int ta_l2_normalization_s8(const ta_l2_normalization_params_t *p, const int8_t *input,
                           int8_t *output);

#endif /* TA_L2_NORMALIZATION_H */
