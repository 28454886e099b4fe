/*
 * schedule_constant_dequantize.c - SCHEDULE_CONSTANT_DEQUANTIZE: a
 * DEQUANTIZE of a constant runs just before the first operator that reads
 * its output instead of where the model put it (often all of them up
 * front, so every widened copy is live at once). Each copy is then live
 * from its first reader on only, and the planner can reuse the bytes
 * before it. The same operators run with the same inputs; only the order
 * changes, so outputs are identical.
 *
 * Left in place: a DEQUANTIZE whose output is a model output or that
 * nothing reads, and one whose first reader is itself being moved. Several
 * moved before the same reader keep their order; every other operator
 * keeps its order too.
 */
#include "transforms.h"

#include "passes.h"

#include "../lower/ops.h"

static bool reads(const TaOp *op, const TaTensor *t)
{
    for (int k = 0; k < op->num_inputs; k++)
        if (op->inputs[k] == t)
            return true;
    return false;
}

static bool is_output(const TaGraph *g, const TaTensor *t)
{
    for (int i = 0; i < g->outputs.len; i++)
        if (g->outputs.items[i] == t)
            return true;
    return false;
}

static bool movable(const TaGraph *g, const TaOp *op)
{
    if (op->removed || op->builtin != TA_BUILTIN_DEQUANTIZE || op->num_inputs < 1 ||
        op->num_outputs != 1)
        return false;
    for (int k = 0; k < op->num_inputs; k++)
        if (!op->inputs[k] || !op->inputs[k]->data)
            return false;
    return !is_output(g, op->outputs[0]);
}

bool ta_pass_schedule_constant_dequantize(TaPassCtx *ctx)
{
    TaGraph *g = ctx->graph;
    /* A first reader inside an IF branch is not the first on every path. */
    if (ta_graph_has_control_flow(g))
        return true;
    const int n = g->ops.len;
    /* before[i]: the layer a moved DEQUANTIZE i goes in front of, or -1. */
    int *before = ta_alloc_array(ctx->pool, (size_t)n + 1, sizeof(int));
    bool *candidate = ta_alloc_array(ctx->pool, (size_t)n + 1, sizeof(bool));
    for (int i = 0; i < n; i++)
        candidate[i] = movable(g, TA_OP(g, i));
    bool any = false;
    for (int i = 0; i < n; i++) {
        before[i] = -1;
        if (!candidate[i])
            continue;
        const TaTensor *value = TA_OP(g, i)->outputs[0];
        int reader = -1;
        for (int k = i + 1; k < n && reader < 0; k++)
            if (!TA_OP(g, k)->removed && reads(TA_OP(g, k), value))
                reader = k;
        if (reader > i + 1 && !candidate[reader]) {
            before[i] = reader;
            any = true;
        }
    }
    if (!any)
        return true;
    void **order = ta_alloc_array(ctx->pool, (size_t)n + 1, sizeof(void *));
    int m = 0;
    for (int k = 0; k < n; k++) {
        if (before[k] >= 0)
            continue;
        for (int i = 0; i < k; i++)
            if (before[i] == k)
                order[m++] = TA_OP(g, i);
        order[m++] = TA_OP(g, k);
    }
    TA_ASSERT(m == n);
    for (int k = 0; k < n; k++) {
        g->ops.items[k] = order[k];
        TA_OP(g, k)->index = k;
    }
    return true;
}
