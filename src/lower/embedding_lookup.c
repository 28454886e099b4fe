/*
 * embedding_lookup.c - EMBEDDING_LOOKUP as TFLite Micro: input 0 holds
 * int32 row numbers (rank 1), input 1 the table (rank 2 or more, int8 or
 * float32); output row i is table row lookup[i]. int8 to int8 and float32
 * to float32 copy the rows (GATHER's run-time kernel, which fails the run
 * on a row outside the table as TFLite Micro); int8 to float32 is the
 * hybrid form, dequantizing with the table's scale (zero point 0).
 * Constant lookups are checked here as well.
 */
#include "../../runtime/kernels/ta_embedding_lookup.h"
#include "../../runtime/kernels/ta_gather.h"
#include "common/copy_nd.h"

static bool expect_shapes(TaLower *L, TaOp *op)
{
    const TaTensor *lookup = op->inputs[0], *value = op->inputs[1], *out = op->outputs[0];
    if (!ta_expect_rank(L, op, lookup, "lookup", 1))
        return false;
    if (value->rank < 2) {
        ta_op_error(L, op, "value %s needs at least 2 dimensions", ta_shape_text(L->pool, value));
        return false;
    }
    bool ok = out->rank == value->rank && out->dims[0] == lookup->dims[0];
    for (int i = 1; i < value->rank && ok; i++)
        ok = out->dims[i] == value->dims[i];
    if (!ok)
        ta_op_error(L, op, "output %s is not %d rows of value %s", ta_shape_text(L->pool, out),
                    (int)lookup->dims[0], ta_shape_text(L->pool, value));
    return ok;
}

/* A constant lookup outside the table fails here rather than at run time. */
static bool expect_constant_rows(TaLower *L, TaOp *op, int64_t rows)
{
    const TaTensor *lookup = op->inputs[0];
    if (lookup->role != TA_REGION_CONSTANT)
        return true;
    const int n = (int)lookup->dims[0];
    int64_t *values = ta_alloc_array(L->pool, (size_t)n + 1, sizeof *values);
    int count;
    if (!ta_const_ints(L, op, lookup, "lookup", false, values, n, &count))
        return false;
    for (int i = 0; i < n; i++) {
        if (values[i] < 0 || values[i] >= rows) {
            ta_op_error(L, op, "lookup %lld is outside the table's rows [0, %lld)",
                        (long long)values[i], (long long)rows);
            return false;
        }
    }
    return true;
}

static bool lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *lookup = op->inputs[0], *value = op->inputs[1], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, lookup, "lookup", TA_INT32, -1) ||
        !ta_expect_dtype(L, op, value, "value", TA_INT8, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", value->dtype, TA_FLOAT32, -1) ||
        !expect_shapes(L, op))
        return false;
    const bool hybrid = value->dtype == TA_INT8 && out->dtype == TA_FLOAT32;
    if (hybrid && !ta_expect_per_tensor(L, op, value, "value"))
        return false;
    if (hybrid && ta_zero_point(value) != 0) {
        ta_op_error(L, op, "int8 value dequantized to float32 needs zero point 0, not %d",
                    (int)ta_zero_point(value));
        return false;
    }
    if ((int64_t)ta_tensor_bytes(value) > INT32_MAX || (int64_t)ta_tensor_bytes(out) > INT32_MAX) {
        ta_op_error(L, op, "tensors over 2 GiB are not supported");
        return false;
    }
    const int64_t rows = value->dims[0];
    if (!expect_constant_rows(L, op, rows))
        return false;
    if (ta_tensor_elements(out) == 0)
        return true;
    const int64_t columns = (int64_t)ta_tensor_elements(value) / rows;
    if (hybrid) {
        TaKernelCall *c = ta_call(L, op, "ta_embedding_lookup_s8_f32",
                                  "runtime/kernels/ta_embedding_lookup.h");
        ta_embedding_lookup_params_t *p = TA_CALL_PARAMS(L, c, ta_embedding_lookup_params_t);
        p->lookups = lookup->dims[0];
        p->rows = (int32_t)rows;
        p->columns = (int32_t)columns;
        p->scale = ta_scale(value);
        ta_call_arg(L, c, lookup);
        ta_call_arg(L, c, value);
        ta_call_arg(L, c, out);
        return true;
    }
    TaKernelCall *c = ta_call(L, op, "ta_gather_i32", "runtime/kernels/ta_gather.h");
    ta_gather_params_t *p = TA_CALL_PARAMS(L, c, ta_gather_params_t);
    p->batches = 1;
    p->outer = 1;
    p->coords = lookup->dims[0];
    p->axis_size = (int32_t)rows;
    p->inner_bytes = (int32_t)(columns * (int64_t)ta_dtype_size(value->dtype));
    ta_call_arg(L, c, value);
    ta_call_arg(L, c, lookup);
    ta_call_arg(L, c, out);
    return true;
}

const TaOpDef ta_op_embedding_lookup = {NULL, lower};
