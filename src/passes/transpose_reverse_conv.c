/*
 * transpose_reverse_conv.c - TRANSPOSE_REVERSE_CONV: a transposed
 * convolution that is a plain convolution with its kernel reversed runs as
 * CONV_2D, on the convolution kernels.
 *
 * With stride 1, output pixel o of a transposed convolution sums input
 * pixel o + pad - f times weight f over the taps f; with the kernel
 * reversed (f' = k - 1 - f) that is input o - (k - 1 - pad) + f' times
 * weight f', a forward convolution padded by k - 1 - pad. TFLite pads a
 * SAME transposed convolution by floor((k - 1) / 2), and a SAME forward
 * convolution by the same amount, so the two agree exactly when k is odd
 * (in both directions) and the output has the input's size. Taps outside
 * the input are skipped by both, the sums are the same integers, and the
 * requantization and clamp are computed the same way for both operators
 * in TFLite, so int8 outputs are identical.
 *
 * Left alone: larger strides (the forward form would convolve an input
 * with zeros inserted between pixels, which the transposed kernel skips
 * instead of multiplying), VALID padding and even kernels (padding CONV_2D
 * cannot express), other types, and weights another operator reads.
 */
#include "transforms.h"

#include "../lower/ops.h"
#include "../model/conv_options.h"

#include <string.h>

enum { PADDING_SAME = 0 }; /* schema.fbs Padding */
enum { IN_SHAPE = 0, IN_WEIGHTS = 1, IN_INPUT = 2, IN_BIAS = 3 };

static bool rewrite(TaPassCtx *ctx, TaOp *op)
{
    if (op->num_inputs < 3 || op->num_inputs > 4 || op->num_outputs != 1 ||
        !op->inputs[IN_WEIGHTS] || !op->inputs[IN_INPUT])
        return false;
    TaTensor *w = op->inputs[IN_WEIGHTS], *in = op->inputs[IN_INPUT], *out = op->outputs[0];
    TaTensor *bias = op->num_inputs > IN_BIAS ? op->inputs[IN_BIAS] : NULL;
    if (in->dtype != TA_INT8 || out->dtype != TA_INT8 || w->dtype != TA_INT8 || !w->data ||
        in->rank != 4 || w->rank != 4 || out->rank != 4 || in->dims[3] != w->dims[3] ||
        out->dims[3] != w->dims[0] || in->dims[0] != out->dims[0] || in->dims[1] != out->dims[1] ||
        in->dims[2] != out->dims[2] || ta_tensor_readers(ctx->graph, w) != 1)
        return false;
    const int32_t oc = w->dims[0], kh = w->dims[1], kw = w->dims[2], ic = w->dims[3];
    if (kh % 2 == 0 || kw % 2 == 0)
        return false;
    /* TRANSPOSE_CONV's per-channel scales may be on any axis of the
       output-channel count; CONV_2D's are on axis 0. */
    if (w->quant && w->quant->num_scales > 1 && w->quant->axis != 0)
        return false;
    TaFbReader r = {.buf = op->options_buf,
                    .len = op->options_buf_len,
                    .path = ctx->model_path,
                    .diag = ctx->diag};
    TaFbTable t = op->options_pos ? ta_fb_table_at(&r, op->options_pos) : (TaFbTable){.r = &r};
    TaConvAttrs *a = ta_alloc(ctx->pool, sizeof *a);
    if (!ta_conv_read_attrs(t, &ta_transpose_conv_fields, a) || a->padding != PADDING_SAME ||
        a->stride_h != 1 || a->stride_w != 1)
        return false;
    a->dilation_h = a->dilation_w = 1;
    a->depth_multiplier = 0;

    /* [oc][y][x][ic] -> [oc][kh-1-y][kw-1-x][ic] */
    int8_t *data = ta_alloc(ctx->pool, (size_t)oc * kh * kw * ic + 1);
    const int8_t *src = (const int8_t *)w->data;
    for (int32_t o = 0; o < oc; o++)
        for (int32_t y = 0; y < kh; y++)
            for (int32_t x = 0; x < kw; x++)
                memcpy(&data[(((size_t)o * kh + (kh - 1 - y)) * kw + (kw - 1 - x)) * ic],
                       &src[(((size_t)o * kh + y) * kw + x) * ic], (size_t)ic);
    w->data = (const uint8_t *)data;

    /* CONV_2D's operands: input, weights, optional bias. */
    TaTensor **inputs = ta_alloc_array(ctx->pool, 3, sizeof *inputs);
    inputs[0] = in;
    inputs[1] = w;
    inputs[2] = bias;
    op->inputs = inputs;
    op->num_inputs = bias ? 3 : 2;
    op->builtin = TA_BUILTIN_CONV_2D;
    op->type = "CONV_2D";
    op->attrs = a;
    return true;
}

bool ta_pass_transpose_reverse_conv(TaPassCtx *ctx)
{
    for (int i = 0; i < ctx->graph->ops.len; i++) {
        TaOp *op = TA_OP(ctx->graph, i);
        if (op->builtin == TA_BUILTIN_TRANSPOSE_CONV && !op->removed)
            rewrite(ctx, op);
    }
    return true;
}
