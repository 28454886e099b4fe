/*
 * conv_options.c - reading the convolution family's options tables; see
 * conv_options.h.
 */
#include "conv_options.h"

const TaConvFields ta_conv_2d_fields = {0, 1, 2, 3, 4, 5, -1, 6};
const TaConvFields ta_depthwise_fields = {0, 1, 2, 4, 5, 6, 3, -1};
const TaConvFields ta_transpose_conv_fields = {0, 1, 2, 3, -1, -1, -1, 4};

static int32_t field_i32(TaFbTable t, int field, int32_t def)
{
    return field < 0 ? def : ta_fb_i32(t, field, def);
}

static int field_i8(TaFbTable t, int field)
{
    return field < 0 ? 0 : ta_fb_i8(t, field, 0);
}

bool ta_conv_read_attrs(TaFbTable t, const TaConvFields *f, TaConvAttrs *a)
{
    a->padding = field_i8(t, f->padding);
    a->stride_w = field_i32(t, f->stride_w, 0);
    a->stride_h = field_i32(t, f->stride_h, 0);
    a->activation = field_i8(t, f->activation);
    a->dilation_w = field_i32(t, f->dilation_w, 1);
    a->dilation_h = field_i32(t, f->dilation_h, 1);
    a->depth_multiplier = field_i32(t, f->depth_multiplier, 0);
    a->quantized_bias_type = field_i8(t, f->bias_type);
    return !t.r->failed;
}
