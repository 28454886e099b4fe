/* ta_signal_framing.c - SignalDelay, SignalFramer and SignalStacker; see
 * the header. */
#include "ta_signal_framing.h"

#include <stddef.h>
#include <string.h>

#include "../include/ta_status.h"

static void copy16(int16_t *to, const int16_t *from, int32_t n)
{
    if (n > 0)
        memmove(to, from, sizeof(int16_t) * (size_t)n);
}

int ta_signal_delay_i16(const ta_signal_delay_params_t *p, const int16_t *input, int16_t *state,
                        int16_t *output)
{
    const int32_t size = p->frame_size, delay = p->delay_length;
    for (int32_t r = 0; r < p->rows; r++) {
        const int16_t *in = input + (size_t)r * (size_t)size;
        int16_t *out = output + (size_t)r * (size_t)size;
        int16_t *kept = state + (size_t)r * (size_t)delay;
        if (delay >= size) { /* the frame comes from the state alone */
            copy16(out, kept, size);
            copy16(kept, kept + size, delay - size);
            copy16(kept + delay - size, in, size);
        } else {
            copy16(out, kept, delay);
            copy16(out + delay, in, size - delay);
            copy16(kept, in + size - delay, delay);
        }
    }
    return TA_OK;
}

int ta_signal_framer_i16(const ta_signal_framer_params_t *p, const int16_t *input, int16_t *state,
                         int32_t *held, int16_t *output, bool *valid)
{
    const int32_t size = p->frame_size, step = p->frame_step;
    *valid = true;
    for (int32_t r = 0; r < p->rows; r++) {
        int16_t *buf = state + (size_t)r * (size_t)p->capacity;
        int32_t count = held[r] + p->prefill;
        for (int32_t f = 0; f < p->frames; f++) {
            const size_t frame = (size_t)r * (size_t)p->frames + (size_t)f;
            copy16(buf + count, input + frame * (size_t)step, step);
            count += step;
            if (count >= size) {
                copy16(output + frame * (size_t)size, buf, size);
                copy16(buf, buf + step, count - step);
                count -= step;
            } else {
                *valid = false; /* this frame's output stays as it was */
            }
        }
        held[r] = count - p->prefill;
    }
    return TA_OK;
}

int ta_signal_stacker_i16(const ta_signal_stacker_params_t *p, const int16_t *input, int16_t *state,
                          int32_t *held, int16_t *output, bool *valid)
{
    const int32_t channels = p->channels;
    int32_t count = held[0];
    copy16(state + count, input, channels);
    count += channels;
    if (!held[1]) { /* the first frame also stands for the left context */
        for (int32_t i = 0; i < p->left_context; i++) {
            copy16(state + count, state + count - channels, channels);
            count += channels;
        }
        held[1] = 1;
    }
    *valid = count >= p->window;
    if (*valid) {
        copy16(output, state, p->window);
        copy16(state, state + p->advance, count - p->advance);
        count -= p->advance;
    }
    held[0] = count;
    return TA_OK;
}
