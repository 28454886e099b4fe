/*
 * ta_conv_2d_s4_mve.h - ta_conv_2d_s4.c's inner loops on Helium (MVE):
 * three pixels by two filters a weight load, a 16-byte load, VAND and
 * VSHR giving 32 weights plus 8 for two contiguous input loads.
 */
#ifndef TA_CONV_2D_S4_MVE_H
#define TA_CONV_2D_S4_MVE_H

#include "ta_conv_2d_s4_pixels.h"

#include "../include/ta_simd.h"

#if defined(TA_S4_MVE)
/* Two filters (w, w + 16; steps 64 bytes apart) by three pixels over
   `steps` whole steps: a0..a2 filter one, b0..b2 filter two. One weight
   load, an AND and a shift give a filter's 32 weights plus 8. */
static inline void ta_conv_2d_s4_pair3_mve(const uint8_t *w, const int8_t *x0, const int8_t *x1,
                                           const int8_t *x2, int32_t steps, int32_t *a, int32_t *b)
{
    int32_t a0 = 0, a1 = 0, a2 = 0, b0 = 0, b1 = 0, b2 = 0;
    /* clang-format off */
    __asm volatile("   vmov.i8     q5, #15\n"
                   "   dls         lr, %[c]\n"
                   "1: vldrb.8     q0, [%[w], #16]\n"
                   "   vand        q1, q0, q5\n"
                   "   vshr.u8     q0, q0, #4\n"
                   "   vldrb.8     q2, [%[w]], #64\n"
                   "   vand        q3, q2, q5\n"
                   "   vshr.u8     q2, q2, #4\n"
                   "   vldrb.8     q4, [%[x0]], #16\n"
                   "   vmladava.s8 %[a0], q3, q4\n"
                   "   vmladava.s8 %[b0], q1, q4\n"
                   "   vldrb.8     q4, [%[x0]], #16\n"
                   "   vmladava.s8 %[a0], q2, q4\n"
                   "   vmladava.s8 %[b0], q0, q4\n"
                   "   vldrb.8     q4, [%[x1]], #16\n"
                   "   vmladava.s8 %[a1], q3, q4\n"
                   "   vmladava.s8 %[b1], q1, q4\n"
                   "   vldrb.8     q4, [%[x1]], #16\n"
                   "   vmladava.s8 %[a1], q2, q4\n"
                   "   vmladava.s8 %[b1], q0, q4\n"
                   "   vldrb.8     q4, [%[x2]], #16\n"
                   "   vmladava.s8 %[a2], q3, q4\n"
                   "   vmladava.s8 %[b2], q1, q4\n"
                   "   vldrb.8     q4, [%[x2]], #16\n"
                   "   vmladava.s8 %[a2], q2, q4\n"
                   "   vmladava.s8 %[b2], q0, q4\n"
                   "   le          lr, 1b\n"
                   : [a0] "+Te"(a0), [a1] "+Te"(a1), [a2] "+Te"(a2), [b0] "+Te"(b0),
                     [b1] "+Te"(b1), [b2] "+Te"(b2), [x0] "+r"(x0), [x1] "+r"(x1),
                     [x2] "+r"(x2), [w] "+r"(w)
                   : [c] "r"(steps)
                   : "q0", "q1", "q2", "q3", "q4", "q5", "lr", "memory");
    /* clang-format on */
    a[0] = a0, a[TA_CONV_2D_S4_GROUP] = a1, a[2 * TA_CONV_2D_S4_GROUP] = a2;
    b[0] = b0, b[TA_CONV_2D_S4_GROUP] = b1, b[2 * TA_CONV_2D_S4_GROUP] = b2;
}

/* One filter's last step (wl: weights j, wh: 16 + j, plus 8) by three
   pixels' tails (x: values 0-15, y: 16-31) into acc[.][f], from zero or
   added. */
#define TA_S4_TAIL_LO(init, k) vmladavaq_s8(init, wl, x##k)
#define TA_S4_TAIL_HI(init, k) vmladavaq_s8(vmladavaq_s8(init, wl, x##k), wh, y##k)
#define TA_S4_TAIL_LOOP(TERM, FROM_ZERO)                                   \
    for (int32_t b = 0; b < filters; b += 4, w += block_bytes) {           \
        const uint8_t *wf = w;                                             \
        for (int32_t f = b; f < b + 4; f++, wf += 16) {                    \
            const uint8x16_t raw = vldrbq_u8(wf);                          \
            const int8x16_t wl = vreinterpretq_s8_u8(vandq_u8(raw, mask)); \
            const int8x16_t wh = vreinterpretq_s8_u8(vshrq_n_u8(raw, 4));  \
            (void)wh;                                                      \
            acc[0][f] = TERM(FROM_ZERO ? 0 : acc[0][f], 0);                \
            acc[1][f] = TERM(FROM_ZERO ? 0 : acc[1][f], 1);                \
            acc[2][f] = TERM(FROM_ZERO ? 0 : acc[2][f], 2);                \
        }                                                                  \
    }

/* acc[k][f] (from zero, or added to) += the last step (r values, 1..31)
   of `filters` filters (whole blocks of four, block_bytes apart) for
   three pixels, whose tails are loaded once with zeroing loads that read
   nothing past r. */
static inline void ta_conv_2d_s4_tail3_mve(const uint8_t *w, size_t block_bytes,
                                           const int8_t *const x[3], int32_t r, int32_t filters,
                                           int32_t acc[3][TA_CONV_2D_S4_GROUP], int from_zero)
{
    const uint8x16_t mask = vdupq_n_u8(15);
    const mve_pred16_t lo = vctp8q((uint32_t)r);
    const int8x16_t x0 = vldrbq_z_s8(x[0], lo), x1 = vldrbq_z_s8(x[1], lo);
    const int8x16_t x2 = vldrbq_z_s8(x[2], lo);
    if (r <= 16) {
        if (from_zero)
            TA_S4_TAIL_LOOP(TA_S4_TAIL_LO, 1)
        else
            TA_S4_TAIL_LOOP(TA_S4_TAIL_LO, 0)
        return;
    }
    const mve_pred16_t hi = vctp8q((uint32_t)(r - 16));
    const int8x16_t y0 = vldrbq_z_s8(x[0] + 16, hi), y1 = vldrbq_z_s8(x[1] + 16, hi);
    const int8x16_t y2 = vldrbq_z_s8(x[2] + 16, hi);
    if (from_zero)
        TA_S4_TAIL_LOOP(TA_S4_TAIL_HI, 1)
    else
        TA_S4_TAIL_LOOP(TA_S4_TAIL_HI, 0)
}
#undef TA_S4_TAIL_LOOP
#undef TA_S4_TAIL_HI
#undef TA_S4_TAIL_LO

/* acc[k][f] = the sums of x_k by (weight + 8) of `filters` filters (a
   multiple of four) from the block at w. */
static inline void ta_conv_2d_s4_group_sums(const ta_conv_2d_s4_pixels_t *px, const uint8_t *w,
                                            int32_t steps, int32_t filters,
                                            int32_t acc[3][TA_CONV_2D_S4_GROUP])
{
    const int32_t whole = px->n / 32, r = px->n % 32;
    const size_t block_bytes = (size_t)steps * 64u;
    for (int32_t f = 0; f < filters; f += 2) {
        const uint8_t *wf = w + (size_t)(f / 4) * block_bytes + (size_t)(f % 4) * 16u;
        if (whole > 0)
            ta_conv_2d_s4_pair3_mve(wf, px->x[0], px->x[1], px->x[2], whole, &acc[0][f],
                                    &acc[0][f + 1]);
    }
    if (r > 0) {
        const size_t at = (size_t)whole * 32u;
        const int8_t *const tail[3] = {px->x[0] + at, px->x[1] + at, px->x[2] + at};
        ta_conv_2d_s4_tail3_mve(w + (size_t)whole * 64u, block_bytes, tail, r, filters, acc,
                                whole == 0);
    }
}

static inline void ta_conv_2d_s4_prepare(ta_conv_2d_s4_pixels_t *px)
{
    for (int k = 0; k < 3; k++)
        px->sum[k] = ta_conv_2d_s4_window_sum(px->x[k], px->n);
}

/* ta_conv_2d_s4_group_out on Helium: four channels a vector, their
   constants once for the three pixels, the last block stored predicated. */
static inline void ta_conv_2d_s4_group_out_mve(const ta_conv_2d_s4_out_t *q,
                                               const ta_conv_2d_s4_pixels_t *px,
                                               int32_t acc[3][TA_CONV_2D_S4_GROUP], int32_t o,
                                               int32_t count, int8_t *const out[3])
{
    const int32x4_t lov = vdupq_n_s32(q->lo), hiv = vdupq_n_s32(q->hi), zero = vdupq_n_s32(0);
    for (int32_t f = 0; f < count; f += 4) {
        const mve_pred16_t lanes = vctp32q((uint32_t)(count - f));
        const int32x4_t bias = q->bias_sum ? vldrwq_z_s32(q->bias_sum + o + f, lanes) : zero;
        const int32x4_t m = q->multipliers ? vldrwq_z_s32(q->multipliers + o + f, lanes)
                                           : vdupq_n_s32(q->multiplier);
        const int32x4_t s = q->shifts ? vldrwq_z_s32(q->shifts + o + f, lanes)
                                      : vdupq_n_s32(q->shift);
        const int32x4_t left = vmaxq_s32(s, zero), neg_right = vminq_s32(s, zero);
        for (int k = 0; k < TA_CONV_2D_S4_PIXELS; k++) {
            if (!out[k])
                continue;
            const int32x4_t a = vsubq_s32(vaddq_s32(vldrwq_s32(&acc[k][f]), bias),
                                          vdupq_n_s32(8 * px->sum[k]));
            const int32x4_t v = ta_mul_by_quantized_multiplier_split_mve(a, m, left, neg_right);
            vstrbq_p_s32(out[k] + o + f, vminq_s32(vmaxq_s32(vaddq_n_s32(v, q->offset), lov), hiv),
                         lanes);
        }
    }
}
#endif

#endif /* TA_CONV_2D_S4_MVE_H */
