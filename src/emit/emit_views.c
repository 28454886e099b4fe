/*
 * emit_views.c - <prefix>_views.json, written from the same view structs
 * tinyaot_convert() returns, so the two cannot disagree. Schema
 * "tinyaot.views" version 1, documented in docs/views.md.
 */
#include "emit.h"

#include "../report/views.h"

static void string_list(TaJson *j, const char *const *items, size_t n)
{
    ta_json_begin_array(j);
    for (size_t i = 0; i < n; i++)
        ta_json_string(j, items[i]);
    ta_json_end_array(j);
}

static void operator_json(TaJson *j, const tinyaot_operator_view *v)
{
    ta_json_begin_object(j);
    ta_json_key(j, "layer_index");
    ta_json_int(j, v->layer_index);
    ta_json_key(j, "symbol");
    ta_json_string(j, v->symbol);
    ta_json_key(j, "type");
    ta_json_string(j, v->type);
    ta_json_key(j, "source_indices");
    ta_json_begin_array(j);
    for (size_t i = 0; i < v->num_source_indices; i++)
        ta_json_int(j, v->source_indices[i]);
    ta_json_end_array(j);
    ta_json_key(j, "input_ids");
    string_list(j, v->input_ids, v->num_input_ids);
    ta_json_key(j, "output_ids");
    string_list(j, v->output_ids, v->num_output_ids);
    ta_json_key(j, "local_tensor_ids");
    string_list(j, v->local_tensor_ids, v->num_local_tensor_ids);
    ta_json_key(j, "kernel_calls");
    if (!v->has_kernel_calls) {
        ta_json_null(j);
    } else {
        ta_json_begin_object(j);
        for (size_t i = 0; i < v->num_kernel_calls; i++) {
            ta_json_key(j, v->kernel_calls[i].role);
            ta_json_string(j, v->kernel_calls[i].function);
        }
        ta_json_end_object(j);
    }
    ta_json_key(j, "macs");
    if (v->has_macs)
        ta_json_int(j, v->macs);
    else
        ta_json_null(j);
    ta_json_key(j, "parameters");
    if (v->has_parameters)
        ta_json_int(j, v->parameters);
    else
        ta_json_null(j);
    ta_json_end_object(j);
}

static void optional_index(TaJson *j, int v)
{
    if (v >= 0)
        ta_json_int(j, v);
    else
        ta_json_null(j);
}

static void tensor_json(TaJson *j, const tinyaot_tensor_view *v)
{
    ta_json_begin_object(j);
    ta_json_key(j, "id");
    ta_json_string(j, v->id);
    ta_json_key(j, "name");
    ta_json_string(j, v->name);
    ta_json_key(j, "shape");
    ta_json_begin_array(j);
    for (size_t i = 0; i < v->rank; i++)
        ta_json_int(j, v->shape[i]);
    ta_json_end_array(j);
    ta_json_key(j, "dtype");
    ta_json_string(j, v->dtype);
    ta_json_key(j, "ctype");
    ta_json_string(j, v->ctype);
    ta_json_key(j, "quantization");
    if (!v->quantization) {
        ta_json_null(j);
    } else {
        const tinyaot_quantization_view *q = v->quantization;
        ta_json_begin_object(j);
        ta_json_key(j, "scale");
        ta_json_begin_array(j);
        for (size_t i = 0; i < q->num_scales; i++)
            ta_json_double(j, q->scale[i]);
        ta_json_end_array(j);
        ta_json_key(j, "zero_point");
        ta_json_begin_array(j);
        for (size_t i = 0; i < q->num_zero_points; i++)
            ta_json_int(j, q->zero_point[i]);
        ta_json_end_array(j);
        ta_json_key(j, "axis");
        ta_json_int(j, q->axis);
        ta_json_end_object(j);
    }
    ta_json_key(j, "kind");
    ta_json_string(j, v->kind);
    ta_json_key(j, "input_index");
    optional_index(j, v->input_index);
    ta_json_key(j, "output_index");
    optional_index(j, v->output_index);
    ta_json_key(j, "nbytes");
    ta_json_int(j, v->nbytes);
    ta_json_end_object(j);
}

static void region_json(TaJson *j, const tinyaot_region_view *v)
{
    ta_json_begin_object(j);
    ta_json_key(j, "id");
    ta_json_int(j, v->id);
    ta_json_key(j, "memory");
    ta_json_string(j, v->memory);
    ta_json_key(j, "source_memory");
    ta_json_string(j, v->source_memory);
    ta_json_key(j, "role");
    ta_json_string(j, v->role);
    ta_json_key(j, "offset");
    ta_json_int(j, v->offset);
    ta_json_key(j, "size");
    ta_json_int(j, v->size);
    ta_json_key(j, "alignment");
    ta_json_int(j, v->alignment);
    ta_json_key(j, "symbol");
    ta_json_string(j, v->symbol);
    ta_json_key(j, "source_symbol");
    ta_json_string(j, v->source_symbol);
    ta_json_key(j, "source_offset");
    ta_json_int(j, v->source_offset);
    ta_json_key(j, "sidecar_file");
    ta_json_string(j, v->sidecar_file);
    ta_json_end_object(j);
}

static void placement_json(TaJson *j, const tinyaot_placement_view *v)
{
    ta_json_begin_object(j);
    ta_json_key(j, "region");
    optional_index(j, v->region);
    ta_json_key(j, "offset");
    ta_json_int(j, v->offset);
    ta_json_key(j, "size");
    ta_json_int(j, v->size);
    ta_json_key(j, "source_memory");
    ta_json_string(j, v->source_memory);
    ta_json_key(j, "staged");
    ta_json_bool(j, v->staged);
    ta_json_end_object(j);
}

bool ta_emit_views_json(const TaEmitInput *in, const char *dir)
{
    tinyaot_result views = {0};
    ta_build_views(in->pool, &views, in->graph, in->plan);
    TaBuf b = {0};
    TaJson j = {.out = &b};
    ta_json_begin_object(&j);
    ta_json_key(&j, "schema");
    ta_json_string(&j, "tinyaot.views");
    ta_json_key(&j, "version");
    ta_json_int(&j, 1);
    ta_json_key(&j, "prefix");
    ta_json_string(&j, in->prefix);
    ta_json_key(&j, "operators");
    ta_json_begin_array(&j);
    for (size_t i = 0; i < views.num_operators; i++)
        operator_json(&j, &views.operators[i]);
    ta_json_end_array(&j);
    ta_json_key(&j, "tensors");
    ta_json_begin_array(&j);
    for (size_t i = 0; i < views.num_tensors; i++)
        tensor_json(&j, &views.tensors[i]);
    ta_json_end_array(&j);
    ta_json_key(&j, "regions");
    ta_json_begin_array(&j);
    for (size_t i = 0; i < views.num_regions; i++)
        region_json(&j, &views.regions[i]);
    ta_json_end_array(&j);
    ta_json_key(&j, "placements");
    ta_json_begin_object(&j);
    for (size_t i = 0; i < views.num_placements; i++) {
        ta_json_key(&j, views.placements[i].tensor_id);
        placement_json(&j, &views.placements[i]);
    }
    ta_json_end_object(&j);
    ta_json_end_object(&j);
    bool ok = ta_emit_write(in, dir, ta_format(in->pool, "%s_views.json", in->prefix), &b);
    ta_buf_free(&b);
    return ok;
}
