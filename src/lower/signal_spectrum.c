/*
 * signal_spectrum.c - the Signal library's SignalWindow,
 * SignalFftAutoScale and SignalEnergy custom operators (TFLite Micro's
 * signal/micro/kernels window.cc, fft_auto_scale_kernel.cc, energy.cc):
 * the checks of their Prepare, the options of their Init.
 */
#include "../../runtime/kernels/ta_signal_spectrum.h"
#include "common/custom_options.h"

static bool lower_window(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 2, 2, 1))
        return false;
    TaTensor *in = op->inputs[0], *window = op->inputs[1], *out = op->outputs[0];
    int32_t shift;
    if (!ta_expect_dtype(L, op, in, "input", TA_INT16, -1) ||
        !ta_expect_dtype(L, op, window, "window", TA_INT16, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_INT16, -1) ||
        !ta_expect_rank(L, op, window, "window", 1) ||
        !ta_custom_option_int(L, op, "shift", 0, 31, &shift))
        return false;
    const size_t count = ta_tensor_elements(in), size = ta_tensor_elements(window);
    if (in->rank < 1 || in->rank != out->rank || count != ta_tensor_elements(out)) {
        ta_op_error(L, op, "input %s and output %s differ", ta_shape_text(L->pool, in),
                    ta_shape_text(L->pool, out));
        return false;
    }
    if (size == 0 || count % size) {
        ta_op_error(L, op, "input %s is not a whole number of windows of %zu samples",
                    ta_shape_text(L->pool, in), size);
        return false;
    }
    TaKernelCall *c = ta_call(L, op, "ta_signal_window_i16",
                              "runtime/kernels/ta_signal_spectrum.h");
    ta_signal_window_params_t *p = TA_CALL_PARAMS(L, c, ta_signal_window_params_t);
    p->count = (int32_t)count;
    p->window_size = (int32_t)size;
    p->shift = shift;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, window);
    ta_call_arg(L, c, out);
    ta_allow_inplace(op, 0); /* each sample is read before its place is written */
    op->lowered.has_macs = true;
    op->lowered.macs = (int64_t)count;
    return true;
}

static bool lower_fft_auto_scale(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 2))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0], *bits = op->outputs[1];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT16, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_INT16, -1) ||
        !ta_expect_dtype(L, op, bits, "scale bits output", TA_INT32, -1) ||
        !ta_expect_rank(L, op, in, "input", 1) || !ta_expect_rank(L, op, out, "output", 1) ||
        !ta_expect_rank(L, op, bits, "scale bits output", 0))
        return false;
    if (ta_tensor_elements(in) != ta_tensor_elements(out)) {
        ta_op_error(L, op, "input %s and output %s differ", ta_shape_text(L->pool, in),
                    ta_shape_text(L->pool, out));
        return false;
    }
    TaKernelCall *c = ta_call(L, op, "ta_signal_fft_auto_scale_i16",
                              "runtime/kernels/ta_signal_spectrum.h");
    ta_signal_fft_auto_scale_params_t *p = TA_CALL_PARAMS(L, c, ta_signal_fft_auto_scale_params_t);
    p->count = (int32_t)ta_tensor_elements(out);
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    ta_call_arg(L, c, bits);
    return true;
}

static bool lower_energy(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    int32_t start, end;
    if (!ta_expect_dtype(L, op, in, "input", TA_INT16, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_UINT32, -1) ||
        !ta_expect_rank(L, op, in, "input", 1) || !ta_expect_rank(L, op, out, "output", 1) ||
        !ta_custom_option_int(L, op, "start_index", 0, INT32_MAX, &start) ||
        !ta_custom_option_int(L, op, "end_index", 0, INT32_MAX, &end))
        return false;
    const size_t bins = ta_tensor_elements(in) / 2, count = ta_tensor_elements(out);
    if (start > end || (size_t)end > count || (size_t)end > bins) {
        ta_op_error(L, op,
                    "bins [%d, %d) do not fit the input's %zu complex values and the output's %zu",
                    start, end, bins, count);
        return false;
    }
    TaKernelCall *c = ta_call(L, op, "ta_signal_energy_i16",
                              "runtime/kernels/ta_signal_spectrum.h");
    ta_signal_energy_params_t *p = TA_CALL_PARAMS(L, c, ta_signal_energy_params_t);
    p->count = (int32_t)count;
    p->start_index = start;
    p->end_index = end;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, out);
    op->lowered.has_macs = true;
    op->lowered.macs = 2 * (int64_t)(end - start);
    return true;
}

const TaOpDef ta_op_signal_window = {NULL, lower_window};
const TaOpDef ta_op_signal_fft_auto_scale = {NULL, lower_fft_auto_scale};
const TaOpDef ta_op_signal_energy = {NULL, lower_energy};
