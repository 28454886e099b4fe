/*
 * prelu.c - PRELU, int8 or int16 input and output with an int8 alpha
 * (per-tensor, as TFLite Micro requires for int16), alpha broadcast
 * against the input with numpy rules, any rank.
 *
 * Produces the broadcast as collapsed dimensions with element strides for
 * the input and alpha (see runtime/kernels/ta_prelu.h, whose maximum rank
 * is TA_MAX_RANK).
 */
#include "../../runtime/kernels/ta_prelu.h"
#include "common/binary_f32.h"
#include "lower.h"

/* Dimension i of `t` counted from the right, 1 past its rank. */
static int32_t dim_from_right(const TaTensor *t, int i)
{
    return i < t->rank ? t->dims[t->rank - 1 - i] : 1;
}

static bool lower(TaLower *L, TaOp *op)
{
    if (ta_binary_is_f32(op))
        return ta_lower_binary_f32(L, op, "ta_prelu_f32", TA_ACT_NONE);
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *in = op->inputs[0], *alpha = op->inputs[1], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_INT16, -1) ||
        !ta_expect_dtype(L, op, alpha, "alpha", TA_INT8, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1) ||
        !ta_expect_per_tensor(L, op, in, "input") || !ta_expect_per_tensor(L, op, alpha, "alpha") ||
        !ta_expect_per_tensor(L, op, out, "output"))
        return false;

    /* Broadcast shape check and strides, innermost dimension first. */
    const int rank = out->rank > in->rank ? (out->rank > alpha->rank ? out->rank : alpha->rank)
                                          : (in->rank > alpha->rank ? in->rank : alpha->rank);
    int32_t dims[TA_MAX_RANK], in_strides[TA_MAX_RANK], a_strides[TA_MAX_RANK];
    int n = 0;
    int32_t in_acc = 1, a_acc = 1;
    for (int i = 0; i < rank; i++) {
        const int32_t di = dim_from_right(in, i), da = dim_from_right(alpha, i);
        const int32_t d = dim_from_right(out, i);
        if ((di != d && di != 1) || (da != d && da != 1) || d != (di > da ? di : da)) {
            ta_op_error(L, op, "output %s is not the broadcast of input %s and alpha %s",
                        ta_shape_text(L->pool, out), ta_shape_text(L->pool, in),
                        ta_shape_text(L->pool, alpha));
            return false;
        }
        if (d == 0) {
            ta_op_error(L, op, "empty tensors are not supported");
            return false;
        }
        const int32_t si = di == 1 ? 0 : in_acc, sa = da == 1 ? 0 : a_acc;
        in_acc *= di;
        a_acc *= da;
        if (d == 1)
            continue;
        /* Merge into the previous (inner) dimension when both operands
           continue contiguously or both stay broadcast. */
        if (n > 0 && si == in_strides[n - 1] * dims[n - 1] &&
            sa == a_strides[n - 1] * dims[n - 1]) {
            dims[n - 1] *= d;
            continue;
        }
        dims[n] = d;
        in_strides[n] = si;
        a_strides[n] = sa;
        n++;
    }
    if (n == 0) {
        dims[0] = 1;
        in_strides[0] = a_strides[0] = 0;
        n = 1;
    }
    const double in_scale = ta_scale(in), a_scale = ta_scale(alpha), out_scale = ta_scale(out);
    int32_t m_identity, m_alpha;
    int s_identity, s_alpha;
    if (!ta_requant(L, op, "input-to-output", in_scale / out_scale, TA_SHIFT_MAX_INT32, &m_identity,
                    &s_identity) ||
        !ta_requant(L, op, "alpha", in_scale * a_scale / out_scale, TA_SHIFT_MAX_INT32, &m_alpha,
                    &s_alpha))
        return false;

    TaKernelCall *c = ta_call(L, op, in->dtype == TA_INT16 ? "ta_prelu_s16" : "ta_prelu_s8",
                              "runtime/kernels/ta_prelu.h");
    ta_prelu_params_t *p = TA_CALL_PARAMS(L, c, ta_prelu_params_t);
    p->rank = n;
    /* The kernel takes them outermost first. */
    _Static_assert(TA_PRELU_MAX_RANK >= TA_MAX_RANK, "a tensor's dimensions fit the kernel's");
    for (int k = 0; k < n; k++) {
        p->dims[k] = dims[n - 1 - k];
        p->input_strides[k] = in_strides[n - 1 - k];
        p->alpha_strides[k] = a_strides[n - 1 - k];
    }
    p->input_offset = -(int64_t)ta_zero_point(in);
    p->alpha_offset = -(int64_t)ta_zero_point(alpha);
    p->output_offset = ta_zero_point(out);
    p->multiplier_identity = m_identity;
    p->shift_identity = s_identity;
    p->multiplier_alpha = m_alpha;
    p->shift_alpha = s_alpha;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, alpha);
    ta_call_arg(L, c, out);
    return true;
}

const TaOpDef ta_op_prelu = {NULL, lower};
