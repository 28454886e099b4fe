/*
 * dynamic_update_slice.c - DYNAMIC_UPDATE_SLICE on float32, int8, int16
 * and int32, as TFLite Micro: the output is the operand with the update
 * written over it from the start indices, each clamped to
 * [0, operand dim - update dim]. An update as large as the operand
 * replaces it whole (the indices then do not matter).
 *
 * Constant start indices place the box here, and the run is two byte
 * copies, the operand into the output and the update into its box
 * (ta_copy_nd, with the box's offset); start indices computed at run time
 * go to a kernel that clamps them (ta_dynamic_update_slice.h).
 */
#include "../../runtime/kernels/ta_copy.h"
#include "../../runtime/kernels/ta_dynamic_update_slice.h"
#include "common/copy_nd.h"

static bool expect_operands(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 3, 3, 1))
        return false;
    const TaTensor *in = op->inputs[0], *update = op->inputs[1], *start = op->inputs[2],
                   *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "operand", TA_FLOAT32, TA_INT8, TA_INT16, TA_INT32, -1) ||
        !ta_expect_dtype(L, op, update, "update", in->dtype, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1) ||
        !ta_expect_dtype(L, op, start, "start indices", TA_INT32, TA_INT64, -1) ||
        !ta_expect_rank(L, op, start, "start indices", 1))
        return false;
    bool ok = update->rank == in->rank && out->rank == in->rank && start->dims[0] == in->rank;
    for (int i = 0; i < in->rank && ok; i++)
        ok = update->dims[i] <= in->dims[i] && out->dims[i] == in->dims[i];
    if (!ok) {
        ta_op_error(L, op, "update %s, %d start indices and output %s do not fit operand %s",
                    ta_shape_text(L->pool, update), (int)start->dims[0],
                    ta_shape_text(L->pool, out), ta_shape_text(L->pool, in));
        return false;
    }
    if (start->role != TA_REGION_CONSTANT && in->rank > TA_DYNAMIC_UPDATE_SLICE_MAX_RANK) {
        ta_op_error(L, op, "rank %d with start indices computed at run time (at most %d)", in->rank,
                    TA_DYNAMIC_UPDATE_SLICE_MAX_RANK);
        return false;
    }
    if ((int64_t)ta_tensor_bytes(in) > INT32_MAX) {
        ta_op_error(L, op, "tensors over 2 GiB are not supported");
        return false;
    }
    return true;
}

/* Start indices read at run time: the kernel clamps them. */
static bool lower_run_time_start(TaLower *L, TaOp *op)
{
    TaTensor *in = op->inputs[0], *update = op->inputs[1], *start = op->inputs[2],
             *out = op->outputs[0];
    const bool wide = start->dtype == TA_INT64;
    TaKernelCall *c = ta_call(L, op,
                              wide ? "ta_dynamic_update_slice_i64" : "ta_dynamic_update_slice_i32",
                              "runtime/kernels/ta_dynamic_update_slice.h");
    ta_dynamic_update_slice_params_t *p = TA_CALL_PARAMS(L, c, ta_dynamic_update_slice_params_t);
    p->rank = in->rank;
    for (int d = 0; d < in->rank; d++) {
        p->operand_dims[d] = in->dims[d];
        p->update_dims[d] = update->dims[d];
    }
    p->element_bytes = (int32_t)ta_dtype_size(in->dtype);
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, update);
    ta_call_arg(L, c, start);
    ta_call_arg(L, c, out);
    return true;
}

static bool lower(TaLower *L, TaOp *op)
{
    if (!expect_operands(L, op))
        return false;
    if (op->inputs[2]->role != TA_REGION_CONSTANT)
        return lower_run_time_start(L, op);
    TaTensor *in = op->inputs[0], *update = op->inputs[1], *out = op->outputs[0];
    int64_t start[TA_MAX_RANK];
    int count;
    if (!ta_const_ints(L, op, op->inputs[2], "start indices", true, start, TA_MAX_RANK, &count))
        return false;
    TaCopyNd box = {0};
    int64_t update_strides[TA_MAX_RANK], out_strides[TA_MAX_RANK];
    ta_row_major_strides(update, update_strides);
    ta_row_major_strides(out, out_strides);
    for (int d = 0; d < in->rank; d++) {
        const int64_t last = in->dims[d] - update->dims[d];
        const int64_t at = start[d] < 0 ? 0 : start[d] > last ? last : start[d];
        ta_copy_nd_dim(&box, update->dims[d], update_strides[d], out_strides[d]);
        box.dst_offset += at * out_strides[d];
    }
    if (ta_tensor_elements(update) != ta_tensor_elements(in)) {
        TaKernelCall *c = ta_call(L, op, "ta_copy", "runtime/kernels/ta_copy.h");
        ta_copy_params_t *p = TA_CALL_PARAMS(L, c, ta_copy_params_t);
        p->bytes = (uint32_t)ta_tensor_bytes(in);
        ta_call_arg(L, c, in);
        ta_call_arg(L, c, out);
    }
    return ta_lower_copy_nd(L, op, update, out, &box);
}

const TaOpDef ta_op_dynamic_update_slice = {NULL, lower};
