/* ta_comparison.c - the comparison kernel; see the header. Rows as in
   ta_add_sub.c (ta_broadcast_rows.h), with a Helium path (four int32 lanes, the reference's
   arithmetic lane by lane) that gives the portable path's bytes. */
#include "ta_comparison.h"

#include "../include/ta_elementwise_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include "ta_broadcast_rows.h"

/* The multipliers are the input scales, below 1 (the converter checks). */
static inline int32_t rescale(int32_t q, int32_t offset, int left_shift, int32_t multiplier,
                              int shift)
{
    /* |q + offset| <= 255 and left_shift is 8: no overflow. */
    const int32_t shifted = ta_shift_left_wrap(q + offset, left_shift);
    return ta_mul_by_quantized_multiplier_lt_one(shifted, multiplier, shift);
}

/* The mask bit for x < y (0), x == y (1) or x > y (2). */
static inline bool compare(int32_t mask, int32_t x, int32_t y)
{
    const int order = (x >= y) + (x > y);
    return (mask >> order) & 1;
}

static inline int32_t rescale1(const ta_comparison_params_t *p, int32_t q)
{
    return rescale(q, p->input1_offset, (int)p->left_shift, p->input1_multiplier,
                   (int)p->input1_shift);
}

static inline int32_t rescale2(const ta_comparison_params_t *p, int32_t q)
{
    return rescale(q, p->input2_offset, (int)p->left_shift, p->input2_multiplier,
                   (int)p->input2_shift);
}

/* The reference arithmetic, one element at a time. `restrict`: the params
   are never written, so they need not be reloaded after every bool store. */
TA_EW_NOINLINE void row_portable(const ta_comparison_params_t *restrict p, const int8_t *a,
                                 const int8_t *b, bool *o, int32_t n, int kind)
{
    const int32_t mask = p->mask;
    if (kind == TA_ROW_BOTH_STEP) {
        for (int32_t i = 0; i < n; i++)
            o[i] = compare(mask, rescale1(p, a[i]), rescale2(p, b[i]));
    } else if (kind == TA_ROW_SECOND_FIXED) {
        const int32_t y = rescale2(p, b[0]);
        for (int32_t i = 0; i < n; i++)
            o[i] = compare(mask, rescale1(p, a[i]), y);
    } else {
        const int32_t x = rescale1(p, a[0]);
        for (int32_t i = 0; i < n; i++)
            o[i] = compare(mask, x, rescale2(p, b[i]));
    }
}

#if defined(TA_EW_MVE)
/* Four lanes of the reference: rescale as ADD does, then the mask bit
   selected by (x >= y) + (x > y), stored as bytes 0 or 1. */
typedef struct {
    int32_t left_shift, offset1, offset2; /* the offsets shifted by left_shift */
    ta_ew_scale_t in1, in2;
    int32_t mask;
} simd_consts_t;

static bool simd_consts(const ta_comparison_params_t *p, simd_consts_t *c)
{
    if (p->left_shift < 0 || p->left_shift > 30 || p->input1_shift > 0 || p->input2_shift > 0 ||
        p->input1_shift < -31 || p->input2_shift < -31)
        return false;
    c->left_shift = p->left_shift;
    c->offset1 = ta_shift_left_wrap(p->input1_offset, (int)p->left_shift);
    c->offset2 = ta_shift_left_wrap(p->input2_offset, (int)p->left_shift);
    c->in1 = ta_ew_scale(p->input1_multiplier, p->input1_shift);
    c->in2 = ta_ew_scale(p->input2_multiplier, p->input2_shift);
    c->mask = p->mask;
    return true;
}

TA_EW_INLINE int32x4_t mve_rescale(int32x4_t q, int32x4_t shift_mul, int32_t offset,
                                   const ta_ew_scale_t *s)
{
    const int32x4_t x = vmlasq_n_s32(q, shift_mul, offset);
    return ta_ew_divide_by_pot_mve(vqrdmulhq_n_s32(x, s->multiplier), s->fix_shift,
                                   -s->exponent);
}

TA_EW_INLINE int32x4_t mve_lanes(const simd_consts_t *c, int32x4_t qa, int32x4_t qb,
                                 int32x4_t fixed, int32x4_t shift_mul, int kind)
{
    const int32x4_t x = kind == TA_ROW_FIRST_FIXED
                            ? fixed
                            : mve_rescale(qa, shift_mul, c->offset1, &c->in1);
    const int32x4_t y = kind == TA_ROW_SECOND_FIXED
                            ? fixed
                            : mve_rescale(qb, shift_mul, c->offset2, &c->in2);
    const int32x4_t zero = vdupq_n_s32(0);
    int32x4_t order = vaddq_m_n_s32(zero, zero, 1, vcmpgeq_s32(x, y));
    order = vaddq_m_n_s32(order, order, 1, vcmpgtq_s32(x, y));
    /* (mask >> order) & 1 */
    return vandq_s32(vshlq_s32(vdupq_n_s32(c->mask), vnegq_s32(order)), vdupq_n_s32(1));
}

TA_EW_INLINE void row_simd(const ta_comparison_params_t *restrict p,
                           const simd_consts_t *restrict c, const int8_t *a, const int8_t *b,
                           bool *o, int32_t n, int kind)
{
    const int32x4_t shift_mul = vdupq_n_s32((int32_t)1 << c->left_shift);
    const int32x4_t zero = vdupq_n_s32(0);
    int32x4_t fixed = zero;
    if (kind == TA_ROW_FIRST_FIXED)
        fixed = vdupq_n_s32(rescale1(p, a[0]));
    else if (kind == TA_ROW_SECOND_FIXED)
        fixed = vdupq_n_s32(rescale2(p, b[0]));
    /* bool is one byte holding 0 or 1 (TFLite's bool tensors). */
    uint8_t *out = (uint8_t *)o;
    for (; n > 0; n -= 4) {
        const mve_pred16_t pred = vctp32q((uint32_t)n);
        const int32x4_t qa = kind == TA_ROW_FIRST_FIXED ? zero : vldrbq_z_s32(a, pred);
        const int32x4_t qb = kind == TA_ROW_SECOND_FIXED ? zero : vldrbq_z_s32(b, pred);
        vstrbq_p_u32(out, vreinterpretq_u32_s32(mve_lanes(c, qa, qb, fixed, shift_mul, kind)),
                     pred);
        a += kind == TA_ROW_FIRST_FIXED ? 0 : 4;
        b += kind == TA_ROW_SECOND_FIXED ? 0 : 4;
        out += 4;
    }
}
#endif

/* What every row of one call needs. */
typedef struct {
    const ta_comparison_params_t *p;
#if defined(TA_EW_MVE)
    simd_consts_t c;
    bool simd;
#endif
} row_ctx_t;

TA_EW_INLINE void row(const void *ctx, const void *a, const void *b, void *o, int32_t n, int kind)
{
    const row_ctx_t *x = ctx;
#if defined(TA_EW_MVE)
    if (x->simd) {
        row_simd(x->p, &x->c, a, b, o, n, kind);
        return;
    }
#endif
    row_portable(x->p, a, b, o, n, kind);
}

/* Each output byte is written after its inputs are read, so the output
   may share a non-broadcast input's bytes. */
int ta_comparison_s8(const ta_comparison_params_t *restrict p, const int8_t *input1,
                     const int8_t *input2, bool *output)
{
    row_ctx_t x;
    x.p = p;
#if defined(TA_EW_MVE)
    x.simd = simd_consts(p, &x.c);
#endif
    ta_broadcast_rows(p->rank, p->dims, p->stride1, p->stride2, input1, input2, sizeof(int8_t),
                      output, sizeof(bool), row, &x);
    return TA_OK;
}
