/*
 * ta_signal_noise.h - the Signal library's noise reduction and gain
 * control (TFLite Micro's signal/src filter_bank_spectral_subtraction.cc
 * and pcan_argc_fixed.cc), bit-exact:
 *   spectral subtraction: a per-channel noise estimate, smoothed over
 *     runs (state that persists between runs, zero after model_init as
 *     after TFLite Micro's Prepare/Reset), subtracted from the signal
 *     and floored at min_signal_remaining of it; even channels use
 *     (smoothing, one_minus_smoothing), odd ones the alternates; the
 *     estimate is also an output;
 *   PCAN: per-channel automatic gain from the noise estimate through a
 *     piecewise-quadratic gain table (3 coefficients per octave of the
 *     estimate, 125 entries), then the signal-to-noise shrink.
 */
#ifndef TA_SIGNAL_NOISE_H
#define TA_SIGNAL_NOISE_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_SIGNAL_SPECTRAL_SUBTRACTION_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, num_channels)                                        \
    FIELD(uint32_t, smoothing)                                          \
    FIELD(uint32_t, one_minus_smoothing)                                \
    FIELD(uint32_t, alternate_smoothing)                                \
    FIELD(uint32_t, alternate_one_minus_smoothing)                      \
    FIELD(uint32_t, min_signal_remaining)                               \
    FIELD(int32_t, smoothing_bits)            /* 0 to 31 */             \
    FIELD(int32_t, spectral_subtraction_bits) /* 0 to 63 */             \
    FIELD(int32_t, clamping)                  /* 1: the estimate never exceeds the signal */
typedef struct {
    TA_PARAM_MEMBERS(TA_SIGNAL_SPECTRAL_SUBTRACTION_PARAMS)
} ta_signal_spectral_subtraction_params_t;

#define TA_SIGNAL_PCAN_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, count)                               \
    FIELD(int32_t, snr_shift) /* 0 to 63 */
typedef struct {
    TA_PARAM_MEMBERS(TA_SIGNAL_PCAN_PARAMS)
} ta_signal_pcan_params_t;

/* noise_state: num_channels uint32 of persistent state. */
int ta_signal_spectral_subtraction_u32(const ta_signal_spectral_subtraction_params_t *p,
                                       const uint32_t *input, uint32_t *noise_state,
                                       uint32_t *output, uint32_t *noise_estimate);
int ta_signal_pcan_u32(const ta_signal_pcan_params_t *p, const uint32_t *input,
                       const uint32_t *noise_estimate, const int16_t *gain_lut, uint32_t *output);

#endif /* TA_SIGNAL_NOISE_H */
