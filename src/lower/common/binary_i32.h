/*
 * binary_i32.h - the int32 (unquantized) form of ADD, MUL, DIV, MAXIMUM
 * and MINIMUM, as models computing on integers (the audio preprocessor's
 * feature scaling) use them. The operators' own files call it when their
 * first input is int32.
 */
#ifndef TA_LOWER_BINARY_I32_H
#define TA_LOWER_BINARY_I32_H

#include "../lower.h"

/* Checks two int32 inputs and an int32 output without quantization,
   plans the broadcast and calls `kernel` (runtime/kernels/ta_binary_i32.h)
   with the fused activation's int32 range (TA_ACT_NONE: the whole range). */
bool ta_lower_binary_i32(TaLower *L, TaOp *op, const char *kernel, int activation);

#endif /* TA_LOWER_BINARY_I32_H */
