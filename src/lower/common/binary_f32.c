/* binary_f32.c - see binary_f32.h. */
#include "binary_f32.h"

#include "../../../runtime/kernels/ta_binary_f32.h"
#include "binary.h"

bool ta_binary_is_f32(const TaOp *op)
{
    return op->num_inputs >= 1 && op->inputs[0] && op->inputs[0]->dtype == TA_FLOAT32;
}

bool ta_lower_binary_f32(TaLower *L, TaOp *op, const char *kernel, int activation)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *in1 = op->inputs[0], *in2 = op->inputs[1], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in1, "input 1", TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, in2, "input 2", TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_FLOAT32, -1))
        return false;
    TaBroadcast bc;
    float lo, hi;
    if (!ta_broadcast_plan(L, op, in1, in2, out, &bc) ||
        !ta_float_activation_range(L, op, activation, &lo, &hi))
        return false;
    TaKernelCall *c = ta_call(L, op, kernel, "runtime/kernels/ta_binary_f32.h");
    ta_binary_f32_params_t *p = TA_CALL_PARAMS(L, c, ta_binary_f32_params_t);
    ta_broadcast_store(&bc, &p->rank, p->dims, p->stride1, p->stride2);
    p->activation_min = lo;
    p->activation_max = hi;
    ta_binary_call_args(L, op, c);
    return true;
}
