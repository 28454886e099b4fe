/*
 * quant.c - quantization parameters computed at conversion time, with the
 * same floating-point steps TFLite's Prepare functions take, so the
 * integers the kernels use are the ones TFLite Micro computes on device.
 */
#include "../lower.h"

#include <math.h>

const char *ta_activation_name(int act)
{
    static const char *names[] = {"NONE", "RELU", "RELU_N1_TO_1", "RELU6", "TANH", "SIGN_BIT"};
    return act >= 0 && act < (int)TA_COUNT_OF(names) ? names[act] : "UNKNOWN";
}

void ta_quantize_multiplier(double m, int32_t *multiplier, int *shift)
{
    if (m == 0.0) {
        *multiplier = 0;
        *shift = 0;
        return;
    }
    int exp;
    const double fraction = frexp(m, &exp);
    int64_t q = (int64_t)round(fraction * (double)(1LL << 31));
    if (q == (1LL << 31)) {
        q /= 2;
        exp++;
    }
    if (exp < -31) { /* too small to matter: flush to zero */
        exp = 0;
        q = 0;
    }
    *multiplier = (int32_t)q;
    *shift = exp;
}

bool ta_requant(TaLower *L, TaOp *op, const char *what, double real, int max_shift,
                int32_t *multiplier, int *shift)
{
    ta_quantize_multiplier(real, multiplier, shift);
    if (*shift <= max_shift)
        return true;
    ta_op_error(L, op,
                "the %s rescale factor %g needs a left shift of %d bits; the integer kernels "
                "compute at most %d exactly (the scales are too far apart)",
                what, real, *shift, max_shift);
    return false;
}

void ta_dtype_range(TaDtype dtype, int32_t *lo, int32_t *hi)
{
    switch (dtype) {
    case TA_INT8:
        *lo = INT8_MIN;
        *hi = INT8_MAX;
        return;
    case TA_UINT8:
        *lo = 0;
        *hi = UINT8_MAX;
        return;
    case TA_INT16:
        *lo = INT16_MIN;
        *hi = INT16_MAX;
        return;
    default:
        *lo = INT32_MIN;
        *hi = INT32_MAX;
        return;
    }
}

/* zero_point + round(f / scale) in float, as TFLite's activation Quantize. */
static bool quantize_value(float scale, int32_t zero_point, float f, int32_t *q)
{
    const float tmp = roundf(f / scale);
    if (!(tmp >= -2147483648.0f && tmp <= 2147483520.0f))
        return false;
    *q = zero_point + (int32_t)tmp;
    return true;
}

/* The clamp range of one activation on `out`; false (and an error) if not
   expressible. */
static bool one_range(TaLower *L, TaOp *op, int act, const TaTensor *out, int32_t *lo, int32_t *hi)
{
    int32_t qmin, qmax;
    ta_dtype_range(out->dtype, &qmin, &qmax);
    const float scale = ta_scale(out);
    const int32_t zp = ta_zero_point(out);
    int32_t a = qmin, b = qmax;
    bool ok = true;
    switch (act) {
    case TA_ACT_NONE: break;
    case TA_ACT_RELU: ok = quantize_value(scale, zp, 0.0f, &a); break;
    case TA_ACT_RELU6:
        ok = quantize_value(scale, zp, 0.0f, &a) && quantize_value(scale, zp, 6.0f, &b);
        break;
    case TA_ACT_RELU_N1_TO_1:
        ok = quantize_value(scale, zp, -1.0f, &a) && quantize_value(scale, zp, 1.0f, &b);
        break;
    default:
        ta_op_error(L, op, "fused activation %s is not supported on quantized outputs",
                    ta_activation_name(act));
        return false;
    }
    if (!ok) {
        ta_op_error(L, op, "fused activation %s overflows the output's quantization",
                    ta_activation_name(act));
        return false;
    }
    *lo = a > qmin ? a : qmin;
    *hi = b < qmax ? b : qmax;
    return true;
}

bool ta_activation_range(TaLower *L, TaOp *op, int act, const TaTensor *out, int32_t *lo,
                         int32_t *hi)
{
    if (!one_range(L, op, act, out, lo, hi))
        return false;
    /* A standalone activation FUSE_ACTIVATIONS folded into this operator
       clamps the same output again: keep the narrower bounds. */
    int32_t flo, fhi;
    if (op->rewrites.folded_activation == TA_ACT_NONE ||
        !one_range(L, op, op->rewrites.folded_activation, out, &flo, &fhi))
        return op->rewrites.folded_activation == TA_ACT_NONE;
    *lo = flo > *lo ? flo : *lo;
    *hi = fhi < *hi ? fhi : *hi;
    return true;
}
