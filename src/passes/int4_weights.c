/*
 * int4_weights.c - TFLite's INT4 tensors, before any other check.
 *
 * TFLite Micro takes INT4 only as the constant weights of CONV_2D,
 * DEPTHWISE_CONV_2D and FULLY_CONNECTED with int8 activations (per-tensor
 * FULLY_CONNECTED: its Prepare refuses per-channel INT4 there). The buffer
 * holds the flat values two to a byte, the first of each pair in the low
 * nibble, the last byte's high nibble unused when the count is odd.
 *
 * Every such tensor is unpacked here to int8, so that every check, fold
 * and lowering sees ordinary int8 weights; the packed bytes stay on the
 * tensor (int4_packed) and int4_keep_packed says whether weights.format
 * (auto, packed or dense) keeps them packed in the module (lower/int4_packed.c swaps the kernel).
 * An INT4 tensor anywhere else is one error naming it and its operator.
 */
#include "passes.h"

#include <string.h>

static bool is_weight_slot(const TaOp *op, int k)
{
    static const char *const ops[] = {"CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED"};
    if (k != 1 || op->builtin < 0)
        return false;
    for (size_t i = 0; i < TA_COUNT_OF(ops); i++)
        if (strcmp(op->type, ops[i]) == 0)
            return true;
    return false;
}

static int8_t nibble(const uint8_t *packed, size_t i)
{
    const unsigned v = (unsigned)(packed[i / 2] >> (i % 2 ? 4 : 0)) & 0xFu;
    return (int8_t)((int)v - (v & 8u ? 16 : 0));
}

/* CONV_2D filters of fewer values than this stay dense under auto: their
   packed kernel spends its time per pixel, not per weight (bench/int4.py,
   docs/compressed-models.md: 1.9-3.5x the int8 kernel's instructions on
   the Cortex-M55 and the Cortex-M4 for 8-32 values, 1.0-1.5x from 64),
   and they hold few of a model's weights. */
#define TA_INT4_CONV_MIN_PACKED 64

/* Whether the module keeps the tensor packed: weights.format packed, or
   auto where the packed kernel pays. DEPTHWISE_CONV_2D's packed kernel
   (Helium and DSP paths for depth multiplier 1) still costs about 1.4x the
   int8 one's instructions on both boards (bench/int4.py's depthwise
   layers, docs/compressed-models.md), for weights that are a small share
   of a model (3x3 per channel): auto keeps them dense, and short CONV_2D
   filters too. */
static bool keep_packed(const TaWeightsOptions *o, const TaOp *op, const TaTensor *t)
{
    if (strcmp(o->format, "dense") == 0 || ta_weights_named_dense(o, t))
        return false;
    if (strcmp(o->format, "packed") == 0)
        return true;
    if (strcmp(op->type, "CONV_2D") == 0 && t->rank == 4)
        return (int64_t)t->dims[1] * t->dims[2] * t->dims[3] >= TA_INT4_CONV_MIN_PACKED;
    return strcmp(op->type, "DEPTHWISE_CONV_2D") != 0;
}

static void unpack(TaPool *pool, TaTensor *t, bool packed)
{
    const size_t n = ta_tensor_elements(t);
    int8_t *values = ta_alloc_array(pool, n ? n : 1, 1);
    for (size_t i = 0; i < n; i++)
        values[i] = nibble(t->data, i);
    t->int4_packed = t->data;
    t->int4_packed_size = t->data_size;
    t->int4_keep_packed = packed;
    t->dtype = TA_INT8;
    t->data = (const uint8_t *)values;
    t->data_size = n;
}

/* Why TFLite Micro would refuse INT4 weights in this slot, or NULL. */
static const char *refusal(const TaOp *op, const TaTensor *w)
{
    const TaTensor *in = op->inputs[0];
    if (w->role != TA_REGION_CONSTANT || !w->data)
        return "INT4 weights must be constant";
    if (!in || in->dtype != TA_INT8)
        return "INT4 weights need int8 activations (as in TFLite Micro)";
    if (strcmp(op->type, "FULLY_CONNECTED") == 0 && w->quant && w->quant->num_scales > 1)
        return "per-channel INT4 weights are refused by TFLite Micro's FULLY_CONNECTED; "
               "quantize them per tensor";
    return NULL;
}

/* A hybrid model (float32 activations) is left to ta_pass_check_hybrid. */
static bool hybrid(const TaOp *op)
{
    return op->num_outputs > 0 && op->outputs[0] && op->outputs[0]->dtype == TA_FLOAT32;
}

static bool check_operand(TaPool *pool, TaDiag *d, const char *model_path, TaOp *op, int k,
                          bool output, const TaWeightsOptions *o)
{
    TaTensor *t = output ? op->outputs[k] : op->inputs[k];
    if (!t || t->dtype != TA_INT4 || t->int4_packed)
        return true;
    if (output || !is_weight_slot(op, k)) {
        ta_error(d,
                 "%s: %s: %s %d (tensor %s) is int4, which tinyaot (as TFLite Micro) takes only "
                 "as the constant weights of CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED",
                 model_path, ta_op_describe(pool, op), output ? "output" : "input", k, t->id);
        return false;
    }
    if (hybrid(op))
        return true;
    const char *why = refusal(op, t);
    if (why) {
        ta_error(d, "%s: %s: weights (tensor %s, int4): %s", model_path, ta_op_describe(pool, op),
                 t->id, why);
        return false;
    }
    const size_t n = ta_tensor_elements(t), need = (n + 1) / 2;
    if (t->data_size != need) {
        ta_error(d,
                 "%s: %s: weights (tensor %s, int4, shape %s) hold %zu bytes, but %zu values "
                 "packed two to a byte need %zu",
                 model_path, ta_op_describe(pool, op), t->id, ta_shape_text(pool, t), t->data_size,
                 n, need);
        return false;
    }
    unpack(pool, t, keep_packed(o, op, t));
    return true;
}

bool ta_pass_int4_weights(TaPassCtx *ctx)
{
    static const TaWeightsOptions automatic = {.format = "auto"};
    TaPool *pool = ctx->pool;
    TaDiag *d = ctx->diag;
    const char *model_path = ctx->model_path;
    TaGraph *g = ctx->graph;
    const TaWeightsOptions *o = ctx->weights ? ctx->weights : &automatic;
    const int errors = d->errors;
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        for (int k = 0; k < op->num_inputs; k++)
            check_operand(pool, d, model_path, op, k, false, o);
        for (int k = 0; k < op->num_outputs; k++)
            check_operand(pool, d, model_path, op, k, true, o);
    }
    for (int i = 0; i < g->inputs.len && d->errors == errors; i++) {
        const TaTensor *t = g->inputs.items[i];
        if (t->dtype == TA_INT4)
            ta_error(d, "%s: model input %d (tensor %s) is int4, which no operator takes as input",
                     model_path, i, t->id);
    }
    return d->errors == errors;
}
