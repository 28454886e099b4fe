/*
 * ta_circular_buffer.h - TFLite Micro's CIRCULAR_BUFFER custom operator
 * on int8: a window of the last `slots` inputs, each `depth` bytes. Every
 * run moves the window one slot towards the front, puts the input in the
 * last slot and copies the window to the output. The window is state
 * kept between runs (zero after model_init); TFLite Micro keeps it in the
 * output tensor itself, which starts as whatever its arena held.
 */
#ifndef TA_CIRCULAR_BUFFER_H
#define TA_CIRCULAR_BUFFER_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_CIRCULAR_BUFFER_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, slots) /* output dimension 1 */          \
    FIELD(int32_t, depth) /* bytes of one input */
typedef struct {
    TA_PARAM_MEMBERS(TA_CIRCULAR_BUFFER_PARAMS)
} ta_circular_buffer_params_t;

int ta_circular_buffer_s8(const ta_circular_buffer_params_t *p, const int8_t *input, int8_t *window,
                          int8_t *output);

#endif /* TA_CIRCULAR_BUFFER_H */
