/*
 * ta_fully_connected_dsp.c - FULLY_CONNECTED int8 with the DSP extension
 * (SIMD32: Cortex-M4/M7/M33): four rows per pass share each input word,
 * their weights in ta_fully_connected_s8_words' layout (one LDM a word),
 * their sums requantized together channel by channel into one word, one
 * word store when every shift is a right shift; the last rows as the
 * model has them. Compiles to nothing on other cores.
 */
#include "ta_fully_connected_dsp.h"

#include "../include/ta_dw_simd.h"
#include "../include/ta_matmul_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_simd.h"

#include <stddef.h>
#include <string.h>

#if defined(TA_MM_DSP)
/* acc[r] += sum_{k<n} row r's byte k * x[k] for r = 0..3, the four rows
   interleaved a word at a time (ta_fully_connected_s8_words' layout) from
   w (word-aligned, for LDM: the planner places every tensor at 16 bytes
   or more), n a multiple of 4 (0 too); then, unless `last` is NULL, the
   rows' next word by *last (the input's last bytes in a word, zeros above
   them: the rows are padded so). ta_mm_dot4_s8_dsp's loop with one LDM for the
   four rows' words instead of four loads, and no row pointers or stride:
   20 instructions per 16 MACs against 23, the same estimated cycles (an
   LDM is not pipelined). */
/* clang-format off */
#define TA_FC_WORD_ROW(RAW, ACC) \
    "   sxtb16 lr, " RAW "\n" \
    "   smlad  " ACC ", lr, r9, " ACC "\n" \
    "   sxtb16 " RAW ", " RAW ", ror #8\n" \
    "   smlad  " ACC ", " RAW ", r10, " ACC "\n"
/* One word: the input's in r10. */
#define TA_FC_WORD_FROM_R10 \
    "   ldm    r1!, {r0, r2, r8, r11}\n" \
    "   sxtb16 r9, r10\n" \
    "   sxtb16 r10, r10, ror #8\n" \
    TA_FC_WORD_ROW("r0", "r4") TA_FC_WORD_ROW("r2", "r5") \
    TA_FC_WORD_ROW("r8", "r6") TA_FC_WORD_ROW("r11", "r7")
#define TA_FC_WORD "   ldr    r10, [r3], #4\n" TA_FC_WORD_FROM_R10
/* clang-format on */
#define TA_FC_ARG __attribute__((unused)) /* read by the assembly, not by C */
__attribute__((naked, noinline)) static void
dot4_words(TA_FC_ARG int32_t acc[4], TA_FC_ARG const int8_t *w, TA_FC_ARG const int8_t *x,
           TA_FC_ARG int32_t n, TA_FC_ARG const uint32_t *last)
{
    /* clang-format off */
    __asm__ volatile("   push   {r0, r4-r11, lr}\n"
                     "   ldm    r0, {r4-r7}\n"
                     "   cmp    r3, #0\n"
                     "   beq    6f\n"
                     "   lsls   r9, r3, #29\n" /* C: words & 2, N: words & 1 */
                     "   add    r12, r2, r3\n"  /* end of the whole words */
                     "   mov    r3, r2\n"
                     /* enter the four-word body at words % 4 from its end */
                     "   bcs    5f\n"
                     "   bpl    1f\n"
                     "   b      4f\n"
                     "5: bmi    2f\n"
                     "   b      3f\n"
                     "1:\n" TA_FC_WORD
                     "2:\n" TA_FC_WORD
                     "3:\n" TA_FC_WORD
                     "4:\n" TA_FC_WORD
                     "   cmp    r3, r12\n"
                     "   bne    1b\n"
                     "6: ldr    r0, [sp, #40]\n" /* last, the fifth argument */
                     "   cbz    r0, 7f\n"
                     "   ldr    r10, [r0]\n"
                     TA_FC_WORD_FROM_R10
                     "7: pop    {r0}\n"
                     "   stm    r0, {r4-r7}\n"
                     "   pop    {r4-r11, pc}\n");
    /* clang-format on */
}
#undef TA_FC_WORD
#undef TA_FC_WORD_FROM_R10

/* acc[r] += sum_{k<n} w_r[k] * x[k] for two rows as the model has them, w_1
   = w_0 + stride (any alignment: single loads), n a multiple of 4 (0
   too): per input word its widening once for both rows and one load of
   each row, 13 instructions per 8 MACs, two words a pass (an odd count
   entering at the second; four a pass took 112 bytes more of code in
   every module with a fully connected layer, for 0.9% fewer instructions
   and 1.4% fewer estimated cycles on a 1024 -> 10 layer). */
/* clang-format off */
#define TA_FC_PAIR_WORD \
    "   ldr    r10, [r2], #4\n" \
    "   ldr    r11, [r1, r6]\n" \
    "   ldr    r7, [r1], #4\n" \
    "   sxtb16 r9, r10\n" \
    "   sxtb16 r10, r10, ror #8\n" \
    TA_FC_WORD_ROW("r7", "r4") TA_FC_WORD_ROW("r11", "r5")
/* clang-format on */
__attribute__((naked, noinline)) static void
dot2_rows(TA_FC_ARG int32_t acc[2], TA_FC_ARG const int8_t *w, TA_FC_ARG const int8_t *x,
          TA_FC_ARG int32_t n, TA_FC_ARG int32_t stride)
{
    /* clang-format off */
    __asm__ volatile("   push   {r0, r4-r11, lr}\n"
                     "   ldr    r6, [sp, #40]\n" /* stride, the fifth argument */
                     "   ldm    r0, {r4, r5}\n"
                     "   cmp    r3, #0\n"
                     "   beq    6f\n"
                     "   add    r12, r2, r3\n" /* the input's end */
                     "   lsls   r8, r3, #30\n" /* C: words & 1 */
                     "   bcs    2f\n"
                     "1:\n" TA_FC_PAIR_WORD
                     "2:\n" TA_FC_PAIR_WORD
                     "   cmp    r2, r12\n"
                     "   bne    1b\n"
                     "6: pop    {r0}\n"
                     "   stm    r0, {r4, r5}\n"
                     "   pop    {r4-r11, pc}\n");
    /* clang-format on */
}
#undef TA_FC_PAIR_WORD
#undef TA_FC_ARG
#undef TA_FC_WORD_ROW

/* The input's last depth % 4 (1-3) bytes in a word, zeros above them:
   from the input's last four bytes when there are four (little-endian),
   else byte by byte. */
static inline uint32_t last_word(const int8_t *in, int32_t depth)
{
    const int32_t tail = depth & 3;
    uint32_t v = 0;
    if (depth >= 4) {
        memcpy(&v, in + depth - 4, 4);
        return v >> (8 * (4 - tail));
    }
    for (int32_t j = tail - 1; j >= 0; j--)
        v = v << 8 | (uint8_t)in[j];
    return v;
}

/* One sum requantized (a right shift), offset and saturated to int8, as
   the low byte of a word. */
static inline uint32_t requantized_byte(int32_t acc, int32_t multiplier, int32_t shift,
                                        int32_t offset)
{
    return (uint32_t)__ssat(ta_dw_requantize_right(acc, multiplier, shift) + offset, 8) & 0xffu;
}

/* The output range as a byte in every lane, and whether it narrows int8's
   (else no clamp: no activation). */
typedef struct {
    uint32_t lo4, hi4;
    int clamp;
} fc_range4_t;

/* Whether every sum is in [-2^30, 2^30), where SMMULR on the doubled sum
   rounds as ta_dw_requantize_right: the top bit of each acc + 2^30 is
   clear (a bias-free dot product of a few thousand int8 pairs always is). */
static inline int sums_small(const int32_t acc[4])
{
    return ((((uint32_t)acc[0] + 0x40000000u) | ((uint32_t)acc[1] + 0x40000000u) |
             ((uint32_t)acc[2] + 0x40000000u) | ((uint32_t)acc[3] + 0x40000000u)) >>
            31) == 0;
}

/* ta_mm_requant_s8 of four sums whose shifts (s, multipliers m: per
   channel, step 1, or the tensor's, step 0) are all right shifts (nearly
   every layer): the 32-bit rounding of ta_dw_requantize_right channel by
   channel into the bytes of one word, clamped four at a time, one word
   store. Returns 0 (nothing stored) when a shift is not negative. */
static inline int requant4_right_dsp(const int32_t acc[4], const int32_t *m, const int32_t *s,
                                     int32_t step, int32_t offset, fc_range4_t range, int8_t *out)
{
    if ((s[0] & s[step] & s[2 * step] & s[3 * step]) >= 0)
        return 0;
    uint32_t w;
    if (sums_small(acc)) {
        w = (uint32_t)__ssat(ta_dw_requantize_right_small(acc[0], m[0], s[0]) + offset, 8) & 0xffu;
        w |= ((uint32_t)__ssat(ta_dw_requantize_right_small(acc[1], m[step], s[step]) + offset, 8) &
              0xffu)
             << 8;
        w |= ((uint32_t)__ssat(
                  ta_dw_requantize_right_small(acc[2], m[2 * step], s[2 * step]) + offset, 8) &
              0xffu)
             << 16;
        w |= (uint32_t)__ssat(
                 ta_dw_requantize_right_small(acc[3], m[3 * step], s[3 * step]) + offset, 8)
             << 24;
    } else {
        w = requantized_byte(acc[0], m[0], s[0], offset);
        w |= requantized_byte(acc[1], m[step], s[step], offset) << 8;
        w |= requantized_byte(acc[2], m[2 * step], s[2 * step], offset) << 16;
        w |= requantized_byte(acc[3], m[3 * step], s[3 * step], offset) << 24;
    }
    if (range.clamp)
        w = ta_clamp4_s8(w, range.lo4, range.hi4);
    memcpy(out, &w, 4);
    return 1;
}

/* The groups of one tensor-wide multiplier and right shift (-31 <= shift
   < 0; most layers): the multiplier and the shift stay in registers, and
   the four bytes are packed by bit-field inserts. */
static void groups_per_tensor_right_dsp(const ta_fully_connected_params_t *p, const int8_t *in,
                                        const int8_t *weights, const int32_t *bias_sum,
                                        fc_range4_t range, int8_t *out)
{
    static const int32_t zeros[4] = {0, 0, 0, 0};
    const int32_t depth = p->accum_depth, full = p->output_depth & ~3;
    const int32_t m = p->multiplier, shift = p->shift, right1 = -shift - 1;
    const int32_t offset = p->output_offset;
    const size_t row_bytes = ta_fc_words_row_bytes(depth);
    const uint32_t last = depth & 3 ? last_word(in, depth) : 0; /* once for every group */
    for (int32_t o = 0; o < full; o += 4) {
        int32_t acc[4];
        memcpy(acc, bias_sum ? bias_sum + o : zeros, sizeof acc);
        dot4_words(acc, weights + (size_t)o * row_bytes, in, depth & ~3, depth & 3 ? &last : NULL);
        uint32_t w;
        if (sums_small(acc))
            w = ta_pack4_s8(
                __ssat(ta_dw_requantize_right_doubled(acc[0] * 2, m, right1) + offset, 8),
                __ssat(ta_dw_requantize_right_doubled(acc[1] * 2, m, right1) + offset, 8),
                __ssat(ta_dw_requantize_right_doubled(acc[2] * 2, m, right1) + offset, 8),
                __ssat(ta_dw_requantize_right_doubled(acc[3] * 2, m, right1) + offset, 8));
        else
            w = requantized_byte(acc[0], m, shift, offset) |
                requantized_byte(acc[1], m, shift, offset) << 8 |
                requantized_byte(acc[2], m, shift, offset) << 16 |
                requantized_byte(acc[3], m, shift, offset) << 24;
        if (range.clamp)
            w = ta_clamp4_s8(w, range.lo4, range.hi4);
        memcpy(out + o, &w, 4);
    }
}

void ta_fully_connected_s8_groups_dsp(const ta_fully_connected_params_t *p, const int8_t *in,
                                      const int8_t *weights, const int32_t *bias_sum,
                                      const int32_t *multipliers, const int32_t *shifts,
                                      int8_t *out)
{
    static const int32_t zeros[4] = {0, 0, 0, 0};
    const int32_t depth = p->accum_depth, full = p->output_depth & ~3;
    /* per-channel arrays come in pairs; else the tensor's, step 0 */
    const int32_t step = multipliers && shifts ? 1 : 0;
    const fc_range4_t range = {ta_splat4_s8(p->activation_min), ta_splat4_s8(p->activation_max),
                               p->activation_min > INT8_MIN || p->activation_max < INT8_MAX};
    if (!step && p->shift < 0 && p->shift >= -31 && p->multiplier != INT32_MIN) {
        groups_per_tensor_right_dsp(p, in, weights, bias_sum, range, out);
        return;
    }
    const size_t row_bytes = ta_fc_words_row_bytes(depth);
    const uint32_t last = depth & 3 ? last_word(in, depth) : 0; /* once for every group */
    for (int32_t o = 0; o < full; o += 4) {
        int32_t acc[4];
        memcpy(acc, bias_sum ? bias_sum + o : zeros, sizeof acc);
        dot4_words(acc, weights + (size_t)o * row_bytes, in, depth & ~3, depth & 3 ? &last : NULL);
        if (requant4_right_dsp(acc, step ? multipliers + o : &p->multiplier,
                               step ? shifts + o : &p->shift, step, p->output_offset, range,
                               out + o))
            continue;
        ta_mm_requant_s8(acc, 4, multipliers ? multipliers + o : NULL, shifts ? shifts + o : NULL,
                         p->multiplier, p->shift, p->output_offset, p->activation_min,
                         p->activation_max, out + o);
    }
}

void ta_fully_connected_s8_rows_dsp(const ta_fully_connected_params_t *p, const int8_t *in,
                                    const int8_t *weights, const int32_t *bias_sum,
                                    const int32_t *multipliers, const int32_t *shifts, int32_t o,
                                    int32_t n, int8_t *out)
{
    const int32_t depth = p->accum_depth;
    const int8_t *w = weights + (size_t)o * (size_t)depth;
    int32_t acc[3];
    for (int32_t k = 0; k < n; k++)
        acc[k] = bias_sum ? bias_sum[o + k] : 0;
    if (n >= 2) {
        const int32_t whole = depth & ~3;
        dot2_rows(acc, w, in, whole, depth);
        for (int32_t k = whole; k < depth; k++) { /* unsigned: int32 wrap-around */
            acc[0] = (int32_t)((uint32_t)acc[0] + (uint32_t)(w[k] * in[k]));
            acc[1] = (int32_t)((uint32_t)acc[1] + (uint32_t)(w[depth + k] * in[k]));
        }
    }
    if (n != 2) /* one row alone: the only one, or the third */
        acc[n - 1] = ta_mm_dot1_s8(acc[n - 1], w + (size_t)(n - 1) * (size_t)depth, in, depth);
    ta_mm_requant_s8(acc, n, multipliers ? multipliers + o : NULL, shifts ? shifts + o : NULL,
                     p->multiplier, p->shift, p->output_offset, p->activation_min,
                     p->activation_max, out + o);
}
#endif
