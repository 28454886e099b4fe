/*
 * softmax.c - SOFTMAX over the last dimension; int8 input, int8 or int16
 * output with TFLite's fixed output quantization, whose table of exps of
 * the 256 possible input differences is built here; int16 input and output
 * (zero points 0, output scale 1/32768), whose exp and 1/(1 + x) tables
 * are built here too; float32 in and out with beta, TFLite's float loop.
 */
#include "../../runtime/kernels/ta_softmax.h"
#include "../../runtime/kernels/ta_softmax_f32.h"
#include "lower.h"

#include <math.h>

/* The int8 kernel's exp table is computed with the runtime's own
   fixed-point functions, so that it holds exactly the values the
   reference computes per element. */
#include "../../runtime/include/ta_fixedpoint.h"

typedef struct SoftmaxAttrs {
    float beta;
} SoftmaxAttrs;

static bool parse(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    SoftmaxAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->beta = ta_fb_f32(t, 0, 0.0f);
    op->attrs = a;
    return !r.failed;
}

static float exp_f(float x)
{
    return expf(x);
}

static float one_over_one_plus_x_f(float x)
{
    return 1.0f / (1.0f + x);
}

/*
 * TFLite's LUTPopulate<int16_t>: 513 samples of f over the input range,
 * each biased by half the error the interpolation makes at the midpoint of
 * its segment. All in float with TFLite's order of operations (one
 * operation per statement, so that no compiler fuses a multiply-add).
 */
static void lut_populate_s16(float input_scale, int32_t input_zero_point, float output_scale,
                             int32_t output_zero_point, float (*f)(float), int16_t *lut)
{
    const float input_min = input_scale * (float)(INT16_MIN - input_zero_point);
    const float input_max = input_scale * (float)(INT16_MAX - input_zero_point);
    const float output_min = output_scale * (float)(INT16_MIN - output_zero_point);
    const float output_max = output_scale * (float)(INT16_MAX - output_zero_point);
    const int steps = 512;
    const float step = (input_max - input_min) / (float)steps;
    const float half_step = step / 2.0f;
    const float output_range = output_max - output_min;
    const float inv = 65536.0f / output_range;
    for (int i = 0; i < steps; i++) {
        const float i_step = (float)i * step;
        const float x = input_min + i_step;
        const float x_mid = x + half_step;
        const float next_step = (float)(i + 1) * step;
        const float x_next = input_min + next_step;
        const float val = f(x), val_mid = f(x_mid), val_next = f(x_next);
        const float val_scaled = val * inv;
        const float sample = roundf(val_scaled);
        const float next_scaled = val_next * inv;
        const float interp_sum = next_scaled + sample;
        const float interp_mid = roundf(interp_sum / 2.0f);
        const float mid_scaled = val_mid * inv;
        const float exact_mid = roundf(mid_scaled);
        const float mid_err = interp_mid - exact_mid;
        const float bias = roundf(mid_err / 2.0f);
        float v = sample - bias;
        v = v < (float)INT16_MIN ? (float)INT16_MIN : v;
        v = v > (float)INT16_MAX ? (float)INT16_MAX : v;
        lut[i] = (int16_t)v;
    }
    const float last_scaled = f(input_max) * inv;
    float v = roundf(last_scaled);
    v = v < (float)INT16_MIN ? (float)INT16_MIN : v;
    v = v > (float)INT16_MAX ? (float)INT16_MAX : v;
    lut[steps] = (int16_t)v;
}

static bool lower_s16(TaLower *L, TaOp *op, const SoftmaxAttrs *a, TaTensor *in, TaTensor *out)
{
    if (!ta_expect_dtype(L, op, out, "output", TA_INT16, -1))
        return false;
    if (ta_zero_point(in) != 0 || ta_zero_point(out) != 0 ||
        fabsf(ta_scale(out) - 1.0f / 32768) > 0.001f * (1.0f / 32768)) {
        ta_op_error(L, op,
                    "int16 input needs zero point 0 and an output with scale 1/32768 and "
                    "zero point 0");
        return false;
    }
    const int32_t depth = in->dims[in->rank - 1];
    /* The sum of up to depth exps of at most 32767 must fit in int32. */
    if (depth < 1 || depth > 65536) {
        ta_op_error(L, op, "softmax depth %d is outside 1 .. 65536", (int)depth);
        return false;
    }
    /* Input differences are scaled so that [-65535, 0] covers [-10, 0]. */
    const double real = (double)ta_scale(in) * (double)a->beta / (10.0 / 65535.0);
    if (!(real > 0.0)) {
        ta_op_error(L, op, "beta %g must be positive", (double)a->beta);
        return false;
    }
    int32_t multiplier;
    int shift;
    if (!ta_requant(L, op, "input difference", real, TA_SHIFT_MAX_INT32, &multiplier, &shift))
        return false;

    /* exp over [-10, 0] and 1 / (1 + x) over [0, 1], both to Q0.15 on
       the symmetric int16 range (TFLite's InitializeLutForInt16). */
    const float range = (float)(INT16_MAX - INT16_MIN);
    int16_t exp_lut[513], recip_lut[513];
    lut_populate_s16(10.0f / range, INT16_MAX, 2.0f / range, 0, exp_f, exp_lut);
    lut_populate_s16(1.0f / range, INT16_MIN, 2.0f / range, 0, one_over_one_plus_x_f, recip_lut);

    TaKernelCall *c = ta_call(L, op, "ta_softmax_s16", "runtime/kernels/ta_softmax.h");
    ta_softmax_params_t *p = TA_CALL_PARAMS(L, c, ta_softmax_params_t);
    p->outer_size = (int64_t)(ta_tensor_elements(in) / (size_t)depth);
    p->depth = depth;
    p->input_multiplier = multiplier;
    p->input_left_shift = shift;
    p->diff_min = 0;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, ta_local_constant(L, op, "exp_lut", TA_INT16, 513, exp_lut));
    ta_call_arg(L, c,
                ta_local_constant(L, op, "one_over_one_plus_x_lut", TA_INT16, 513, recip_lut));
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

/* float32: TFLite's float reference with beta (ta_softmax_f32.h). */
static bool lower_f32(TaLower *L, TaOp *op, const SoftmaxAttrs *a, TaTensor *in, TaTensor *out)
{
    if (!ta_expect_dtype(L, op, out, "output", TA_FLOAT32, -1))
        return false;
    bool same = in->rank == out->rank && in->rank >= 1;
    for (int d = 0; same && d < in->rank; d++)
        same = in->dims[d] == out->dims[d];
    if (!same) {
        ta_op_error(L, op, "input %s and output %s shapes differ", ta_shape_text(L->pool, in),
                    ta_shape_text(L->pool, out));
        return false;
    }
    const int32_t depth = in->dims[in->rank - 1];
    TaKernelCall *c = ta_call(L, op, "ta_softmax_f32", "runtime/kernels/ta_softmax_f32.h");
    ta_softmax_f32_params_t *p = TA_CALL_PARAMS(L, c, ta_softmax_f32_params_t);
    p->outer_size = depth ? (int64_t)(ta_tensor_elements(in) / (size_t)depth) : 0;
    p->depth = depth;
    p->beta = a->beta;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

static bool lower(TaLower *L, TaOp *op)
{
    const SoftmaxAttrs *a = op->attrs;
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (in->dtype == TA_FLOAT32)
        return lower_f32(L, op, a, in, out);
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_INT16, -1) ||
        !ta_expect_per_tensor(L, op, in, "input") || !ta_expect_per_tensor(L, op, out, "output"))
        return false;
    if (in->rank < 1 || ta_tensor_elements(in) != ta_tensor_elements(out)) {
        ta_op_error(L, op, "input and output shapes differ");
        return false;
    }
    if (in->dtype == TA_INT16)
        return lower_s16(L, op, a, in, out);
    if (!ta_expect_dtype(L, op, out, "output", TA_INT8, TA_INT16, -1))
        return false;
    const bool out16 = out->dtype == TA_INT16;
    const float want_scale = out16 ? 1.0f / 65536 : 1.0f / 256;
    const int32_t want_zp = out16 ? -32768 : -128;
    if (ta_zero_point(out) != want_zp ||
        (out16 ? fabsf(ta_scale(out) - want_scale) > 0.001f * want_scale
               : ta_scale(out) != want_scale)) {
        ta_op_error(L, op, "output must be quantized with scale 1/%d and zero point %d",
                    out16 ? 65536 : 256, (int)want_zp);
        return false;
    }
    /* Input differences are scaled into Q5.26 (5 integer bits). */
    const int bits = 5;
    double real = (double)a->beta * (double)ta_scale(in) * (double)(1 << (31 - bits));
    if (real > (double)((1LL << 31) - 1))
        real = (double)((1LL << 31) - 1);
    if (!(real > 1.0)) {
        ta_op_error(L, op, "beta * input scale %g is too small for the integer softmax",
                    (double)a->beta * (double)ta_scale(in));
        return false;
    }
    int32_t multiplier;
    int left_shift;
    ta_quantize_multiplier(real, &multiplier, &left_shift);
    /* The largest input difference that still contributes, as TFLite's
       CalculateInputRadius. */
    const double radius = 1.0 * ((1 << bits) - 1) * (double)(1LL << (31 - bits)) /
                          (double)(1LL << left_shift);
    const int32_t diff_min = -(int32_t)floor(radius);

    /* exp of every possible difference 0, -1, .., -255, in Q0.31; those
       below diff_min contribute nothing. */
    int32_t exp_table[256];
    for (int k = 0; k < 256; k++) {
        const int32_t scaled = ta_mul_by_quantized_multiplier_gt_one(-k, multiplier, left_shift);
        exp_table[k] = -k < diff_min ? 0 : ta_fp_exp_on_negative_values(scaled, bits);
    }

    const int32_t depth = in->dims[in->rank - 1];
    TaKernelCall *c = ta_call(L, op, out16 ? "ta_softmax_s8_s16" : "ta_softmax_s8",
                              "runtime/kernels/ta_softmax.h");
    ta_softmax_params_t *p = TA_CALL_PARAMS(L, c, ta_softmax_params_t);
    p->outer_size = depth ? (int64_t)(ta_tensor_elements(in) / (size_t)depth) : 0;
    p->depth = depth;
    p->input_multiplier = multiplier;
    p->input_left_shift = left_shift;
    p->diff_min = diff_min;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, ta_local_constant(L, op, "exp_table", TA_INT32, 256, exp_table));
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

const TaOpDef ta_op_softmax = {parse, lower};
