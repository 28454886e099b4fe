/*
 * verify.c - the graph's own invariants, checked after every transform and
 * after lowering in debug builds (as QBE checks its SSA after each pass):
 * a pass that breaks one is a bug in tinyaot, stopped where it happened
 * instead of showing up as a wrong module three stages later.
 *
 *   - every live operator reads and writes live tensors of this graph,
 *     each at its own index (but the constant operands lowering folded);
 *   - without control flow, no tensor is written by two live operators,
 *     and none is read before the operator writing it (model inputs,
 *     constants and state excepted); an IF's branches both write its
 *     outputs and a WHILE body reads what the last iteration wrote;
 *   - (the same) every model output is written or is an input, constant
 *     or state;
 *   - local tensors belong to the operator that lists them, and kernel
 *     calls pass live tensors.
 *
 * The model-facing checks (what a user's model may hold) are check.c's.
 */
#include "ir.h"

static _Noreturn void broken(TaPool *pool, const char *after, const char *what, const char *id)
{
    ta_bug(__FILE__, __LINE__,
           ta_format(pool, "the graph after %s is inconsistent: %s (tensor %s)", after, what, id));
}

static void check_tensor(TaPool *pool, const TaGraph *g, const TaTensor *t, const char *after)
{
    if (t->index < 0 || t->index >= g->tensors.len || TA_TENSOR(g, t->index) != t)
        broken(pool, after, "an operator uses a tensor of no graph index", t->id);
    if (t->removed)
        broken(pool, after, "a live operator uses a removed tensor", t->id);
}

/* Whether t's bytes are written: its own or, for an alias (a pruned
   RESHAPE's output), those of the tensor it aliases. */
static bool is_ready(const bool *ready, const TaTensor *t)
{
    for (; t; t = t->alias_of)
        if (ready[t->index])
            return true;
    return false;
}

/* Whether a tensor has its bytes before any operator runs. */
static bool there_from_start(const TaTensor *t)
{
    return t->role != TA_REGION_SCRATCH || t->is_variable || t->input_index >= 0;
}

void ta_graph_verify(TaPool *pool, const TaGraph *g, const char *after)
{
    const int n = g->tensors.len;
    bool straight = true;
    for (int i = 0; i < g->ops.len; i++)
        straight = straight && TA_OP(g, i)->control == TA_CONTROL_NONE;
    bool *written = ta_alloc_array(pool, (size_t)n + 1, sizeof(bool));
    bool *ready = ta_alloc_array(pool, (size_t)n + 1, sizeof(bool));
    for (int i = 0; i < n; i++)
        ready[i] = there_from_start(TA_TENSOR(g, i));
    for (int i = 0; i < g->inputs.len; i++)
        ready[((const TaTensor *)g->inputs.items[i])->index] = true;
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        if (op->removed)
            continue;
        for (int k = 0; k < op->num_inputs; k++) {
            const TaTensor *t = op->inputs[k];
            /* a constant operand lowering folded into another (a bias into
               a bias sum) stays the model's operand but leaves the graph */
            if (!t || t->role == TA_REGION_CONSTANT)
                continue;
            check_tensor(pool, g, t, after);
            if (straight && !is_ready(ready, t))
                broken(pool, after, "an operator reads a tensor before it is written", t->id);
        }
        for (int k = 0; k < op->num_outputs; k++) {
            const TaTensor *t = op->outputs[k];
            check_tensor(pool, g, t, after);
            if (straight && written[t->index])
                broken(pool, after, "two operators write one tensor", t->id);
            written[t->index] = ready[t->index] = true;
        }
        for (int k = 0; k < op->lowered.locals.len; k++) {
            const TaTensor *t = op->lowered.locals.items[k];
            if (t->owner != op)
                broken(pool, after, "a local tensor is listed by an operator it does not belong to",
                       t->id);
        }
        for (int c = 0; c < op->lowered.calls.len; c++) {
            const TaKernelCall *call = op->lowered.calls.items[c];
            for (int a = 0; a < call->args.len; a++)
                if (call->args.items[a])
                    check_tensor(pool, g, call->args.items[a], after);
        }
    }
    for (int i = 0; i < g->outputs.len; i++) {
        const TaTensor *t = g->outputs.items[i];
        if (straight && !is_ready(ready, t))
            broken(pool, after, "a model output is never written", t->id);
    }
}
