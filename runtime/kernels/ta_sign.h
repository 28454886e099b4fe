/*
 * ta_sign.h - SIGN: each element's sign, -1, 0 or 1 in the input's type,
 * as LiteRT's kernel gives it (TFLite Micro has no SIGN kernel; LiteRT is
 * the reference): -0.0 gives 0.0, a NaN comes out as it went in.
 * Each element is read before its output is written, so the output may
 * share the input's bytes.
 */
#ifndef TA_SIGN_H
#define TA_SIGN_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_SIGN_PARAMS(FIELD, ARRAY, ARRAY_USED) FIELD(int32_t, size)
typedef struct {
    TA_PARAM_MEMBERS(TA_SIGN_PARAMS)
} ta_sign_params_t;

int ta_sign_f32(const ta_sign_params_t *p, const float *input, float *output);
int ta_sign_i32(const ta_sign_params_t *p, const int32_t *input, int32_t *output);

#endif /* TA_SIGN_H */
