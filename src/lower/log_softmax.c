/*
 * log_softmax.c - LOG_SOFTMAX over the last dimension, int8 in and out
 * with TFLite's fixed output quantization (16/256, 127) and beta 1, and
 * float32 in and out (TFLite's float loop).
 */
#include "../../runtime/kernels/ta_log_softmax.h"
#include "../../runtime/kernels/ta_log_softmax_f32.h"
#include "lower.h"

#include <math.h>

enum { SCALED_DIFF_BITS = 5 };

/* float32: TFLite's float reference loop (ta_log_softmax_f32.h). */
static bool lower_f32(TaLower *L, TaOp *op, TaTensor *in, TaTensor *out)
{
    const int32_t depth = in->dims[in->rank - 1];
    TaKernelCall *c = ta_call(L, op, "ta_log_softmax_f32", "runtime/kernels/ta_log_softmax_f32.h");
    ta_log_softmax_f32_params_t *p = TA_CALL_PARAMS(L, c, ta_log_softmax_f32_params_t);
    p->outer_size = depth ? (int64_t)(ta_tensor_elements(in) / (size_t)depth) : 0;
    p->depth = depth;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

static bool lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1))
        return false;
    bool same = in->rank == out->rank && in->rank >= 1;
    for (int d = 0; same && d < in->rank; d++)
        same = in->dims[d] == out->dims[d];
    if (!same) {
        ta_op_error(L, op, "input %s and output %s shapes differ", ta_shape_text(L->pool, in),
                    ta_shape_text(L->pool, out));
        return false;
    }
    if (in->dtype == TA_FLOAT32)
        return lower_f32(L, op, in, out);
    if (!ta_expect_per_tensor(L, op, in, "input") || !ta_expect_per_tensor(L, op, out, "output"))
        return false;
    if (ta_scale(out) != 16.0f / 256 || ta_zero_point(out) != 127) {
        ta_op_error(L, op, "output must be quantized with scale 16/256 and zero point 127");
        return false;
    }
    /* PreprocessLogSoftmaxScalingExp with beta 1: differences go to Q5.26;
       the multiplier is capped below 2^31 and must exceed 1. */
    double real = 1.0 * (double)ta_scale(in) * (double)(1 << (31 - SCALED_DIFF_BITS));
    if (real > 2147483647.0)
        real = 2147483647.0;
    if (!(real > 1.0)) {
        ta_op_error(L, op, "input scale %g is too small for the integer log-softmax",
                    (double)ta_scale(in));
        return false;
    }
    int32_t multiplier;
    int shift;
    ta_quantize_multiplier(real, &multiplier, &shift);
    /* The inverse of that scaling, to map the log-sum back to input units;
       it must be below 1. */
    const double reverse = (double)(1LL << (31 - shift)) / (double)multiplier;
    int32_t reverse_multiplier;
    int reverse_shift;
    ta_quantize_multiplier(reverse, &reverse_multiplier, &reverse_shift);
    if (!(reverse > 0.0 && reverse < 1.0) || reverse_shift > 0) {
        ta_op_error(L, op, "input scale %g gives no reverse scaling below 1", (double)ta_scale(in));
        return false;
    }
    /* The largest difference that still contributes (CalculateInputRadius). */
    const double radius = 1.0 * ((1 << SCALED_DIFF_BITS) - 1) *
                          (double)(1LL << (31 - SCALED_DIFF_BITS)) / (double)(1LL << shift);

    const int32_t depth = in->dims[in->rank - 1];
    TaKernelCall *c = ta_call(L, op, "ta_log_softmax_s8", "runtime/kernels/ta_log_softmax.h");
    ta_log_softmax_params_t *p = TA_CALL_PARAMS(L, c, ta_log_softmax_params_t);
    p->outer_size = depth ? (int64_t)(ta_tensor_elements(in) / (size_t)depth) : 0;
    p->depth = depth;
    p->input_multiplier = multiplier;
    p->input_left_shift = shift;
    p->reverse_scaling_divisor = reverse_multiplier;
    p->reverse_scaling_right_shift = -reverse_shift;
    p->diff_min = -(int32_t)floor(radius);
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0);
    return true;
}

const TaOpDef ta_op_log_softmax = {NULL, lower};
