/*
 * ta_s4.h - int4 weights kept packed: two values a byte, read in place.
 *
 * Layout (the converter writes it, src/lower/int4_packed.c): each row of
 * `n` values (a FULLY_CONNECTED row, a DEPTHWISE_CONV_2D tap's channels;
 * CONV_2D has a layout of its own, ta_conv_2d_s4.h) takes
 * ta_s4_row_bytes(n) bytes, in groups of eight
 * values in four bytes: byte k of a group holds value k in its low nibble
 * and value k + 4 in its high nibble (zero nibbles pad the last group).
 * That order is what the DSP unpack yields: masking the low and the high
 * nibbles of a word and sign-extending bytes 0/2 and 1/3 (SXTB16) gives
 * the value pairs (0,2), (1,3), (4,6), (5,7), the pairs SXTB16 makes of
 * the eight int8 inputs they multiply. Helium unpacks four groups a step and
 * gathers the inputs in the nibbles' order (ta_s4_dot4_steps_mve).
 * DEPTHWISE_CONV_2D's Helium and DSP paths unpack a block of a tap's row
 * once per output row instead (ta_depthwise_conv_2d_s4_mve.h, _dsp.h).
 */
#ifndef TA_S4_H
#define TA_S4_H

#include <stddef.h>
#include <stdint.h>

#include "ta_matmul_simd.h"
#include "ta_quant.h"

#if defined(__ARM_FEATURE_DSP) && !defined(TA_NO_SIMD)
#define TA_S4_DSP 1
#include <arm_acle.h>
#include <string.h>
#endif
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1) && !defined(TA_NO_SIMD)
#define TA_S4_MVE 1
#include <arm_mve.h>
#endif

/* Bytes of a packed row of n values: whole groups of eight. */
static inline int32_t ta_s4_row_bytes(int32_t n)
{
    return (n + 7) / 8 * 4;
}

/* Value i of a packed row, sign-extended. */
static inline int32_t ta_s4_at(const int8_t *row, int32_t i)
{
    const uint32_t byte = (uint8_t)row[(i >> 3) * 4 + (i & 3)];
    const uint32_t v = (i & 4 ? byte >> 4 : byte) & 0xFu;
    return (int32_t)v - (int32_t)((v & 8u) << 1);
}

#if defined(TA_S4_DSP)
static inline uint32_t ta_s4_load_u32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline uint32_t ta_s4_sxtb16_ror8(uint32_t v)
{
    uint32_t r;
    __asm("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
    return r;
}

/* 16 * (sum of the products of `groups` whole groups): the nibbles stay
   in the high half of each byte, so every weight is 16 times its value;
   exact while groups <= 4096 (|16 * 8 * 128| * 8 * 4096 < 2^31). */
static inline int32_t ta_s4_dot_groups_x16(const int8_t *in, const int8_t *w, int32_t groups)
{
    int32_t acc = 0;
    for (int32_t g = 0; g < groups; g++, in += 8, w += 4) {
        const uint32_t word = ta_s4_load_u32(w);
        const uint32_t lo = (word << 4) & 0xF0F0F0F0u, hi = word & 0xF0F0F0F0u;
        const uint32_t a = ta_s4_load_u32(in), b = ta_s4_load_u32(in + 4);
        acc = __smlad(__sxtb16(a), __sxtb16(lo), acc);
        acc = __smlad(ta_s4_sxtb16_ror8(a), ta_s4_sxtb16_ror8(lo), acc);
        acc = __smlad(__sxtb16(b), __sxtb16(hi), acc);
        acc = __smlad(ta_s4_sxtb16_ror8(b), ta_s4_sxtb16_ror8(hi), acc);
    }
    return acc;
}
#endif

#if defined(TA_S4_DSP)
/* ta_s4_dot_groups_x16 for four rows `stride` bytes apart, sharing each
   load and unpack of the input. */
static inline void ta_s4_dot4_groups_x16(const int8_t *in, const int8_t *w, size_t stride,
                                         int32_t groups, int32_t sums[4])
{
    int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    const int8_t *w1 = w + stride, *w2 = w1 + stride, *w3 = w2 + stride;
    for (int32_t g = 0; g < groups; g++, in += 8, w += 4, w1 += 4, w2 += 4, w3 += 4) {
        const uint32_t a = ta_s4_load_u32(in), b = ta_s4_load_u32(in + 4);
        const uint32_t a0 = __sxtb16(a), a1 = ta_s4_sxtb16_ror8(a);
        const uint32_t b0 = __sxtb16(b), b1 = ta_s4_sxtb16_ror8(b);
#define TA_S4_ROW(s, p)                                                         \
    do {                                                                        \
        const uint32_t word = ta_s4_load_u32(p);                                \
        const uint32_t lo = (word << 4) & 0xF0F0F0F0u, hi = word & 0xF0F0F0F0u; \
        s = __smlad(a0, __sxtb16(lo), s);                                       \
        s = __smlad(a1, ta_s4_sxtb16_ror8(lo), s);                              \
        s = __smlad(b0, __sxtb16(hi), s);                                       \
        s = __smlad(b1, ta_s4_sxtb16_ror8(hi), s);                              \
    } while (0)
        TA_S4_ROW(s0, w);
        TA_S4_ROW(s1, w1);
        TA_S4_ROW(s2, w2);
        TA_S4_ROW(s3, w3);
#undef TA_S4_ROW
    }
    sums[0] = s0;
    sums[1] = s1;
    sums[2] = s2;
    sums[3] = s3;
}
#endif

#if defined(TA_S4_MVE)
/* Helium: four groups (32 values, 16 bytes) a step. Shifting each byte
   left then right by 4 (arithmetic) gives the low nibbles, values 0-3,
   8-11, 16-19 and 24-27 of the step; shifting right by 4 the high ones
   (4 later each); a byte gather loads the inputs in those orders. Sums of
   `steps` steps for four rows `stride` bytes apart; exact in 32 bits. */
static inline void ta_s4_dot4_steps_mve(const int8_t *in, const int8_t *w, size_t stride,
                                        int32_t steps, int32_t sums[4])
{
    static const uint8_t low_offsets[16] = {0,  1,  2,  3,  8,  9,  10, 11,
                                            16, 17, 18, 19, 24, 25, 26, 27};
    const uint8x16_t lo_at = vld1q_u8(low_offsets), hi_at = vaddq_n_u8(lo_at, 4);
    int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int32_t k = 0; k < steps; k++, in += 32, w += 16) {
        const int8x16_t x_lo = vldrbq_gather_offset_s8(in, lo_at);
        const int8x16_t x_hi = vldrbq_gather_offset_s8(in, hi_at);
#define TA_S4_ROW(s, p)                                             \
    do {                                                            \
        const int8x16_t b = vld1q_s8(p);                            \
        s = vmladavaq_s8(s, x_lo, vshrq_n_s8(vshlq_n_s8(b, 4), 4)); \
        s = vmladavaq_s8(s, x_hi, vshrq_n_s8(b, 4));                \
    } while (0)
        TA_S4_ROW(s0, w);
        TA_S4_ROW(s1, w + stride);
        TA_S4_ROW(s2, w + 2 * stride);
        TA_S4_ROW(s3, w + 3 * stride);
#undef TA_S4_ROW
    }
    sums[0] = s0;
    sums[1] = s1;
    sums[2] = s2;
    sums[3] = s3;
}
#endif

/* acc[r] + sum of in[i] * row_r[i] for i < n, for four rows `stride`
   bytes apart (each packed as above). */
static inline void ta_dot4_s4(int32_t acc[4], const int8_t *in, const int8_t *rows, size_t stride,
                              int32_t n)
{
    int32_t i = 0;
#if defined(TA_S4_MVE)
    if (n >= 32) {
        int32_t sums[4];
        ta_s4_dot4_steps_mve(in, rows, stride, n / 32, sums);
        for (int r = 0; r < 4; r++)
            acc[r] = (int32_t)((uint32_t)acc[r] + (uint32_t)sums[r]);
        i = n / 32 * 32;
    }
#endif
#if defined(TA_S4_DSP)
    for (int32_t groups = (n - i) / 8; groups > 0;) {
        const int32_t take = groups < 4096 ? groups : 4096;
        int32_t sums[4];
        ta_s4_dot4_groups_x16(in + i, rows + i / 2, stride, take, sums);
        for (int r = 0; r < 4; r++) /* every term is a multiple of 16: the shift is exact */
            acc[r] = (int32_t)((uint32_t)acc[r] + (uint32_t)(sums[r] >> 4));
        i += take * 8;
        groups -= take;
    }
#endif
    for (; i < n; i++)
        for (int r = 0; r < 4; r++)
            acc[r] = (int32_t)((uint32_t)acc[r] +
                               (uint32_t)(in[i] * ta_s4_at(rows + (size_t)r * stride, i)));
}

/* acc + sum of in[i] * row[i] for i < n (row packed as above, starting at
   a group's first value). */
static inline int32_t ta_dot_s4(int32_t acc, const int8_t *in, const int8_t *row, int32_t n)
{
    int32_t i = 0;
#if defined(TA_S4_DSP)
    for (int32_t groups = n / 8; groups > 0;) {
        const int32_t take = groups < 4096 ? groups : 4096;
        /* every term is a multiple of 16: the shift is exact */
        acc = (int32_t)((uint32_t)acc +
                        (uint32_t)(ta_s4_dot_groups_x16(in + i, row + i / 2, take) >> 4));
        i += take * 8;
        groups -= take;
    }
#endif
    for (; i < n; i++)
        acc = (int32_t)((uint32_t)acc + (uint32_t)(in[i] * ta_s4_at(row, i)));
    return acc;
}

/* An output channel's requantization, read once per call from the kernel's
   parameters (per-channel arrays, or NULL for the per-tensor pair). The two
   functions are static, not inline: gcc left them out of line as the
   kernels' own static copies were, and inlining them grew CONV_2D's code and
   stack. */
#define TA_S4_SHARED static __attribute__((unused))
typedef struct {
    const int32_t *multipliers, *shifts;
    int32_t multiplier, shift, offset, lo, hi;
} ta_s4_requant_t;

/* Channel o's accumulator as int8. */
TA_S4_SHARED int8_t ta_s4_requantize(const ta_s4_requant_t *q, int32_t o, int32_t acc)
{
    const int32_t m = q->multipliers ? q->multipliers[o] : q->multiplier;
    const int32_t s = q->shifts ? q->shifts[o] : q->shift;
    const int32_t v = ta_mul_by_quantized_multiplier(acc, m, s) + q->offset;
    return (int8_t)ta_clamp_i32(v, q->lo, q->hi);
}

/* Channels o to o + 3 into out[o..o + 3] (the vector requantization on
   Helium). */
TA_S4_SHARED void ta_s4_requantize4(const ta_s4_requant_t *q, int32_t o, const int32_t acc[4],
                                    int8_t *out)
{
    ta_mm_requant_s8(acc, 4, q->multipliers ? q->multipliers + o : NULL,
                     q->shifts ? q->shifts + o : NULL, q->multiplier, q->shift, q->offset, q->lo,
                     q->hi, out + o);
}

#endif /* TA_S4_H */
