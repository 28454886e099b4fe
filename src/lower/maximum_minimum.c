/*
 * maximum_minimum.c - MAXIMUM and MINIMUM, int8 and int16, with
 * broadcasting (int32 through common/binary_i32, float32 through
 * common/binary_f32).
 *
 * TFLite Micro compares the raw values and copies the chosen one whatever
 * the quantization (it has no Prepare): with inputs and output sharing
 * one scale and zero point, as converters write them, that is the real
 * maximum; otherwise it is still what TFLite Micro computes, so the
 * quantization is not checked.
 */
#include "../../runtime/kernels/ta_maximum_minimum.h"
#include "common/binary.h"
#include "common/binary_f32.h"
#include "common/binary_i32.h"

static bool lower_max_min(TaLower *L, TaOp *op, bool maximum)
{
    if (op->num_inputs >= 1 && op->inputs[0] && op->inputs[0]->dtype == TA_INT32)
        return ta_lower_binary_i32(L, op, maximum ? "ta_maximum_i32" : "ta_minimum_i32",
                                   TA_ACT_NONE);
    if (ta_binary_is_f32(op))
        return ta_lower_binary_f32(L, op, maximum ? "ta_maximum_f32" : "ta_minimum_f32",
                                   TA_ACT_NONE);
    static const int dtypes[] = {TA_INT8, TA_INT16, -1};
    if (!ta_binary_expect(L, op, -1, dtypes))
        return false;
    TaTensor *in1 = op->inputs[0], *in2 = op->inputs[1], *out = op->outputs[0];
    TaBroadcast bc;
    if (!ta_broadcast_plan(L, op, in1, in2, out, &bc))
        return false;
    static const char *names[2][2] = {{"ta_minimum_s8", "ta_maximum_s8"},
                                      {"ta_minimum_s16", "ta_maximum_s16"}};
    TaKernelCall *c = ta_call(L, op, names[in1->dtype == TA_INT16][maximum],
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
