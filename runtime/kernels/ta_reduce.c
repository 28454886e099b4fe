/* ta_reduce.c - reduction kernels; see the header. */
#include "ta_reduce.h"

#include "../include/ta_element.h"
#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include <stdbool.h>
#include <stddef.h>

/* A row-major walk over a nest of (dims, strides): the input offset of
   the current element, advanced one element at a time. */
typedef struct {
    int32_t rank;
    const int32_t *dims;
    const int32_t *strides;
    int32_t index[TA_REDUCE_MAX_GROUPS];
    size_t offset;
} nest_t;

static void nest_start(nest_t *n, int32_t rank, const int32_t *dims, const int32_t *strides,
                       size_t base)
{
    n->rank = rank;
    n->dims = dims;
    n->strides = strides;
    for (int32_t d = 0; d < TA_REDUCE_MAX_GROUPS; d++)
        n->index[d] = 0;
    n->offset = base;
}

/* Moves to the next element; false after the last one. */
static int nest_next(nest_t *n)
{
    for (int32_t d = n->rank - 1; d >= 0; d--) {
        n->offset += (size_t)n->strides[d];
        if (++n->index[d] < n->dims[d])
            return 1;
        n->offset -= (size_t)n->dims[d] * (size_t)n->strides[d];
        n->index[d] = 0;
    }
    return 0;
}

static int valid(const ta_reduce_params_t *p)
{
    return p->outer_rank >= 0 && p->outer_rank <= TA_REDUCE_MAX_GROUPS && p->inner_rank >= 0 &&
           p->inner_rank <= TA_REDUCE_MAX_GROUPS;
}

/* (sum + sum_offset) requantized; the additions wrap modulo 2^32 as in
   TFLite, where they are int32 operations. */
static int32_t requantize_sum(const ta_reduce_params_t *p, uint32_t sum)
{
    const int32_t shifted = (int32_t)(sum + (uint32_t)p->sum_offset);
    return ta_mul_by_quantized_multiplier(shifted, p->multiplier, (int)p->shift) +
           p->output_zero_point;
}

/* SUM (and MEAN, whose multiplier divides) of int8 or int16 (wide). */
TA_SPECIALISE int reduce_sum(const ta_reduce_params_t *p, const void *input, void *output,
                             bool wide)
{
    if (!valid(p))
        return TA_ERR_BAD_ARGUMENT;
    const int32_t lo = wide ? INT16_MIN : INT8_MIN, hi = wide ? INT16_MAX : INT8_MAX;
    size_t k = 0;
    nest_t out, in;
    nest_start(&out, p->outer_rank, p->outer_dims, p->outer_strides, 0);
    do {
        uint32_t sum = 0;
        nest_start(&in, p->inner_rank, p->inner_dims, p->inner_strides, out.offset);
        do {
            sum += (uint32_t)ta_load_element(input, in.offset, wide);
        } while (nest_next(&in));
        ta_store_element(output, k++, ta_clamp_i32(requantize_sum(p, sum), lo, hi), wide);
    } while (nest_next(&out));
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
    if (!valid(p))
        return TA_ERR_BAD_ARGUMENT;
    nest_t out, in;
    nest_start(&out, p->outer_rank, p->outer_dims, p->outer_strides, 0);
    do {
        int8_t m = smallest ? INT8_MAX : INT8_MIN;
        nest_start(&in, p->inner_rank, p->inner_dims, p->inner_strides, out.offset);
        do {
            const int8_t v = input[in.offset];
            m = (smallest ? v < m : v > m) ? v : m;
        } while (nest_next(&in));
        *output++ = m;
    } while (nest_next(&out));
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
    if (!valid(p))
        return TA_ERR_BAD_ARGUMENT;
    nest_t out, in;
    nest_start(&out, p->outer_rank, p->outer_dims, p->outer_strides, 0);
    do {
        bool all = true;
        nest_start(&in, p->inner_rank, p->inner_dims, p->inner_strides, out.offset);
        do
            all = all && input[in.offset];
        while (nest_next(&in));
        *output++ = all;
    } while (nest_next(&out));
    return TA_OK;
}
