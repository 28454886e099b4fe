/* ta_floor_div_mod_f32.c - FLOOR_DIV and FLOOR_MOD; see the header. Rows
 * as in ta_binary_f32.c (ta_broadcast_rows.h); each output element is
 * written after its inputs are read. */
#include "ta_floor_div_mod_f32.h"

#include <math.h>

#include "../include/ta_status.h"

#include "ta_broadcast_rows.h"

static float floor_div(float x, float y)
{
    /* The reference divides in double (std::divides<double>). */
    return (float)floor((double)x / (double)y);
}

static float floor_mod(float x, float y)
{
    const float m = fmodf(x, y);
    return m != 0.0f && ((y < 0.0f) != (m < 0.0f)) ? m + y : m;
}

static void div_row(const void *ctx, const void *a, const void *b, void *o, int32_t n, int kind)
{
    const float *x = a, *y = b;
    float *out = o;
    const size_t step1 = kind != TA_ROW_FIRST_FIXED, step2 = kind != TA_ROW_SECOND_FIXED;
    (void)ctx;
    for (int32_t i = 0; i < n; i++)
        out[i] = floor_div(x[(size_t)i * step1], y[(size_t)i * step2]);
}

static void mod_row(const void *ctx, const void *a, const void *b, void *o, int32_t n, int kind)
{
    const float *x = a, *y = b;
    float *out = o;
    const size_t step1 = kind != TA_ROW_FIRST_FIXED, step2 = kind != TA_ROW_SECOND_FIXED;
    (void)ctx;
    for (int32_t i = 0; i < n; i++)
        out[i] = floor_mod(x[(size_t)i * step1], y[(size_t)i * step2]);
}

int ta_floor_div_f32(const ta_floor_div_mod_f32_params_t *p, const float *input1,
                     const float *input2, float *output)
{
    for (int32_t i = 0; i < p->divisor_count; i++)
        if (input2[i] == 0.0f)
            return TA_ERR_KERNEL;
    ta_broadcast_rows(p->rank, p->dims, p->stride1, p->stride2, input1, input2, sizeof(float),
                      output, sizeof(float), div_row, NULL);
    return TA_OK;
}

int ta_floor_mod_f32(const ta_floor_div_mod_f32_params_t *p, const float *input1,
                     const float *input2, float *output)
{
    ta_broadcast_rows(p->rank, p->dims, p->stride1, p->stride2, input1, input2, sizeof(float),
                      output, sizeof(float), mod_row, NULL);
    return TA_OK;
}
