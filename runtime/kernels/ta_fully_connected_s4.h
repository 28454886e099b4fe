/*
 * ta_fully_connected_s4.h - FULLY_CONNECTED with int4 weights kept packed
 * (TFLite's INT4 type, weights.format auto): ta_fully_connected.h's
 * arithmetic and parameters, the weights' rows packed as ta_s4.h lays them
 * out (half the bytes of int8), read in place.
 */
#ifndef TA_FULLY_CONNECTED_S4_H
#define TA_FULLY_CONNECTED_S4_H

#include <stdint.h>

#include "../include/ta_params.h"

/* ta_fully_connected.h's fields (the converter copies them from its
   lowering; a module with int4 weights links no int8 kernel). */
#define TA_FULLY_CONNECTED_S4_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, batches)                                    \
    FIELD(int32_t, accum_depth)                                \
    FIELD(int32_t, output_depth)                               \
    TA_REQUANT_FIELDS(FIELD)                                   \
    TA_ACTIVATION_FIELDS(FIELD, int32_t)
typedef struct {
    TA_PARAM_MEMBERS(TA_FULLY_CONNECTED_S4_PARAMS)
} ta_fully_connected_s4_params_t;

/* int8 input and output; `weights` output_depth rows of
   ta_s4_row_bytes(accum_depth) bytes. */
int ta_fully_connected_s4(const ta_fully_connected_s4_params_t *p, const int8_t *input,
                          const int8_t *weights, const int32_t *bias_sum,
                          const int32_t *multipliers, const int32_t *shifts, int8_t *output);

#endif /* TA_FULLY_CONNECTED_S4_H */
