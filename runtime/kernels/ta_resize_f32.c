/* ta_resize_f32.c - float32 RESIZE_BILINEAR; see the header. */
#include "ta_resize_f32.h"

#include "../include/ta_status.h"

#include <math.h>
#include <stddef.h>

/* The source position of output index i along one axis and the two input
   indices around it (TFLite's ComputeInterpolationValues). */
typedef struct {
    float pos;
    int32_t lo, hi;
} source_t;

static source_t source(int32_t i, float scale, int32_t half, int32_t size)
{
    source_t s;
    s.pos = half ? ((float)i + 0.5f) * scale - 0.5f : (float)i * scale;
    const int32_t floor_i = (int32_t)floorf(s.pos), ceil_i = (int32_t)ceilf(s.pos);
    s.lo = floor_i > 0 ? floor_i : 0;
    s.hi = ceil_i < size - 1 ? ceil_i : size - 1;
    return s;
}

int ta_resize_bilinear_f32(const ta_resize_bilinear_f32_params_t *p, const float *input,
                           float *output)
{
    const size_t depth = (size_t)p->depth;
    const size_t row = (size_t)p->input_width * depth;
    const size_t image = (size_t)p->input_height * row;
    for (int32_t b = 0; b < p->batches; b++) {
        const float *in = input + (size_t)b * image;
        for (int32_t y = 0; y < p->out_height; y++) {
            const source_t sy = source(y, p->height_scale, p->half_pixel_centers, p->input_height);
            const float dy = sy.pos - (float)sy.lo, ry = 1.0f - dy;
            const float *r0 = in + (size_t)sy.lo * row, *r1 = in + (size_t)sy.hi * row;
            for (int32_t x = 0; x < p->out_width; x++) {
                const source_t sx = source(x, p->width_scale, p->half_pixel_centers,
                                           p->input_width);
                const float dx = sx.pos - (float)sx.lo, rx = 1.0f - dx;
                const size_t c0 = (size_t)sx.lo * depth, c1 = (size_t)sx.hi * depth;
                for (size_t c = 0; c < depth; c++)
                    *output++ = r0[c0 + c] * ry * rx + r1[c0 + c] * dy * rx + r0[c1 + c] * ry * dx +
                                r1[c1 + c] * dy * dx + 0.0f;
            }
        }
    }
    return TA_OK;
}
