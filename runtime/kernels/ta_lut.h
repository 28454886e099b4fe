/*
 * ta_lut.h - an int8 -> int8 function given as a 256-entry table that the
 * converter computes (ELU, RSQRT). An input below `input_min` is an
 * error (TA_ERR_KERNEL), as TFLite Micro's RSQRT fails on inputs below
 * its zero point; -128 accepts every input.
 *
 * Per element: safe to run with output == input.
 */
#ifndef TA_LUT_H
#define TA_LUT_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_LUT_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, size)                        \
    FIELD(int32_t, input_min)
typedef struct {
    TA_PARAM_MEMBERS(TA_LUT_PARAMS)
} ta_lut_params_t;

int ta_lut_s8(const ta_lut_params_t *p, const int8_t *input, const int8_t *table, int8_t *output);

#endif /* TA_LUT_H */
