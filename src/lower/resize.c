/*
 * resize.c - RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR (NHWC, constant
 * size operand). Which input rows and columns each output row and column
 * reads is computed here, in TFLite Micro's arithmetic (float for nearest
 * neighbour, Q10 integers for int8 bilinear), into two small tables;
 * float32 bilinear gets TFLite's float scales and finds its positions at
 * run time. Nearest neighbour moves bytes of any listed dtype.
 */
#include "../../runtime/kernels/ta_resize.h"
#include "../../runtime/kernels/ta_resize_f32.h"
#include "common/copy_nd.h"

#include <math.h>

typedef struct ResizeAttrs {
    bool align_corners;
    bool half_pixel_centers;
} ResizeAttrs;

static bool parse_attrs(TaLower *L, TaOp *op, int first_field)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    ResizeAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->align_corners = ta_fb_bool(t, first_field, false);
    a->half_pixel_centers = ta_fb_bool(t, first_field + 1, false);
    op->attrs = a;
    return !r.failed;
}

static bool parse_nearest(TaLower *L, TaOp *op)
{
    return parse_attrs(L, op, 0);
}

static bool parse_bilinear(TaLower *L, TaOp *op)
{
    return parse_attrs(L, op, 2); /* after the deprecated new_height, new_width */
}

/* Input and output [N, H, W, C] agreeing with the constant size [H', W']. */
static bool check_shapes(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    const TaTensor *in = op->inputs[0], *out = op->outputs[0];
    int64_t size[2];
    int n;
    if (!ta_expect_dtype(L, op, out, "output", in->dtype, -1) ||
        !ta_const_ints(L, op, op->inputs[1], "size", false, size, 2, &n))
        return false;
    if (in->rank != 4 || out->rank != 4 || n != 2 || out->dims[0] != in->dims[0] ||
        out->dims[3] != in->dims[3] || out->dims[1] != size[0] || out->dims[2] != size[1] ||
        in->dims[1] < 1 || in->dims[2] < 1) {
        ta_op_error(L, op, "input %s, size and output %s do not make a 4-D resize",
                    ta_shape_text(L->pool, in), ta_shape_text(L->pool, out));
        return false;
    }
    return true;
}

/* TFLite's nearest input index for output index i, in float. */
static int32_t nearest(int32_t i, int32_t in_size, int32_t out_size, bool align, bool half)
{
    const float scale = align && out_size > 1 ? (float)(in_size - 1) / (float)(out_size - 1)
                                              : (float)in_size / (float)out_size;
    const float pos = ((float)i + (half ? 0.5f : 0.0f)) * scale;
    int32_t v = align ? (int32_t)roundf(pos) : (int32_t)floorf(pos);
    if (v > in_size - 1)
        v = in_size - 1;
    if (half && v < 0)
        v = 0;
    return v;
}

static bool lower_nearest(TaLower *L, TaOp *op)
{
    const ResizeAttrs *a = op->attrs;
    if (!check_shapes(L, op) || !ta_expect_dtype(L, op, op->inputs[0], "input", TA_INT8, TA_INT16,
                                                 TA_INT32, TA_FLOAT32, -1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    const int32_t ih = in->dims[1], iw = in->dims[2], oh = out->dims[1], ow = out->dims[2];
    const int64_t pixel = (int64_t)in->dims[3] * (int64_t)ta_dtype_size(in->dtype);
    if (ta_tensor_elements(out) == 0)
        return true;
    int32_t *rows = ta_alloc_array(L->pool, (size_t)oh, sizeof *rows);
    int32_t *cols = ta_alloc_array(L->pool, (size_t)ow, sizeof *cols);
    for (int32_t y = 0; y < oh; y++)
        rows[y] = (int32_t)(nearest(y, ih, oh, a->align_corners, a->half_pixel_centers) * iw *
                            pixel);
    for (int32_t x = 0; x < ow; x++)
        cols[x] = (int32_t)(nearest(x, iw, ow, a->align_corners, a->half_pixel_centers) * pixel);
    TaKernelCall *c = ta_call(L, op, "ta_resize_nearest", "runtime/kernels/ta_resize.h");
    ta_resize_nearest_params_t *p = TA_CALL_PARAMS(L, c, ta_resize_nearest_params_t);
    p->batches = in->dims[0];
    p->out_height = oh;
    p->out_width = ow;
    p->pixel_bytes = pixel;
    p->batch_bytes = ih * iw * pixel;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, ta_local_constant(L, op, "rows", TA_INT32, oh, rows));
    ta_call_arg(L, c, ta_local_constant(L, op, "cols", TA_INT32, ow, cols));
    ta_call_arg(L, c, out);
    return true;
}

/* TFLite's integer bilinear source positions for one axis: for each
   output index the two input indices and the Q10 weight of the second.
   False if an index would leave the input (TFLite would read outside). */
static bool bilinear_axis(int32_t in_size, int32_t out_size, bool align, bool half, int64_t stride,
                          int32_t *table)
{
    int32_t scale = ((1 << 10) * in_size + out_size / 2) / out_size;
    if (align && out_size > 1)
        scale = ((1 << 10) * (in_size - 1) + (out_size - 1) / 2) / (out_size - 1);
    for (int32_t i = 0; i < out_size; i++) {
        const int32_t pos = half ? i * scale + scale / 2 - (1 << 9) : i * scale;
        int32_t lo = pos / (1 << 10), hi = (pos + (1 << 10) - 1) / (1 << 10);
        lo = lo < 0 ? 0 : lo;
        hi = hi > in_size - 1 ? in_size - 1 : hi;
        const int32_t w = pos - (1 << 10) * lo;
        if (lo > in_size - 1 || hi < 0 || w <= -(1 << 10) || w >= (1 << 10))
            return false;
        table[3 * i] = (int32_t)(lo * stride);
        table[3 * i + 1] = (int32_t)(hi * stride);
        table[3 * i + 2] = w;
    }
    return true;
}

/* TFLite's float scale along one axis: in / out, or (in - 1) / (out - 1)
   with align_corners and more than one output, each size a float. */
static float bilinear_scale_f32(int32_t in_size, int32_t out_size, bool align)
{
    if (align && out_size > 1)
        return (float)(in_size - 1) / (float)(out_size - 1);
    return (float)in_size / (float)out_size;
}

/* float32: TFLite's float reference (ta_resize_f32.h); the kernel finds
   the source positions itself, from these scales. */
static bool lower_bilinear_f32(TaLower *L, TaOp *op, TaTensor *in, TaTensor *out)
{
    const ResizeAttrs *a = op->attrs;
    TaKernelCall *c = ta_call(L, op, "ta_resize_bilinear_f32", "runtime/kernels/ta_resize_f32.h");
    ta_resize_bilinear_f32_params_t *p = TA_CALL_PARAMS(L, c, ta_resize_bilinear_f32_params_t);
    p->batches = in->dims[0];
    p->input_height = in->dims[1];
    p->input_width = in->dims[2];
    p->depth = in->dims[3];
    p->out_height = out->dims[1];
    p->out_width = out->dims[2];
    p->height_scale = bilinear_scale_f32(in->dims[1], out->dims[1], a->align_corners);
    p->width_scale = bilinear_scale_f32(in->dims[2], out->dims[2], a->align_corners);
    p->half_pixel_centers = a->half_pixel_centers;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    return true;
}

static bool lower_bilinear(TaLower *L, TaOp *op)
{
    const ResizeAttrs *a = op->attrs;
    if (!check_shapes(L, op) ||
        !ta_expect_dtype(L, op, op->inputs[0], "input", TA_INT8, TA_FLOAT32, -1))
        return false;
    if (a->align_corners && a->half_pixel_centers) {
        ta_op_error(L, op, "align_corners and half_pixel_centers cannot both be set");
        return false;
    }
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    const int32_t ih = in->dims[1], iw = in->dims[2], oh = out->dims[1], ow = out->dims[2];
    const int32_t depth = in->dims[3];
    if (ta_tensor_elements(out) == 0)
        return true;
    if (in->dtype == TA_FLOAT32)
        return lower_bilinear_f32(L, op, in, out);
    if ((int64_t)ih * 1024 + oh > INT32_MAX / 2 || (int64_t)iw * 1024 + ow > INT32_MAX / 2 ||
        (int64_t)oh * 1024 * ih > INT32_MAX / 2 || (int64_t)ow * 1024 * iw > INT32_MAX / 2) {
        ta_op_error(L, op, "sizes too large for TFLite's Q10 arithmetic");
        return false;
    }
    int32_t *rows = ta_alloc_array(L->pool, (size_t)oh * 3, sizeof *rows);
    int32_t *cols = ta_alloc_array(L->pool, (size_t)ow * 3, sizeof *cols);
    if (!bilinear_axis(ih, oh, a->align_corners, a->half_pixel_centers, (int64_t)iw * depth,
                       rows) ||
        !bilinear_axis(iw, ow, a->align_corners, a->half_pixel_centers, depth, cols)) {
        ta_op_error(L, op, "resizing %s to %s would read outside the input",
                    ta_shape_text(L->pool, in), ta_shape_text(L->pool, out));
        return false;
    }
    TaKernelCall *c = ta_call(L, op, "ta_resize_bilinear_s8", "runtime/kernels/ta_resize.h");
    ta_resize_bilinear_params_t *p = TA_CALL_PARAMS(L, c, ta_resize_bilinear_params_t);
    p->batches = in->dims[0];
    p->out_height = oh;
    p->out_width = ow;
    p->depth = depth;
    p->batch_size = (int64_t)ih * iw * depth;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, ta_local_constant(L, op, "rows", TA_INT32, oh * 3, rows));
    ta_call_arg(L, c, ta_local_constant(L, op, "cols", TA_INT32, ow * 3, cols));
    ta_call_arg(L, c, out);
    return true;
}

const TaOpDef ta_op_resize_nearest_neighbor = {parse_nearest, lower_nearest};
const TaOpDef ta_op_resize_bilinear = {parse_bilinear, lower_bilinear};
