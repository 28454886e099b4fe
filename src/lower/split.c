/*
 * split.c - SPLIT, SPLIT_V and UNPACK: every output is a slab of the
 * input, one ta_copy_nd call per output. The axis and size_splits
 * operands are constants read here (TFLite Micro requires the axis to be
 * constant too); the sizes are the ones the output shapes record.
 */
#include "common/copy_nd.h"

typedef struct SplitAttrs {
    int num;  /* num_splits, or UNPACK's num */
    int axis; /* UNPACK */
} SplitAttrs;

static bool parse_split(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    SplitAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->num = ta_fb_i32(t, 0, 0);
    a->axis = ta_fb_i32(t, 1, 0);
    op->attrs = a;
    return !r.failed;
}

/* Copies consecutive slabs of `in` along axis into the outputs;
   `unpacked`: the outputs lack that dimension (one index each). */
static bool copy_outputs(TaLower *L, TaOp *op, TaTensor *in, int data_input, int axis,
                         bool unpacked)
{
    int64_t istr[TA_MAX_RANK];
    ta_row_major_strides(in, istr);
    TaCopyNd *copies = ta_alloc_array(L->pool, (size_t)op->num_outputs, sizeof *copies);
    int64_t at = 0;
    for (int o = 0; o < op->num_outputs; o++) {
        TaTensor *out = op->outputs[o];
        if (!ta_expect_dtype(L, op, out, "output", in->dtype, -1))
            return false;
        const int64_t len = unpacked ? 1 : out->dims[axis];
        bool ok = out->rank == in->rank - (unpacked ? 1 : 0);
        for (int d = 0, k = 0; d < in->rank && ok; d++) {
            if (d != axis)
                ok = out->dims[k] == in->dims[d];
            k += !(unpacked && d == axis);
        }
        if (!ok) {
            ta_op_error(L, op, "output %s %s is not a slab of input %s along axis %d", out->id,
                        ta_shape_text(L->pool, out), ta_shape_text(L->pool, in), axis);
            return false;
        }
        int64_t ostr[TA_MAX_RANK];
        ta_row_major_strides(out, ostr);
        TaCopyNd c = {0};
        for (int d = 0, k = 0; d < in->rank; d++) {
            if (d == axis)
                ta_copy_nd_dim(&c, len, istr[d], unpacked ? 0 : ostr[k]);
            else
                ta_copy_nd_dim(&c, in->dims[d], istr[d], ostr[k]);
            k += !(unpacked && d == axis);
        }
        c.src_offset = at * istr[axis];
        at += len;
        copies[o] = c;
    }
    if (at != in->dims[axis]) {
        ta_op_error(L, op, "outputs add up to %lld along axis %d, the input has %d", (long long)at,
                    axis, (int)in->dims[axis]);
        return false;
    }
    if (op->num_outputs == 1) /* the output is the input, maybe reshaped */
        return ta_lower_move(L, op, data_input, &copies[0]);
    for (int o = 0; o < op->num_outputs; o++)
        if (!ta_lower_copy_nd(L, op, in, op->outputs[o], &copies[o]))
            return false;
    return true;
}

static bool const_axis(TaLower *L, TaOp *op, const TaTensor *t, int rank, int *axis)
{
    int64_t v;
    int n;
    if (!ta_const_ints(L, op, t, "axis", false, &v, 1, &n))
        return false;
    if (n != 1) {
        ta_op_error(L, op, "axis must be one value");
        return false;
    }
    return ta_resolve_axis(L, op, v, rank, axis);
}

static bool lower_split(TaLower *L, TaOp *op)
{
    const SplitAttrs *a = op->attrs;
    if (!ta_expect_counts(L, op, 2, 2, op->num_outputs))
        return false;
    TaTensor *in = op->inputs[1];
    int axis;
    if (!const_axis(L, op, op->inputs[0], in->rank, &axis))
        return false;
    if (op->num_outputs < 1 || a->num != op->num_outputs || in->dims[axis] % op->num_outputs != 0) {
        ta_op_error(L, op, "%d outputs, num_splits %d: cannot split %d equally", op->num_outputs,
                    a->num, in->rank ? (int)in->dims[axis] : 0);
        return false;
    }
    for (int o = 0; o < op->num_outputs; o++) {
        if (op->outputs[o]->rank != in->rank ||
            op->outputs[o]->dims[axis] != in->dims[axis] / op->num_outputs) {
            ta_op_error(L, op, "output %d is not an equal part of the input", o);
            return false;
        }
    }
    return copy_outputs(L, op, in, 1, axis, false);
}

static bool lower_split_v(TaLower *L, TaOp *op)
{
    const SplitAttrs *a = op->attrs;
    if (!ta_expect_counts(L, op, 3, 3, op->num_outputs))
        return false;
    TaTensor *in = op->inputs[0];
    int axis, n;
    if (!const_axis(L, op, op->inputs[2], in->rank, &axis))
        return false;
    /* size_splits (one may be -1) states the output shapes the file
       records; a constant one must agree with them. */
    int64_t sizes[64];
    const TaTensor *st = op->inputs[1];
    if (st->role != TA_REGION_CONSTANT) { /* TFLite Micro never reads it either */
        n = op->num_outputs;
        for (int o = 0; o < n && o < 64; o++)
            sizes[o] = -1;
    } else if (!ta_const_ints(L, op, st, "size_splits", false, sizes, 64, &n)) {
        return false;
    }
    if (op->num_outputs < 1 || op->num_outputs > 64 || n != op->num_outputs ||
        a->num != op->num_outputs) {
        ta_op_error(L, op, "%d size_splits, num_splits %d for %d outputs", n, a->num,
                    op->num_outputs);
        return false;
    }
    for (int o = 0; o < n; o++) {
        const TaTensor *out = op->outputs[o];
        if (out->rank != in->rank || (sizes[o] != -1 && sizes[o] != out->dims[axis])) {
            ta_op_error(L, op, "output %d %s does not match size_splits %lld", o,
                        ta_shape_text(L->pool, out), (long long)sizes[o]);
            return false;
        }
    }
    return copy_outputs(L, op, in, 0, axis, false);
}

static bool lower_unpack(TaLower *L, TaOp *op)
{
    const SplitAttrs *a = op->attrs;
    if (!ta_expect_counts(L, op, 1, 1, op->num_outputs))
        return false;
    TaTensor *in = op->inputs[0];
    int axis;
    if (!ta_resolve_axis(L, op, a->axis, in->rank, &axis))
        return false;
    if (op->num_outputs < 1 || a->num != op->num_outputs || in->dims[axis] != a->num) {
        ta_op_error(L, op, "num %d, %d outputs, input dimension %d: they must agree", a->num,
                    op->num_outputs, (int)in->dims[axis]);
        return false;
    }
    return copy_outputs(L, op, in, 0, axis, true);
}

const TaOpDef ta_op_split = {parse_split, lower_split};
const TaOpDef ta_op_split_v = {parse_split, lower_split_v};
const TaOpDef ta_op_unpack = {parse_split, lower_unpack};
