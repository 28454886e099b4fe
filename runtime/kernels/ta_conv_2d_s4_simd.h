/*
 * ta_conv_2d_s4_simd.h - the inner loops of ta_conv_2d_s4.c over
 * ta_conv_2d_s4.h's layout, one per core: Helium (ta_conv_2d_s4_mve.h),
 * DSP (ta_conv_2d_s4_dsp.h), portable C elsewhere
 * (ta_conv_2d_s4_pixels.h). Each gives ta_conv_2d_s4_prepare,
 * ta_conv_2d_s4_group_sums and ta_conv_2d_s4_group_out.
 */
#ifndef TA_CONV_2D_S4_SIMD_H
#define TA_CONV_2D_S4_SIMD_H

#include "ta_conv_2d_s4_dsp.h"
#include "ta_conv_2d_s4_mve.h"
#include "ta_conv_2d_s4_pixels.h"

#include "../include/ta_matmul_simd.h"

#if !defined(TA_S4_MVE) && !defined(TA_S4_DSP)
static inline void ta_conv_2d_s4_group_sums(const ta_conv_2d_s4_pixels_t *px, const uint8_t *w,
                                            int32_t steps, int32_t filters,
                                            int32_t acc[2][TA_CONV_2D_S4_GROUP])
{
    ta_conv_2d_s4_group_sums_c(px, w, steps, filters, acc);
}

static inline void ta_conv_2d_s4_prepare(ta_conv_2d_s4_pixels_t *px)
{
    for (int k = 0; k < 2; k++)
        px->sum[k] = ta_conv_2d_s4_window_sum(px->x[k], px->n);
}
#endif

/* acc[k][0..count) (channels o..o + count) of each pixel k whose out[k]
   is not NULL: less 8 * its window's sum (the nibbles' offset), plus the
   bias sums, requantized into out[k][o..]. */
static inline void ta_conv_2d_s4_group_out(const ta_conv_2d_s4_out_t *q,
                                           const ta_conv_2d_s4_pixels_t *px,
                                           int32_t acc[TA_CONV_2D_S4_PIXELS][TA_CONV_2D_S4_GROUP],
                                           int32_t o, int32_t count,
                                           int8_t *const out[TA_CONV_2D_S4_PIXELS])
{
#if defined(TA_S4_MVE)
    ta_conv_2d_s4_group_out_mve(q, px, acc, o, count, out);
#elif defined(TA_S4_DSP)
    ta_conv_2d_s4_group_out_dsp(q, px, acc, o, count, out);
#else
    for (int k = 0; k < TA_CONV_2D_S4_PIXELS; k++) {
        if (!out[k])
            continue;
        const uint32_t offset8 = 8u * (uint32_t)px->sum[k];
        for (int32_t f = 0; f < count; f++)
            acc[k][f] = (int32_t)((uint32_t)acc[k][f] - offset8 +
                                  (uint32_t)(q->bias_sum ? q->bias_sum[o + f] : 0));
        ta_mm_requant_s8(acc[k], count, q->multipliers ? q->multipliers + o : NULL,
                         q->shifts ? q->shifts + o : NULL, q->multiplier, q->shift, q->offset,
                         q->lo, q->hi, out[k] + o);
    }
#endif
}

#endif /* TA_CONV_2D_S4_SIMD_H */
