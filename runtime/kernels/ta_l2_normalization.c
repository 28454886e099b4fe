/* ta_l2_normalization.c - see the header. */
#include "ta_l2_normalization.h"

#include "../include/ta_inv_sqrt.h"
#include "../include/ta_status.h"

enum { OUTPUT_SHIFT = 7 }; /* outputs in 1/128 steps */

int ta_l2_normalization_s8(const ta_l2_normalization_params_t *p, const int8_t *input,
                           int8_t *output)
{
    for (int32_t r = 0; r < p->rows; r++) {
        const int8_t *in = input + r * p->depth;
        /* At most 255^2 per element: int32 holds 2^15 of them. */
        int32_t sum = 0;
        for (int32_t c = 0; c < p->depth; c++) {
            const int32_t d = in[c] - p->input_zero_point;
            sum += d * d;
        }
        int32_t multiplier;
        int shift;
        ta_inv_sqrt_multiplier(sum, &multiplier, &shift);
        for (int32_t c = 0; c < p->depth; c++) {
            const int32_t d = in[c] - p->input_zero_point;
            const int32_t out = ta_mul_by_quantized_multiplier(d, multiplier, shift + OUTPUT_SHIFT);
            output[r * p->depth + c] = (int8_t)ta_clamp_i32(out, INT8_MIN, INT8_MAX);
        }
    }
    return TA_OK;
}
