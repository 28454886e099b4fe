/*
 * ta_depthwise_conv_2d_mve.c - DEPTHWISE_CONV_2D on Helium (MVE,
 * Cortex-M55/M85); ta_depthwise_conv_2d.c dispatches here. Compiles to
 * nothing on other cores.
 *
 * int8, depth multiplier 1: per output pixel and block of 16 or 8 channels
 * the accumulators stay in registers over all taps. Pixels whose window
 * lies inside the input start from bias_sum (the input zero point folded
 * in) and run every tap unchecked, 3x3 windows unrolled (a whole interior
 * run of a row per call; 8-channel layers two pixels a weight load, the
 * run's pairs in one call, each window row one assembly block with
 * immediate offsets; in the full-range form a block of 8 channels beside
 * the 16-channel ones takes the border path's loop, one copy out of line);
 * the others run only the taps inside the input, on (input - zero point),
 * from the plain bias. A block's accumulators are loaded by VLD2 straight
 * into the registers they stay in. Requantization is vectorized (VQRDMULH,
 * VRSHL); the last depth % 8 channels take a predicated block (int32 lanes
 * for four or fewer), depths 9-15 in the full-range form one block of 16
 * whose channels 8-15 load and store under a predicate. Depth multipliers above 1 gather their inputs; int16 runs with
 * depth multiplier 1.
 */
#include "ta_depthwise_conv_2d_mve.h"

#include "ta_depthwise_conv_2d_window.h"

#include "../include/ta_dw_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_simd.h"

#include <stddef.h>

#if defined(TA_HAVE_MVE)
/* The Helium multiply-accumulate steps, in assembly because gcc hoists the
   loads of several taps and moves the accumulators between registers:
   eight channels of x and w (byte offset `off`) loaded as int16 lanes;
   VMULLB/VMULLT give the products of the even and the odd channels as
   int32 lanes, added to a0 (even) and a1 (odd), or a2, a3 for channels
   8-15. The _ZP forms subtract the input zero point first (|x - zp| <=
   255, exact in int16). Widening loads need low base registers ("l"). */

/* The 16 bytes an assembly step reads, as a memory operand. */
typedef struct {
    int8_t b[16];
} dw_bytes16;
/* The 16 int32 a block's start reads (a block of 8 reads the first half). */
typedef struct {
    int32_t v[16];
} dw_words16;
/* The bytes a window row of one pixel reads (inputs), or its weights. */
typedef struct {
    int8_t b[24];
} dw_bytes24;

/* clang-format off */
#define DW_MVE_LOAD8(off)                                                                 \
    "vldrb.s16 %q[xv], [%[x], #" #off "]\n\t"                                             \
    "vldrb.s16 %q[wv], [%[w], #" #off "]\n\t"
/* clang-format on */
/* clang-format off */
#define DW_MVE_MAC16                                                                      \
    DW_MVE_LOAD8(0)                                                                       \
    "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a0], %q[a0], %q[t]\n\t"                                                  \
    "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a1], %q[a1], %q[t]\n\t"                                                  \
    DW_MVE_LOAD8(8)                                                                       \
    "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a2], %q[a2], %q[t]\n\t"                                                  \
    "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a3], %q[a3], %q[t]"
/* clang-format on */

/* The same with channels 8-15 loaded under the predicate of the first
   %[n] int16 lanes (VCTP; the inactive lanes load zero, so they add
   nothing): a block that ends at a depth of 9-15 reads nothing past it. */
/* clang-format off */
#define DW_MVE_LOAD8_UPPER                                                                \
    "vctp.16 %[n]\n\t"                                                                    \
    "vpstt\n\t"                                                                           \
    "vldrbt.s16 %q[xv], [%[x], #8]\n\t"                                                   \
    "vldrbt.s16 %q[wv], [%[w], #8]\n\t"
/* clang-format on */
/* clang-format off */
#define DW_MVE_MAC16_UPPER                                                                \
    DW_MVE_LOAD8(0)                                                                       \
    "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a0], %q[a0], %q[t]\n\t"                                                  \
    "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a1], %q[a1], %q[t]\n\t"                                                  \
    DW_MVE_LOAD8_UPPER                                                                    \
    "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a2], %q[a2], %q[t]\n\t"                                                  \
    "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a3], %q[a3], %q[t]"
/* clang-format on */
/* clang-format off */
#define DW_MVE_MAC16_UPPER_ZP                                                             \
    DW_MVE_LOAD8(0)                                                                       \
    "vsub.i16 %q[xv], %q[xv], %q[zp]\n\t"                                                 \
    "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a0], %q[a0], %q[t]\n\t"                                                  \
    "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a1], %q[a1], %q[t]\n\t"                                                  \
    DW_MVE_LOAD8_UPPER                                                                    \
    "vpst\n\t"                                                                            \
    "vsubt.i16 %q[xv], %q[xv], %q[zp]\n\t"                                                \
    "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a2], %q[a2], %q[t]\n\t"                                                  \
    "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a3], %q[a3], %q[t]"
/* clang-format on */

/* clang-format off */
#define DW_MVE_MAC8                                                                       \
    DW_MVE_LOAD8(0)                                                                       \
    "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[e], %q[e], %q[t]\n\t"                                                    \
    "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[o], %q[o], %q[t]"
/* clang-format on */

/* clang-format off */
#define DW_MVE_MAC16_ZP                                                                   \
    DW_MVE_LOAD8(0)                                                                       \
    "vsub.i16 %q[xv], %q[xv], %q[zp]\n\t"                                                 \
    "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a0], %q[a0], %q[t]\n\t"                                                  \
    "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a1], %q[a1], %q[t]\n\t"                                                  \
    DW_MVE_LOAD8(8)                                                                       \
    "vsub.i16 %q[xv], %q[xv], %q[zp]\n\t"                                                 \
    "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a2], %q[a2], %q[t]\n\t"                                                  \
    "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a3], %q[a3], %q[t]"
/* clang-format on */

/* clang-format off */
#define DW_MVE_MAC8_ZP                                                                    \
    DW_MVE_LOAD8(0)                                                                       \
    "vsub.i16 %q[xv], %q[xv], %q[zp]\n\t"                                                 \
    "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[e], %q[e], %q[t]\n\t"                                                    \
    "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[o], %q[o], %q[t]"
/* clang-format on */

/* What requantization needs, read once per block. Scalars: Helium has
   eight vector registers, and four still hold the other accumulators. */
typedef struct {
    const int32_t *multipliers, *shifts; /* NULL: per-tensor */
    int32_t multiplier, shift, offset, lo, hi, right_only;
} mve_requant;

DW_INLINE void mve_requant_init(const dw_ctx *c, mve_requant *q)
{
    const ta_depthwise_conv_2d_params_t *p = c->p;
    q->multipliers = c->multipliers;
    q->shifts = c->shifts;
    q->multiplier = p->multiplier;
    q->shift = p->shift;
    q->offset = p->output_offset;
    q->lo = p->activation_min;
    q->hi = p->activation_max;
    q->right_only = p->right_shifts_only;
}

/* The rounding right shift of ta_dw_mul_right_mve after its VQRDMULH. */
DW_INLINE int32x4_t mve_round_right(int32x4_t h, int32x4_t s)
{
    return vrshlq_s32(ta_ties_away_mve(h), s);
}

/* The general form of mve_store8 (per-tensor, left shifts or an
   activation range). Inline, though rare: the functions that call it pin
   variables to vector registers, which gcc does not keep across a call. */
DW_INLINE void mve_store8_general(const mve_requant *q, int32x4_t even, int32x4_t odd, int32_t c0,
                                  int32_t n, int predicated, int8_t *out)
{
    int32x4_t me, mo, se, so;
    if (q->right_only && q->multipliers) {
        ta_dw_load_even_odd(q->multipliers + c0, n, &me, &mo);
        even = vqrdmulhq_s32(even, me);
        odd = vqrdmulhq_s32(odd, mo);
        ta_dw_load_even_odd(q->shifts + c0, n, &se, &so);
        even = mve_round_right(even, se);
        odd = mve_round_right(odd, so);
    } else if (q->right_only) {
        even = vqrdmulhq_n_s32(even, q->multiplier);
        odd = vqrdmulhq_n_s32(odd, q->multiplier);
        even = vrshlq_n_s32(ta_ties_away_mve(even), q->shift);
        odd = vrshlq_n_s32(ta_ties_away_mve(odd), q->shift);
    } else {
        me = mo = vdupq_n_s32(q->multiplier);
        se = so = vdupq_n_s32(q->shift);
        if (q->multipliers) {
            ta_dw_load_even_odd(q->multipliers + c0, n, &me, &mo);
            ta_dw_load_even_odd(q->shifts + c0, n, &se, &so);
        }
        even = ta_mul_by_quantized_multiplier_mve(even, me, se);
        odd = ta_mul_by_quantized_multiplier_mve(odd, mo, so);
    }
    const int16x8_t v = ta_dw_narrow_clamp_mve(even, odd, q->offset, q->lo, q->hi);
    if (predicated)
        vstrbq_p_s16(out, v, vctp16q((uint32_t)n));
    else
        vstrbq_s16(out, v);
}

/* The forms of the requantization, fixed per function: the branch-free
   ones need per-channel multipliers (the converter gives per-tensor layers
   per-channel copies) and right shifts only; the full int8 range is then
   one saturating narrow. */
enum { DW_GENERAL = 0, DW_FAST_FULL = 1, DW_FAST_CLAMPED = 2 };

/* Requantizes the even/odd accumulators of n <= 8 channels from c0 on and
   stores them in channel order, in the form `fast`. */
DW_INLINE void mve_store8(const mve_requant *q, int32x4_t even, int32x4_t odd, int32_t c0,
                          int32_t n, int predicated, int fast, int8_t *out)
{
    if (fast) {
        int32x4_t me, mo, se, so;
        ta_dw_load_even_odd(q->multipliers + c0, n, &me, &mo);
        even = vqrdmulhq_s32(even, me);
        odd = vqrdmulhq_s32(odd, mo);
        ta_dw_load_even_odd(q->shifts + c0, n, &se, &so);
        even = mve_round_right(even, se);
        odd = mve_round_right(odd, so);
        const int16x8_t t = ta_dw_narrow_fresh_mve(even, odd, q->offset);
        const int16x8_t v = fast == DW_FAST_FULL
                                ? ta_dw_saturate_low_bytes(t)
                                : vminq_s16(vmaxq_s16(t, vdupq_n_s16((int16_t)q->lo)),
                                            vdupq_n_s16((int16_t)q->hi));
        if (predicated)
            vstrbq_p_s16(out, v, vctp16q((uint32_t)n));
        else
            vstrbq_s16(out, v);
        return;
    }
    mve_store8_general(q, even, odd, c0, n, predicated, out);
}

/* n <= 8 channels. */
DW_INLINE void mve_store_n(const dw_ctx *c, int32x4_t a0, int32x4_t a1, int32_t c0, int32_t n,
                           int predicated, int8_t *out)
{
    mve_requant q;
    mve_requant_init(c, &q);
    mve_store8(&q, a0, a1, c0, n, predicated, 0, out + c0);
}

/* The accumulators of n channels from c0 on, from bias (NULL: zeros). */
DW_INLINE void mve_start(const int32_t *bias, int32_t c0, int32_t n, int32x4_t *a0, int32x4_t *a1,
                         int32x4_t *a2, int32x4_t *a3)
{
    *a0 = *a1 = *a2 = *a3 = vdupq_n_s32(0);
    if (bias) {
        ta_dw_load_even_odd(bias + c0, n, a0, a1);
        if (n > 8)
            ta_dw_load_even_odd(bias + c0 + 8, n - 8, a2, a3);
    }
}

/* One tap on accumulators pinned to q0-q3 (left to itself gcc moves
   them between registers on every tap); the trailing arguments are the
   template's accumulator operands. The _ZP form also passes the zero point
   vector. */
#define DW_MVE_TAP(TEMPLATE, XP, WP, ...)                                   \
    do {                                                                    \
        int16x8_t xv, wv;                                                   \
        int32x4_t t;                                                        \
        __asm__(TEMPLATE                                                    \
                : __VA_ARGS__, [xv] "=&w"(xv), [wv] "=&w"(wv), [t] "=&w"(t) \
                : [x] "l"(XP), [w] "l"(WP), "m"(*(const dw_bytes16 *)(XP)), \
                  "m"(*(const dw_bytes16 *)(WP)));                          \
    } while (0)
#define DW_MVE_TAP_ZP(TEMPLATE, XP, WP, ZP, ...)                                          \
    do {                                                                                  \
        int16x8_t xv, wv;                                                                 \
        int32x4_t t;                                                                      \
        __asm__(TEMPLATE                                                                  \
                : __VA_ARGS__, [xv] "=&w"(xv), [wv] "=&w"(wv), [t] "=&w"(t)               \
                : [x] "l"(XP), [w] "l"(WP), [zp] "w"(ZP), "m"(*(const dw_bytes16 *)(XP)), \
                  "m"(*(const dw_bytes16 *)(WP)));                                        \
    } while (0)

/* DW_MVE_TAP and DW_MVE_TAP_ZP for the _UPPER templates: N channels 8-15. */
#define DW_MVE_TAP_UPPER(TEMPLATE, XP, WP, N, ...)                                      \
    do {                                                                                \
        int16x8_t xv, wv;                                                               \
        int32x4_t t;                                                                    \
        __asm__(TEMPLATE                                                                \
                : __VA_ARGS__, [xv] "=&w"(xv), [wv] "=&w"(wv), [t] "=&w"(t)             \
                : [x] "l"(XP), [w] "l"(WP), [n] "r"(N), "m"(*(const dw_bytes16 *)(XP)), \
                  "m"(*(const dw_bytes16 *)(WP))                                        \
                : "p0");                                                                \
    } while (0)
#define DW_MVE_TAP_UPPER_ZP(TEMPLATE, XP, WP, N, ZP, ...)                        \
    do {                                                                         \
        int16x8_t xv, wv;                                                        \
        int32x4_t t;                                                             \
        __asm__(TEMPLATE                                                         \
                : __VA_ARGS__, [xv] "=&w"(xv), [wv] "=&w"(wv), [t] "=&w"(t)      \
                : [x] "l"(XP), [w] "l"(WP), [n] "r"(N), [zp] "w"(ZP),            \
                  "m"(*(const dw_bytes16 *)(XP)), "m"(*(const dw_bytes16 *)(WP)) \
                : "p0");                                                         \
    } while (0)

/* A block's channels: 8, 16, or 16 that end at the depth, whose channels
   8-15 are loaded and stored under a predicate (depths 9-15). */
enum { DW_BLOCK8 = 0, DW_BLOCK16 = 1, DW_BLOCK16_UPPER = 2 };

/* One tap of a block of 16 channels (sixteen) or 8 on the accumulators
   a0-a3 pinned in the enclosing block body; the _ZP form on x - zp. */
#define DW_MVE_BLOCK_TAP(SIXTEEN, XP, WP)                                                        \
    do {                                                                                         \
        if (SIXTEEN == DW_BLOCK16_UPPER)                                                         \
            DW_MVE_TAP_UPPER(DW_MVE_MAC16_UPPER, XP, WP,                                         \
                             upper, [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3)); \
        else if (SIXTEEN)                                                                        \
            DW_MVE_TAP(DW_MVE_MAC16, XP,                                                         \
                       WP, [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3));          \
        else                                                                                     \
            DW_MVE_TAP(DW_MVE_MAC8, XP, WP, [e] "+w"(a0), [o] "+w"(a1));                         \
    } while (0)
#define DW_MVE_BLOCK_TAP_ZP(SIXTEEN, XP, WP, ZP)                                                 \
    do {                                                                                         \
        if (SIXTEEN == DW_BLOCK16_UPPER)                                                         \
            DW_MVE_TAP_UPPER_ZP(DW_MVE_MAC16_UPPER_ZP, XP, WP, upper,                            \
                                ZP, [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3)); \
        else if (SIXTEEN)                                                                        \
            DW_MVE_TAP_ZP(DW_MVE_MAC16_ZP, XP, WP,                                               \
                          ZP, [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3));       \
        else                                                                                     \
            DW_MVE_TAP_ZP(DW_MVE_MAC8_ZP, XP, WP, ZP, [e] "+w"(a0), [o] "+w"(a1));               \
    } while (0)

/* The accumulators of a block (DW_BLOCK*) from c0 on, pinned to q0-q3
   (left to itself gcc moves them between registers on every tap) and
   started from `start` (NULL: zeros) there: VLD2 splits the even and odd
   channels into the pinned pair itself, where loads into other registers
   cost a VMOV per accumulator. A DW_BLOCK16_UPPER block's channels 8-15
   (`upper` of them) are gathered, as the block ends at the depth. */
#define DW_MVE_START_PINNED(START, C0, SIXTEEN)                                \
    register int32x4_t a0 __asm__("q0");                                       \
    register int32x4_t a1 __asm__("q1");                                       \
    register int32x4_t a2 __asm__("q2");                                       \
    register int32x4_t a3 __asm__("q3");                                       \
    do {                                                                       \
        const int32_t *b_ = (START);                                           \
        if (!b_)                                                               \
            a0 = a1 = a2 = a3 = vdupq_n_s32(0);                                \
        else {                                                                 \
            b_ += (C0);                                                        \
            if (SIXTEEN == DW_BLOCK16_UPPER) {                                 \
                int32x4_t even_, odd_;                                         \
                ta_dw_load_even_odd(b_ + 8, upper, &even_, &odd_);             \
                a2 = even_;                                                    \
                a3 = odd_;                                                     \
            }                                                                  \
            if (SIXTEEN == DW_BLOCK16)                                         \
                __asm__("vld20.32 {q0, q1}, [%[b]]\n\t"                        \
                        "vld21.32 {q0, q1}, [%[b]]!\n\t"                       \
                        "vld20.32 {q2, q3}, [%[b]]\n\t"                        \
                        "vld21.32 {q2, q3}, [%[b]]"                            \
                        : "=w"(a0), "=w"(a1), "=w"(a2), "=w"(a3), [b] "+r"(b_) \
                        : "m"(*(const dw_words16 *)b_));                       \
            else                                                               \
                __asm__("vld20.32 {q0, q1}, [%[b]]\n\t"                        \
                        "vld21.32 {q0, q1}, [%[b]]"                            \
                        : "=w"(a0), "=w"(a1)                                   \
                        : [b] "r"(b_), "m"(*(const dw_words16 *)b_));          \
        }                                                                      \
    } while (0)

/* The steps of a block body, computed once per pixel (the stores of a
   block may alias the context, so gcc would reload it per block): input
   bytes between taps along a row, from a row's last tap to the next row's
   first, weight bytes between taps, from row to row. */
typedef struct {
    ptrdiff_t col, next_row, d, next_w_row;
} mve_steps;

/* The 18 steps (9 taps, channels 0-7 then 8-15) of a block of 16 channels
   of an interior 3x3 window, software-pipelined in one assembly block: a
   step loads x and w (int16 lanes), multiplies (VMULLB into t, VMULLT into
   u) and adds; the next step's loads and the previous step's adds go
   between the multiplies, so that loads, multiplies and adds alternate
   pipes and each issues in one cycle (back to back on one pipe, each holds
   it two). [x] and [w] step from tap to tap by [col] or [nrow] and [d]. */
/* clang-format off */
#define DW3_LX(o) "vldrb.s16 %q[xv], [%[x], #" o "]\n\t"
#define DW3_LW(o) "vldrb.s16 %q[wv], [%[w], #" o "]\n\t"
#define DW3_MB "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"
#define DW3_MT "vmullt.s16 %q[u], %q[xv], %q[wv]\n\t"
#define DW3_ADD(a, p) "vadd.i32 %q[" a "], %q[" a "], %q[" p "]\n\t"
/* from channels 0-7 of a tap to its channels 8-15 */
#define DW3_LO_HI DW3_MT DW3_LX("8") DW3_ADD("a0", "t") DW3_LW("8") DW3_MB DW3_ADD("a1", "u")
/* from channels 8-15 of a tap to channels 0-7 of the next, x stepping by
   STEP */
#define DW3_HI_LO(STEP)                                                                   \
    DW3_MT "add %[x], %[x], %[" STEP "]\n\t" DW3_LX("0") DW3_ADD("a2", "t")               \
    "add %[w], %[w], %[d]\n\t" DW3_LW("0") DW3_MB DW3_ADD("a3", "u")
#define DW3_ROW(STEP) DW3_LO_HI DW3_HI_LO("col") DW3_LO_HI DW3_HI_LO("col") DW3_LO_HI DW3_HI_LO(STEP)
#define DW3_WINDOW16                                                                      \
    DW3_LX("0") DW3_LW("0") DW3_MB                                                        \
    DW3_ROW("nrow") DW3_ROW("nrow")                                                       \
    DW3_LO_HI DW3_HI_LO("col") DW3_LO_HI DW3_HI_LO("col") DW3_LO_HI                       \
    DW3_MT DW3_ADD("a2", "t") DW3_ADD("a3", "u")
/* clang-format on */

/* Channels c0 on of an interior pixel of a 3x3 window, x at its first tap
   (channel 0), a block of 16 (sixteen) or 8: from bias_sum, the taps
   unrolled by rows. */
DW_INLINE void mve_block_3x3(const dw_ctx *c, const mve_requant *q, const mve_steps *st,
                             const int8_t *x, int32_t c0, int sixteen, int8_t *out, int fast)
{
    const ptrdiff_t d = st->d, col = st->col, next_row = st->next_row;
    const int32_t upper = sixteen == DW_BLOCK16_UPPER ? (int32_t)d - c0 - 8 : 8;
    DW_MVE_START_PINNED(c->bias_sum, c0, sixteen);
    const int8_t *xt = x + c0, *w = c->weights + c0;
    if (sixteen == DW_BLOCK16) {
        int16x8_t xv, wv;
        int32x4_t t, u;
        __asm__(DW3_WINDOW16
                : [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3), [xv] "=&w"(xv),
                  [wv] "=&w"(wv), [t] "=&w"(t), [u] "=&w"(u), [x] "+l"(xt), [w] "+l"(w)
                : [col] "r"(col), [nrow] "r"(next_row), [d] "r"(d), "m"(*(const int8_t(*)[])xt),
                  "m"(*(const int8_t(*)[])w));
        mve_store8(q, a0, a1, c0, 8, 0, fast, out + c0);
        mve_store8(q, a2, a3, c0 + 8, 8, 0, fast, out + c0 + 8);
        return;
    }
#pragma GCC unroll 3
    for (int32_t ky = 0; ky < 3; ky++) {
        DW_MVE_BLOCK_TAP(sixteen, xt, w);
        DW_MVE_BLOCK_TAP(sixteen, xt + col, w + d);
        xt += 2 * col;
        DW_MVE_BLOCK_TAP(sixteen, xt, w + 2 * d);
        xt += next_row;
        w += 3 * d;
    }
    mve_store8(q, a0, a1, c0, 8, 0, fast, out + c0);
    if (sixteen)
        mve_store8(q, a2, a3, c0 + 8, upper, sixteen == DW_BLOCK16_UPPER, fast, out + c0 + 8);
}

/* The last n < 8 channels from c0 on of a pixel, every load and the store
   predicated to them (inactive lanes load zero, so they add nothing):
   `rows` x `cols` taps from x and w, the _ZP form (zp_on) on x - zero
   point, from `start` (bias_sum inside the input, the plain bias at the
   border). Intrinsics: two accumulators leave gcc registers enough. */
DW_INLINE void mve_block_tail(const mve_requant *q, const mve_steps *st, const int8_t *x,
                              const int8_t *w, int32_t rows, int32_t cols, const int32_t *start,
                              int16x8_t zp, int zp_on, int32_t c0, int32_t n, int8_t *out, int fast)
{
    const mve_pred16_t pr = vctp16q((uint32_t)n);
    int32x4_t a0, a1, a2, a3;
    mve_start(start, c0, n, &a0, &a1, &a2, &a3);
    x += c0;
    w += c0;
    for (int32_t ky = 0; ky < rows; ky++, x += st->next_row, w += st->next_w_row)
        for (int32_t kx = 0; kx < cols; kx++, x += st->col, w += st->d) {
            int16x8_t xv = vldrbq_z_s16(x, pr);
            if (zp_on)
                xv = vsubq_s16(xv, zp);
            const int16x8_t wv = vldrbq_z_s16(w, pr);
            a0 = vaddq_s32(a0, vmullbq_int_s16(xv, wv));
            a1 = vaddq_s32(a1, vmulltq_int_s16(xv, wv));
        }
    mve_store8(q, a0, a1, c0, n, 1, fast, out + c0);
}

/* mve_block_tail for n <= 4 channels, one int32 lane each (half the
   steps of the int16 form): products by VMUL.I32, the requantization in
   channel order. */
DW_INLINE void mve_block_tail4(const mve_requant *q, const mve_steps *st, const int8_t *x,
                               const int8_t *w, int32_t rows, int32_t cols, const int32_t *start,
                               int32_t zp, int32_t c0, int32_t n, int8_t *out, int fast)
{
    const mve_pred16_t pr = vctp32q((uint32_t)n);
    int32x4_t a = start ? vldrwq_z_s32(start + c0, pr) : vdupq_n_s32(0);
    x += c0;
    w += c0;
    for (int32_t ky = 0; ky < rows; ky++, x += st->next_row, w += st->next_w_row)
        for (int32_t kx = 0; kx < cols; kx++, x += st->col, w += st->d) {
            const int32x4_t xv = vsubq_n_s32(vldrbq_z_s32(x, pr), zp);
            a = vaddq_s32(a, vmulq_s32(xv, vldrbq_z_s32(w, pr)));
        }
    int32x4_t m = vdupq_n_s32(q->multiplier), s = vdupq_n_s32(q->shift);
    if (q->multipliers) {
        m = vldrwq_z_s32(q->multipliers + c0, pr);
        s = vldrwq_z_s32(q->shifts + c0, pr);
    }
    a = fast || q->right_only ? mve_round_right(vqrdmulhq_s32(a, m), s)
                              : ta_mul_by_quantized_multiplier_mve(a, m, s);
    a = vaddq_n_s32(a, q->offset);
    const int32_t lo = fast == DW_FAST_FULL ? INT8_MIN : q->lo;
    const int32_t hi = fast == DW_FAST_FULL ? INT8_MAX : q->hi;
    vstrbq_p_s32(out + c0, vminq_s32(vmaxq_s32(a, vdupq_n_s32(lo)), vdupq_n_s32(hi)), pr);
}

DW_NOINLINE void mve_block8_window_full(const dw_ctx *c, const dw_window *win, int32_t c0,
                                        int8_t *out);

/* Channels c0 on of any window, a block of 16 (sixteen) or 8: at a border
   pixel (border) only the taps inside the input, on x - zero point, from
   the plain bias; inside the input every tap on x from bias_sum. */
DW_INLINE void mve_block_window(const dw_ctx *c, const mve_requant *q, const mve_steps *st,
                                const dw_window *win, int16x8_t zp, int32_t c0, int sixteen,
                                int8_t *out, int fast, int border)
{
    const ptrdiff_t d = st->d, col = st->col, next_row = st->next_row;
    const ptrdiff_t next_w_row = st->next_w_row;
    const int32_t rows = win->rows, cols = win->cols;
    const int32_t upper = sixteen == DW_BLOCK16_UPPER ? (int32_t)d - c0 - 8 : 8;
    DW_MVE_START_PINNED(border ? c->bias : c->bias_sum, c0, sixteen);
    const int8_t *x = win->x + c0, *w = win->w + c0;
    for (int32_t ky = 0; ky < rows; ky++, x += next_row, w += next_w_row)
        for (int32_t kx = 0; kx < cols; kx++, x += col, w += d) {
            if (border)
                DW_MVE_BLOCK_TAP_ZP(sixteen, x, w, zp);
            else
                DW_MVE_BLOCK_TAP(sixteen, x, w);
        }
    mve_store8(q, a0, a1, c0, 8, 0, fast, out + c0);
    if (sixteen)
        mve_store8(q, a2, a3, c0 + 8, upper, sixteen == DW_BLOCK16_UPPER, fast, out + c0 + 8);
}

/* Where a pixel's window lies, fixed per function: inside the input and
   3x3 (the taps unrolled), inside the input, or over a border. */
enum { DW_AT_3X3 = 0, DW_AT_INSIDE = 1, DW_AT_BORDER = 2 };

/* A block of 16 (sixteen) or 8 channels from c0 on of a pixel at `at`. */
DW_INLINE void mve_block(const dw_ctx *c, const mve_requant *q, const mve_steps *st,
                         const dw_window *win, int16x8_t zp, int32_t c0, int sixteen, int8_t *out,
                         int fast, int at)
{
    if (!sixteen && fast == DW_FAST_FULL)
        mve_block8_window_full(c, win, c0, out);
    else if (at == DW_AT_3X3)
        mve_block_3x3(c, q, st, win->x, c0, sixteen, out, fast);
    else
        mve_block_window(c, q, st, win, zp, c0, sixteen, out, fast, at == DW_AT_BORDER);
}

/* A pixel's channels: blocks of 16, then the last 1-4 channels in one
   predicated block of int32 lanes, 8 in a block of 8, or else a block that
   ends at the depth, moved back over channels the block before has
   written (recomputed, the same bytes; ta_dw_rereads_channels): a block
   of 16 when the depth allows, else two of 8 (in the full-range form one
   block of 16 whose channels 8-15 are predicated: depths 9-15 then reread
   nothing). Depths 5-7 take one predicated block of int16 lanes. Where the depth is a multiple of 8 (no
   tails) only a block of 8 can be left, and only that is compiled in.
   Returns the depth. */
DW_INLINE int32_t mve_pixel_blocks(const dw_ctx *c, const mve_requant *q, const dw_window *win,
                                   int8_t *out, int fast, int tails, int at)
{
    /* only the border form reads the zero point, only windows narrower
       than the filter skip weights */
    const int16x8_t zp = vdupq_n_s16(at == DW_AT_BORDER ? (int16_t)c->p->pad_value : 0);
    /* the unrolled 3x3 block takes two column steps in a row, the loops
       win->cols */
    const mve_steps st = {
        c->tap_col, c->tap_row - (at == DW_AT_3X3 ? 2 : win->cols) * c->tap_col, c->depth,
        at == DW_AT_BORDER ? (ptrdiff_t)(c->p->filter_width - win->cols) * c->depth : 0};
    const mve_steps loop = {st.col, c->tap_row - win->cols * st.col, st.d, st.next_w_row};
    const int32_t d = (int32_t)st.d;
    int32_t c0 = 0;
    for (; c0 + 16 <= d; c0 += 16)
        mve_block(c, q, &st, win, zp, c0, 1, out, fast, at);
    const int32_t rest = d - c0;
    const int border = at == DW_AT_BORDER;
    const int32_t *start = border ? c->bias : c->bias_sum;
    if (rest == 0)
        return d;
    if (tails && rest <= 4)
        mve_block_tail4(q, &loop, win->x, win->w, win->rows, win->cols, start,
                        border ? c->p->pad_value : 0, c0, rest, out, fast);
    else if (tails && rest != 8 && d >= 16) /* ta_dw_rereads_channels */
        mve_block(c, q, &st, win, zp, d - 16, 1, out, fast, at);
    else if (tails && fast == DW_FAST_FULL && d > 8 && d < 16)
        mve_block(c, q, &st, win, zp, 0, DW_BLOCK16_UPPER, out, fast, at);
    else if (d >= 8) {
        if (rest >= 8)
            mve_block(c, q, &st, win, zp, c0, 0, out, fast, at);
        if (rest != 8)
            mve_block(c, q, &st, win, zp, d - 8, 0, out, fast, at);
    } else if (tails) {
        mve_block_tail(q, &loop, win->x, win->w, win->rows, win->cols, start, zp, border, 0, d, out,
                       fast);
    }
    return d;
}

/* `count` interior pixels of a 3x3 window, pixel_step apart in the input,
   in one call. */
DW_INLINE int32_t mve_pixel_3x3(const dw_ctx *c, const int8_t *x, int32_t count,
                                ptrdiff_t pixel_step, int8_t *out, int fast, int tails)
{
    mve_requant q;
    mve_requant_init(c, &q);
    int32_t d = 0;
    for (int32_t px = 0; px < count; px++, x += pixel_step, out += c->depth) {
        /* copied per pixel: the stores may alias the context, so gcc would
           reload it after every block */
        const mve_requant qc = q;
        const dw_window whole = {x, c->weights, 3, 3};
        d = mve_pixel_blocks(c, &qc, &whole, out, fast, tails, DW_AT_3X3);
    }
    return d;
}

/* Any window: a border pixel's taps inside the input, or an interior
   pixel's whole window (inside). */
DW_INLINE int32_t mve_pixel_window(const dw_ctx *c, const dw_window *win, int8_t *out, int fast,
                                   int tails, int at)
{
    mve_requant q;
    mve_requant_init(c, &q);
    return mve_pixel_blocks(c, &q, win, out, fast, tails, at);
}

/* A block of eight channels from c0 on in the branch-free full-range form
   over the taps of win on x - zero point from the plain bias (exact, as
   bias_sum on x): one copy for interior and border pixels, out of line, as
   only depths off a multiple of 16 (or eight-channel pixels outside a
   pair) take it. */
DW_NOINLINE void mve_block8_window_full(const dw_ctx *c, const dw_window *win, int32_t c0,
                                        int8_t *out)
{
    const int16x8_t zp = vdupq_n_s16((int16_t)c->p->pad_value);
    const mve_steps st = {c->tap_col, c->tap_row - win->cols * c->tap_col, c->depth,
                          (ptrdiff_t)(c->p->filter_width - win->cols) * c->depth};
    mve_requant q;
    mve_requant_init(c, &q);
    mve_block_window(c, &q, &st, win, zp, c0, 0, out, DW_FAST_FULL, 1);
}

#undef DW3_WINDOW16
#undef DW3_ROW
#undef DW3_HI_LO
#undef DW3_LO_HI
#undef DW3_ADD
#undef DW3_MT
#undef DW3_MB
#undef DW3_LW
#undef DW3_LX
#undef DW_MVE_START_PINNED
#undef DW_MVE_BLOCK_TAP
#undef DW_MVE_BLOCK_TAP_ZP
#undef DW_MVE_TAP
#undef DW_MVE_TAP_ZP

/* One tap of two pixels of eight channels, the taps at byte offset XO
   from [x] and from [x1] (the other pixel), the weights at WO from [w]:
   immediates, so that a row is one block. */
/* clang-format off */
#define DW_MVE_TAP_2PX(XO, WO)                                                            \
    "vldrb.s16 %q[wv], [%[w], #" WO "]\n\t"                                               \
    "vldrb.s16 %q[xv], [%[x], #" XO "]\n\t"                                               \
    "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a0], %q[a0], %q[t]\n\t"                                                  \
    "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a1], %q[a1], %q[t]\n\t"                                                  \
    "vldrb.s16 %q[xv], [%[x1], #" XO "]\n\t"                                              \
    "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a2], %q[a2], %q[t]\n\t"                                                  \
    "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a3], %q[a3], %q[t]\n\t"
/* clang-format on */

/* The three taps of a window row (x at its first, x1 at the other
   pixel's, w at the row's first weight) for both pixels, on the pinned
   accumulators. */
#define DW_MVE_ROW_2PX(XP, X1P, WP)                                                           \
    do {                                                                                      \
        int16x8_t xv, wv;                                                                     \
        int32x4_t t;                                                                          \
        __asm__(DW_MVE_TAP_2PX("0", "0") DW_MVE_TAP_2PX("8", "8") DW_MVE_TAP_2PX("16", "16")  \
                : [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3), [xv] "=&w"(xv), \
                  [wv] "=&w"(wv), [t] "=&w"(t)                                                \
                : [x] "l"(XP), [x1] "l"(X1P), [w] "l"(WP), "m"(*(const dw_bytes24 *)(XP)),    \
                  "m"(*(const dw_bytes24 *)(X1P)), "m"(*(const dw_bytes24 *)(WP)));           \
    } while (0)

/* `pairs` pairs of horizontally adjacent interior pixels of an undilated
   3x3 window over exactly eight channels (the first depthwise layer of
   small MobileNets), pixel_step apart in the input: one weight load serves
   both pixels of a pair, and so do the bias and requantization loads; the
   setup is paid once per run. Only in the branch-free form (right shifts
   only, the full int8 range). */
DW_NOINLINE void mve_pixels2_3x3_c8_fast(const dw_ctx *c, const int8_t *x, int32_t pairs,
                                         ptrdiff_t pixel_step, int8_t *out)
{
    const ptrdiff_t row = c->tap_row;
    mve_requant q;
    mve_requant_init(c, &q);
    int32x4_t b0, b1, b2, b3;
    mve_start(c->bias_sum, 0, 8, &b0, &b1, &b2, &b3);
    const int8_t *const w = c->weights;
    for (int32_t pair = 0; pair < pairs; pair++, x += 2 * pixel_step, out += 16) {
        register int32x4_t a0 __asm__("q0") = b0;
        register int32x4_t a1 __asm__("q1") = b1;
        register int32x4_t a2 __asm__("q2") = b0;
        register int32x4_t a3 __asm__("q3") = b1;
        const int8_t *x1 = x + pixel_step;
        DW_MVE_ROW_2PX(x, x1, w);
        DW_MVE_ROW_2PX(x + row, x1 + row, w + 24);
        DW_MVE_ROW_2PX(x + 2 * row, x1 + 2 * row, w + 48);
        mve_store8(&q, a0, a1, 0, 8, 0, DW_FAST_FULL, out);
        mve_store8(&q, a2, a3, 0, 8, 0, DW_FAST_FULL, out + 8);
    }
}

#undef DW_MVE_ROW_2PX
#undef DW_MVE_TAP_2PX
#undef DW_MVE_ROW_2PX
#undef DW_MVE_TAP_2PX

DW_NOINLINE int32_t mve_pixel_3x3_fast(const dw_ctx *c, const int8_t *x, int32_t count,
                                       ptrdiff_t pixel_step, int8_t *out)
{
    return mve_pixel_3x3(c, x, count, pixel_step, out, DW_FAST_FULL, 1);
}

/* The same for depths that are multiples of 8 (the m1_fast entry): no
   tail code. */
DW_NOINLINE int32_t mve_pixel_3x3_fast8(const dw_ctx *c, const int8_t *x, int32_t count,
                                        ptrdiff_t pixel_step, int8_t *out)
{
    return mve_pixel_3x3(c, x, count, pixel_step, out, DW_FAST_FULL, 0);
}

DW_NOINLINE int32_t mve_pixel_3x3_clamped(const dw_ctx *c, const int8_t *x, int32_t count,
                                          ptrdiff_t pixel_step, int8_t *out)
{
    return mve_pixel_3x3(c, x, count, pixel_step, out, DW_FAST_CLAMPED, 1);
}

/* Border and interior windows apart, one function each: in one, the
   border loop would share its registers with the interior one. */
DW_NOINLINE int32_t mve_pixel_window_fast(const dw_ctx *c, const dw_window *win, int8_t *out)
{
    return mve_pixel_window(c, win, out, DW_FAST_FULL, 1, DW_AT_BORDER);
}

DW_NOINLINE int32_t mve_pixel_inside_fast(const dw_ctx *c, const dw_window *win, int8_t *out)
{
    return mve_pixel_window(c, win, out, DW_FAST_FULL, 1, DW_AT_INSIDE);
}

DW_NOINLINE int32_t mve_pixel_window_fast8(const dw_ctx *c, const dw_window *win, int8_t *out)
{
    return mve_pixel_window(c, win, out, DW_FAST_FULL, 0, DW_AT_BORDER);
}

DW_NOINLINE int32_t mve_pixel_inside_fast8(const dw_ctx *c, const dw_window *win, int8_t *out)
{
    return mve_pixel_window(c, win, out, DW_FAST_FULL, 0, DW_AT_INSIDE);
}

/* The other forms (clamped or general requantization): interior pixels
   of windows other than 3x3 take the border form too, one copy less. */
DW_NOINLINE int32_t mve_pixel_window_any(const dw_ctx *c, const dw_window *win, int8_t *out)
{
    return mve_pixel_window(c, win, out, DW_GENERAL, 1, DW_AT_BORDER);
}

/* Depth multiplier > 1: a block of n <= 8 output channels from o0 on,
   whose inputs (channel o / multiplier) are gathered at `offsets` from
   input channel o0 / multiplier. Only the taps inside the input, on
   x - zero point, from the plain bias. */
DW_NOINLINE void mve_block_multiplier(const dw_ctx *c, const dw_window *win, int32_t o0, int32_t n,
                                      uint16x8_t offsets, int8_t *out)
{
    const int16x8_t zp = vdupq_n_s16((int16_t)c->p->pad_value);
    const mve_pred16_t pr = vctp16q((uint32_t)n);
    const ptrdiff_t d = c->depth, col = c->tap_col;
    const int32_t rows = win->rows, cols = win->cols;
    const ptrdiff_t next_row = c->tap_row - cols * col;
    const ptrdiff_t next_w_row = (ptrdiff_t)(c->p->filter_width - cols) * d;
    int32x4_t a0, a1, a2, a3;
    mve_start(c->bias, o0, n, &a0, &a1, &a2, &a3);
    const int8_t *x = win->x + o0 / c->p->depth_multiplier, *w = win->w + o0;
    for (int32_t ky = 0; ky < rows; ky++, x += next_row, w += next_w_row)
        for (int32_t kx = 0; kx < cols; kx++, x += col, w += d) {
            const int16x8_t xv = vsubq_x_s16(vldrbq_gather_offset_z_s16(x, offsets, pr), zp, pr);
            const int16x8_t wv = vldrbq_z_s16(w, pr);
            a0 = vaddq_s32(a0, vmullbq_int_s16(xv, wv));
            a1 = vaddq_s32(a1, vmulltq_int_s16(xv, wv));
        }
    mve_store_n(c, a0, a1, o0, n, 1, out);
}

/* Depth multiplier > 1 on Helium: eight output channels per block. */
void ta_depthwise_conv_2d_s8_multiplier_mve(const ta_depthwise_conv_2d_params_t *p,
                                            const int8_t *input, const int8_t *weights,
                                            const int32_t *bias, const int32_t *multipliers,
                                            const int32_t *shifts, int8_t *output)
{
    dw_ctx c;
    dw_ctx_init(&c, p, weights, NULL, bias, multipliers, shifts);
    const int32_t depth = c.depth, mult = p->depth_multiplier;
    const size_t image = (size_t)p->input_height * (size_t)p->input_width * (size_t)c.in_depth;
    int8_t *const out0 = output;
    const ptrdiff_t out_row = (ptrdiff_t)p->output_width * depth;
    for (int32_t bi = 0; bi < p->batches; bi++) {
        const int32_t b = dw_walk(p->reverse_rows, bi, p->batches);
        const int8_t *in_b = input + (size_t)b * image;
        for (int32_t oi = 0; oi < p->output_height; oi++) {
            const int32_t oy = dw_walk(p->reverse_rows, oi, p->output_height);
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            output = out0 + ((ptrdiff_t)b * p->output_height + oy) * out_row;
            for (int32_t ox = 0; ox < p->output_width; ox++, output += depth) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                dw_window win;
                dw_window_init(&c, in_b, iy0, ix0, &win);
                for (int32_t o0 = 0; o0 < depth; o0 += 8) {
                    /* Offsets of the inputs of channels o0.. o0 + 7 from
                       that of o0, counted without division. */
                    uint16_t offsets[8];
                    int32_t r = o0 % mult, q = 0;
                    for (int32_t k = 0; k < 8; k++) {
                        offsets[k] = (uint16_t)q;
                        if (++r == mult) {
                            r = 0;
                            q++;
                        }
                    }
                    mve_block_multiplier(&c, &win, o0, depth - o0 < 8 ? depth - o0 : 8,
                                         vld1q_u16(offsets), output);
                }
            }
        }
    }
}

/* Depth multiplier 1 on Helium. fast_full_only: the layer meets the
   preconditions of ta_depthwise_conv_2d_s8_m1_fast, so the other forms
   and the tail block are not compiled in (and not linked). */
DW_INLINE void dw_s8_m1_mve_drive(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                                  const int8_t *weights, const int32_t *bias_sum,
                                  const int32_t *bias, const int32_t *multipliers,
                                  const int32_t *shifts, int8_t *output, int fast_full_only)
{
    dw_ctx c;
    dw_ctx_init(&c, p, weights, bias_sum, bias, multipliers, shifts);
    const int32_t depth = c.depth;
    const int is_3x3 = p->filter_height == 3 && p->filter_width == 3;
    const int full = p->activation_min == INT8_MIN && p->activation_max == INT8_MAX;
    const int fast = fast_full_only                        ? DW_FAST_FULL
                     : multipliers && p->right_shifts_only ? (full ? DW_FAST_FULL : DW_FAST_CLAMPED)
                                                           : DW_GENERAL;
    int32_t oy_lo, oy_hi, ox_lo, ox_hi;
    inside_range(p->input_height, p->output_height, p->filter_height, p->stride_height,
                 p->dilation_height, p->pad_top, &oy_lo, &oy_hi);
    inside_range(p->input_width, p->output_width, p->filter_width, p->stride_width,
                 p->dilation_width, p->pad_left, &ox_lo, &ox_hi);
    const size_t image = (size_t)p->input_height * (size_t)p->input_width * (size_t)depth;
    int8_t *const out0 = output;
    const ptrdiff_t out_row = (ptrdiff_t)p->output_width * depth;
    for (int32_t bi = 0; bi < p->batches; bi++) {
        const int32_t b = dw_walk(p->reverse_rows, bi, p->batches);
        const int8_t *in_b = input + (size_t)b * image;
        for (int32_t oi = 0; oi < p->output_height; oi++) {
            const int32_t oy = dw_walk(p->reverse_rows, oi, p->output_height);
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            output = out0 + ((ptrdiff_t)b * p->output_height + oy) * out_row;
            const int row_inside = oy >= oy_lo && oy < oy_hi;
            for (int32_t ox = 0; ox < p->output_width; ox++, output += depth) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                if (fast && is_3x3 && row_inside && ox >= ox_lo && ox < ox_hi) {
                    const int8_t *x = in_b + ((ptrdiff_t)iy0 * p->input_width + ix0) * depth;
                    if (depth == 8 && fast == DW_FAST_FULL && ox + 1 < ox_hi && c.tap_col == 8) {
                        /* The interior run's pixel pairs in one call. */
                        const int32_t pairs = (ox_hi - ox) / 2;
                        mve_pixels2_3x3_c8_fast(&c, x, pairs, (ptrdiff_t)p->stride_width * 8,
                                                output);
                        ox += 2 * pairs - 1;
                        output += (2 * pairs - 1) * depth;
                        continue;
                    }
                    /* The whole interior run of the row in one call (a
                       predicated tail takes the last depth % 8 channels). */
                    const int32_t run = ox_hi - ox;
                    const ptrdiff_t step = (ptrdiff_t)p->stride_width * depth;
                    if (fast_full_only)
                        mve_pixel_3x3_fast8(&c, x, run, step, output);
                    else if (fast == DW_FAST_FULL)
                        mve_pixel_3x3_fast(&c, x, run, step, output);
                    else
                        mve_pixel_3x3_clamped(&c, x, run, step, output);
                    ox += run - 1;
                    output += (run - 1) * depth;
                    continue;
                }
                dw_window win;
                dw_window_init(&c, in_b, iy0, ix0, &win);
                /* interior pixels of other windows than 3x3 */
                const int inside = !is_3x3 && row_inside && ox >= ox_lo && ox < ox_hi;
                if (fast_full_only)
                    (inside ? mve_pixel_inside_fast8 : mve_pixel_window_fast8)(&c, &win, output);
                else if (fast == DW_FAST_FULL)
                    (inside ? mve_pixel_inside_fast : mve_pixel_window_fast)(&c, &win, output);
                else
                    mve_pixel_window_any(&c, &win, output);
            }
        }
    }
}
void ta_depthwise_conv_2d_s8_m1_mve(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                                    const int8_t *weights, const int32_t *bias_sum,
                                    const int32_t *bias, const int32_t *multipliers,
                                    const int32_t *shifts, int8_t *output)
{
    dw_s8_m1_mve_drive(p, input, weights, bias_sum, bias, multipliers, shifts, output, 0);
}

#undef DW_MVE_MAC16
#undef DW_MVE_MAC8
#undef DW_MVE_LOAD8

void ta_depthwise_conv_2d_s8_m1_fast_mve(const ta_depthwise_conv_2d_params_t *p,
                                         const int8_t *input, const int8_t *weights,
                                         const int32_t *bias_sum, const int32_t *bias,
                                         const int32_t *multipliers, const int32_t *shifts,
                                         int8_t *output)
{
    dw_s8_m1_mve_drive(p, input, weights, bias_sum, bias, multipliers, shifts, output, 1);
}

/* int16 activations, depth multiplier 1, on Helium: per output pixel,
   eight channels at a time over the taps inside the input (zero points
   are 0, so outside taps add nothing), products summed in int32 lanes,
   which is exact while taps * 2^22 < 2^31; then TFLite's int64 bias and
   requantization per channel. */
void ta_depthwise_conv_2d_s16_m1_mve(const ta_depthwise_conv_2d_params_t *p, const int16_t *input,
                                     const int8_t *weights, const int64_t *bias,
                                     const int32_t *multipliers, const int32_t *shifts,
                                     int16_t *output)
{
    const int32_t depth = p->output_depth;
    const ptrdiff_t tap_row = (ptrdiff_t)p->dilation_height * p->input_width * depth;
    const ptrdiff_t tap_col = (ptrdiff_t)p->dilation_width * depth;
    const size_t image = (size_t)p->input_height * (size_t)p->input_width * (size_t)depth;
    int16_t *const out0 = output;
    const ptrdiff_t out_row = (ptrdiff_t)p->output_width * depth;
    for (int32_t bi = 0; bi < p->batches; bi++) {
        const int32_t b = dw_walk(p->reverse_rows, bi, p->batches);
        const int16_t *in_b = input + (size_t)b * image;
        for (int32_t oi = 0; oi < p->output_height; oi++) {
            const int32_t oy = dw_walk(p->reverse_rows, oi, p->output_height);
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            output = out0 + ((ptrdiff_t)b * p->output_height + oy) * out_row;
            int32_t ky0, ky1;
            tap_range(iy0, p->input_height, p->filter_height, p->dilation_height, &ky0, &ky1);
            for (int32_t ox = 0; ox < p->output_width; ox++, output += depth) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                int32_t kx0, kx1;
                tap_range(ix0, p->input_width, p->filter_width, p->dilation_width, &kx0, &kx1);
                const int16_t *x0 = in_b +
                                    ((ptrdiff_t)(iy0 + ky0 * p->dilation_height) * p->input_width +
                                     ix0 + kx0 * p->dilation_width) *
                                        depth;
                const int8_t *w0 = weights + ((ptrdiff_t)ky0 * p->filter_width + kx0) * depth;
                for (int32_t c0 = 0; c0 < depth; c0 += 8) {
                    const int32_t n = depth - c0 < 8 ? depth - c0 : 8;
                    const mve_pred16_t pr = vctp16q((uint32_t)n);
                    int32x4_t even = vdupq_n_s32(0), odd = even;
                    for (int32_t ky = ky0; ky < ky1; ky++) {
                        const int16_t *x = x0 + (ky - ky0) * tap_row + c0;
                        const int8_t *w = w0 + (ptrdiff_t)(ky - ky0) * p->filter_width * depth + c0;
                        for (int32_t kx = kx0; kx < kx1; kx++, x += tap_col, w += depth) {
                            const int16x8_t xv = vldrhq_z_s16(x, pr);
                            const int16x8_t wv = vldrbq_z_s16(w, pr);
                            even = vaddq_s32(even, vmullbq_int_s16(xv, wv));
                            odd = vaddq_s32(odd, vmulltq_int_s16(xv, wv));
                        }
                    }
                    int32_t acc[8];
                    int32x4x2_t pair;
                    pair.val[0] = even;
                    pair.val[1] = odd;
                    vst2q_s32(acc, pair); /* back in channel order */
                    for (int32_t k = 0; k < n; k++) {
                        const int32_t o = c0 + k;
                        const int32_t m = multipliers ? multipliers[o] : p->multiplier;
                        const int32_t sh = shifts ? shifts[o] : p->shift;
                        const int64_t a = (int64_t)acc[k] + (bias ? bias[o] : 0);
                        const int32_t v = ta_mul_by_quantized_multiplier_64(a, m, (int)sh) +
                                          p->output_offset;
                        output[o] = (int16_t)ta_clamp_i32(v, p->activation_min, p->activation_max);
                    }
                }
            }
        }
    }
}
#endif /* TA_HAVE_MVE */
