/*
 * ta_transpose_conv.h - TRANSPOSE_CONV, NHWC input and output, OHWI
 * weights [output_depth][kh][kw][input_depth].
 *
 * TFLite scatters every input pixel into an output-sized accumulator
 * buffer. These kernels gather instead: output (y, x) receives input
 * (iy, ix) through tap (ky, kx) when y = iy * stride_h - pad_top + ky (same
 * for x), so each output element sums over the taps with (y + pad_top - ky)
 * divisible by the stride. The sums are the same integers, in another
 * order, and no accumulator buffer is needed.
 *
 * The input zero point cannot be folded into a per-channel sum here (which
 * taps contribute depends on the position), so the int8 kernel adds
 * input_offset to each input value, as TFLite does.
 */
#ifndef TA_TRANSPOSE_CONV_H
#define TA_TRANSPOSE_CONV_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_TRANSPOSE_CONV_PARAMS(FIELD, ARRAY, ARRAY_USED)            \
    TA_WINDOW_INPUT_FIELDS(FIELD)                                     \
    TA_WINDOW_OUTPUT_FIELDS(FIELD)                                    \
    FIELD(int32_t, stride_height)                                     \
    FIELD(int32_t, stride_width)                                      \
    FIELD(int32_t, pad_top)                                           \
    FIELD(int32_t, pad_left)                                          \
    FIELD(int32_t, input_offset) /* -input zero point; 0 for int16 */ \
    TA_REQUANT_FIELDS(FIELD)                                          \
    TA_ACTIVATION_FIELDS(FIELD, int32_t)
typedef struct {
    TA_PARAM_MEMBERS(TA_TRANSPOSE_CONV_PARAMS)
} ta_transpose_conv_params_t;

/* int8 input and output, int8 weights, int32 bias and accumulator.
   `multipliers` and `shifts` are per output channel, or NULL. */
int ta_transpose_conv_s8(const ta_transpose_conv_params_t *p, const int8_t *input,
                         const int8_t *weights, const int32_t *bias, const int32_t *multipliers,
                         const int32_t *shifts, int8_t *output);

/* int16 input and output (zero points 0), int8 weights, int64 bias and
   accumulator. */
int ta_transpose_conv_s16(const ta_transpose_conv_params_t *p, const int16_t *input,
                          const int8_t *weights, const int64_t *bias, const int32_t *multipliers,
                          const int32_t *shifts, int16_t *output);

#endif /* TA_TRANSPOSE_CONV_H */
