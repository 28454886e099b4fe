/* ta_mul.c - MUL kernels; see the header.
 *
 * Rows as in ta_add_sub.c: an input either steps by one element or stays
 * on a broadcast one (offset once per row); same-shaped inputs make one
 * row. int8 rows have a Helium path (four int32 lanes, the reference's
 * arithmetic lane by lane) and a DSP path (SMMULR), with the portable
 * path's bytes. Each output element is written after its inputs are read,
 * so the output may share a non-broadcast input's bytes.
 */
#include "ta_mul.h"

#include <stdbool.h>

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
/* x and y: the offset inputs (one may be the broadcast value). */
TA_EW_INLINE int32x4_t mve_lanes(const simd_consts_t *c, int32x4_t x, int32x4_t y, int32x4_t lo,
                                 int32x4_t hi)
{
    const int32x4_t shifted = vshlq_r_s32(vmulq_s32(x, y), c->left); /* wraps, as the reference */
    int32x4_t v = ta_ew_divide_by_pot_mve(vqrdmulhq_n_s32(shifted, c->out.multiplier),
                                          c->out.fix_shift, -c->out.exponent);
    v = vaddq_n_s32(v, c->output_offset);
    return vminq_s32(vmaxq_s32(v, lo), hi);
}

TA_EW_INLINE void row_simd(const simd_consts_t *restrict c, const int8_t *a, const int8_t *b,
                           int8_t *o, int32_t n, int kind)
{
    const int32x4_t lo = vdupq_n_s32(c->lo), hi = vdupq_n_s32(c->hi);
    const int32x4_t fixed = vdupq_n_s32(kind == TA_ROW_FIRST_FIXED    ? a[0] + c->off1
                                        : kind == TA_ROW_SECOND_FIXED ? b[0] + c->off2
                                                                      : 0);
    for (; n >= 4; n -= 4) {
        const int32x4_t x = kind == TA_ROW_FIRST_FIXED ? fixed
                                                       : vaddq_n_s32(vldrbq_s32(a), c->off1);
        const int32x4_t y = kind == TA_ROW_SECOND_FIXED ? fixed
                                                        : vaddq_n_s32(vldrbq_s32(b), c->off2);
        vstrbq_s32(o, mve_lanes(c, x, y, lo, hi));
        a += kind == TA_ROW_FIRST_FIXED ? 0 : 4;
        b += kind == TA_ROW_SECOND_FIXED ? 0 : 4;
        o += 4;
    }
    if (n > 0) {
        const mve_pred16_t tail = vctp32q((uint32_t)n);
        const int32x4_t x = kind == TA_ROW_FIRST_FIXED
                                ? fixed
                                : vaddq_n_s32(vldrbq_z_s32(a, tail), c->off1);
        const int32x4_t y = kind == TA_ROW_SECOND_FIXED
                                ? fixed
                                : vaddq_n_s32(vldrbq_z_s32(b, tail), c->off2);
        vstrbq_p_s32(o, mve_lanes(c, x, y, lo, hi), tail);
    }
}
#elif defined(TA_EW_DSP)
/* |x * y| <= 2^16 and left <= 13: the product shifted left one more bit
   fits, and SMMULR of it is the doubling high multiply; |result| < 2^30
   as ta_ew_divide_by_pot needs. */
TA_EW_INLINE int32_t dsp_finish(const simd_consts_t *c, int32_t x, int32_t y)
{
    const int32_t high = ta_ew_smmulr(ta_shift_left_wrap(x * y, (int)c->left + 1),
                                      c->out.multiplier);
    return ta_clamp_i32(ta_ew_divide_by_pot(high, &c->out) + c->output_offset, c->lo, c->hi);
}

TA_EW_INLINE void row_simd(const simd_consts_t *restrict c, const int8_t *a, const int8_t *b,
                           int8_t *o, int32_t n, int kind)
{
    const int32_t off1 = c->off1, off2 = c->off2;
    if (kind == TA_ROW_BOTH_STEP) {
        for (int32_t i = 0; i < n; i++)
            o[i] = (int8_t)dsp_finish(c, a[i] + off1, b[i] + off2);
    } else if (kind == TA_ROW_SECOND_FIXED) {
        const int32_t y = b[0] + off2;
        for (int32_t i = 0; i < n; i++)
            o[i] = (int8_t)dsp_finish(c, a[i] + off1, y);
    } else {
        const int32_t x = a[0] + off1;
        for (int32_t i = 0; i < n; i++)
            o[i] = (int8_t)dsp_finish(c, x, b[i] + off2);
    }
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

TA_EW_INLINE void portable_row(const void *ctx, const void *a, const void *b, void *o, int32_t n,
                               int kind)
{
    const row_ctx_t *x = ctx;
    row_portable(x->p, a, b, o, n, kind, x->wide);
}

#if defined(TA_EW_MVE) || defined(TA_EW_DSP)
TA_EW_INLINE void simd_row(const void *ctx, const void *a, const void *b, void *o, int32_t n,
                           int kind)
{
    const row_ctx_t *x = ctx;
    row_simd(&x->c, a, b, o, n, kind);
}
#endif

/* The SIMD rows and the portable ones walk apart (see ta_add_sub.c). */
TA_EW_INLINE int run(const ta_mul_params_t *restrict p, const void *input1, const void *input2,
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
