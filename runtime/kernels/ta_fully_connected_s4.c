/* ta_fully_connected_s4.c - FULLY_CONNECTED, packed int4 weights; see the header. */
#include "ta_fully_connected_s4.h"

#include "../include/ta_matmul_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_s4.h"
#include "../include/ta_status.h"

#include <stddef.h>

static int8_t requantize(const ta_fully_connected_s4_params_t *p, const int32_t *multipliers,
                         const int32_t *shifts, int32_t o, int32_t acc)
{
    const int32_t m = multipliers ? multipliers[o] : p->multiplier;
    const int32_t s = shifts ? shifts[o] : p->shift;
    const int32_t v = ta_mul_by_quantized_multiplier(acc, m, s) + p->output_offset;
    return (int8_t)ta_clamp_i32(v, p->activation_min, p->activation_max);
}

/* Channels o to o + 3 (the vector requantization on Helium). */
static void requantize4(const ta_fully_connected_s4_params_t *p, const int32_t *multipliers,
                        const int32_t *shifts, int32_t o, const int32_t acc[4], int8_t *out)
{
    ta_mm_requant_s8(acc, 4, multipliers ? multipliers + o : NULL, shifts ? shifts + o : NULL,
                     p->multiplier, p->shift, p->output_offset, p->activation_min,
                     p->activation_max, out + o);
}

int ta_fully_connected_s4(const ta_fully_connected_s4_params_t *p, const int8_t *input,
                          const int8_t *weights, const int32_t *bias_sum,
                          const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    const int32_t depth = p->accum_depth, rows = p->output_depth;
    const size_t stride = (size_t)ta_s4_row_bytes(depth);
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
            requantize4(p, multipliers, shifts, o, acc, out);
        }
        for (; o < rows; o++)
            out[o] = requantize(
                p, multipliers, shifts, o,
                ta_dot_s4(bias_sum ? bias_sum[o] : 0, in, weights + (size_t)o * stride, depth));
    }
    return TA_OK;
}
