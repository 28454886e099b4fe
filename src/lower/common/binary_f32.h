/*
 * binary_f32.h - the float32 form of ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM
 * and SQUARED_DIFFERENCE. The operators' own files call it when their
 * first input is float32.
 */
#ifndef TA_LOWER_BINARY_F32_H
#define TA_LOWER_BINARY_F32_H

#include "../lower.h"

/* Checks two float32 inputs and a float32 output, plans the broadcast and
   calls `kernel` (runtime/kernels/ta_binary_f32.h) with the fused
   activation's float range (CalculateActivationRange<float>). Operators
   without a fused activation pass TA_ACT_NONE. */
/* Whether op's first input is float32 (and the float form applies). */
bool ta_binary_is_f32(const TaOp *op);

bool ta_lower_binary_f32(TaLower *L, TaOp *op, const char *kernel, int activation);

#endif /* TA_LOWER_BINARY_F32_H */
