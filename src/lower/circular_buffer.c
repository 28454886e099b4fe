/*
 * circular_buffer.c - TFLite Micro's CIRCULAR_BUFFER custom operator:
 * int8 input [1, 1, H, W], output [1, slots, H, W], the last `slots`
 * inputs in order (ta_circular_buffer.h), the window persistent state.
 *
 * TFLite Micro runs the rest of the graph only on every cycles_max-th run
 * (its Eval returns kTfLiteAbort on the others). tinyaot runs cycles_max
 * 1 only: the option "cycles_max" 1, or no options and 5, 13 or 25 slots
 * (where TFLite Micro's Prepare picks 1; elsewhere it picks 2, or 1 by a
 * count of Prepare calls across models, which no model can pin down).
 * Only the first batch is shifted by TFLite Micro, so the batch is 1.
 */
#include "../../runtime/kernels/ta_circular_buffer.h"
#include "common/custom_options.h"

/* cycles_max as TFLite Micro's Init and Prepare set it: the option (0
   without options); one not above 0 becomes 1 for 5, 13 or 25 slots, and
   stays 0 (TFLite Micro's 2, or 1 by a count of Prepare calls) otherwise. */
static bool cycles_max(TaLower *L, TaOp *op, int32_t slots, int32_t *cycles)
{
    *cycles = 0;
    if (op->custom_options_size > 0 &&
        !ta_custom_option_int(L, op, "cycles_max", INT32_MIN, INT32_MAX, cycles))
        return false;
    if (*cycles <= 0)
        *cycles = slots == 5 || slots == 13 || slots == 25 ? 1 : 0;
    return true;
}

static bool expect_shapes(TaLower *L, TaOp *op)
{
    const TaTensor *in = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, in, "input", TA_INT8, -1) ||
        !ta_expect_dtype(L, op, out, "output", TA_INT8, -1))
        return false;
    bool ok = in->rank == 4 && out->rank == 4 && in->dims[1] == 1 && out->dims[1] >= 1 &&
              in->dims[2] == out->dims[2] && in->dims[3] == out->dims[3] &&
              in->dims[0] == out->dims[0];
    if (!ok) {
        ta_op_error(L, op, "input %s and output %s are not [N, 1, H, W] and [N, slots, H, W]",
                    ta_shape_text(L->pool, in), ta_shape_text(L->pool, out));
        return false;
    }
    if (in->dims[0] != 1) {
        ta_op_error(L, op, "batch %d is not supported: TFLite Micro shifts the first batch only",
                    (int)in->dims[0]);
        return false;
    }
    if ((int64_t)ta_tensor_bytes(out) > INT32_MAX) {
        ta_op_error(L, op, "output %s is too large", ta_shape_text(L->pool, out));
        return false;
    }
    return true;
}

static bool lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 1, 1, 1) || !expect_shapes(L, op))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    const int32_t slots = out->dims[1];
    int32_t cycles;
    if (!cycles_max(L, op, slots, &cycles))
        return false;
    if (cycles != 1) {
        ta_op_error(L, op,
                    "cycles_max %d is not supported: tinyaot runs cycles_max 1 (the option, "
                    "or none with 5, 13 or 25 slots; 0 is TFLite Micro's default elsewhere)",
                    (int)cycles);
        return false;
    }
    const int32_t depth = in->dims[2] * in->dims[3];
    if (depth == 0)
        return true;
    TaTensor *window = ta_local_state(L, op, "window", TA_INT8, slots * depth);
    TaKernelCall *c = ta_call(L, op, "ta_circular_buffer_s8",
                              "runtime/kernels/ta_circular_buffer.h");
    ta_circular_buffer_params_t *p = TA_CALL_PARAMS(L, c, ta_circular_buffer_params_t);
    p->slots = slots;
    p->depth = depth;
    ta_call_arg(L, c, in);
    ta_call_arg(L, c, window);
    ta_call_arg(L, c, out);
    return true;
}

const TaOpDef ta_op_circular_buffer = {NULL, lower};
