/*
 * signal_noise.c - the Signal library's SignalFilterBankSpectralSubtraction
 * and SignalPCAN custom operators (TFLite Micro's signal/micro/kernels
 * filter_bank_spectral_subtraction.cc, pcan.cc). The noise estimate of
 * spectral subtraction is state kept between runs: a persistent local
 * tensor, zero after model_init like TFLite Micro's after Prepare.
 */
#include "../../runtime/kernels/ta_signal_noise.h"
#include "common/custom_options.h"

/* PCAN's gain table: 3 coefficients per octave of a uint32 estimate, from
   octave 2 (4 * 32 - 6 + 3 entries read at most). */
enum { PCAN_LUT_ENTRIES = 125 };

static bool expect_same_count(TaLower *L, TaOp *op, const TaTensor *t, const char *role,
                              size_t count)
{
    if (ta_tensor_elements(t) == count)
        return true;
    ta_op_error(L, op, "%s (tensor %s) has shape %s; expected %zu values", role, t->id,
                ta_shape_text(L->pool, t), count);
    return false;
}

static bool lower_spectral_subtraction(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 2))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0], *noise = op->outputs[1];
    int32_t channels, smoothing, keep, alt_smoothing, alt_keep, min_remaining, smoothing_bits, bits,
        clamping;
    if (!ta_expect_dtype(L, op, in, "input", TA_UINT32, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_UINT32, -1) ||
        !ta_expect_dtype(L, op, noise, "noise estimate output", TA_UINT32, -1) ||
        !ta_expect_rank(L, op, in, "input", 1) || !ta_expect_rank(L, op, out, "output", 1) ||
        !ta_expect_rank(L, op, noise, "noise estimate output", 1) ||
        !ta_custom_option_int(L, op, "num_channels", 1, 65535, &channels) ||
        !ta_custom_option_int(L, op, "smoothing", 0, INT32_MAX, &smoothing) ||
        !ta_custom_option_int(L, op, "one_minus_smoothing", 0, INT32_MAX, &keep) ||
        !ta_custom_option_int(L, op, "alternate_smoothing", 0, INT32_MAX, &alt_smoothing) ||
        !ta_custom_option_int(L, op, "alternate_one_minus_smoothing", 0, INT32_MAX, &alt_keep) ||
        !ta_custom_option_int(L, op, "min_signal_remaining", 0, INT32_MAX, &min_remaining) ||
        !ta_custom_option_int(L, op, "smoothing_bits", 0, 31, &smoothing_bits) ||
        !ta_custom_option_int(L, op, "spectral_subtraction_bits", 0, 63, &bits) ||
        !ta_custom_option_int(L, op, "clamping", 0, 1, &clamping) ||
        !expect_same_count(L, op, in, "input", (size_t)channels) ||
        !expect_same_count(L, op, out, "output", (size_t)channels) ||
        !expect_same_count(L, op, noise, "noise estimate output", (size_t)channels))
        return false;
    /* model_init zeroes it, as TFLite Micro's Prepare. */
    TaTensor *state = ta_local_state(L, op, "noise_state", TA_UINT32, channels);
    TaKernelCall *c = ta_call(L, op, "ta_signal_spectral_subtraction_u32",
                              "runtime/kernels/ta_signal_noise.h");
    ta_signal_spectral_subtraction_params_t *p = TA_CALL_PARAMS(
        L, c, ta_signal_spectral_subtraction_params_t);
    p->num_channels = channels;
    p->smoothing = (uint32_t)smoothing;
    p->one_minus_smoothing = (uint32_t)keep;
    p->alternate_smoothing = (uint32_t)alt_smoothing;
    p->alternate_one_minus_smoothing = (uint32_t)alt_keep;
    p->min_signal_remaining = (uint32_t)min_remaining;
    p->smoothing_bits = smoothing_bits;
    p->spectral_subtraction_bits = bits;
    p->clamping = clamping;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, state);
    ta_call_arg(L, c, out);
    ta_call_arg(L, c, noise);
    return true;
}

static bool lower_pcan(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 3, 3, 1))
        return false;
    TaTensor *in = op->inputs[0], *noise = op->inputs[1], *lut = op->inputs[2];
    TaTensor *out = op->outputs[0];
    int32_t snr_shift;
    if (!ta_expect_dtype(L, op, in, "input", TA_UINT32, -1) ||
        !ta_expect_dtype(L, op, noise, "noise estimate", TA_UINT32, -1) ||
        !ta_expect_dtype(L, op, lut, "gain table", TA_INT16, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_UINT32, -1) ||
        !ta_expect_rank(L, op, in, "input", 1) ||
        !ta_expect_rank(L, op, noise, "noise estimate", 1) ||
        !ta_expect_rank(L, op, lut, "gain table", 1) || !ta_expect_rank(L, op, out, "output", 1) ||
        !ta_custom_option_int(L, op, "snr_shift", 0, 63, &snr_shift))
        return false;
    const size_t count = ta_tensor_elements(in);
    if (!expect_same_count(L, op, out, "output", count))
        return false;
    if (ta_tensor_elements(noise) < count || ta_tensor_elements(lut) < PCAN_LUT_ENTRIES) {
        ta_op_error(L, op,
                    "noise estimate %s or gain table %s too short (%zu channels need %zu "
                    "estimates and %d table entries)",
                    ta_shape_text(L->pool, noise), ta_shape_text(L->pool, lut), count, count,
                    PCAN_LUT_ENTRIES);
        return false;
    }
    TaKernelCall *c = ta_call(L, op, "ta_signal_pcan_u32", "runtime/kernels/ta_signal_noise.h");
    ta_signal_pcan_params_t *p = TA_CALL_PARAMS(L, c, ta_signal_pcan_params_t);
    p->count = (int32_t)count;
    p->snr_shift = snr_shift;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, noise);
    ta_call_arg(L, c, lut);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0); /* each channel is read before its place is written */
    return true;
}

const TaOpDef ta_op_signal_filter_bank_spectral_subtraction = {NULL, lower_spectral_subtraction};
const TaOpDef ta_op_signal_pcan = {NULL, lower_pcan};
