/*
 * int4_packed.h - after an operator's lowering: INT4 weights the
 * configuration keeps packed get the packed-int4 kernel (int4_packed.c).
 */
#ifndef TA_INT4_PACKED_H
#define TA_INT4_PACKED_H

#include "lower.h"

/* The operator's int8 call becomes its packed-int4 call when its weights
   came from a model INT4 tensor that weights.format keeps packed; without
   a packed kernel for the call the tensor is marked as stored dense. */
void ta_int4_keep_packed(TaLower *L, TaOp *op);

#endif /* TA_INT4_PACKED_H */
