/* ta_pooling.c - pooling kernels; see the header. */
#include "ta_pooling.h"

#include "../include/ta_quant.h"
#include "../include/ta_status.h"

#include <stddef.h>

/* The part of one filter window that lies inside the input: rows
   [y0, y1), columns [x0, x1). Empty only for output sizes the converter
   rejects. */
typedef struct {
    int32_t y0, y1, x0, x1;
} window_t;

static window_t pool_window(const ta_pool_params_t *p, int32_t oy, int32_t ox)
{
    window_t w;
    const int32_t iy = oy * p->stride_height - p->pad_height;
    const int32_t ix = ox * p->stride_width - p->pad_width;
    w.y0 = iy < 0 ? 0 : iy;
    w.x0 = ix < 0 ? 0 : ix;
    w.y1 = iy + p->filter_height < p->input_height ? iy + p->filter_height : p->input_height;
    w.x1 = ix + p->filter_width < p->input_width ? ix + p->filter_width : p->input_width;
    return w;
}

static size_t image_size(const ta_pool_params_t *p)
{
    return (size_t)p->input_height * (size_t)p->input_width * (size_t)p->depth;
}

static size_t pixel(const ta_pool_params_t *p, int32_t y, int32_t x)
{
    return ((size_t)y * (size_t)p->input_width + (size_t)x) * (size_t)p->depth;
}

/* sum / count rounded half away from zero (C division truncates). */
static int32_t rounded_average(int32_t sum, int32_t count)
{
    return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

int ta_average_pool_s8(const ta_pool_params_t *p, const int8_t *input, int8_t *output)
{
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in = input + (size_t)b * image_size(p);
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const window_t w = pool_window(p, oy, ox);
                if (w.y1 <= w.y0 || w.x1 <= w.x0)
                    return TA_ERR_KERNEL;
                const int32_t count = (w.y1 - w.y0) * (w.x1 - w.x0);
                for (int32_t ch = 0; ch < p->depth; ch++) {
                    int32_t sum = 0;
                    for (int32_t y = w.y0; y < w.y1; y++)
                        for (int32_t x = w.x0; x < w.x1; x++)
                            sum += in[pixel(p, y, x) + (size_t)ch];
                    *output++ = (int8_t)ta_clamp_i32(rounded_average(sum, count),
                                                     p->activation_min, p->activation_max);
                }
            }
        }
    }
    return TA_OK;
}

int ta_average_pool_s16(const ta_pool_params_t *p, const int16_t *input, int16_t *output)
{
    for (int32_t b = 0; b < p->batches; b++) {
        const int16_t *in = input + (size_t)b * image_size(p);
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const window_t w = pool_window(p, oy, ox);
                if (w.y1 <= w.y0 || w.x1 <= w.x0)
                    return TA_ERR_KERNEL;
                const int32_t count = (w.y1 - w.y0) * (w.x1 - w.x0);
                for (int32_t ch = 0; ch < p->depth; ch++) {
                    int32_t sum = 0;
                    for (int32_t y = w.y0; y < w.y1; y++)
                        for (int32_t x = w.x0; x < w.x1; x++)
                            sum += in[pixel(p, y, x) + (size_t)ch];
                    *output++ = (int16_t)ta_clamp_i32(rounded_average(sum, count),
                                                      p->activation_min, p->activation_max);
                }
            }
        }
    }
    return TA_OK;
}

int ta_max_pool_s8(const ta_pool_params_t *p, const int8_t *input, int8_t *output)
{
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in = input + (size_t)b * image_size(p);
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const window_t w = pool_window(p, oy, ox);
                for (int32_t ch = 0; ch < p->depth; ch++) {
                    int32_t m = INT8_MIN;
                    for (int32_t y = w.y0; y < w.y1; y++)
                        for (int32_t x = w.x0; x < w.x1; x++) {
                            const int32_t v = in[pixel(p, y, x) + (size_t)ch];
                            m = v > m ? v : m;
                        }
                    *output++ = (int8_t)ta_clamp_i32(m, p->activation_min, p->activation_max);
                }
            }
        }
    }
    return TA_OK;
}

int ta_max_pool_s16(const ta_pool_params_t *p, const int16_t *input, int16_t *output)
{
    for (int32_t b = 0; b < p->batches; b++) {
        const int16_t *in = input + (size_t)b * image_size(p);
        for (int32_t oy = 0; oy < p->output_height; oy++) {
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const window_t w = pool_window(p, oy, ox);
                for (int32_t ch = 0; ch < p->depth; ch++) {
                    int32_t m = INT16_MIN;
                    for (int32_t y = w.y0; y < w.y1; y++)
                        for (int32_t x = w.x0; x < w.x1; x++) {
                            const int32_t v = in[pixel(p, y, x) + (size_t)ch];
                            m = v > m ? v : m;
                        }
                    *output++ = (int16_t)ta_clamp_i32(m, p->activation_min, p->activation_max);
                }
            }
        }
    }
    return TA_OK;
}
