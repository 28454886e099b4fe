/*
 * ta_gather.h - GATHER: output[b, o, j, :] = input[b, o, index(b, j), :]
 * over batches b, outer positions o and the indices j of batch b, each
 * slice `inner_bytes` long; and GATHER_ND's run-time form. Byte-level:
 * any element type.
 */
#ifndef TA_GATHER_H
#define TA_GATHER_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_GATHER_PARAMS(FIELD, ARRAY, ARRAY_USED)                                    \
    FIELD(int32_t, batches)     /* product of the batch_dims leading dimensions */    \
    FIELD(int32_t, outer)       /* product of the dimensions between them and axis */ \
    FIELD(int32_t, coords)      /* indices per batch */                               \
    FIELD(int32_t, axis_size)   /* input dimension `axis` */                          \
    FIELD(int32_t, inner_bytes) /* bytes of one gathered slice */
typedef struct {
    TA_PARAM_MEMBERS(TA_GATHER_PARAMS)
} ta_gather_params_t;

/* Constant indices, resolved by the converter: offsets[b * coords + j] is
   the byte offset of slice (b, 0, j) in input. */
int ta_gather(const ta_gather_params_t *p, const void *input, const int32_t *offsets, void *output);

/* Indices read at run time; any outside [0, axis_size) is an error. */
int ta_gather_i32(const ta_gather_params_t *p, const void *input, const int32_t *indices,
                  void *output);

/* GATHER_ND with indices read at run time: `rows` rows of `depth` indices,
   each row's slice at element sum_j index[j] * steps[j] of the params,
   `slice_elements` long. As TFLite Micro, only the slice's flat position
   is checked: one outside [0, params_elements - slice_elements] is an
   error. (Constant indices are byte offsets for ta_gather.) */
#define TA_GATHER_ND_MAX_DEPTH 5

#define TA_GATHER_ND_PARAMS(FIELD, ARRAY, ARRAY_USED)         \
    FIELD(int32_t, rows)                                      \
    FIELD(int32_t, depth) /* 0..TA_GATHER_ND_MAX_DEPTH */     \
    ARRAY_USED(int32_t, steps, TA_GATHER_ND_MAX_DEPTH, depth) \
    FIELD(int32_t, slice_elements)                            \
    FIELD(int32_t, params_elements)                           \
    FIELD(int32_t, element_bytes)
typedef struct {
    TA_PARAM_MEMBERS(TA_GATHER_ND_PARAMS)
} ta_gather_nd_params_t;

int ta_gather_nd_i32(const ta_gather_nd_params_t *p, const void *params, const int32_t *indices,
                     void *output);

#endif /* TA_GATHER_H */
