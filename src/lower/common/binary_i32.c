/* binary_i32.c - see binary_i32.h. */
#include "binary_i32.h"

#include "../../../runtime/kernels/ta_binary_i32.h"
#include "binary.h"

/* CalculateActivationRange for int32 outputs: the plain bounds, no
   quantization. */
static bool activation_range(TaLower *L, TaOp *op, int act, int32_t *lo, int32_t *hi)
{
    switch (act) {
    case TA_ACT_NONE: *lo = INT32_MIN, *hi = INT32_MAX; return true;
    case TA_ACT_RELU: *lo = 0, *hi = INT32_MAX; return true;
    case TA_ACT_RELU6: *lo = 0, *hi = 6; return true;
    case TA_ACT_RELU_N1_TO_1: *lo = -1, *hi = 1; return true;
    default:
        ta_op_error(L, op, "fused activation %s is not supported on int32",
                    ta_activation_name(act));
        return false;
    }
}

static bool unquantized(TaLower *L, TaOp *op, const TaTensor *t, const char *role)
{
    if (!t->quant || (t->quant->num_scales == 0 && t->quant->num_zero_points == 0))
        return true;
    ta_op_error(L, op,
                "%s (tensor %s) is int32 with quantization; tinyaot supports plain int32 here",
                role, t->id);
    return false;
}

bool ta_lower_binary_i32(TaLower *L, TaOp *op, const char *kernel, int activation)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *in1 = op->inputs[0], *in2 = op->inputs[1], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in1, "input 1", TA_INT32, -1) ||
        !ta_expect_dtype(L, op, in2, "input 2", TA_INT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_INT32, -1) ||
        !unquantized(L, op, in1, "input 1") || !unquantized(L, op, in2, "input 2") ||
        !unquantized(L, op, out, "output"))
        return false;
    TaBroadcast bc;
    int32_t lo, hi;
    if (!ta_broadcast_plan(L, op, in1, in2, out, &bc) ||
        !activation_range(L, op, activation, &lo, &hi))
        return false;
    TaKernelCall *c = ta_call(L, op, kernel, "runtime/kernels/ta_binary_i32.h");
    ta_binary_i32_params_t *p = TA_CALL_PARAMS(L, c, ta_binary_i32_params_t);
    ta_broadcast_store(&bc, &p->rank, p->dims, p->stride1, p->stride2);
    p->activation_min = lo;
    p->activation_max = hi;
    ta_binary_call_args(L, op, c);
    return true;
}
