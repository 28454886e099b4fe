/*
 * ta_signal_fft_f32.h - the Signal library's float32 real FFT and its
 * inverse (SignalRfft and SignalIrfft with T = float32), bit-exact with
 * TFLite Micro's KISS FFT in float: the same packing, stages and split as
 * the int16 kernels (ta_signal_rfft.h) without the divisions by the radix
 * (the inverse divides each sample by fft_length at the end instead), every
 * sum and product in float in KISS FFT's order.
 */
#ifndef TA_SIGNAL_FFT_F32_H
#define TA_SIGNAL_FFT_F32_H

#include "ta_signal_fft_params.h"

/* twiddles: fft_length / 2 complex (re, im) pairs; super_twiddles:
   fft_length / 4 pairs; work: fft_length floats of scratch. */
int ta_signal_rfft_f32(const ta_signal_rfft_params_t *p, const float *input, const float *twiddles,
                       const float *super_twiddles, void *work, float *output);
int ta_signal_irfft_f32(const ta_signal_rfft_params_t *p, const float *input, const float *twiddles,
                        const float *super_twiddles, void *work, float *output);

#endif /* TA_SIGNAL_FFT_F32_H */
