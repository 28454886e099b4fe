/*
 * concatenation.c - CONCATENATION and PACK: every input is copied into
 * its slab of the output, one ta_copy_nd call per input (constant inputs
 * included; they stay in the module as the calls' sources).
 *
 * TFLite Micro copies raw values: it requires int8 inputs to share the
 * output's scale and zero point and int16 zero points to be 0, but does
 * not rescale int16 inputs whose scales differ from the output's; neither
 * does this (the oracle, tflite-micro from PyPI, behaves the same).
 */
#include "common/copy_nd.h"

typedef struct ConcatAttrs {
    int axis;
    int activation;
    int values_count; /* PACK */
} ConcatAttrs;

static bool parse_concat(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    ConcatAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->axis = ta_fb_i32(t, 0, 0);
    a->activation = ta_fb_i8(t, 1, 0);
    op->attrs = a;
    return !r.failed;
}

static bool parse_pack(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    ConcatAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->values_count = ta_fb_i32(t, 0, 0);
    a->axis = ta_fb_i32(t, 1, 0);
    op->attrs = a;
    return !r.failed;
}

/* Copies input i into out, whose dimension `axis` (of out) holds the
   inputs one after another; `packed`: the inputs lack that dimension. */
static bool copy_inputs(TaLower *L, TaOp *op, int axis, bool packed)
{
    TaTensor *out = op->outputs[0];
    int64_t ostr[TA_MAX_RANK];
    ta_row_major_strides(out, ostr);
    int64_t at = 0; /* position along axis */
    for (int i = 0; i < op->num_inputs; i++) {
        TaTensor *in = op->inputs[i];
        const int64_t len = packed ? 1 : in->dims[axis];
        int64_t istr[TA_MAX_RANK];
        ta_row_major_strides(in, istr);
        TaCopyNd c = {0};
        for (int d = 0, k = 0; d < out->rank; d++) {
            if (d == axis)
                ta_copy_nd_dim(&c, len, packed ? 0 : istr[k], ostr[d]);
            else
                ta_copy_nd_dim(&c, out->dims[d], istr[k], ostr[d]);
            k += !(packed && d == axis);
        }
        c.dst_offset = at * ostr[axis];
        if (op->num_inputs == 1) /* the output is the input, maybe reshaped */
            return ta_lower_move(L, op, 0, &c);
        if (!ta_lower_copy_nd(L, op, in, out, &c))
            return false;
        at += len;
    }
    return true;
}

static bool check_dtypes(TaLower *L, TaOp *op)
{
    const TaTensor *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, out, "output", TA_INT8, TA_INT16, TA_INT32, TA_FLOAT32, -1))
        return false;
    for (int i = 0; i < op->num_inputs; i++)
        if (!op->inputs[i] || !ta_expect_dtype(L, op, op->inputs[i], "input", out->dtype, -1))
            return false;
    return true;
}

static bool lower_concat(TaLower *L, TaOp *op)
{
    const ConcatAttrs *a = op->attrs;
    if (!ta_expect_counts(L, op, 1, 1000, 1) || !check_dtypes(L, op))
        return false;
    TaTensor *out = op->outputs[0];
    if (a->activation != TA_ACT_NONE) {
        ta_op_error(L, op, "fused activation %s is not supported (TFLite Micro requires NONE)",
                    ta_activation_name(a->activation));
        return false;
    }
    int axis;
    if (!ta_resolve_axis(L, op, a->axis, out->rank, &axis))
        return false;
    for (int i = 0; i < op->num_inputs; i++) {
        const TaTensor *in = op->inputs[i];
        if (out->dtype == TA_INT8 &&
            (ta_scale(in) != ta_scale(out) || ta_zero_point(in) != ta_zero_point(out))) {
            ta_op_error(L, op,
                        "int8 input %s has scale %g zero point %d, the output %g %d; "
                        "they must be equal",
                        in->id, (double)ta_scale(in), (int)ta_zero_point(in), (double)ta_scale(out),
                        (int)ta_zero_point(out));
            return false;
        }
        if (out->dtype == TA_INT16 && (ta_zero_point(in) != 0 || ta_zero_point(out) != 0)) {
            ta_op_error(L, op, "int16 zero points must be 0");
            return false;
        }
    }
    int64_t total = 0;
    for (int i = 0; i < op->num_inputs; i++) {
        const TaTensor *in = op->inputs[i];
        bool ok = in->rank == out->rank;
        for (int d = 0; d < out->rank && ok; d++)
            ok = d == axis || in->dims[d] == out->dims[d];
        if (!ok) {
            ta_op_error(L, op, "input %s %s does not fit output %s along axis %d", in->id,
                        ta_shape_text(L->pool, in), ta_shape_text(L->pool, out), axis);
            return false;
        }
        total += in->dims[axis];
    }
    if (total != out->dims[axis]) {
        ta_op_error(L, op, "inputs add up to %lld along axis %d, the output has %d",
                    (long long)total, axis, (int)out->dims[axis]);
        return false;
    }
    return copy_inputs(L, op, axis, false);
}

static bool lower_pack(TaLower *L, TaOp *op)
{
    const ConcatAttrs *a = op->attrs;
    if (!ta_expect_counts(L, op, 1, 1000, 1) || !check_dtypes(L, op))
        return false;
    TaTensor *out = op->outputs[0];
    if (a->values_count != op->num_inputs) {
        ta_op_error(L, op, "values_count %d but %d inputs", a->values_count, op->num_inputs);
        return false;
    }
    int axis;
    if (!ta_resolve_axis(L, op, a->axis, out->rank, &axis))
        return false;
    for (int i = 0; i < op->num_inputs; i++) {
        const TaTensor *in = op->inputs[i];
        bool ok = in->rank + 1 == out->rank && out->dims[axis] == op->num_inputs;
        for (int d = 0; d < in->rank && ok; d++)
            ok = in->dims[d] == out->dims[d < axis ? d : d + 1];
        if (!ok) {
            ta_op_error(L, op, "input %s %s packed %d times along %d is not output %s", in->id,
                        ta_shape_text(L->pool, in), op->num_inputs, axis,
                        ta_shape_text(L->pool, out));
            return false;
        }
    }
    return copy_inputs(L, op, axis, true);
}

const TaOpDef ta_op_concatenation = {parse_concat, lower_concat};
const TaOpDef ta_op_pack = {parse_pack, lower_pack};
