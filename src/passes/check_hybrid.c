/*
 * check_hybrid.c - a hybrid (dynamic-range) quantized model is named as
 * such, once: float32 activations through an operator whose weights are
 * constant int8 (or uint8, int4) tensors. Without this the lowering
 * refuses each such operand on its own line, never saying what the model
 * is or how to export one tinyaot runs.
 */
#include "passes.h"

#include <string.h>

/* The operators a dynamic-range converter leaves with integer weights.
   Not EMBEDDING_LOOKUP: its hybrid form (an int8 table read into float32
   rows) is one tinyaot runs, as TFLite Micro does. */
static bool takes_weights(const char *type)
{
    static const char *const ops[] = {"FULLY_CONNECTED",
                                      "CONV_2D",
                                      "DEPTHWISE_CONV_2D",
                                      "TRANSPOSE_CONV",
                                      "BATCH_MATMUL",
                                      "LSTM",
                                      "UNIDIRECTIONAL_SEQUENCE_LSTM",
                                      "BIDIRECTIONAL_SEQUENCE_LSTM",
                                      "SVDF",
                                      "RNN",
                                      "UNIDIRECTIONAL_SEQUENCE_RNN",
                                      "BIDIRECTIONAL_SEQUENCE_RNN"};
    for (size_t i = 0; type && i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(ops[i], type) == 0)
            return true;
    return false;
}

static bool integer_weights(const TaTensor *t)
{
    return t && t->role == TA_REGION_CONSTANT &&
           (t->dtype == TA_INT8 || t->dtype == TA_UINT8 || t->dtype == TA_INT4);
}

/* The first integer weight of an operator computing float32, or NULL. */
static const TaTensor *hybrid_weight(const TaOp *op)
{
    if (!takes_weights(op->type) || op->num_outputs < 1 || op->outputs[0]->dtype != TA_FLOAT32)
        return NULL;
    for (int k = 0; k < op->num_inputs; k++)
        if (integer_weights(op->inputs[k]))
            return op->inputs[k];
    return NULL;
}

bool ta_pass_check_hybrid(TaPassCtx *ctx)
{
    TaPool *pool = ctx->pool;
    TaDiag *d = ctx->diag;
    const char *model_path = ctx->model_path;
    const TaGraph *g = ctx->graph;
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        const TaTensor *w = hybrid_weight(op);
        if (!w)
            continue;
        ta_error(d,
                 "%s: %s: a hybrid (dynamic-range) quantized model: float32 activations with "
                 "%s weights (tensor %s); tinyaot runs full-integer int8 or float32 models: "
                 "export with full-integer quantization (a representative dataset) or without "
                 "quantization",
                 model_path, ta_op_describe(pool, op), ta_dtype_name(w->dtype), w->id);
        return false;
    }
    return true;
}
