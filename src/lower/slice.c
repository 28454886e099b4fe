/*
 * slice.c - SLICE and STRIDED_SLICE as one strided copy. begin/size and
 * begin/end/strides are constants resolved here, with TFLite Micro's
 * rules for negative indices, clamping and masks; the kernel gets the
 * first element's offset and a byte stride per dimension.
 */
#include "common/copy_nd.h"

static bool slice_operand(TaLower *L, TaOp *op, int index, const char *role, int rank,
                          int64_t *values)
{
    int n;
    if (!ta_const_ints(L, op, op->inputs[index], role, true, values, TA_MAX_RANK, &n))
        return false;
    if (n != rank) {
        ta_op_error(L, op, "%s has %d values for an input of rank %d", role, n, rank);
        return false;
    }
    return true;
}

static bool lower_slice(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 3, 3, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    int64_t begin[TA_MAX_RANK], size[TA_MAX_RANK], istr[TA_MAX_RANK], ostr[TA_MAX_RANK];
    if (!ta_expect_dtype(L, op, out, "output", in->dtype, -1) ||
        !slice_operand(L, op, 1, "begin", in->rank, begin) ||
        !slice_operand(L, op, 2, "size", in->rank, size))
        return false;
    if (out->rank != in->rank) {
        ta_op_error(L, op, "output rank %d differs from input rank %d", out->rank, in->rank);
        return false;
    }
    ta_row_major_strides(in, istr);
    ta_row_major_strides(out, ostr);
    TaCopyNd c = {0};
    for (int d = 0; d < in->rank; d++) {
        /* size -1: to the end of the dimension. */
        const int64_t stop = size[d] == -1 ? in->dims[d] : begin[d] + size[d];
        if (begin[d] < 0 || stop < begin[d] || stop > in->dims[d] ||
            stop - begin[d] != out->dims[d]) {
            ta_op_error(L, op, "begin %lld size %lld on dimension %d of %s does not give %s",
                        (long long)begin[d], (long long)size[d], d, ta_shape_text(L->pool, in),
                        ta_shape_text(L->pool, out));
            return false;
        }
        ta_copy_nd_dim(&c, out->dims[d], istr[d], ostr[d]);
        c.src_offset += begin[d] * istr[d];
    }
    return ta_lower_move(L, op, 0, &c);
}

enum {
    SS_BEGIN_MASK = 0,
    SS_END_MASK,
    SS_ELLIPSIS_MASK,
    SS_NEW_AXIS_MASK,
    SS_SHRINK_MASK,
    SS_OFFSET
};

typedef struct StridedSliceAttrs {
    int32_t begin_mask, end_mask, shrink_mask;
} StridedSliceAttrs;

static bool parse_strided_slice(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    StridedSliceAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->begin_mask = ta_fb_i32(t, SS_BEGIN_MASK, 0);
    a->end_mask = ta_fb_i32(t, SS_END_MASK, 0);
    a->shrink_mask = ta_fb_i32(t, SS_SHRINK_MASK, 0);
    /* SS_ELLIPSIS_MASK, SS_NEW_AXIS_MASK and SS_OFFSET are not read:
       TFLite Micro sets the first two to 0 and never looks at the third,
       so begin/end/strides index the input's own dimensions and the output
       shape check below refuses a model whose shapes need them. */
    if (r.failed)
        return false;
    op->attrs = a;
    return true;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

static bool lower_strided_slice(TaLower *L, TaOp *op)
{
    const StridedSliceAttrs *a = op->attrs;
    if (!ta_expect_counts(L, op, 4, 4, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    const int rank = in->rank;
    int64_t begin[TA_MAX_RANK], end[TA_MAX_RANK], stride[TA_MAX_RANK], istr[TA_MAX_RANK];
    if (!ta_expect_dtype(L, op, out, "output", in->dtype, -1) ||
        !slice_operand(L, op, 1, "begin", rank, begin) ||
        !slice_operand(L, op, 2, "end", rank, end) ||
        !slice_operand(L, op, 3, "strides", rank, stride))
        return false;
    ta_row_major_strides(in, istr);
    TaCopyNd c = {0};
    int64_t out_dims[TA_MAX_RANK];
    int out_rank = 0;
    for (int d = 0; d < rank; d++) {
        const int64_t size = in->dims[d], st = stride[d];
        const bool shrink = (a->shrink_mask >> d) & 1;
        if (st == 0) {
            ta_op_error(L, op, "stride 0 on dimension %d", d);
            return false;
        }
        /* As TFLite Micro's evaluation: a negative index counts from the
           end, then clamps to [0, size] going forward or [-1, size - 1]
           going backward; a mask then selects the whole dimension. */
        int64_t start = begin[d] < 0 ? begin[d] + size : begin[d];
        start = st > 0 ? clamp64(start, 0, size) : clamp64(start, -1, size - 1);
        if ((a->begin_mask >> d) & 1)
            start = st > 0 ? 0 : size - 1;
        int64_t stop;
        if (shrink) {
            stop = start >= size ? start : start + 1;
        } else {
            stop = end[d] < 0 ? end[d] + size : end[d];
            stop = st > 0 ? clamp64(stop, 0, size) : clamp64(stop, -1, size - 1);
            if ((a->end_mask >> d) & 1)
                stop = st > 0 ? size : -1;
        }
        int64_t count = st > 0 ? (stop - start + st - 1) / st : (start - stop - st - 1) / -st;
        if (count < 0)
            count = 0;
        if (shrink && count != 1) {
            ta_op_error(L, op, "shrunk dimension %d: index %lld is outside [0, %lld)", d,
                        (long long)begin[d], (long long)size);
            return false;
        }
        if (!shrink)
            out_dims[out_rank++] = count;
        ta_copy_nd_dim(&c, count, istr[d] * st, 0);
        c.src_offset += start * istr[d];
    }
    bool ok = out_rank == out->rank;
    for (int d = 0; d < out_rank && ok; d++)
        ok = out_dims[d] == out->dims[d];
    if (!ok) {
        ta_op_error(L, op,
                    "begin, end, strides and masks do not slice %s into output %s "
                    "(ellipsis_mask, new_axis_mask and offset are ignored, as TFLite Micro does)",
                    ta_shape_text(L->pool, in), ta_shape_text(L->pool, out));
        return false;
    }
    /* The output is written in order: its strides follow the counts. */
    int64_t s = 1;
    for (int k = c.rank - 1; k >= 0; k--) {
        c.dst_strides[k] = s;
        s *= c.dims[k];
    }
    return ta_lower_move(L, op, 0, &c);
}

const TaOpDef ta_op_slice = {NULL, lower_slice};
const TaOpDef ta_op_strided_slice = {parse_strided_slice, lower_strided_slice};
