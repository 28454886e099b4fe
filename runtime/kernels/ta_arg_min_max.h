/*
 * ta_arg_min_max.h - ARG_MAX and ARG_MIN of int8 along one axis.
 *
 * The input is viewed as [outer][axis_size][inner]; output[o][i] is the
 * index along the axis of the largest (smallest) element. Ties go to the
 * first index, as in TFLite (a later element must compare strictly
 * greater / less to win).
 */
#ifndef TA_ARG_MIN_MAX_H
#define TA_ARG_MIN_MAX_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_ARG_MIN_MAX_PARAMS(FIELD, ARRAY, ARRAY_USED)                   \
    FIELD(int32_t, outer) /* product of the dimensions before the axis */ \
    FIELD(int32_t, axis_size)                                             \
    FIELD(int32_t, inner) /* product of the dimensions after the axis */
typedef struct {
    TA_PARAM_MEMBERS(TA_ARG_MIN_MAX_PARAMS)
} ta_arg_min_max_params_t;

int ta_arg_max_s8_i32(const ta_arg_min_max_params_t *p, const int8_t *input, int32_t *output);
int ta_arg_max_s8_i64(const ta_arg_min_max_params_t *p, const int8_t *input, int64_t *output);
int ta_arg_min_s8_i32(const ta_arg_min_max_params_t *p, const int8_t *input, int32_t *output);
int ta_arg_min_s8_i64(const ta_arg_min_max_params_t *p, const int8_t *input, int64_t *output);

#endif /* TA_ARG_MIN_MAX_H */
