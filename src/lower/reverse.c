/*
 * reverse.c - REVERSE_V2: the input with the constant axes reversed, one
 * strided copy stepping backwards along each reversed axis. TFLite Micro
 * reverses only a run of adjacent axes (after sorting); any other set is
 * refused here as it refuses it. Any element size: bytes are moved.
 */
#include "common/copy_nd.h"

static bool lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_UINT8, TA_INT16, TA_INT32, TA_INT64,
                         TA_BOOL, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1))
        return false;
    if (op->inputs[1] && op->inputs[1]->rank != 1) {
        ta_op_error(L, op, "axis (tensor %s) must be a vector", op->inputs[1]->id);
        return false;
    }
    int64_t axes[TA_MAX_RANK];
    int n;
    if (!ta_const_ints(L, op, op->inputs[1], "axis", false, axes, TA_MAX_RANK, &n))
        return false;
    bool same_shape = out->rank == in->rank;
    for (int d = 0; d < in->rank && same_shape; d++)
        same_shape = out->dims[d] == in->dims[d];
    if (!same_shape) {
        ta_op_error(L, op, "output %s differs from input %s", ta_shape_text(L->pool, out),
                    ta_shape_text(L->pool, in));
        return false;
    }
    bool reversed[TA_MAX_RANK] = {false};
    int first = in->rank, last = -1;
    for (int i = 0; i < n; i++) {
        int a;
        if (!ta_resolve_axis(L, op, axes[i], in->rank, &a))
            return false;
        if (reversed[a]) {
            ta_op_error(L, op, "axis %d is given twice (TFLite Micro reverses adjacent axes only)",
                        a);
            return false;
        }
        reversed[a] = true;
        first = a < first ? a : first;
        last = a > last ? a : last;
    }
    if (n && last - first + 1 != n) {
        ta_op_error(L, op, "axes are not adjacent (TFLite Micro reverses adjacent axes only)");
        return false;
    }
    int64_t str[TA_MAX_RANK];
    ta_row_major_strides(in, str);
    TaCopyNd c = {0};
    for (int d = 0; d < in->rank; d++) {
        if (reversed[d]) {
            /* Output index i reads input index dims - 1 - i. */
            ta_copy_nd_dim(&c, in->dims[d], -str[d], str[d]);
            c.src_offset += (in->dims[d] - 1) * str[d];
        } else {
            ta_copy_nd_dim(&c, in->dims[d], str[d], str[d]);
        }
    }
    return ta_lower_move(L, op, 0, &c);
}

const TaOpDef ta_op_reverse_v2 = {NULL, lower};
