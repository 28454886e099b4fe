/*
 * passes.h - graph passes, run in this order by convert.c:
 *
 *   ta_pass_check        the graph is well formed (every operand defined once,
 *                        before use; dtypes have sizes)
 *   ta_pass_mark_io      model inputs and outputs numbered on their tensors
 *   (lowering)
 *   ta_pass_drop_dead    tensors nothing reads or writes leave the module
 */
#ifndef TA_PASSES_H
#define TA_PASSES_H

#include "../ir/ir.h"

bool ta_pass_check(TaPool *pool, TaDiag *d, const char *model_path, TaGraph *g);
void ta_pass_mark_io(TaGraph *g);
void ta_pass_drop_dead(TaPool *pool, TaGraph *g);

#endif /* TA_PASSES_H */
