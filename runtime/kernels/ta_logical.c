/* ta_logical.c - the logical kernels; see the header. Rows as in
   ta_binary_i32.c (ta_broadcast_rows.h). */
#include "ta_logical.h"

#include "../include/ta_status.h"

#include "ta_broadcast_rows.h"

typedef struct {
    bool is_and;
} row_ctx_t;

static void row(const void *ctx, const void *a, const void *b, void *o, int32_t n, int kind)
{
    const row_ctx_t *c = ctx;
    /* Read as bytes: a model's input may hold any byte in a bool. */
    const uint8_t *x = a, *y = b;
    bool *out = o;
    const size_t step1 = kind != TA_ROW_FIRST_FIXED, step2 = kind != TA_ROW_SECOND_FIXED;
    for (int32_t i = 0; i < n; i++) {
        const bool u = x[(size_t)i * step1] != 0, v = y[(size_t)i * step2] != 0;
        out[i] = c->is_and ? (u && v) : (u || v);
    }
}

static int run(const ta_logical_params_t *p, const bool *input1, const bool *input2, bool *output,
               bool is_and)
{
    const row_ctx_t ctx = {is_and};
    ta_broadcast_rows(p->rank, p->dims, p->stride1, p->stride2, input1, input2, sizeof(bool),
                      output, sizeof(bool), row, &ctx);
    return TA_OK;
}

int ta_logical_and_b(const ta_logical_params_t *p, const bool *input1, const bool *input2,
                     bool *output)
{
    return run(p, input1, input2, output, true);
}

int ta_logical_or_b(const ta_logical_params_t *p, const bool *input1, const bool *input2,
                    bool *output)
{
    return run(p, input1, input2, output, false);
}

int ta_logical_not_b(const ta_logical_not_params_t *p, const bool *input, bool *output)
{
    const uint8_t *x = (const uint8_t *)input;
    for (int32_t i = 0; i < p->size; i++)
        output[i] = x[i] == 0;
    return TA_OK;
}
