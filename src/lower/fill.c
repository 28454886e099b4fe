/*
 * fill.c - FILL (a scalar repeated over a constant shape) and ZEROS_LIKE
 * (zero bytes in the input's shape). TFLite Micro copies the value's bytes
 * without looking at quantization, so an int8 FILL keeps the value's
 * integer and the output's zero point does not matter.
 */
#include "../../runtime/kernels/ta_copy_nd.h"
#include "common/copy_nd.h"

#include <string.h>

static bool same_shape(const TaTensor *a, const TaTensor *b)
{
    if (a->rank != b->rank)
        return false;
    for (int d = 0; d < a->rank; d++)
        if (a->dims[d] != b->dims[d])
            return false;
    return true;
}

/* The constant dims: int32 or int64, or int8 and int16, which TFLite
   Micro's Prepare also compares with the output's shape. */
static bool read_dims(TaLower *L, TaOp *op, const TaTensor *dims, int64_t shape[TA_MAX_RANK],
                      int *n)
{
    if (dims->dtype != TA_INT8 && dims->dtype != TA_INT16)
        return ta_const_ints(L, op, dims, "dims", true, shape, TA_MAX_RANK, n);
    if (!ta_expect_constant(L, op, dims, "dims"))
        return false;
    const size_t count = ta_tensor_elements(dims), elem = ta_dtype_size(dims->dtype);
    if (count > TA_MAX_RANK || dims->data_size < count * elem) {
        ta_op_error(L, op, "dims (tensor %s) has %zu values, expected at most %d", dims->id, count,
                    TA_MAX_RANK);
        return false;
    }
    for (size_t i = 0; i < count; i++) {
        int16_t v16;
        if (elem == 2)
            memcpy(&v16, dims->data + 2 * i, 2);
        shape[i] = elem == 2 ? v16 : (int8_t)dims->data[i];
    }
    *n = (int)count;
    return true;
}

static bool lower_fill(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *dims = op->inputs[0], *value = op->inputs[1], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, value, "value", TA_FLOAT32, TA_INT32, TA_INT8, -1) ||
        !ta_expect_dtype(L, op, out, "output", value->dtype, -1) ||
        !ta_expect_rank(L, op, value, "value", 0) || !ta_expect_rank(L, op, dims, "dims", 1))
        return false;
    int64_t shape[TA_MAX_RANK];
    int n;
    if (!read_dims(L, op, dims, shape, &n))
        return false;
    bool matches = n == out->rank;
    for (int d = 0; d < n && matches; d++)
        matches = shape[d] == out->dims[d];
    if (!matches) {
        ta_op_error(L, op, "dims (tensor %s) differ from output %s", dims->id,
                    ta_shape_text(L->pool, out));
        return false;
    }
    /* One dimension over the whole output, reading the value each time. */
    TaCopyNd c = {0};
    ta_copy_nd_dim(&c, (int64_t)ta_tensor_elements(out), 0, 1);
    return ta_lower_copy_nd(L, op, value, out, &c);
}

static bool lower_zeros_like(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT64, TA_INT32, TA_INT8, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1))
        return false;
    if (!same_shape(in, out)) {
        ta_op_error(L, op, "output %s differs from input %s", ta_shape_text(L->pool, out),
                    ta_shape_text(L->pool, in));
        return false;
    }
    if (ta_tensor_bytes(out) == 0)
        return true;
    /* Every type's zero is zero bytes (float +0.0 included). */
    TaKernelCall *f = ta_call(L, op, "ta_fill", "runtime/kernels/ta_copy_nd.h");
    ta_fill_params_t *p = TA_CALL_PARAMS(L, f, ta_fill_params_t);
    p->count = (int32_t)ta_tensor_bytes(out);
    p->elem_size = 1;
    p->value = 0;
    ta_call_arg(L, f, out);
    return true;
}

const TaOpDef ta_op_fill = {NULL, lower_fill};
const TaOpDef ta_op_zeros_like = {NULL, lower_zeros_like};
