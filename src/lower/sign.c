/*
 * sign.c - SIGN on float32 or int32 (runtime/kernels/ta_sign.h). TFLite
 * Micro has no SIGN kernel; LiteRT's, the reference here, takes float32,
 * float64 and int32, and tinyaot has no float64 tensors.
 */
#include "../../runtime/kernels/ta_sign.h"
#include "lower.h"

static bool lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_FLOAT32, TA_INT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1))
        return false;
    if (ta_tensor_elements(in) != ta_tensor_elements(out)) {
        ta_op_error(L, op, "input (tensor %s) and output (tensor %s) differ in element count",
                    in->id, out->id);
        return false;
    }
    const char *kernel = in->dtype == TA_FLOAT32 ? "ta_sign_f32" : "ta_sign_i32";
    TaKernelCall *c = ta_call(L, op, kernel, "runtime/kernels/ta_sign.h");
    ta_sign_params_t *p = TA_CALL_PARAMS(L, c, ta_sign_params_t);
    p->size = (int32_t)ta_tensor_elements(out);
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

const TaOpDef ta_op_sign = {NULL, lower};
