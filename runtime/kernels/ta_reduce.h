/*
 * ta_reduce.h - MEAN, SUM, REDUCE_MAX, REDUCE_MIN and REDUCE_ALL over
 * constant axes.
 *
 * The converter splits the input's dimensions into kept ("outer") and
 * reduced ("inner") ones, merges neighbours of the same kind and drops
 * 1-sized ones, so at most four groups of each kind remain. Output
 * element k is the reduction of the inner nest at the input offset of
 * outer index k; outputs are written in order, as TFLite lays them out
 * (the kept dimensions in input order, with or without keep_dims).
 *
 * MEAN and SUM: sum in int32 (wrapping, as TFLite's reduction), add
 * sum_offset (= -input_zero_point * elements per output, mod 2^32), then
 * requantize with (multiplier, shift), add the output zero point and
 * clamp to the output type. For MEAN the converter has folded the division
 * by the element count into multiplier and shift, as TFLite does.
 */
#ifndef TA_REDUCE_H
#define TA_REDUCE_H

#include <stdbool.h>
#include <stdint.h>

#include "../include/ta_params.h"

#define TA_REDUCE_MAX_GROUPS 4

#define TA_REDUCE_PARAMS(FIELD, ARRAY, ARRAY_USED)                                               \
    FIELD(int32_t, outer_rank) /* groups of kept dimensions, 0..4 */                             \
    ARRAY(int32_t, outer_dims, TA_REDUCE_MAX_GROUPS)                                             \
    ARRAY(int32_t, outer_strides, TA_REDUCE_MAX_GROUPS) /* in input elements */                  \
    FIELD(int32_t, inner_rank)                          /* groups of reduced dimensions, 0..4 */ \
    ARRAY(int32_t, inner_dims, TA_REDUCE_MAX_GROUPS)                                             \
    ARRAY(int32_t, inner_strides, TA_REDUCE_MAX_GROUPS)                                          \
    FIELD(int32_t, sum_offset)                                                                   \
    FIELD(int32_t, multiplier)                                                                   \
    FIELD(int32_t, shift)                                                                        \
    FIELD(int32_t, output_zero_point)
typedef struct {
    TA_PARAM_MEMBERS(TA_REDUCE_PARAMS)
} ta_reduce_params_t;

int ta_reduce_sum_s8(const ta_reduce_params_t *p, const int8_t *input, int8_t *output);
int ta_reduce_sum_s16(const ta_reduce_params_t *p, const int16_t *input, int16_t *output);
/* Input and output share one quantization; requantization fields unused. */
int ta_reduce_max_s8(const ta_reduce_params_t *p, const int8_t *input, int8_t *output);
int ta_reduce_min_s8(const ta_reduce_params_t *p, const int8_t *input, int8_t *output);
/* bool: true where every reduced element is; requantization fields unused. */
int ta_reduce_all_b(const ta_reduce_params_t *p, const bool *input, bool *output);

#endif /* TA_REDUCE_H */
