/*
 * conv_2d_add.h - the kernel call of a CONV_2D fused with the ADD of a
 * residual (FUSE_RESIDUAL_ADD, src/passes/fuse_residual_add.c).
 */
#ifndef TA_LOWER_CONV_2D_ADD_H
#define TA_LOWER_CONV_2D_ADD_H

#include "../../runtime/kernels/ta_conv_2d.h"
#include "common/conv_common.h"

/* The call of ta_conv_2d_add_s8* for `op`, whose convolution the CONV_2D
   lowering computed: its params `conv`, the entry `conv_kernel` of its
   weight layout, its arguments (output: the convolution's own result) and
   requantization. Adds ADD's arithmetic, the piece buffer (an operator
   scratch tensor, "piece") and lets the sum overwrite the residual. False
   with an error for what the fused kernel does not take. */
bool ta_lower_conv_2d_add(TaLower *L, TaOp *op, const ta_conv_2d_params_t *conv,
                          const char *conv_kernel, const TaConvArgs *args, const TaConvRequant *rq);

#endif /* TA_LOWER_CONV_2D_ADD_H */
