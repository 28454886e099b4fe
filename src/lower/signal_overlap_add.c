/*
 * signal_overlap_add.c - the Signal library's SignalOverlapAdd custom
 * operator, int16 and float32 (TFLite Micro's
 * signal/micro/kernels/overlap_add.cc): input [..., frames, frame_size],
 * output [..., frames * frame_step], one running buffer of frame_size per
 * row in persistent state.
 */
#include "../../runtime/kernels/ta_signal_overlap_add.h"
#include "common/custom_options.h"

enum { MAX_SIGNAL_SIZE = 1 << 20 }; /* keeps every index in an int32 */

static bool lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    int32_t type, step;
    if (!ta_custom_option_int(L, op, "T", INT32_MIN, INT32_MAX, &type) ||
        !ta_custom_option_int(L, op, "frame_step", 1, MAX_SIGNAL_SIZE, &step))
        return false;
    if (type != TA_INT16 && type != TA_FLOAT32) {
        ta_op_error(L, op,
                    "custom option 'T' is tensor type %d; tinyaot supports int16 (7) and "
                    "float32 (0)",
                    type);
        return false;
    }
    const TaDtype dtype = (TaDtype)type;
    if (!ta_expect_dtype(L, op, in, "input", dtype, -1) ||
        !ta_expect_dtype(L, op, out, "output", dtype, -1))
        return false;
    if (in->rank < 2 || ta_tensor_elements(in) == 0 ||
        ta_tensor_elements(in) > (size_t)MAX_SIGNAL_SIZE) {
        ta_op_error(L, op, "input %s is not [..., frames, frame_size] of 1 to %d elements",
                    ta_shape_text(L->pool, in), MAX_SIGNAL_SIZE);
        return false;
    }
    const int32_t size = in->dims[in->rank - 1], frames = in->dims[in->rank - 2];
    const int32_t rows = (int32_t)(ta_tensor_elements(in) / ((size_t)size * (size_t)frames));
    if (step > size) { /* TFLite Micro would shift its buffer by a negative count */
        ta_op_error(L, op, "frame_step %d is more than the frame size %d", step, size);
        return false;
    }
    bool fits = out->rank == in->rank - 1 && out->dims[out->rank - 1] == frames * step;
    for (int d = 0; fits && d + 2 < in->rank; d++)
        fits = out->dims[d] == in->dims[d];
    if (!fits) {
        ta_op_error(L, op, "output %s does not fit input %s (expected [..., %d])",
                    ta_shape_text(L->pool, out), ta_shape_text(L->pool, in), frames * step);
        return false;
    }
    const bool f32 = dtype == TA_FLOAT32;
    TaKernelCall *c = ta_call(L, op,
                              f32 ? "ta_signal_overlap_add_f32" : "ta_signal_overlap_add_i16",
                              "runtime/kernels/ta_signal_overlap_add.h");
    ta_signal_overlap_add_params_t *p = TA_CALL_PARAMS(L, c, ta_signal_overlap_add_params_t);
    p->rows = rows;
    p->frames = frames;
    p->frame_size = size;
    p->frame_step = step;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, ta_local_state(L, op, "overlap", dtype, rows * size));
    ta_call_arg(L, c, out);
    return true;
}

const TaOpDef ta_op_signal_overlap_add = {NULL, lower};
