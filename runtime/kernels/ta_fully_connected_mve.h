/*
 * ta_fully_connected_mve.h - the int8 FULLY_CONNECTED rows on Helium
 * (MVE: Cortex-M55/M85)
 * (ta_fully_connected_mve.c), called by ta_fully_connected_s8's and
 * ta_fully_connected_s8_interleaved's dispatch. Not kernels: the lowerings
 * call those two.
 */
#ifndef TA_FULLY_CONNECTED_MVE_H
#define TA_FULLY_CONNECTED_MVE_H

#include <stdint.h>

#include "ta_fully_connected.h"

/* The output_depth & ~3 rows of one input row `in` in groups of four,
   into out; bias_sum not NULL. */
void ta_fully_connected_s8_groups_mve(const ta_fully_connected_params_t *p, const int8_t *in,
                                      const int8_t *weights, const int32_t *bias_sum,
                                      const int32_t *multipliers, const int32_t *shifts,
                                      int8_t *out);

/* ta_fully_connected_s8_interleaved on Helium, every batch. */
void ta_fully_connected_s8_interleaved_mve(const ta_fully_connected_params_t *p,
                                           const int8_t *input, const int8_t *weights,
                                           const int32_t *bias_sum, const int32_t *multipliers,
                                           const int32_t *shifts, int8_t *output);

#endif /* TA_FULLY_CONNECTED_MVE_H */
