/*
 * ta_copy_nd.h - strided N-D byte copies and fills, the one kernel behind
 * the data-movement operators (SLICE, STRIDED_SLICE, TRANSPOSE, SPLIT,
 * CONCATENATION, PACK, UNPACK, PAD, DEPTH_TO_SPACE, SPACE_TO_DEPTH).
 *
 * The converter describes each copy in bytes: the element size is the
 * innermost dimension, size-1 dimensions are dropped and contiguous ones
 * merged, so the kernel never sees an element type. Strides may be
 * negative (reversing slices); every address the copy touches was
 * checked to lie inside its tensor at conversion time.
 */
#ifndef TA_COPY_ND_H
#define TA_COPY_ND_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_COPY_ND_MAX_RANK 6

#define TA_COPY_ND_PARAMS(FIELD, ARRAY, ARRAY_USED)                                          \
    FIELD(int32_t, rank)                                        /* 1..TA_COPY_ND_MAX_RANK */ \
    ARRAY_USED(int32_t, dims, TA_COPY_ND_MAX_RANK, rank)        /* outermost first */        \
    ARRAY_USED(int32_t, src_strides, TA_COPY_ND_MAX_RANK, rank) /* bytes, may be negative */ \
    ARRAY_USED(int32_t, dst_strides, TA_COPY_ND_MAX_RANK, rank) /* bytes */                  \
    /* bytes to the first element copied */                                                  \
    FIELD(int32_t, src_offset)                                                               \
    FIELD(int32_t, dst_offset)
typedef struct {
    TA_PARAM_MEMBERS(TA_COPY_ND_PARAMS)
} ta_copy_nd_params_t;

/* output[dst_offset + sum i_k dst_strides[k]] = input[src_offset + sum i_k src_strides[k]]
   for every index vector i < dims. Input and output must not overlap. */
int ta_copy_nd(const ta_copy_nd_params_t *p, const void *input, void *output);

#define TA_FILL_PARAMS(FIELD, ARRAY, ARRAY_USED)    \
    FIELD(int32_t, count)     /* elements */        \
    FIELD(int32_t, elem_size) /* 1, 2 or 4 bytes */ \
    FIELD(int32_t, value)     /* the element's bits (sign-extended for 1 and 2 bytes) */
typedef struct {
    TA_PARAM_MEMBERS(TA_FILL_PARAMS)
} ta_fill_params_t;

/* Sets every element of output to value. */
int ta_fill(const ta_fill_params_t *p, void *output);

#endif /* TA_COPY_ND_H */
