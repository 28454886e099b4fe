/*
 * leaky_relu.c - LEAKY_RELU on int8 and int16 (any zero points, as TFLite
 * Micro accepts them), alpha from LeakyReluOptions.
 */
#include "../../runtime/kernels/ta_leaky_relu.h"
#include "common/unary.h"
#include "common/unary_f32.h"
#include "lower.h"

#include <math.h>

typedef struct LeakyReluAttrs {
    float alpha;
} LeakyReluAttrs;

static bool parse(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    LeakyReluAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->alpha = ta_fb_f32(t, 0, 0.0f);
    op->attrs = a;
    return !r.failed;
}

static bool lower(TaLower *L, TaOp *op)
{
    const LeakyReluAttrs *a = op->attrs;
    if (ta_unary_is_f32(op))
        return ta_lower_unary_f32(L, op, "ta_leaky_relu_f32", a->alpha);
    if (!ta_unary_expect(L, op, true))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!isfinite(a->alpha)) {
        ta_op_error(L, op, "alpha %g is not finite", (double)a->alpha);
        return false;
    }
    /* In double: the oracle (tflite-micro from PyPI) widens the scales and
       alpha before multiplying and dividing; the source checkout computes
       in float, which changes outputs (checked on every int16 input over
       random scales and alphas, negative ones included). */
    const double in_scale = ta_scale(in), out_scale = ta_scale(out);
    int32_t m_alpha, m_identity;
    int s_alpha, s_identity;
    if (!ta_requant(L, op, "alpha", in_scale * (double)a->alpha / out_scale, TA_SHIFT_MAX_INT32,
                    &m_alpha, &s_alpha) ||
        !ta_requant(L, op, "input-to-output", in_scale / out_scale, TA_SHIFT_MAX_INT32, &m_identity,
                    &s_identity))
        return false;
    if (m_alpha == INT32_MIN) {
        ta_op_error(L, op,
                    "alpha %g gives a multiplier of -1 * 2^%d, which the kernel cannot negate",
                    (double)a->alpha, s_alpha);
        return false;
    }

    TaKernelCall *c = ta_call(L, op,
                              in->dtype == TA_INT16 ? "ta_leaky_relu_s16" : "ta_leaky_relu_s8",
                              "runtime/kernels/ta_leaky_relu.h");
    ta_leaky_relu_params_t *p = TA_CALL_PARAMS(L, c, ta_leaky_relu_params_t);
    p->size = (int64_t)ta_tensor_elements(out);
    p->input_zero_point = ta_zero_point(in);
    p->output_zero_point = ta_zero_point(out);
    p->multiplier_identity = m_identity;
    p->shift_identity = s_identity;
    p->multiplier_alpha = m_alpha;
    p->shift_alpha = s_alpha;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

const TaOpDef ta_op_leaky_relu = {parse, lower};
