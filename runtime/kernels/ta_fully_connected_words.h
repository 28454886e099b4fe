/*
 * ta_fully_connected_words.h - int8 FULLY_CONNECTED in the layout of
 * cores with the DSP extension (Cortex-M4/M7/M33): see
 * ta_fully_connected.h for the operation.
 */
#ifndef TA_FULLY_CONNECTED_WORDS_H
#define TA_FULLY_CONNECTED_WORDS_H

#include <stdint.h>

#include "ta_fully_connected.h"

/* ta_fully_connected_s8 with the weights in pairs of rows, for cores with
   the DSP extension (the converter lays them out so for such a target).
   Rows 2q and 2q + 1 (q < output_depth / 2) form pair q, each row padded
   with zero weights to whole words (W = ceil(accum_depth / 4) words). For
   input word j (inputs 4j .. 4j + 3) a pair has two words,

     even: lo(4j)     hi(4j)     lo(4j + 2) hi(4j + 2)
     odd:  lo(4j + 1) hi(4j + 1) lo(4j + 3) hi(4j + 3)

   (bytes in memory order), where hi(d) is the second row's weight d and
   lo(d) the first row's plus 128 (its sign bit flipped). Read as two
   halfwords, a word holds lo + 256 * hi exactly: one SMLAD against the
   input's halfwords (SXTB16) accumulates both rows at once, and one more
   of its high bytes (SXTB16, ROR 8) separates them (ta_fully_connected_
   dsp.c). The pairs go in groups of two (four rows), then a last pair
   alone; a group's words for input word j follow each other, its pairs'
   even words and then their odd ones, so that one LDM reads them. An odd
   last row follows as the model has it. ta_fc_words_index
   (ta_fully_connected.h) gives each weight's place; the weights are
   word-aligned, as every tensor the planner places is. bias_sum must be
   given (the converter gives it to every int8 layer). */
int ta_fully_connected_s8_words(const ta_fully_connected_params_t *p, const int8_t *input,
                                const int8_t *weights, const int32_t *bias_sum,
                                const int32_t *multipliers, const int32_t *shifts, int8_t *output);

#endif /* TA_FULLY_CONNECTED_WORDS_H */
