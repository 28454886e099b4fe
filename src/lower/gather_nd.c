/*
 * gather_nd.c - GATHER_ND on int8 and float32 params with int32 indices,
 * as TFLite Micro: the last dimension of the indices (at most 5) indexes
 * the leading dimensions of params, each index row picks one slice of the
 * rest. TFLite Micro checks only that the slice's flat position lies
 * inside params (a coordinate past its dimension is accepted when the
 * position still is), so tinyaot checks the same.
 *
 * Constant indices become one byte offset per row here, and GATHER's
 * kernel copies the slices (one batch, one outer position); indices
 * computed at run time go to ta_gather_nd_i32, which checks them as
 * TFLite Micro and fails the run on a slice outside the params.
 */
#include "../../runtime/kernels/ta_gather.h"
#include "common/copy_nd.h"

enum { MAX_INDEX_DEPTH = 5 }; /* TFLite Micro's MAX_INDICES_ND */

/* Output shape: indices.shape[:-1] + params.shape[depth:]. */
static bool expect_output_shape(TaLower *L, TaOp *op, int depth)
{
    const TaTensor *in = op->inputs[0], *idx = op->inputs[1], *out = op->outputs[0];
    int k = 0;
    bool ok = out->rank == idx->rank - 1 + in->rank - depth;
    for (int i = 0; i < idx->rank - 1 && ok; i++)
        ok = out->dims[k++] == idx->dims[i];
    for (int i = depth; i < in->rank && ok; i++)
        ok = out->dims[k++] == in->dims[i];
    if (!ok)
        ta_op_error(L, op, "output %s is not params %s gathered with indices %s",
                    ta_shape_text(L->pool, out), ta_shape_text(L->pool, in),
                    ta_shape_text(L->pool, idx));
    return ok;
}

static bool lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *in = op->inputs[0], *idx = op->inputs[1], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "params", TA_INT8, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1) ||
        !ta_expect_dtype(L, op, idx, "indices", TA_INT32, -1))
        return false;
    if (in->rank < 1 || idx->rank < 1) {
        ta_op_error(L, op, "params %s and indices %s must both have a dimension",
                    ta_shape_text(L->pool, in), ta_shape_text(L->pool, idx));
        return false;
    }
    const int depth = idx->dims[idx->rank - 1];
    if (depth > in->rank || depth > MAX_INDEX_DEPTH) {
        ta_op_error(L, op, "indices of depth %d index params of rank %d (at most %d)", depth,
                    in->rank, in->rank < MAX_INDEX_DEPTH ? in->rank : MAX_INDEX_DEPTH);
        return false;
    }
    if (!expect_output_shape(L, op, depth))
        return false;
    if ((int64_t)ta_tensor_bytes(in) > INT32_MAX || (int64_t)ta_tensor_bytes(out) > INT32_MAX) {
        ta_op_error(L, op, "tensors over 2 GiB are not supported");
        return false;
    }
    if (ta_tensor_elements(out) == 0)
        return true;

    /* Elements per step of each indexed dimension, and per slice. */
    const int64_t total = (int64_t)ta_tensor_elements(in);
    if (total == 0) {
        ta_op_error(L, op, "params %s are empty: every slice lies outside them",
                    ta_shape_text(L->pool, in));
        return false;
    }
    int64_t step[MAX_INDEX_DEPTH], slice = total;
    for (int j = 0; j < depth; j++) {
        slice /= in->dims[j];
        step[j] = slice;
    }
    const int rows = (int)(ta_tensor_elements(out) / slice);
    if (idx->role != TA_REGION_CONSTANT) {
        TaKernelCall *c = ta_call(L, op, "ta_gather_nd_i32", "runtime/kernels/ta_gather.h");
        ta_gather_nd_params_t *p = TA_CALL_PARAMS(L, c, ta_gather_nd_params_t);
        p->rows = rows;
        p->depth = depth;
        for (int j = 0; j < depth; j++)
            p->steps[j] = (int32_t)step[j];
        p->slice_elements = (int32_t)slice;
        p->params_elements = (int32_t)total;
        p->element_bytes = (int32_t)ta_dtype_size(in->dtype);
        ta_call_arg(L, c, in);
        ta_call_arg(L, c, idx);
        ta_call_arg(L, c, out);
        return true;
    }
    const int n = (int)ta_tensor_elements(idx);
    int64_t *values = ta_alloc_array(L->pool, (size_t)n + 1, sizeof *values);
    int32_t *offsets = ta_alloc_array(L->pool, (size_t)rows + 1, sizeof *offsets);
    int count;
    if (!ta_const_ints(L, op, idx, "indices", false, values, n, &count))
        return false;
    const int64_t elem = (int64_t)ta_dtype_size(in->dtype);
    for (int r = 0; r < rows; r++) {
        int64_t position = 0;
        for (int j = 0; j < depth; j++)
            position += values[r * depth + j] * step[j];
        if (position < 0 || position + slice > total) {
            ta_op_error(L, op, "index row %d reaches element %lld, outside params %s", r,
                        (long long)position, ta_shape_text(L->pool, in));
            return false;
        }
        offsets[r] = (int32_t)(position * elem);
    }
    TaKernelCall *c = ta_call(L, op, "ta_gather", "runtime/kernels/ta_gather.h");
    ta_gather_params_t *p = TA_CALL_PARAMS(L, c, ta_gather_params_t);
    p->batches = 1;
    p->outer = 1;
    p->coords = rows;
    p->axis_size = 1; /* unused with one outer position */
    p->inner_bytes = (int32_t)(slice * elem);
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, ta_local_constant(L, op, "offsets", TA_INT32, rows, offsets));
    ta_call_arg(L, c, out);
    return true;
}

const TaOpDef ta_op_gather_nd = {NULL, lower};
