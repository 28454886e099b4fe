/* ta_log_softmax_f32.c - float32 LOG_SOFTMAX; see the header. */
#include "ta_log_softmax_f32.h"

#include "../include/ta_status.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

int ta_log_softmax_f32(const ta_log_softmax_f32_params_t *p, const float *input, float *output)
{
    const size_t depth = (size_t)p->depth;
    for (int32_t i = 0; i < p->outer_size; i++) {
        const float *x = input + (size_t)i * depth;
        float *y = output + (size_t)i * depth;
        float max = -FLT_MAX;
        for (size_t c = 0; c < depth; c++)
            max = max < x[c] ? x[c] : max;
        float sum = 0.0f;
        for (size_t c = 0; c < depth; c++)
            sum += expf(x[c] - max);
        /* sum is 0 only when every input is -inf; logf(0) is then -inf, a
           pole error C defines, as the reference's std::log gives. */
        // cppcheck-suppress invalidFunctionArg
        const float log_sum = logf(sum);
        for (size_t c = 0; c < depth; c++)
            y[c] = x[c] - max - log_sum;
    }
    return TA_OK;
}
