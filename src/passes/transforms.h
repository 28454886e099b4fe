/*
 * transforms.h - graph transforms selectable with `transforms:`.
 *
 * The table in transforms.c names them in the order they run, says why
 * that order, and which are on by default; each transform's own file
 * (fold_shapes.c, depthwise_to_conv.c, ...) says what it rewrites and why
 * the outputs stay bit-identical. docs/operators.md is the user's list
 * (tests/test_transforms.py checks it against the converter's own).
 */
#ifndef TA_TRANSFORMS_H
#define TA_TRANSFORMS_H

#include "../config/config.h"
#include "../ir/ir.h"
#include "passes.h"

/* Runs the transforms the configuration selects, in a fixed order: those
   before lowering, or (after_lowering) those after drop_dead. */
bool ta_run_transforms(TaPassCtx *ctx, const TaConfig *cfg, bool after_lowering);
/* The transforms' names in the order they run; NULL past the last. */
const char *ta_transform_name(int i);
/* Whether transform i runs on the lowered graph. */
bool ta_transform_after_lowering(int i);

bool ta_pass_fold_static_shapes(TaPassCtx *ctx);
bool ta_pass_fuse_activations(TaPassCtx *ctx);
bool ta_pass_depthwise_to_conv(TaPassCtx *ctx);
bool ta_pass_fuse_residual_add(TaPassCtx *ctx);
bool ta_pass_order_for_peak(TaPassCtx *ctx);
bool ta_pass_prune_identity_ops(TaPassCtx *ctx);
bool ta_pass_transpose_reverse_conv(TaPassCtx *ctx);
bool ta_pass_fold_invariant_variables(TaPassCtx *ctx);
bool ta_pass_schedule_constant_dequantize(TaPassCtx *ctx);
bool ta_pass_sparse_channels(TaPassCtx *ctx);
bool ta_pass_sparse_weights(TaPassCtx *ctx);

#endif /* TA_TRANSFORMS_H */
