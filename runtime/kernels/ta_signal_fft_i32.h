/*
 * ta_signal_fft_i32.h - the Signal library's int32 real FFT and its
 * inverse (SignalRfft and SignalIrfft with T = int32), bit-exact with
 * TFLite Micro's KISS FFT in 32-bit fixed point: Q31 twiddles, products
 * in 64 bits rounded back ((a * b + 2^30) >> 31), a division by the radix
 * at every stage, sums kept in int32 (wrapping). The steps are those of
 * the int16 kernels (ta_signal_rfft.h); only the word size differs.
 */
#ifndef TA_SIGNAL_FFT_I32_H
#define TA_SIGNAL_FFT_I32_H

#include <stdint.h>

#include "ta_signal_fft_params.h"

/* twiddles: fft_length / 2 complex Q31 (re, im) pairs; super_twiddles:
   fft_length / 4 pairs; work: fft_length int32 of scratch. */
int ta_signal_rfft_i32(const ta_signal_rfft_params_t *p, const int32_t *input,
                       const int32_t *twiddles, const int32_t *super_twiddles, void *work,
                       int32_t *output);
int ta_signal_irfft_i32(const ta_signal_rfft_params_t *p, const int32_t *input,
                        const int32_t *twiddles, const int32_t *super_twiddles, void *work,
                        int32_t *output);

#endif /* TA_SIGNAL_FFT_I32_H */
