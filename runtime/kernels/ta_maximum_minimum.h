/*
 * ta_maximum_minimum.h - MAXIMUM and MINIMUM with broadcasting on the raw
 * int8 or int16 values, as TFLite Micro: the quantization is not looked
 * at, so with differing scales or zero points the output is the larger
 * (smaller) stored value, copied unchanged.
 */
#ifndef TA_MAXIMUM_MINIMUM_H
#define TA_MAXIMUM_MINIMUM_H

#include <stdint.h>

#include "../include/ta_params.h"

#include "ta_broadcast.h"

#define TA_MAXIMUM_MINIMUM_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    TA_BROADCAST_PARAMS(FIELD, ARRAY, ARRAY_USED)
typedef struct {
    TA_PARAM_MEMBERS(TA_MAXIMUM_MINIMUM_PARAMS)
} ta_maximum_minimum_params_t;

int ta_maximum_s8(const ta_maximum_minimum_params_t *p, const int8_t *input1, const int8_t *input2,
                  int8_t *output);
int ta_minimum_s8(const ta_maximum_minimum_params_t *p, const int8_t *input1, const int8_t *input2,
                  int8_t *output);
int ta_maximum_s16(const ta_maximum_minimum_params_t *p, const int16_t *input1,
                   const int16_t *input2, int16_t *output);
int ta_minimum_s16(const ta_maximum_minimum_params_t *p, const int16_t *input1,
                   const int16_t *input2, int16_t *output);

#endif /* TA_MAXIMUM_MINIMUM_H */
