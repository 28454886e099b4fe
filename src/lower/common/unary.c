/* unary.c - operand checks of the unary activations; see unary.h. */
#include "unary.h"

bool ta_unary_expect(TaLower *L, TaOp *op, bool int16_too)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    const TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, int16_too ? TA_INT16 : -1, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1) ||
        !ta_expect_per_tensor(L, op, in, "input") || !ta_expect_per_tensor(L, op, out, "output"))
        return false;
    if (ta_tensor_elements(in) != ta_tensor_elements(out)) {
        ta_op_error(L, op, "input and output sizes differ");
        return false;
    }
    return true;
}
