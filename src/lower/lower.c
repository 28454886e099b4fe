/*
 * lower.c - drives per-operator lowering and holds the helpers operator
 * files share (checks, local tensors, kernel call records).
 */
#include "lower.h"

#include "../config/custom_operators.h"
#include "../exec/kernel_table.h"
#include "../model/model.h"
#include "int4_packed.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define DECLARE_OP(builtin, name, def_name, file) extern const TaOpDef ta_op_##def_name;
#include "ops.def"
#undef DECLARE_OP
#define DECLARE_CUSTOM_OP(code, def_name, file) extern const TaOpDef ta_op_##def_name;
#include "custom_ops.def"
#undef DECLARE_CUSTOM_OP

static const struct {
    int builtin;
    const TaOpDef *def;
} op_defs[] = {
#define DECLARE_OP(builtin, name, def_name, file) {builtin, &ta_op_##def_name},
#include "ops.def"
#undef DECLARE_OP
};

const TaOpDef *ta_op_def_find(int builtin)
{
    for (size_t i = 0; i < TA_COUNT_OF(op_defs); i++)
        if (op_defs[i].builtin == builtin)
            return op_defs[i].def;
    return NULL;
}

static const struct {
    const char *code;
    const TaOpDef *def;
} custom_op_defs[] = {
#define DECLARE_CUSTOM_OP(code, def_name, file) {code, &ta_op_##def_name},
#include "custom_ops.def"
#undef DECLARE_CUSTOM_OP
};

const TaOpDef *ta_custom_op_def_find(const char *custom_code)
{
    for (size_t i = 0; custom_code && i < TA_COUNT_OF(custom_op_defs); i++)
        if (strcmp(custom_op_defs[i].code, custom_code) == 0)
            return custom_op_defs[i].def;
    return NULL;
}

const char *ta_builtin_custom_code_for_key(TaPool *pool, const char *key)
{
    const char *why;
    for (size_t i = 0; i < TA_COUNT_OF(custom_op_defs); i++) {
        const char *k = ta_custom_code_key(pool, custom_op_defs[i].code, &why);
        if (k && strcmp(k, key) == 0)
            return custom_op_defs[i].code;
    }
    return NULL;
}

/* A custom operator of tinyaot's own, or one a custom_operators entry
   brings; that one's type becomes the canonical key, as views report it. */
static const TaOpDef *find_def(TaLower *L, TaOp *op)
{
    if (op->builtin >= 0)
        return ta_op_def_find(op->builtin);
    const TaOpDef *def = ta_custom_op_def_find(op->type);
    const TaCustomOperator *user;
    if (!def && L->custom_operators &&
        (user = ta_custom_operator_find(L->pool, L->custom_operators, op->type))) {
        op->type = user->key;
        def = &ta_op_user_custom;
    }
    return def;
}

void ta_op_error(TaLower *L, const TaOp *op, const char *fmt, ...)
{
    TaBuf b = {0};
    ta_buf_printf(&b, "%s: %s: ", L->model_path, ta_op_describe(L->pool, op));
    va_list ap;
    va_start(ap, fmt);
    ta_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    ta_error(L->diag, "%s", b.data);
    ta_buf_free(&b);
}

TaFbTable ta_op_options(TaLower *L, TaOp *op, TaFbReader *r)
{
    *r = (TaFbReader){
        .buf = op->options_buf, .len = op->options_buf_len, .path = L->model_path, .diag = L->diag};
    ta_fb_where(r, "%s options", ta_op_describe(L->pool, op));
    if (!op->options_pos)
        return (TaFbTable){.r = r};
    return ta_fb_table_at(r, op->options_pos);
}

bool ta_expect_counts(TaLower *L, TaOp *op, int min_inputs, int max_inputs, int outputs)
{
    if (op->num_inputs < min_inputs || op->num_inputs > max_inputs) {
        if (min_inputs == max_inputs)
            ta_op_error(L, op, "has %d inputs, expected %d", op->num_inputs, min_inputs);
        else
            ta_op_error(L, op, "has %d inputs, expected %d to %d", op->num_inputs, min_inputs,
                        max_inputs);
        return false;
    }
    if (op->num_outputs != outputs) {
        ta_op_error(L, op, "has %d outputs, expected %d", op->num_outputs, outputs);
        return false;
    }
    for (int i = 0; i < min_inputs; i++) {
        if (!op->inputs[i]) {
            ta_op_error(L, op, "input %d is missing", i);
            return false;
        }
    }
    return true;
}

bool ta_expect_dtype(TaLower *L, TaOp *op, const TaTensor *t, const char *role, ...)
{
    va_list ap;
    va_start(ap, role);
    TaBuf allowed = {0};
    bool ok = false;
    for (int d = va_arg(ap, int); d >= 0; d = va_arg(ap, int)) {
        ok = ok || (int)t->dtype == d;
        ta_buf_printf(&allowed, "%s%s", allowed.len ? " or " : "", ta_dtype_name(d));
    }
    va_end(ap);
    if (!ok)
        ta_op_error(L, op, "%s (tensor %s) is %s; tinyaot supports %s here", role, t->id,
                    ta_dtype_name(t->dtype), allowed.data);
    ta_buf_free(&allowed);
    return ok;
}

bool ta_expect_per_tensor(TaLower *L, TaOp *op, const TaTensor *t, const char *role)
{
    if (!t->quant || t->quant->num_scales != 1) {
        ta_op_error(L, op, "%s (tensor %s) needs per-tensor quantization (one scale), it has %d",
                    role, t->id, t->quant ? t->quant->num_scales : 0);
        return false;
    }
    if (!(t->quant->scale[0] > 0.0f) || !isfinite(t->quant->scale[0])) {
        ta_op_error(L, op, "%s (tensor %s) has scale %g; scales must be positive and finite", role,
                    t->id, (double)t->quant->scale[0]);
        return false;
    }
    return true;
}

bool ta_expect_constant(TaLower *L, TaOp *op, const TaTensor *t, const char *role)
{
    if (t->role == TA_REGION_CONSTANT && t->data)
        return true;
    ta_op_error(L, op, "%s (tensor %s) must be a constant in the model", role, t->id);
    return false;
}

bool ta_expect_rank(TaLower *L, TaOp *op, const TaTensor *t, const char *role, int rank)
{
    if (t->rank == rank)
        return true;
    ta_op_error(L, op, "%s (tensor %s) has shape %s; tinyaot supports rank %d here", role, t->id,
                ta_shape_text(L->pool, t), rank);
    return false;
}

float ta_scale(const TaTensor *t)
{
    return t->quant && t->quant->num_scales ? t->quant->scale[0] : 0.0f;
}

int32_t ta_zero_point(const TaTensor *t)
{
    return t->quant && t->quant->num_zero_points ? (int32_t)t->quant->zero_point[0] : 0;
}

static TaTensor *new_local(TaLower *L, TaOp *op, const char *role, TaDtype dtype, int32_t count)
{
    const char *id = op->model_index < 0 ? ta_format(L->pool, "x%d.%s", op->index, role)
                     : op->model_subgraph != L->graph->model_index
                         ? ta_format(L->pool, "s%dop%d.%s", op->model_subgraph, op->model_index,
                                     role)
                         : ta_format(L->pool, "op%d.%s", op->model_index, role);
    TaTensor *t = ta_graph_new_tensor(L->pool, L->graph, id, dtype, 1, &count);
    t->owner = op;
    ta_vec_push(L->pool, &op->lowered.locals, t);
    return t;
}

TaTensor *ta_local_constant(TaLower *L, TaOp *op, const char *role, TaDtype dtype, int32_t count,
                            const void *data)
{
    TaTensor *t = new_local(L, op, role, dtype, count);
    t->role = TA_REGION_CONSTANT;
    t->data_size = (size_t)count * ta_dtype_size(dtype);
    t->data = ta_memdup(L->pool, data, t->data_size);
    return t;
}

void ta_derived_from(TaTensor *t, const TaTensor *from)
{
    if (t && from)
        t->derived_from = from->derived_from       ? from->derived_from
                          : from->model_index >= 0 ? from
                                                   : NULL;
}

TaTensor *ta_local_scratch(TaLower *L, TaOp *op, const char *role, int32_t bytes)
{
    return ta_local_scratch_of(L, op, role, TA_INT8, bytes);
}

TaTensor *ta_local_scratch_of(TaLower *L, TaOp *op, const char *role, TaDtype dtype, int32_t count)
{
    TaTensor *t = new_local(L, op, role, dtype, count);
    t->role = TA_REGION_SCRATCH;
    return t;
}

TaTensor *ta_local_state(TaLower *L, TaOp *op, const char *role, TaDtype dtype, int32_t count)
{
    TaTensor *t = new_local(L, op, role, dtype, count);
    t->role = TA_REGION_PERSISTENT;
    return t;
}

TaKernelCall *ta_call(TaLower *L, TaOp *op, const char *function, const char *header)
{
    TaKernelCall *c = ta_alloc(L->pool, sizeof *c);
    c->role = "run";
    c->function = function;
    c->header = header;
    ta_vec_push(L->pool, &op->lowered.calls, c);
    return c;
}

TaKernelCall *ta_init_call(TaLower *L, TaOp *op, const char *function, const char *header)
{
    TaKernelCall *c = ta_call(L, op, function, header);
    c->role = "init";
    return c;
}

void *ta_call_params(TaLower *L, TaKernelCall *c, const TaParamsDesc *desc)
{
    c->params_desc = desc;
    c->params_struct = ta_alloc(L->pool, desc->size);
    return c->params_struct;
}

void ta_call_arg(TaLower *L, TaKernelCall *c, TaTensor *t)
{
    ta_vec_push(L->pool, &c->args, t);
}

static bool same_layout(const TaTensor *in, const TaTensor *out)
{
    return in && ta_tensor_elements(in) == ta_tensor_elements(out) &&
           ta_dtype_size(in->dtype) == ta_dtype_size(out->dtype) && in->role == TA_REGION_SCRATCH;
}

void ta_allow_inplace(TaOp *op, int first)
{
    if (op->num_outputs != 1)
        return;
    for (int i = first; i < op->num_inputs && i <= first + 1; i++) {
        if (same_layout(op->inputs[i], op->outputs[0])) {
            op->plan_hints.inplace_input = i;
            return;
        }
    }
}

/* The lowering contract: a step that fails says why. A false without a
   diagnostic is tinyaot's bug, never a module that silently lacks the
   operator. */
static void failed_with_a_reason(TaLower *L, const TaOp *op, int errors_at, const char *step)
{
    if (L->diag->errors > errors_at)
        return;
    char what[160];
    snprintf(what, sizeof what, "the %s step of %s returned false without saying why", step,
             op->type);
    ta_bug(__FILE__, __LINE__, what);
}

/* Whether tensor argument `t` fits the kernel's declared argument `spec`
   ("r:int8_t", "w:float", ...; kernel_table.h). An operator's own scratch
   is raw bytes, lent to any pointer type. */
static const char *argument_mismatch(const TaOp *op, const TaTensor *t, const char *spec,
                                     size_t len)
{
    const bool writes = spec[0] == 'w';
    if (writes && t->role == TA_REGION_CONSTANT)
        return "a constant where the kernel writes";
    if (t->owner == op && t->role == TA_REGION_SCRATCH)
        return NULL;
    const char *want = spec + 2;
    const size_t want_len = len - 2;
    if (want_len == 4 && strncmp(want, "void", 4) == 0)
        return NULL;
    const char *have = ta_dtype_ctype(t->dtype);
    if (!have || strlen(have) != want_len || strncmp(have, want, want_len) != 0)
        return "of another element type";
    return NULL;
}

/* Every call of a runtime kernel names one the runtime has, with the
   tensor arguments its prototype declares: as many, each of its element
   type, and no constant where the kernel writes. A mistyped name, a
   missing ta_call_arg or two swapped arguments of different types fail
   the conversion here, not the module's compilation or the test case.
   (Custom operators' functions are the user's: not in the table.) */
static void check_kernel_calls(TaLower *L, TaOp *op)
{
    for (int k = 0; k < op->lowered.calls.len; k++) {
        const TaKernelCall *call = op->lowered.calls.items[k];
        if (strncmp(call->function, "ta_", 3) != 0)
            continue;
        const TaKernelEntry *kernel = ta_kernel_find(call->function);
        if (!kernel) {
            ta_op_error(L, op, "tinyaot bug: the lowering calls %s, which the runtime lacks",
                        call->function);
            continue;
        }
        if (kernel->arity != call->args.len) {
            ta_op_error(L, op,
                        "tinyaot bug: the lowering passes %d tensor arguments to %s, which "
                        "takes %d",
                        call->args.len, call->function, kernel->arity);
            continue;
        }
        const char *spec = kernel->signature;
        for (int a = 0; a < call->args.len; a++) {
            const size_t len = strcspn(spec, " ");
            const TaTensor *t = call->args.items[a];
            const char *why = t ? argument_mismatch(op, t, spec, len) : NULL;
            if (why)
                ta_op_error(L, op,
                            "tinyaot bug: argument %d of %s (declared %.*s) is tensor %s (%s), "
                            "%s",
                            a, call->function, (int)len, spec, t->id, ta_dtype_name(t->dtype), why);
            spec += len + (spec[len] == ' ');
        }
    }
}

void ta_lower_no_code(TaOp *op, const char *why)
{
    op->lowered.no_code = why;
}

/* An operator that calls no kernel and whose output does not alias an
   input must say so: otherwise the lowering forgot its call and the
   module would silently skip the operator. */
static void check_has_code(TaLower *L, TaOp *op)
{
    if (op->lowered.calls.len || op->lowered.no_code || op->control != TA_CONTROL_NONE)
        return;
    for (int k = 0; k < op->num_outputs; k++)
        if (op->outputs[k]->alias_of)
            return;
    ta_op_error(L, op,
                "tinyaot bug: the lowering of %s made no kernel call and did not declare "
                "that the operator needs none (ta_lower_no_code)",
                op->type);
}

/* Tensors with no elements (a 0 in the shape) reach no kernel: what the
   passes folded away may have had them, what runs may not (kernels would
   index an empty buffer). One line per tensor; false after it. */
static bool has_elements(TaLower *L, TaOp *op)
{
    bool ok = true;
    for (int k = 0; k < op->num_inputs + op->num_outputs; k++) {
        const TaTensor *t = k < op->num_inputs ? op->inputs[k] : op->outputs[k - op->num_inputs];
        if (t && t->role != TA_REGION_CONSTANT && t->dtype != TA_RESOURCE && t->rank > 0 &&
            ta_tensor_elements(t) == 0) {
            ta_op_error(L, op,
                        "tensor %s has shape %s, with no elements; tinyaot does not run "
                        "empty tensors",
                        t->id, ta_shape_text(L->pool, t));
            ok = false;
            break;
        }
    }
    return ok;
}

bool ta_lower_graph(TaLower *L)
{
    int errors_before = L->diag->errors;
    if (!ta_check_user_custom_ops(L))
        return false;
    /* Unsupported operators first, all of them, one line each. */
    for (int i = 0; i < L->graph->ops.len; i++) {
        TaOp *op = TA_OP(L->graph, i);
        if (!op->def) /* operators a pass created may bring their definition */
            op->def = find_def(L, op);
        if (!op->def)
            ta_op_error(L, op, "operator type %s is not supported by tinyaot%s", op->type,
                        op->builtin < 0 ? " (a custom operator: a custom_operators entry in "
                                          "the configuration can bring its kernel)"
                                        : "");
    }
    if (L->diag->errors > errors_before)
        return false;
    for (int i = 0; i < L->graph->ops.len; i++) {
        TaOp *op = TA_OP(L->graph, i);
        if (op->removed)
            continue;
        if (op->model_index < 0)
            op->lowered.symbol = ta_format(L->pool, "%s_%s_x%d", L->prefix, op->type, op->index);
        else if (op->model_subgraph !=
                 L->graph->model_index) /* an IF or WHILE subgraph's operator */
            op->lowered.symbol = ta_format(L->pool, "%s_%s_s%d_%d", L->prefix, op->type,
                                           op->model_subgraph, op->model_index);
        else
            op->lowered.symbol = ta_format(L->pool, "%s_%s_%d", L->prefix, op->type,
                                           op->model_index);
        for (char *p = (char *)op->lowered.symbol + strlen(L->prefix); *p; p++)
            *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
        if (!has_elements(L, op))
            continue;
        const int errors_at = L->diag->errors;
        if (op->def->parse && !op->attrs && !op->def->parse(L, op)) {
            failed_with_a_reason(L, op, errors_at, "parse");
            continue;
        }
        if (!op->def->lower(L, op)) {
            failed_with_a_reason(L, op, errors_at, "lower");
        } else {
            ta_int4_keep_packed(L, op);
            check_kernel_calls(L, op);
            check_has_code(L, op);
        }
    }
    return L->diag->errors == errors_before;
}
