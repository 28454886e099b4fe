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
#include "../lower/weight_table.h"

/* What every pass, fixed or a transform (transforms.h), is given:
   `bool ta_pass_<name>(TaPassCtx *ctx)` works on ctx->graph and returns
   false only after a diagnostic said why. */
typedef struct TaPassCtx {
    TaPool *pool;
    TaDiag *diag;
    TaGraph *graph;
    TaModel *model; /* its other subgraphs (IF/WHILE bodies, CALL_ONCE's initialization), or NULL */
    const char *model_path;
    const TaWeightsOptions
        *weights; /* weights.format and weights.dense; NULL: "auto", none dense */
    /* Called after each transform that ran (--dump-after), or NULL. */
    void (*after)(void *user, const char *pass, const TaGraph *g);
    void *after_user;
    /* memory.row_streaming ("auto" | "off" | "least_ram"); NULL: off. */
    const char *row_streaming;
} TaPassCtx;

/* INT4 weights unpacked to int8, their packed bytes kept on the tensor
   where weights.format keeps them packed; INT4 elsewhere refused. */
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
