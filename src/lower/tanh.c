/*
 * tanh.c - TANH on int8 (output 1/128, 0) and int16 (zero points 0,
 * output 2^-15), lowered as LOGISTIC is (logistic.c) with tanh's input
 * scaling and kernels.
 */
#include "common/sigmoid_input.h"
#include "lower.h"

static bool lower(TaLower *L, TaOp *op)
{
    static const TaSigmoidLike tanh_op = {1, 1.0f / 128, 0};
    return ta_sigmoid_like_lower(L, op, &tanh_op, "ta_tanh_s8", "ta_tanh_s16",
                                 "runtime/kernels/ta_tanh.h");
}

const TaOpDef ta_op_tanh = {NULL, lower};
