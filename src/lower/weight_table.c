/*
 * weight_table.c - weights.format's table form: the kernel-ready weights
 * of CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED stored as indices
 * into tables, and a decode call before the kernel writing them, dense,
 * into a scratch tensor the planner places for the operator's duration.
 *
 * Which tensors: `huffman` codes every one whose Huffman codes take
 * fewer bytes (weight_huffman.c); `table` codes every weight tensor whose values fit (at
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

enum { AUTO_MIN_SAVED = 256, CLUSTERED_VALUES = 16, HUFFMAN_MIN_SAVED = 8 };

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

/* Huffman codes instead of tables (`table_bytes`, 0 for none) or dense:
   on request whenever smaller than dense; under auto for TFLM_DECODE
   weights when smallest, for clustered ones when they save at least
   1/HUFFMAN_MIN_SAVED of the tables' bytes (the decode costs several
   instructions a weight, the tables' about one). */
static bool huffman_wanted(const TaWeightsOptions *o, const TaTensor *src, const TaWeightHuffman *h,
                           int32_t table_bytes, int max_values, size_t dense)
{
    const int32_t bytes = h->stored_bytes;
    if ((size_t)bytes >= dense)
        return false;
    if (strcmp(o->format, "huffman") == 0)
        return true;
    if (strcmp(o->format, "auto") != 0 || src->int4_packed)
        return false;
    if (src->from_tflm_decode)
        return table_bytes == 0 || bytes < table_bytes;
    return table_bytes > 0 && max_values <= CLUSTERED_VALUES &&
           bytes <= table_bytes - table_bytes / HUFFMAN_MIN_SAVED;
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
    bool huffman;
    ta_weight_table_params_t table;
    ta_weight_huffman_params_t codes;
} Coded;

static const Coded *find_coded(const TaVec *coded, const TaTensor *w)
{
    for (int i = 0; i < coded->len; i++)
        if (((const Coded *)coded->items[i])->dense == w)
            return coded->items[i];
    return NULL;
}

/* The stored form weights.format gives `w`: c filled (but `stored`, its
   bytes in *bytes) or false for dense. */
static bool choose_form(TaLower *L, const TaWeightsOptions *o, const TaTensor *w,
                        const TaTensor *src, Coded *c, const uint8_t **bytes, int32_t *nbytes)
{
    const size_t dense = ta_tensor_bytes(w);
    if (dense > INT32_MAX)
        return false;
    const int8_t *values = (const int8_t *)w->data;
    if (w->flipped_bytes) { /* code the values; the decoders flip them back */
        int8_t *plain = ta_alloc_array(L->pool, dense, 1);
        memcpy(plain, values, dense);
        ta_weight_flip_even(plain, (int32_t)w->flipped_bytes);
        values = plain;
    }
    TaWeightTable t = {0};
    const bool huffman_only = strcmp(o->format, "huffman") == 0;
    const bool table = !huffman_only &&
                       ta_weight_table_encode(L->pool, values, (int32_t)dense, channels_of(src),
                                              &t) &&
                       wanted(o, src, &t, dense);
    /* auto codes ordinary weights (no TFLM_DECODE, many values) in neither
       form: no need to code them */
    const bool try_huffman = huffman_only || (strcmp(o->format, "auto") == 0 && !src->int4_packed &&
                                              (src->from_tflm_decode || table));
    TaWeightHuffman h;
    if (try_huffman && ta_weight_huffman_encode(L->pool, values, (int32_t)dense, &h) &&
        huffman_wanted(o, src, &h, table ? t.stored_bytes : 0, t.max_values, dense)) {
        c->huffman = true;
        c->codes = h.params;
        c->codes.flipped = (int32_t)w->flipped_bytes;
        *bytes = h.stored;
        *nbytes = h.stored_bytes;
        return true;
    }
    c->table = t.params;
    c->table.flipped = (int32_t)w->flipped_bytes;
    *bytes = t.stored;
    *nbytes = t.stored_bytes;
    return table;
}

static const char *format_name(const Coded *c)
{
    /* literals: the reports outlive the conversion's pool */
    static const char *const formats[] = {"table1", "table2", "table3", "table4",
                                          "table5", "table6", "table7"};
    if (c->huffman)
        return "huffman";
    return c->table.layout == TA_WEIGHT_TABLE_BITMAP ? "bitmap" : formats[c->table.bits - 1];
}

/* The stored constant for `w`, made here or for an earlier reader; NULL
   when `w` stays dense. */
static const Coded *code_weights(TaLower *L, const TaWeightsOptions *o, TaOp *op, TaVec *coded,
                                 const TaTensor *w, const TaTensor *src)
{
    const Coded *done = find_coded(coded, w);
    if (done)
        return done;
    Coded *c = ta_alloc(L->pool, sizeof *c);
    memset(c, 0, sizeof *c);
    const uint8_t *bytes = NULL;
    int32_t nbytes = 0;
    if (!choose_form(L, o, w, src, c, &bytes, &nbytes))
        return NULL;
    c->dense = w;
    c->stored = ta_local_constant(L, op, c->huffman ? "weights_huffman" : "weights_table", TA_UINT8,
                                  nbytes, bytes);
    ta_derived_from(c->stored, w);
    c->stored->stored_format = format_name(c);
    c->stored->dense_bytes = ta_tensor_bytes(w);
    ta_vec_push(L->pool, coded, c);
    return c;
}

static TaKernelCall *decode_call(TaLower *L, const Coded *stored, TaTensor *decoded)
{
    TaKernelCall *d = ta_alloc(L->pool, sizeof *d);
    d->role = "run";
    if (stored->huffman) {
        d->function = "ta_weight_huffman_s8";
        d->header = "runtime/kernels/ta_weight_huffman.h";
        *TA_CALL_PARAMS(L, d, ta_weight_huffman_params_t) = stored->codes;
    } else {
        d->function = "ta_weight_table_s8";
        d->header = "runtime/kernels/ta_weight_table.h";
        *TA_CALL_PARAMS(L, d, ta_weight_table_params_t) = stored->table;
    }
    ta_call_arg(L, d, stored->stored);
    ta_call_arg(L, d, decoded);
    return d;
}

/* Whether call k of `op` reads int8 weights the formats may store. */
static bool codable(const TaWeightsOptions *o, const TaKernelCall *c, const TaTensor **src)
{
    if (strcmp(c->role, "run") != 0 || c->args.len < 2)
        return false;
    const TaTensor *w = c->args.items[1];
    *src = w ? source_of(w) : NULL;
    return *src && w->role == TA_REGION_CONSTANT && w->dtype == TA_INT8 && !w->stored_format &&
           w->data && !ta_weights_named_dense(o, *src);
}

/* The decode call before call k when its weights are stored coded; true
   when the call's weights could be (for weights.format huffman's check). */
static bool code_call(TaLower *L, const TaWeightsOptions *o, TaOp *op, int k, TaVec *coded)
{
    TaKernelCall *c = op->lowered.calls.items[k];
    const TaTensor *src = NULL;
    if (!codable(o, c, &src))
        return false;
    TaTensor *w = c->args.items[1];
    const Coded *stored = code_weights(L, o, op, coded, w, src);
    if (!stored)
        return true;
    TaTensor *decoded = ta_local_scratch(L, op, "weights_decoded", (int32_t)ta_tensor_bytes(w));
    TaKernelCall *params = ta_compact_channel_params(L, op, c, w, decoded);
    if (params)
        insert_call(L, op, k, params);
    insert_call(L, op, k, decode_call(L, stored, decoded));
    c->args.items[1] = decoded;
    return true;
}

bool ta_lower_weight_tables(TaLower *L, const TaWeightsOptions *o)
{
    const bool huffman = strcmp(o->format, "huffman") == 0;
    if (strcmp(o->format, "auto") != 0 && strcmp(o->format, "table") != 0 && !huffman)
        return true;
    TaVec coded = {0}; /* Coded* */
    bool codable_seen = false;
    for (int i = 0; i < L->graph->ops.len; i++) {
        TaOp *op = TA_OP(L->graph, i);
        if (op->removed ||
            (op->builtin != TA_BUILTIN_CONV_2D && op->builtin != TA_BUILTIN_DEPTHWISE_CONV_2D &&
             op->builtin != TA_BUILTIN_FULLY_CONNECTED))
            continue;
        for (int k = op->lowered.calls.len - 1; k >= 0; k--)
            codable_seen |= code_call(L, o, op, k, &coded);
    }
    if (huffman && !codable_seen) {
        ta_error(L->diag,
                 "%s: weights.format huffman: the model has no int8 weights of CONV_2D, "
                 "DEPTHWISE_CONV_2D or FULLY_CONNECTED (outside weights.dense) to store as "
                 "Huffman codes",
                 L->model_path);
        return false;
    }
    return true;
}
