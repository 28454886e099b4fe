/*
 * signal_filter_bank.c - the Signal library's SignalFilterBank,
 * SignalFilterBankSquareRoot and SignalFilterBankLog custom operators
 * (TFLite Micro's signal/micro/kernels filter_bank.cc,
 * filter_bank_square_root.cc, filter_bank_log.cc). The filter bank's
 * channel tables must be constants, so every start and width is checked
 * against the tensors here rather than trusted at run time.
 */
#include "../../runtime/kernels/ta_signal_filter_bank.h"
#include "common/custom_options.h"

#include <string.h>

static int16_t i16_at(const TaTensor *t, size_t i)
{
    int16_t v;
    memcpy(&v, t->data + 2 * i, sizeof v);
    return v;
}

/* Each channel's bins and coefficients lie inside the input and weights. */
static bool check_channels(TaLower *L, TaOp *op, int32_t channels)
{
    const TaTensor *in = op->inputs[0], *weights = op->inputs[1];
    const TaTensor *freq = op->inputs[3], *wstart = op->inputs[4], *width = op->inputs[5];
    const int64_t bins = (int64_t)ta_tensor_elements(in);
    const int64_t coeffs = (int64_t)ta_tensor_elements(weights);
    for (int32_t ch = 0; ch <= channels; ch++) {
        const int64_t f = i16_at(freq, (size_t)ch), w = i16_at(wstart, (size_t)ch);
        const int64_t n = i16_at(width, (size_t)ch);
        if (f < 0 || w < 0 || n < 0 || f + n > bins || w + n > coeffs) {
            ta_op_error(L, op,
                        "channel %d takes bins [%lld, %lld) and weights [%lld, %lld), outside "
                        "the input's %lld bins or the %lld weights",
                        ch, (long long)f, (long long)(f + n), (long long)w, (long long)(w + n),
                        (long long)bins, (long long)coeffs);
            return false;
        }
    }
    return true;
}

static bool lower_filter_bank(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 6, 6, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    int32_t channels;
    if (!ta_expect_dtype(L, op, in, "input", TA_UINT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_UINT64, -1) ||
        !ta_expect_rank(L, op, in, "input", 1) || !ta_expect_rank(L, op, out, "output", 1) ||
        !ta_custom_option_int(L, op, "num_channels", 1, 65535, &channels))
        return false;
    static const char *const roles[] = {"weights", "unweights", "channel frequency starts",
                                        "channel weight starts", "channel widths"};
    for (int i = 1; i < 6; i++) {
        const TaTensor *t = op->inputs[i];
        if (!ta_expect_dtype(L, op, t, roles[i - 1], TA_INT16, -1) ||
            !ta_expect_rank(L, op, t, roles[i - 1], 1) ||
            !ta_expect_constant(L, op, t, roles[i - 1]))
            return false;
        if (i >= 3 && ta_tensor_elements(t) < (size_t)channels + 1) {
            ta_op_error(L, op, "%s (tensor %s) has %zu entries; num_channels %d needs %d",
                        roles[i - 1], t->id, ta_tensor_elements(t), channels, channels + 1);
            return false;
        }
    }
    if (ta_tensor_elements(op->inputs[2]) != ta_tensor_elements(op->inputs[1])) {
        ta_op_error(L, op, "weights and unweights differ in length");
        return false;
    }
    if (ta_tensor_elements(out) != (size_t)channels) {
        ta_op_error(L, op, "output %s does not hold num_channels %d values",
                    ta_shape_text(L->pool, out), channels);
        return false;
    }
    if (!check_channels(L, op, channels))
        return false;
    int64_t taps = 0;
    for (int32_t ch = 0; ch <= channels; ch++)
        taps += i16_at(op->inputs[5], (size_t)ch);
    TaKernelCall *c = ta_call(L, op, "ta_signal_filter_bank_u32",
                              "runtime/kernels/ta_signal_filter_bank.h");
    ta_signal_filter_bank_params_t *p = TA_CALL_PARAMS(L, c, ta_signal_filter_bank_params_t);
    p->num_channels = channels;
    for (int i = 0; i < 6; i++)
        ta_call_arg(L, c, op->inputs[i]);
    ta_call_arg(L, c, out);
    op->lowered.has_macs = true;
    op->lowered.macs = 2 * taps;
    op->lowered.has_parameters = true;
    op->lowered.parameters = 2 * (int64_t)ta_tensor_elements(op->inputs[1]);
    return true;
}

static bool lower_square_root(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *in = op->inputs[0], *bits = op->inputs[1], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_UINT64, -1) ||
        !ta_expect_dtype(L, op, bits, "scale bits", TA_INT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_UINT32, -1) ||
        !ta_expect_rank(L, op, in, "input", 1) || !ta_expect_rank(L, op, bits, "scale bits", 0) ||
        !ta_expect_rank(L, op, out, "output", 1))
        return false;
    if (ta_tensor_elements(in) != ta_tensor_elements(out)) {
        ta_op_error(L, op, "input %s and output %s differ", ta_shape_text(L->pool, in),
                    ta_shape_text(L->pool, out));
        return false;
    }
    TaKernelCall *c = ta_call(L, op, "ta_signal_filter_bank_sqrt_u64",
                              "runtime/kernels/ta_signal_filter_bank.h");
    ta_signal_filter_bank_sqrt_params_t *p = TA_CALL_PARAMS(L, c,
                                                            ta_signal_filter_bank_sqrt_params_t);
    p->count = (int32_t)ta_tensor_elements(in);
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, bits);
    ta_call_arg(L, c, out);
    return true;
}

static bool lower_log(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    int32_t correction_bits, scale;
    if (!ta_expect_dtype(L, op, in, "input", TA_UINT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_INT16, -1) ||
        !ta_expect_rank(L, op, in, "input", 1) || !ta_expect_rank(L, op, out, "output", 1) ||
        !ta_custom_option_int(L, op, "input_correction_bits", 0, 31, &correction_bits) ||
        !ta_custom_option_int(L, op, "output_scale", 0, INT32_MAX, &scale))
        return false;
    if (ta_tensor_elements(in) != ta_tensor_elements(out)) {
        ta_op_error(L, op, "input %s and output %s differ", ta_shape_text(L->pool, in),
                    ta_shape_text(L->pool, out));
        return false;
    }
    TaKernelCall *c = ta_call(L, op, "ta_signal_filter_bank_log_u32",
                              "runtime/kernels/ta_signal_filter_bank.h");
    ta_signal_filter_bank_log_params_t *p = TA_CALL_PARAMS(L, c,
                                                           ta_signal_filter_bank_log_params_t);
    p->count = (int32_t)ta_tensor_elements(in);
    p->output_scale = (uint32_t)scale;
    p->correction_bits = correction_bits;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    return true;
}

const TaOpDef ta_op_signal_filter_bank = {NULL, lower_filter_bank};
const TaOpDef ta_op_signal_filter_bank_square_root = {NULL, lower_square_root};
const TaOpDef ta_op_signal_filter_bank_log = {NULL, lower_log};
