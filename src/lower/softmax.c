/*
 * softmax.c - SOFTMAX over the last dimension; int8 input, int8 or int16
 * output with TFLite's fixed output quantization.
 */
#include "lower.h"

#include <math.h>

typedef struct SoftmaxAttrs {
    float beta;
} SoftmaxAttrs;

static bool parse(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    SoftmaxAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->beta = ta_fb_f32(t, 0, 0.0f);
    op->attrs = a;
    return !r.failed;
}

static bool lower(TaLower *L, TaOp *op)
{
    const SoftmaxAttrs *a = op->attrs;
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_INT8, TA_INT16, -1) ||
        !ta_expect_per_tensor(L, op, in, "input") || !ta_expect_per_tensor(L, op, out, "output"))
        return false;
    if (in->rank < 1 || ta_tensor_elements(in) != ta_tensor_elements(out)) {
        ta_op_error(L, op, "input and output shapes differ");
        return false;
    }
    const bool out16 = out->dtype == TA_INT16;
    const float want_scale = out16 ? 1.0f / 65536 : 1.0f / 256;
    const int32_t want_zp = out16 ? -32768 : -128;
    if (ta_zero_point(out) != want_zp ||
        (out16 ? fabsf(ta_scale(out) - want_scale) > 0.001f * want_scale
               : ta_scale(out) != want_scale)) {
        ta_op_error(L, op, "output must be quantized with scale 1/%d and zero point %d",
                    out16 ? 65536 : 256, (int)want_zp);
        return false;
    }
    /* Input differences are scaled into Q5.26 (5 integer bits). */
    const int bits = 5;
    double real = (double)a->beta * (double)ta_scale(in) * (double)(1 << (31 - bits));
    if (real > (double)((1LL << 31) - 1))
        real = (double)((1LL << 31) - 1);
    if (!(real > 1.0)) {
        ta_op_error(L, op, "beta * input scale %g is too small for the integer softmax",
                    (double)a->beta * (double)ta_scale(in));
        return false;
    }
    int32_t multiplier;
    int left_shift;
    ta_quantize_multiplier(real, &multiplier, &left_shift);
    /* The largest input difference that still contributes, as TFLite's
       CalculateInputRadius. */
    const double radius = 1.0 * ((1 << bits) - 1) * (double)(1LL << (31 - bits)) /
                          (double)(1LL << left_shift);
    const int32_t diff_min = -(int32_t)floor(radius);

    const int32_t depth = in->dims[in->rank - 1];
    TaKernelCall *c = ta_call(L, op, out16 ? "ta_softmax_s8_s16" : "ta_softmax_s8",
                              "runtime/kernels/ta_softmax.h", "ta_softmax_params_t");
    ta_call_int(L, c, "outer_size", depth ? (int64_t)(ta_tensor_elements(in) / (size_t)depth) : 0);
    ta_call_int(L, c, "depth", depth);
    ta_call_int(L, c, "input_multiplier", multiplier);
    ta_call_int(L, c, "input_left_shift", left_shift);
    ta_call_int(L, c, "diff_min", diff_min);
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    return true;
}

const TaOpDef ta_op_softmax = {25, "SOFTMAX", parse, lower};
