/*
 * conv_common.h - what the convolution lowerings (CONV_2D,
 * DEPTHWISE_CONV_2D, TRANSPOSE_CONV) share: their attributes
 * (src/model/conv_options.h), TFLite's padding arithmetic,
 * weight quantization checks and per-channel requantization parameters,
 * bias decoding, the window geometry their output-over-input leads
 * start from.
 */
#ifndef TA_CONV_COMMON_H
#define TA_CONV_COMMON_H

#include "../../model/conv_options.h"
#include "../lower.h"
#include "stream_lead.h"

/* The parse hook of the three operators: op->attrs = a TaConvAttrs. */
bool ta_conv_parse(TaLower *L, TaOp *op, const TaConvFields *f);

/* LiteRT's Padding enum. */
enum { TA_PADDING_SAME = 0, TA_PADDING_VALID = 1 };

/* One spatial dimension as TFLite's ComputePaddingHeightWidth sees it: the
   output size the padding scheme gives for `in`, and the padding before
   the first element (half the total, rounded down). False, with an error,
   for arguments TFLite rejects. */
bool ta_conv_window(TaLower *L, TaOp *op, int padding, int32_t in, int32_t filter, int32_t stride,
                    int32_t dilation, int32_t *out, int32_t *pad_before);

/* The operands every convolution shares: int8 activations, or int16 ones
   (16x8) with zero points 0; per-tensor input and output quantization;
   constant int8 weights; rank-4 input, weights and output. `*wide` tells
   int16. False, with an error, otherwise. */
bool ta_conv_operands(TaLower *L, TaOp *op, const TaTensor *in, const TaTensor *w,
                      const TaTensor *out, bool *wide);

/* The float32 form: input, weights, output (and the bias if present) all
   float32, rank-4 input, weights and output. False, with an error,
   otherwise. */
bool ta_conv_float_operands(TaLower *L, TaOp *op, const TaTensor *in, const TaTensor *w,
                            const TaTensor *bias, const TaTensor *out);

typedef struct TaConvRequant {
    int32_t multiplier; /* per-tensor weights */
    int shift;
    TaTensor *multipliers; /* per-channel weights: int32 locals, else NULL */
    TaTensor *shifts;
    int32_t act_min, act_max;
} TaConvRequant;

/* Checks int8 constant symmetric weights with one scale or one per output
   channel along `axis`, then computes the requantization as TFLite's
   PopulateConvolutionQuantizationParams (double products) and the
   activation range. `acc64`: the int64-accumulator requantization, which
   allows smaller shifts. */
bool ta_conv_requant(TaLower *L, TaOp *op, const TaTensor *in, const TaTensor *w,
                     const TaTensor *out, int axis, int activation, bool acc64, TaConvRequant *r);

/* The constant bias as int64 values (from int16, int32 or int64), `channels`
   of them; *values = NULL when bias is NULL. False with an error when it is
   not constant or has the wrong size. */
bool ta_conv_bias(TaLower *L, TaOp *op, const TaTensor *bias, int32_t channels, int64_t **values);

/* The tensors a convolution kernel takes, in its argument order (the
   per-channel multipliers and shifts come from the TaConvRequant). */
typedef struct TaConvArgs {
    TaTensor *input;
    TaTensor *weights; /* as the kernel reads them (maybe rearranged) */
    TaTensor *bias;    /* NULL: none */
    TaTensor *output;
} TaConvArgs;

/* What every convolution lowering does once its params are filled: the
   kernel call's arguments and the operator's figures. Each of the model's
   weights is used once per `positions` (the output or input positions the
   kernel walks); parameters are the weights and the model's bias. */
void ta_conv_call_tail(TaLower *L, TaOp *op, TaKernelCall *c, const TaConvArgs *args,
                       const TaConvRequant *rq, const TaTensor *weights, const TaTensor *bias,
                       int64_t positions);
/* Its two parts: the arguments before the output (input, weights, bias,
   multipliers, shifts), and the operator's MACs and parameters. */
void ta_conv_call_inputs(TaLower *L, TaKernelCall *c, const TaConvArgs *args,
                         const TaConvRequant *rq);
void ta_conv_figures(TaOp *op, const TaTensor *weights, const TaTensor *bias, int64_t positions);

/* The window geometry of a convolution over the NHWC `in` (`out` its
   output, both checked by the lowering) with a filter_h x filter_w window,
   the attributes' strides and dilations and the paddings ta_conv_window
   gave; `elem` bytes per value (1 for int8, 2 for int16). */
TaStreamGeometry ta_conv_stream_geometry(const TaConvAttrs *a, const TaTensor *in,
                                         const TaTensor *out, int32_t filter_h, int32_t filter_w,
                                         int32_t pad_top, int32_t pad_left, size_t elem);

#endif /* TA_CONV_COMMON_H */
