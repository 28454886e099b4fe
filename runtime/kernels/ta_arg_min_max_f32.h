/*
 * ta_arg_min_max_f32.h - ARG_MAX and ARG_MIN of float32 along one axis,
 * int32 indices, as TFLite Micro (its GreaterFn / LessFn comparators):
 * the first element along the axis is the starting best; a later one
 * replaces it only if it compares strictly greater (less). Ties go to
 * the first index; a NaN never replaces anything, and a NaN first element
 * is never replaced. Geometry as ta_arg_min_max.h.
 */
#ifndef TA_ARG_MIN_MAX_F32_H
#define TA_ARG_MIN_MAX_F32_H

#include <stdint.h>

#include "ta_arg_min_max.h"

int ta_arg_max_f32_i32(const ta_arg_min_max_params_t *p, const float *input, int32_t *output);
int ta_arg_min_f32_i32(const ta_arg_min_max_params_t *p, const float *input, int32_t *output);

#endif /* TA_ARG_MIN_MAX_F32_H */
