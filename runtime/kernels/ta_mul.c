/* ta_mul.c - MUL kernels; see the header.
 *
 * Rows as in ta_add_sub.c: an input either steps by one element or stays
 * on a broadcast one (offset once per row); same-shaped inputs make one
 * row. int8 rows have a Helium path (eight int16 lanes of offset inputs,
 * their products and the reference's arithmetic in int32 lanes) and a
 * DSP path (four elements a step as halfword pairs, SMMULR), with the
 * portable path's bytes. Each output element is written after its inputs are read,
 * so the output may share a non-broadcast input's bytes.
 */
#include "ta_mul.h"

#include <stdbool.h>
#include <string.h>

#include "../include/ta_dw_simd.h"
#include "../include/ta_element.h"
#include "../include/ta_elementwise_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include "ta_broadcast_rows.h"

/* x and y are offset inputs: |x * y| <= 2^30, no overflow. */
static inline int32_t finish(const ta_mul_params_t *p, int32_t x, int32_t y)
{
    const int32_t out = p->output_offset + ta_mul_by_quantized_multiplier(
                                               x * y, p->output_multiplier, (int)p->output_shift);
    return ta_clamp_i32(out, p->activation_min, p->activation_max);
}

/* The reference arithmetic, one element at a time. `restrict`: the params
   are never written, so they need not be reloaded after every store. */
TA_EW_NOINLINE void row_portable(const ta_mul_params_t *restrict p, const void *a, const void *b,
                                 void *o, int32_t n, int kind, bool wide)
{
    const int32_t off1 = p->input1_offset, off2 = p->input2_offset;
    if (kind == TA_ROW_BOTH_STEP) {
        for (int32_t i = 0; i < n; i++)
            ta_store_element(
                o, i,
                finish(p, ta_load_element(a, i, wide) + off1, ta_load_element(b, i, wide) + off2),
                wide);
    } else if (kind == TA_ROW_SECOND_FIXED) {
        const int32_t y = ta_load_element(b, 0, wide) + off2;
        for (int32_t i = 0; i < n; i++)
            ta_store_element(o, i, finish(p, ta_load_element(a, i, wide) + off1, y), wide);
    } else {
        const int32_t x = ta_load_element(a, 0, wide) + off1;
        for (int32_t i = 0; i < n; i++)
            ta_store_element(o, i, finish(p, x, ta_load_element(b, i, wide) + off2), wide);
    }
}

#if defined(TA_EW_MVE) || defined(TA_EW_DSP)
/* The params as the SIMD rows use them: the output multiplier's shift
   split into a left shift and a rounding right shift, as the reference. */
typedef struct {
    int32_t off1, off2;
    int32_t left; /* >= 0 */
    ta_ew_scale_t out;
    int32_t output_offset, lo, hi;
} simd_consts_t;

/* Exact for int8 with a left shift <= 13 (the product shifted one more
   bit still fits) and a right shift <= 31. */
static bool simd_consts(const ta_mul_params_t *p, simd_consts_t *c)
{
    if (p->output_shift > 13 || p->output_shift < -31)
        return false;
    c->off1 = p->input1_offset;
    c->off2 = p->input2_offset;
    c->left = p->output_shift > 0 ? p->output_shift : 0;
    c->out = ta_ew_scale(p->output_multiplier, p->output_shift > 0 ? 0 : p->output_shift);
    c->output_offset = p->output_offset;
    c->lo = p->activation_min;
    c->hi = p->activation_max;
    return true;
}
#endif

#if defined(TA_EW_MVE)
/* One int32 vector of products requantized, before the output offset:
   `right` (a negative output shift, no left shift) divides after the
   multiply, else the left shift comes first and nothing is divided. */
TA_ALWAYS_INLINE int32x4_t mve_scale(const simd_consts_t *c, int32x4_t product, bool right)
{
    if (right)
        return ta_ew_divide_rounding_mve(vqrdmulhq_n_s32(product, c->out.multiplier),
                                         -c->out.exponent);
    /* wraps, as the reference */
    return vqrdmulhq_n_s32(vshlq_r_s32(product, c->left), c->out.multiplier);
}

/* Eight lanes from the offset inputs x and y as int16 (|x|, |y| <= 255):
   the products of the even and the odd lanes (VMULLB, VMULLT) in int32,
   requantized, narrowed back into order with the offset added (saturating
   in int16, which the int8 clamp makes exact), clamped. */
TA_ALWAYS_INLINE int16x8_t mve_lanes(const simd_consts_t *c, int16x8_t x, int16x8_t y, int16x8_t lo,
                                     int16x8_t hi, bool right)
{
    const int32x4_t even = mve_scale(c, vmullbq_int_s16(x, y), right);
    const int32x4_t odd = mve_scale(c, vmulltq_int_s16(x, y), right);
    return vminq_s16(vmaxq_s16(ta_dw_narrow_mve(even, odd, c->output_offset), lo), hi);
}

TA_ALWAYS_INLINE void row_lanes(const simd_consts_t *restrict c, const int8_t *a, const int8_t *b,
                                int8_t *o, int32_t n, int kind, bool right)
{
    const int16x8_t lo = vdupq_n_s16((int16_t)c->lo), hi = vdupq_n_s16((int16_t)c->hi);
    const int16_t off1 = (int16_t)c->off1, off2 = (int16_t)c->off2;
    const int16x8_t fixed = vdupq_n_s16((int16_t)(kind == TA_ROW_FIRST_FIXED    ? a[0] + off1
                                                  : kind == TA_ROW_SECOND_FIXED ? b[0] + off2
                                                                                : 0));
    for (; n >= 8; n -= 8) {
        const int16x8_t x = kind == TA_ROW_FIRST_FIXED ? fixed : vaddq_n_s16(vldrbq_s16(a), off1);
        const int16x8_t y = kind == TA_ROW_SECOND_FIXED ? fixed : vaddq_n_s16(vldrbq_s16(b), off2);
        vstrbq_s16(o, mve_lanes(c, x, y, lo, hi, right));
        a += kind == TA_ROW_FIRST_FIXED ? 0 : 8;
        b += kind == TA_ROW_SECOND_FIXED ? 0 : 8;
        o += 8;
    }
    if (n > 0) {
        const mve_pred16_t tail = vctp16q((uint32_t)n);
        const int16x8_t x = kind == TA_ROW_FIRST_FIXED ? fixed
                                                       : vaddq_n_s16(vldrbq_z_s16(a, tail), off1);
        const int16x8_t y = kind == TA_ROW_SECOND_FIXED ? fixed
                                                        : vaddq_n_s16(vldrbq_z_s16(b, tail), off2);
        vstrbq_p_s16(o, mve_lanes(c, x, y, lo, hi, right), tail);
    }
}
#elif defined(TA_EW_DSP)
/* |x * y| <= 2^16 and left <= 13: the product shifted left one more bit
   fits, and SMMULR of it is the doubling high multiply; |result| < 2^30
   as ta_ew_divide_by_pot needs, which for `right` (exponent >= 1) is the
   sign bit added as a shifted operand, the rounding, a shift; else
   nothing. Saturated to int8 (a clamp to a narrower range follows). */
TA_ALWAYS_INLINE int32_t dsp_finish(const simd_consts_t *c, int32_t product, bool right)
{
    const int32_t high = ta_ew_smmulr(ta_shift_left_wrap(product, (int)c->left + 1),
                                      c->out.multiplier);
    const int32_t v = right ? (high + (high >> 31) + c->out.round) >> c->out.exponent : high;
    return __ssat(v + c->output_offset, 8);
}

/* The products of the bottom and of the top halfwords (gcc makes SMULBB
   and SMULTT of them; its ACLE names neither). */
TA_ALWAYS_INLINE int32_t dsp_mul_bottom(uint32_t x, uint32_t y)
{
    return (int32_t)(int16_t)x * (int16_t)y;
}

TA_ALWAYS_INLINE int32_t dsp_mul_top(uint32_t x, uint32_t y)
{
    return ((int32_t)x >> 16) * ((int32_t)y >> 16);
}

/* Four outputs from the offset inputs as halfword pairs: elements 0 and 2
   of x in xe, 1 and 3 in xo (SXTB16 of a word, SADD16 of the offsets), the
   same of y; SMULBB and SMULTT give the products, one word stores them. */
TA_ALWAYS_INLINE uint32_t dsp_four(const simd_consts_t *c, uint32_t xe, uint32_t xo, uint32_t ye,
                                   uint32_t yo, uint32_t lo4, uint32_t hi4, bool right)
{
    const uint32_t v = ta_pack4_s8(
        dsp_finish(c, dsp_mul_bottom(xe, ye), right), dsp_finish(c, dsp_mul_bottom(xo, yo), right),
        dsp_finish(c, dsp_mul_top(xe, ye), right), dsp_finish(c, dsp_mul_top(xo, yo), right));
    return ta_clamp4_s8(v, lo4, hi4);
}

TA_ALWAYS_INLINE void row_lanes(const simd_consts_t *restrict c, const int8_t *a, const int8_t *b,
                                int8_t *o, int32_t n, int kind, bool right)
{
    const uint32_t off1 = (uint32_t)(uint16_t)c->off1 * 0x10001u;
    const uint32_t off2 = (uint32_t)(uint16_t)c->off2 * 0x10001u;
    const uint32_t lo4 = ta_splat4_s8(c->lo), hi4 = ta_splat4_s8(c->hi);
    /* the broadcast input's pair (both halves the one value) */
    const uint32_t fixed = kind == TA_ROW_FIRST_FIXED ? __sadd16(__sxtb16(ta_splat4_s8(a[0])), off1)
                           : kind == TA_ROW_SECOND_FIXED
                               ? __sadd16(__sxtb16(ta_splat4_s8(b[0])), off2)
                               : 0;
    for (; n >= 4; n -= 4) {
        uint32_t xe = fixed, xo = fixed, ye = fixed, yo = fixed;
        if (kind != TA_ROW_FIRST_FIXED) {
            const uint32_t w = ta_load_u32(a);
            xe = __sadd16(__sxtb16(w), off1);
            xo = __sadd16(ta_sxtb16_ror8(w), off1);
            a += 4;
        }
        if (kind != TA_ROW_SECOND_FIXED) {
            const uint32_t w = ta_load_u32(b);
            ye = __sadd16(__sxtb16(w), off2);
            yo = __sadd16(ta_sxtb16_ror8(w), off2);
            b += 4;
        }
        const uint32_t v = dsp_four(c, xe, xo, ye, yo, lo4, hi4, right);
        memcpy(o, &v, 4);
        o += 4;
    }
    const int32_t x = kind == TA_ROW_FIRST_FIXED ? a[0] + c->off1 : 0;
    const int32_t y = kind == TA_ROW_SECOND_FIXED ? b[0] + c->off2 : 0;
    for (int32_t i = 0; i < n; i++) {
        const int32_t xi = kind == TA_ROW_FIRST_FIXED ? x : a[i] + c->off1;
        const int32_t yi = kind == TA_ROW_SECOND_FIXED ? y : b[i] + c->off2;
        o[i] = (int8_t)ta_clamp_i32(dsp_finish(c, xi * yi, right), c->lo, c->hi);
    }
}
#endif

#if defined(TA_EW_MVE) || defined(TA_EW_DSP)
/* One copy of the row for each side of the output shift's sign. */
TA_ALWAYS_INLINE void row_simd(const simd_consts_t *restrict c, const int8_t *a, const int8_t *b,
                               int8_t *o, int32_t n, int kind)
{
    if (c->out.exponent > 0)
        row_lanes(c, a, b, o, n, kind, true);
    else
        row_lanes(c, a, b, o, n, kind, false);
}
#endif

/* What every row of one call needs. */
typedef struct {
    const ta_mul_params_t *p;
#if defined(TA_EW_MVE) || defined(TA_EW_DSP)
    simd_consts_t c;
#endif
    bool wide;
} row_ctx_t;

TA_ALWAYS_INLINE void portable_row(const void *ctx, const void *a, const void *b, void *o,
                                   int32_t n, int kind)
{
    const row_ctx_t *x = ctx;
    row_portable(x->p, a, b, o, n, kind, x->wide);
}

#if defined(TA_EW_MVE) || defined(TA_EW_DSP)
TA_ALWAYS_INLINE void simd_row(const void *ctx, const void *a, const void *b, void *o, int32_t n,
                               int kind)
{
    const row_ctx_t *x = ctx;
    row_simd(&x->c, a, b, o, n, kind);
}
#endif

/* The SIMD rows and the portable ones walk apart (see ta_add_sub.c). */
TA_ALWAYS_INLINE int run(const ta_mul_params_t *restrict p, const void *input1, const void *input2,
                         void *output, bool wide)
{
    row_ctx_t x;
    x.p = p;
    x.wide = wide;
    const size_t size = wide ? sizeof(int16_t) : sizeof(int8_t);
#if defined(TA_EW_MVE) || defined(TA_EW_DSP)
    if (!wide && simd_consts(p, &x.c)) {
        ta_broadcast_rows(p->rank, p->dims, p->stride1, p->stride2, input1, input2, size, output,
                          size, simd_row, &x);
        return TA_OK;
    }
#endif
    ta_broadcast_rows(p->rank, p->dims, p->stride1, p->stride2, input1, input2, size, output, size,
                      portable_row, &x);
    return TA_OK;
}

int ta_mul_s8(const ta_mul_params_t *p, const int8_t *input1, const int8_t *input2, int8_t *output)
{
    return run(p, input1, input2, output, false);
}

int ta_mul_s16(const ta_mul_params_t *p, const int16_t *input1, const int16_t *input2,
               int16_t *output)
{
    return run(p, input1, input2, output, true);
}
