/* ta_pad_rows.c - int8 PAD row by row; see the header. Only the padding
 * is filled, the input bytes copied once (whole rows of pixels where no
 * channel is padded). */
#include "ta_pad_rows.h"

#include "../include/ta_status.h"

#include <stddef.h>
#include <string.h>

int ta_pad_rows_s8(const ta_pad_rows_params_t *p, const int8_t *input, int8_t *output)
{
    const size_t out_depth = (size_t)p->output_depth, in_depth = (size_t)p->input_depth;
    const size_t out_row = (size_t)p->output_width * out_depth;
    const size_t in_row = (size_t)p->input_width * in_depth;
    const size_t left = (size_t)p->pad_left * out_depth;
    const size_t right = out_row - left - (size_t)p->input_width * out_depth;
    const int value = (int)(uint8_t)p->value;
    for (int32_t oy = 0; oy < p->output_height; oy++) {
        int8_t *out = output + (size_t)oy * out_row;
        const int32_t iy = oy - p->pad_top;
        if (iy < 0 || iy >= p->input_height) {
            memset(out, value, out_row);
            continue;
        }
        const int8_t *in = input + (size_t)iy * in_row;
        memset(out, value, left);
        if (in_depth == out_depth) {
            memcpy(out + left, in, in_row);
        } else {
            int8_t *px = out + left;
            for (int32_t x = 0; x < p->input_width; x++, px += out_depth, in += in_depth) {
                memset(px, value, out_depth);
                memcpy(px + p->pad_front, in, in_depth);
            }
        }
        memset(out + out_row - right, value, right);
    }
    return TA_OK;
}
