/*
 * svdf.c - SVDF with int8 input, weights_feature and output, int32 bias,
 * and int8 or int16 weights_time with an activation state of the same
 * type (a variable tensor that persists between runs); or everything
 * float32 (lower_float, the bias optional as in TFLite Micro's float path).
 *
 * Produces: the two requantization multipliers (feature -> state,
 * state * weights_time -> output), and an init call that fills the state
 * with its zero point when that is not 0 (TFLite Micro resets int8
 * variable tensors to their zero point, every other type to 0).
 */
#include "../../runtime/kernels/ta_svdf.h"
#include "../../runtime/kernels/ta_svdf_f32.h"
#include "lower.h"

#include <math.h>
#include <string.h>

enum { OPT_RANK = 0, OPT_ACTIVATION, OPT_ASYMMETRIC };

typedef struct SvdfAttrs {
    int rank;
    int activation; /* the float form applies it; the integer one clamps only */
} SvdfAttrs;

static bool parse(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    SvdfAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->rank = ta_fb_i32(t, OPT_RANK, 0);
    a->activation = ta_fb_i8(t, OPT_ACTIVATION, 0);
    if (r.failed)
        return false;
    op->attrs = a;
    return true;
}

/* The state is a variable tensor; input [batches, depth], weights_feature
   [filters, depth], weights_time [filters, memory], bias [units] (when
   present), state [batches, memory * filters], output [batches, units]. */
static bool check_shapes(TaLower *L, TaOp *op, int rank)
{
    TaTensor *in = op->inputs[0], *wf = op->inputs[1], *wt = op->inputs[2];
    TaTensor *bias = op->inputs[3], *state = op->inputs[4], *out = op->outputs[0];
    if (!state->is_variable || state->role != TA_REGION_PERSISTENT) {
        ta_op_error(L, op, "activation_state (tensor %s) must be a variable tensor", state->id);
        return false;
    }
    if (in->rank != 2 || wf->rank != 2 || wt->rank != 2 || state->rank != 2 || out->rank != 2 ||
        (bias && bias->rank != 1)) {
        ta_op_error(L, op, "input, weights, state and output must have rank 2, bias rank 1");
        return false;
    }
    const int32_t batches = in->dims[0], input_size = in->dims[1];
    const int32_t filters = wf->dims[0], memory = wt->dims[1];
    if (rank < 1 || filters % rank != 0) {
        ta_op_error(L, op, "rank %d does not divide the %d filters", rank, (int)filters);
        return false;
    }
    const int32_t units = filters / rank;
    if (batches < 1 || input_size < 1 || memory < 1 || wf->dims[1] != input_size ||
        wt->dims[0] != filters || (bias && bias->dims[0] != units) || state->dims[0] != batches ||
        (int64_t)state->dims[1] != (int64_t)memory * filters || out->dims[0] != batches ||
        out->dims[1] != units) {
        ta_op_error(L, op,
                    "shapes do not fit: input %s, weights_feature %s, weights_time %s, "
                    "bias %s, state %s, output %s",
                    ta_shape_text(L->pool, in), ta_shape_text(L->pool, wf),
                    ta_shape_text(L->pool, wt), bias ? ta_shape_text(L->pool, bias) : "(none)",
                    ta_shape_text(L->pool, state), ta_shape_text(L->pool, out));
        return false;
    }
    return true;
}

/* The float32 form: TFLite Micro's float reference loop (ta_svdf_f32.h),
   bias optional, the state reset to 0. */
static bool lower_float(TaLower *L, TaOp *op)
{
    const SvdfAttrs *a = op->attrs;
    if (!ta_expect_counts(L, op, 3, 5, 1))
        return false;
    if (op->num_inputs != 5 || !op->inputs[4]) {
        ta_op_error(L, op, "has no activation_state (input 4)");
        return false;
    }
    if (a->activation < TA_SVDF_F32_NONE || a->activation > TA_SVDF_F32_SIGN_BIT) {
        ta_op_error(L, op, "fused activation %d is not one TFLite Micro applies", a->activation);
        return false;
    }
    TaTensor *in = op->inputs[0], *wf = op->inputs[1], *wt = op->inputs[2];
    TaTensor *bias = op->inputs[3], *state = op->inputs[4], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, wf, "weights_feature", TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, wt, "weights_time", TA_FLOAT32, -1) ||
        !ta_expect_dtype(L, op, state, "activation_state", TA_FLOAT32, -1) ||
        (bias && !ta_expect_dtype(L, op, bias, "bias", TA_FLOAT32, -1)) ||
        !ta_expect_dtype(L, op, out, "output", TA_FLOAT32, -1) ||
        !ta_expect_constant(L, op, wf, "weights_feature") ||
        !ta_expect_constant(L, op, wt, "weights_time") ||
        (bias && !ta_expect_constant(L, op, bias, "bias")))
        return false;
    if (!check_shapes(L, op, a->rank))
        return false;
    const int32_t batches = in->dims[0], filters = wf->dims[0];
    TaKernelCall *c = ta_call(L, op, "ta_svdf_f32", "runtime/kernels/ta_svdf_f32.h");
    ta_svdf_f32_params_t *p = TA_CALL_PARAMS(L, c, ta_svdf_f32_params_t);
    p->batches = batches;
    p->input_size = in->dims[1];
    p->filters = filters;
    p->rank = a->rank;
    p->memory = wt->dims[1];
    p->activation = a->activation;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, wf);
    ta_call_arg(L, c, wt);
    ta_call_arg(L, c, bias);
    ta_call_arg(L, c, state);
    ta_call_arg(L, c, ta_local_scratch(L, op, "time_sums", batches * filters * 4));
    ta_call_arg(L, c, out);
    ta_init_variable_tensor(L, op, state);
    return true;
}

static bool lower_any(TaLower *L, TaOp *op)
{
    const SvdfAttrs *a = op->attrs;
    if (op->num_inputs >= 1 && op->inputs[0] && op->inputs[0]->dtype == TA_FLOAT32)
        return lower_float(L, op);
    if (op->num_inputs == 5 && !op->inputs[3]) {
        /* TFLite Micro reads the bias scale unconditionally. */
        ta_op_error(L, op, "integer SVDF needs a bias (input 3)");
        return false;
    }
    if (!ta_expect_counts(L, op, 5, 5, 1))
        return false;
    TaTensor *in = op->inputs[0], *wf = op->inputs[1], *wt = op->inputs[2];
    TaTensor *bias = op->inputs[3], *state = op->inputs[4], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, -1) ||
        !ta_expect_dtype(L, op, wf, "weights_feature", TA_INT8, -1) ||
        !ta_expect_dtype(L, op, wt, "weights_time", TA_INT8, TA_INT16, -1) ||
        !ta_expect_dtype(L, op, state, "activation_state", wt->dtype, -1) ||
        !ta_expect_dtype(L, op, bias, "bias", TA_INT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_INT8, -1) ||
        !ta_expect_constant(L, op, wf, "weights_feature") ||
        !ta_expect_constant(L, op, wt, "weights_time") ||
        !ta_expect_constant(L, op, bias, "bias") || !ta_expect_per_tensor(L, op, in, "input") ||
        !ta_expect_per_tensor(L, op, wf, "weights_feature") ||
        !ta_expect_per_tensor(L, op, wt, "weights_time") ||
        !ta_expect_per_tensor(L, op, bias, "bias") ||
        !ta_expect_per_tensor(L, op, state, "activation_state") ||
        !ta_expect_per_tensor(L, op, out, "output"))
        return false;
    if (!check_shapes(L, op, a->rank))
        return false;
    const int32_t batches = in->dims[0], input_size = in->dims[1];
    const int32_t filters = wf->dims[0], memory = wt->dims[1];
    const int32_t units = filters / a->rank;
    if (ta_zero_point(wf) != 0 || ta_zero_point(wt) != 0) {
        ta_op_error(L, op, "weights must be symmetric (zero point 0)");
        return false;
    }
    const float in_s = ta_scale(in), wf_s = ta_scale(wf), wt_s = ta_scale(wt);
    const float st_s = ta_scale(state), out_s = ta_scale(out), bias_s = ta_scale(bias);
    /* TFLite Micro's Prepare refuses a bias scale that is not the product
       of the state and weights_time scales (float product, as there). */
    const float state_time = st_s * wt_s;
    if (!(fabs((double)bias_s - (double)state_time) < 1e-5)) {
        ta_op_error(L, op, "bias scale %g is not state scale * weights_time scale (%g)",
                    (double)bias_s, (double)state_time);
        return false;
    }
    /* Both effective scales in double. TFLite Micro's source writes them
       as float expressions widened to double, but the oracle (the
       tflite-micro wheel) computes them in double: the float form changes
       state values (checked on tflm_keyword_scrambled, operator 1's state
       after 18 runs), so does a float product divided in double. */
    const double scale1 = (double)in_s * (double)wf_s / (double)st_s;
    const double scale2 = (double)st_s * (double)wt_s / (double)out_s;
    int32_t m1, m2;
    int s1, s2;
    if (!ta_requant(L, op, "feature", scale1, TA_SHIFT_MAX_INT32, &m1, &s1) ||
        !ta_requant(L, op, "output", scale2, TA_SHIFT_MAX_INT32, &m2, &s2))
        return false;

    const bool wide = wt->dtype == TA_INT16;
    /* Zero points folded into biases (int32, wrapping as the kernel's
       sums do): feature_biases[f] = -input_zp * sum_c weights_feature[f][c],
       output_biases[u] = bias[u] - state_zp * sum over the unit's filters
       of sum_m weights_time[f][m]. */
    const int64_t in_zp = ta_zero_point(in), state_zp = ta_zero_point(state);
    int32_t *feature_biases = ta_alloc_array(L->pool, (size_t)filters, sizeof(int32_t));
    int32_t *output_biases = ta_alloc_array(L->pool, (size_t)units, sizeof(int32_t));
    const int8_t *wf_data = (const int8_t *)wf->data;
    for (int32_t f = 0; f < filters; f++) {
        int64_t sum = 0;
        for (int32_t k = 0; k < input_size; k++)
            sum += wf_data[(size_t)f * (size_t)input_size + (size_t)k];
        feature_biases[f] = (int32_t)(uint32_t)(uint64_t)(-in_zp * sum);
    }
    for (int32_t u = 0; u < units; u++) {
        int32_t b;
        memcpy(&b, bias->data + (size_t)u * 4, 4);
        int64_t sum = 0;
        for (int32_t m = 0; m < memory * a->rank; m++) {
            const size_t at = (size_t)u * (size_t)a->rank * (size_t)memory + (size_t)m;
            if (wide) {
                int16_t v;
                memcpy(&v, wt->data + at * 2, 2);
                sum += v;
            } else {
                sum += ((const int8_t *)wt->data)[at];
            }
        }
        output_biases[u] = (int32_t)(uint32_t)(uint64_t)((int64_t)b - state_zp * sum);
    }
    TaTensor *t_feature = ta_local_constant(L, op, "feature_biases", TA_INT32, filters,
                                            feature_biases);
    TaTensor *t_output = ta_local_constant(L, op, "output_biases", TA_INT32, units, output_biases);
    ta_derived_from(t_feature, wf);
    ta_derived_from(t_output, bias);
    TaKernelCall *c = ta_call(L, op, wide ? "ta_svdf_s16" : "ta_svdf_s8",
                              "runtime/kernels/ta_svdf.h");
    ta_svdf_params_t *p = TA_CALL_PARAMS(L, c, ta_svdf_params_t);
    p->batches = batches;
    p->input_size = input_size;
    p->filters = filters;
    p->rank = a->rank;
    p->memory = memory;
    p->input_zero_point = ta_zero_point(in);
    p->state_zero_point = ta_zero_point(state);
    p->output_zero_point = ta_zero_point(out);
    p->feature_multiplier = m1;
    p->feature_shift = s1;
    p->output_multiplier = m2;
    p->output_shift = s2;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, wf);
    ta_call_arg(L, c, wt);
    ta_call_arg(L, c, t_feature);
    ta_call_arg(L, c, t_output);
    ta_call_arg(L, c, state);
    ta_call_arg(L, c, out);

    ta_init_variable_tensor(L, op, state);
    return true;
}

/* For analyze: each batch row multiplies every feature weight (the
   filters over the input) and every time weight (the filters over their
   memory). */
static void count_macs(TaOp *op)
{
    op->lowered.has_analysis_macs = true;
    op->lowered.analysis_macs = (int64_t)op->inputs[0]->dims[0] *
                                (int64_t)(ta_tensor_elements(op->inputs[1]) +
                                          ta_tensor_elements(op->inputs[2]));
}

static bool lower(TaLower *L, TaOp *op)
{
    bool ok = lower_any(L, op);
    if (ok)
        count_macs(op);
    return ok;
}

const TaOpDef ta_op_svdf = {parse, lower};
