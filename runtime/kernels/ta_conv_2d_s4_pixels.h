/*
 * ta_conv_2d_s4_pixels.h - what the inner loops of ta_conv_2d_s4.c share:
 * the pixels computed together (their windows and sums), the group of
 * output channels summed before requantizing, and the portable sums over
 * ta_conv_2d_s4.h's layout that every other path must equal (integer sums
 * are exact).
 */
#ifndef TA_CONV_2D_S4_PIXELS_H
#define TA_CONV_2D_S4_PIXELS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../include/ta_s4.h"

#if defined(TA_S4_MVE)
#define TA_CONV_2D_S4_PIXELS 3
#else
#define TA_CONV_2D_S4_PIXELS 2
#endif
/* The longest window the DSP path widens (values); longer ones take the
   portable loop. */
#define TA_CONV_2D_S4_WIDE_MAX 256
/* Output channels summed for the pixels before they are requantized. */
#define TA_CONV_2D_S4_GROUP 16

/* The windows of the pixels computed together (n values each, readable
   only up to n) and what is prepared once for all output channels. */
typedef struct {
    const int8_t *x[TA_CONV_2D_S4_PIXELS];
    int32_t n;
    int32_t sum[TA_CONV_2D_S4_PIXELS]; /* each window's sum of inputs */
#if defined(TA_S4_DSP) && !defined(TA_S4_MVE)
    int32_t wide_ok; /* n fits wide[] */
    uint32_t wide[TA_CONV_2D_S4_PIXELS][TA_CONV_2D_S4_WIDE_MAX / 2];
#endif
} ta_conv_2d_s4_pixels_t;

/* The sum of n int8 values. */
static inline int32_t ta_conv_2d_s4_window_sum(const int8_t *x, int32_t n)
{
    int32_t s = 0, i = 0;
#if defined(TA_S4_MVE)
    for (; i < n; i += 16)
        s = vaddvaq_s8(s, vldrbq_z_s8(x + i, vctp8q((uint32_t)(n - i))));
#elif defined(TA_S4_DSP)
    for (; i + 4 <= n; i += 4) {
        const uint32_t v = ta_s4_load_u32(x + i);
        s = __smlad(__sxtb16(v), 0x00010001u, s);
        s = __smlad(ta_s4_sxtb16_ror8(v), 0x00010001u, s);
    }
#endif
    for (; i < n; i++)
        s += x[i];
    return s;
}

/* Portable: acc[k][f] = the sum of x_k[i] * (weight + 8) of `filters`
   filters (whole blocks of four) from the block at w. */
static inline void
ta_conv_2d_s4_group_sums_c(const ta_conv_2d_s4_pixels_t *px, const uint8_t *w, int32_t steps,
                           int32_t filters, int32_t acc[TA_CONV_2D_S4_PIXELS][TA_CONV_2D_S4_GROUP])
{
    /* the sums start from zero (whole blocks: every filter is written) */
    memset(acc, 0, sizeof(int32_t) * TA_CONV_2D_S4_PIXELS * TA_CONV_2D_S4_GROUP);
    for (int32_t f = 0; f < filters; f++) {
        const uint8_t *wf = w + (size_t)(f / 4) * (size_t)steps * 64u + (size_t)(f % 4) * 16u;
        for (int k = 0; k < TA_CONV_2D_S4_PIXELS; k++) {
            int32_t s = 0;
            for (int32_t i = 0; i < px->n; i++) {
                const uint8_t b = wf[(size_t)(i / 32) * 64u + (size_t)(i % 16)];
                s += px->x[k][i] * (int32_t)((i % 32 >= 16 ? b >> 4 : b) & 0xFu);
            }
            acc[k][f] = s;
        }
    }
}

/* The requantization of a group of channels, read once per call. */
typedef struct {
    const int32_t *bias_sum, *multipliers, *shifts; /* NULL: none, per tensor */
    int32_t multiplier, shift, offset, lo, hi;
} ta_conv_2d_s4_out_t;

#endif /* TA_CONV_2D_S4_PIXELS_H */
