/*
 * reduce.c - MEAN and SUM (int8, int16, float32), REDUCE_MAX and REDUCE_MIN
 * (int8, float32), REDUCE_ALL (bool) over a constant int32 axis operand
 * (negative axes count from the end, repeats are ignored, as TFLite's
 * ResolveAxis). keep_dims only changes
 * the output's shape, which the model records; the element order is the
 * same either way, so its option is not read.
 *
 * Assumes: output type = input type; for REDUCE_MAX/MIN the output
 * quantization equal to the input's (TFLite Micro requires it).
 * Produces: the kept / reduced dimension groups the kernel walks; for
 * MEAN and SUM the requantization (multiplier, shift, with MEAN's division
 * by the element count folded in) and the input zero point's contribution
 * to a sum. The axis operand is read here and not passed to the kernel.
 */
#include "../../runtime/kernels/ta_reduce.h"
#include "../../runtime/kernels/ta_reduce_f32.h"
#include "lower.h"

#include <string.h>

enum { KIND_MEAN, KIND_SUM, KIND_MAX, KIND_MIN, KIND_ALL };

/* Dimension groups of one kind (kept or reduced). */
typedef struct Groups {
    int rank;
    int64_t dims[TA_REDUCE_MAX_GROUPS], strides[TA_REDUCE_MAX_GROUPS];
    int64_t count; /* product of dims */
} Groups;

static bool add_dim(Groups *g, int last_kind, int kind, int64_t dim, int64_t stride)
{
    g->count *= dim;
    if (last_kind == kind) { /* a row-major neighbour: merge */
        g->dims[g->rank - 1] *= dim;
        g->strides[g->rank - 1] = stride;
        return true;
    }
    if (g->rank == TA_REDUCE_MAX_GROUPS)
        return false;
    g->dims[g->rank] = dim;
    g->strides[g->rank] = stride;
    g->rank++;
    return true;
}

/* A kernel's dims and strides arrays: the groups, then size-1 groups. */
static void store_groups(const Groups *g, int32_t *dims, int32_t *strides)
{
    for (int i = 0; i < TA_REDUCE_MAX_GROUPS; i++) {
        dims[i] = i < g->rank ? g->dims[i] : 1;
        strides[i] = i < g->rank ? g->strides[i] : 0;
    }
}

/* float32: TFLite's float reduction over the same groups (ta_reduce_f32.h);
   the requantization fields stay 0. */
static bool call_float(TaLower *L, TaOp *op, int kind, const Groups *outer, const Groups *inner)
{
    const char *fn = kind == KIND_MAX   ? "ta_reduce_max_f32"
                     : kind == KIND_MIN ? "ta_reduce_min_f32"
                     : kind == KIND_SUM ? "ta_reduce_sum_f32"
                                        : "ta_reduce_mean_f32";
    TaKernelCall *c = ta_call(L, op, fn, "runtime/kernels/ta_reduce_f32.h");
    ta_reduce_params_t *p = TA_CALL_PARAMS(L, c, ta_reduce_params_t);
    p->outer_rank = outer->rank;
    store_groups(outer, p->outer_dims, p->outer_strides);
    p->inner_rank = inner->rank;
    store_groups(inner, p->inner_dims, p->inner_strides);
    ta_call_arg(L, c, op->inputs[0]);
    ta_call_arg(L, c, op->outputs[0]);
    return true;
}

static bool lower_reduce(TaLower *L, TaOp *op, int kind)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *in = op->inputs[0], *axis = op->inputs[1], *out = op->outputs[0];
    if (!(kind == KIND_ALL ? ta_expect_dtype(L, op, in, "input", TA_BOOL, -1)
          : kind == KIND_MAX || kind == KIND_MIN
              ? ta_expect_dtype(L, op, in, "input", TA_INT8, TA_FLOAT32, -1)
              : ta_expect_dtype(L, op, in, "input", TA_INT8, TA_INT16, TA_FLOAT32, -1)) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1) ||
        !ta_expect_dtype(L, op, axis, "axis", TA_INT32, -1) ||
        !ta_expect_constant(L, op, axis, "axis"))
        return false;
    const bool is_float = in->dtype == TA_FLOAT32;
    if (!is_float && kind != KIND_ALL &&
        (!ta_expect_per_tensor(L, op, in, "input") || !ta_expect_per_tensor(L, op, out, "output")))
        return false;
    if (ta_tensor_elements(in) == 0 || ta_tensor_elements(in) > INT32_MAX) {
        ta_op_error(L, op, "input %s is empty or too large", ta_shape_text(L->pool, in));
        return false;
    }

    /* Resolve the axes: negative from the end, duplicates ignored. */
    bool reduced[TA_MAX_RANK] = {false};
    const size_t num_axes = ta_tensor_elements(axis);
    for (size_t i = 0; i < num_axes; i++) {
        int32_t v;
        memcpy(&v, axis->data + i * 4, 4);
        const int32_t ax = v < 0 ? v + in->rank : v;
        if (ax < 0 || ax >= in->rank) {
            ta_op_error(L, op, "axis %d is out of range for input %s", (int)v,
                        ta_shape_text(L->pool, in));
            return false;
        }
        reduced[ax] = true;
    }

    /* Group the dimensions; 1-sized ones move no offset and are skipped. */
    Groups outer = {.count = 1}, inner = {.count = 1};
    int last_kind = -1;
    int64_t stride = 1;
    bool ok = true;
    int64_t strides[TA_MAX_RANK];
    for (int d = in->rank - 1; d >= 0; d--) {
        strides[d] = stride;
        stride *= in->dims[d];
    }
    for (int d = 0; d < in->rank && ok; d++) {
        if (in->dims[d] == 1)
            continue;
        const int k = reduced[d] ? 1 : 0;
        ok = add_dim(k ? &inner : &outer, last_kind, k, in->dims[d], strides[d]);
        last_kind = k;
    }
    if (!ok) {
        ta_op_error(L, op, "axes split the input %s into more than %d groups",
                    ta_shape_text(L->pool, in), TA_REDUCE_MAX_GROUPS);
        return false;
    }
    if ((int64_t)ta_tensor_elements(out) != outer.count) {
        ta_op_error(L, op, "output %s does not hold the %lld kept elements of input %s",
                    ta_shape_text(L->pool, out), (long long)outer.count,
                    ta_shape_text(L->pool, in));
        return false;
    }

    if (is_float)
        return call_float(L, op, kind, &outer, &inner);

    int32_t multiplier = 0, sum_offset = 0;
    int shift = 0;
    if (kind == KIND_ALL) {
        /* bool: nothing to requantize */
    } else if (kind == KIND_MAX || kind == KIND_MIN) {
        /* TFLite Micro compares the scales exactly. */
        if (ta_scale(in) != ta_scale(out) || ta_zero_point(in) != ta_zero_point(out)) {
            ta_op_error(L, op, "output quantization (%g, %d) differs from the input's (%g, %d)",
                        (double)ta_scale(out), (int)ta_zero_point(out), (double)ta_scale(in),
                        (int)ta_zero_point(in));
            return false;
        }
    } else {
        const int64_t n = inner.count;
        if (!ta_requant(L, op, "input-to-output", (double)ta_scale(in) / (double)ta_scale(out),
                        TA_SHIFT_MAX_INT32, &multiplier, &shift))
            return false;
        if (kind == KIND_MEAN) {
            /* TFLite folds 1/n into the multiplier: scale it up by
               2^floor(log2 n) (capped so the final right shift stays
               <= 31), divide by n, and shift right by as much more. */
            int k = 0;
            while (((uint64_t)n >> (k + 1)) != 0)
                k++;
            if (k > 32)
                k = 32;
            if (k > 31 + shift)
                k = 31 + shift;
            multiplier = (int32_t)(((int64_t)multiplier << k) / n);
            shift -= k;
        }
        /* TFLite subtracts zero_point * n (an int64) from the int32 sum and
           narrows the result to int32: the same modulo 2^32. */
        sum_offset = (int32_t)(uint32_t)(uint64_t)(-(int64_t)ta_zero_point(in) * n);
    }

    const bool wide = in->dtype == TA_INT16;
    const char *fn = kind == KIND_ALL   ? "ta_reduce_all_b"
                     : kind == KIND_MAX ? "ta_reduce_max_s8"
                     : kind == KIND_MIN ? "ta_reduce_min_s8"
                     : wide             ? "ta_reduce_sum_s16"
                                        : "ta_reduce_sum_s8";
    TaKernelCall *c = ta_call(L, op, fn, "runtime/kernels/ta_reduce.h");
    ta_reduce_params_t *p = TA_CALL_PARAMS(L, c, ta_reduce_params_t);
    p->outer_rank = outer.rank;
    store_groups(&outer, p->outer_dims, p->outer_strides);
    p->inner_rank = inner.rank;
    store_groups(&inner, p->inner_dims, p->inner_strides);
    p->sum_offset = sum_offset;
    p->multiplier = multiplier;
    p->shift = shift;
    p->output_zero_point = ta_zero_point(out);
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    return true;
}

static bool lower_mean(TaLower *L, TaOp *op)
{
    return lower_reduce(L, op, KIND_MEAN);
}

static bool lower_sum(TaLower *L, TaOp *op)
{
    return lower_reduce(L, op, KIND_SUM);
}

static bool lower_max(TaLower *L, TaOp *op)
{
    return lower_reduce(L, op, KIND_MAX);
}

static bool lower_min(TaLower *L, TaOp *op)
{
    return lower_reduce(L, op, KIND_MIN);
}

static bool lower_all(TaLower *L, TaOp *op)
{
    return lower_reduce(L, op, KIND_ALL);
}

const TaOpDef ta_op_mean = {NULL, lower_mean};
const TaOpDef ta_op_sum = {NULL, lower_sum};
const TaOpDef ta_op_reduce_all = {NULL, lower_all};
const TaOpDef ta_op_reduce_max = {NULL, lower_max};
const TaOpDef ta_op_reduce_min = {NULL, lower_min};
