/*
 * unary.h - the operand checks that the unary activations (RELU, RELU6,
 * LEAKY_RELU, HARD_SWISH, LOGISTIC, TANH) share.
 */
#ifndef TA_LOWER_UNARY_H
#define TA_LOWER_UNARY_H

#include "../lower.h"

/* One input and one output of one dtype, int8 (or int16 too when
   int16_too), each per-tensor quantized, with the same number of
   elements; false with an error otherwise. */
bool ta_unary_expect(TaLower *L, TaOp *op, bool int16_too);

#endif /* TA_LOWER_UNARY_H */
