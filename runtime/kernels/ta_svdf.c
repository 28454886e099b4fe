/* ta_svdf.c - SVDF kernels; see the header. */
#include "ta_svdf.h"

#include "../include/ta_matmul_simd.h"
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

/* Drops the oldest value of every state row: the whole state moves one
   element towards its start (each row's last value is then rewritten). A
   forward copy, so overlapping is safe chunk by chunk. */
static void shift_state(void *state, size_t elements, size_t element_size)
{
    if (elements < 2)
        return;
    uint8_t *dst = (uint8_t *)state;
    const uint8_t *src = dst + element_size;
    size_t bytes = (elements - 1) * element_size;
#if defined(TA_MM_MVE)
    for (; bytes >= 16; bytes -= 16, src += 16, dst += 16)
        vstrbq_u8(dst, vldrbq_u8(src));
    if (bytes) {
        const mve_pred16_t p = vctp8q((uint32_t)bytes);
        vstrbq_p_u8(dst, vldrbq_z_u8(src, p), p);
    }
#else
    memmove(dst, src, bytes);
#endif
}

/* Feature values of filters f0 .. f0 + count - 1 (count <= 4): the dot
   products with the input (its zero point folded into feature_biases),
   requantized and clamped to the state's range. */
static void features(const ta_svdf_params_t *p, const int8_t *in, const int8_t *weights_feature,
                     const int32_t *feature_biases, int32_t f0, int32_t count, int32_t lo,
                     int32_t hi, int32_t out[4])
{
    const int32_t n = p->input_size;
    const int8_t *w = weights_feature + (size_t)f0 * (size_t)n;
    if (count == 4) {
        memcpy(out, feature_biases + f0, 4 * sizeof *out);
        ta_mm_dot4_s8(out, w, n, in, n);
    } else {
        for (int32_t k = 0; k < count; k++)
            out[k] = ta_mm_dot1_s8(feature_biases[f0 + k], w + (size_t)k * (size_t)n, in, n);
    }
    for (int32_t k = 0; k < count; k++)
        out[k] = ta_clamp_i32(ta_mm_mul_q(out[k], p->feature_multiplier, p->feature_shift),
                              lo, hi);
}

static int8_t output_value(const ta_svdf_params_t *p, int32_t acc)
{
    const int32_t out = ta_mm_mul_q(acc, p->output_multiplier, p->output_shift) +
                        p->output_zero_point;
    return (int8_t)ta_clamp_i32(out, INT8_MIN, INT8_MAX);
}

int ta_svdf_s8(const ta_svdf_params_t *p, const int8_t *input, const int8_t *weights_feature,
               const int8_t *weights_time, const int32_t *feature_biases,
               const int32_t *output_biases, int8_t *state, int8_t *output)
{
    const int32_t mem = p->memory, filters = p->filters;
    shift_state(state, (size_t)p->batches * (size_t)filters * (size_t)mem, sizeof *state);
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in = input + (size_t)b * (size_t)p->input_size;
        int8_t *rows = state + (size_t)b * (size_t)filters * (size_t)mem;
        int8_t *out = output + (size_t)b * (size_t)(filters / p->rank);
        int32_t acc = 0;
        for (int32_t f0 = 0; f0 < filters; f0 += 4) {
            int32_t x[4];
            const int32_t count = filters - f0 < 4 ? filters - f0 : 4;
            features(p, in, weights_feature, feature_biases, f0, count, INT8_MIN, INT8_MAX, x);
            for (int32_t k = 0; k < count; k++) {
                const int32_t f = f0 + k;
                int8_t *row = rows + (size_t)f * (size_t)mem;
                row[mem - 1] = (int8_t)wrap_s8(p->state_zero_point + x[k]);
                /* The state zero point is folded into output_biases. */
                acc = ta_mm_dot1_s8(acc, weights_time + (size_t)f * (size_t)mem, row, mem);
                if ((f + 1) % p->rank == 0) {
                    const int32_t u = f / p->rank;
                    out[u] = output_value(p, (int32_t)((uint32_t)acc + (uint32_t)output_biases[u]));
                    acc = 0;
                }
            }
        }
    }
    return TA_OK;
}

int ta_svdf_s16(const ta_svdf_params_t *p, const int8_t *input, const int8_t *weights_feature,
                const int16_t *weights_time, const int32_t *feature_biases,
                const int32_t *output_biases, int16_t *state, int8_t *output)
{
    const int32_t mem = p->memory, filters = p->filters;
    shift_state(state, (size_t)p->batches * (size_t)filters * (size_t)mem, sizeof *state);
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in = input + (size_t)b * (size_t)p->input_size;
        int16_t *rows = state + (size_t)b * (size_t)filters * (size_t)mem;
        int8_t *out = output + (size_t)b * (size_t)(filters / p->rank);
        int32_t acc = 0;
        for (int32_t f0 = 0; f0 < filters; f0 += 4) {
            int32_t x[4];
            const int32_t count = filters - f0 < 4 ? filters - f0 : 4;
            features(p, in, weights_feature, feature_biases, f0, count, INT16_MIN, INT16_MAX, x);
            for (int32_t k = 0; k < count; k++) {
                const int32_t f = f0 + k;
                int16_t *row = rows + (size_t)f * (size_t)mem;
                row[mem - 1] = (int16_t)wrap_s16(p->state_zero_point + x[k]);
                acc = ta_mm_dot1_s16(acc, weights_time + (size_t)f * (size_t)mem, row, mem);
                if ((f + 1) % p->rank == 0) {
                    const int32_t u = f / p->rank;
                    out[u] = output_value(p, (int32_t)((uint32_t)acc + (uint32_t)output_biases[u]));
                    acc = 0;
                }
            }
        }
    }
    return TA_OK;
}
