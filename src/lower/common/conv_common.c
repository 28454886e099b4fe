/*
 * conv_common.c - helpers of the convolution lowerings; see conv_common.h.
 */
#include "conv_common.h"

#include <string.h>

bool ta_conv_parse(TaLower *L, TaOp *op, const TaConvFields *f)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    TaConvAttrs *a = ta_alloc(L->pool, sizeof *a);
    if (!ta_conv_read_attrs(t, f, a))
        return false;
    op->attrs = a;
    return true;
}

bool ta_conv_window(TaLower *L, TaOp *op, int padding, int32_t in, int32_t filter, int32_t stride,
                    int32_t dilation, int32_t *out, int32_t *pad_before)
{
    if ((padding != TA_PADDING_SAME && padding != TA_PADDING_VALID) || in < 0 || filter <= 0 ||
        stride <= 0 || dilation <= 0) {
        ta_op_error(L, op, "bad window: padding %d, size %d, filter %d, stride %d, dilation %d",
                    padding, (int)in, (int)filter, (int)stride, (int)dilation);
        return false;
    }
    const int64_t effective = ((int64_t)filter - 1) * dilation + 1;
    /* C division truncates toward zero, as TFLite's does. */
    const int64_t size = padding == TA_PADDING_SAME ? ((int64_t)in + stride - 1) / stride
                                                    : ((int64_t)in + stride - effective) / stride;
    if (size < 0 || size > INT32_MAX) {
        ta_op_error(L, op, "a filter of %lld does not fit an input of %d", (long long)effective,
                    (int)in);
        return false;
    }
    /* Kernels index the input as out * stride - pad + k * dilation in int32:
       bounding the window's whole reach (and the input) by 2^30 keeps every
       such sum, and the padding, inside int32. */
    const int64_t reach = (size > 0 ? (size - 1) * stride : 0) + effective;
    if (reach > (INT64_C(1) << 30) || in > (1 << 30)) {
        ta_op_error(L, op,
                    "the window reaches %lld elements (input %d, filter %d, stride %d, "
                    "dilation %d); tinyaot bounds it at 2^30 so index arithmetic fits in int32",
                    (long long)reach, (int)in, (int)filter, (int)stride, (int)dilation);
        return false;
    }
    int64_t total = (size - 1) * stride + effective - in;
    total = total > 0 ? total : 0;
    *out = (int32_t)size;
    *pad_before = (int32_t)(total / 2); /* the odd pixel goes after */
    return true;
}

bool ta_conv_requant(TaLower *L, TaOp *op, const TaTensor *in, const TaTensor *w,
                     const TaTensor *out, int axis, int activation, bool acc64, TaConvRequant *r)
{
    memset(r, 0, sizeof *r);
    const TaQuant *wq = w->quant;
    const int32_t channels = w->dims[axis];
    if (!wq || wq->num_scales < 1 ||
        (wq->num_scales > 1 && (wq->num_scales != channels || wq->axis != axis))) {
        ta_op_error(L, op, "weights need one scale, or one per output channel along axis %d", axis);
        return false;
    }
    for (int i = 0; i < wq->num_zero_points; i++) {
        if (wq->zero_point[i] != 0) {
            ta_op_error(L, op, "weights zero point %lld: int8 weights must be symmetric (0)",
                        (long long)wq->zero_point[i]);
            return false;
        }
    }
    for (int i = 0; i < wq->num_scales; i++) {
        if (!(wq->scale[i] >= 0.0f)) {
            ta_op_error(L, op, "weights scale %g is negative", (double)wq->scale[i]);
            return false;
        }
    }
    if (!ta_activation_range(L, op, activation, out, &r->act_min, &r->act_max))
        return false;

    const int n = wq->num_scales;
    int32_t *m = ta_alloc_array(L->pool, (size_t)n, sizeof(int32_t));
    int32_t *s = ta_alloc_array(L->pool, (size_t)n, sizeof(int32_t));
    const int max_shift = acc64 ? TA_SHIFT_MAX_INT64 : TA_SHIFT_MAX_INT32;
    for (int i = 0; i < n; i++) {
        /* All in double, as PopulateConvolutionQuantizationParams. */
        const double eff = (double)ta_scale(in) * (double)wq->scale[i] / (double)ta_scale(out);
        int sh;
        if (!ta_requant(L, op, "output", eff, max_shift, &m[i], &sh))
            return false;
        s[i] = sh;
    }
    if (n == 1) {
        r->multiplier = m[0];
        r->shift = (int)s[0];
    } else {
        r->multipliers = ta_local_constant(L, op, "multipliers", TA_INT32, n, m);
        r->shifts = ta_local_constant(L, op, "shifts", TA_INT32, n, s);
    }
    return true;
}

bool ta_conv_bias(TaLower *L, TaOp *op, const TaTensor *bias, int32_t channels, int64_t **values)
{
    *values = NULL;
    if (!bias)
        return true;
    if (!ta_expect_constant(L, op, bias, "bias"))
        return false;
    if (ta_tensor_elements(bias) != (size_t)channels) {
        ta_op_error(L, op, "bias has %zu elements for %d output channels", ta_tensor_elements(bias),
                    (int)channels);
        return false;
    }
    const size_t size = ta_dtype_size(bias->dtype);
    if ((bias->dtype != TA_INT16 && bias->dtype != TA_INT32 && bias->dtype != TA_INT64) ||
        bias->data_size < (size_t)channels * size) {
        ta_op_error(L, op, "bias (tensor %s) of type %s cannot be read", bias->id,
                    ta_dtype_name(bias->dtype));
        return false;
    }
    int64_t *v = ta_alloc_array(L->pool, (size_t)channels ? (size_t)channels : 1, sizeof(int64_t));
    for (int32_t o = 0; o < channels; o++) {
        const uint8_t *at = bias->data + (size_t)o * size;
        if (bias->dtype == TA_INT16) {
            int16_t x;
            memcpy(&x, at, sizeof x);
            v[o] = x;
        } else if (bias->dtype == TA_INT32) {
            int32_t x;
            memcpy(&x, at, sizeof x);
            v[o] = x;
        } else {
            memcpy(&v[o], at, sizeof v[o]);
        }
    }
    *values = v;
    return true;
}

bool ta_conv_operands(TaLower *L, TaOp *op, const TaTensor *in, const TaTensor *w,
                      const TaTensor *out, bool *wide)
{
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_INT16, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, w, "weights", TA_INT8, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1) ||
        !ta_expect_constant(L, op, w, "weights") || !ta_expect_per_tensor(L, op, in, "input") ||
        !ta_expect_per_tensor(L, op, out, "output"))
        return false;
    if (in->rank != 4 || w->rank != 4 || out->rank != 4) {
        ta_op_error(L, op, "input, weights and output must have rank 4");
        return false;
    }
    *wide = in->dtype == TA_INT16;
    /* TFLite's 16x8 convolutions ignore zero points; tinyaot requires 0. */
    if (*wide && (ta_zero_point(in) != 0 || ta_zero_point(out) != 0)) {
        ta_op_error(L, op, "int16 input and output need zero point 0");
        return false;
    }
    return true;
}

bool ta_conv_float_operands(TaLower *L, TaOp *op, const TaTensor *in, const TaTensor *w,
                            const TaTensor *bias, const TaTensor *out)
{
    if (!ta_expect_dtype(L, op, w, "weights", TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_FLOAT32, -1) ||
        (bias && !ta_expect_dtype(L, op, bias, "bias", TA_FLOAT32, -1)))
        return false;
    if (in->rank != 4 || w->rank != 4 || out->rank != 4) {
        ta_op_error(L, op, "input, weights and output must have rank 4");
        return false;
    }
    return true;
}

void ta_conv_call_inputs(TaLower *L, TaKernelCall *c, const TaConvArgs *args,
                         const TaConvRequant *rq)
{
    ta_call_arg(L, c, args->input);
    ta_call_arg(L, c, args->weights);
    ta_call_arg(L, c, args->bias);
    ta_call_arg(L, c, rq->multipliers);
    ta_call_arg(L, c, rq->shifts);
}

void ta_conv_figures(TaOp *op, const TaTensor *weights, const TaTensor *bias, int64_t positions)
{
    op->lowered.has_macs = op->lowered.has_parameters = true;
    op->lowered.macs = (int64_t)ta_tensor_elements(weights) * positions;
    op->lowered.parameters = (int64_t)ta_tensor_elements(weights) +
                             (bias ? (int64_t)ta_tensor_elements(bias) : 0);
}

void ta_conv_call_tail(TaLower *L, TaOp *op, TaKernelCall *c, const TaConvArgs *args,
                       const TaConvRequant *rq, const TaTensor *weights, const TaTensor *bias,
                       int64_t positions)
{
    ta_conv_call_inputs(L, c, args, rq);
    ta_call_arg(L, c, args->output);
    ta_conv_figures(op, weights, bias, positions);
}

TaStreamGeometry ta_conv_stream_geometry(const TaConvAttrs *a, const TaTensor *in,
                                         const TaTensor *out, int32_t filter_h, int32_t filter_w,
                                         int32_t pad_top, int32_t pad_left, size_t elem)
{
    return (TaStreamGeometry){
        .batches = in->dims[0],
        .in_h = in->dims[1],
        .in_w = in->dims[2],
        .out_h = out->dims[1],
        .out_w = out->dims[2],
        .filter_h = filter_h,
        .filter_w = filter_w,
        .stride_h = a->stride_h,
        .stride_w = a->stride_w,
        .dilation_h = a->dilation_h,
        .dilation_w = a->dilation_w,
        .pad_top = pad_top,
        .pad_left = pad_left,
        .in_pixel_bytes = (size_t)in->dims[3] * elem,
        .out_pixel_bytes = (size_t)out->dims[3] * elem,
    };
}
