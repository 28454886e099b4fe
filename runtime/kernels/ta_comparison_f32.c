/* ta_comparison_f32.c - the float32 comparison kernel; see the header.
   Rows as in ta_binary_f32.c. Each output byte is written after its
   inputs are read. */
#include "ta_comparison_f32.h"

#include "../include/ta_status.h"

#include "ta_broadcast_rows.h"

/* Mask 5 (x1 < x2 or x1 > x2) is NOT_EQUAL, the one true for a NaN. */
static bool compare(int32_t mask, float x, float y)
{
    if (x < y)
        return mask & 1;
    if (x == y)
        return (mask >> 1) & 1;
    if (x > y)
        return (mask >> 2) & 1;
    return mask == 5;
}

static void row(const void *ctx, const void *a, const void *b, void *o, int32_t n, int kind)
{
    const int32_t mask = *(const int32_t *)ctx;
    const float *x = a, *y = b;
    bool *out = o;
    const size_t step1 = kind != TA_ROW_FIRST_FIXED, step2 = kind != TA_ROW_SECOND_FIXED;
    for (int32_t i = 0; i < n; i++)
        out[i] = compare(mask, x[(size_t)i * step1], y[(size_t)i * step2]);
}

int ta_comparison_f32(const ta_comparison_f32_params_t *p, const float *input1, const float *input2,
                      bool *output)
{
    ta_broadcast_rows(p->rank, p->dims, p->stride1, p->stride2, input1, input2, sizeof(float),
                      output, sizeof(bool), row, &p->mask);
    return TA_OK;
}
