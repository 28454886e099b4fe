/*
 * ta_tanh.h - TANH, as TFLite Micro's integer kernels.
 *
 * int8: inputs (minus the zero point) beyond +-input_range_radius saturate;
 * the rest are scaled into Q4.27 by (input_multiplier, input_left_shift)
 * and evaluated in gemmlowp-style fixed point; output scale 1/128, zero
 * point 0.
 * The converter does this for each of the 256 inputs (ta_sigmoid_s8.h);
 * the kernel looks the outputs up (params other than size unused).
 * int16: input * input_multiplier >> input_left_shift (rounded) puts the
 * input on scale 1/(3 * 4096); tanh(x) = 2 * sigmoid(2x) - 1 is
 * interpolated in the sigmoid table; output scale 2^-15.
 *
 * Per element: safe to run with output == input.
 */
#ifndef TA_TANH_H
#define TA_TANH_H

#include <stdint.h>

#include "ta_sigmoid_params.h"

typedef ta_sigmoid_params_t ta_tanh_params_t;

/* table: the 256 outputs, from ta_sigmoid_s8_element (ta_sigmoid_s8.h). */
int ta_tanh_s8(const ta_tanh_params_t *p, const int8_t *input, const int8_t *table, int8_t *output);
int ta_tanh_s16(const ta_tanh_params_t *p, const int16_t *input, int16_t *output);

#endif /* TA_TANH_H */
