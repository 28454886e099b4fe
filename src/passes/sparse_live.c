/*
 * sparse_live.c - SPARSE_CHANNELS, part 2: which channels are read.
 *
 * A channel-wise operator computes output channel c from channel c of its
 * operands, so its operands and its output must keep the same channels:
 * tensors joined by such operators form one group with one set of kept
 * channels. A group is pinned (keeps every channel) when one of its
 * tensors is a model input or output, or is written or read by an
 * operator the transform does not understand. Otherwise channel c is kept
 * when some CONV_2D or FULLY_CONNECTED reading the group has a nonzero
 * weight for input channel c in an output channel it keeps itself: that
 * depends on the reader's own group, so the sets grow until nothing
 * changes. A group that nothing reads through a nonzero weight keeps one
 * channel (no tensor becomes empty).
 */
#include "sparse_channels.h"

typedef struct Groups {
    int *parent;  /* union-find over tensor indices */
    bool *pinned; /* per group root */
    bool **live;  /* per group root: one flag per channel */
} Groups;

static int root(Groups *gr, int t)
{
    while (gr->parent[t] != t) {
        gr->parent[t] = gr->parent[gr->parent[t]];
        t = gr->parent[t];
    }
    return t;
}

static void join(Groups *gr, int a, int b)
{
    a = root(gr, a);
    b = root(gr, b);
    if (a != b) {
        gr->parent[b] = a;
        gr->pinned[a] |= gr->pinned[b];
    }
}

static void pin(Groups *gr, const TaTensor *t)
{
    if (t && !t->data)
        gr->pinned[root(gr, t->index)] = true;
}

static void build_groups(TaSparseGraph *s, Groups *gr)
{
    TaGraph *g = s->g;
    for (int i = 0; i < g->tensors.len; i++)
        gr->parent[i] = i;
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        if (s->ops[i].role != TA_SPARSE_CHANNELWISE)
            continue;
        for (int k = 0; k < op->num_inputs; k++)
            if (op->inputs[k] && !op->inputs[k]->data)
                join(gr, op->outputs[0]->index, op->inputs[k]->index);
    }
    for (int i = 0; i < g->ops.len; i++) {
        const TaOp *op = TA_OP(g, i);
        if (op->removed || s->ops[i].role != TA_SPARSE_OPAQUE)
            continue;
        for (int k = 0; k < op->num_inputs; k++)
            pin(gr, op->inputs[k]);
        for (int k = 0; k < op->num_outputs; k++)
            pin(gr, op->outputs[k]);
    }
    for (int i = 0; i < g->tensors.len; i++) {
        const TaTensor *t = TA_TENSOR(g, i);
        /* written by nothing (model inputs, variables), read by nothing, or
           named by the model's interface */
        if (t->input_index >= 0 || t->output_index >= 0 || !s->writer[i] || s->reads[i] == 0)
            pin(gr, t);
    }
    /* Channel counts must agree inside a group. */
    for (int i = 0; i < g->tensors.len; i++) {
        const TaTensor *t = TA_TENSOR(g, i);
        const TaTensor *r = TA_TENSOR(g, root(gr, i));
        if (!t->data && ta_sparse_channels(t) != ta_sparse_channels(r))
            pin(gr, t);
    }
}

/* Marks input channels reader i reads through a nonzero weight of a kept
   output channel; true when a mark is new. */
static bool mark_reads(TaSparseGraph *s, Groups *gr, int i)
{
    const TaSparseOp *so = &s->ops[i];
    const int in = root(gr, so->in->index), out = root(gr, so->out->index);
    if (gr->pinned[in])
        return false;
    const int8_t *w = (const int8_t *)so->weights->data;
    bool grew = false;
    for (int32_t o = 0; o < so->rows; o++) {
        if (!gr->pinned[out] && !gr->live[out][o])
            continue;
        const int8_t *row = w + (size_t)o * (size_t)so->taps * (size_t)so->depth;
        for (size_t k = 0; k < (size_t)so->taps * (size_t)so->depth; k++) {
            const size_t c = k % (size_t)so->depth;
            if (row[k] && !gr->live[in][c]) {
                gr->live[in][c] = true;
                grew = true;
            }
        }
    }
    return grew;
}

/* Keeps channel 0 of every free group that would otherwise be empty;
   true when one was. */
static bool keep_one(TaSparseGraph *s, Groups *gr)
{
    bool grew = false;
    for (int i = 0; i < s->g->tensors.len; i++) {
        const TaTensor *t = TA_TENSOR(s->g, i);
        if (t->data || root(gr, i) != i || gr->pinned[i])
            continue;
        bool any = false;
        for (int32_t c = 0; c < ta_sparse_channels(t) && !any; c++)
            any = gr->live[i][c];
        if (!any && ta_sparse_channels(t) > 0) {
            gr->live[i][0] = true;
            grew = true;
        }
    }
    return grew;
}

bool **ta_sparse_live_channels(TaSparseGraph *s)
{
    TaPool *pool = s->ctx->pool;
    const int n = s->g->tensors.len;
    Groups gr = {.parent = ta_alloc_array(pool, (size_t)n + 1, sizeof(int)),
                 .pinned = ta_alloc_array(pool, (size_t)n + 1, sizeof(bool)),
                 .live = ta_alloc_array(pool, (size_t)n + 1, sizeof(bool *))};
    build_groups(s, &gr);
    for (int i = 0; i < n; i++) {
        const TaTensor *t = TA_TENSOR(s->g, i);
        if (!t->data && root(&gr, i) == i && !gr.pinned[i])
            gr.live[i] = ta_alloc_array(pool, (size_t)ta_sparse_channels(t) + 1, sizeof(bool));
    }
    bool grew = true;
    while (grew) {
        grew = false;
        for (int i = 0; i < s->g->ops.len; i++)
            if (s->ops[i].role == TA_SPARSE_ROWS)
                grew |= mark_reads(s, &gr, i);
        if (!grew)
            grew = keep_one(s, &gr);
    }
    bool **live = ta_alloc_array(pool, (size_t)n + 1, sizeof(bool *));
    for (int i = 0; i < n; i++) {
        const TaTensor *t = TA_TENSOR(s->g, i);
        if (!t->data && !gr.pinned[root(&gr, i)])
            live[i] = gr.live[root(&gr, i)];
    }
    return live;
}
