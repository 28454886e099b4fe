/* ta_fully_connected_s4.c - FULLY_CONNECTED, packed int4 weights; see the header. */
#include "ta_fully_connected_s4.h"

#include "../include/ta_s4.h"
#include "../include/ta_status.h"

#include <stddef.h>

int ta_fully_connected_s4(const ta_fully_connected_s4_params_t *p, const int8_t *input,
                          const int8_t *weights, const int32_t *bias_sum,
                          const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    const int32_t depth = p->accum_depth, rows = p->output_depth;
    const size_t stride = (size_t)ta_s4_row_bytes(depth);
    const ta_s4_requant_t q = {multipliers,      shifts,           p->multiplier,
                               p->shift,         p->output_offset, p->activation_min,
                               p->activation_max};
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in = input + (size_t)b * (size_t)depth;
        int8_t *out = output + (size_t)b * (size_t)rows;
        int32_t o = 0;
        /* Four rows at a time share each input load and unpack. */
        for (; o + 4 <= rows; o += 4) {
            int32_t acc[4];
            for (int r = 0; r < 4; r++)
                acc[r] = bias_sum ? bias_sum[o + r] : 0;
            ta_dot4_s4(acc, in, weights + (size_t)o * stride, stride, depth);
            ta_s4_requantize4(&q, o, acc, out);
        }
        for (; o < rows; o++)
            out[o] = ta_s4_requantize(
                &q, o,
                ta_dot_s4(bias_sum ? bias_sum[o] : 0, in, weights + (size_t)o * stride, depth));
    }
    return TA_OK;
}
