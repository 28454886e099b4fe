/*
 * ta_broadcast.h - row iteration for binary elementwise kernels with
 * broadcasting.
 *
 * The converter collapses the two input shapes and the output shape into
 * at most TA_BROADCAST_MAX_DIMS dimensions (size-1 output dimensions
 * dropped, neighbours with the same broadcast pattern merged) and gives,
 * per dimension, each input's element stride: 0 where that input is
 * broadcast. The output is dense. The innermost dimension is a "row":
 * there each input's stride is 1 or 0 (never both 0), so kernels run a
 * tight loop per row, and without broadcasting the whole tensor is a
 * single row.
 *
 * Every output element depends only on the input elements at its own
 * position, so the order rows are visited in cannot change any result.
 */
#ifndef TA_BROADCAST_H
#define TA_BROADCAST_H

#include <stddef.h>
#include <stdint.h>

#define TA_BROADCAST_MAX_DIMS 6

/* Where the current row starts in each input and in the output. */
typedef struct {
    int32_t index[TA_BROADCAST_MAX_DIMS];
    size_t in1, in2, out;
} ta_broadcast_iter_t;

static inline void ta_broadcast_begin(ta_broadcast_iter_t *it)
{
    for (int d = 0; d < TA_BROADCAST_MAX_DIMS; d++)
        it->index[d] = 0;
    it->in1 = it->in2 = it->out = 0;
}

/* Moves to the next row; 0 after the last one. */
static inline int ta_broadcast_next(ta_broadcast_iter_t *it, int32_t rank, const int32_t *dims,
                                    const int32_t *stride1, const int32_t *stride2)
{
    it->out += (size_t)dims[rank - 1];
    for (int32_t d = rank - 2; d >= 0; d--) {
        it->in1 += (size_t)stride1[d];
        it->in2 += (size_t)stride2[d];
        if (++it->index[d] < dims[d])
            return 1;
        /* This dimension wrapped: back to its start, carry outwards. */
        it->in1 -= (size_t)stride1[d] * (size_t)dims[d];
        it->in2 -= (size_t)stride2[d] * (size_t)dims[d];
        it->index[d] = 0;
    }
    return 0;
}

#endif /* TA_BROADCAST_H */
