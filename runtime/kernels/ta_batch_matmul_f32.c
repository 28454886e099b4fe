/* ta_batch_matmul_f32.c - float32 BATCH_MATMUL; see the header. */
#include "ta_batch_matmul_f32.h"

#include "../include/ta_status.h"

#include <stddef.h>

/* One batch: out[j][i] for all j, i. */
static void matmul(const ta_batch_matmul_f32_params_t *p, const float *lhs, const float *rhs,
                   float *out)
{
    for (int32_t j = 0; j < p->rows; j++)
        for (int32_t i = 0; i < p->cols; i++) {
            const float *l = lhs + (ptrdiff_t)j * p->lhs_row_stride;
            const float *r = rhs + (ptrdiff_t)i * p->rhs_col_stride;
            float total = 0.0f;
            for (int32_t k = 0; k < p->depth; k++)
                total += l[(ptrdiff_t)k * p->lhs_depth_stride] *
                         r[(ptrdiff_t)k * p->rhs_depth_stride];
            *out++ = total;
        }
}

int ta_batch_matmul_f32(const ta_batch_matmul_f32_params_t *p, const float *lhs, const float *rhs,
                        float *output)
{
    const size_t out_size = (size_t)p->rows * (size_t)p->cols;
    float *out = output;
    for (int32_t b0 = 0; b0 < p->batch_dims[0]; b0++)
        for (int32_t b1 = 0; b1 < p->batch_dims[1]; b1++)
            for (int32_t b2 = 0; b2 < p->batch_dims[2]; b2++) {
                const size_t l = (size_t)b0 * (size_t)p->lhs_batch_strides[0] +
                                 (size_t)b1 * (size_t)p->lhs_batch_strides[1] +
                                 (size_t)b2 * (size_t)p->lhs_batch_strides[2];
                const size_t r = (size_t)b0 * (size_t)p->rhs_batch_strides[0] +
                                 (size_t)b1 * (size_t)p->rhs_batch_strides[1] +
                                 (size_t)b2 * (size_t)p->rhs_batch_strides[2];
                matmul(p, lhs + l, rhs + r, out);
                out += out_size;
            }
    return TA_OK;
}
