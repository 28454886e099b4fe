/*
 * ta_logical.h - LOGICAL_AND and LOGICAL_OR on bool tensors with
 * broadcasting (the shape of ta_broadcast.h), and LOGICAL_NOT, as TFLite
 * Micro's logical kernels. A bool is one byte, 0 or 1; any nonzero input
 * byte counts as true and outputs are 0 or 1.
 *
 * Per element: safe to run with the output over a non-broadcast input.
 */
#ifndef TA_LOGICAL_H
#define TA_LOGICAL_H

#include <stdbool.h>
#include <stdint.h>

#include "../include/ta_params.h"

#include "ta_broadcast.h"

#define TA_LOGICAL_PARAMS(FIELD, ARRAY, ARRAY_USED) TA_BROADCAST_PARAMS(FIELD, ARRAY, ARRAY_USED)
typedef struct {
    TA_PARAM_MEMBERS(TA_LOGICAL_PARAMS)
} ta_logical_params_t;

#define TA_LOGICAL_NOT_PARAMS(FIELD, ARRAY, ARRAY_USED) FIELD(int32_t, size)
typedef struct {
    TA_PARAM_MEMBERS(TA_LOGICAL_NOT_PARAMS)
} ta_logical_not_params_t;

int ta_logical_and_b(const ta_logical_params_t *p, const bool *input1, const bool *input2,
                     bool *output);
int ta_logical_or_b(const ta_logical_params_t *p, const bool *input1, const bool *input2,
                    bool *output);
int ta_logical_not_b(const ta_logical_not_params_t *p, const bool *input, bool *output);

#endif /* TA_LOGICAL_H */
