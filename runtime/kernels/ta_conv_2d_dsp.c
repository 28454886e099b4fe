/*
 * ta_conv_2d_dsp.c - the int8 CONV_2D paths with the DSP extension (SIMD32:
 * Cortex-M4/M7/M33); ta_conv_2d.c dispatches here. Compiles to nothing on
 * other cores and on Helium cores (ta_conv_2d_mve.c).
 *
 * Per-channel requantization in 32-bit arithmetic, four channels saturated
 * and clamped as one word (requantize4_right, inline in the one-pixel
 * loop; requantize4_words elsewhere). When every shift is a right shift
 * down to -23 and every bias sum small (pair_pass_init, checked once a
 * run), the pair and three-pixel loops requantize a channel pair of two or
 * three pixels in registers by SMMLAR (pair_pass, triple_pass,
 * long_triple_pass: 5 instructions an output). Filters of at
 * most TA_CONV_2D_MAX_PATCH bytes (im2col patches, 1x1 filters read in
 * place) run three pixels at a time where their inputs, whole chunks, fit
 * `wide` three times (triple_pass: each weight word, loaded and widened
 * once, feeds three pixels' SMLADs), else two (pair_pass), the inputs
 * widened once to halfword pairs (both pixels of a pair in one loop,
 * widen_two), every channel pair in one assembly loop from the bias; im2col
 * windows inside the image widened straight from the input, no gather; an
 * odd last pixel of a run is widened alike and summed four filters a pass
 * (one_sums); long filters three pixels and a piece of their patches at
 * a time, the sums kept across the pieces (long_triple_pass). The loops are laid out for the Cortex-M4's cycles, not
 * only its instruction count (see TA_WIDE_WORD).
 */
#include "ta_conv_2d_dsp.h"

#include "ta_conv_2d_patch.h"

#include "../include/ta_compiler.h"
#include "../include/ta_dw_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_simd.h"

#include <stddef.h>
#include <string.h>

#if defined(TA_HAVE_DSP) && !defined(TA_HAVE_MVE)
enum { MAX_WORD_PIXELS = 2 }; /* pixels per call of requantize4_words */

/* Inlined whatever the compiler's size estimate: the pair loop's pieces,
   whose sums must stay in registers, not go through memory. Not without
   optimization: gcc -O0 (the tests' glue flags) then finds no 13 registers
   for the inlined assembly, and speed does not matter there. */
#if defined(__OPTIMIZE__)
#define TA_INLINE_ALWAYS static inline __attribute__((always_inline))
#else
#define TA_INLINE_ALWAYS TA_NOINLINE static
#endif

/* requantize_nonnegative for a right shift, with the channel's part
   (r1 = -shift - 1 and 2^r1) worked out once for all its outputs. */
static inline int32_t requantize_right(int32_t acc, int32_t multiplier, int32_t r1, uint32_t pow_r1)
{
    const uint32_t half_less_neg = pow_r1 - ((uint32_t)acc >> 31);
    const int64_t sum = (int64_t)(((uint64_t)half_less_neg << 31) | 0x40000000u) +
                        (int64_t)acc * multiplier;
    return (int32_t)(sum >> 32) >> r1;
}

/* One output of a channel with a right shift as the low byte of a word:
   requantized, offset and saturated to int8 (not yet clamped). */
static inline uint32_t requantized_byte(int32_t acc, int32_t multiplier, int32_t r1,
                                        uint32_t pow_r1, int32_t offset)
{
    return (uint32_t)__ssat(requantize_right(acc, multiplier, r1, pow_r1) + offset, 8) & 0xffu;
}

/* Channel j (its byte of the output words) of both pixels' words w0, w1
   (sums s0 and s1; s1 only with two pixels): the channel's constants
   worked out once. */
#define TA_REQUANTIZE_CHANNEL(j, s0, s1)                                    \
    do {                                                                    \
        const int32_t m = multipliers[j], r1 = -shifts[j] - 1;              \
        const uint32_t pow_r1 = 1u << r1;                                   \
        w0 |= requantized_byte(s0, m, r1, pow_r1, offset) << (8 * (j));     \
        if (pixels == MAX_WORD_PIXELS)                                      \
            w1 |= requantized_byte(s1, m, r1, pow_r1, offset) << (8 * (j)); \
    } while (0)

/* The output range as a byte in every lane, and whether it narrows int8's
   (else the clamp is skipped: no activation). */
typedef struct {
    uint32_t lo4, hi4;
    int clamp;
} range4_t;

static inline range4_t output_range4(const ta_conv_2d_params_t *p)
{
    const range4_t r = {ta_splat4_s8(p->activation_min), ta_splat4_s8(p->activation_max),
                        p->activation_min > -128 || p->activation_max < 127};
    return r;
}

/* requantize4_words's usual case (a whole block, all four shifts right
   shifts): channel by channel, so that only one channel's constants and
   the pixels' words are live (no spills), saturated to int8, clamped four
   bytes at a time and stored as one word a pixel. Inline in the pair
   loop. */
TA_INLINE_ALWAYS void requantize4_right(const int32_t *acc, int32_t pixels,
                                        const int32_t *multipliers, const int32_t *shifts,
                                        int32_t offset, range4_t range, int8_t *out,
                                        size_t out_step)
{
    uint32_t w0 = 0, w1 = 0;
    TA_REQUANTIZE_CHANNEL(0, acc[0], acc[4]);
    TA_REQUANTIZE_CHANNEL(1, acc[1], acc[5]);
    TA_REQUANTIZE_CHANNEL(2, acc[2], acc[6]);
    TA_REQUANTIZE_CHANNEL(3, acc[3], acc[7]);
    if (range.clamp) {
        w0 = ta_clamp4_s8(w0, range.lo4, range.hi4);
        w1 = ta_clamp4_s8(w1, range.lo4, range.hi4);
    }
    memcpy(out, &w0, 4);
    if (pixels == MAX_WORD_PIXELS)
        memcpy(out + out_step, &w1, 4);
}

/* Whether all four channels' shifts are right shifts (requantize4_right). */
static inline int right_shifts4(const int32_t *shifts)
{
    return (shifts[0] & shifts[1] & shifts[2] & shifts[3]) < 0;
}

/* Channels o..o+3 (multipliers and shifts point at o) of `pixels` pixels
   (at most MAX_WORD_PIXELS), acc[4 * i + j] for pixel i and channel o + j,
   requantized into out + i * out_step + j for the first `valid` (1-4)
   channels (the last block of a channel count off four: its padded lanes
   are neither computed nor stored): a whole block of right shifts by
   requantize4_right, else channel by channel, output by output. One copy
   for the DSP loops that do not inline requantize4_right. */
TA_NOINLINE __attribute__((cold)) static void requantize4_words(const ta_conv_2d_params_t *p,
                                                                const int32_t *acc, int32_t pixels,
                                                                const int32_t *multipliers,
                                                                const int32_t *shifts, int8_t *out,
                                                                size_t out_step, int32_t valid)
{
    const int32_t offset = p->output_offset, lo = p->activation_min, hi = p->activation_max;
    if (TA_LIKELY(valid == 4 && right_shifts4(shifts))) {
        requantize4_right(acc, pixels, multipliers, shifts, offset, output_range4(p), out,
                          out_step);
        return;
    }
    for (int32_t j = 0; j < valid; j++)
        for (int32_t i = 0; i < pixels; i++) {
            const int32_t v = requantize_nonnegative(acc[4 * i + j], multipliers[j], shifts[j]);
            out[(size_t)i * out_step + (size_t)j] = (int8_t)ta_clamp_i32(v + offset, lo, hi);
        }
}

/* One output of any shift: requantized, offset and clamped. */
static inline int8_t requantized_s8(const ta_conv_2d_params_t *p, int32_t acc, int32_t multiplier,
                                    int32_t shift)
{
    return (int8_t)ta_clamp_i32(requantize_nonnegative(acc, multiplier, shift) + p->output_offset,
                                p->activation_min, p->activation_max);
}

/* The longest filter (bytes, whole chunks) of the pair loops: an im2col
   patch or a 1x1 filter's depth. */
enum { PAIR_FILTER = MAX_PATCH };
/* Bytes from one pixel's widened input to the next's in the pair loop:
   the 512 in TA_WIDE_WORD. */
enum { WIDE_GAP = TA_CONV_2D_WIDE_GAP };

/* One input word (k: its byte offset in the chunk, xk: the offset of its
   widened pair) of two filters by two pixels, for the pair loops below.
   Both weight words and the four input words are single loads in a row,
   so that the core pipelines them (an LDRD is never pipelined, and a load
   after other work is not): 18 instructions, about 19 cycles on the
   Cortex-M4 against 20 with the second weight word loaded after the first
   filter's SMLADs and 22 with two LDRDs. Registers (pair_pass's): r5 the
   weights w, r4 the widened inputs x, r1 and r11 the two filters' weight
   words, r0 their halfword pairs (SXTB16), r7/r8 pixel 0's even and odd
   pairs, r9/r10 pixel 1's; sums r3 (pixel 0, filter 0), r2 (pixel 0,
   filter 1), r12 (pixel 1, filter 0), lr (pixel 1, filter 1). */
/* clang-format off */
#define TA_WIDE_WORD(k, xk)                                                                        \
    "   ldr      r1, [r5, #" #k "]\n"                                                         \
    "   ldr      r11, [r5, #16 + " #k "]\n"                                                    \
    "   ldr      r7, [r4, #" #xk "]\n"                                                      \
    "   ldr      r8, [r4, #4 + " #xk "]\n"                                                  \
    "   ldr      r9, [r4, #512 + " #xk "]\n"                                                \
    "   ldr      r10, [r4, #516 + " #xk "]\n"                                                \
    TA_WIDE_WORD_MACS
/* The same for a chunk's first word, advancing w and x past the chunk
   (post-indexed) last, after the loads at offsets from them: a load right
   after a write-back to its base does not pipeline. */
#define TA_WIDE_WORD_ADVANCING                                                                     \
    "   ldr      r11, [r5, #16]\n"                                                              \
    "   ldr      r8, [r4, #4]\n"                                                             \
    "   ldr      r9, [r4, #512]\n"                                                           \
    "   ldr      r10, [r4, #516]\n"                                                           \
    "   ldr      r7, [r4], #32\n"                                                            \
    "   ldr      r1, [r5], #64\n"                                                              \
    TA_WIDE_WORD_MACS
/* The SMLADs of a word: filter 0's weights v, filter 1's u, each widened
   by two SXTB16 into t. */
#define TA_WIDE_WORD_MACS                                                                          \
    "   sxtb16   r0, r1\n"                                                                    \
    "   smlad    r3, r0, r7, r3\n"                                                    \
    "   smlad    r12, r0, r9, r12\n"                                                    \
    "   sxtb16   r0, r1, ror #8\n"                                                            \
    "   smlad    r3, r0, r8, r3\n"                                                    \
    "   smlad    r12, r0, r10, r12\n"                                                    \
    "   sxtb16   r0, r11\n"                                                                    \
    "   smlad    r2, r0, r7, r2\n"                                                    \
    "   smlad    lr, r0, r9, lr\n"                                                    \
    "   sxtb16   r0, r11, ror #8\n"                                                            \
    "   smlad    r2, r0, r8, r2\n"                                                    \
    "   smlad    lr, r0, r10, lr\n"
/* clang-format on */

/* pair_pass's count register c: 2^16 a whole chunk, less 2^16 plus the
   last chunk's one to three words if any. After the chunk that ends the
   last whole one c is 0 (no words left) or the words less 2^16
   (negative; its low two bits the words), before that positive: one
   subtraction a chunk gives all three cases, no correction after the
   loop. */
static inline uint32_t pair_chunk_count(int32_t words)
{
    return (uint32_t)(words / 4) * 65536u + (words % 4 != 0 ? (uint32_t)(words % 4) - 65536u : 0u);
}

/* What pair_pass reads and advances, in memory: r0-r12 and lr go to its
   loop, so it keeps the pointer to this on the stack and reloads it
   around the loop. Set
   once a run (pair_pass_init); the asm addresses the members by the byte
   offsets in their comments (all 32-bit: checked below). */
typedef struct {
    const int32_t *bias, *multipliers, *shifts;    /* 0, 4, 8: this pair's channels */
    int8_t *out;                                   /* 12: pixel 0's output of the pair */
    const uint32_t *wide;                          /* 16 */
    uint32_t count;                                /* 20: pair_chunk_count(words) */
    int32_t round_offset, out_step, clamp;         /* 24: 2 x output offset + 1; 28, 32 */
    uint32_t lo4, hi4;                             /* 36, 40: output_range4 */
    const int8_t *out_end;                         /* 44: out after the pass's last pair */
    const int32_t *bias0, *multipliers0, *shifts0; /* 48, 52, 56: channel 0's */
    const int8_t *w0;                              /* 60: the first block's weights */
    int32_t span0, span1;                          /* 64, 68: 4 x the pairs of pass 0, 1 */
    int8_t *out1;                                  /* 72: pass 1's first out */
    int32_t pending;                               /* 76: span1 while pass 1 is to run */
    const int32_t *bias1, *multipliers1, *shifts1; /* 80, 84, 88: channel 2's */
    const int8_t *w1;                              /* 92: the first block's weights + 32 */
} pair_pass_t;
typedef char pair_pass_layout[offsetof(pair_pass_t, w1) == 92 && sizeof(void *) == 4 ? 1 : -1];

/* A whole chunk of pair_pass: its first loads advance w and x (post-
   indexed), the rest of it at offsets back from there. */
/* clang-format off */
#define TA_PAIR_CHUNK                                                                              \
    TA_WIDE_WORD_ADVANCING                                                                         \
    TA_WIDE_WORD(4 - 64, 8 - 32) TA_WIDE_WORD(8 - 64, 16 - 32) TA_WIDE_WORD(12 - 64, 24 - 32)
/* clang-format on */

/* Every whole channel pair of pair_blocks in two passes (channels 4j and
   4j + 1, then 4j + 2 and 4j + 3: a pass steps its weights by a block) by
   two pixels whose inputs are widened at wide and WIDE_GAP bytes further,
   outputs from out: the bias-started sums over whole chunks, two a pass
   of the loop (c, r6: pair_chunk_count; w and x advanced by each chunk's
   first loads), then
   the last chunk's one to three words unrolled (entered at the first of
   them, last word first: no loop). Requantized in registers: with
   x = SMMULR(2 acc, multiplier) (ta_dw_requantize_right_doubled's product,
   exact while pair_pass_init's bounds hold) and e = -shift, the rounded division by 2^e plus the
   offset is (x + (acc >> 31) + (2 offset + 1) 2^(e-1)) >> e (acc's sign
   is x's unless x is 0, where either sign gives the offset): one SMMLAR adds the
   channel's constant, the last shift by one goes into the SSAT, 5
   instructions an output against 7 with SMMULR (the constant fits
   for e <= 23: pair_pass_init). The four bytes are clamped as one word
   and stored as one halfword a pixel. Against a C loop around two calls
   of a pair's sums and a requantization: no sums through memory and no
   loop state spilled and reloaded around each call. A whole function in
   assembly: the loop needs r0-r12 and lr, which inline assembly under
   clang (r7 its frame pointer) does not have. Needs a pair in pass 0
   (out_c >= 2). */
#define TA_ASM_ARG __attribute__((unused)) /* read by the assembly, not by C */
__attribute__((naked, noinline)) static void pair_pass(TA_ASM_ARG pair_pass_t *ctx,
                                                       TA_ASM_ARG int8_t *out)
{
    /* clang-format off */
    __asm__ volatile(
        "   push     {r4-r11, lr}\n"
        "   push     {r0}\n"
        "   str      r1, [r0, #12]\n"
        "   ldr      r6, [r0, #64]\n"
        "   ldr      r5, [r0, #68]\n"
        "   add      r6, r6, r1\n"
        "   str      r6, [r0, #44]\n"
        "   str      r5, [r0, #76]\n"
        "   adds     r1, r1, #2\n"
        "   str      r1, [r0, #72]\n"
        "   ldr      r3, [r0, #48]\n"
        "   ldr      r2, [r0, #52]\n"
        "   ldr      r12, [r0, #56]\n"
        "   ldr      r5, [r0, #60]\n"
        "6:\n" /* a pass from a0-a2 (first bias, multiplier, shift) and w */
        "   str      r3, [r0, #0]\n"
        "   str      r2, [r0, #4]\n"
        "   str      r12, [r0, #8]\n"
        "0:\n" /* a pair: w its weights */
        "   ldr      r1, [r0, #0]\n"
        "   ldr      r4, [r0, #16]\n"
        "   ldr      r6, [r0, #20]\n"
        "   ldrd     r3, r2, [r1], #16\n"
        "   str      r1, [r0, #0]\n"
        "   mov      r12, r3\n"
        "   mov      lr, r2\n"
        "   cmp      r6, #0\n"
        "   blt      2f\n"
        /* two chunks a pass, the count tested after each: one taken
           branch per two chunks; the flags of the last test tell the
           words left (pair_chunk_count) */
        "1:\n" TA_PAIR_CHUNK
        "   subs     r6, r6, #65536\n"
        "   ble      2f\n" TA_PAIR_CHUNK
        "   subs     r6, r6, #65536\n"
        "   bgt      1b\n"
        "2:\n"
        "   beq      4f\n"
        "   lsls     r6, r6, #31\n" /* the words left: C = bit 1, Z = !bit 0 */
        "   bcc      31f\n"
        "   beq      32f\n"
        TA_WIDE_WORD(8, 16)
        "32:\n" TA_WIDE_WORD(4, 8)
        "31:\n" TA_WIDE_WORD(0, 0)
        "   adds     r5, r5, #64\n" /* the next pair's weights: past the padded chunk */
        "4:\n" /* a0, a1: pixel 0's channels o, o + 1; a2, a3: pixel 1's */
        "   ldr      r0, [sp]\n"
        "   lsls     r3, r3, #1\n"
        "   lsls     r12, r12, #1\n"
        "   lsls     r2, r2, #1\n"
        "   lsls     lr, lr, #1\n"
        "   ldr      r4, [r0, #4]\n"
        "   ldr      r6, [r0, #8]\n"
        "   ldr      r1, [r0, #24]\n"
        "   ldrd     r7, r8, [r4], #16\n"
        "   ldrd     r9, r10, [r6], #16\n"
        "   str      r4, [r0, #4]\n"
        "   str      r6, [r0, #8]\n"
        /* per channel: r = -shift - 1 and K = (2 offset + 1) << r */
        "   mvns     r9, r9\n"
        "   mvns     r10, r10\n"
        "   lsl      r4, r1, r9\n"
        "   lsl      r6, r1, r10\n"
        "   smmlar   r1, r3, r7, r4\n"
        "   add      r3, r1, r3, asr #31\n"
        "   smmlar   r1, r12, r7, r4\n"
        "   add      r12, r1, r12, asr #31\n"
        "   smmlar   r1, r2, r8, r6\n"
        "   add      r2, r1, r2, asr #31\n"
        "   smmlar   r1, lr, r8, r6\n"
        "   add      lr, r1, lr, asr #31\n"
        "   asrs     r3, r3, r9\n"
        "   asrs     r12, r12, r9\n"
        "   asrs     r2, r2, r10\n"
        "   asrs     lr, lr, r10\n"
        /* out, out_step, w_step, out_end, clamp: loads in a row */
        "   ldr      r4, [r0, #12]\n"
        "   ldr      r9, [r0, #28]\n"
        "   ldr      r10, [r0, #44]\n"
        "   ldr      r6, [r0, #32]\n"
        "   ssat     r3, #8, r3, asr #1\n"
        "   ssat     r12, #8, r12, asr #1\n"
        "   ssat     r2, #8, r2, asr #1\n"
        "   ssat     lr, #8, lr, asr #1\n"
        "   bfi      r3, r2, #8, #8\n"
        "   bfi      r3, r12, #16, #8\n"
        "   bfi      r3, lr, #24, #8\n"
        "   cmp      r6, #0\n"
        "   beq      5f\n"
        "   ldr      r6, [r0, #36]\n"
        "   ssub8    r7, r3, r6\n"
        "   sel      r3, r3, r6\n"
        "   ldr      r6, [r0, #40]\n"
        "   ssub8    r7, r3, r6\n"
        "   sel      r3, r6, r3\n"
        "5:\n"
        "   lsrs     r2, r3, #16\n"
        "   strh     r2, [r4, r9]\n"
        "   strh     r3, [r4], #4\n"
        "   cmp      r4, r10\n"
        "   str      r4, [r0, #12]\n"
        "   bne      0b\n"
        /* pass 1, once: channels 4j + 2, 4j + 3 (none when out_c < 4) */
        "   ldr      r6, [r0, #76]\n"
        "   cmp      r6, #0\n"
        "   beq      7f\n"
        "   movs     r5, #0\n"
        "   str      r5, [r0, #76]\n"
        "   ldr      r1, [r0, #72]\n"
        "   str      r1, [r0, #12]\n"
        "   add      r6, r6, r1\n"
        "   str      r6, [r0, #44]\n"
        "   ldr      r3, [r0, #80]\n"
        "   ldr      r2, [r0, #84]\n"
        "   ldr      r12, [r0, #88]\n"
        "   ldr      r5, [r0, #92]\n"
        "   b        6b\n"
        "7:\n"
        "   add      sp, sp, #4\n"
        "   pop      {r4-r11, pc}\n");
    /* clang-format on */
}
#undef TA_PAIR_CHUNK
#undef TA_WIDE_WORD
#undef TA_WIDE_WORD_ADVANCING
#undef TA_WIDE_WORD_MACS

/* `words` (at least one) whole words of two pixels (at x0 and x1) widened
   as ta_widen_s8_pairs does, pixel 1's WIDE_GAP bytes after pixel 0's:
   both in one loop, each pair of halfword pairs stored by one STRD, 5
   instructions a word against 8 for two ta_widen_s8_pairs. */
static inline void widen_two(uint32_t *wide, const int8_t *x0, const int8_t *x1, int32_t words)
{
    uint32_t a, b, e, f;
    /* clang-format off */
    __asm volatile(
        "1:\n"
        "   ldr      %[a], [%[x0]], #4\n"
        "   ldr      %[b], [%[x1]], #4\n"
        "   sxtb16   %[e], %[a]\n"
        "   sxtb16   %[a], %[a], ror #8\n"
        "   sxtb16   %[f], %[b]\n"
        "   sxtb16   %[b], %[b], ror #8\n"
        "   strd     %[f], %[b], [%[w], #512]\n"
        "   strd     %[e], %[a], [%[w]], #8\n"
        "   subs     %[n], %[n], #1\n"
        "   bne      1b\n"
        : [x0] "+r"(x0), [x1] "+r"(x1), [w] "+r"(wide), [n] "+r"(words), [a] "=&r"(a),
          [b] "=&r"(b), [e] "=&r"(e), [f] "=&r"(f)
        :
        : "cc", "memory");
    /* clang-format on */
}

/* `words` (at least one) whole words at x widened as ta_widen_s8_pairs
   does, each word's two halfword pairs stored by one STRD, STEP bytes
   after the last word's: widen_one (8: one pixel's pairs in a row, 6
   instructions a word against 8) and widen_one_of_three (24: one pixel
   into its place in triple_pass's layout, wide its first pair). */
/* clang-format off */
#define TA_DEFINE_WIDEN_ONE(NAME, STEP)                                                            \
    static inline void NAME(uint32_t *wide, const int8_t *x, int32_t words)                       \
    {                                                                                              \
        uint32_t a, e;                                                                             \
        __asm volatile(                                                                            \
            "1:\n"                                                                                 \
            "   ldr      %[a], [%[x]], #4\n"                                                       \
            "   sxtb16   %[e], %[a]\n"                                                             \
            "   sxtb16   %[a], %[a], ror #8\n"                                                     \
            "   strd     %[e], %[a], [%[w]], #" #STEP "\n"                                         \
            "   subs     %[n], %[n], #1\n"                                                         \
            "   bne      1b\n"                                                                     \
            : [x] "+r"(x), [w] "+r"(wide), [n] "+r"(words), [a] "=&r"(a), [e] "=&r"(e)            \
            :                                                                                      \
            : "cc", "memory");                                                                     \
    }
TA_DEFINE_WIDEN_ONE(widen_one, 8)
TA_DEFINE_WIDEN_ONE(widen_one_of_three, 24)
#undef TA_DEFINE_WIDEN_ONE
/* clang-format on */

/* n bytes at x widened to halfword pairs (ta_widen_s8_pairs), a last
   partial word read byte by byte and zero-extended. */
static void widen_bytes(uint32_t *wide, const int8_t *x, int32_t n)
{
    const int32_t whole = n & ~3;
    if (whole > 0)
        widen_one(wide, x, whole / 4);
    if (whole < n) {
        const uint8_t *b = (const uint8_t *)x + whole;
        uint32_t v = b[0]; /* little-endian: the low bytes */
        if (n - whole > 1)
            v |= (uint32_t)b[1] << 8;
        if (n - whole > 2)
            v |= (uint32_t)b[2] << 16;
        wide[whole / 2] = __sxtb16(v);
        wide[whole / 2 + 1] = ta_sxtb16_ror8(v);
    }
}

/* Whether the assembly passes' SMMLAR requantization (pair_pass,
   triple_pass, long_triple_pass) holds for every channel: every shift a
   right shift down to -23 (the rounding constant fits) and every bias sum
   in [-2^29, 2^29). */
static int smmlar_bounds(const int32_t *bias_sum, const int32_t *shifts, int32_t out_c)
{
    uint32_t bits = 0; /* bits 30 and 31 set by any channel that fails */
    for (int32_t o = 0; o < out_c; o++)
        bits |= ~(uint32_t)shifts[o] | ((uint32_t)bias_sum[o] + 0x20000000u) |
                (uint32_t)(shifts[o] + 23);
    return (bits >> 30) == 0;
}

/* A run's pair_pass_t (bias, requantization and weights of every output
   channel, inputs widened at wide, `words` words): whether pair_pass may
   run: at least one channel pair, every shift a right shift down to -23
   (the rounding constant fits) and every bias sum in [-2^29, 2^29), so
   that the sums (at most TA_CONV_2D_MAX_PATCH products of two int8,
   |sum| <= 2^22) stay in [-2^30, 2^30), where SMMULR on the doubled sum
   rounds as requantize_right (ta_dw_requantize_right_doubled). */
static int pair_pass_init(pair_pass_t *ctx, const ta_conv_2d_params_t *p, const uint32_t *wide,
                          int32_t words, const int8_t *weights, size_t block_bytes,
                          const int32_t *bias_sum, const int32_t *multipliers,
                          const int32_t *shifts)
{
    const int32_t out_c = p->output_depth;
    const range4_t range = output_range4(p);
    /* the asm sets bias, multipliers, shifts, out, out_end, out1, pending */
    ctx->wide = wide;
    ctx->count = pair_chunk_count(words);
    ctx->round_offset = 2 * p->output_offset + 1;
    ctx->out_step = out_c;
    ctx->clamp = range.clamp;
    ctx->lo4 = range.lo4;
    ctx->hi4 = range.hi4;
    ctx->bias0 = bias_sum;
    ctx->multipliers0 = multipliers;
    ctx->shifts0 = shifts;
    ctx->w0 = weights;
    ctx->span0 = 4 * ((out_c + 2) / 4);
    ctx->span1 = 4 * (out_c / 4);
    ctx->bias1 = bias_sum + 2;
    ctx->multipliers1 = multipliers + 2;
    ctx->shifts1 = shifts + 2;
    ctx->w1 = weights + 32;
    /* blocks of whole chunks: a pair's weights follow the last one's padded chunk */
    return out_c >= 2 && smmlar_bounds(bias_sum, shifts, out_c) &&
           block_bytes == (size_t)(words + 3) / 4 * 64;
}

static void one_pixel_blocks(const ta_conv_2d_params_t *p, const uint32_t *wide, int32_t words,
                             const int8_t *weights, size_t block_bytes, const int32_t *bias_sum,
                             const int32_t *multipliers, const int32_t *shifts, int8_t *out,
                             int32_t first);

/* Every output channel (per-channel requantization) of two pixels whose
   inputs, `words` words each, are widened at wide and wide + WIDE_GAP
   bytes; the second pixel's outputs at out + out_c. With `pass`
   (pair_pass_init held) every whole channel pair by pair_pass; the rest
   (an odd last channel's block, or every block without `pass`: shifts
   that are not right shifts, or below -23, or large biases: rare) a pixel
   at a time by one_pixel_blocks, which the odd last pixel of a run links
   anyway; called from here, not from pair_pass, so that the two frames do
   not add up on the stack. */
TA_INLINE_ALWAYS void pair_blocks(const ta_conv_2d_params_t *p, const uint32_t *wide, int32_t words,
                                  const int8_t *weights, size_t block_bytes,
                                  const int32_t *bias_sum, const int32_t *multipliers,
                                  const int32_t *shifts, pair_pass_t *pass, int8_t *out)
{
    const int32_t out_c = p->output_depth;
    int32_t o = 0;
    if (TA_LIKELY(pass != NULL)) {
        pair_pass(pass, out);
        if (out_c % 2 == 0)
            return;
        o = out_c & ~3; /* the odd channel's block, its pair again */
    }
    for (int32_t k = 0; k < 2; k++)
        one_pixel_blocks(p, wide + k * (WIDE_GAP / 4), words, weights, block_bytes, bias_sum,
                         multipliers, shifts, out + k * out_c, o);
}

/* One widened input word (its pair at byte xk of the widened input) of
   the four filters of a block (their words at byte k, k + 16, k + 32,
   k + 48) by one pixel: each input pair loaded once (one LDRD) for the
   four filters, 21 instructions per 16 MACs against the byte loop's 23
   (ta_dot4_interleaved_dsp widens the input word again for every block). */
/* clang-format off */
#define TA_ONE_FILTER(ACC, OFF)                                                                    \
    "   ldr      %[v], [%[w], #" #OFF "]\n"                                                        \
    "   sxtb16   %[t], %[v]\n"                                                                    \
    "   smlad    %[" #ACC "], %[t], %[xe], %[" #ACC "]\n"                                         \
    "   sxtb16   %[t], %[v], ror #8\n"                                                            \
    "   smlad    %[" #ACC "], %[t], %[xo], %[" #ACC "]\n"
#define TA_ONE_WORD(K0, K1, K2, K3, XK)                                                            \
    "   ldrd     %[xe], %[xo], [%[x], #" #XK "]\n"                                                \
    TA_ONE_FILTER(a0, K0) TA_ONE_FILTER(a1, K1) TA_ONE_FILTER(a2, K2) TA_ONE_FILTER(a3, K3)
/* clang-format on */

/* The bias-started sums of a block's four filters (at w, the interleaved
   layout) by one pixel over `words` words of its input widened at xw
   (ta_widen_s8_pairs): whole 16-byte chunks, then the last chunk's
   remaining words one by one. */
TA_INLINE_ALWAYS void one_sums(int32_t acc[4], const int32_t *bias, const int8_t *w,
                               const uint32_t *xw, int32_t words)
{
    int32_t a0 = bias[0], a1 = bias[1], a2 = bias[2], a3 = bias[3];
    int32_t chunks = words / 4, rest = words % 4;
    uint32_t xe, xo, v, t;
    /* clang-format off */
    __asm volatile(
        "   cmp      %[c], #0\n"
        "   beq      2f\n"
        "1:\n" TA_ONE_WORD(0, 16, 32, 48, 0) TA_ONE_WORD(4, 20, 36, 52, 8)
               TA_ONE_WORD(8, 24, 40, 56, 16) TA_ONE_WORD(12, 28, 44, 60, 24)
        "   adds     %[x], %[x], #32\n"
        "   adds     %[w], %[w], #64\n"
        "   subs     %[c], %[c], #1\n"
        "   bne      1b\n"
        "2:\n"
        "   cmp      %[r], #0\n"
        "   beq      4f\n"
        "3:\n" TA_ONE_WORD(0, 16, 32, 48, 0)
        "   adds     %[x], %[x], #8\n"
        "   adds     %[w], %[w], #4\n"
        "   subs     %[r], %[r], #1\n"
        "   bne      3b\n"
        "4:\n"
        : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [x] "+r"(xw), [w] "+r"(w),
          [c] "+r"(chunks), [r] "+r"(rest), [xe] "=&r"(xe), [xo] "=&r"(xo), [v] "=&r"(v),
          [t] "=&r"(t)
        :
        : "cc", "memory");
    /* clang-format on */
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}
#undef TA_ONE_WORD
#undef TA_ONE_FILTER

/* Every output channel from `first` (a multiple of four; per-channel
   requantization) of one pixel whose input, `words` words, is widened at
   wide: the pair loop's odd last pixel, at about the pair loop's cost a
   pixel, and pair_blocks' rare blocks. A last block of one to three
   channels computes all four filters (the arrays are padded to whole
   blocks) and stores only its channels. */
TA_NOINLINE static void one_pixel_blocks(const ta_conv_2d_params_t *p, const uint32_t *wide,
                                         int32_t words, const int8_t *weights, size_t block_bytes,
                                         const int32_t *bias_sum, const int32_t *multipliers,
                                         const int32_t *shifts, int8_t *out, int32_t first)
{
    const int32_t out_c = p->output_depth, offset = p->output_offset;
    const range4_t range = output_range4(p);
    weights += (size_t)(first / 4) * block_bytes;
    for (int32_t o = first; o < out_c; o += 4, weights += block_bytes) {
        int32_t acc[4];
        const int32_t valid = out_c - o < 4 ? out_c - o : 4;
        one_sums(acc, bias_sum + o, weights, wide, words);
        if (TA_LIKELY(valid == 4 && right_shifts4(shifts + o)))
            requantize4_right(acc, 1, multipliers + o, shifts + o, offset, range, out + o, 0);
        else
            requantize4_words(p, acc, 1, multipliers + o, shifts + o, out + o, 0, valid);
    }
}

/* Three pixels by two filters: each weight word, loaded and widened once,
   feeds three pixels' SMLADs (the pair loop's feed two): 21 instructions
   and about 28 Cortex-M4 cycles per 24 MACs against 18 and 20 per 16. The
   three inputs are widened interleaved a word at a time (word k's
   halfword pairs of pixels A, B, C at words 6k to 6k + 5 of `wide`,
   widen_one_of_three), so that one LDM reads a pixel's pair and one
   pointer walks all three. TRIPLE_WORDS: the whole chunks of input words
   that fit `wide`. */
enum { TRIPLE_WORDS = TA_CONV_2D_WIDE_WORDS / 6 / 4 * 4 };

/* One input word (byte K of the chunk's filter words, K - 64 after the
   chunk's first word has advanced w) of filters f0, f1 (r11, lr raw, then
   halfword pairs r10/r11 and r12/lr) by pixels A, B, C (r0, r1: a pixel's
   even and odd pairs, one LDM each) into r4-r9 (A f0, A f1, B f0, ...). */
/* clang-format off */
#define TA_T3_PIXEL(A0, A1)                                                                        \
    "   ldmia    r2!, {r0, r1}\n"                                                                 \
    "   smlad    " A0 ", r10, r0, " A0 "\n"                                                       \
    "   smlad    " A0 ", r11, r1, " A0 "\n"                                                       \
    "   smlad    " A1 ", r12, r0, " A1 "\n"                                                       \
    "   smlad    " A1 ", lr, r1, " A1 "\n"
#define TA_T3_WORD_FROM(LOADS, TEST)                                                               \
    LOADS                                                                                          \
    "   sxtb16   r12, lr\n"                                                                       \
    "   sxtb16   lr, lr, ror #8\n"                                                                \
    "   sxtb16   r10, r11\n"                                                                      \
    "   sxtb16   r11, r11, ror #8\n"                                                              \
    TEST TA_T3_PIXEL("r4", "r5") TA_T3_PIXEL("r6", "r7") TA_T3_PIXEL("r8", "r9")
#define TA_T3_WORD(K)                                                                              \
    TA_T3_WORD_FROM("   ldr      r11, [r3, #" #K " - 64]\n"                                        \
                    "   ldr      lr, [r3, #16 + " #K " - 64]\n", "")
/* The chunk's last word, with the loop's test: the widened inputs' last
   word ([sp, #4]) loaded behind the weights (pipelined) and compared with
   x before its LDMs (the flags kept to the chunk's end). */
#define TA_T3_WORD_LAST(K)                                                                         \
    TA_T3_WORD_FROM("   ldr      r11, [r3, #" #K " - 64]\n"                                        \
                    "   ldr      lr, [r3, #16 + " #K " - 64]\n"                                    \
                    "   ldr      r0, [sp, #4]\n",                                                 \
                    "   cmp      r2, r0\n")
/* One output: x = SMMLAR(2 acc, multiplier M, constant K), rounded by
   pair_pass's scheme (shift R = -shift - 1), saturated to int8. */
#define TA_T3_REQUANTIZE(A, M, K, R)                                                               \
    "   lsls     " A ", " A ", #1\n"                                                              \
    "   smmlar   lr, " A ", " M ", " K "\n"                                                       \
    "   add      " A ", lr, " A ", asr #31\n"                                                     \
    "   asrs     " A ", " A ", " R "\n"                                                           \
    "   ssat     " A ", #8, " A ", asr #1\n"
/* clang-format on */

/* The chunk loop of triple_pass and long_triple_pass: x (r2) from the
   widened inputs' start to their end ([sp, #4]: their last word), w (r3)
   advanced a chunk a pass. */
/* clang-format off */
#define TA_T3_CHUNKS \
        "1:\n" /* a chunk: its first word's loads advance w */ \
        TA_T3_WORD_FROM("   ldr      lr, [r3, #16]\n" \
                        "   ldr      r11, [r3], #64\n", "") \
        TA_T3_WORD(4) TA_T3_WORD(8) TA_T3_WORD_LAST(12) \
        "   bne      1b\n"
/* A pair's six sums (r4-r9: pixels A, B, C by its two filters) started
   from its two biases, the context's bias pointer (lr) advanced a block;
   LOAD (r2 free) between the pointer's load and its use. */
#define TA_T3_FROM_BIASES(LOAD) \
        "   ldr      r0, [lr, #0]\n" \
        LOAD \
        "   ldrd     r4, r5, [r0], #16\n" \
        "   str      r0, [lr, #0]\n" \
        "   mov      r6, r4\n" \
        "   mov      r7, r5\n" \
        "   mov      r8, r4\n" \
        "   mov      r9, r5\n"
/* The pair's six sums requantized and stored, out (the context's, lr)
   advanced by a pair (r0 its new value); LOADS (r2 free) with the loads
   before the stores. */
#define TA_T3_REQUANTIZE_STORE(LOADS) \
        /* the pair's multipliers (r0, r1), r = -shift - 1 (r2, r10) and \
           K = (2 offset + 1) << r (r11, r12) */ \
        "   ldr      lr, [sp]\n" \
        "   ldr      r10, [lr, #4]\n" \
        "   ldr      r11, [lr, #8]\n" \
        "   ldr      r12, [lr, #24]\n" \
        "   ldrd     r0, r1, [r10], #16\n" \
        "   str      r10, [lr, #4]\n" \
        "   ldrd     r2, r10, [r11], #16\n" \
        "   str      r11, [lr, #8]\n" \
        "   mvns     r2, r2\n" \
        "   mvns     r10, r10\n" \
        "   lsl      r11, r12, r2\n" \
        "   lsl      r12, r12, r10\n" \
        TA_T3_REQUANTIZE("r4", "r0", "r11", "r2") \
        TA_T3_REQUANTIZE("r6", "r0", "r11", "r2") \
        TA_T3_REQUANTIZE("r8", "r0", "r11", "r2") \
        TA_T3_REQUANTIZE("r5", "r1", "r12", "r10") \
        TA_T3_REQUANTIZE("r7", "r1", "r12", "r10") \
        TA_T3_REQUANTIZE("r9", "r1", "r12", "r10") \
        "   bfi      r4, r5, #8, #8\n" \
        "   bfi      r4, r6, #16, #8\n" \
        "   bfi      r4, r7, #24, #8\n" \
        "   bfi      r8, r9, #8, #8\n" \
        "   ldr      lr, [sp]\n" \
        "   ldr      r0, [lr, #32]\n" \
        "   cbz      r0, 5f\n" \
        "   ldrd     r0, r1, [lr, #36]\n" \
        "   ssub8    r2, r4, r0\n" \
        "   sel      r4, r4, r0\n" \
        "   ssub8    r2, r4, r1\n" \
        "   sel      r4, r1, r4\n" \
        "   ssub8    r2, r8, r0\n" \
        "   sel      r8, r8, r0\n" \
        "   ssub8    r2, r8, r1\n" \
        "   sel      r8, r1, r8\n" \
        "5:\n" \
        "   ldr      r0, [lr, #12]\n" \
        "   ldr      r1, [lr, #28]\n" \
        LOADS \
        "   lsrs     r5, r4, #16\n" \
        "   strh     r5, [r0, r1]\n" \
        "   strh     r8, [r0, r1, lsl #1]\n" \
        "   strh     r4, [r0], #4\n" \
        "   str      r0, [lr, #12]\n"
/* clang-format on */

/* Every channel pair of three pixels widened at ctx->wide (pair_blocks'
   pair_pass_t, whole chunks: its count is their number times 2^16),
   outputs from out, out + out_c, out + 2 out_c, in pair_pass's two passes
   (channels 4j, 4j + 1, then 4j + 2, 4j + 3: a pass's pairs a block of
   weights apart, where a pair's loop leaves w), its context members
   likewise: the bias-started sums over whole chunks (the end of the
   widened input kept on the stack, tested at a chunk's end), then
   requantized in registers as pair_pass does (5 instructions an output),
   the pair's bytes clamped as two words (A and B's four, C's two) and
   stored as a halfword a pixel. A whole function in assembly: the loop
   needs r0-r12 and lr, which inline assembly under clang (r7 its frame
   pointer) does not have. An odd last channel is not written. */
__attribute__((naked, noinline)) static void triple_pass(TA_ASM_ARG pair_pass_t *ctx,
                                                         TA_ASM_ARG int8_t *out)
{
    /* clang-format off */
    __asm__ volatile(
        "   push     {r4-r11, lr}\n"
        "   ldr      r2, [r0, #20]\n"
        "   ldr      r3, [r0, #16]\n"
        "   lsrs     r2, r2, #16\n" /* chunks of 96 widened bytes */
        "   add      r2, r2, r2, lsl #1\n"
        "   add      r2, r3, r2, lsl #5\n"
        "   subs     r2, r2, #24\n"
        "   push     {r0, r2}\n" /* [sp]: ctx, [sp, #4]: the widened inputs' last word */
        "   mov      lr, r0\n"
        "   str      r1, [lr, #12]\n"
        "   ldr      r2, [lr, #64]\n"
        "   ldr      r3, [lr, #68]\n"
        "   add      r2, r2, r1\n"
        "   str      r2, [lr, #44]\n"
        "   str      r3, [lr, #76]\n"
        "   adds     r1, r1, #2\n"
        "   str      r1, [lr, #72]\n"
        "   ldr      r4, [lr, #48]\n"
        "   ldr      r5, [lr, #52]\n"
        "   ldr      r6, [lr, #56]\n"
        "   ldr      r3, [lr, #60]\n"
        "6:\n" /* a pass from r4-r6 (first bias, multiplier, shift) and w (r3) */
        "   str      r4, [lr, #0]\n"
        "   str      r5, [lr, #4]\n"
        "   str      r6, [lr, #8]\n"
        "0:\n" /* a pair: lr the context, r3 its weights */
        TA_T3_FROM_BIASES("   ldr      r2, [lr, #16]\n")
        TA_T3_CHUNKS
        TA_T3_REQUANTIZE_STORE("   ldr      r2, [lr, #44]\n")
        "   cmp      r0, r2\n"
        "   bne      0b\n"
        /* pass 1, once: channels 4j + 2, 4j + 3 (none when out_c < 4) */
        "   ldr      r2, [lr, #76]\n"
        "   cbz      r2, 7f\n"
        "   movs     r3, #0\n"
        "   str      r3, [lr, #76]\n"
        "   ldr      r1, [lr, #72]\n"
        "   str      r1, [lr, #12]\n"
        "   add      r2, r2, r1\n"
        "   str      r2, [lr, #44]\n"
        "   ldr      r4, [lr, #80]\n"
        "   ldr      r5, [lr, #84]\n"
        "   ldr      r6, [lr, #88]\n"
        "   ldr      r3, [lr, #92]\n"
        "   b        6b\n"
        "7:\n"
        "   add      sp, sp, #8\n"
        "   pop      {r4-r11, pc}\n");
    /* clang-format on */
}
/* What long_triple_pass reads and advances, in memory: triple_pass's
   members at their offsets, and the sums kept across a long filter's
   pieces. */
typedef struct {
    const int32_t *bias, *multipliers, *shifts; /* 0, 4, 8: the next pair's channels */
    int8_t *out;                                /* 12: pixel A's output of that pair */
    const uint32_t *wide, *wide_end;            /* 16, 20: this piece, widened */
    int32_t round_offset, out_step, clamp;      /* 24, 28, 32: as pair_pass_t's */
    uint32_t lo4, hi4;                          /* 36, 40 */
    int32_t pairs;                              /* 44: pairs left in the pass */
    const int8_t *w;                            /* 48: the next pair's weights of this piece */
    int32_t block_bytes;                        /* 52: from one pair's weights to the next's */
    int32_t *sums;                              /* 56: the next pair's six sums */
    int32_t requantize, from_bias;              /* 60, 64: the last piece; the first */
} long_triple_t;
typedef char long_triple_layout[offsetof(long_triple_t, from_bias) == 64 ? 1 : -1];

/* triple_pass for one pass of a piece of a long filter (ctx: the pass's
   first pair; its pairs a block of weights apart): each pair's sums start
   from the bias (the first piece) or from its six sums in memory, and go
   back there, or (the last piece) are requantized and stored as
   triple_pass does. Needs a pair and a chunk. */
__attribute__((naked, noinline)) static void long_triple_pass(TA_ASM_ARG long_triple_t *ctx)
{
    /* clang-format off */
    __asm__ volatile(
        "   push     {r4-r11, lr}\n"
        "   ldr      r1, [r0, #20]\n"
        "   subs     r1, r1, #24\n"
        "   push     {r0, r1}\n" /* [sp]: ctx, [sp, #4]: the widened piece's last word */
        "   mov      lr, r0\n"
        "0:\n" /* a pair: lr the context */
        "   ldr      r3, [lr, #48]\n"
        "   ldr      r0, [lr, #52]\n"
        "   ldr      r2, [lr, #16]\n"
        "   add      r0, r0, r3\n"
        "   str      r0, [lr, #48]\n"
        "   ldr      r0, [lr, #64]\n"
        "   cbz      r0, 2f\n"
        TA_T3_FROM_BIASES("")
        "   b        1f\n"
        "2:\n"
        "   ldr      r0, [lr, #56]\n"
        "   ldm      r0, {r4-r9}\n"
        TA_T3_CHUNKS
        "   ldr      lr, [sp]\n"
        "   ldr      r0, [lr, #60]\n"
        "   cbnz     r0, 3f\n"
        "   ldr      r0, [lr, #56]\n"
        "   stmia    r0!, {r4-r9}\n"
        "   str      r0, [lr, #56]\n"
        "   b        4f\n"
        "3:\n"
        "   ldr      r0, [lr, #56]\n"
        "   adds     r0, r0, #24\n"
        "   str      r0, [lr, #56]\n"
        TA_T3_REQUANTIZE_STORE("")
        "4:\n"
        "   ldr      r0, [lr, #44]\n"
        "   subs     r0, r0, #1\n"
        "   str      r0, [lr, #44]\n"
        "   bne      0b\n"
        "   add      sp, sp, #8\n"
        "   pop      {r4-r11, pc}\n");
    /* clang-format on */
}

#undef TA_ASM_ARG
#undef TA_T3_REQUANTIZE_STORE
#undef TA_T3_CHUNKS
#undef TA_T3_FROM_BIASES
#undef TA_T3_REQUANTIZE
#undef TA_T3_WORD_LAST
#undef TA_T3_WORD
#undef TA_T3_WORD_FROM
#undef TA_T3_PIXEL

/* Whether triple_pass takes a run's layer: pair_pass_init held (`pass`),
   inputs of whole chunks that fit `wide` and an even output depth. */
static inline int triple_pass_takes(const ta_conv_2d_params_t *p, const pair_pass_t *pass,
                                    int32_t words)
{
    return pass != NULL && words % 4 == 0 && words <= TRIPLE_WORDS && p->output_depth % 2 == 0;
}

/* Whether a run with `left` pixels to go does a triple next: the last
   four go as two pairs (a triple and a lone pixel take fewer
   instructions but more cycles). */
static inline int triple_next(int32_t left)
{
    return left >= 3 && left != 4;
}

/* Every output channel of one pixel from its patch of n bytes (an odd last
   pixel of the pairs): whole blocks (the arrays are padded to them), only
   the valid channels of the last stored. */
static void patch_pixel(const ta_conv_2d_params_t *p, const int8_t *patch, int32_t n,
                        const int8_t *weights, size_t block_bytes, const int32_t *bias_sum,
                        const int32_t *multipliers, const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth;
    for (int32_t o = 0; o < out_c; o += 4, weights += block_bytes) {
        const int32_t valid = out_c - o < 4 ? out_c - o : 4;
        int32_t acc[4] = {bias_sum[o], bias_sum[o + 1], bias_sum[o + 2], bias_sum[o + 3]};
        ta_dot4_interleaved_s8(acc, weights, patch, n);
        requantize4_words(p, acc, 1, multipliers + o, shifts + o, out + o, 0, valid);
    }
}

/* requantize4_words for one pixel: its usual block (four channels, right
   shifts, the full int8 range) as a loop over the channels, without
   requantize4_words's calls per byte (both cold: optimized for size). */
TA_NOINLINE __attribute__((cold)) static void
requantize4_one(const ta_conv_2d_params_t *p, const int32_t *acc, const int32_t *multipliers,
                const int32_t *shifts, int8_t *out, int32_t valid)
{
    if (valid != 4 || !right_shifts4(shifts) || output_range4(p).clamp) {
        requantize4_words(p, acc, 1, multipliers, shifts, out, 0, valid);
        return;
    }
    uint32_t w = 0;
    for (int32_t j = 0; j < 4; j++) {
        const int32_t r1 = -shifts[j] - 1;
        w |= requantized_byte(acc[j], multipliers[j], r1, 1u << r1, p->output_offset) << (8 * j);
    }
    memcpy(out, &w, 4);
}

/* Pixels one at a time, four channels a pass: filters longer than the
   pair loops', or a run of one pixel (a widening would cost about what it
   saves). Kept small (cold: gcc optimizes it for size). */
TA_NOINLINE __attribute__((cold)) static void
single_pixels(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step, int32_t pixels,
              int32_t n, const int8_t *weights, size_t block_bytes, const int32_t *bias_sum,
              const int32_t *multipliers, const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth;
    for (int32_t i = 0; i < pixels; i++, x += x_step, out += out_c) {
        const int8_t *w = weights;
        for (int32_t o = 0; o < out_c; o += 4, w += block_bytes) {
            const int32_t valid = out_c - o < 4 ? out_c - o : 4;
            int32_t acc[4] = {bias_sum[o], bias_sum[o + 1], bias_sum[o + 2], bias_sum[o + 3]};
            ta_dot4_interleaved_s8(acc, w, x, n);
            requantize4_one(p, acc, multipliers + o, shifts + o, out + o, valid);
        }
    }
}

/* ta_conv_2d_run_s8_dsp's runs of two pixels or more with filters the
   pair loops take; out of line so that a single pixel's path (pointwise
   layers of 1x1 images) does not pay for its frame. */
TA_NOINLINE static void run_pairs(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step,
                                  int32_t pixels, int32_t n, const int8_t *weights,
                                  size_t block_bytes, const int32_t *bias_sum,
                                  const int32_t *multipliers, const int32_t *shifts, uint32_t *wide,
                                  int8_t *out)
{
    const size_t out_c = (size_t)p->output_depth;
    /* Pixels in threes where triple_pass takes the layer (the one, two or
       four left in pairs: triple_next), else in pairs, widened WIDE_GAP
       apart so that one pointer reaches both: every weight load serves two
       pixels. The pair loop reads whole words: a last partial one
       zero-extended (widen_bytes), against zero weights. An odd run's last
       pixel goes alone, widened likewise (one_pixel_blocks): a pair with
       the pixel before it again costs more. */
    const int32_t words = (n + 3) / 4;
    pair_pass_t ctx;
    pair_pass_t *const pass = pair_pass_init(&ctx, p, wide, words, weights, block_bytes, bias_sum,
                                             multipliers, shifts)
                                  ? &ctx
                                  : NULL;
    const int threes = n % 4 == 0 && triple_pass_takes(p, pass, words);
    int32_t i = 0;
    while (i + 2 <= pixels) {
        if (threes && triple_next(pixels - i)) {
            for (int32_t k = 0; k < 3; k++)
                widen_one_of_three(wide + 2 * k, x + (size_t)k * x_step, words);
            triple_pass(pass, out);
            i += 3, x += 3 * x_step, out += 3 * out_c;
            continue;
        }
        if (n % 4 == 0) { /* whole words inline: no call a pair */
            widen_two(wide, x, x + x_step, n / 4);
        } else {
            widen_bytes(wide, x, n);
            widen_bytes(wide + WIDE_GAP / 4, x + x_step, n);
        }
        pair_blocks(p, wide, words, weights, block_bytes, bias_sum, multipliers, shifts, pass, out);
        i += 2, x += 2 * x_step, out += 2 * out_c;
    }
    if (i < pixels) {
        widen_bytes(wide, x, n);
        one_pixel_blocks(p, wide, words, weights, block_bytes, bias_sum, multipliers, shifts, out,
                         0);
    }
}

/* The requantized case of ta_conv_2d.c's run_pixels_interleaved. */
void ta_conv_2d_run_s8_dsp(const ta_conv_2d_params_t *p, const int8_t *x, size_t x_step,
                           int32_t pixels, int32_t n, const int8_t *weights, size_t block_bytes,
                           const int32_t *bias_sum, const int32_t *multipliers,
                           const int32_t *shifts, uint32_t *wide, int8_t *out)
{
    if (n <= 0 || n > PAIR_FILTER || pixels < 2)
        single_pixels(p, x, x_step, pixels, n, weights, block_bytes, bias_sum, multipliers, shifts,
                      out);
    else
        run_pairs(p, x, x_step, pixels, n, weights, block_bytes, bias_sum, multipliers, shifts,
                  wide, out);
}

/* Every pixel of one image (input in_b, outputs from out) for im2col
   patches of `words` words (whole chunks, or fewer than four words), with
   zeros past the filter in `patch`: pixels in pairs, across rows too (odd
   row widths), each patch widened once into `wide` for every block of
   filters; an odd last pixel alone. Needs out_c a multiple of four and
   per-channel requantization. */
void ta_conv_2d_patch_pairs_s8_dsp(const ta_conv_2d_params_t *p, const int8_t *in_b, int8_t *patch,
                                   uint32_t *wide, int32_t words, const int8_t *weights,
                                   size_t block_bytes, const int32_t *bias_sum,
                                   const int32_t *multipliers, const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth, total = p->output_height * p->output_width;
    pair_pass_t ctx;
    pair_pass_t *const pass = pair_pass_init(&ctx, p, wide, words, weights, block_bytes, bias_sum,
                                             multipliers, shifts)
                                  ? &ctx
                                  : NULL;
    const int32_t row_bytes = p->filter_width * p->filter_depth;
    const int32_t filter_words = p->filter_height * row_bytes / 2; /* widened */
    const int direct = p->dilation_width == 1 && row_bytes % 4 == 0;
    const size_t row_size = (size_t)p->input_width * (size_t)p->input_depth;
    const size_t row_step = (size_t)p->dilation_height * row_size;
    const int32_t last_ky = (p->filter_height - 1) * p->dilation_height;
    /* Widened a filter row at a time (a gathered patch too), else the
       whole patch, zeros included, at once. */
    const int32_t rows = direct ? p->filter_height : 1, seg = direct ? row_bytes : words * 4;
    /* Pixels in threes where triple_pass takes the layer (the one, two or
       four left in pairs: triple_next), each patch widened into its place
       in their layout; the zeros past a direct filter written before the
       first of them and again before the first pair. */
    const int threes = triple_pass_takes(p, pass, words);
    if (direct && threes)
        memset(wide + 3 * filter_words, 0, (size_t)(6 * words - 3 * filter_words) * 4);
    int pair_zeros = !direct; /* the pairs' zeros past a direct filter written */
    int32_t oy = 0, ox = 0, i = 0;
    while (i + 2 <= total) {
        const int32_t g = threes && triple_next(total - i) ? 3 : 2; /* pixels */
        if (g == 2 && !pair_zeros) {
            for (int32_t k = 0; k < 2; k++)
                memset(wide + k * (WIDE_GAP / 4) + filter_words, 0,
                       (size_t)(2 * words - filter_words) * 4);
            pair_zeros = 1;
        }
        int32_t iy0[3], ix0[3];
        const int8_t *src[3]; /* the window in the input, or NULL: gathered */
        for (int32_t k = 0; k < g; k++) {
            iy0[k] = oy * p->stride_height - p->pad_top;
            ix0[k] = ox * p->stride_width - p->pad_left;
            src[k] = direct && iy0[k] >= 0 && ix0[k] >= 0 && iy0[k] + last_ky < p->input_height &&
                             ix0[k] + p->filter_width <= p->input_width
                         ? in_b + (size_t)iy0[k] * row_size +
                               (size_t)ix0[k] * (size_t)p->filter_depth
                         : NULL;
            if (++ox == p->output_width) {
                ox = 0;
                oy++;
            }
        }
        if (g == 2 && src[0] != NULL && src[1] != NULL) { /* both inside: a row in one loop */
            for (int32_t r = 0; r < rows; r++)
                widen_two(wide + r * (seg / 2), src[0] + (size_t)r * row_step,
                          src[1] + (size_t)r * row_step, seg / 4);
        } else { /* one patch buffer: each gathered pixel widened before the next */
            for (int32_t k = 0; k < g; k++) {
                const int8_t *s = src[k];
                size_t step = row_step;
                if (s == NULL) {
                    ta_conv_2d_gather_patch(p, in_b, iy0[k], ix0[k], patch);
                    s = patch;
                    step = (size_t)seg;
                }
                if (g == 3)
                    for (int32_t r = 0; r < rows; r++, s += step)
                        widen_one_of_three(wide + r * (seg / 4) * 6 + 2 * k, s, seg / 4);
                else
                    for (int32_t r = 0; r < rows; r++, s += step)
                        widen_one(wide + k * (WIDE_GAP / 4) + r * (seg / 2), s, seg / 4);
            }
        }
        if (g == 3)
            triple_pass(pass, out);
        else
            pair_blocks(p, wide, words, weights, block_bytes, bias_sum, multipliers, shifts, pass,
                        out);
        i += g, out += (size_t)g * (size_t)out_c;
    }
    if (i < total) {
        ta_conv_2d_gather_patch(p, in_b, oy * p->stride_height - p->pad_top,
                                ox * p->stride_width - p->pad_left, patch);
        patch_pixel(p, patch, words * 4, weights, block_bytes, bias_sum, multipliers, shifts, out);
    }
}

/* The long filters' pieces by long_triple_pass: whole chunks whose three
   widened copies fit `wide`; LONG_TRIPLE_GROUP: the channels whose sums
   (six a pair) are kept across the pieces. */
enum { LONG_TRIPLE_PIECE = TRIPLE_WORDS * 4, LONG_TRIPLE_GROUP = 32 };

/* Whether long_triple_pass may requantize a long filter's layer itself:
   an even output depth and smmlar_bounds, with at most 2^15
   taps (|sum| <= 2^29, so that sums with the bias stay in [-2^30,
   2^30)). */
static int long_pass_requantizes(const ta_conv_2d_params_t *p, const int32_t *bias_sum,
                                 const int32_t *shifts)
{
    const int32_t out_c = p->output_depth;
    const int32_t filter_size = p->filter_height * p->filter_width * p->filter_depth;
    return out_c % 2 == 0 && filter_size <= (1 << 15) && smmlar_bounds(bias_sum, shifts, out_c);
}

/* The outputs of `pairs` pairs of channels from o0 of three pixels from
   the sums long_triple_pass left in memory (pass 0's pairs, channels
   o0 + 4i and + 1, then pass 1's, o0 + 4i + 2 and + 3; each A, B, C by
   its two channels), the padding of an odd depth skipped: the layers it
   cannot requantize (rare: kept small). */
TA_NOINLINE __attribute__((cold)) static void
long_requantize(const ta_conv_2d_params_t *p, const int32_t *sums, int32_t pairs, int32_t o0,
                const int32_t *multipliers, const int32_t *shifts, int8_t *out)
{
    const int32_t out_c = p->output_depth, first_pass = (pairs + 1) / 2;
    for (int32_t j = 0; j < pairs; j++) {
        const int32_t pass = j >= first_pass, c = o0 + 4 * (j - pass * first_pass) + 2 * pass;
        for (int32_t k = 0; k < 6; k++) {
            const int32_t o = c + k % 2;
            if (o < out_c)
                out[(size_t)(k / 2) * (size_t)out_c + (size_t)o] = requantized_s8(
                    p, sums[6 * j + k], multipliers[o], shifts[o]);
        }
    }
}

/* Three pixels (windows at (iy[k], ix[k]), outputs at out, out + out_c,
   out + 2 out_c) with a long filter: LONG_TRIPLE_GROUP channels at a time,
   each piece of the three patches gathered and widened once into `wide`
   for all their pairs (long_triple_pass, in pair_pass's two passes),
   requantized there (`in_pass`) or, for layers it cannot (an odd depth,
   whose last channel pairs with its block's zero padding; a left shift, a
   large bias: rare), by long_requantize from the sums it leaves in
   memory. */
TA_INLINE_ALWAYS void long_triple(const ta_conv_2d_params_t *p, const int8_t *in_b,
                                  const int32_t iy[3], const int32_t ix[3], int8_t *patch,
                                  uint32_t *wide, const int8_t *weights, size_t block_bytes,
                                  const int32_t *bias_sum, const int32_t *multipliers,
                                  const int32_t *shifts, int in_pass, int8_t *out)
{
    const int32_t out_c = p->output_depth;
    const int32_t filter_size = p->filter_height * p->filter_width * p->filter_depth;
    const range4_t range = output_range4(p);
    int32_t sums[3 * LONG_TRIPLE_GROUP]; /* six a pair, pass 0's pairs first */
    long_triple_t t;
    t.round_offset = 2 * p->output_offset + 1;
    t.out_step = out_c;
    t.clamp = range.clamp;
    t.lo4 = range.lo4;
    t.hi4 = range.hi4;
    t.block_bytes = (int32_t)block_bytes;
    t.wide = wide;
    for (int32_t o0 = 0; o0 < out_c; o0 += LONG_TRIPLE_GROUP) {
        /* an odd depth's padding (bias_sum and the weights are padded to
           whole blocks) in the last pair */
        const int32_t n = out_c - o0 < LONG_TRIPLE_GROUP ? out_c - o0 : LONG_TRIPLE_GROUP;
        const int32_t pairs = (n + 1) / 2;
        for (int32_t t0 = 0; t0 < filter_size; t0 += LONG_TRIPLE_PIECE) {
            const int32_t len = filter_size - t0 < LONG_TRIPLE_PIECE ? filter_size - t0
                                                                     : LONG_TRIPLE_PIECE;
            const int32_t words = (len + 15) / 16 * 4; /* zeros to the chunk's end */
            for (int32_t k = 0; k < 3; k++) {
                ta_conv_2d_gather_taps(p, in_b, iy[k], ix[k], t0, len, patch);
                memset(patch + len, 0, (size_t)(words * 4 - len));
                widen_one_of_three(wide + 2 * k, patch, words);
            }
            t.wide_end = wide + 6 * words;
            t.sums = sums;
            t.from_bias = t0 == 0;
            t.requantize = in_pass && t0 + len == filter_size;
            for (int32_t pass = 0; pass < 2; pass++) {
                const int32_t o = o0 + 2 * pass;
                t.pairs = (pairs + 1 - pass) / 2;
                if (t.pairs == 0)
                    break;
                t.bias = bias_sum + o;
                t.multipliers = multipliers + o;
                t.shifts = shifts + o;
                t.out = out + o;
                t.w = weights + (size_t)(o / 4) * block_bytes + (size_t)t0 * 4 + (size_t)pass * 32;
                long_triple_pass(&t);
            }
        }
        if (!in_pass)
            long_requantize(p, sums, pairs, o0, multipliers, shifts, out);
    }
}

int32_t ta_conv_2d_long_triples_s8_dsp(const ta_conv_2d_params_t *p, const int8_t *in_b,
                                       int8_t *patch, uint32_t *wide, const int8_t *weights,
                                       size_t block_bytes, const int32_t *bias_sum,
                                       const int32_t *multipliers, const int32_t *shifts,
                                       int8_t *out)
{
    const int32_t total = p->output_height * p->output_width;
    const int in_pass = long_pass_requantizes(p, bias_sum, shifts);
    int32_t i = 0;
    for (; i + 3 <= total; i += 3, out += 3 * (size_t)p->output_depth) {
        int32_t iy[3], ix[3];
        for (int32_t k = 0; k < 3; k++) {
            iy[k] = (i + k) / p->output_width * p->stride_height - p->pad_top;
            ix[k] = (i + k) % p->output_width * p->stride_width - p->pad_left;
        }
        long_triple(p, in_b, iy, ix, patch, wide, weights, block_bytes, bias_sum, multipliers,
                    shifts, in_pass, out);
    }
    return i;
}

/* One filter's word at byte offset OFF of the four-filter chunk, against the
   input word's halfword pairs; then one input word against all four. */
/* clang-format off */
#define TA_DOT4_FILTER(ACC, OFF) \
    "   ldr      %[v], [%[w], #" #OFF "]\n" \
    "   sxtb16   %[t], %[v]\n" \
    "   smlad    %[" #ACC "], %[t], %[xe], %[" #ACC "]\n" \
    "   sxtb16   %[t], %[v], ror #8\n" \
    "   smlad    %[" #ACC "], %[t], %[xo], %[" #ACC "]\n"
#define TA_DOT4_WORD(O0, O1, O2, O3) \
    "   ldr      %[xo], [%[x]], #4\n" \
    "   sxtb16   %[xe], %[xo]\n" \
    "   sxtb16   %[xo], %[xo], ror #8\n" \
    TA_DOT4_FILTER(a0, O0) TA_DOT4_FILTER(a1, O1) TA_DOT4_FILTER(a2, O2) TA_DOT4_FILTER(a3, O3)
/* clang-format on */

/* ta_simd.h's ta_dot4_interleaved_s8 on DSP cores: one copy for the
   convolution's files (ta_simd.h declares it). */
void ta_dot4_interleaved_dsp(int32_t acc[4], const int8_t *w, const int8_t *x, int32_t n)
{
    int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    /* Whole chunks: per input word one load and two SXTB16 shared by the
       four filters, whose words sit at constant offsets from one pointer;
       per filter one load, two SXTB16 (the rotation folded in) and two
       SMLAD. gcc spills the accumulators of this loop when it allocates
       it inside a kernel, hence the assembly. */
    int32_t chunks = n / 16;
    if (chunks > 0) {
        uint32_t xe, xo, v, t;
        /* clang-format off */
        __asm volatile("1:\n"
                     TA_DOT4_WORD(0, 16, 32, 48)
                     TA_DOT4_WORD(4, 20, 36, 52)
                     TA_DOT4_WORD(8, 24, 40, 56)
                     TA_DOT4_WORD(12, 28, 44, 60)
                       "   adds     %[w], %[w], #64\n"
                       "   subs     %[c], %[c], #1\n"
                       "   bne      1b\n"
                       : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [x] "+r"(x),
                         [w] "+r"(w), [c] "+r"(chunks), [xe] "=&r"(xe), [xo] "=&r"(xo),
                         [v] "=&r"(v), [t] "=&r"(t)
                       :
                       : "cc", "memory");
        /* clang-format on */
        n %= 16;
    }
    /* The last, partial chunk: whole words, then bytes. */
    int32_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const uint32_t xw = ta_load_u32(x + i);
        const uint32_t xe = __sxtb16(xw), xo = ta_sxtb16_ror8(xw);
        uint32_t v = ta_load_u32(w + i);
        a0 = __smlad(__sxtb16(v), xe, a0);
        a0 = __smlad(ta_sxtb16_ror8(v), xo, a0);
        v = ta_load_u32(w + 16 + i);
        a1 = __smlad(__sxtb16(v), xe, a1);
        a1 = __smlad(ta_sxtb16_ror8(v), xo, a1);
        v = ta_load_u32(w + 32 + i);
        a2 = __smlad(__sxtb16(v), xe, a2);
        a2 = __smlad(ta_sxtb16_ror8(v), xo, a2);
        v = ta_load_u32(w + 48 + i);
        a3 = __smlad(__sxtb16(v), xe, a3);
        a3 = __smlad(ta_sxtb16_ror8(v), xo, a3);
    }
    for (; i < n; i++) {
        const int32_t xi = x[i];
        a0 += w[i] * xi;
        a1 += w[16 + i] * xi;
        a2 += w[32 + i] * xi;
        a3 += w[48 + i] * xi;
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
}
#undef TA_DOT4_WORD
#undef TA_DOT4_FILTER
#endif /* TA_HAVE_DSP && !TA_HAVE_MVE */
