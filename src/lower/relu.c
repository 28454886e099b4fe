/*
 * relu.c - RELU on int8 and int16 (float32 through common/unary_f32): requantize to the output scale, then
 * clamp below at the output's zero point.
 */
#include "../../runtime/kernels/ta_relu.h"
#include "common/unary.h"
#include "common/unary_f32.h"
#include "lower.h"

static bool lower(TaLower *L, TaOp *op)
{
    if (ta_unary_is_f32(op))
        return ta_lower_unary_f32(L, op, "ta_relu_f32", 0.0f);
    if (!ta_unary_expect(L, op, true))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    const bool wide = in->dtype == TA_INT16;
    if (wide && (ta_zero_point(in) != 0 || ta_zero_point(out) != 0)) {
        ta_op_error(L, op, "int16 input and output need zero point 0");
        return false;
    }
    /* In double: the oracle (tflite-micro from PyPI) divides the widened
       scales; the source checkout divides in float, which differs in the
       last bit and changes outputs (seen on RELU.int16). */
    int32_t multiplier;
    int shift;
    if (!ta_requant(L, op, "input-to-output", (double)ta_scale(in) / (double)ta_scale(out),
                    TA_SHIFT_MAX_INT32, &multiplier, &shift))
        return false;
    int32_t qmin, qmax;
    ta_dtype_range(in->dtype, &qmin, &qmax);
    /* 0.0 quantizes to the zero point exactly. */
    const int32_t act_min = ta_zero_point(out) > qmin ? ta_zero_point(out) : qmin;

    TaKernelCall *c = ta_call(L, op, wide ? "ta_relu_s16" : "ta_relu_s8",
                              "runtime/kernels/ta_relu.h");
    ta_relu_params_t *p = TA_CALL_PARAMS(L, c, ta_relu_params_t);
    p->size = (int64_t)ta_tensor_elements(out);
    p->input_zero_point = ta_zero_point(in);
    p->output_zero_point = ta_zero_point(out);
    p->multiplier = multiplier;
    p->shift = shift;
    p->activation_min = act_min;
    p->activation_max = qmax;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

const TaOpDef ta_op_relu = {NULL, lower};
