/* dequantize.c - DEQUANTIZE: int8/int16 -> float32. */
#include "../../runtime/kernels/ta_dequantize.h"
#include "lower.h"

static bool lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_INT16, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_FLOAT32, -1) ||
        !ta_expect_per_tensor(L, op, in, "input"))
        return false;
    if (ta_tensor_elements(in) != ta_tensor_elements(out)) {
        ta_op_error(L, op, "input and output sizes differ");
        return false;
    }
    TaKernelCall *c = ta_call(
        L, op, in->dtype == TA_INT8 ? "ta_dequantize_s8_f32" : "ta_dequantize_s16_f32",
        "runtime/kernels/ta_dequantize.h");
    ta_dequantize_params_t *p = TA_CALL_PARAMS(L, c, ta_dequantize_params_t);
    p->size = (int64_t)ta_tensor_elements(in);
    p->zero_point = ta_zero_point(in);
    p->scale = (double)ta_scale(in);
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    return true;
}

const TaOpDef ta_op_dequantize = {NULL, lower};
