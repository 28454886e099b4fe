/* ta_signal_overlap_add.c - SignalOverlapAdd; see the header. */
#include "ta_signal_overlap_add.h"

#include <stddef.h>
#include <string.h>

#include "../include/ta_status.h"

int ta_signal_overlap_add_i16(const ta_signal_overlap_add_params_t *p, const int16_t *input,
                              int16_t *state, int16_t *output)
{
    const int32_t size = p->frame_size, step = p->frame_step;
    for (int32_t r = 0; r < p->rows; r++) {
        int16_t *buf = state + (size_t)r * (size_t)size;
        for (int32_t f = 0; f < p->frames; f++) {
            const size_t frame = (size_t)r * (size_t)p->frames + (size_t)f;
            const int16_t *in = input + frame * (size_t)size;
            for (int32_t i = 0; i < size; i++) {
                const int32_t sum = (int32_t)in[i] + buf[i];
                buf[i] = (int16_t)(sum < INT16_MIN ? INT16_MIN : sum > INT16_MAX ? INT16_MAX : sum);
            }
            memcpy(output + frame * (size_t)step, buf, sizeof(int16_t) * (size_t)step);
            memmove(buf, buf + step, sizeof(int16_t) * (size_t)(size - step));
            memset(buf + size - step, 0, sizeof(int16_t) * (size_t)step);
        }
    }
    return TA_OK;
}

int ta_signal_overlap_add_f32(const ta_signal_overlap_add_params_t *p, const float *input,
                              float *state, float *output)
{
    const int32_t size = p->frame_size, step = p->frame_step;
    for (int32_t r = 0; r < p->rows; r++) {
        float *buf = state + (size_t)r * (size_t)size;
        for (int32_t f = 0; f < p->frames; f++) {
            const size_t frame = (size_t)r * (size_t)p->frames + (size_t)f;
            const float *in = input + frame * (size_t)size;
            for (int32_t i = 0; i < size; i++)
                buf[i] += in[i];
            memcpy(output + frame * (size_t)step, buf, sizeof(float) * (size_t)step);
            memmove(buf, buf + step, sizeof(float) * (size_t)(size - step));
            for (int32_t i = size - step; i < size; i++)
                buf[i] = 0.0f; /* memset's all-zero bytes: +0.0f */
        }
    }
    return TA_OK;
}
