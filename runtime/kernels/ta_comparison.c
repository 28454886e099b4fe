/* ta_comparison.c - the comparison kernel; see the header. Rows as in
   ta_add_sub.c (ta_broadcast_rows.h), with a Helium path (four int32 lanes, the reference's
   arithmetic lane by lane) that gives the portable path's bytes. */
#include "ta_comparison.h"

#include "../include/ta_elementwise_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include "ta_binary_rescale.h"
#include "ta_broadcast_rows.h"

/* The mask bit for x < y (0), x == y (1) or x > y (2). */
static inline bool compare(int32_t mask, int32_t x, int32_t y)
{
    const int order = (x >= y) + (x > y);
    return (mask >> order) & 1;
}

/* The multipliers are the input scales, below 1 (the converter checks);
   |q + offset| <= 255 and left_shift is 8. */
static inline int32_t rescale1(const ta_comparison_params_t *p, int32_t q)
{
    return ta_binary_rescale(q, p->input1_offset, p->left_shift, p->input1_multiplier,
                             p->input1_shift);
}

static inline int32_t rescale2(const ta_comparison_params_t *p, int32_t q)
{
    return ta_binary_rescale(q, p->input2_offset, p->left_shift, p->input2_multiplier,
                             p->input2_shift);
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
    ta_binary_rescale_mve_t in;
    int32_t mask;
} simd_consts_t;

static bool simd_consts(const ta_comparison_params_t *p, simd_consts_t *c)
{
    c->mask = p->mask;
    return ta_binary_rescale_mve_init(p->left_shift, p->input1_offset, p->input1_multiplier,
                                      p->input1_shift, p->input2_offset, p->input2_multiplier,
                                      p->input2_shift, &c->in);
}

TA_ALWAYS_INLINE int32x4_t mve_lanes(const simd_consts_t *c, int32x4_t qa, int32x4_t qb,
                                     int32x4_t fixed, int32x4_t shift_mul, int kind)
{
    int32x4_t x, y;
    ta_binary_rescale_lanes_mve(&c->in, qa, qb, fixed, shift_mul, kind, &x, &y);
    const int32x4_t zero = vdupq_n_s32(0);
    int32x4_t order = vaddq_m_n_s32(zero, zero, 1, vcmpgeq_s32(x, y));
    order = vaddq_m_n_s32(order, order, 1, vcmpgtq_s32(x, y));
    /* (mask >> order) & 1 */
    return vandq_s32(vshlq_s32(vdupq_n_s32(c->mask), vnegq_s32(order)), vdupq_n_s32(1));
}

TA_ALWAYS_INLINE void row_simd(const ta_comparison_params_t *restrict p,
                               const simd_consts_t *restrict c, const int8_t *a, const int8_t *b,
                               bool *o, int32_t n, int kind)
{
    const int32x4_t shift_mul = vdupq_n_s32((int32_t)1 << c->in.left_shift);
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
#endif
} row_ctx_t;

TA_ALWAYS_INLINE void portable_row(const void *ctx, const void *a, const void *b, void *o,
                                   int32_t n, int kind)
{
    const row_ctx_t *x = ctx;
    row_portable(x->p, a, b, o, n, kind);
}

#if defined(TA_EW_MVE)
TA_ALWAYS_INLINE void simd_row(const void *ctx, const void *a, const void *b, void *o, int32_t n,
                               int kind)
{
    const row_ctx_t *x = ctx;
    row_simd(x->p, &x->c, a, b, o, n, kind);
}
#endif

/* The SIMD rows and the portable ones walk apart (see ta_add_sub.c).
   Each output byte is written after its inputs are read, so the output
   may share a non-broadcast input's bytes. */
int ta_comparison_s8(const ta_comparison_params_t *restrict p, const int8_t *input1,
                     const int8_t *input2, bool *output)
{
    row_ctx_t x;
    x.p = p;
#if defined(TA_EW_MVE)
    if (simd_consts(p, &x.c)) {
        ta_broadcast_rows(p->rank, p->dims, p->stride1, p->stride2, input1, input2, sizeof(int8_t),
                          output, sizeof(bool), simd_row, &x);
        return TA_OK;
    }
#endif
    ta_broadcast_rows(p->rank, p->dims, p->stride1, p->stride2, input1, input2, sizeof(int8_t),
                      output, sizeof(bool), portable_row, &x);
    return TA_OK;
}
