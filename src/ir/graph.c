/* graph.c - helpers over the graph: element types, sizes, renumbering. */
#include "ir.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    const char *ctype;
    size_t size;
} dtype_info[] = {
    [TA_FLOAT32] = {"float32", "float", 4},  [TA_FLOAT16] = {"float16", "uint16_t", 2},
    [TA_INT32] = {"int32", "int32_t", 4},    [TA_UINT8] = {"uint8", "uint8_t", 1},
    [TA_INT64] = {"int64", "int64_t", 8},    [TA_STRING] = {"string", NULL, 0},
    [TA_BOOL] = {"bool", "bool", 1},         [TA_INT16] = {"int16", "int16_t", 2},
    [TA_COMPLEX64] = {"complex64", NULL, 8}, [TA_INT8] = {"int8", "int8_t", 1},
    [TA_FLOAT64] = {"float64", "double", 8}, [TA_COMPLEX128] = {"complex128", NULL, 16},
    [TA_UINT64] = {"uint64", "uint64_t", 8}, [TA_RESOURCE] = {"resource", NULL, 0},
    [TA_VARIANT] = {"variant", NULL, 0},     [TA_UINT32] = {"uint32", "uint32_t", 4},
    [TA_UINT16] = {"uint16", "uint16_t", 2}, [TA_INT4] = {"int4", NULL, 0},
    [TA_BFLOAT16] = {"bfloat16", NULL, 2},
};

const char *ta_dtype_name(int dtype)
{
    static const char *unknown[] = {"type19", "type20", "type21", "type22"};
    if (dtype >= 0 && dtype < (int)TA_COUNT_OF(dtype_info) && dtype_info[dtype].name)
        return dtype_info[dtype].name;
    if (dtype >= 19 && dtype <= 22)
        return unknown[dtype - 19];
    return "unknown";
}

const char *ta_dtype_ctype(int dtype)
{
    if (dtype >= 0 && dtype < (int)TA_COUNT_OF(dtype_info))
        return dtype_info[dtype].ctype;
    return NULL;
}

size_t ta_dtype_size(int dtype)
{
    if (dtype >= 0 && dtype < (int)TA_COUNT_OF(dtype_info) && dtype_info[dtype].ctype)
        return dtype_info[dtype].size;
    return 0;
}

const char *ta_role_name(ta_region_role_t role)
{
    switch (role) {
    case TA_REGION_SCRATCH: return "scratch";
    case TA_REGION_PERSISTENT: return "persistent";
    case TA_REGION_CONSTANT: return "constant";
    }
    ta_unreachable();
    return NULL;
}

/* The reader caps every shape so this product cannot overflow. */
size_t ta_tensor_elements(const TaTensor *t)
{
    size_t n = 1;
    for (int i = 0; i < t->rank; i++)
        n *= (size_t)t->dims[i];
    return n;
}

size_t ta_tensor_bytes(const TaTensor *t)
{
    return ta_tensor_elements(t) * ta_dtype_size(t->dtype);
}

size_t ta_tensor_planned_bytes(const TaTensor *t)
{
    return t->row_buffer_bytes ? t->row_buffer_bytes : ta_tensor_bytes(t);
}

const char *ta_shape_text(TaPool *pool, const TaTensor *t)
{
    TaBuf b = {0};
    ta_buf_puts(&b, "[");
    for (int i = 0; i < t->rank; i++)
        ta_buf_printf(&b, "%s%d", i ? "," : "", (int)t->dims[i]);
    ta_buf_puts(&b, "]");
    char *s = ta_strdup(pool, b.data);
    ta_buf_free(&b);
    return s;
}

int ta_model_tensor(const TaTensor *t)
{
    if (t->model_index >= 0)
        return t->model_index;
    return t->derived_from ? t->derived_from->model_index : -1;
}

const char *ta_stored_format(const TaTensor *t)
{
    if (t->role != TA_REGION_CONSTANT)
        return NULL;
    return t->stored_format ? t->stored_format : "dense";
}

int64_t ta_dense_bytes(const TaTensor *t)
{
    if (t->role != TA_REGION_CONSTANT)
        return -1;
    return (int64_t)(t->stored_format ? t->dense_bytes : t->data_size);
}

TaTensor *ta_tensor_root(TaTensor *t)
{
    while (t && t->alias_of)
        t = t->alias_of;
    return t;
}

int ta_tensor_readers(const TaGraph *g, const TaTensor *t)
{
    int n = 0;
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        for (int k = 0; k < op->num_inputs && !op->removed; k++)
            n += op->inputs[k] == t;
    }
    return n;
}

TaTensor *ta_graph_new_tensor(TaPool *pool, TaGraph *g, const char *id, TaDtype dtype, int rank,
                              const int32_t *dims)
{
    TA_ASSERT(rank >= 0 && rank <= TA_MAX_RANK);
    TaTensor *t = ta_alloc(pool, sizeof *t);
    t->index = g->tensors.len;
    t->model_index = -1;
    t->id = ta_strdup(pool, id);
    t->dtype = dtype;
    t->rank = rank;
    if (rank)
        memcpy(t->dims, dims, (size_t)rank * sizeof dims[0]);
    t->role = TA_REGION_SCRATCH;
    t->input_index = -1;
    t->output_index = -1;
    t->first_use = t->last_use = -1;
    ta_vec_push(pool, &g->tensors, t);
    return t;
}

const char *ta_op_describe(TaPool *pool, const TaOp *op)
{
    if (op->model_index >= 0 && op->model_subgraph > 0)
        return ta_format(pool, "subgraph %d operator %d (%s)", op->model_subgraph, op->model_index,
                         op->type);
    if (op->model_index >= 0)
        return ta_format(pool, "operator %d (%s)", op->model_index, op->type);
    return ta_format(pool, "created operator at layer %d (%s)", op->index, op->type);
}

void ta_graph_compact(TaPool *pool, TaGraph *g)
{
    (void)pool;
    int n = 0;
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        if (op->removed)
            continue;
        op->index = n;
        g->ops.items[n++] = op;
    }
    g->ops.len = n;
    n = 0;
    for (int i = 0; i < g->tensors.len; i++) {
        TaTensor *t = TA_TENSOR(g, i);
        if (t->removed)
            continue;
        t->index = n;
        g->tensors.items[n++] = t;
    }
    g->tensors.len = n;
}

void ta_call_ignores(TaKernelCall *c, size_t offset)
{
    TA_ASSERT(c->params_desc && offset < c->params_desc->size);
    TA_ASSERT(c->num_ignored_fields < (int)TA_COUNT_OF(c->ignored_fields));
    c->ignored_fields[c->num_ignored_fields++] = offset;
}

bool ta_call_ignores_field(const TaKernelCall *c, size_t offset)
{
    for (int i = 0; i < c->num_ignored_fields; i++)
        if (c->ignored_fields[i] == offset)
            return true;
    return false;
}

int ta_op_calls_with_role(const TaOp *op, const char *role)
{
    int n = 0;
    for (int i = 0; i < op->lowered.calls.len; i++)
        n += strcmp(((const TaKernelCall *)op->lowered.calls.items[i])->role, role) == 0;
    return n;
}
