/*
 * ta_broadcast_rows.h - the row walk that every binary elementwise kernel
 * shares (the shape is described in ta_broadcast.h).
 *
 * A kernel gives its row function and a context; ta_broadcast_rows calls
 * it once per row with where the row starts in each input and in the
 * output, and the row's kind: which input, if any, stays on a single
 * broadcast element. The walker and the row function are inlined, and
 * each of the three row calls passes a constant kind, so every kernel's
 * loops are compiled once per kind.
 *
 * Every output element depends only on the input elements at its own
 * position, so the order rows are visited in cannot change any result.
 */
#ifndef TA_BROADCAST_ROWS_H
#define TA_BROADCAST_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "../include/ta_elementwise_simd.h"

#include "ta_broadcast.h"

/* Which input of a row is a single broadcast element, if any. */
enum { TA_ROW_BOTH_STEP, TA_ROW_FIRST_FIXED, TA_ROW_SECOND_FIXED };

/* One row of n outputs; a and b start the inputs' elements, o the
   output's. */
typedef void (*ta_broadcast_row_fn)(const void *ctx, const void *a, const void *b, void *o,
                                    int32_t n, int kind);

/* Where the current row starts in each input and in the output. The
   walk keeps the three pointers only (not bases and offsets): fewer
   values stay live across the kernels' row loops. */
typedef struct {
    int32_t index[TA_BROADCAST_MAX_DIMS];
    const char *in1, *in2;
    char *out;
} ta_broadcast_iter_t;

/* Moves to the next row; 0 after the last one. Strides are in elements
   of in_size (inputs) and out_size (output) bytes. */
static inline int ta_broadcast_next(ta_broadcast_iter_t *it, int32_t rank, const int32_t *dims,
                                    const int32_t *stride1, const int32_t *stride2, size_t in_size,
                                    size_t out_size)
{
    it->out += (size_t)dims[rank - 1] * out_size;
    for (int32_t d = rank - 2; d >= 0; d--) {
        if (++it->index[d] < dims[d]) {
            it->in1 += (size_t)stride1[d] * in_size;
            it->in2 += (size_t)stride2[d] * in_size;
            return 1;
        }
        /* This dimension wrapped: back to its start, carry outwards. The
           input pointers only ever point at row starts. */
        it->in1 -= (size_t)stride1[d] * (size_t)(dims[d] - 1) * in_size;
        it->in2 -= (size_t)stride2[d] * (size_t)(dims[d] - 1) * in_size;
        it->index[d] = 0;
    }
    return 0;
}

/* Calls row for every row of the shape (rank, dims, stride1, stride2);
   in_size and out_size are the bytes of one element. */
TA_ALWAYS_INLINE void ta_broadcast_rows(int32_t rank, const int32_t *dims, const int32_t *stride1,
                                        const int32_t *stride2, const void *input1,
                                        const void *input2, size_t in_size, void *output,
                                        size_t out_size, ta_broadcast_row_fn row, const void *ctx)
{
    const int32_t n = dims[rank - 1];
    const int step1 = stride1[rank - 1] != 0, step2 = stride2[rank - 1] != 0;
    const int kind = step1 && step2 ? TA_ROW_BOTH_STEP
                     : step1        ? TA_ROW_SECOND_FIXED
                                    : TA_ROW_FIRST_FIXED;
    if (n <= 0)
        return;
    /* ta_broadcast_next counts in the outer rank - 1 dimensions only, so a
       single row (the common same-shape case) zeroes no index; field by
       field, as an aggregate initializer becomes a memset call. */
    ta_broadcast_iter_t it;
    for (int32_t d = 0; d < rank - 1; d++)
        it.index[d] = 0;
    it.in1 = input1;
    it.in2 = input2;
    it.out = output;
    do {
        if (kind == TA_ROW_BOTH_STEP)
            row(ctx, it.in1, it.in2, it.out, n, TA_ROW_BOTH_STEP);
        else if (kind == TA_ROW_SECOND_FIXED)
            row(ctx, it.in1, it.in2, it.out, n, TA_ROW_SECOND_FIXED);
        else
            row(ctx, it.in1, it.in2, it.out, n, TA_ROW_FIRST_FIXED);
    } while (ta_broadcast_next(&it, rank, dims, stride1, stride2, in_size, out_size));
}

#endif /* TA_BROADCAST_ROWS_H */
