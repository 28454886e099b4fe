/*
 * ta_hard_swish.h - HARD_SWISH, int8: x * relu6(x + 3) / 6, in TFLite's
 * 16-bit fixed-point scheme. The input (minus its zero point) is moved to a
 * "high resolution" scale (input_scale / 128); from there one multiplier
 * takes it to the output scale and another to the "relu-ish" scale on which
 * 3.0 is 32768, whose saturated and shifted value in [0, 1] multiplies it.
 * All intermediates are int16 and wrap or saturate as TFLite's do.
 *
 * Per element: safe to run with output == input.
 */
#ifndef TA_HARD_SWISH_H
#define TA_HARD_SWISH_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_HARD_SWISH_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, size)                               \
    FIELD(int32_t, input_zero_point)                   \
    FIELD(int32_t, output_zero_point)                  \
    FIELD(int32_t, reluish_multiplier) /* Q0.15 */     \
    FIELD(int32_t, reluish_exponent)   /* -31 .. 31 */ \
    FIELD(int32_t, output_multiplier)  /* Q0.15 */     \
    FIELD(int32_t, output_exponent)    /* -31 .. 0 */
typedef struct {
    TA_PARAM_MEMBERS(TA_HARD_SWISH_PARAMS)
} ta_hard_swish_params_t;

int ta_hard_swish_s8(const ta_hard_swish_params_t *p, const int8_t *input, int8_t *output);

#endif /* TA_HARD_SWISH_H */
