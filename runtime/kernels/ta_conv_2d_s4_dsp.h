/*
 * ta_conv_2d_s4_dsp.h - ta_conv_2d_s4.c's inner loops on DSP cores
 * (Cortex-M4/M7/M33, no Helium): two pixels by one filter a weight word,
 * the windows widened to halfword pairs once per pixel, and the
 * requantization.
 */
#ifndef TA_CONV_2D_S4_DSP_H
#define TA_CONV_2D_S4_DSP_H

#include "ta_conv_2d_s4_pixels.h"

#include "../include/ta_quant.h"
#include "../include/ta_simd.h"

#if defined(TA_S4_DSP) && !defined(TA_S4_MVE)
/* One packed word (its low nibbles meet the widened input pair words x
   lo_e/lo_o, its high ones hi_e/hi_o) of one filter for two pixels. */
/* clang-format off */
#define TA_S4_WIDE_WORD(wk, lo, hi)                                            \
    "   ldr      %[v], [%[w], #" #wk "]\n"                                      \
    "   ldrd     %[e], %[o], [%[x], #" #lo "]\n"                                \
    "   and      %[t], %[m], %[v]\n"                                            \
    "   smlad    %[a0], %[t], %[e], %[a0]\n"                                    \
    "   ldrd     %[e2], %[o2], [%[x], #512 + " #lo "]\n"                        \
    "   smlad    %[a1], %[t], %[e2], %[a1]\n"                                   \
    "   and      %[t], %[m], %[v], lsr #8\n"                                    \
    "   smlad    %[a0], %[t], %[o], %[a0]\n"                                    \
    "   smlad    %[a1], %[t], %[o2], %[a1]\n"                                   \
    "   ldrd     %[e], %[o], [%[x], #" #hi "]\n"                                \
    "   and      %[t], %[m], %[v], lsr #4\n"                                    \
    "   smlad    %[a0], %[t], %[e], %[a0]\n"                                    \
    "   ldrd     %[e2], %[o2], [%[x], #512 + " #hi "]\n"                        \
    "   smlad    %[a1], %[t], %[e2], %[a1]\n"                                   \
    "   and      %[t], %[m], %[v], lsr #12\n"                                   \
    "   smlad    %[a0], %[t], %[o], %[a0]\n"                                    \
    "   smlad    %[a1], %[t], %[o2], %[a1]\n"
/* clang-format on */

/* One filter (w; steps 64 bytes apart) by two pixels widened at x and
   x + 512 bytes, over `steps` whole steps (32 values, 64 widened bytes):
   68 instructions per 64 MACs. */
static inline void ta_conv_2d_s4_filter2_dsp(const uint8_t *w, const uint32_t *x, int32_t steps,
                                             int32_t *s0, int32_t *s1)
{
    int32_t a0 = 0, a1 = 0;
    uint32_t v, t, e, o, e2, o2;
    const uint32_t m = 0x000F000Fu;
    /* clang-format off */
    __asm volatile(
        "1:\n" TA_S4_WIDE_WORD(0, 0, 32) TA_S4_WIDE_WORD(4, 8, 40) TA_S4_WIDE_WORD(8, 16, 48)
        TA_S4_WIDE_WORD(12, 24, 56)
        "   adds     %[x], %[x], #64\n"
        "   adds     %[w], %[w], #64\n"
        "   subs     %[c], %[c], #1\n"
        "   bne      1b\n"
        : [a0] "+r"(a0), [a1] "+r"(a1), [x] "+r"(x), [w] "+r"(w), [c] "+r"(steps),
          [v] "=&r"(v), [t] "=&r"(t), [e] "=&r"(e), [o] "=&r"(o), [e2] "=&r"(e2), [o2] "=&r"(o2)
        : [m] "r"(m)
        : "cc", "memory");
    /* clang-format on */
    *s0 = a0;
    *s1 = a1;
}

/* A last step of at most 16 values (`words` words of low nibbles, 1-4),
   added to *s0 and *s1: the high nibbles meet only zeros. */
static inline void ta_conv_2d_s4_filter2_low_dsp(const uint8_t *w, const uint32_t *x, int32_t words,
                                                 int32_t *s0, int32_t *s1)
{
    int32_t a0 = *s0, a1 = *s1;
    uint32_t v, t, e, o, e2, o2;
    const uint32_t m = 0x000F000Fu;
    /* clang-format off */
    __asm volatile(
        "1: ldr      %[v], [%[w]], #4\n"
        "   ldrd     %[e], %[o], [%[x], #0]\n"
        "   ldrd     %[e2], %[o2], [%[x], #512]\n"
        "   and      %[t], %[m], %[v]\n"
        "   smlad    %[a0], %[t], %[e], %[a0]\n"
        "   smlad    %[a1], %[t], %[e2], %[a1]\n"
        "   and      %[t], %[m], %[v], lsr #8\n"
        "   smlad    %[a0], %[t], %[o], %[a0]\n"
        "   smlad    %[a1], %[t], %[o2], %[a1]\n"
        "   adds     %[x], %[x], #8\n"
        "   subs     %[c], %[c], #1\n"
        "   bne      1b\n"
        : [a0] "+r"(a0), [a1] "+r"(a1), [x] "+r"(x), [w] "+r"(w), [c] "+r"(words),
          [v] "=&r"(v), [t] "=&r"(t), [e] "=&r"(e), [o] "=&r"(o), [e2] "=&r"(e2), [o2] "=&r"(o2)
        : [m] "r"(m)
        : "cc", "memory");
    /* clang-format on */
    *s0 = a0;
    *s1 = a1;
}
#undef TA_S4_WIDE_WORD

static inline void ta_conv_2d_s4_group_sums(const ta_conv_2d_s4_pixels_t *px, const uint8_t *w,
                                            int32_t steps, int32_t filters,
                                            int32_t acc[2][TA_CONV_2D_S4_GROUP])
{
    if (!px->wide_ok) {
        ta_conv_2d_s4_group_sums_c(px, w, steps, filters, acc);
        return;
    }
    /* A last step of at most 16 values reads only its low nibbles. */
    const int32_t r = px->n % 32, low_words = r > 0 && r <= 16 ? (r + 3) / 4 : 0;
    const int32_t full = low_words ? steps - 1 : steps;
    const size_t block_bytes = (size_t)steps * 64u;
    for (int32_t b = 0; b < filters; b += 4, w += block_bytes)
        for (int32_t f = b; f < b + 4; f++) {
            const uint8_t *wf = w + (size_t)(f - b) * 16u;
            acc[0][f] = acc[1][f] = 0;
            if (full > 0)
                ta_conv_2d_s4_filter2_dsp(wf, px->wide[0], full, &acc[0][f], &acc[1][f]);
            if (low_words)
                ta_conv_2d_s4_filter2_low_dsp(wf + (size_t)full * 64u, px->wide[0] + full * 16,
                                              low_words, &acc[0][f], &acc[1][f]);
        }
}

/* Each window widened to halfword pairs (SXTB16 of each word: bytes 0 and
   2, then 1 and 3), zeros to the end of what the sums read: the last
   step whole, or its low words when it holds at most 16 values. */
static inline void ta_conv_2d_s4_prepare(ta_conv_2d_s4_pixels_t *px)
{
    const int32_t n = px->n, r = n % 32;
    const int32_t end = r > 0 && r <= 16 ? n - r + (r + 3) / 4 * 4 : (n + 31) / 32 * 32;
    px->wide_ok = end <= TA_CONV_2D_S4_WIDE_MAX;
    for (int k = 0; k < 2; k++) {
        px->sum[k] = ta_conv_2d_s4_window_sum(px->x[k], n);
        if (!px->wide_ok)
            continue;
        int32_t i = 0;
        for (; i + 4 <= n; i += 4) {
            const uint32_t v = ta_s4_load_u32(px->x[k] + i);
            px->wide[k][i / 2] = __sxtb16(v);
            px->wide[k][i / 2 + 1] = ta_s4_sxtb16_ror8(v);
        }
        for (; i < end; i += 4) {
            uint32_t v = 0;
            if (i < n)
                memcpy(&v, px->x[k] + i, (size_t)(n - i)); /* little-endian: the low bytes */
            px->wide[k][i / 2] = __sxtb16(v);
            px->wide[k][i / 2 + 1] = ta_s4_sxtb16_ror8(v);
        }
    }
}

/* ta_mul_by_quantized_multiplier for a right shift of r1 + 1 (r1 >= 0)
   and a multiplier in [2^30, 2^31), as one 64-bit sum: the doubling high
   multiply's rounding bit (2^30) and the rounding division's half, less
   one for a negative accumulator (its ties round away from zero), both
   added before the one shift by 32 + r1. */
static inline int32_t ta_s4_right(int32_t acc, int32_t multiplier, int32_t r1)
{
    const uint32_t half_less_neg = (1u << r1) - ((uint32_t)acc >> 31);
    const int64_t sum = (int64_t)(((uint64_t)half_less_neg << 31) | 0x40000000u) +
                        (int64_t)acc * multiplier;
    return (int32_t)(sum >> 32) >> r1;
}

/* ta_conv_2d_s4_group_out on DSP cores, out of line (its own registers
   for the constants): channel by channel, its constants once for the two
   pixels; a right shift (the usual case) as one multiply-accumulate
   (ta_s4_right). */
TA_NOINLINE static void ta_conv_2d_s4_group_out_dsp(const ta_conv_2d_s4_out_t *q,
                                                    const ta_conv_2d_s4_pixels_t *px,
                                                    int32_t acc[2][TA_CONV_2D_S4_GROUP], int32_t o,
                                                    int32_t count, int8_t *const out[2])
{
    const uint32_t offset0 = 8u * (uint32_t)px->sum[0], offset1 = 8u * (uint32_t)px->sum[1];
    const int32_t offset = q->offset, lo = q->lo, hi = q->hi;
    int8_t *out0 = out[0] ? out[0] + o : NULL, *out1 = out[1] ? out[1] + o : NULL;
    for (int32_t f = 0; f < count; f++) {
        const int32_t m = q->multipliers ? q->multipliers[o + f] : q->multiplier;
        const int32_t shift = q->shifts ? q->shifts[o + f] : q->shift;
        const uint32_t bias = (uint32_t)(q->bias_sum ? q->bias_sum[o + f] : 0);
        const int32_t a0 = (int32_t)((uint32_t)acc[0][f] - offset0 + bias);
        const int32_t a1 = (int32_t)((uint32_t)acc[1][f] - offset1 + bias);
        int32_t v0, v1;
        if (shift < 0) {
            v0 = ta_s4_right(a0, m, -shift - 1);
            v1 = ta_s4_right(a1, m, -shift - 1);
        } else {
            v0 = ta_mul_by_quantized_multiplier(a0, m, shift);
            v1 = ta_mul_by_quantized_multiplier(a1, m, shift);
        }
        if (out0)
            out0[f] = (int8_t)ta_clamp_i32(v0 + offset, lo, hi);
        if (out1)
            out1[f] = (int8_t)ta_clamp_i32(v1 + offset, lo, hi);
    }
}
#endif

#endif /* TA_CONV_2D_S4_DSP_H */
