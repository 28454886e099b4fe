/*
 * ta_maximum_minimum.h - MAXIMUM and MINIMUM with broadcasting on the raw
 * int8 values, as TFLite Micro (which requires nothing of the
 * quantization; tinyaot's converter requires inputs and output to share
 * it, so raw and real comparisons agree).
 */
#ifndef TA_MAXIMUM_MINIMUM_H
#define TA_MAXIMUM_MINIMUM_H

#include <stdint.h>

#include "ta_broadcast.h"

typedef struct {
    int32_t rank; /* collapsed broadcast shape: see ta_broadcast.h */
    int32_t dims[TA_BROADCAST_MAX_DIMS];
    int32_t stride1[TA_BROADCAST_MAX_DIMS];
    int32_t stride2[TA_BROADCAST_MAX_DIMS];
} ta_maximum_minimum_params_t;

int ta_maximum_s8(const ta_maximum_minimum_params_t *p, const int8_t *input1,
                  const int8_t *input2, int8_t *output);
int ta_minimum_s8(const ta_maximum_minimum_params_t *p, const int8_t *input1,
                  const int8_t *input2, int8_t *output);

#endif /* TA_MAXIMUM_MINIMUM_H */
