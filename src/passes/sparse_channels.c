/*
 * sparse_channels.c - SPARSE_CHANNELS (docs/pruned-models.md):
 * output channels whose weights are all zero are constants folded into the
 * 1x1 CONV_2D and FULLY_CONNECTED layers that read them, and channels no
 * later operator reads through a nonzero weight are neither computed nor
 * stored. Model inputs and outputs keep their shapes; outputs stay
 * byte-identical.
 */
#include "sparse_channels.h"
#include "passes.h"

bool ta_pass_sparse_channels(TaPassCtx *ctx)
{
    if (ta_graph_has_control_flow(ctx->graph))
        return true;
    TaSparseGraph s;
    ta_sparse_graph_build(&s, ctx);
    const int folded = ta_sparse_fold_constants(&s);
    bool **live = ta_sparse_live_channels(&s);
    ta_sparse_shrink(&s, live);
    int removed = 0;
    for (int i = 0; i < ctx->graph->ops.len; i++)
        removed += TA_OP(ctx->graph, i)->rewrites.sparse_removed;
    if (folded || removed)
        ta_debug(ctx->diag,
                 "SPARSE_CHANNELS: %d constant channels folded into readers' biases, %d output "
                 "channels removed",
                 folded, removed);
    return true;
}
