/*
 * passes.h - graph passes, run in this order by convert.c:
 *
 *   ta_pass_int4_weights INT4 weights unpacked (packed bytes kept), INT4
 *                        elsewhere refused
 *   ta_pass_check        the graph is well formed (every operand defined once,
 *                        before use; dtypes have sizes) and not hybrid
 *                        (ta_pass_check_hybrid)
 *   ta_pass_mark_io      model inputs and outputs numbered on their tensors
 *   ta_pass_inline_control_flow  IF and WHILE subgraphs join the operator
 *                        list between control-flow markers
 *   ta_pass_decode_constants  TFLite Micro's TFLM_DECODE operators run now:
 *                        their outputs become constants, they leave the graph
 *   (the transforms `transforms:` selects, transforms.h)
 *   (lowering)
 *   ta_pass_drop_dead    tensors nothing reads or writes leave the module
 *   (the transforms of the lowered graph: ORDER_FOR_PEAK)
 *
 * Fixed passes and transforms are both passes, with one signature:
 * `bool ta_pass_<name>(TaPassCtx *ctx)`.
 */
#ifndef TA_PASSES_H
#define TA_PASSES_H

#include "../ir/ir.h"

/* int4_weights.c (before ta_pass_check): INT4 weights unpacked to int8,
   their packed bytes kept on the tensor; INT4 elsewhere refused. format:
   weights.format ("auto" | "packed" | "table" | "sparse" | "dense"); dense: weights.dense's
   names/ids. */
typedef struct TaInt4Options {
    const char *format;
    const char *const *dense;
    int num_dense;
} TaInt4Options;
/* weights.dense names the tensor: its id, its model name, or a glob. */
bool ta_weights_named_dense(const TaInt4Options *o, const TaTensor *t);

/* What every pass, fixed or a transform (transforms.h), is given:
   `bool ta_pass_<name>(TaPassCtx *ctx)` works on ctx->graph and returns
   false only after a diagnostic said why. */
typedef struct TaPassCtx {
    TaPool *pool;
    TaDiag *diag;
    TaGraph *graph;
    TaModel *model; /* its other subgraphs (IF/WHILE bodies, CALL_ONCE's initialization), or NULL */
    const char *model_path;
    const TaInt4Options *int4; /* ta_pass_int4_weights' options; NULL: "auto", none dense */
    /* Called after each transform that ran (--dump-after), or NULL. */
    void (*after)(void *user, const char *pass, const TaGraph *g);
    void *after_user;
} TaPassCtx;

bool ta_pass_int4_weights(TaPassCtx *ctx);
bool ta_pass_check(TaPassCtx *ctx);
/* check_hybrid.c: one line naming a hybrid (dynamic-range) quantized model. */
bool ta_pass_check_hybrid(TaPassCtx *ctx);
bool ta_pass_mark_io(TaPassCtx *ctx);
bool ta_pass_drop_dead(TaPassCtx *ctx);
/* inline_control_flow.c: one line naming the operator for what it refuses. */
bool ta_pass_inline_control_flow(TaPassCtx *ctx);
/* decode_constants.c: one line naming the operator for what it refuses. */
bool ta_pass_decode_constants(TaPassCtx *ctx);
/* Whether the graph holds IF or WHILE (markers or operators). Passes that
   move operators leave such a graph alone. */
bool ta_graph_has_control_flow(const TaGraph *g);

#endif /* TA_PASSES_H */
