/*
 * arg_min_max.c - ARG_MAX and ARG_MIN: int8 input with int32 or int64
 * output, float32 input with int32 output (as the output tensor says,
 * which is what TFLite Micro follows; the options' output_type is not
 * read), along one constant axis (negative counts from the end). The axis
 * operand is read here and not passed to the kernel.
 *
 * TFLite Micro itself only accepts an int32 axis and an int32 output; the
 * int8 int64 forms follow LiteRT (same algorithm, wider index). float32
 * keeps to TFLite Micro's form.
 */
#include "../../runtime/kernels/ta_arg_min_max.h"
#include "../../runtime/kernels/ta_arg_min_max_f32.h"
#include "lower.h"

#include <string.h>

static bool lower_arg(TaLower *L, TaOp *op, bool is_max)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *in = op->inputs[0], *axis = op->inputs[1], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, axis, "axis", TA_INT32, TA_INT64, -1) ||
        !ta_expect_constant(L, op, axis, "axis") ||
        !ta_expect_dtype(L, op, out, "output", TA_INT32, TA_INT64, -1))
        return false;
    if (ta_tensor_elements(axis) != 1) {
        ta_op_error(L, op, "axis must hold one value, it holds %zu", ta_tensor_elements(axis));
        return false;
    }
    int64_t v;
    if (axis->dtype == TA_INT64) {
        memcpy(&v, axis->data, 8);
    } else {
        int32_t v32;
        memcpy(&v32, axis->data, 4);
        v = v32;
    }
    const int64_t ax = v < 0 ? v + in->rank : v;
    if (in->rank < 1 || ax < 0 || ax >= in->rank) {
        ta_op_error(L, op, "axis %lld is out of range for input %s", (long long)v,
                    ta_shape_text(L->pool, in));
        return false;
    }
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < in->rank; d++) {
        if (d < ax)
            outer *= in->dims[d];
        else if (d > ax)
            inner *= in->dims[d];
    }
    if (ta_tensor_elements(in) == 0 || ta_tensor_elements(in) > INT32_MAX) {
        ta_op_error(L, op, "input %s is empty or too large", ta_shape_text(L->pool, in));
        return false;
    }
    if ((int64_t)ta_tensor_elements(out) != outer * inner) {
        ta_op_error(L, op, "output %s does not match input %s reduced along axis %lld",
                    ta_shape_text(L->pool, out), ta_shape_text(L->pool, in), (long long)ax);
        return false;
    }
    const bool wide = out->dtype == TA_INT64, is_float = in->dtype == TA_FLOAT32;
    if (is_float && (wide || axis->dtype != TA_INT32)) {
        ta_op_error(L, op,
                    "float32 input needs an int32 axis and an int32 output (TFLite Micro's "
                    "only float32 form)");
        return false;
    }
    const char *fn = is_float ? (is_max ? "ta_arg_max_f32_i32" : "ta_arg_min_f32_i32")
                     : is_max ? (wide ? "ta_arg_max_s8_i64" : "ta_arg_max_s8_i32")
                              : (wide ? "ta_arg_min_s8_i64" : "ta_arg_min_s8_i32");
    TaKernelCall *c = ta_call(L, op, fn,
                              is_float ? "runtime/kernels/ta_arg_min_max_f32.h"
                                       : "runtime/kernels/ta_arg_min_max.h");
    ta_arg_min_max_params_t *p = TA_CALL_PARAMS(L, c, ta_arg_min_max_params_t);
    p->outer = outer;
    p->axis_size = in->dims[ax];
    p->inner = inner;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    return true;
}

static bool lower_max(TaLower *L, TaOp *op)
{
    return lower_arg(L, op, true);
}

static bool lower_min(TaLower *L, TaOp *op)
{
    return lower_arg(L, op, false);
}

const TaOpDef ta_op_arg_max = {NULL, lower_max};
const TaOpDef ta_op_arg_min = {NULL, lower_min};
