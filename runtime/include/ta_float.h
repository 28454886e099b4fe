/*
 * ta_float.h - what the float32 kernels share: the fused activation's clamp
 * exactly as TFLite's ActivationFunctionWithMinMax, min(max(x, lo), hi) with
 * std::max/std::min's comparisons. The order matters bit for bit: a NaN
 * passes through, -0.0 stays -0.0 under RELU (it is not below 0), and with
 * no activation the bounds are -FLT_MAX/FLT_MAX, so +-inf become +-FLT_MAX.
 *
 * ta_sigmoid_f32 is reference_ops::Logistic on one float, used by LOGISTIC
 * and by the LSTM's gates.
 *
 * Modules with float kernels are built with -ffp-contract=off (the build
 * files say so): a fused multiply-add would round differently from TFLite
 * Micro's reference kernels.
 */
#ifndef TA_FLOAT_H
#define TA_FLOAT_H

#include <math.h>

static inline float ta_activation_f32(float x, float lo, float hi)
{
    const float y = x < lo ? lo : x; /* std::max(x, lo) */
    return hi < y ? hi : y;          /* std::min(y, hi) */
}

static inline float ta_sigmoid_f32(float x)
{
    /* The reference's cut-offs, where its float result saturates. */
    if (x > 16.619047164916992188f)
        return 1.0f;
    if (x < -9.0f)
        return expf(x);
    return 1.0f / (1.0f + expf(-x));
}

#endif /* TA_FLOAT_H */
