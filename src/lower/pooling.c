/*
 * pooling.c - AVERAGE_POOL_2D and MAX_POOL_2D, int8, int16 and float32, and
 * L2_POOL_2D, float32 only (TFLite Micro has no other), NHWC.
 *
 * Assumes: output quantization equal to the input's (TFLite Micro's
 * Prepare refuses anything else; there is no requantization).
 * Produces: the padding before the first row and column, as TFLite's
 * ComputePaddingHeightWidth, and the fused activation's clamp range.
 */
#include "../../runtime/kernels/ta_pooling.h"
#include "../../runtime/kernels/ta_pooling_f32.h"
#include "common/stream_lead.h"
#include "lower.h"

#include <math.h>

enum { OPT_PADDING = 0, OPT_STRIDE_W, OPT_STRIDE_H, OPT_FILTER_W, OPT_FILTER_H, OPT_ACTIVATION };
enum { PADDING_SAME = 0, PADDING_VALID = 1 };
enum { KIND_AVERAGE, KIND_MAX, KIND_L2 };

typedef struct PoolAttrs {
    int padding;
    int32_t stride_h, stride_w, filter_h, filter_w;
    int activation;
} PoolAttrs;

static bool parse(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    PoolAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->padding = ta_fb_i8(t, OPT_PADDING, PADDING_SAME);
    a->stride_w = ta_fb_i32(t, OPT_STRIDE_W, 0);
    a->stride_h = ta_fb_i32(t, OPT_STRIDE_H, 0);
    a->filter_w = ta_fb_i32(t, OPT_FILTER_W, 0);
    a->filter_h = ta_fb_i32(t, OPT_FILTER_H, 0);
    a->activation = ta_fb_i8(t, OPT_ACTIVATION, TA_ACT_NONE);
    if (r.failed)
        return false;
    if (a->padding != PADDING_SAME && a->padding != PADDING_VALID) {
        ta_op_error(L, op, "padding %d is neither SAME nor VALID", a->padding);
        return false;
    }
    if (a->stride_h < 1 || a->stride_w < 1 || a->filter_h < 1 || a->filter_w < 1) {
        ta_op_error(L, op, "strides (%d, %d) and filter (%d, %d) must be positive",
                    (int)a->stride_h, (int)a->stride_w, (int)a->filter_h, (int)a->filter_w);
        return false;
    }
    op->attrs = a;
    return true;
}

/* Output size and leading padding along one axis, as TFLite computes them. */
static void pool_geometry(int padding, int64_t in, int64_t filter, int64_t stride, int64_t *out,
                          int32_t *pad)
{
    *out = padding == PADDING_SAME ? (in + stride - 1) / stride : (in + stride - filter) / stride;
    int64_t total = (*out - 1) * stride + filter - in;
    *pad = (int32_t)(total > 0 ? total / 2 : 0);
}

/* float32: TFLite's float reference loops (ta_pooling_f32.h). No output
   over input: its order is not declared for the float kernels. */
static bool lower_float(TaLower *L, TaOp *op, int kind, TaTensor *in, TaTensor *out, int64_t out_h,
                        int64_t out_w, int32_t pad_h, int32_t pad_w)
{
    const PoolAttrs *a = op->attrs;
    const char *fn = kind == KIND_AVERAGE ? "ta_average_pool_f32"
                     : kind == KIND_MAX   ? "ta_max_pool_f32"
                                          : "ta_l2_pool_f32";
    TaKernelCall *c = ta_call(L, op, fn, "runtime/kernels/ta_pooling_f32.h");
    ta_pool_f32_params_t *p = TA_CALL_PARAMS(L, c, ta_pool_f32_params_t);
    p->batches = in->dims[0];
    p->input_height = in->dims[1];
    p->input_width = in->dims[2];
    p->depth = in->dims[3];
    p->output_height = (int32_t)out_h;
    p->output_width = (int32_t)out_w;
    p->stride_height = a->stride_h;
    p->stride_width = a->stride_w;
    p->filter_height = a->filter_h;
    p->filter_width = a->filter_w;
    p->pad_height = pad_h;
    p->pad_width = pad_w;
    if (!ta_float_activation_range(L, op, a->activation, &p->activation_min, &p->activation_max))
        return false;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    /* Pooling counts 0 MACs and 0 parameters by definition. */
    op->lowered.has_macs = op->lowered.has_parameters = true;
    op->lowered.macs = op->lowered.parameters = 0;
    return true;
}

static bool lower_pool(TaLower *L, TaOp *op, int kind)
{
    const PoolAttrs *a = op->attrs;
    const bool average = kind == KIND_AVERAGE;
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (kind == KIND_L2 && in->dtype != TA_FLOAT32) {
        ta_op_error(L, op, "input is %s: L2_POOL_2D runs on float32 only (as TFLite Micro)",
                    ta_dtype_name(in->dtype));
        return false;
    }
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_INT16, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1))
        return false;
    const bool is_float = in->dtype == TA_FLOAT32;
    if (!is_float &&
        (!ta_expect_per_tensor(L, op, in, "input") || !ta_expect_per_tensor(L, op, out, "output")))
        return false;
    /* TFLite Micro's check, in float: a pool cannot change the scale. */
    if (!is_float && (fabs((double)(ta_scale(in) - ta_scale(out))) > 1.0e-6 ||
                      ta_zero_point(in) != ta_zero_point(out))) {
        ta_op_error(L, op, "output quantization (%g, %d) differs from the input's (%g, %d)",
                    (double)ta_scale(out), (int)ta_zero_point(out), (double)ta_scale(in),
                    (int)ta_zero_point(in));
        return false;
    }
    if (in->rank != 4 || out->rank != 4) {
        ta_op_error(L, op, "input %s and output %s must have rank 4 (NHWC)",
                    ta_shape_text(L->pool, in), ta_shape_text(L->pool, out));
        return false;
    }
    int64_t out_h, out_w;
    int32_t pad_h, pad_w;
    pool_geometry(a->padding, in->dims[1], a->filter_h, a->stride_h, &out_h, &pad_h);
    pool_geometry(a->padding, in->dims[2], a->filter_w, a->stride_w, &out_w, &pad_w);
    if (out->dims[0] != in->dims[0] || out->dims[3] != in->dims[3] || out->dims[1] != out_h ||
        out->dims[2] != out_w || out_h < 1 || out_w < 1 || ta_tensor_elements(in) == 0) {
        ta_op_error(L, op,
                    "output %s does not match input %s with filter %dx%d, stride %dx%d, "
                    "%s padding",
                    ta_shape_text(L->pool, out), ta_shape_text(L->pool, in), (int)a->filter_h,
                    (int)a->filter_w, (int)a->stride_h, (int)a->stride_w,
                    a->padding == PADDING_SAME ? "SAME" : "VALID");
        return false;
    }
    if (is_float)
        return lower_float(L, op, kind, in, out, out_h, out_w, pad_h, pad_w);
    /* The int32 window sum must not overflow. */
    const int64_t window = (int64_t)a->filter_h * a->filter_w;
    if (average && window > (in->dtype == TA_INT16 ? 65536 : 1 << 24)) {
        ta_op_error(L, op, "a %dx%d window overflows the 32-bit sum", (int)a->filter_h,
                    (int)a->filter_w);
        return false;
    }
    int32_t act_min, act_max;
    if (!ta_activation_range(L, op, a->activation, out, &act_min, &act_max))
        return false;

    const bool wide = in->dtype == TA_INT16;
    const char *fn = average ? (wide ? "ta_average_pool_s16" : "ta_average_pool_s8")
                             : (wide ? "ta_max_pool_s16" : "ta_max_pool_s8");
    TaKernelCall *c = ta_call(L, op, fn, "runtime/kernels/ta_pooling.h");
    ta_pool_params_t *p = TA_CALL_PARAMS(L, c, ta_pool_params_t);
    p->batches = in->dims[0];
    p->input_height = in->dims[1];
    p->input_width = in->dims[2];
    p->depth = in->dims[3];
    p->output_height = out_h;
    p->output_width = out_w;
    p->stride_height = a->stride_h;
    p->stride_width = a->stride_w;
    p->filter_height = a->filter_h;
    p->filter_width = a->filter_w;
    p->pad_height = pad_h;
    p->pad_width = pad_w;
    p->activation_min = act_min;
    p->activation_max = act_max;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);

    /* One output pixel at a time, each block of channels written after
       reading just those channels of its window (ta_pooling.c). */
    const size_t pixel_bytes = (size_t)p->depth * (wide ? 2 : 1);
    const TaStreamGeometry geom = {
        .batches = p->batches,
        .in_h = p->input_height,
        .in_w = p->input_width,
        .out_h = out_h,
        .out_w = out_w,
        .filter_h = a->filter_h,
        .filter_w = a->filter_w,
        .stride_h = a->stride_h,
        .stride_w = a->stride_w,
        .dilation_h = 1,
        .dilation_w = 1,
        .pad_top = pad_h,
        .pad_left = pad_w,
        .in_pixel_bytes = pixel_bytes,
        .out_pixel_bytes = pixel_bytes,
    };
    ta_declare_overlap(L, op, 0, &geom, 1, TA_STREAM_CHANNEL_ALIGNED,
                       average ? "AVERAGE_POOL_2D" : "MAX_POOL_2D");
    /* Pooling counts 0 MACs and 0 parameters by definition. */
    op->lowered.has_macs = op->lowered.has_parameters = true;
    op->lowered.macs = op->lowered.parameters = 0;
    return true;
}

static bool lower_average(TaLower *L, TaOp *op)
{
    return lower_pool(L, op, KIND_AVERAGE);
}

static bool lower_max(TaLower *L, TaOp *op)
{
    return lower_pool(L, op, KIND_MAX);
}

static bool lower_l2(TaLower *L, TaOp *op)
{
    return lower_pool(L, op, KIND_L2);
}

const TaOpDef ta_op_average_pool_2d = {parse, lower_average};
const TaOpDef ta_op_max_pool_2d = {parse, lower_max};
const TaOpDef ta_op_l2_pool_2d = {parse, lower_l2};
