/*
 * drop_dead.c - after lowering, a tensor stays in the module only if the
 * generated code touches it: a model input or output, an argument of a
 * kernel call, the storage an alias points at, state, or a non-constant
 * operand of an operator. Constants that lowering folded away (a bias
 * merged into a bias sum, a reshape's shape operand) are dropped, along
 * with any tensor no operator uses.
 */
#include "passes.h"

static void keep(bool *kept, TaTensor *t)
{
    for (; t; t = t->alias_of)
        kept[t->index] = true;
}

bool ta_pass_drop_dead(TaPassCtx *ctx)
{
    TaPool *pool = ctx->pool;
    TaGraph *g = ctx->graph;
    bool *kept = ta_alloc_array(pool, (size_t)g->tensors.len + 1, sizeof(bool));
    for (int i = 0; i < g->inputs.len; i++)
        keep(kept, g->inputs.items[i]);
    for (int i = 0; i < g->outputs.len; i++)
        keep(kept, g->outputs.items[i]);
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        if (op->removed)
            continue;
        for (int c = 0; c < op->lowered.calls.len; c++) {
            TaKernelCall *call = op->lowered.calls.items[c];
            for (int a = 0; a < call->args.len; a++)
                if (call->args.items[a])
                    keep(kept, call->args.items[a]);
        }
        for (int k = 0; k < op->num_inputs; k++)
            if (op->inputs[k] && op->inputs[k]->role != TA_REGION_CONSTANT)
                keep(kept, op->inputs[k]);
        for (int k = 0; k < op->num_outputs; k++)
            keep(kept, op->outputs[k]);
        if (op->control_cond) /* tested by the generated code itself */
            keep(kept, op->control_cond);
    }
    for (int i = 0; i < g->tensors.len; i++) {
        TaTensor *t = TA_TENSOR(g, i);
        if (!kept[i])
            t->removed = true;
    }
    ta_graph_compact(pool, g);
    return true;
}
