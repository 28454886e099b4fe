/*
 * ta_signal_rfft_dsp.h - the int16 FFT's radix-2 and radix-4 butterflies
 * and the real split with the DSP extension (SIMD32: Cortex-M4/M7/M33/M55)
 * (ta_signal_rfft_dsp.c), called by ta_signal_rfft.c. Not a kernel.
 *
 * A complex value is one word, real part in the low half: KISS FFT's
 * rounded Q15 products are one SMLABB/SMLATB (scaling) or SMLSD/SMLADX
 * (complex product) each, its wrapping int16 sums are SADD16/SSUB16, so
 * every value is the portable path's to the bit.
 */
#ifndef TA_SIGNAL_RFFT_DSP_H
#define TA_SIGNAL_RFFT_DSP_H

#include <stdint.h>

#if defined(__ARM_FEATURE_DSP) && !defined(TA_NO_SIMD)
#define TA_SIGNAL_RFFT_DSP 1

void ta_signal_rfft_radix2_dsp(int16_t *f, const int16_t *tw, int32_t stride, int32_t m);
void ta_signal_rfft_radix4_dsp(int16_t *f, const int16_t *tw, int32_t stride, int32_t m,
                               int inverse);
/* The real spectrum of n bins plus one from the packed transform work. */
void ta_signal_rfft_split_dsp(int32_t n, const int16_t *work, const int16_t *super_tw,
                              int16_t *out);
#endif

#endif /* TA_SIGNAL_RFFT_DSP_H */
