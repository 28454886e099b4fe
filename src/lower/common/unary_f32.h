/*
 * unary_f32.h - the float32 form of the elementwise unary operators
 * (runtime/kernels/ta_unary_f32.h): RELU, RELU6, LEAKY_RELU, HARD_SWISH,
 * LOGISTIC and TANH call it from their own files when their input is
 * float32; the float-only operators (unary_float.c) always do.
 */
#ifndef TA_LOWER_UNARY_F32_H
#define TA_LOWER_UNARY_F32_H

#include "../lower.h"

/* Whether op's first input is float32 (and the float form applies). */
bool ta_unary_is_f32(const TaOp *op);

/* Checks one float32 input and one float32 output with as many elements
   and calls `kernel` on them (alpha: LEAKY_RELU's, 0 for the others). */
bool ta_lower_unary_f32(TaLower *L, TaOp *op, const char *kernel, float alpha);

#endif /* TA_LOWER_UNARY_F32_H */
