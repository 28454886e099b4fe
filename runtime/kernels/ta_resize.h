/*
 * ta_resize.h - RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR on NHWC
 * tensors. The converter computes, per output row and column, which
 * input rows and columns are read (and the bilinear weights) with TFLite
 * Micro's arithmetic; the kernels only walk those tables.
 */
#ifndef TA_RESIZE_H
#define TA_RESIZE_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_RESIZE_NEAREST_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, batches)                                \
    FIELD(int32_t, out_height)                             \
    FIELD(int32_t, out_width)                              \
    FIELD(int32_t, pixel_bytes) /* depth * element size */ \
    FIELD(int32_t, batch_bytes) /* input bytes per batch */
typedef struct {
    TA_PARAM_MEMBERS(TA_RESIZE_NEAREST_PARAMS)
} ta_resize_nearest_params_t;

/* rows[y]: byte offset of the input row output row y copies from;
   cols[x]: byte offset, within a row, of the pixel output column x copies. */
int ta_resize_nearest(const ta_resize_nearest_params_t *p, const void *input, const int32_t *rows,
                      const int32_t *cols, void *output);

#define TA_RESIZE_BILINEAR_PARAMS(FIELD, ARRAY, ARRAY_USED) \
    FIELD(int32_t, batches)                                 \
    FIELD(int32_t, out_height)                              \
    FIELD(int32_t, out_width)                               \
    FIELD(int32_t, depth)                                   \
    FIELD(int32_t, batch_size) /* input elements per batch */
typedef struct {
    TA_PARAM_MEMBERS(TA_RESIZE_BILINEAR_PARAMS)
} ta_resize_bilinear_params_t;

/* rows[3y .. 3y+2]: element offsets of the two input rows output row y
   blends and the weight of the second, in 1/1024 (it may be negative with
   half-pixel centers); cols[3x .. 3x+2]: the same for columns. */
int ta_resize_bilinear_s8(const ta_resize_bilinear_params_t *p, const int8_t *input,
                          const int32_t *rows, const int32_t *cols, int8_t *output);

#endif /* TA_RESIZE_H */
