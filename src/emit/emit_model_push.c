/*
 * emit_model_push.c - <prefix>_model_push_rows in <prefix>_model.c and
 * its declaration and macros in <prefix>_model.h, with module.input_rows:
 * push (docs/module.md, docs/row-streaming.md). The rows go to the
 * resumable runner of the chain at layer 0 (emit_row_push.c); once the
 * input's last row is in, the rest of the model runs as model_run runs it.
 */
#include "emit_sources.h"

/* The chain taking the pushed rows, or NULL (no row-push input). */
const TaRowChain *ta_push_chain(const TaGraph *g)
{
    for (int i = 0; i < g->row_chains.len; i++)
        if (((const TaRowChain *)g->row_chains.items[i])->push_input)
            return g->row_chains.items[i];
    return NULL;
}

static TaFields push_fields(const TaSourcesCtx *c, const TaRowChain *ch)
{
    const TaTensor *in = ch->buffers[0];
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_field(&f, "chain", TA_OP(c->in->graph, ch->first_op)->lowered.symbol);
    ta_field_int(&f, "height", in->dims[1]);
    ta_field_size(&f, "row_size", (size_t)in->dims[2] * (size_t)in->dims[3]);
    ta_field_int(&f, "buffer_rows", in->row_buffer_rows);
    return f;
}

void ta_emit_model_h_push(const TaSourcesCtx *c, TaBuf *b)
{
    const TaRowChain *ch = ta_push_chain(c->in->graph);
    if (!ch)
        return;
    TaFields f = push_fields(c, ch);
    ta_template(
        b, &f,
        "/* Row-push input (module.input_rows: push): input 0 arrives row by row;\n"
        "   ctx.inputs[0] is a row buffer of ${PREFIX}_INPUT0_BUFFER_ROWS rows, not the\n"
        "   whole tensor. */\n"
        "#define ${PREFIX}_INPUT0_ROWS $height /* rows of the whole input */\n"
        "#define ${PREFIX}_INPUT0_ROW_SIZE $row_size /* bytes in one row */\n"
        "#define ${PREFIX}_INPUT0_BUFFER_ROWS $buffer_rows\n"
        "/* The uneven pieces the test case and the firmware push the rows in. */\n"
        "#include \"runtime/include/ta_push_pieces.h\"\n"
        "/* The same, named by the prefix as written (for runners built with it). */\n"
        "#define ${prefix}_model_push_input_rows $height\n"
        "#define ${prefix}_model_push_row_size $row_size\n"
        "/* Hands the model the next n rows of input 0 (n * ROW_SIZE bytes at\n"
        "   rows; any split of the rows) and runs as far as they allow; with the\n"
        "   last row it runs the rest of the model: the outputs are then ready and\n"
        "   the next push starts the next inference. TA_ERR_TOO_MANY_ROWS (taking\n"
        "   none) for more rows than the input has left, TA_ERR_BAD_ARGUMENT for\n"
        "   n < 0 or rows NULL, TA_ERR_NOT_INITIALIZED before model_init.\n"
        "   model_run before the last row returns TA_ERR_ROWS_MISSING. */\n"
        "int32_t ${prefix}_model_push_rows(${prefix}_model_context_t *ctx, const int8_t *rows,\n"
        "                                  int32_t n);\n");
}

void ta_emit_model_c_push(const TaSourcesCtx *c, TaBuf *b)
{
    const TaRowChain *ch = ta_push_chain(c->in->graph);
    if (!ch)
        return;
    TaFields f = push_fields(c, ch);
    ta_template(b, &f,
                "int32_t ${prefix}_model_push_rows(${prefix}_model_context_t *ctx, const int8_t "
                "*rows,\n                                  int32_t n)\n{\n"
                "    if (ctx == NULL)\n        return TA_ERR_NULL_CONTEXT;\n"
                "    if (${prefix}_initialized != ctx)\n"
                "        return TA_ERR_NOT_INITIALIZED;\n");
    if (c->staged)
        ta_template(b, &f,
                    "    if (!${prefix}_hydrated)\n        return TA_ERR_HYDRATION_REQUIRED;\n");
    ta_template(b, &f,
                "    if (n < 0 || (rows == NULL && n > 0))\n        return TA_ERR_BAD_ARGUMENT;\n"
                "    if ((uint32_t)n > ${height}u - ${chain}_pushed())\n"
                "        return TA_ERR_TOO_MANY_ROWS;\n"
                "    int32_t status = ${chain}_push(rows, (uint32_t)n);\n"
                "    if (status != TA_OK || ${chain}_pushed() < ${height}u) {\n"
                "        if (status != TA_OK)\n            ${chain}_push_reset();\n"
                "        return status;\n    }\n"
                "    status = ${prefix}_run_operators(ctx);\n"
                "    ${chain}_push_reset(); /* the next row starts the next inference */\n"
                "    return status;\n}\n\n");
}

void ta_emit_model_init_push(const TaSourcesCtx *c, TaBuf *b)
{
    const TaRowChain *ch = ta_push_chain(c->in->graph);
    if (ch)
        ta_buf_printf(b, "    %s_push_reset();\n",
                      TA_OP(c->in->graph, ch->first_op)->lowered.symbol);
}
