/* ta_cumsum.c - see the header. */
#include "ta_cumsum.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

enum { INTEGER_SHIFT = 20 }; /* TFLite's kCumSumIntegerShift */

static int32_t scaled_input(const ta_cumsum_params_t *p, int32_t value)
{
    return ta_mul_by_quantized_multiplier_lt_one(value * (1 << INTEGER_SHIFT), p->input_multiplier,
                                                 p->input_shift);
}

int ta_cumsum_s8(const ta_cumsum_params_t *p, const int8_t *input, int8_t *output)
{
    const int32_t step = p->reverse ? -p->inner : p->inner;
    const int32_t first = p->reverse ? (p->depth - 1) * p->inner : 0;
    for (int32_t o = 0; o < p->outer; o++) {
        for (int32_t i = 0; i < p->inner; i++) {
            int32_t index = o * p->depth * p->inner + first + i;
            int32_t sum = scaled_input(p, p->input_offset);
            for (int32_t d = 0; d < p->depth; d++, index += step) {
                const int32_t y = scaled_input(p, p->input_offset + input[index]);
                const int32_t before = sum;
                sum = (int32_t)((uint32_t)sum + (uint32_t)y); /* wraps as TFLite */
                const int32_t total = p->exclusive ? before : sum;
                const int32_t out = ta_mul_by_quantized_multiplier_lt_one(
                                        total, p->output_multiplier, p->output_shift) +
                                    p->output_zero_point;
                output[index] = (int8_t)ta_clamp_i32(out, INT8_MIN, INT8_MAX);
            }
        }
    }
    return TA_OK;
}
