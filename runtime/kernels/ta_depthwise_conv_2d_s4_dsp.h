/*
 * ta_depthwise_conv_2d_s4_dsp.h - DSP (SIMD32) inner loops of
 * ta_depthwise_conv_2d_s4.c, depth multiplier 1: per output row and block
 * of 4 channels, the block's packed weights of every tap are unpacked once
 * onto the stack as two words of halfword pairs, twice each value
 * (channels 0, 2 and 1, 3: the pairs SXTB16 makes of the input word); each
 * pixel of the row then takes one word of input a tap and SMLABB/SMLATT
 * accumulate every channel in its own register, twice its sum. When the
 * converter found right shifts only and accumulators below 2^30 they start
 * from twice the bias and the int8 kernel's SMMULR requantization takes
 * them as they are; otherwise they start from zero and are halved.
 */
#ifndef TA_DEPTHWISE_CONV_2D_S4_DSP_H
#define TA_DEPTHWISE_CONV_2D_S4_DSP_H

#include "ta_depthwise_conv_2d_s4.h"
#include "ta_depthwise_conv_2d_s4_walk.h"

#include "../include/ta_s4.h"

#if defined(TA_S4_DSP) && !defined(TA_S4_MVE)
#include "../include/ta_dw_simd.h"

#include <string.h>

#define TA_DW_S4_LANES 4

/* A block of n <= 4 channels from c0 on, its weights unpacked once per
   row: per tap two words of weight pairs. */
typedef struct {
    uint32_t w[TA_DW_S4_TAPS][2];
    const int32_t *bias_sum;
    int32_t c0, n, fast;
    uint32_t lo4, hi4; /* the activation bounds in each byte */
    /* the fast form's constants of whole blocks: per channel the
       multiplier, the right shift less one; twice the bias sum and the
       plain bias that inner and border windows start from */
    int32_t mult[4], right1[4], start2[2][4];
} ta_dw_s4_block_t;

/* Channels c0..c0 + 3 of a tap (c0 a multiple of 4) are the low nibbles
   of a group's four bytes (c0 % 8 == 0) or its high ones, shifted to bits
   1-4 of each byte (twice the nibble), sign-extended bytewise (flipping
   bit 4 then SSUB8 of 16) and split by SXTB16; channels past the depth
   are the zero nibbles that pad the last group. */
static inline void ta_dw_s4_prepare(ta_dw_s4_block_t *b, const ta_depthwise_conv_2d_s4_params_t *p,
                                    const int8_t *weights, size_t stride, int32_t taps,
                                    const ta_s4_requant_t *q, const int32_t *bias_sum,
                                    const int32_t *bias, int32_t c0, int32_t n)
{
    for (int32_t t = 0; t < taps; t++) {
        const uint32_t word = ta_s4_load_u32(weights + (size_t)t * stride + c0 / 8 * 4);
        const uint32_t u = (c0 & 4 ? word >> 3 : word << 1) & 0x1E1E1E1Eu;
        const uint32_t w2 = __ssub8(u ^ 0x10101010u, 0x10101010u);
        b->w[t][0] = __sxtb16(w2);
        b->w[t][1] = ta_s4_sxtb16_ror8(w2);
    }
    b->bias_sum = bias_sum;
    b->c0 = c0;
    b->n = n;
    b->fast = p->right_shifts_only && p->small_accumulators;
    b->lo4 = ((uint32_t)q->lo & 0xFFu) * 0x01010101u;
    b->hi4 = ((uint32_t)q->hi & 0xFFu) * 0x01010101u;
    for (int32_t k = 0; k < 4 && n == 4; k++) {
        b->mult[k] = q->multipliers ? q->multipliers[c0 + k] : q->multiplier;
        b->right1[k] = -(q->shifts ? q->shifts[c0 + k] : q->shift) - 1;
        b->start2[0][k] = (int32_t)((uint32_t)(bias_sum ? bias_sum[c0 + k] : 0) * 2u);
        b->start2[1][k] = (int32_t)((uint32_t)(bias ? bias[c0 + k] : 0) * 2u);
    }
}

/* Four accumulators requantized, clamped and stored (n of them), the
   general form (ta_dw_s4_store_fast takes whole blocks in the fast one). */
__attribute__((noinline)) static void ta_dw_s4_store(const ta_dw_s4_block_t *b,
                                                     const ta_s4_requant_t *q, const int32_t *start,
                                                     const int32_t acc[4], int8_t *out)
{
    const int32_t c0 = b->c0;
    const int32_t *bias = start ? start + c0 : NULL;
    for (int32_t k = 0; k < b->n; k++)
        out[c0 + k] = ta_s4_requantize(
            q, c0 + k, (int32_t)((uint32_t)acc[k] + (uint32_t)(bias ? bias[k] : 0)));
}

/* The fast form of ta_dw_s4_store for a whole block, from the block's
   prepared constants (SMMULR on the accumulators: twice bias and sum). */
__attribute__((always_inline)) static inline void
ta_dw_s4_store_fast(const ta_dw_s4_block_t *b, const ta_s4_requant_t *q, int32_t a0, int32_t a1,
                    int32_t a2, int32_t a3, int8_t *out)
{
    const int32_t *m = b->mult, *r = b->right1;
    const int32_t offset = q->offset;
#define TA_DW_S4_OUT(a, k) __ssat(ta_dw_requantize_right_doubled(a, m[k], r[k]) + offset, 8)
    uint32_t w = ta_dw_pack_bytes(TA_DW_S4_OUT(a0, 0), TA_DW_S4_OUT(a1, 1), TA_DW_S4_OUT(a2, 2),
                                  TA_DW_S4_OUT(a3, 3));
#undef TA_DW_S4_OUT
    if (q->lo > INT8_MIN) {
        (void)__ssub8(w, b->lo4);
        w = __sel(w, b->lo4);
    }
    if (q->hi < INT8_MAX) {
        (void)__ssub8(b->hi4, w);
        w = __sel(w, b->hi4);
    }
    memcpy(out + b->c0, &w, 4);
}

/* Both halfwords of nzp2 plus bytes 1 and 3 of x sign-extended. */
static inline uint32_t ta_dw_s4_sxtab16_ror8(uint32_t nzp2, uint32_t x)
{
    uint32_t r;
    __asm("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(nzp2), "r"(x));
    return r;
}

/* The block's channels of one pixel (FULL: 4 channels, else n < 4 whose
   input is loaded bytewise, nothing read past the pixel): the window's
   taps inside the input, ny rows of nx from (ky0, kx0), the first at x;
   a border window from the plain bias on x - zp (SXTAB16 adds minus the
   zero point to both halfwords: exact, |x - zp| <= 255), an inner one
   from bias_sum. Requantized into out. */
__attribute__((always_inline)) static inline void
ta_dw_s4_pixel_shape(const ta_dw_s4_block_t *b, const ta_s4_requant_t *q, const ta_dw_s4_walk_t *wk,
                     const int8_t *x, int32_t ky0, int32_t ny, int32_t kx0, int32_t nx, int8_t *out,
                     int full)
{
    const uint32_t nzp2 = ((uint32_t)-wk->zp & 0xFFFFu) * 0x10001u;
    const int fast = full && b->fast;
    const int32_t *s2 = b->start2[nzp2 ? 1 : 0];
    int32_t a0 = fast ? s2[0] : 0, a1 = fast ? s2[1] : 0, a2 = fast ? s2[2] : 0,
            a3 = fast ? s2[3] : 0;
    const uint32_t(*w_row)[2] = &b->w[ky0 * wk->kw + kx0];
    for (int32_t i = 0; i < ny; i++, x += wk->row_step, w_row += wk->kw) {
        const int8_t *xt = x;
        const uint32_t(*w)[2] = w_row;
        for (int32_t j = 0; j < nx; j++, xt += wk->col_step, w++) {
            uint32_t xv = 0;
            if (full)
                xv = ta_s4_load_u32(xt);
            else
                memcpy(&xv, xt, (size_t)b->n);
            const int32_t we = (int32_t)(*w)[0], wo = (int32_t)(*w)[1];
            const int32_t x02 = (int32_t)__sxtab16(nzp2, xv);
            const int32_t x13 = (int32_t)ta_dw_s4_sxtab16_ror8(nzp2, xv);
            a0 = __smlabb(x02, we, a0);
            a2 = __smlatt(x02, we, a2);
            a1 = __smlabb(x13, wo, a1);
            a3 = __smlatt(x13, wo, a3);
        }
    }
    if (fast) {
        ta_dw_s4_store_fast(b, q, a0, a1, a2, a3, out);
        return;
    }
    const int32_t acc[4] = {a0 >> 1, a1 >> 1, a2 >> 1, a3 >> 1};
    ta_dw_s4_store(b, q, nzp2 ? wk->bias : b->bias_sum, acc, out);
}

static inline void ta_dw_s4_pixel(const ta_dw_s4_block_t *b, const ta_s4_requant_t *q,
                                  const ta_dw_s4_walk_t *wk, const int8_t *x, int32_t ky0,
                                  int32_t ny, int32_t kx0, int32_t nx, int border, int8_t *out)
{
    ta_dw_s4_walk_t inner;
    if (!border) { /* x as it is, from bias_sum */
        inner = *wk;
        inner.zp = 0;
        wk = &inner;
    }
    if (b->n == 4)
        ta_dw_s4_pixel_shape(b, q, wk, x, ky0, ny, kx0, nx, out, 1);
    else
        ta_dw_s4_pixel_shape(b, q, wk, x, ky0, ny, kx0, nx, out, 0);
}

/* One row of a 3x3 window inside the input for the four channels: the
   taps at x, x + d and x + 2d, the weights' six words from w on (w steps
   past them). In assembly: gcc precomputes the addresses of all taps and
   runs out of registers. Unaligned word loads are fine on Cortex-M4. */
static inline void ta_dw_s4_row3_dsp(int32_t *a0, int32_t *a1, int32_t *a2, int32_t *a3,
                                     const int8_t *x, const uint32_t **w, ptrdiff_t d)
{
    uint32_t xv, t, we, wo;
    /* clang-format off */
#define TA_DW_S4_TAP3(LOAD)                                                               \
    LOAD                                                                                  \
    "ldrd %[we], %[wo], [%[w]], #8\n\t"                                                   \
    "sxtb16 %[t], %[xv]\n\t"                                                              \
    "sxtb16 %[xv], %[xv], ror #8\n\t"                                                     \
    "smlabb %[a0], %[t], %[we], %[a0]\n\t"                                                \
    "smlatt %[a2], %[t], %[we], %[a2]\n\t"                                                \
    "smlabb %[a1], %[xv], %[wo], %[a1]\n\t"                                               \
    "smlatt %[a3], %[xv], %[wo], %[a3]\n\t"
    __asm__(TA_DW_S4_TAP3("ldr %[xv], [%[x]]\n\t")
            TA_DW_S4_TAP3("ldr %[xv], [%[x], %[d]]\n\t")
            TA_DW_S4_TAP3("ldr %[xv], [%[x], %[d], lsl #1]\n\t")
            : [a0] "+r"(*a0), [a1] "+r"(*a1), [a2] "+r"(*a2), [a3] "+r"(*a3), [w] "+r"(*w),
              [xv] "=&r"(xv), [t] "=&r"(t), [we] "=&r"(we), [wo] "=&r"(wo)
            : [x] "r"(x), [d] "r"(d)
            /* Reads memory at addresses no operand names. */
            : "memory");
#undef TA_DW_S4_TAP3
    /* clang-format on */
}

/* `count` pixels whose windows lie inside the input (kh rows of taps),
   the first window's first tap at x, x_step input bytes and out_step
   output bytes apart. */
static inline void ta_dw_s4_run(const ta_dw_s4_block_t *b, const ta_s4_requant_t *q,
                                const ta_dw_s4_walk_t *wk, const int8_t *x, ptrdiff_t x_step,
                                int32_t count, int32_t kh, int8_t *out, ptrdiff_t out_step)
{
    ta_dw_s4_walk_t inner = *wk; /* x as it is, from bias_sum */
    inner.zp = 0;
    if (b->n == 4 && kh == 3 && wk->kw == 3) {
        for (int32_t i = 0; i < count; i++, x += x_step, out += out_step) {
            const int32_t *s2 = b->start2[0];
            int32_t a0 = b->fast ? s2[0] : 0, a1 = b->fast ? s2[1] : 0, a2 = b->fast ? s2[2] : 0,
                    a3 = b->fast ? s2[3] : 0;
            const uint32_t *w = b->w[0];
            ta_dw_s4_row3_dsp(&a0, &a1, &a2, &a3, x, &w, wk->col_step);
            ta_dw_s4_row3_dsp(&a0, &a1, &a2, &a3, x + wk->row_step, &w, wk->col_step);
            ta_dw_s4_row3_dsp(&a0, &a1, &a2, &a3, x + 2 * wk->row_step, &w, wk->col_step);
            if (b->fast) {
                ta_dw_s4_store_fast(b, q, a0, a1, a2, a3, out);
            } else {
                const int32_t acc[4] = {a0 >> 1, a1 >> 1, a2 >> 1, a3 >> 1};
                ta_dw_s4_store(b, q, b->bias_sum, acc, out);
            }
        }
    } else if (b->n == 4)
        for (int32_t i = 0; i < count; i++, x += x_step, out += out_step)
            ta_dw_s4_pixel_shape(b, q, &inner, x, 0, kh, 0, wk->kw, out, 1);
    else
        for (int32_t i = 0; i < count; i++, x += x_step, out += out_step)
            ta_dw_s4_pixel_shape(b, q, &inner, x, 0, kh, 0, wk->kw, out, 0);
}
#endif

#endif /* TA_DEPTHWISE_CONV_2D_S4_DSP_H */
