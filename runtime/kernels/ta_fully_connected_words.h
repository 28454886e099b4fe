/*
 * ta_fully_connected_words.h - int8 FULLY_CONNECTED in the layout of
 * cores with the DSP extension (Cortex-M4/M7/M33): see
 * ta_fully_connected.h for the operation.
 */
#ifndef TA_FULLY_CONNECTED_WORDS_H
#define TA_FULLY_CONNECTED_WORDS_H

#include <stdint.h>

#include "ta_fully_connected.h"

/* ta_fully_connected_s8 with the weights interleaved a word at a time, for
   cores with the DSP extension (the converter lays them out so for such a target):
   the rows padded with zeros to whole words (W = ceil(accum_depth / 4)),
   in groups of four, each group's rows a word at a time in turn; then the
   last output_depth % 4 rows as the model has them. With full =
   output_depth & ~3, the model's weights[o][d] is at

     (o / 4) * 16 * W + (d / 4) * 16 + (o % 4) * 4 + d % 4   (o < full)
     full * 4 * W + (o - full) * accum_depth + d               (o >= full)

   so that one LDM reads the four rows' words for an input word (weights
   word-aligned, as every tensor the planner places is); 4 * W is
   ta_fc_words_row_bytes (ta_fully_connected.h). */
int ta_fully_connected_s8_words(const ta_fully_connected_params_t *p, const int8_t *input,
                                const int8_t *weights, const int32_t *bias_sum,
                                const int32_t *multipliers, const int32_t *shifts, int8_t *output);

#endif /* TA_FULLY_CONNECTED_WORDS_H */
