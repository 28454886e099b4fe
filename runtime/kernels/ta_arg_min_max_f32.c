/* ta_arg_min_max_f32.c - float32 ARG_MAX / ARG_MIN; see the header. */
#include "ta_arg_min_max_f32.h"

#include "../include/ta_status.h"

#include <stdbool.h>
#include <stddef.h>

static void arg_best(const ta_arg_min_max_params_t *p, const float *input, int32_t *output,
                     bool is_max)
{
    const size_t inner = (size_t)p->inner;
    for (int32_t o = 0; o < p->outer; o++)
        for (size_t i = 0; i < inner; i++) {
            const float *x = input + (size_t)o * (size_t)p->axis_size * inner + i;
            float best = x[0];
            int32_t best_index = 0;
            for (int32_t k = 1; k < p->axis_size; k++) {
                const float v = x[(size_t)k * inner];
                if (is_max ? v > best : v < best) {
                    best = v;
                    best_index = k;
                }
            }
            *output++ = best_index;
        }
}

int ta_arg_max_f32_i32(const ta_arg_min_max_params_t *p, const float *input, int32_t *output)
{
    arg_best(p, input, output, true);
    return TA_OK;
}

int ta_arg_min_f32_i32(const ta_arg_min_max_params_t *p, const float *input, int32_t *output)
{
    arg_best(p, input, output, false);
    return TA_OK;
}
