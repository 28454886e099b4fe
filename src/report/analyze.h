/* analyze.h - the figures of `tinyaot analyze` (tinyaot_analysis) from the
   lowered graph and its plan. */
#ifndef TA_ANALYZE_H
#define TA_ANALYZE_H

#include "../../include/tinyaot/tinyaot.h"
#include "../plan/plan.h"

/* Allocated in `pool` (the result's), so it outlives the conversion. */
const tinyaot_analysis *ta_build_analysis(TaPool *pool, const TaGraph *g, const TaPlan *plan);
/* The kernel stack figures of `a` and `ops` (one per operator of `g`), part
   of ta_build_analysis; a kernel flash_sizes.inc lacks is named in
   a->kernel_stack_basis as unmeasured. */
void ta_kernel_stack_estimate(TaPool *pool, const TaGraph *g, tinyaot_analysis *a,
                              tinyaot_operator_analysis *ops);
/* The analysis of a model with operators tinyaot cannot convert: the
   diagnostics from `first_line` on, each one unsupported operator. */
const tinyaot_analysis *ta_build_unsupported(TaPool *pool, const TaTarget *target,
                                             const TaDiag *diag, int first_line);

#endif /* TA_ANALYZE_H */
