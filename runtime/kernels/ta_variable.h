/*
 * ta_variable.h - initial values of state that outlives a run: variable
 * tensors (SVDF and LSTM states) and resource variables.
 *
 * TFLite Micro starts such state at its zero point, written with memset:
 * every byte gets the zero point's low byte (for int8 that is the value;
 * other types only ever use zero point 0 in practice). Copies (initial
 * values, READ_VARIABLE, ASSIGN_VARIABLE) use ta_copy.
 */
#ifndef TA_VARIABLE_H
#define TA_VARIABLE_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_VARIABLE_FILL_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(uint32_t, bytes)                                \
    FIELD(int32_t, byte_value) /* 0..255 */
typedef struct {
    TA_PARAM_MEMBERS(TA_VARIABLE_FILL_PARAMS)
} ta_variable_fill_params_t;

int ta_variable_fill(const ta_variable_fill_params_t *p, void *state);

#endif /* TA_VARIABLE_H */
