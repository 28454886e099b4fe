/*
 * gather.c - GATHER along `axis` with leading `batch_dims`, as TFLite
 * Micro. Constant indices are checked and turned into byte offsets here
 * (a local table the size of the indices; the indices tensor drops out);
 * indices computed at run time go to a kernel that checks their range.
 */
#include "../../runtime/kernels/ta_gather.h"
#include "common/copy_nd.h"

typedef struct GatherAttrs {
    int axis;
    int batch_dims;
} GatherAttrs;

static bool parse(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    GatherAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->axis = ta_fb_i32(t, 0, 0);
    a->batch_dims = ta_fb_i32(t, 1, 0);
    op->attrs = a;
    return !r.failed;
}

static int64_t product(const int32_t *dims, int from, int to)
{
    int64_t p = 1;
    for (int i = from; i < to; i++)
        p *= dims[i];
    return p;
}

static bool lower(TaLower *L, TaOp *op)
{
    const GatherAttrs *a = op->attrs;
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *in = op->inputs[0], *idx = op->inputs[1], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "params", TA_INT8, TA_INT16, TA_INT32, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1) ||
        (idx->role == TA_REGION_CONSTANT
             ? !ta_expect_dtype(L, op, idx, "indices", TA_INT32, TA_INT64, -1)
             : !ta_expect_dtype(L, op, idx, "run-time indices", TA_INT32, -1)))
        return false;
    int axis, batch_dims = a->batch_dims < 0 ? a->batch_dims + idx->rank : a->batch_dims;
    if (!ta_resolve_axis(L, op, a->axis, in->rank, &axis))
        return false;
    bool ok = batch_dims >= 0 && batch_dims <= axis && batch_dims <= idx->rank;
    for (int i = 0; i < batch_dims && ok; i++)
        ok = in->dims[i] == idx->dims[i];
    if (!ok) {
        ta_op_error(L, op, "batch_dims %d does not fit axis %d, params %s and indices %s",
                    a->batch_dims, axis, ta_shape_text(L->pool, in), ta_shape_text(L->pool, idx));
        return false;
    }
    /* Output shape: params[:axis] + indices[batch_dims:] + params[axis + 1:]. */
    int k = 0;
    ok = out->rank == in->rank + idx->rank - 1 - batch_dims;
    for (int i = 0; i < axis && ok; i++)
        ok = out->dims[k++] == in->dims[i];
    for (int i = batch_dims; i < idx->rank && ok; i++)
        ok = out->dims[k++] == idx->dims[i];
    for (int i = axis + 1; i < in->rank && ok; i++)
        ok = out->dims[k++] == in->dims[i];
    if (!ok) {
        ta_op_error(L, op, "output %s is not params %s gathered with indices %s",
                    ta_shape_text(L->pool, out), ta_shape_text(L->pool, in),
                    ta_shape_text(L->pool, idx));
        return false;
    }
    const int64_t batches = product(in->dims, 0, batch_dims);
    const int64_t outer = product(in->dims, batch_dims, axis);
    const int64_t coords = product(idx->dims, batch_dims, idx->rank);
    const int64_t axis_size = in->dims[axis];
    const int64_t inner_bytes = product(in->dims, axis + 1, in->rank) *
                                (int64_t)ta_dtype_size(in->dtype);
    if ((int64_t)ta_tensor_bytes(in) > INT32_MAX || (int64_t)ta_tensor_bytes(out) > INT32_MAX) {
        ta_op_error(L, op, "tensors over 2 GiB are not supported");
        return false;
    }
    if (ta_tensor_elements(out) == 0)
        return true;

    TaTensor *offsets = NULL;
    if (idx->role == TA_REGION_CONSTANT) {
        const int n = (int)(batches * coords);
        int64_t *values = ta_alloc_array(L->pool, (size_t)n + 1, sizeof *values);
        int32_t *table = ta_alloc_array(L->pool, (size_t)n + 1, sizeof *table);
        int count;
        if (!ta_const_ints(L, op, idx, "indices", true, values, n, &count))
            return false;
        for (int i = 0; i < n; i++) {
            if (values[i] < 0 || values[i] >= axis_size) {
                ta_op_error(L, op, "index %lld is outside [0, %lld)", (long long)values[i],
                            (long long)axis_size);
                return false;
            }
            const int64_t b = i / coords;
            table[i] = (int32_t)((b * outer * axis_size + values[i]) * inner_bytes);
        }
        offsets = ta_local_constant(L, op, "offsets", TA_INT32, n, table);
    }
    TaKernelCall *c = ta_call(L, op, offsets ? "ta_gather" : "ta_gather_i32",
                              "runtime/kernels/ta_gather.h");
    ta_gather_params_t *p = TA_CALL_PARAMS(L, c, ta_gather_params_t);
    p->batches = batches;
    p->outer = outer;
    p->coords = coords;
    p->axis_size = axis_size;
    p->inner_bytes = inner_bytes;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, offsets ? offsets : idx);
    ta_call_arg(L, c, out);
    return true;
}

const TaOpDef ta_op_gather = {parse, lower};
