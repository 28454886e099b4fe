/*
 * ta_unary_f32.h - elementwise float32 operators, each computing what
 * TFLite Micro's float reference kernel computes per element:
 *   RELU max(x, 0) and RELU6 min(max(x, 0), 6) with the reference's
 *     comparisons (-0.0 and NaN pass through); LEAKY_RELU x > 0 ? x : x *
 *     alpha; HARD_SWISH x * min(6, max(0, x + 3)) / 6;
 *   LOGISTIC 1 / (1 + exp(-x)), with exp(x) below -9 and 1 above
 *     16.619047; TANH tanh(x); ELU x < 0 ? expm1(x) : x;
 *   EXP, LOG, SQRT, SIN, COS, FLOOR, CEIL, ABS: the C library's float
 *     functions (expf, logf, ...), the ones std::exp(float) etc. call;
 *   RSQRT 1 / sqrtf(x); SQUARE x * x; NEG -x; ROUND to nearest, ties to
 *     even, computed from floorf as the reference does.
 * The transcendental ones (exp, log, tanh, expm1, sin, cos) are only as
 * exact as the target's C library: bit-exact with TFLite Micro where
 * both use the same libm (docs/float32.md says what is tested where).
 */
#ifndef TA_UNARY_F32_H
#define TA_UNARY_F32_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_UNARY_F32_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, size)                              \
    FIELD(float, alpha) /* LEAKY_RELU only */
typedef struct {
    TA_PARAM_MEMBERS(TA_UNARY_F32_PARAMS)
} ta_unary_f32_params_t;

int ta_abs_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_ceil_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_cos_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_elu_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_exp_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_floor_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_hard_swish_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_leaky_relu_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_log_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_logistic_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_neg_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_relu_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_relu6_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_round_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_rsqrt_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_sin_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_sqrt_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_square_f32(const ta_unary_f32_params_t *p, const float *input, float *output);
int ta_tanh_f32(const ta_unary_f32_params_t *p, const float *input, float *output);

#endif /* TA_UNARY_F32_H */
