/*
 * ta_batch_matmul_f32.h - float32 BATCH_MATMUL, as TFLite's
 * reference_ops::BatchMatMul (float): out[b][j][i] = sum_k lhs[b][j][k] *
 * rhs[b][k][i], the sum starting from 0 and running k = 0, 1, ... in
 * float (built with -ffp-contract=off); no bias, no activation.
 *
 * Operands are addressed through strides, as ta_batch_matmul.h: lhs (j, k)
 * at j * lhs_row_stride + k * lhs_depth_stride, rhs (k, i) at
 * i * rhs_col_stride + k * rhs_depth_stride (adj_x / adj_y need no copy);
 * a batch stride of 0 broadcasts that operand.
 */
#ifndef TA_BATCH_MATMUL_F32_H
#define TA_BATCH_MATMUL_F32_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_BATCH_MATMUL_F32_PARAMS(FIELD, ARRAY, ARRAY_USED)                       \
    ARRAY(int32_t, batch_dims, 3)        /* output batch dimensions, leading 1s */ \
    ARRAY(int32_t, lhs_batch_strides, 3) /* in elements; 0 where lhs broadcasts */ \
    ARRAY(int32_t, rhs_batch_strides, 3)                                           \
    FIELD(int32_t, rows)  /* m: lhs rows, output rows */                           \
    FIELD(int32_t, cols)  /* n: rhs columns, output columns */                     \
    FIELD(int32_t, depth) /* k: the contracted dimension */                        \
    FIELD(int32_t, lhs_row_stride)                                                 \
    FIELD(int32_t, lhs_depth_stride)                                               \
    FIELD(int32_t, rhs_col_stride)                                                 \
    FIELD(int32_t, rhs_depth_stride)
typedef struct {
    TA_PARAM_MEMBERS(TA_BATCH_MATMUL_F32_PARAMS)
} ta_batch_matmul_f32_params_t;

int ta_batch_matmul_f32(const ta_batch_matmul_f32_params_t *p, const float *lhs, const float *rhs,
                        float *output);

#endif /* TA_BATCH_MATMUL_F32_H */
