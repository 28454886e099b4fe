/*
 * floor_div_mod.c - FLOOR_DIV and FLOOR_MOD. TFLite Micro runs them in
 * float32 only, broadcasting through its 4-D broadcast loop: inputs of
 * different shapes with more than 4 dimensions are refused as it cannot
 * run them.
 */
#include "../../runtime/kernels/ta_floor_div_mod_f32.h"
#include "common/binary.h"

/* The most dimensions BroadcastBinaryFunction4DSlow takes. */
#define FLOOR_BROADCAST_MAX_RANK 4

static bool same_shape(const TaTensor *a, const TaTensor *b)
{
    if (a->rank != b->rank)
        return false;
    for (int d = 0; d < a->rank; d++)
        if (a->dims[d] != b->dims[d])
            return false;
    return true;
}

static bool lower_floor(TaLower *L, TaOp *op, const char *kernel, bool checks_divisors)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *in1 = op->inputs[0], *in2 = op->inputs[1], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in1, "input 1", TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, in2, "input 2", TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_FLOAT32, -1))
        return false;
    if (!same_shape(in1, in2) &&
        (in1->rank > FLOOR_BROADCAST_MAX_RANK || in2->rank > FLOOR_BROADCAST_MAX_RANK ||
         out->rank > FLOOR_BROADCAST_MAX_RANK)) {
        ta_op_error(L, op,
                    "broadcasting %s with %s: TFLite Micro broadcasts at most %d "
                    "dimensions",
                    ta_shape_text(L->pool, in1), ta_shape_text(L->pool, in2),
                    FLOOR_BROADCAST_MAX_RANK);
        return false;
    }
    TaBroadcast bc;
    if (!ta_broadcast_plan(L, op, in1, in2, out, &bc))
        return false;
    TaKernelCall *c = ta_call(L, op, kernel, "runtime/kernels/ta_floor_div_mod_f32.h");
    ta_floor_div_mod_f32_params_t *p = TA_CALL_PARAMS(L, c, ta_floor_div_mod_f32_params_t);
    ta_broadcast_store(&bc, &p->rank, p->dims, p->stride1, p->stride2);
    if (checks_divisors)
        p->divisor_count = (int32_t)ta_tensor_elements(in2);
    ta_binary_call_args(L, op, c);
    return true;
}

static bool lower_floor_div(TaLower *L, TaOp *op)
{
    return lower_floor(L, op, "ta_floor_div_f32", true);
}

static bool lower_floor_mod(TaLower *L, TaOp *op)
{
    return lower_floor(L, op, "ta_floor_mod_f32", false);
}

const TaOpDef ta_op_floor_div = {NULL, lower_floor_div};
const TaOpDef ta_op_floor_mod = {NULL, lower_floor_mod};
