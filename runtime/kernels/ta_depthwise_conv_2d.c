/*
 * ta_depthwise_conv_2d.c - DEPTHWISE_CONV_2D kernels; see the header.
 *
 * Portable path: per output pixel, output channels are taken in blocks of
 * BLOCK whose accumulators live on the stack, every tap adds its weights
 * and inputs for the block, then the block is requantized.
 *
 * int8, depth multiplier 1, on Helium and DSP: per output pixel and block
 * of channels (16 or 8 on Helium, 4 on DSP) the accumulators stay in
 * registers over all taps. Pixels whose window lies inside the input start
 * from bias_sum (the input zero point folded in) and run every tap
 * unchecked, 3x3 windows unrolled (on Helium a whole interior run of a row
 * per call, and two pixels at a time for 8-channel layers); the others run
 * only the taps inside the input, on (input - zero point), from the plain
 * bias. Requantization is vectorized on Helium (VQRDMULH, VRSHL) and done
 * four channels at a time on DSP (SMMULR or SMLAL, QADD, SSAT/SEL). On
 * Helium the last depth % 8 channels take a predicated block (int32 lanes
 * for four or fewer). Depth multipliers above 1 run on Helium (gathered
 * inputs) and on DSP (four outputs reading at most two input channels);
 * Helium also runs int16.
 *
 * No working memory is needed, so the planner reserves none.
 */
#include "ta_depthwise_conv_2d.h"

#include "../include/ta_dw_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_simd.h"
#include "../include/ta_status.h"

#include <stddef.h>
#include <string.h>

enum { BLOCK = 16 };

/* Step i of a walk over n images or rows: backwards when `reverse` (the
   header's reverse_rows), so the output may sit above its input. */
static inline int32_t dw_walk(int32_t reverse, int32_t i, int32_t n)
{
    return reverse ? n - 1 - i : i;
}

#if defined(TA_HAVE_MVE) || defined(TA_HAVE_DSP)
#define DW_INLINE static inline __attribute__((always_inline))
/* One function per block shape: inlining them all into the pixel loop
   only grows the code. */
#define DW_NOINLINE static __attribute__((noinline))

/* The output positions along one axis whose whole (dilated) window lies
   inside the input: [*lo, *hi). */
static void inside_range(int32_t in, int32_t out, int32_t k, int32_t stride, int32_t dilation,
                         int32_t pad, int32_t *lo, int32_t *hi)
{
    const int32_t last = in - 1 - (k - 1) * dilation + pad;
    const int32_t l = (pad + stride - 1) / stride;
    int32_t h = last < 0 ? 0 : last / stride + 1;
    h = h > out ? out : h;
    *lo = l > h ? h : l;
    *hi = h;
}

/* The taps [*lo, *hi) of a window starting at i0 that lie inside [0, in). */
static void tap_range(int32_t i0, int32_t in, int32_t k, int32_t dilation, int32_t *lo, int32_t *hi)
{
    int32_t l = i0 < 0 ? (dilation - 1 - i0) / dilation : 0;
    int32_t h = in - 1 - i0 < 0 ? 0 : (in - 1 - i0) / dilation + 1;
    h = h > k ? k : h;
    *lo = l > h ? h : l;
    *hi = h;
}

/* What the multiplier-1 paths share for one call. */
typedef struct {
    const ta_depthwise_conv_2d_params_t *p;
    const int8_t *weights;
    const int32_t *bias_sum, *bias, *multipliers, *shifts;
    int32_t depth;              /* output channels */
    int32_t in_depth;           /* input channels (depth / depth multiplier) */
    ptrdiff_t tap_row, tap_col; /* input bytes between vertically, horizontally adjacent taps */
} dw_ctx;

/* The taps of one border pixel that lie inside the input: rows [0, rows)
   and columns [0, cols) of the window from `x` on, whose first weight is
   `w` (channel 0). */
typedef struct {
    const int8_t *x, *w;
    int32_t rows, cols;
} dw_window;

static void dw_ctx_init(dw_ctx *c, const ta_depthwise_conv_2d_params_t *p, const int8_t *weights,
                        const int32_t *bias_sum, const int32_t *bias, const int32_t *multipliers,
                        const int32_t *shifts)
{
    c->p = p;
    c->weights = weights;
    c->bias_sum = bias_sum;
    c->bias = bias;
    c->multipliers = multipliers;
    c->shifts = shifts;
    c->depth = p->output_depth;
    c->in_depth = p->input_depth;
    c->tap_row = (ptrdiff_t)p->dilation_height * p->input_width * p->input_depth;
    c->tap_col = (ptrdiff_t)p->dilation_width * p->input_depth;
}

static void dw_window_init(const dw_ctx *c, const int8_t *in_b, int32_t iy0, int32_t ix0,
                           dw_window *win)
{
    const ta_depthwise_conv_2d_params_t *p = c->p;
    int32_t ky0, ky1, kx0, kx1;
    tap_range(iy0, p->input_height, p->filter_height, p->dilation_height, &ky0, &ky1);
    tap_range(ix0, p->input_width, p->filter_width, p->dilation_width, &kx0, &kx1);
    win->rows = ky1 - ky0;
    win->cols = kx1 - kx0;
    win->x = in_b;
    win->w = c->weights;
    if (win->rows > 0 && win->cols > 0) {
        const int32_t iy = iy0 + ky0 * p->dilation_height, ix = ix0 + kx0 * p->dilation_width;
        win->x = in_b + ((ptrdiff_t)iy * p->input_width + ix) * c->in_depth;
        win->w = c->weights + ((ptrdiff_t)ky0 * p->filter_width + kx0) * c->depth;
    }
}
#endif

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

/* clang-format off */
#define DW_MVE_MAC8                                                                       \
    DW_MVE_LOAD8(0)                                                                       \
    "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[e], %q[e], %q[t]\n\t"                                                    \
    "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[o], %q[o], %q[t]"
/* clang-format on */

/* Two pixels of eight channels sharing the weights: x at [x], the other
   pixel at [x1]. */
/* clang-format off */
#define DW_MVE_MAC8_2PX                                                                   \
    "vldrb.s16 %q[wv], [%[w]]\n\t"                                                        \
    "vldrb.s16 %q[xv], [%[x]]\n\t"                                                        \
    "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a0], %q[a0], %q[t]\n\t"                                                  \
    "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a1], %q[a1], %q[t]\n\t"                                                  \
    "vldrb.s16 %q[xv], [%[x1]]\n\t"                                                       \
    "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a2], %q[a2], %q[t]\n\t"                                                  \
    "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[a3], %q[a3], %q[t]"
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
    return vrshlq_s32(vqaddq_s32(h, vshrq_n_s32(h, 31)), s);
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
        even = vrshlq_n_s32(vqaddq_s32(even, vshrq_n_s32(even, 31)), q->shift);
        odd = vrshlq_n_s32(vqaddq_s32(odd, vshrq_n_s32(odd, 31)), q->shift);
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
        const int16x8_t t = ta_dw_narrow_mve(even, odd, q->offset);
        const int16x8_t v = fast == DW_FAST_FULL
                                ? vreinterpretq_s16_s8(vqmovnbq_s16(vreinterpretq_s8_s16(t), t))
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

/* One tap of a block of 16 channels (sixteen) or 8 on the accumulators
   a0-a3 pinned in the enclosing block body; the _ZP form on x - zp. */
#define DW_MVE_BLOCK_TAP(SIXTEEN, XP, WP)                                               \
    do {                                                                                \
        if (SIXTEEN)                                                                    \
            DW_MVE_TAP(DW_MVE_MAC16, XP,                                                \
                       WP, [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3)); \
        else                                                                            \
            DW_MVE_TAP(DW_MVE_MAC8, XP, WP, [e] "+w"(a0), [o] "+w"(a1));                \
    } while (0)
#define DW_MVE_BLOCK_TAP_ZP(SIXTEEN, XP, WP, ZP)                                           \
    do {                                                                                   \
        if (SIXTEEN)                                                                       \
            DW_MVE_TAP_ZP(DW_MVE_MAC16_ZP, XP, WP,                                         \
                          ZP, [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3)); \
        else                                                                               \
            DW_MVE_TAP_ZP(DW_MVE_MAC8_ZP, XP, WP, ZP, [e] "+w"(a0), [o] "+w"(a1));         \
    } while (0)

/* The accumulators of a block from b0-b3, pinned to q0-q3: left to itself
   gcc moves them between registers on every tap. */
#define DW_MVE_PIN_ACCUMULATORS(b0, b1, b2, b3) \
    register int32x4_t a0 __asm__("q0") = b0;   \
    register int32x4_t a1 __asm__("q1") = b1;   \
    register int32x4_t a2 __asm__("q2") = b2;   \
    register int32x4_t a3 __asm__("q3") = b3

/* The steps of a block body, computed once per pixel (the stores of a
   block may alias the context, so gcc would reload it per block): input
   bytes between taps along a row, from a row's last tap to the next row's
   first, weight bytes between taps, from row to row. */
typedef struct {
    ptrdiff_t col, next_row, d, next_w_row;
} mve_steps;

/* Channels c0 on of an interior pixel of a 3x3 window, x at its first tap
   (channel 0), a block of 16 (sixteen) or 8: from bias_sum, the taps
   unrolled by rows. */
DW_INLINE void mve_block_3x3(const dw_ctx *c, const mve_requant *q, const mve_steps *st,
                             const int8_t *x, int32_t c0, int sixteen, int8_t *out, int fast)
{
    const ptrdiff_t d = st->d, col = st->col, next_row = st->next_row;
    int32x4_t b0, b1, b2, b3;
    mve_start(c->bias_sum, c0, sixteen ? 16 : 8, &b0, &b1, &b2, &b3);
    DW_MVE_PIN_ACCUMULATORS(b0, b1, b2, b3);
    const int8_t *xt = x + c0, *w = c->weights + c0;
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
        mve_store8(q, a2, a3, c0 + 8, 8, 0, fast, out + c0 + 8);
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

/* An interior pixel of a 3x3 window, x at its first tap: its channels in
   blocks of 16, then one of 8, then a predicated tail; returns the
   depth. */
DW_INLINE int32_t mve_pixel_3x3_one(const dw_ctx *c, const mve_requant *qp, const int8_t *x,
                                    int8_t *out, int fast, int tails)
{
    const mve_requant q = *qp;
    const mve_steps st = {c->tap_col, c->tap_row - 2 * c->tap_col, c->depth, 0};
    int32_t c0 = 0;
    for (; c0 + 16 <= st.d; c0 += 16)
        mve_block_3x3(c, &q, &st, x, c0, 1, out, fast);
    if (st.d - c0 >= 8) {
        mve_block_3x3(c, &q, &st, x, c0, 0, out, fast);
        c0 += 8;
    }
    if (tails && st.d > c0) {
        const mve_steps tail = {st.col, c->tap_row - 3 * st.col, st.d, 0};
        if (st.d - c0 <= 4)
            mve_block_tail4(&q, &tail, x, c->weights, 3, 3, c->bias_sum, 0, c0, st.d - c0, out,
                            fast);
        else
            mve_block_tail(&q, &tail, x, c->weights, 3, 3, c->bias_sum, vdupq_n_s16(0), 0, c0,
                           st.d - c0, out, fast);
    }
    return st.d;
}

/* `count` interior pixels, pixel_step apart in the input, in one call. */
DW_INLINE int32_t mve_pixel_3x3(const dw_ctx *c, const int8_t *x, int32_t count,
                                ptrdiff_t pixel_step, int8_t *out, int fast, int tails)
{
    mve_requant q;
    mve_requant_init(c, &q);
    int32_t c0 = 0;
    for (int32_t px = 0; px < count; px++, x += pixel_step, out += c->depth)
        c0 = mve_pixel_3x3_one(c, &q, x, out, fast, tails);
    return c0;
}

/* Channels c0 on of a border pixel (or any window), a block of 16
   (sixteen) or 8: only the taps inside the input, on x - zero point, from
   the plain bias. */
DW_INLINE void mve_block_window(const dw_ctx *c, const mve_requant *q, const mve_steps *st,
                                const dw_window *win, int16x8_t zp, int32_t c0, int sixteen,
                                int8_t *out, int fast)
{
    const ptrdiff_t d = st->d, col = st->col, next_row = st->next_row;
    const ptrdiff_t next_w_row = st->next_w_row;
    const int32_t rows = win->rows, cols = win->cols;
    int32x4_t b0, b1, b2, b3;
    mve_start(c->bias, c0, sixteen ? 16 : 8, &b0, &b1, &b2, &b3);
    DW_MVE_PIN_ACCUMULATORS(b0, b1, b2, b3);
    const int8_t *x = win->x + c0, *w = win->w + c0;
    for (int32_t ky = 0; ky < rows; ky++, x += next_row, w += next_w_row)
        for (int32_t kx = 0; kx < cols; kx++, x += col, w += d)
            DW_MVE_BLOCK_TAP_ZP(sixteen, x, w, zp);
    mve_store8(q, a0, a1, c0, 8, 0, fast, out + c0);
    if (sixteen)
        mve_store8(q, a2, a3, c0 + 8, 8, 0, fast, out + c0 + 8);
}

/* A border pixel (or any window): channels in blocks of 16, then one of 8,
   as mve_pixel_3x3. */
DW_INLINE int32_t mve_pixel_window(const dw_ctx *c, const dw_window *win, int8_t *out, int fast,
                                   int tails)
{
    const int16x8_t zp = vdupq_n_s16((int16_t)c->p->pad_value);
    const mve_steps st = {c->tap_col, c->tap_row - win->cols * c->tap_col, c->depth,
                          (ptrdiff_t)(c->p->filter_width - win->cols) * c->depth};
    mve_requant q;
    mve_requant_init(c, &q);
    int32_t c0 = 0;
    for (; c0 + 16 <= st.d; c0 += 16)
        mve_block_window(c, &q, &st, win, zp, c0, 1, out, fast);
    if (st.d - c0 >= 8) {
        mve_block_window(c, &q, &st, win, zp, c0, 0, out, fast);
        c0 += 8;
    }
    if (!tails)
        return c0;
    if (st.d - c0 > 4)
        mve_block_tail(&q, &st, win->x, win->w, win->rows, win->cols, c->bias, zp, 1, c0, st.d - c0,
                       out, fast);
    else if (st.d > c0)
        mve_block_tail4(&q, &st, win->x, win->w, win->rows, win->cols, c->bias, c->p->pad_value, c0,
                        st.d - c0, out, fast);
    return st.d;
}
#undef DW_MVE_PIN_ACCUMULATORS
#undef DW_MVE_BLOCK_TAP
#undef DW_MVE_BLOCK_TAP_ZP
#undef DW_MVE_TAP
#undef DW_MVE_TAP_ZP

/* One tap of mve_pixels2_3x3_c8 on its pinned accumulators. */
#define DW_MVE_TAP2(XP, X1P, WP)                                                              \
    do {                                                                                      \
        int16x8_t xv, wv;                                                                     \
        int32x4_t t;                                                                          \
        __asm__(DW_MVE_MAC8_2PX                                                               \
                : [a0] "+w"(a0), [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3), [xv] "=&w"(xv), \
                  [wv] "=&w"(wv), [t] "=&w"(t)                                                \
                : [x] "l"(XP), [x1] "l"(X1P), [w] "l"(WP), "m"(*(const dw_bytes16 *)(XP)),    \
                  "m"(*(const dw_bytes16 *)(X1P)), "m"(*(const dw_bytes16 *)(WP)));           \
    } while (0)

/* Two horizontally adjacent interior pixels of a 3x3 window over exactly
   eight channels (the first depthwise layer of small MobileNets): one
   weight load serves both, and so do the bias and requantization loads. */
DW_INLINE void mve_pixels2_3x3_c8(const dw_ctx *c, const int8_t *x, ptrdiff_t pixel_step,
                                  int8_t *out, int fast)
{
    const ptrdiff_t col = c->tap_col, next_row = c->tap_row - 2 * c->tap_col;
    mve_requant q;
    mve_requant_init(c, &q);
    int32x4_t b0, b1, b2, b3;
    mve_start(c->bias_sum, 0, 8, &b0, &b1, &b2, &b3);
    register int32x4_t a0 __asm__("q0") = b0;
    register int32x4_t a1 __asm__("q1") = b1;
    register int32x4_t a2 __asm__("q2") = b0;
    register int32x4_t a3 __asm__("q3") = b1;
    const int8_t *w = c->weights;
    for (int32_t ky = 0; ky < 3; ky++) {
        DW_MVE_TAP2(x, x + pixel_step, w);
        DW_MVE_TAP2(x + col, x + col + pixel_step, w + 8);
        x += 2 * col;
        DW_MVE_TAP2(x, x + pixel_step, w + 16);
        x += next_row;
        w += 24;
    }
    mve_store8(&q, a0, a1, 0, 8, 0, fast, out);
    mve_store8(&q, a2, a3, 0, 8, 0, fast, out + 8);
}

#undef DW_MVE_TAP2

/* The 3x3 interior steps exist only in the branch-free forms (right
   shifts only: multipliers below 1, nearly every layer); other layers take
   the window path everywhere (code size). */
DW_NOINLINE void mve_pixels2_3x3_c8_fast(const dw_ctx *c, const int8_t *x, ptrdiff_t pixel_step,
                                         int8_t *out)
{
    mve_pixels2_3x3_c8(c, x, pixel_step, out, DW_FAST_FULL);
}

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

DW_NOINLINE int32_t mve_pixel_window_fast(const dw_ctx *c, const dw_window *win, int8_t *out)
{
    return mve_pixel_window(c, win, out, DW_FAST_FULL, 1);
}

DW_NOINLINE int32_t mve_pixel_window_fast8(const dw_ctx *c, const dw_window *win, int8_t *out)
{
    return mve_pixel_window(c, win, out, DW_FAST_FULL, 0);
}

DW_NOINLINE int32_t mve_pixel_window_any(const dw_ctx *c, const dw_window *win, int8_t *out)
{
    return mve_pixel_window(c, win, out, DW_GENERAL, 1);
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
static void dw_s8_multiplier_mve(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                                 const int8_t *weights, const int32_t *bias,
                                 const int32_t *multipliers, const int32_t *shifts, int8_t *output)
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
                    if (depth == 8 && fast == DW_FAST_FULL && ox + 1 < ox_hi) {
                        mve_pixels2_3x3_c8_fast(&c, x, (ptrdiff_t)p->stride_width * 8, output);
                        ox++;
                        output += depth;
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
                if (fast_full_only)
                    mve_pixel_window_fast8(&c, &win, output);
                else if (fast == DW_FAST_FULL)
                    mve_pixel_window_fast(&c, &win, output);
                else
                    mve_pixel_window_any(&c, &win, output);
            }
        }
    }
}
DW_NOINLINE void dw_s8_m1_mve(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                              const int8_t *weights, const int32_t *bias_sum, const int32_t *bias,
                              const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    dw_s8_m1_mve_drive(p, input, weights, bias_sum, bias, multipliers, shifts, output, 0);
}

#undef DW_MVE_MAC16
#undef DW_MVE_MAC8
#undef DW_MVE_LOAD8
#endif /* TA_HAVE_MVE */

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
DW_INLINE uint32_t dsp_pack4(const dsp_requant *q, int32_t v0, int32_t v1, int32_t v2, int32_t v3,
                             int clamp)
{
    uint32_t v = ta_dw_pack_bytes(__ssat(v0 + q->offset, 8), __ssat(v1 + q->offset, 8),
                                  __ssat(v2 + q->offset, 8), __ssat(v3 + q->offset, 8));
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

/* Four outputs from c0 on, requantized in the form `form` and stored as one
   word (a byte store may alias anything, which would make gcc reload
   everything after each). */
DW_INLINE void dsp_store4(const dsp_requant *q, int32_t a0, int32_t a1, int32_t a2, int32_t a3,
                          int32_t c0, int form, int8_t *out)
{
    uint32_t v;
    if (form != DSP_GENERAL) {
        const int32_t *m = q->multipliers + c0, *s = q->shifts + c0;
        a0 = ta_dw_requantize_right_small(a0, m[0], s[0]);
        a1 = ta_dw_requantize_right_small(a1, m[1], s[1]);
        a2 = ta_dw_requantize_right_small(a2, m[2], s[2]);
        a3 = ta_dw_requantize_right_small(a3, m[3], s[3]);
        v = dsp_pack4(q, a0, a1, a2, a3, form == DSP_FAST_CLAMPED ? 2 : 0);
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
   window the doubled weights as halfword pairs for SMLAD, in the order
   channels 0, 2, 1, 3: taps 0 and 1 of the channel side by side, then tap
   2 alone, in the low halfword for channels 0 and 1 and the high one for 2
   and 3 (what SXTB16 gives each). Doubled, the accumulators hold 2 * acc,
   which the requantization's SMMULR takes as it is (|acc| < 2^30). */
typedef struct {
    int32_t bias2[4], multipliers[4], right1[4];
    uint32_t pairs[3][8];
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
        pairs[4] = e2 & 0xFFFFu;            /* tap 2 */
        pairs[5] = e2 & 0xFFFF0000u;
        pairs[6] = o2 & 0xFFFFu;
        pairs[7] = o2 & 0xFFFF0000u;
    }
}

/* One row of the window for the quad: taps 0 and 1 of each channel packed
   side by side (SXTB16, then PKHBT/PKHTB) for one SMLAD, tap 2 from SXTB16
   against a pair with one weight zero; w steps over the row's 8 pairs. */
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
            "smlad %[a0], %[t0], %[wa], %[a0]\n\t"
            "smlad %[a2], %[t0], %[wb], %[a2]\n\t"
            "ldrd %[wa], %[wb], [%[w]], #8\n\t"
            "smlad %[a1], %[t1], %[wa], %[a1]\n\t"
            "smlad %[a3], %[t1], %[wb], %[a3]"
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
                a0 = ta_dw_requantize_right_doubled(a0, k.multipliers[0], k.right1[0]);
                a1 = ta_dw_requantize_right_doubled(a1, k.multipliers[1], k.right1[1]);
                a2 = ta_dw_requantize_right_doubled(a2, k.multipliers[2], k.right1[2]);
                a3 = ta_dw_requantize_right_doubled(a3, k.multipliers[3], k.right1[3]);
                const uint32_t v = dsp_pack4(&q, a0, a1, a2, a3, form == DSP_FAST_CLAMPED ? 2 : 0);
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

DW_NOINLINE void dw_s8_m1_dsp(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                              const int8_t *weights, const int32_t *bias_sum, const int32_t *bias,
                              const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    dw_s8_m1_dsp_drive(p, input, weights, bias_sum, bias, multipliers, shifts, output, 0);
}
#endif /* TA_HAVE_DSP */

#if defined(TA_HAVE_DSP)
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
static void dw_s8_multiplier_dsp(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                                 const int8_t *weights, const int32_t *bias,
                                 const int32_t *multipliers, const int32_t *shifts, int8_t *output)
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
#endif /* TA_HAVE_DSP */

/* True when the tap (iy, ix) lies outside the input (padding). */
static int outside(const ta_depthwise_conv_2d_params_t *p, int32_t iy, int32_t ix)
{
    return iy < 0 || iy >= p->input_height || ix < 0 || ix >= p->input_width;
}

/* Element i of the int8 (wide 0) or int16 (wide 1) tensor at base. */
static inline int32_t dw_element(const void *base, size_t i, int wide)
{
    return wide ? (int32_t)((const int16_t *)base)[i] : (int32_t)((const int8_t *)base)[i];
}

/* The portable kernel for both element types, written once; `wide` is a
   constant in each caller, so each keeps only its own accumulators: int8
   sums in int32 (TFLite's arithmetic, with the zero point folded into
   bias_sum), int16 in int64 from the int64 bias. Per output pixel, blocks
   of BLOCK output channels. */
static inline void dw_portable(const ta_depthwise_conv_2d_params_t *p, const void *input,
                               const int8_t *weights, const void *bias, const int32_t *multipliers,
                               const int32_t *shifts, void *output, int wide)
{
    const int32_t depth = p->output_depth, mult = p->depth_multiplier;
    const size_t row = (size_t)p->input_width * (size_t)p->input_depth;
    const size_t image = (size_t)p->input_height * row;
    for (int32_t bi = 0; bi < p->batches; bi++) {
        const int32_t b = dw_walk(p->reverse_rows, bi, p->batches);
        const size_t in_b = (size_t)b * image;
        for (int32_t oi = 0; oi < p->output_height; oi++) {
            const int32_t oy = dw_walk(p->reverse_rows, oi, p->output_height);
            const int32_t iy0 = oy * p->stride_height - p->pad_top;
            /* the first output element of the pixel */
            size_t o_at = ((size_t)b * (size_t)p->output_height + (size_t)oy) *
                          (size_t)p->output_width * (size_t)depth;
            for (int32_t ox = 0; ox < p->output_width; ox++, o_at += (size_t)depth) {
                const int32_t ix0 = ox * p->stride_width - p->pad_left;
                for (int32_t o0 = 0; o0 < depth; o0 += BLOCK) {
                    const int32_t n = depth - o0 < BLOCK ? depth - o0 : BLOCK;
                    int32_t acc[BLOCK];
                    int64_t acc_wide[BLOCK];
                    for (int32_t k = 0; k < n; k++) {
                        if (wide)
                            acc_wide[k] = bias ? ((const int64_t *)bias)[o0 + k] : 0;
                        else
                            acc[k] = bias ? ((const int32_t *)bias)[o0 + k] : 0;
                    }
                    const int8_t *w = weights + o0;
                    for (int32_t ky = 0; ky < p->filter_height; ky++) {
                        const int32_t iy = iy0 + ky * p->dilation_height;
                        for (int32_t kx = 0; kx < p->filter_width; kx++, w += depth) {
                            const int32_t ix = ix0 + kx * p->dilation_width;
                            if (outside(p, iy, ix)) {
                                /* The converter folded the int8 zero point into
                                   bias_sum for every tap; a padded tap reads that
                                   zero point, which gives back what was folded
                                   (int16 zero points are 0: nothing to add). */
                                if (!wide && p->pad_value != 0)
                                    for (int32_t k = 0; k < n; k++)
                                        acc[k] += (int32_t)w[k] * p->pad_value;
                                continue;
                            }
                            const size_t x = in_b + (size_t)iy * row +
                                             (size_t)ix * (size_t)p->input_depth;
                            for (int32_t k = 0; k < n; k++) {
                                const size_t c = mult == 1 ? (size_t)(o0 + k)
                                                           : (size_t)((o0 + k) / mult);
                                const int32_t product = (int32_t)w[k] *
                                                        dw_element(input, x + c, wide);
                                if (wide)
                                    acc_wide[k] += product;
                                else
                                    acc[k] += product;
                            }
                        }
                    }
                    if (!wide) {
                        ta_requantize_s8(acc, n, multipliers ? multipliers + o0 : NULL,
                                         shifts ? shifts + o0 : NULL, p->multiplier, p->shift,
                                         p->output_offset, p->activation_min, p->activation_max,
                                         (int8_t *)output + o_at + o0);
                        continue;
                    }
                    for (int32_t k = 0; k < n; k++) {
                        const int32_t o = o0 + k;
                        const int32_t m = multipliers ? multipliers[o] : p->multiplier;
                        const int32_t sh = shifts ? shifts[o] : p->shift;
                        const int32_t v = ta_mul_by_quantized_multiplier_64(acc_wide[k], m,
                                                                            (int)sh) +
                                          p->output_offset;
                        ((int16_t *)output)[o_at + (size_t)o] = (int16_t)ta_clamp_i32(
                            v, p->activation_min, p->activation_max);
                    }
                }
            }
        }
    }
}

int ta_depthwise_conv_2d_s8(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                            const int8_t *weights, const int32_t *bias_sum, const int32_t *bias,
                            const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
#if defined(TA_HAVE_MVE)
    if (p->depth_multiplier == 1)
        dw_s8_m1_mve(p, input, weights, bias_sum, bias, multipliers, shifts, output);
    else
        dw_s8_multiplier_mve(p, input, weights, bias, multipliers, shifts, output);
    return TA_OK;
#elif defined(TA_HAVE_DSP)
    if (p->depth_multiplier == 1)
        dw_s8_m1_dsp(p, input, weights, bias_sum, bias, multipliers, shifts, output);
    else
        dw_s8_multiplier_dsp(p, input, weights, bias, multipliers, shifts, output);
    return TA_OK;
#else
    (void)bias;
#endif
    dw_portable(p, input, weights, bias_sum, multipliers, shifts, output, 0);
    return TA_OK;
}

/* The layers ta_depthwise_conv_2d_s8_m1_fast accepts (see the header). */
static int m1_fast_layer(const ta_depthwise_conv_2d_params_t *p, const int32_t *multipliers,
                         const int32_t *shifts)
{
    return p->depth_multiplier == 1 && multipliers && shifts && p->right_shifts_only &&
           p->small_accumulators && p->activation_min == INT8_MIN &&
           p->activation_max == INT8_MAX && p->output_depth % 8 == 0;
}

int ta_depthwise_conv_2d_s8_m1_fast(const ta_depthwise_conv_2d_params_t *p, const int8_t *input,
                                    const int8_t *weights, const int32_t *bias_sum,
                                    const int32_t *bias, const int32_t *multipliers,
                                    const int32_t *shifts, int8_t *output)
{
    if (!m1_fast_layer(p, multipliers, shifts))
        return TA_ERR_KERNEL;
#if defined(TA_HAVE_MVE)
    dw_s8_m1_mve_drive(p, input, weights, bias_sum, bias, multipliers, shifts, output, 1);
    return TA_OK;
#elif defined(TA_HAVE_DSP)
    dw_s8_m1_dsp_drive(p, input, weights, bias_sum, bias, multipliers, shifts, output, 1);
    return TA_OK;
#else
    return ta_depthwise_conv_2d_s8(p, input, weights, bias_sum, bias, multipliers, shifts, output);
#endif
}

#if defined(TA_HAVE_MVE)
/* int16 activations, depth multiplier 1, on Helium: per output pixel,
   eight channels at a time over the taps inside the input (zero points
   are 0, so outside taps add nothing), products summed in int32 lanes,
   which is exact while taps * 2^22 < 2^31; then TFLite's int64 bias and
   requantization per channel. */
static void dw_s16_m1_mve(const ta_depthwise_conv_2d_params_t *p, const int16_t *input,
                          const int8_t *weights, const int64_t *bias, const int32_t *multipliers,
                          const int32_t *shifts, int16_t *output)
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
#endif

int ta_depthwise_conv_2d_s16(const ta_depthwise_conv_2d_params_t *p, const int16_t *input,
                             const int8_t *weights, const int64_t *bias, const int32_t *multipliers,
                             const int32_t *shifts, int16_t *output)
{
#if defined(TA_HAVE_MVE)
    /* |x * w| <= 2^22: int32 partial sums are exact below 512 taps. */
    if (p->depth_multiplier == 1 && p->filter_height * p->filter_width < 512) {
        dw_s16_m1_mve(p, input, weights, bias, multipliers, shifts, output);
        return TA_OK;
    }
#endif
    dw_portable(p, input, weights, bias, multipliers, shifts, output, 1);
    return TA_OK;
}
