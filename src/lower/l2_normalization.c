/*
 * l2_normalization.c - L2_NORMALIZATION on int8 and float32 over the last
 * dimension, rank 1 to 4, no fused activation, as TFLite Micro. int8
 * writes outputs in 1/128 steps with zero point 0 whatever the output
 * tensor's quantization says (TFLite Micro does not read it; LiteRT's
 * converter always sets 1/128 and 0).
 */
#include "../../runtime/kernels/ta_l2_normalization_f32.h"
#include "lower.h"

static bool parse(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    int *activation = ta_alloc(L->pool, sizeof *activation);
    *activation = ta_fb_i8(t, 0, TA_ACT_NONE);
    op->attrs = activation;
    return !r.failed;
}

static bool lower(TaLower *L, TaOp *op)
{
    const int activation = *(const int *)op->attrs;
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1))
        return false;
    bool same = in->rank >= 1 && in->rank <= 4 && out->rank == in->rank;
    for (int i = 0; i < in->rank && same; i++)
        same = in->dims[i] == out->dims[i];
    if (!same) {
        ta_op_error(L, op, "input %s and output %s must have one shape of rank 1 to 4",
                    ta_shape_text(L->pool, in), ta_shape_text(L->pool, out));
        return false;
    }
    if (activation != TA_ACT_NONE) {
        ta_op_error(L, op, "fused activation %d is not supported (TFLite Micro needs NONE)",
                    activation);
        return false;
    }
    const bool is_float = in->dtype == TA_FLOAT32;
    if (!is_float && !ta_expect_per_tensor(L, op, in, "input"))
        return false;
    const int32_t zero_point = is_float ? 0 : ta_zero_point(in);
    if (zero_point < INT8_MIN || zero_point > INT8_MAX) {
        ta_op_error(L, op, "input zero point %d is outside int8", (int)zero_point);
        return false;
    }
    const int64_t depth = in->dims[in->rank - 1];
    if ((int64_t)ta_tensor_elements(in) > INT32_MAX || depth > (1 << 15)) {
        ta_op_error(L, op, "input %s is too large (rows of at most 32768)",
                    ta_shape_text(L->pool, in));
        return false;
    }
    if (ta_tensor_elements(out) == 0)
        return true;
    TaKernelCall *c = ta_call(L, op,
                              is_float ? "ta_l2_normalization_f32" : "ta_l2_normalization_s8",
                              is_float ? "runtime/kernels/ta_l2_normalization_f32.h"
                                       : "runtime/kernels/ta_l2_normalization.h");
    ta_l2_normalization_params_t *p = TA_CALL_PARAMS(L, c, ta_l2_normalization_params_t);
    p->rows = (int32_t)(ta_tensor_elements(in) / depth);
    p->depth = (int32_t)depth;
    p->input_zero_point = zero_point;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    return true;
}

const TaOpDef ta_op_l2_normalization = {parse, lower};
