/* ta_signal_spectrum.c - window, FFT auto-scale and energy; see the header. */
#include "ta_signal_spectrum.h"

#include "../include/ta_status.h"

#include "ta_signal_math.h"
#include "ta_signal_spectrum_mve.h"

#if defined(__ARM_FEATURE_DSP) && !defined(TA_NO_SIMD)
#define TA_SIGNAL_SPECTRUM_DSP 1
#include <arm_acle.h>
#include <string.h>

/* Two int16 at any 2-byte aligned address as one word. */
static inline int32_t pair(const int16_t *p)
{
    int32_t v;
    memcpy(&v, p, 4);
    return v;
}
#endif

/* One windowed sample: the product shifted, saturated to int16. */
static inline int16_t windowed(int32_t sample, int32_t weight, int32_t shift)
{
    const int32_t v = (sample * weight) >> shift;
    return (int16_t)(v < INT16_MIN ? INT16_MIN : (v > INT16_MAX ? INT16_MAX : v));
}

int ta_signal_window_i16(const ta_signal_window_params_t *p, const int16_t *input,
                         const int16_t *window, int16_t *output)
{
    const int32_t size = p->window_size, shift = p->shift; /* not reread after each store */
    for (int32_t start = 0; start < p->count; start += size) {
        const int16_t *in = input + start;
        int16_t *out = output + start;
        int32_t i = 0;
#if defined(TA_SIGNAL_SPECTRUM_DSP)
        for (; i + 2 <= size; i += 2) {
            const int32_t x = pair(in + i), w = pair(window + i);
            /* SMULBB and SMULTT (GCC's ACLE names neither) */
            const int32_t lo = __ssat(((int16_t)x * (int16_t)w) >> shift, 16);
            const int32_t hi = __ssat(((x >> 16) * (w >> 16)) >> shift, 16);
            uint32_t both; /* PKHBT (gcc's ACLE lacks it; it would mask and OR) */
            __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(both) : "r"(lo), "r"(hi));
            memcpy(out + i, &both, 4);
        }
#endif
        for (; i < size; i++)
            out[i] = windowed(in[i], window[i], shift);
    }
    return TA_OK;
}

/* The library's MaxAbs16: the largest magnitude kept in an int16, so
   -32768 stays -32768 and, widened to uint32, leaves no headroom; a later
   sample above it then takes its place, sign and all. Sample by sample. */
static int16_t max_abs_in_order(const int16_t *input, int32_t count)
{
    int16_t max = 0;
    for (int32_t i = 0; i < count; i++) {
        const int32_t v = input[i];
        if (v > max)
            max = (int16_t)v;
        else if (-v > max)
            max = ta_signal_wrap16(-v);
    }
    return max;
}

/* max_abs_in_order from the input's largest and smallest values when no
   sample is -32768 (then it is the largest magnitude, or 0). */
static int16_t max_abs(const int16_t *input, int32_t count)
{
    int32_t hi = 0, lo = 0, i = 0;
#if defined(TA_SIGNAL_SPECTRUM_MVE)
    ta_signal_extremes_s16_mve(input, count, &hi, &lo);
    i = count;
#elif defined(TA_SIGNAL_SPECTRUM_DSP)
    /* two lanes a word: SSUB16 sets each lane's GE flags, SEL keeps the
       larger (smaller) of each pair */
    int32_t whi = 0, wlo = 0;
    for (; i + 2 <= count; i += 2) {
        const int32_t x = pair(input + i);
        (void)__ssub16(x, whi);
        whi = (int32_t)__sel((uint32_t)x, (uint32_t)whi);
        (void)__ssub16(wlo, x);
        wlo = (int32_t)__sel((uint32_t)x, (uint32_t)wlo);
    }
    hi = (int16_t)whi > (whi >> 16) ? (int16_t)whi : whi >> 16;
    lo = (int16_t)wlo < (wlo >> 16) ? (int16_t)wlo : wlo >> 16;
#endif
    for (; i < count; i++) {
        hi = input[i] > hi ? input[i] : hi;
        lo = input[i] < lo ? input[i] : lo;
    }
    if (lo == INT16_MIN)
        return max_abs_in_order(input, count);
    return (int16_t)(hi > -lo ? hi : -lo);
}

int ta_signal_fft_auto_scale_i16(const ta_signal_fft_auto_scale_params_t *p, const int16_t *input,
                                 int16_t *output, int32_t *scale_bits)
{
    const int32_t count = p->count;
    const int16_t max = max_abs(input, count);
    int32_t bits = 16 - (int32_t)ta_signal_msb32((uint32_t)(int32_t)max) - 1;
    if (bits < 0)
        bits = 0;
    /* Each sample shifted left, wrapping to int16: none wraps unless a
       -32768 made MaxAbs16 smaller than the largest magnitude. */
    int32_t i = 0;
#if defined(TA_SIGNAL_SPECTRUM_MVE)
    ta_signal_shift_left_s16_mve(input, output, count, bits);
    i = count;
#elif defined(TA_SIGNAL_SPECTRUM_DSP)
    /* the word shifted, the low lane's bits kept from it and the high
       lane's from the word with its low lane cleared */
    for (; i + 2 <= count; i += 2) {
        const uint32_t x = (uint32_t)pair(input + i);
        const uint32_t both = ((x << bits) & 0xFFFFu) | ((x & 0xFFFF0000u) << bits);
        memcpy(output + i, &both, 4);
    }
#endif
    for (; i < count; i++)
        output[i] = ta_signal_wrap16((int32_t)((uint32_t)(int32_t)input[i] << bits));
    *scale_bits = bits;
    return TA_OK;
}

int ta_signal_energy_i16(const ta_signal_energy_params_t *p, const int16_t *input, uint32_t *output)
{
    const int32_t start = p->start_index < p->count ? p->start_index : p->count;
    const int32_t end = p->end_index < p->count ? p->end_index : p->count;
    int32_t i = 0;
    for (; i < start; i++)
        output[i] = 0;
    for (; i < end; i++) {
        /* Each square fits int32; their sum may not (2^31), so it wraps
           in uint32 as the library's int32 sum does (and SMUAD's). */
#if defined(TA_SIGNAL_SPECTRUM_DSP)
        const int32_t x = pair(input + 2 * i);
        output[i] = (uint32_t)__smuad(x, x);
#else
        const int32_t re = input[2 * i], im = input[2 * i + 1];
        output[i] = (uint32_t)(re * re) + (uint32_t)(im * im);
#endif
    }
    for (; i < p->count; i++)
        output[i] = 0;
    return TA_OK;
}
