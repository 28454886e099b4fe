/*
 * depthwise_conv_2d.c - DEPTHWISE_CONV_2D, int8 activations (int32 bias)
 * and int16 activations (int64 bias) with int8 weights, per-tensor or
 * per-channel along axis 3, any depth multiplier.
 *
 * Assumes: NHWC input/output, constant [1, kh, kw, out_c] weights with zero
 * point 0, optional constant bias, out_c = in_c * depth_multiplier; int16
 * zero points 0 (TFLite's 16x8 kernel ignores them).
 * Produces: bias_sum (int8: the bias with the input zero point folded in;
 * int16: the int64 bias), for int8 also the plain int32 bias (the SIMD
 * paths' border pixels), per-channel multipliers and shifts (for int8
 * always, per-tensor values repeated).
 */
#include "../../runtime/kernels/ta_depthwise_conv_2d.h"
#include "../../runtime/kernels/ta_depthwise_conv_2d_f32.h"
#include "common/conv_common.h"

static bool parse(TaLower *L, TaOp *op)
{
    return ta_conv_parse(L, op, &ta_depthwise_fields);
}

/* 1 when every requantization shift is negative (a right shift only). */
static int32_t right_shifts_only(const TaConvRequant *rq)
{
    if (!rq->shifts)
        return rq->shift < 0;
    const int32_t *s = (const int32_t *)rq->shifts->data;
    for (size_t i = 0; i < ta_tensor_elements(rq->shifts); i++)
        if (s[i] >= 0)
            return 0;
    return 1;
}

/* 1 when every int8 accumulator, bias + sum of (x - zero point) * w, stays
   below 2^30 in magnitude whatever the input: then 2 * acc fits int32,
   which the DSP path's requantization uses. */
static int32_t small_accumulators(const int8_t *w, size_t taps, int32_t out_c, const int64_t *bias)
{
    for (int32_t o = 0; o < out_c; o++) {
        int64_t bound = bias ? (bias[o] < 0 ? -bias[o] : bias[o]) : 0;
        for (size_t t = 0; t < taps; t++) {
            const int32_t v = w[t * (size_t)out_c + (size_t)o];
            bound += 255 * (int64_t)(v < 0 ? -v : v);
        }
        if (bound >= ((int64_t)1 << 30))
            return 0;
    }
    return 1;
}

/* float32: TFLite's float reference loop (ta_depthwise_conv_2d_f32.h). */
static bool lower_float(TaLower *L, TaOp *op, const ta_depthwise_conv_2d_f32_params_t *geometry,
                        TaTensor *in, TaTensor *w, TaTensor *bias, TaTensor *out)
{
    const TaConvAttrs *a = op->attrs;
    const int32_t out_c = geometry->input_depth * geometry->depth_multiplier;
    if (bias && ta_tensor_elements(bias) != (size_t)out_c) {
        ta_op_error(L, op, "bias has %zu elements for %d output channels", ta_tensor_elements(bias),
                    (int)out_c);
        return false;
    }
    TaKernelCall *c = ta_call(L, op, "ta_depthwise_conv_2d_f32",
                              "runtime/kernels/ta_depthwise_conv_2d_f32.h");
    ta_depthwise_conv_2d_f32_params_t *p = TA_CALL_PARAMS(L, c, ta_depthwise_conv_2d_f32_params_t);
    *p = *geometry;
    if (!ta_float_activation_range(L, op, a->activation, &p->activation_min, &p->activation_max))
        return false;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, w);
    ta_call_arg(L, c, bias);
    ta_call_arg(L, c, out);
    ta_conv_figures(op, w, bias,
                    (int64_t)geometry->batches * geometry->output_height * geometry->output_width);
    return true;
}

static bool lower(TaLower *L, TaOp *op)
{
    const TaConvAttrs *a = op->attrs;
    if (!ta_expect_counts(L, op, 2, 3, 1))
        return false;
    TaTensor *in = op->inputs[0], *w = op->inputs[1];
    TaTensor *bias = op->num_inputs > 2 ? op->inputs[2] : NULL;
    TaTensor *out = op->outputs[0];
    bool wide = false;
    const bool is_float = in->dtype == TA_FLOAT32;
    if (is_float ? !ta_conv_float_operands(L, op, in, w, bias, out)
                 : !ta_conv_operands(L, op, in, w, out, &wide))
        return false;
    /* TFLite reads the bias as int32 (int8) or int64 (int16), whatever its type. */
    if (!is_float && bias && !ta_expect_dtype(L, op, bias, "bias", wide ? TA_INT64 : TA_INT32, -1))
        return false;
    const int32_t batches = in->dims[0], in_h = in->dims[1], in_w = in->dims[2];
    const int32_t in_c = in->dims[3];
    const int32_t k_h = w->dims[1], k_w = w->dims[2], out_c = w->dims[3];
    if (w->dims[0] != 1 || in_c <= 0 || out_c % in_c != 0 || out->dims[3] != out_c ||
        out->dims[0] != batches) {
        ta_op_error(L, op, "weights %s do not fit input %s and output %s",
                    ta_shape_text(L->pool, w), ta_shape_text(L->pool, in),
                    ta_shape_text(L->pool, out));
        return false;
    }
    /* TFLite's kernel loops with the option's multiplier: it must agree. */
    const int32_t mult = out_c / in_c;
    if (a->depth_multiplier != mult) {
        ta_op_error(L, op, "depth_multiplier %d does not match %d output / %d input channels",
                    (int)a->depth_multiplier, (int)out_c, (int)in_c);
        return false;
    }
    int32_t out_h, out_w, pad_h, pad_w;
    if (!ta_conv_window(L, op, a->padding, in_h, k_h, a->stride_h, a->dilation_h, &out_h, &pad_h) ||
        !ta_conv_window(L, op, a->padding, in_w, k_w, a->stride_w, a->dilation_w, &out_w, &pad_w))
        return false;
    if (out->dims[1] != out_h || out->dims[2] != out_w) {
        ta_op_error(L, op, "output %s does not match the %dx%d the window gives",
                    ta_shape_text(L->pool, out), (int)out_h, (int)out_w);
        return false;
    }
    if (is_float) {
        const ta_depthwise_conv_2d_f32_params_t geometry = {
            .batches = batches,
            .input_height = in_h,
            .input_width = in_w,
            .input_depth = in_c,
            .filter_height = k_h,
            .filter_width = k_w,
            .depth_multiplier = mult,
            .output_height = out_h,
            .output_width = out_w,
            .stride_height = a->stride_h,
            .stride_width = a->stride_w,
            .dilation_height = a->dilation_h,
            .dilation_width = a->dilation_w,
            .pad_top = pad_h,
            .pad_left = pad_w,
        };
        return lower_float(L, op, &geometry, in, w, bias, out);
    }

    TaConvRequant rq;
    int64_t *bias_v;
    if (!ta_conv_requant(L, op, in, w, out, 3, a->activation, wide, &rq) ||
        !ta_conv_bias(L, op, bias, out_c, &bias_v))
        return false;
    if (!wide && !rq.multipliers) {
        /* Per-tensor int8 weights get per-channel copies: the SIMD paths'
           fast requantization reads one multiplier and shift per channel. */
        int32_t *m = ta_alloc_array(L->pool, (size_t)out_c, sizeof(int32_t));
        int32_t *sh = ta_alloc_array(L->pool, (size_t)out_c, sizeof(int32_t));
        for (int32_t o = 0; o < out_c; o++) {
            m[o] = rq.multiplier;
            sh[o] = rq.shift;
        }
        rq.multipliers = ta_local_constant(L, op, "multipliers", TA_INT32, out_c, m);
        rq.shifts = ta_local_constant(L, op, "shifts", TA_INT32, out_c, sh);
    }

    const int8_t *wd = (const int8_t *)w->data;
    const size_t taps = (size_t)k_h * (size_t)k_w;
    const int32_t input_zp = ta_zero_point(in);
    TaTensor *bias_sum = NULL, *plain_bias = NULL;
    if (!wide && (bias_v || input_zp != 0)) {
        /* bias_sum[o] = bias[o] - zp * sum over taps of w[tap][o], modulo 2^32. */
        int32_t *sums = ta_alloc_array(L->pool, (size_t)out_c, sizeof(int32_t));
        for (int32_t o = 0; o < out_c; o++) {
            int64_t s = 0;
            for (size_t t = 0; t < taps; t++)
                s += wd[t * (size_t)out_c + (size_t)o];
            const int64_t v = (bias_v ? bias_v[o] : 0) - (int64_t)input_zp * s;
            sums[o] = (int32_t)(uint32_t)(uint64_t)v;
        }
        bias_sum = ta_local_constant(L, op, "bias_sum", TA_INT32, out_c, sums);
        /* The SIMD paths start border pixels from the bias without the
           folding and subtract the zero point from the inputs instead. */
        if (input_zp == 0) {
            plain_bias = bias_sum;
        } else if (bias_v) {
            int32_t *plain = ta_alloc_array(L->pool, (size_t)out_c, sizeof(int32_t));
            for (int32_t o = 0; o < out_c; o++)
                plain[o] = (int32_t)bias_v[o];
            plain_bias = ta_local_constant(L, op, "bias", TA_INT32, out_c, plain);
        }
    } else if (wide && bias_v) {
        bias_sum = ta_local_constant(L, op, "bias", TA_INT64, out_c, bias_v);
    }
    ta_derived_from(bias_sum, bias ? bias : w);
    if (plain_bias != bias_sum)
        ta_derived_from(plain_bias, bias);

    /* The common layer has its own entry, so a module whose layers are all
       of it links none of the kernel's other paths. */
    const int32_t shifts_right = right_shifts_only(&rq);
    const int32_t small = !wide && small_accumulators(wd, taps, out_c, bias_v);
    const bool m1_fast = !wide && mult == 1 && rq.multipliers && rq.shifts && shifts_right &&
                         small && rq.act_min == INT8_MIN && rq.act_max == INT8_MAX &&
                         out_c % 8 == 0;
    const char *kernel = wide      ? "ta_depthwise_conv_2d_s16"
                         : m1_fast ? "ta_depthwise_conv_2d_s8_m1_fast"
                                   : "ta_depthwise_conv_2d_s8";
    TaKernelCall *c = ta_call(L, op, kernel, "runtime/kernels/ta_depthwise_conv_2d.h");
    ta_depthwise_conv_2d_params_t *p = TA_CALL_PARAMS(L, c, ta_depthwise_conv_2d_params_t);
    p->batches = batches;
    p->input_height = in_h;
    p->input_width = in_w;
    p->input_depth = in_c;
    p->filter_height = k_h;
    p->filter_width = k_w;
    p->depth_multiplier = mult;
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
    if (rq.multipliers) { /* per channel: the kernel reads the arrays instead */
        TA_CALL_IGNORES(c, ta_depthwise_conv_2d_params_t, multiplier);
        TA_CALL_IGNORES(c, ta_depthwise_conv_2d_params_t, shift);
    }
    p->activation_min = rq.act_min;
    p->activation_max = rq.act_max;
    p->right_shifts_only = shifts_right;
    p->small_accumulators = small;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, w);
    ta_call_arg(L, c, bias_sum);
    if (!wide)
        ta_call_arg(L, c, plain_bias);
    ta_call_arg(L, c, rq.multipliers);
    ta_call_arg(L, c, rq.shifts);
    ta_call_arg(L, c, out);

    /* The kernel's order of writes (ta_depthwise_conv_2d.h): pixels one
       at a time, pairs for 8 channels, or whole rows on the DSP path's
       row-at-a-time loop; with one output channel per input channel each
       block of channels is written after reading only its own channels,
       unless the Helium path's last block reads some again. */
    const bool dsp_rows = !wide && mult == 1 && k_h == 3 && k_w == 3 && a->dilation_w == 1 &&
                          out_c >= 4 && out_w >= TA_DW_DSP_ROW_PIXELS;
    const int32_t batch = dsp_rows ? out_w : !wide && mult == 1 && out_c == 8 ? 2 : 1;
    const size_t elem = wide ? 2 : 1;
    const TaStreamGeometry geom = ta_conv_stream_geometry(a, in, out, k_h, k_w, pad_h, pad_w, elem);
    const bool channel_aligned = mult == 1 && !(!wide && ta_dw_rereads_channels(out_c));
    ta_declare_overlap(L, op, 0, &geom, batch,
                       channel_aligned ? TA_STREAM_CHANNEL_ALIGNED : TA_STREAM_IN_PLACE,
                       dsp_rows ? "DEPTHWISE_CONV_2D (whole rows on DSP)" : "DEPTHWISE_CONV_2D");
    /* Every path can also walk the rows backwards (a row in any order). */
    ta_declare_reverse_overlap(L, op, 0, &geom, &p->reverse_rows, "DEPTHWISE_CONV_2D");

    op->lowered.has_macs = op->lowered.has_parameters = true;
    op->lowered.macs = (int64_t)ta_tensor_elements(w) * (int64_t)batches * out_h * out_w;
    op->lowered.parameters = (int64_t)ta_tensor_elements(w) +
                             (bias ? (int64_t)ta_tensor_elements(bias) : 0);
    return true;
}

const TaOpDef ta_op_depthwise_conv_2d = {parse, lower};
