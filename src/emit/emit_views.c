/*
 * emit_views.c - <prefix>_views.json: what tinyaot_convert() returns as
 * views. Operators are written from the same view structs; tensors,
 * placements and regions through the rows residency.json is written with
 * (json_rows.c), from the values the view structs are built from.
 * Schema "tinyaot.views" version 1, documented in docs/views.md.
 */
#include "emit.h"

#include "../report/views.h"
#include "emit_identity.h"
#include "json_rows.h"

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

/* Schema order (docs/views.md); the values are those ta_build_views puts
   in the C API's views (test_views compares the two). */
static const TaTensorColumn tensor_columns[] = {
    {"id", TA_TENSOR_COL_ID},
    {"name", TA_TENSOR_COL_NAME},
    {"shape", TA_TENSOR_COL_SHAPE},
    {"dtype", TA_TENSOR_COL_DTYPE},
    {"ctype", TA_TENSOR_COL_CTYPE},
    {"quantization", TA_TENSOR_COL_QUANTIZATION},
    {"kind", TA_TENSOR_COL_VIEW_KIND},
    {"input_index", TA_TENSOR_COL_INPUT_INDEX},
    {"output_index", TA_TENSOR_COL_OUTPUT_INDEX},
    {"nbytes", TA_TENSOR_COL_SIZE},
    {"model_tensor", TA_TENSOR_COL_MODEL_TENSOR},
    {"stored_format", TA_TENSOR_COL_STORED_FORMAT},
    {"dense_nbytes", TA_TENSOR_COL_DENSE_BYTES},
};

static const TaTensorColumn placement_columns[] = {
    {"region", TA_TENSOR_COL_REGION_ID}, {"offset", TA_TENSOR_COL_OFFSET},
    {"size", TA_TENSOR_COL_SIZE},        {"source_memory", TA_TENSOR_COL_SOURCE_MEMORY},
    {"staged", TA_TENSOR_COL_STAGED},
};

static const TaRegionColumn region_columns[] = {
    {"id", TA_REGION_COL_ID},
    {"memory", TA_REGION_COL_MEMORY},
    {"source_memory", TA_REGION_COL_SOURCE_MEMORY},
    {"role", TA_REGION_COL_ROLE},
    {"offset", TA_REGION_COL_OFFSET},
    {"size", TA_REGION_COL_SIZE},
    {"alignment", TA_REGION_COL_ALIGNMENT},
    {"symbol", TA_REGION_COL_SYMBOL},
    {"source_symbol", TA_REGION_COL_SOURCE_SYMBOL},
    {"source_offset", TA_REGION_COL_SOURCE_OFFSET},
    {"sidecar_file", TA_REGION_COL_SIDECAR_FILE},
};

/* Beside the spec's RegionView (whose fields are fixed): how each scratch
   arena was planned, against its lower bound. */
static const TaRegionColumn planning_columns[] = {
    {"region", TA_REGION_COL_ID},
    {"memory", TA_REGION_COL_MEMORY},
    {"planner", TA_REGION_COL_PLANNER},
    {"size", TA_REGION_COL_SIZE},
    {"lower_bound", TA_REGION_COL_LOWER_BOUND},
    {"gap", TA_REGION_COL_GAP},
    {"proven", TA_REGION_COL_PROVEN},
    {"proof", TA_REGION_COL_PROOF},
};

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
    ta_emit_identity_json(in, &j);
    ta_json_key(&j, "operators");
    ta_json_begin_array(&j);
    for (size_t i = 0; i < views.num_operators; i++)
        operator_json(&j, &views.operators[i]);
    ta_json_end_array(&j);
    ta_json_key(&j, "tensors");
    ta_json_begin_array(&j);
    for (int i = 0; i < in->graph->tensors.len; i++)
        ta_json_tensor_row(&j, TA_TENSOR(in->graph, i), tensor_columns,
                           TA_COUNT_OF(tensor_columns));
    ta_json_end_array(&j);
    ta_json_key(&j, "regions");
    ta_json_begin_array(&j);
    for (int i = 0; i < in->plan->regions.len; i++)
        ta_json_region_row(&j, in->plan->regions.items[i], region_columns,
                           TA_COUNT_OF(region_columns));
    ta_json_end_array(&j);
    ta_json_key(&j, "scratch_planning");
    ta_json_begin_array(&j);
    for (int i = 0; i < in->plan->regions.len; i++) {
        const TaRegion *r = in->plan->regions.items[i];
        if (r->role == TA_REGION_SCRATCH)
            ta_json_region_row(&j, r, planning_columns, TA_COUNT_OF(planning_columns));
    }
    ta_json_end_array(&j);
    ta_json_key(&j, "placements");
    ta_json_begin_object(&j);
    for (int i = 0; i < in->graph->tensors.len; i++) {
        const TaTensor *t = TA_TENSOR(in->graph, i);
        ta_json_key(&j, t->id);
        ta_json_tensor_row(&j, t, placement_columns, TA_COUNT_OF(placement_columns));
    }
    ta_json_end_object(&j);
    ta_json_end_object(&j);
    bool ok = ta_emit_write(in, dir, ta_format(in->pool, "%s_views.json", in->prefix), &b);
    ta_buf_free(&b);
    return ok;
}
