/*
 * dump.c - the graph as text, for `tinyaot convert --dump-after PASS`:
 * a header line, the graph's inputs and outputs, then one line per
 * operator in execution order with its input and output tensors:
 *
 *   == after lower: 3 operators, 10 tensors
 *   inputs: 0:int8[1,1]
 *   outputs: 9:int8[1,1]
 *   op 0 FULLY_CONNECTED (model op 0): 0:int8[1,1] 1:int8[16,1] 2:int32[16] -> 3:int8[1,16]
 *     local op0.bias_sum:int32[16] const
 *     call run ta_fully_connected_s8(0, op0.weights, op0.bias_sum, 3) batches=1 ...
 *
 * A tensor is its id, dtype and shape; `const` marks constants, `-` an
 * optional input left out. Operators and tensors a pass removed are left
 * out, as the following stages see it. Once lowered, each operator's local
 * tensors and its kernel calls follow it, a call with its role, tensor
 * arguments (by id) and parameter struct (params_text.c).
 */
#include "ir.h"

static void tensor_text(TaBuf *out, const TaTensor *t)
{
    if (!t) {
        ta_buf_puts(out, "-");
        return;
    }
    ta_buf_printf(out, "%s:%s[", t->id, ta_dtype_name(t->dtype));
    for (int d = 0; d < t->rank; d++)
        ta_buf_printf(out, d ? ",%d" : "%d", (int)t->dims[d]);
    ta_buf_puts(out, "]");
    if (t->role == TA_REGION_CONSTANT)
        ta_buf_puts(out, " const");
}

static void tensor_list(TaBuf *out, TaTensor *const *tensors, int n)
{
    for (int i = 0; i < n; i++) {
        ta_buf_puts(out, " ");
        tensor_text(out, tensors[i]);
    }
}

/* What lowering gave the operator: its local tensors and kernel calls. */
static void lowering_text(TaBuf *out, const TaOp *op)
{
    for (int k = 0; k < op->lowered.locals.len; k++) {
        ta_buf_puts(out, "    local ");
        tensor_text(out, op->lowered.locals.items[k]);
        ta_buf_puts(out, "\n");
    }
    for (int k = 0; k < op->lowered.calls.len; k++) {
        const TaKernelCall *call = op->lowered.calls.items[k];
        ta_buf_printf(out, "    call %s %s(", call->role, call->function);
        for (int a = 0; a < call->args.len; a++) {
            const TaTensor *t = call->args.items[a];
            ta_buf_printf(out, "%s%s", a ? ", " : "", t ? t->id : "NULL");
        }
        ta_buf_puts(out, ")");
        if (call->params_desc) {
            ta_buf_puts(out, " ");
            ta_params_text(out, call, true);
        }
        ta_buf_puts(out, "\n");
    }
}

void ta_graph_dump(TaBuf *out, const TaGraph *g, const char *pass)
{
    int ops = 0, tensors = 0;
    for (int i = 0; i < g->ops.len; i++)
        ops += !TA_OP(g, i)->removed;
    for (int i = 0; i < g->tensors.len; i++)
        tensors += !TA_TENSOR(g, i)->removed;
    ta_buf_printf(out, "== after %s: %d operators, %d tensors\n", pass, ops, tensors);
    ta_buf_puts(out, "inputs:");
    tensor_list(out, (TaTensor *const *)g->inputs.items, g->inputs.len);
    ta_buf_puts(out, "\noutputs:");
    tensor_list(out, (TaTensor *const *)g->outputs.items, g->outputs.len);
    ta_buf_puts(out, "\n");
    int index = 0;
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        if (op->removed)
            continue;
        ta_buf_printf(out, "op %d %s", index++, op->type);
        if (op->model_index >= 0)
            ta_buf_printf(out, " (model op %d)", op->model_index);
        else
            ta_buf_puts(out, " (created)");
        if (op->rewrites.residual_add)
            ta_buf_printf(out, " + ADD (model op %d) into the residual",
                          op->rewrites.residual_add->add->model_index);
        ta_buf_puts(out, ":");
        tensor_list(out, op->inputs, op->num_inputs);
        ta_buf_puts(out, " ->");
        tensor_list(out, op->outputs, op->num_outputs);
        ta_buf_puts(out, "\n");
        lowering_text(out, op);
    }
}
