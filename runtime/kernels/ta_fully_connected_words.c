/*
 * ta_fully_connected_words.c - ta_fully_connected_s8_words (see the
 * header): the groups of four rows by ta_fully_connected_dsp.c on cores
 * with the DSP extension; in plain C elsewhere (a module converted for
 * a DSP core, run on the host or built for another core).
 */
#include "ta_fully_connected_words.h"

#include "ta_fully_connected_dsp.h"

#include "../include/ta_matmul_simd.h"
#include "../include/ta_status.h"

#include <stddef.h>
#include <string.h>

#if !defined(TA_MM_DSP)
/* acc + one row of a group times the input: the row's word k at w + 16 k. */
static int32_t group_row(int32_t acc, const int8_t *w, const int8_t *in, int32_t depth)
{
    for (int32_t d = 0; d < depth; d++) /* unsigned: int32 wrap-around */
        acc = (int32_t)((uint32_t)acc +
                        (uint32_t)(w[(size_t)(d / 4) * 16 + (size_t)(d % 4)] * in[d]));
    return acc;
}

/* The groups of four rows, a word of each in turn (rows `padded` bytes,
   a multiple of 4), then the last rows as the model has them (row o at
   last + o * depth), each requantized as ta_fully_connected_s8 does. */
static void words_s8(const ta_fully_connected_params_t *p, const int8_t *in, const int8_t *weights,
                     const int8_t *last, const int32_t *bias_sum, const int32_t *multipliers,
                     const int32_t *shifts, int8_t *out)
{
    const int32_t depth = p->accum_depth, rows = p->output_depth, full = rows & ~3;
    const size_t padded = ta_fc_words_row_bytes(depth);
    for (int32_t o = 0; o < rows; o += 4) {
        const int32_t n = o < full ? 4 : rows - o;
        int32_t acc[4];
        for (int32_t r = 0; r < n; r++) {
            const int32_t a = bias_sum ? bias_sum[o + r] : 0;
            acc[r] = o < full
                         ? group_row(a, weights + (size_t)o * padded + (size_t)r * 4, in, depth)
                         : ta_mm_dot1_s8(a, last + (size_t)(o + r) * (size_t)depth, in, depth);
        }
        ta_mm_requant_s8(acc, n, multipliers ? multipliers + o : NULL, shifts ? shifts + o : NULL,
                         p->multiplier, p->shift, p->output_offset, p->activation_min,
                         p->activation_max, out + o);
    }
}
#endif

int ta_fully_connected_s8_words(const ta_fully_connected_params_t *p, const int8_t *input,
                                const int8_t *weights, const int32_t *bias_sum,
                                const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    const int32_t depth = p->accum_depth, rows = p->output_depth, full = rows & ~3;
    /* the last rows after the groups' padded ones: row o at last + o * depth */
    const int8_t *last = weights + (size_t)full * (ta_fc_words_row_bytes(depth) - (size_t)depth);
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in = input + (size_t)b * (size_t)depth;
        int8_t *out = output + (size_t)b * (size_t)rows;
#if defined(TA_MM_DSP)
        ta_fully_connected_s8_groups_dsp(p, in, weights, bias_sum, multipliers, shifts, out);
        if (full < rows)
            ta_fully_connected_s8_rows_dsp(p, in, last, bias_sum, multipliers, shifts, full,
                                           rows - full, out);
#else
        words_s8(p, in, weights, last, bias_sum, multipliers, shifts, out);
#endif
    }
    return TA_OK;
}
