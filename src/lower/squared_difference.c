/*
 * squared_difference.c - SQUARED_DIFFERENCE, int8 and int16 (zero points
 * 0), with broadcasting (float32 through common/binary_f32). Produces the input and output (multiplier,
 * shift) pairs with the floating-point steps of TFLite Micro's Prepare.
 */
#include "../../runtime/kernels/ta_squared_difference.h"
#include "common/binary.h"
#include "common/binary_f32.h"

static bool lower(TaLower *L, TaOp *op)
{
    if (ta_binary_is_f32(op))
        return ta_lower_binary_f32(L, op, "ta_squared_difference_f32", TA_ACT_NONE);
    static const int dtypes[] = {TA_INT8, TA_INT16, -1};
    if (!ta_binary_expect(L, op, -1, dtypes) || !ta_binary_expect_int16_zero_points(L, op))
        return false;
    TaTensor *in1 = op->inputs[0], *in2 = op->inputs[1], *out = op->outputs[0];
    const bool wide = out->dtype == TA_INT16;
    TaBroadcast bc;
    if (!ta_broadcast_plan(L, op, in1, in2, out, &bc))
        return false;

    /* The square doubles the shift: int8 values shifted by 7 square to at
       most 2^30; int16 values are not shifted. */
    const int left_shift = wide ? 0 : 7;
    const float s1 = ta_scale(in1), s2 = ta_scale(in2), so = ta_scale(out);
    const double twice_max = 2.0 * (double)(s1 > s2 ? s1 : s2);
    /* The denominator is a float product in the reference. */
    const float out_denominator = (float)(1 << (2 * left_shift)) * so;
    const double real[3] = {(double)s1 / twice_max, (double)s2 / twice_max,
                            twice_max * twice_max / (double)out_denominator};
    int32_t mult[3];
    int shift[3];
    for (int i = 0; i < 3; i++)
        if (!ta_requant(L, op, i < 2 ? "input" : "output", real[i], TA_SHIFT_MAX_INT32, &mult[i],
                        &shift[i]))
            return false;
    int32_t qmin, qmax;
    ta_dtype_range(out->dtype, &qmin, &qmax);

    TaKernelCall *c = ta_call(L, op,
                              wide ? "ta_squared_difference_s16" : "ta_squared_difference_s8",
                              "runtime/kernels/ta_squared_difference.h");
    ta_squared_difference_params_t *p = TA_CALL_PARAMS(L, c, ta_squared_difference_params_t);
    ta_broadcast_store(&bc, &p->rank, p->dims, p->stride1, p->stride2);
    p->left_shift = left_shift;
    p->input1_offset = -ta_zero_point(in1);
    p->input1_multiplier = mult[0];
    p->input1_shift = shift[0];
    p->input2_offset = -ta_zero_point(in2);
    p->input2_multiplier = mult[1];
    p->input2_shift = shift[1];
    p->output_offset = ta_zero_point(out);
    p->output_multiplier = mult[2];
    p->output_shift = shift[2];
    p->activation_min = qmin;
    p->activation_max = qmax;
    ta_binary_call_args(L, op, c);
    return true;
}

const TaOpDef ta_op_squared_difference = {NULL, lower};
