/* ta_pooling_f32.c - float32 pools; see the header. */
#include "ta_pooling_f32.h"

#include "../include/ta_float.h"
#include "../include/ta_status.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

/* The window of one output pixel, clipped to the input as TFLite does. */
typedef struct {
    int32_t y0, y1, x0, x1; /* input rows [y0, y1), columns [x0, x1) */
} window_t;

static window_t clipped_window(const ta_pool_f32_params_t *p, int32_t oy, int32_t ox)
{
    const int32_t in_y = oy * p->stride_height - p->pad_height;
    const int32_t in_x = ox * p->stride_width - p->pad_width;
    window_t w;
    w.y0 = in_y > 0 ? in_y : 0;
    w.x0 = in_x > 0 ? in_x : 0;
    w.y1 = in_y + p->filter_height < p->input_height ? in_y + p->filter_height : p->input_height;
    w.x1 = in_x + p->filter_width < p->input_width ? in_x + p->filter_width : p->input_width;
    return w;
}

typedef enum { POOL_AVERAGE, POOL_MAX, POOL_L2 } pool_kind_t;

static void pool(const ta_pool_f32_params_t *p, const float *input, float *output, pool_kind_t kind)
{
    const size_t depth = (size_t)p->depth;
    const size_t row = (size_t)p->input_width * depth;
    const size_t image = (size_t)p->input_height * row;
    float *out = output;
    for (int32_t b = 0; b < p->batches; b++) {
        const float *in = input + (size_t)b * image;
        for (int32_t oy = 0; oy < p->output_height; oy++)
            for (int32_t ox = 0; ox < p->output_width; ox++) {
                const window_t w = clipped_window(p, oy, ox);
                for (size_t c = 0; c < depth; c++) {
                    float total = 0.0f, squares = 0.0f, count = 0.0f, max = -FLT_MAX;
                    for (int32_t y = w.y0; y < w.y1; y++)
                        for (int32_t x = w.x0; x < w.x1; x++) {
                            const float v = in[(size_t)y * row + (size_t)x * depth + c];
                            total += v;
                            squares += v * v;
                            count += 1.0f;
                            max = max < v ? v : max;
                        }
                    const float result = kind == POOL_AVERAGE ? total / count
                                         : kind == POOL_MAX   ? max
                                                              : sqrtf(squares / count);
                    *out++ = ta_activation_f32(result, p->activation_min, p->activation_max);
                }
            }
    }
}

int ta_average_pool_f32(const ta_pool_f32_params_t *p, const float *input, float *output)
{
    pool(p, input, output, POOL_AVERAGE);
    return TA_OK;
}

int ta_max_pool_f32(const ta_pool_f32_params_t *p, const float *input, float *output)
{
    pool(p, input, output, POOL_MAX);
    return TA_OK;
}

int ta_l2_pool_f32(const ta_pool_f32_params_t *p, const float *input, float *output)
{
    pool(p, input, output, POOL_L2);
    return TA_OK;
}
