/* ta_fully_connected_f32.c - float32 FULLY_CONNECTED; see the header. */
#include "ta_fully_connected_f32.h"

#include "../include/ta_float.h"
#include "../include/ta_status.h"

#include <stddef.h>

int ta_fully_connected_f32(const ta_fully_connected_f32_params_t *p, const float *input,
                           const float *weights, const float *bias, float *output)
{
    const size_t depth = (size_t)p->accum_depth;
    for (int32_t b = 0; b < p->batches; b++) {
        const float *in = input + (size_t)b * depth;
        for (int32_t o = 0; o < p->output_depth; o++) {
            const float *w = weights + (size_t)o * depth;
            float total = 0.0f;
            for (size_t d = 0; d < depth; d++)
                total += in[d] * w[d];
            const float bias_value = bias ? bias[o] : 0.0f;
            output[(size_t)b * (size_t)p->output_depth + (size_t)o] = ta_activation_f32(
                total + bias_value, p->activation_min, p->activation_max);
        }
    }
    return TA_OK;
}
