/*
 * ta_batch_matmul.h - BATCH_MATMUL: out[b][j][i] = requant(sum_k
 *   (lhs[b][j][k] - lhs_zp) * (rhs[b][k][i] - rhs_zp)) over up to three
 * broadcast batch dimensions.
 *
 * Operands are addressed through strides so that adj_x / adj_y need no
 * copy: lhs element (j, k) of a batch is at j * lhs_row_stride +
 * k * lhs_depth_stride, rhs element (k, i) at i * rhs_col_stride +
 * k * rhs_depth_stride. A batch stride of 0 broadcasts that operand. The
 * converter stores a constant rhs transposed ([n][k]) so its inner loop is
 * contiguous.
 *
 * Zero points (int8) are expanded so the inner loop is a plain dot product:
 *   sum (l - zl)(r - zr) = sum l*r - zr * sum_k l - zl * (sum_k r - K * zr)
 * The last term, per rhs column, is `col_terms` (computed by the converter
 * for a constant rhs) or is computed once per batch into `scratch`.
 */
#ifndef TA_BATCH_MATMUL_H
#define TA_BATCH_MATMUL_H

#include <stdint.h>

#include "../include/ta_params.h"

#define TA_BATCH_MATMUL_PARAMS(FIELD, ARRAY, ARRAY_USED)                                    \
    ARRAY(int32_t, batch_dims, 3)        /* output batch dimensions, leading 1s added */    \
    ARRAY(int32_t, lhs_batch_strides, 3) /* in elements; 0 where lhs broadcasts */          \
    ARRAY(int32_t, rhs_batch_strides, 3)                                                    \
    ARRAY(int32_t, col_term_strides, 3) /* in col_terms elements; 0 where rhs broadcasts */ \
    FIELD(int32_t, rows)                /* m: lhs rows, output rows */                      \
    FIELD(int32_t, cols)                /* n: rhs columns, output columns */                \
    FIELD(int32_t, depth)               /* k: the contracted dimension */                   \
    FIELD(int32_t, lhs_row_stride)                                                          \
    FIELD(int32_t, lhs_depth_stride)                                                        \
    FIELD(int32_t, rhs_col_stride)                                                          \
    FIELD(int32_t, rhs_depth_stride)                                                        \
    FIELD(int32_t, lhs_offset) /* -lhs zero point */                                        \
    FIELD(int32_t, rhs_offset) /* -rhs zero point */                                        \
    TA_REQUANT_FIELDS(FIELD)                                                                \
    TA_ACTIVATION_FIELDS(FIELD, int32_t)
typedef struct {
    TA_PARAM_MEMBERS(TA_BATCH_MATMUL_PARAMS)
} ta_batch_matmul_params_t;

/* int8 operands and output, int32 accumulator. `col_terms` (rhs batches x
   cols int32) may be NULL: then the kernel computes them into `scratch`
   (cols int32), which may be NULL when lhs_offset is 0. */
int ta_batch_matmul_s8(const ta_batch_matmul_params_t *p, const int8_t *lhs, const int8_t *rhs,
                       const int32_t *col_terms, void *scratch, int8_t *output);

/* int16 operands and output (zero points 0), int64 accumulator. */
int ta_batch_matmul_s16(const ta_batch_matmul_params_t *p, const int16_t *lhs, const int16_t *rhs,
                        int16_t *output);

#endif /* TA_BATCH_MATMUL_H */
