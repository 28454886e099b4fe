/*
 * emit_residency.c - <prefix>_residency.json: where every tensor lives.
 * Schema "tinyaot.residency" version 1, documented in docs/residency.md.
 */
#include "emit.h"

#include "emit_identity.h"
#include "json_rows.h"

/* Schema order (docs/residency.md). */
static const TaTensorColumn tensor_columns[] = {
    {"id", TA_TENSOR_COL_ID},
    {"name", TA_TENSOR_COL_NAME},
    {"kind", TA_TENSOR_COL_ROLE},
    {"io", TA_TENSOR_COL_IO},
    {"role", TA_TENSOR_COL_REGION_ROLE},
    {"memory", TA_TENSOR_COL_MEMORY},
    {"source_memory", TA_TENSOR_COL_SOURCE_MEMORY},
    {"region_id", TA_TENSOR_COL_REGION_ID},
    {"offset", TA_TENSOR_COL_OFFSET},
    {"size", TA_TENSOR_COL_SIZE},
    {"staged", TA_TENSOR_COL_STAGED},
    {"alias_of", TA_TENSOR_COL_ALIAS_OF},
    {"first_op", TA_TENSOR_COL_FIRST_OP},
    {"last_op", TA_TENSOR_COL_LAST_OP},
    {"overlaps", TA_TENSOR_COL_OVERLAPS},
    {"model_tensor", TA_TENSOR_COL_MODEL_TENSOR},
    {"stored_format", TA_TENSOR_COL_STORED_FORMAT},
    {"dense_nbytes", TA_TENSOR_COL_DENSE_BYTES},
    {"row_buffer", TA_TENSOR_COL_ROW_BUFFER},
};

static const TaRegionColumn region_columns[] = {
    {"id", TA_REGION_COL_ID},
    {"name", TA_REGION_COL_NAME},
    {"role", TA_REGION_COL_ROLE},
    {"memory", TA_REGION_COL_MEMORY},
    {"source_memory", TA_REGION_COL_SOURCE_MEMORY},
    {"staged", TA_REGION_COL_STAGED},
    {"offset", TA_REGION_COL_OFFSET},
    {"size", TA_REGION_COL_SIZE},
    {"alignment", TA_REGION_COL_ALIGNMENT},
    {"symbol", TA_REGION_COL_SYMBOL},
    {"source_symbol", TA_REGION_COL_SOURCE_SYMBOL},
    {"sidecar_file", TA_REGION_COL_SIDECAR_FILE},
    {"tensors", TA_REGION_COL_NUM_TENSORS},
    {"lower_bound", TA_REGION_COL_LOWER_BOUND},
    {"gap", TA_REGION_COL_GAP},
    {"planner", TA_REGION_COL_PLANNER},
    {"proven", TA_REGION_COL_PROVEN},
    {"proof", TA_REGION_COL_PROOF},
};

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

/* ORDER_FOR_PEAK's result: the operators in the order they run (model
   operator indices, -1 for created ones) and the peaks it compared. */
static void order_row(const TaEmitInput *in, TaJson *j)
{
    const TaOrderReport *r = &in->graph->order;
    ta_json_begin_object(j);
    ta_json_key(j, "searched");
    ta_json_bool(j, r->searched);
    ta_json_key(j, "proven");
    ta_json_bool(j, r->searched && r->complete);
    ta_json_key(j, "changed");
    ta_json_bool(j, r->changed);
    ta_json_key(j, "states");
    ta_json_int(j, r->states);
    ta_json_key(j, "model_order_peak");
    ta_json_int(j, r->model_order_peak);
    ta_json_key(j, "peak");
    ta_json_int(j, r->peak);
    ta_json_key(j, "operators");
    ta_json_begin_array(j);
    for (int i = 0; i < in->graph->ops.len; i++)
        ta_json_int(j, TA_OP(in->graph, i)->model_index);
    ta_json_end_array(j);
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
    ta_emit_identity_json(in, &j);
    ta_json_key(&j, "target");
    ta_json_string(&j, in->plan->target->name);
    ta_json_key(&j, "allocate_arenas");
    ta_json_bool(&j, in->config->allocate_arenas);
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
    ta_json_key(&j, "memories");
    ta_json_begin_array(&j);
    for (int m = 0; m < TA_MEM_COUNT; m++)
        if (in->plan->target->memories[m])
            memory_row(in, &j, m);
    ta_json_end_array(&j);
    ta_json_key(&j, "execution_order");
    order_row(in, &j);
    ta_json_end_object(&j);
    bool ok = ta_emit_write(in, dir, ta_format(in->pool, "%s_residency.json", in->prefix), &b);
    ta_buf_free(&b);
    return ok;
}
