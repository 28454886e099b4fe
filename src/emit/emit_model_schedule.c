/*
 * emit_model_schedule.c - the part of <prefix>_model.c that runs the
 * operators: straight-line calls with IF and WHILE as C statements, or
 * (module.schedule: table) tables walked by one loop that calls the
 * operator callback.
 */
#include "emit_sources.h"

#include "escape.h"

#include "../passes/passes.h"

/* An IF or WHILE marker (ir.h, TaControl) as the C statement it opens or
   closes; returns the indentation depth after it. */
static int emit_control(const TaSourcesCtx *c, TaBuf *b, const TaOp *op, int depth)
{
    const char *cond = op->control_cond ? ta_sources_tensor_ptr(c, op->control_cond) : NULL;
    const char *in = ta_format(c->pool, "%*s", 4 * depth, "");
    const char *out = depth > 1 ? ta_format(c->pool, "%*s", 4 * (depth - 1), "") : in;
    const char *from = op->model_index >= 0 && op->model_subgraph > 0
                           ? ta_format(c->pool, " (model subgraph %d operator %d)",
                                       op->model_subgraph, op->model_index)
                       : op->model_index >= 0
                           ? ta_format(c->pool, " (model operator %d)", op->model_index)
                           : "";
    switch (op->control) {
    case TA_CONTROL_IF_BEGIN:
        ta_buf_printf(b, "%s/* layer %d: IF%s */\n%sif (%s[0]) {\n", in, op->index, from, in, cond);
        return depth + 1;
    case TA_CONTROL_IF_ELSE:
        ta_buf_printf(b, "%s} else { /* layer %d */\n", out, op->index);
        return depth;
    case TA_CONTROL_IF_END:
    case TA_CONTROL_LOOP_END:
        ta_buf_printf(b, "%s} /* layer %d: end of %s */\n", out, op->index,
                      op->control == TA_CONTROL_IF_END ? "IF" : "WHILE");
        return depth - 1;
    case TA_CONTROL_LOOP_BEGIN:
        ta_buf_printf(b, "%s/* layer %d: WHILE%s */\n%sfor (;;) {\n", in, op->index, from, in);
        return depth + 1;
    case TA_CONTROL_LOOP_TEST:
        ta_buf_printf(b, "%sif (!%s[0]) /* layer %d: the loop's condition */\n%s    break;\n", in,
                      cond, op->index, in);
        return depth;
    case TA_CONTROL_NONE: break;
    }
    ta_unreachable();
    return depth;
}

/* Why layer i has no call of its own in the schedule, or NULL: it has. */
static const char *no_call_reason(const TaSourcesCtx *c, const TaOp *op)
{
    if (ta_op_calls_with_role(op, "run"))
        return op->row_chain && op->row_chain_pos > 0
                   ? ta_format(c->pool, "runs in the row chain of layer %d",
                               op->row_chain->first_op)
                   : NULL;
    return ta_format(c->pool, "%s needs no code (%s)", ta_escape_c_comment(c->pool, op->type),
                     op->num_outputs && op->outputs[0]->alias_of
                         ? "its output shares its input's bytes"
                     : op->lowered.calls.len ? "it only initializes state"
                     : op->lowered.no_code   ? ta_escape_c_comment(c->pool, op->lowered.no_code)
                                             : "its outputs share their inputs' bytes");
}

/* From this many run calls on, a schedule without IF or WHILE is a table
   of the run functions walked by a loop: 4 bytes a layer against 8 for a
   call and its status test, for 3 more instructions a layer (a loop's
   fixed cost pays off from about 6 calls; below 12 the instructions weigh
   more on the small models those are). */
enum { RUN_TABLE_MIN_CALLS = 12 };

static int count_run_calls(const TaSourcesCtx *c)
{
    const TaGraph *g = c->in->graph;
    int n = 0;
    for (int i = 0; i < g->ops.len; i++)
        n += TA_OP(g, i)->control == TA_CONTROL_NONE && !no_call_reason(c, TA_OP(g, i));
    return n;
}

static void emit_run_table(const TaSourcesCtx *c, TaBuf *b, int calls)
{
    const TaGraph *g = c->in->graph;
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_field_int(&f, "calls", calls);
    ta_template(b, &f,
                "typedef int (*${prefix}_run_fn)(void);\n"
                "/* The layers' run functions in schedule order. */\n"
                "static const ${prefix}_run_fn ${prefix}_runs[$calls] = {\n");
    for (int i = 0; i < g->ops.len; i++) {
        const char *why = no_call_reason(c, TA_OP(g, i));
        if (why)
            ta_buf_printf(b, "    /* layer %d: %s */\n", i, why);
        else
            ta_buf_printf(b, "    %s_run, /* layer %d */\n", TA_OP(g, i)->lowered.symbol, i);
    }
    ta_template(b, &f,
                "};\n\n"
                "static int32_t ${prefix}_run_operators(${prefix}_model_context_t *ctx)\n{\n"
                "    (void)ctx;\n"
                "    for (uint32_t i = 0; i < ${calls}u; i++) {\n"
                "        const int32_t status = ${prefix}_runs[i]();\n"
                "        if (status != TA_OK)\n"
                "            return status;\n"
                "    }\n"
                "    return TA_OK;\n}\n\n");
}

static void emit_calls(const TaSourcesCtx *c, TaBuf *b)
{
    const TaGraph *g = c->in->graph;
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_template(b, &f,
                "static int32_t ${prefix}_run_operators(${prefix}_model_context_t *ctx)\n{\n"
                "    (void)ctx;\n");
    if (count_run_calls(c))
        ta_buf_puts(b, "    int32_t status;\n");
    int depth = 1; /* of the statement's indentation */
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        if (op->control != TA_CONTROL_NONE) {
            depth = emit_control(c, b, op, depth);
            continue;
        }
        const char *indent = ta_format(c->pool, "%*s", 4 * depth, "");
        const char *why = no_call_reason(c, op);
        if (why)
            ta_buf_printf(b, "%s/* layer %d: %s */\n", indent, i, why);
        else
            ta_buf_printf(b, "%sif ((status = %s_run()) != TA_OK)\n%s    return status;\n", indent,
                          op->lowered.symbol, indent);
    }
    ta_buf_puts(b, "    return TA_OK;\n}\n\n");
}

void ta_emit_model_schedule(const TaSourcesCtx *c, TaBuf *b)
{
    const TaGraph *g = c->in->graph;
    TaFields f = ta_fields(c->pool, &c->fields);
    if (!c->table) {
        const int calls = count_run_calls(c);
        if (calls >= RUN_TABLE_MIN_CALLS && !ta_graph_has_control_flow(g))
            emit_run_table(c, b, calls);
        else
            emit_calls(c, b);
        return;
    }
    ta_field_int(&f, "operator_slots", g->ops.len ? g->ops.len : 1);
    ta_template(b, &f,
                "typedef int (*${prefix}_op_fn)(void);\n"
                "/* The schedule, by layer_index; NULL: no code for that layer. */\n"
                "static const ${prefix}_op_fn ${prefix}_schedule[$operator_slots] = {\n");
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        if (op->row_chain && op->row_chain_pos > 0)
            ta_buf_printf(b, "    NULL, /* runs in the row chain of layer %d */\n",
                          op->row_chain->first_op);
        else if (ta_op_calls_with_role(op, "run"))
            ta_buf_printf(b, "    %s_run,\n", op->lowered.symbol);
        else
            ta_buf_printf(b, "    NULL, /* %s */\n", ta_escape_c_comment(c->pool, op->type));
    }
    if (!g->ops.len)
        ta_buf_puts(b, "    NULL\n");
    ta_buf_puts(b, "};\n\n");
    ta_template(b, &f,
                "/* The init hooks, by layer_index; NULL: that layer has none. */\n"
                "static const ${prefix}_op_fn ${prefix}_init_schedule[$operator_slots] = {\n");
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        if (ta_op_calls_with_role(op, "init"))
            ta_buf_printf(b, "    %s_init,\n", op->lowered.symbol);
        else
            ta_buf_puts(b, "    NULL,\n");
    }
    if (!g->ops.len)
        ta_buf_puts(b, "    NULL\n");
    ta_buf_puts(b, "};\n\n");
    /* One loop for both phases: init reports states 0/1, run 2/3. */
    ta_template(b, &f,
                "static int32_t ${prefix}_each_operator(${prefix}_model_context_t *ctx,\n"
                "                                       const ${prefix}_op_fn *hooks,"
                " ${prefix}_operator_state_t started)\n{\n"
                "    const ${prefix}_operator_callback callback = ctx->callback;\n"
                "    const ${prefix}_operator_state_t finished ="
                " (${prefix}_operator_state_t)(started + 1);\n"
                "    int32_t status = TA_OK;\n"
                "    for (int32_t i = 0; i < ${PREFIX}_NUM_OPERATORS; i++) {\n"
                "        if (callback)\n"
                "            callback(i, started, status, ctx->user_data);\n"
                "        status = hooks[i] ? hooks[i]() : TA_OK;\n"
                "        if (callback)\n"
                "            callback(i, finished, status, ctx->user_data);\n"
                "        if (status != TA_OK)\n            return status;\n    }\n"
                "    return TA_OK;\n}\n\n"
                "static int32_t ${prefix}_run_operators(${prefix}_model_context_t *ctx)\n{\n"
                "    return ${prefix}_each_operator(ctx, ${prefix}_schedule,"
                " ${prefix}_op_state_run_started);\n}\n\n");
}
