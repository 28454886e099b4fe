/*
 * relu6.c - RELU6 on int8 and int16. TFLite Micro clamps to [q(0), q(6)]
 * in the input's quantization and never rescales, so the output must share
 * the input's scale and zero point (anything else would be silently wrong).
 */
#include "../../runtime/kernels/ta_relu.h"
#include "common/unary.h"
#include "common/unary_f32.h"
#include "lower.h"

#include <math.h>

static bool lower(TaLower *L, TaOp *op)
{
    if (ta_unary_is_f32(op))
        return ta_lower_unary_f32(L, op, "ta_relu6_f32", 0.0f);
    if (!ta_unary_expect(L, op, true))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (ta_scale(in) != ta_scale(out) || ta_zero_point(in) != ta_zero_point(out)) {
        ta_op_error(L, op,
                    "output quantization (%g, %d) differs from the input's (%g, %d); "
                    "RELU6 does not rescale",
                    (double)ta_scale(out), (int)ta_zero_point(out), (double)ta_scale(in),
                    (int)ta_zero_point(in));
        return false;
    }
    /* roundf(6 / scale) in float plus the zero point, saturated to the
       type, as TFLite's FloatToQuantizedType. */
    const float q6 = roundf(6.0f / ta_scale(in));
    if (!(q6 < 2147483520.0f)) {
        ta_op_error(L, op, "6.0 is not representable with input scale %g", (double)ta_scale(in));
        return false;
    }
    int64_t six = (int64_t)q6 + ta_zero_point(in);
    const bool wide = in->dtype == TA_INT16;
    const int64_t type_min = wide ? INT16_MIN : INT8_MIN, type_max = wide ? INT16_MAX : INT8_MAX;
    six = six > type_max ? type_max : (six < type_min ? type_min : six);

    TaKernelCall *c = ta_call(L, op, wide ? "ta_relu6_s16" : "ta_relu6_s8",
                              "runtime/kernels/ta_relu.h");
    ta_relu6_params_t *p = TA_CALL_PARAMS(L, c, ta_relu6_params_t);
    p->size = (int64_t)ta_tensor_elements(out);
    p->lower = ta_zero_point(in);
    p->upper = six;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

const TaOpDef ta_op_relu6 = {NULL, lower};
