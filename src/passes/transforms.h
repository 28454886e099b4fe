/*
 * transforms.h - graph transforms selectable with `transforms:`.
 *
 *   FOLD_STATIC_SHAPE_EXPRESSIONS  shape arithmetic on static shapes becomes
 *                                  constants; the operators go away
 *   TRANSPOSE_REVERSE_CONV         a stride-1 SAME int8 TRANSPOSE_CONV with an
 *                                  odd kernel runs as CONV_2D with the kernel
 *                                  reversed
 *   SPARSE_CHANNELS                all-zero output channels of convolutions
 *                                  become constants folded into 1x1 and
 *                                  FULLY_CONNECTED readers; channels nothing
 *                                  reads through a nonzero weight leave
 *                                  weights and tensors (docs/design.md,
 *                                  "Pruned models")
 *   FUSE_ACTIVATIONS               a standalone RELU, RELU6 or RELU_N1_TO_1
 *                                  after an operator that clamps its output is
 *                                  folded into that clamp
 *   FUSE_RESIDUAL_ADD              a CONV_2D whose output only an ADD reads
 *                                  writes the sum into the ADD's other
 *                                  operand (the residual), which dies there
 *   ORDER_FOR_PEAK                 (after lowering) the execution order with
 *                                  the least peak of live scratch bytes
 *   PRUNE_IDENTITY_OPS             RESHAPE, SQUEEZE and EXPAND_DIMS leave the
 *                                  schedule; their outputs alias their inputs
 *                                  (off by default: layer indices then keep
 *                                  following the model's operators)
 *   FOLD_INVARIANT_VARIABLES       a resource variable that never changes
 *                                  becomes the constant it starts at
 *   SCHEDULE_CONSTANT_DEQUANTIZE   a DEQUANTIZE of a constant runs just
 *                                  before its first reader
 *
 * Each gives bit-identical outputs; all but PRUNE_IDENTITY_OPS are on by
 * default.
 */
#ifndef TA_TRANSFORMS_H
#define TA_TRANSFORMS_H

#include "../config/config.h"
#include "../ir/ir.h"

typedef struct TaPassCtx {
    TaPool *pool;
    TaDiag *diag;
    TaGraph *graph;
    TaModel *model; /* its other subgraphs (CALL_ONCE's initialization), or NULL */
    const char *model_path;
    /* Called after each transform that ran (--dump-after), or NULL. */
    void (*after)(void *user, const char *pass, const TaGraph *g);
    void *after_user;
} TaPassCtx;

/* Runs the transforms the configuration selects, in a fixed order: those
   before lowering, or (after_lowering) those after drop_dead. */
bool ta_run_transforms(TaPassCtx *ctx, const TaConfig *cfg, bool after_lowering);
/* The transforms' names in the order they run; NULL past the last. */
const char *ta_transform_name(int i);
/* Whether transform i runs on the lowered graph. */
bool ta_transform_after_lowering(int i);

bool ta_fold_static_shapes(TaPassCtx *ctx);
bool ta_fuse_activations(TaPassCtx *ctx);
bool ta_depthwise_to_conv(TaPassCtx *ctx);
bool ta_fuse_residual_add(TaPassCtx *ctx);
bool ta_order_for_peak(TaPassCtx *ctx);
bool ta_prune_identity_ops(TaPassCtx *ctx);
bool ta_transpose_reverse_conv(TaPassCtx *ctx);
bool ta_fold_invariant_variables(TaPassCtx *ctx);
bool ta_schedule_constant_dequantize(TaPassCtx *ctx);
bool ta_sparse_channels_transform(TaPassCtx *ctx);

#endif /* TA_TRANSFORMS_H */
