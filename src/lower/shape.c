/*
 * shape.c - SHAPE: the input's dimensions as an int32 vector. They are
 * known when converting, so the module copies a constant into the output.
 * TFLite Micro writes only int32 outputs and reads the output tensor's
 * type, not the options' out_type, so neither is the option read here.
 */
#include "common/copy_nd.h"

static bool lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, out, "output", TA_INT32, -1) ||
        !ta_expect_rank(L, op, out, "output", 1))
        return false;
    if (out->dims[0] != in->rank) {
        ta_op_error(L, op, "output %s cannot hold the %d dimensions of input %s",
                    ta_shape_text(L->pool, out), in->rank, ta_shape_text(L->pool, in));
        return false;
    }
    if (in->rank == 0)
        return true;
    TaTensor *dims = ta_local_constant(L, op, "dims", TA_INT32, in->rank, in->dims);
    TaCopyNd c = {0};
    ta_copy_nd_dim(&c, in->rank, 1, 1);
    return ta_lower_copy_nd(L, op, dims, out, &c);
}

const TaOpDef ta_op_shape = {NULL, lower};
