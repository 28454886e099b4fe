/*
 * logical.c - LOGICAL_AND, LOGICAL_OR (broadcasting) and LOGICAL_NOT on
 * bool tensors, the only dtype TFLite Micro's logical kernels take.
 */
#include "../../runtime/kernels/ta_logical.h"
#include "common/binary.h"

static bool lower_binary(TaLower *L, TaOp *op, const char *kernel)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *in1 = op->inputs[0], *in2 = op->inputs[1], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in1, "input 1", TA_BOOL, -1) ||
        !ta_expect_dtype(L, op, in2, "input 2", TA_BOOL, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_BOOL, -1))
        return false;
    TaBroadcast bc;
    if (!ta_broadcast_plan(L, op, in1, in2, out, &bc))
        return false;
    TaKernelCall *c = ta_call(L, op, kernel, "runtime/kernels/ta_logical.h");
    ta_logical_params_t *p = TA_CALL_PARAMS(L, c, ta_logical_params_t);
    ta_broadcast_store(&bc, &p->rank, p->dims, p->stride1, p->stride2);
    ta_binary_call_args(L, op, c);
    return true;
}

static bool lower_logical_and(TaLower *L, TaOp *op)
{
    return lower_binary(L, op, "ta_logical_and_b");
}

static bool lower_logical_or(TaLower *L, TaOp *op)
{
    return lower_binary(L, op, "ta_logical_or_b");
}

static bool lower_logical_not(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_BOOL, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_BOOL, -1))
        return false;
    if (ta_tensor_elements(in) != ta_tensor_elements(out)) {
        ta_op_error(L, op, "input and output sizes differ");
        return false;
    }
    TaKernelCall *c = ta_call(L, op, "ta_logical_not_b", "runtime/kernels/ta_logical.h");
    ta_logical_not_params_t *p = TA_CALL_PARAMS(L, c, ta_logical_not_params_t);
    p->size = (int32_t)ta_tensor_elements(out);
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

const TaOpDef ta_op_logical_and = {NULL, lower_logical_and};
const TaOpDef ta_op_logical_or = {NULL, lower_logical_or};
const TaOpDef ta_op_logical_not = {NULL, lower_logical_not};
