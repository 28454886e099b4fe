/*
 * conv_options.h - the attributes of the convolution family (CONV_2D,
 * DEPTHWISE_CONV_2D, TRANSPOSE_CONV) as their options tables hold them.
 * The lowerings and the depthwise-to-conv pass both read them.
 */
#ifndef TA_CONV_OPTIONS_H
#define TA_CONV_OPTIONS_H

#include "fb.h"

/* The attributes of the convolution family, whichever options table they
   come from. */
typedef struct TaConvAttrs {
    int padding, activation, quantized_bias_type;
    int32_t stride_w, stride_h, dilation_w, dilation_h, depth_multiplier;
} TaConvAttrs;

/* Where an options table keeps them (schema.fbs field numbers); -1: it has
   no such field, and the default (dilation 1, others 0) applies. */
typedef struct TaConvFields {
    int padding, stride_w, stride_h, activation, dilation_w, dilation_h, depth_multiplier,
        bias_type;
} TaConvFields;

extern const TaConvFields ta_conv_2d_fields;        /* Conv2DOptions */
extern const TaConvFields ta_depthwise_fields;      /* DepthwiseConv2DOptions */
extern const TaConvFields ta_transpose_conv_fields; /* TransposeConvOptions */

/* Reads the attributes from an options table (false if it is malformed,
   which the reader has reported). */
bool ta_conv_read_attrs(TaFbTable t, const TaConvFields *f, TaConvAttrs *a);

#endif /* TA_CONV_OPTIONS_H */
