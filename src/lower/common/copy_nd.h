/*
 * copy_nd.h - helpers the data-movement operators share: an N-D strided
 * copy between two tensors described in elements (lowered to the
 * byte-level runtime kernel ta_copy_nd), and reading constant operands.
 */
#ifndef TA_LOWER_COPY_ND_H
#define TA_LOWER_COPY_ND_H

#include "../lower.h"

/* Enough for a rank-5 copy split into two more dimensions. */
#define TA_COPY_DIMS 10

typedef struct TaCopyNd {
    int rank;
    int64_t dims[TA_COPY_DIMS]; /* outermost first, in elements */
    int64_t src_strides[TA_COPY_DIMS];
    int64_t dst_strides[TA_COPY_DIMS];
    int64_t src_offset, dst_offset; /* elements */
} TaCopyNd;

/* Appends a dimension (inner to those already added). */
void ta_copy_nd_dim(TaCopyNd *c, int64_t size, int64_t src_stride, int64_t dst_stride);

/* Row-major strides of t in elements. */
void ta_row_major_strides(const TaTensor *t, int64_t strides[TA_MAX_RANK]);

/* Records a ta_copy_nd call (none for an empty copy). Fails with an error
   when the copy leaves either tensor or does not fit the kernel. */
bool ta_lower_copy_nd(TaLower *L, TaOp *op, TaTensor *src, TaTensor *dst, const TaCopyNd *c);

/* A single-output copy from op->inputs[data_input]: when it moves every
   byte unchanged, the output aliases the input like a RESHAPE; otherwise
   a ta_copy_nd call. */
bool ta_lower_move(TaLower *L, TaOp *op, int data_input, const TaCopyNd *c);

/* The values of a constant int32 (or int64 when allow64) operand, at most
   max of them. */
bool ta_const_ints(TaLower *L, TaOp *op, const TaTensor *t, const char *role, bool allow64,
                   int64_t *out, int max, int *count);

/* An axis in [-rank, rank) as a non-negative index; false with an error
   outside. */
bool ta_resolve_axis(TaLower *L, TaOp *op, int64_t axis, int rank, int *out);

/* reshape.c */
bool ta_lower_reshape_like(TaLower *L, TaOp *op);

#endif /* TA_LOWER_COPY_ND_H */
