/*
 * ta_signal_rfft.h - the Signal library's int16 real FFT (SignalRfft with
 * T = int16), bit-exact with TFLite Micro, which runs KISS FFT in 16-bit
 * fixed point: each frame of input_length samples, zero-padded to
 * fft_length, is packed as fft_length / 2 complex values (even samples
 * real, odd imaginary), transformed by a mixed-radix (4, 2, 3, 5)
 * decimation-in-time FFT that divides by the radix at every stage, then
 * split into the fft_length / 2 + 1 bins of the real spectrum (with one
 * more halving). Output: interleaved (re, im) int16 per bin.
 *
 * The converter computes the factorisation and both twiddle tables exactly
 * as KISS FFT's setup does (in double, rounded to Q15), so the kernel only
 * runs the butterflies. Stage s has radix[s] and span[s] (the length of
 * each sub-transform it combines); the last span is 1.
 */
#ifndef TA_SIGNAL_RFFT_H
#define TA_SIGNAL_RFFT_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_SIGNAL_RFFT_MAX_STAGES 16

#define TA_SIGNAL_RFFT_PARAMS(FIELD, ARRAY, ARRAY_USED)                 \
    FIELD(int32_t, fft_length)                                          \
    FIELD(int32_t, input_length) /* samples per frame, <= fft_length */ \
    FIELD(int32_t, frames)                                              \
    FIELD(int32_t, stages)                                              \
    ARRAY_USED(int32_t, radix, TA_SIGNAL_RFFT_MAX_STAGES, stages)       \
    ARRAY_USED(int32_t, span, TA_SIGNAL_RFFT_MAX_STAGES, stages)
typedef struct {
    TA_PARAM_MEMBERS(TA_SIGNAL_RFFT_PARAMS)
} ta_signal_rfft_params_t;

/* twiddles: fft_length / 2 complex Q15 (re, im) pairs of the complex FFT;
   super_twiddles: fft_length / 4 pairs of the real split; work:
   fft_length int16 of scratch. */
int ta_signal_rfft_s16(const ta_signal_rfft_params_t *p, const int16_t *input,
                       const int16_t *twiddles, const int16_t *super_twiddles, void *work,
                       int16_t *output);

#endif /* TA_SIGNAL_RFFT_H */
