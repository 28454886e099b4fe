/*
 * ta_softmax.h - SOFTMAX over the last dimension, int8 input.
 *
 * Follows TFLite's integer softmax: input differences from the row maximum
 * are scaled into Q5.26 by (input_multiplier, input_left_shift), exp() is
 * evaluated in fixed point, summed in Q12.19 and inverted with a
 * Newton-Raphson reciprocal. Differences below diff_min contribute 0.
 */
#ifndef TA_SOFTMAX_H
#define TA_SOFTMAX_H

#include <stdint.h>

typedef struct {
    int32_t outer_size; /* rows */
    int32_t depth;      /* last dimension */
    int32_t input_multiplier;
    int32_t input_left_shift;
    int32_t diff_min;
} ta_softmax_params_t;

/* int8 -> int8 (output scale 1/256, zero point -128). */
int ta_softmax_s8(const ta_softmax_params_t *p, const int8_t *input, int8_t *output);
/* int8 -> int16 (output scale 1/65536, zero point -32768). */
int ta_softmax_s8_s16(const ta_softmax_params_t *p, const int8_t *input, int16_t *output);

#endif /* TA_SOFTMAX_H */
