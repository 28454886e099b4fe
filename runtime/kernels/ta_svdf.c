/* ta_svdf.c - SVDF kernels; see the header. */
#include "ta_svdf.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include <stddef.h>
#include <string.h>

/* The low 8 / 16 bits as a signed value: C's conversion of an out-of-range
   value is implementation-defined, so spell out the two's complement wrap
   TFLite's int8 store relies on. */
static int32_t wrap_s8(int32_t v)
{
    const int32_t u = (int32_t)((uint32_t)v & 0xFFu);
    return u < 128 ? u : u - 256;
}

static int32_t wrap_s16(int32_t v)
{
    const int32_t u = (int32_t)((uint32_t)v & 0xFFFFu);
    return u < 32768 ? u : u - 65536;
}

static int32_t feature_dot(const ta_svdf_params_t *p, const int8_t *input, const int8_t *w)
{
    uint32_t acc = 0;
    for (int32_t c = 0; c < p->input_size; c++)
        acc += (uint32_t)((int32_t)w[c] * ((int32_t)input[c] - p->input_zero_point));
    return ta_mul_by_quantized_multiplier((int32_t)acc, p->feature_multiplier,
                                          (int)p->feature_shift);
}

static int8_t output_value(const ta_svdf_params_t *p, uint32_t acc)
{
    const int32_t out = ta_mul_by_quantized_multiplier((int32_t)acc, p->output_multiplier,
                                                       (int)p->output_shift) +
                        p->output_zero_point;
    return (int8_t)ta_clamp_i32(out, INT8_MIN, INT8_MAX);
}

/* One body for both state types: T the state and weights_time type,
   LO/HI its range, WRAP its store. */
#define TA_SVDF_BODY(T, LO, HI, WRAP)                                                      \
    const int32_t mem = p->memory;                                                         \
    const size_t state_len = (size_t)p->batches * (size_t)p->filters * (size_t)mem;        \
    if (state_len > 1)                                                                     \
        memmove(state, state + 1, (state_len - 1) * sizeof(T));                            \
    const int32_t units = p->filters / p->rank;                                            \
    for (int32_t b = 0; b < p->batches; b++) {                                             \
        const int8_t *in = input + (size_t)b * (size_t)p->input_size;                      \
        for (int32_t u = 0; u < units; u++) {                                              \
            uint32_t acc = bias ? (uint32_t)bias[u] : 0u;                                  \
            for (int32_t r = 0; r < p->rank; r++) {                                        \
                const int32_t f = u * p->rank + r;                                         \
                T *row = state + ((size_t)b * (size_t)p->filters + (size_t)f) * (size_t)mem; \
                const int32_t x = ta_clamp_i32(                                            \
                    feature_dot(p, in, weights_feature + (size_t)f * (size_t)p->input_size), \
                    LO, HI);                                                               \
                row[mem - 1] = (T)WRAP(p->state_zero_point + x);                           \
                const T *wt = weights_time + (size_t)f * (size_t)mem;                      \
                for (int32_t m = 0; m < mem; m++)                                          \
                    acc += (uint32_t)((int32_t)wt[m] *                                     \
                                      ((int32_t)row[m] - p->state_zero_point));            \
            }                                                                              \
            output[(size_t)b * (size_t)units + (size_t)u] = output_value(p, acc);          \
        }                                                                                  \
    }                                                                                      \
    return TA_OK;

int ta_svdf_s8(const ta_svdf_params_t *p, const int8_t *input, const int8_t *weights_feature,
               const int8_t *weights_time, const int32_t *bias, int8_t *state, int8_t *output)
{
    TA_SVDF_BODY(int8_t, INT8_MIN, INT8_MAX, wrap_s8)
}

int ta_svdf_s16(const ta_svdf_params_t *p, const int8_t *input, const int8_t *weights_feature,
                const int16_t *weights_time, const int32_t *bias, int16_t *state,
                int8_t *output)
{
    TA_SVDF_BODY(int16_t, INT16_MIN, INT16_MAX, wrap_s16)
}
