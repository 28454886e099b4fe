/* ta_fully_connected.c - FULLY_CONNECTED kernels; see the header. */
#include "ta_fully_connected.h"

#include "../include/ta_dw_simd.h"
#include "../include/ta_matmul_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_simd.h"
#include "../include/ta_status.h"

#include <stddef.h>
#include <string.h>

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
#endif

#if defined(TA_MM_DSP)
/* ta_mm_requant_s8 of four sums whose shifts are all right shifts (nearly
   every layer): the 32-bit rounding of ta_dw_requantize_right, the full
   int8 range one SSAT, the four bytes one word store. Returns 0 (nothing
   stored) when a shift is not negative. */
static int requant4_right_dsp(const int32_t acc[4], const int32_t *multipliers,
                              const int32_t *shifts, const ta_fully_connected_params_t *p,
                              int8_t *out)
{
    int32_t v[4];
    for (int32_t k = 0; k < 4; k++) {
        const int32_t m = multipliers ? multipliers[k] : p->multiplier;
        const int32_t sh = shifts ? shifts[k] : p->shift;
        if (sh >= 0)
            return 0;
        v[k] = ta_dw_requantize_right(acc[k], m, sh) + p->output_offset;
    }
    if (p->activation_min == INT8_MIN && p->activation_max == INT8_MAX) {
        const uint32_t w = ta_dw_pack_bytes(__ssat(v[0], 8), __ssat(v[1], 8), __ssat(v[2], 8),
                                            __ssat(v[3], 8));
        memcpy(out, &w, 4);
        return 1;
    }
    for (int32_t k = 0; k < 4; k++)
        out[k] = (int8_t)ta_clamp_i32(v[k], p->activation_min, p->activation_max);
    return 1;
}
#endif

int ta_fully_connected_s8(const ta_fully_connected_params_t *p, const int8_t *input,
                          const int8_t *weights, const int32_t *bias_sum,
                          const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    static const int32_t zeros[4] = {0, 0, 0, 0};
    const int32_t depth = p->accum_depth, rows = p->output_depth;
    const int32_t full = rows & ~3;
#if defined(TA_MM_MVE)
    const int32x4_t lo = vdupq_n_s32(p->activation_min), hi = vdupq_n_s32(p->activation_max);
#endif
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in = input + (size_t)b * (size_t)depth;
        int8_t *out = output + (size_t)b * (size_t)rows;
        /* Four rows per pass share each input load; their four sums are
           requantized together. */
#if defined(TA_MM_MVE)
        if (bias_sum && multipliers)
            groups_per_channel_mve(bias_sum, weights, depth, in, out, out + full, multipliers,
                                   shifts, p->output_offset, lo, hi);
        else if (bias_sum)
            groups_per_tensor_mve(bias_sum, weights, depth, in, out, out + full, p->multiplier,
                                  p->shift, p->output_offset, lo, hi);
        else
#endif
            for (int32_t o = 0; o < full; o += 4) {
                int32_t acc[4];
                memcpy(acc, bias_sum ? bias_sum + o : zeros, sizeof acc);
                ta_mm_dot4_s8(acc, weights + (size_t)o * (size_t)depth, depth, in, depth);
#if defined(TA_MM_DSP)
                /* per-channel arrays come in pairs */
                if (requant4_right_dsp(acc, multipliers && shifts ? multipliers + o : NULL,
                                       multipliers && shifts ? shifts + o : NULL, p, out + o))
                    continue;
#endif
                ta_mm_requant_s8(acc, 4, multipliers ? multipliers + o : NULL,
                                 shifts ? shifts + o : NULL, p->multiplier, p->shift,
                                 p->output_offset, p->activation_min, p->activation_max, out + o);
            }
        if (full < rows) {
            int32_t acc[3];
            const int32_t o = full, n = rows - full;
            for (int32_t k = 0; k < n; k++)
                acc[k] = ta_mm_dot1_s8(bias_sum ? bias_sum[o + k] : 0,
                                       weights + (size_t)(o + k) * (size_t)depth, in, depth);
            ta_mm_requant_s8(acc, n, multipliers ? multipliers + o : NULL,
                             shifts ? shifts + o : NULL, p->multiplier, p->shift, p->output_offset,
                             p->activation_min, p->activation_max, out + o);
        }
    }
    return TA_OK;
}

int ta_fully_connected_s16(const ta_fully_connected_params_t *p, const int16_t *input,
                           const int8_t *weights, const int64_t *bias_sum,
                           const int32_t *multipliers, const int32_t *shifts, int16_t *output)
{
    const int32_t depth = p->accum_depth;
    for (int32_t b = 0; b < p->batches; b++) {
        const int16_t *in = input + (size_t)b * (size_t)depth;
        for (int32_t o = 0; o < p->output_depth; o++) {
            const int8_t *w = weights + (size_t)o * (size_t)depth;
            const int64_t acc = ta_dot_s16_s8(bias_sum ? bias_sum[o] : 0, in, w, depth);
            const int32_t m = multipliers ? multipliers[o] : p->multiplier;
            const int32_t s = shifts ? shifts[o] : p->shift;
            int32_t out = ta_mul_by_quantized_multiplier_64(acc, m, (int)s) + p->output_offset;
            out = ta_clamp_i32(out, p->activation_min, p->activation_max);
            output[(size_t)b * (size_t)p->output_depth + (size_t)o] = (int16_t)out;
        }
    }
    return TA_OK;
}

int ta_fully_connected_s16_acc32(const ta_fully_connected_params_t *p, const int16_t *input,
                                 const int8_t *weights, const int32_t *bias_sum,
                                 const int32_t *multipliers, const int32_t *shifts, int16_t *output)
{
    const int32_t depth = p->accum_depth;
    for (int32_t b = 0; b < p->batches; b++) {
        const int16_t *in = input + (size_t)b * (size_t)depth;
        for (int32_t o = 0; o < p->output_depth; o++) {
            const int8_t *w = weights + (size_t)o * (size_t)depth;
            const int32_t acc = ta_dot_s16_s8_32(bias_sum ? bias_sum[o] : 0, in, w, depth);
            const int32_t m = multipliers ? multipliers[o] : p->multiplier;
            const int32_t s = shifts ? shifts[o] : p->shift;
            int32_t out = ta_mul_by_quantized_multiplier(acc, m, (int)s) + p->output_offset;
            out = ta_clamp_i32(out, p->activation_min, p->activation_max);
            output[(size_t)b * (size_t)p->output_depth + (size_t)o] = (int16_t)out;
        }
    }
    return TA_OK;
}
