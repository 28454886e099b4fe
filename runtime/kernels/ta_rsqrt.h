/*
 * ta_rsqrt.h - int16 RSQRT (zero points 0), computed per element as
 * TFLite Micro does (ta_inv_sqrt.h): a negative input has no result and
 * fails the run, as in TFLite Micro. int8 RSQRT is a table (ta_lut.h).
 */
#ifndef TA_RSQRT_H
#define TA_RSQRT_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_RSQRT_PARAMS(FIELD, ARRAY, ARRAY_USED)                           \
    FIELD(int32_t, size)                                                    \
    FIELD(int32_t, multiplier) /* 1 / (sqrt(input_scale) * output_scale) */ \
    FIELD(int32_t, shift)
typedef struct {
    TA_PARAM_MEMBERS(TA_RSQRT_PARAMS)
} ta_rsqrt_params_t;

int ta_rsqrt_s16(const ta_rsqrt_params_t *p, const int16_t *input, int16_t *output);

#endif /* TA_RSQRT_H */
