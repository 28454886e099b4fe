/* ta_conv_2d_add.c - CONV_2D fused with the ADD of a residual; see the
 * header.
 *
 * Each piece is an ordinary call of the convolution's entry on a window of
 * the output: one row (output_height 1, pad_top moved so that the row's
 * first input row is the one the whole image would use), or piece_pixels
 * pixels of it (pad_left moved the same way), or several whole rows. The
 * entry runs its own SIMD path on the piece, so the piece's bytes are the
 * ones the whole convolution writes there. ADD's arithmetic then combines
 * the piece with the residual as same-shaped elements (ta_add_same_s8).
 */
#include "ta_conv_2d_add.h"

#include <stddef.h>

#include "../include/ta_status.h"

#include "ta_add_sub.h"

typedef int (*conv_entry_t)(const ta_conv_2d_params_t *p, const int8_t *input,
                            const int8_t *weights, const int32_t *bias_sum,
                            const int32_t *multipliers, const int32_t *shifts, int8_t *output);

/* The convolution's fields of the fused list, copied by the list itself
   (it has no arrays: one would not build here, naming no macro). */
static void conv_params(const ta_conv_2d_add_params_t *p, ta_conv_2d_params_t *c)
{
#define TA_COPY_FIELD(type, name) c->name = p->name;
    TA_CONV_2D_PARAMS(TA_COPY_FIELD, TA_NO_ARRAY_HERE, TA_NO_ARRAY_HERE)
#undef TA_COPY_FIELD
}

/* ADD's arithmetic (ta_add_same_s8 reads no broadcast fields). */
static void add_params(const ta_conv_2d_add_params_t *p, ta_add_params_t *a)
{
    a->left_shift = p->left_shift;
    a->input1_offset = p->input1_offset;
    a->input1_multiplier = p->input1_multiplier;
    a->input1_shift = p->input1_shift;
    a->input2_offset = p->input2_offset;
    a->input2_multiplier = p->input2_multiplier;
    a->input2_shift = p->input2_shift;
    a->output_offset = p->sum_offset;
    a->output_multiplier = p->sum_multiplier;
    a->output_shift = p->sum_shift;
    a->activation_min = p->sum_min;
    a->activation_max = p->sum_max;
}

static int run_pieces(const ta_conv_2d_add_params_t *p, conv_entry_t conv, const int8_t *input,
                      const int8_t *weights, const int32_t *bias_sum, const int32_t *multipliers,
                      const int32_t *shifts, const int8_t *residual, int8_t *piece, int8_t *sum)
{
    if (p->piece_pixels < 1)
        return TA_ERR_BAD_ARGUMENT;
    ta_conv_2d_params_t c;
    conv_params(p, &c);
    ta_add_params_t a;
    add_params(p, &a);
    const int32_t width = p->output_width, depth = p->output_depth;
    /* Whole rows per piece when a row fits, else runs of pixels of a row. */
    const int32_t rows = p->piece_pixels >= width ? p->piece_pixels / width : 1;
    const int32_t run = p->piece_pixels >= width ? width : p->piece_pixels;
    const size_t image_size = (size_t)p->input_height * (size_t)p->input_width *
                              (size_t)p->input_depth;
    size_t at = 0; /* element of the output the piece starts at */
    c.batches = 1;
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *in_b = input + (size_t)b * image_size;
        for (int32_t oy = 0; oy < p->output_height; oy += rows) {
            c.output_height = p->output_height - oy < rows ? p->output_height - oy : rows;
            c.pad_top = p->pad_top - oy * p->stride_height;
            for (int32_t ox = 0; ox < width; ox += run) {
                c.output_width = width - ox < run ? width - ox : run;
                c.pad_left = p->pad_left - ox * p->stride_width;
                const int status = conv(&c, in_b, weights, bias_sum, multipliers, shifts, piece);
                if (status != TA_OK)
                    return status;
                const int32_t n = c.output_height * c.output_width * depth;
                ta_add_same_s8(&a, piece, residual + at, sum + at, n);
                at += (size_t)n;
            }
        }
    }
    return TA_OK;
}

int ta_conv_2d_add_s8(const ta_conv_2d_add_params_t *p, const int8_t *input, const int8_t *weights,
                      const int32_t *bias_sum, const int32_t *multipliers, const int32_t *shifts,
                      const int8_t *residual, int8_t *piece, int8_t *sum)
{
    return run_pieces(p, ta_conv_2d_s8, input, weights, bias_sum, multipliers, shifts, residual,
                      piece, sum);
}

int ta_conv_2d_add_s8_interleaved(const ta_conv_2d_add_params_t *p, const int8_t *input,
                                  const int8_t *weights, const int32_t *bias_sum,
                                  const int32_t *multipliers, const int32_t *shifts,
                                  const int8_t *residual, int8_t *piece, int8_t *sum)
{
    return run_pieces(p, ta_conv_2d_s8_interleaved, input, weights, bias_sum, multipliers, shifts,
                      residual, piece, sum);
}

int ta_conv_2d_add_s8_columns(const ta_conv_2d_add_params_t *p, const int8_t *input,
                              const int8_t *weights, const int32_t *bias_sum,
                              const int32_t *multipliers, const int32_t *shifts,
                              const int8_t *residual, int8_t *piece, int8_t *sum)
{
    return run_pieces(p, ta_conv_2d_s8_columns, input, weights, bias_sum, multipliers, shifts,
                      residual, piece, sum);
}

int ta_conv_2d_add_s8_long(const ta_conv_2d_add_params_t *p, const int8_t *input,
                           const int8_t *weights, const int32_t *bias_sum,
                           const int32_t *multipliers, const int32_t *shifts,
                           const int8_t *residual, int8_t *piece, int8_t *sum)
{
    return run_pieces(p, ta_conv_2d_s8_long, input, weights, bias_sum, multipliers, shifts,
                      residual, piece, sum);
}
