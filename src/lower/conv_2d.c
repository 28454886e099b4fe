/*
 * conv_2d.c - CONV_2D, int8 activations (int32 bias) and int16
 * activations (int32 or int64 bias) with int8 weights, per-tensor or
 * per-channel; grouped when the filter holds fewer input channels than the
 * input.
 *
 * float32 (input, weights, bias, output) runs TFLite's float reference
 * loop (ta_conv_2d_f32.h), grouped too.
 *
 * Assumes: NHWC input/output, constant OHWI weights with zero point 0,
 * optional constant bias; int16 zero points 0 (TFLite's 16x8 kernel
 * ignores them).
 * Produces: bias_sum (int8: the bias with the input zero point folded in;
 * int16: the bias widened to int64), per-channel multipliers and shifts;
 * for ungrouped int8 filters the weights interleaved four filters at a time
 * (weights_interleaved, the layout in ta_conv_2d.h), with the taps in
 * column order for few input channels (taps_by_column), which replace the
 * model's weight tensor in the call.
 */
#include "../../runtime/kernels/ta_conv_2d.h"
#include "../../runtime/kernels/ta_conv_2d_f32.h"
#include "common/conv_common.h"
#include "common/interleave4.h"
#include "conv_2d_add.h"
#include "conv_entries.h"

#include <string.h>

/* The off-four, triples 1x1 and one-row entries' layers fused run the
   interleaved entry, whose last block is whole: the pieces are short, and
   fused entries fewer.
   The long-patch entry has no int4 form. */
static const TaConvEntry conv_entries[] = {
    {"ta_conv_2d_s8", "ta_conv_2d_add_s8", true},
    {"ta_conv_2d_s8_interleaved", "ta_conv_2d_add_s8_interleaved", true},
    {"ta_conv_2d_s8_pointwise_off4", "ta_conv_2d_add_s8_interleaved", true},
    {"ta_conv_2d_s8_pointwise_triples", "ta_conv_2d_add_s8_interleaved", true},
    {"ta_conv_2d_s8_one_row", "ta_conv_2d_add_s8_interleaved", true},
    {"ta_conv_2d_s8_columns", "ta_conv_2d_add_s8_columns", true},
    {"ta_conv_2d_s8_long", "ta_conv_2d_add_s8_long", false},
};

const TaConvEntry *ta_conv_entry(const char *function)
{
    for (size_t i = 0; i < TA_COUNT_OF(conv_entries); i++)
        if (strcmp(function, conv_entries[i].entry) == 0)
            return &conv_entries[i];
    return NULL;
}

bool ta_conv_entry_or_fused(const char *function)
{
    for (size_t i = 0; i < TA_COUNT_OF(conv_entries); i++)
        if (strcmp(function, conv_entries[i].entry) == 0 ||
            strcmp(function, conv_entries[i].fused) == 0)
            return true;
    return false;
}

static bool parse(TaLower *L, TaOp *op)
{
    return ta_conv_parse(L, op, &ta_conv_2d_fields);
}

static bool lower_float(TaLower *L, TaOp *op, TaTensor *in, TaTensor *w, TaTensor *bias,
                        TaTensor *out)
{
    const TaConvAttrs *a = op->attrs;
    if (!ta_conv_float_operands(L, op, in, w, bias, out))
        return false;
    const int32_t in_c = in->dims[3], out_c = w->dims[0], f_c = w->dims[3];
    if (f_c <= 0 || in_c < f_c || in_c % f_c != 0 || out_c <= 0 || out_c % (in_c / f_c) != 0 ||
        out->dims[3] != out_c || out->dims[0] != in->dims[0] ||
        (bias && ta_tensor_elements(bias) != (size_t)out_c)) {
        ta_op_error(L, op, "weights %s (bias %s) do not fit input %s and output %s",
                    ta_shape_text(L->pool, w), bias ? ta_shape_text(L->pool, bias) : "none",
                    ta_shape_text(L->pool, in), ta_shape_text(L->pool, out));
        return false;
    }
    int32_t out_h, out_w, pad_h, pad_w;
    float act_min, act_max;
    if (!ta_conv_window(L, op, a->padding, in->dims[1], w->dims[1], a->stride_h, a->dilation_h,
                        &out_h, &pad_h) ||
        !ta_conv_window(L, op, a->padding, in->dims[2], w->dims[2], a->stride_w, a->dilation_w,
                        &out_w, &pad_w) ||
        !ta_float_activation_range(L, op, a->activation, &act_min, &act_max))
        return false;
    if (out->dims[1] != out_h || out->dims[2] != out_w) {
        ta_op_error(L, op, "output %s does not match the %dx%d the window gives",
                    ta_shape_text(L->pool, out), (int)out_h, (int)out_w);
        return false;
    }
    TaKernelCall *c = ta_call(L, op, "ta_conv_2d_f32", "runtime/kernels/ta_conv_2d_f32.h");
    ta_conv_2d_f32_params_t *p = TA_CALL_PARAMS(L, c, ta_conv_2d_f32_params_t);
    p->batches = in->dims[0];
    p->input_height = in->dims[1];
    p->input_width = in->dims[2];
    p->input_depth = in_c;
    p->filter_height = w->dims[1];
    p->filter_width = w->dims[2];
    p->filter_depth = f_c;
    p->filters_per_group = out_c / (in_c / f_c);
    p->output_height = out_h;
    p->output_width = out_w;
    p->output_depth = out_c;
    p->stride_height = a->stride_h;
    p->stride_width = a->stride_w;
    p->dilation_height = a->dilation_h;
    p->dilation_width = a->dilation_w;
    p->pad_top = pad_h;
    p->pad_left = pad_w;
    p->activation_min = act_min;
    p->activation_max = act_max;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, w);
    ta_call_arg(L, c, bias);
    ta_call_arg(L, c, out);
    ta_conv_figures(op, w, bias, (int64_t)in->dims[0] * out_h * out_w);
    return true;
}

static bool lower(TaLower *L, TaOp *op)
{
    const TaConvAttrs *a = op->attrs;
    /* Fused with the ADD after it, the residual comes fourth. */
    if (!ta_expect_counts(L, op, 2, op->rewrites.residual_add ? 4 : 3, 1))
        return false;
    TaTensor *in = op->inputs[0], *w = op->inputs[1];
    TaTensor *bias = op->num_inputs > 2 ? op->inputs[2] : NULL;
    TaTensor *out = op->rewrites.residual_add ? op->rewrites.residual_add->conv_output
                                              : op->outputs[0];
    if (in->dtype == TA_FLOAT32 && !op->rewrites.residual_add)
        return lower_float(L, op, in, w, bias, out);
    bool wide;
    if (!ta_conv_operands(L, op, in, w, out, &wide))
        return false;
    /* TFLite reads an int8 convolution's bias as int32; the 16x8 one takes
       int32 or int64 and picks its accumulator from it. */
    if (bias && !ta_expect_dtype(L, op, bias, "bias", TA_INT32, wide ? TA_INT64 : -1, -1))
        return false;
    const int32_t batches = in->dims[0], in_h = in->dims[1], in_w = in->dims[2];
    const int32_t in_c = in->dims[3];
    const int32_t out_c = w->dims[0], k_h = w->dims[1], k_w = w->dims[2], f_c = w->dims[3];
    if (f_c <= 0 || in_c < f_c || in_c % f_c != 0 || out_c <= 0 || out_c % (in_c / f_c) != 0 ||
        out->dims[3] != out_c || out->dims[0] != batches) {
        ta_op_error(L, op, "weights %s do not fit input %s and output %s",
                    ta_shape_text(L->pool, w), ta_shape_text(L->pool, in),
                    ta_shape_text(L->pool, out));
        return false;
    }
    const int32_t groups = in_c / f_c;
    int32_t out_h, out_w, pad_h, pad_w;
    if (!ta_conv_window(L, op, a->padding, in_h, k_h, a->stride_h, a->dilation_h, &out_h, &pad_h) ||
        !ta_conv_window(L, op, a->padding, in_w, k_w, a->stride_w, a->dilation_w, &out_w, &pad_w))
        return false;
    if (out->dims[1] != out_h || out->dims[2] != out_w) {
        ta_op_error(L, op, "output %s does not match the %dx%d the window gives",
                    ta_shape_text(L->pool, out), (int)out_h, (int)out_w);
        return false;
    }

    /* int16: 32-bit accumulation when the bias (or, without one, the
       option quantized_bias_type) says int32, as TFLite Micro's Eval. */
    const bool acc64 = wide &&
                       (bias ? bias->dtype == TA_INT64 : a->quantized_bias_type != TA_INT32);
    TaConvRequant rq;
    int64_t *bias_v;
    if (!ta_conv_requant(L, op, in, w, out, 0, a->activation, acc64, &rq) ||
        !ta_conv_bias(L, op, bias, out_c, &bias_v))
        return false;

    const size_t filter_size = (size_t)k_h * (size_t)k_w * (size_t)f_c;
    const int8_t *wd = (const int8_t *)w->data;
    /* Every ungrouped int8 filter: interleaved four filters at a time in
       16-byte chunks (see ta_conv_2d.h), one weight pointer for all four
       dot products; the kernel takes any filter length (long im2col patches
       a block of taps at a time). */
    const bool interleave = !wide && groups == 1;
    /* Few input channels: the taps in column order, so that the kernel
       reads each pixel's taps in place from a row laid out by columns
       instead of copying a patch per pixel (see ta_conv_2d.h). */
    const bool by_column = interleave && k_h * k_w > 1 && filter_size <= TA_CONV_2D_MAX_PATCH &&
                           a->dilation_w == 1 && k_h * f_c <= TA_CONV_2D_MAX_COLUMN &&
                           f_c <= TA_CONV_2D_MAX_COLUMN_DEPTH;
    /* The interleaved kernels read the sums, multipliers and shifts of whole
       blocks of four channels (the last one padded, its extra lanes never
       stored): always a bias_sum, and per-channel arrays padded. */
    const int32_t channels = interleave ? (out_c + 3) / 4 * 4 : out_c;
    if (interleave && !rq.multipliers) {
        /* They take per-channel factors only (one requantization path
           linked): a per-tensor factor repeated, the same arithmetic. */
        int32_t *m = ta_alloc_array(L->pool, (size_t)channels, sizeof(int32_t));
        int32_t *s = ta_alloc_array(L->pool, (size_t)channels, sizeof(int32_t));
        for (int32_t o = 0; o < channels; o++)
            m[o] = rq.multiplier, s[o] = rq.shift;
        rq.multipliers = ta_local_constant(L, op, "multipliers", TA_INT32, channels, m);
        rq.shifts = ta_local_constant(L, op, "shifts", TA_INT32, channels, s);
    } else if (interleave) {
        ta_pad_channels(L, rq.multipliers, out_c, channels);
        ta_pad_channels(L, rq.shifts, out_c, channels);
    }
    TaTensor *bias_sum = NULL;
    const int32_t input_zp = ta_zero_point(in);
    if (!wide && (bias_v || input_zp != 0 || interleave)) {
        /* bias_sum[o] = bias[o] - zp * sum(w[o]), modulo 2^32 like the
           int32 accumulator it starts. */
        int32_t *sums = ta_alloc_array(L->pool, (size_t)channels, sizeof(int32_t));
        memset(sums, 0, (size_t)channels * sizeof(int32_t));
        for (int32_t o = 0; o < out_c; o++) {
            int64_t s = 0;
            for (size_t i = 0; i < filter_size; i++)
                s += wd[(size_t)o * filter_size + i];
            const int64_t v = (bias_v ? bias_v[o] : 0) - (int64_t)input_zp * s;
            sums[o] = (int32_t)(uint32_t)(uint64_t)v;
        }
        bias_sum = ta_local_constant(L, op, "bias_sum", TA_INT32, channels, sums);
    } else if (wide && bias_v) {
        bias_sum = ta_local_constant(L, op, "bias", TA_INT64, out_c, bias_v);
    }
    ta_derived_from(bias_sum, bias ? bias : w);

    TaTensor *w_arg = w;
    if (interleave) {
        const size_t chunks = (filter_size + 15) / 16;
        const size_t bytes = ta_interleave4_bytes(out_c, filter_size);
        int8_t *iw = ta_alloc_array(L->pool, bytes, 1);
        memset(iw, 0, bytes);
        for (int32_t o = 0; o < out_c; o++)
            for (size_t i = 0; i < filter_size; i++) {
                /* i is the tap (ky, kx, c) of the model; t its place in the kernel's order */
                const size_t c = i % (size_t)f_c, kx = i / (size_t)f_c % (size_t)k_w;
                const size_t ky = i / ((size_t)f_c * (size_t)k_w);
                const size_t t = by_column ? (kx * (size_t)k_h + ky) * (size_t)f_c + c : i;
                iw[ta_interleave4_index(o, t, chunks)] = wd[(size_t)o * filter_size + i];
            }
        w_arg = ta_local_constant(L, op, "weights_interleaved", TA_INT8, (int32_t)bytes, iw);
        ta_derived_from(w_arg, w);
    }

    /* The entry of the weights' layout: a module links only its path. 1x1
       filters whose last block of output channels holds one or two, too
       long for the four-pixel loops (TA_CONV_2D_QUAD_FILTER), over more
       than one pixel, have their own: it sums that block for two pixels at
       once, where the others compute it a pixel at a time, and only models
       with such a layer link it. On Helium, 1x1 filters of whole chunks too
       long for those loops, up to TA_CONV_2D_TRIPLE_PATCH taps, to whole
       blocks of at least 8 channels over three pixels or more, take the
       pointwise triples' entry: three pixels share each weight load (fewer
       channels, or a last partial block, leave too little to share:
       slower than a pixel at a time). On Helium, one-row undilated
       filters whose triples' windows can be read in place (the windows
       at least 8 bytes apart, a triple's columns within the three
       patches' buffer: ta_conv_2d_one_row_triples_s8_mve), over three
       pixels or more, take the one-row entry: no im2col copies inside the
       image. */
    const bool long_patch = interleave && k_h * k_w > 1 && filter_size > TA_CONV_2D_MAX_PATCH;
    const bool pointwise_off4 = interleave && k_h * k_w == 1 && out_c % 4 != 0 && out_c % 4 <= 2 &&
                                filter_size > TA_CONV_2D_QUAD_FILTER && out_h * out_w > 1;
    const bool pointwise_triples = interleave && L->helium && k_h * k_w == 1 &&
                                   filter_size > TA_CONV_2D_QUAD_FILTER &&
                                   filter_size <= TA_CONV_2D_TRIPLE_PATCH &&
                                   filter_size % 16 == 0 && out_c % 4 == 0 && out_c >= 8 &&
                                   out_h * out_w >= 3;
    const int64_t window_step = (int64_t)a->stride_w * f_c;
    const bool one_row = interleave && !by_column && L->helium && k_h == 1 && k_w > 1 &&
                         a->dilation_w == 1 && filter_size <= TA_CONV_2D_TRIPLE_PATCH &&
                         window_step >= 8 &&
                         2 * window_step + (int64_t)filter_size + 16 <=
                             3 * TA_CONV_2D_TRIPLE_PATCH &&
                         (int64_t)out_h * out_w >= 3;
    const char *kernel = wide                ? "ta_conv_2d_s16"
                         : by_column         ? "ta_conv_2d_s8_columns"
                         : long_patch        ? "ta_conv_2d_s8_long"
                         : pointwise_triples ? "ta_conv_2d_s8_pointwise_triples"
                         : pointwise_off4    ? "ta_conv_2d_s8_pointwise_off4"
                         : one_row           ? "ta_conv_2d_s8_one_row"
                         : interleave        ? "ta_conv_2d_s8_interleaved"
                                             : "ta_conv_2d_s8";
    ta_conv_2d_params_t conv = {0}, *p = &conv;
    p->batches = batches;
    p->input_height = in_h;
    p->input_width = in_w;
    p->input_depth = in_c;
    p->filter_height = k_h;
    p->filter_width = k_w;
    p->filter_depth = f_c;
    p->filters_per_group = out_c / groups;
    p->output_height = out_h;
    p->output_width = out_w;
    p->output_depth = out_c;
    p->stride_height = a->stride_h;
    p->stride_width = a->stride_w;
    p->dilation_height = a->dilation_h;
    p->dilation_width = a->dilation_w;
    p->pad_top = pad_h;
    p->pad_left = pad_w;
    p->pad_value = input_zp;
    p->output_offset = ta_zero_point(out);
    p->multiplier = rq.multiplier;
    p->shift = rq.shift;
    p->accumulator_bits = acc64 ? 64 : 32;
    p->activation_min = rq.act_min;
    p->activation_max = rq.act_max;
    p->weights_interleaved = interleave ? 1 : 0;
    p->taps_by_column = by_column ? 1 : 0;
    const TaConvArgs args = {in, w_arg, bias_sum, out};
    const int64_t positions = (int64_t)batches * out_h * out_w;
    if (op->rewrites.residual_add) {
        ta_conv_figures(op, w, bias, positions);
        return ta_lower_conv_2d_add(L, op, &conv, kernel, &args, &rq);
    }
    TaKernelCall *c = ta_call(L, op, kernel, "runtime/kernels/ta_conv_2d.h");
    *(ta_conv_2d_params_t *)TA_CALL_PARAMS(L, c, ta_conv_2d_params_t) = conv;
    if (rq.multipliers) { /* per channel: the kernel reads the arrays instead */
        TA_CALL_IGNORES(c, ta_conv_2d_params_t, multiplier);
        TA_CALL_IGNORES(c, ta_conv_2d_params_t, shift);
    }
    ta_conv_call_tail(L, op, c, &args, &rq, w, bias, positions);
    /* Every entry but the column one writes pixels one, two, three or four
       at a time after reading their taps (ta_conv_2d.h: the largest group
       any path takes for this filter). Interleaved int8 patches are
       gathered before a pixel, pair or triple is written, except by the
       one-row entry, whose triples read their windows in place. 1x1 filters are
       read in place, four pixels at a time on Helium up to
       TA_CONV_2D_QUAD_FILTER taps, three through the pointwise triples'
       entry (the DSP pairs widen theirs first), else one; so are grouped
       or int16 filters (ta_conv_2d_s8, ta_conv_2d_s16: a pixel at a time). Long patches (over TA_CONV_2D_MAX_PATCH bytes)
       are gathered a piece at a time, again for every group of channels,
       while the outputs of up to TA_CONV_2D_LONG_PIXELS pixels are written:
       in place for that many pixels. The column entry
       (every path) copies a run of pixels' input columns, never more than
       one output row, into its buffer before writing the run: buffered,
       and a buffered lead does not depend on the run's length, so the
       row's width bounds it in the report. */
    const bool patches = interleave && k_h * k_w > 1 && filter_size <= TA_CONV_2D_MAX_PATCH;
    const int32_t batch = by_column           ? out_w
                          : patches           ? (filter_size <= TA_CONV_2D_TRIPLE_PATCH ? 3 : 2)
                          : long_patch        ? TA_CONV_2D_LONG_PIXELS
                          : pointwise_triples ? 3
                          : k_h * k_w == 1 && filter_size <= TA_CONV_2D_QUAD_FILTER ? 4
                                                                                    : 1;
    const size_t elem = wide ? 2 : 1;
    const TaStreamGeometry geom = ta_conv_stream_geometry(a, in, out, k_h, k_w, pad_h, pad_w, elem);
    ta_declare_overlap(L, op, 0, &geom, batch,
                       patches && !one_row ? TA_STREAM_BUFFERED : TA_STREAM_IN_PLACE, "CONV_2D");
    return true;
}

const TaOpDef ta_op_conv_2d = {parse, lower};
