/*
 * reshape.c - RESHAPE. The output has the input's bytes in the same
 * order, so it aliases the input (no copy, no extra bytes) whenever the
 * planner can let them share storage; otherwise it is a byte copy.
 * The optional shape operand is only used by the model to compute the
 * output shape, which the file already records; it is dropped.
 */
#include "../../runtime/kernels/ta_copy.h"
#include "lower.h"

bool ta_lower_reshape_like(TaLower *L, TaOp *op);

bool ta_lower_reshape_like(TaLower *L, TaOp *op)
{
    if (op->num_inputs < 1 || !op->inputs[0] || op->num_outputs != 1) {
        ta_op_error(L, op, "needs one input and one output");
        return false;
    }
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (in->dtype != out->dtype || ta_tensor_bytes(in) != ta_tensor_bytes(out) ||
        !ta_dtype_size(in->dtype)) {
        ta_op_error(L, op, "input %s %s and output %s %s hold different data",
                    ta_dtype_name(in->dtype), ta_shape_text(L->pool, in), ta_dtype_name(out->dtype),
                    ta_shape_text(L->pool, out));
        return false;
    }
    op->num_inputs = 1; /* the shape operand is not needed at run time */
    /* State must not be aliased: a later write to the variable would
       change this output behind its readers' backs. */
    if (in->role != TA_REGION_PERSISTENT && out->role == TA_REGION_SCRATCH && !out->alias_of) {
        out->alias_of = in;
        return true;
    }
    TaKernelCall *c = ta_call(L, op, "ta_copy", "runtime/kernels/ta_copy.h");
    ta_copy_params_t *p = TA_CALL_PARAMS(L, c, ta_copy_params_t);
    p->bytes = (int64_t)ta_tensor_bytes(in);
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    return true;
}

static bool lower(TaLower *L, TaOp *op)
{
    return ta_lower_reshape_like(L, op);
}

const TaOpDef ta_op_reshape = {NULL, lower};
