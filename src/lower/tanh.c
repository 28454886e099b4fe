/*
 * tanh.c - TANH on int8 (output 1/128, 0) and int16 (zero points 0,
 * output 2^-15), lowered as LOGISTIC is (logistic.c) with tanh's input
 * scaling and kernels.
 */
#include "lower.h"
#include "sigmoid_input.h"

static bool lower(TaLower *L, TaOp *op)
{
    static const TaSigmoidLike tanh_op = {1, 1.0f / 128, 0, "ta_tanh_s8", "ta_tanh_s16",
                                          "runtime/kernels/ta_tanh.h", "ta_tanh_params_t"};
    return ta_lower_sigmoid_like(L, op, &tanh_op);
}

const TaOpDef ta_op_tanh = {28, "TANH", NULL, lower};
