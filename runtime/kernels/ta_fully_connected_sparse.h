/*
 * ta_fully_connected_sparse.h - int8 FULLY_CONNECTED, and 1x1 stride-1
 * CONV_2D as one row per pixel, with the zero weights left out: output
 * channel o keeps its nonzero weights weights[ends[o-1] .. ends[o]) (ends[-1]
 * is 0) and, for each, the input channel it multiplies (indices). The
 * converter's SPARSE_WEIGHTS transform stores a layer so where its
 * measured cost model says the sparse loop is the faster one on both
 * Cortex-M55 and Cortex-M4 (docs/pruned-models.md).
 *
 * Same parameters and bias_sum as ta_fully_connected.h (the input zero
 * point folded into the bias over every weight, zero or not), the same
 * sums added in another order: int32 addition wraps alike in any order,
 * so the outputs are the dense kernel's.
 *
 * Order of writes: input row by input row, each output row written while
 * its input row is read (as ta_fully_connected_s8 and the one-pixel 1x1
 * convolution).
 */
#ifndef TA_FULLY_CONNECTED_SPARSE_H
#define TA_FULLY_CONNECTED_SPARSE_H

#include <stdint.h>

#include "ta_fully_connected.h"

/* multipliers and shifts per output channel, or NULL (per tensor). */
int ta_fully_connected_s8_sparse(const ta_fully_connected_params_t *p, const int8_t *input,
                                 const int32_t *ends, const uint16_t *indices,
                                 const int8_t *weights, const int32_t *bias_sum,
                                 const int32_t *multipliers, const int32_t *shifts, int8_t *output);

#endif /* TA_FULLY_CONNECTED_SPARSE_H */
