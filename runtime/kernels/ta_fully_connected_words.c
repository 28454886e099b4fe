/*
 * ta_fully_connected_words.c - ta_fully_connected_s8_words (see the
 * header): the pairs of rows by ta_fully_connected_dsp.c on cores with
 * the DSP extension; in plain C elsewhere (a module converted for a DSP
 * core, run on the host or built for another core).
 */
#include "ta_fully_connected_words.h"

#include "ta_fully_connected_dsp.h"

#include "../include/ta_matmul_simd.h"
#include "../include/ta_status.h"

#include <stddef.h>
#include <string.h>

#if !defined(TA_MM_DSP)
/* The rows one at a time, each weight read back from its place in the
   layout, each sum requantized as ta_fully_connected_s8 does. */
static void rows_s8(const ta_fully_connected_params_t *p, const int8_t *in, const int8_t *weights,
                    const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                    int8_t *out)
{
    const int32_t depth = p->accum_depth, rows = p->output_depth;
    for (int32_t o = 0; o < rows; o++) {
        const int flipped = ta_fc_words_flipped(o, rows);
        uint32_t acc = bias_sum ? (uint32_t)bias_sum[o] : 0; /* int32 wrap-around */
        for (int32_t d = 0; d < depth; d++) {
            const uint8_t b = (uint8_t)weights[ta_fc_words_index(o, d, rows, depth)];
            const int32_t w = flipped ? (int32_t)b - 128 : (int32_t)(int8_t)b;
            acc += (uint32_t)(w * in[d]);
        }
        const int32_t sum = (int32_t)acc;
        ta_mm_requant_s8(&sum, 1, multipliers ? multipliers + o : NULL, shifts ? shifts + o : NULL,
                         p->multiplier, p->shift, p->output_offset, p->activation_min,
                         p->activation_max, out + o);
    }
}
#endif

int ta_fully_connected_s8_words(const ta_fully_connected_params_t *p, const int8_t *input,
                                const int8_t *weights, const int32_t *bias_sum,
                                const int32_t *multipliers, const int32_t *shifts, int8_t *output)
{
    const int32_t depth = p->accum_depth, rows = p->output_depth;
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in = input + (size_t)b * (size_t)depth;
        int8_t *out = output + (size_t)b * (size_t)rows;
#if defined(TA_MM_DSP)
        ta_fully_connected_s8_words_dsp(p, in, weights, bias_sum, multipliers, shifts, out);
#else
        rows_s8(p, in, weights, bias_sum, multipliers, shifts, out);
#endif
    }
    return TA_OK;
}
