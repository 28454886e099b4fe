/* ta_binary_f32.c - float32 binary elementwise kernels; see the header.
 *
 * Rows as in ta_binary_i32.c: an input either steps by one element or
 * stays on a broadcast one. Each output element is written after its
 * inputs are read, so the output may share a non-broadcast input's bytes. */
#include "ta_binary_f32.h"

#include "../include/ta_float.h"
#include "../include/ta_status.h"

#include "ta_broadcast_rows.h"

typedef enum {
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_DIV,
    OP_MAXIMUM,
    OP_MINIMUM,
    OP_SQUARED_DIFF,
    OP_PRELU
} binary_op_t;

typedef struct {
    binary_op_t op;
    float lo, hi;
} row_ctx_t;

static float apply(const row_ctx_t *c, float x, float y)
{
    switch (c->op) {
    case OP_ADD: return ta_activation_f32(x + y, c->lo, c->hi);
    case OP_SUB: return ta_activation_f32(x - y, c->lo, c->hi);
    case OP_MUL: return ta_activation_f32(x * y, c->lo, c->hi);
    case OP_DIV: return ta_activation_f32(x / y, c->lo, c->hi);
    case OP_MAXIMUM: return x < y ? y : x; /* std::max(x, y) */
    case OP_MINIMUM: return y < x ? y : x; /* std::min(x, y) */
    case OP_PRELU: return x >= 0.0f ? x : x * y;
    default: {
        const float d = x - y;
        return d * d;
    }
    }
}

static void row(const void *ctx, const void *a, const void *b, void *o, int32_t n, int kind)
{
    const row_ctx_t *c = ctx;
    const float *x = a, *y = b;
    float *out = o;
    const size_t step1 = kind != TA_ROW_FIRST_FIXED, step2 = kind != TA_ROW_SECOND_FIXED;
    for (int32_t i = 0; i < n; i++)
        out[i] = apply(c, x[(size_t)i * step1], y[(size_t)i * step2]);
}

static int run(const ta_binary_f32_params_t *p, const float *input1, const float *input2,
               float *output, binary_op_t op)
{
    const row_ctx_t ctx = {op, p->activation_min, p->activation_max};
    ta_broadcast_rows(p->rank, p->dims, p->stride1, p->stride2, input1, input2, sizeof(float),
                      output, sizeof(float), row, &ctx);
    return TA_OK;
}

int ta_add_f32(const ta_binary_f32_params_t *p, const float *input1, const float *input2,
               float *output)
{
    return run(p, input1, input2, output, OP_ADD);
}

int ta_sub_f32(const ta_binary_f32_params_t *p, const float *input1, const float *input2,
               float *output)
{
    return run(p, input1, input2, output, OP_SUB);
}

int ta_mul_f32(const ta_binary_f32_params_t *p, const float *input1, const float *input2,
               float *output)
{
    return run(p, input1, input2, output, OP_MUL);
}

int ta_div_f32(const ta_binary_f32_params_t *p, const float *input1, const float *input2,
               float *output)
{
    return run(p, input1, input2, output, OP_DIV);
}

int ta_maximum_f32(const ta_binary_f32_params_t *p, const float *input1, const float *input2,
                   float *output)
{
    return run(p, input1, input2, output, OP_MAXIMUM);
}

int ta_minimum_f32(const ta_binary_f32_params_t *p, const float *input1, const float *input2,
                   float *output)
{
    return run(p, input1, input2, output, OP_MINIMUM);
}

int ta_squared_difference_f32(const ta_binary_f32_params_t *p, const float *input1,
                              const float *input2, float *output)
{
    return run(p, input1, input2, output, OP_SQUARED_DIFF);
}

int ta_prelu_f32(const ta_binary_f32_params_t *p, const float *input1, const float *input2,
                 float *output)
{
    return run(p, input1, input2, output, OP_PRELU);
}
