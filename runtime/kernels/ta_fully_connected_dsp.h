/*
 * ta_fully_connected_dsp.h - the int8 FULLY_CONNECTED rows with the DSP
 * extension (SIMD32: Cortex-M4/M7/M33)
 * (ta_fully_connected_dsp.c), called by ta_fully_connected_s8_words'
 * dispatch. Not a kernel: the lowerings call ta_fully_connected_s8_words.
 */
#ifndef TA_FULLY_CONNECTED_DSP_H
#define TA_FULLY_CONNECTED_DSP_H

#include <stdint.h>

#include "ta_fully_connected.h"

/* The output_depth & ~3 rows of one input row `in` in groups of four,
   interleaved a word at a time (ta_fully_connected_s8_words' layout),
   into out (bias_sum may be NULL). */
void ta_fully_connected_s8_groups_dsp(const ta_fully_connected_params_t *p, const int8_t *in,
                                      const int8_t *weights, const int32_t *bias_sum,
                                      const int32_t *multipliers, const int32_t *shifts,
                                      int8_t *out);

/* Rows o .. o + n - 1 (n 1-3) likewise, as the model has them (row o at
   weights + o * accum_depth): two rows at a time sharing each input word,
   a third alone. The groups' last rows, or (three at a time) every row of
   a module for another core built for this one. */
void ta_fully_connected_s8_rows_dsp(const ta_fully_connected_params_t *p, const int8_t *in,
                                    const int8_t *weights, const int32_t *bias_sum,
                                    const int32_t *multipliers, const int32_t *shifts, int32_t o,
                                    int32_t n, int8_t *out);

#endif /* TA_FULLY_CONNECTED_DSP_H */
