/* ta_squared_difference.c - SQUARED_DIFFERENCE kernels; see the header.
 *
 * Rows as in ta_add_sub.c: an input either steps by one element or stays
 * on a broadcast one, rescaled once per row. int8 rows have a Helium path
 * (four int32 lanes, the reference's arithmetic lane by lane) with the
 * portable path's bytes. Each output element is written after its inputs
 * are read, so the output may share a non-broadcast input's bytes.
 */
#include "ta_squared_difference.h"

#include <stdbool.h>

#include "../include/ta_element.h"
#include "../include/ta_elementwise_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include "ta_binary_rescale.h"
#include "ta_broadcast_rows.h"

/* The input multipliers are at most 1/2. */
static inline int32_t rescale1(const ta_squared_difference_params_t *p, int32_t q)
{
    return ta_binary_rescale(q, p->input1_offset, p->left_shift, p->input1_multiplier,
                             p->input1_shift);
}

static inline int32_t rescale2(const ta_squared_difference_params_t *p, int32_t q)
{
    return ta_binary_rescale(q, p->input2_offset, p->left_shift, p->input2_multiplier,
                             p->input2_shift);
}

/* With int8 zero points in range (shift 7) or int16 zero points 0 (shift
   0) and multipliers <= 1/2, |x - y| <= 2^15: the square fits in int32. */
static inline int32_t finish(const ta_squared_difference_params_t *p, int32_t x, int32_t y)
{
    const int32_t d = x - y;
    const int32_t out = ta_mul_by_quantized_multiplier(d * d, p->output_multiplier,
                                                       (int)p->output_shift) +
                        p->output_offset;
    return ta_clamp_i32(out, p->activation_min, p->activation_max);
}

/* The reference arithmetic, one element at a time. `restrict`: the params
   are never written, so they need not be reloaded after every store. */
TA_EW_NOINLINE void row_portable(const ta_squared_difference_params_t *restrict p, const void *a,
                                 const void *b, void *o, int32_t n, int kind, bool wide)
{
    if (kind == TA_ROW_BOTH_STEP) {
        for (int32_t i = 0; i < n; i++)
            ta_store_element(o, i,
                             finish(p, rescale1(p, ta_load_element(a, i, wide)),
                                    rescale2(p, ta_load_element(b, i, wide))),
                             wide);
    } else if (kind == TA_ROW_SECOND_FIXED) {
        const int32_t y = rescale2(p, ta_load_element(b, 0, wide));
        for (int32_t i = 0; i < n; i++)
            ta_store_element(o, i, finish(p, rescale1(p, ta_load_element(a, i, wide)), y), wide);
    } else {
        const int32_t x = rescale1(p, ta_load_element(a, 0, wide));
        for (int32_t i = 0; i < n; i++)
            ta_store_element(o, i, finish(p, x, rescale2(p, ta_load_element(b, i, wide))), wide);
    }
}

#if defined(TA_EW_MVE)
typedef struct {
    ta_binary_rescale_mve_t in;
    ta_ew_scale_t out;
    int32_t out_left; /* the output multiplier's left shift, >= 0 */
    int32_t output_offset, lo, hi;
} simd_consts_t;

static bool simd_consts(const ta_squared_difference_params_t *p, simd_consts_t *c)
{
    if (p->output_shift > 31 || p->output_shift < -31 ||
        !ta_binary_rescale_mve_init(p->left_shift, p->input1_offset, p->input1_multiplier,
                                    p->input1_shift, p->input2_offset, p->input2_multiplier,
                                    p->input2_shift, &c->in))
        return false;
    c->out_left = p->output_shift > 0 ? p->output_shift : 0;
    c->out = ta_ew_scale(p->output_multiplier, p->output_shift > 0 ? 0 : p->output_shift);
    c->output_offset = p->output_offset;
    c->lo = p->activation_min;
    c->hi = p->activation_max;
    return true;
}

TA_ALWAYS_INLINE int32x4_t mve_lanes(const simd_consts_t *c, int32x4_t qa, int32x4_t qb,
                                     int32x4_t fixed, int32x4_t shift_mul, int32x4_t lo,
                                     int32x4_t hi, int kind)
{
    int32x4_t x, y;
    ta_binary_rescale_lanes_mve(&c->in, qa, qb, fixed, shift_mul, kind, &x, &y);
    const int32x4_t d = vsubq_s32(x, y);
    const int32x4_t shifted = vshlq_r_s32(vmulq_s32(d, d),
                                          c->out_left); /* wraps, as the reference */
    int32x4_t v = ta_ew_divide_by_pot_mve(vqrdmulhq_n_s32(shifted, c->out.multiplier),
                                          c->out.fix_shift, -c->out.exponent);
    v = vaddq_n_s32(v, c->output_offset);
    return vminq_s32(vmaxq_s32(v, lo), hi);
}

TA_ALWAYS_INLINE void row_simd(const ta_squared_difference_params_t *restrict p,
                               const simd_consts_t *restrict c, const int8_t *a, const int8_t *b,
                               int8_t *o, int32_t n, int kind)
{
    const int32x4_t shift_mul = vdupq_n_s32((int32_t)1 << c->in.left_shift);
    const int32x4_t lo = vdupq_n_s32(c->lo), hi = vdupq_n_s32(c->hi);
    const int32x4_t zero = vdupq_n_s32(0);
    int32x4_t fixed = zero;
    if (kind == TA_ROW_FIRST_FIXED)
        fixed = vdupq_n_s32(rescale1(p, a[0]));
    else if (kind == TA_ROW_SECOND_FIXED)
        fixed = vdupq_n_s32(rescale2(p, b[0]));
    for (; n >= 4; n -= 4) {
        const int32x4_t qa = kind == TA_ROW_FIRST_FIXED ? zero : vldrbq_s32(a);
        const int32x4_t qb = kind == TA_ROW_SECOND_FIXED ? zero : vldrbq_s32(b);
        vstrbq_s32(o, mve_lanes(c, qa, qb, fixed, shift_mul, lo, hi, kind));
        a += kind == TA_ROW_FIRST_FIXED ? 0 : 4;
        b += kind == TA_ROW_SECOND_FIXED ? 0 : 4;
        o += 4;
    }
    if (n > 0) {
        const mve_pred16_t tail = vctp32q((uint32_t)n);
        const int32x4_t qa = kind == TA_ROW_FIRST_FIXED ? zero : vldrbq_z_s32(a, tail);
        const int32x4_t qb = kind == TA_ROW_SECOND_FIXED ? zero : vldrbq_z_s32(b, tail);
        vstrbq_p_s32(o, mve_lanes(c, qa, qb, fixed, shift_mul, lo, hi, kind), tail);
    }
}
#endif

/* What every row of one call needs. */
typedef struct {
    const ta_squared_difference_params_t *p;
#if defined(TA_EW_MVE)
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

#if defined(TA_EW_MVE)
TA_ALWAYS_INLINE void simd_row(const void *ctx, const void *a, const void *b, void *o, int32_t n,
                               int kind)
{
    const row_ctx_t *x = ctx;
    row_simd(x->p, &x->c, a, b, o, n, kind);
}
#endif

/* The SIMD rows and the portable ones walk apart (see ta_add_sub.c). */
TA_ALWAYS_INLINE int run(const ta_squared_difference_params_t *restrict p, const void *input1,
                         const void *input2, void *output, bool wide)
{
    row_ctx_t x;
    x.p = p;
    x.wide = wide;
    const size_t size = wide ? sizeof(int16_t) : sizeof(int8_t);
#if defined(TA_EW_MVE)
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

int ta_squared_difference_s8(const ta_squared_difference_params_t *p, const int8_t *input1,
                             const int8_t *input2, int8_t *output)
{
    return run(p, input1, input2, output, false);
}

int ta_squared_difference_s16(const ta_squared_difference_params_t *p, const int16_t *input1,
                              const int16_t *input2, int16_t *output)
{
    return run(p, input1, input2, output, true);
}
