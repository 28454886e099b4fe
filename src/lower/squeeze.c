/*
 * squeeze.c - SQUEEZE and EXPAND_DIMS: RESHAPEs whose new shape comes
 * from dropping or inserting size-1 dimensions. The output aliases the
 * input when the planner allows it (see reshape.c); the axis operand and
 * squeeze_dims are only checked against the shapes the file records.
 */
#include "common/copy_nd.h"

typedef struct SqueezeAttrs {
    int num_dims;
    int32_t dims[TA_MAX_RANK];
} SqueezeAttrs;

static bool parse_squeeze(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    SqueezeAttrs *a = ta_alloc(L->pool, sizeof *a);
    TaFbVec v = ta_fb_vec(t, 0, 4);
    if (r.failed)
        return false;
    if (v.len > TA_MAX_RANK) {
        ta_op_error(L, op, "%u squeeze_dims for at most %d dimensions", (unsigned)v.len,
                    TA_MAX_RANK);
        return false;
    }
    a->num_dims = (int)v.len;
    for (uint32_t i = 0; i < v.len; i++)
        a->dims[i] = ta_fb_vec_i32(v, i);
    op->attrs = a;
    return !r.failed;
}

static bool lower_squeeze(TaLower *L, TaOp *op)
{
    const SqueezeAttrs *a = op->attrs;
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    const TaTensor *in = op->inputs[0], *out = op->outputs[0];
    bool squeeze[TA_MAX_RANK] = {false};
    for (int i = 0; i < a->num_dims; i++) {
        int d;
        if (!ta_resolve_axis(L, op, a->dims[i], in->rank, &d))
            return false;
        if (in->dims[d] != 1) {
            ta_op_error(L, op, "squeeze dimension %d of %s is not 1", d,
                        ta_shape_text(L->pool, in));
            return false;
        }
        squeeze[d] = true;
    }
    /* No squeeze_dims: every size-1 dimension goes. */
    for (int d = 0; d < in->rank && a->num_dims == 0; d++)
        squeeze[d] = in->dims[d] == 1;
    int n = 0;
    bool ok = true;
    for (int d = 0; d < in->rank; d++)
        if (!squeeze[d])
            ok = ok && n < out->rank && out->dims[n++] == in->dims[d];
    if (!ok || n != out->rank) {
        ta_op_error(L, op, "output %s is not input %s squeezed", ta_shape_text(L->pool, out),
                    ta_shape_text(L->pool, in));
        return false;
    }
    return ta_lower_reshape_like(L, op);
}

static bool lower_expand_dims(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    const TaTensor *in = op->inputs[0], *out = op->outputs[0];
    int64_t axis_value;
    int n, axis;
    if (!ta_const_ints(L, op, op->inputs[1], "axis", false, &axis_value, 1, &n))
        return false;
    if (n != 1 || op->inputs[1]->rank > 1) {
        ta_op_error(L, op, "axis must be one value");
        return false;
    }
    if (!ta_resolve_axis(L, op, axis_value, in->rank + 1, &axis))
        return false;
    bool ok = out->rank == in->rank + 1 && out->dims[axis] == 1;
    for (int d = 0; d < in->rank && ok; d++)
        ok = out->dims[d < axis ? d : d + 1] == in->dims[d];
    if (!ok) {
        ta_op_error(L, op, "output %s is not input %s with a 1 inserted at %d",
                    ta_shape_text(L->pool, out), ta_shape_text(L->pool, in), axis);
        return false;
    }
    return ta_lower_reshape_like(L, op);
}

const TaOpDef ta_op_squeeze = {parse_squeeze, lower_squeeze};
const TaOpDef ta_op_expand_dims = {NULL, lower_expand_dims};
