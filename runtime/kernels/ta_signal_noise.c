/* ta_signal_noise.c - spectral subtraction and PCAN; see the header. */
#include "ta_signal_noise.h"

#include "../include/ta_status.h"

#include "ta_signal_math.h"

int ta_signal_spectral_subtraction_u32(const ta_signal_spectral_subtraction_params_t *p,
                                       const uint32_t *input, uint32_t *noise_state,
                                       uint32_t *output, uint32_t *noise_estimate)
{
    for (int32_t i = 0; i < p->num_channels; i++) {
        const int odd = i & 1;
        const uint32_t smoothing = odd ? p->alternate_smoothing : p->smoothing;
        const uint32_t keep = odd ? p->alternate_one_minus_smoothing : p->one_minus_smoothing;
        const uint32_t signal = input[i] << p->smoothing_bits;
        noise_state[i] = (uint32_t)(((uint64_t)signal * smoothing +
                                     (uint64_t)noise_state[i] * keep) >>
                                    p->spectral_subtraction_bits);
        uint32_t estimate = noise_state[i];
        if (estimate > signal) {
            estimate = signal;
            if (p->clamping)
                noise_state[i] = estimate;
        }
        const uint32_t floor = (uint32_t)(((uint64_t)input[i] * p->min_signal_remaining) >>
                                          p->spectral_subtraction_bits);
        const uint32_t subtracted = (signal - estimate) >> p->smoothing_bits;
        output[i] = subtracted > floor ? subtracted : floor;
    }
    for (int32_t i = 0; i < p->num_channels; i++)
        noise_estimate[i] = noise_state[i];
    return TA_OK;
}

/* The gain for noise estimate x: lut[x] below 3, else the quadratic of
   x's octave evaluated at x's next 10 bits (the library's
   WideDynamicFunction, its int32 steps done modulo 2^32). */
static int16_t gain_of(uint32_t x, const int16_t *lut)
{
    if (x <= 2)
        return lut[x];
    const int32_t octave = (int32_t)ta_signal_msb32(x);
    const int16_t *c = lut + 4 * octave - 6;
    const int32_t frac = (int32_t)((octave < 11 ? x << (11 - octave) : x >> (octave - 11)) &
                                   0x3FFu);
    uint32_t r = (uint32_t)(((int32_t)c[2] * frac) >> 5);
    r += (uint32_t)c[1] << 5;
    r *= (uint32_t)frac;
    r += 1u << 14;
    const int32_t v = r <= (uint32_t)INT32_MAX ? (int32_t)r
                                               : (int32_t)(r - 0x80000000u) + INT32_MIN;
    return ta_signal_wrap16((v >> 15) + c[0]);
}

/* kPcanSnrBits 12, kPcanOutputBits 6. */
static uint32_t shrink(uint32_t x)
{
    if (x < (2u << 12))
        return (x * x) >> (2 + 2 * 12 - 6);
    return (x >> (12 - 6)) - (1u << 6);
}

int ta_signal_pcan_u32(const ta_signal_pcan_params_t *p, const uint32_t *input,
                       const uint32_t *noise_estimate, const int16_t *gain_lut, uint32_t *output)
{
    for (int32_t i = 0; i < p->count; i++) {
        const uint32_t gain = (uint32_t)(int32_t)gain_of(noise_estimate[i], gain_lut);
        const uint32_t snr = (uint32_t)(((uint64_t)input[i] * gain) >> p->snr_shift);
        output[i] = shrink(snr);
    }
    return TA_OK;
}
