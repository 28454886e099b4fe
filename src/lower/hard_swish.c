/*
 * hard_swish.c - HARD_SWISH, int8. Produces the two 16-bit multipliers of
 * TFLite's HardSwishPrepare (see runtime/kernels/ta_hard_swish.h).
 */
#include "../../runtime/kernels/ta_hard_swish.h"
#include "common/unary.h"
#include "common/unary_f32.h"
#include "lower.h"

/* A Q0.31 multiplier rounded to Q0.15, saturating (TFLite's
   DownScaleInt32ToInt16Multiplier). */
static int32_t to_q15(int32_t m)
{
    if (m >= INT32_MAX - (1 << 15))
        return INT16_MAX;
    return (m + (1 << 15)) >> 16;
}

static bool lower(TaLower *L, TaOp *op)
{
    if (ta_unary_is_f32(op))
        return ta_lower_unary_f32(L, op, "ta_hard_swish_f32", 0.0f);
    if (!ta_unary_expect(L, op, false))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    const int32_t in_zp = ta_zero_point(in), out_zp = ta_zero_point(out);
    if (in_zp < INT8_MIN || in_zp > INT8_MAX || out_zp < INT8_MIN || out_zp > INT8_MAX) {
        ta_op_error(L, op, "zero points must lie in the int8 range");
        return false;
    }
    /* The high-resolution scale is a float product; the two ratios are
       divisions in double. The source checkout divides in float; the oracle
       (tflite-micro from PyPI) in double, which changes some outputs. */
    const float hires_input_scale = (1.0f / 128.0f) * ta_scale(in);
    const float reluish_scale = 3.0f / 32768.0f;
    int32_t out_m, reluish_m;
    int out_exp, reluish_exp;
    ta_quantize_multiplier((double)hires_input_scale / (double)ta_scale(out), &out_m, &out_exp);
    ta_quantize_multiplier((double)hires_input_scale / (double)reluish_scale, &reluish_m,
                           &reluish_exp);
    if (out_exp > 0) {
        ta_op_error(L, op,
                    "output scale %g is below input scale / 128 (%g): the int8 kernel "
                    "needs an output multiplier below 1",
                    (double)ta_scale(out), (double)hires_input_scale);
        return false;
    }
    if (reluish_exp > 31) {
        ta_op_error(L, op, "input scale %g is too large", (double)ta_scale(in));
        return false;
    }

    TaKernelCall *c = ta_call(L, op, "ta_hard_swish_s8", "runtime/kernels/ta_hard_swish.h");
    ta_hard_swish_params_t *p = TA_CALL_PARAMS(L, c, ta_hard_swish_params_t);
    p->size = (int64_t)ta_tensor_elements(out);
    p->input_zero_point = in_zp;
    p->output_zero_point = out_zp;
    p->reluish_multiplier = to_q15(reluish_m);
    p->reluish_exponent = reluish_exp;
    p->output_multiplier = to_q15(out_m);
    p->output_exponent = out_exp;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

const TaOpDef ta_op_hard_swish = {NULL, lower};
