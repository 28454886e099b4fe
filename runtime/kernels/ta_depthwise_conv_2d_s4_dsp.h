/*
 * ta_depthwise_conv_2d_s4_dsp.h - DSP (SIMD32) inner loops of
 * ta_depthwise_conv_2d_s4.c, depth multiplier 1: per output row and block
 * of 4 channels, the block's packed weights of every tap are unpacked once
 * onto the stack as two words of halfword pairs, 16 times each value
 * (channels 0, 2 and 1, 3: the pairs SXTB16 makes of the input word); each
 * pixel of the row then takes one word of input a tap and SMLABB/SMLATT
 * accumulate every channel in its own register, 16 times its sum, shifted
 * right by 4 at the end (exact: every product is a multiple of 16).
 */
#ifndef TA_DEPTHWISE_CONV_2D_S4_DSP_H
#define TA_DEPTHWISE_CONV_2D_S4_DSP_H

#include "ta_depthwise_conv_2d_s4.h"

#include "../include/ta_s4.h"

#if defined(TA_S4_DSP) && !defined(TA_S4_MVE)
#include <string.h>

#define TA_DW_S4_LANES 4

/* A block of n <= 4 channels from c0 on, prepared once per row: per tap
   two words of weight pairs; each channel's requantization taken apart
   (ta_mm_requant_prepare) and its bias sum. */
typedef struct {
    uint32_t w[TA_DW_S4_TAPS][2];
    ta_mm_requant_t rq[4];
    int32_t bias[4], c0, n;
} ta_dw_s4_block_t;

/* Channels c0..c0 + 3 of a tap (c0 a multiple of 4) are the low nibbles
   of a group's four bytes (c0 % 8 == 0) or its high ones, masked into the
   high half of each byte (16 * value); channels past the depth are the
   zero nibbles that pad the last group. */
static inline void ta_dw_s4_prepare(ta_dw_s4_block_t *b, const int8_t *weights, size_t stride,
                                    int32_t taps, const ta_s4_requant_t *q,
                                    const int32_t *bias_sum, int32_t c0, int32_t n)
{
    for (int32_t t = 0; t < taps; t++) {
        const uint32_t word = ta_s4_load_u32(weights + (size_t)t * stride + c0 / 8 * 4);
        const uint32_t nib = (c0 & 4 ? word : word << 4) & 0xF0F0F0F0u;
        b->w[t][0] = __sxtb16(nib);
        b->w[t][1] = ta_s4_sxtb16_ror8(nib);
    }
    for (int32_t k = 0; k < n; k++) {
        const int32_t o = c0 + k;
        b->rq[k] = ta_mm_requant_prepare(q->multipliers ? q->multipliers[o] : q->multiplier,
                                         q->shifts ? q->shifts[o] : q->shift);
        b->bias[k] = bias_sum ? bias_sum[o] : 0;
    }
    b->c0 = c0;
    b->n = n;
}

/* The block's channels of one pixel: taps at x[t] (the block's first
   channel, or the pad buffer), or at base + off[t] when x is NULL (an
   interior pixel); requantized into out. A block of n < 4 channels loads
   its input bytewise (nothing read past the pixel). */
static inline void ta_dw_s4_pixel(const ta_dw_s4_block_t *b, const ta_s4_requant_t *q,
                                  const int8_t *const *x, const int8_t *base,
                                  const ptrdiff_t *off, int32_t taps, int8_t *out)
{
    int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    const int32_t n = b->n;
    for (int32_t t = 0; t < taps; t++) {
        const int8_t *xt = x ? x[t] : base + off[t];
        uint32_t xv = 0;
        if (n < 4)
            memcpy(&xv, xt, (size_t)n);
        else
            xv = ta_s4_load_u32(xt);
        const int32_t we = (int32_t)b->w[t][0], wo = (int32_t)b->w[t][1];
        const uint32_t x02 = __sxtb16(xv), x13 = ta_s4_sxtb16_ror8(xv);
        a0 = __smlabb((int32_t)x02, we, a0);
        a2 = __smlatt((int32_t)x02, we, a2);
        a1 = __smlabb((int32_t)x13, wo, a1);
        a3 = __smlatt((int32_t)x13, wo, a3);
    }
    const int32_t acc[4] = {a0 >> 4, a1 >> 4, a2 >> 4, a3 >> 4};
    for (int32_t k = 0; k < n; k++) {
        const int32_t v = ta_mm_requant(&b->rq[k], (int32_t)((uint32_t)acc[k] +
                                                             (uint32_t)b->bias[k])) +
                          q->offset;
        out[b->c0 + k] = (int8_t)ta_clamp_i32(v, q->lo, q->hi);
    }
}
#endif

#endif /* TA_DEPTHWISE_CONV_2D_S4_DSP_H */
