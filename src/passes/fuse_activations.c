/*
 * fuse_activations.c - FUSE_ACTIVATIONS: folds a standalone RELU, RELU6 or
 * RELU_N1_TO_1 into the clamp of the operator that produces its input.
 *
 * Exact when the activation's input and output share their quantization:
 * TFLite's RELU then requantizes by exactly 1 and clamps at the quantized
 * 0 (and 6, or -1 and 1), which is the clamp the producer's fused
 * activation applies to the same tensor. The producer keeps its own fused
 * activation too; lowering intersects the two ranges (ta_activation_range).
 * The activation operator and the intermediate tensor leave the graph.
 */
#include "transforms.h"

#include <string.h>

enum { OP_RELU = 19, OP_RELU_N1_TO_1 = 20, OP_RELU6 = 21 };

/* Operators whose lowering clamps through ta_activation_range. */
static const char *const clamping[] = {"ADD",
                                       "AVERAGE_POOL_2D",
                                       "CONV_2D",
                                       "DEPTHWISE_CONV_2D",
                                       "FULLY_CONNECTED",
                                       "MAX_POOL_2D",
                                       "MUL",
                                       "SUB"};

static int activation_of(int builtin)
{
    switch (builtin) {
    case OP_RELU: return 1;         /* TA_ACT_RELU */
    case OP_RELU_N1_TO_1: return 2; /* TA_ACT_RELU_N1_TO_1 */
    case OP_RELU6: return 3;        /* TA_ACT_RELU6 */
    default: return 0;
    }
}

static bool same_quantization(const TaTensor *a, const TaTensor *b)
{
    if (a->dtype != b->dtype || !a->quant || !b->quant || a->quant->num_scales != 1 ||
        b->quant->num_scales != 1)
        return false;
    int64_t za = a->quant->num_zero_points ? a->quant->zero_point[0] : 0;
    int64_t zb = b->quant->num_zero_points ? b->quant->zero_point[0] : 0;
    return a->quant->scale[0] == b->quant->scale[0] && za == zb;
}

static bool clamps(const TaOp *op)
{
    for (size_t i = 0; i < TA_COUNT_OF(clamping); i++)
        if (strcmp(op->type, clamping[i]) == 0)
            return op->num_outputs == 1;
    return false;
}

/* Combining two clamps: the narrower of each bound. RELU with RELU6 is
   RELU6; RELU_N1_TO_1 with either is RELU_N1_TO_1 bounded below at 0 only
   when RELU is present, which no single activation expresses: refuse. */
static int combine(int a, int b)
{
    if (a == 0 || a == b)
        return b;
    if (b == 0)
        return a;
    if ((a == 1 && b == 3) || (a == 3 && b == 1))
        return 3;
    return -1;
}

bool ta_pass_fuse_activations(TaPassCtx *ctx)
{
    TaGraph *g = ctx->graph;
    int n = g->tensors.len;
    int *readers = ta_alloc_array(ctx->pool, (size_t)n + 1, sizeof(int));
    TaOp **writer = ta_alloc_array(ctx->pool, (size_t)n + 1, sizeof(TaOp *));
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        for (int k = 0; k < op->num_inputs; k++)
            if (op->inputs[k])
                readers[op->inputs[k]->index]++;
        for (int k = 0; k < op->num_outputs; k++)
            writer[op->outputs[k]->index] = op;
    }
    for (int i = 0; i < g->outputs.len; i++)
        readers[((TaTensor *)g->outputs.items[i])->index]++;

    for (int i = 0; i < g->ops.len; i++) {
        TaOp *act = TA_OP(g, i);
        int kind = activation_of(act->builtin);
        if (!kind || act->removed || act->num_inputs != 1 || act->num_outputs != 1 ||
            !act->inputs[0])
            continue;
        TaTensor *mid = act->inputs[0], *out = act->outputs[0];
        TaOp *prod = writer[mid->index];
        if (!prod || prod->removed || !clamps(prod) || readers[mid->index] != 1 ||
            !same_quantization(mid, out) || (mid->dtype != TA_INT8 && mid->dtype != TA_INT16))
            continue;
        int combined = combine(prod->rewrites.folded_activation, kind);
        if (combined < 0)
            continue;
        prod->rewrites.folded_activation = combined;
        prod->outputs[0] = out;
        writer[out->index] = prod;
        act->removed = true;
        mid->removed = true;
    }
    return true;
}
