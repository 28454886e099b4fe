/*
 * sparse_graph.c - SPARSE_CHANNELS: which operators the transform
 * understands. Anything it does not recognise exactly (a grouped
 * convolution, a depth multiplier above 1, per-channel activations, a
 * weight tensor two operators share, anything but int8 activations) is
 * opaque: it reads and writes every channel, and nothing around it
 * changes.
 */
#include "sparse_channels.h"

#include "../lower/ops.h"

/* Every dimension at least 1 (a malformed model may say otherwise). */
static bool positive_dims(const TaTensor *t)
{
    for (int d = 0; d < t->rank; d++)
        if (t->dims[d] < 1)
            return false;
    return true;
}

static bool quantized_activation(const TaTensor *t)
{
    return t && !t->data && !t->is_variable && t->rank >= 1 && positive_dims(t) &&
           t->dtype == TA_INT8 &&
           (!t->quant || (t->quant->num_scales <= 1 && t->quant->num_zero_points <= 1));
}

int32_t ta_sparse_channels(const TaTensor *t)
{
    return t->rank >= 1 ? t->dims[t->rank - 1] : 1;
}

bool ta_sparse_owned_constant(const TaSparseGraph *s, const TaTensor *t)
{
    return t->data && t->role == TA_REGION_CONSTANT && s->reads[t->index] == 1 &&
           positive_dims(t) && t->data_size >= ta_tensor_bytes(t) && t->output_index < 0;
}

/* Per-channel quantization along `axis` with `n` entries, or per tensor. */
static bool channel_quant(const TaQuant *q, int axis, int32_t n)
{
    if (!q)
        return true;
    const bool scales = q->num_scales <= 1 || (q->num_scales == n && q->axis == axis);
    const bool zps = q->num_zero_points <= 1 || (q->num_zero_points == n && q->axis == axis);
    return scales && zps;
}

static bool usable_bias(const TaSparseGraph *s, const TaTensor *b, int32_t n)
{
    return !b ||
           (ta_sparse_owned_constant(s, b) && (b->dtype == TA_INT32 || b->dtype == TA_INT64) &&
            ta_tensor_elements(b) == (size_t)n && channel_quant(b->quant, 0, n));
}

/* The weights, bias and operands every convolution-like operator needs. */
static bool weighted(const TaSparseGraph *s, const TaOp *op, TaSparseOp *so)
{
    if (op->num_outputs != 1 || op->num_inputs < 2 || op->num_inputs > 3 || !op->inputs[0] ||
        !op->inputs[1] || op->rewrites.residual_add || op->rewrites.folded_activation)
        return false;
    so->in = op->inputs[0];
    so->weights = op->inputs[1];
    so->bias = op->num_inputs == 3 ? op->inputs[2] : NULL;
    so->out = op->outputs[0];
    return quantized_activation(so->in) && quantized_activation(so->out) &&
           so->weights->dtype == TA_INT8 && ta_sparse_owned_constant(s, so->weights);
}

static bool classify_conv(const TaSparseGraph *s, const TaOp *op, TaSparseOp *so)
{
    if (!weighted(s, op, so))
        return false;
    const TaTensor *w = so->weights;
    if (w->rank != 4 || so->in->rank != 4 || so->out->rank != 4 || w->dims[3] != so->in->dims[3] ||
        so->out->dims[3] != w->dims[0])
        return false; /* grouped, or not a convolution tinyaot lowers */
    so->rows = w->dims[0];
    so->taps = w->dims[1] * w->dims[2];
    so->depth = w->dims[3];
    so->one_by_one = so->taps == 1;
    return channel_quant(w->quant, 0, so->rows) && usable_bias(s, so->bias, so->rows);
}

static bool classify_fc(const TaSparseGraph *s, const TaOp *op, TaSparseOp *so)
{
    if (!weighted(s, op, so))
        return false;
    const TaTensor *w = so->weights;
    if (w->rank != 2 || ta_sparse_channels(so->in) != w->dims[1] ||
        ta_sparse_channels(so->out) != w->dims[0])
        return false;
    so->rows = w->dims[0];
    so->taps = 1;
    so->depth = w->dims[1];
    so->one_by_one = true;
    return channel_quant(w->quant, 0, so->rows) && usable_bias(s, so->bias, so->rows);
}

static bool classify_depthwise(const TaSparseGraph *s, const TaOp *op, TaSparseOp *so)
{
    if (!weighted(s, op, so))
        return false;
    const TaTensor *w = so->weights;
    const int32_t c = w->rank == 4 ? w->dims[3] : -1;
    if (w->rank != 4 || w->dims[0] != 1 || so->in->rank != 4 || so->out->rank != 4 ||
        so->in->dims[3] != c || so->out->dims[3] != c)
        return false; /* a depth multiplier above 1 */
    so->depthwise = true;
    so->taps = w->dims[1] * w->dims[2];
    so->depth = c;
    return channel_quant(w->quant, 3, c) && usable_bias(s, so->bias, c);
}

static bool same_shape(const TaTensor *a, const TaTensor *b)
{
    if (a->rank != b->rank)
        return false;
    for (int d = 0; d < a->rank; d++)
        if (a->dims[d] != b->dims[d])
            return false;
    return true;
}

/* Each operand an activation of the output's shape or a one-element constant. */
static bool elementwise(const TaOp *op)
{
    if (op->num_outputs != 1 || !quantized_activation(op->outputs[0]))
        return false;
    for (int k = 0; k < op->num_inputs; k++) {
        const TaTensor *t = op->inputs[k];
        if (!t)
            return false;
        const bool scalar = t->data && ta_tensor_elements(t) == 1;
        if (!scalar && !(quantized_activation(t) && same_shape(t, op->outputs[0])))
            return false;
    }
    return true;
}

/* The input's channels pass through unchanged in number: a rank-4 NHWC
   operator whose last dimension the output keeps. */
static bool keeps_channels(const TaOp *op)
{
    return op->num_inputs >= 1 && op->num_outputs == 1 && op->inputs[0] &&
           quantized_activation(op->inputs[0]) && quantized_activation(op->outputs[0]) &&
           op->inputs[0]->rank == op->outputs[0]->rank &&
           ta_sparse_channels(op->inputs[0]) == ta_sparse_channels(op->outputs[0]);
}

/* PAD or PADV2 that pads no channel: paddings [rank, 2] with a zero last row. */
static bool pads_inner(const TaOp *op)
{
    if (!keeps_channels(op) || op->num_inputs < 2 || !op->inputs[1] || !op->inputs[1]->data)
        return false;
    const TaTensor *p = op->inputs[1];
    const int rank = op->inputs[0]->rank;
    if (p->rank != 2 || p->dims[0] != rank || p->dims[1] != 2 ||
        (p->dtype != TA_INT32 && p->dtype != TA_INT64) || p->data_size < ta_tensor_bytes(p))
        return false;
    for (int i = 0; i < 2; i++) {
        const size_t at = (size_t)(rank - 1) * 2 + (size_t)i;
        const int64_t v = p->dtype == TA_INT32 ? ((const int32_t *)p->data)[at]
                                               : ((const int64_t *)p->data)[at];
        if (v != 0)
            return false;
    }
    return op->num_inputs == 2 || (op->inputs[2] && op->inputs[2]->data);
}

static TaSparseRole classify(const TaSparseGraph *s, const TaOp *op, TaSparseOp *so)
{
    if (op->removed || op->control != TA_CONTROL_NONE || op->num_intermediates)
        return TA_SPARSE_OPAQUE;
    switch (op->builtin) {
    case TA_BUILTIN_CONV_2D: return classify_conv(s, op, so) ? TA_SPARSE_ROWS : TA_SPARSE_OPAQUE;
    case TA_BUILTIN_FULLY_CONNECTED:
        return classify_fc(s, op, so) ? TA_SPARSE_ROWS : TA_SPARSE_OPAQUE;
    case TA_BUILTIN_DEPTHWISE_CONV_2D:
        return classify_depthwise(s, op, so) ? TA_SPARSE_CHANNELWISE : TA_SPARSE_OPAQUE;
    case TA_BUILTIN_AVERAGE_POOL_2D:
    case TA_BUILTIN_MAX_POOL_2D:
        return op->num_inputs == 1 && keeps_channels(op) && op->inputs[0]->rank == 4
                   ? TA_SPARSE_CHANNELWISE
                   : TA_SPARSE_OPAQUE;
    case TA_BUILTIN_RELU:
    case TA_BUILTIN_RELU6:
    case TA_BUILTIN_LEAKY_RELU:
    case TA_BUILTIN_LOGISTIC:
    case TA_BUILTIN_TANH:
    case TA_BUILTIN_HARD_SWISH:
        return op->num_inputs == 1 && keeps_channels(op) && elementwise(op) ? TA_SPARSE_CHANNELWISE
                                                                            : TA_SPARSE_OPAQUE;
    case TA_BUILTIN_ADD:
    case TA_BUILTIN_SUB:
    case TA_BUILTIN_MUL:
    case TA_BUILTIN_MAXIMUM:
    case TA_BUILTIN_MINIMUM:
        return op->num_inputs == 2 && elementwise(op) ? TA_SPARSE_CHANNELWISE : TA_SPARSE_OPAQUE;
    case TA_BUILTIN_PAD:
    case TA_BUILTIN_PADV2: return pads_inner(op) ? TA_SPARSE_CHANNELWISE : TA_SPARSE_OPAQUE;
    default: return TA_SPARSE_OPAQUE;
    }
}

void ta_sparse_graph_build(TaSparseGraph *s, TaPassCtx *ctx)
{
    TaGraph *g = ctx->graph;
    const size_t n = (size_t)g->tensors.len + 1;
    s->ctx = ctx;
    s->g = g;
    s->writer = ta_alloc_array(ctx->pool, n, sizeof(TaOp *));
    s->reads = ta_alloc_array(ctx->pool, n, sizeof(int));
    s->ops = ta_alloc_array(ctx->pool, (size_t)g->ops.len + 1, sizeof(TaSparseOp));
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        if (op->removed)
            continue;
        for (int k = 0; k < op->num_inputs; k++)
            if (op->inputs[k])
                s->reads[op->inputs[k]->index]++;
        for (int k = 0; k < op->num_intermediates; k++)
            if (op->intermediates[k])
                s->reads[op->intermediates[k]->index]++;
        if (op->control_cond)
            s->reads[op->control_cond->index]++;
        for (int k = 0; k < op->num_outputs; k++)
            s->writer[op->outputs[k]->index] = op;
    }
    for (int i = 0; i < g->outputs.len; i++)
        s->reads[((TaTensor *)g->outputs.items[i])->index]++;
    for (int i = 0; i < g->ops.len; i++) {
        TaSparseOp *so = &s->ops[i];
        so->role = classify(s, TA_OP(g, i), so);
        if (so->role == TA_SPARSE_OPAQUE)
            *so = (TaSparseOp){0};
    }
}
