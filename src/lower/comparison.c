/*
 * comparison.c - LESS, LESS_EQUAL, GREATER, GREATER_EQUAL, EQUAL and
 * NOT_EQUAL on int8 and float32 with broadcasting, bool output.
 *
 * TFLite Micro shifts each offset input left by 8 and multiplies it by
 * its own scale (QuantizeMultiplierSmallerThanOneExp of the scale, so
 * scales must be below 1), then compares. Produces both (multiplier,
 * shift) pairs and the kernel's outcome mask.
 *
 * int16 is refused with the reason: TFLite Micro has no int16 LESS,
 * LESS_EQUAL, GREATER_EQUAL, EQUAL or NOT_EQUAL, and its int16 GREATER
 * runs with rescaling parameters its Prepare never sets (it fills them for
 * int8 only), so there is no defined result to match.
 */
#include "../../runtime/kernels/ta_comparison.h"
#include "../../runtime/kernels/ta_comparison_f32.h"
#include "common/binary.h"

/* Outcome bits: x1 < x2, x1 == x2, x1 > x2 (both kernels read them). */
enum { LT = 1, EQ = 2, GT = 4 };

/* The reason an int16 comparison is refused (see the file comment). */
static bool refuse_int16(TaLower *L, TaOp *op)
{
    if (op->builtin == TA_BUILTIN_GREATER)
        ta_op_error(L, op,
                    "int16 inputs are not supported: TFLite Micro's int16 GREATER compares "
                    "with rescaling parameters it never sets, so its result is undefined");
    else
        ta_op_error(L, op,
                    "int16 inputs are not supported: TFLite Micro has no int16 kernel "
                    "for this operator");
    return false;
}

/* float32: one IEEE comparison per element (ta_comparison_f32.h). */
static bool lower_float(TaLower *L, TaOp *op, int mask)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *in1 = op->inputs[0], *in2 = op->inputs[1], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in2, "input 2", TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_BOOL, -1))
        return false;
    TaBroadcast bc;
    if (!ta_broadcast_plan(L, op, in1, in2, out, &bc))
        return false;
    TaKernelCall *c = ta_call(L, op, "ta_comparison_f32", "runtime/kernels/ta_comparison_f32.h");
    ta_comparison_f32_params_t *p = TA_CALL_PARAMS(L, c, ta_comparison_f32_params_t);
    ta_broadcast_store(&bc, &p->rank, p->dims, p->stride1, p->stride2);
    p->mask = mask;
    ta_binary_call_args(L, op, c);
    return true;
}

static bool lower_comparison(TaLower *L, TaOp *op, int mask)
{
    static const int dtypes[] = {TA_INT8, -1};
    if (op->num_inputs >= 1 && op->inputs[0] && op->inputs[0]->dtype == TA_INT16)
        return refuse_int16(L, op);
    if (op->num_inputs >= 1 && op->inputs[0] && op->inputs[0]->dtype == TA_FLOAT32)
        return lower_float(L, op, mask);
    if (!ta_binary_expect(L, op, TA_BOOL, dtypes))
        return false;
    TaTensor *in1 = op->inputs[0], *in2 = op->inputs[1], *out = op->outputs[0];
    TaBroadcast bc;
    if (!ta_broadcast_plan(L, op, in1, in2, out, &bc))
        return false;
    int32_t mult[2];
    int shift[2];
    for (int i = 0; i < 2; i++) {
        const double scale = (double)ta_scale(op->inputs[i]);
        ta_quantize_multiplier(scale, &mult[i], &shift[i]);
        if (shift[i] > 0) { /* TFLite aborts in Prepare */
            ta_op_error(L, op, "input %d scale %g is not below 1", i + 1, scale);
            return false;
        }
    }
    TaKernelCall *c = ta_call(L, op, "ta_comparison_s8", "runtime/kernels/ta_comparison.h");
    ta_comparison_params_t *p = TA_CALL_PARAMS(L, c, ta_comparison_params_t);
    ta_broadcast_store(&bc, &p->rank, p->dims, p->stride1, p->stride2);
    p->left_shift = 8;
    p->input1_offset = -ta_zero_point(in1);
    p->input1_multiplier = mult[0];
    p->input1_shift = shift[0];
    p->input2_offset = -ta_zero_point(in2);
    p->input2_multiplier = mult[1];
    p->input2_shift = shift[1];
    p->mask = mask;
    ta_binary_call_args(L, op, c);
    return true;
}

static bool lower_less(TaLower *L, TaOp *op)
{
    return lower_comparison(L, op, LT);
}
static bool lower_less_equal(TaLower *L, TaOp *op)
{
    return lower_comparison(L, op, LT | EQ);
}
static bool lower_greater(TaLower *L, TaOp *op)
{
    return lower_comparison(L, op, GT);
}
static bool lower_greater_equal(TaLower *L, TaOp *op)
{
    return lower_comparison(L, op, GT | EQ);
}
static bool lower_equal(TaLower *L, TaOp *op)
{
    return lower_comparison(L, op, EQ);
}
static bool lower_not_equal(TaLower *L, TaOp *op)
{
    return lower_comparison(L, op, LT | GT);
}

const TaOpDef ta_op_less = {NULL, lower_less};
const TaOpDef ta_op_less_equal = {NULL, lower_less_equal};
const TaOpDef ta_op_greater = {NULL, lower_greater};
const TaOpDef ta_op_greater_equal = {NULL, lower_greater_equal};
const TaOpDef ta_op_equal = {NULL, lower_equal};
const TaOpDef ta_op_not_equal = {NULL, lower_not_equal};
