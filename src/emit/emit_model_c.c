/*
 * emit_model_c.c - <prefix>_model.c: the tables and binding
 * (emit_model_binding.c), the hydration latch and default hydration,
 * context_init, the schedule (emit_model_schedule.c), model_init and
 * model_run, the I/O conversions and the identity.
 */
#include "emit_sources.h"

#include "emit_identity.h"

#include <string.h>

static void emit_io_pointer(const TaSourcesCtx *c, TaBuf *b, const char *field, int i,
                            const TaTensor *t)
{
    const char *data = "NULL";
    if (t->place.region) {
        data = ta_format(c->pool, "(int8_t *)(%s + %zu)",
                         ta_sources_region_base(c, t->place.region), t->place.offset);
    }
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_field(&f, "field", field);
    ta_field_int(&f, "index", i);
    ta_field(&f, "data", data);
    const bool input = strcmp(field, "inputs") == 0;
    ta_field(&f, "KIND", input ? "INPUT" : "OUTPUT");
    ta_field(&f, "id", ta_tensor_enum(c->pool, c->p, t));
    ta_template(b, &f,
                "    ctx->$field[$index].id = $id;\n"
                "    ctx->$field[$index].data = $data;\n");
    if (input && t->row_buffer_bytes) /* row-push input: its row buffer */
        ta_buf_printf(b, "    ctx->inputs[%d].size = %zu;\n", i, t->row_buffer_bytes);
    else
        ta_template(b, &f, "    ctx->$field[$index].size = ${PREFIX}_${KIND}${index}_SIZE;\n");
    ta_emit_io_quantization(c->in, &f, b, t, input, i);
}

/* The weak default hydration: one copy per staged region, into the buffer
   the context's arena table holds for it. */
static void emit_hydrate(const TaSourcesCtx *c, TaBuf *b)
{
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_template(b, &f,
                "TA_WEAK int32_t ${prefix}_hydrate_constants(${prefix}_model_context_t *ctx)\n{\n"
                "    if (ctx == NULL)\n        return TA_ERR_NULL_CONTEXT;\n"
                "    if (ctx->arena_buffers == NULL)\n"
                "        return TA_ERR_HYDRATE_UNINITIALIZED;\n"
                "    if (${prefix}_hydrated)\n        return TA_OK;\n");
    for (int i = 0; i < c->num_regions; i++) {
        const TaRegion *r = ta_sources_region(c, i);
        if (!r->staged)
            continue;
        TaFields rf = ta_fields(c->pool, &f);
        ta_field(&rf, "region", ta_region_enum(c->pool, c->p, r));
        ta_template(b, &rf,
                    "    if (ctx->arena_buffers[$region] == NULL)\n"
                    "        return TA_ERR_HYDRATE_NULL_BLOB;\n");
    }
    for (int i = 0; i < c->num_regions; i++) {
        const TaRegion *r = ta_sources_region(c, i);
        if (!r->staged)
            continue;
        TaFields rf = ta_fields(c->pool, &f);
        ta_field(&rf, "region", ta_region_enum(c->pool, c->p, r));
        ta_field(&rf, "source", r->source_symbol);
        ta_field_size(&rf, "guard", r->guard);
        ta_field_size(&rf, "source_guard", r->source_guard);
        ta_field_size(&rf, "size", r->size);
        /* The table is const for the application's sake; the buffer is writable. */
        ta_template(b, &rf,
                    "    memcpy((uint8_t *)(uintptr_t)ctx->arena_buffers[$region] + $guard,\n"
                    "           $source + $source_guard, $size);\n");
    }
    ta_template(b, &f, "    ${prefix}_mark_hydrated();\n    return TA_OK;\n}\n\n");
}

static void emit_context_init(const TaSourcesCtx *c, TaBuf *b)
{
    const TaGraph *g = c->in->graph;
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_field_int(&f, "region_slots", c->num_regions ? c->num_regions : 1);
    if (c->own) {
        TaBuf bases = {0};
        for (int i = 0; i < c->num_regions; i++)
            ta_buf_printf(&bases, "%s%s", i ? ", " : "", ta_sources_region(c, i)->symbol);
        ta_field(&f, "bases", bases.len ? ta_strdup(c->pool, bases.data) : "NULL");
        ta_buf_free(&bases);
        ta_template(
            b, &f,
            "/* Each region's arena, as ctx->arena_buffers shows it. */\n"
            "static const void *const ${prefix}_arena_table[$region_slots] = {$bases};\n\n");
    }
    ta_template(b, &f,
                "int32_t ${prefix}_context_init(${prefix}_model_context_t *ctx)\n{\n"
                "    if (ctx == NULL)\n        return TA_ERR_NULL_CONTEXT;\n");
    if (!c->own)
        ta_template(b, &f,
                    "    for (int i = 0; i < ${PREFIX}_NUM_ARENA_REGIONS; i++)\n"
                    "        if (${prefix}_bound[i] == NULL)\n"
                    "            return TA_ERR_UNBOUND_REGION;\n"
                    "    ctx->arena_buffers = (const void *const *)${prefix}_bound;\n");
    else
        ta_template(b, &f, "    ctx->arena_buffers = ${prefix}_arena_table;\n");
    ta_template(b, &f, "    ctx->arena_sizes = ${prefix}_arena_sizes;\n");
    for (int i = 0; i < g->inputs.len; i++)
        emit_io_pointer(c, b, "inputs", i, g->inputs.items[i]);
    for (int i = 0; i < g->outputs.len; i++)
        emit_io_pointer(c, b, "outputs", i, g->outputs.items[i]);
    if (c->staged)
        ta_template(b, &f, "    ${prefix}_clear_hydrated();\n");
    ta_template(b, &f, "    return TA_OK;\n}\n\n");
}

static void emit_model_init(const TaSourcesCtx *c, TaBuf *b)
{
    const TaGraph *g = c->in->graph;
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_template(b, &f,
                "int32_t ${prefix}_model_init(${prefix}_model_context_t *ctx)\n{\n"
                "    if (ctx == NULL)\n        return TA_ERR_NULL_CONTEXT;\n"
                "    ${prefix}_initialized = NULL;\n");
    if (!c->own)
        ta_template(b, &f, "    ${prefix}_rebound = 0;\n");
    ta_template(b, &f,
                "    int32_t status = ${prefix}_context_init(ctx);\n"
                "    if (status != TA_OK)\n        return status;\n");
    for (int i = 0; i < c->num_regions; i++) {
        const TaRegion *r = ta_sources_region(c, i);
        if (r->role == TA_REGION_PERSISTENT)
            ta_buf_printf(b, "    memset(%s, 0, %zu);\n", ta_sources_region_base(c, r), r->size);
    }
    if (c->staged)
        ta_template(b, &f,
                    "    if ((status = ${prefix}_hydrate_constants(ctx)) != TA_OK)\n"
                    "        return status;\n"
                    "    /* Success without the latch: the staged bytes may not be there. */\n"
                    "    if (!${prefix}_hydrated)\n        return TA_ERR_HYDRATION_FAILED;\n");
    /* State that does not start at zero bytes (zero points, initial
       values of variables), in layer order, once constants are in place. */
    if (c->table) {
        ta_template(b, &f,
                    "    status = ${prefix}_each_operator(ctx, ${prefix}_init_schedule,"
                    " ${prefix}_op_state_init_started);\n"
                    "    if (status != TA_OK)\n        return status;\n");
    } else {
        for (int i = 0; i < g->ops.len; i++) {
            const TaOp *op = TA_OP(g, i);
            if (ta_op_calls_with_role(op, "init"))
                ta_buf_printf(b, "    if ((status = %s_init()) != TA_OK)\n        return status;\n",
                              op->lowered.symbol);
        }
    }
    ta_emit_model_init_push(c, b);
    ta_template(b, &f, "    ${prefix}_initialized = ctx;\n    return TA_OK;\n}\n\n");
}

void ta_emit_model_c(const TaSourcesCtx *c, TaBuf *b)
{
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_template(b, &f,
                "/* $model_c - generated by tinyaot: initialization and scheduling. */\n"
                "#include \"${prefix}_internal.h\"\n\n#include <string.h>\n\n");
    ta_emit_cpu_check(c->in, b);
    ta_emit_model_tables(c, b);
    ta_template(b, &f,
                "/* Module-global: one model instance per prefix. */\n"
                "/* The context of the last successful model_init (NULL: none since the\n"
                "   last bind): runs and the io helpers take no other. */\n"
                "static const ${prefix}_model_context_t *${prefix}_initialized;\n");
    if (c->staged)
        ta_template(b, &f, "static bool ${prefix}_hydrated;\n");
    if (!c->own)
        ta_template(b, &f,
                    "static int ${prefix}_rebound; /* bound since the last successful init */\n");
    ta_buf_puts(b, "\n");
    ta_emit_model_binding(c, b);
    if (c->staged) {
        ta_template(
            b, &f,
            "bool ${prefix}_is_hydrated(void)\n{\n    return ${prefix}_hydrated;\n}\n\n"
            "void ${prefix}_mark_hydrated(void)\n{\n    ${prefix}_hydrated = true;\n}\n\n"
            "void ${prefix}_clear_hydrated(void)\n{\n    ${prefix}_hydrated = false;\n}\n\n");
        emit_hydrate(c, b);
    } else {
        ta_template(b, &f, "void ${prefix}_mark_hydrated(void)\n{\n}\n\n");
    }
    emit_context_init(c, b);
    ta_emit_model_schedule(c, b);
    emit_model_init(c, b);
    ta_template(b, &f,
                "int32_t ${prefix}_model_run(${prefix}_model_context_t *ctx)\n{\n"
                "    if (ctx == NULL)\n        return TA_ERR_NULL_CONTEXT;\n");
    ta_template(
        b, &f,
        c->own ? "    if (${prefix}_initialized != ctx)\n        return TA_ERR_NOT_INITIALIZED;\n"
               : "    if (${prefix}_initialized != ctx)\n"
                 "        return ${prefix}_rebound ? TA_ERR_ARENA_REBOUND"
                 " : TA_ERR_NOT_INITIALIZED;\n");
    if (c->staged)
        ta_template(b, &f,
                    "    if (!${prefix}_hydrated)\n        return TA_ERR_HYDRATION_REQUIRED;\n");
    ta_template(b, &f, "    return ${prefix}_run_operators(ctx);\n}\n\n");
    ta_emit_model_c_push(c, b);
    ta_emit_io_source(c->in, &c->fields, b);
    ta_emit_identity_source(c->in, &c->fields, b);
}
