/*
 * add_sub.c - ADD and SUB, int8 and int16 (float32 through
 * common/binary_f32), with broadcasting and fused activations.
 *
 * TFLite Micro runs every quantized ADD/SUB (int16 included) through its
 * general path: both inputs are shifted left (20 bits for int8, 15 for
 * int16), rescaled to twice the larger input scale, combined, and
 * requantized to the output. It ignores pot_scale_int16, so tinyaot does
 * too (LiteRT, with the option set, has a shift-only int16 path instead).
 * Produces the three (multiplier, shift) pairs.
 */
#include "add_sub.h"
#include "../../runtime/kernels/ta_add_sub.h"
#include "common/binary.h"
#include "common/binary_f32.h"
#include "common/binary_i32.h"

enum { OPT_ACTIVATION = 0, OPT_POT_SCALE_INT16 };

typedef struct AddSubAttrs {
    int activation;
} AddSubAttrs;

static bool parse(TaLower *L, TaOp *op)
{
    TaFbReader r;
    TaFbTable t = ta_op_options(L, op, &r);
    AddSubAttrs *a = ta_alloc(L->pool, sizeof *a);
    a->activation = ta_fb_i8(t, OPT_ACTIVATION, 0);
    op->attrs = a;
    return !r.failed;
}

/* The three real multipliers, in double as the reference's Prepare for
   ADD. The TFLite Micro source computes SUB's in float, but the oracle
   (the tflite-micro wheel) computes them in double like ADD's: with float
   multipliers, int16 SUB differs by one in a few outputs of most drawn
   quantizations (checked over all pairs of 256 x 256 int16 values). */
static void real_multipliers(int left_shift, float s1, float s2, float so, double real[3])
{
    const double twice_max = 2 * (double)(s1 > s2 ? s1 : s2);
    real[0] = (double)s1 / twice_max;
    real[1] = (double)s2 / twice_max;
    real[2] = twice_max / ((double)(1 << left_shift) * (double)so);
}

bool ta_add_sub_arithmetic(TaLower *L, TaOp *op, const TaTensor *in1, const TaTensor *in2,
                           const TaTensor *out, ta_add_params_t *p)
{
    if (!op->attrs && !parse(L, op))
        return false;
    const AddSubAttrs *a = op->attrs;
    int32_t act_min, act_max;
    if (!ta_activation_range(L, op, a->activation, out, &act_min, &act_max))
        return false;
    const bool wide = out->dtype == TA_INT16;
    const int left_shift = wide ? 15 : 20;
    double real[3];
    real_multipliers(left_shift, ta_scale(in1), ta_scale(in2), ta_scale(out), real);
    int32_t mult[3];
    int shift[3];
    static const char *const what[3] = {"input 1", "input 2", "output"};
    for (int i = 0; i < 3; i++) {
        ta_quantize_multiplier(real[i], &mult[i], &shift[i]);
        /* TFLite aborts in Prepare on multipliers >= 1. */
        if (shift[i] > 0) {
            ta_op_error(L, op,
                        "the %s rescale factor %g is not below 1 (output scale %g too small "
                        "for input scales %g and %g)",
                        what[i], real[i], (double)ta_scale(out), (double)ta_scale(in1),
                        (double)ta_scale(in2));
            return false;
        }
    }
    p->left_shift = left_shift;
    p->input1_offset = -ta_zero_point(in1);
    p->input1_multiplier = mult[0];
    p->input1_shift = shift[0];
    p->input2_offset = -ta_zero_point(in2);
    p->input2_multiplier = mult[1];
    p->input2_shift = shift[1];
    p->output_offset = ta_zero_point(out);
    p->output_multiplier = mult[2];
    p->output_shift = shift[2];
    p->activation_min = act_min;
    p->activation_max = act_max;
    return true;
}

static bool lower_add_sub(TaLower *L, TaOp *op, bool sub)
{
    if (ta_binary_is_f32(op))
        return ta_lower_binary_f32(L, op, sub ? "ta_sub_f32" : "ta_add_f32",
                                   ((const AddSubAttrs *)op->attrs)->activation);
    static const int dtypes[] = {TA_INT8, TA_INT16, -1};
    if (!ta_binary_expect(L, op, -1, dtypes))
        return false;
    TaTensor *in1 = op->inputs[0], *in2 = op->inputs[1], *out = op->outputs[0];
    TaBroadcast bc;
    ta_add_params_t arithmetic = {0};
    if (!ta_broadcast_plan(L, op, in1, in2, out, &bc) ||
        !ta_add_sub_arithmetic(L, op, in1, in2, out, &arithmetic))
        return false;
    const bool wide = out->dtype == TA_INT16;
    const char *fn = sub ? (wide ? "ta_sub_s16" : "ta_sub_s8")
                         : (wide ? "ta_add_s16" : "ta_add_s8");
    TaKernelCall *c = ta_call(L, op, fn, "runtime/kernels/ta_add_sub.h");
    ta_add_params_t *p = TA_CALL_PARAMS(L, c, ta_add_params_t);
    *p = arithmetic;
    ta_broadcast_store(&bc, &p->rank, p->dims, p->stride1, p->stride2);
    ta_binary_call_args(L, op, c);
    return true;
}

static bool lower_add(TaLower *L, TaOp *op)
{
    /* TFLite Micro's int32 ADD ignores the fused activation. */
    if (op->num_inputs >= 1 && op->inputs[0] && op->inputs[0]->dtype == TA_INT32)
        return ta_lower_binary_i32(L, op, "ta_add_i32", TA_ACT_NONE);
    return lower_add_sub(L, op, false);
}

static bool lower_sub(TaLower *L, TaOp *op)
{
    return lower_add_sub(L, op, true);
}

const TaOpDef ta_op_add = {parse, lower_add};
const TaOpDef ta_op_sub = {parse, lower_sub};
