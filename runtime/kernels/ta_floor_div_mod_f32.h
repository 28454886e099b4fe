/*
 * ta_floor_div_mod_f32.h - FLOOR_DIV and FLOOR_MOD on float32 tensors, with
 * broadcasting (the shape of ta_broadcast.h), as TFLite Micro's float
 * reference computes each element:
 *   FLOOR_DIV: floor(double(x) / double(y)), rounded to float; any zero
 *     divisor (+0 or -0) anywhere in input 2 fails the run (TA_ERR_KERNEL)
 *     before an element is written, as TFLite Micro's "Division by 0";
 *   FLOOR_MOD: m = fmodf(x, y), then m + y when m is not 0 and its sign
 *     differs from y's; a zero divisor gives fmodf's NaN, as there.
 */
#ifndef TA_FLOOR_DIV_MOD_F32_H
#define TA_FLOOR_DIV_MOD_F32_H

#include <stdint.h>

#include "../include/ta_params.h"

#include "ta_broadcast.h"

#define TA_FLOOR_DIV_MOD_F32_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    TA_BROADCAST_PARAMS(FIELD, ARRAY, ARRAY_USED)             \
    FIELD(int32_t, divisor_count) /* FLOOR_DIV: input 2's elements; FLOOR_MOD: 0 */
typedef struct {
    TA_PARAM_MEMBERS(TA_FLOOR_DIV_MOD_F32_PARAMS)
} ta_floor_div_mod_f32_params_t;

int ta_floor_div_f32(const ta_floor_div_mod_f32_params_t *p, const float *input1,
                     const float *input2, float *output);
int ta_floor_mod_f32(const ta_floor_div_mod_f32_params_t *p, const float *input1,
                     const float *input2, float *output);

#endif /* TA_FLOOR_DIV_MOD_F32_H */
