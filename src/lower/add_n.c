/*
 * add_n.c - ADD_N: the elementwise sum of two or more same-shape inputs,
 * float32 or int8 as TFLite Micro runs it. A kernel call takes a fixed
 * number of tensors, so the sum is one call per input over an
 * accumulator (the float32 output itself, or int32 scratch for int8).
 */
#include "../../runtime/kernels/ta_add_n.h"
#include "../../runtime/kernels/ta_add_n_f32.h"
#include "lower.h"

#include <limits.h>

/* TFLite Micro's kAddNIntegerShift. */
#define ADD_N_LEFT_SHIFT 20

static bool same_shape(const TaTensor *a, const TaTensor *b)
{
    if (a->rank != b->rank)
        return false;
    for (int d = 0; d < a->rank; d++)
        if (a->dims[d] != b->dims[d])
            return false;
    return true;
}

static bool check_operands(TaLower *L, TaOp *op)
{
    TaTensor *first = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_dtype(L, op, first, "input 0", TA_FLOAT32, TA_INT8, -1) ||
        !ta_expect_dtype(L, op, out, "output", first->dtype, -1))
        return false;
    if (!same_shape(first, out)) {
        ta_op_error(L, op, "output %s differs from input %s", ta_shape_text(L->pool, out),
                    ta_shape_text(L->pool, first));
        return false;
    }
    for (int i = 1; i < op->num_inputs; i++) {
        const TaTensor *t = op->inputs[i];
        if (!ta_expect_dtype(L, op, t, "input", first->dtype, -1))
            return false;
        if (!same_shape(first, t)) {
            ta_op_error(L, op, "input %d %s differs from input 0 %s", i, ta_shape_text(L->pool, t),
                        ta_shape_text(L->pool, first));
            return false;
        }
        if (first->dtype == TA_INT8 &&
            (ta_scale(t) != ta_scale(first) || ta_zero_point(t) != ta_zero_point(first))) {
            ta_op_error(L, op,
                        "input %d's quantization differs from input 0's (TFLite Micro "
                        "requires one)",
                        i);
            return false;
        }
    }
    return true;
}

static bool lower_float(TaLower *L, TaOp *op)
{
    TaTensor *out = op->outputs[0];
    for (int i = 0; i < op->num_inputs; i++) {
        TaKernelCall *c = ta_call(L, op, i == 0 ? "ta_add_n_f32_first" : "ta_add_n_f32_accumulate",
                                  "runtime/kernels/ta_add_n_f32.h");
        ta_add_n_f32_params_t *p = TA_CALL_PARAMS(L, c, ta_add_n_f32_params_t);
        p->size = (int32_t)ta_tensor_elements(out);
        ta_call_arg(L, c, op->inputs[i]);
        ta_call_arg(L, c, out);
    }
    return true;
}

static bool lower_int8(TaLower *L, TaOp *op)
{
    TaTensor *first = op->inputs[0], *out = op->outputs[0];
    if (!ta_expect_per_tensor(L, op, first, "input 0") ||
        !ta_expect_per_tensor(L, op, out, "output"))
        return false;
    /* Prepare's arithmetic: the inputs scaled by s / 2s, the sum by
       2s / (2^20 * output scale), both in double. */
    const double twice_input_scale = 2 * (double)ta_scale(first);
    const double input_real = (double)ta_scale(first) / twice_input_scale;
    const double output_real = twice_input_scale /
                               ((double)(1 << ADD_N_LEFT_SHIFT) * (double)ta_scale(out));
    if (!(output_real > 0 && output_real < 1)) {
        ta_op_error(L, op,
                    "output scale %g is too small for input scale %g (TFLite Micro "
                    "needs a multiplier below 1)",
                    (double)ta_scale(out), (double)ta_scale(first));
        return false;
    }
    int32_t in_mult, out_mult, lo, hi;
    int in_shift, out_shift;
    ta_quantize_multiplier(input_real, &in_mult, &in_shift);
    ta_quantize_multiplier(output_real, &out_mult, &out_shift);
    if (!ta_activation_range(L, op, TA_ACT_NONE, out, &lo, &hi))
        return false;
    const int32_t size = (int32_t)ta_tensor_elements(out);
    TaTensor *sum = ta_local_scratch(L, op, "sum", size * 4);
    const int n = op->num_inputs;
    for (int i = 0; i < n; i++) {
        const char *fn = i == 0       ? "ta_add_n_s8_first"
                         : i == n - 1 ? "ta_add_n_s8_finish"
                                      : "ta_add_n_s8_accumulate";
        TaKernelCall *c = ta_call(L, op, fn, "runtime/kernels/ta_add_n.h");
        ta_add_n_s8_params_t *p = TA_CALL_PARAMS(L, c, ta_add_n_s8_params_t);
        p->size = size;
        p->input_offset = -ta_zero_point(first);
        p->left_shift = ADD_N_LEFT_SHIFT;
        p->input_multiplier = in_mult;
        p->input_shift = in_shift;
        p->output_offset = ta_zero_point(out);
        p->output_multiplier = out_mult;
        p->output_shift = out_shift;
        p->activation_min = lo;
        p->activation_max = hi;
        ta_call_arg(L, c, op->inputs[i]);
        ta_call_arg(L, c, sum);
        if (i == n - 1)
            ta_call_arg(L, c, out);
    }
    return true;
}

static bool lower(TaLower *L, TaOp *op)
{
    if (!ta_expect_counts(L, op, 2, INT_MAX, 1) || !check_operands(L, op))
        return false;
    if (ta_tensor_elements(op->outputs[0]) == 0)
        return true;
    return op->inputs[0]->dtype == TA_FLOAT32 ? lower_float(L, op) : lower_int8(L, op);
}

const TaOpDef ta_op_add_n = {NULL, lower};
