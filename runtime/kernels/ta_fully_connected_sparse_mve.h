/*
 * ta_fully_connected_sparse_mve.h - the sparse rows on Helium
 * (ta_fully_connected_sparse_mve.c): eight nonzero weights a gather load,
 * four sums requantized as one vector. Not a kernel:
 * ta_fully_connected_s8_sparse calls it for each input row.
 */
#ifndef TA_FULLY_CONNECTED_SPARSE_MVE_H
#define TA_FULLY_CONNECTED_SPARSE_MVE_H

#include <stdint.h>

#include "ta_fully_connected.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(TA_NO_SIMD)
#define TA_FC_SPARSE_MVE 1
/* Every output of one input row `in` into out. */
void ta_fc_sparse_row_mve(const ta_fully_connected_params_t *p, const int8_t *in,
                          const int32_t *ends, const uint16_t *indices, const int8_t *weights,
                          const int32_t *bias_sum, const int32_t *multipliers,
                          const int32_t *shifts, int8_t *out);
#endif

#endif /* TA_FULLY_CONNECTED_SPARSE_MVE_H */
