/*
 * ta_signal_fft_params.h - the parameters every Signal library FFT kernel
 * takes (SignalRfft and SignalIrfft, int16, int32 and float32): KISS FFT's
 * factorisation of the complex length fft_length / 2, computed by the
 * converter. Stage s has radix[s] and span[s] (the length of each
 * sub-transform it combines); the last span is 1.
 */
#ifndef TA_SIGNAL_FFT_PARAMS_H
#define TA_SIGNAL_FFT_PARAMS_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_SIGNAL_RFFT_MAX_STAGES 16

/* input_length: the forward transform's samples per frame (at most
   fft_length, zero-padded to it); the inverse's values per input frame
   (at least fft_length + 2: the first fft_length / 2 + 1 (re, im) bins
   are read). */
#define TA_SIGNAL_RFFT_PARAMS(FIELD, ARRAY, ARRAY_USED)           \
    FIELD(int32_t, fft_length)                                    \
    FIELD(int32_t, input_length)                                  \
    FIELD(int32_t, frames)                                        \
    FIELD(int32_t, stages)                                        \
    ARRAY_USED(int32_t, radix, TA_SIGNAL_RFFT_MAX_STAGES, stages) \
    ARRAY_USED(int32_t, span, TA_SIGNAL_RFFT_MAX_STAGES, stages)
typedef struct {
    TA_PARAM_MEMBERS(TA_SIGNAL_RFFT_PARAMS)
} ta_signal_rfft_params_t;

#endif /* TA_SIGNAL_FFT_PARAMS_H */
