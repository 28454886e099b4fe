/* ta_fully_connected.c - FULLY_CONNECTED kernels; see the header. */
#include "ta_fully_connected.h"

#include "../include/ta_quant.h"
#include "../include/ta_simd.h"
#include "../include/ta_status.h"

#include <stddef.h>

enum { BLOCK = 16 };

int ta_fully_connected_s8(const ta_fully_connected_params_t *p, const int8_t *input,
                          const int8_t *weights, const int32_t *bias_sum,
                          const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    const int32_t depth = p->accum_depth;
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in = input + (size_t)b * (size_t)depth;
        for (int32_t o0 = 0; o0 < p->output_depth; o0 += BLOCK) {
            const int32_t n = p->output_depth - o0 < BLOCK ? p->output_depth - o0 : BLOCK;
            int32_t acc[BLOCK];
            for (int32_t k = 0; k < n; k++)
                acc[k] = bias_sum ? bias_sum[o0 + k] : 0;
            int32_t k = 0;
            /* Four rows of weights share each load of the input. */
            for (; k + 4 <= n; k += 4) {
                const int8_t *w = weights + (size_t)(o0 + k) * (size_t)depth;
                ta_dot4_s8(acc + k, w, w + depth, w + 2 * (size_t)depth, w + 3 * (size_t)depth,
                           in, depth);
            }
            for (; k < n; k++)
                acc[k] = ta_dot_s8(acc[k], weights + (size_t)(o0 + k) * (size_t)depth, in, depth);
            ta_requantize_s8(acc, n, multipliers ? multipliers + o0 : NULL,
                             shifts ? shifts + o0 : NULL, p->multiplier, p->shift,
                             p->output_offset, p->activation_min, p->activation_max,
                             output + (size_t)b * (size_t)p->output_depth + (size_t)o0);
        }
    }
    return TA_OK;
}

int ta_fully_connected_s16(const ta_fully_connected_params_t *p, const int16_t *input,
                           const int8_t *weights, const int64_t *bias_sum,
                           const int32_t *multipliers, const int32_t *shifts, int16_t *output)
{
    const int32_t depth = p->accum_depth;
    for (int32_t b = 0; b < p->batches; b++) {
        const int16_t *in = input + (size_t)b * (size_t)depth;
        for (int32_t o = 0; o < p->output_depth; o++) {
            const int8_t *w = weights + (size_t)o * (size_t)depth;
            const int64_t acc = ta_dot_s16_s8(bias_sum ? bias_sum[o] : 0, in, w, depth);
            const int32_t m = multipliers ? multipliers[o] : p->multiplier;
            const int32_t s = shifts ? shifts[o] : p->shift;
            int32_t out = ta_mul_by_quantized_multiplier_64(acc, m, (int)s) + p->output_offset;
            out = ta_clamp_i32(out, p->activation_min, p->activation_max);
            output[(size_t)b * (size_t)p->output_depth + (size_t)o] = (int16_t)out;
        }
    }
    return TA_OK;
}

int ta_fully_connected_s16_acc32(const ta_fully_connected_params_t *p, const int16_t *input,
                                 const int8_t *weights, const int32_t *bias_sum,
                                 const int32_t *multipliers, const int32_t *shifts,
                                 int16_t *output)
{
    const int32_t depth = p->accum_depth;
    for (int32_t b = 0; b < p->batches; b++) {
        const int16_t *in = input + (size_t)b * (size_t)depth;
        for (int32_t o = 0; o < p->output_depth; o++) {
            const int8_t *w = weights + (size_t)o * (size_t)depth;
            const int32_t acc = ta_dot_s16_s8_32(bias_sum ? bias_sum[o] : 0, in, w, depth);
            const int32_t m = multipliers ? multipliers[o] : p->multiplier;
            const int32_t s = shifts ? shifts[o] : p->shift;
            int32_t out = ta_mul_by_quantized_multiplier(acc, m, (int)s) + p->output_offset;
            out = ta_clamp_i32(out, p->activation_min, p->activation_max);
            output[(size_t)b * (size_t)p->output_depth + (size_t)o] = (int16_t)out;
        }
    }
    return TA_OK;
}
