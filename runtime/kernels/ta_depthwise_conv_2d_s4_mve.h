/*
 * ta_depthwise_conv_2d_s4_mve.h - Helium inner loops of
 * ta_depthwise_conv_2d_s4.c, depth multiplier 1: per output row and block
 * of 16 channels, the block's packed weights of every tap are unpacked
 * once into int8 on the stack (16 bytes a tap), then each
 * pixel of the row runs the int8 kernel's arithmetic on them: eight
 * channels of input and weights widened to int16 lanes, VMULLB/VMULLT into
 * even and odd int32 accumulators.
 */
#ifndef TA_DEPTHWISE_CONV_2D_S4_MVE_H
#define TA_DEPTHWISE_CONV_2D_S4_MVE_H

#include "ta_depthwise_conv_2d_s4.h"

#include "../include/ta_s4.h"

#if defined(TA_S4_MVE)
#include <arm_mve.h>

#define TA_DW_S4_LANES 16

/* Block c0's weights of one tap from its packed row (n channels; lanes
   past them zero): a byte gather in the nibbles' order (channel k of a
   group is byte k % 4, low nibble for k < 4), the low nibbles shifted up,
   then an arithmetic shift right by 4 sign-extends all. */
static inline void ta_dw_s4_unpack_tap_mve(const int8_t *row, int32_t c0, int32_t n, int8_t *w)
{
    static const uint8_t at[16] = {0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7};
    static const int8_t up[16] = {4, 4, 4, 4, 0, 0, 0, 0, 4, 4, 4, 4, 0, 0, 0, 0};
    /* whole groups of the row: a block of 9-16 channels reads 8 bytes */
    const mve_pred16_t lanes = vctp8q(n > 8 ? 16u : 8u);
    const int8x16_t b = vldrbq_gather_offset_z_s8(row + c0 / 2, vld1q_u8(at), lanes);
    vst1q_s8(w, vshrq_n_s8(vshlq_s8(b, vld1q_s8(up)), 4));
}

/* Accumulators of a block: even and odd channels of 0-7 (e0, o0) and 8-15. */
typedef struct {
    int32x4_t e0, o0, e1, o1;
} ta_dw_s4_acc_t;

/* One tap: x the block's inputs, w its unpacked weights. TAIL: a block
   of n < 16 channels, its loads under a predicate (nothing read past the
   pixel; inactive lanes load zero). */
static inline void ta_dw_s4_tap_mve(ta_dw_s4_acc_t *a, const int8_t *x, const int8_t *w, int tail,
                                    mve_pred16_t p0, mve_pred16_t p1)
{
    int16x8_t xv = tail ? vldrbq_z_s16(x, p0) : vldrbq_s16(x);
    int16x8_t wv = vldrbq_s16(w);
    a->e0 = vaddq_s32(a->e0, vmullbq_int_s16(xv, wv));
    a->o0 = vaddq_s32(a->o0, vmulltq_int_s16(xv, wv));
    xv = tail ? vldrbq_z_s16(x + 8, p1) : vldrbq_s16(x + 8);
    wv = vldrbq_s16(w + 8);
    a->e1 = vaddq_s32(a->e1, vmullbq_int_s16(xv, wv));
    a->o1 = vaddq_s32(a->o1, vmulltq_int_s16(xv, wv));
}

/* A block of n <= 16 channels from c0 on, its weights unpacked once per
   row (16 bytes a tap). */
typedef struct {
    int8_t w[TA_DW_S4_TAPS][TA_DW_S4_LANES];
    const int32_t *bias_sum;
    int32_t c0, n;
} ta_dw_s4_block_t;

static inline void ta_dw_s4_prepare(ta_dw_s4_block_t *b, const int8_t *weights, size_t stride,
                                    int32_t taps, const ta_s4_requant_t *q,
                                    const int32_t *bias_sum, int32_t c0, int32_t n)
{
    (void)q;
    for (int32_t t = 0; t < taps; t++)
        ta_dw_s4_unpack_tap_mve(weights + (size_t)t * stride, c0, n, b->w[t]);
    b->bias_sum = bias_sum;
    b->c0 = c0;
    b->n = n;
}

/* The block's n channels of one pixel: taps at x[t] (the block's first
   channel, or the pad buffer), or at base + off[t] when x is NULL (an
   interior pixel); requantized into out. */
static inline void ta_dw_s4_pixel(const ta_dw_s4_block_t *b, const ta_s4_requant_t *q,
                                  const int8_t *const *x, const int8_t *base,
                                  const ptrdiff_t *off, int32_t taps, int8_t *out)
{
    const int32_t c0 = b->c0, n = b->n;
    const int32_t *bias_sum = b->bias_sum;
    const int8_t *w = b->w[0];
    const int tail = n < TA_DW_S4_LANES;
    const mve_pred16_t p0 = vctp16q((uint32_t)n), p1 = vctp16q(n > 8 ? (uint32_t)(n - 8) : 0u);
    const int32x4_t zero = vdupq_n_s32(0);
    ta_dw_s4_acc_t a = {zero, zero, zero, zero};
    if (x) {
        for (int32_t t = 0; t < taps; t++, w += TA_DW_S4_LANES)
            ta_dw_s4_tap_mve(&a, x[t], w, tail, p0, p1);
    } else if (tail) {
        for (int32_t t = 0; t < taps; t++, w += TA_DW_S4_LANES)
            ta_dw_s4_tap_mve(&a, base + off[t], w, 1, p0, p1);
    } else {
        for (int32_t t = 0; t < taps; t++, w += TA_DW_S4_LANES)
            ta_dw_s4_tap_mve(&a, base + off[t], w, 0, p0, p1);
    }
    /* the channels in order: even and odd lanes interleaved */
    int32_t acc[TA_DW_S4_LANES];
    const int32x4x2_t lo = {{a.e0, a.o0}}, hi = {{a.e1, a.o1}};
    vst2q_s32(acc, lo);
    vst2q_s32(acc + 8, hi);
    for (int32_t k = 0; k < n; k += 4) {
        const mve_pred16_t p = vctp32q((uint32_t)(n - k));
        int32x4_t v = vldrwq_s32(acc + k);
        if (bias_sum)
            v = vaddq_s32(v, vldrwq_z_s32(bias_sum + c0 + k, p));
        const int32_t o = c0 + k;
        v = q->multipliers ? ta_mm_requant_mve(v, vldrwq_z_s32(q->multipliers + o, p),
                                               vldrwq_z_s32(q->shifts + o, p))
            : q->shift >= 0 ? ta_mm_requant_left_mve(v, q->multiplier, q->shift)
                            : ta_mm_requant_right_mve(v, q->multiplier, q->shift);
        v = vminq_s32(vmaxq_s32(vaddq_n_s32(v, q->offset), vdupq_n_s32(q->lo)),
                      vdupq_n_s32(q->hi));
        vstrbq_p_s32(out + o, v, p);
    }
}
#endif

#endif /* TA_DEPTHWISE_CONV_2D_S4_MVE_H */
