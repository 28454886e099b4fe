/*
 * depthwise_to_conv.c - DEPTHWISE_TO_CONV: a depthwise convolution over a
 * single input channel is a plain convolution with depth_multiplier output
 * channels. Rewritten as CONV_2D (the views report that type and keep the
 * model operator index), it runs on the convolution kernel. The weights
 * [1, kh, kw, oc] become [oc, kh, kw, 1] (the same bytes transposed) with
 * per-channel scales along axis 0; requantization, padding and the
 * activation are computed the same way for both operators in TFLite, and
 * integer sums do not depend on their order, so outputs are identical.
 */
#include "transforms.h"

#include "../lower/ops.h"
#include "../model/conv_options.h"

#include <string.h>

static bool rewrite(TaPassCtx *ctx, TaOp *op)
{
    if (op->num_inputs < 2 || op->num_outputs != 1 || !op->inputs[0] || !op->inputs[1])
        return false;
    TaTensor *in = op->inputs[0], *w = op->inputs[1];
    if (in->rank != 4 || in->dims[3] != 1 || w->rank != 4 || w->dims[0] != 1 || !w->data ||
        w->dtype != TA_INT8 || ta_tensor_readers(ctx->graph, w) != 1)
        return false;
    TaFbReader r = {.buf = op->options_buf,
                    .len = op->options_buf_len,
                    .path = ctx->model_path,
                    .diag = ctx->diag};
    TaFbTable t = op->options_pos ? ta_fb_table_at(&r, op->options_pos) : (TaFbTable){.r = &r};
    /* The depthwise attributes are the convolution's (its depth multiplier
       equals the output channels, which the new weights carry). */
    TaConvAttrs *a = ta_alloc(ctx->pool, sizeof *a);
    if (!ta_conv_read_attrs(t, &ta_depthwise_fields, a))
        return false;
    const int32_t kh = w->dims[1], kw = w->dims[2], oc = w->dims[3];
    if (w->quant && w->quant->num_scales > 1 && w->quant->axis != 3)
        return false;
    /* [1][kh][kw][oc] -> [oc][kh][kw][1] */
    int8_t *data = ta_alloc(ctx->pool, (size_t)kh * kw * oc + 1);
    const int8_t *src = (const int8_t *)w->data;
    for (int32_t y = 0; y < kh; y++)
        for (int32_t x = 0; x < kw; x++)
            for (int32_t c = 0; c < oc; c++)
                data[((size_t)c * kh + y) * kw + x] = src[((size_t)y * kw + x) * oc + c];
    w->data = (const uint8_t *)data;
    w->dims[0] = oc;
    w->dims[3] = 1;
    if (w->quant && w->quant->num_scales > 1)
        w->quant->axis = 0;
    op->builtin = TA_BUILTIN_CONV_2D;
    op->type = "CONV_2D";
    op->attrs = a;
    return true;
}

bool ta_pass_depthwise_to_conv(TaPassCtx *ctx)
{
    for (int i = 0; i < ctx->graph->ops.len; i++) {
        TaOp *op = TA_OP(ctx->graph, i);
        if (op->builtin == TA_BUILTIN_DEPTHWISE_CONV_2D && !op->removed)
            rewrite(ctx, op);
    }
    return true;
}
