/*
 * broadcast.c - BROADCAST_TO (the input repeated along its size-1 and
 * missing leading dimensions: one strided copy whose broadcast dimensions
 * step by 0) and BROADCAST_ARGS (two shape vectors' broadcast shape,
 * computed at run time as TFLite Micro does).
 */
#include "../../runtime/kernels/ta_broadcast_args.h"
#include "common/copy_nd.h"

/* TFLite Micro's BroadcastTo handles at most 5 dimensions. */
#define BROADCAST_TO_MAX_RANK 5

static bool lower_broadcast_to(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *in = op->inputs[0], *shape_t = op->inputs[1], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_UINT8, TA_INT16, TA_INT32, TA_INT64,
                         TA_BOOL, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1) ||
        !ta_expect_rank(L, op, shape_t, "shape", 1))
        return false;
    int64_t shape[TA_MAX_RANK];
    int n;
    if (!ta_const_ints(L, op, shape_t, "shape", true, shape, TA_MAX_RANK, &n))
        return false;
    if (out->rank > BROADCAST_TO_MAX_RANK || in->rank > out->rank) {
        ta_op_error(L, op,
                    "input %s to output %s: TFLite Micro broadcasts to at most %d "
                    "dimensions, never fewer than the input's",
                    ta_shape_text(L->pool, in), ta_shape_text(L->pool, out), BROADCAST_TO_MAX_RANK);
        return false;
    }
    bool matches = n == out->rank;
    for (int d = 0; d < n && matches; d++)
        matches = shape[d] == out->dims[d];
    if (!matches) {
        ta_op_error(L, op, "shape (tensor %s) differs from output %s", shape_t->id,
                    ta_shape_text(L->pool, out));
        return false;
    }
    const int lead = out->rank - in->rank;
    int64_t in_str[TA_MAX_RANK], out_str[TA_MAX_RANK];
    ta_row_major_strides(in, in_str);
    ta_row_major_strides(out, out_str);
    TaCopyNd c = {0};
    for (int d = 0; d < out->rank; d++) {
        const int k = d - lead;
        if (k >= 0 && in->dims[k] != 1 && in->dims[k] != out->dims[d]) {
            ta_op_error(L, op, "input %s does not broadcast to output %s",
                        ta_shape_text(L->pool, in), ta_shape_text(L->pool, out));
            return false;
        }
        const bool repeated = k < 0 || in->dims[k] == 1;
        ta_copy_nd_dim(&c, out->dims[d], repeated ? 0 : in_str[k], out_str[d]);
    }
    return ta_lower_move(L, op, 0, &c);
}

static bool lower_broadcast_args(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *s1 = op->inputs[0], *s2 = op->inputs[1], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, s1, "shape 1", TA_INT32, TA_INT64, -1) ||
        !ta_expect_dtype(L, op, s2, "shape 2", s1->dtype, -1) ||
        !ta_expect_dtype(L, op, out, "output", s1->dtype, -1) ||
        !ta_expect_rank(L, op, s1, "shape 1", 1) || !ta_expect_rank(L, op, s2, "shape 2", 1) ||
        !ta_expect_rank(L, op, out, "output", 1))
        return false;
    if (out->dims[0] == 0)
        return true;
    const bool wide = s1->dtype == TA_INT64;
    TaKernelCall *c = ta_call(L, op, wide ? "ta_broadcast_args_i64" : "ta_broadcast_args_i32",
                              "runtime/kernels/ta_broadcast_args.h");
    ta_broadcast_args_params_t *p = TA_CALL_PARAMS(L, c, ta_broadcast_args_params_t);
    p->length1 = s1->dims[0];
    p->length2 = s2->dims[0];
    p->output_length = out->dims[0];
    ta_call_arg(L, c, s1);
    ta_call_arg(L, c, s2);
    ta_call_arg(L, c, out);
    return true;
}

const TaOpDef ta_op_broadcast_to = {NULL, lower_broadcast_to};
const TaOpDef ta_op_broadcast_args = {NULL, lower_broadcast_args};
