/* ta_binary_i32.c - int32 binary elementwise kernels; see the header.
 *
 * Rows as in ta_add_sub.c: an input either steps by one element or stays
 * on a broadcast one. Each output element is written after its inputs are
 * read, so the output may share a non-broadcast input's bytes. */
#include "ta_binary_i32.h"

#include "../include/ta_status.h"

#include "ta_broadcast_rows.h"

typedef enum { OP_ADD, OP_MUL, OP_DIV, OP_MAXIMUM, OP_MINIMUM } binary_op_t;

typedef struct {
    binary_op_t op;
    int32_t lo, hi;
} row_ctx_t;

/* The two's complement value of the low 32 bits, without relying on the
   implementation-defined conversion of out-of-range values. */
static int32_t from_bits(uint32_t v)
{
    return v <= (uint32_t)INT32_MAX ? (int32_t)v : (int32_t)(v - 0x80000000u) + INT32_MIN;
}

static int32_t divide(int32_t x, int32_t y)
{
    if (y == 0)
        return 0;
    if (x == INT32_MIN && y == -1)
        return INT32_MIN;
    return x / y;
}

static int32_t apply(binary_op_t op, int32_t x, int32_t y)
{
    switch (op) {
    case OP_ADD: return from_bits((uint32_t)x + (uint32_t)y);
    case OP_MUL: return from_bits((uint32_t)x * (uint32_t)y);
    case OP_DIV: return divide(x, y);
    case OP_MAXIMUM: return x > y ? x : y;
    default: return x < y ? x : y;
    }
}

/* One row of op; inlined into row() with op a constant, so each
   operator's elements run in a loop of their own (no dispatch per
   element). */
TA_ALWAYS_INLINE void row_of(binary_op_t op, const row_ctx_t *c, const int32_t *x, const int32_t *y,
                             int32_t *out, int32_t n, int kind)
{
    const int32_t lo = c->lo, hi = c->hi;
    const size_t step1 = kind != TA_ROW_FIRST_FIXED, step2 = kind != TA_ROW_SECOND_FIXED;
    if (lo == INT32_MIN && hi == INT32_MAX) { /* no activation: nothing to clamp */
        for (int32_t i = 0; i < n; i++)
            out[i] = apply(op, x[(size_t)i * step1], y[(size_t)i * step2]);
        return;
    }
    for (int32_t i = 0; i < n; i++) {
        const int32_t v = apply(op, x[(size_t)i * step1], y[(size_t)i * step2]);
        out[i] = v < lo ? lo : (v > hi ? hi : v);
    }
}

static void row(const void *ctx, const void *a, const void *b, void *o, int32_t n, int kind)
{
    const row_ctx_t *c = ctx;
    switch (c->op) {
    case OP_ADD: row_of(OP_ADD, c, a, b, o, n, kind); break;
    case OP_MUL: row_of(OP_MUL, c, a, b, o, n, kind); break;
    case OP_DIV: row_of(OP_DIV, c, a, b, o, n, kind); break;
    case OP_MAXIMUM: row_of(OP_MAXIMUM, c, a, b, o, n, kind); break;
    default: row_of(OP_MINIMUM, c, a, b, o, n, kind); break;
    }
}

static int run(const ta_binary_i32_params_t *p, const int32_t *input1, const int32_t *input2,
               int32_t *output, binary_op_t op)
{
    const row_ctx_t ctx = {op, p->activation_min, p->activation_max};
    ta_broadcast_rows(p->rank, p->dims, p->stride1, p->stride2, input1, input2, sizeof(int32_t),
                      output, sizeof(int32_t), row, &ctx);
    return TA_OK;
}

int ta_add_i32(const ta_binary_i32_params_t *p, const int32_t *input1, const int32_t *input2,
               int32_t *output)
{
    return run(p, input1, input2, output, OP_ADD);
}

int ta_mul_i32(const ta_binary_i32_params_t *p, const int32_t *input1, const int32_t *input2,
               int32_t *output)
{
    return run(p, input1, input2, output, OP_MUL);
}

int ta_div_i32(const ta_binary_i32_params_t *p, const int32_t *input1, const int32_t *input2,
               int32_t *output)
{
    return run(p, input1, input2, output, OP_DIV);
}

int ta_maximum_i32(const ta_binary_i32_params_t *p, const int32_t *input1, const int32_t *input2,
                   int32_t *output)
{
    return run(p, input1, input2, output, OP_MAXIMUM);
}

int ta_minimum_i32(const ta_binary_i32_params_t *p, const int32_t *input1, const int32_t *input2,
                   int32_t *output)
{
    return run(p, input1, input2, output, OP_MINIMUM);
}
