/*
 * inline_control_flow.c - IF and WHILE: their subgraphs join the converted
 * graph's operator list between control-flow markers (ir.h, TaControl),
 * so lowering, planning and emitting see one flat list.
 *
 * Each subgraph gets its own tensors ("s<subgraph>.<tensor>") and keeps
 * its operators' indices (TaOp.model_subgraph, .model_index). Values
 * cross a subgraph's boundary by COPY operators, as TFLite Micro copies
 * them (if.cc, while.cc):
 *
 *   IF (cond, x...) -> y...          WHILE (x...) -> y...
 *     IF_BEGIN cond                    COPY x -> y
 *       COPY x -> then inputs          LOOP_BEGIN
 *       then operators                   COPY y -> cond inputs
 *       COPY then outputs -> y           cond operators
 *     IF_ELSE                            LOOP_TEST cond output
 *       (the same for else)              COPY y -> body inputs
 *     IF_END                             body operators
 *                                        COPY body outputs -> y
 *                                      LOOP_END
 *
 * Because nothing outside a block reads a tensor made inside it, passes
 * that only look at producers and readers stay inside a block. Refused:
 * a subgraph used by more than one operator (its operators would need two
 * names), nesting deeper than TA_MAX_CONTROL_DEPTH (which also stops a
 * subgraph calling itself), and operands whose shape or type differ from
 * the subgraph's (TFLite Micro would resize tensors at run time).
 */
#include "passes.h"

#include "../lower/control_flow.h"
#include "../lower/ops.h"
#include "../model/fb.h"

#include <string.h>

enum { TA_MAX_CONTROL_DEPTH = 4 };
enum { OPT_FIRST_SUBGRAPH = 0, OPT_SECOND_SUBGRAPH = 1 };

typedef struct Inliner {
    TaPool *pool;
    TaDiag *diag;
    const char *model_path;
    const TaModel *model;
    TaGraph *graph; /* the converted graph, which receives everything */
    TaVec ops;      /* the new operator list */
    bool *inlined;  /* by subgraph index: already placed once */
} Inliner;

static bool is_control(const TaOp *op)
{
    return op->builtin == TA_BUILTIN_IF || op->builtin == TA_BUILTIN_WHILE;
}

static TaOp *new_op(Inliner *in, const char *type, int builtin, TaControl control)
{
    TaOp *op = ta_alloc(in->pool, sizeof *op);
    op->model_index = -1;
    op->builtin = builtin;
    op->type = type;
    op->version = 1;
    op->control = control;
    op->plan_hints.inplace_input = -1;
    op->plan_hints.overlap_input = -1;
    op->code_memory = -1;
    op->def = builtin < 0 ? &ta_op_control_marker : NULL;
    ta_vec_push(in->pool, &in->ops, op);
    return op;
}

static TaTensor **one_tensor(Inliner *in, TaTensor *t)
{
    TaTensor **v = ta_alloc(in->pool, sizeof *v);
    v[0] = t;
    return v;
}

/* A marker: `source` is the IF or WHILE it stands for (its indices), or
   NULL for a marker the pass creates. */
static TaOp *marker(Inliner *in, const char *type, TaControl control, const TaOp *source,
                    TaTensor *cond)
{
    TaOp *op = new_op(in, type, source ? source->builtin : -1, control);
    if (source) {
        op->model_index = source->model_index;
        op->model_subgraph = source->model_subgraph;
        op->version = source->version;
    }
    op->control_cond = cond;
    if (cond) {
        op->inputs = one_tensor(in, cond);
        op->num_inputs = 1;
    }
    return op;
}

static void copy(Inliner *in, TaTensor *from, TaTensor *to)
{
    TaOp *op = new_op(in, "COPY", -1, TA_CONTROL_NONE);
    op->def = &ta_op_control_copy;
    op->inputs = one_tensor(in, from);
    op->num_inputs = 1;
    op->outputs = one_tensor(in, to);
    op->num_outputs = 1;
}

static bool same_layout(const TaTensor *a, const TaTensor *b)
{
    if (a->dtype != b->dtype || a->rank != b->rank)
        return false;
    for (int i = 0; i < a->rank; i++)
        if (a->dims[i] != b->dims[i])
            return false;
    return true;
}

/* Operand `t` of `op` against the subgraph's tensor `s`. */
static bool expect_layout(Inliner *in, const TaOp *op, const char *what, int k, const TaTensor *t,
                          int sg, const char *sg_what, int sk, const TaTensor *s)
{
    if (same_layout(t, s))
        return true;
    ta_error(in->diag,
             "%s: %s: %s %d (tensor %s) is %s %s, subgraph %d %s %d is %s %s; tinyaot needs "
             "them equal (no shapes that change at run time)",
             in->model_path, ta_op_describe(in->pool, op), what, k, t->id, ta_dtype_name(t->dtype),
             ta_shape_text(in->pool, t), sg, sg_what, sk, ta_dtype_name(s->dtype),
             ta_shape_text(in->pool, s));
    return false;
}

/* The copy of subgraph `g` in the converted graph: tensors by index. */
typedef struct Body {
    const TaGraph *g;
    TaTensor **tensors;
} Body;

static bool inline_ops(Inliner *in, const TaGraph *g, TaTensor **map, int depth);

static TaTensor *clone_tensor(Inliner *in, const TaTensor *s, int sg)
{
    const char *id = ta_format(in->pool, "s%d.%s", sg, s->id);
    TaTensor *t = ta_graph_new_tensor(in->pool, in->graph, id, s->dtype, s->rank, s->dims);
    int index = t->index;
    *t = *s;
    t->index = index;
    t->id = id;
    t->input_index = -1;
    t->output_index = -1;
    t->first_use = t->last_use = -1;
    return t;
}

/* Checks subgraph `sg` and gives it tensors in the converted graph. */
static bool open_body(Inliner *in, const TaOp *op, int sg, Body *b)
{
    if (sg < 0 || sg >= in->model->subgraphs.len) {
        ta_error(in->diag, "%s: %s: subgraph %d is not a subgraph of the model it can run",
                 in->model_path, ta_op_describe(in->pool, op), sg);
        return false;
    }
    if (in->inlined[sg]) {
        ta_error(in->diag,
                 "%s: %s: subgraph %d is already run by another operator; tinyaot places each "
                 "subgraph once",
                 in->model_path, ta_op_describe(in->pool, op), sg);
        return false;
    }
    in->inlined[sg] = true;
    TaGraph *g = in->model->subgraphs.items[sg];
    TaPassCtx check = {
        .pool = in->pool, .diag = in->diag, .graph = g, .model_path = in->model_path};
    if (!ta_pass_check(&check))
        return false;
    b->g = g;
    b->tensors = ta_alloc_array(in->pool, (size_t)g->tensors.len + 1, sizeof *b->tensors);
    for (int i = 0; i < g->tensors.len; i++)
        b->tensors[i] = clone_tensor(in, TA_TENSOR(g, i), sg);
    return true;
}

static TaTensor *body_input(const Body *b, int k)
{
    return b->tensors[((const TaTensor *)b->g->inputs.items[k])->index];
}

static TaTensor *body_output(const Body *b, int k)
{
    return b->tensors[((const TaTensor *)b->g->outputs.items[k])->index];
}

/* Subgraph inputs against op->inputs[first...], outputs against op->outputs. */
static bool check_signature(Inliner *in, const TaOp *op, const Body *b, int first)
{
    int sg = b->g->model_index;
    int n_in = op->num_inputs - first;
    if (b->g->inputs.len != n_in || b->g->outputs.len != op->num_outputs) {
        ta_error(in->diag,
                 "%s: %s: subgraph %d has %d inputs and %d outputs, the operator passes %d and "
                 "takes %d",
                 in->model_path, ta_op_describe(in->pool, op), sg, b->g->inputs.len,
                 b->g->outputs.len, n_in, op->num_outputs);
        return false;
    }
    for (int k = 0; k < n_in; k++)
        if (!op->inputs[first + k] ||
            !expect_layout(in, op, "input", first + k, op->inputs[first + k], sg, "input", k,
                           body_input(b, k)))
            return false;
    for (int k = 0; k < op->num_outputs; k++)
        if (!expect_layout(in, op, "output", k, op->outputs[k], sg, "output", k, body_output(b, k)))
            return false;
    return true;
}

static bool subgraph_options(Inliner *in, const TaOp *op, int *first, int *second)
{
    TaFbReader r = {.buf = op->options_buf,
                    .len = op->options_buf_len,
                    .path = in->model_path,
                    .diag = in->diag};
    ta_fb_where(&r, "%s options", ta_op_describe(in->pool, op));
    if (!op->options_pos) {
        ta_error(in->diag, "%s: %s: has no options naming its subgraphs", in->model_path,
                 ta_op_describe(in->pool, op));
        return false;
    }
    TaFbTable t = ta_fb_table_at(&r, op->options_pos);
    *first = ta_fb_i32(t, OPT_FIRST_SUBGRAPH, 0);
    *second = ta_fb_i32(t, OPT_SECOND_SUBGRAPH, 0);
    return !r.failed;
}

static bool inline_if(Inliner *in, TaOp *op, int depth)
{
    int then_sg, else_sg;
    Body then_b, else_b;
    if (!subgraph_options(in, op, &then_sg, &else_sg))
        return false;
    if (op->num_inputs < 1 || !op->inputs[0] || op->inputs[0]->dtype != TA_BOOL ||
        ta_tensor_elements(op->inputs[0]) < 1) {
        ta_error(in->diag, "%s: %s: input 0 (the condition) must be a bool tensor", in->model_path,
                 ta_op_describe(in->pool, op));
        return false;
    }
    if (!open_body(in, op, then_sg, &then_b) || !check_signature(in, op, &then_b, 1) ||
        !open_body(in, op, else_sg, &else_b) || !check_signature(in, op, &else_b, 1))
        return false;
    marker(in, "IF", TA_CONTROL_IF_BEGIN, op, op->inputs[0]);
    const Body *branches[2] = {&then_b, &else_b};
    for (int b = 0; b < 2; b++) {
        const Body *body = branches[b];
        if (b == 1)
            marker(in, "ELSE", TA_CONTROL_IF_ELSE, NULL, NULL);
        for (int k = 1; k < op->num_inputs; k++)
            copy(in, op->inputs[k], body_input(body, k - 1));
        if (!inline_ops(in, body->g, body->tensors, depth + 1))
            return false;
        for (int k = 0; k < op->num_outputs; k++)
            copy(in, body_output(body, k), op->outputs[k]);
    }
    marker(in, "END_IF", TA_CONTROL_IF_END, NULL, NULL);
    return true;
}

static bool inline_while(Inliner *in, TaOp *op, int depth)
{
    int cond_sg, body_sg;
    Body cond_b, body_b;
    if (!subgraph_options(in, op, &cond_sg, &body_sg))
        return false;
    if (op->num_inputs != op->num_outputs) {
        ta_error(in->diag, "%s: %s: has %d inputs and %d outputs; a loop carries each input",
                 in->model_path, ta_op_describe(in->pool, op), op->num_inputs, op->num_outputs);
        return false;
    }
    for (int k = 0; k < op->num_inputs; k++)
        if (!op->inputs[k] || !expect_layout(in, op, "input", k, op->inputs[k], 0,
                                             "(the operator's) output", k, op->outputs[k]))
            return false;
    if (!open_body(in, op, cond_sg, &cond_b))
        return false;
    if (cond_b.g->inputs.len != op->num_inputs || cond_b.g->outputs.len != 1 ||
        body_output(&cond_b, 0)->dtype != TA_BOOL) {
        ta_error(in->diag,
                 "%s: %s: cond subgraph %d must take the %d loop values and give one bool",
                 in->model_path, ta_op_describe(in->pool, op), cond_sg, op->num_inputs);
        return false;
    }
    for (int k = 0; k < op->num_inputs; k++)
        if (!expect_layout(in, op, "input", k, op->inputs[k], cond_sg, "input", k,
                           body_input(&cond_b, k)))
            return false;
    if (!open_body(in, op, body_sg, &body_b) || !check_signature(in, op, &body_b, 0))
        return false;
    for (int k = 0; k < op->num_inputs; k++)
        copy(in, op->inputs[k], op->outputs[k]);
    marker(in, "WHILE", TA_CONTROL_LOOP_BEGIN, op, NULL);
    for (int k = 0; k < op->num_outputs; k++)
        copy(in, op->outputs[k], body_input(&cond_b, k));
    if (!inline_ops(in, cond_b.g, cond_b.tensors, depth + 1))
        return false;
    marker(in, "WHILE_TEST", TA_CONTROL_LOOP_TEST, NULL, body_output(&cond_b, 0));
    for (int k = 0; k < op->num_outputs; k++)
        copy(in, op->outputs[k], body_input(&body_b, k));
    if (!inline_ops(in, body_b.g, body_b.tensors, depth + 1))
        return false;
    for (int k = 0; k < op->num_outputs; k++)
        copy(in, body_output(&body_b, k), op->outputs[k]);
    marker(in, "END_WHILE", TA_CONTROL_LOOP_END, NULL, NULL);
    return true;
}

static TaTensor **remap(Inliner *in, TaTensor **refs, int n, TaTensor **map)
{
    if (!map || n == 0)
        return refs;
    TaTensor **out = ta_alloc_array(in->pool, (size_t)n, sizeof *out);
    for (int i = 0; i < n; i++)
        out[i] = refs[i] ? map[refs[i]->index] : NULL;
    return out;
}

/* Appends g's operators (tensors through `map`; NULL: the converted graph). */
static bool inline_ops(Inliner *in, const TaGraph *g, TaTensor **map, int depth)
{
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        if (map) { /* a subgraph's operator: a copy on the subgraph's tensors */
            TaOp *c = ta_alloc(in->pool, sizeof *c);
            *c = *op;
            c->inputs = remap(in, op->inputs, op->num_inputs, map);
            c->outputs = remap(in, op->outputs, op->num_outputs, map);
            c->intermediates = remap(in, op->intermediates, op->num_intermediates, map);
            op = c;
        }
        if (!is_control(op)) {
            ta_vec_push(in->pool, &in->ops, op);
            continue;
        }
        if (depth >= TA_MAX_CONTROL_DEPTH) {
            ta_error(in->diag, "%s: %s: control flow nested %d deep; tinyaot supports %d levels",
                     in->model_path, ta_op_describe(in->pool, op), depth + 1, TA_MAX_CONTROL_DEPTH);
            return false;
        }
        bool ok = op->builtin == TA_BUILTIN_IF ? inline_if(in, op, depth)
                                               : inline_while(in, op, depth);
        if (!ok)
            return false;
    }
    return true;
}

bool ta_graph_has_control_flow(const TaGraph *g)
{
    for (int i = 0; i < g->ops.len; i++)
        if (TA_OP(g, i)->control != TA_CONTROL_NONE || is_control(TA_OP(g, i)))
            return true;
    return false;
}

bool ta_pass_inline_control_flow(TaPassCtx *ctx)
{
    TaGraph *g = ctx->graph;
    if (!ta_graph_has_control_flow(g))
        return true;
    Inliner in = {.pool = ctx->pool,
                  .diag = ctx->diag,
                  .model_path = ctx->model_path,
                  .model = ctx->model,
                  .graph = g};
    in.inlined = ta_alloc_array(ctx->pool, (size_t)ctx->model->subgraphs.len + 1, sizeof(bool));
    in.inlined[g->model_index] = true;
    if (!inline_ops(&in, g, NULL, 0))
        return false;
    g->ops = in.ops;
    for (int i = 0; i < g->ops.len; i++)
        TA_OP(g, i)->index = i;
    return true;
}
