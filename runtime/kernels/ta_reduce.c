/* ta_reduce.c - reduction kernels; see the header. */
#include "ta_reduce.h"
#include "ta_reduce_nest.h"

#include "../include/ta_element.h"
#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include <stdbool.h>
#include <stddef.h>

/* (sum + sum_offset) requantized; the additions wrap modulo 2^32 as in
   TFLite, where they are int32 operations. */
static int32_t requantize_sum(const ta_reduce_params_t *p, uint32_t sum)
{
    const int32_t shifted = (int32_t)(sum + (uint32_t)p->sum_offset);
    return ta_mul_by_quantized_multiplier(shifted, p->multiplier, (int)p->shift) +
           p->output_zero_point;
}

/* SUM (and MEAN, whose multiplier divides) of int8 or int16 (wide). */
TA_ALWAYS_INLINE int reduce_sum(const ta_reduce_params_t *p, const void *input, void *output,
                                bool wide)
{
    if (!ta_reduce_params_valid(p))
        return TA_ERR_BAD_ARGUMENT;
    const int32_t lo = wide ? INT16_MIN : INT8_MIN, hi = wide ? INT16_MAX : INT8_MAX;
    size_t k = 0;
    ta_reduce_nest_t out, in;
    ta_reduce_nest_start(&out, p->outer_rank, p->outer_dims, p->outer_strides, 0);
    do {
        uint32_t sum = 0;
        ta_reduce_nest_start(&in, p->inner_rank, p->inner_dims, p->inner_strides, out.offset);
        do {
            sum += (uint32_t)ta_load_element(input, in.offset, wide);
        } while (ta_reduce_nest_next(&in));
        ta_store_element(output, k++, ta_clamp_i32(requantize_sum(p, sum), lo, hi), wide);
    } while (ta_reduce_nest_next(&out));
    return TA_OK;
}

int ta_reduce_sum_s8(const ta_reduce_params_t *p, const int8_t *input, int8_t *output)
{
    return reduce_sum(p, input, output, false);
}

int ta_reduce_sum_s16(const ta_reduce_params_t *p, const int16_t *input, int16_t *output)
{
    return reduce_sum(p, input, output, true);
}

/* The largest (or, with `smallest`, the smallest) element of each group. */
static int reduce_extreme_s8(const ta_reduce_params_t *p, const int8_t *input, int8_t *output,
                             bool smallest)
{
    if (!ta_reduce_params_valid(p))
        return TA_ERR_BAD_ARGUMENT;
    ta_reduce_nest_t out, in;
    ta_reduce_nest_start(&out, p->outer_rank, p->outer_dims, p->outer_strides, 0);
    do {
        int8_t m = smallest ? INT8_MAX : INT8_MIN;
        ta_reduce_nest_start(&in, p->inner_rank, p->inner_dims, p->inner_strides, out.offset);
        do {
            const int8_t v = input[in.offset];
            m = (smallest ? v < m : v > m) ? v : m;
        } while (ta_reduce_nest_next(&in));
        *output++ = m;
    } while (ta_reduce_nest_next(&out));
    return TA_OK;
}

int ta_reduce_max_s8(const ta_reduce_params_t *p, const int8_t *input, int8_t *output)
{
    return reduce_extreme_s8(p, input, output, false);
}

int ta_reduce_min_s8(const ta_reduce_params_t *p, const int8_t *input, int8_t *output)
{
    return reduce_extreme_s8(p, input, output, true);
}

int ta_reduce_all_b(const ta_reduce_params_t *p, const bool *input, bool *output)
{
    if (!ta_reduce_params_valid(p))
        return TA_ERR_BAD_ARGUMENT;
    ta_reduce_nest_t out, in;
    ta_reduce_nest_start(&out, p->outer_rank, p->outer_dims, p->outer_strides, 0);
    do {
        bool all = true;
        ta_reduce_nest_start(&in, p->inner_rank, p->inner_dims, p->inner_strides, out.offset);
        do
            all = all && input[in.offset];
        while (ta_reduce_nest_next(&in));
        *output++ = all;
    } while (ta_reduce_nest_next(&out));
    return TA_OK;
}
