/*
 * emit_model_binding.c - the part of <prefix>_model.c that describes the
 * regions and binds them: the size, alignment, role and I/O tables, the
 * bind functions (caller-supplied arenas) and the module descriptor.
 */
#include "emit_sources.h"

#include "escape.h"

/* The elements of an array initializer, "a, b, c"; `empty` when there are
   none (the array keeps one element). */
static const char *elements(const TaSourcesCtx *c, const TaVec *items, const char *empty)
{
    if (items->len == 0)
        return empty;
    TaBuf b = {0};
    for (int i = 0; i < items->len; i++)
        ta_buf_printf(&b, "%s%s", i ? ", " : "", (const char *)items->items[i]);
    const char *s = ta_strdup(c->pool, b.data);
    ta_buf_free(&b);
    return s;
}

/* The runtime's name of a region role (ta_module.h), as the tables say it. */
static const char *region_role_name(ta_region_role_t role)
{
    switch (role) {
    case TA_REGION_SCRATCH: return "TA_REGION_SCRATCH";
    case TA_REGION_PERSISTENT: return "TA_REGION_PERSISTENT";
    case TA_REGION_CONSTANT: return "TA_REGION_CONSTANT";
    }
    ta_unreachable();
}

void ta_emit_model_tables(const TaSourcesCtx *c, TaBuf *b)
{
    const char *p = c->p;
    const TaGraph *g = c->in->graph;
    TaVec sizes = {0}, alignments = {0}, roles = {0}, staged = {0}, sidecars = {0};
    for (int i = 0; i < c->num_regions; i++) {
        const TaRegion *r = ta_sources_region(c, i);
        const char *e = ta_region_enum(c->pool, p, r);
        ta_vec_push(c->pool, &sizes, ta_format(c->pool, "%s_SIZE", e));
        ta_vec_push(c->pool, &alignments, ta_format(c->pool, "%s_ALIGN", e));
        ta_vec_push(c->pool, &roles, (void *)region_role_name(r->role));
        ta_vec_push(c->pool, &staged, ta_format(c->pool, "%d", (int)r->staged));
        ta_vec_push(
            c->pool, &sidecars,
            (void *)(r->sidecar_file ? ta_escape_c_string(c->pool, r->sidecar_file) : "NULL"));
    }
    TaVec inputs = {0}, outputs = {0};
    for (int i = 0; i < g->inputs.len; i++)
        ta_vec_push(c->pool, &inputs, (void *)ta_tensor_enum(c->pool, p, g->inputs.items[i]));
    for (int i = 0; i < g->outputs.len; i++)
        ta_vec_push(c->pool, &outputs, (void *)ta_tensor_enum(c->pool, p, g->outputs.items[i]));
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_field_int(&f, "region_slots", c->num_regions ? c->num_regions : 1);
    ta_field_int(&f, "input_slots", g->inputs.len ? g->inputs.len : 1);
    ta_field_int(&f, "output_slots", g->outputs.len ? g->outputs.len : 1);
    ta_field(&f, "sizes", elements(c, &sizes, "0"));
    ta_field(&f, "alignments", elements(c, &alignments, "0"));
    ta_field(&f, "roles", elements(c, &roles, "0"));
    ta_field(&f, "staged", elements(c, &staged, "0"));
    ta_field(&f, "sidecars", elements(c, &sidecars, "NULL"));
    ta_field(&f, "inputs", elements(c, &inputs, "0"));
    ta_field(&f, "outputs", elements(c, &outputs, "0"));
    ta_template(b, &f,
                "const size_t ${prefix}_arena_sizes[$region_slots] = {$sizes};\n"
                "const size_t ${prefix}_arena_alignments[$region_slots] = {$alignments};\n"
                "static const unsigned char ${prefix}_region_roles[$region_slots] = {$roles};\n"
                "static const unsigned char ${prefix}_region_staged[$region_slots] = {$staged};\n"
                "static const char *const ${prefix}_region_sidecars[$region_slots] = {$sidecars};\n"
                "\n"
                "const ${prefix}_tensor_ident_t ${prefix}_inputs_id[$input_slots] = {$inputs};\n"
                "const ${prefix}_tensor_ident_t ${prefix}_outputs_id[$output_slots] = {$outputs};\n"
                "\n");
}

void ta_emit_model_binding(const TaSourcesCtx *c, TaBuf *b)
{
    TaFields f = ta_fields(c->pool, &c->fields);
    ta_field_int(&f, "region_slots", c->num_regions ? c->num_regions : 1);
    const char *descriptor =
        "const ta_module_desc_t ${prefix}_module_desc = {\n"
        "    \"${prefix}\", ${PREFIX}_NUM_ARENA_REGIONS, ${prefix}_arena_sizes,"
        " ${prefix}_arena_alignments,\n"
        "    ${prefix}_region_roles, ${prefix}_region_staged, ${prefix}_region_sidecars,"
        " $bind};\n\n";
    if (c->own) {
        ta_field(&f, "bind", "NULL");
        ta_template(b, &f, descriptor);
        return;
    }
    ta_template(b, &f, "void *${prefix}_bound[$region_slots];\n\n");
    if (c->num_regions == 0) {
        /* Nothing to bind; a range test against 0 would warn as always true. */
        ta_template(b, &f,
                    "int32_t ${prefix}_bind_arena(${prefix}_arena_region_t region, void *buffer,"
                    " size_t size)\n{\n"
                    "    (void)region;\n    (void)buffer;\n    (void)size;\n"
                    "    return TA_ERR_UNKNOWN_REGION;\n}\n\n");
    } else {
        /* Compared as unsigned: with short enums (arm-none-eabi) the type is
           unsigned and a "< 0" test warns as always false. */
        ta_template(
            b, &f,
            "int32_t ${prefix}_bind_arena(${prefix}_arena_region_t region, void *buffer,"
            " size_t size)\n{\n"
            "    if ((unsigned)region >= (unsigned)${PREFIX}_NUM_ARENA_REGIONS)\n"
            "        return TA_ERR_UNKNOWN_REGION;\n"
            "    if (buffer == NULL)\n        return TA_ERR_NULL_BUFFER;\n"
            "    if (size < ${prefix}_arena_sizes[region])\n"
            "        return TA_ERR_BUFFER_TOO_SMALL;\n"
            "    if ((uintptr_t)buffer % ${prefix}_arena_alignments[region] != 0)\n"
            "        return TA_ERR_MISALIGNED_BUFFER;\n"
            "    /* Regions never share bytes: a buffer over another (the constant\n"
            "       blob, say) would be overwritten by the run. */\n"
            "    uintptr_t lo = (uintptr_t)buffer, hi = lo + ${prefix}_arena_sizes[region];\n"
            "    for (int r = 0; r < ${PREFIX}_NUM_ARENA_REGIONS; r++) {\n"
            "        uintptr_t other = (uintptr_t)${prefix}_bound[r];\n"
            "        if (r != (int)region && other != 0 && lo < other + ${prefix}_arena_sizes[r] "
            "&&\n"
            "            other < hi)\n"
            "            return TA_ERR_OVERLAPPING_BUFFER;\n"
            "    }\n"
            "    ${prefix}_bound[region] = buffer;\n"
            "    if (${prefix}_initialized) {\n"
            "        /* Runs wait for a model_init over the new buffer. */\n"
            "        ${prefix}_initialized = NULL;\n        ${prefix}_rebound = 1;\n    }\n"
            "    return TA_OK;\n}\n\n");
    }
    ta_template(
        b, &f,
        "int32_t ${prefix}_bind_arenas(void *const *buffers, const size_t *sizes, size_t n)\n"
        "{\n"
        "    if (buffers == NULL || sizes == NULL)\n"
        "        return TA_ERR_BULK_NULL_ARGUMENT;\n"
        "    if (n != (size_t)${prefix}_num_arena_buffers)\n"
        "        return TA_ERR_BULK_WRONG_COUNT;\n"
        "    for (int i = 0; i < ${PREFIX}_NUM_ARENA_REGIONS; i++) {\n"
        "        int32_t status = ${prefix}_bind_arena((${prefix}_arena_region_t)i,"
        " buffers[i], sizes[i]);\n"
        "        if (status != TA_OK)\n            return status;\n    }\n"
        "    return TA_OK;\n}\n\n"
        "static int ${prefix}_bind_by_index(int region, void *buffer, size_t size)\n{\n"
        "    return ${prefix}_bind_arena((${prefix}_arena_region_t)region, buffer, size);\n"
        "}\n\n");
    ta_field(&f, "bind", ta_format(c->pool, "%s_bind_by_index", c->p));
    ta_template(b, &f, descriptor);
}
