/* ta_add_sub.c - ADD and SUB kernels; see the header.
 *
 * The broadcast walk (ta_broadcast_rows.h) hands each kernel rows in
 * which an input either steps by one element or stays on a single
 * (broadcast) element; a broadcast element is rescaled once per row.
 * Same-shaped inputs make one row. int8 rows have a Helium path (four lanes of int32, the reference's
 * arithmetic lane by lane) and a DSP path (SMMULR-based, scalar); both give
 * the portable path's bytes. Each output element is written after its
 * inputs are read, so the output may share a non-broadcast input's bytes.
 */
#include "ta_add_sub.h"

#include <stdbool.h>

#include "../include/ta_element.h"
#include "../include/ta_elementwise_simd.h"
#include "../include/ta_fixedpoint.h"
#include "../include/ta_status.h"

#include "ta_binary_rescale.h"
#include "ta_broadcast_rows.h"

/* All three multipliers are below 1 (the converter checks it);
   |q + offset| < 2^16 and left_shift is 15 (int16) or 20 (int8). */
static inline int32_t rescale1(const ta_add_params_t *p, int32_t q)
{
    return ta_binary_rescale(q, p->input1_offset, p->left_shift, p->input1_multiplier,
                             p->input1_shift);
}

static inline int32_t rescale2(const ta_add_params_t *p, int32_t q)
{
    return ta_binary_rescale(q, p->input2_offset, p->left_shift, p->input2_multiplier,
                             p->input2_shift);
}

/* TFLite's sums of two rescaled inputs fit in int32 for every valid
   quantization; wrapping keeps the kernel defined for any other. */
static inline int32_t combine(int32_t x, int32_t y, bool sub)
{
    return sub ? ta_fp_sub(x, y) : ta_fp_add(x, y);
}

static inline int32_t finish(const ta_add_params_t *p, int32_t raw)
{
    const int32_t out = ta_mul_by_quantized_multiplier_lt_one(raw, p->output_multiplier,
                                                              (int)p->output_shift);
    return ta_clamp_i32(out + p->output_offset, p->activation_min, p->activation_max);
}

/* The reference arithmetic of two stepping inputs, one element at a time. */
TA_ALWAYS_INLINE void portable_both(const ta_add_params_t *restrict p, const void *a, const void *b,
                                    void *o, int32_t n, bool sub, bool wide)
{
    for (int32_t i = 0; i < n; i++)
        ta_store_element(o, i,
                         finish(p, combine(rescale1(p, ta_load_element(a, i, wide)),
                                           rescale2(p, ta_load_element(b, i, wide)), sub)),
                         wide);
}

/* The reference arithmetic, one element at a time. `restrict`: the params
   are never written, so they need not be reloaded after every store. */
TA_EW_NOINLINE void row_portable(const ta_add_params_t *restrict p, const void *a, const void *b,
                                 void *o, int32_t n, int kind, bool sub, bool wide)
{
    if (kind == TA_ROW_BOTH_STEP) {
        portable_both(p, a, b, o, n, sub, wide);
    } else if (kind == TA_ROW_SECOND_FIXED) {
        const int32_t y = rescale2(p, ta_load_element(b, 0, wide));
        for (int32_t i = 0; i < n; i++)
            ta_store_element(
                o, i, finish(p, combine(rescale1(p, ta_load_element(a, i, wide)), y, sub)), wide);
    } else {
        const int32_t x = rescale1(p, ta_load_element(a, 0, wide));
        for (int32_t i = 0; i < n; i++)
            ta_store_element(
                o, i, finish(p, combine(x, rescale2(p, ta_load_element(b, i, wide)), sub)), wide);
    }
}

#if defined(TA_EW_MVE)
/* The params as the Helium rows use them. */
typedef struct {
    ta_binary_rescale_mve_t in;
    ta_ew_scale_t out;
    int32_t output_offset, lo, hi;
    bool offset_in_multiply; /* the rounding rows' condition (output_offset_scaled) */
    int32_t offset_scaled;   /* output_offset * 2^exponent */
} simd_consts_t;

static int64_t magnitude(int64_t x)
{
    return x < 0 ? -x : x;
}

/* finish_rounding_mve adds the output offset in the output's multiply, as
   offset * 2^exponent: exact when that plus the largest sum of two
   rescaled int8 inputs (each at most |q + offset| << left_shift: the
   multipliers and shifts only make it smaller) stays inside int32, the
   exponent is >= 1 and the multiplier not negative. */
static bool output_offset_scaled(const ta_add_params_t *p, simd_consts_t *c)
{
    const int32_t e = c->out.exponent;
    if (e < 1 || p->output_multiplier < 0)
        return false;
    const int64_t sum = (magnitude(p->input1_offset) + magnitude(p->input2_offset) + 256)
                        << p->left_shift;
    const int64_t offset = (int64_t)p->output_offset * ((int64_t)1 << e);
    c->offset_scaled = (int32_t)offset;
    return sum + magnitude(offset) < INT32_MAX;
}

/* Lane by lane the reference, for any int8 params with shifts in
   [-31, 0] (the converter's). */
static bool simd_consts(const ta_add_params_t *p, simd_consts_t *c)
{
    if (p->output_shift > 0 || p->output_shift < -31 ||
        !ta_binary_rescale_mve_init(p->left_shift, p->input1_offset, p->input1_multiplier,
                                    p->input1_shift, p->input2_offset, p->input2_multiplier,
                                    p->input2_shift, &c->in))
        return false;
    c->out = ta_ew_scale(p->output_multiplier, p->output_shift);
    c->output_offset = p->output_offset;
    c->lo = p->activation_min;
    c->hi = p->activation_max;
    c->offset_in_multiply = output_offset_scaled(p, c);
    return true;
}
#elif defined(TA_EW_DSP)
/* One input's rescale as SMMLAR computes it: d = (q + offset) * factor
   is the reference's shifted value doubled (factor 2^(left_shift + 1)),
   or quadrupled for the input whose multiplier is exactly 1/2 with shift
   0 (then exponent 1 and round 1 give the same exact halving). */
typedef struct {
    int32_t factor, offset; /* offset: the input offset times factor */
    int32_t multiplier, round, exponent;
} dsp_input_t;

typedef struct {
    dsp_input_t in1, in2;
    int32_t out_multiplier, out_round, out_exponent;
    int32_t output_offset, lo, hi;
} simd_consts_t;

static bool dsp_input(int32_t left_shift, int32_t offset, int32_t multiplier, int32_t shift,
                      dsp_input_t *s)
{
    const bool halving = multiplier == (int32_t)1 << 30 && shift == 0;
    /* int8 offsets are minus a zero point in [-128, 127]. */
    if (offset < -127 || offset > 128 || multiplier < (int32_t)1 << 30 ||
        (shift == 0 && !halving) || shift > 0 || shift < -31)
        return false;
    s->factor = (int32_t)1 << (left_shift + (halving ? 2 : 1));
    s->offset = offset * s->factor;
    s->multiplier = multiplier;
    s->exponent = halving ? 1 : -shift;
    s->round = (int32_t)1 << (s->exponent - 1);
    return true;
}

/* Exact for int8 with left_shift in [1, 20] (the reference uses 20),
   multipliers in [2^30, 2^31), input exponents >= 1 or the exact halving,
   and an output exponent >= 1; other params take the portable rows. */
static bool simd_consts(const ta_add_params_t *p, simd_consts_t *c)
{
    if (p->left_shift < 1 || p->left_shift > 20 || p->output_shift > -1 || p->output_shift < -31 ||
        p->output_multiplier < (int32_t)1 << 30 ||
        !dsp_input(p->left_shift, p->input1_offset, p->input1_multiplier, p->input1_shift,
                   &c->in1) ||
        !dsp_input(p->left_shift, p->input2_offset, p->input2_multiplier, p->input2_shift, &c->in2))
        return false;
    c->out_multiplier = p->output_multiplier;
    c->out_exponent = -p->output_shift;
    c->out_round = (int32_t)1 << (c->out_exponent - 1);
    c->output_offset = p->output_offset;
    c->lo = p->activation_min;
    c->hi = p->activation_max;
    return true;
}
#endif

#if defined(TA_EW_MVE)
TA_ALWAYS_INLINE int32x4_t mve_finish(int32x4_t raw, const simd_consts_t *c, int32x4_t lo,
                                      int32x4_t hi)
{
    int32x4_t v = ta_ew_divide_by_pot_mve(vqrdmulhq_n_s32(raw, c->out.multiplier), c->out.fix_shift,
                                          -c->out.exponent);
    v = vaddq_n_s32(v, c->output_offset);
    return vminq_s32(vmaxq_s32(v, lo), hi);
}

/* Four outputs from four lanes of each input (fixed: the broadcast one). */
TA_ALWAYS_INLINE int32x4_t mve_lanes(const simd_consts_t *c, int32x4_t qa, int32x4_t qb,
                                     int32x4_t fixed, int32x4_t shift_mul, int32x4_t lo,
                                     int32x4_t hi, int kind, bool sub)
{
    int32x4_t x, y;
    ta_binary_rescale_lanes_mve(&c->in, qa, qb, fixed, shift_mul, kind, &x, &y);
    return mve_finish(sub ? vsubq_s32(x, y) : vaddq_s32(x, y), c, lo, hi);
}

/* One input's rescale; `shifts` false when its exponent is 0 (the input
   of the larger scale: multiplier 1/2, no shift). */
TA_ALWAYS_INLINE int32x4_t rescale_rounding_mve(int32x4_t q, int32x4_t shift_mul, int32_t offset,
                                                const ta_ew_scale_t *s, bool shifts)
{
    const int32x4_t x = vqrdmulhq_n_s32(vmlasq_n_s32(q, shift_mul, offset), s->multiplier);
    return shifts ? ta_ew_divide_rounding_mve(x, -s->exponent) : x;
}

/* x + y or x - y of four lanes of each input (shifts1/shifts2: whether
   each input's exponent is >= 1, else 0). An ADD input without a shift
   goes into VQRDMLAH: adding an integer before its rounding is adding it
   after, and the sum of two rescaled int8 values cannot saturate, so this
   is exactly the VQRDMULH and the VADD it replaces. */
TA_ALWAYS_INLINE int32x4_t combined_mve(const simd_consts_t *restrict c, int32x4_t qa, int32x4_t qb,
                                        int32x4_t shift_mul, bool sub, bool shifts1, bool shifts2)
{
    const ta_binary_rescale_mve_t *in = &c->in;
    if (!sub && !shifts2)
        return vqrdmlahq_n_s32(rescale_rounding_mve(qa, shift_mul, in->offset1, &in->in1, shifts1),
                               vmlasq_n_s32(qb, shift_mul, in->offset2), in->in2.multiplier);
    if (!sub && !shifts1)
        return vqrdmlahq_n_s32(rescale_rounding_mve(qb, shift_mul, in->offset2, &in->in2, shifts2),
                               vmlasq_n_s32(qa, shift_mul, in->offset1), in->in1.multiplier);
    const int32x4_t x = rescale_rounding_mve(qa, shift_mul, in->offset1, &in->in1, shifts1);
    const int32x4_t y = rescale_rounding_mve(qb, shift_mul, in->offset2, &in->in2, shifts2);
    return sub ? vsubq_s32(x, y) : vaddq_s32(x, y);
}

/* rdmulh(raw, multiplier) / 2^exponent rounded half away from zero, plus
   the offset (output_offset_scaled's conditions): VQRDMLASH adds
   offset * 2^exponent to the product, a multiple of 2^32 there, so before
   the multiply's rounding is after it, and the division then adds the
   offset exactly. The division's step down for negative values takes
   raw's sign, the product's with a multiplier >= 0 but for a product
   rounded to 0, where stepping down by 1 changes nothing (exponent >= 1). */
TA_ALWAYS_INLINE int32x4_t finish_rounding_mve(const simd_consts_t *restrict c, int32x4_t raw,
                                               int32x4_t multiplier, int32x4_t lo, int32x4_t hi)
{
    const int32x4_t fix = vreinterpretq_s32_u32(vshrq_n_u32(vreinterpretq_u32_s32(raw), 31));
    const int32x4_t x = vqrdmlashq_n_s32(raw, multiplier, c->offset_scaled);
    return vminq_s32(vmaxq_s32(vrshlq_n_s32(vqsubq_s32(x, fix), -c->out.exponent), lo), hi);
}

/* Two stepping inputs, an output exponent >= 1 and the output offset in
   the multiply (output_offset_scaled: nearly every ADD and SUB): row_simd's
   lanes with immediate sign shifts. */
TA_ALWAYS_INLINE void row_both_rounding(const simd_consts_t *restrict c, const int8_t *a,
                                        const int8_t *b, int8_t *o, int32_t n, bool sub,
                                        bool shifts1, bool shifts2)
{
    const int32x4_t shift_mul = vdupq_n_s32((int32_t)1 << c->in.left_shift);
    const int32x4_t lo = vdupq_n_s32(c->lo), hi = vdupq_n_s32(c->hi);
    const int32x4_t multiplier = vdupq_n_s32(c->out.multiplier);
    for (; n >= 4; n -= 4, a += 4, b += 4, o += 4) {
        const int32x4_t raw = combined_mve(c, vldrbq_s32(a), vldrbq_s32(b), shift_mul, sub, shifts1,
                                           shifts2);
        vstrbq_s32(o, finish_rounding_mve(c, raw, multiplier, lo, hi));
    }
    if (n > 0) {
        const mve_pred16_t live = vctp32q((uint32_t)n);
        const int32x4_t raw = combined_mve(c, vldrbq_z_s32(a, live), vldrbq_z_s32(b, live),
                                           shift_mul, sub, shifts1, shifts2);
        vstrbq_p_s32(o, finish_rounding_mve(c, raw, multiplier, lo, hi), live);
    }
}

TA_ALWAYS_INLINE void row_simd(const ta_add_params_t *restrict p, const simd_consts_t *restrict c,
                               const int8_t *a, const int8_t *b, int8_t *o, int32_t n, int kind,
                               bool sub)
{
    /* The input of the larger scale has the multiplier 1/2 and exponent
       0 (both inputs when the scales are equal), so the converter's
       params are one of these three. */
    if (kind == TA_ROW_BOTH_STEP && c->offset_in_multiply) {
        const bool shifts1 = c->in.in1.exponent > 0, shifts2 = c->in.in2.exponent > 0;
        if (!shifts1 && shifts2) {
            row_both_rounding(c, a, b, o, n, sub, false, true);
            return;
        }
        if (shifts1 && !shifts2) {
            row_both_rounding(c, a, b, o, n, sub, true, false);
            return;
        }
        if (!shifts1 && !shifts2) {
            row_both_rounding(c, a, b, o, n, sub, false, false);
            return;
        }
    }
    const int32x4_t shift_mul = vdupq_n_s32((int32_t)1 << c->in.left_shift);
    const int32x4_t lo = vdupq_n_s32(c->lo), hi = vdupq_n_s32(c->hi);
    int32x4_t fixed = vdupq_n_s32(0);
    if (kind == TA_ROW_FIRST_FIXED)
        fixed = vdupq_n_s32(rescale1(p, a[0]));
    else if (kind == TA_ROW_SECOND_FIXED)
        fixed = vdupq_n_s32(rescale2(p, b[0]));
    const int32x4_t zero = vdupq_n_s32(0);
    for (; n >= 4; n -= 4) {
        const int32x4_t qa = kind == TA_ROW_FIRST_FIXED ? zero : vldrbq_s32(a);
        const int32x4_t qb = kind == TA_ROW_SECOND_FIXED ? zero : vldrbq_s32(b);
        vstrbq_s32(o, mve_lanes(c, qa, qb, fixed, shift_mul, lo, hi, kind, sub));
        a += kind == TA_ROW_FIRST_FIXED ? 0 : 4;
        b += kind == TA_ROW_SECOND_FIXED ? 0 : 4;
        o += 4;
    }
    if (n > 0) {
        const mve_pred16_t tail = vctp32q((uint32_t)n);
        const int32x4_t qa = kind == TA_ROW_FIRST_FIXED ? zero : vldrbq_z_s32(a, tail);
        const int32x4_t qb = kind == TA_ROW_SECOND_FIXED ? zero : vldrbq_z_s32(b, tail);
        vstrbq_p_s32(o, mve_lanes(c, qa, qb, fixed, shift_mul, lo, hi, kind, sub), tail);
    }
}
#elif defined(TA_EW_DSP)
/* |q + offset| <= 255 and factor <= 2^22: d fits. A nonzero d has
   |d| >= 4 and the multiplier is >= 2^30, so the rescaled value has d's
   sign and the reference's step down for negative values (before its
   rounding shift) can go into SMMLAR's accumulator with the rounding. */
TA_ALWAYS_INLINE int32_t dsp_rescale(int32_t q, const dsp_input_t *s)
{
    const int32_t d = s->offset + q * s->factor;
    return ta_ew_smmlar(d, s->multiplier, s->round + (d >> 31)) >> s->exponent;
}

/* The output before its clamp. |raw| < 2^29 (two rescaled int8 inputs),
   so doubling it fits. */
TA_ALWAYS_INLINE int32_t dsp_output(const simd_consts_t *c, int32_t raw)
{
    const int32_t x = ta_ew_smmulr(raw * 2, c->out_multiplier);
    return ((x + (x >> 31) + c->out_round) >> c->out_exponent) + c->output_offset;
}

TA_ALWAYS_INLINE int32_t dsp_finish(const simd_consts_t *c, int32_t raw)
{
    return ta_clamp_i32(dsp_output(c, raw), c->lo, c->hi);
}

/* Two stepping inputs. int8_range: the activation range is all of int8,
   so one saturation is the clamp (two constants fewer in the loop). */
TA_ALWAYS_INLINE void dsp_both_row(const simd_consts_t *restrict c, const int8_t *a,
                                   const int8_t *b, int8_t *o, int32_t n, bool sub, bool int8_range)
{
    const dsp_input_t s1 = c->in1, s2 = c->in2;
    for (int32_t i = 0; i < n; i++) {
        const int32_t x = dsp_rescale(a[i], &s1), y = dsp_rescale(b[i], &s2);
        const int32_t v = dsp_output(c, sub ? x - y : x + y);
        o[i] = (int8_t)(int8_range ? __ssat(v, 8) : ta_clamp_i32(v, c->lo, c->hi));
    }
}

TA_ALWAYS_INLINE void row_simd(const ta_add_params_t *restrict p, const simd_consts_t *restrict c,
                               const int8_t *a, const int8_t *b, int8_t *o, int32_t n, int kind,
                               bool sub)
{
    const dsp_input_t s1 = c->in1, s2 = c->in2;
    if (kind == TA_ROW_BOTH_STEP) {
        dsp_both_row(c, a, b, o, n, sub, false);
    } else if (kind == TA_ROW_SECOND_FIXED) {
        const int32_t y = rescale2(p, b[0]);
        for (int32_t i = 0; i < n; i++) {
            const int32_t x = dsp_rescale(a[i], &s1);
            o[i] = (int8_t)dsp_finish(c, sub ? x - y : x + y);
        }
    } else {
        const int32_t x = rescale1(p, a[0]);
        for (int32_t i = 0; i < n; i++) {
            const int32_t y = dsp_rescale(b[i], &s2);
            o[i] = (int8_t)dsp_finish(c, sub ? x - y : x + y);
        }
    }
}
#endif

/* What every row of one call needs. */
typedef struct {
    const ta_add_params_t *p;
#if defined(TA_EW_MVE) || defined(TA_EW_DSP)
    simd_consts_t c;
#endif
    bool sub, wide;
} row_ctx_t;

TA_ALWAYS_INLINE void portable_row(const void *ctx, const void *a, const void *b, void *o,
                                   int32_t n, int kind)
{
    const row_ctx_t *x = ctx;
    row_portable(x->p, a, b, o, n, kind, x->sub, x->wide);
}

#if defined(TA_EW_MVE) || defined(TA_EW_DSP)
/* One function for ADD and one for SUB, so that `sub` is a constant in
   the SIMD loops. */
TA_ALWAYS_INLINE void simd_add_row(const void *ctx, const void *a, const void *b, void *o,
                                   int32_t n, int kind)
{
    const row_ctx_t *x = ctx;
    row_simd(x->p, &x->c, a, b, o, n, kind, false);
}

TA_ALWAYS_INLINE void simd_sub_row(const void *ctx, const void *a, const void *b, void *o,
                                   int32_t n, int kind)
{
    const row_ctx_t *x = ctx;
    row_simd(x->p, &x->c, a, b, o, n, kind, true);
}
#endif

/* The SIMD rows and the portable ones walk apart: each walk's loops then
   keep their constants in registers as a kernel of one path would. */
TA_ALWAYS_INLINE int run(const ta_add_params_t *restrict p, const void *input1, const void *input2,
                         void *output, bool sub, bool wide)
{
    row_ctx_t x;
    x.p = p;
    x.sub = sub;
    x.wide = wide;
    const size_t size = wide ? sizeof(int16_t) : sizeof(int8_t);
#if defined(TA_EW_MVE) || defined(TA_EW_DSP)
    if (!wide && simd_consts(p, &x.c)) {
        ta_broadcast_rows(p->rank, p->dims, p->stride1, p->stride2, input1, input2, size, output,
                          size, sub ? simd_sub_row : simd_add_row, &x);
        return TA_OK;
    }
#endif
    ta_broadcast_rows(p->rank, p->dims, p->stride1, p->stride2, input1, input2, size, output, size,
                      portable_row, &x);
    return TA_OK;
}

int ta_add_s8(const ta_add_params_t *p, const int8_t *input1, const int8_t *input2, int8_t *output)
{
    return run(p, input1, input2, output, false, false);
}

int ta_add_s16(const ta_add_params_t *p, const int16_t *input1, const int16_t *input2,
               int16_t *output)
{
    return run(p, input1, input2, output, false, true);
}

int ta_sub_s8(const ta_add_params_t *p, const int8_t *input1, const int8_t *input2, int8_t *output)
{
    return run(p, input1, input2, output, true, false);
}

int ta_sub_s16(const ta_add_params_t *p, const int16_t *input1, const int16_t *input2,
               int16_t *output)
{
    return run(p, input1, input2, output, true, true);
}

/* Only the rows of two stepping int8 inputs: a module whose one ADD is a
   fused residual's links neither the broadcast walk nor the other rows. */
void ta_add_same_s8(const ta_add_params_t *p, const int8_t *input1, const int8_t *input2,
                    int8_t *output, int32_t n)
{
#if defined(TA_EW_MVE) || defined(TA_EW_DSP)
    simd_consts_t c;
    if (simd_consts(p, &c)) {
#if defined(TA_EW_MVE)
        row_simd(p, &c, input1, input2, output, n, TA_ROW_BOTH_STEP, false);
#else
        if (c.lo == INT8_MIN && c.hi == INT8_MAX)
            dsp_both_row(&c, input1, input2, output, n, false, true);
        else
            dsp_both_row(&c, input1, input2, output, n, false, false);
#endif
        return;
    }
#endif
    portable_both(p, input1, input2, output, n, false, false);
}
