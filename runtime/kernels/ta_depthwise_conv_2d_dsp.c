/*
 * ta_depthwise_conv_2d_dsp.c - DEPTHWISE_CONV_2D with the DSP extension
 * (SIMD32: Cortex-M4/M7/M33); ta_depthwise_conv_2d.c dispatches here.
 * Compiles to nothing on other cores (and on Helium cores, which take
 * ta_depthwise_conv_2d_mve.c).
 *
 * int8, depth multiplier 1: per output pixel and block of four channels
 * the accumulators stay in registers over all taps. Pixels whose window
 * lies inside the input start from bias_sum (the input zero point folded
 * in) and run every tap unchecked, 3x3 windows unrolled; the others run
 * only the taps inside the input, on (input - zero point), from the plain
 * bias. Requantization takes four channels at a time (SMMULR or SMLAL,
 * QADD, SSAT/SEL). Depth multipliers above 1 take four outputs reading at
 * most two input channels.
 */
#include "ta_depthwise_conv_2d_dsp.h"

#include "ta_depthwise_conv_2d_window.h"

#include "../include/ta_dw_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_simd.h"

#include <stddef.h>
#include <string.h>

#if defined(TA_HAVE_DSP)
/* The four bytes a DSP assembly step reads, as a memory operand. */
typedef struct {
    int8_t b[4];
} dw_word;

/* One tap of four channels on x - zero point at x and w, both pointers
   then stepped by `step`: SXTAB16 sign-extends bytes 0, 2 (rotated: 1, 3)
   of x into halfword pairs and adds nzp2 (minus the zero point in both
   halfwords; exact, |x - zp| <= 255), SXTB16 splits the weights alike and
   SMLABB/SMLATT accumulate each channel in its own register. In assembly,
   with the pointer steps: gcc precomputes the addresses of all taps and
   runs out of registers. Unaligned word loads are fine on Cortex-M4. */
DW_INLINE void dsp_tap_zp(int32_t *a0, int32_t *a1, int32_t *a2, int32_t *a3, const int8_t **x,
                          const int8_t **w, ptrdiff_t step, uint32_t nzp2)
{
    uint32_t xv, wv, x02, w02;
    /* clang-format off */
    __asm__("ldr %[xv], [%[x]]\n\t"
            "ldr %[wv], [%[w]]\n\t"
            "add %[x], %[x], %[s]\n\t"
            "add %[w], %[w], %[s]\n\t"
            "sxtab16 %[x02], %[zp], %[xv]\n\t"
            "sxtb16 %[w02], %[wv]\n\t"
            "sxtab16 %[xv], %[zp], %[xv], ror #8\n\t"
            "sxtb16 %[wv], %[wv], ror #8\n\t"
            "smlabb %[a0], %[x02], %[w02], %[a0]\n\t"
            "smlatt %[a2], %[x02], %[w02], %[a2]\n\t"
            "smlabb %[a1], %[xv], %[wv], %[a1]\n\t"
            "smlatt %[a3], %[xv], %[wv], %[a3]"
            : [a0] "+r"(*a0), [a1] "+r"(*a1), [a2] "+r"(*a2), [a3] "+r"(*a3), [x] "+r"(*x),
              [w] "+r"(*w), [xv] "=&r"(xv), [wv] "=&r"(wv), [x02] "=&r"(x02), [w02] "=&r"(w02)
            : [s] "r"(step), [zp] "r"(nzp2), "m"(*(const dw_word *)*x),
              "m"(*(const dw_word *)*w));
    /* clang-format on */
}

/* What requantization needs, read once per call. */
typedef struct {
    const int32_t *multipliers, *shifts; /* NULL: per-tensor */
    int32_t multiplier, shift, offset, lo, hi, right_only, small;
    uint32_t lo4, hi4; /* lo, hi in each byte */
} dsp_requant;

DW_INLINE void dsp_requant_init(const dw_ctx *c, dsp_requant *q)
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
    q->small = p->small_accumulators;
    q->lo4 = ((uint32_t)q->lo & 0xFFu) * 0x01010101u;
    q->hi4 = ((uint32_t)q->hi & 0xFFu) * 0x01010101u;
}

/* The forms of the requantization, fixed per function: the fast ones need
   per-channel multipliers (the converter gives per-tensor layers
   per-channel copies), right shifts only and small accumulators, which
   nearly every layer has; the full int8 range then needs no clamp. */
enum { DSP_GENERAL = 0, DSP_FAST_FULL = 1, DSP_FAST_CLAMPED = 2 };

/* The form a layer's requantization takes. */
static int dsp_form(const dw_ctx *c)
{
    const ta_depthwise_conv_2d_params_t *p = c->p;
    if (!c->multipliers || !c->shifts || !p->right_shifts_only || !p->small_accumulators)
        return DSP_GENERAL;
    return p->activation_min == INT8_MIN && p->activation_max == INT8_MAX ? DSP_FAST_FULL
                                                                          : DSP_FAST_CLAMPED;
}

/* One requantized, clamped output of channel o. */
DW_INLINE int32_t dsp_output(const dsp_requant *q, int32_t acc, int32_t o)
{
    const int32_t m = q->multipliers ? q->multipliers[o] : q->multiplier;
    const int32_t s = q->shifts ? q->shifts[o] : q->shift;
    return ta_clamp_i32(ta_dw_requantize(acc, m, s) + q->offset, q->lo, q->hi);
}

/* Four requantized values (before the output offset) saturated to int8 and
   packed as bytes by bit-field inserts, then clamped to the activation
   range bytewise with SSUB8/SEL: `clamp` 0 skips that (the full range),
   1 checks the bounds at run time, 2 always clamps. */
DW_INLINE uint32_t dsp_clamp4(const dsp_requant *q, uint32_t v, int clamp);

DW_INLINE uint32_t dsp_pack4(const dsp_requant *q, int32_t v0, int32_t v1, int32_t v2, int32_t v3,
                             int clamp)
{
    const uint32_t v = ta_dw_pack_bytes(__ssat(v0 + q->offset, 8), __ssat(v1 + q->offset, 8),
                                        __ssat(v2 + q->offset, 8), __ssat(v3 + q->offset, 8));
    return dsp_clamp4(q, v, clamp);
}

/* Four packed int8 outputs clamped to the activation range bytewise
   (dsp_pack4's `clamp`). */
DW_INLINE uint32_t dsp_clamp4(const dsp_requant *q, uint32_t v, int clamp)
{
    if (clamp == 2 || (clamp == 1 && q->lo > INT8_MIN)) {
        (void)__ssub8(v, q->lo4);
        v = __sel(v, q->lo4);
    }
    if (clamp == 2 || (clamp == 1 && q->hi < INT8_MAX)) {
        (void)__ssub8(q->hi4, v);
        v = __sel(v, q->hi4);
    }
    return v;
}

/* Four sums a0..a3 requantized with multipliers m[0..3] and right shifts
   from r[0..3], the offset added, saturated to int8 and packed (as
   dsp_pack4 before its clamp). DOUBLE(a, b): the sums come undoubled (SMMULR
   takes 2 * sum, ta_dw_requantize_right_small); NEGATE: r holds the shifts
   (< 0; MVN gives the shift less one that ASR takes), not the shifts less
   one (ta_dw_requantize_right_doubled). In assembly, to load the values two
   at a time back to back: a load right after a load takes one cycle on the
   Cortex-M4, else two, and gcc spreads them. */
/* clang-format off */
#define DSP_RQ_DOUBLE(a, b) "lsl %[" a "], %[" a "], #1\n\t" "lsl %[" b "], %[" b "], #1\n\t"
#define DSP_RQ_KEEP(a, b) ""
#define DSP_RQ_NEGATE "mvn %[t0], %[t0]\n\t" "mvn %[t1], %[t1]\n\t"
#define DSP_RQ_ASM(DOUBLE, NEGATE)                                                        \
    "ldr %[t0], %[m0]\n\t" "ldr %[t1], %[m1]\n\t" DOUBLE("a0", "a1")                     \
    "smmulr %[a0], %[a0], %[t0]\n\t" "smmulr %[a1], %[a1], %[t1]\n\t"                     \
    "ldr %[t0], %[m2]\n\t" "ldr %[t1], %[m3]\n\t" DOUBLE("a2", "a3")                     \
    "smmulr %[a2], %[a2], %[t0]\n\t" "smmulr %[a3], %[a3], %[t1]\n\t"                     \
    "ldr %[t0], %[r0]\n\t" "ldr %[t1], %[r1]\n\t" NEGATE                                \
    "add %[a0], %[a0], %[a0], asr #31\n\t" "add %[a1], %[a1], %[a1], asr #31\n\t"         \
    "asr %[a0], %[a0], %[t0]\n\t" "asr %[a1], %[a1], %[t1]\n\t"                           \
    "ldr %[t0], %[r2]\n\t" "ldr %[t1], %[r3]\n\t" NEGATE                                \
    "add %[a2], %[a2], %[a2], asr #31\n\t" "add %[a3], %[a3], %[a3], asr #31\n\t"         \
    "asr %[a2], %[a2], %[t0]\n\t" "asr %[a3], %[a3], %[t1]\n\t"                           \
    "sub %[a0], %[a0], %[a0], asr #1\n\t" "sub %[a1], %[a1], %[a1], asr #1\n\t"           \
    "sub %[a2], %[a2], %[a2], asr #1\n\t" "sub %[a3], %[a3], %[a3], asr #1\n\t"           \
    "add %[a0], %[a0], %[off]\n\t" "add %[a1], %[a1], %[off]\n\t"                         \
    "add %[a2], %[a2], %[off]\n\t" "add %[a3], %[a3], %[off]\n\t"                         \
    "ssat %[a0], #8, %[a0]\n\t" "ssat %[a1], #8, %[a1]\n\t"                               \
    "ssat %[a2], #8, %[a2]\n\t" "ssat %[a3], #8, %[a3]\n\t"                               \
    "bfi %[a0], %[a1], #8, #8\n\t" "bfi %[a0], %[a2], #16, #8\n\t"                        \
    "bfi %[a0], %[a3], #24, #8"                                                            \
    : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [t0] "=&r"(t0),         \
      [t1] "=&r"(t1)                                                                      \
    : [m0] "m"(m[0]), [m1] "m"(m[1]), [m2] "m"(m[2]), [m3] "m"(m[3]), [r0] "m"(r[0]),     \
      [r1] "m"(r[1]), [r2] "m"(r[2]), [r3] "m"(r[3]), [off] "r"(offset)
/* clang-format on */
DW_INLINE uint32_t dsp_requantize4_right(int32_t a0, int32_t a1, int32_t a2, int32_t a3,
                                         const int32_t *m, const int32_t *r, int32_t offset,
                                         int from_shifts)
{
    int32_t t0, t1;
    if (from_shifts)
        __asm__(DSP_RQ_ASM(DSP_RQ_DOUBLE, DSP_RQ_NEGATE));
    else
        __asm__(DSP_RQ_ASM(DSP_RQ_KEEP, ""));
    return (uint32_t)a0;
}
#undef DSP_RQ_ASM
#undef DSP_RQ_NEGATE
#undef DSP_RQ_KEEP
#undef DSP_RQ_DOUBLE

/* Four outputs from c0 on, requantized in the form `form` and stored as one
   word (a byte store may alias anything, which would make gcc reload
   everything after each). */
DW_INLINE void dsp_store4(const dsp_requant *q, int32_t a0, int32_t a1, int32_t a2, int32_t a3,
                          int32_t c0, int form, int8_t *out)
{
    uint32_t v;
    if (form != DSP_GENERAL) {
        v = dsp_clamp4(q,
                       dsp_requantize4_right(a0, a1, a2, a3, q->multipliers + c0, q->shifts + c0,
                                             q->offset, 1),
                       form == DSP_FAST_CLAMPED ? 2 : 0);
    } else {
        int32_t m0 = q->multiplier, m1 = m0, m2 = m0, m3 = m0;
        int32_t s0 = q->shift, s1 = s0, s2 = s0, s3 = s0;
        if (q->multipliers) {
            m0 = q->multipliers[c0];
            m1 = q->multipliers[c0 + 1];
            m2 = q->multipliers[c0 + 2];
            m3 = q->multipliers[c0 + 3];
            s0 = q->shifts[c0];
            s1 = q->shifts[c0 + 1];
            s2 = q->shifts[c0 + 2];
            s3 = q->shifts[c0 + 3];
        }
        if (q->right_only) {
            a0 = ta_dw_requantize_right(a0, m0, s0);
            a1 = ta_dw_requantize_right(a1, m1, s1);
            a2 = ta_dw_requantize_right(a2, m2, s2);
            a3 = ta_dw_requantize_right(a3, m3, s3);
        } else {
            a0 = ta_dw_requantize(a0, m0, s0);
            a1 = ta_dw_requantize(a1, m1, s1);
            a2 = ta_dw_requantize(a2, m2, s2);
            a3 = ta_dw_requantize(a3, m3, s3);
        }
        v = dsp_pack4(q, a0, a1, a2, a3, 1);
    }
    memcpy(out + c0, &v, 4);
}

/* The accumulators of four channels from c0 on, from bias (NULL: zeros). */
DW_INLINE void dsp_start4(const int32_t *bias, int32_t c0, int32_t *a0, int32_t *a1, int32_t *a2,
                          int32_t *a3)
{
    *a0 = *a1 = *a2 = *a3 = 0;
    if (bias) {
        *a0 = bias[c0];
        *a1 = bias[c0 + 1];
        *a2 = bias[c0 + 2];
        *a3 = bias[c0 + 3];
    }
}

/* One row of three taps of four channels, the taps `d` bytes apart in
   both x and w: register-offset loads (LSL #1 for the third) instead of
   stepping the pointers per tap; then x moves on by x_row, w by 3 * d. */
/* clang-format off */
#define DW_DSP_MAC4                                                                       \
    "sxtb16 %[x02], %[xv]\n\t"                                                             \
    "sxtb16 %[w02], %[wv]\n\t"                                                             \
    "sxtb16 %[xv], %[xv], ror #8\n\t"                                                      \
    "sxtb16 %[wv], %[wv], ror #8\n\t"                                                      \
    "smlabb %[a0], %[x02], %[w02], %[a0]\n\t"                                              \
    "smlatt %[a2], %[x02], %[w02], %[a2]\n\t"                                              \
    "smlabb %[a1], %[xv], %[wv], %[a1]\n\t"                                                \
    "smlatt %[a3], %[xv], %[wv], %[a3]\n\t"
/* clang-format on */
DW_INLINE void dsp_row3(int32_t *a0, int32_t *a1, int32_t *a2, int32_t *a3, const int8_t **x,
                        const int8_t **w, ptrdiff_t d, ptrdiff_t x_row)
{
    uint32_t xv, wv, x02, w02;
    /* clang-format off */
    __asm__("ldr %[xv], [%[x]]\n\t"
            "ldr %[wv], [%[w]]\n\t" DW_DSP_MAC4
            "ldr %[xv], [%[x], %[d]]\n\t"
            "ldr %[wv], [%[w], %[d]]\n\t" DW_DSP_MAC4
            "ldr %[xv], [%[x], %[d], lsl #1]\n\t"
            "ldr %[wv], [%[w], %[d], lsl #1]\n\t" DW_DSP_MAC4
            "add %[x], %[x], %[xr]\n\t"
            "add %[w], %[w], %[d]\n\t"
            "add %[w], %[w], %[d], lsl #1"
            : [a0] "+r"(*a0), [a1] "+r"(*a1), [a2] "+r"(*a2), [a3] "+r"(*a3), [x] "+r"(*x),
              [w] "+r"(*w), [xv] "=&r"(xv), [wv] "=&r"(wv), [x02] "=&r"(x02), [w02] "=&r"(w02)
            : [d] "r"(d), [xr] "r"(x_row)
            /* Reads memory at addresses no operand names. */
            : "memory");
    /* clang-format on */
}

/* The same on x - zero point (SXTAB16 adds nzp2, minus the zero point in
   both halfwords, exact) for the first `cols` (1 to 3) taps of a row;
   the caller steps the pointers. */
/* clang-format off */
#define DW_DSP_MAC4_ZP                                                                    \
    "sxtab16 %[x02], %[zp], %[xv]\n\t"                                                      \
    "sxtb16 %[w02], %[wv]\n\t"                                                             \
    "sxtab16 %[xv], %[zp], %[xv], ror #8\n\t"                                               \
    "sxtb16 %[wv], %[wv], ror #8\n\t"                                                      \
    "smlabb %[a0], %[x02], %[w02], %[a0]\n\t"                                              \
    "smlatt %[a2], %[x02], %[w02], %[a2]\n\t"                                              \
    "smlabb %[a1], %[xv], %[wv], %[a1]\n\t"                                                \
    "smlatt %[a3], %[xv], %[wv], %[a3]\n\t"
/* clang-format on */
#define DW_DSP_ROW_ZP_OPERANDS                                                        \
    : [a0] "+r"(*a0), [a1] "+r"(*a1), [a2] "+r"(*a2), [a3] "+r"(*a3), [xv] "=&r"(xv),     \
      [wv] "=&r"(wv), [x02] "=&r"(x02), [w02] "=&r"(w02)                                  \
    : [x] "r"(x), [w] "r"(w), [d] "r"(d), [zp] "r"(nzp2)                                  \
    : "memory"
DW_INLINE void dsp_row_zp(int32_t *a0, int32_t *a1, int32_t *a2, int32_t *a3, const int8_t *x,
                          const int8_t *w, ptrdiff_t d, uint32_t nzp2, int32_t cols)
{
    uint32_t xv, wv, x02, w02;
    if (cols == 3)
        /* clang-format off */
        __asm__("ldr %[xv], [%[x]]\n\t"
                "ldr %[wv], [%[w]]\n\t" DW_DSP_MAC4_ZP
                "ldr %[xv], [%[x], %[d]]\n\t"
                "ldr %[wv], [%[w], %[d]]\n\t" DW_DSP_MAC4_ZP
                "ldr %[xv], [%[x], %[d], lsl #1]\n\t"
                "ldr %[wv], [%[w], %[d], lsl #1]\n\t" DW_DSP_MAC4_ZP DW_DSP_ROW_ZP_OPERANDS);
    /* clang-format on */
    else if (cols == 2)
        /* clang-format off */
        __asm__("ldr %[xv], [%[x]]\n\t"
                "ldr %[wv], [%[w]]\n\t" DW_DSP_MAC4_ZP
                "ldr %[xv], [%[x], %[d]]\n\t"
                "ldr %[wv], [%[w], %[d]]\n\t" DW_DSP_MAC4_ZP DW_DSP_ROW_ZP_OPERANDS);
    /* clang-format on */
    else
        /* clang-format off */
        __asm__("ldr %[xv], [%[x]]\n\t"
                "ldr %[wv], [%[w]]\n\t" DW_DSP_MAC4_ZP DW_DSP_ROW_ZP_OPERANDS);
    /* clang-format on */
}
#undef DW_DSP_ROW_ZP_OPERANDS
#undef DW_DSP_MAC4_ZP
#undef DW_DSP_MAC4

/* `count` interior pixels of a 3x3 window with unit horizontal dilation,
   pixel_step input bytes apart, x at the first tap of the first: per pixel
   its channels four at a time, in registers over the nine taps; returns
   how many channels it did per pixel. Within a row the input and the
   weight offsets are the same, depth and 2 * depth. */
DW_INLINE int32_t dsp_run_3x3(const dw_ctx *c, const int8_t *x, int32_t count, ptrdiff_t pixel_step,
                              int8_t *out, int form)
{
    const ptrdiff_t d = c->depth, row = c->tap_row;
    const int32_t quads = c->depth & ~3;
    const int8_t *weights = c->weights;
    const int32_t *bias = c->bias_sum;
    dsp_requant q;
    dsp_requant_init(c, &q);
    for (int32_t px = 0; px < count; px++, x += pixel_step, out += d)
        for (int32_t c0 = 0; c0 < quads; c0 += 4) {
            int32_t a0, a1, a2, a3;
            dsp_start4(bias, c0, &a0, &a1, &a2, &a3);
            const int8_t *xt = x + c0, *w = weights + c0;
            /* Unrolled: a loop counter would push a register to the stack. */
            dsp_row3(&a0, &a1, &a2, &a3, &xt, &w, d, row);
            dsp_row3(&a0, &a1, &a2, &a3, &xt, &w, d, row);
            dsp_row3(&a0, &a1, &a2, &a3, &xt, &w, d, row);
            dsp_store4(&q, a0, a1, a2, a3, c0, form, out);
        }
    return quads;
}

/* A border pixel of a 3x3 window with unit horizontal dilation: the rows
   and columns of taps inside the input (1 to 3 each, unrolled per row), on
   x - zero point, from the plain bias; four channels at a time. Returns
   how many channels it did. */
DW_INLINE int32_t dsp_border_3x3(const dw_ctx *c, const dw_window *win, int8_t *out, int form)
{
    const uint32_t nzp2 = ((uint32_t)-c->p->pad_value & 0xFFFFu) * 0x10001u;
    const ptrdiff_t d = c->depth, row = c->tap_row;
    const int32_t quads = c->depth & ~3, cols = win->cols;
    const int32_t rows = cols > 0 ? win->rows : 0;
    const int32_t *bias = c->bias;
    dsp_requant q;
    dsp_requant_init(c, &q);
    for (int32_t c0 = 0; c0 < quads; c0 += 4) {
        int32_t a0, a1, a2, a3;
        dsp_start4(bias, c0, &a0, &a1, &a2, &a3);
        const int8_t *x = win->x + c0, *w = win->w + c0;
        for (int32_t ky = 0; ky < rows; ky++, x += row, w += 3 * d)
            dsp_row_zp(&a0, &a1, &a2, &a3, x, w, d, nzp2, cols);
        dsp_store4(&q, a0, a1, a2, a3, c0, form, out);
    }
    return quads;
}

/* A border pixel (or any window): the taps inside the input, on x - zero
   point, from the plain bias; four channels at a time, then one at a
   time. */
DW_INLINE void dsp_pixel_window(const dw_ctx *c, const dw_window *win, int32_t c0, int8_t *out,
                                int form)
{
    const int32_t zp = c->p->pad_value;
    const uint32_t nzp2 = ((uint32_t)-zp & 0xFFFFu) * 0x10001u;
    const ptrdiff_t d = c->depth, col = c->tap_col;
    const int32_t rows = win->rows, cols = win->cols;
    const ptrdiff_t next_row = c->tap_row - cols * col;
    const ptrdiff_t next_w_row = (ptrdiff_t)(c->p->filter_width - cols) * d;
    const ptrdiff_t col_extra = col - d; /* dilation: the input steps further */
    dsp_requant q;
    dsp_requant_init(c, &q);
    for (; c0 + 4 <= d; c0 += 4) {
        int32_t a0, a1, a2, a3;
        dsp_start4(c->bias, c0, &a0, &a1, &a2, &a3);
        const int8_t *x = win->x + c0, *w = win->w + c0;
        if (cols > 0 && col_extra == 0) {
            /* The row ends where x reaches row_end: no counter to keep. */
            for (int32_t ky = 0; ky < rows; ky++, x += next_row, w += next_w_row) {
                const int8_t *row_end = x + cols * d;
                do
                    dsp_tap_zp(&a0, &a1, &a2, &a3, &x, &w, d, nzp2);
                while (x != row_end);
            }
        } else {
            for (int32_t ky = 0; ky < rows; ky++, x += next_row, w += next_w_row)
                for (int32_t kx = 0; kx < cols; kx++, x += col_extra)
                    dsp_tap_zp(&a0, &a1, &a2, &a3, &x, &w, d, nzp2);
        }
        dsp_store4(&q, a0, a1, a2, a3, c0, form, out);
    }
    for (; c0 < d; c0++) {
        int32_t acc = c->bias ? c->bias[c0] : 0;
        const int8_t *x = win->x + c0, *w = win->w + c0;
        for (int32_t ky = 0; ky < rows; ky++, x += next_row, w += next_w_row)
            for (int32_t kx = 0; kx < cols; kx++, x += col, w += d)
                acc += ((int32_t)*x - zp) * (int32_t)*w;
        out[c0] = (int8_t)dsp_output(&q, acc, c0);
    }
}

/* What an interior run of one quad of channels reads per pixel, prepared
   once per run (on the stack, like any local): the bias doubled, the
   multipliers, the shifts as right shifts less one, and per row of the 3x3
   window the doubled weights as halfword pairs: for SMLAD taps 0 and 1 of
   each channel side by side, in the order channels 0, 2, 1, 3; then tap 2
   of channels 0 and 2, and of 1 and 3, one word each, for SMLABB/SMLATT
   (the halves SXTB16 gives the input). Doubled, the accumulators hold
   2 * acc, which the requantization's SMMULR takes as it is
   (|acc| < 2^30). */
typedef struct {
    int32_t bias2[4], multipliers[4], right1[4];
    uint32_t pairs[3][6];
} dsp_quad;

/* The doubled weights of channels 0, 2 (even) and 1, 3 (odd) of the four
   bytes at w, as halfword pairs (SXTB16, SADD16: exact, |2w| <= 256). */
DW_INLINE void dsp_doubled(const int8_t *w, uint32_t *even, uint32_t *odd)
{
    uint32_t v;
    memcpy(&v, w, 4);
    const uint32_t e = __sxtb16(v), o = ta_dw_sxtb16_ror8(v);
    *even = __sadd16(e, e);
    *odd = __sadd16(o, o);
}

/* The low halfwords of a and b as one word, then the high ones. */
DW_INLINE uint32_t dsp_low_halves(uint32_t a, uint32_t b)
{
    return (a & 0xFFFFu) | b << 16;
}

DW_INLINE uint32_t dsp_high_halves(uint32_t a, uint32_t b)
{
    return a >> 16 | (b & 0xFFFF0000u);
}

static void dsp_quad_prepare(const dw_ctx *c, int32_t c0, dsp_quad *k)
{
    const ptrdiff_t d = c->depth;
    for (int32_t j = 0; j < 4; j++) {
        k->bias2[j] = (int32_t)((uint32_t)(c->bias_sum ? c->bias_sum[c0 + j] : 0) * 2u);
        k->multipliers[j] = c->multipliers[c0 + j];
        k->right1[j] = -c->shifts[c0 + j] - 1;
    }
    const int8_t *w = c->weights + c0;
    for (int32_t r = 0; r < 3; r++, w += 3 * d) {
        uint32_t e0, o0, e1, o1, e2, o2;
        dsp_doubled(w, &e0, &o0);
        dsp_doubled(w + d, &e1, &o1);
        dsp_doubled(w + 2 * d, &e2, &o2);
        uint32_t *pairs = k->pairs[r];
        pairs[0] = dsp_low_halves(e0, e1);  /* channel 0, taps 0 and 1 */
        pairs[1] = dsp_high_halves(e0, e1); /* channel 2 */
        pairs[2] = dsp_low_halves(o0, o1);  /* channel 1 */
        pairs[3] = dsp_high_halves(o0, o1); /* channel 3 */
        pairs[4] = e2;                      /* tap 2: channels 0 and 2 */
        pairs[5] = o2;                      /* channels 1 and 3 */
    }
}

/* One row of the window for the quad: taps 0 and 1 of each channel packed
   side by side (SXTB16, then PKHBT/PKHTB) for one SMLAD, tap 2 from SXTB16
   by SMLABB/SMLATT (one word of weights fewer than SMLAD against pairs with
   one weight zero: three LDRDs a row); w steps over the row's 6 words. */
DW_INLINE void dsp_row_paired(int32_t *a0, int32_t *a1, int32_t *a2, int32_t *a3, const int8_t *x,
                              const uint32_t **w, ptrdiff_t d)
{
    uint32_t xa, xb, t0, t1, p, wa, wb;
    /* clang-format off */
    __asm__("ldr %[xa], [%[x]]\n\t"
            "ldr %[xb], [%[x], %[d]]\n\t"
            "sxtb16 %[t0], %[xa]\n\t"
            "sxtb16 %[t1], %[xb]\n\t"
            "pkhbt %[p], %[t0], %[t1], lsl #16\n\t"
            "pkhtb %[t1], %[t1], %[t0], asr #16\n\t"
            "ldrd %[wa], %[wb], [%[w]], #8\n\t"
            "smlad %[a0], %[p], %[wa], %[a0]\n\t"
            "smlad %[a2], %[t1], %[wb], %[a2]\n\t"
            "sxtb16 %[t0], %[xa], ror #8\n\t"
            "sxtb16 %[t1], %[xb], ror #8\n\t"
            "pkhbt %[p], %[t0], %[t1], lsl #16\n\t"
            "pkhtb %[t1], %[t1], %[t0], asr #16\n\t"
            "ldrd %[wa], %[wb], [%[w]], #8\n\t"
            "smlad %[a1], %[p], %[wa], %[a1]\n\t"
            "smlad %[a3], %[t1], %[wb], %[a3]\n\t"
            "ldr %[xa], [%[x], %[d], lsl #1]\n\t"
            "sxtb16 %[t0], %[xa]\n\t"
            "sxtb16 %[t1], %[xa], ror #8\n\t"
            "ldrd %[wa], %[wb], [%[w]], #8\n\t"
            "smlabb %[a0], %[t0], %[wa], %[a0]\n\t"
            "smlatt %[a2], %[t0], %[wa], %[a2]\n\t"
            "smlabb %[a1], %[t1], %[wb], %[a1]\n\t"
            "smlatt %[a3], %[t1], %[wb], %[a3]"
            : [a0] "+r"(*a0), [a1] "+r"(*a1), [a2] "+r"(*a2), [a3] "+r"(*a3), [w] "+r"(*w),
              [xa] "=&r"(xa), [xb] "=&r"(xb), [t0] "=&r"(t0), [t1] "=&r"(t1), [p] "=&r"(p),
              [wa] "=&r"(wa), [wb] "=&r"(wb)
            : [x] "r"(x), [d] "r"(d)
            /* Reads memory at addresses no operand names. */
            : "memory");
    /* clang-format on */
}

/* The fast forms of dsp_run_3x3 with the weights paired, over the
   interior of `rows` rows (x_row_step input bytes, out_row_step output
   bytes apart) of `cols` pixels, channels four at a time outside. The
   driver passes one row at a time, so the kernel finishes each output row
   before it reads the next input row (the output may then overlap the
   input, ta_depthwise_conv_2d.h); each quad is prepared once per row.
   Preparing a quad costs about what pairing saves on six pixels (QEMU
   counts), so narrower interiors take dsp_run_3x3. Returns how many
   channels it did. */
enum { DSP_PAIRED_PIXELS = TA_DW_DSP_ROW_PIXELS };

DW_INLINE int32_t dsp_block_3x3_paired(const dw_ctx *c, const int8_t *x, int32_t rows, int32_t cols,
                                       ptrdiff_t x_row_step, ptrdiff_t pixel_step, int8_t *out,
                                       ptrdiff_t out_row_step, int form)
{
    const ptrdiff_t d = c->depth, row = c->tap_row;
    const int32_t quads = c->depth & ~3;
    dsp_requant q;
    dsp_requant_init(c, &q);
    for (int32_t c0 = 0; c0 < quads; c0 += 4) {
        dsp_quad k;
        dsp_quad_prepare(c, c0, &k);
        for (int32_t r = 0; r < rows; r++) {
            const int8_t *xp = x + r * x_row_step + c0;
            int8_t *o = out + r * out_row_step + c0;
            for (int32_t px = 0; px < cols; px++, xp += pixel_step, o += d) {
                int32_t a0 = k.bias2[0], a1 = k.bias2[1], a2 = k.bias2[2], a3 = k.bias2[3];
                const uint32_t *w = k.pairs[0];
                dsp_row_paired(&a0, &a1, &a2, &a3, xp, &w, d);
                dsp_row_paired(&a0, &a1, &a2, &a3, xp + row, &w, d);
                dsp_row_paired(&a0, &a1, &a2, &a3, xp + 2 * row, &w, d);
                const uint32_t v = dsp_clamp4(
                    &q, dsp_requantize4_right(a0, a1, a2, a3, k.multipliers, k.right1, q.offset, 0),
                    form == DSP_FAST_CLAMPED ? 2 : 0);
                memcpy(o, &v, 4);
            }
        }
    }
    return quads;
}

DW_NOINLINE int32_t dsp_block_3x3_full(const dw_ctx *c, const int8_t *x, int32_t rows, int32_t cols,
                                       ptrdiff_t x_row_step, ptrdiff_t pixel_step, int8_t *out,
                                       ptrdiff_t out_row_step)
{
    return dsp_block_3x3_paired(c, x, rows, cols, x_row_step, pixel_step, out, out_row_step,
                                DSP_FAST_FULL);
}

DW_NOINLINE int32_t dsp_block_3x3_clamped(const dw_ctx *c, const int8_t *x, int32_t rows,
                                          int32_t cols, ptrdiff_t x_row_step, ptrdiff_t pixel_step,
                                          int8_t *out, ptrdiff_t out_row_step)
{
    return dsp_block_3x3_paired(c, x, rows, cols, x_row_step, pixel_step, out, out_row_step,
                                DSP_FAST_CLAMPED);
}

/* One function per form (the form fixed inside), so a module calling only
   ta_depthwise_conv_2d_s8_m1_fast links only the full-range fast ones. */
DW_NOINLINE int32_t dsp_run_3x3_full(const dw_ctx *c, const int8_t *x, int32_t count,
                                     ptrdiff_t pixel_step, int8_t *out)
{
    return dsp_run_3x3(c, x, count, pixel_step, out, DSP_FAST_FULL);
}

DW_NOINLINE int32_t dsp_run_3x3_clamped(const dw_ctx *c, const int8_t *x, int32_t count,
                                        ptrdiff_t pixel_step, int8_t *out)
{
    return dsp_run_3x3(c, x, count, pixel_step, out, DSP_FAST_CLAMPED);
}

DW_NOINLINE int32_t dsp_run_3x3_any(const dw_ctx *c, const int8_t *x, int32_t count,
                                    ptrdiff_t pixel_step, int8_t *out)
{
    return dsp_run_3x3(c, x, count, pixel_step, out, DSP_GENERAL);
}

DW_NOINLINE int32_t dsp_border_3x3_full(const dw_ctx *c, const dw_window *win, int8_t *out)
{
    return dsp_border_3x3(c, win, out, DSP_FAST_FULL);
}

DW_NOINLINE int32_t dsp_border_3x3_any(const dw_ctx *c, const dw_window *win, int8_t *out)
{
    return dsp_border_3x3(c, win, out, DSP_GENERAL);
}

DW_NOINLINE void dsp_pixel_window_full(const dw_ctx *c, const dw_window *win, int32_t c0,
                                       int8_t *out)
{
    dsp_pixel_window(c, win, c0, out, DSP_FAST_FULL);
}

DW_NOINLINE void dsp_pixel_window_any(const dw_ctx *c, const dw_window *win, int32_t c0,
                                      int8_t *out)
{
    dsp_pixel_window(c, win, c0, out, DSP_GENERAL);
}

/* Depth multiplier 1 with the DSP extension. full_only: the layer meets
   the preconditions of ta_depthwise_conv_2d_s8_m1_fast (the fast form over
   the full range), so no other form is compiled in. */
DW_INLINE void dw_s8_m1_dsp_drive(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                                  const int8_t *weights, const int32_t *bias_sum,
                                  const int32_t *bias, const int32_t *multipliers,
                                  const int32_t *shifts, int8_t *output, int full_only)
{
    dw_ctx c;
    dw_ctx_init(&c, p, weights, bias_sum, bias, multipliers, shifts);
    const int32_t depth = c.depth;
    const int form = full_only ? DSP_FAST_FULL : dsp_form(&c);
    const int is_3x3 = p->filter_height == 3 && p->filter_width == 3 && p->dilation_width == 1;
    int32_t oy_lo, oy_hi, ox_lo, ox_hi;
    inside_range(p->input_height, p->output_height, p->filter_height, p->stride_height,
                 p->dilation_height, p->pad_top, &oy_lo, &oy_hi);
    inside_range(p->input_width, p->output_width, p->filter_width, p->stride_width,
                 p->dilation_width, p->pad_left, &ox_lo, &ox_hi);
    const size_t image = (size_t)p->input_height * (size_t)p->input_width * (size_t)depth;
    const ptrdiff_t step = (ptrdiff_t)p->stride_width * depth;
    const int32_t rows_inside = oy_hi - oy_lo, cols_inside = ox_hi - ox_lo;
    const int paired = is_3x3 && form != DSP_GENERAL && depth >= 4 && rows_inside > 0 &&
                       cols_inside >= DSP_PAIRED_PIXELS;
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
            int32_t quads_inside = 0; /* channels of the row's interior pixels done */
            if (paired && row_inside) {
                const int8_t *x = in_b + ((ptrdiff_t)iy0 * p->input_width +
                                          ox_lo * p->stride_width - p->pad_left) *
                                             depth;
                int8_t *o = output + (ptrdiff_t)ox_lo * depth;
                quads_inside = form == DSP_FAST_FULL
                                   ? dsp_block_3x3_full(&c, x, 1, cols_inside, 0, step, o, 0)
                                   : dsp_block_3x3_clamped(&c, x, 1, cols_inside, 0, step, o, 0);
            }
            for (int32_t ox = 0; ox < p->output_width; ox++, output += depth) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                int32_t c0 = 0;
                if (paired && row_inside && ox >= ox_lo && ox < ox_hi) {
                    /* Done but the last depth % 4 channels; with none, the
                       rest of the row's interior too. */
                    c0 = quads_inside;
                    if (depth == c0) {
                        output += (ptrdiff_t)(ox_hi - 1 - ox) * depth;
                        ox = ox_hi - 1;
                        continue;
                    }
                } else if (is_3x3 && row_inside && ox >= ox_lo && ox < ox_hi) {
                    const int8_t *x = in_b + ((ptrdiff_t)iy0 * p->input_width + ix0) * depth;
                    /* With no channels left over the whole interior run of
                       the row goes in one call. */
                    const int32_t run = depth % 4 == 0 ? ox_hi - ox : 1;
                    c0 = form == DSP_FAST_FULL      ? dsp_run_3x3_full(&c, x, run, step, output)
                         : form == DSP_FAST_CLAMPED ? dsp_run_3x3_clamped(&c, x, run, step, output)
                                                    : dsp_run_3x3_any(&c, x, run, step, output);
                    ox += run - 1;
                    output += (run - 1) * depth;
                    if (depth == c0)
                        continue;
                }
                dw_window win;
                dw_window_init(&c, in_b, iy0, ix0, &win);
                if (is_3x3 && c0 == 0) {
                    c0 = form == DSP_FAST_FULL ? dsp_border_3x3_full(&c, &win, output)
                                               : dsp_border_3x3_any(&c, &win, output);
                    if (depth == c0)
                        continue;
                }
                if (form == DSP_FAST_FULL)
                    dsp_pixel_window_full(&c, &win, c0, output);
                else
                    dsp_pixel_window_any(&c, &win, c0, output);
            }
        }
    }
}

void ta_depthwise_conv_2d_s8_m1_dsp(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                                    const int8_t *weights, const int32_t *bias_sum,
                                    const int32_t *bias, const int32_t *multipliers,
                                    const int32_t *shifts, int8_t *output)
{
    dw_s8_m1_dsp_drive(p, input, weights, bias_sum, bias, multipliers, shifts, output, 0);
}

/* Depth multiplier > 1 on DSP: four output channels o0..o0 + 3 per block
   read at most two input channels, a = o0 / multiplier and a + 1; the
   first `split` outputs read a, the others a + 1 (split 2 for multiplier
   2, 4 for multipliers that are multiples of 4: constants, so those
   blocks choose no register per tap). Only the taps inside the input, on
   x - zero point, from the plain bias; `form` as dsp_store4. */
DW_INLINE void dsp_block_multiplier(const dw_ctx *c, const dw_window *win, int32_t o0,
                                    int32_t split, int form, int8_t *out)
{
    const int32_t zp = c->p->pad_value;
    const ptrdiff_t d = c->depth, col = c->tap_col;
    const int32_t rows = win->rows, cols = win->cols;
    const ptrdiff_t next_row = c->tap_row - cols * col;
    const ptrdiff_t next_w_row = (ptrdiff_t)(c->p->filter_width - cols) * d;
    const ptrdiff_t second = split < 4; /* the byte of channel a + 1, if read */
    dsp_requant q;
    dsp_requant_init(c, &q);
    int32_t a0, a1, a2, a3;
    dsp_start4(c->bias, o0, &a0, &a1, &a2, &a3);
    const int8_t *x = win->x + o0 / c->p->depth_multiplier, *w = win->w + o0;
    for (int32_t ky = 0; ky < rows; ky++, x += next_row, w += next_w_row)
        for (int32_t kx = 0; kx < cols; kx++, x += col, w += d) {
            const int32_t xa = x[0] - zp, xb = x[second] - zp;
            uint32_t wv;
            memcpy(&wv, w, 4);
            const uint32_t w02 = __sxtb16(wv), w13 = ta_dw_sxtb16_ror8(wv);
            a0 = __smlabb(xa, (int32_t)w02, a0);
            a1 = __smlabb(split > 1 ? xa : xb, (int32_t)w13, a1);
            a2 = __smlabt(split > 2 ? xa : xb, (int32_t)w02, a2);
            a3 = __smlabt(split > 3 ? xa : xb, (int32_t)w13, a3);
        }
    dsp_store4(&q, a0, a1, a2, a3, o0, form, out);
}

DW_NOINLINE void dsp_block_multiplier_2(const dw_ctx *c, const dw_window *win, int32_t o0, int form,
                                        int8_t *out)
{
    dsp_block_multiplier(c, win, o0, 2, form, out);
}

DW_NOINLINE void dsp_block_multiplier_4(const dw_ctx *c, const dw_window *win, int32_t o0, int form,
                                        int8_t *out)
{
    dsp_block_multiplier(c, win, o0, 4, form, out);
}

DW_NOINLINE void dsp_block_multiplier_any(const dw_ctx *c, const dw_window *win, int32_t o0,
                                          int form, int8_t *out)
{
    const int32_t mult = c->p->depth_multiplier, left = mult - o0 % mult;
    dsp_block_multiplier(c, win, o0, left < 4 ? left : 4, form, out);
}

/* The last depth % 4 output channels of a pixel, one at a time. */
DW_NOINLINE void dsp_multiplier_tail(const dw_ctx *c, const dw_window *win, int32_t o0, int8_t *out)
{
    const int32_t zp = c->p->pad_value, mult = c->p->depth_multiplier;
    const ptrdiff_t d = c->depth, col = c->tap_col;
    const ptrdiff_t next_row = c->tap_row - win->cols * col;
    const ptrdiff_t next_w_row = (ptrdiff_t)(c->p->filter_width - win->cols) * d;
    dsp_requant q;
    dsp_requant_init(c, &q);
    for (; o0 < d; o0++) {
        int32_t acc = c->bias ? c->bias[o0] : 0;
        const int8_t *x = win->x + o0 / mult, *w = win->w + o0;
        for (int32_t ky = 0; ky < win->rows; ky++, x += next_row, w += next_w_row)
            for (int32_t kx = 0; kx < win->cols; kx++, x += col, w += d)
                acc += ((int32_t)*x - zp) * (int32_t)*w;
        out[o0] = (int8_t)dsp_output(&q, acc, o0);
    }
}

/* Depth multiplier > 1 on DSP: per output pixel, blocks of four output
   channels over the taps inside the input. */
void ta_depthwise_conv_2d_s8_multiplier_dsp(const ta_depthwise_conv_2d_params_t *p,
                                            const int8_t *input, const int8_t *weights,
                                            const int32_t *bias, const int32_t *multipliers,
                                            const int32_t *shifts, int8_t *output)
{
    dw_ctx c;
    dw_ctx_init(&c, p, weights, NULL, bias, multipliers, shifts);
    const int32_t depth = c.depth, mult = p->depth_multiplier, quads = depth & ~3;
    const int form = dsp_form(&c);
    const size_t image = (size_t)p->input_height * (size_t)p->input_width * (size_t)c.in_depth;
    const ptrdiff_t out_row = (ptrdiff_t)p->output_width * depth;
    for (int32_t bi = 0; bi < p->batches; bi++) {
        const int32_t b = dw_walk(p->reverse_rows, bi, p->batches);
        const int8_t *in_b = input + (size_t)b * image;
        for (int32_t oi = 0; oi < p->output_height; oi++) {
            const int32_t oy = dw_walk(p->reverse_rows, oi, p->output_height);
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            int8_t *out = output + ((ptrdiff_t)b * p->output_height + oy) * out_row;
            for (int32_t ox = 0; ox < p->output_width; ox++, out += depth) {
                dw_window win;
                dw_window_init(&c, in_b, iy0, ox * p->stride_width - p->pad_left, &win);
                for (int32_t o0 = 0; o0 < quads; o0 += 4) {
                    if (mult == 2)
                        dsp_block_multiplier_2(&c, &win, o0, form, out);
                    else if (mult % 4 == 0)
                        dsp_block_multiplier_4(&c, &win, o0, form, out);
                    else
                        dsp_block_multiplier_any(&c, &win, o0, form, out);
                }
                if (quads < depth)
                    dsp_multiplier_tail(&c, &win, quads, out);
            }
        }
    }
}

void ta_depthwise_conv_2d_s8_m1_fast_dsp(const ta_depthwise_conv_2d_params_t *p,
                                         const int8_t *input, const int8_t *weights,
                                         const int32_t *bias_sum, const int32_t *bias,
                                         const int32_t *multipliers, const int32_t *shifts,
                                         int8_t *output)
{
    dw_s8_m1_dsp_drive(p, input, weights, bias_sum, bias, multipliers, shifts, output, 1);
}
#endif /* TA_HAVE_DSP */
