/* ta_arg_min_max.c - ARG_MAX / ARG_MIN kernels; see the header. */
#include "ta_arg_min_max.h"

#include "../include/ta_status.h"

#include <stddef.h>

/* The winning index along the axis for one (outer, inner) position; the
   sign flips ARG_MIN into ARG_MAX (exact for int8 widened to int32). */
static int32_t arg_best(const ta_arg_min_max_params_t *p, const int8_t *input, int32_t o, int32_t i,
                        int32_t sign)
{
    const int8_t *x = input + (size_t)o * (size_t)p->axis_size * (size_t)p->inner + (size_t)i;
    int32_t best = sign * x[0], best_index = 0;
    for (int32_t k = 1; k < p->axis_size; k++) {
        const int32_t v = sign * x[(size_t)k * (size_t)p->inner];
        if (v > best) {
            best = v;
            best_index = k;
        }
    }
    return best_index;
}

int ta_arg_max_s8_i32(const ta_arg_min_max_params_t *p, const int8_t *input, int32_t *output)
{
    for (int32_t o = 0; o < p->outer; o++)
        for (int32_t i = 0; i < p->inner; i++)
            *output++ = arg_best(p, input, o, i, 1);
    return TA_OK;
}

int ta_arg_max_s8_i64(const ta_arg_min_max_params_t *p, const int8_t *input, int64_t *output)
{
    for (int32_t o = 0; o < p->outer; o++)
        for (int32_t i = 0; i < p->inner; i++)
            *output++ = arg_best(p, input, o, i, 1);
    return TA_OK;
}

int ta_arg_min_s8_i32(const ta_arg_min_max_params_t *p, const int8_t *input, int32_t *output)
{
    for (int32_t o = 0; o < p->outer; o++)
        for (int32_t i = 0; i < p->inner; i++)
            *output++ = arg_best(p, input, o, i, -1);
    return TA_OK;
}

int ta_arg_min_s8_i64(const ta_arg_min_max_params_t *p, const int8_t *input, int64_t *output)
{
    for (int32_t o = 0; o < p->outer; o++)
        for (int32_t i = 0; i < p->inner; i++)
            *output++ = arg_best(p, input, o, i, -1);
    return TA_OK;
}
