/*
 * emit_residency.c - <prefix>_residency.json: where every tensor lives.
 * Schema "tinyaot.residency" version 1, documented in docs/residency.md.
 */
#include "emit.h"

static const char *io_of(const TaTensor *t)
{
    return t->input_index >= 0 ? "input" : (t->output_index >= 0 ? "output" : NULL);
}

static void tensor_row(TaJson *j, const TaTensor *t)
{
    const TaPlacement *pl = &t->place;
    ta_json_begin_object(j);
    ta_json_key(j, "id");
    ta_json_string(j, t->id);
    ta_json_key(j, "name");
    ta_json_string(j, t->name);
    ta_json_key(j, "kind");
    ta_json_string(j, ta_role_name(ta_tensor_root((TaTensor *)t)->kind));
    ta_json_key(j, "io");
    ta_json_string(j, io_of(t));
    ta_json_key(j, "role");
    ta_json_string(j, pl->region ? ta_role_name(pl->region->role) : NULL);
    ta_json_key(j, "memory");
    ta_json_string(j, pl->region ? ta_memory_name(pl->memory) : NULL);
    ta_json_key(j, "source_memory");
    ta_json_string(j, pl->region ? ta_memory_name(pl->source_memory) : NULL);
    ta_json_key(j, "region_id");
    if (pl->region)
        ta_json_int(j, pl->region->id);
    else
        ta_json_null(j);
    ta_json_key(j, "offset");
    ta_json_int(j, (int64_t)pl->offset);
    ta_json_key(j, "size");
    ta_json_int(j, (int64_t)pl->size);
    ta_json_key(j, "staged");
    ta_json_bool(j, pl->staged);
    ta_json_key(j, "alias_of");
    ta_json_string(j, t->alias_of ? ta_tensor_root((TaTensor *)t)->id : NULL);
    ta_json_key(j, "first_op");
    ta_json_int(j, t->first_use);
    ta_json_key(j, "last_op");
    ta_json_int(j, t->last_use);
    ta_json_end_object(j);
}

static void region_row(TaJson *j, const TaRegion *r)
{
    ta_json_begin_object(j);
    ta_json_key(j, "id");
    ta_json_int(j, r->id);
    ta_json_key(j, "name");
    ta_json_string(j, r->name);
    ta_json_key(j, "role");
    ta_json_string(j, ta_role_name(r->role));
    ta_json_key(j, "memory");
    ta_json_string(j, ta_memory_name(r->memory));
    ta_json_key(j, "source_memory");
    ta_json_string(j, ta_memory_name(r->source_memory));
    ta_json_key(j, "staged");
    ta_json_bool(j, r->staged);
    ta_json_key(j, "offset");
    ta_json_int(j, (int64_t)r->guard);
    ta_json_key(j, "size");
    ta_json_int(j, (int64_t)r->size);
    ta_json_key(j, "alignment");
    ta_json_int(j, (int64_t)r->alignment);
    ta_json_key(j, "symbol");
    ta_json_string(j, r->symbol);
    ta_json_key(j, "source_symbol");
    ta_json_string(j, r->source_symbol);
    ta_json_key(j, "sidecar_file");
    ta_json_string(j, r->sidecar_file);
    ta_json_key(j, "tensors");
    ta_json_int(j, r->tensors.len);
    if (r->role == TA_REGION_SCRATCH) {
        ta_json_key(j, "lower_bound");
        ta_json_int(j, (int64_t)r->lower_bound);
        ta_json_key(j, "gap");
        ta_json_int(j, (int64_t)r->size - (int64_t)r->lower_bound);
    }
    ta_json_end_object(j);
}

static void memory_row(const TaEmitInput *in, TaJson *j, int m)
{
    const TaMemoryUse *u = &in->plan->memories[m];
    const TaTargetMemory *tm = in->plan->target->memories[m];
    ta_json_begin_object(j);
    ta_json_key(j, "name");
    ta_json_string(j, ta_memory_name(m));
    ta_json_key(j, "usable");
    ta_json_bool(j, u->usable);
    ta_json_key(j, "used");
    ta_json_int(j, (int64_t)u->used);
    ta_json_key(j, "budget");
    ta_json_int(j, (int64_t)u->budget);
    ta_json_key(j, "alignment");
    ta_json_int(j, (int64_t)u->alignment);
    ta_json_key(j, "symbols");
    ta_json_begin_array(j);
    for (int i = 0; i < in->plan->regions.len; i++) {
        const TaRegion *r = in->plan->regions.items[i];
        if (r->memory == m && r->symbol)
            ta_json_string(j, r->symbol);
        if (r->staged && r->source_memory == m)
            ta_json_string(j, r->source_symbol);
    }
    ta_json_end_array(j);
    ta_json_key(j, "bss_section");
    ta_json_string(j, tm->bss_section);
    ta_json_key(j, "data_section");
    ta_json_string(j, tm->data_section);
    ta_json_end_object(j);
}

bool ta_emit_residency(const TaEmitInput *in, const char *dir)
{
    TaBuf b = {0};
    TaJson j = {.out = &b};
    ta_json_begin_object(&j);
    ta_json_key(&j, "schema");
    ta_json_string(&j, "tinyaot.residency");
    ta_json_key(&j, "version");
    ta_json_int(&j, 1);
    ta_json_key(&j, "model");
    ta_json_string(&j, ta_basename(in->model->path));
    ta_json_key(&j, "prefix");
    ta_json_string(&j, in->prefix);
    ta_json_key(&j, "target");
    ta_json_string(&j, in->plan->target->name);
    ta_json_key(&j, "allocate_arenas");
    ta_json_bool(&j, in->config->allocate_arenas);
    ta_json_key(&j, "tensors");
    ta_json_begin_array(&j);
    for (int i = 0; i < in->graph->tensors.len; i++)
        tensor_row(&j, TA_TENSOR(in->graph, i));
    ta_json_end_array(&j);
    ta_json_key(&j, "regions");
    ta_json_begin_array(&j);
    for (int i = 0; i < in->plan->regions.len; i++)
        region_row(&j, in->plan->regions.items[i]);
    ta_json_end_array(&j);
    ta_json_key(&j, "memories");
    ta_json_begin_array(&j);
    for (int m = 0; m < TA_MEM_COUNT; m++)
        if (in->plan->target->memories[m])
            memory_row(in, &j, m);
    ta_json_end_array(&j);
    ta_json_end_object(&j);
    bool ok = ta_emit_write(in, dir, ta_format(in->pool, "%s_residency.json", in->prefix), &b);
    ta_buf_free(&b);
    return ok;
}
