/*
 * float_activation.c - a fused activation's clamp on a float32 output, as
 * TFLite's CalculateActivationRange<float>: NONE -> [-FLT_MAX, FLT_MAX],
 * RELU -> [0, FLT_MAX], RELU6 -> [0, 6], RELU_N1_TO_1 -> [-1, 1]. The
 * kernels apply it with ta_activation_f32 (runtime/include/ta_float.h).
 */
#include "../lower.h"

#include <float.h>

static bool one_range(TaLower *L, TaOp *op, int act, float *lo, float *hi)
{
    switch (act) {
    case TA_ACT_NONE: *lo = -FLT_MAX, *hi = FLT_MAX; return true;
    case TA_ACT_RELU: *lo = 0.0f, *hi = FLT_MAX; return true;
    case TA_ACT_RELU6: *lo = 0.0f, *hi = 6.0f; return true;
    case TA_ACT_RELU_N1_TO_1: *lo = -1.0f, *hi = 1.0f; return true;
    default:
        /* TFLite treats TANH and SIGN_BIT as no clamp here; a converter never
           fuses them, so refusing is safer than guessing. */
        ta_op_error(L, op, "fused activation %s is not supported on float32 outputs",
                    ta_activation_name(act));
        return false;
    }
}

bool ta_float_activation_range(TaLower *L, TaOp *op, int act, float *lo, float *hi)
{
    if (!one_range(L, op, act, lo, hi))
        return false;
    /* A standalone activation folded into this operator: the narrower
       bounds (clamping twice gives the same bits). */
    float flo, fhi;
    if (op->rewrites.folded_activation == TA_ACT_NONE)
        return true;
    if (!one_range(L, op, op->rewrites.folded_activation, &flo, &fhi))
        return false;
    *lo = flo > *lo ? flo : *lo;
    *hi = fhi < *hi ? fhi : *hi;
    return true;
}
