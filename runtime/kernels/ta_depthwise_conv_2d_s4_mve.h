/*
 * ta_depthwise_conv_2d_s4_mve.h - Helium inner loops of
 * ta_depthwise_conv_2d_s4.c, depth multiplier 1: per output row and block
 * of 16 channels, the block's packed weights of every tap are unpacked
 * once into int8 on the stack (16 bytes a tap), and its bias sums and
 * requantization constants laid out in even/odd channel order; each pixel
 * of the row then runs the int8 kernel's arithmetic on them: eight
 * channels of input and weights widened to int16 lanes, VMULLB/VMULLT
 * into even and odd int32 accumulators, requantized and narrowed back to
 * channel order (ta_dw_simd.h). Inner 3x3 windows of 16 or 8 channels
 * run a window row per assembly block, the weights at immediate offsets.
 */
#ifndef TA_DEPTHWISE_CONV_2D_S4_MVE_H
#define TA_DEPTHWISE_CONV_2D_S4_MVE_H

#include "ta_depthwise_conv_2d_s4.h"
#include "ta_depthwise_conv_2d_s4_walk.h"

#include "../include/ta_s4.h"

#if defined(TA_S4_MVE)
#include "../include/ta_dw_simd.h"

#include <arm_mve.h>

#define TA_DW_S4_LANES 16

/* A block of n <= 16 channels from c0 on, its weights unpacked once per
   row: each tap's as int8 (lanes past n zero). */
typedef struct {
    int8_t w[TA_DW_S4_TAPS][TA_DW_S4_LANES];
    /* per half of eight channels, even then odd channels (lanes past n
       zero): the start of inner windows (bias_sum) and of border ones (the
       plain bias), the multipliers and the shifts */
    int32_t start[2][2][2][4], mult[2][2][4], shift[2][2][4];
    int32_t c0, n, right_only;
} ta_dw_s4_block_t;

/* One tap's weights from its packed row: a byte gather in the nibbles'
   order (channel k of a group is byte k % 4, low nibble for k < 4), the
   low nibbles shifted up, then an arithmetic shift right by 4
   sign-extends all. A block of up to 8 channels reads one group. */
static inline void ta_dw_s4_unpack_tap_mve(const int8_t *row, int32_t c0, int32_t n, int8_t *w)
{
    static const uint8_t at[16] = {0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7};
    static const int8_t up[16] = {4, 4, 4, 4, 0, 0, 0, 0, 4, 4, 4, 4, 0, 0, 0, 0};
    const mve_pred16_t lanes = vctp8q(n > 8 ? 16u : 8u);
    const int8x16_t b = vldrbq_gather_offset_z_s8(row + c0 / 2, vld1q_u8(at), lanes);
    vst1q_s8(w, vshrq_n_s8(vshlq_s8(b, vld1q_s8(up)), 4));
}

/* Eight channels' values from v (per channel) or the scalar s, in
   even/odd order into dst[0] and dst[1]; lanes past n zero. */
static inline void ta_dw_s4_store_even_odd(const int32_t *v, int32_t s, int32_t n,
                                           int32_t dst[2][4])
{
    int32x4_t even = vdupq_n_s32(0), odd = even;
    if (v) {
        ta_dw_load_even_odd(v, n, &even, &odd);
    } else if (n > 0) {
        even = vdupq_n_s32(s);
        odd = even;
    }
    vst1q_s32(dst[0], even);
    vst1q_s32(dst[1], odd);
}

static inline void ta_dw_s4_prepare(ta_dw_s4_block_t *b, const ta_depthwise_conv_2d_s4_params_t *p,
                                    const int8_t *weights, size_t stride, int32_t taps,
                                    const ta_s4_requant_t *q, const int32_t *bias_sum,
                                    const int32_t *bias, int32_t c0, int32_t n)
{
    for (int32_t t = 0; t < taps; t++)
        ta_dw_s4_unpack_tap_mve(weights + (size_t)t * stride, c0, n, b->w[t]);
    for (int half = 0; half < 2; half++) {
        const int32_t o = c0 + 8 * half, left = n - 8 * half;
        const int32_t count = left < 0 ? 0 : left;
        ta_dw_s4_store_even_odd(bias_sum && count ? bias_sum + o : NULL, 0, count,
                                b->start[0][half]);
        ta_dw_s4_store_even_odd(bias && count ? bias + o : NULL, 0, count, b->start[1][half]);
        ta_dw_s4_store_even_odd(q->multipliers && count ? q->multipliers + o : NULL, q->multiplier,
                                count, b->mult[half]);
        /* lanes past n shift right by one (the right-shift form needs s < 0) */
        ta_dw_s4_store_even_odd(q->shifts && count ? q->shifts + o : NULL, count ? q->shift : -1,
                                count ? count : 8, b->shift[half]);
    }
    b->c0 = c0;
    b->n = n;
    b->right_only = p->right_shifts_only;
}

/* Eight channels of one tap at byte offset OFF of x and w on E (even) and
   O (odd); _P loads x under the predicate of the first %[n] int16 lanes
   (VCTP; inactive lanes load zero: nothing read past the pixel); _ZP
   subtracts the zero point from x first (|x - zp| <= 255; inactive lanes
   then meet zero weights). In assembly: left to itself gcc moves the
   accumulators between registers on every tap. Widening loads need low
   base registers ("l"). */
/* clang-format off */
#define TA_DW_S4_LOAD(OFF) "vldrb.s16 %q[xv], [%[x], #" #OFF "]\n\t"
#define TA_DW_S4_LOAD_P(OFF)                                                              \
    "vctp.16 %[n]\n\t"                                                                    \
    "vpst\n\t"                                                                            \
    "vldrbt.s16 %q[xv], [%[x], #" #OFF "]\n\t"
#define TA_DW_S4_ZP "vsub.i16 %q[xv], %q[xv], %[zp]\n\t"
#define TA_DW_S4_MUL(OFF, E, O)                                                           \
    "vldrb.s16 %q[wv], [%[w], #" #OFF "]\n\t"                                             \
    "vmullb.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[" E "], %q[" E "], %q[t]\n\t"                                            \
    "vmullt.s16 %q[t], %q[xv], %q[wv]\n\t"                                                \
    "vadd.i32 %q[" O "], %q[" O "], %q[t]\n\t"
/* clang-format on */

/* The bytes a tap reads at x and w, as memory operands. */
typedef struct {
    int8_t b[16];
} ta_dw_s4_bytes16;

/* The shapes of a block: 16 channels; 9-15 (the second half under a
   predicate); 8; 1-7 (under a predicate). */
enum { TA_DW_S4_FULL, TA_DW_S4_OVER8, TA_DW_S4_EIGHT, TA_DW_S4_UNDER8 };

#define TA_DW_S4_TAP_ASM(TEMPLATE, N, ...)                                          \
    __asm__(TEMPLATE                                                                \
            : __VA_ARGS__, [xv] "=&w"(xv), [wv] "=&w"(wv), [t] "=&w"(t)             \
            : [x] "l"(xt), [w] "l"(w), [n] "r"(N), [zp] "r"(zp),                    \
              "m"(*(const ta_dw_s4_bytes16 *)xt), "m"(*(const ta_dw_s4_bytes16 *)w) \
            : "p0")
/* One tap of the block on the accumulators its shape uses (Z: the zero
   point step or nothing). */
#define TA_DW_S4_TAP(Z)                                                                         \
    do {                                                                                        \
        if (shape == TA_DW_S4_FULL)                                                             \
            TA_DW_S4_TAP_ASM(TA_DW_S4_LOAD(0) Z TA_DW_S4_MUL(0, "e0", "o0") TA_DW_S4_LOAD(8)    \
                                 Z TA_DW_S4_MUL(8, "e1", "o1"),                                 \
                             n, [e0] "+w"(e0), [o0] "+w"(o0), [e1] "+w"(e1), [o1] "+w"(o1));    \
        else if (shape == TA_DW_S4_OVER8)                                                       \
            TA_DW_S4_TAP_ASM(TA_DW_S4_LOAD(0) Z TA_DW_S4_MUL(0, "e0", "o0") TA_DW_S4_LOAD_P(8)  \
                                 Z TA_DW_S4_MUL(8, "e1", "o1"),                                 \
                             rest, [e0] "+w"(e0), [o0] "+w"(o0), [e1] "+w"(e1), [o1] "+w"(o1)); \
        else if (shape == TA_DW_S4_EIGHT)                                                       \
            TA_DW_S4_TAP_ASM(TA_DW_S4_LOAD(0) Z TA_DW_S4_MUL(0, "e0", "o0"),                    \
                             n, [e0] "+w"(e0), [o0] "+w"(o0));                                  \
        else                                                                                    \
            TA_DW_S4_TAP_ASM(TA_DW_S4_LOAD_P(0) Z TA_DW_S4_MUL(0, "e0", "o0"),                  \
                             n, [e0] "+w"(e0), [o0] "+w"(o0));                                  \
    } while (0)

/* Half `half` of the block (even/odd accumulators e, o) requantized with
   its prepared constants and stored: `left` channels (8 or more: all 8). */
__attribute__((always_inline)) static inline void ta_dw_s4_out8(const ta_dw_s4_block_t *b,
                                                                const ta_s4_requant_t *q, int half,
                                                                int32x4_t e, int32x4_t o,
                                                                int8_t *out, int32_t left)
{
    const int32x4_t me = vldrwq_s32(b->mult[half][0]), mo = vldrwq_s32(b->mult[half][1]);
    const int32x4_t se = vldrwq_s32(b->shift[half][0]), so = vldrwq_s32(b->shift[half][1]);
    if (b->right_only) {
        e = ta_dw_mul_right_mve(e, me, se);
        o = ta_dw_mul_right_mve(o, mo, so);
    } else {
        e = ta_mm_requant_mve(e, me, se);
        o = ta_mm_requant_mve(o, mo, so);
    }
    const int16x8_t v = ta_dw_narrow_clamp_mve(e, o, q->offset, q->lo, q->hi);
    if (left >= 8)
        vstrbq_s16(out, v);
    else
        vstrbq_p_s16(out, v, vctp16q((uint32_t)left));
}

/* The block's channels of one pixel (SHAPE and BORDER fixed per copy):
   the window's taps inside the input, ny rows of nx from (ky0, kx0), the
   first at x; a border window (BORDER) from the plain bias on x - zp, an
   inner one from bias_sum. Requantized into out. */
__attribute__((always_inline)) static inline void
ta_dw_s4_pixel_shape(const ta_dw_s4_block_t *b, const ta_s4_requant_t *q, const ta_dw_s4_walk_t *wk,
                     const int8_t *x, int32_t ky0, int32_t ny, int32_t kx0, int32_t nx, int8_t *out,
                     int shape, int border)
{
    /* constant for whole blocks, so the loads and stores lose their tests */
    const int32_t n = shape == TA_DW_S4_FULL ? 16 : shape == TA_DW_S4_EIGHT ? 8 : b->n;
    const int32_t rest = n - 8, c0 = b->c0;
    const int32_t zp = wk->zp;
    const int32_t(*start)[2][4] = b->start[border ? 1 : 0];
    /* pinned to q0-q3: left to itself gcc moves them between registers on
       every tap */
    register int32x4_t e0 __asm__("q0") = vldrwq_s32(start[0][0]);
    register int32x4_t o0 __asm__("q1") = vldrwq_s32(start[0][1]);
    register int32x4_t e1 __asm__("q2") = vldrwq_s32(start[1][0]);
    register int32x4_t o1 __asm__("q3") = vldrwq_s32(start[1][1]);
    const int8_t *w_row = b->w[ky0 * wk->kw + kx0];
    for (int32_t i = 0; i < ny; i++, x += wk->row_step, w_row += wk->kw * TA_DW_S4_LANES) {
        const int8_t *xt = x, *w = w_row;
        for (int32_t j = 0; j < nx; j++, xt += wk->col_step, w += TA_DW_S4_LANES) {
            int16x8_t xv, wv;
            int32x4_t t;
            if (border)
                TA_DW_S4_TAP(TA_DW_S4_ZP);
            else
                TA_DW_S4_TAP("");
        }
    }
    ta_dw_s4_out8(b, q, 0, e0, o0, out + c0, n);
    if (shape <= TA_DW_S4_OVER8)
        ta_dw_s4_out8(b, q, 1, e1, o1, out + c0 + 8, rest);
}
#undef TA_DW_S4_TAP
#undef TA_DW_S4_TAP_ASM

/* The 48 bytes of weights a 3x3 window row reads. */
typedef struct {
    int8_t b[48];
} ta_dw_s4_bytes48;

/* clang-format off */
#define TA_DW_S4_LOAD_AT(X, OFF) "vldrb.s16 %q[xv], [%[" X "], #" #OFF "]\n\t"
/* One 3x3 window row of a whole block (FULL) or of 8 channels, inside the
   input: its taps at x0, x1, x2, their weights at w, w + 16, w + 32 (the
   offsets immediate). One assembly block a row, as the int8 kernel's. */
#define TA_DW_S4_ROW3_FULL                                                                \
    TA_DW_S4_LOAD_AT("x0", 0) TA_DW_S4_MUL(0, "e0", "o0")                                 \
    TA_DW_S4_LOAD_AT("x0", 8) TA_DW_S4_MUL(8, "e1", "o1")                                 \
    TA_DW_S4_LOAD_AT("x1", 0) TA_DW_S4_MUL(16, "e0", "o0")                                \
    TA_DW_S4_LOAD_AT("x1", 8) TA_DW_S4_MUL(24, "e1", "o1")                                \
    TA_DW_S4_LOAD_AT("x2", 0) TA_DW_S4_MUL(32, "e0", "o0")                                \
    TA_DW_S4_LOAD_AT("x2", 8) TA_DW_S4_MUL(40, "e1", "o1")
#define TA_DW_S4_ROW3_EIGHT                                                               \
    TA_DW_S4_LOAD_AT("x0", 0) TA_DW_S4_MUL(0, "e0", "o0")                                 \
    TA_DW_S4_LOAD_AT("x1", 0) TA_DW_S4_MUL(16, "e0", "o0")                                \
    TA_DW_S4_LOAD_AT("x2", 0) TA_DW_S4_MUL(32, "e0", "o0")
/* clang-format on */

/* The block's channels (FULL or EIGHT) of a 3x3 window inside the input
   whose first tap is at x, from bias_sum. Requantized into out. */
__attribute__((always_inline)) static inline void
ta_dw_s4_pixel3(const ta_dw_s4_block_t *b, const ta_s4_requant_t *q, const ta_dw_s4_walk_t *wk,
                const int8_t *x, int8_t *out, int shape)
{
    register int32x4_t e0 __asm__("q0") = vldrwq_s32(b->start[0][0][0]);
    register int32x4_t o0 __asm__("q1") = vldrwq_s32(b->start[0][0][1]);
    register int32x4_t e1 __asm__("q2") = vldrwq_s32(b->start[0][1][0]);
    register int32x4_t o1 __asm__("q3") = vldrwq_s32(b->start[0][1][1]);
    const ptrdiff_t cs = wk->col_step;
    for (int32_t i = 0; i < 3; i++, x += wk->row_step) {
        const int8_t *x0 = x, *x1 = x + cs, *x2 = x + 2 * cs, *w = b->w[3 * i];
        int16x8_t xv, wv;
        int32x4_t t;
        if (shape == TA_DW_S4_FULL)
            __asm__(TA_DW_S4_ROW3_FULL
                    : [e0] "+w"(e0), [o0] "+w"(o0), [e1] "+w"(e1), [o1] "+w"(o1), [xv] "=&w"(xv),
                      [wv] "=&w"(wv), [t] "=&w"(t)
                    : [x0] "l"(x0), [x1] "l"(x1), [x2] "l"(x2), [w] "l"(w),
                      "m"(*(const ta_dw_s4_bytes16 *)x0), "m"(*(const ta_dw_s4_bytes16 *)x1),
                      "m"(*(const ta_dw_s4_bytes16 *)x2), "m"(*(const ta_dw_s4_bytes48 *)w));
        else
            __asm__(TA_DW_S4_ROW3_EIGHT
                    : [e0] "+w"(e0), [o0] "+w"(o0), [xv] "=&w"(xv), [wv] "=&w"(wv), [t] "=&w"(t)
                    : [x0] "l"(x0), [x1] "l"(x1), [x2] "l"(x2), [w] "l"(w),
                      "m"(*(const ta_dw_s4_bytes16 *)x0), "m"(*(const ta_dw_s4_bytes16 *)x1),
                      "m"(*(const ta_dw_s4_bytes16 *)x2), "m"(*(const ta_dw_s4_bytes48 *)w));
    }
    ta_dw_s4_out8(b, q, 0, e0, o0, out + b->c0, 8);
    if (shape == TA_DW_S4_FULL)
        ta_dw_s4_out8(b, q, 1, e1, o1, out + b->c0 + 8, 8);
}
#undef TA_DW_S4_ROW3_FULL
#undef TA_DW_S4_ROW3_EIGHT
#undef TA_DW_S4_LOAD_AT

static inline void ta_dw_s4_pixel(const ta_dw_s4_block_t *b, const ta_s4_requant_t *q,
                                  const ta_dw_s4_walk_t *wk, const int8_t *x, int32_t ky0,
                                  int32_t ny, int32_t kx0, int32_t nx, int border, int8_t *out)
{
#define TA_DW_S4_SHAPES(BORDER)                                                                \
    do {                                                                                       \
        if (b->n == 16)                                                                        \
            ta_dw_s4_pixel_shape(b, q, wk, x, ky0, ny, kx0, nx, out, TA_DW_S4_FULL, BORDER);   \
        else if (b->n > 8)                                                                     \
            ta_dw_s4_pixel_shape(b, q, wk, x, ky0, ny, kx0, nx, out, TA_DW_S4_OVER8, BORDER);  \
        else if (b->n == 8)                                                                    \
            ta_dw_s4_pixel_shape(b, q, wk, x, ky0, ny, kx0, nx, out, TA_DW_S4_EIGHT, BORDER);  \
        else                                                                                   \
            ta_dw_s4_pixel_shape(b, q, wk, x, ky0, ny, kx0, nx, out, TA_DW_S4_UNDER8, BORDER); \
    } while (0)
    if (border)
        TA_DW_S4_SHAPES(1);
    else
        TA_DW_S4_SHAPES(0);
#undef TA_DW_S4_SHAPES
}

/* `count` pixels whose windows lie inside the input (kh rows of taps),
   the first window's first tap at x, x_step input bytes and out_step
   output bytes apart: 3x3 windows of 16 or 8 channels a window row per
   assembly block, the others through ta_dw_s4_pixel (one copy of each
   shape's loop for inner and border windows alike). */
static inline void ta_dw_s4_run(const ta_dw_s4_block_t *b, const ta_s4_requant_t *q,
                                const ta_dw_s4_walk_t *wk, const int8_t *x, ptrdiff_t x_step,
                                int32_t count, int32_t kh, int8_t *out, ptrdiff_t out_step)
{
    const int k3 = kh == 3 && wk->kw == 3;
    if (b->n == 16 && k3)
        for (int32_t i = 0; i < count; i++, x += x_step, out += out_step)
            ta_dw_s4_pixel3(b, q, wk, x, out, TA_DW_S4_FULL);
    else if (b->n == 8 && k3)
        for (int32_t i = 0; i < count; i++, x += x_step, out += out_step)
            ta_dw_s4_pixel3(b, q, wk, x, out, TA_DW_S4_EIGHT);
    else
        for (int32_t i = 0; i < count; i++, x += x_step, out += out_step)
            ta_dw_s4_pixel(b, q, wk, x, 0, kh, 0, wk->kw, 0, out);
}
#endif

#endif /* TA_DEPTHWISE_CONV_2D_S4_MVE_H */
