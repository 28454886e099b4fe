/*
 * mul.c - MUL, int8 and int16 (zero points 0), with broadcasting and
 * fused activations. Produces the output (multiplier, shift) for
 * s1 * s2 / s_out, computed in double as TFLite Micro's Prepare.
 */
#include "../../runtime/kernels/ta_mul.h"
#include "common/binary.h"
#include "common/binary_f32.h"
#include "common/binary_i32.h"

typedef struct MulAttrs {
    int activation;
} MulAttrs;

static bool parse(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    MulAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->activation = ta_fb_i8(t, 0, 0);
    op->attrs = a;
    return !r.failed;
}

static bool lower(TaLower *L, TaOp *op)
{
    const MulAttrs *a = op->attrs;
    if (op->num_inputs >= 1 && op->inputs[0] && op->inputs[0]->dtype == TA_INT32)
        return ta_lower_binary_i32(L, op, "ta_mul_i32", a->activation);
    if (ta_binary_is_f32(op))
        return ta_lower_binary_f32(L, op, "ta_mul_f32", a->activation);
    static const int dtypes[] = {TA_INT8, TA_INT16, -1};
    if (!ta_binary_expect(L, op, -1, dtypes) || !ta_binary_expect_int16_zero_points(L, op))
        return false;
    TaTensor *in1 = op->inputs[0], *in2 = op->inputs[1], *out = op->outputs[0];
    const bool wide = out->dtype == TA_INT16;
    TaBroadcast bc;
    int32_t act_min, act_max;
    if (!ta_broadcast_plan(L, op, in1, in2, out, &bc) ||
        !ta_activation_range(L, op, a->activation, out, &act_min, &act_max))
        return false;
    const double real = (double)ta_scale(in1) * (double)ta_scale(in2) / (double)ta_scale(out);
    int32_t multiplier;
    int shift;
    if (!ta_requant(L, op, "output", real, TA_SHIFT_MAX_INT32, &multiplier, &shift))
        return false;

    TaKernelCall *c = ta_call(L, op, wide ? "ta_mul_s16" : "ta_mul_s8", "runtime/kernels/ta_mul.h");
    ta_mul_params_t *p = TA_CALL_PARAMS(L, c, ta_mul_params_t);
    ta_broadcast_store(&bc, &p->rank, p->dims, p->stride1, p->stride2);
    p->input1_offset = -ta_zero_point(in1);
    p->input2_offset = -ta_zero_point(in2);
    p->output_offset = ta_zero_point(out);
    p->output_multiplier = multiplier;
    p->output_shift = shift;
    p->activation_min = act_min;
    p->activation_max = act_max;
    ta_binary_call_args(L, op, c);
    return true;
}

const TaOpDef ta_op_mul = {parse, lower};
