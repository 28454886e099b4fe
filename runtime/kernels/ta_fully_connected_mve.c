/*
 * ta_fully_connected_mve.c - FULLY_CONNECTED int8 on Helium (MVE,
 * Cortex-M55/M85): four rows per pass share each input load, their sums
 * requantized in one vector. Compiles to nothing on other cores.
 */
#include "ta_fully_connected_mve.h"

#include "../include/ta_matmul_simd.h"

#if defined(TA_MM_MVE)
/* The full groups of four rows of one input row, per-tensor
   requantization: one loop per sign of the shift, so that neither needs
   the other's steps. */
static void groups_per_tensor_mve(const int32_t *bias, const int8_t *w, int32_t depth,
                                  const int8_t *in, int8_t *o, const int8_t *o_end, int32_t m,
                                  int32_t shift, int32_t offset, int32x4_t lo, int32x4_t hi)
{
    if (shift >= 0) {
        for (; o < o_end; o += 4, w += 4 * depth) {
            const int32x4_t v = ta_mm_requant_left_mve(ta_mm_dot4_s8_mve(&bias, w, in, depth), m,
                                                       shift);
            vstrbq_s32(o, vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lo), hi));
        }
    } else {
        for (; o < o_end; o += 4, w += 4 * depth) {
            const int32x4_t v = ta_mm_requant_right_mve(ta_mm_dot4_s8_mve(&bias, w, in, depth), m,
                                                        shift);
            vstrbq_s32(o, vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lo), hi));
        }
    }
}

/* The same with a multiplier and shift per output channel. */
static void groups_per_channel_mve(const int32_t *bias, const int8_t *w, int32_t depth,
                                   const int8_t *in, int8_t *o, const int8_t *o_end,
                                   const int32_t *m, const int32_t *s, int32_t offset, int32x4_t lo,
                                   int32x4_t hi)
{
    for (; o < o_end; o += 4, w += 4 * depth, m += 4, s += 4) {
        const int32x4_t v = ta_mm_requant_mve(ta_mm_dot4_s8_mve(&bias, w, in, depth), vldrwq_s32(m),
                                              vldrwq_s32(s));
        vstrbq_s32(o, vminq_s32(vmaxq_s32(vaddq_n_s32(v, offset), lo), hi));
    }
}

void ta_fully_connected_s8_groups_mve(const ta_fully_connected_params_t *p, const int8_t *in,
                                      const int8_t *weights, const int32_t *bias_sum,
                                      const int32_t *multipliers, const int32_t *shifts,
                                      int8_t *out)
{
    const int32_t depth = p->accum_depth, full = p->output_depth & ~3;
    const int32x4_t lo = vdupq_n_s32(p->activation_min), hi = vdupq_n_s32(p->activation_max);
    if (multipliers)
        groups_per_channel_mve(bias_sum, weights, depth, in, out, out + full, multipliers, shifts,
                               p->output_offset, lo, hi);
    else
        groups_per_tensor_mve(bias_sum, weights, depth, in, out, out + full, p->multiplier,
                              p->shift, p->output_offset, lo, hi);
}
#endif
