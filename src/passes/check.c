/*
 * check.c - the graph is something a straight-line schedule can run: each
 * tensor is written by at most one operator and never read before it is
 * written (unless it is a model input, a constant or a variable), and the
 * model outputs are produced; a hybrid model is named (check_hybrid.c).
 */
#include "passes.h"

#include <string.h>

bool ta_pass_check(TaPassCtx *ctx)
{
    if (!ta_pass_check_hybrid(ctx))
        return false;
    TaPool *pool = ctx->pool;
    TaDiag *d = ctx->diag;
    const char *model_path = ctx->model_path;
    TaGraph *g = ctx->graph;
    int errors = d->errors;
    int n = g->tensors.len;
    int *writer = ta_alloc_array(pool, (size_t)n + 1, sizeof(int));
    bool *ready = ta_alloc_array(pool, (size_t)n + 1, sizeof(bool));
    for (int i = 0; i < n; i++) {
        TaTensor *t = TA_TENSOR(g, i);
        writer[i] = -1;
        ready[i] = t->role != TA_REGION_SCRATCH;
    }
    for (int i = 0; i < g->inputs.len; i++) {
        TaTensor *t = g->inputs.items[i];
        ready[t->index] = true;
        /* The application writes its inputs: a constant's bytes are read-only. */
        if (t->role == TA_REGION_CONSTANT)
            ta_error(d,
                     "%s: model input %d (tensor %s) is a constant (it has data in the model); "
                     "an input must be a tensor the application writes",
                     model_path, i, t->id);
    }
    for (int i = 0; i < g->ops.len && d->errors == errors; i++) {
        TaOp *op = TA_OP(g, i);
        for (int k = 0; k < op->num_inputs; k++) {
            TaTensor *t = op->inputs[k];
            if (t && !ready[t->index])
                ta_error(d, "%s: %s: input %d (tensor %s) is read before any operator writes it",
                         model_path, ta_op_describe(pool, op), k, t->id);
        }
        for (int k = 0; k < op->num_outputs; k++) {
            TaTensor *t = op->outputs[k];
            if (writer[t->index] >= 0)
                ta_error(d, "%s: %s: output %d (tensor %s) is also written by operator %d",
                         model_path, ta_op_describe(pool, op), k, t->id, writer[t->index]);
            else if (t->role == TA_REGION_CONSTANT)
                ta_error(d, "%s: %s: output %d (tensor %s) is a constant", model_path,
                         ta_op_describe(pool, op), k, t->id);
            writer[t->index] = i;
            ready[t->index] = true;
        }
    }
    for (int i = 0; i < g->outputs.len && d->errors == errors; i++) {
        TaTensor *t = g->outputs.items[i];
        if (!ready[t->index])
            ta_error(d, "%s: model output %d (tensor %s) is never written", model_path, i, t->id);
    }
    for (int i = 0; i < n && d->errors == errors; i++) {
        TaTensor *t = TA_TENSOR(g, i);
        if (writer[i] >= 0 || t->role == TA_REGION_CONSTANT || ready[i]) {
            if (!ta_dtype_size(t->dtype) && t->dtype != TA_RESOURCE)
                ta_error(d, "%s: tensor %s has type %s, which tinyaot cannot store", model_path,
                         t->id, ta_dtype_name(t->dtype));
        }
    }
    return d->errors == errors;
}

bool ta_pass_mark_io(TaPassCtx *ctx)
{
    TaGraph *g = ctx->graph;
    for (int i = 0; i < g->tensors.len; i++)
        TA_TENSOR(g, i)->input_index = TA_TENSOR(g, i)->output_index = -1;
    for (int i = 0; i < g->inputs.len; i++)
        ((TaTensor *)g->inputs.items[i])->input_index = i;
    for (int i = 0; i < g->outputs.len; i++) {
        TaTensor *t = g->outputs.items[i];
        if (t->output_index < 0)
            t->output_index = i;
    }
    return true;
}
