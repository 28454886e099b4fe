/* ta_fully_connected_sparse_mve.c - the sparse rows on Helium; see the
 * header. */
#include "ta_fully_connected_sparse_mve.h"

#if defined(TA_FC_SPARSE_MVE)
#include "../include/ta_matmul_simd.h"

#include <arm_mve.h>

/* acc + sum_k weights[k] * in[indices[k]] for k < n: whole vectors, then
   one predicated tail. */
static inline int32_t sparse_dot(int32_t acc, const int8_t *in, const uint16_t *indices,
                                 const int8_t *weights, int32_t n)
{
    int32_t k = 0;
    for (; k + 8 <= n; k += 8) {
        const int16x8_t x = vldrbq_gather_offset_s16(in, vldrhq_u16(indices + k));
        acc = vmladavaq_s16(acc, x, vldrbq_s16(weights + k));
    }
    if (k < n) {
        const mve_pred16_t lanes = vctp16q((uint32_t)(n - k));
        const uint16x8_t at = vldrhq_z_u16(indices + k, lanes);
        const int16x8_t x = vldrbq_gather_offset_z_s16(in, at, lanes);
        acc = vmladavaq_p_s16(acc, x, vldrbq_z_s16(weights + k, lanes), lanes);
    }
    return acc;
}

void ta_fc_sparse_row_mve(const ta_fully_connected_params_t *p, const int8_t *in,
                          const int32_t *ends, const uint16_t *indices, const int8_t *weights,
                          const int32_t *bias_sum, const int32_t *multipliers,
                          const int32_t *shifts, int8_t *out)
{
    const int32_t rows = p->output_depth;
    int32_t start = 0;
    for (int32_t o = 0; o < rows; o += 4) {
        const int32_t n = rows - o < 4 ? rows - o : 4;
        int32_t acc[4];
        for (int32_t k = 0; k < n; k++) {
            acc[k] = sparse_dot(bias_sum[o + k], in, indices + start, weights + start,
                                ends[o + k] - start);
            start = ends[o + k];
        }
        ta_mm_requant_s8(acc, n, multipliers ? multipliers + o : NULL, shifts ? shifts + o : NULL,
                         p->multiplier, p->shift, p->output_offset, p->activation_min,
                         p->activation_max, out + o);
    }
}
#endif
