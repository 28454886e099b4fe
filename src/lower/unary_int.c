/*
 * unary_int.c - ABS on int8 and int16 (quantized, or plain int16), RSQRT
 * on int8 and int16, ELU on int8, as TFLite Micro's elementwise and ELU
 * kernels. int8 RSQRT and ELU are functions of the input byte: their
 * tables are computed here with TFLite Micro's arithmetic and looked up
 * at run time; int16 RSQRT computes each element (ta_inv_sqrt.h).
 *
 * TFLite Micro's Prepare rescales only when the two float scales differ,
 * with QuantizeMultiplier of input_scale / output_scale (in double, as
 * the oracle; the source divides in float);
 * int16 needs zero points 0. float32 inputs go to the float kernels
 * (common/unary_f32.c).
 */
#include "../../runtime/include/ta_inv_sqrt.h"
#include "../../runtime/kernels/ta_abs.h"
#include "../../runtime/kernels/ta_lut.h"
#include "../../runtime/kernels/ta_rsqrt.h"
#include "common/unary_f32.h"
#include "lower.h"

#include <math.h>

static bool has_quantization(const TaTensor *t)
{
    return t->quant && (t->quant->num_scales > 0 || t->quant->num_zero_points > 0);
}

/* One input and one output of the same int8/int16 dtype and size. */
static bool expect_operands(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    const TaTensor *in = op->inputs[0], *out = op->outputs[0];
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
        ta_op_error(L, op, "output (tensor %s) is quantized but the int16 input is not", out->id);
        return false;
    }
    TaKernelCall *c = ta_call(L, op, "ta_abs_i16", "runtime/kernels/ta_abs.h");
    ta_abs_params_t *p = TA_CALL_PARAMS(L, c, ta_abs_params_t);
    p->size = (int32_t)ta_tensor_elements(out);
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

static bool lower_abs(TaLower *L, TaOp *op)
{
    if (ta_unary_is_f32(op))
        return ta_lower_unary_f32(L, op, "ta_abs_f32", 0.0f);
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
        if (!ta_requant(L, op, "input-to-output", (double)in_scale / (double)out_scale,
                        TA_SHIFT_MAX_INT32, &p->multiplier, &shift))
            return false;
        p->shift = shift;
    }
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

/* Calls the table kernel with a table indexed by the input byte. */
static void call_table(TaLower *L, TaOp *op, const int8_t table[256], int32_t input_min)
{
    TaKernelCall *c = ta_call(L, op, "ta_lut_s8", "runtime/kernels/ta_lut.h");
    ta_lut_params_t *p = TA_CALL_PARAMS(L, c, ta_lut_params_t);
    p->size = (int32_t)ta_tensor_elements(op->outputs[0]);
    p->input_min = input_min;
    ta_call_arg(L, c, op->inputs[0]);
    ta_call_arg(L, c, ta_local_constant(L, op, "table", TA_INT8, 256, table));
    ta_call_arg(L, c, op->outputs[0]);
    ta_allow_inplace(op, 0);
}

/* int8 only, per-tensor quantized on both sides. */
static bool expect_int8(TaLower *L, TaOp *op)
{
    if (!expect_operands(L, op))
        return false;
    const TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (in->dtype != TA_INT8) {
        ta_op_error(L, op, "int16 input is not supported: TFLite Micro has int8 only");
        return false;
    }
    if (!ta_expect_per_tensor(L, op, in, "input") || !ta_expect_per_tensor(L, op, out, "output"))
        return false;
    const int32_t in_zp = ta_zero_point(in), out_zp = ta_zero_point(out);
    if (in_zp < INT8_MIN || in_zp > INT8_MAX || out_zp < INT8_MIN || out_zp > INT8_MAX) {
        ta_op_error(L, op, "zero points %d and %d are outside int8", (int)in_zp, (int)out_zp);
        return false;
    }
    return true;
}

/* RSQRT's output multiplier, 1 / (sqrt(input_scale) * output_scale): the
   product in float as TFLite. */
static void rsqrt_multiplier(const TaOp *op, int32_t *multiplier, int *shift)
{
    const float denominator = sqrtf(ta_scale(op->inputs[0])) * ta_scale(op->outputs[0]);
    ta_quantize_multiplier(1.0 / (double)denominator, multiplier, shift);
}

/* int16 (the wheel runs it; the source's Prepare refuses it): zero points
   0, computed per element by the kernel, which fails on negative inputs. */
static bool lower_rsqrt_int16(TaLower *L, TaOp *op)
{
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!has_quantization(in)) {
        ta_op_error(L, op, "int16 input (tensor %s) is not quantized", in->id);
        return false;
    }
    if (!ta_expect_per_tensor(L, op, in, "input") || !ta_expect_per_tensor(L, op, out, "output"))
        return false;
    if (ta_zero_point(in) != 0 || ta_zero_point(out) != 0) {
        ta_op_error(L, op, "int16 needs zero points 0, they are %d and %d", (int)ta_zero_point(in),
                    (int)ta_zero_point(out));
        return false;
    }
    int shift;
    TaKernelCall *c = ta_call(L, op, "ta_rsqrt_s16", "runtime/kernels/ta_rsqrt.h");
    ta_rsqrt_params_t *p = TA_CALL_PARAMS(L, c, ta_rsqrt_params_t);
    p->size = (int32_t)ta_tensor_elements(out);
    rsqrt_multiplier(op, &p->multiplier, &shift);
    p->shift = shift;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

static bool lower_rsqrt(TaLower *L, TaOp *op)
{
    if (ta_unary_is_f32(op))
        return ta_lower_unary_f32(L, op, "ta_rsqrt_f32", 0.0f);
    if (!expect_operands(L, op))
        return false;
    if (op->inputs[0]->dtype == TA_INT16)
        return lower_rsqrt_int16(L, op);
    if (!expect_int8(L, op))
        return false;
    const TaTensor *in = op->inputs[0], *out = op->outputs[0];
    const int32_t in_zp = ta_zero_point(in), out_zp = ta_zero_point(out);
    int32_t multiplier;
    int shift;
    rsqrt_multiplier(op, &multiplier, &shift);
    int8_t table[256];
    for (int32_t q = INT8_MIN; q <= INT8_MAX; q++)
        table[(uint8_t)q] = (int8_t)(q < in_zp ? 0
                                               : ta_rsqrt_quantized(q - in_zp, multiplier, shift,
                                                                    out_zp, INT8_MIN, INT8_MAX));
    call_table(L, op, table, in_zp);
    return true;
}

static bool lower_elu(TaLower *L, TaOp *op)
{
    if (ta_unary_is_f32(op))
        return ta_lower_unary_f32(L, op, "ta_elu_f32", 0.0f);
    if (!expect_int8(L, op))
        return false;
    const TaTensor *in = op->inputs[0], *out = op->outputs[0];
    const int32_t in_zp = ta_zero_point(in), out_zp = ta_zero_point(out);
    const float in_scale = ta_scale(in), inverse_scale = 1.0f / ta_scale(out);
    int8_t table[256];
    /* TFLite Micro's PopulateLookupTable, in float: exp(x) - 1 below 0. */
    for (int32_t q = INT8_MIN; q <= INT8_MAX; q++) {
        const float x = in_scale * (float)(q - in_zp);
        const float y = x < 0.0f ? expf(x) - 1.0f : x;
        const float rescaled = roundf(y * inverse_scale);
        const int32_t quantized = (int32_t)(rescaled + (float)out_zp);
        table[(uint8_t)q] = (int8_t)ta_clamp_i32(quantized, INT8_MIN, INT8_MAX);
    }
    call_table(L, op, table, INT8_MIN);
    return true;
}

const TaOpDef ta_op_abs = {NULL, lower_abs};
const TaOpDef ta_op_elu = {NULL, lower_elu};
const TaOpDef ta_op_rsqrt = {NULL, lower_rsqrt};
