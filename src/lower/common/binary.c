/*
 * binary.c - helpers for binary elementwise operators: operand checks and
 * shapes collapsed for the runtime's row iteration.
 */
#include "binary.h"

static bool quantized_operand(TaLower *L, TaOp *op, const TaTensor *t, const char *role)
{
    if (!ta_expect_per_tensor(L, op, t, role))
        return false;
    int32_t lo, hi;
    ta_dtype_range(t->dtype, &lo, &hi);
    const int64_t zp = t->quant->num_zero_points ? t->quant->zero_point[0] : 0;
    if (zp < lo || zp > hi) {
        ta_op_error(L, op, "%s (tensor %s) has zero point %lld outside the %s range", role, t->id,
                    (long long)zp, ta_dtype_name(t->dtype));
        return false;
    }
    return true;
}

bool ta_binary_expect(TaLower *L, TaOp *op, int out_dtype, const int *dtypes)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *in1 = op->inputs[0], *in2 = op->inputs[1], *out = op->outputs[0];
    bool ok = false;
    for (const int *d = dtypes; *d >= 0; d++)
        ok = ok || (int)in1->dtype == *d;
    if (!ok) {
        ta_op_error(L, op, "input 1 (tensor %s) is %s; tinyaot supports %s here", in1->id,
                    ta_dtype_name(in1->dtype),
                    dtypes[1] < 0 ? ta_dtype_name(dtypes[0])
                                  : ta_format(L->pool, "%s or %s", ta_dtype_name(dtypes[0]),
                                              ta_dtype_name(dtypes[1])));
        return false;
    }
    const int want_out = out_dtype >= 0 ? out_dtype : (int)in1->dtype;
    if (!ta_expect_dtype(L, op, in2, "input 2", in1->dtype, -1) ||
        !ta_expect_dtype(L, op, out, "output", want_out, -1) ||
        !quantized_operand(L, op, in1, "input 1") || !quantized_operand(L, op, in2, "input 2"))
        return false;
    return out_dtype >= 0 || quantized_operand(L, op, out, "output");
}

static int32_t dim_at(const TaTensor *t, int rank, int i)
{
    int k = i - (rank - t->rank); /* shapes align on their last dimension */
    return k < 0 ? 1 : t->dims[k];
}

bool ta_broadcast_plan(TaLower *L, TaOp *op, const TaTensor *in1, const TaTensor *in2,
                       const TaTensor *out, TaBroadcast *bc)
{
    int rank = in1->rank > in2->rank ? in1->rank : in2->rank;
    rank = out->rank > rank ? out->rank : rank;
    /* Per dimension (outermost first): the output size and which inputs
       are broadcast along it; size-1 output dimensions are dropped. */
    int32_t size[TA_MAX_RANK];
    bool bcast1[TA_MAX_RANK], bcast2[TA_MAX_RANK];
    int n = 0;
    for (int i = 0; i < rank; i++) {
        const int32_t a = dim_at(in1, rank, i), b = dim_at(in2, rank, i);
        const int32_t o = dim_at(out, rank, i);
        const int32_t want = a == 1 ? b : a;
        if ((a != b && a != 1 && b != 1) || o != want) {
            ta_op_error(L, op, "input shapes %s and %s do not broadcast to the output shape %s",
                        ta_shape_text(L->pool, in1), ta_shape_text(L->pool, in2),
                        ta_shape_text(L->pool, out));
            return false;
        }
        if (o == 1)
            continue;
        const bool b1 = a == 1, b2 = b == 1;
        if (n > 0 && bcast1[n - 1] == b1 && bcast2[n - 1] == b2) {
            size[n - 1] *= o; /* same pattern as its outer neighbour: merge */
            continue;
        }
        size[n] = o;
        bcast1[n] = b1;
        bcast2[n] = b2;
        n++;
    }
    if (ta_tensor_elements(out) == 0)
        n = 0; /* nothing to compute: no rows */
    if (n > TA_BROADCAST_MAX_DIMS) {
        ta_op_error(L, op, "broadcasting %s with %s needs %d dimensions; tinyaot supports %d",
                    ta_shape_text(L->pool, in1), ta_shape_text(L->pool, in2), n,
                    TA_BROADCAST_MAX_DIMS);
        return false;
    }
    *bc = (TaBroadcast){0};
    if (n == 0) { /* a single element, or none */
        bc->rank = 1;
        bc->dims[0] = ta_tensor_elements(out) ? 1 : 0;
        bc->stride1[0] = bc->stride2[0] = 1;
        return true;
    }
    bc->rank = n;
    int32_t acc1 = 1, acc2 = 1;
    for (int i = n - 1; i >= 0; i--) {
        bc->dims[i] = size[i];
        bc->stride1[i] = bcast1[i] ? 0 : acc1;
        bc->stride2[i] = bcast2[i] ? 0 : acc2;
        if (!bcast1[i])
            acc1 *= size[i];
        if (!bcast2[i])
            acc2 *= size[i];
    }
    return true;
}

void ta_broadcast_store(const TaBroadcast *bc, int32_t *rank, int32_t *dims, int32_t *stride1,
                        int32_t *stride2)
{
    *rank = bc->rank;
    for (int i = 0; i < TA_BROADCAST_MAX_DIMS; i++) {
        dims[i] = bc->dims[i];
        stride1[i] = bc->stride1[i];
        stride2[i] = bc->stride2[i];
    }
}

void ta_binary_call_args(TaLower *L, TaOp *op, TaKernelCall *c)
{
    ta_call_arg(L, c, op->inputs[0]);
    ta_call_arg(L, c, op->inputs[1]);
    ta_call_arg(L, c, op->outputs[0]);
    ta_allow_inplace(op, 0); /* a broadcast input never has the output's size */
}

bool ta_binary_expect_int16_zero_points(TaLower *L, TaOp *op)
{
    const TaTensor *in1 = op->inputs[0], *in2 = op->inputs[1], *out = op->outputs[0];
    if (out->dtype == TA_INT16 &&
        (ta_zero_point(in1) || ta_zero_point(in2) || ta_zero_point(out))) {
        ta_op_error(L, op, "int16 inputs and output need zero point 0");
        return false;
    }
    return true;
}
