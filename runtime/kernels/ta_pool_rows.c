/* ta_pool_rows.c - an average pool a band of rows at a time; see the
 * header. Each window's channels are summed in registers over the band's
 * rows and the window's columns, then added to the int32 sums once: four
 * channels a vector on Helium, four a word in int16 halves (SXTAB16) with
 * the DSP extension, one at a time elsewhere. */
#include "ta_pool_rows.h"

#include "../include/ta_quant.h"
#include "../include/ta_simd.h"
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

/* A window of the band: `rows` rows `row` bytes apart, `cols` pixels
   `depth` bytes apart from px. */
typedef struct {
    const int8_t *px;
    size_t row, depth;
    int32_t rows, cols;
} band_window_t;

#if !defined(TA_HAVE_MVE)
/* sum[ch] += channel ch of every pixel of the window, channels [from, depth). */
static void add_channels(const band_window_t *w, size_t from, int32_t *sum)
{
    for (size_t ch = from; ch < w->depth; ch++) {
        int32_t acc = 0;
        for (int32_t y = 0; y < w->rows; y++)
            for (int32_t x = 0; x < w->cols; x++)
                acc += w->px[(size_t)y * w->row + (size_t)x * w->depth + ch];
        sum[ch] += acc;
    }
}
#endif

#if defined(TA_HAVE_MVE)
/* Sixteen channels a pass in four vectors (one loop step per pixel serves
   them all), the last channels four at a time, predicated. */
static void add_window(const band_window_t *w, int32_t *sum)
{
    size_t ch = 0;
    for (; ch + 16 <= w->depth; ch += 16) {
        int32x4_t a0 = vldrwq_s32(sum + ch), a1 = vldrwq_s32(sum + ch + 4);
        int32x4_t a2 = vldrwq_s32(sum + ch + 8), a3 = vldrwq_s32(sum + ch + 12);
        for (int32_t y = 0; y < w->rows; y++) {
            const int8_t *px = w->px + (size_t)y * w->row + ch;
            for (int32_t x = 0; x < w->cols; x++, px += w->depth) {
                a0 = vaddq_s32(a0, vldrbq_s32(px));
                a1 = vaddq_s32(a1, vldrbq_s32(px + 4));
                a2 = vaddq_s32(a2, vldrbq_s32(px + 8));
                a3 = vaddq_s32(a3, vldrbq_s32(px + 12));
            }
        }
        vstrwq_s32(sum + ch, a0);
        vstrwq_s32(sum + ch + 4, a1);
        vstrwq_s32(sum + ch + 8, a2);
        vstrwq_s32(sum + ch + 12, a3);
    }
    for (; ch < w->depth; ch += 4) {
        const mve_pred16_t lanes = vctp32q((uint32_t)(w->depth - ch));
        int32x4_t acc = vldrwq_z_s32(sum + ch, lanes);
        for (int32_t y = 0; y < w->rows; y++) {
            const int8_t *px = w->px + (size_t)y * w->row + ch;
            for (int32_t x = 0; x < w->cols; x++, px += w->depth)
                acc = vaddq_s32(acc, vldrbq_z_s32(px, lanes));
        }
        vstrwq_p_s32(sum + ch, acc, lanes);
    }
}
#elif defined(TA_HAVE_DSP)
/* int16 halves hold the sums of at most 256 int8 values exactly. */
enum { HALF_SUM_VALUES = 256 };

static void add_window(const band_window_t *w, int32_t *sum)
{
    size_t ch = 0;
    if (w->rows * w->cols <= HALF_SUM_VALUES) {
        for (; ch + 4 <= w->depth; ch += 4) {
            uint32_t even = 0, odd = 0; /* channels 0 and 2, 1 and 3 */
            for (int32_t y = 0; y < w->rows; y++) {
                const int8_t *px = w->px + (size_t)y * w->row + ch;
                for (int32_t x = 0; x < w->cols; x++, px += w->depth) {
                    const uint32_t word = ta_load_u32(px);
                    even = __sxtab16(even, word);
                    odd = ta_sxtab16_ror8(odd, word);
                }
            }
            sum[ch] += (int16_t)(even & 0xFFFFu);
            sum[ch + 1] += (int16_t)(odd & 0xFFFFu);
            sum[ch + 2] += (int16_t)(even >> 16);
            sum[ch + 3] += (int16_t)(odd >> 16);
        }
    }
    add_channels(w, ch, sum);
}
#else
static void add_window(const band_window_t *w, int32_t *sum)
{
    add_channels(w, 0, sum);
}
#endif

int ta_average_pool_rows_s8(const ta_pool_params_t *p, const int8_t *input, int32_t *sums)
{
    const size_t depth = (size_t)p->depth, row = (size_t)p->input_width * depth;
    if (p->output_height)
        memset(sums, 0, (size_t)p->output_width * depth * sizeof *sums);
    for (int32_t ox = 0; ox < p->output_width; ox++) {
        int32_t x0, x1;
        window_columns(p, ox, &x0, &x1);
        if (x1 <= x0 || p->input_height <= 0)
            continue;
        const band_window_t w = {input + (size_t)x0 * depth, row, depth, p->input_height, x1 - x0};
        add_window(&w, sums + (size_t)ox * depth);
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
