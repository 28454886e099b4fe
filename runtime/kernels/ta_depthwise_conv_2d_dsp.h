/*
 * ta_depthwise_conv_2d_dsp.h - the int8 depthwise paths with the DSP
 * extension (SIMD32: Cortex-M4/M7/M33)
 * (ta_depthwise_conv_2d_dsp.c), called by the dispatch of
 * ta_depthwise_conv_2d.c. Not kernels: the lowerings call those.
 */
#ifndef TA_DEPTHWISE_CONV_2D_DSP_H
#define TA_DEPTHWISE_CONV_2D_DSP_H

#include <stdint.h>

#include "ta_depthwise_conv_2d.h"

/* Depth multiplier 1 (ta_depthwise_conv_2d_s8). */
void ta_depthwise_conv_2d_s8_m1_dsp(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                                    const int8_t *weights, const int32_t *bias_sum,
                                    const int32_t *bias, const int32_t *multipliers,
                                    const int32_t *shifts, int8_t *output);

/* Depth multiplier 1 for the layers ta_depthwise_conv_2d_s8_m1_fast accepts. */
void ta_depthwise_conv_2d_s8_m1_fast_dsp(const ta_depthwise_conv_2d_params_t *p,
                                         const int8_t *input, const int8_t *weights,
                                         const int32_t *bias_sum, const int32_t *bias,
                                         const int32_t *multipliers, const int32_t *shifts,
                                         int8_t *output);

/* Depth multiplier > 1 (bias_sum unused: only the taps inside the input run). */
void ta_depthwise_conv_2d_s8_multiplier_dsp(const ta_depthwise_conv_2d_params_t *p,
                                            const int8_t *input, const int8_t *weights,
                                            const int32_t *bias, const int32_t *multipliers,
                                            const int32_t *shifts, int8_t *output);

#endif /* TA_DEPTHWISE_CONV_2D_DSP_H */
