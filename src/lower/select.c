/*
 * select.c - SELECT_V2: a bool condition picks each element from x or y,
 * the three inputs broadcasting to the output. TFLite Micro runs int8,
 * int16 and float32 and does not requantize (x, y and the output share
 * bytes), so neither does the kernel. SELECT (v1) is not registered by
 * TFLite Micro and stays unsupported.
 */
#include "../../runtime/kernels/ta_select.h"
#include "lower.h"

/* t's size along output dimension d (right-aligned), 1 if t is shorter. */
static int32_t aligned_dim(const TaTensor *t, int out_rank, int d)
{
    const int k = d - (out_rank - t->rank);
    return k < 0 ? 1 : t->dims[k];
}

/* t's element stride along output dimension d: 0 where t is broadcast. */
static int32_t aligned_stride(const TaTensor *t, int out_rank, int d)
{
    if (aligned_dim(t, out_rank, d) == 1)
        return 0;
    int32_t s = 1;
    for (int k = t->rank - 1; k > d - (out_rank - t->rank); k--)
        s *= t->dims[k];
    return s;
}

static bool lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 3, 3, 1))
        return false;
    TaTensor *cond = op->inputs[0], *x = op->inputs[1], *y = op->inputs[2], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, cond, "condition", TA_BOOL, -1) ||
        !ta_expect_dtype(L, op, x, "x", TA_INT8, TA_INT16, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, y, "y", x->dtype, -1) ||
        !ta_expect_dtype(L, op, out, "output", x->dtype, -1))
        return false;
    const TaTensor *ins[3] = {cond, x, y};
    int rank = out->rank;
    for (int i = 0; i < 3; i++) {
        if (ins[i]->rank > rank) {
            ta_op_error(L, op, "input %s %s has more dimensions than output %s", ins[i]->id,
                        ta_shape_text(L->pool, ins[i]), ta_shape_text(L->pool, out));
            return false;
        }
    }
    for (int d = 0; d < rank; d++) {
        for (int i = 0; i < 3; i++) {
            const int32_t n = aligned_dim(ins[i], rank, d);
            if (n != 1 && n != out->dims[d]) {
                ta_op_error(L, op, "input %s %s does not broadcast to output %s", ins[i]->id,
                            ta_shape_text(L->pool, ins[i]), ta_shape_text(L->pool, out));
                return false;
            }
        }
    }
    /* The output keeps its dimensions unless every input has one of size 1
       there; those are exactly where the output's dimension is
       max(inputs'). */
    for (int d = 0; d < rank; d++) {
        int32_t widest = 1;
        for (int i = 0; i < 3; i++) {
            const int32_t n = aligned_dim(ins[i], rank, d);
            widest = n > widest ? n : widest;
        }
        if (widest != out->dims[d]) {
            ta_op_error(L, op, "output %s is not the inputs' broadcast shape",
                        ta_shape_text(L->pool, out));
            return false;
        }
    }
    TaKernelCall *c = ta_call(L, op, "ta_select", "runtime/kernels/ta_select.h");
    ta_select_params_t *p = TA_CALL_PARAMS(L, c, ta_select_params_t);
    p->elem_size = (int32_t)ta_dtype_size(x->dtype);
    for (int d = 0; d < rank; d++) {
        if (out->dims[d] == 1)
            continue;
        const int k = p->rank++;
        p->dims[k] = out->dims[d];
        p->condition_strides[k] = aligned_stride(cond, rank, d);
        p->x_strides[k] = aligned_stride(x, rank, d);
        p->y_strides[k] = aligned_stride(y, rank, d);
    }
    ta_call_arg(L, c, cond);
    ta_call_arg(L, c, x);
    ta_call_arg(L, c, y);
    ta_call_arg(L, c, out);
    return true;
}

const TaOpDef ta_op_select_v2 = {NULL, lower};
