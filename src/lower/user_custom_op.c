/*
 * user_custom_op.c - a custom operator whose kernel the user brings with
 * a custom_operators entry of the configuration (docs/custom-operators.md).
 *
 * tinyaot cannot infer what a kernel it does not know computes, so the
 * entry says what each output must be, and the model's output tensors are
 * checked against it. The operator gets its scratch (planned like every
 * other scratch tensor), its custom_options as a constant, and one call
 * to the entry's function with every tensor as a view (TaUserCall).
 */
#include "../config/custom_operators.h"
#include "lower.h"

#include <math.h>
#include <string.h>

static const TaCustomOperator *entry_of(TaLower *L, const TaOp *op)
{
    return ta_custom_operator_find(L->pool, L->custom_operators, op->type);
}

static bool same_shape(const TaTensor *t, int rank, const int32_t *dims)
{
    if (t->rank != rank)
        return false;
    for (int i = 0; i < rank; i++)
        if (t->dims[i] != dims[i])
            return false;
    return true;
}

static const char *dims_text(TaPool *pool, int rank, const int32_t *dims)
{
    TaBuf b = {0};
    ta_buf_puts(&b, "[");
    for (int i = 0; i < rank; i++)
        ta_buf_printf(&b, "%s%d", i ? "," : "", (int)dims[i]);
    ta_buf_puts(&b, "]");
    const char *text = ta_strdup(pool, b.data);
    ta_buf_free(&b);
    return text;
}

/* The input an output rule refers to, or NULL (reported). */
static const TaTensor *rule_input(TaLower *L, TaOp *op, const TaCustomOutput *o, int index,
                                  int output)
{
    if (index < op->num_inputs && op->inputs[index])
        return op->inputs[index];
    ta_op_error(L, op, "output %d follows input %d (custom_operators entry at %s), which it %s",
                output, index, o->where, index < op->num_inputs ? "leaves out" : "does not have");
    return NULL;
}

static bool check_output(TaLower *L, TaOp *op, const TaCustomOutput *o, int i)
{
    const TaTensor *out = op->outputs[i];
    const TaTensor *in;
    int rank = o->rank;
    const int32_t *dims = o->dims;
    const char *from = "";
    if (o->shape_input >= 0) {
        if (!(in = rule_input(L, op, o, o->shape_input, i)))
            return false;
        rank = in->rank;
        dims = in->dims;
        from = ta_format(L->pool, " (the shape of input %d)", o->shape_input);
    }
    if (!same_shape(out, rank, dims)) {
        ta_op_error(L, op,
                    "output %d (tensor %s) has shape %s; the custom_operators entry at %s "
                    "says %s%s",
                    i, out->id, ta_shape_text(L->pool, out), o->where,
                    dims_text(L->pool, rank, dims), from);
        return false;
    }
    int dtype = o->dtype;
    from = "";
    if (o->dtype_input >= 0) {
        if (!(in = rule_input(L, op, o, o->dtype_input, i)))
            return false;
        dtype = (int)in->dtype;
        from = ta_format(L->pool, " (the dtype of input %d)", o->dtype_input);
    }
    if ((int)out->dtype != dtype) {
        ta_op_error(L, op,
                    "output %d (tensor %s) is %s; the custom_operators entry at %s says %s%s", i,
                    out->id, ta_dtype_name(out->dtype), o->where, ta_dtype_name(dtype), from);
        return false;
    }
    return true;
}

/* Every tensor the view array describes must be plain data of a size a
   view's int32 element count holds. */
static bool check_viewable(TaLower *L, TaOp *op, const TaTensor *t, const char *role, int i)
{
    if (!t)
        return true;
    if (!ta_dtype_size(t->dtype)) {
        ta_op_error(L, op, "%s %d (tensor %s) is %s, which a user kernel's view cannot describe",
                    role, i, t->id, ta_dtype_name(t->dtype));
        return false;
    }
    if (t->quant && t->quant->num_scales && !isfinite(t->quant->scale[0])) {
        ta_op_error(L, op, "%s %d (tensor %s) has scale %g; a view's scale must be finite", role, i,
                    t->id, (double)t->quant->scale[0]);
        return false;
    }
    if (ta_tensor_elements(t) > INT32_MAX) {
        ta_op_error(L, op, "%s %d (tensor %s) has more elements than a view counts", role, i,
                    t->id);
        return false;
    }
    return true;
}

static bool lower(TaLower *L, TaOp *op)
{
    const TaCustomOperator *u = entry_of(L, op);
    if (op->num_outputs != u->num_outputs) {
        ta_op_error(L, op, "has %d outputs; the custom_operators entry at %s describes %d",
                    op->num_outputs, u->where, u->num_outputs);
        return false;
    }
    for (int i = 0; i < op->num_inputs; i++)
        if (!check_viewable(L, op, op->inputs[i], "input", i))
            return false;
    for (int i = 0; i < op->num_outputs; i++)
        if (!check_viewable(L, op, op->outputs[i], "output", i) ||
            !check_output(L, op, &u->outputs[i], i))
            return false;
    if (op->custom_options_size > INT32_MAX) {
        ta_op_error(L, op, "custom_options of %zu bytes is more than a user kernel's view holds",
                    op->custom_options_size);
        return false;
    }
    TaUserCall *user = ta_alloc(L->pool, sizeof *user);
    user->num_inputs = op->num_inputs;
    user->num_outputs = op->num_outputs;
    if (u->scratch_bytes)
        user->scratch = ta_local_scratch(L, op, "scratch", (int32_t)u->scratch_bytes);
    if (op->custom_options_size)
        user->options = ta_local_constant(L, op, "custom_options", TA_UINT8,
                                          (int32_t)op->custom_options_size, op->custom_options);
    user->num_headers = u->headers.len;
    user->headers = ta_alloc_array(L->pool, (size_t)u->headers.len + 1, sizeof *user->headers);
    for (int i = 0; i < u->headers.len; i++)
        user->headers[i] = ((const TaCustomFile *)u->headers.items[i])->name;
    TaKernelCall *c = ta_call(L, op, u->function, "runtime/include/ta_custom.h");
    c->user = user;
    for (int i = 0; i < op->num_inputs; i++)
        ta_call_arg(L, c, op->inputs[i]);
    for (int i = 0; i < op->num_outputs; i++)
        ta_call_arg(L, c, op->outputs[i]);
    if (user->scratch)
        ta_call_arg(L, c, user->scratch);
    if (user->options)
        ta_call_arg(L, c, user->options);
    return true;
}

const TaOpDef ta_op_user_custom = {NULL, lower};

bool ta_check_user_custom_ops(TaLower *L)
{
    bool ok = true;
    for (int i = 0; L->custom_operators && i < L->custom_operators->len; i++) {
        const TaCustomOperator *u = L->custom_operators->items[i];
        const char *builtin = ta_builtin_custom_code_for_key(L->pool, u->key);
        if (builtin) {
            ta_error(L->diag,
                     "%s: custom_operators: code %s is tinyaot's own custom operator %s; an "
                     "entry cannot replace it",
                     u->where, u->code, builtin);
            ok = false;
            continue;
        }
        bool used = false;
        for (int k = 0; k < L->graph->ops.len && !used; k++) {
            const TaOp *op = TA_OP(L->graph, k);
            used = op->builtin < 0 &&
                   ta_custom_operator_find(L->pool, L->custom_operators, op->type) == u;
        }
        if (!used)
            ta_warn(L->diag, "%s: custom_operators: %s: the model has no operator with this code",
                    u->where, u->code);
    }
    return ok;
}
