/* transforms.c - which transforms run, from the `transforms:` key. */
#include "transforms.h"

#include <string.h>

typedef struct Transform {
    const char *name;
    bool (*run)(TaPassCtx *ctx);
    bool on_by_default;
    bool after_lowering; /* works on the lowered graph (after drop_dead) */
} Transform;

/* In the order they run: shapes folded first (they may feed an identity
   operator or be a TRANSPOSE_CONV's output shape), convolutions rewritten
   before activations are fused into them, activations fused before a
   residual ADD is (the convolution's clamp is part of what the fused
   kernel computes) and before identity operators go (a RELU after a
   RESHAPE reads the RESHAPE's output), variables folded before identity
   operators go (a folded read may feed one, whose output then aliases a
   constant), the schedule changed last; SPARSE_CHANNELS before
   activations are fused (it reads each convolution's own activation and
   walks through standalone ones); SPARSE_WEIGHTS swaps lowered kernel
   calls, and ORDER_FOR_PEAK runs on the lowered graph last. */
static const Transform transforms[] = {
    {"FOLD_STATIC_SHAPE_EXPRESSIONS", ta_pass_fold_static_shapes, true, false},
    {"DEPTHWISE_TO_CONV", ta_pass_depthwise_to_conv, true, false},
    {"TRANSPOSE_REVERSE_CONV", ta_pass_transpose_reverse_conv, true, false},
    {"SPARSE_CHANNELS", ta_pass_sparse_channels, true, false},
    {"FUSE_ACTIVATIONS", ta_pass_fuse_activations, true, false},
    {"FUSE_RESIDUAL_ADD", ta_pass_fuse_residual_add, true, false},
    {"FOLD_INVARIANT_VARIABLES", ta_pass_fold_invariant_variables, true, false},
    {"PRUNE_IDENTITY_OPS", ta_pass_prune_identity_ops, false, false},
    {"SCHEDULE_CONSTANT_DEQUANTIZE", ta_pass_schedule_constant_dequantize, true, false},
    {"SPARSE_WEIGHTS", ta_pass_sparse_weights, true, true},
    {"ORDER_FOR_PEAK", ta_pass_order_for_peak, true, true},
};

bool ta_run_transforms(TaPassCtx *ctx, const TaConfig *cfg, bool after_lowering)
{
    enum { N = (int)TA_COUNT_OF(transforms) };
    bool enabled[N];
    const char *names[N];
    for (int i = 0; i < N; i++) {
        /* a list names the exact set; a map changes the defaults */
        enabled[i] = !cfg->transforms_exact && transforms[i].on_by_default;
        names[i] = transforms[i].name;
    }
    bool ok = true;
    for (int k = 0; k < cfg->transforms.len; k++) {
        const TaTransformSetting *s = cfg->transforms.items[k];
        int found = -1;
        for (int i = 0; i < N; i++)
            if (strcmp(s->name, transforms[i].name) == 0)
                found = i;
        if (found < 0) {
            const char *hint = ta_suggest(s->name, names, N);
            ta_error(ctx->diag, "transforms: unknown transform '%s'%s%s%s", s->name,
                     hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
            ok = false;
            continue;
        }
        enabled[found] = s->enabled;
    }
    for (int i = 0; i < N && ok; i++)
        if (enabled[i] && transforms[i].after_lowering == after_lowering) {
            ok = transforms[i].run(ctx);
            if (ok && ctx->after)
                ctx->after(ctx->after_user, transforms[i].name, ctx->graph);
        }
    /* The lowered graph's operators own their kernel calls' tensors: it is
       reordered, never compacted. */
    if (ok && !after_lowering)
        ta_graph_compact(ctx->pool, ctx->graph);
    return ok;
}

const char *ta_transform_name(int i)
{
    return i >= 0 && i < (int)TA_COUNT_OF(transforms) ? transforms[i].name : NULL;
}

bool ta_transform_after_lowering(int i)
{
    return i >= 0 && i < (int)TA_COUNT_OF(transforms) && transforms[i].after_lowering;
}
