/* ta_unary_f32.c - float32 elementwise kernels; see the header.
 *
 * Each element is read before its output is written, so the output may
 * share the input's bytes. */
#include "ta_unary_f32.h"

#include <math.h>

#include "../include/ta_float.h"
#include "../include/ta_status.h"

typedef float (*unary_fn)(float x, float alpha);

static float relu(float x, float alpha)
{
    (void)alpha;
    return x < 0.0f ? 0.0f : x;
}

static float relu6(float x, float alpha)
{
    (void)alpha;
    return x > 6.0f ? 6.0f : (x < 0.0f ? 0.0f : x);
}

static float leaky_relu(float x, float alpha)
{
    return x > 0.0f ? x : x * alpha;
}

static float hard_swish(float x, float alpha)
{
    (void)alpha;
    const float shifted = x + 3.0f;
    const float low = 0.0f < shifted ? shifted : 0.0f; /* std::max(0, x + 3) */
    const float relu6_value = low < 6.0f ? low : 6.0f; /* std::min(6, .) */
    return x * relu6_value / 6.0f;
}

static float logistic(float x, float alpha)
{
    (void)alpha;
    return ta_sigmoid_f32(x);
}

static float tanh_f(float x, float alpha)
{
    (void)alpha;
    return tanhf(x);
}

static float elu(float x, float alpha)
{
    (void)alpha;
    return x < 0.0f ? expm1f(x) : x;
}

static float exp_f(float x, float alpha)
{
    (void)alpha;
    return expf(x);
}

static float log_f(float x, float alpha)
{
    (void)alpha;
    return logf(x);
}

static float sqrt_f(float x, float alpha)
{
    (void)alpha;
    return sqrtf(x);
}

static float rsqrt(float x, float alpha)
{
    (void)alpha;
    return 1.0f / sqrtf(x);
}

static float sin_f(float x, float alpha)
{
    (void)alpha;
    return sinf(x);
}

static float cos_f(float x, float alpha)
{
    (void)alpha;
    return cosf(x);
}

static float abs_f(float x, float alpha)
{
    (void)alpha;
    return fabsf(x);
}

static float neg(float x, float alpha)
{
    (void)alpha;
    return -x;
}

static float square(float x, float alpha)
{
    (void)alpha;
    return x * x;
}

static float floor_f(float x, float alpha)
{
    (void)alpha;
    return floorf(x);
}

static float ceil_f(float x, float alpha)
{
    (void)alpha;
    return ceilf(x);
}

/* Ties to even as the reference: from the floor and the fraction, the
   floor's parity taken through an int conversion as there (|x| < 2^31 for
   a fraction of exactly 0.5: |x| < 2^23). */
static float round_f(float x, float alpha)
{
    (void)alpha;
    const float below = floorf(x);
    const float fraction = x - below;
    if (fraction < 0.5f || (fraction == 0.5f && (int)below % 2 == 0))
        return below;
    return below + 1.0f;
}

static int run(const ta_unary_f32_params_t *p, const float *input, float *output, unary_fn fn)
{
    for (int32_t i = 0; i < p->size; i++)
        output[i] = fn(input[i], p->alpha);
    return TA_OK;
}

int ta_abs_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, abs_f);
}

int ta_ceil_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, ceil_f);
}

int ta_cos_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, cos_f);
}

int ta_elu_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, elu);
}

int ta_exp_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, exp_f);
}

int ta_floor_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, floor_f);
}

int ta_hard_swish_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, hard_swish);
}

int ta_leaky_relu_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, leaky_relu);
}

int ta_log_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, log_f);
}

int ta_logistic_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, logistic);
}

int ta_neg_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, neg);
}

int ta_relu_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, relu);
}

int ta_relu6_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, relu6);
}

int ta_round_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, round_f);
}

int ta_rsqrt_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, rsqrt);
}

int ta_sin_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, sin_f);
}

int ta_sqrt_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, sqrt_f);
}

int ta_square_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, square);
}

int ta_tanh_f32(const ta_unary_f32_params_t *p, const float *input, float *output)
{
    return run(p, input, output, tanh_f);
}
