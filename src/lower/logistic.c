/*
 * logistic.c - LOGISTIC on int8 (output 1/256, -128) and int16 (zero
 * points 0, output 2^-15). The int16 kernel interpolates TFLite's fixed
 * sigmoid table (runtime/kernels/ta_sigmoid_table.c).
 */
#include "lower.h"
#include "sigmoid_input.h"

static bool lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_INT16, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1) ||
        !ta_expect_per_tensor(L, op, in, "input") || !ta_expect_per_tensor(L, op, out, "output"))
        return false;
    if (ta_tensor_elements(in) != ta_tensor_elements(out)) {
        ta_op_error(L, op, "input and output sizes differ");
        return false;
    }
    const bool wide = in->dtype == TA_INT16;
    int32_t multiplier, shift, radius = 0;
    if (wide) {
        if (!ta_sigmoid_input_s16(L, op, in, out, 0, &multiplier, &shift))
            return false;
    } else {
        /* TFLite checks only the zero point; the kernel assumes the scale. */
        if (ta_zero_point(out) != -128 || ta_scale(out) != 1.0f / 256) {
            ta_op_error(L, op, "int8 output must be quantized with scale 1/256 and zero point "
                        "-128");
            return false;
        }
        if (!ta_sigmoid_input_s8(L, op, in, &multiplier, &shift, &radius))
            return false;
    }
    TaKernelCall *c = ta_call(L, op, wide ? "ta_logistic_s16" : "ta_logistic_s8",
                              "runtime/kernels/ta_logistic.h", "ta_logistic_params_t");
    ta_call_int(L, c, "size", (int64_t)ta_tensor_elements(out));
    ta_call_int(L, c, "input_zero_point", ta_zero_point(in));
    ta_call_int(L, c, "input_range_radius", radius);
    ta_call_int(L, c, "input_multiplier", multiplier);
    ta_call_int(L, c, "input_left_shift", shift);
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

const TaOpDef ta_op_logistic = {14, "LOGISTIC", NULL, lower};
