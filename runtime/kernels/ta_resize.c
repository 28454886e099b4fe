/* ta_resize.c - see the header. */
#include "ta_resize.h"

#include "../include/ta_status.h"

#include <string.h>

int ta_resize_nearest(const ta_resize_nearest_params_t *p, const void *input, const int32_t *rows,
                      const int32_t *cols, void *output)
{
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    for (int32_t b = 0; b < p->batches; b++) {
        const uint8_t *batch = in + b * p->batch_bytes;
        for (int32_t y = 0; y < p->out_height; y++) {
            const uint8_t *row = batch + rows[y];
            for (int32_t x = 0; x < p->out_width; x++) {
                memcpy(out, row + cols[x], (size_t)p->pixel_bytes);
                out += p->pixel_bytes;
            }
        }
    }
    return TA_OK;
}

int ta_resize_bilinear_s8(const ta_resize_bilinear_params_t *p, const int8_t *input,
                          const int32_t *rows, const int32_t *cols, int8_t *output)
{
    const int32_t one = 1 << 10;
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *batch = input + b * p->batch_size;
        for (int32_t y = 0; y < p->out_height; y++) {
            const int8_t *r0 = batch + rows[3 * y], *r1 = batch + rows[3 * y + 1];
            const int32_t wy = rows[3 * y + 2];
            for (int32_t x = 0; x < p->out_width; x++) {
                const int32_t c0 = cols[3 * x], c1 = cols[3 * x + 1], wx = cols[3 * x + 2];
                /* Products of two Q10 weights: at most 2^22 in magnitude. */
                const int32_t w00 = (one - wy) * (one - wx), w10 = wy * (one - wx);
                const int32_t w01 = (one - wy) * wx, w11 = wy * wx;
                for (int32_t c = 0; c < p->depth; c++) {
                    const int64_t acc = (int64_t)r0[c0 + c] * w00 + (int64_t)r1[c0 + c] * w10 +
                                        (int64_t)r0[c1 + c] * w01 + (int64_t)r1[c1 + c] * w11;
                    /* Q20 -> integer, rounding half away from zero (TFLite's
                       default build; division truncates toward zero). */
                    const int64_t round = acc > 0 ? (1 << 19) : -(1 << 19);
                    *output++ = (int8_t)((acc + round) / (1 << 20));
                }
            }
        }
    }
    return TA_OK;
}
