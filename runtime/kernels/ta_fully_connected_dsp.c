/*
 * ta_fully_connected_dsp.c - FULLY_CONNECTED int8 with the DSP extension
 * (SIMD32: Cortex-M4/M7/M33): the pairs of rows of ta_fully_connected_
 * s8_words' layout, two pairs a pass sharing each input word (one LDM
 * for their four words), their sums requantized together channel by
 * channel into one word, one word store when every shift is a right
 * shift; a last pair alone. And rows as the model has them, for
 * ta_fully_connected_s8. Compiles to nothing on other cores.
 */
#include "ta_fully_connected_dsp.h"

#include "../include/ta_dw_simd.h"
#include "../include/ta_matmul_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_simd.h"

#include <stddef.h>
#include <string.h>

#if defined(TA_MM_DSP)
/* A pair's word (ta_fully_connected_s8_words' layout) holds per halfword
   lo + 256 * hi, lo the first row's weight + 128 (0..255), hi the second
   row's: one SMLAD against two input values X adds both rows' products
   to A (the second's times 256), and one more, of hi alone (SXTB16 of the
   word turned by 8), adds the second row's to B. The first row's sum is
   then A - 256 B less 128 times the inputs' sum (pair_start and
   pair_first, below), all modulo 2^32 as the reference's int32 sums.
   Three instructions a word of four weights where widening both rows
   takes five; RAW is overwritten. */
/* clang-format off */
#define TA_FC_PAIR(RAW, X, A, B) \
    "   smlad  " A ", " RAW ", " X ", " A "\n" \
    "   sxtb16 " RAW ", " RAW ", ror #8\n" \
    "   smlad  " B ", " RAW ", " X ", " B "\n"
/* One input word, in XW, for two pairs (their even words, then their odd
   ones): inputs 0 and 2 in r9, 1 and 3 in r10. */
#define TA_FC_GROUP_FROM(XW) \
    "   ldm    r1!, {r0, r2, r8, r11}\n" \
    "   sxtb16 r9, " XW "\n" \
    "   sxtb16 r10, " XW ", ror #8\n" \
    TA_FC_PAIR("r0", "r9", "r4", "r5") TA_FC_PAIR("r2", "r9", "r6", "r7") \
    TA_FC_PAIR("r8", "r10", "r4", "r5") TA_FC_PAIR("r11", "r10", "r6", "r7")
#define TA_FC_GROUP "   ldr    r10, [r3], #4\n" TA_FC_GROUP_FROM("r10")
/* Two input words by one LDRD (three cycles where two LDRs take four):
   the input word-aligned. */
#define TA_FC_GROUP2 \
    "   ldrd   r10, lr, [r3], #8\n" TA_FC_GROUP_FROM("r10") TA_FC_GROUP_FROM("lr")
/* clang-format on */

#define TA_FC_ARG __attribute__((unused)) /* read by the assembly, not by C */
/* ab[0..3] (A and B of a group's two pairs) += the group's words from w
   (word-aligned, for LDM) against the inputs x[0..n), n a multiple of 4
   (0 too); then, unless `last` is NULL, its next words against *last
   (the input's last bytes in a word, zeros above them: the rows are
   padded so). 16 instructions per 16 MACs. An input at a word-aligned
   address (every layer's first row) takes two words a load and eight a
   pass (a taken branch costs three cycles); another, one and one. */
__attribute__((naked, noinline)) static void
group_dot(TA_FC_ARG int32_t ab[4], TA_FC_ARG const int8_t *w, TA_FC_ARG const int8_t *x,
          TA_FC_ARG int32_t n, TA_FC_ARG const uint32_t *last)
{
    /* clang-format off */
    __asm__ volatile("   push   {r0, r4-r11, lr}\n"
                     "   ldm    r0, {r4-r7}\n"
                     "   cmp    r3, #0\n"
                     "   beq    6f\n"
                     "   add    r12, r2, r3\n" /* end of the whole words */
                     "   tst    r2, #3\n"
                     "   bne    20f\n"
                     "   lsls   r9, r3, #30\n" /* C: an odd word */
                     "   mov    r3, r2\n"
                     "   bcc    1f\n"
                     TA_FC_GROUP /* the odd word first */
                     "1: subs   r9, r12, r3\n" /* then pairs of words */
                     "   beq    6f\n"
                     /* enter the four-pair body at pairs % 4 from its end */
                     "   lsls   r9, r9, #28\n" /* N: pairs & 1, C: pairs & 2 */
                     "   bcs    8f\n"
                     "   bpl    10f\n"
                     "   b      13f\n"
                     "8: bmi    11f\n"
                     "   b      12f\n"
                     "10:\n" TA_FC_GROUP2
                     "11:\n" TA_FC_GROUP2
                     "12:\n" TA_FC_GROUP2
                     "13:\n" TA_FC_GROUP2
                     "   cmp    r3, r12\n"
                     "   bne    10b\n"
                     "   b      6f\n"
                     "20: mov   r3, r2\n" /* the input off a word */
                     "21:\n" TA_FC_GROUP
                     "   cmp    r3, r12\n"
                     "   bne    21b\n"
                     "6: ldr    r0, [sp, #40]\n" /* last, the fifth argument */
                     "   cbz    r0, 7f\n"
                     "   ldr    r10, [r0]\n"
                     TA_FC_GROUP_FROM("r10")
                     "7: pop    {r0}\n"
                     "   stm    r0, {r4-r7}\n"
                     "   pop    {r4-r11, pc}\n");
    /* clang-format on */
}
#undef TA_FC_GROUP
#undef TA_FC_GROUP2
#undef TA_FC_GROUP_FROM

/* clang-format off */
/* One input word, in r7, for one pair. */
#define TA_FC_LONE_FROM_R7 \
    "   ldrd   r0, r3, [r1], #8\n" \
    "   sxtb16 r6, r7\n" \
    "   sxtb16 r7, r7, ror #8\n" \
    TA_FC_PAIR("r0", "r6", "r4", "r5") TA_FC_PAIR("r3", "r7", "r4", "r5")
#define TA_FC_LONE "   ldr    r7, [r2], #4\n" TA_FC_LONE_FROM_R7
/* clang-format on */
/* group_dot for a pair alone (its two words for an input word follow each
   other): 10 instructions per 8 MACs, two words a pass (an odd count
   entering at the second). */
__attribute__((naked, noinline)) static void
pair_dot(TA_FC_ARG int32_t ab[2], TA_FC_ARG const int8_t *w, TA_FC_ARG const int8_t *x,
         TA_FC_ARG int32_t n, TA_FC_ARG const uint32_t *last)
{
    /* clang-format off */
    __asm__ volatile("   push   {r0, r4-r7, lr}\n"
                     "   ldm    r0, {r4, r5}\n"
                     "   cmp    r3, #0\n"
                     "   beq    6f\n"
                     "   add    r12, r2, r3\n" /* end of the whole words */
                     "   lsls   r6, r3, #30\n" /* C: words & 1 */
                     "   bcs    2f\n"
                     "1:\n" TA_FC_LONE
                     "2:\n" TA_FC_LONE
                     "   cmp    r2, r12\n"
                     "   bne    1b\n"
                     "6: ldr    r0, [sp, #24]\n" /* last, the fifth argument */
                     "   cbz    r0, 7f\n"
                     "   ldr    r7, [r0]\n"
                     TA_FC_LONE_FROM_R7
                     "7: pop    {r0}\n"
                     "   stm    r0, {r4, r5}\n"
                     "   pop    {r4-r7, pc}\n");
    /* clang-format on */
}
#undef TA_FC_LONE
#undef TA_FC_LONE_FROM_R7
#undef TA_FC_PAIR

/* A pair's A and B from its rows' starting sums s0 and s1: B = s1, A = s0
   + 256 s1 less `flip` (128 times the inputs' sum, which the first row's
   flipped sign bits add); and the first row's sum from the pair's A and
   B. Modulo 2^32. */
static inline void pair_start(int32_t ab[2], const int32_t *s, uint32_t flip)
{
    ab[0] = (int32_t)((uint32_t)s[0] - flip + ((uint32_t)s[1] << 8));
    ab[1] = s[1];
}

static inline int32_t pair_first(const int32_t ab[2])
{
    return (int32_t)((uint32_t)ab[0] - ((uint32_t)ab[1] << 8));
}

/* The sums of a group's four rows from w, starting from bias. */
static inline void group_sums(int32_t acc[4], const int8_t *w, const int8_t *in, int32_t depth,
                              const uint32_t *last, uint32_t flip, const int32_t *bias)
{
    int32_t ab[4];
    pair_start(ab, bias, flip);
    pair_start(ab + 2, bias + 2, flip);
    group_dot(ab, w, in, depth & ~3, last);
    acc[0] = pair_first(ab);
    acc[1] = ab[1];
    acc[2] = pair_first(ab + 2);
    acc[3] = ab[3];
}

/* 128 times the sum of in[0..depth), modulo 2^32: USADA8 against zero adds
   four unsigned bytes, so the values with their sign bits flipped (v +
   128), less 128 each at the end. */
static uint32_t flip_of(const int8_t *in, int32_t depth)
{
    uint32_t u = 0;
    int32_t k = depth & ~31;
    if (k) {
        /* 32 values a pass, the loads four together (after a load, a load
           takes one cycle, not two) */
        const int8_t *p = in, *end = in + k;
        uint32_t a, b, c, d, zero = 0; /* its own register: not u's */
        /* clang-format off */
#define TA_FC_FLIP4(AT) \
        "   ldr    %[a], [%[p], #" AT "]\n" \
        "   ldr    %[b], [%[p], #" AT " + 4]\n" \
        "   ldr    %[c], [%[p], #" AT " + 8]\n" \
        "   ldr    %[d], [%[p], #" AT " + 12]\n" \
        "   eor    %[a], %[a], #0x80808080\n" \
        "   usada8 %[u], %[a], %[z], %[u]\n" \
        "   eor    %[b], %[b], #0x80808080\n" \
        "   usada8 %[u], %[b], %[z], %[u]\n" \
        "   eor    %[c], %[c], #0x80808080\n" \
        "   usada8 %[u], %[c], %[z], %[u]\n" \
        "   eor    %[d], %[d], #0x80808080\n" \
        "   usada8 %[u], %[d], %[z], %[u]\n"
        __asm__("1:\n" TA_FC_FLIP4("0") TA_FC_FLIP4("16")
                "   adds   %[p], %[p], #32\n"
                "   cmp    %[p], %[e]\n"
                "   bne    1b\n"
                : [u] "+r"(u), [p] "+r"(p), [a] "=&r"(a), [b] "=&r"(b), [c] "=&r"(c),
                  [d] "=&r"(d), [z] "+r"(zero)
                : [e] "r"(end)
                : "cc", "memory");
#undef TA_FC_FLIP4
        /* clang-format on */
    }
    for (; k + 4 <= depth; k += 4)
        u = __usada8(ta_mm_load32(in + k) ^ 0x80808080u, 0, u);
    u -= 128u * (uint32_t)k;
    for (; k < depth; k++)
        u += (uint32_t)(int32_t)in[k];
    return u << 7;
}

/* acc[r] += sum_{k<n} w_r[k] * x[k] for two rows as the model has them, w_1
   = w_0 + stride (any alignment: single loads), n a multiple of 4 (0
   too): per input word its widening once for both rows and one load of
   each row, 13 instructions per 8 MACs, two words a pass (an odd count
   entering at the second; four a pass took 112 bytes more of code in
   every module with a fully connected layer, for 0.9% fewer instructions
   and 1.4% fewer estimated cycles on a 1024 -> 10 layer). */
/* clang-format off */
/* One row's word RAW against the input word widened in r9 and r10. */
#define TA_FC_WORD_ROW(RAW, ACC) \
    "   sxtb16 lr, " RAW "\n" \
    "   smlad  " ACC ", lr, r9, " ACC "\n" \
    "   sxtb16 " RAW ", " RAW ", ror #8\n" \
    "   smlad  " ACC ", " RAW ", r10, " ACC "\n"
#define TA_FC_ROWS_WORD \
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
                     "1:\n" TA_FC_ROWS_WORD
                     "2:\n" TA_FC_ROWS_WORD
                     "   cmp    r2, r12\n"
                     "   bne    1b\n"
                     "6: pop    {r0}\n"
                     "   stm    r0, {r4, r5}\n"
                     "   pop    {r4-r11, pc}\n");
    /* clang-format on */
}
#undef TA_FC_ROWS_WORD
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

/* Where a row's sums go: what requantizing them needs besides them. */
typedef struct {
    const ta_fully_connected_params_t *p;
    const int32_t *multipliers, *shifts; /* per channel, or NULL */
    fc_range4_t range;
    int8_t *out;
} fc_sink_t;

/* Sums o .. o + n - 1 (n 1, 2 or 4) by the general requantization: left
   shifts and the last rows. Out of line, the less common path. */
static TA_NOINLINE void requant_other(const fc_sink_t *k, const int32_t *acc, int32_t n, int32_t o)
{
    const ta_fully_connected_params_t *p = k->p;
    const int32_t *m = k->multipliers, *s = k->shifts;
    ta_mm_requant_s8(acc, n, m ? m + o : NULL, s ? s + o : NULL, p->multiplier, p->shift,
                     p->output_offset, p->activation_min, p->activation_max, k->out + o);
}

/* The groups of one tensor-wide multiplier and right shift (-31 <= shift
   < 0; most layers): the multiplier and the shift stay in registers, and
   the four bytes are packed by bit-field inserts. */
static void groups_per_tensor_right(const fc_sink_t *k, const int8_t *in, const uint32_t *last,
                                    uint32_t flip, const int8_t *weights, const int32_t *bias_sum)
{
    const ta_fully_connected_params_t *p = k->p;
    const fc_range4_t range = k->range;
    int8_t *out = k->out;
    const int32_t depth = p->accum_depth, full = p->output_depth & ~3;
    const int32_t m = p->multiplier, shift = p->shift, right1 = -shift - 1;
    const int32_t offset = p->output_offset;
    const size_t row_bytes = ta_fc_words_row_bytes(depth);
    for (int32_t o = 0; o < full; o += 4) {
        int32_t acc[4];
        group_sums(acc, weights + (size_t)o * row_bytes, in, depth, last, flip, bias_sum + o);
        uint32_t w;
        if (sums_small(acc))
            w = ta_pack4_s8(
                __ssat(ta_dw_requantize_right_doubled(acc[0] * 2, m, right1) + offset, 8),
                __ssat(ta_dw_requantize_right_doubled(acc[1] * 2, m, right1) + offset, 8),
                __ssat(ta_dw_requantize_right_doubled(acc[2] * 2, m, right1) + offset, 8),
                __ssat(ta_dw_requantize_right_doubled(acc[3] * 2, m, right1) + offset, 8));
        else /* past the 32-bit rounding (large biases) */
            w = requantized_byte(acc[0], m, shift, offset) |
                requantized_byte(acc[1], m, shift, offset) << 8 |
                requantized_byte(acc[2], m, shift, offset) << 16 |
                requantized_byte(acc[3], m, shift, offset) << 24;
        if (range.clamp)
            w = ta_clamp4_s8(w, range.lo4, range.hi4);
        memcpy(out + o, &w, 4);
    }
}

void ta_fully_connected_s8_words_dsp(const ta_fully_connected_params_t *p, const int8_t *in,
                                     const int8_t *weights, const int32_t *bias_sum,
                                     const int32_t *multipliers, const int32_t *shifts, int8_t *out)
{
    const int32_t depth = p->accum_depth, full = p->output_depth & ~3;
    const size_t row_bytes = ta_fc_words_row_bytes(depth);
    /* once for every pair: the input's last word and its sum's term */
    const uint32_t tail = depth & 3 ? last_word(in, depth) : 0;
    const uint32_t *last = depth & 3 ? &tail : NULL;
    const uint32_t flip = p->output_depth >= 2 ? flip_of(in, depth) : 0;
    /* per-channel arrays come in pairs; else the tensor's, step 0 */
    const int32_t step = multipliers && shifts ? 1 : 0;
    const fc_sink_t sink = {p,
                            step ? multipliers : NULL,
                            step ? shifts : NULL,
                            {ta_splat4_s8(p->activation_min), ta_splat4_s8(p->activation_max),
                             p->activation_min > INT8_MIN || p->activation_max < INT8_MAX},
                            out};
    if (!step && p->shift < 0 && p->shift >= -31 && p->multiplier != INT32_MIN) {
        groups_per_tensor_right(&sink, in, last, flip, weights, bias_sum);
    } else {
        for (int32_t o = 0; o < full; o += 4) {
            int32_t acc[4];
            group_sums(acc, weights + (size_t)o * row_bytes, in, depth, last, flip, bias_sum + o);
            if (!requant4_right_dsp(acc, step ? multipliers + o : &p->multiplier,
                                    step ? shifts + o : &p->shift, step, p->output_offset,
                                    sink.range, out + o))
                requant_other(&sink, acc, 4, o);
        }
    }
    if (p->output_depth & 2) { /* the last pair */
        int32_t ab[2];
        pair_start(ab, bias_sum + full, flip);
        pair_dot(ab, weights + (size_t)full * row_bytes, in, depth & ~3, last);
        const int32_t acc[2] = {pair_first(ab), ab[1]};
        requant_other(&sink, acc, 2, full);
    }
    if (p->output_depth & 1) { /* the odd last row, as the model has it */
        const int32_t o = p->output_depth - 1;
        const int32_t acc = ta_mm_dot1_s8(
            bias_sum[o], weights + ta_fc_words_index(o, 0, o + 1, depth), in, depth);
        requant_other(&sink, &acc, 1, o);
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
