/*
 * ta_sigmoid_params.h - the parameters LOGISTIC and TANH share: both scale
 * their input the same way (ta_logistic.h and ta_tanh.h say how) and
 * differ only in the function evaluated.
 */
#ifndef TA_SIGMOID_PARAMS_H
#define TA_SIGMOID_PARAMS_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_SIGMOID_PARAMS(FIELD, ARRAY, ARRAY_USED)    \
    FIELD(int32_t, size)                               \
    FIELD(int32_t, input_zero_point)   /* int8 only */ \
    FIELD(int32_t, input_range_radius) /* int8 only */ \
    FIELD(int32_t, input_multiplier)                   \
    FIELD(int32_t, input_left_shift)
typedef struct {
    TA_PARAM_MEMBERS(TA_SIGMOID_PARAMS)
} ta_sigmoid_params_t;

#endif /* TA_SIGMOID_PARAMS_H */
