/*
 * logistic.c - LOGISTIC on int8 (output 1/256, -128) and int16 (zero
 * points 0, output 2^-15). The int8 kernel looks its 256 outputs up in a
 * table built here; the int16 kernel interpolates TFLite's fixed sigmoid
 * table (runtime/kernels/ta_sigmoid_table.c). The lowering it
 * shares with TANH is here too.
 */
#include "../../runtime/kernels/ta_sigmoid_params.h"
#include "common/sigmoid_input.h"
#include "common/unary.h"
#include "common/unary_f32.h"
#include "lower.h"

/* The int8 kernels look their outputs up in a table computed here with
   the runtime's own fixed-point arithmetic, element for element what the
   reference computes. */
#include "../../runtime/kernels/ta_sigmoid_s8.h"

bool ta_sigmoid_like_input(TaLower *L, TaOp *op, const TaSigmoidLike *k, TaSigmoidInput *s)
{
    if (!ta_unary_expect(L, op, true))
        return false;
    TaTensor *in = op->inputs[0], *out = op->outputs[0];
    const bool wide = in->dtype == TA_INT16;
    int32_t multiplier, shift, radius = 0;
    if (wide) {
        if (!ta_sigmoid_input_s16(L, op, in, out, k->tanh, &multiplier, &shift))
            return false;
    } else {
        /* TFLite checks at most the zero point; the kernels assume both. */
        if (ta_zero_point(out) != k->int8_out_zero_point || ta_scale(out) != k->int8_out_scale) {
            ta_op_error(L, op, "int8 output must be quantized with scale 1/%d and zero point %d",
                        (int)(1.0f / k->int8_out_scale), (int)k->int8_out_zero_point);
            return false;
        }
        if (!ta_sigmoid_input_s8(L, op, in, &multiplier, &shift, &radius))
            return false;
    }
    *s = (TaSigmoidInput){.wide = wide,
                          .size = (int32_t)ta_tensor_elements(out),
                          .input_zero_point = ta_zero_point(in),
                          .input_range_radius = radius,
                          .input_multiplier = multiplier,
                          .input_left_shift = shift};
    return true;
}

TaTensor *ta_sigmoid_like_table(TaLower *L, TaOp *op, const TaSigmoidLike *k,
                                const TaSigmoidInput *s)
{
    if (s->wide)
        return NULL;
    int8_t table[256];
    for (int q = -128; q < 128; q++)
        table[(uint8_t)q] = ta_sigmoid_s8_element(k->tanh, s->input_zero_point,
                                                  s->input_range_radius, s->input_multiplier,
                                                  s->input_left_shift, (int8_t)q);
    return ta_local_constant(L, op, "table", TA_INT8, 256, table);
}

bool ta_sigmoid_like_lower(TaLower *L, TaOp *op, const TaSigmoidLike *k, const char *fn_s8,
                           const char *fn_s16, const char *header)
{
    TaSigmoidInput s;
    if (!ta_sigmoid_like_input(L, op, k, &s))
        return false;
    TaKernelCall *c = ta_call(L, op, s.wide ? fn_s16 : fn_s8, header);
    ta_sigmoid_params_t *p = TA_CALL_PARAMS(L, c, ta_sigmoid_params_t);
    p->size = s.size;
    p->input_zero_point = s.input_zero_point;
    p->input_range_radius = s.input_range_radius;
    p->input_multiplier = s.input_multiplier;
    p->input_left_shift = s.input_left_shift;
    ta_call_arg(L, c, op->inputs[0]);
    if (!s.wide)
        ta_call_arg(L, c, ta_sigmoid_like_table(L, op, k, &s));
    ta_call_arg(L, c, op->outputs[0]);
    ta_allow_inplace(op, 0);
    return true;
}

static bool lower(TaLower *L, TaOp *op)
{
    if (ta_unary_is_f32(op))
        return ta_lower_unary_f32(L, op, "ta_logistic_f32", 0.0f);
    static const TaSigmoidLike logistic = {0, 1.0f / 256, -128};
    return ta_sigmoid_like_lower(L, op, &logistic, "ta_logistic_s8", "ta_logistic_s16",
                                 "runtime/kernels/ta_logistic.h");
}

const TaOpDef ta_op_logistic = {NULL, lower};
