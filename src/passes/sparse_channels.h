/*
 * sparse_channels.h - what the parts of SPARSE_CHANNELS share
 * (docs/pruned-models.md): the graph's writers and readers, and
 * the operators the transform understands.
 *
 *   sparse_graph.c      which operators it understands, and how
 *   sparse_constants.c  all-zero output channels become constants (carried
 *                       through depthwise layers where uniform, and pooling),
 *                       folded into the bias of 1x1 CONV_2D / FULLY_CONNECTED
 *                       readers
 *   sparse_live.c       which channels some later operator reads through a
 *                       nonzero weight (groups of tensors joined by
 *                       channel-wise operators share one answer)
 *   sparse_shrink.c     dead channels leave weights, biases, quantization
 *                       and tensor shapes
 */
#ifndef TA_SPARSE_CHANNELS_H
#define TA_SPARSE_CHANNELS_H

#include "transforms.h"

/* How the transform sees an operator. */
typedef enum TaSparseRole {
    TA_SPARSE_OPAQUE = 0, /* reads and writes every channel */
    /* CONV_2D (ungrouped) or FULLY_CONNECTED: output channel o reads input
       channel c through weights w[o][tap][c]. */
    TA_SPARSE_ROWS,
    /* Output channel c reads only input channel c of each operand:
       DEPTHWISE_CONV_2D with multiplier 1, pooling, activations,
       elementwise operators of equal shapes, PAD of the inner dimensions. */
    TA_SPARSE_CHANNELWISE
} TaSparseRole;

/* The weights of a ROWS or depthwise operator: element (o, tap, c) of a
   ROWS operator is at ((o * taps) + tap) * depth + c; a depthwise one's
   channel c of tap t at t * depth + c (rows 0). */
typedef struct TaSparseOp {
    TaSparseRole role;
    bool depthwise;
    TaTensor *in, *weights, *bias, *out;
    int32_t rows, taps, depth;
    bool one_by_one; /* a 1x1 CONV_2D or a FULLY_CONNECTED: taps == 1 */
    bool owned;      /* weights and bias copied out of the model's bytes */
} TaSparseOp;

typedef struct TaSparseGraph {
    TaPassCtx *ctx;
    TaGraph *g;
    TaOp **writer;   /* per tensor index: the operator writing it, or NULL */
    int *reads;      /* per tensor index: operands naming it (graph outputs count) */
    TaSparseOp *ops; /* per operator position */
} TaSparseGraph;

/* sparse_graph.c */
void ta_sparse_graph_build(TaSparseGraph *s, TaPassCtx *ctx);
/* The last dimension: the channels of an NHWC activation, a row's depth. */
int32_t ta_sparse_channels(const TaTensor *t);
/* Whether a tensor's data may be rewritten: constant and read once. */
bool ta_sparse_owned_constant(const TaSparseGraph *s, const TaTensor *t);

/* sparse_constants.c: folds constant channels; returns how many. */
int ta_sparse_fold_constants(TaSparseGraph *s);

/* sparse_live.c: per tensor index, NULL (every channel kept) or one flag
   per channel (true: kept). */
bool **ta_sparse_live_channels(TaSparseGraph *s);

/* sparse_shrink.c: drops the channels `live` marks dead. */
void ta_sparse_shrink(TaSparseGraph *s, bool **live);

#endif /* TA_SPARSE_CHANNELS_H */
