/* ta_softmax_f32.c - float32 SOFTMAX; see the header. */
#include "ta_softmax_f32.h"

#include "../include/ta_status.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

int ta_softmax_f32(const ta_softmax_f32_params_t *p, const float *input, float *output)
{
    const size_t depth = (size_t)p->depth;
    for (int32_t i = 0; i < p->outer_size; i++) {
        const float *x = input + (size_t)i * depth;
        float *y = output + (size_t)i * depth;
        float max = -FLT_MAX;
        for (size_t c = 0; c < depth; c++)
            max = max < x[c] ? x[c] : max;
        float sum = 0.0f;
        for (size_t c = 0; c < depth; c++) {
            const float e = expf((x[c] - max) * p->beta);
            y[c] = e;
            sum += e;
        }
        for (size_t c = 0; c < depth; c++)
            y[c] = y[c] / sum;
    }
    return TA_OK;
}
