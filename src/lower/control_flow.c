/*
 * control_flow.c - IF and WHILE after inline_control_flow.c: the operators
 * left in the list are markers and copies (control_flow.h). An IF or WHILE
 * that reaches lowering un-inlined is a bug, not a model error.
 */
#include "control_flow.h"

#include "../../runtime/kernels/ta_copy.h"

/* IF_BEGIN, LOOP_BEGIN (the IF and WHILE operators) and the other markers:
   no kernel runs and no arithmetic is done. */
static bool lower_marker(TaLower *L, TaOp *op)
{
    (void)L;
    TA_ASSERT(op->control != TA_CONTROL_NONE);
    TA_ASSERT((op->control != TA_CONTROL_IF_BEGIN && op->control != TA_CONTROL_LOOP_TEST) ||
              op->control_cond);
    op->lowered.has_macs = true;
    op->lowered.macs = 0;
    op->lowered.has_parameters = true;
    op->lowered.parameters = 0;
    return true;
}

/* A value crossing into or out of a subgraph: TFLite Micro copies bytes. */
static bool lower_copy(TaLower *L, TaOp *op)
{
    TaTensor *from = op->inputs[0], *to = op->outputs[0];
    TA_ASSERT(ta_tensor_bytes(from) == ta_tensor_bytes(to));
    if (!ta_dtype_size(to->dtype)) {
        ta_op_error(L, op, "tensor %s is %s, which tinyaot cannot copy", to->id,
                    ta_dtype_name(to->dtype));
        return false;
    }
    TaKernelCall *c = ta_call(L, op, "ta_copy", "runtime/kernels/ta_copy.h");
    ta_copy_params_t *p = TA_CALL_PARAMS(L, c, ta_copy_params_t);
    p->bytes = (uint32_t)ta_tensor_bytes(to);
    ta_call_arg(L, c, from);
    ta_call_arg(L, c, to);
    op->lowered.has_macs = true;
    op->lowered.macs = 0;
    op->lowered.has_parameters = true;
    op->lowered.parameters = 0;
    return true;
}

const TaOpDef ta_op_control_marker = {NULL, lower_marker};
const TaOpDef ta_op_control_copy = {NULL, lower_copy};
const TaOpDef ta_op_if_block = {NULL, lower_marker};   /* ops.def: IF */
const TaOpDef ta_op_while_loop = {NULL, lower_marker}; /* ops.def: WHILE */
