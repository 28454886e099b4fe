/*
 * prune_identity_ops.c - PRUNE_IDENTITY_OPS: RESHAPE, SQUEEZE and
 * EXPAND_DIMS change a tensor's shape, not its bytes, so the operator can
 * leave the schedule: its output becomes an alias of its input (the same
 * bytes under the output's shape) and nothing runs for it.
 *
 * Lowering already aliases these operators when it can; what this pass
 * adds is that they leave the operator list, the callback table and the
 * views. Off by default so the layer indices keep following the model's
 * operators. Left alone: state (a variable's bytes change on assignment,
 * so an alias would change behind its readers), an output that is state
 * or a constant, and an input of another type or size.
 */
#include "transforms.h"

#include "../lower/ops.h"

static bool is_identity(const TaOp *op)
{
    return op->builtin == TA_BUILTIN_RESHAPE || op->builtin == TA_BUILTIN_SQUEEZE ||
           op->builtin == TA_BUILTIN_EXPAND_DIMS;
}

bool ta_pass_prune_identity_ops(TaPassCtx *ctx)
{
    TaGraph *g = ctx->graph;
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        if (op->removed || !is_identity(op) || op->num_inputs < 1 || op->num_outputs != 1 ||
            !op->inputs[0])
            continue;
        TaTensor *in = op->inputs[0], *out = op->outputs[0];
        if (in->dtype != out->dtype || ta_tensor_bytes(in) != ta_tensor_bytes(out) ||
            !ta_dtype_size(in->dtype) || in->is_variable || out->is_variable || out->data ||
            in->role == TA_REGION_PERSISTENT || out->role != TA_REGION_SCRATCH || out->alias_of ||
            in == out)
            continue;
        out->alias_of = in;
        op->removed = true;
    }
    return true;
}
