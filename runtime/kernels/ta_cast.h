/*
 * ta_cast.h - CAST between bool, int8, int16, int32 and float32, element
 * by element as the oracle (the tflite-micro wheel) converts:
 *   integer -> narrower integer keeps the low bits (two's complement wrap);
 *   integer -> float rounds to nearest;
 *   float -> integer truncates toward zero and saturates to the target's
 *     range, NaN gives 0 (the wheel does this, not the plain static_cast
 *     of TFLite Micro's source, which C and C++ leave undefined outside
 *     the range; LiteRT differs only on NaN, giving the maximum);
 *   bool -> anything is 0 or 1. Quantization parameters are ignored.
 */
#ifndef TA_CAST_H
#define TA_CAST_H

#include <stdbool.h>
#include <stdint.h>

#include "../include/ta_params.h"

#define TA_CAST_PARAMS(FIELD, ARRAY, ARRAY_USED) FIELD(int32_t, count)
typedef struct {
    TA_PARAM_MEMBERS(TA_CAST_PARAMS)
} ta_cast_params_t;

#define TA_CAST_DECLARE(name, from_t, to_t) \
    int name(const ta_cast_params_t *p, const from_t *input, to_t *output);

TA_CAST_DECLARE(ta_cast_i8_i16, int8_t, int16_t)
TA_CAST_DECLARE(ta_cast_i8_i32, int8_t, int32_t)
TA_CAST_DECLARE(ta_cast_i8_f32, int8_t, float)
TA_CAST_DECLARE(ta_cast_i16_i8, int16_t, int8_t)
TA_CAST_DECLARE(ta_cast_i16_i32, int16_t, int32_t)
TA_CAST_DECLARE(ta_cast_i16_f32, int16_t, float)
TA_CAST_DECLARE(ta_cast_i32_i8, int32_t, int8_t)
TA_CAST_DECLARE(ta_cast_i32_i16, int32_t, int16_t)
TA_CAST_DECLARE(ta_cast_i32_f32, int32_t, float)
TA_CAST_DECLARE(ta_cast_f32_i8, float, int8_t)
TA_CAST_DECLARE(ta_cast_f32_i16, float, int16_t)
TA_CAST_DECLARE(ta_cast_f32_i32, float, int32_t)
TA_CAST_DECLARE(ta_cast_b_i8, bool, int8_t)
TA_CAST_DECLARE(ta_cast_b_i16, bool, int16_t)
TA_CAST_DECLARE(ta_cast_b_i32, bool, int32_t)
TA_CAST_DECLARE(ta_cast_b_f32, bool, float)

#endif /* TA_CAST_H */
