/* unary_f32.c - see unary_f32.h. */
#include "unary_f32.h"

#include "../../../runtime/kernels/ta_unary_f32.h"

bool ta_unary_is_f32(const TaOp *op)
{
    return op->num_inputs >= 1 && op->inputs[0] && op->inputs[0]->dtype == TA_FLOAT32;
}

bool ta_lower_unary_f32(TaLower *L, TaOp *op, const char *kernel, float alpha)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_FLOAT32, -1))
        return false;
    if (ta_tensor_elements(in) != ta_tensor_elements(out)) {
        ta_op_error(L, op, "input (tensor %s) and output (tensor %s) differ in element count",
                    in->id, out->id);
        return false;
    }
    TaKernelCall *c = ta_call(L, op, kernel, "runtime/kernels/ta_unary_f32.h");
    ta_unary_f32_params_t *p = TA_CALL_PARAMS(L, c, ta_unary_f32_params_t);
    p->size = (int32_t)ta_tensor_elements(out);
    p->alpha = alpha;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}
