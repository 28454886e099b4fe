/* ta_batch_matmul.c - BATCH_MATMUL kernels; see the header. */
#include "ta_batch_matmul.h"

#include "../include/ta_matmul_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include <stdbool.h>
#include <stddef.h>

int ta_batch_matmul_s8(const ta_batch_matmul_params_t *p, const int8_t *lhs, const int8_t *rhs,
                       const int32_t *col_terms, void *scratch, int8_t *output)
{
    const int32_t depth = p->depth;
    int32_t *runtime_terms = (int32_t *)scratch;
    /* Both operands contiguous along the depth (a constant rhs is stored
       transposed): the shared matrix-vector loops apply. */
    const bool contiguous = p->lhs_depth_stride == 1 && p->rhs_depth_stride == 1;
    for (int32_t b0 = 0; b0 < p->batch_dims[0]; b0++) {
        for (int32_t b1 = 0; b1 < p->batch_dims[1]; b1++) {
            for (int32_t b2 = 0; b2 < p->batch_dims[2]; b2++) {
                const int8_t *l_b = lhs + (ptrdiff_t)b0 * p->lhs_batch_strides[0] +
                                    (ptrdiff_t)b1 * p->lhs_batch_strides[1] +
                                    (ptrdiff_t)b2 * p->lhs_batch_strides[2];
                const int8_t *r_b = rhs + (ptrdiff_t)b0 * p->rhs_batch_strides[0] +
                                    (ptrdiff_t)b1 * p->rhs_batch_strides[1] +
                                    (ptrdiff_t)b2 * p->rhs_batch_strides[2];
                const int32_t *terms = NULL;
                if (col_terms) {
                    terms = col_terms + (ptrdiff_t)b0 * p->col_term_strides[0] +
                            (ptrdiff_t)b1 * p->col_term_strides[1] +
                            (ptrdiff_t)b2 * p->col_term_strides[2];
                } else if (p->lhs_offset != 0) {
                    /* lhs_offset * (sum_k r + depth * rhs_offset), once per column. */
                    for (int32_t i = 0; i < p->cols; i++) {
                        const int8_t *r = r_b + (ptrdiff_t)i * p->rhs_col_stride;
                        int32_t sum = 0;
                        for (int32_t k = 0; k < depth; k++)
                            sum += r[(ptrdiff_t)k * p->rhs_depth_stride];
                        runtime_terms[i] = p->lhs_offset * (sum + depth * p->rhs_offset);
                    }
                    terms = runtime_terms;
                }
                for (int32_t j = 0; j < p->rows; j++) {
                    const int8_t *l_row = l_b + (ptrdiff_t)j * p->lhs_row_stride;
                    int32_t row_term = 0;
                    if (p->rhs_offset != 0) {
                        for (int32_t k = 0; k < depth; k++)
                            row_term += l_row[(ptrdiff_t)k * p->lhs_depth_stride];
                        row_term *= p->rhs_offset;
                    }
                    if (contiguous) {
                        /* Four rhs columns share each load of the lhs row. */
                        for (int32_t i = 0; i < p->cols; i += 4) {
                            const int32_t count = p->cols - i < 4 ? p->cols - i : 4;
                            int32_t acc[4];
                            for (int32_t k = 0; k < count; k++)
                                acc[k] = row_term + (terms ? terms[i + k] : 0);
                            const int8_t *r = r_b + (ptrdiff_t)i * p->rhs_col_stride;
                            if (count == 4) {
                                ta_mm_dot4_s8(acc, r, p->rhs_col_stride, l_row, depth);
                            } else {
                                for (int32_t k = 0; k < count; k++)
                                    acc[k] = ta_mm_dot1_s8(
                                        acc[k], r + (ptrdiff_t)k * p->rhs_col_stride, l_row, depth);
                            }
                            ta_mm_requant_s8(acc, count, NULL, NULL, p->multiplier, p->shift,
                                             p->output_offset, p->activation_min, p->activation_max,
                                             output);
                            output += count;
                        }
                        continue;
                    }
                    for (int32_t i = 0; i < p->cols; i++) {
                        const int8_t *r = r_b + (ptrdiff_t)i * p->rhs_col_stride;
                        int32_t acc = row_term + (terms ? terms[i] : 0);
                        for (int32_t k = 0; k < depth; k++)
                            acc += (int32_t)l_row[(ptrdiff_t)k * p->lhs_depth_stride] *
                                   (int32_t)r[(ptrdiff_t)k * p->rhs_depth_stride];
                        int32_t v = ta_mul_by_quantized_multiplier(acc, p->multiplier,
                                                                   (int)p->shift) +
                                    p->output_offset;
                        *output++ = (int8_t)ta_clamp_i32(v, p->activation_min, p->activation_max);
                    }
                }
            }
        }
    }
    return TA_OK;
}

int ta_batch_matmul_s16(const ta_batch_matmul_params_t *p, const int16_t *lhs, const int16_t *rhs,
                        int16_t *output)
{
    for (int32_t b0 = 0; b0 < p->batch_dims[0]; b0++) {
        for (int32_t b1 = 0; b1 < p->batch_dims[1]; b1++) {
            for (int32_t b2 = 0; b2 < p->batch_dims[2]; b2++) {
                const int16_t *l_b = lhs + (ptrdiff_t)b0 * p->lhs_batch_strides[0] +
                                     (ptrdiff_t)b1 * p->lhs_batch_strides[1] +
                                     (ptrdiff_t)b2 * p->lhs_batch_strides[2];
                const int16_t *r_b = rhs + (ptrdiff_t)b0 * p->rhs_batch_strides[0] +
                                     (ptrdiff_t)b1 * p->rhs_batch_strides[1] +
                                     (ptrdiff_t)b2 * p->rhs_batch_strides[2];
                for (int32_t j = 0; j < p->rows; j++) {
                    const int16_t *l_row = l_b + (ptrdiff_t)j * p->lhs_row_stride;
                    for (int32_t i = 0; i < p->cols; i++) {
                        const int16_t *r = r_b + (ptrdiff_t)i * p->rhs_col_stride;
                        int64_t acc = 0;
                        for (int32_t k = 0; k < p->depth; k++)
                            acc += (int64_t)l_row[(ptrdiff_t)k * p->lhs_depth_stride] *
                                   (int64_t)r[(ptrdiff_t)k * p->rhs_depth_stride];
                        int32_t v = ta_mul_by_quantized_multiplier_64(acc, p->multiplier,
                                                                      (int)p->shift) +
                                    p->output_offset;
                        *output++ = (int16_t)ta_clamp_i32(v, p->activation_min, p->activation_max);
                    }
                }
            }
        }
    }
    return TA_OK;
}
