/* ta_cumsum_f32.c - see the header. */
#include "ta_cumsum_f32.h"

#include "../include/ta_status.h"

int ta_cumsum_f32(const ta_cumsum_params_t *p, const float *input, float *output)
{
    const int32_t step = p->reverse ? -p->inner : p->inner;
    const int32_t first = p->reverse ? (p->depth - 1) * p->inner : 0;
    for (int32_t o = 0; o < p->outer; o++) {
        for (int32_t i = 0; i < p->inner; i++) {
            int32_t index = o * p->depth * p->inner + first + i;
            float sum = 0.0f;
            for (int32_t d = 0; d < p->depth; d++, index += step) {
                const float before = sum;
                sum += input[index];
                output[index] = p->exclusive ? before : sum;
            }
        }
    }
    return TA_OK;
}
