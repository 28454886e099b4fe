/*
 * unary_int.c - ABS on int8 and int16 (quantized, or plain int16), as
 * TFLite Micro's elementwise kernel.
 *
 * TFLite Micro's Prepare rescales only when the two float scales differ,
 * with QuantizeMultiplier of input_scale / output_scale (in double, as
 * the oracle; the source divides in float);
 * int16 needs zero points 0. Its float32 ABS is not done here.
 */
#include "../../runtime/kernels/ta_abs.h"
#include "lower.h"

static bool has_quantization(const TaTensor *t)
{
    return t->quant && (t->quant->num_scales > 0 || t->quant->num_zero_points > 0);
}

/* One input and one output of the same int8/int16 dtype and size; float32
   gets the reason it is refused. */
static bool expect_operands(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    const TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (in->dtype == TA_FLOAT32) {
        ta_op_error(L, op, "float32 input is not supported yet (tinyaot does int8 and int16)");
        return false;
    }
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_INT16, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1))
        return false;
    if (ta_tensor_elements(in) != ta_tensor_elements(out)) {
        ta_op_error(L, op, "input and output sizes differ");
        return false;
    }
    return true;
}

/* int16 without quantization on either side: TFLite's plain |x|. */
static bool lower_plain_int16(TaLower *L, TaOp *op)
{
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (has_quantization(out)) {
        ta_op_error(L, op, "output (tensor %s) is quantized but the int16 input is not",
                    out->id);
        return false;
    }
    TaKernelCall *c = ta_call(L, op, "ta_abs_i16_plain", "runtime/kernels/ta_abs.h");
    ta_abs_params_t *p = TA_CALL_PARAMS(L, c, ta_abs_params_t);
    p->size = (int32_t)ta_tensor_elements(out);
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

static bool lower_abs(TaLower *L, TaOp *op)
{
    if (!expect_operands(L, op))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (in->dtype == TA_INT16 && !has_quantization(in))
        return lower_plain_int16(L, op);
    if (!ta_expect_per_tensor(L, op, in, "input") || !ta_expect_per_tensor(L, op, out, "output"))
        return false;
    const int32_t in_zp = ta_zero_point(in), out_zp = ta_zero_point(out);
    int32_t lo, hi;
    ta_dtype_range(in->dtype, &lo, &hi);
    if (in_zp < lo || in_zp > hi || out_zp < lo || out_zp > hi) {
        ta_op_error(L, op, "zero points %d and %d are outside the dtype's range", (int)in_zp,
                    (int)out_zp);
        return false;
    }
    if (in->dtype == TA_INT16 && (in_zp != 0 || out_zp != 0)) {
        ta_op_error(L, op, "int16 needs zero points 0, they are %d and %d", (int)in_zp,
                    (int)out_zp);
        return false;
    }
    const float in_scale = ta_scale(in), out_scale = ta_scale(out);
    TaKernelCall *c = ta_call(L, op, in->dtype == TA_INT16 ? "ta_abs_s16" : "ta_abs_s8",
                              "runtime/kernels/ta_abs.h");
    ta_abs_params_t *p = TA_CALL_PARAMS(L, c, ta_abs_params_t);
    p->size = (int32_t)ta_tensor_elements(out);
    p->input_zero_point = in_zp;
    p->output_zero_point = out_zp;
    if (in_scale != out_scale) {
        int shift;
        p->rescale = 1;
        /* In double: the oracle (tflite-micro from PyPI) divides the widened
           scales; the source's float division differs on int16 inputs. */
        ta_quantize_multiplier((double)in_scale / (double)out_scale, &p->multiplier, &shift);
        p->shift = shift;
    }
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

const TaOpDef ta_op_abs = {NULL, lower_abs};
