/*
 * variables.c - resource variables, state that outlives one run
 * (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE, and CALL_ONCE running an
 * initialization subgraph). Variable tensors' reset values are in
 * common/variable_state.c.
 *
 * A resource variable is named by VAR_HANDLE's (container, shared_name).
 * Its bytes live in one persistent tensor, "op<N>.variable", owned by the
 * first operator (in layer order) that names it; resource-typed handle
 * tensors hold no bytes. As in TFLite Micro:
 *   - the variable's size and type come from the first ASSIGN_VARIABLE in
 *     Prepare order (subgraph 0 first, operators in order) whose handle
 *     names it, and it starts as memset(zero point of that assigned value)
 *     (the zero point as int8, 0 without quantization);
 *   - READ_VARIABLE and ASSIGN_VARIABLE are byte copies.
 * CALL_ONCE runs its subgraph once, on the first run, before any variable
 * is read; tinyaot runs it in model_init instead, which is the same when
 * the subgraph only assigns constants to variables: that is all tinyaot
 * accepts there.
 */
#include "../../runtime/kernels/ta_copy.h"
#include "lower.h"

#include <string.h>

enum { OPT_CONTAINER = 0, OPT_SHARED_NAME = 1 };
enum { OPT_INIT_SUBGRAPH = 0 };

/* A resource variable and the tensor holding its bytes. */
typedef struct Var {
    const char *container; /* NULL when the model leaves it out */
    const char *shared_name;
    TaTensor *storage;
} Var;

/* VAR_HANDLE's attrs: the variable it names (its storage once lowered). */
typedef struct VarHandleAttrs {
    Var var;
} VarHandleAttrs;

/* CALL_ONCE's attrs: the variables its subgraph created first. */
typedef struct CallOnceAttrs {
    int init_subgraph;
    TaVec vars; /* Var* */
} CallOnceAttrs;

extern const TaOpDef ta_op_var_handle, ta_op_call_once;

/* ---- finding variables ----------------------------------------------------- */

static bool read_names(TaLower *L, TaOp *handle_op, Var *v)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, handle_op, &r);
    v->container = ta_fb_string(t, OPT_CONTAINER, L->pool);
    v->shared_name = ta_fb_string(t, OPT_SHARED_NAME, L->pool);
    return !r.failed;
}

/* TFLite Micro's match: a missing container matches any container. */
static bool same_var(const Var *a, const Var *b)
{
    if (!a->shared_name || !b->shared_name || strcmp(a->shared_name, b->shared_name) != 0)
        return false;
    return !a->container || !b->container || strcmp(a->container, b->container) == 0;
}

/* The VAR_HANDLE operator of `g` that writes the handle tensor `h`. */
static TaOp *handle_producer(const TaGraph *g, const TaTensor *h)
{
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        if (op->builtin == TA_BUILTIN_VAR_HANDLE && op->num_outputs == 1 && op->outputs[0] == h)
            return op;
    }
    return NULL;
}

/* The storage of a variable some earlier operator of this graph created. */
static TaTensor *find_storage(TaLower *L, const Var *v)
{
    for (int i = 0; i < L->graph->ops.len; i++) {
        TaOp *op = TA_OP(L->graph, i);
        if (!op->attrs)
            continue;
        if (op->def == &ta_op_var_handle) {
            const VarHandleAttrs *a = op->attrs;
            if (a->var.storage && same_var(&a->var, v))
                return a->var.storage;
        } else if (op->def == &ta_op_call_once) {
            const CallOnceAttrs *a = op->attrs;
            for (int k = 0; k < a->vars.len; k++) {
                const Var *w = a->vars.items[k];
                if (w->storage && same_var(w, v))
                    return w->storage;
            }
        }
    }
    return NULL;
}

/* The value of the first ASSIGN_VARIABLE TFLite Micro prepares for `v`. */
static TaTensor *first_assigned_value(TaLower *L, const Var *v)
{
    int n = L->model ? L->model->subgraphs.len : 1;
    for (int s = 0; s < n; s++) {
        const TaGraph *g = L->model ? L->model->subgraphs.items[s] : L->graph;
        for (int i = 0; i < g->ops.len; i++) {
            TaOp *op = TA_OP(g, i);
            if (op->builtin != TA_BUILTIN_ASSIGN_VARIABLE || op->num_inputs != 2 ||
                !op->inputs[0] || !op->inputs[1])
                continue;
            TaOp *h = handle_producer(g, op->inputs[0]);
            Var w = {0};
            if (h && read_names(L, h, &w) && same_var(&w, v))
                return op->inputs[1];
        }
    }
    return NULL;
}

/* Finds or creates the storage of `v` in *out; `op` owns a created one
   and fills it with its starting value. A variable nothing assigns has
   no storage (NULL), as in TFLite Micro; reading it is an error. */
static bool variable_storage(TaLower *L, TaOp *op, const Var *v, const char *role, TaTensor **out)
{
    *out = NULL;
    if (!v->shared_name) {
        ta_op_error(L, op, "VAR_HANDLE without a shared_name");
        return false;
    }
    TaTensor *t = find_storage(L, v);
    TaTensor *value = t ? NULL : first_assigned_value(L, v);
    if (!value) {
        *out = t;
        return true;
    }
    if (!ta_dtype_size(value->dtype) || ta_tensor_bytes(value) == 0) {
        ta_op_error(L, op,
                    "resource variable \"%s\" is assigned %s %s, which tinyaot cannot "
                    "store",
                    v->shared_name, ta_dtype_name(value->dtype), ta_shape_text(L->pool, value));
        return false;
    }
    const char *id = op->model_index >= 0 ? ta_format(L->pool, "op%d.%s", op->model_index, role)
                                          : ta_format(L->pool, "x%d.%s", op->index, role);
    t = ta_graph_new_tensor(L->pool, L->graph, id, value->dtype, value->rank, value->dims);
    t->role = TA_REGION_PERSISTENT;
    t->quant = value->quant;
    t->owner = op;
    ta_vec_push(L->pool, &op->lowered.locals, t);
    /* memset with the zero point cast to int8, whatever the type. */
    const bool has_zp = value->quant && value->quant->num_scales && value->quant->num_zero_points;
    ta_init_fill_bytes(L, op, t, has_zp ? (uint8_t)(int8_t)value->quant->zero_point[0] : 0);
    *out = t;
    return true;
}

static bool same_bytes(TaLower *L, TaOp *op, const TaTensor *storage, const TaTensor *t,
                       const char *role)
{
    if (ta_dtype_size(t->dtype) && ta_tensor_bytes(t) == ta_tensor_bytes(storage))
        return true;
    ta_op_error(L, op, "%s (tensor %s, %s %s) does not have the variable's %zu bytes (%s %s)", role,
                t->id, ta_dtype_name(t->dtype), ta_shape_text(L->pool, t), ta_tensor_bytes(storage),
                ta_dtype_name(storage->dtype), ta_shape_text(L->pool, storage));
    return false;
}

static void add_copy(TaLower *L, TaKernelCall *c, TaTensor *from, TaTensor *to)
{
    ta_copy_params_t *p = TA_CALL_PARAMS(L, c, ta_copy_params_t);
    p->bytes = (int64_t)ta_tensor_bytes(to);
    ta_call_arg(L, c, from);
    ta_call_arg(L, c, to);
}

/* The storage behind a handle operand of this graph. */
static TaTensor *storage_of_handle(TaLower *L, TaOp *op, const TaTensor *h)
{
    TaOp *producer = h->dtype == TA_RESOURCE ? handle_producer(L->graph, h) : NULL;
    if (!producer || !producer->attrs || producer->index > op->index) {
        ta_op_error(L, op,
                    "the resource handle (tensor %s) must come from a VAR_HANDLE "
                    "earlier in this subgraph",
                    h->id);
        return NULL;
    }
    const VarHandleAttrs *a = producer->attrs;
    if (!a->var.storage)
        ta_op_error(L, op,
                    "resource variable \"%s\" is never assigned; TFLite Micro has no "
                    "storage to read it from",
                    a->var.shared_name);
    return a->var.storage;
}

/* ---- VAR_HANDLE ----------------------------------------------------------- */

static bool var_handle_parse(TaLower *L, TaOp *op)
{
    VarHandleAttrs *a = ta_alloc(L->pool, sizeof *a);
    if (!read_names(L, op, &a->var))
        return false;
    op->attrs = a;
    return true;
}

static bool var_handle_lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 0, 0, 1) ||
        !ta_expect_dtype(L, op, op->outputs[0], "output", TA_RESOURCE, -1))
        return false;
    VarHandleAttrs *a = op->attrs;
    ta_lower_no_code(op, "a handle: READ_VARIABLE and ASSIGN_VARIABLE use its state");
    return variable_storage(L, op, &a->var, "variable", &a->var.storage);
}

/* ---- READ_VARIABLE / ASSIGN_VARIABLE -------------------------------------- */

static bool read_variable_lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *storage = storage_of_handle(L, op, op->inputs[0]);
    if (!storage || !same_bytes(L, op, storage, op->outputs[0], "output"))
        return false;
    /* A copy, never an alias: a later ASSIGN_VARIABLE must not change
       what this operator read. */
    add_copy(L, ta_call(L, op, "ta_copy", "runtime/kernels/ta_copy.h"), storage, op->outputs[0]);
    return true;
}

static bool assign_variable_lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 2, 2, 0))
        return false;
    TaTensor *storage = storage_of_handle(L, op, op->inputs[0]);
    if (!storage || !same_bytes(L, op, storage, op->inputs[1], "value"))
        return false;
    add_copy(L, ta_call(L, op, "ta_copy", "runtime/kernels/ta_copy.h"), op->inputs[1], storage);
    return true;
}

/* ---- CALL_ONCE ------------------------------------------------------------- */

static bool call_once_parse(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    CallOnceAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->init_subgraph = ta_fb_i32(t, OPT_INIT_SUBGRAPH, 0);
    if (r.failed)
        return false;
    op->attrs = a;
    return true;
}

static bool call_once_lower(TaLower *L, TaOp *op)
{
    CallOnceAttrs *a = op->attrs;
    if (!ta_expect_counts(L, op, 0, 0, 0))
        return false;
    if (!L->model || a->init_subgraph < 0 || a->init_subgraph >= L->model->subgraphs.len ||
        a->init_subgraph == L->graph->model_index) {
        ta_op_error(L, op, "init subgraph %d is not another subgraph of the model",
                    a->init_subgraph);
        return false;
    }
    /* Running the subgraph in model_init is only the same as running it
       on the first run if nothing touched a variable before. */
    for (int i = 0; i < op->index; i++) {
        const TaOp *o = TA_OP(L->graph, i);
        if (o->builtin == TA_BUILTIN_READ_VARIABLE || o->builtin == TA_BUILTIN_ASSIGN_VARIABLE) {
            ta_op_error(L, op, "operator %d (%s) uses a variable before CALL_ONCE runs",
                        o->model_index, o->type);
            return false;
        }
    }
    const TaGraph *g = L->model->subgraphs.items[a->init_subgraph];
    if (g->inputs.len || g->outputs.len) {
        ta_op_error(L, op, "init subgraph %d has inputs or outputs", a->init_subgraph);
        return false;
    }
    /* Each VAR_HANDLE of the subgraph, paired with its variable's storage. */
    TaOp **handles = ta_alloc_array(L->pool, (size_t)g->ops.len + 1, sizeof(TaOp *));
    TaTensor **storages = ta_alloc_array(L->pool, (size_t)g->ops.len + 1, sizeof(TaTensor *));
    int n_handles = 0;
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *o = TA_OP(g, i);
        if (o->builtin == TA_BUILTIN_VAR_HANDLE && o->num_outputs == 1) {
            Var *v = ta_alloc(L->pool, sizeof *v);
            if (!read_names(L, o, v))
                return false;
            /* Stored before creating so the next handle of the same name
               finds it. */
            ta_vec_push(L->pool, &a->vars, v);
            if (!variable_storage(L, op, v, ta_format(L->pool, "variable%d", a->vars.len - 1),
                                  &v->storage))
                return false;
            handles[n_handles] = o;
            storages[n_handles++] = v->storage;
            continue;
        }
        if (o->builtin == TA_BUILTIN_ASSIGN_VARIABLE && o->num_inputs == 2 && o->inputs[0] &&
            o->inputs[1]) {
            TaTensor *value = o->inputs[1];
            TaTensor *storage = NULL;
            for (int k = 0; k < n_handles; k++)
                if (handles[k]->outputs[0] == o->inputs[0])
                    storage = storages[k];
            if (!storage || value->role != TA_REGION_CONSTANT || !value->data) {
                ta_op_error(L, op,
                            "init subgraph %d, operator %d: tinyaot runs only "
                            "assignments of constants to variables at initialization",
                            a->init_subgraph, i);
                return false;
            }
            if (!same_bytes(L, op, storage, value, "initial value"))
                return false;
            TaTensor *init = ta_local_constant(L, op, ta_format(L->pool, "initial_value%d", i),
                                               value->dtype, (int32_t)ta_tensor_elements(value),
                                               value->data);
            add_copy(L, ta_init_call(L, op, "ta_copy", "runtime/kernels/ta_copy.h"), init, storage);
            continue;
        }
        ta_op_error(L, op,
                    "init subgraph %d, operator %d (%s): tinyaot runs only VAR_HANDLE and "
                    "ASSIGN_VARIABLE at initialization",
                    a->init_subgraph, i, o->type);
        return false;
    }
    if (!op->lowered.calls.len) /* its subgraph assigns nothing: the state starts at zero */
        ta_lower_no_code(op, "its initialization assigns nothing");
    return true;
}

const TaOpDef ta_op_var_handle = {var_handle_parse, var_handle_lower};
const TaOpDef ta_op_read_variable = {NULL, read_variable_lower};
const TaOpDef ta_op_assign_variable = {NULL, assign_variable_lower};
const TaOpDef ta_op_call_once = {call_once_parse, call_once_lower};
