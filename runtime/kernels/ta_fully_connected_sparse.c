/* ta_fully_connected_sparse.c - int8 FULLY_CONNECTED with the zero weights
 * left out; see the header. The portable loop and the dispatch: Helium
 * cores run ta_fully_connected_sparse_mve.c's rows. */
#include "ta_fully_connected_sparse.h"

#include "ta_fully_connected_sparse_mve.h"

#include "../include/ta_matmul_simd.h"
#include "../include/ta_status.h"

#include <stddef.h>

#if !defined(TA_FC_SPARSE_MVE)
/* Unsigned sums: the int32 wrap without undefined behaviour. Two weights
   a turn, so the loop's own instructions count half. */
static inline int32_t sparse_dot(int32_t acc, const int8_t *in, const uint16_t *indices,
                                 const int8_t *weights, int32_t n)
{
    uint32_t a = (uint32_t)acc, b = 0;
    int32_t k = 0;
    for (; k + 2 <= n; k += 2) {
        a += (uint32_t)(weights[k] * in[indices[k]]);
        b += (uint32_t)(weights[k + 1] * in[indices[k + 1]]);
    }
    if (k < n)
        a += (uint32_t)(weights[k] * in[indices[k]]);
    return (int32_t)(a + b);
}

/* Every output of one input row, requantized as it is summed (the
   per-tensor shift taken apart once). */
static void sparse_row(const ta_fully_connected_params_t *p, const int8_t *in, const int32_t *ends,
                       const uint16_t *indices, const int8_t *weights, const int32_t *bias_sum,
                       const int32_t *multipliers, const int32_t *shifts, int8_t *out)
{
    const ta_mm_requant_t shared = ta_mm_requant_prepare(p->multiplier, p->shift);
    const int32_t offset = p->output_offset, lo = p->activation_min, hi = p->activation_max;
    int32_t start = 0;
    for (int32_t o = 0; o < p->output_depth; o++) {
        const int32_t acc = sparse_dot(bias_sum[o], in, indices + start, weights + start,
                                       ends[o] - start);
        start = ends[o];
        const int32_t v = (multipliers ? ta_mm_mul_q(acc, multipliers[o], shifts[o])
                                       : ta_mm_requant(&shared, acc)) +
                          offset;
        out[o] = (int8_t)(v < lo ? lo : (v > hi ? hi : v));
    }
}
#endif

int ta_fully_connected_s8_sparse(const ta_fully_connected_params_t *p, const int8_t *input,
                                 const int32_t *ends, const uint16_t *indices,
                                 const int8_t *weights, const int32_t *bias_sum,
                                 const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in = input + (size_t)b * (size_t)p->accum_depth;
        int8_t *out = output + (size_t)b * (size_t)p->output_depth;
#if defined(TA_FC_SPARSE_MVE)
        ta_fc_sparse_row_mve(p, in, ends, indices, weights, bias_sum, multipliers, shifts, out);
#else
        sparse_row(p, in, ends, indices, weights, bias_sum, multipliers, shifts, out);
#endif
    }
    return TA_OK;
}
