/*
 * json_rows.c - region and tensor rows of the module's JSON files; see
 * json_rows.h.
 */
#include "json_rows.h"

#include "../report/views.h"

static void optional_int(TaJson *j, bool present, int64_t v)
{
    if (present)
        ta_json_int(j, v);
    else
        ta_json_null(j);
}

/* Output over input: which tensor's bytes this one's overlap, the lead
   it keeps below (or, its producer walking backwards, above) that
   tensor's start, and why the kernel allows it. */
static void overlap_value(TaJson *j, const TaPlacement *pl)
{
    if (!pl->overlaps) {
        ta_json_null(j);
        return;
    }
    ta_json_begin_object(j);
    ta_json_key(j, "tensor");
    ta_json_string(j, pl->overlaps->id);
    ta_json_key(j, "lead");
    ta_json_int(j, (int64_t)pl->overlap_lead);
    ta_json_key(j, "direction");
    ta_json_string(j, pl->overlap_above ? "above" : "below");
    ta_json_key(j, "below_by");
    ta_json_int(j, (int64_t)pl->overlaps->place.offset - (int64_t)pl->offset);
    ta_json_key(j, "why");
    ta_json_string(j, pl->overlap_why);
    ta_json_end_object(j);
}

void ta_json_region_row(TaJson *j, const TaRegion *r, const TaRegionColumn *cols, size_t n)
{
    const bool scratch = r->role == TA_REGION_SCRATCH;
    ta_json_begin_object(j);
    for (size_t i = 0; i < n; i++) {
        const TaRegionValue v = cols[i].value;
        if ((v == TA_REGION_COL_LOWER_BOUND || v == TA_REGION_COL_GAP ||
             v == TA_REGION_COL_PLANNER || v == TA_REGION_COL_PROVEN || v == TA_REGION_COL_PROOF) &&
            !scratch)
            continue;
        ta_json_key(j, cols[i].key);
        switch (v) {
        case TA_REGION_COL_ID: ta_json_int(j, r->id); break;
        case TA_REGION_COL_NAME: ta_json_string(j, r->name); break;
        case TA_REGION_COL_ROLE: ta_json_string(j, ta_role_name(r->role)); break;
        case TA_REGION_COL_MEMORY: ta_json_string(j, ta_memory_name(r->memory)); break;
        case TA_REGION_COL_SOURCE_MEMORY:
            ta_json_string(j, ta_memory_name(r->source_memory));
            break;
        case TA_REGION_COL_STAGED: ta_json_bool(j, r->staged); break;
        case TA_REGION_COL_OFFSET: ta_json_int(j, (int64_t)r->guard); break;
        case TA_REGION_COL_SIZE: ta_json_int(j, (int64_t)r->size); break;
        case TA_REGION_COL_ALIGNMENT: ta_json_int(j, (int64_t)r->alignment); break;
        case TA_REGION_COL_SYMBOL: ta_json_string(j, r->symbol); break;
        case TA_REGION_COL_SOURCE_SYMBOL: ta_json_string(j, r->source_symbol); break;
        case TA_REGION_COL_SOURCE_OFFSET: ta_json_int(j, (int64_t)r->source_guard); break;
        case TA_REGION_COL_SIDECAR_FILE: ta_json_string(j, r->sidecar_file); break;
        case TA_REGION_COL_NUM_TENSORS: ta_json_int(j, r->tensors.len); break;
        case TA_REGION_COL_LOWER_BOUND: ta_json_int(j, (int64_t)r->lower_bound); break;
        case TA_REGION_COL_GAP: ta_json_int(j, (int64_t)r->size - (int64_t)r->lower_bound); break;
        case TA_REGION_COL_PLANNER: ta_json_string(j, r->planner); break;
        case TA_REGION_COL_PROVEN: ta_json_bool(j, r->proven); break;
        case TA_REGION_COL_PROOF: ta_json_string(j, r->proof); break;
        }
    }
    ta_json_end_object(j);
}

static void quantization(TaJson *j, const TaQuant *q)
{
    if (!q || !q->num_scales) {
        ta_json_null(j);
        return;
    }
    ta_json_begin_object(j);
    ta_json_key(j, "scale");
    ta_json_begin_array(j);
    for (int i = 0; i < q->num_scales; i++)
        ta_json_double(j, q->scale[i]);
    ta_json_end_array(j);
    ta_json_key(j, "zero_point");
    ta_json_begin_array(j);
    for (int i = 0; i < q->num_zero_points; i++)
        ta_json_int(j, q->zero_point[i]);
    ta_json_end_array(j);
    ta_json_key(j, "axis");
    ta_json_int(j, q->axis);
    ta_json_end_object(j);
}

/* Row streaming (docs/row-streaming.md): the chain (its first layer)
   whose row buffer the tensor is, the rows it keeps of its height and
   their bytes; null for any other tensor. */
static void row_buffer_value(TaJson *j, const TaTensor *t)
{
    if (!t->row_buffer_rows) {
        ta_json_null(j);
        return;
    }
    ta_json_begin_object(j);
    ta_json_key(j, "chain");
    ta_json_int(j, t->first_use);
    ta_json_key(j, "rows");
    ta_json_int(j, t->row_buffer_rows);
    ta_json_key(j, "height");
    ta_json_int(j, t->dims[1]);
    ta_json_key(j, "bytes");
    ta_json_int(j, (int64_t)t->row_buffer_bytes);
    ta_json_end_object(j);
}

void ta_json_tensor_row(TaJson *j, const TaTensor *t, const TaTensorColumn *cols, size_t n)
{
    const TaPlacement *pl = &t->place;
    const TaTensor *root = ta_tensor_root((TaTensor *)t);
    const char *ctype = ta_dtype_ctype(t->dtype);
    ta_json_begin_object(j);
    for (size_t i = 0; i < n; i++) {
        ta_json_key(j, cols[i].key);
        switch (cols[i].value) {
        case TA_TENSOR_COL_ID: ta_json_string(j, t->id); break;
        case TA_TENSOR_COL_NAME: ta_json_string(j, t->name); break;
        case TA_TENSOR_COL_ROLE: ta_json_string(j, ta_role_name(root->role)); break;
        case TA_TENSOR_COL_VIEW_KIND: ta_json_string(j, ta_view_kind(t)); break;
        case TA_TENSOR_COL_IO:
            ta_json_string(j, t->input_index >= 0    ? "input"
                              : t->output_index >= 0 ? "output"
                                                     : NULL);
            break;
        case TA_TENSOR_COL_SHAPE:
            ta_json_begin_array(j);
            for (int d = 0; d < t->rank; d++)
                ta_json_int(j, t->dims[d]);
            ta_json_end_array(j);
            break;
        case TA_TENSOR_COL_DTYPE: ta_json_string(j, ta_dtype_name(t->dtype)); break;
        case TA_TENSOR_COL_CTYPE: ta_json_string(j, ctype ? ctype : "uint8_t"); break;
        case TA_TENSOR_COL_QUANTIZATION: quantization(j, t->quant); break;
        case TA_TENSOR_COL_INPUT_INDEX: optional_int(j, t->input_index >= 0, t->input_index); break;
        case TA_TENSOR_COL_OUTPUT_INDEX:
            optional_int(j, t->output_index >= 0, t->output_index);
            break;
        case TA_TENSOR_COL_REGION_ROLE:
            ta_json_string(j, pl->region ? ta_role_name(pl->region->role) : NULL);
            break;
        case TA_TENSOR_COL_MEMORY:
            ta_json_string(j, pl->region ? ta_memory_name(pl->memory) : NULL);
            break;
        case TA_TENSOR_COL_SOURCE_MEMORY:
            ta_json_string(j, pl->region ? ta_memory_name(pl->source_memory) : NULL);
            break;
        case TA_TENSOR_COL_REGION_ID:
            optional_int(j, pl->region != NULL, pl->region ? pl->region->id : 0);
            break;
        case TA_TENSOR_COL_OFFSET: ta_json_int(j, (int64_t)pl->offset); break;
        case TA_TENSOR_COL_SIZE: ta_json_int(j, (int64_t)pl->size); break;
        case TA_TENSOR_COL_STAGED: ta_json_bool(j, pl->staged); break;
        case TA_TENSOR_COL_ALIAS_OF: ta_json_string(j, t->alias_of ? root->id : NULL); break;
        case TA_TENSOR_COL_FIRST_OP: ta_json_int(j, t->first_use); break;
        case TA_TENSOR_COL_LAST_OP: ta_json_int(j, t->last_use); break;
        case TA_TENSOR_COL_OVERLAPS: overlap_value(j, pl); break;
        case TA_TENSOR_COL_STORED_FORMAT: ta_json_string(j, ta_stored_format(t)); break;
        case TA_TENSOR_COL_DENSE_BYTES:
            optional_int(j, ta_dense_bytes(t) >= 0, ta_dense_bytes(t));
            break;
        case TA_TENSOR_COL_ROW_BUFFER: row_buffer_value(j, root); break;
        case TA_TENSOR_COL_MODEL_TENSOR: {
            const int index = ta_model_tensor(t);
            optional_int(j, index >= 0, index);
            break;
        }
        }
    }
    ta_json_end_object(j);
}
