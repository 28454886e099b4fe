/*
 * ta_fully_connected_dsp.h - the int8 FULLY_CONNECTED rows with the DSP
 * extension (SIMD32: Cortex-M4/M7/M33)
 * (ta_fully_connected_dsp.c), called by the dispatch of
 * ta_fully_connected_s8_words and ta_fully_connected_s8. Not kernels: the
 * lowerings call those.
 */
#ifndef TA_FULLY_CONNECTED_DSP_H
#define TA_FULLY_CONNECTED_DSP_H

#include <stdint.h>

#include "ta_fully_connected.h"

/* The rows of one input row `in` in ta_fully_connected_s8_words' layout
   (bias_sum given) into out. */
void ta_fully_connected_s8_words_dsp(const ta_fully_connected_params_t *p, const int8_t *in,
                                     const int8_t *weights, const int32_t *bias_sum,
                                     const int32_t *multipliers, const int32_t *shifts,
                                     int8_t *out);

/* Rows o .. o + n - 1 (n 1-3) as the model has them (row o at weights + o
   * accum_depth): two rows at a time sharing each input word, a third
   alone; for ta_fully_connected_s8 (a module for another core built for
   this one). */
void ta_fully_connected_s8_rows_dsp(const ta_fully_connected_params_t *p, const int8_t *in,
                                    const int8_t *weights, const int32_t *bias_sum,
                                    const int32_t *multipliers, const int32_t *shifts, int32_t o,
                                    int32_t n, int8_t *out);

#endif /* TA_FULLY_CONNECTED_DSP_H */
