/*
 * maximum_minimum.c - MAXIMUM and MINIMUM, int8, with broadcasting.
 *
 * TFLite Micro compares the raw int8 values whatever the quantization.
 * That is the real maximum only when both inputs and the output share one
 * scale and zero point (as converters write them), so tinyaot requires it.
 */
#include "../../runtime/kernels/ta_maximum_minimum.h"
#include "common/binary.h"
#include "common/binary_s32.h"

static bool lower_max_min(TaLower *L, TaOp *op, bool maximum)
{
    if (op->num_inputs >= 1 && op->inputs[0] && op->inputs[0]->dtype == TA_INT32)
        return ta_lower_binary_s32(L, op, maximum ? "ta_maximum_s32" : "ta_minimum_s32",
                                   TA_ACT_NONE);
    static const int dtypes[] = {TA_INT8, -1};
    if (!ta_binary_expect(L, op, -1, dtypes))
        return false;
    TaTensor *in1 = op->inputs[0], *in2 = op->inputs[1], *out = op->outputs[0];
    if (ta_scale(in1) != ta_scale(out) || ta_scale(in2) != ta_scale(out) ||
        ta_zero_point(in1) != ta_zero_point(out) || ta_zero_point(in2) != ta_zero_point(out)) {
        ta_op_error(L, op,
                    "inputs and output must share one scale and zero point (TFLite "
                    "compares raw values)");
        return false;
    }
    TaBroadcast bc;
    if (!ta_broadcast_plan(L, op, in1, in2, out, &bc))
        return false;
    TaKernelCall *c = ta_call(L, op, maximum ? "ta_maximum_s8" : "ta_minimum_s8",
                              "runtime/kernels/ta_maximum_minimum.h");
    ta_maximum_minimum_params_t *p = TA_CALL_PARAMS(L, c, ta_maximum_minimum_params_t);
    ta_broadcast_store(&bc, &p->rank, p->dims, p->stride1, p->stride2);
    ta_binary_call_args(L, op, c);
    return true;
}

static bool lower_maximum(TaLower *L, TaOp *op)
{
    return lower_max_min(L, op, true);
}

static bool lower_minimum(TaLower *L, TaOp *op)
{
    return lower_max_min(L, op, false);
}

const TaOpDef ta_op_maximum = {NULL, lower_maximum};
const TaOpDef ta_op_minimum = {NULL, lower_minimum};
