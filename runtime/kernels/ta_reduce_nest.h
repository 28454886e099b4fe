/*
 * ta_reduce_nest.h - the walk the reduction kernels (ta_reduce.c,
 * ta_reduce_f32.c) share: a row-major nest of (dims, strides) groups from
 * ta_reduce_params_t, visited one element at a time, its input offset kept
 * current. Every output's inputs are met in increasing offset order, the
 * order in which TFLite's Reduce visits them.
 *
 * The walk's functions are static, not inline: each kernel file keeps one
 * out-of-line copy (GCC -O2 inlined into all four integer kernels makes
 * ta_reduce.c 40 % larger). A file including this header uses them all.
 */
#ifndef TA_REDUCE_NEST_H
#define TA_REDUCE_NEST_H

#include <stddef.h>
#include <stdint.h>

#include "ta_reduce.h"

typedef struct {
    int32_t rank;
    const int32_t *dims;
    const int32_t *strides;
    int32_t index[TA_REDUCE_MAX_GROUPS];
    size_t offset;
} ta_reduce_nest_t;

static void ta_reduce_nest_start(ta_reduce_nest_t *n, int32_t rank, const int32_t *dims,
                                 const int32_t *strides, size_t base)
{
    n->rank = rank;
    n->dims = dims;
    n->strides = strides;
    for (int32_t d = 0; d < TA_REDUCE_MAX_GROUPS; d++)
        n->index[d] = 0;
    n->offset = base;
}

/* Moves to the next element; 0 after the last one. */
static int ta_reduce_nest_next(ta_reduce_nest_t *n)
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

/* Group counts a kernel can walk. */
static inline int ta_reduce_params_valid(const ta_reduce_params_t *p)
{
    return p->outer_rank >= 0 && p->outer_rank <= TA_REDUCE_MAX_GROUPS && p->inner_rank >= 0 &&
           p->inner_rank <= TA_REDUCE_MAX_GROUPS;
}

#endif /* TA_REDUCE_NEST_H */
