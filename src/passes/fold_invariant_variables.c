/*
 * fold_invariant_variables.c - FOLD_INVARIANT_VARIABLES: a resource
 * variable that provably never changes becomes the constant it starts at.
 *
 * A variable's starting value, as tinyaot (and TFLite Micro) run it, is the
 * last constant the CALL_ONCE initialization subgraph assigns to it. It
 * never changes when the converted subgraph either never assigns it, or
 * only assigns it a chain of MAXIMUM/MINIMUM steps with constant bounds
 * applied to its own read (the write-back a Keras weight constraint
 * exports) and that chain returns the starting value unchanged, byte for
 * byte. MAXIMUM and MINIMUM compare stored values without requantizing,
 * so the check works on the stored integers.
 *
 * Folding makes every READ_VARIABLE output a constant holding the starting
 * value and removes the reads, the assignments, the chain, the variable's
 * VAR_HANDLE operators and its initialization (and CALL_ONCE when nothing
 * is left to initialize), so the variable takes no persistent bytes and no
 * copies run. Left alone: a variable read or assigned anywhere else, whose
 * handle any other operator reads, whose read is a model input or output,
 * or whose starting value is not a constant of the read's type and size.
 */
#include "transforms.h"

#include "../lower/ops.h"
#include "../model/fb.h"

#include <string.h>

enum { OPT_CONTAINER = 0, OPT_SHARED_NAME = 1 }; /* VarHandleOptions */
enum { OPT_INIT_SUBGRAPH = 0 };                  /* CallOnceOptions */

typedef struct VarName {
    const char *container; /* NULL: the model leaves it out */
    const char *shared_name;
} VarName;

static TaFbTable options_of(TaPassCtx *ctx, const TaOp *op, TaFbReader *r)
{
    *r = (TaFbReader){.buf = op->options_buf,
                      .len = op->options_buf_len,
                      .path = ctx->model_path,
                      .diag = ctx->diag};
    return op->options_pos ? ta_fb_table_at(r, op->options_pos) : (TaFbTable){.r = r};
}

static bool var_name(TaPassCtx *ctx, const TaOp *handle_op, VarName *v)
{
    TaFbReader r;
    TaFbTable t = options_of(ctx, handle_op, &r);
    v->container = ta_fb_string(t, OPT_CONTAINER, ctx->pool);
    v->shared_name = ta_fb_string(t, OPT_SHARED_NAME, ctx->pool);
    return !r.failed && v->shared_name;
}

/* TFLite Micro's match: a missing container matches any container. */
static bool same_var(const VarName *a, const VarName *b)
{
    if (strcmp(a->shared_name, b->shared_name) != 0)
        return false;
    return !a->container || !b->container || strcmp(a->container, b->container) == 0;
}

static TaOp *producer(const TaGraph *g, const TaTensor *t)
{
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        for (int k = 0; k < op->num_outputs && !op->removed; k++)
            if (op->outputs[k] == t)
                return op;
    }
    return NULL;
}

/* Whether `op` (READ_VARIABLE or ASSIGN_VARIABLE) names variable v. */
static bool names_var(TaPassCtx *ctx, const TaGraph *g, const TaOp *op, const VarName *v)
{
    if (op->removed || op->num_inputs < 1 || !op->inputs[0])
        return false;
    TaOp *h = producer(g, op->inputs[0]);
    VarName w;
    return h && h->builtin == TA_BUILTIN_VAR_HANDLE && var_name(ctx, h, &w) && same_var(&w, v);
}

static bool is_variable_op(const TaOp *op)
{
    return op->builtin == TA_BUILTIN_READ_VARIABLE || op->builtin == TA_BUILTIN_ASSIGN_VARIABLE;
}

/* The init subgraph CALL_ONCE runs, or NULL. */
static TaGraph *init_graph(TaPassCtx *ctx, const TaOp *call_once)
{
    TaFbReader r;
    TaFbTable t = options_of(ctx, call_once, &r);
    int s = ta_fb_i32(t, OPT_INIT_SUBGRAPH, -1);
    if (r.failed || !ctx->model || s < 0 || s >= ctx->model->subgraphs.len ||
        s == ctx->graph->model_index)
        return NULL;
    return ctx->model->subgraphs.items[s];
}

/* A variable as the converted subgraph uses it. */
typedef struct Var {
    VarName name;
    TaOp *call_once;       /* the CALL_ONCE whose subgraph initializes it */
    TaGraph *init;         /* that subgraph */
    const TaTensor *value; /* the last constant it assigns */
    TaVec chain;           /* TaOp*: MAXIMUM/MINIMUM steps of the write-backs */
} Var;

/* Finds the starting value: every assignment outside the converted
   subgraph must be a constant in the init subgraph of one CALL_ONCE. */
static bool starting_value(TaPassCtx *ctx, Var *v)
{
    const TaGraph *g = ctx->graph;
    for (int i = 0; i < g->ops.len && !v->init; i++) {
        TaOp *op = TA_OP(g, i);
        if (op->builtin == TA_BUILTIN_CALL_ONCE && !op->removed) {
            TaGraph *init = init_graph(ctx, op);
            for (int k = 0; init && k < init->ops.len; k++)
                if (TA_OP(init, k)->builtin == TA_BUILTIN_ASSIGN_VARIABLE &&
                    names_var(ctx, init, TA_OP(init, k), &v->name)) {
                    v->call_once = op;
                    v->init = init;
                }
        }
    }
    if (!v->init)
        return false;
    for (int s = 0; s < ctx->model->subgraphs.len; s++) {
        const TaGraph *sg = ctx->model->subgraphs.items[s];
        if (sg == g)
            continue;
        for (int k = 0; k < sg->ops.len; k++) {
            const TaOp *op = TA_OP(sg, k);
            if (!is_variable_op(op) || !names_var(ctx, sg, op, &v->name))
                continue;
            if (sg != v->init || op->builtin != TA_BUILTIN_ASSIGN_VARIABLE || op->num_inputs != 2 ||
                !op->inputs[1] || !op->inputs[1]->data)
                return false;
            v->value = op->inputs[1];
        }
    }
    /* Nothing in the converted subgraph may touch it before CALL_ONCE. */
    for (int i = 0; i < v->call_once->index; i++)
        if (is_variable_op(TA_OP(g, i)) && names_var(ctx, g, TA_OP(g, i), &v->name))
            return false;
    return v->value != NULL;
}

static int64_t stored(const TaTensor *t, size_t i)
{
    switch (t->dtype) {
    case TA_INT8: return ((const int8_t *)t->data)[i];
    case TA_INT16: {
        int16_t x;
        memcpy(&x, t->data + 2 * i, 2);
        return x;
    }
    case TA_INT32: {
        int32_t x;
        memcpy(&x, t->data + 4 * i, 4);
        return x;
    }
    default: return 0;
    }
}

static bool integer(TaDtype d)
{
    return d == TA_INT8 || d == TA_INT16 || d == TA_INT32;
}

/* The write-back `assign` stores a MAXIMUM/MINIMUM chain of v's own read
   that leaves the starting value unchanged; its steps go to v->chain. */
static bool invariant_write_back(TaPassCtx *ctx, Var *v, const TaOp *assign)
{
    const TaGraph *g = ctx->graph;
    if (assign->num_inputs != 2 || !assign->inputs[1])
        return false;
    const TaTensor *cur = assign->inputs[1];
    const size_t n = ta_tensor_elements(v->value);
    int steps = 0;
    for (;;) {
        if (cur->dtype != v->value->dtype || ta_tensor_elements(cur) != n)
            return false;
        TaOp *op = producer(g, cur);
        if (!op)
            return false;
        /* The read may have other readers; each step's output only the next. */
        if (op->builtin == TA_BUILTIN_READ_VARIABLE)
            return steps > 0 && names_var(ctx, g, op, &v->name);
        if (cur->output_index >= 0 || ta_tensor_readers(g, cur) != 1)
            return false;
        if ((op->builtin != TA_BUILTIN_MAXIMUM && op->builtin != TA_BUILTIN_MINIMUM) ||
            op->num_inputs != 2 || op->num_outputs != 1 || !op->inputs[0] || !op->inputs[1])
            return false;
        const bool bound_first = op->inputs[0]->data != NULL;
        const TaTensor *bound = op->inputs[bound_first ? 0 : 1];
        const TaTensor *next = op->inputs[bound_first ? 1 : 0];
        size_t nb = ta_tensor_elements(bound);
        if (!bound->data || next->data || bound->dtype != cur->dtype || (nb != 1 && nb != n) ||
            (nb != 1 && bound->rank != cur->rank))
            return false;
        if (nb != 1)
            for (int d = 0; d < cur->rank; d++)
                if (bound->dims[d] != cur->dims[d])
                    return false;
        /* The starting value must already be on the kept side of the bound. */
        for (size_t i = 0; i < n; i++) {
            int64_t x = stored(v->value, i), b = stored(bound, nb == 1 ? 0 : i);
            if (op->builtin == TA_BUILTIN_MAXIMUM ? x < b : x > b)
                return false;
        }
        ta_vec_push(ctx->pool, &v->chain, op);
        steps++;
        cur = next;
    }
}

/* Whether the converted subgraph leaves v unchanged and reads it only
   through READ_VARIABLE outputs that can become constants. */
static bool invariant(TaPassCtx *ctx, Var *v)
{
    const TaGraph *g = ctx->graph;
    const TaTensor *value = v->value;
    bool read = false;
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        if (op->removed || !is_variable_op(op) || !names_var(ctx, g, op, &v->name))
            continue;
        if (op->builtin == TA_BUILTIN_ASSIGN_VARIABLE) {
            if (!integer(value->dtype) || !invariant_write_back(ctx, v, op))
                return false;
            continue;
        }
        const TaTensor *out = op->num_outputs == 1 ? op->outputs[0] : NULL;
        if (!out || out->dtype != value->dtype || ta_tensor_bytes(out) != ta_tensor_bytes(value) ||
            !ta_dtype_size(out->dtype) || out->input_index >= 0 || out->output_index >= 0 ||
            out->is_variable || out->alias_of || out->data)
            return false;
        read = true;
    }
    if (!read)
        return false;
    /* Its handles feed nothing but its reads and write-backs. */
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        for (int k = 0; k < op->num_inputs && !op->removed; k++) {
            const TaTensor *h = op->inputs[k];
            TaOp *p = h ? producer(g, h) : NULL;
            VarName w;
            if (p && p->builtin == TA_BUILTIN_VAR_HANDLE && var_name(ctx, p, &w) &&
                same_var(&w, &v->name) && (k != 0 || !is_variable_op(op)))
                return false;
        }
    }
    return true;
}

/* Removes v's VAR_HANDLE operators of `g` and their handle tensors. */
static void drop_handles(TaPassCtx *ctx, TaGraph *g, const VarName *name)
{
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        VarName w;
        if (!op->removed && op->builtin == TA_BUILTIN_VAR_HANDLE && op->num_outputs == 1 &&
            var_name(ctx, op, &w) && same_var(&w, name) &&
            ta_tensor_readers(g, op->outputs[0]) == 0) {
            op->removed = true;
            op->outputs[0]->removed = true;
        }
    }
}

static void fold(TaPassCtx *ctx, Var *v)
{
    TaGraph *g = ctx->graph;
    for (int i = 0; i < v->chain.len; i++) {
        TaOp *op = v->chain.items[i];
        op->removed = true;
        op->outputs[0]->removed = true;
    }
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        if (op->removed || !is_variable_op(op) || !names_var(ctx, g, op, &v->name))
            continue;
        if (op->builtin == TA_BUILTIN_READ_VARIABLE) {
            TaTensor *out = op->outputs[0];
            out->data = v->value->data;
            out->data_size = ta_tensor_bytes(v->value);
            out->role = TA_REGION_CONSTANT;
        }
        op->removed = true; /* handles are read by nothing removed: names_var still finds them */
    }
    drop_handles(ctx, g, &v->name);
    /* Its initialization goes too; CALL_ONCE with it when nothing is left. */
    TaGraph *init = v->init;
    bool left = false;
    for (int i = 0; i < init->ops.len; i++) {
        TaOp *op = TA_OP(init, i);
        if (!op->removed && op->builtin == TA_BUILTIN_ASSIGN_VARIABLE &&
            names_var(ctx, init, op, &v->name))
            op->removed = true;
    }
    drop_handles(ctx, init, &v->name);
    for (int i = 0; i < init->ops.len; i++)
        left |= !TA_OP(init, i)->removed;
    ta_graph_compact(ctx->pool, init);
    if (!left)
        v->call_once->removed = true;
}

bool ta_pass_fold_invariant_variables(TaPassCtx *ctx)
{
    if (!ctx->model)
        return true;
    TaGraph *g = ctx->graph;
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *read = TA_OP(g, i);
        if (read->removed || read->builtin != TA_BUILTIN_READ_VARIABLE || read->num_inputs < 1 ||
            !read->inputs[0])
            continue;
        TaOp *h = producer(g, read->inputs[0]);
        Var v = {0};
        if (!h || h->builtin != TA_BUILTIN_VAR_HANDLE || !var_name(ctx, h, &v.name))
            continue;
        if (starting_value(ctx, &v) && invariant(ctx, &v))
            fold(ctx, &v);
    }
    return true;
}
