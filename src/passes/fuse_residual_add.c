/*
 * fuse_residual_add.c - FUSE_RESIDUAL_ADD: a CONV_2D whose output only an
 * ADD reads, the ADD's other operand (the residual) dying there, becomes one
 * operator that writes the sum into the residual's bytes
 * (runtime/kernels/ta_conv_2d_add.h). The convolution's output never needs
 * a buffer of its own: ResNet blocks then need two activations live where
 * they needed three.
 *
 * Exact: the fused kernel computes the convolution's int8 output piece by
 * piece with the convolution's own kernel, then ADD's arithmetic on it.
 * The convolution moves to the ADD's place in the execution order (its
 * output fed nothing else, so every operator still runs after its
 * operands); ORDER_FOR_PEAK may move it again.
 */
#include "transforms.h"

#include "../lower/ops.h"

#include <string.h>

typedef struct Uses {
    int *readers;   /* by tensor index: operators reading it (graph outputs count) */
    int *last_read; /* by tensor index: the position of its last reader, -1 */
    int *writer;    /* by tensor index: the position of the operator writing it, -1 */
} Uses;

static void count_uses(TaPassCtx *ctx, Uses *u)
{
    TaGraph *g = ctx->graph;
    size_t n = (size_t)g->tensors.len + 1;
    u->readers = ta_alloc_array(ctx->pool, n, sizeof(int));
    u->last_read = ta_alloc_array(ctx->pool, n, sizeof(int));
    u->writer = ta_alloc_array(ctx->pool, n, sizeof(int));
    for (size_t i = 0; i < n; i++)
        u->last_read[i] = u->writer[i] = -1;
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        if (op->removed)
            continue;
        for (int k = 0; k < op->num_inputs; k++)
            if (op->inputs[k]) {
                u->readers[op->inputs[k]->index]++;
                u->last_read[op->inputs[k]->index] = i;
            }
        for (int k = 0; k < op->num_outputs; k++)
            u->writer[op->outputs[k]->index] = i;
    }
    for (int i = 0; i < g->outputs.len; i++)
        u->readers[((TaTensor *)g->outputs.items[i])->index]++;
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

/* An activation tensor of the run: not a constant, model input or output,
   or state. */
static bool intermediate(const TaTensor *t)
{
    return t && t->role == TA_REGION_SCRATCH && !t->data && !t->is_variable && t->input_index < 0 &&
           t->output_index < 0;
}

/* Whether the convolution at `conv_at` can absorb the ADD at `add_at`
   whose operand `k` it writes. */
static bool fusable(const TaGraph *g, const Uses *u, int conv_at, int add_at, int k)
{
    const TaOp *conv = TA_OP(g, conv_at), *add = TA_OP(g, add_at);
    const TaTensor *mid = add->inputs[k], *residual = add->inputs[1 - k];
    const TaTensor *sum = add->outputs[0];
    if (conv->builtin != TA_BUILTIN_CONV_2D || conv->removed || conv->rewrites.residual_add ||
        conv->num_outputs != 1 || conv->num_inputs < 2 || conv->num_inputs > 3 ||
        !conv->inputs[0] || conv->inputs[0]->dtype != TA_INT8)
        return false;
    if (!intermediate(mid) || u->readers[mid->index] != 1 || mid->dtype != TA_INT8 ||
        !intermediate(residual) || residual->dtype != TA_INT8 || sum->dtype != TA_INT8 ||
        !same_shape(mid, residual) || !same_shape(mid, sum) || sum->role != TA_REGION_SCRATCH)
        return false;
    /* The sum takes the residual's bytes: nothing may read it later, and
       the convolution must not read it (it would read sums). */
    if (u->last_read[residual->index] != add_at)
        return false;
    for (int i = 0; i < conv->num_inputs; i++)
        if (conv->inputs[i] == residual)
            return false;
    for (int i = 0; i < g->outputs.len; i++)
        if (g->outputs.items[i] == residual)
            return false;
    return true;
}

/* The filter's height x width of the CONV_2D at position `at` (0: none). */
static int64_t window_area(const TaGraph *g, int at)
{
    if (at < 0)
        return 0;
    const TaOp *conv = TA_OP(g, at);
    if (conv->builtin != TA_BUILTIN_CONV_2D || conv->num_inputs < 2 || !conv->inputs[1] ||
        conv->inputs[1]->rank != 4)
        return 0;
    return (int64_t)conv->inputs[1]->dims[1] * conv->inputs[1]->dims[2];
}

/* Fuses, and keeps `u` what count_uses would now find (the uses are
   counted once per pass, not once per ADD: memory and time stay linear). */
static void fuse(TaPassCtx *ctx, Uses *u, int conv_at, int add_at, int k, bool rows)
{
    TaGraph *g = ctx->graph;
    TaOp *conv = TA_OP(g, conv_at), *add = TA_OP(g, add_at);
    TaResidualAdd *r = ta_alloc(ctx->pool, sizeof *r);
    r->add = add;
    r->conv_output = add->inputs[k];
    r->conv_operand = k;
    r->row_pieces = rows;
    TaTensor **inputs = ta_alloc_array(ctx->pool, 4, sizeof(TaTensor *));
    for (int i = 0; i < conv->num_inputs; i++) {
        inputs[i] = conv->inputs[i];
        /* Now read at the ADD's place, after where the convolution was. */
        if (inputs[i] && u->last_read[inputs[i]->index] < add_at)
            u->last_read[inputs[i]->index] = add_at;
    }
    u->readers[add->inputs[k]->index]--;
    inputs[3] = add->inputs[1 - k];
    conv->inputs = inputs;
    conv->num_inputs = 4;
    conv->outputs[0] = add->outputs[0];
    conv->rewrites.residual_add = r;
    r->conv_output->removed = true;
    add->removed = true;
    /* The convolution runs where the ADD ran. */
    g->ops.items[add_at] = conv;
    g->ops.items[conv_at] = add;
}

bool ta_pass_fuse_residual_add(TaPassCtx *ctx)
{
    TaGraph *g = ctx->graph;
    Uses u;
    count_uses(ctx, &u);
    for (int at = 0; at < g->ops.len; at++) {
        TaOp *add = TA_OP(g, at);
        if (add->builtin != TA_BUILTIN_ADD || add->removed || add->num_inputs != 2 ||
            add->num_outputs != 1 || !add->inputs[0] || !add->inputs[1])
            continue;
        /* The operand written last first: its convolution is the one the
           other operand waits for least. With row streaming, a block's
           long branch before its 1x1 skip convolution (wider window
           first): the skip's output is then the residual, which a row
           chain holds a row of, where it would hold the block input's rows
           until the long branch reached them (docs/row-streaming.md). */
        int w0 = u.writer[add->inputs[0]->index], w1 = u.writer[add->inputs[1]->index];
        const bool rows = ctx->row_streaming && strcmp(ctx->row_streaming, "off") != 0;
        const int64_t a0 = rows ? window_area(g, w0) : 0, a1 = rows ? window_area(g, w1) : 0;
        const bool first0 = a0 != a1 ? a0 > a1 : w0 >= w1;
        int order[2] = {first0 ? 0 : 1, first0 ? 1 : 0};
        for (int j = 0; j < 2; j++) {
            int k = order[j], conv_at = u.writer[add->inputs[k]->index];
            if (conv_at >= 0 && fusable(g, &u, conv_at, at, k)) {
                fuse(ctx, &u, conv_at, at, k, rows);
                break;
            }
        }
    }
    return true;
}
