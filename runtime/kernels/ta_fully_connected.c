/*
 * ta_fully_connected.c - FULLY_CONNECTED kernels; see the header. The
 * portable paths and the dispatch: int8 rows in groups of four run
 * ta_fully_connected_mve.c on Helium cores, ta_fully_connected_dsp.c with
 * the DSP extension.
 */
#include "ta_fully_connected.h"

#include "ta_fully_connected_dsp.h"
#include "ta_fully_connected_mve.h"

#include "../include/ta_matmul_simd.h"
#include "../include/ta_quant.h"
#include "../include/ta_simd.h"
#include "../include/ta_status.h"

#include <stddef.h>
#include <string.h>

/* The output_depth & ~3 rows of one input row in groups of four: four rows
   per pass share each input load; their four sums are requantized
   together. */
#if !defined(TA_MM_DSP)
static TA_NOINLINE void groups_s8(const ta_fully_connected_params_t *p, const int8_t *in,
                                  const int8_t *weights, const int32_t *bias_sum,
                                  const int32_t *multipliers, const int32_t *shifts, int8_t *out)
{
    static const int32_t zeros[4] = {0, 0, 0, 0};
    const int32_t depth = p->accum_depth, full = p->output_depth & ~3;
    for (int32_t o = 0; o < full; o += 4) {
        int32_t acc[4];
        memcpy(acc, bias_sum ? bias_sum + o : zeros, sizeof acc);
        ta_mm_dot4_s8(acc, weights + (size_t)o * (size_t)depth, depth, in, depth);
        ta_mm_requant_s8(acc, 4, multipliers ? multipliers + o : NULL, shifts ? shifts + o : NULL,
                         p->multiplier, p->shift, p->output_offset, p->activation_min,
                         p->activation_max, out + o);
    }
}
#endif

/* The last output_depth % 4 rows of one input row, one at a time. */
#if !defined(TA_MM_DSP)
static TA_NOINLINE void last_rows_s8(const ta_fully_connected_params_t *p, const int8_t *in,
                                     const int8_t *weights, const int32_t *bias_sum,
                                     const int32_t *multipliers, const int32_t *shifts, int8_t *out)
{
    const int32_t depth = p->accum_depth, o = p->output_depth & ~3, n = p->output_depth - o;
    int32_t acc[3];
    for (int32_t k = 0; k < n; k++)
        acc[k] = ta_mm_dot1_s8(bias_sum ? bias_sum[o + k] : 0,
                               weights + (size_t)(o + k) * (size_t)depth, in, depth);
    ta_mm_requant_s8(acc, n, multipliers ? multipliers + o : NULL, shifts ? shifts + o : NULL,
                     p->multiplier, p->shift, p->output_offset, p->activation_min,
                     p->activation_max, out + o);
}
#endif

int ta_fully_connected_s8(const ta_fully_connected_params_t *p, const int8_t *input,
                          const int8_t *weights, const int32_t *bias_sum,
                          const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    const int32_t depth = p->accum_depth, rows = p->output_depth;
#if !defined(TA_MM_DSP)
    const int32_t full = rows & ~3;
#endif
    /* Each part out of line: this loop's frame sits under each of them. */
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in = input + (size_t)b * (size_t)depth;
        int8_t *out = output + (size_t)b * (size_t)rows;
#if defined(TA_MM_DSP)
        /* A module converted for another core built for a DSP one (a DSP
           core's own take ta_fully_connected_s8_words): three rows a pass. */
        for (int32_t o = 0; o < rows; o += 3)
            ta_fully_connected_s8_rows_dsp(p, in, weights, bias_sum, multipliers, shifts, o,
                                           rows - o < 3 ? rows - o : 3, out);
#else
#if defined(TA_MM_MVE)
        if (bias_sum)
            ta_fully_connected_s8_groups_mve(p, in, weights, bias_sum, multipliers, shifts, out);
        else
#endif
            groups_s8(p, in, weights, bias_sum, multipliers, shifts, out);
        if (full < rows)
            last_rows_s8(p, in, weights, bias_sum, multipliers, shifts, out);
#endif
    }
    return TA_OK;
}

int ta_fully_connected_s8_interleaved(const ta_fully_connected_params_t *p, const int8_t *input,
                                      const int8_t *weights, const int32_t *bias_sum,
                                      const int32_t *multipliers, const int32_t *shifts,
                                      int8_t *output)
{
#if defined(TA_MM_MVE)
    ta_fully_connected_s8_interleaved_mve(p, input, weights, bias_sum, multipliers, shifts, output);
#else
    /* Other cores only meet this layout in a module converted for a Helium
       core: plain C, a block at a time. */
    const int32_t depth = p->accum_depth, rows = p->output_depth;
    const size_t block_bytes = (size_t)(depth + 15) / 16 * 64;
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *x = input + (size_t)b * (size_t)depth;
        for (int32_t o = 0; o < rows; o += 4) {
            const int8_t *w = weights + (size_t)(o / 4) * block_bytes;
            int32_t acc[4];
            memcpy(acc, bias_sum + o, sizeof acc);
            for (int32_t d = 0; d < depth; d++)
                for (int r = 0; r < 4; r++) /* unsigned: int32 wrap-around */
                    acc[r] = (int32_t)((uint32_t)acc[r] +
                                       (uint32_t)(w[(d / 16) * 64 + r * 16 + d % 16] * x[d]));
            ta_mm_requant_s8(acc, rows - o < 4 ? rows - o : 4, multipliers ? multipliers + o : NULL,
                             shifts ? shifts + o : NULL, p->multiplier, p->shift, p->output_offset,
                             p->activation_min, p->activation_max,
                             output + (size_t)b * (size_t)rows + o);
        }
    }
#endif
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
