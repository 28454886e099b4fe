/*
 * copy_nd.c - see copy_nd.h. TFLite Micro's data-movement kernels copy
 * elements without looking at quantization (only CONCATENATION checks
 * it), so these copies move bytes and never requantize.
 */
#include "copy_nd.h"
#include "../../../runtime/kernels/ta_copy_nd.h"

#include <string.h>

void ta_copy_nd_dim(TaCopyNd *c, int64_t size, int64_t src_stride, int64_t dst_stride)
{
    TA_ASSERT(c->rank < TA_COPY_DIMS);
    c->dims[c->rank] = size;
    c->src_strides[c->rank] = src_stride;
    c->dst_strides[c->rank] = dst_stride;
    c->rank++;
}

void ta_row_major_strides(const TaTensor *t, int64_t strides[TA_MAX_RANK])
{
    int64_t s = 1;
    for (int i = t->rank - 1; i >= 0; i--) {
        strides[i] = s;
        s *= t->dims[i];
    }
}

/* The lowest and highest byte offsets a copy touches on one side. */
static void extent(const TaCopyNd *c, bool src, int64_t *lo, int64_t *hi)
{
    *lo = *hi = src ? c->src_offset : c->dst_offset;
    for (int k = 0; k < c->rank; k++) {
        int64_t step = (c->dims[k] - 1) * (src ? c->src_strides[k] : c->dst_strides[k]);
        if (step < 0)
            *lo += step;
        else
            *hi += step;
    }
}

/* In bytes, without size-1 dimensions, contiguous dimensions merged. */
static TaCopyNd simplify(const TaCopyNd *in, size_t elem)
{
    TaCopyNd c = {0};
    for (int k = 0; k < in->rank; k++)
        if (in->dims[k] != 1)
            ta_copy_nd_dim(&c, in->dims[k], in->src_strides[k] * (int64_t)elem,
                           in->dst_strides[k] * (int64_t)elem);
    ta_copy_nd_dim(&c, (int64_t)elem, 1, 1);
    c.src_offset = in->src_offset * (int64_t)elem;
    c.dst_offset = in->dst_offset * (int64_t)elem;
    /* Merge dimension k into k+1 when stepping k is stepping k+1 past its end. */
    for (int k = c.rank - 2; k >= 0; k--) {
        if (c.src_strides[k] != c.src_strides[k + 1] * c.dims[k + 1] ||
            c.dst_strides[k] != c.dst_strides[k + 1] * c.dims[k + 1])
            continue;
        c.dims[k + 1] *= c.dims[k];
        memmove(&c.dims[k], &c.dims[k + 1], (size_t)(c.rank - k - 1) * sizeof c.dims[0]);
        memmove(&c.src_strides[k], &c.src_strides[k + 1],
                (size_t)(c.rank - k - 1) * sizeof c.src_strides[0]);
        memmove(&c.dst_strides[k], &c.dst_strides[k + 1],
                (size_t)(c.rank - k - 1) * sizeof c.dst_strides[0]);
        c.rank--;
    }
    return c;
}

static bool is_empty(const TaCopyNd *c)
{
    for (int k = 0; k < c->rank; k++)
        if (c->dims[k] <= 0)
            return true;
    return false;
}

static bool fits_i32(int64_t v)
{
    return v >= INT32_MIN && v <= INT32_MAX;
}

bool ta_lower_copy_nd(TaLower *L, TaOp *op, TaTensor *src, TaTensor *dst, const TaCopyNd *in)
{
    const size_t elem = ta_dtype_size(src->dtype);
    if (!elem || src->dtype != dst->dtype) {
        ta_op_error(L, op, "cannot copy %s into %s", ta_dtype_name(src->dtype),
                    ta_dtype_name(dst->dtype));
        return false;
    }
    if (is_empty(in))
        return true;
    TaCopyNd c = simplify(in, elem);
    int64_t slo, shi, dlo, dhi;
    extent(&c, true, &slo, &shi);
    extent(&c, false, &dlo, &dhi);
    if (slo < 0 || shi >= (int64_t)ta_tensor_bytes(src) || dlo < 0 ||
        dhi >= (int64_t)ta_tensor_bytes(dst)) {
        ta_op_error(L, op,
                    "copy from %s %s to %s %s leaves a tensor (bytes %lld..%lld -> %lld..%lld)",
                    src->id, ta_shape_text(L->pool, src), dst->id, ta_shape_text(L->pool, dst),
                    (long long)slo, (long long)shi, (long long)dlo, (long long)dhi);
        return false;
    }
    if (c.rank > TA_COPY_ND_MAX_RANK || !fits_i32(shi) || !fits_i32(dhi)) {
        ta_op_error(L, op,
                    "copy needs %d dimensions (the kernel handles %d) or more than "
                    "2^31 bytes",
                    c.rank, TA_COPY_ND_MAX_RANK);
        return false;
    }
    TaKernelCall *call = ta_call(L, op, "ta_copy_nd", "runtime/kernels/ta_copy_nd.h");
    ta_copy_nd_params_t *p = TA_CALL_PARAMS(L, call, ta_copy_nd_params_t);
    p->rank = c.rank;
    for (int k = 0; k < c.rank; k++) {
        p->dims[k] = c.dims[k];
        p->src_strides[k] = c.src_strides[k];
        p->dst_strides[k] = c.dst_strides[k];
    }
    p->src_offset = c.src_offset;
    p->dst_offset = c.dst_offset;
    ta_call_arg(L, call, src);
    ta_call_arg(L, call, dst);
    return true;
}

bool ta_lower_move(TaLower *L, TaOp *op, int data_input, const TaCopyNd *in)
{
    TaTensor *src = op->inputs[data_input], *dst = op->outputs[0];
    const size_t elem = ta_dtype_size(src->dtype);
    if (elem && src->dtype == dst->dtype && !is_empty(in)) {
        TaCopyNd c = simplify(in, elem);
        if (c.rank == 1 && c.src_strides[0] == 1 && c.dst_strides[0] == 1 && c.src_offset == 0 &&
            c.dst_offset == 0 && c.dims[0] == (int64_t)ta_tensor_bytes(src) &&
            c.dims[0] == (int64_t)ta_tensor_bytes(dst)) {
            /* Every byte in place: the output is the input, reshaped. */
            op->inputs[0] = src;
            return ta_lower_reshape_like(L, op);
        }
    }
    return ta_lower_copy_nd(L, op, src, dst, in);
}

bool ta_const_ints(TaLower *L, TaOp *op, const TaTensor *t, const char *role, bool allow64,
                   int64_t *out, int max, int *count)
{
    if (!t || !ta_expect_constant(L, op, t, role))
        return false;
    if (t->dtype != TA_INT32 && !(allow64 && t->dtype == TA_INT64)) {
        ta_op_error(L, op, "%s (tensor %s) is %s; tinyaot supports int32%s here", role, t->id,
                    ta_dtype_name(t->dtype), allow64 ? " or int64" : "");
        return false;
    }
    const size_t elem = ta_dtype_size(t->dtype);
    const size_t n = ta_tensor_elements(t);
    if (n > (size_t)max || t->data_size < n * elem) {
        ta_op_error(L, op, "%s (tensor %s) has %zu values, expected at most %d", role, t->id, n,
                    max);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (elem == 8) {
            memcpy(&out[i], t->data + i * 8, 8);
        } else {
            int32_t v;
            memcpy(&v, t->data + i * 4, 4);
            out[i] = v;
        }
    }
    *count = (int)n;
    return true;
}

bool ta_resolve_axis(TaLower *L, TaOp *op, int64_t axis, int rank, int *out)
{
    if (axis < -rank || axis >= rank) {
        ta_op_error(L, op, "axis %lld is outside [%d, %d)", (long long)axis, -rank, rank);
        return false;
    }
    *out = (int)(axis < 0 ? axis + rank : axis);
    return true;
}
