/* ta_pool_rows.c - an average pool a band of rows at a time; see the
 * header. Portable C: the sums are a few adds per input byte. */
#include "ta_pool_rows.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include <stddef.h>
#include <string.h>

/* Input columns [*x0, *x1) of output column ox's window. */
static void window_columns(const ta_pool_params_t *p, int32_t ox, int32_t *x0, int32_t *x1)
{
    const int32_t ix = ox * p->stride_width - p->pad_width;
    *x0 = ix < 0 ? 0 : ix;
    *x1 = ix + p->filter_width < p->input_width ? ix + p->filter_width : p->input_width;
}

int ta_average_pool_rows_s8(const ta_pool_params_t *p, const int8_t *input, int32_t *sums)
{
    const size_t depth = (size_t)p->depth, row = (size_t)p->input_width * depth;
    if (p->output_height)
        memset(sums, 0, (size_t)p->output_width * depth * sizeof *sums);
    for (int32_t y = 0; y < p->input_height; y++)
        for (int32_t ox = 0; ox < p->output_width; ox++) {
            int32_t x0, x1;
            window_columns(p, ox, &x0, &x1);
            int32_t *sum = sums + (size_t)ox * depth;
            for (int32_t x = x0; x < x1; x++) {
                const int8_t *px = input + (size_t)y * row + (size_t)x * depth;
                for (size_t ch = 0; ch < depth; ch++)
                    sum[ch] += px[ch];
            }
        }
    return TA_OK;
}

int ta_average_pool_finish_s8(const ta_pool_params_t *p, const int32_t *sums, int8_t *output)
{
    const size_t depth = (size_t)p->depth;
    const int32_t top = -p->pad_height, bottom = top + p->filter_height;
    const int32_t rows = (bottom < p->input_height ? bottom : p->input_height) -
                         (top < 0 ? 0 : top);
    for (int32_t ox = 0; ox < p->output_width; ox++) {
        int32_t x0, x1;
        window_columns(p, ox, &x0, &x1);
        const int32_t count = rows * (x1 - x0);
        if (rows <= 0 || x1 <= x0)
            return TA_ERR_KERNEL;
        for (size_t ch = 0; ch < depth; ch++) {
            const int32_t sum = sums[(size_t)ox * depth + ch];
            const int32_t average = sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
            output[(size_t)ox * depth + ch] = (int8_t)ta_clamp_i32(average, p->activation_min,
                                                                   p->activation_max);
        }
    }
    return TA_OK;
}
