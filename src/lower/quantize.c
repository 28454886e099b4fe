/*
 * quantize.c - QUANTIZE: float32 -> int8/int16, or requantization from
 * int8/int16 to int8/int16/int32 scales.
 */
#include "../../runtime/kernels/ta_quantize.h"
#include "lower.h"

static bool lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_FLOAT32, TA_INT8, TA_INT16, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_INT8, TA_INT16,
                         in->dtype == TA_FLOAT32 ? -1 : TA_INT32, -1) ||
        !ta_expect_per_tensor(L, op, out, "output"))
        return false;
    if (ta_tensor_elements(in) != ta_tensor_elements(out)) {
        ta_op_error(L, op, "input and output sizes differ");
        return false;
    }
    static const char *names[2][3] = {
        {"ta_requantize_s8_s8", "ta_requantize_s8_s16", "ta_requantize_s8_s32"},
        {"ta_requantize_s16_s8", "ta_requantize_s16_s16", "ta_requantize_s16_s32"}};
    const char *fn;
    int32_t multiplier = 0;
    int shift = 0;
    if (in->dtype == TA_FLOAT32) {
        fn = out->dtype == TA_INT8 ? "ta_quantize_f32_s8" : "ta_quantize_f32_s16";
    } else {
        if (!ta_expect_per_tensor(L, op, in, "input"))
            return false;
        const int out_kind = out->dtype == TA_INT8 ? 0 : (out->dtype == TA_INT16 ? 1 : 2);
        fn = names[in->dtype == TA_INT16][out_kind];
        ta_quantize_multiplier((double)ta_scale(in) / (double)ta_scale(out), &multiplier, &shift);
    }
    TaKernelCall *c = ta_call(L, op, fn, "runtime/kernels/ta_quantize.h");
    ta_quantize_params_t *p = TA_CALL_PARAMS(L, c, ta_quantize_params_t);
    p->size = (int64_t)ta_tensor_elements(out);
    p->scale = (double)ta_scale(out);
    p->input_zero_point = ta_zero_point(in);
    p->output_zero_point = ta_zero_point(out);
    p->multiplier = multiplier;
    p->shift = shift;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

const TaOpDef ta_op_quantize = {NULL, lower};
