/*
 * ta_softmax.h - SOFTMAX over the last dimension.
 *
 * int8 input: follows TFLite's integer softmax: input differences from the
 * row maximum are scaled into Q5.26 by (input_multiplier, input_left_shift),
 * exp() is evaluated in fixed point, summed in Q12.19 and inverted with a
 * Newton-Raphson reciprocal. Differences below diff_min contribute 0.
 * A difference takes one of 256 values, so the converter evaluates exp()
 * for each with the reference's fixed-point arithmetic (ta_fixedpoint.h):
 * exp_table[k] is the Q0.31 exp of the difference -k, 0 below diff_min.
 *
 * int16 input: differences are scaled by (input_multiplier,
 * input_left_shift) so that [-65535, 0] covers [-10, 0], exp() and the
 * reciprocal 1/(1 + x) come from two 513-entry interpolated tables the
 * converter builds (TFLite's LUTPopulate); diff_min is unused.
 *
 * Every kernel reads a row fully before writing it (the int16 one keeps
 * its exps in the output row), so output == input is safe.
 */
#ifndef TA_SOFTMAX_H
#define TA_SOFTMAX_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_SOFTMAX_PARAMS(FIELD, ARRAY, ARRAY_USED)              \
    FIELD(int32_t, outer_size) /* rows */                        \
    FIELD(int32_t, depth)      /* last dimension */              \
    FIELD(int32_t, input_multiplier)                             \
    FIELD(int32_t, input_left_shift) /* int16: a signed shift */ \
    FIELD(int32_t, diff_min)
typedef struct {
    TA_PARAM_MEMBERS(TA_SOFTMAX_PARAMS)
} ta_softmax_params_t;

/* int8 -> int8 (output scale 1/256, zero point -128). */
int ta_softmax_s8(const ta_softmax_params_t *p, const int8_t *input, const int32_t *exp_table,
                  int8_t *output);
/* int8 -> int16 (output scale 1/65536, zero point -32768). */
int ta_softmax_s8_s16(const ta_softmax_params_t *p, const int8_t *input, const int32_t *exp_table,
                      int16_t *output);
/* int16 -> int16 (zero points 0, output scale 1/32768). */
int ta_softmax_s16(const ta_softmax_params_t *p, const int16_t *input, const int16_t *exp_lut,
                   const int16_t *one_over_one_plus_x_lut, int16_t *output);

#endif /* TA_SOFTMAX_H */
