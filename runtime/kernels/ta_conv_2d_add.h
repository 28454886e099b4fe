/*
 * ta_conv_2d_add.h - an int8 CONV_2D whose only reader is an ADD with a
 * residual, fused (FUSE_RESIDUAL_ADD): the convolution's output goes into
 * the residual's bytes, so the two never need a buffer each.
 *
 *   sum = ADD(conv(input), residual)     elementwise, same shape
 *
 * The convolution runs a piece at a time (piece_pixels output pixels of one
 * row, or whole rows when a row fits) into `piece`, a buffer of
 * piece_pixels * output_depth bytes; then ADD's arithmetic combines the
 * piece with the residual's elements at the same place and writes them
 * there, into `sum`, which may be the residual's own bytes: each element of
 * the residual is read before that element of the sum is written, and
 * nothing reads it afterwards. The piece holds the convolution's int8
 * output exactly as CONV_2D writes it, so the result is TFLite's CONV_2D
 * then ADD.
 */
#ifndef TA_CONV_2D_ADD_H
#define TA_CONV_2D_ADD_H

#include <stdint.h>

#include "../include/ta_params.h"

#include "ta_broadcast.h"
#include "ta_conv_2d.h"

/* ADD's side: its input 1 is the convolution's output, its input 2 the
   residual (the converter swaps the model's operands when needed: the sum
   does not depend on their order). */
#define TA_RESIDUAL_ADD_PARAMS(FIELD, ARRAY, ARRAY_USED)     \
    TA_BINARY_RESCALE_PARAMS(FIELD, ARRAY, ARRAY_USED)       \
    FIELD(int32_t, sum_offset) /* ADD's output zero point */ \
    FIELD(int32_t, sum_multiplier)                           \
    FIELD(int32_t, sum_shift)                                \
    FIELD(int32_t, sum_min) /* ADD's activation range */     \
    FIELD(int32_t, sum_max)                                  \
    FIELD(int32_t, piece_pixels) /* output pixels per piece, >= 1 */

#define TA_CONV_2D_ADD_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    TA_CONV_2D_PARAMS(FIELD, ARRAY, ARRAY_USED)         \
    TA_RESIDUAL_ADD_PARAMS(FIELD, ARRAY, ARRAY_USED)
typedef struct {
    TA_PARAM_MEMBERS(TA_CONV_2D_ADD_PARAMS)
} ta_conv_2d_add_params_t;

/* One entry per weight layout, as ta_conv_2d.h's: the generic one, the
   interleaved one, the by-column one and the long-patch one, so a module
   links only its path.
   TA_ERR_BAD_ARGUMENT for a layout the entry does not take or a piece of
   no pixels. */
int ta_conv_2d_add_s8(const ta_conv_2d_add_params_t *p, const int8_t *input, const int8_t *weights,
                      const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                      const int8_t *residual, int8_t *piece, int8_t *sum);
int ta_conv_2d_add_s8_interleaved(const ta_conv_2d_add_params_t *p, const int8_t *input,
                                  const int8_t *weights, const int32_t *bias_sum,
                                  const int32_t *multipliers, const int32_t *shifts,
                                  const int8_t *residual, int8_t *piece, int8_t *sum);
int ta_conv_2d_add_s8_columns(const ta_conv_2d_add_params_t *p, const int8_t *input,
                              const int8_t *weights, const int32_t *bias_sum,
                              const int32_t *multipliers, const int32_t *shifts,
                              const int8_t *residual, int8_t *piece, int8_t *sum);
int ta_conv_2d_add_s8_long(const ta_conv_2d_add_params_t *p, const int8_t *input,
                           const int8_t *weights, const int32_t *bias_sum,
                           const int32_t *multipliers, const int32_t *shifts,
                           const int8_t *residual, int8_t *piece, int8_t *sum);

#endif /* TA_CONV_2D_ADD_H */
