/*
 * fully_connected.c - FULLY_CONNECTED, int8 and int16 activations with
 * int8 weights, per-tensor or per-channel; float32 throughout.
 *
 * Assumes: constant weights [output_depth, accum_depth] with zero points 0
 * (TFLite's symmetric weight scheme); optional constant bias.
 * Produces: bias_sum (bias with the input zero point folded in), and for
 * per-channel weights the multiplier and shift per output channel; for a
 * target with Helium, int8 weights interleaved four rows at a time
 * (weights_interleaved, ta_fully_connected_s8_interleaved); for one with
 * the DSP extension, pairs of rows a byte at a time (weights_words,
 * ta_fully_connected_s8_words).
 */
#include "../../runtime/kernels/ta_fully_connected.h"
#include "../../runtime/kernels/ta_fully_connected_f32.h"
#include "common/interleave4.h"
#include "lower.h"

#include <math.h>
#include <string.h>

enum { OPT_ACTIVATION = 0, OPT_WEIGHTS_FORMAT, OPT_KEEP_NUM_DIMS, OPT_ASYMMETRIC, OPT_BIAS_TYPE };

typedef struct FcAttrs {
    int activation;
    bool keep_num_dims;
    int quantized_bias_type;
} FcAttrs;

static bool parse(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    FcAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->activation = ta_fb_i8(t, OPT_ACTIVATION, 0);
    a->keep_num_dims = ta_fb_bool(t, OPT_KEEP_NUM_DIMS, false);
    a->quantized_bias_type = ta_fb_i8(t, OPT_BIAS_TYPE, 0);
    int format = ta_fb_i8(t, OPT_WEIGHTS_FORMAT, 0);
    if (r.failed)
        return false;
    if (format != 0) {
        ta_op_error(L, op, "shuffled weights format %d is not supported", format);
        return false;
    }
    op->attrs = a;
    return true;
}

/* Rows of the output: its elements over the weights' rows, the input's
   elements matching (TFLite flattens every leading dimension). */
static bool fc_shape(TaLower *L, TaOp *op, const TaTensor *in, const TaTensor *w,
                     const TaTensor *bias, const TaTensor *out, int32_t *batches)
{
    if (w->rank < 2 || out->rank < 1) {
        ta_op_error(L, op, "weights must have rank 2 or more, output rank 1 or more");
        return false;
    }
    const int32_t depth = w->dims[w->rank - 1];
    const int32_t rows = w->dims[w->rank - 2];
    const int32_t out_depth = out->dims[out->rank - 1];
    if (out_depth != rows || out_depth == 0 || depth == 0 ||
        (size_t)rows * depth != ta_tensor_elements(w)) {
        ta_op_error(L, op, "weights %s do not match output %s", ta_shape_text(L->pool, w),
                    ta_shape_text(L->pool, out));
        return false;
    }
    *batches = (int32_t)(ta_tensor_elements(out) / (size_t)out_depth);
    if (ta_tensor_elements(in) != (size_t)*batches * (size_t)depth) {
        ta_op_error(L, op, "input %s does not hold %d rows of %d", ta_shape_text(L->pool, in),
                    (int)*batches, (int)depth);
        return false;
    }
    if (bias && ta_tensor_elements(bias) != (size_t)out_depth) {
        ta_op_error(L, op, "bias has %zu elements for %d outputs", ta_tensor_elements(bias),
                    (int)out_depth);
        return false;
    }
    return true;
}

/* TFLite Micro's Prepare (GetQuantizedConvolutionMultipler) refuses a
   per-tensor model whose bias scale is off input scale * weights scale by
   more than 2% of the output scale: near the largest rescale factors a
   float32 bias scale cannot be that close, and TFLite Micro refuses what
   tinyaot converted. */
static bool bias_scale_fits(TaLower *L, TaOp *op, double product, const TaTensor *bias,
                            float out_scale)
{
    if (!bias || out_scale <= 0.0f)
        return true;
    const double diff = fabs(product - (double)ta_scale(bias));
    if (diff / (double)out_scale <= 0.02)
        return true;
    ta_op_error(L, op,
                "bias scale %g differs from input scale * weights scale (%g) by %g times the "
                "output scale %g (TFLite Micro allows 0.02)",
                (double)ta_scale(bias), product, diff / (double)out_scale, (double)out_scale);
    return false;
}

/* float32 input, weights, bias and output: TFLite's float reference. */
static bool lower_float(TaLower *L, TaOp *op, const FcAttrs *a, TaTensor *in, TaTensor *w,
                        TaTensor *bias, TaTensor *out)
{
    if (!ta_expect_dtype(L, op, w, "weights", TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_FLOAT32, -1) ||
        (bias && !ta_expect_dtype(L, op, bias, "bias", TA_FLOAT32, -1)))
        return false;
    int32_t batches;
    float act_min, act_max;
    if (!fc_shape(L, op, in, w, bias, out, &batches) ||
        !ta_float_activation_range(L, op, a->activation, &act_min, &act_max))
        return false;
    TaKernelCall *c = ta_call(L, op, "ta_fully_connected_f32",
                              "runtime/kernels/ta_fully_connected_f32.h");
    ta_fully_connected_f32_params_t *p = TA_CALL_PARAMS(L, c, ta_fully_connected_f32_params_t);
    p->batches = batches;
    p->accum_depth = w->dims[w->rank - 1];
    p->output_depth = w->dims[w->rank - 2];
    p->activation_min = act_min;
    p->activation_max = act_max;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, w);
    ta_call_arg(L, c, bias);
    ta_call_arg(L, c, out);
    op->lowered.has_macs = op->lowered.has_parameters = true;
    op->lowered.macs = (int64_t)ta_tensor_elements(w) * (int64_t)batches;
    op->lowered.parameters = (int64_t)ta_tensor_elements(w) +
                             (bias ? (int64_t)ta_tensor_elements(bias) : 0);
    return true;
}

/* ta_fully_connected_s8_words' layout (ta_fully_connected_words.h) of
   weights[rows][depth]: the paired rows padded with zero weights to whole
   words, each pair's first row with its sign bits flipped. */
static int8_t *words_layout(TaLower *L, const int8_t *wd, int32_t rows, int32_t depth,
                            size_t *bytes)
{
    *bytes = ta_fc_words_bytes(rows, depth);
    int8_t *iw = ta_alloc_array(L->pool, *bytes, 1);
    const int32_t row_bytes = (int32_t)ta_fc_words_row_bytes(depth);
    for (int32_t o = 0; o < rows; o++) {
        const bool paired = o < (rows & ~1);
        for (int32_t d = 0; d < (paired ? row_bytes : depth); d++) {
            const int8_t v = d < depth ? wd[(size_t)o * depth + d] : 0;
            const uint8_t flip = ta_fc_words_flipped(o, rows) ? 0x80 : 0;
            iw[ta_fc_words_index(o, d, rows, depth)] = (int8_t)((uint8_t)v ^ flip);
        }
    }
    return iw;
}

static bool lower(TaLower *L, TaOp *op)
{
    const FcAttrs *a = op->attrs;
    if (!ta_expect_counts(L, op, 2, 3, 1))
        return false;
    TaTensor *in = op->inputs[0], *w = op->inputs[1];
    TaTensor *bias = op->num_inputs > 2 ? op->inputs[2] : NULL;
    TaTensor *out = op->outputs[0];
    if (in->dtype == TA_FLOAT32)
        return lower_float(L, op, a, in, w, bias, out);
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, TA_INT16, TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, w, "weights", TA_INT8, -1) ||
        !ta_expect_dtype(L, op, out, "output", in->dtype, -1) ||
        !ta_expect_constant(L, op, w, "weights") || !ta_expect_per_tensor(L, op, in, "input") ||
        !ta_expect_per_tensor(L, op, out, "output"))
        return false;
    const bool wide = in->dtype == TA_INT16;
    if (bias && (!ta_expect_constant(L, op, bias, "bias") ||
                 !ta_expect_dtype(L, op, bias, "bias", wide ? TA_INT64 : TA_INT32,
                                  wide ? TA_INT32 : -1, -1)))
        return false;
    int32_t batches;
    if (!fc_shape(L, op, in, w, bias, out, &batches))
        return false;
    const int32_t depth = w->dims[w->rank - 1];
    const int32_t rows = w->dims[w->rank - 2];
    const int32_t out_depth = rows;
    const TaQuant *wq = w->quant;
    if (!wq || wq->num_scales < 1 ||
        (wq->num_scales > 1 && (wq->num_scales != rows || wq->axis != w->rank - 2))) {
        ta_op_error(L, op, "weights need one scale, or one per output channel along axis 0");
        return false;
    }
    for (int i = 0; i < wq->num_zero_points; i++) {
        if (wq->zero_point[i] != 0) {
            ta_op_error(L, op, "weights zero point %lld: int8 weights must be symmetric (0)",
                        (long long)wq->zero_point[i]);
            return false;
        }
    }
    int32_t act_min, act_max;
    if (!ta_activation_range(L, op, a->activation, out, &act_min, &act_max))
        return false;

    /* int16 without a bias accumulates in 32 bits only when the model says so. */
    const bool acc64 = wide &&
                       (bias ? bias->dtype == TA_INT64 : a->quantized_bias_type != TA_INT32);

    /* bias_sum[o] = bias[o] + input_offset * sum_d w[o][d], input_offset = -zp. */
    const int64_t input_offset = -(int64_t)ta_zero_point(in);
    const int8_t *wd = (const int8_t *)w->data;
    int64_t *sums = ta_alloc_array(L->pool, (size_t)rows, sizeof(int64_t));
    int32_t *sums32 = ta_alloc_array(L->pool, (size_t)rows, sizeof(int32_t));
    /* int8 always gets them: the Helium loop starts every group of rows
       from its biases. */
    bool need_sums = bias != NULL || input_offset != 0 || !wide;
    for (int32_t o = 0; o < rows; o++) {
        int64_t s = 0;
        for (int32_t d = 0; d < depth; d++)
            s += wd[(size_t)o * depth + d];
        int64_t b = 0;
        if (bias && bias->dtype == TA_INT64)
            memcpy(&b, bias->data + (size_t)o * 8, 8);
        else if (bias) {
            int32_t b32;
            memcpy(&b32, bias->data + (size_t)o * 4, 4);
            b = b32;
        }
        sums[o] = b + input_offset * s;
        /* The reference accumulates in int32 modulo 2^32; so does this. */
        sums32[o] = (int32_t)(uint32_t)(uint64_t)sums[o];
    }
    /* On a Helium target, int8 weights interleaved four rows at a time (see
       ta_fully_connected.h); its kernel reads the sums (and per-channel
       factors) of whole blocks: padded with zeros (copies). Packed int4
       weights keep their own kernel (int4_packed.c). */
    const bool interleave = !wide && L->helium && !w->int4_packed;
    const int32_t channels = interleave ? (rows + 3) / 4 * 4 : rows;
    if (channels > rows) {
        int32_t *padded = ta_alloc_array(L->pool, (size_t)channels, sizeof(int32_t));
        memset(padded, 0, (size_t)channels * sizeof(int32_t));
        memcpy(padded, sums32, (size_t)rows * sizeof(int32_t));
        sums32 = padded;
    }
    TaTensor *bias_sum = NULL;
    if (need_sums)
        bias_sum = acc64 ? ta_local_constant(L, op, "bias_sum", TA_INT64, rows, sums)
                         : ta_local_constant(L, op, "bias_sum", TA_INT32, channels, sums32);
    ta_derived_from(bias_sum, bias ? bias : w);

    TaTensor *mults = NULL, *shifts = NULL;
    int32_t multiplier = 0;
    int shift = 0;
    const int max_shift = acc64 ? TA_SHIFT_MAX_INT64 : TA_SHIFT_MAX_INT32;
    const float in_scale = ta_scale(in), out_scale = ta_scale(out);
    if (wq->num_scales > 1) {
        int32_t *m = ta_alloc_array(L->pool, (size_t)rows, sizeof(int32_t));
        int32_t *s = ta_alloc_array(L->pool, (size_t)rows, sizeof(int32_t));
        for (int32_t o = 0; o < rows; o++) {
            double eff = (double)in_scale * (double)wq->scale[o] / (double)out_scale;
            int sh;
            if (!ta_requant(L, op, "output", eff, max_shift, &m[o], &sh))
                return false;
            s[o] = sh;
        }
        mults = ta_local_constant(L, op, "multipliers", TA_INT32, rows, m);
        shifts = ta_local_constant(L, op, "shifts", TA_INT32, rows, s);
        ta_pad_channels(L, mults, rows, channels);
        ta_pad_channels(L, shifts, rows, channels);
    } else {
        /* In double throughout: the oracle (tflite-micro from PyPI) does so;
           a float product of the two scales differs in the last bits and
           changes outputs (checked on mlperf_tiny_ad01_int8). */
        double eff = (double)in_scale * (double)wq->scale[0] / (double)out_scale;
        if (!bias_scale_fits(L, op, (double)in_scale * (double)wq->scale[0], bias, out_scale) ||
            !ta_requant(L, op, "output", eff, max_shift, &multiplier, &shift))
            return false;
    }

    /* On a core with the DSP extension, the rows in pairs a byte at a time
       (ta_fully_connected_words.h): one SMLAD takes both rows' weights of
       two inputs. Every int8 layer, a single row too (the odd last row, as
       the model has it): one entry linked. */
    const bool words = !wide && !interleave && L->dsp && !w->int4_packed;
    TaTensor *w_arg = w;
    if (interleave || words) {
        size_t bytes = 0;
        int8_t *iw;
        if (words) {
            iw = words_layout(L, wd, rows, depth, &bytes);
        } else {
            const size_t chunks = ((size_t)depth + 15) / 16;
            bytes = ta_interleave4_bytes(rows, (size_t)depth);
            iw = ta_alloc_array(L->pool, bytes, 1);
            memset(iw, 0, bytes);
            for (int32_t o = 0; o < rows; o++)
                for (int32_t d = 0; d < depth; d++)
                    iw[ta_interleave4_index(o, (size_t)d, chunks)] = wd[(size_t)o * depth + d];
        }
        w_arg = ta_local_constant(L, op, interleave ? "weights_interleaved" : "weights_words",
                                  TA_INT8, (int32_t)bytes, iw);
        if (words) /* each pair's first row */
            w_arg->flipped_bytes = (size_t)(rows & ~1) * ta_fc_words_row_bytes(depth);
        ta_derived_from(w_arg, w);
        /* Read by this layer only, the model's tensor is these bytes laid
           out anew: they keep its id and name, which placement rules, the
           residency report and the views use (the spec's tensor 11). */
        if (ta_tensor_readers(L->graph, w) == 1) {
            w_arg->id = w->id;
            w_arg->name = w->name;
        }
    }
    const char *fn = interleave ? "ta_fully_connected_s8_interleaved"
                     : words    ? "ta_fully_connected_s8_words"
                     : !wide    ? "ta_fully_connected_s8"
                     : acc64    ? "ta_fully_connected_s16"
                                : "ta_fully_connected_s16_acc32";
    TaKernelCall *c = ta_call(L, op, fn,
                              words ? "runtime/kernels/ta_fully_connected_words.h"
                                    : "runtime/kernels/ta_fully_connected.h");
    ta_fully_connected_params_t *p = TA_CALL_PARAMS(L, c, ta_fully_connected_params_t);
    p->batches = batches;
    p->accum_depth = depth;
    p->output_depth = out_depth;
    p->output_offset = ta_zero_point(out);
    p->multiplier = multiplier;
    p->shift = shift;
    p->activation_min = act_min;
    p->activation_max = act_max;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, w_arg);
    ta_call_arg(L, c, bias_sum);
    ta_call_arg(L, c, mults);
    ta_call_arg(L, c, shifts);
    ta_call_arg(L, c, out);

    op->lowered.has_macs = op->lowered.has_parameters = true;
    op->lowered.macs = (int64_t)ta_tensor_elements(w) * (int64_t)batches;
    op->lowered.parameters = (int64_t)ta_tensor_elements(w) +
                             (bias ? (int64_t)ta_tensor_elements(bias) : 0);
    return true;
}

const TaOpDef ta_op_fully_connected = {parse, lower};
