/*
 * emit_sources.c - the module's C sources: sets up what their writers
 * share (emit_sources.h) and writes each file, the operators' files, the
 * helia-aot spellings and the sidecars.
 */
#include "emit_sources.h"

#include "../passes/passes.h"

#include <string.h>

bool ta_emit_write(const TaEmitInput *in, const char *dir, const char *name, const TaBuf *b)
{
    return ta_write_file(in->diag, ta_path_join(in->pool, dir, name), b->data ? b->data : "",
                         b->len);
}

bool ta_emit_sources(const TaEmitInput *in, const char *dir)
{
    TaSourcesCtx c = {.in = in,
                      .pool = in->pool,
                      .p = in->prefix,
                      .P = ta_upper(in->pool, in->prefix),
                      .own = in->config->allocate_arenas,
                      .table = strcmp(in->config->module_schedule, "table") == 0,
                      .num_regions = in->plan->regions.len};
    if (c.table && ta_graph_has_control_flow(in->graph)) {
        ta_error(in->diag, "module.schedule: table runs operators from a table, which cannot "
                           "express IF or WHILE; use module.schedule: calls");
        return false;
    }
    c.tensor_pointers = ta_sources_tensor_pointers(&c);
    ta_sources_share_params(&c);
    c.fields = ta_fields(in->pool, NULL);
    ta_field(&c.fields, "prefix", c.p);
    ta_field(&c.fields, "PREFIX", c.P);
    ta_field(&c.fields, "model_h", ta_model_file(in->pool, in->prefix, "h"));
    ta_field(&c.fields, "model_c", ta_model_file(in->pool, in->prefix, "c"));
    for (int i = 0; i < c.num_regions; i++)
        c.staged = c.staged || ta_sources_region(&c, i)->staged;
    struct {
        const char *name;
        void (*fn)(const TaSourcesCtx *, TaBuf *);
    } files[] = {
        {ta_model_file(in->pool, in->prefix, "h"), ta_emit_model_h},
        {ta_format(in->pool, "%s_internal.h", in->prefix), ta_emit_internal_h},
        {ta_model_file(in->pool, in->prefix, "c"), ta_emit_model_c},
        {ta_format(in->pool, "%s_constants.c", in->prefix), ta_emit_constants_c},
        {ta_format(in->pool, "%s_arenas.c", in->prefix), ta_emit_arenas_c},
    };
    bool ok = true;
    for (size_t i = 0; i < TA_COUNT_OF(files) && ok; i++) {
        TaBuf b = {0};
        files[i].fn(&c, &b);
        ok = ta_emit_write(in, dir, files[i].name, &b);
        ta_buf_free(&b);
    }
    for (int i = 0; i < in->graph->ops.len && ok; i++)
        if (TA_OP(in->graph, i)->lowered.calls.len)
            ok = ta_emit_op_file(&c, dir, TA_OP(in->graph, i));
    ok = ok && ta_emit_helia_files(in, &c.fields, dir);
    /* Sidecars: the data of each cold constant region the application binds. */
    for (int i = 0; i < c.num_regions && ok; i++) {
        const TaRegion *r = ta_sources_region(&c, i);
        if (r->sidecar_file)
            ok = ta_write_file(in->diag, ta_path_join(in->pool, dir, r->sidecar_file), r->bytes,
                               r->size);
    }
    return ok;
}
