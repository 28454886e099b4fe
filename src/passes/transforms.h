/*
 * transforms.h - graph transforms selectable with `transforms:`.
 *
 *   FOLD_STATIC_SHAPE_EXPRESSIONS  shape arithmetic on static shapes becomes
 *                                  constants; the operators go away
 *   FUSE_ACTIVATIONS               a standalone RELU, RELU6 or RELU_N1_TO_1
 *                                  after an operator that clamps its output is
 *                                  folded into that clamp
 *   FUSE_RESIDUAL_ADD              a CONV_2D whose output only an ADD reads
 *                                  writes the sum into the ADD's other
 *                                  operand (the residual), which dies there
 *   ORDER_FOR_PEAK                 (after lowering) the execution order with
 *                                  the least peak of live scratch bytes
 *
 * All are on by default: each gives bit-identical outputs.
 */
#ifndef TA_TRANSFORMS_H
#define TA_TRANSFORMS_H

#include "../config/config.h"
#include "../ir/ir.h"

typedef struct TaPassCtx {
    TaPool *pool;
    TaDiag *diag;
    TaGraph *graph;
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

#endif /* TA_TRANSFORMS_H */
