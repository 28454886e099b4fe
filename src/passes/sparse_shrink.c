/*
 * sparse_shrink.c - SPARSE_CHANNELS, part 3: the channels sparse_live.c
 * found dead leave the graph. Every tensor of a group loses them from its
 * last dimension; a CONV_2D or FULLY_CONNECTED writing the group loses the
 * output channels (weight rows, bias entries, per-channel scales), one
 * reading it the input channels (weight columns, all zero in the rows it
 * keeps); a depthwise convolution in the group loses the channels from its
 * weights, bias and scales. Other channel-wise operators only see smaller
 * tensors.
 */
#include "sparse_channels.h"

#include <string.h>

static int32_t count_kept(const bool *keep, int32_t n)
{
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++)
        k += keep[i];
    return k;
}

/* The values of `v` (n groups of `inner` elements of `size` bytes) whose
   group index `keep` marks. */
static void *select_groups(TaPool *pool, const void *v, int32_t n, size_t inner, size_t size,
                           const bool *keep)
{
    uint8_t *out = ta_alloc_array(pool, (size_t)n * inner * size + 1, 1);
    size_t at = 0;
    for (int32_t i = 0; i < n; i++)
        if (keep[i]) {
            memcpy(out + at, (const uint8_t *)v + (size_t)i * inner * size, inner * size);
            at += inner * size;
        }
    return out;
}

/* Per-channel scales and zero points of `q` along its axis, n channels. */
static TaQuant *select_quant(TaPool *pool, const TaQuant *q, int32_t n, const bool *keep)
{
    if (!q || (q->num_scales != n && q->num_zero_points != n) || n <= 1)
        return (TaQuant *)q;
    TaQuant *r = ta_alloc(pool, sizeof *r);
    *r = *q;
    const int32_t k = count_kept(keep, n);
    if (q->num_scales == n) {
        r->scale = select_groups(pool, q->scale, n, 1, sizeof(float), keep);
        r->num_scales = k;
    }
    if (q->num_zero_points == n) {
        r->zero_point = select_groups(pool, q->zero_point, n, 1, sizeof(int64_t), keep);
        r->num_zero_points = k;
    }
    return r;
}

static void shrink_bias(TaPool *pool, TaTensor *b, int32_t n, const bool *keep)
{
    if (!b)
        return;
    const size_t size = ta_dtype_size(b->dtype);
    b->data = select_groups(pool, b->data, n, 1, size, keep);
    b->dims[b->rank - 1] = count_kept(keep, n);
    b->data_size = (size_t)b->dims[b->rank - 1] * size;
    b->quant = select_quant(pool, b->quant, n, keep);
}

/* Weight rows (output channels) and columns (input channels) of a ROWS
   operator; NULL `rows` or `cols`: all kept. */
static void shrink_rows(TaPassCtx *ctx, TaOp *op, TaSparseOp *so, const bool *rows,
                        const bool *cols)
{
    TaTensor *w = so->weights;
    const int32_t kr = rows ? count_kept(rows, so->rows) : so->rows;
    const int32_t kc = cols ? count_kept(cols, so->depth) : so->depth;
    const int8_t *src = (const int8_t *)w->data;
    int8_t *dst = ta_alloc_array(ctx->pool, (size_t)kr * (size_t)so->taps * (size_t)kc + 1, 1);
    size_t at = 0;
    for (int32_t o = 0; o < so->rows; o++) {
        if (rows && !rows[o])
            continue;
        for (size_t k = 0; k < (size_t)so->taps * (size_t)so->depth; k++)
            if (!cols || cols[k % (size_t)so->depth])
                dst[at++] = src[(size_t)o * (size_t)so->taps * (size_t)so->depth + k];
    }
    w->data = (const uint8_t *)dst;
    w->data_size = at;
    w->dims[0] = kr;
    w->dims[w->rank - 1] = kc;
    if (rows) {
        w->quant = select_quant(ctx->pool, w->quant, so->rows, rows);
        shrink_bias(ctx->pool, so->bias, so->rows, rows);
        op->rewrites.sparse_removed += so->rows - kr;
    }
}

/* A depthwise convolution's channels: weights [1, kh, kw, C] by column. */
static void shrink_depthwise(TaPassCtx *ctx, TaOp *op, TaSparseOp *so, const bool *keep)
{
    TaTensor *w = so->weights;
    const int8_t *src = (const int8_t *)w->data;
    const int32_t k = count_kept(keep, so->depth);
    int8_t *dst = ta_alloc_array(ctx->pool, (size_t)so->taps * (size_t)k + 1, 1);
    size_t at = 0;
    for (size_t i = 0; i < (size_t)so->taps * (size_t)so->depth; i++)
        if (keep[i % (size_t)so->depth])
            dst[at++] = src[i];
    w->data = (const uint8_t *)dst;
    w->data_size = at;
    w->dims[3] = k;
    w->quant = select_quant(ctx->pool, w->quant, so->depth, keep);
    shrink_bias(ctx->pool, so->bias, so->depth, keep);
    op->rewrites.sparse_removed += so->depth - k;
}

static void shrink_tensor(TaTensor *t, const bool *keep)
{
    const int32_t k = count_kept(keep, ta_sparse_channels(t));
    if (t->has_signature && t->signature[t->rank - 1] >= 0)
        t->signature[t->rank - 1] = k;
    t->dims[t->rank - 1] = k;
}

static bool drops(const TaTensor *t, bool **live)
{
    return live[t->index] &&
           count_kept(live[t->index], ta_sparse_channels(t)) < ta_sparse_channels(t);
}

void ta_sparse_shrink(TaSparseGraph *s, bool **live)
{
    TaGraph *g = s->g;
    for (int i = 0; i < g->ops.len; i++) {
        TaOp *op = TA_OP(g, i);
        TaSparseOp *so = &s->ops[i];
        if (so->role == TA_SPARSE_ROWS && (drops(so->out, live) || drops(so->in, live)))
            shrink_rows(s->ctx, op, so, drops(so->out, live) ? live[so->out->index] : NULL,
                        drops(so->in, live) ? live[so->in->index] : NULL);
        else if (so->depthwise && drops(so->out, live))
            shrink_depthwise(s->ctx, op, so, live[so->out->index]);
        else if (so->role == TA_SPARSE_CHANNELWISE && drops(op->outputs[0], live))
            op->rewrites.sparse_removed += ta_sparse_channels(op->outputs[0]) -
                                           count_kept(live[op->outputs[0]->index],
                                                      ta_sparse_channels(op->outputs[0]));
    }
    for (int i = 0; i < g->tensors.len; i++) {
        TaTensor *t = TA_TENSOR(g, i);
        if (!t->data && drops(t, live))
            shrink_tensor(t, live[i]);
    }
}
