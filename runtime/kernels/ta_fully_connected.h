/*
 * ta_fully_connected.h - FULLY_CONNECTED: output[b][o] = act(requant(
 *   sum_d weights[o][d] * input[b][d] + bias_sum[o])).
 *
 * The converter folds the input zero point into the bias: bias_sum[o] =
 * bias[o] - input_zero_point * sum_d weights[o][d]. In exact integer
 * arithmetic this equals TFLite's sum_d weights * (input - zero_point) +
 * bias, so results are identical while the inner loop is a plain dot
 * product. Weights are [output_depth][accum_depth], row-major.
 */
#ifndef TA_FULLY_CONNECTED_H
#define TA_FULLY_CONNECTED_H

#include <stddef.h>
#include <stdint.h>

#include "../include/ta_params.h"

#define TA_FULLY_CONNECTED_PARAMS(FIELD, ARRAY, ARRAY_USED)           \
    FIELD(int32_t, batches)      /* output elements / output_depth */ \
    FIELD(int32_t, accum_depth)  /* weights' last dimension */        \
    FIELD(int32_t, output_depth) /* weights' rows */                  \
    TA_REQUANT_FIELDS(FIELD)                                          \
    TA_ACTIVATION_FIELDS(FIELD, int32_t)
typedef struct {
    TA_PARAM_MEMBERS(TA_FULLY_CONNECTED_PARAMS)
} ta_fully_connected_params_t;

/* int8 input and output, int8 weights, int32 accumulator. `multipliers`
   and `shifts` are per output channel, or NULL for per-tensor. */
int ta_fully_connected_s8(const ta_fully_connected_params_t *p, const int8_t *input,
                          const int8_t *weights, const int32_t *bias_sum,
                          const int32_t *multipliers, const int32_t *shifts, int8_t *output);

/* The same with the weights interleaved, for Helium cores (the converter
   lays them out so for a target with Helium): rows in blocks of four, each
   row cut into 16-byte chunks, the four rows' chunks next to each other,
   zeros past the end of a row or of the rows:

     weights[((o / 4) * chunks + d / 16) * 64 + (o % 4) * 16 + d % 16]
         = the model's weights[o][d],  chunks = ceil(accum_depth / 16)

   One pointer walks a block, each input chunk loaded once for its four
   rows. bias_sum must be given and, like per-channel multipliers and
   shifts, cover whole blocks (the converter pads them). */
int ta_fully_connected_s8_interleaved(const ta_fully_connected_params_t *p, const int8_t *input,
                                      const int8_t *weights, const int32_t *bias_sum,
                                      const int32_t *multipliers, const int32_t *shifts,
                                      int8_t *output);

/* The bytes of a row of a group in ta_fully_connected_s8_words' layout
   (ta_fully_connected_words.h): the depth padded to whole words. For the
   converter, which lays the weights out, and the kernels that read them;
   here, with the two below, so that the DSP rows including them do not
   make every module with a FULLY_CONNECTED copy
   ta_fully_connected_words.{h,c}. */
static inline size_t ta_fc_words_row_bytes(int32_t accum_depth)
{
    return ((size_t)accum_depth + 3) / 4 * 4;
}

/* Where ta_fully_connected_s8_words' layout (ta_fully_connected_words.h)
   puts the model's weights[o][d] of a layer of `rows` rows of `depth`
   weights: d may run to the padded ta_fc_words_row_bytes(depth) in rows
   that belong to a pair (a pair's first row stored with its sign bits
   flipped: ta_fc_words_flipped). */
static inline size_t ta_fc_words_index(int32_t o, int32_t d, int32_t rows, int32_t depth)
{
    const size_t row_bytes = ta_fc_words_row_bytes(depth);
    const int32_t paired = rows & ~1, grouped = rows & ~3;
    if (o >= paired) /* the odd last row */
        return (size_t)paired * row_bytes + (size_t)d;
    const size_t pairs = o < grouped ? 2 : 1; /* in o's group, or the last pair */
    return (size_t)(o & ~(int32_t)(2 * pairs - 1)) * row_bytes + (size_t)(d / 4) * 8 * pairs +
           (size_t)(d & 1) * 4 * pairs + (size_t)((o / 2) & (int32_t)(pairs - 1)) * 4 +
           (size_t)((d >> 1) & 1) * 2 + (size_t)(o & 1);
}

/* Whether that layout stores row o's bytes with their sign bits flipped:
   a pair's first row. */
static inline int ta_fc_words_flipped(int32_t o, int32_t rows)
{
    return !(o & 1) && o < (rows & ~1);
}

/* The bytes of that layout. */
static inline size_t ta_fc_words_bytes(int32_t rows, int32_t depth)
{
    return (size_t)(rows & ~1) * ta_fc_words_row_bytes(depth) + (size_t)(rows & 1) * (size_t)depth;
}

/* int16 input and output, int8 weights, int64 bias and accumulator. */
int ta_fully_connected_s16(const ta_fully_connected_params_t *p, const int16_t *input,
                           const int8_t *weights, const int64_t *bias_sum,
                           const int32_t *multipliers, const int32_t *shifts, int16_t *output);

/* int16 input and output, int8 weights, int32 bias and accumulator. */
int ta_fully_connected_s16_acc32(const ta_fully_connected_params_t *p, const int16_t *input,
                                 const int8_t *weights, const int32_t *bias_sum,
                                 const int32_t *multipliers, const int32_t *shifts,
                                 int16_t *output);

#endif /* TA_FULLY_CONNECTED_H */
