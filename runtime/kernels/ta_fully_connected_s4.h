/*
 * ta_fully_connected_s4.h - FULLY_CONNECTED with int4 weights kept packed
 * (TFLite's INT4 type, weights.format auto): ta_fully_connected.h's
 * arithmetic and parameters, the weights' rows packed as ta_s4.h lays them
 * out (half the bytes of int8), read in place.
 */
#ifndef TA_FULLY_CONNECTED_S4_H
#define TA_FULLY_CONNECTED_S4_H

#include "ta_fully_connected.h"

/* int8 input and output; `weights` output_depth rows of
   ta_s4_row_bytes(accum_depth) bytes. */
int ta_fully_connected_s4(const ta_fully_connected_params_t *p, const int8_t *input,
                          const int8_t *weights, const int32_t *bias_sum,
                          const int32_t *multipliers, const int32_t *shifts, int8_t *output);

#endif /* TA_FULLY_CONNECTED_S4_H */
