/* ta_signal_spectrum.c - window, FFT auto-scale and energy; see the header. */
#include "ta_signal_spectrum.h"

#include "../include/ta_status.h"

#include "ta_signal_math.h"

int ta_signal_window_i16(const ta_signal_window_params_t *p, const int16_t *input,
                         const int16_t *window, int16_t *output)
{
    for (int32_t start = 0; start < p->count; start += p->window_size) {
        for (int32_t i = 0; i < p->window_size; i++) {
            const int32_t v = ((int32_t)input[start + i] * window[i]) >> p->shift;
            output[start + i] = (int16_t)(v < INT16_MIN ? INT16_MIN
                                                        : (v > INT16_MAX ? INT16_MAX : v));
        }
    }
    return TA_OK;
}

int ta_signal_fft_auto_scale_i16(const ta_signal_fft_auto_scale_params_t *p, const int16_t *input,
                                 int16_t *output, int32_t *scale_bits)
{
    /* The library's MaxAbs16 keeps the largest magnitude in an int16, so
       -32768 stays -32768 and, widened to uint32, leaves no headroom. */
    int16_t max = 0;
    for (int32_t i = 0; i < p->count; i++) {
        const int32_t v = input[i];
        if (v > max)
            max = (int16_t)v;
        else if (-v > max)
            max = ta_signal_wrap16(-v);
    }
    int32_t bits = 16 - (int32_t)ta_signal_msb32((uint32_t)(int32_t)max) - 1;
    if (bits < 0)
        bits = 0;
    for (int32_t i = 0; i < p->count; i++)
        output[i] = ta_signal_wrap16((int32_t)((uint32_t)(int32_t)input[i] << bits));
    *scale_bits = bits;
    return TA_OK;
}

int ta_signal_energy_i16(const ta_signal_energy_params_t *p, const int16_t *input, uint32_t *output)
{
    for (int32_t i = 0; i < p->count; i++) {
        if (i < p->start_index || i >= p->end_index) {
            output[i] = 0;
            continue;
        }
        const int32_t re = input[2 * i], im = input[2 * i + 1];
        /* Each square fits int32; their sum may not (2^31), so it wraps
           in uint32 as the library's int32 sum does. */
        output[i] = (uint32_t)(re * re) + (uint32_t)(im * im);
    }
    return TA_OK;
}
