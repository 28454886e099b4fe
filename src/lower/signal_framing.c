/*
 * signal_framing.c - the Signal library's SignalDelay, SignalFramer and
 * SignalStacker custom operators, int16 (TFLite Micro's
 * signal/micro/kernels/delay.cc, framer.cc and stacker.cc). Their streams
 * live in persistent state, zero after model_init (see
 * ta_signal_framing.h for why zero is TFLite Micro's starting point).
 * Option values TFLite Micro's circular buffers cannot hold (they would
 * write past the buffer) are errors here.
 */
#include "../../runtime/kernels/ta_signal_framing.h"
#include "common/custom_options.h"

/* Sizes are kept below this so every state and index fits an int32. */
enum { MAX_SIGNAL_SIZE = 1 << 20 };

/* The innermost dimension and the count of rows before it. */
static bool rows_of(TaLower *L, TaOp *op, const TaTensor *t, int32_t *rows, int32_t *inner)
{
    if (t->rank < 1 || t->dims[t->rank - 1] <= 0 ||
        ta_tensor_elements(t) > (size_t)MAX_SIGNAL_SIZE) {
        ta_op_error(L, op, "input %s is empty or larger than %d elements",
                    ta_shape_text(L->pool, t), MAX_SIGNAL_SIZE);
        return false;
    }
    *inner = t->dims[t->rank - 1];
    *rows = (int32_t)(ta_tensor_elements(t) / (size_t)*inner);
    return true;
}

static bool same_rows(TaLower *L, TaOp *op, const TaTensor *in, const TaTensor *out, int32_t inner)
{
    bool same = out->rank == in->rank && out->dims[out->rank - 1] == inner;
    for (int d = 0; same && d + 1 < in->rank; d++)
        same = out->dims[d] == in->dims[d];
    if (!same)
        ta_op_error(L, op, "output %s does not fit input %s (expected its shape with %d last)",
                    ta_shape_text(L->pool, out), ta_shape_text(L->pool, in), inner);
    return same;
}

static bool lower_delay(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    int32_t delay, rows, size;
    if (!ta_custom_option_int(L, op, "delay_length", 0, MAX_SIGNAL_SIZE, &delay) ||
        !ta_expect_dtype(L, op, in, "input", TA_INT16, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_INT16, -1) || !rows_of(L, op, in, &rows, &size) ||
        !same_rows(L, op, in, out, size))
        return false;
    if ((int64_t)rows * delay > MAX_SIGNAL_SIZE) {
        ta_op_error(L, op, "delay_length %d over %d rows is more than %d samples of state", delay,
                    rows, MAX_SIGNAL_SIZE);
        return false;
    }
    TaKernelCall *c = ta_call(L, op, "ta_signal_delay_i16", "runtime/kernels/ta_signal_framing.h");
    ta_signal_delay_params_t *p = TA_CALL_PARAMS(L, c, ta_signal_delay_params_t);
    p->rows = rows;
    p->frame_size = size;
    p->delay_length = delay;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, ta_local_state(L, op, "delayed", TA_INT16, delay ? rows * delay : 1));
    ta_call_arg(L, c, out);
    return true;
}

/* The valid flag: a rank-0 bool. */
static bool expect_valid_flag(TaLower *L, TaOp *op, const TaTensor *valid)
{
    if (!ta_expect_dtype(L, op, valid, "output 1 (valid)", TA_BOOL, -1))
        return false;
    if (valid->rank != 0) {
        ta_op_error(L, op, "output 1 (valid) %s is not a scalar", ta_shape_text(L->pool, valid));
        return false;
    }
    return true;
}

static bool lower_framer(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 2))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0], *valid = op->outputs[1];
    int32_t size, step, prefill, rows, inner;
    if (!ta_custom_option_int(L, op, "frame_size", 1, MAX_SIGNAL_SIZE, &size) ||
        !ta_custom_option_int(L, op, "frame_step", 1, MAX_SIGNAL_SIZE, &step) ||
        !ta_custom_option_int(L, op, "prefill", 0, 1, &prefill) ||
        !ta_expect_dtype(L, op, in, "input", TA_INT16, -1) ||
        !ta_expect_dtype(L, op, out, "output 0", TA_INT16, -1) ||
        !expect_valid_flag(L, op, valid) || !rows_of(L, op, in, &rows, &inner))
        return false;
    if (prefill && step > size) { /* TFLite Micro would prefill a negative count */
        ta_op_error(L, op, "prefill with frame_step %d above frame_size %d", step, size);
        return false;
    }
    if (inner % step) {
        ta_op_error(L, op, "input %s: the last dimension is not a multiple of frame_step %d",
                    ta_shape_text(L->pool, in), step);
        return false;
    }
    const int32_t frames = inner / step;
    bool fits = out->rank == in->rank + 1 && out->dims[out->rank - 2] == frames &&
                out->dims[out->rank - 1] == size;
    for (int d = 0; fits && d + 1 < in->rank; d++)
        fits = out->dims[d] == in->dims[d];
    if (!fits) {
        ta_op_error(L, op, "output 0 %s does not fit input %s (expected [..., %d, %d])",
                    ta_shape_text(L->pool, out), ta_shape_text(L->pool, in), frames, size);
        return false;
    }
    const int64_t capacity = (int64_t)size + step - 1;
    if (rows * capacity > MAX_SIGNAL_SIZE || (int64_t)rows * frames * size > MAX_SIGNAL_SIZE) {
        ta_op_error(L, op, "frames of %d samples over %d rows need more than %d samples", size,
                    rows, MAX_SIGNAL_SIZE);
        return false;
    }
    TaKernelCall *c = ta_call(L, op, "ta_signal_framer_i16", "runtime/kernels/ta_signal_framing.h");
    ta_signal_framer_params_t *p = TA_CALL_PARAMS(L, c, ta_signal_framer_params_t);
    p->rows = rows;
    p->frames = frames;
    p->frame_size = size;
    p->frame_step = step;
    p->capacity = (int32_t)capacity;
    p->prefill = prefill ? size - step : 0;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, ta_local_state(L, op, "pending", TA_INT16, rows * (int32_t)capacity));
    ta_call_arg(L, c, ta_local_state(L, op, "held", TA_INT32, rows));
    ta_call_arg(L, c, out);
    ta_call_arg(L, c, valid);
    return true;
}

static bool lower_stacker(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 2))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0], *valid = op->outputs[1];
    int32_t channels, left, right, step;
    if (!ta_custom_option_int(L, op, "num_channels", 1, MAX_SIGNAL_SIZE, &channels) ||
        !ta_custom_option_int(L, op, "stacker_left_context", 0, MAX_SIGNAL_SIZE, &left) ||
        !ta_custom_option_int(L, op, "stacker_right_context", 0, MAX_SIGNAL_SIZE, &right) ||
        !ta_custom_option_int(L, op, "stacker_step", 1, MAX_SIGNAL_SIZE, &step) ||
        !ta_expect_dtype(L, op, in, "input", TA_INT16, -1) ||
        !ta_expect_dtype(L, op, out, "output 0", TA_INT16, -1) || !expect_valid_flag(L, op, valid))
        return false;
    const int64_t frames = (int64_t)left + 1 + right, window = frames * channels;
    if (window > MAX_SIGNAL_SIZE) {
        ta_op_error(L, op, "a window of %lld frames of %d channels is more than %d values",
                    (long long)frames, channels, MAX_SIGNAL_SIZE);
        return false;
    }
    if (step > frames) { /* TFLite Micro would discard more than its buffer holds */
        ta_op_error(L, op, "stacker_step %d is more than the %lld frames of a window", step,
                    (long long)frames);
        return false;
    }
    if (in->rank != 1 || in->dims[0] != channels || out->rank != 1 || out->dims[0] != window) {
        ta_op_error(L, op, "input %s and output %s do not fit %d channels ([%d] in, [%lld] out)",
                    ta_shape_text(L->pool, in), ta_shape_text(L->pool, out), channels, channels,
                    (long long)window);
        return false;
    }
    TaKernelCall *c = ta_call(L, op, "ta_signal_stacker_i16",
                              "runtime/kernels/ta_signal_framing.h");
    ta_signal_stacker_params_t *p = TA_CALL_PARAMS(L, c, ta_signal_stacker_params_t);
    p->channels = channels;
    p->window = (int32_t)window;
    p->advance = step * channels;
    p->left_context = left;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, ta_local_state(L, op, "window", TA_INT16, (int32_t)window));
    ta_call_arg(L, c, ta_local_state(L, op, "held", TA_INT32, 2));
    ta_call_arg(L, c, out);
    ta_call_arg(L, c, valid);
    return true;
}

const TaOpDef ta_op_signal_delay = {NULL, lower_delay};
const TaOpDef ta_op_signal_framer = {NULL, lower_framer};
const TaOpDef ta_op_signal_stacker = {NULL, lower_stacker};
