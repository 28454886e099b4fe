/*
 * views.c - the conversion's public description (include/tinyaot/tinyaot.h)
 * built from the graph and the plan. The views own their memory (a pool
 * inside the result), so they outlive the conversion's pool.
 */
#include "views.h"

#include <string.h>

const char *ta_view_kind(const TaTensor *t)
{
    if (t->input_index >= 0)
        return "input";
    if (t->output_index >= 0)
        return "output";
    return ta_role_name(ta_tensor_root((TaTensor *)t)->role);
}

static const char *dup(TaPool *pool, const char *s)
{
    return s ? ta_strdup(pool, s) : NULL;
}

static const char *const *id_list(TaPool *pool, TaTensor *const *tensors, int n, size_t *count)
{
    const char **ids = ta_alloc_array(pool, (size_t)n + 1, sizeof(char *));
    size_t k = 0;
    for (int i = 0; i < n; i++)
        if (tensors[i] && !tensors[i]->removed)
            ids[k++] = dup(pool, tensors[i]->id);
    *count = k;
    return ids;
}

static void operator_view(TaPool *pool, const TaGraph *g, const TaOp *op, tinyaot_operator_view *v)
{
    v->layer_index = op->index;
    v->symbol = dup(pool, op->lowered.symbol);
    v->type = dup(pool, op->type);
    int *src = ta_alloc_array(pool, 2, sizeof(int));
    if (op->model_index >= 0 && op->model_subgraph != g->model_index) {
        /* An operator of an IF or WHILE subgraph (docs/control-flow.md):
           (subgraph index, operator index in that subgraph). */
        src[0] = op->model_subgraph;
        src[1] = op->model_index;
        v->num_source_indices = 2;
    } else if (op->model_index >= 0) {
        src[0] = op->model_index;
        v->num_source_indices = 1;
    }
    v->source_indices = src;
    v->input_ids = id_list(pool, op->inputs, op->num_inputs, &v->num_input_ids);
    v->output_ids = id_list(pool, op->outputs, op->num_outputs, &v->num_output_ids);
    v->local_tensor_ids = id_list(pool, (TaTensor *const *)op->lowered.locals.items,
                                  op->lowered.locals.len, &v->num_local_tensor_ids);
    v->has_kernel_calls = 1;
    tinyaot_kernel_call *calls = ta_alloc_array(pool, (size_t)op->lowered.calls.len + 1,
                                                sizeof(tinyaot_kernel_call));
    for (int i = 0; i < op->lowered.calls.len; i++) {
        const TaKernelCall *c = op->lowered.calls.items[i];
        /* Roles are map keys: a second call of the same role gets a number. */
        int same = 0;
        for (int k = 0; k < i; k++)
            same += strcmp(((TaKernelCall *)op->lowered.calls.items[k])->role, c->role) == 0;
        calls[i].role = same ? ta_format(pool, "%s%d", c->role, same + 1) : dup(pool, c->role);
        calls[i].function = dup(pool, c->function);
    }
    v->kernel_calls = calls;
    v->num_kernel_calls = (size_t)op->lowered.calls.len;
    v->has_macs = op->lowered.has_macs;
    v->macs = op->lowered.macs;
    v->has_parameters = op->lowered.has_parameters;
    v->parameters = op->lowered.parameters;
}

static void tensor_view(TaPool *pool, const TaTensor *t, tinyaot_tensor_view *v)
{
    v->id = dup(pool, t->id);
    v->name = dup(pool, t->name);
    int64_t *shape = ta_alloc_array(pool, (size_t)t->rank + 1, sizeof(int64_t));
    for (int i = 0; i < t->rank; i++)
        shape[i] = t->dims[i];
    v->shape = shape;
    v->rank = (size_t)t->rank;
    v->dtype = ta_dtype_name(t->dtype);
    v->ctype = ta_dtype_ctype(t->dtype) ? ta_dtype_ctype(t->dtype) : "uint8_t";
    if (t->quant && t->quant->num_scales) {
        tinyaot_quantization_view *q = ta_alloc(pool, sizeof *q);
        double *scale = ta_alloc_array(pool, (size_t)t->quant->num_scales, sizeof(double));
        for (int i = 0; i < t->quant->num_scales; i++)
            scale[i] = t->quant->scale[i];
        q->scale = scale;
        q->num_scales = (size_t)t->quant->num_scales;
        q->zero_point = ta_memdup(pool, t->quant->zero_point,
                                  (size_t)t->quant->num_zero_points * sizeof(int64_t));
        q->num_zero_points = (size_t)t->quant->num_zero_points;
        q->axis = t->quant->axis;
        v->quantization = q;
    }
    v->kind = ta_view_kind(t);
    v->input_index = t->input_index;
    v->output_index = t->output_index;
    v->nbytes = (int64_t)t->place.size;
    v->model_tensor = ta_model_tensor(t);
    v->stored_format = ta_stored_format(t);
    v->dense_nbytes = ta_dense_bytes(t);
}

static void region_view(TaPool *pool, const TaRegion *r, tinyaot_region_view *v)
{
    v->id = r->id;
    v->memory = ta_memory_name(r->memory);
    v->source_memory = ta_memory_name(r->source_memory);
    v->role = ta_role_name(r->role);
    v->offset = (int64_t)r->guard;
    v->size = (int64_t)r->size;
    v->alignment = (int64_t)r->alignment;
    v->symbol = dup(pool, r->symbol);
    v->source_symbol = dup(pool, r->source_symbol);
    v->source_offset = (int64_t)r->source_guard;
    v->sidecar_file = dup(pool, r->sidecar_file);
}

static void placement_view(TaPool *pool, const TaTensor *t, tinyaot_placement_view *v)
{
    v->tensor_id = dup(pool, t->id);
    v->region = t->place.region ? t->place.region->id : -1;
    v->offset = (int64_t)t->place.offset;
    v->size = (int64_t)t->place.size;
    v->source_memory = t->place.region ? ta_memory_name(t->place.source_memory) : NULL;
    v->staged = t->place.staged;
}

void ta_build_views(TaPool *pool, tinyaot_result *res, const TaGraph *g, const TaPlan *plan)
{
    tinyaot_operator_view *ops = ta_alloc_array(pool, (size_t)g->ops.len + 1, sizeof *ops);
    for (int i = 0; i < g->ops.len; i++)
        operator_view(pool, g, TA_OP(g, i), &ops[i]);
    res->operators = ops;
    res->num_operators = (size_t)g->ops.len;

    tinyaot_tensor_view *tensors = ta_alloc_array(pool, (size_t)g->tensors.len + 1,
                                                  sizeof *tensors);
    tinyaot_placement_view *places = ta_alloc_array(pool, (size_t)g->tensors.len + 1,
                                                    sizeof *places);
    for (int i = 0; i < g->tensors.len; i++) {
        tensor_view(pool, TA_TENSOR(g, i), &tensors[i]);
        placement_view(pool, TA_TENSOR(g, i), &places[i]);
    }
    res->tensors = tensors;
    res->num_tensors = res->num_placements = (size_t)g->tensors.len;
    res->placements = places;

    tinyaot_region_view *regions = ta_alloc_array(pool, (size_t)plan->regions.len + 1,
                                                  sizeof *regions);
    int64_t *bounds = ta_alloc_array(pool, (size_t)plan->regions.len + 1, sizeof(int64_t));
    for (int i = 0; i < plan->regions.len; i++) {
        const TaRegion *r = plan->regions.items[i];
        region_view(pool, r, &regions[i]);
        bounds[i] = r->role == TA_REGION_SCRATCH ? (int64_t)r->lower_bound : -1;
    }
    res->regions = regions;
    res->num_regions = (size_t)plan->regions.len;
    res->region_lower_bounds = bounds;
}
