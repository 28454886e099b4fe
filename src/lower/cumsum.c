/*
 * cumsum.c - CUMSUM on int8 and float32 along a constant axis, with the
 * exclusive and reverse options, as TFLite Micro. int8 uses TFLite's
 * ADD-like arithmetic: inputs shifted left by 20 and scaled by
 * input_scale / (2 * input_scale), outputs by 2 * input_scale /
 * (2^20 * output_scale), both multipliers below one.
 */
#include "../../runtime/kernels/ta_cumsum_f32.h"
#include "common/copy_nd.h"

typedef struct CumsumAttrs {
    bool exclusive;
    bool reverse;
} CumsumAttrs;

enum { INTEGER_SHIFT = 20 }; /* TFLite's kCumSumIntegerShift */

static bool parse(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    CumsumAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->exclusive = ta_fb_bool(t, 0, false);
    a->reverse = ta_fb_bool(t, 1, false);
    op->attrs = a;
    return !r.failed;
}

/* QuantizeMultiplierSmallerThanOneExp: a multiplier below one, else an error. */
static bool multiplier_below_one(TaLower *L, TaOp *op, double real, const char *what,
                                 int32_t *multiplier, int32_t *shift)
{
    int s;
    ta_quantize_multiplier(real, multiplier, &s);
    if (s > 0) {
        ta_op_error(L, op, "the %s multiplier %g is not below one (scales too far apart)", what,
                    real);
        return false;
    }
    *shift = s;
    return true;
}

static bool set_int8_scaling(TaLower *L, TaOp *op, ta_cumsum_params_t *p)
{
    const TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_per_tensor(L, op, in, "input") || !ta_expect_per_tensor(L, op, out, "output"))
        return false;
    const int32_t in_zp = ta_zero_point(in), out_zp = ta_zero_point(out);
    if (in_zp < INT8_MIN || in_zp > INT8_MAX || out_zp < INT8_MIN || out_zp > INT8_MAX) {
        ta_op_error(L, op, "zero points %d and %d are outside int8", (int)in_zp, (int)out_zp);
        return false;
    }
    const double in_scale = (double)ta_scale(in), twice = 2 * in_scale;
    p->input_offset = -in_zp;
    p->output_zero_point = out_zp;
    return multiplier_below_one(L, op, in_scale / twice, "input", &p->input_multiplier,
                                &p->input_shift) &&
           multiplier_below_one(L, op,
                                twice / ((double)(1 << INTEGER_SHIFT) * (double)ta_scale(out)),
                                "output", &p->output_multiplier, &p->output_shift);
}

static bool lower(TaLower *L, TaOp *op)
{
    const CumsumAttrs *a = op->attrs;
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *in = op->inputs[0], *axis_t = op->inputs[1], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1) ||
        !ta_expect_dtype(L, op, axis_t, "axis", TA_INT32, -1) ||
        !ta_expect_constant(L, op, axis_t, "axis"))
        return false;
    bool same = in->rank >= 1 && out->rank == in->rank;
    for (int i = 0; i < in->rank && same; i++)
        same = in->dims[i] == out->dims[i];
    if (!same) {
        ta_op_error(L, op, "output %s differs from input %s (or the input is a scalar)",
                    ta_shape_text(L->pool, out), ta_shape_text(L->pool, in));
        return false;
    }
    int64_t axis_value;
    int count;
    if (ta_tensor_elements(axis_t) != 1) {
        ta_op_error(L, op, "axis (tensor %s) holds %zu values, not 1", axis_t->id,
                    ta_tensor_elements(axis_t));
        return false;
    }
    int axis;
    if (!ta_const_ints(L, op, axis_t, "axis", false, &axis_value, 1, &count) ||
        !ta_resolve_axis(L, op, axis_value, in->rank, &axis))
        return false;
    if ((int64_t)ta_tensor_elements(in) > INT32_MAX) {
        ta_op_error(L, op, "tensors over 2^31 elements are not supported");
        return false;
    }
    if (ta_tensor_elements(out) == 0)
        return true;
    const bool is_float = in->dtype == TA_FLOAT32;
    TaKernelCall *c = ta_call(L, op, is_float ? "ta_cumsum_f32" : "ta_cumsum_s8",
                              is_float ? "runtime/kernels/ta_cumsum_f32.h"
                                       : "runtime/kernels/ta_cumsum.h");
    ta_cumsum_params_t *p = TA_CALL_PARAMS(L, c, ta_cumsum_params_t);
    p->outer = p->inner = 1;
    for (int i = 0; i < in->rank; i++) {
        if (i < axis)
            p->outer *= in->dims[i];
        else if (i > axis)
            p->inner *= in->dims[i];
    }
    p->depth = in->dims[axis];
    p->exclusive = a->exclusive;
    p->reverse = a->reverse;
    if (!is_float && !set_int8_scaling(L, op, p))
        return false;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    return true;
}

const TaOpDef ta_op_cumsum = {parse, lower};
