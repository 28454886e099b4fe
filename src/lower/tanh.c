/*
 * tanh.c - TANH on int8 (output 1/128, 0) and int16 (zero points 0,
 * output 2^-15), lowered as LOGISTIC is (logistic.c) with tanh's input
 * scaling and kernels.
 */
#include "lower.h"
#include "common/sigmoid_input.h"
#include "../../runtime/kernels/ta_tanh.h"

static bool lower(TaLower *L, TaOp *op)
{
    static const TaSigmoidLike tanh_op = {1, 1.0f / 128, 0};
    TaSigmoidInput s;
    if (!ta_sigmoid_like_input(L, op, &tanh_op, &s))
        return false;
    TaKernelCall *c = ta_call(L, op, s.wide ? "ta_tanh_s16" : "ta_tanh_s8",
                              "runtime/kernels/ta_tanh.h");
    ta_tanh_params_t *p = TA_CALL_PARAMS(L, c, ta_tanh_params_t);
    p->size = s.size;
    p->input_zero_point = s.input_zero_point;
    p->input_range_radius = s.input_range_radius;
    p->input_multiplier = s.input_multiplier;
    p->input_left_shift = s.input_left_shift;
    ta_call_arg(L, c, op->inputs[0]);
    if (!s.wide)
        ta_call_arg(L, c, ta_sigmoid_like_table(L, op, &tanh_op, &s));
    ta_call_arg(L, c, op->outputs[0]);
    ta_allow_inplace(op, 0);
    return true;
}

const TaOpDef ta_op_tanh = {NULL, lower};
