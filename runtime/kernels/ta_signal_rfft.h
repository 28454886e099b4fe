/*
 * ta_signal_rfft.h - the Signal library's int16 real FFT and its inverse
 * (SignalRfft and SignalIrfft with T = int16), bit-exact with TFLite
 * Micro, which runs KISS FFT in 16-bit fixed point.
 *
 * Forward: each frame of input_length samples, zero-padded to fft_length,
 * is packed as fft_length / 2 complex values (even samples real, odd
 * imaginary), transformed by a mixed-radix (4, 2, 3, 5) decimation-in-time
 * FFT that divides by the radix at every stage, then split into the
 * fft_length / 2 + 1 bins of the real spectrum (with one more halving).
 * Output: interleaved (re, im) int16 per bin.
 *
 * Inverse: the fft_length / 2 + 1 bins of each frame are folded back into
 * fft_length / 2 complex values (halved), run through the inverse complex
 * FFT (the same stages, conjugate twiddles) and written as fft_length
 * samples.
 *
 * The converter computes the factorisation and both twiddle tables exactly
 * as KISS FFT's setup does (in double, rounded to Q15; conjugated for the
 * inverse), so the kernels only run the butterflies.
 */
#ifndef TA_SIGNAL_RFFT_H
#define TA_SIGNAL_RFFT_H

#include <stdint.h>

#include "ta_signal_fft_params.h"

/* twiddles: fft_length / 2 complex Q15 (re, im) pairs of the complex FFT;
   super_twiddles: fft_length / 4 pairs of the real split; work:
   fft_length int16 of scratch. */
int ta_signal_rfft_i16(const ta_signal_rfft_params_t *p, const int16_t *input,
                       const int16_t *twiddles, const int16_t *super_twiddles, void *work,
                       int16_t *output);
int ta_signal_irfft_i16(const ta_signal_rfft_params_t *p, const int16_t *input,
                        const int16_t *twiddles, const int16_t *super_twiddles, void *work,
                        int16_t *output);

#endif /* TA_SIGNAL_RFFT_H */
