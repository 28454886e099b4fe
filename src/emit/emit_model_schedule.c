/*
 * emit_model_schedule.c - the part of <prefix>_model.c that runs the
 * operators: straight-line calls with IF and WHILE as C statements, or
 * (module.schedule: table) tables walked by one loop that calls the
 * operator callback.
 */
#include "emit_sources.h"

#include "escape.h"

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

void ta_emit_model_schedule(const TaSourcesCtx *c, TaBuf *b)
{
    const TaGraph *g = c->in->graph;
    TaFields f = ta_fields(c->pool, &c->fields);
    if (!c->table) {
        ta_template(b, &f,
                    "static int32_t ${prefix}_run_operators(${prefix}_model_context_t *ctx)\n{\n"
                    "    (void)ctx;\n");
        int depth = 1; /* of the statement's indentation */
        for (int i = 0; i < g->ops.len; i++)
            if (ta_op_calls_with_role(TA_OP(g, i), "run")) {
                ta_buf_puts(b, "    int32_t status;\n");
                break;
            }
        for (int i = 0; i < g->ops.len; i++) {
            const TaOp *op = TA_OP(g, i);
            if (op->control != TA_CONTROL_NONE) {
                depth = emit_control(c, b, op, depth);
                continue;
            }
            const char *indent = ta_format(c->pool, "%*s", 4 * depth, "");
            if (!ta_op_calls_with_role(op, "run")) {
                ta_buf_printf(b, "%s/* layer %d: %s needs no code (%s) */\n", indent, i,
                              ta_escape_c_comment(c->pool, op->type),
                              op->num_outputs && op->outputs[0]->alias_of
                                  ? "its output shares its input's bytes"
                              : op->lowered.calls.len ? "it only initializes state"
                              : op->lowered.no_code
                                  ? ta_escape_c_comment(c->pool, op->lowered.no_code)
                                  : "its outputs share their inputs' bytes");
                continue;
            }
            if (op->row_chain && op->row_chain_pos > 0) {
                ta_buf_printf(b, "%s/* layer %d: runs in the row chain of layer %d */\n", indent, i,
                              op->row_chain->first_op);
                continue;
            }
            ta_buf_printf(b, "%sif ((status = %s_run()) != TA_OK)\n%s    return status;\n", indent,
                          op->lowered.symbol, indent);
        }
        ta_buf_puts(b, "    return TA_OK;\n}\n\n");
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
