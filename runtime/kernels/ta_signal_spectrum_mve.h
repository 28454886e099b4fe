/*
 * ta_signal_spectrum_mve.h - FFT auto-scale's two passes with Helium (MVE:
 * Cortex-M55/M85) (ta_signal_spectrum_mve.c), called by
 * ta_signal_spectrum.c. Not a kernel.
 */
#ifndef TA_SIGNAL_SPECTRUM_MVE_H
#define TA_SIGNAL_SPECTRUM_MVE_H

#include <stdint.h>

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(TA_NO_SIMD)
#define TA_SIGNAL_SPECTRUM_MVE 1
#endif

/* Both defined where TA_SIGNAL_SPECTRUM_MVE is. *hi = the largest of the
   count samples and 0, *lo = the smallest and 0. */
void ta_signal_extremes_s16_mve(const int16_t *input, int32_t count, int32_t *hi, int32_t *lo);

/* output[i] = input[i] shifted left by bits (0-15), wrapping to int16. */
void ta_signal_shift_left_s16_mve(const int16_t *input, int16_t *output, int32_t count,
                                  int32_t bits);

#endif /* TA_SIGNAL_SPECTRUM_MVE_H */
