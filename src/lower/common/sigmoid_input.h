/*
 * sigmoid_input.h - the input scaling LOGISTIC and TANH share, as TFLite
 * Micro's Prepare functions compute it (private to logistic.c, tanh.c).
 */
#ifndef TA_SIGMOID_INPUT_H
#define TA_SIGMOID_INPUT_H

#include "../lower.h"

#include <math.h>

/* int8: the input scale as a multiplier into Q4.27 (frexp of the real
   multiplier, not QuantizeMultiplier) and the radius beyond which the
   output saturates (CalculateInputRadius). */
static inline bool ta_sigmoid_input_s8(TaLower *L, TaOp *op, const TaTensor *in,
                                       int32_t *multiplier, int32_t *shift, int32_t *radius)
{
    const double real = (double)ta_scale(in) * (double)(1 << 27);
    int exp;
    const double q = frexp(real, &exp);
    const double m = round(q * (double)(1LL << 31));
    if (exp < 0 || exp > 62 || !(m < 2147483648.0)) {
        ta_op_error(L, op, "input scale %g is out of the range the int8 kernel handles",
                    (double)ta_scale(in));
        return false;
    }
    *multiplier = (int32_t)m;
    *shift = exp;
    *radius = (int32_t)floor(15.0 * (double)(1LL << 27) / (double)(1LL << exp));
    return true;
}

/* log2(x) when x is a power of two within 1e-3 (TFLite's CheckedLog2, in
   float). */
static inline bool ta_sigmoid_checked_log2(float x, int *log2_result)
{
    const float l = logf(x) * (1.0f / logf(2.0f));
    const float r = roundf(l);
    *log2_result = (int)r;
    return fabsf(l - r) < 1e-3f;
}

/* int16: zero points 0, output scale 2^-15; the input goes to scale
   1/(3 * 4096) as input * multiplier >> shift. Power-of-two input scales
   whose shift from 2^-12 is 0 .. max_pot_shift use multiplier 3 << shift
   and no shift (TFLite's exact path; LOGISTIC allows 0, TANH 0 and 1). */
static inline bool ta_sigmoid_input_s16(TaLower *L, TaOp *op, const TaTensor *in,
                                        const TaTensor *out, int max_pot_shift, int32_t *multiplier,
                                        int32_t *shift)
{
    if (ta_zero_point(in) != 0 || ta_zero_point(out) != 0) {
        ta_op_error(L, op, "int16 input and output need zero point 0");
        return false;
    }
    int out_log2;
    if (!ta_sigmoid_checked_log2(ta_scale(out), &out_log2) || out_log2 != -15) {
        ta_op_error(L, op, "int16 output scale must be 2^-15, it is %g", (double)ta_scale(out));
        return false;
    }
    int in_log2;
    const bool pot = ta_sigmoid_checked_log2(ta_scale(in), &in_log2);
    const int pot_shift = 12 + in_log2;
    if (pot && pot_shift >= 0 && pot_shift <= max_pot_shift) {
        *multiplier = 3 << pot_shift;
        *shift = 0;
        return true;
    }
    /* Double the multiplier until it has 15 significant bits. */
    double m = (double)ta_scale(in) * 4096.0 * 3.0;
    int s = 0;
    while (m <= 32767.0 / 2.0 && s <= 30) {
        s++;
        m *= 2.0;
    }
    if (!(m >= 1.0 && m <= 32767.0)) {
        ta_op_error(L, op, "input scale %g is out of the range the int16 kernel handles",
                    (double)ta_scale(in));
        return false;
    }
    *multiplier = (int32_t)m;
    *shift = s;
    return true;
}

/* What differs between LOGISTIC and TANH. */
typedef struct TaSigmoidLike {
    int tanh;             /* 0: logistic, 1: tanh (input scaling) */
    float int8_out_scale; /* the int8 output quantization the kernel assumes */
    int32_t int8_out_zero_point;
} TaSigmoidLike;

/* The parameters both kernels take (their structs have these fields). */
typedef struct TaSigmoidInput {
    bool wide; /* int16 */
    int32_t size;
    int32_t input_zero_point;
    int32_t input_range_radius;
    int32_t input_multiplier;
    int32_t input_left_shift;
} TaSigmoidInput;

/* Checks LOGISTIC or TANH (int8, or int16 with zero points 0 and output
   2^-15) and computes its kernel's parameters. */
bool ta_sigmoid_like_input(TaLower *L, TaOp *op, const TaSigmoidLike *k, TaSigmoidInput *s);

/* int8: the kernel's 256-entry output table, as a local constant of the
   op (NULL for int16, whose kernel interpolates a fixed table). */
TaTensor *ta_sigmoid_like_table(TaLower *L, TaOp *op, const TaSigmoidLike *k,
                                const TaSigmoidInput *s);

/* The whole lowering of either operator: checks, params, the kernel call
   (fn_s8 or fn_s16, declared in header) and its arguments. */
bool ta_sigmoid_like_lower(TaLower *L, TaOp *op, const TaSigmoidLike *k, const char *fn_s8,
                           const char *fn_s16, const char *header);

#endif /* TA_SIGMOID_INPUT_H */
