/*
 * ta_conv_2d_s4_simd.h - the inner loops of ta_conv_2d_s4.c over
 * ta_conv_2d_s4.h's layout: Helium (three pixels by two filters a weight
 * load), DSP (two pixels by one filter a weight word, the inputs widened
 * to halfword pairs once per pixel) and portable C, which every other path
 * must equal (integer sums are exact).
 */
#ifndef TA_CONV_2D_S4_SIMD_H
#define TA_CONV_2D_S4_SIMD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../include/ta_matmul_simd.h"
#include "../include/ta_s4.h"
#include "../include/ta_simd.h"

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

#elif defined(TA_S4_DSP)
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

#else
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

#if defined(TA_S4_DSP) && !defined(TA_S4_MVE)
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
#endif

/* The requantization of a group of channels, read once per call. */
typedef struct {
    const int32_t *bias_sum, *multipliers, *shifts; /* NULL: none, per tensor */
    int32_t multiplier, shift, offset, lo, hi;
} ta_conv_2d_s4_out_t;

#if defined(TA_S4_DSP) && !defined(TA_S4_MVE)
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
