/*
 * tanh.c - TANH on int8 (output 1/128, 0) and int16 (zero points 0,
 * output 2^-15; float32 through common/unary_f32), lowered as LOGISTIC is (logistic.c) with tanh's input
 * scaling and kernels.
 */
#include "common/sigmoid_input.h"
#include "common/unary_f32.h"
#include "lower.h"

static bool lower(TaLower *L, TaOp *op)
{
    if (ta_unary_is_f32(op))
        return ta_lower_unary_f32(L, op, "ta_tanh_f32", 0.0f);
    static const TaSigmoidLike tanh_op = {1, 1.0f / 128, 0};
    return ta_sigmoid_like_lower(L, op, &tanh_op, "ta_tanh_s8", "ta_tanh_s16",
                                 "runtime/kernels/ta_tanh.h");
}

const TaOpDef ta_op_tanh = {NULL, lower};
