/*
 * ta_signal_spectrum.h - the Signal library's window, FFT auto-scale and
 * energy operators (TFLite Micro's signal/src window.cc, fft_auto_scale.cc,
 * energy.cc), int16, bit-exact:
 *   window: out = saturate_int16((in * window) >> shift), the window
 *     applied to each window_size-long frame of the input;
 *   FFT auto-scale: every element shifted left by the headroom of the
 *     largest magnitude (0 when it has none), the shift written out;
 *   energy: re^2 + im^2 of each complex element in [start, end), as
 *     uint32; the library leaves the other elements unwritten, tinyaot
 *     writes 0 there (the audio front end slices them away).
 */
#ifndef TA_SIGNAL_SPECTRUM_H
#define TA_SIGNAL_SPECTRUM_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_SIGNAL_WINDOW_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, count)                                 \
    FIELD(int32_t, window_size) /* count is a multiple */ \
    FIELD(int32_t, shift)
typedef struct {
    TA_PARAM_MEMBERS(TA_SIGNAL_WINDOW_PARAMS)
} ta_signal_window_params_t;

#define TA_SIGNAL_FFT_AUTO_SCALE_PARAMS(FIELD, ARRAY, ARRAY_USED) FIELD(int32_t, count)
typedef struct {
    TA_PARAM_MEMBERS(TA_SIGNAL_FFT_AUTO_SCALE_PARAMS)
} ta_signal_fft_auto_scale_params_t;

#define TA_SIGNAL_ENERGY_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, count) /* output elements */           \
    FIELD(int32_t, start_index)                           \
    FIELD(int32_t, end_index)
typedef struct {
    TA_PARAM_MEMBERS(TA_SIGNAL_ENERGY_PARAMS)
} ta_signal_energy_params_t;

int ta_signal_window_i16(const ta_signal_window_params_t *p, const int16_t *input,
                         const int16_t *window, int16_t *output);
int ta_signal_fft_auto_scale_i16(const ta_signal_fft_auto_scale_params_t *p, const int16_t *input,
                                 int16_t *output, int32_t *scale_bits);
/* input: interleaved (re, im) pairs. */
int ta_signal_energy_i16(const ta_signal_energy_params_t *p, const int16_t *input,
                         uint32_t *output);

#endif /* TA_SIGNAL_SPECTRUM_H */
