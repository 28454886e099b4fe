/* ta_svdf_f32.c - float32 SVDF; see the header. */
#include "ta_svdf_f32.h"

#include <math.h>
#include <stddef.h>

#include "../include/ta_status.h"

static float max_f32(float a, float b)
{
    return a < b ? b : a; /* std::max(a, b) */
}

static float min_f32(float a, float b)
{
    return b < a ? b : a; /* std::min(a, b) */
}

static float activate(int32_t activation, float x)
{
    switch (activation) {
    case TA_SVDF_F32_RELU: return max_f32(0.0f, x);
    case TA_SVDF_F32_RELU_N1_TO_1: return max_f32(-1.0f, min_f32(x, 1.0f));
    case TA_SVDF_F32_RELU6: return max_f32(0.0f, min_f32(x, 6.0f));
    case TA_SVDF_F32_TANH: return tanhf(x);
    case TA_SVDF_F32_SIGN_BIT: return signbit(x) ? 1.0f : 0.0f;
    default: return x;
    }
}

int ta_svdf_f32(const ta_svdf_f32_params_t *p, const float *input, const float *weights_feature,
                const float *weights_time, const float *bias, float *state, void *scratch,
                float *output)
{
    const size_t batches = (size_t)p->batches, depth = (size_t)p->input_size;
    const size_t filters = (size_t)p->filters, memory = (size_t)p->memory;
    const size_t rank = (size_t)p->rank, units = filters / rank;
    float *sums = (float *)scratch;
    const size_t state_size = batches * filters * memory;
    for (size_t i = 0; i + 1 < state_size; i++)
        state[i] = state[i + 1];
    for (size_t b = 0; b < batches; b++) {
        for (size_t f = 0; f < filters; f++) {
            float dot = 0.0f;
            for (size_t k = 0; k < depth; k++)
                dot += weights_feature[f * depth + k] * input[b * depth + k];
            state[(b * filters + f) * memory + memory - 1] = dot;
        }
    }
    for (size_t b = 0; b < batches; b++) {
        for (size_t f = 0; f < filters; f++) {
            float *sum = &sums[b * filters + f];
            *sum = 0.0f;
            for (size_t m = 0; m < memory; m++)
                *sum += weights_time[f * memory + m] * state[(b * filters + f) * memory + m];
        }
    }
    for (size_t b = 0; b < batches; b++) {
        for (size_t u = 0; u < units; u++) {
            float *o = &output[b * units + u];
            *o = bias ? bias[u] : 0.0f;
            for (size_t r = 0; r < rank; r++)
                *o += sums[b * filters + u * rank + r];
        }
    }
    for (size_t i = 0; i < batches * units; i++)
        output[i] = activate(p->activation, output[i]);
    return TA_OK;
}
