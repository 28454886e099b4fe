/*
 * ta_gather.h - GATHER: output[b, o, j, :] = input[b, o, index(b, j), :]
 * over batches b, outer positions o and the indices j of batch b, each
 * slice `inner_bytes` long. Byte-level: any element type.
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

#endif /* TA_GATHER_H */
