/*
 * ta_conv_2d_dsp.h - the int8 CONV_2D paths with the DSP extension (SIMD32:
 * Cortex-M4/M7/M33) (ta_conv_2d_dsp.c), called by the dispatch of
 * ta_conv_2d.c, only with bias_sum, per-channel multipliers and shifts.
 * Not kernels: the lowerings call those.
 */
#ifndef TA_CONV_2D_DSP_H
#define TA_CONV_2D_DSP_H

#include <stddef.h>
#include <stdint.h>

#include "ta_conv_2d.h"
#include "ta_conv_2d_patch.h"

/* Bytes from one pixel's widened input to the next's in the pair loops:
   two per byte of their longest filter (TA_CONV_2D_MAX_PATCH). */
enum { TA_CONV_2D_WIDE_GAP = 2 * TA_CONV_2D_MAX_PATCH };
/* Words of the pair loops' buffer (`wide`): two pixels' widened inputs. */
enum { TA_CONV_2D_WIDE_WORDS = 2 * TA_CONV_2D_WIDE_GAP / 4 };

/* `pixels` output pixels whose taps are each one run of n bytes, x_step
   apart, out_c outputs apart in out; `wide` holds TA_CONV_2D_WIDE_WORDS. */
void ta_conv_2d_run_s8_dsp(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step,
                           int32_t pixels, int32_t n, const int8_t *weights, size_t block_bytes,
                           const int32_t *bias_sum, const int32_t *multipliers,
                           const int32_t *shifts, uint32_t *wide, int8_t *out);

/* Every pixel of one image from im2col patches of `words` words (whole
   chunks, or fewer than four words), gathered into `patch` (zeros past
   the filter); out_c a multiple of four. */
void ta_conv_2d_patch_pairs_s8_dsp(const ta_conv_2d_params_t *p, const int8_t *in_b, int8_t *patch,
                                   uint32_t *wide, int32_t words, const int8_t *weights,
                                   size_t block_bytes, const int32_t *bias_sum,
                                   const int32_t *multipliers, const int32_t *shifts, int8_t *out);

/* Every pixel but the last one or two of one image (input in_b, outputs
   from out) with a long filter and per-channel requantization, three at a
   time: the pixels done. `patch` holds TA_CONV_2D_MAX_PATCH bytes. */
int32_t ta_conv_2d_long_triples_s8_dsp(const ta_conv_2d_params_t *p, const int8_t *in_b,
                                       int8_t *patch, uint32_t *wide, const int8_t *weights,
                                       size_t block_bytes, const int32_t *bias_sum,
                                       const int32_t *multipliers, const int32_t *shifts,
                                       int8_t *out);

#endif /* TA_CONV_2D_DSP_H */
