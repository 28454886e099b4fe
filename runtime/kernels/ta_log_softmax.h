/*
 * ta_log_softmax.h - LOG_SOFTMAX over the last dimension, int8 in and out
 * (output scale 16/256, zero point 127), as TFLite's LogSoftmaxQuantized.
 *
 * Input differences from the row maximum are scaled into Q5.26; exps are
 * summed in Q12.19 and the log of the sum is evaluated in fixed point
 * (Q5.26). Differences at or below the larger of diff_min - 1 and the
 * log-sum mapped back to input units (reverse_scaling_*) give -128.
 *
 * Each row is read fully before it is written: safe with output == input.
 */
#ifndef TA_LOG_SOFTMAX_H
#define TA_LOG_SOFTMAX_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_LOG_SOFTMAX_PARAMS(FIELD, ARRAY, ARRAY_USED)    \
    FIELD(int32_t, outer_size) /* rows */                  \
    FIELD(int32_t, depth)      /* last dimension */        \
    FIELD(int32_t, input_multiplier)                       \
    FIELD(int32_t, input_left_shift)                       \
    FIELD(int32_t, reverse_scaling_divisor)                \
    FIELD(int32_t, reverse_scaling_right_shift) /* >= 0 */ \
    FIELD(int32_t, diff_min)
typedef struct {
    TA_PARAM_MEMBERS(TA_LOG_SOFTMAX_PARAMS)
} ta_log_softmax_params_t;

int ta_log_softmax_s8(const ta_log_softmax_params_t *p, const int8_t *input, int8_t *output);

#endif /* TA_LOG_SOFTMAX_H */
