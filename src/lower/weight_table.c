/*
 * weight_table.c - weights.format's table form: the kernel-ready weights
 * of CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED stored as indices
 * into tables, and a decode call before the kernel writing them, dense,
 * into a scratch tensor the planner places for the operator's duration.
 *
 * Which tensors: `table` codes every weight tensor whose values fit (at
 * most 128 a table) when that takes fewer bytes; `auto` codes weights a
 * TFLM_DECODE gave (the model was compressed: keep it so) and clustered
 * weights (at most 16 values in the tensor) when that saves at least
 * AUTO_MIN_SAVED bytes, the decode call's own flash being a few dozen;
 * `dense` and `packed` code none, nor do weights.dense's tensors. INT4
 * weights (kept packed, or dense under auto) are coded by `table` only.
 */
#include "weight_table.h"

#include <fnmatch.h>
#include <string.h>

enum { AUTO_MIN_SAVED = 256, CLUSTERED_VALUES = 16 };

bool ta_weights_named_dense(const TaWeightsOptions *o, const TaTensor *t)
{
    for (int i = 0; i < o->num_dense; i++)
        if (strcmp(o->dense[i], t->id) == 0 || (t->name && fnmatch(o->dense[i], t->name, 0) == 0))
            return true;
    return false;
}

/* The model tensor the call's weights were made from, or NULL. */
static const TaTensor *source_of(const TaTensor *w)
{
    return w->derived_from ? w->derived_from : w->model_index >= 0 ? w : NULL;
}

static bool wanted(const TaWeightsOptions *o, const TaTensor *src, const TaWeightTable *t,
                   size_t dense)
{
    if ((size_t)t->stored_bytes >= dense)
        return false;
    if (strcmp(o->format, "table") == 0)
        return true;
    if (strcmp(o->format, "auto") != 0 || src->int4_packed)
        return false;
    return src->from_tflm_decode ||
           (t->max_values <= CLUSTERED_VALUES && dense - (size_t)t->stored_bytes >= AUTO_MIN_SAVED);
}

/* Output channels of the weights' quantization (1 when per tensor). */
static int32_t channels_of(const TaTensor *src)
{
    return src->quant && src->quant->num_scales > 1 ? src->quant->num_scales : 1;
}

static void insert_call(TaLower *L, TaOp *op, int at, TaKernelCall *c)
{
    TaVec *calls = &op->lowered.calls;
    ta_vec_push(L->pool, calls, c);
    memmove(&calls->items[at + 1], &calls->items[at], (size_t)(calls->len - 1 - at) * sizeof c);
    calls->items[at] = c;
}

/* Weights read by several operators (a tensor a TFLM_DECODE decoded for
   each reader, shared by decode_constants.c) are stored once. */
typedef struct Coded {
    const TaTensor *dense;
    TaTensor *stored;
    ta_weight_table_params_t params;
} Coded;

static const Coded *find_coded(const TaVec *coded, const TaTensor *w)
{
    for (int i = 0; i < coded->len; i++)
        if (((const Coded *)coded->items[i])->dense == w)
            return coded->items[i];
    return NULL;
}

/* The stored constant for `w`, made here or for an earlier reader; NULL
   when `w` stays dense. */
static const Coded *code_weights(TaLower *L, const TaWeightsOptions *o, TaOp *op, TaVec *coded,
                                 const TaTensor *w, const TaTensor *src)
{
    const Coded *done = find_coded(coded, w);
    if (done)
        return done;
    const size_t dense = ta_tensor_bytes(w);
    TaWeightTable t;
    if (dense > INT32_MAX ||
        !ta_weight_table_encode(L->pool, (const int8_t *)w->data, (int32_t)dense, channels_of(src),
                                &t) ||
        !wanted(o, src, &t, dense))
        return NULL;
    /* literals: the reports outlive the conversion's pool */
    static const char *const formats[] = {"table1", "table2", "table3", "table4",
                                          "table5", "table6", "table7"};
    Coded *c = ta_alloc(L->pool, sizeof *c);
    c->dense = w;
    c->params = t.params;
    c->stored = ta_local_constant(L, op, "weights_table", TA_UINT8, t.stored_bytes, t.stored);
    ta_derived_from(c->stored, w);
    c->stored->stored_format = t.params.layout == TA_WEIGHT_TABLE_BITMAP
                                   ? "bitmap"
                                   : formats[t.params.bits - 1];
    c->stored->dense_bytes = dense;
    ta_vec_push(L->pool, coded, c);
    return c;
}

static void code_call(TaLower *L, const TaWeightsOptions *o, TaOp *op, int k, TaVec *coded)
{
    TaKernelCall *c = op->lowered.calls.items[k];
    if (strcmp(c->role, "run") != 0 || c->args.len < 2)
        return;
    TaTensor *w = c->args.items[1];
    const TaTensor *src = w ? source_of(w) : NULL;
    if (!src || w->role != TA_REGION_CONSTANT || w->dtype != TA_INT8 || w->stored_format ||
        !w->data || ta_weights_named_dense(o, src))
        return;
    const Coded *stored = code_weights(L, o, op, coded, w, src);
    if (!stored)
        return;
    TaTensor *decoded = ta_local_scratch(L, op, "weights_decoded", (int32_t)ta_tensor_bytes(w));
    TaKernelCall *d = ta_alloc(L->pool, sizeof *d);
    d->role = "run";
    d->function = "ta_weight_table_s8";
    d->header = "runtime/kernels/ta_weight_table.h";
    *TA_CALL_PARAMS(L, d, ta_weight_table_params_t) = stored->params;
    ta_call_arg(L, d, stored->stored);
    ta_call_arg(L, d, decoded);
    insert_call(L, op, k, d);
    c->args.items[1] = decoded;
}

void ta_lower_weight_tables(TaLower *L, const TaWeightsOptions *o)
{
    if (strcmp(o->format, "auto") != 0 && strcmp(o->format, "table") != 0)
        return;
    TaVec coded = {0}; /* Coded* */
    for (int i = 0; i < L->graph->ops.len; i++) {
        TaOp *op = TA_OP(L->graph, i);
        if (op->removed ||
            (op->builtin != TA_BUILTIN_CONV_2D && op->builtin != TA_BUILTIN_DEPTHWISE_CONV_2D &&
             op->builtin != TA_BUILTIN_FULLY_CONNECTED))
            continue;
        for (int k = op->lowered.calls.len - 1; k >= 0; k--)
            code_call(L, o, op, k, &coded);
    }
}
