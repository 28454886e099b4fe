/*
 * add_sub.h - ADD's and SUB's arithmetic, for the lowerings that apply it
 * outside an ADD or SUB kernel call of their own (a convolution fused with
 * the ADD after it, FUSE_RESIDUAL_ADD).
 */
#ifndef TA_LOWER_ADD_SUB_H
#define TA_LOWER_ADD_SUB_H

#include "../../runtime/kernels/ta_add_sub.h"
#include "lower.h"

/* Fills p's rescale and output fields (not the broadcast shape) for `op`,
   an ADD or SUB whose options it reads, with in1, in2 and out as its
   operands: TFLite Micro's Prepare arithmetic. False with an error naming
   `op` when TFLite would refuse the scales or the activation. */
bool ta_add_sub_arithmetic(TaLower *L, TaOp *op, const TaTensor *in1, const TaTensor *in2,
                           const TaTensor *out, ta_add_params_t *p);

#endif /* TA_LOWER_ADD_SUB_H */
