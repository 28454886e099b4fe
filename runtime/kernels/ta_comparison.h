/*
 * ta_comparison.h - LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, EQUAL and
 * NOT_EQUAL on int8 with broadcasting, as TFLite Micro: each input is
 * brought to a common scale,
 *
 *   x = requant((in + input_offset) << left_shift)   (multiplier = scale < 1)
 *
 * and the two results compared. One kernel serves all six operators: the
 * three bits of `mask` give the output when x1 < x2 (bit 0), x1 == x2
 * (bit 1) and x1 > x2 (bit 2); LESS_EQUAL is 3, NOT_EQUAL 5. Outputs are
 * bool (one byte, 0 or 1).
 */
#ifndef TA_COMPARISON_H
#define TA_COMPARISON_H

#include <stdbool.h>
#include <stdint.h>

#include "../include/ta_params.h"

#include "ta_broadcast.h"

#define TA_COMPARISON_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    TA_BROADCAST_PARAMS(FIELD, ARRAY, ARRAY_USED)      \
    TA_BINARY_RESCALE_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, mask)
typedef struct {
    TA_PARAM_MEMBERS(TA_COMPARISON_PARAMS)
} ta_comparison_params_t;

int ta_comparison_s8(const ta_comparison_params_t *p, const int8_t *input1, const int8_t *input2,
                     bool *output);

#endif /* TA_COMPARISON_H */
