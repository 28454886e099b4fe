/*
 * transpose_conv.c - TRANSPOSE_CONV, int8 activations (int32 bias) and
 * int16 activations (int64 or int16 bias) with int8 weights, per-tensor or
 * per-channel along axis 0; float32 throughout (TFLite's float reference,
 * ta_transpose_conv_f32.h).
 *
 * Operands: 0 output_shape (int32; TFLite Micro never reads it and uses
 * the output tensor's static shape, so a non-constant one, such as a
 * graph input, is accepted and left unread; a constant one must hold the
 * output's shape),
 * 1 weights [out_c, kh, kw, in_c], 2 input, 3 optional bias.
 * Assumes: NHWC, constant weights with zero point 0; int16 zero points 0.
 * Produces: the bias as int64 (int16 kernel; TFLite widens int16 biases
 * the same way), per-channel multipliers and shifts. The kernel gathers,
 * so TFLite's output-sized accumulator buffer is not needed.
 */
#include "../../runtime/kernels/ta_transpose_conv.h"
#include "../../runtime/kernels/ta_transpose_conv_f32.h"
#include "common/conv_common.h"

#include <string.h>

static bool parse(TaLower *L, TaOp *op)
{
    return ta_conv_parse(L, op, &ta_transpose_conv_fields);
}

static bool check_output_shape(TaLower *L, TaOp *op, const TaTensor *shape, const TaTensor *out)
{
    if (!ta_expect_dtype(L, op, shape, "output_shape", TA_INT32, -1))
        return false;
    if (shape->role != TA_REGION_CONSTANT || !shape->data)
        return true; /* computed at run time: unread, as in TFLite Micro */
    bool same = ta_tensor_elements(shape) == 4 && shape->data_size >= 16;
    for (int i = 0; same && i < 4; i++) {
        int32_t d;
        memcpy(&d, shape->data + 4 * i, 4);
        same = d == out->dims[i];
    }
    if (!same)
        ta_op_error(L, op, "output_shape (tensor %s) does not hold the output's shape %s",
                    shape->id, ta_shape_text(L->pool, out));
    return same;
}

/* float32: TFLite's scatter loop, accumulating in the output. */
static bool lower_float(TaLower *L, TaOp *op, const ta_transpose_conv_f32_params_t *geometry,
                        TaTensor *in, TaTensor *w, TaTensor *bias, TaTensor *out)
{
    const TaConvAttrs *a = op->attrs;
    if (bias && ta_tensor_elements(bias) != (size_t)geometry->output_depth) {
        ta_op_error(L, op, "bias has %zu elements for %d output channels", ta_tensor_elements(bias),
                    (int)geometry->output_depth);
        return false;
    }
    TaKernelCall *c = ta_call(L, op, "ta_transpose_conv_f32",
                              "runtime/kernels/ta_transpose_conv_f32.h");
    ta_transpose_conv_f32_params_t *p = TA_CALL_PARAMS(L, c, ta_transpose_conv_f32_params_t);
    *p = *geometry;
    if (!ta_float_activation_range(L, op, a->activation, &p->activation_min, &p->activation_max))
        return false;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, w);
    ta_call_arg(L, c, bias);
    ta_call_arg(L, c, out);
    ta_conv_figures(op, w, bias,
                    (int64_t)geometry->batches * geometry->input_height * geometry->input_width);
    return true;
}

static bool lower(TaLower *L, TaOp *op)
{
    const TaConvAttrs *a = op->attrs;
    if (!ta_expect_counts(L, op, 3, 4, 1))
        return false;
    TaTensor *shape = op->inputs[0], *w = op->inputs[1], *in = op->inputs[2];
    TaTensor *bias = op->num_inputs > 3 ? op->inputs[3] : NULL;
    TaTensor *out = op->outputs[0];
    bool wide = false;
    const bool is_float = in->dtype == TA_FLOAT32;
    if (is_float ? !ta_conv_float_operands(L, op, in, w, bias, out)
                 : !ta_conv_operands(L, op, in, w, out, &wide))
        return false;
    /* TFLite reads the bias as int32 (int8) or int64 (int16, which also
       widens an int16 bias). */
    if (!is_float && bias &&
        !ta_expect_dtype(L, op, bias, "bias", wide ? TA_INT64 : TA_INT32, wide ? TA_INT16 : -1, -1))
        return false;
    if (!check_output_shape(L, op, shape, out))
        return false;
    const int32_t batches = in->dims[0], in_h = in->dims[1], in_w = in->dims[2];
    const int32_t in_c = in->dims[3];
    const int32_t out_c = w->dims[0], k_h = w->dims[1], k_w = w->dims[2];
    const int32_t out_h = out->dims[1], out_w = out->dims[2];
    if (w->dims[3] != in_c || out->dims[3] != out_c || out->dims[0] != batches) {
        ta_op_error(L, op, "weights %s do not fit input %s and output %s",
                    ta_shape_text(L->pool, w), ta_shape_text(L->pool, in),
                    ta_shape_text(L->pool, out));
        return false;
    }
    /* TFLite pads as for a forward convolution of the output (dilation 1). */
    int32_t unused, pad_h, pad_w;
    if (!ta_conv_window(L, op, a->padding, out_h, k_h, a->stride_h, 1, &unused, &pad_h) ||
        !ta_conv_window(L, op, a->padding, out_w, k_w, a->stride_w, 1, &unused, &pad_w))
        return false;
    if (is_float) {
        const ta_transpose_conv_f32_params_t geometry = {
            .batches = batches,
            .input_height = in_h,
            .input_width = in_w,
            .input_depth = in_c,
            .filter_height = k_h,
            .filter_width = k_w,
            .output_height = out_h,
            .output_width = out_w,
            .output_depth = out_c,
            .stride_height = a->stride_h,
            .stride_width = a->stride_w,
            .pad_top = pad_h,
            .pad_left = pad_w,
        };
        return lower_float(L, op, &geometry, in, w, bias, out);
    }

    TaConvRequant rq;
    int64_t *bias_v;
    if (!ta_conv_requant(L, op, in, w, out, 0, a->activation, wide, &rq) ||
        !ta_conv_bias(L, op, bias, out_c, &bias_v))
        return false;
    TaTensor *bias_arg = NULL;
    if (bias && bias_v && wide) { /* bias_v comes from the bias */
        bias_arg = bias->dtype == TA_INT64
                       ? bias
                       : ta_local_constant(L, op, "bias", TA_INT64, out_c, bias_v);
        ta_derived_from(bias_arg, bias);
    } else if (bias_v) {
        bias_arg = bias;
    }

    TaKernelCall *c = ta_call(L, op, wide ? "ta_transpose_conv_s16" : "ta_transpose_conv_s8",
                              "runtime/kernels/ta_transpose_conv.h");
    ta_transpose_conv_params_t *p = TA_CALL_PARAMS(L, c, ta_transpose_conv_params_t);
    p->batches = batches;
    p->input_height = in_h;
    p->input_width = in_w;
    p->input_depth = in_c;
    p->filter_height = k_h;
    p->filter_width = k_w;
    p->output_height = out_h;
    p->output_width = out_w;
    p->output_depth = out_c;
    p->stride_height = a->stride_h;
    p->stride_width = a->stride_w;
    p->pad_top = pad_h;
    p->pad_left = pad_w;
    p->input_offset = -ta_zero_point(in);
    p->output_offset = ta_zero_point(out);
    p->multiplier = rq.multiplier;
    p->shift = rq.shift;
    p->activation_min = rq.act_min;
    p->activation_max = rq.act_max;
    const TaConvArgs args = {in, w, bias_arg, out};
    ta_conv_call_tail(L, op, c, &args, &rq, w, bias, (int64_t)batches * in_h * in_w);
    return true;
}

const TaOpDef ta_op_transpose_conv = {parse, lower};
