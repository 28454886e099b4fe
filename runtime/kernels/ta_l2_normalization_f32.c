/* ta_l2_normalization_f32.c - see the header. */
#include "ta_l2_normalization_f32.h"

#include "../include/ta_status.h"

#include <math.h>

int ta_l2_normalization_f32(const ta_l2_normalization_params_t *p, const float *input,
                            float *output)
{
    const float epsilon = 1e-6f; /* TFLite Micro's */
    for (int32_t r = 0; r < p->rows; r++) {
        const float *in = input + r * p->depth;
        float sum = 0.0f;
        for (int32_t c = 0; c < p->depth; c++)
            sum += in[c] * in[c];
        float norm = sqrtf(sum);
        norm = norm < epsilon ? epsilon : norm;
        for (int32_t c = 0; c < p->depth; c++)
            output[r * p->depth + c] = in[c] / norm;
    }
    return TA_OK;
}
