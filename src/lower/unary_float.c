/*
 * unary_float.c - the elementwise operators TFLite Micro has only for
 * float32 here (CEIL, COS, EXP, FLOOR, LOG, NEG, ROUND, SIN, SQRT, SQUARE):
 * one kernel each in runtime/kernels/ta_unary_f32.c. ABS, RSQRT and ELU,
 * which TFLite Micro also has on integers, live in unary_int.c and hand
 * float32 inputs to ta_lower_unary_f32 from there.
 */
#include "common/unary_f32.h"

static bool lower_float_only(TaLower *L, TaOp *op, const char *kernel)
{
    if (op->num_inputs >= 1 && op->inputs[0] && !ta_unary_is_f32(op)) {
        ta_op_error(L, op, "input (tensor %s) is %s; tinyaot supports float32 here",
                    op->inputs[0]->id, ta_dtype_name(op->inputs[0]->dtype));
        return false;
    }
    return ta_lower_unary_f32(L, op, kernel, 0.0f);
}

static bool lower_ceil(TaLower *L, TaOp *op)
{
    return lower_float_only(L, op, "ta_ceil_f32");
}

static bool lower_cos(TaLower *L, TaOp *op)
{
    return lower_float_only(L, op, "ta_cos_f32");
}

static bool lower_exp(TaLower *L, TaOp *op)
{
    return lower_float_only(L, op, "ta_exp_f32");
}

static bool lower_floor(TaLower *L, TaOp *op)
{
    return lower_float_only(L, op, "ta_floor_f32");
}

static bool lower_log(TaLower *L, TaOp *op)
{
    return lower_float_only(L, op, "ta_log_f32");
}

static bool lower_neg(TaLower *L, TaOp *op)
{
    return lower_float_only(L, op, "ta_neg_f32");
}

static bool lower_round(TaLower *L, TaOp *op)
{
    return lower_float_only(L, op, "ta_round_f32");
}

static bool lower_sin(TaLower *L, TaOp *op)
{
    return lower_float_only(L, op, "ta_sin_f32");
}

static bool lower_sqrt(TaLower *L, TaOp *op)
{
    return lower_float_only(L, op, "ta_sqrt_f32");
}

static bool lower_square(TaLower *L, TaOp *op)
{
    return lower_float_only(L, op, "ta_square_f32");
}

const TaOpDef ta_op_ceil = {NULL, lower_ceil};
const TaOpDef ta_op_cos = {NULL, lower_cos};
const TaOpDef ta_op_exp = {NULL, lower_exp};
const TaOpDef ta_op_floor = {NULL, lower_floor};
const TaOpDef ta_op_log = {NULL, lower_log};
const TaOpDef ta_op_neg = {NULL, lower_neg};
const TaOpDef ta_op_round = {NULL, lower_round};
const TaOpDef ta_op_sin = {NULL, lower_sin};
const TaOpDef ta_op_sqrt = {NULL, lower_sqrt};
const TaOpDef ta_op_square = {NULL, lower_square};
