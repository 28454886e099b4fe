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
 *   (lowering)
 *   ta_pass_drop_dead    tensors nothing reads or writes leave the module
 */
#ifndef TA_PASSES_H
#define TA_PASSES_H

#include "../ir/ir.h"

/* int4_weights.c (before ta_pass_check): INT4 weights unpacked to int8,
   their packed bytes kept on the tensor; INT4 elsewhere refused. format:
   weights.format ("auto" | "packed" | "dense"); dense: weights.dense's
   names/ids. */
typedef struct TaInt4Options {
    const char *format;
    const char *const *dense;
    int num_dense;
} TaInt4Options;
bool ta_pass_int4_weights(TaPool *pool, TaDiag *d, const char *model_path, TaGraph *g,
                          const TaInt4Options *o);
bool ta_pass_check(TaPool *pool, TaDiag *d, const char *model_path, TaGraph *g);
/* check_hybrid.c: one line naming a hybrid (dynamic-range) quantized model. */
bool ta_pass_check_hybrid(TaPool *pool, TaDiag *d, const char *model_path, const TaGraph *g);
void ta_pass_mark_io(TaGraph *g);
void ta_pass_drop_dead(TaPool *pool, TaGraph *g);
/* inline_control_flow.c: one line naming the operator for what it refuses. */
bool ta_pass_inline_control_flow(TaPool *pool, TaDiag *diag, const char *model_path,
                                 const TaModel *model, TaGraph *g);
/* decode_constants.c: one line naming the operator for what it refuses. */
bool ta_pass_decode_constants(TaPool *pool, TaDiag *diag, const char *model_path, TaGraph *g);
/* Whether the graph holds IF or WHILE (markers or operators). Passes that
   move operators leave such a graph alone. */
bool ta_graph_has_control_flow(const TaGraph *g);

#endif /* TA_PASSES_H */
