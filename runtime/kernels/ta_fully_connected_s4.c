/* ta_fully_connected_s4.c - FULLY_CONNECTED, packed int4 weights; see the header. */
#include "ta_fully_connected_s4.h"

#include "../include/ta_quant.h"
#include "../include/ta_s4.h"
#include "../include/ta_status.h"

#include <stddef.h>

int ta_fully_connected_s4(const ta_fully_connected_s4_params_t *p, const int8_t *input,
                          const int8_t *weights, const int32_t *bias_sum,
                          const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    const int32_t depth = p->accum_depth, rows = p->output_depth;
    const size_t stride = (size_t)ta_s4_row_bytes(depth);
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in = input + (size_t)b * (size_t)depth;
        int8_t *out = output + (size_t)b * (size_t)rows;
        for (int32_t o = 0; o < rows; o++) {
            const int32_t acc = ta_dot_s4(bias_sum ? bias_sum[o] : 0, in,
                                          weights + (size_t)o * stride, depth);
            const int32_t m = multipliers ? multipliers[o] : p->multiplier;
            const int32_t s = shifts ? shifts[o] : p->shift;
            const int32_t v = ta_mul_by_quantized_multiplier(acc, m, s) + p->output_offset;
            out[o] = (int8_t)ta_clamp_i32(v, p->activation_min, p->activation_max);
        }
    }
    return TA_OK;
}
